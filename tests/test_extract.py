"""Claim extraction from text (midas_graph._extract) with the real spaCy model.

Reference time for every case: Wednesday 2024-03-06 15:00 UTC. Speaker
"Dana", listener "Sam" unless a case says otherwise.
"""

from __future__ import annotations

import datetime as dt

import pytest

from midas_graph._extract import Claim, Extraction, Mention, extract, extract_many
from midas_graph._timeexpr import TimeRef, parse_duration, resolve

UTC = dt.timezone.utc
REF = dt.datetime(2024, 3, 6, 15, 0, tzinfo=UTC)  # a Wednesday


@pytest.fixture(scope="session")
def nlp():
    from midas_graph.models import load_spacy

    return load_spacy()


def d(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s).replace(tzinfo=UTC)


def run(nlp, text: str, speaker: str = "Dana", listener: str | None = "Sam") -> Extraction:
    return extract(text, speaker=speaker, reference_time=REF, listener=listener, doc=nlp(text))


def triples(ex: Extraction) -> set[tuple]:
    return {(c.subject, c.attribute, c.value, c.polarity) for c in ex.claims}


def show(ex: Extraction) -> str:
    return "; ".join(f"{c.subject}|{c.attribute}|{c.value!r}|{c.polarity}" for c in ex.claims) or "<none>"


# --- positive cases: (text, expected claims (subject, attribute, value, polarity)) --------------
# Every expected claim must be present; where the case is marked exact, nothing else may be.

A, N, C = "assert", "negate", "cease"

POSITIVE = [
    # copular and possessive
    ("My favorite color is blue.", [("Dana", "favorite_color", "blue", A)], True),
    ("My favourite colour is green.", [("Dana", "favorite_color", "green", A)], True),
    ("Blue is my favorite color.", [("Dana", "favorite_color", "blue", A)], True),
    ("My favorite food is sushi.", [("Dana", "favorite_food", "sushi", A)], True),
    ("Melanie's daughter is Emma.", [("Melanie", "daughter", "Emma", A)], True),
    ("Emma is my daughter.", [("Dana", "daughter", "Emma", A)], True),
    ("My boss is Tom.", [("Dana", "manager", "Tom", A)], True),
    ("My name is Dana Whitfield.", [("Dana", "name", "Dana Whitfield", A)], True),
    ("My email is dana@example.com.", [("Dana", "email", "dana@example.com", A)], True),
    ("I'm 34 years old.", [("Dana", "age", 34, A)], True),
    ("I'm married to Tom.", [("Dana", "marital_status", "married", A), ("Dana", "spouse", "Tom", A)], True),
    ("I'm a vegetarian.", [("Dana", "diet", "vegetarian", A)], True),
    ("I'm from Sweden.", [("Dana", "origin", "Sweden", A)], True),
    ("Tim Cook is the CEO of Apple.", [("Apple", "ceo", "Tim Cook", A), ("Tim Cook", "job_title", "CEO", A)], False),
    ("Rex is a golden retriever.", [("Rex", "is_a", "golden retriever", A)], True),
    # location
    ("I live in Berlin.", [("Dana", "lives_in", "Berlin", A)], True),
    ("We finally moved to Lisbon last week!", [("Dana", "lives_in", "Lisbon", A)], True),
    ("I relocated to Toronto in January.", [("Dana", "lives_in", "Toronto", A)], True),
    ("I'm based in Amsterdam these days.", [("Dana", "lives_in", "Amsterdam", A)], True),
    ("Just wanted to let you know I moved to Denver.", [("Dana", "lives_in", "Denver", A)], True),
    ("Big news: we moved to Porto.", [("Dana", "lives_in", "Porto", A)], True),
    ("I moved out of Berlin.", [("Dana", "lives_in", "Berlin", C)], True),
    ("I used to live in Hamburg.", [("Dana", "lives_in", "Hamburg", C)], True),
    # employment
    ("I work at Google as a software engineer.",
     [("Dana", "employer", "Google", A), ("Dana", "job_title", "software engineer", A)], True),
    ("I joined Stripe last month.", [("Dana", "employer", "Stripe", A)], True),
    ("I left Acme in March.", [("Dana", "employer", "Acme", C)], True),
    ("I quit Initech.", [("Dana", "employer", "Initech", C)], True),
    ("I work as a nurse.", [("Dana", "job_title", "nurse", A)], True),
    ("Caroline is a nurse.", [("Caroline", "job_title", "nurse", A)], True),
    ("I'm a nurse at St Mary's hospital.",
     [("Dana", "job_title", "nurse", A), ("Dana", "employer", "St Mary's hospital", A)], True),
    ("Guess what, I got a job at Shopify!", [("Dana", "employer", "Shopify", A)], True),
    ("I got promoted to senior engineer last week.", [("Dana", "job_title", "senior engineer", A)], True),
    ("I left Acme to join Globex.", [("Dana", "employer", "Acme", C), ("Dana", "employer", "Globex", A)], True),
    ("I quit my job.", [("Dana", "employer", "", C)], True),
    # preferences
    ("I love hiking and swimming.", [("Dana", "likes", "hiking", A), ("Dana", "likes", "swimming", A)], True),
    ("I hate mornings.", [("Dana", "dislikes", "mornings", A)], True),
    ("I prefer tea over coffee.", [("Dana", "prefers", "tea", A)], True),
    ("I enjoy Italian food.", [("Dana", "likes", "Italian food", A)], True),
    ("I'm really into pottery these days.", [("Dana", "likes", "pottery", A)], True),
    ("I'm a big fan of jazz.", [("Dana", "likes", "jazz", A)], True),
    ("I can't stand country music.", [("Dana", "dislikes", "country music", A)], True),
    ("I speak English, Spanish and French.",
     [("Dana", "speaks", "English", A), ("Dana", "speaks", "Spanish", A), ("Dana", "speaks", "French", A)], True),
    # having
    # habits said as habits: an activity verb with a word of frequency, "go running", "do yoga"
    ("I go running every morning before work.", [("Dana", "habit", "running", A)], True),
    ("I swim three times a week now.", [("Dana", "habit", "swimming", A)], True),
    ("I do yoga on Sundays.", [("Dana", "habit", "yoga", A)], True),
    ("I've been going climbing with Sam.", [("Dana", "habit", "climbing", A)], True),
    ("Knee's shot. Doing pilates instead, it's gentler.", [("Dana", "habit", "pilates", A)], True),
    ("I run a small bakery.", [], True),
    ("Throughput climbed to 800 rps.", [("Dana", "throughput", "800 rps", A)], True),  # a measure, no climbing
    ("I ran a marathon last year.", [], True),
    # cars by make or model: bought, driven, had, sold
    ("We drive a Subaru Outback.", [("Dana", "car", "Subaru Outback", A)], True),
    ("We bought a used Tesla Model Y.", [("Dana", "car", "Tesla Model Y", A)], True),
    ("We have a red Toyota Prius.", [("Dana", "car", "Toyota Prius", A)], True),
    ("We sold the Outback.", [("Dana", "car", "Outback", C)], True),
    ("I need a Tesla charger.", [], True),
    # a visitor lives where they come from
    ("My mom is visiting from Ohio next week.", [("Dana's mom", "lives_in", "Ohio", A)], True),
    ("Tom is flying in from Leeds for the wedding.", [("Tom", "lives_in", "Leeds", A)], True),
    ("My brother came back from Paris.", [], True),
    ("I'm coming from work.", [], True),
    ("I have a dog named Rex.", [("Dana", "has_dog", "Rex", A)], True),
    ("We adopted a cat named Luna two days ago.", [("Dana", "has_cat", "Luna", A)], True),
    ("My dog's name is Biscuit.", [("Dana", "has_dog", "Biscuit", A)], True),
    ("I have two kids.", [("Dana", "num_kids", 2, A)], True),
    ("I have a sister named Ana.", [("Dana", "sister", "Ana", A)], True),
    ("I have a golden retriever.", [("Dana", "has", "golden retriever", A)], True),
    # plans and events with dates (owner-less plans belong to the speaker)
    ("The launch is on May 3.", [("Dana", "release_date", "2024-05-03", A)], True),
    ("The deadline moved to Friday.", [("Dana", "deadline", "2024-03-08", A)], True),
    ("The deadline got pushed to next Friday.", [("Dana", "deadline", "2024-03-15", A)], True),
    ("The Apollo launch slipped to June 12.", [("Apollo", "release_date", "2024-06-12", A)], True),
    ("The Artemis deadline is next Friday.", [("Artemis", "deadline", "2024-03-15", A)], True),
    ("We pushed the launch to June.", [("Dana", "release_date", "2024-06", A)], True),
    ("The report is due Friday.", [("Dana", "report_deadline", "2024-03-08", A)], True),
    ("The meeting was moved to Thursday.", [("Dana", "meeting_date", "2024-03-07", A)], True),
    # whoever moves a plan, it stays its owner's; the new time may hang under "back"/"up"
    ("They have moved the surgery again, to March 27.", [("Dana", "surgery_date", "2024-03-27", A)], True),
    ("The clinic rescheduled my appointment for next Tuesday.", [("Dana", "appointment_date", "2024-03-12", A)], True),
    ("The dentist appointment got pushed back to Friday.", [("Dana", "dentist_appointment_date", "2024-03-08", A)], True),
    ("My flight was moved up to April 2.", [("Dana", "flight_date", "2024-04-02", A)], True),
    # numbers
    ("Response time is now 250ms.", [("Dana", "response_time", "250 ms", A)], True),
    ("Our p95 latency dropped to 180 ms.", [("Dana", "p95_latency", "180 ms", A)], True),
    ("The budget is $5,000.", [("Dana", "budget", "5000 USD", A)], True),
    ("We cut the budget to $4k.", [("Dana", "budget", "4000 USD", A)], True),
    ("Our rent went up to $2,000.", [("Dana", "rent", "2000 USD", A)], True),
    ("Latency went down to 180ms from 300ms.", [("Dana", "response_time", "180 ms", A)], True),
    # negation and cessation
    ("I no longer live in Berlin.", [("Dana", "lives_in", "Berlin", C)], True),
    ("I don't eat meat anymore.", [("Dana", "eats", "meat", C)], True),
    ("I stopped eating meat.", [("Dana", "eats", "meat", C)], True),
    ("I don't like coffee.", [("Dana", "likes", "coffee", N)], True),
    ("I don't like coffee anymore.", [("Dana", "likes", "coffee", C)], True),
    ("I'm not a nurse anymore.", [("Dana", "job_title", "nurse", C)], True),
    ("I don't have a car anymore.", [("Dana", "has", "car", C)], True),
    ("I was laid off from Acme last month.", [("Dana", "employer", "Acme", C)], True),
    # third person about named people
    ("Caroline moved to Sweden last year.", [("Caroline", "lives_in", "Sweden", A)], True),
    ("John works at Microsoft.", [("John", "employer", "Microsoft", A)], True),
    ("Melanie has two kids.", [("Melanie", "num_kids", 2, A)], True),
    ("Priya loves rock climbing.", [("Priya", "likes", "rock climbing", A)], True),
    ("My sister lives in Paris.", [("Dana's sister", "lives_in", "Paris", A)], True),
    ("Tom and Anna got married in June.",
     [("Tom", "marital_status", "married", A), ("Anna", "marital_status", "married", A),
      ("Tom", "spouse", "Anna", A), ("Anna", "spouse", "Tom", A)], True),
    ("My partner and I live in Oslo.", [("Dana", "lives_in", "Oslo", A), ("Dana's partner", "lives_in", "Oslo", A)], True),
    # more phrasings
    ("I'm obsessed with Taylor Swift.", [("Dana", "likes", "Taylor Swift", A)], True),
    ("My fav movie is Inception.", [("Dana", "favorite_movie", "Inception", A)], True),
    ("Coconut milk ice cream is one of my favorites.", [("Dana", "likes", "coconut milk ice cream", A)], True),
    ("We have a golden retriever called Max.", [("Dana", "has_dog", "Max", A)], True),
    ("I'm the head chef at Luigi's.", [("Dana", "job_title", "head chef", A), ("Dana", "employer", "Luigi's", A)], True),
    ("I was promoted to head of design.", [("Dana", "job_title", "head of design", A)], True),
    ("I currently live in a small town near Lyon.", [("Dana", "lives_in", "small town near Lyon", A)], True),
    ("I weigh 70 kilos.", [("Dana", "weight", "70 kg", A)], True),
    ("The error rate is down to 0.5%.", [("Dana", "error_rate", "0.5%", A)], True),
    ("The kickoff meeting is at 10am tomorrow.", [("Dana", "kickoff_meeting_date", "2024-03-07", A)], True),
    ("The Q3 deadline is September 30.", [("Dana", "q3_deadline", "2024-09-30", A)], True),
    ("I gave up sugar last month.", [("Dana", "habit", "sugar", C)], True),
    ("I no longer work at Deloitte; I joined PwC in May.",
     [("Dana", "employer", "Deloitte", C), ("Dana", "employer", "PwC", A)], True),
    ("I'm a vegetarian, remember?", [("Dana", "diet", "vegetarian", A)], True),
    ("I'm no writer.", [("Dana", "job_title", "writer", N)], True),
    ("Caroline lives in Boston.", [("Caroline", "lives_in", "Boston", A)], True),
    # chat fragments without a subject are the speaker's
    ("Moved to Lisbon last week!", [("Dana", "lives_in", "Lisbon", A)], True),
    ("Just started at Google!", [("Dana", "employer", "Google", A)], True),
    ("Got a job at Stripe.", [("Dana", "employer", "Stripe", A)], True),
    # a field of work done at a named employer
    ("Tom is still doing civil engineering at WSP.",
     [("Tom", "employer", "WSP", A), ("Tom", "industry", "engineering", A)], True),
    ("I do design for Pentagram.", [("Dana", "employer", "Pentagram", A), ("Dana", "industry", "design", A)], True),
    ("Tom does yoga at Equinox now.", [("Tom", "habit", "yoga", A)], True),  # a habit, no employer
    # couples said of the pair (relationships.toml)
    ("me and javi are official 🙈", [("Dana", "partner", "Javi", A)], True),
    ("Javi and I started dating.", [("Dana", "partner", "Javi", A)], True),
    ("i've been seeing marco since june", [("Dana", "partner", "Marco", A)], True),
    ("Terrence proposed to Keisha AT THE PARTY?? she said yes",
     [("Terrence", "fiance", "Keisha", A), ("Keisha", "fiance", "Terrence", A)], True),
    ("terrence & keisha got engaged!!", [("Terrence", "fiance", "Keisha", A), ("Keisha", "fiance", "Terrence", A)], True),
    # a couple said of two others: married, or expecting ("due in April" dates the baby, not the couple)
    ("Ann and Bob tied the knot!", [("Ann", "spouse", "Bob", A), ("Bob", "spouse", "Ann", A)], True),
    ("Shelby and Josh are expecting, due in April.",
     [("Shelby", "partner", "Josh", A), ("Josh", "partner", "Shelby", A)], True),
    # "??" after a statement is surprise, not a question
    ("I moved to Denver??", [("Dana", "lives_in", "Denver", A)], True),
    ("Lucia got the UPMC residency!!", [("Lucia", "employer", "UPMC", A)], True),
    # a lone name the small model calls a date is no time
    ("I work at Baird.", [("Dana", "employer", "Baird", A)], True),
    # a first name ending in s the small model tags a plural noun
    ("Anders has accepted a position with Equinor.", [("Anders", "employer", "Equinor", A)], True),
    # a "where" clause that says what someone is, inside a sentence about something else
    ("The dental office where Anne is a hygienist has lost two girls.", [("Anne", "job_title", "hygienist", A)], True),
]


@pytest.mark.parametrize("text,expected,exact", POSITIVE, ids=[p[0][:48] for p in POSITIVE])
def test_positive(nlp, text, expected, exact):
    ex = run(nlp, text)
    got = triples(ex)
    for exp in expected:
        assert exp in got, f"missing {exp} in: {show(ex)}"
    if exact:
        assert len(ex.claims) == len(expected), f"extra claims: {show(ex)}"
    for c in ex.claims:
        assert c.text.strip() and c.text.strip() in text
        assert c.polarity in ("assert", "negate", "cease")


# --- nothing to extract --------------------------------------------------------------------

NEGATIVE = [
    # questions
    "How are you?",
    "Where do you live?",
    "Do you like coffee?",
    "Did you move to Berlin?",
    "Is your favorite color blue?",
    "what's your job these days",
    "Are you still working at Google?",
    # chit-chat
    "lol that's great",
    "Thanks, Melanie! That's really sweet.",
    "I love that!",
    "I love your photos!",
    "Wow, that sounds amazing.",
    "I'm so happy for you!",
    "The weather is nice today.",
    "My day was great.",
    "haha yes",
    "I'm good, thanks.",
    "I loved the concert last night.",
    # hypotheticals, wishes, plans without a date, hedges
    "If I moved to Paris, I would be happy.",
    "I'd love to move to Paris.",
    "I want to live in Tokyo someday.",
    "I think I'll move to Paris.",
    "I might join Google.",
    "Maybe I should quit my job.",
    "I'm thinking about moving to Lisbon.",
    "We could relocate to Madrid.",
    "I'm going to move to Berlin.",
    # third-person pronouns are not resolved
    "She moved to Sweden last year.",
    "He works at Google.",
    # chat-like turns that mention preferences or places without stating a standing fact
    "Thanks for reminding me to focus on progress, not perfection.",
    "I'm really enjoying my new job.",
    "I love the idea and the acting.",
    "Hey Nate, long time no see!",
    "A fellow chef in the kitchen is always a great help!",
    "J.K. Rowling is such an inspiring writer.",
    "By the way, my mother came to see me two days ago.",
    "I mean, it was fun, not boring.",
    "I work on all kinds of cars at the shop.",
    "I'm keen on two projects in particular.",
    "I wish I lived in Italy.",
    "Once I finish school I'll move to Seattle.",
    "Went to the park yesterday.",
    "Loved the concert.",
    "Try hiking sometime.",
    "Let's move to Berlin.",
    "You should move to Berlin!",
    "Moving to Berlin was the best decision.",
    "I'm in Paris this week.",
    "I live on coffee.",
    "I hope you like Lisbon.",
    "Do you still work at Google",
    "I'm doing research at the lab.",
    "we're done with the report",
    "me and sam split the bill",
    "I'm seeing Dr. Lee tomorrow.",
    "mom and I are done shopping",
    "Tom and I are going out for dinner.",
    "you moved to Denver??",
    "the team and the board got engaged in talks",
    "I'm going out with Sarah tonight",
    "Tom and I are going out!",
    "My brother thinks I should move to Boston.",
    "I don't know if I like it.",
    "Glasses are expensive these days.",                      # a plural noun, not a name
    "If the clinic where Anne is a nurse closes, she will move.",  # the clause of a hypothesis
]


@pytest.mark.parametrize("text", NEGATIVE)
def test_negative(nlp, text):
    ex = run(nlp, text)
    assert ex.claims == [], show(ex)


def test_question_sentence_skipped_statement_kept(nlp):
    ex = run(nlp, "I moved to Lisbon last week! Where do you live now?")
    assert triples(ex) == {("Dana", "lives_in", "Lisbon", A)}


# --- speaker and listener -----------------------------------------------------------------------

def test_second_person_resolves_to_listener(nlp):
    ex = run(nlp, "You work at Google, right.", listener="Sam")
    assert ("Sam", "employer", "Google", A) in triples(ex)
    assert not [c for c in ex.claims if c.subject_is_speaker]


def test_second_person_without_listener_is_skipped(nlp):
    ex = run(nlp, "You live in Rome.", listener=None)
    assert ex.claims == []


def test_first_person_flags_speaker(nlp):
    ex = run(nlp, "I live in Oslo.", speaker="user")
    (c,) = ex.claims
    assert c.subject == "user" and c.subject_is_speaker and c.value_is_entity


def test_confusable_subjects_stay_apart(nlp):
    ex = run(nlp, "The Apollo deadline is Friday and the Artemis deadline is Monday.")
    got = triples(ex)
    assert ("Apollo", "deadline", "2024-03-08", A) in got
    assert ("Artemis", "deadline", "2024-03-11", A) in got


# --- corrections ------------------------------------------------------------------------------------

def test_correction_bare_value(nlp):
    ex = run(nlp, "Sorry, I meant Lisbon, not Porto.")
    (c,) = ex.claims
    assert c.correction and c.value == "Lisbon" and c.replaces == "Porto"
    assert c.attribute == "" and c.subject == "Dana"


def test_correction_full_clause(nlp):
    ex = run(nlp, "Actually, the deadline is Friday, not Thursday.")
    (c,) = ex.claims
    assert (c.attribute, c.value, c.correction, c.replaces) == ("deadline", "2024-03-08", True, "2024-03-07")


def test_correction_marker(nlp):
    ex = run(nlp, "Correction: I work at Globex.")
    (c,) = ex.claims
    assert (c.attribute, c.value, c.correction) == ("employer", "Globex", True)


def test_correction_resolved_within_message(nlp):
    ex = run(nlp, "I live in Porto. Sorry, I meant Lisbon, not Porto.")
    corr = [c for c in ex.claims if c.correction]
    assert len(corr) == 1 and corr[0].attribute == "lives_in" and corr[0].value == "Lisbon" and corr[0].replaces == "Porto"


def test_plain_update_is_not_a_correction(nlp):
    ex = run(nlp, "Actually I just moved to Lisbon.")
    assert [c.correction for c in ex.claims] == [False]


CONTRASTS = [
    # (text, attribute, value, replaces)
    ("I live in Lisbon, not in Porto.", "lives_in", "Lisbon", "Porto"),
    ("The meeting is not on Monday but on Tuesday.", "meeting_date", "2024-03-12", "2024-03-11"),
    ("I'm not a nurse but a doctor.", "job_title", "doctor", "nurse"),
    ("I meant Spanish, not Portuguese.", "", "Spanish", "Portuguese"),
    ("Sorry, I meant $50,000, not $5,000.", "", "50000 USD", "5000 USD"),
]


@pytest.mark.parametrize("text,attribute,value,replaces", CONTRASTS, ids=[c[0][:40] for c in CONTRASTS])
def test_contrast_is_a_correction_not_a_negation(nlp, text, attribute, value, replaces):
    ex = run(nlp, text)
    assert len(ex.claims) == 1, show(ex)
    c = ex.claims[0]
    assert (c.attribute, c.value, c.replaces, c.correction, c.polarity) == (attribute, value, replaces, True, A)
    assert c.valid_from is None  # the rejected date qualifies nothing


def test_negation_with_a_but_clause_stays_a_negation(nlp):
    ex = run(nlp, "I'm not a nurse, but I volunteer at a clinic.")
    assert triples(ex) == {("Dana", "job_title", "nurse", N)}
    assert not ex.claims[0].correction


def test_its_x_not_y(nlp):
    ex = run(nlp, "It's Lisbon, not Porto.")
    (c,) = ex.claims
    assert c.correction and c.value == "Lisbon" and c.replaces == "Porto"


# --- time expressions in claims -----------------------------------------------------------------

VALID_FROM = [
    ("We finally moved to Lisbon last week!", "lives_in", "2024-02-26", None),
    ("I joined Stripe last month.", "employer", "2024-02-01", None),
    ("I left Acme in March.", "employer", "2024-03-01", None),
    ("We adopted a cat named Luna two days ago.", "has_cat", "2024-03-04", None),
    ("I've lived in Lisbon since 2019.", "lives_in", "2019-01-01", None),
    ("I've worked at Google for three years.", "employer", "2021-03-06", None),
    ("Yesterday I started at Shopify.", "employer", "2024-03-05", None),
    ("I moved to Madrid on May 3.", "lives_in", "2023-05-03", None),  # past tense: the last May 3
    ("Back in 2019 I lived in Hamburg.", "lives_in", "2019-01-01", "2020-01-01"),
    ("I lived in Hamburg from 2015 to 2019.", "lives_in", "2015-01-01", "2020-01-01"),
    ("Caroline moved to Sweden last year.", "lives_in", "2023-01-01", None),
    ("I'm moving to Rome next month.", "lives_in", "2024-04-01", None),
    ("I turned 40 last week.", "age", "2024-02-26", None),
    ("I left Deloitte and started at KPMG last month.", "employer", "2024-02-01", None),  # shared by both verbs
]


@pytest.mark.parametrize("text,attribute,vf,vt", VALID_FROM, ids=[v[0][:40] for v in VALID_FROM])
def test_valid_from(nlp, text, attribute, vf, vt):
    ex = run(nlp, text)
    cs = [c for c in ex.claims if c.attribute == attribute]
    assert cs, show(ex)
    c = cs[0]
    assert c.valid_from == d(vf), (c.valid_from, show(ex))
    assert c.valid_to == (d(vt) if vt else None)
    assert c.valid_from.tzinfo is not None


def test_the_day_one_turns_a_year_older_is_a_birthday(nlp):
    """"My son turns 8 on November 19": an age and a birthday (month and day
    only: the year is the turning's); no day, no birthday."""
    ex = run(nlp, "My son turns 8 on November 19.")
    assert {(c.attribute, c.value) for c in ex.claims} == {("age", 8), ("birthday", "--11-19")}
    assert {c.attribute for c in run(nlp, "My son turns 8 next year.").claims} == {"age"}


@pytest.mark.parametrize("text, place", [
    ("I have been in Berlin since 2019.", "Berlin"),
    ("We have been in Tucson since New Year's, and I have not once needed a coat.", "Tucson"),
    ("We have been in Seattle for nine years.", "Seattle"),
    ("I have been in Rome since Monday for a conference.", None),  # a trip
    ("I am in Paris now.", None),
    ("I was in Rome for a week.", None),
])
def test_a_stay_counted_from_a_time_or_in_years_is_where_one_lives(nlp, text, place):
    got = [c.value for c in run(nlp, text).claims if c.attribute == "lives_in"]
    assert got == ([place] if place else [])


def test_shouting_and_emoji_do_not_hide_a_claim_and_quotes_stay_as_written(nlp):
    """"GOT PROMOTED 🥹 senior content strategist from 1 July": the shouted
    words are read in lower case and the emoji as the end of a sentence, and
    the claim quotes the message as it was written; acronyms stay."""
    from midas_graph._extract import extract
    from midas_graph._extract.normalize import for_parsing

    text = "GOT PROMOTED 🥹 senior content strategist from 1 July. I've only been there 5 months??"
    assert for_parsing(text) == "got promoted ! senior content strategist from 1 July. I've only been there 5 months??"
    assert for_parsing("Chidi works at UPMC 👍") == "Chidi works at UPMC 👍"
    ex = extract(text, speaker="Dana", reference_time=d("2024-06-20"))
    assert [(c.attribute, c.value) for c in ex.claims] == [("job_title", "senior content strategist")]
    assert all(u in text for u in ex.unparsed) and "GOT PROMOTED 🥹" in ex.unparsed


def test_contractions_typed_without_the_apostrophe_are_still_be(nlp):
    """"im a support engineer", "hes a chef": the tokenizer splits them like
    "I'm" and "he's" but leaves "m" and "s" as their lemma; read as "be"."""
    from midas_graph._extract import extract

    ex = extract("work stuff mostly. im a support engineer at dell", speaker="Dana", reference_time=d("2024-06-20"))
    assert [(c.attribute, c.value) for c in ex.claims] == [("job_title", "support engineer")]
    assert extract("im vegan now", speaker="Dana", reference_time=d("2024-06-20")).claims[0].value == "vegan"
    # a possessive "its" is no "it is"
    assert extract("its wheels are new", speaker="Dana", reference_time=d("2024-06-20")).claims == []


def test_time_not_shared_with_a_conjunct_that_has_its_own(nlp):
    ex = run(nlp, "I moved to Berlin in 2019 and started at Zalando last month.")
    vf = {c.attribute: c.valid_from for c in ex.claims}
    assert vf == {"lives_in": d("2019-01-01"), "employer": d("2024-02-01")}


def test_no_time_expression_no_valid_from(nlp):
    (c,) = run(nlp, "I live in Berlin.").claims
    assert c.valid_from is None and c.valid_to is None


def test_past_state_with_until_is_cessation(nlp):
    (c,) = run(nlp, "I lived in Berlin until last year.").claims
    assert c.polarity == C and c.valid_from == d("2023-01-01")


def test_plan_without_date_is_not_a_fact_but_with_date_is(nlp):
    assert run(nlp, "I'm moving to Rome.").claims == []
    (c,) = run(nlp, "I'm moving to Rome next month.").claims
    assert c.value == "Rome" and c.confidence < 1.0


def test_a_plan_said_with_going_to_or_decided_to_is_read_as_will_would_be(nlp):
    """"going to" / "gonna" / "decided to" / "plan to" say what "will" says: a
    plan with a date is kept with that date, one without a date is no fact, and
    a plan given up or denied is nothing ("I was going to", "not going to")."""
    for text, attribute, value, vf in [
            ("I'm going to move to Leeds in May.", "lives_in", "Leeds", "2024-05-01"),
            ("I'm gonna move to Leeds in May.", "lives_in", "Leeds", "2024-05-01"),
            ("I plan to move to Leeds in May.", "lives_in", "Leeds", "2024-05-01"),
            ("I'm going to be a teacher at Oakwood from September.", "job_title", "teacher", "2024-09-01"),
            ("I've decided to retire at the end of March.", "employment_status", "retired", "2024-03-31")]:
        ex = run(nlp, text)
        cs = [c for c in ex.claims if c.attribute == attribute]
        assert cs and cs[0].value == value and cs[0].valid_from == d(vf), (text, show(ex))
        assert cs[0].confidence < 1.0, text
    for text in ["I'm going to move to Leeds.", "I was going to move to Leeds in May.",
                 "I'm not going to move to Leeds in May.", "I decided not to move to Leeds in May.",
                 "I planned to move to Leeds in May.", "I'm going to the gym in May."]:
        assert run(nlp, text).claims == [], text


def test_reference_time_tz_is_normalised(nlp):
    ref = dt.datetime(2024, 3, 7, 1, 0, tzinfo=dt.timezone(dt.timedelta(hours=5)))  # 2024-03-06 20:00 UTC
    ex = extract("I moved to Oslo yesterday.", speaker="Dana", reference_time=ref)
    assert ex.claims[0].valid_from == d("2024-03-05")


# --- the resolver on its own ------------------------------------------------------------------------

RESOLVE = [
    ("yesterday", 0, "2024-03-05", "day"),
    ("today", 0, "2024-03-06", "day"),
    ("tomorrow", 0, "2024-03-07", "day"),
    ("the day before yesterday", 0, "2024-03-04", "day"),
    ("last week", 0, "2024-W09", "week"),
    ("next week", 0, "2024-W11", "week"),
    ("next Friday", 0, "2024-03-15", "day"),
    ("this Friday", 0, "2024-03-08", "day"),
    ("last Friday", 0, "2024-03-01", "day"),
    ("Friday", +1, "2024-03-08", "day"),
    ("Friday", -1, "2024-03-01", "day"),
    ("Wednesday", +1, "2024-03-13", "day"),  # never the reference day itself
    ("in March", -1, "2024-03", "month"),
    ("in April", -1, "2023-04", "month"),
    ("in April", +1, "2024-04", "month"),
    ("on May 3", +1, "2024-05-03", "day"),
    ("May 3rd", -1, "2023-05-03", "day"),
    ("3 May 2021", 0, "2021-05-03", "day"),
    ("the 3rd of May", +1, "2024-05-03", "day"),
    ("two days ago", 0, "2024-03-04", "day"),
    ("a couple of weeks ago", 0, "2024-02-21", "day"),
    ("three months ago", 0, "2023-12-06", "day"),
    ("in two weeks", 0, "2024-03-20", "day"),
    ("since 2019", 0, "2019", "year"),
    ("last year", 0, "2023", "year"),
    ("next month", 0, "2024-04", "month"),
    ("last summer", 0, "2023-summer", "season"),
    ("end of the month", +1, "2024-03-31", "day"),
    ("2024-05-03", 0, "2024-05-03", "day"),
    ("5/3/2024", 0, "2024-05-03", "day"),
    ("June 2019", 0, "2019-06", "month"),
    ("the 14th", +1, "2024-03-14", "day"),
]


@pytest.mark.parametrize("text,direction,iso,grain", RESOLVE, ids=[f"{r[0]}|{r[1]}" for r in RESOLVE])
def test_resolve(text, direction, iso, grain):
    r = resolve(text, REF, direction)
    assert r is not None
    assert (r.iso(), r.grain) == (iso, grain)
    assert r.start < r.end and r.start.tzinfo is not None


@pytest.mark.parametrize("text", ["recently", "lately", "now", "two years", "every day", "the other day", "banana", ""])
def test_resolve_rejects(text):
    assert resolve(text, REF, 0) is None


def test_resolve_intervals():
    r = resolve("last week", REF, 0)
    assert (r.start, r.end) == (d("2024-02-26"), d("2024-03-04"))
    r = resolve("in 2019", REF, 0)
    assert (r.start, r.end) == (d("2019-01-01"), d("2020-01-01"))
    assert resolve("Feb 29", dt.datetime(2025, 3, 1, tzinfo=UTC), -1).iso() == "2024-02-29"


def test_a_moved_plans_new_time_is_its_nearest_not_the_past_one():
    from midas_graph._timeexpr import find

    said = dt.datetime(2023, 10, 10, 13, 30, tzinfo=UTC)
    days = lambda text: [r.start.date().isoformat() for _, _, r in find(text, said)]
    # "moved" is past, but the time a plan moved to is the plan's: November 7 is four weeks on
    assert days("They have moved the surgery again, to November 7.") == ["2023-11-07"]
    assert days("The trip is postponed until March.") == ["2024-03-01"]
    assert days("I moved to Denver in March.") == ["2023-03-01"]  # a move of a person stays behind


def test_parse_duration():
    assert parse_duration("three years") == {"years": 3}
    assert parse_duration("for 5 months") == {"months": 5}
    assert parse_duration("a couple of weeks") == {"days": 14}
    assert parse_duration("last week") is None


# --- the rest of the contract ------------------------------------------------------------------------

def test_mentions(nlp):
    ex = run(nlp, "I met Caroline in Lisbon.")
    names = {(m.name, m.label) for m in ex.mentions}
    assert ("Dana", "PERSON_SPEAKER") in names
    assert any(m.name == "Lisbon" for m in ex.mentions)
    text = "I met Caroline in Lisbon."
    for m in ex.mentions:
        if m.label != "PERSON_SPEAKER":
            assert text[m.start:m.end] == m.name
    assert all(isinstance(m, Mention) for m in ex.mentions)


def test_claim_types(nlp):
    (c,) = run(nlp, "I have two kids.").claims
    assert isinstance(c, Claim) and isinstance(c.value, int)
    with pytest.raises(Exception):
        c.value = 3  # frozen
    (c,) = run(nlp, "Response time is now 250ms.").claims
    assert (c.number, c.unit) == (250.0, "ms")


def test_empty_text():
    assert extract("", speaker="Dana", reference_time=REF).claims == []
    assert extract("   ", speaker="Dana", reference_time=REF).mentions == []


def test_extract_without_doc_parses():
    ex = extract("I live in Berlin.", speaker="Dana", reference_time=REF)
    assert triples(ex) == {("Dana", "lives_in", "Berlin", A)}


def test_extract_many_matches_extract(nlp):
    items = [(t, "Dana", REF, "Sam") for t, _, _ in POSITIVE[:20]] + [("How are you?", "Sam", REF, "Dana")]
    many = extract_many(items, batch_size=8)
    assert len(many) == len(items)
    for (text, spk, ref, lst), ex in zip(items, many):
        assert triples(ex) == triples(extract(text, speaker=spk, reference_time=ref, listener=lst, doc=nlp(text)))
    assert extract_many([]) == []


# --- a second set, written after the patterns above (first run: 28/40 right; the fixes that
# followed are pinned here). Reference time Wednesday 2024-06-12, speaker Kim, listener Lee.
REF2 = dt.datetime(2024, 6, 12, 12, 0, tzinfo=UTC)
SECOND = [
    ("I've been a dentist for twelve years.", [("Kim", "job_title", "dentist", A)]),
    ("These days I'm living in Porto.", [("Kim", "lives_in", "Porto", A)]),
    ("We relocated to Austin over the summer.", [("Kim", "lives_in", "Austin", A)]),
    ("I'm working as a barista at the moment.", [("Kim", "job_title", "barista", A)]),
    ("My husband's name is Dev.", [("Kim", "spouse", "Dev", A)]),
    ("Our daughter Maya turns six next week.", [("Kim's daughter", "age", 6, A)]),
    ("Her name is Lola and she is a beagle.", []),
    ("I really can't stand cilantro.", [("Kim", "dislikes", "cilantro", A)]),
    ("I'm a huge Beatles fan.", [("Kim", "likes", "Beatles", A)]),
    ("I don't eat pork.", [("Kim", "eats", "pork", N)]),
    ("I quit drinking last year.", [("Kim", "habit", "drinking", C)]),
    ("The product launch has been delayed until August.", [("Kim", "release_date", "2024-08", A)]),
    ("The Hermes deadline is the end of the month.", [("Hermes", "deadline", "2024-06-30", A)]),
    ("Our Q2 revenue was $1.2 million.", []),
    ("The app's load time is down to 1.8 seconds.", [("app", "load_time", "1.8 s", A)]),
    ("I'm moving back to Chicago in September.", [("Kim", "lives_in", "Chicago", A)]),
    ("I grew up in Manila but now I live in Toronto.", [("Kim", "grew_up_in", "Manila", A), ("Kim", "lives_in", "Toronto", A)]),
    ("Raj is my brother-in-law.", []),
    ("My best friend is Priya.", [("Kim", "friend", "Priya", A)]),
    ("I have a Tesla Model 3.", [("Kim", "car", "Tesla Model 3", A)]),
    ("My parents live in Kerala.", [("Kim's parents", "lives_in", "Kerala", A)]),
    ("I stopped going to the gym.", []),
    ("I'm not into football.", [("Kim", "likes", "football", N)]),
    ("We sold the house in March.", [("Kim", "has", "house", C)]),
    ("Correction, the offsite is on the 21st.", [("Kim", "offsite_date", "2024-06-21", A)]),
    ("Oh wait, I meant Thursday, not Wednesday.", [("Kim", "", "2024-06-13", A)]),
    ("Did you know I speak Korean?", []),
    ("Would you recommend moving to Denver?", []),
    ("If the budget gets approved we'll hire two engineers.", []),
    ("Haha that's so you.", []),
    ("Anyway, gotta run!", []),
    ("Emma adores horses.", [("Emma", "likes", "horses", A)]),
    ("Dr. Patel is my GP.", []),
    ("Sarah moved in with her boyfriend last month.", []),
    ("Jake started college at NYU in the fall.", [("Jake", "school", "NYU", A)]),
    ("My mom retired last year.", [("Kim's mom", "employment_status", "retired", A)]),
    ("The flight is at 6am on Friday.", [("Kim", "flight_date", "2024-06-14", A)]),
    ("I make $70k a year.", []),
]


@pytest.mark.parametrize("text,expected", SECOND, ids=[c[0][:40] for c in SECOND])
def test_second_set(nlp, text, expected):
    ex = extract(text, speaker="Kim", reference_time=REF2, listener="Lee", doc=nlp(text))
    assert triples(ex) == set(expected), show(ex)


# --- the vocabulary is data (schema/extract/*.toml) ----------------------------------------

def test_every_lexicon_key_is_read():
    import midas_graph._extract  # noqa: F401  (imports every family)
    import midas_graph._extract.casing  # noqa: F401  (place cues)
    import midas_graph._people  # noqa: F401  (answers to who-questions)
    from midas_graph._context import _categories, _families, _irregular_past, _praise_words
    from midas_graph._extract.lexicon import LEX

    _families()  # the words that speak to a question about work or a trip, read on first use
    _categories()  # the category nouns a name answers ("which hospital")
    _praise_words()  # "great job!" names no job
    _irregular_past()  # "what year did Bram die?" -> "what year Bram died" (an abstention's reason)
    midas_graph._extract.casing.places()  # place names and their short forms, read on first use
    midas_graph._extract.casing.first_names()  # the words no first name is, read on first use
    from midas_graph._revise import _end_words

    _end_words(), _end_words("end_after_words")  # what ends a statement's value (revision, on first use)

    assert LEX.unused() == []


def test_verb_table_sends_each_lemma_to_its_family():
    from midas_graph._extract import location, work
    from midas_graph._extract.walker import VERBS

    assert VERBS["reside"] is location.h_live
    assert VERBS["join"] is work.h_join
    assert "be" not in VERBS  # copular clauses go to copular.py by the walker


def test_inverted_table_refuses_a_word_under_two_values():
    from midas_graph._extract.lexicon import Lexicon

    lex = Lexicon({"people": {"relations": {"spouse": ["wife"], "partner": ["wife"]}}})
    with pytest.raises(ValueError, match="wife"):
        lex.inverse("people.relations")
    with pytest.raises(KeyError, match="people.toml has no 'pets'"):
        lex.words("people.pets")


def test_a_name_with_s_for_is_is_the_subject_not_a_possessive():
    """"Steph's moving to Perth": the small model tags the "'s" a possessive,
    but it is "is" (the verb has no "be" of its own), so the claim is Steph's
    move, not one of "Steph's"; "I'm the head chef at Luigi's" keeps the
    name of the restaurant."""
    claims = extract("Steph's moving to Perth next month, ugh", speaker="Dana", reference_time=REF).claims
    assert [(c.subject, c.attribute, c.value) for c in claims] == [("Steph", "lives_in", "Perth")]
    claims = extract("I'm the head chef at Luigi's", speaker="Dana", reference_time=REF).claims
    assert ("employer", "Luigi's") in {(c.attribute, c.value) for c in claims}
    # the "'s" read as a possessive of the verb ("working" VERB with a poss), or of a noun
    # ("living" NOUN: walker._noun_read_verb); "Marisol's living room" and "Jane's cooking" are things
    for text, want in [("Steph's working at Acme now.", [("Steph", "employer", "Acme")]),
                       ("Marisol's living in Denver now.", [("Marisol", "lives_in", "Denver")]),
                       ("Marisol's living room is huge.", []), ("Jane's cooking was great.", [])]:
        claims = extract(text, speaker="Dana", reference_time=REF).claims
        assert [(c.subject, c.attribute, c.value) for c in claims] == want, text


def test_a_name_starts_at_its_first_capital(nlp):
    """"dinner w Tessa (my gf) tonight" is one ORG "dinner w Tessa" to the
    small model; the entity is Tessa (normalize.trim_names). Particles and
    initials of a name stay ("Juan de la Cruz", "J.K. Rowling")."""
    from midas_graph._extract.normalize import trim_names

    for text, before, after in [("dinner w Tessa (my gf) tonight", "dinner w Tessa", "Tessa"),
                                ("Glad it helped ya, Melanie!", "ya, Melanie", "Melanie")]:
        doc = nlp(text)
        assert before in {e.text for e in doc.ents}
        trim_names(doc)
        assert after in {e.text for e in doc.ents} and before not in {e.text for e in doc.ents}
    for text in ("I met Juan de la Cruz yesterday", "a quote by J.K. Rowling that I like"):
        doc = nlp(text)
        names = {e.text for e in doc.ents}
        trim_names(doc)
        assert {e.text for e in doc.ents} == names
    mentions = extract("dinner w Tessa (my gf) tonight, she just got a job at Arup", speaker="Dana",
                       reference_time=REF).mentions
    assert not any(" w " in m.name for m in mentions)
