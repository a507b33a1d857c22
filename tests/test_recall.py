"""recall(), context() and the provenance guard, with the real models."""

from __future__ import annotations

import datetime as dt
import json
from importlib import resources

import numpy as np
import pytest
from conftest import ENGINE, StepClock, as_schema, d

from midas_graph import InvalidInputError, Memory, guard_reliance
from midas_graph._store import SCHEMA_VERSION
from midas_graph.models import count_tokens

pytestmark = pytest.mark.engine


def _add_chat(mem, chat: list[tuple[str, str]]) -> None:
    """(speaker, text) turns, one a day from 2023-06-01."""
    day = dt.date(2023, 6, 1)
    mem.add_episodes([{"content": c, "speaker": s, "reference_time": f"{day + dt.timedelta(days=i)}T10:00"}
                      for i, (s, c) in enumerate(chat)])


#: Melanie speaks of the beach and asks Caroline about the lake.
_LAKE_CHAT = [("Melanie", "I went to the beach yesterday."),
              ("Caroline", "Nice, I finished a painting of a sunset."),
              ("Melanie", "Do you ever swim at the lake near you?"),
              ("Caroline", "Yes, the lake is great, I go there every summer."),
              ("Melanie", "My cat is sick again."),
              ("Caroline", "I go out with my kids as often as I can, usually twice a month.")]


def _abstains_by(monkeypatch, mem, asked: str, reason: str, rule: str) -> None:
    """``asked`` abstains with a reason starting ``reason``, and is answered
    once the context rule ``rule`` is switched off: the rule is what abstains."""
    import midas_graph._context as context_mod

    ctx = mem.context(asked)
    assert ctx.abstain and ctx.reason.startswith(reason), ctx.reason
    monkeypatch.setattr(context_mod, rule, False)
    assert not mem.context(asked).abstain


def _rule_case(monkeypatch, chat, answered: list[str], asked: str, reason: str, rule: str) -> None:
    """A memory of ``chat`` answers each of ``answered``, and abstains on
    ``asked`` by the context rule ``rule`` (:func:`_abstains_by`)."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        for question in answered:
            assert not mem.context(question).abstain, question
        _abstains_by(monkeypatch, mem, asked, reason, rule)


@pytest.fixture(scope="module")
def sam():
    from midas_graph.models import default_embedder, default_nli

    turns = [json.loads(line) for line in
             resources.files("midas_graph.sample").joinpath("conversation.jsonl").read_text().splitlines() if line]
    now = [None]
    mem = Memory(engine=ENGINE, embedder=default_embedder(), nli=default_nli(),
                 clock=lambda: now[0])
    from midas_graph._time import parse_time

    for t in turns:
        now[0] = parse_time(t["reference_time"], "t")
        mem.add_episode(**t)
    yield mem
    mem.close()


def test_recall_finds_the_current_fact_and_says_why(sam):
    hits = sam.recall("Where does Sam live?", k=5)
    facts = [h for h in hits if h.kind == "fact"]
    assert facts and facts[0].fact.value == "Lisbon"
    assert "graph" in facts[0].why and facts[0].source is not None
    assert all(h.score >= hits[i + 1].score for i, h in enumerate(hits[:-1]))


def test_recall_as_of_an_earlier_time(sam):
    hits = sam.recall("Where does Sam live?", k=10, valid_at="2024-02-01", known_at="2024-02-01")
    values = [h.fact.value for h in hits if h.kind == "fact" and h.fact.attribute == "lives_in"]
    assert values == ["Berlin"]
    assert all(h.time.isoformat() < "2024-02-02" for h in hits if h.kind == "episode")


def test_context_is_current_tagged_and_within_budget(sam):
    ctx = sam.context("Where does Sam live?", budget_tokens=200)
    assert not ctx.abstain
    assert ctx.items[0].fact is not None and ctx.items[0].fact.value == "Lisbon"
    assert ctx.tokens <= 200 and count_tokens(ctx.text) <= 200
    assert not any("Berlin" in i.text and i.kind == "fact" for i in ctx.items)
    for item in ctx.items:  # every line says where it comes from and when
        assert "src " in item.text and ("valid " in item.text or "said by" in item.text)
        # the time recorded, unless a turn was recorded the minute it was said
        recorded_when_said = item.episode is not None and \
            item.episode.recorded_at.replace(second=0, microsecond=0) == \
            item.episode.reference_time.replace(second=0, microsecond=0)
        assert ("rec " in item.text) != recorded_when_said, item.text
        assert item.text.rstrip(")").split("; ")[-1] in ("planning", "action", "observation", "user_confirmation")


def test_a_turn_recorded_as_it_was_said_shows_one_time():
    """A live turn (recorded the minute it was said) names its time once; a
    turn recorded later (a backfill) shows both times."""
    clock = StepClock()
    with Memory(engine=ENGINE, clock=clock) as mem:
        clock.set("2024-05-01T10:00:00+00:00")
        mem.add_episode("I adopted a cat named Miso.", speaker="Ana", reference_time="2024-05-01T10:00:00+00:00")
        mem.add_episode("I started pottery classes.", speaker="Ana", reference_time="2023-02-01T10:00:00+00:00")
        lines = {i.episode.content: i.text for i in mem.context("What did Ana start or adopt?", speaker="Ana",
                                                                 budget_tokens=400).items if i.episode}
        assert "(src " in lines["I adopted a cat named Miso."] and "rec " not in lines["I adopted a cat named Miso."]
        assert "rec 2024-05-01 10:00; src " in lines["I started pottery classes."], lines


def test_context_shows_superseded_beliefs_only_for_the_past(sam):
    now_ctx = sam.context("Where does Sam live?", budget_tokens=300)
    assert not any(i.superseded for i in now_ctx.items)
    past_ctx = sam.context("Where did Sam live before Lisbon?", budget_tokens=300)
    berlin = [i for i in past_ctx.items if i.superseded and i.fact.value == "Berlin"]
    assert berlin and "[past]" in berlin[0].text and "→2024-03-02" in berlin[0].text


@pytest.mark.parametrize("question, why", [
    ("What is Sam's favorite color?", "favorite color"),      # only favourite food is known
    ("What is Priya's favorite food?", "Priya"),              # the food belongs to Sam
    ("Where does Zorblax live?", "Zorblax"),                  # no such entity
])
def test_context_abstains_when_the_focus_is_not_grounded(sam, question, why):
    ctx = sam.context(question, budget_tokens=256)
    assert ctx.abstain and why in ctx.reason and ctx.items == []
    assert "Not known" in ctx.text


@pytest.mark.parametrize("question", [
    "What is Sam's favorite food?", "Who is Sam's manager?", "When is the Apollo launch?",
    "What languages does Sam speak?",
])
def test_context_answers_grounded_questions(sam, question):
    assert not sam.context(question, budget_tokens=256).abstain


def test_first_person_means_the_speaker(sam):
    ctx = sam.context("Where do I work?", budget_tokens=256, speaker="Sam")
    assert not ctx.abstain and ctx.items[0].fact.value == "Globex"


def test_tiny_budgets_are_respected(sam):
    for budget in (16, 40, 80):
        ctx = sam.context("Where does Sam live?", budget_tokens=budget)
        assert count_tokens(ctx.text) <= budget


def test_bad_arguments(sam):
    with pytest.raises(InvalidInputError, match="budget_tokens"):
        sam.context("x", budget_tokens=0)
    with pytest.raises(InvalidInputError, match="k"):
        sam.recall("x", k=0)
    with pytest.raises(InvalidInputError, match="query"):
        sam.recall("  ")


def test_recall_favours_what_was_said_within_a_date_the_query_names(monkeypatch):
    """Ann baked bread twice; asked about March 2024, the March turn ranks
    first although the June one is newer and as close in wording."""
    import midas_graph._recall as recall_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episodes([
            {"speaker": "Ann", "content": "I baked a loaf of rye bread today.", "reference_time": "2024-03-14T10:00"},
            {"speaker": "Ann", "content": "I baked a loaf of sourdough bread today.", "reference_time": "2024-06-20T10:00"}])
        asked = "What bread did Ann bake in March 2024?"
        hits = mem.recall(asked, k=2)
        assert "rye" in hits[0].text and hits[0].why["date"] == recall_mod.DATE_WEIGHT, [h.why for h in hits]
        assert "date" not in hits[1].why
        monkeypatch.setattr(recall_mod, "DATE_WEIGHT", 0.0)  # the bonus is what ranks it first
        assert "sourdough" in mem.recall(asked, k=2)[0].text
        monkeypatch.undo()
        # a date without a year is placed before the query time (the clock says January 2025)
        assert "rye" in mem.recall("What bread did Ann bake in March?", k=2)[0].text
        # a phrase the resolver does not know is read by the month and year inside it
        assert "rye" in mem.recall("What bread did Ann bake in the first weekend of March 2024?", k=2)[0].text


def test_asked_when_recall_favours_a_turn_that_tells_a_time(monkeypatch):
    import midas_graph._recall as recall_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episodes([
            {"speaker": "Ann", "content": "I went to the bakery yesterday.", "reference_time": "2024-03-14T10:00"},
            {"speaker": "Ann", "content": "The bakery near me is lovely.", "reference_time": "2024-06-20T10:00"}])
        asked = "When did Ann go to the bakery?"
        hits = {h.text: h for h in mem.recall(asked, k=2)}
        timed, untimed = hits["I went to the bakery yesterday."], hits["The bakery near me is lovely."]
        w = recall_mod.WHEN_WEIGHT
        assert w > 0 and timed.why["when"] == w and "when" not in untimed.why
        assert "when" not in mem.recall("Where does Ann buy bread?", k=2)[0].why  # not asked when
        monkeypatch.setattr(recall_mod, "WHEN_WEIGHT", 0.0)
        plain = {h.text: h.score for h in mem.recall(asked, k=2)}
        assert timed.score - plain[timed.text] == pytest.approx(w, abs=1e-6)
        assert untimed.score == pytest.approx(plain[untimed.text], abs=1e-6)


def test_recall_on_typed_facts_embeds_them_once(models_or_none=None):
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_facts([("Kim", "employer", "Initech"), ("Kim", "lives_in", "Oslo"), ("Lee", "lives_in", "Rome")])
        hits = mem.recall("Where does Kim live?", k=3)
        assert hits[0].fact.value == "Oslo"
        assert len(mem._store.vectors("FactVector", [h.id for h in hits])) == 3


def test_guard_reliance_excludes_only_what_may_not_back_an_action(sam):
    facts = sam.current("Sam")
    planning = sam.guard_reliance(facts, "planning")
    assert planning.allowed and len(planning.passed) == len(facts) and not planning.excluded
    action = sam.guard_reliance(facts, "action")
    assert not action.allowed and len(action.excluded) == len(facts)
    assert all("user confirmation" in r for r in action.reasons.values())
    mixed = [{"id": "a", "provenance": "user_confirmation"}, {"id": "b", "provenance": "observation"},
             {"id": "c", "provenance": "planning"}]
    d = guard_reliance(mixed, "action", approved=["c"])
    assert [i["id"] for i in d.passed] == ["a", "c"] and [i["id"] for i in d.excluded] == ["b"]
    assert d.reasons["c"].endswith("approved for this action")
    with pytest.raises(InvalidInputError, match="use"):
        guard_reliance(mixed, "delete-everything")
    with pytest.raises(InvalidInputError, match="provenance"):
        guard_reliance([object()], "planning")


def test_a_belief_named_by_the_question_grounds_it_among_similar_others():
    """Asked "Isla's manager", her manager fact answers even though other
    people's job titles ("product manager") are closer in wording; and a
    question's everyday words reach the registered attribute ("do for a
    living" -> job_title, "what car" -> drives)."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        rows = [("Isla Park", "manager", "Nadia Brennan", "Isla Park reports to Nadia Brennan."),
                ("Ines Lind", "job_title", "accountant", "Ines Lind is an accountant."),
                ("Ben Brown", "drives", "Subaru Outback", "Ben Brown drives a Subaru Outback.")]
        rows += [(f"Person {i}", "job_title", "product manager", f"Person {i} is a product manager.")
                 for i in range(8)]
        mem.add_facts([dict(subject=s, attribute=a, value=v, text=t) for s, a, v, t in rows])
        for q, value in [("Who is Isla Park's manager?", "Nadia Brennan"),
                         ("What does Ines Lind do for a living?", "accountant"),
                         ("What car does Ben Brown drive?", "Subaru Outback")]:
            ctx = mem.context(q, budget_tokens=256)
            assert not ctx.abstain, (q, ctx.reason)
            assert ctx.items[0].fact.value == value
        assert mem.context("What is Isla Park's favorite color?", budget_tokens=256).abstain


def test_a_promotion_asked_is_a_job_title():
    """"What did Kevin get promoted to?" is asked of his job title
    (attributes.toml asked_as): his other lines say nothing of a promotion,
    and it abstained ("Nothing is known about Kevin that answers this")."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        for day, text in [(5, "My son Kevin lives in Leeds."),
                          (6, "Kevin says he'll come down from Leeds the night before and drive me."),
                          (7, "my son's been made operations manager at the depot, first time he's had his own office")]:
            mem.add_episode(text, speaker="dennis", reference_time=f"2024-05-0{day}")
        ctx = mem.context("what did Kevin get promoted to", speaker="dennis")
        assert not ctx.abstain and "operations manager" in ctx.text, ctx.reason


def test_a_reply_is_found_by_the_words_of_the_message_it_answers():
    """BM25 indexes each episode with the message before it: the answer to
    "what are you researching?" is a reply that never says "research"."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        chat = [("Mel", "Hey Caro, how was the weekend?"), ("Caro", "Lovely, we went to the lake."),
                ("Mel", "What are you researching these days?"), ("Caro", "Adoption agencies, mostly!"),
                ("Mel", "The weather was awful here."), ("Caro", "Oh no, hope it clears up."),
                ("Mel", "I painted a sunrise last week."), ("Caro", "Send me a picture of it!")]
        mem.add_episodes([{"content": c, "speaker": s, "reference_time": f"2023-05-0{1 + i // 2}T10:0{i}"}
                          for i, (s, c) in enumerate(chat)])
        hits = mem.recall("What did Caro research?", k=3)
        reply = next(h for h in hits if h.text == "Adoption agencies, mostly!")
        assert "bm25" in reply.why, reply.why   # alone it has no word of the question


def test_the_vector_ranker_weighs_the_asked_words_apart_from_the_name(monkeypatch):
    """The name in "What hobbies does Mel have?" draws the question's vector
    towards every turn that says "Mel"; half the vector score comes from the
    asked words alone, so the pottery class is the closest turn."""
    import midas_graph._recall as recall_mod

    chat = [("Caroline", "Mel, how are you doing today?"), ("Mel", "Busy week, work was long."),
            ("Caroline", "Mel, did you see the game last night?"), ("Mel", "No, I was too tired."),
            ("Caroline", "Hey Mel, want to grab coffee soon?"),
            ("Mel", "I signed up for a pottery class and a salsa course."),
            ("Caroline", "Mel, you always surprise me!"), ("Mel", "My car broke down again.")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)

        def vector_rank() -> int:
            hits = mem.recall("What hobbies does Mel have?", k=8)
            return next(h.why["vector"] for h in hits if "pottery" in h.text)

        assert vector_rank() == 1
        monkeypatch.setattr(recall_mod, "TERM_VECTOR", 0.0)
        assert vector_rank() > 1


def test_an_episode_is_split_into_sentences_for_its_vectors(monkeypatch):
    import midas_graph._store as store_mod
    from midas_graph._store import sentence_documents

    short = "Hey Mel! I ran a charity race. [photo: a woman running]"
    assert sentence_documents("Ana", short) == []          # a short turn's own vector is enough
    monkeypatch.setattr(store_mod, "SPLIT_MIN_WORDS", 0)
    assert sentence_documents("Ana", short) == [
        "Ana: Hey Mel!", "Ana: I ran a charity race.", "Ana: [photo: a woman running]"]
    assert sentence_documents(None, "Line one here\nline two here") == ["Line one here", "line two here"]
    # fewer than two sentences of two words or more: the episode's own vector is enough
    assert sentence_documents("Ana", "Wow! That sounds great.") == []
    assert sentence_documents("Ana", "") == []


def test_the_vector_ranker_scores_a_long_turn_by_its_best_sentence(monkeypatch):
    """One sentence about Bo's sister inside a long turn about other things:
    the turn's single vector is blurred by the rest, its sentence is not."""
    import midas_graph._recall as recall_mod

    chat = [("Ana", "My week was long. The trains were late every morning and the office heating broke. "
                    "We had three deadlines and a fire drill. Oh, and my sister became a nurse in Boston. "
                    "The weekend was rainy so I stayed in and read."),
            ("Bo", "Family news is the best news."), ("Ana", "My brother still works in retail."),
            ("Bo", "What a busy week you had!"), ("Ana", "Nursing is a hard job, my aunt says.")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episodes([{"content": c, "speaker": s} for s, c in chat])

        def vector_rank() -> int:  # among the episodes (the sister fact extracted from it ranks first)
            # (asked by the role, "sister" names the person: the job words are what the vector matches)
            hits = sorted((h for h in mem.recall("What job did Ana's sister take?", k=10)
                           if h.kind == "episode"), key=lambda h: h.why["vector"])
            return next(r for r, h in enumerate(hits, 1) if "fire drill" in h.text)

        assert vector_rank() == 1
        monkeypatch.setattr(recall_mod, "SENTENCES", False)
        assert vector_rank() > 1


def test_asking_the_listener_about_a_thing_does_not_make_it_the_askers():
    """Mel asking about Caro's adoption plans is not Mel's adoption plan: a
    turn grounds its speaker only outside its questions and its sentences
    about "you"."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        chat = [("Caro", "I'm researching adoption agencies this summer, it feels like the right time."),
                ("Mel", "That's wonderful! How is your adoption research going? Are the agencies helpful?"),
                ("Caro", "Slowly, but the agencies have been kind."),
                ("Mel", "I went camping with my kids last weekend.")]
        _add_chat(mem, chat)
        assert mem.context("What are Mel's plans for adoption?").abstain
        assert not mem.context("What are Caro's plans for adoption?").abstain
        assert not mem.context("Where did Mel go camping?").abstain


def test_the_asked_persons_own_turn_outranks_the_same_words_said_by_another(monkeypatch):
    """What a person says is mostly about themselves: asked about Ana's train
    trip, Ana's own turn comes before Bo's reply, which has more of the asked
    words (without the speaker bonus Bo's reply is first)."""
    import midas_graph._recall as recall_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        chat = [("Ana", "In spring I went to Vienna for a weekend, by train."),
                ("Bo", "I bought a new bike last week."),
                ("Ana", "My sister is learning to bake bread."),
                ("Bo", "Ana, I take the train to Vienna every month, the train to Vienna is lovely."),
                ("Ana", "The concert on Friday was loud."), ("Bo", "My cat knocked over a plant."),
                ("Ana", "Work has been busy with the product launch."),
                ("Bo", "I started reading a novel about pirates.")]
        _add_chat(mem, chat)
        hits = mem.recall("When did Ana take the train to Vienna?", k=3)
        assert hits[0].text.startswith("In spring"), [h.text for h in hits]
        monkeypatch.setattr(recall_mod, "SPEAKER_WEIGHT", 0.0)
        hits = mem.recall("When did Ana take the train to Vienna?", k=3)
        assert hits[0].text.startswith("Ana, I take"), [h.text for h in hits]


def test_reacting_to_someone_elses_event_does_not_ground_the_reactor():
    """Asked what Caroline realised after *her* charity race when the race was
    Melanie's: Caroline's reply names the charity race only in her question to
    Melanie; her own sentence ("Races are fun.") speaks to one word of the
    question. Melanie's turn dominates, so the memory says it does not know
    (LoCoMo category 5)."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        chat = [("Melanie", "I ran a charity race for mental health last Saturday. "
                            "It made me realize that self-care is really important."),
                ("Caroline", "Races are fun. How did your charity race go, did it make you "
                             "realize anything?"),
                ("Caroline", "I spent the weekend painting a sunset for my art show."),
                ("Melanie", "My kids loved the museum trip.")]
        _add_chat(mem, chat)
        ctx = mem.context("What did Caroline realize after her charity race?")
        assert ctx.abstain, ctx.reason
        ok = mem.context("What did Melanie realize after her charity race?")
        assert not ok.abstain and ok.reason.startswith("grounded by"), ok.reason
        assert any(i.episode and i.episode.speaker == "Melanie" for i in ok.items)


def test_echoing_the_other_speakers_words_does_not_ground_the_echoer(monkeypatch):
    """"That charity race sounds great!" after Melanie's "I ran a charity
    race" repeats her words: it does not make the race Caroline's. Words a
    turn takes from the other speaker's *question* are its own answer."""
    import midas_graph._context as context_mod

    chat = [("Melanie", "I ran a charity race for mental health last Saturday. "
                        "It made me realize that self-care is really important."),
            ("Caroline", "That charity race sounds amazing! I am so proud of that."),
            ("Melanie", "Thanks! How was the pottery class?"),
            ("Caroline", "The pottery class was great, I made a blue bowl."),
            ("Melanie", "My kids loved the museum trip.")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        asked = "What did Caroline realize after her charity race?"
        ctx = mem.context(asked)
        assert ctx.abstain, ctx.reason
        assert not mem.context("What did Melanie realize after her charity race?").abstain
        ok = mem.context("What did Caroline make in her pottery class?")
        assert not ok.abstain and "pottery" in ok.reason, ok.reason
        # the rule is what abstains: Caroline never said "realize" either (UNSAID),
        # and her race fits the question less well than Melanie's (DOMINANCE)
        monkeypatch.setattr(context_mod, "UNSAID", False)
        monkeypatch.setattr(context_mod, "DOMINANCE", 0.5)
        assert mem.context(asked).abstain
        monkeypatch.setattr(context_mod, "ECHO", False)
        assert not mem.context(asked).abstain


def test_the_asked_persons_question_to_the_listener_does_not_outdo_their_answer(monkeypatch):
    """Gina's "Got any fave styles?" asks about Jon's styles: it must not
    dwarf her own answer, "Contemporary dance ..." (SELF_AS_GROUNDS)."""
    chat = [("Jon", "I've been dancing a lot lately, it's my passion."),
            ("Gina", "Wow Jon, same here! Dance is pretty much my go-to for stress relief. Got any fave styles?"),
            ("Jon", "Not sure yet, I like a bit of everything."),
            ("Gina", "Contemporary dance is so expressive and graceful, it really speaks to me.")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        asked = "What is Gina's favorite style of dance?"
        ctx = mem.context(asked)
        assert not ctx.abstain and "Contemporary" in ctx.reason, ctx.reason
        import midas_graph._context as context_mod

        monkeypatch.setattr(context_mod, "SELF_AS_GROUNDS", False)
        assert mem.context(asked).abstain


def test_a_detail_only_others_spoke_of_is_not_put_on_the_asked_person(monkeypatch):
    """Only Melanie ever spoke of the beach: "How often does Caroline go to
    the beach with her kids?" puts Melanie's detail on Caroline, although
    Caroline's turn about going out with her kids is close in wording. A thing
    the other speaker asked Caroline about (the lake) is hers to answer."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, [*_LAKE_CHAT, ("Melanie", "I signed up for a pottery class.")])
        assert mem.context("How often does Melanie go to the beach with her kids?").abstain  # her kids: never said
        assert not mem.context("When does Caroline swim at the lake?").abstain
        assert not mem.context("How often does Caroline go out with her kids?").abstain
        _abstains_by(monkeypatch, mem, "How often does Caroline go to the beach with her kids?",
                     "Caroline never spoke of beach", "UNSAID")


def test_congratulating_someone_on_their_news_does_not_make_it_yours(monkeypatch):
    """Maria's "Wow, a promotion, time to celebrate!" reacts to John's news:
    asked how Maria celebrated *her* promotion, the memory says she never
    spoke of one. John's promotion is still his, Maria's weekend still hers."""
    chat = [("John", "I got promoted to assistant manager last week."),
            ("Maria", "I spent the weekend at the shelter with the kids."),
            ("John", "The shelter sounds lovely."),
            ("Maria", "Wow, a promotion, time to celebrate!")]
    _rule_case(monkeypatch, chat, ["What was John promoted to?", "Where did Maria spend the weekend?"],
               "How did Maria celebrate her promotion?", "Nothing is known about Maria", "REACTIONS")


def test_a_remark_on_someone_elses_news_does_not_make_it_yours(monkeypatch):
    """Other openers of a remark ("Woah", "Sorry to hear", "Hey Gina,
    congrats", "Awesome job") put the sentence to the listener when it says
    nothing of "I" or "my": Sam's "Woah, a flooded basement" is Evan's
    basement, and asked about Sam's basement the memory says it knows nothing."""
    from midas_graph._context import _to_listener

    for remark in ("Woah, Evan, that must've been scary!", "Sorry to hear that things haven't been going well.",
                   "Hey Gina, congrats on the clothing store!", "Awesome job organizing the tournament!"):
        assert _to_listener(remark), remark
    assert not _to_listener("Awesome, I got the job!") and not _to_listener("Hey John!")
    chat = [("Evan", "Our basement flooded after the storm last night."),
            ("Sam", "I spent the day hiking in the hills."),
            ("Evan", "The hills sound lovely."),
            ("Sam", "Woah, a flooded basement after the storm, that must be scary!")]
    _rule_case(monkeypatch, chat, ["What happened to Evan's basement?", "Where did Sam go hiking?"],
               "What happened to Sam's basement?", "Nothing is known about Sam", "REACTIONS")


def test_an_irregular_form_matches_its_lemma():
    """"spend" in the question is "spent" in the turn: irregular forms are put
    to their lemma before stemming (the lemmatizer's exceptions table), so
    the turn covers the question; "lives" stays the verb "live"."""
    from midas_graph._recall import _tokenize

    assert _tokenize(["I spent the day, bought shoes and took the children"]) == [
        ["spend", "day", "buy", "shoe", "take", "child"]]
    assert _tokenize(["She lives in Lisbon"]) == _tokenize(["live Lisbon"])
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, [("Sam", "I spent the day hiking in the hills."),
                        ("Evan", "Our basement flooded after the storm.")])
        ctx = mem.context("Where did Sam spend the day?")
        assert not ctx.abstain and "hills" in ctx.reason, ctx.reason


def test_what_one_asked_speaker_puts_to_the_other_is_about_both(monkeypatch):
    """Asked what Sam suggested Evan do, Sam's "I'd put a GPS sensor on your
    keys!" is put to Evan, and so not Sam's own; but both are asked about, and
    what one of them says to the other is about them both (BETWEEN)."""
    import midas_graph._context as context_mod

    chat = [("Evan", "I lost them again this morning, so annoying."),
            ("Sam", "Ooh, Evan, I'd put a GPS sensor on your keys!"),
            ("Evan", "Great idea, thanks!"),
            ("Sam", "I went swimming at the lake this morning.")]
    asked = "What did Sam suggest Evan should do with his keys?"
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ctx = mem.context(asked)
        assert not ctx.abstain and "GPS sensor" in ctx.reason, ctx.reason
        monkeypatch.setattr(context_mod, "BETWEEN", False)
        assert mem.context(asked).abstain


def test_a_question_that_names_a_date_is_judged_on_what_was_said_then(monkeypatch):
    """Bob started guitar lessons in January, Alice violin lessons in May.
    Asked what lessons Bob started in May, what was said in May is Alice's
    (DATED); without the date, or with January, Bob's own turn answers."""
    turns = [("Bob", "I started guitar lessons last week, my fingers hurt!", "2023-01-10T10:00"),
             ("Alice", "Cool! I went hiking with my sister.", "2023-01-10T10:01"),
             ("Alice", "I started violin lessons last week, it's hard but fun.", "2023-05-10T10:00"),
             ("Bob", "Nice, I got a new job at the bakery.", "2023-05-10T10:01")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episodes([{"content": c, "speaker": s, "reference_time": t} for s, c, t in turns])
        for asked, said in [("What lessons did Bob start?", "guitar"),
                            ("What lessons did Bob start in January 2023?", "guitar"),
                            ("What lessons did Alice start in May 2023?", "violin"),
                            ("What lessons did Bob start in March 2023?", "guitar"),  # nothing said then
                            ("What lessons had Bob started as of May 2023?", "guitar")]:  # by then
            ctx = mem.context(asked)
            assert not ctx.abstain and said in ctx.reason, (asked, ctx.reason)
        ctx = mem.context("What lessons did Bob start in May 2023?")
        assert ctx.abstain and "said from 2023-05-01 to 2023-06-07" in ctx.reason, ctx.reason
        assert mem.context("What lessons did Alice start in January 2023?").abstain
        _abstains_by(monkeypatch, mem, "What lessons did Bob start in May 2023?",
                     "Nothing is known about Bob's", "DATED")


def test_a_name_that_begins_one_speakers_name_is_that_speaker(monkeypatch):
    """"Mel" and "Caro" are Melanie and Caroline when only one speaker's name
    begins so; "Dan" with both Daniel and Danielle speaking is neither."""
    import midas_graph._recall as recall_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, [("Caroline", "Wow Mel, that pottery looks great!"),
                        ("Melanie", "Thanks! We painted a sunset with the kids last weekend."),
                        ("Caroline", "I went to a support group yesterday.")])
        ctx = mem.context("What did Mel and her kids paint?")
        assert not ctx.abstain and "sunset" in ctx.reason, ctx.reason
        assert "support group" in mem.context("What did Caro do yesterday?").reason
        monkeypatch.setattr(recall_mod, "NICKNAMES", False)
        assert mem.context("What did Mel and her kids paint?").abstain
    monkeypatch.setattr(recall_mod, "NICKNAMES", True)
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, [("Daniel", "I painted a lighthouse."), ("Danielle", "I painted a barn.")])
        assert mem.context("What did Dan paint?").abstain


def test_place_names_are_asked_words_and_according_to_is_not(monkeypatch):
    """"Japan" in "How long did James plan to stay in Japan?" is a name and an
    asked word: the turn that says Japan fits the question (PLACE_TERMS);
    "according to" asks nothing a turn would say (WEAK_SPEECH)."""
    import midas_graph._query as query_mod

    chat = [("James", "Max is awesome at catching frisbees in mid-air, never misses!"),
            ("John", "I went to a gaming convention in Boston."),
            ("James", "I'm gonna be in Japan for a few months, then off to Boston!")]
    asked = ["What is Max good at according to James?", "How long did James plan to stay in Japan?"]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        for question, said in zip(asked, ["frisbees", "Japan"]):
            ctx = mem.context(question)
            assert not ctx.abstain and said in ctx.text, ctx.reason
        monkeypatch.setattr(query_mod, "PLACE_TERMS", False)
        monkeypatch.setattr(query_mod, "WEAK_SPEECH", False)
        assert all(mem.context(q).abstain for q in asked)


def test_a_question_turned_the_other_way_needs_words_like_it(monkeypatch):
    """Nate only ever said what movies he loves: "What movies does Nate
    hate?" is not answered with them. Once he says what he can't stand, it is."""
    chat = [("Nate", "I love action and sci-fi movies, the effects are so cool!"),
            ("Joanna", "I mostly watch dramas, they make me think."),
            ("Nate", "Last night I watched a great sci-fi movie about robots.")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        assert not mem.context("What movies does Nate love?").abstain
        _abstains_by(monkeypatch, mem, "What movies does Nate hate?",
                     "Nate never spoke of hate; nor anything like it", "POLARITY")
        _add_chat(mem, [("Nate", "Honestly I can't stand horror movies, too much gore.")])
        ctx = mem.context("What movies does Nate hate?")
        assert not ctx.abstain and "horror" in ctx.text, ctx.reason


def test_a_turn_said_under_an_alias_is_the_entitys_own():
    """Melanie is also called Mel, and speaks as Mel: "What did Melanie
    paint?" is grounded by Mel's turn (it used to abstain: only the entity's
    name and the asked name counted as its voice)."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_fact("Melanie", "lives_in", "Boston")
        mem.add_alias("Melanie", "Mel")
        _add_chat(mem, [("Mel", "I painted a lighthouse at sunset last weekend."),
                        ("Caroline", "I went to a support group meeting.")])
        ctx = mem.context("What did Melanie paint?")
        assert not ctx.abstain and "lighthouse" in ctx.reason, ctx.reason
        assert mem.context("What did Caroline paint?").abstain
        # recall's bonus for a turn said by the asked person counts the alias too
        said = [h for h in mem.recall("What did Melanie paint?", k=5) if h.episode is not None]
        assert said[0].episode.speaker == "Mel" and "speaker" in said[0].why, said[0].why


def test_a_sentence_ending_in_a_name_is_put_to_that_listener():
    """"..., Mel!" names the listener (a nickname too); a sentence about "my"
    things that ends in a place does not."""
    from midas_graph._context import _to_listener

    assert _to_listener("That bowl is awesome, Mel!") and _to_listener("Congrats, Deb!")
    assert not _to_listener("It was a gift from my grandma in my home country, Sweden.")
    assert not _to_listener("I painted a lighthouse.")
    # "that's" / "wow" open one's own news too when it speaks of "I" or "my";
    # a cheer ("Congrats") is put to the listener whatever follows
    assert not _to_listener("That's a close friend of mine who helped me get this painting published!")
    assert _to_listener("That's a gorgeous song, Caroline.") and _to_listener("Congrats, I am so proud of you!")


def test_a_month_is_a_time_not_a_name():
    """"What happened in August 2023?" names no one: the month is a date, so
    the memory does not answer "nothing is known about August"."""
    from midas_graph._query import analyze
    from midas_graph.models import load_spacy

    info = analyze("What happened to Maria's job in August 2023?", load_spacy())
    assert info.names == ("Maria",) and info.terms == ("job",) and len(info.dates) == 1
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, [("Maria", "I lost my job at the bakery, it closed down.")])
        assert not mem.context("What happened in August 2023?").reason.startswith("Nothing is known")


def test_a_pair_of_words_only_others_said_is_not_put_on_the_asked_person(monkeypatch):
    """Melanie spoke of a book and of a club, but only Caroline of a *book
    club*: "Which novel did Melanie pick for her book club?" puts Caroline's
    club on Melanie, though each word alone is Melanie's too. (Caroline's
    lines fitting the question better also abstain; that rule is off here.)"""
    import midas_graph._context as context_mod

    monkeypatch.setattr(context_mod, "DOMINANCE", 0.0)

    chat = [("Caroline", "My book club picked a thriller this month, we meet on Friday."),
            ("Melanie", "I just finished a great book about whales."),
            ("Caroline", "I am a bit nervous about hosting, to be honest."),
            ("Melanie", "My running club meets on Sundays, it keeps me sane.")]
    _rule_case(monkeypatch, chat,
               ["Which novel did Caroline pick for her book club?", "When does Melanie's running club meet?"],
               "Which novel did Melanie pick for her book club?", "Melanie never spoke of book club", "UNSAID_PAIRS")


def test_in_a_group_chat_a_question_is_put_to_the_one_it_names(monkeypatch):
    """Cara asks "Ann, do you still swim at the lake?" right after Bob spoke:
    the lake is put to Ann, not to Bob, so Bob never spoke of a lake."""
    import midas_graph._context as context_mod

    monkeypatch.setattr(context_mod, "DOMINANCE", 0.0)  # the rule of a better fit elsewhere is not tested here
    chat = [("Ann", "I swim at the lake every morning before work."),
            ("Bob", "I love swimming in the pond near my house."),
            ("Cara", "Ann, do you still swim at the lake in winter?"),
            ("Ann", "Yes, the lake is freezing but lovely.")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ctx = mem.context("When does Bob swim at the lake?")
        assert ctx.abstain and ctx.reason.startswith("Bob never spoke of lake"), ctx.reason
        assert not mem.context("When does Ann swim at the lake?").abstain


def test_someone_who_never_speaks_is_known_by_the_turns_that_mention_them():
    """Max, Melanie's dog, never speaks: "What does Max love?" is grounded by
    Melanie's turn about him, and what no turn says of him still abstains."""
    chat = [("Melanie", "Max was so happy at the river today, what a sweet old boy."),
            ("Caroline", "Dogs are so loyal and full of life."),
            ("Melanie", "Max, my old dog, still loves his long walks in the park.")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ctx = mem.context("What does Max love?")
        assert not ctx.abstain and "long walks" in ctx.text, ctx.reason
        assert mem.context("What is Max's favorite toy?").abstain


def test_the_other_speakers_question_does_not_outweigh_the_answer(monkeypatch):
    """Melanie's "Do you ever swim at the lake near you?" holds every asked
    word of "When does Caroline swim at the lake?", but it is a question put
    to Caroline, not Melanie's own lake: it does not dwarf Caroline's answer."""
    import midas_graph._context as context_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, _LAKE_CHAT)
        asked = "When does Caroline swim at the lake?"
        ctx = mem.context(asked)
        assert not ctx.abstain and "the lake is great" in ctx.reason, ctx.reason
        monkeypatch.setattr(context_mod, "ANY_OWN", False)  # this rule grounds it, and so does
        monkeypatch.setattr(context_mod, "ANSWER_TAKES_QUESTION", False)  # the answer taking the question's words
        assert mem.context(asked).abstain


def test_a_question_s_given_nouns_leave_out_what_it_asks_for():
    from midas_graph._query import analyze
    from midas_graph.models import load_spacy

    nlp = load_spacy()
    given = {q: analyze(q, nlp).given for q in (
        "What type of beer does John like?", "Which US state was Sam travelling in?",
        "What spice did Tim add to the soups?", "How many dogs came to the party?",
        "How often does Caroline go to the beach?", "What is his favorite genre of movies?")}
    assert given == {"What type of beer does John like?": (), "Which US state was Sam travelling in?": (),
                     "What spice did Tim add to the soups?": ("soups",), "How many dogs came to the party?": ("party",),
                     "How often does Caroline go to the beach?": ("beach",),
                     "What is his favorite genre of movies?": ("movies",)}
    pairs = {q: analyze(q, nlp).given_pairs for q in (
        "Which novel did Melanie pick for her book club?", "What is Nate's favorite book about?",
        "Which book club did Caroline join?", "Where did Jon go on his last business trip?")}
    assert pairs == {"Which novel did Melanie pick for her book club?": ("book club",),
                     "What is Nate's favorite book about?": (), "Which book club did Caroline join?": (),
                     "Where did Jon go on his last business trip?": ("business trip",)}


def test_a_verb_the_small_model_sweeps_into_a_name_is_asked_about():
    """spaCy tags "John volunteer" and "James meet Samantha" as one PERSON:
    the names are John, James and Samantha, and the verbs are asked words.
    A capitalised name the tagger calls a verb stays a name."""
    from midas_graph._query import analyze
    from midas_graph.models import load_spacy

    nlp = load_spacy()
    seen = {q: (analyze(q, nlp).names, analyze(q, nlp).terms) for q in (
        "What event did John volunteer at last weekend?", "When did James meet Samantha?",
        "Where does the Bank of America have offices?", "What does Sam like?")}
    assert seen == {"What event did John volunteer at last weekend?": (("John",), ("event", "volunteer")),
                    "When did James meet Samantha?": (("James", "Samantha"), ("meet",)),
                    "Where does the Bank of America have offices?": (("Bank of America",), ("office",)),
                    "What does Sam like?": (("Sam",), ())}  # tagged a verb, but a name


def test_a_known_name_with_a_stray_plural_s_is_resolved():
    """"What was Johns's reaction ...?" is about John, not an unknown Johns;
    a name that only looks like it ("Jonas") is still unknown."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, [("John", "We sealed the deal with the beverage company, I was thrilled!"),
                        ("Tim", "Congratulations, that is huge news.")])
        ctx = mem.context("What was Johns's reaction to sealing the deal?")
        assert not ctx.abstain and "thrilled" in ctx.text, ctx.reason
        assert mem.context("What was Jonas's reaction to sealing the deal?").reason.startswith(
            "Nothing is known about Jonas")


def test_a_belief_that_names_what_is_asked_is_in_the_context_whatever_its_wording(monkeypatch):
    """"I joined Stripe on Monday" shares no word with "Where does Priya
    work?", but it is stored as her employer, which is what is asked: the
    context holds it (revision case ru-002)."""
    import midas_graph._context as context_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episodes([
            {"speaker": "Priya", "content": "I work at Google as a data scientist.",
             "reference_time": "2023-11-02T14:20:00Z"},
            {"speaker": "Priya", "content": "Big news: I joined Stripe on Monday.",
             "reference_time": "2024-02-14T18:45:00Z"}])

        def employers() -> list[str]:
            ctx = mem.context("Where does Priya work?")
            return [i.fact.value for i in ctx.items if i.fact is not None and i.fact.attribute == "employer"]

        assert employers() == ["Stripe"]
        # the old turn still grounds her job title; its line says what no longer holds
        old = [i.text for i in mem.context("Where does Priya work?").items
               if i.episode is not None and "Google" in i.episode.content]
        assert old and all("no longer holds: employer Google" in t for t in old), old
        monkeypatch.setattr(context_mod, "NAMED_FACT_FIRST", False)
        assert employers() == []


def test_a_belief_sharing_one_side_word_does_not_answer_the_question():
    """"Gina likes dance" shares "dance" with a question about the flooring of
    her dance studio, but not what is asked: not grounded by it."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_facts([dict(subject="Gina", attribute="likes", value="dance", text="Gina loves dance."),
                       dict(subject="Gina", attribute="lives_in", value="Chicago", text="Gina lives in Chicago."),
                       dict(subject="Jon", attribute="owns", value="dance studio",
                            text="Jon opened a dance studio with Marley flooring.")])
        ctx = mem.context("What kind of flooring is Gina looking for in her dance studio?")
        assert ctx.abstain, ctx.reason
        assert not mem.context("What does Gina like?").abstain


def test_facts_without_vectors_are_embedded_in_chunks_each_committed(monkeypatch):
    import midas_graph._recall as recall_mod

    monkeypatch.setattr(recall_mod, "VECTOR_CHUNK", 2)
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        facts = mem.add_facts([(f"P{i}", "lives_in", f"City {i}") for i in range(5)])
        before = mem._store.generation
        assert mem.recall("Where does P3 live?", k=1)[0].fact.value == "City 3"
        assert mem._store.generation - before == 3            # 2 + 2 + 1 facts, one commit each
        assert len(mem._store.vectors("FactVector", [f.id for f in facts])) == 5


def test_episodes_stored_before_schema_3_are_split_on_the_first_recall(db_path, monkeypatch):
    import midas_graph._recall as recall_mod
    import midas_graph._store as store_mod

    monkeypatch.setattr(recall_mod, "VECTOR_CHUNK", 2)
    monkeypatch.setattr(store_mod, "SPLIT_MIN_WORDS", 0)   # short turns, split all the same
    turns = ["My sister became a nurse. She lives in Boston.", "Ok.", "I like green tea. I drink it daily.",
             "We met in May. It rained all week. Then the sun came out."]
    with Memory(db_path, engine=ENGINE, clock=StepClock()) as mem:
        ids = [r.episode.id for r in mem.add_episodes([{"content": t, "speaker": "Ana"} for t in turns])]
        written = mem._store.vectors("EpisodeSentences", ids)
    assert [len(written[i]) // (384 * 4) for i in ids] == [2, 0, 2, 3]
    as_schema(db_path, 2)
    with Memory(db_path, engine=ENGINE, clock=StepClock()) as mem:
        assert mem._store.schema_version == SCHEMA_VERSION
        assert mem._store.vectors("EpisodeSentences", ids) == {}       # nothing stored for them yet
        before = mem._store.generation
        assert "Boston" in mem.recall("Where does Ana's sister live?", k=1)[0].text
        assert mem._store.generation - before == 2                      # 4 episodes, 2 per commit
        backfilled = mem._store.vectors("EpisodeSentences", ids)
        for i in ids:  # the same sentences, embedded in another batch (int8 activations: not bit-equal)
            a, b = (np.frombuffer(x[i], dtype=np.float32).reshape(-1, 384) for x in (written, backfilled))
            assert a.shape == b.shape and (a.size == 0 or np.min(np.sum(a * b, axis=1)) > 0.99)


def test_an_index_rebuilt_after_writes_equals_one_built_from_scratch(monkeypatch):
    """A rebuild reuses what the previous index holds; it must end where a
    fresh build ends (same documents, vectors and BM25 ranking)."""
    import midas_graph._store as store_mod

    monkeypatch.setattr(store_mod, "SPLIT_MIN_WORDS", 0)   # short turns, split all the same
    from midas_graph._context import _voiced
    from midas_graph._recall import Recaller

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episodes([{"content": c, "speaker": "Sam"} for c in
                          ("I live in Berlin and work at Acme.", "My favorite food is ramen. I cook it weekly.")])
        rec = mem._recaller()
        _voiced(rec.index("default"))                          # the index before the writes, its split kept
        mem.add_episode("Do you like Porto? I moved my office to the Porto harbour.", speaker="Sam")
        sailing = mem.add_fact("Sam", "likes", "sailing", text="Sam took up sailing.")
        mem.add_fact("Sam", "likes", "chess", text="Sam plays chess on Sundays.")
        mem.retract(sailing.id)                                # a belief leaves the index
        incremental, fresh = rec.index("default"), Recaller(mem).index("default")
        assert incremental.keys == fresh.keys and incremental.texts == fresh.texts
        assert ("fact", sailing.id) not in incremental.row
        assert np.array_equal(incremental.matrix, fresh.matrix)
        assert [None if m is None else m.tolist() for m in incremental.sentences] == \
            [None if m is None else m.tolist() for m in fresh.sentences]
        assert sum(m is not None for m in fresh.sentences) == 2   # the ramen and the Porto episodes
        assert incremental.tokens == fresh.tokens
        assert sum(v is not None for v in incremental.voice) == 2  # reused from before the writes
        assert _voiced(incremental) == _voiced(fresh) and incremental.voice == fresh.voice
        now = mem.now()
        for q in ("Where is Sam's office?", "chess", "Where does Sam live?"):
            assert [h.id for h in rec.recall(q, k=5, valid_at=now, known_at=now, group_id="default")] == \
                [h.id for h in Recaller(mem).recall(q, k=5, valid_at=now, known_at=now, group_id="default")]


def test_a_write_committed_during_an_index_build_is_found_by_the_next_query():
    """Another thread's write landing between the build's reads must not be
    hidden behind the index's stamp (the MCP server reads and writes from
    worker threads)."""
    import threading

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_fact("Kim", "lives_in", "Oslo")
        store, read_documents = mem._store, mem._store.group_documents

        def documents_then_a_write(group_id):
            docs = read_documents(group_id)
            if not getattr(store, "_wrote", False):
                store._wrote = True
                t = threading.Thread(target=mem.add_fact, args=("Lee", "lives_in", "Rome"))
                t.start()
                t.join()
            return docs

        store.group_documents = documents_then_a_write
        mem.recall("Where does Kim live?", k=1)         # builds while Lee's fact lands
        store.group_documents = read_documents
        assert [h.fact.value for h in mem.recall("Where does Lee live?", k=1)] == ["Rome"]


def test_a_questions_time_is_not_what_it_asks_about():
    """"in the mornings", "these days", "last autumn" say when, not what:
    a reply about coffee every morning answers what one drinks in the mornings.
    "What does X do?" asks for a job; "what did X do yesterday?" does not."""
    from midas_graph._query import analyze
    from midas_graph.models import load_spacy

    nlp = load_spacy()
    terms = lambda q: analyze(q, nlp, speaker="Ana").terms  # noqa: E731
    assert terms("what do i drink in the mornings now") == ("drink",)
    assert terms("where was I working last autumn?") == ("work",)
    assert terms("What car did we have in the spring?") == ("car",)
    assert terms("What does Bram do these days?") == ("job", "work")
    assert "job" not in terms("What did Bram do yesterday?")


def test_a_name_question_abstains_in_a_sentence_about_the_name():
    """A name asked and not given: the thing asked, less the name words, and
    its name or names (LoCoMo had "Nothing is known about James's names and
    dogs's name.")."""
    from midas_graph._context import _name_reason
    from midas_graph._query import analyze
    from midas_graph.models import load_spacy

    nlp = load_spacy()
    for question, reason in [("What are the names of James's dogs?", "James's dogs' names"),
                             ("What is the name of John's cousin's dog?", "John's cousin's dog's name"),
                             ("what's my accountant's name?", "your accountant's name")]:
        assert _name_reason(question, analyze(question, nlp, speaker="ada"), "ada") == (
            f"Nothing is known about {reason}."), question


def test_an_abstention_says_what_is_not_known_in_a_sentence_and_quotes_no_line():
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, [("Ana", "I started swimming three mornings a week."),
                        ("Ana", "My brother Bram lives in Ghent.")])
        ctx = mem.context("What is Ana's favorite color?", speaker="Ana")
        assert ctx.abstain and ctx.reason == "Nothing is known about your favorite color."
        assert ctx.items == [] and ctx.near_misses == [] and "swimming" not in ctx.text
        assert mem.context("Where does Bram work?", speaker="Ana").reason in (
            "Nothing is known about where Bram works.", "Nothing is known about Bram's work.")
        assert mem.context("Where does Zorblax live?").reason == "Nothing is known about Zorblax."
        # a compound says one thing once ("blood type", not "blood and blood type")
        assert mem.context("What's Bram's blood type?", speaker="Ana").reason == (
            "Nothing is known about Bram's blood type.")
        # "did" asks the past, after what the question asks ("what year", "how much")
        for question, reason in [("What year did Bram die?", "what year Bram died"),
                                 ("How much did Bram raise?", "how much Bram raised"),
                                 ("What did Bram stop?", "what Bram stopped")]:
            assert mem.context(question, speaker="Ana").reason == f"Nothing is known about {reason}.", question


def test_who_is_a_known_person_is_answered_by_any_statement_about_them():
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, [("Ana", "Today was my last day at the bakery. Dave took me to lunch."),
                        ("Bot", "That's kind of him!")])
        ctx = mem.context("Who is Dave?", speaker="Ana")
        assert not ctx.abstain and "Dave took me to lunch" in ctx.text, ctx.reason
        assert mem.context("Who is Zed?", speaker="Ana").abstain


def test_an_abstention_speaks_of_people_as_the_asker_would(monkeypatch):
    """The asker's own roles are "your brother", never the stored role name
    ("Teo's brother"); "what does X do?" is said back as such, not as the
    words it is matched by (job, work). (How an abstention is worded: with
    ROLE_GROUNDS, "My brother Nico flies in on Friday." is near enough to
    "what does my brother do?" to ground it, a known cost of that rule.)"""
    import midas_graph._context as context_mod

    monkeypatch.setattr(context_mod, "ROLE_GROUNDS", None)
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        for t in ["Hi, I'm Teo.", "My brother Nico flies in on Friday.", "I work at Dell as a support engineer."]:
            mem.add_episode(t, speaker="Teo")
        reasons = {q: mem.context(q, speaker="Teo").reason for q in (
            "what does my brother do?", "What does Nico do?", "what does my sister do?",
            "What's my brother's favorite color?", "when was my brother born?")}
        assert reasons == {
            "when was my brother born?": "Nothing is known about when your brother was born.",
            "what does my brother do?": "Nothing is known about what your brother does.",
            "What does Nico do?": "Nothing is known about what Nico does.",
            "what does my sister do?": "Nothing is known about your sister.",
            "What's my brother's favorite color?": "Nothing is known about your brother's favorite color."}
        assert not mem.context("what do I do?", speaker="Teo").abstain
        # a name asked of someone known by no one: the role, without the possessive it was asked with
        assert mem.context("what's my cousin's name?", speaker="Teo").reason == "Nothing is known about your cousin."
        assert mem.context("Whats my son-in-law’s name again", speaker="Teo").reason == (
            "Nothing is known about your son-in-law.")
        # a question that is no "wh- do X verb" is not rebuilt from its words ("who Nico employs")
        assert {q: mem.context(q, speaker="Teo").reason for q in (
            "Who employs Nico these days?", "what did Nico get operated on?")} == dict.fromkeys((
                "Who employs Nico these days?", "what did Nico get operated on?"),
            "Nothing is known about Nico that answers this.")


def test_an_aside_after_a_question_asks_nothing(monkeypatch):
    """"Whats my grandson's name, want to get it engraved on a bat" asks the
    name (ASIDES_CUT): the reason used to name the bat, and "what's my son's
    school called, I need to fill in a form" asked nothing of Teo's own
    facts. And a name word asks who holds a role only next to it
    (ROLE_NAME_NEAR): "what's my son's school called?" asks about a son
    nobody is known as, so it abstains instead of being grounded by Teo's
    daughter."""
    import midas_graph._context as context_mod
    import midas_graph._query as query_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        for t in ["Hi, I'm Teo.", "My daughter Lily plays the violin."]:
            mem.add_episode(t, speaker="Teo")
        ask = lambda q: mem.context(q, speaker="Teo")  # noqa: E731
        assert ask("Whats my grandson's name, want to get it engraved on a bat").reason == (
            "Nothing is known about your grandson.")
        for q in ("What's my son's school called?", "What's my son's school called, I need to fill in a form"):
            assert ask(q).abstain and ask(q).reason == "Nothing is known about your son.", q
        assert not ask("Who plays the violin, my daughter?").abstain  # no aside: kept whole
        monkeypatch.setattr(query_mod, "ASIDES_CUT", False)
        assert "bat" in ask("Whats my grandson's name, want to get it engraved on a bat").reason
        monkeypatch.setattr(query_mod, "ROLE_NAME_NEAR", False)
        monkeypatch.setattr(context_mod, "NAME_GIVEN", False)  # which abstains too: no school is named
        assert not ask("What's my son's school called?").abstain


def test_a_later_turn_that_changes_a_chosen_one_comes_with_it(monkeypatch):
    """A plan said once, then moved in a turn that names only part of it, then
    moved again in a turn that names nothing ("and it's slipped again"): the
    newer turns come into the context above the first, though they share
    little with the question."""
    import midas_graph._context as context_mod

    chat = [("Rui", "The team offsite in Porto is booked for 3 June, finally."),
            ("Bot", "Great, noted!"),
            ("Rui", "My cat knocked a plant over this morning."),
            ("Bot", "Oh no!"),
            ("Rui", "offsite postponed to 17 June, the venue double-booked us"),
            ("Bot", "Noted."),
            ("Rui", "and it's moved again, now 1 July. unbelievable")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ctx = mem.context("When is the team offsite in Porto?", speaker="Rui")
        said = [i.episode.content for i in ctx.items if i.episode is not None]
        assert not ctx.abstain
        assert any("1 July" in t for t in said) and any("17 June" in t for t in said), said
        # the plant turn is no update of the offsite
        assert not any("plant" in t for t in said)
        monkeypatch.setattr(context_mod, "FOLLOW_UPS", False)
        said = [i.episode.content for i in mem.context("When is the team offsite in Porto?", speaker="Rui").items
                if i.episode is not None]
        assert not any("1 July" in t for t in said), said


def test_a_belief_names_what_is_asked_only_by_itself_not_by_its_sentence(monkeypatch):
    """"Sam · has dog: Rex" came from a sentence that also says "the park";
    the belief names a dog, not the park: a question about the park is
    grounded (or not) by what was said, never as a belief that names it."""
    import midas_graph._context as context_mod

    chat = [("Sam", "I have a dog named Rex and we play fetch in the park every morning."),
            ("Kim", "Sounds lovely!"), ("Kim", "I play the cello in an orchestra.")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        named = "a stored belief of the asked entity names what is asked"
        assert mem.context("What is Sam's dog called?").reason == named
        ctx = mem.context("What does Sam do in the park?")
        assert ctx.reason != named and "Rex" in ctx.text, ctx.reason
        monkeypatch.setattr(context_mod, "NAMED_BY_BELIEF", False)
        assert mem.context("What does Sam do in the park?").reason == named


def test_a_question_naming_a_held_value_asks_its_attribute(monkeypatch):
    """"Am I still cycling?" names a value the asker's commute held: the
    commute is asked, so the current one (tram) answers, though it names no
    asked word. A word of the event that dates the question is not asked
    ("before she joined the academy"). A quality nothing held is said back
    as one."""
    import midas_graph._context as context_mod

    with Memory(engine=ENGINE, clock=StepClock(), attributes={"commute": "one"}) as mem:
        mem.add_episode("Hi, I'm Ana.", speaker="Ana")
        mem.add_fact("Ana", "commute", "cycling", valid_from=d("2024-01-01"))
        mem.add_fact("Ana", "commute", "tram", valid_from=d("2024-05-01"))
        ctx = mem.context("am I still cycling?", speaker="Ana")
        assert not ctx.abstain and "tram" in ctx.text, ctx.text
        assert "commute" in ctx.terms
        assert mem.context("am I still grumpy?", speaker="Ana").reason == (
            "Nothing is known about whether you are grumpy.")
        monkeypatch.setattr(context_mod, "VALUE_ASKS_ATTRIBUTE", False)
        assert mem.context("am I still cycling?", speaker="Ana").abstain


def test_a_question_may_name_an_extracted_attribute_by_its_category():
    """"What exercise am I doing?" asks of a habit, "what am I allergic to?"
    of an allergy (schema/attributes.toml asked_as); a category nothing
    held is still not known."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episode("Hi, I'm Ana.", speaker="Ana")
        mem.add_fact("Ana", "habit", "water aerobics")
        mem.add_fact("Ana", "allergy", "sulfa drugs")
        ctx = mem.context("What exercise am I doing these days?", speaker="Ana")
        assert not ctx.abstain and "water aerobics" in ctx.text, ctx.text
        ctx = mem.context("What am I allergic to?", speaker="Ana")
        assert not ctx.abstain and "sulfa drugs" in ctx.text, ctx.text
        assert mem.context("What car do I drive?", speaker="Ana").abstain


#: Small talk between the turns a test is about, so that recall alone does not bring every turn.
_FILLER = [(who, text) for pair in zip(
    [("Ana", f"Had {x} for lunch today, it was {y}.") for x, y in [
        ("ramen", "great"), ("a salad", "fine"), ("tacos", "messy"), ("soup", "too salty"), ("pizza", "cold"),
        ("curry", "spicy"), ("a sandwich", "dry"), ("sushi", "fresh"), ("dumplings", "perfect"),
        ("pasta", "heavy"), ("a burrito", "huge"), ("pho", "comforting")]],
    [("Bot", f"{x} sounds {y}!") for x, y in [
        ("That", "tasty"), ("Lunch", "nice"), ("It", "fun"), ("Food", "good"), ("That", "rough"),
        ("It", "hot"), ("Well, that", "sad"), ("That", "lovely"), ("It", "delicious"), ("That", "filling"),
        ("It", "big"), ("That", "cosy")]]) for who, text in pair]


def _said(mem, asked: str, speaker: str) -> str:
    """The turns the context for ``asked`` quotes, joined."""
    return " ".join(i.episode.content for i in mem.context(asked, speaker=speaker).items if i.episode)


def test_each_later_change_of_a_turn_comes_with_it(monkeypatch):
    """A turn corrected twice, on two of its words: both corrections come with it
    (UPDATES_PER_TURN), the second though it shares no word with the first."""
    import midas_graph._context as context_mod

    chat = [("Ana", "We got the keys to a flat in Shoreditch, the tenancy starts 1 March."),
            ("Bot", "Congratulations!"),
            ("Ana", "Correction: the tenancy starts 8 March, not 1 March. The agent changed it."),
            ("Bot", "Updated."),
            *_FILLER,
            ("Ana", "And I said Shoreditch, but I meant Hoxton. Shoreditch was the other viewing.")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        asked = "Where is our new flat?"
        said = _said(mem, asked, "Ana")
        assert "Hoxton" in said and "8 March" in said, said
        monkeypatch.setattr(context_mod, "UPDATES_PER_TURN", 1)
        said = _said(mem, asked, "Ana")
        assert "Hoxton" not in said, said


def test_a_moved_plan_is_still_the_one_its_first_turn_named(monkeypatch):
    """"When is my wisdom tooth procedure?" after the date moved: the turn that
    moved it names no wisdom tooth, and the turn that did is stale; it still shows
    the procedure is the asker's (STALE_GROUNDS), and the new date answers."""
    import midas_graph._context as context_mod

    chat = [("Ana", "My dentist referred me to a surgeon for my wisdom tooth. The procedure is set for July 3."),
            ("Bot", "Noted: wisdom tooth procedure on July 3."),
            ("Ana", "The clinic has moved the procedure to July 10.")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        assert [f.value for f in mem.as_of("Ana", "procedure_date")] == ["2023-07-10"]
        asked = "When is my wisdom tooth procedure?"
        ctx = mem.context(asked, speaker="Ana")
        assert not ctx.abstain and "2023-07-10" in ctx.text, ctx.text
        monkeypatch.setattr(context_mod, "STALE_GROUNDS", False)
        monkeypatch.setattr(context_mod, "SELF_TOPIC", None)  # the moving turn alone is like the question too
        assert mem.context(asked, speaker="Ana").abstain


def test_a_later_turn_that_changes_what_a_belief_is_about_comes_with_it(monkeypatch):
    """A held belief about the Lisbon trip, then a turn extraction does not read
    ("postponed Lisbon, to March") that mentions Lisbon and says a change: it is
    shown with the belief (FACT_UPDATES)."""
    import midas_graph._context as context_mod

    chat = [("Ana", "The Lisbon trip is moved to November 2."),
            ("Bot", "Noted."),
            *_FILLER,
            ("Ana", "We have postponed Lisbon again, to March. Work is too busy.")]
    monkeypatch.setattr(context_mod, "UPDATE_ROWS", 0)  # not as the later change of a shown turn
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        asked = "When is the Lisbon trip?"
        said = _said(mem, asked, "Ana")
        assert "to March" in said, said
        monkeypatch.setattr(context_mod, "FACT_UPDATES", False)
        monkeypatch.setattr(context_mod, "RECALL_FILL", 0)  # nor as a turn recall ranks high
        said = _said(mem, asked, "Ana")
        assert "to March" not in said, said


def test_the_turn_recall_ranks_first_has_a_place_beside_a_boosted_belief(monkeypatch):
    """"Who's my manager?" after "my new manager is anjali, derek moved to
    the payments team", a turn extraction reads no new manager from (name
    slots and first names off: "anjali" is then no name): the
    stored "manager: derek" is weighed far above any turn and the floor
    under it would leave the new one out; the asked entity's turns recall
    ranks first keep a place (RECALL_KEEP) and fill the budget (RECALL_FILL)."""
    import midas_graph._context as context_mod
    import midas_graph._extract.casing as casing_mod

    chat = [("Ling", "my manager derek says my memory is a sieve"),
            ("Bot", "Ha, I can help with that."),
            *_FILLER,
            ("Ling", "reorg 🙃 my new manager is anjali, derek moved to the payments team")]
    monkeypatch.setattr(casing_mod, "NAME_SLOTS", False)
    monkeypatch.setattr(casing_mod, "FIRST_NAMES", False)
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        assert [f.value.casefold() for f in mem.as_of("Ling", "manager")] == ["derek"]
        ctx = mem.context("who's my manager?", speaker="Ling")
        assert not ctx.abstain and "anjali" in ctx.text, ctx.text
        monkeypatch.setattr(context_mod, "RECALL_FILL", 0)
        assert "anjali" not in mem.context("who's my manager?", speaker="Ling").text


def test_a_place_named_in_a_turn_about_someone_does_not_say_where_they_live():
    """"Where does nico live?" when Nico never speaks and no belief says where
    he lives: "... taco truck in houston" names a place near him, which is not
    where he lives (round 5 measured grounding on it: it answered more
    should-abstain questions than answerable ones on the held-out personas,
    docs/recall.md); "where does my grandma live?" likewise for "booking
    taipei to see ama (grandma)!"."""
    chat = [("Mateo", "nico, my brother, just opened his own taco truck in houston"),
            ("Bot", "That's exciting!"),
            ("Mateo", "booking taipei to see ama (grandma)! sept 20 for two weeks"),
            *_FILLER]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        assert mem.context("where does nico live?", speaker="Mateo").abstain
        assert mem.context("where does my grandma live?", speaker="Mateo").abstain
        assert not mem.context("what did nico open?", speaker="Mateo").abstain


def test_the_values_of_a_many_valued_attribute_answer_together(monkeypatch):
    """"What do I like?": "I enjoy jazz." ranks far above "I'm also a big fan of hip hop.";
    the belief shown brings the other current value of its attribute (SIBLING_VALUES)."""
    import midas_graph._context as context_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, [("Ana", "I enjoy jazz."), ("Ana", "I'm also a big fan of hip hop.")])
        values = lambda: {str(i.fact.value) for i in mem.context("What do I like?", speaker="Ana").items if i.fact}
        assert values() == {"jazz", "hip hop"}
        monkeypatch.setattr(context_mod, "SIBLING_VALUES", False)
        assert values() == {"jazz"}


def test_a_role_asked_as_of_a_time_is_whoever_held_it_then(monkeypatch):
    """"Who is Ben's manager?" as of mid-2022, when Paul was (Sarah is now): the role
    resolves by the relation fact valid then (ROLES_AS_OF), and today's holder answers now."""
    import midas_graph._context as context_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episode("My manager is Sarah.", speaker="Ben", reference_time="2023-10-01T10:00:00Z")
        mem.add_episode("In 2022 my manager was Paul.", speaker="Ben", reference_time="2023-10-02T10:00:00Z")
        then = mem.context("Who is Ben's manager?", valid_at="2022-06-01")
        assert not then.abstain and {str(i.fact.value) for i in then.items if i.fact} == {"Paul"}, then.text
        assert "Sarah" in mem.context("Who is Ben's manager?").text
        monkeypatch.setattr(context_mod, "ROLES_AS_OF", False)
        assert mem.context("Who is Ben's manager?", valid_at="2022-06-01").abstain


def test_what_a_speaker_tells_of_someone_else_is_not_their_own(monkeypatch):
    """"What am I allergic to?" when Ana only told of her daughter's allergy,
    in her own turn: the clause is Lina's, so it does not ground the question
    (OTHERS_CLAUSES); Ana's own allergy, said as her own, still does."""
    import midas_graph._context as context_mod

    chat = [("Ana", "Forms forms forms. Lina's kindergarten wants a photo and the allergy form \u2014 "
                    "Lina's allergic to peanuts, so she needs an EpiPen in the classroom."),
            ("Bot", "That is a lot of paperwork."), *_FILLER[:6]]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        asked = "What am I allergic to?"
        assert mem.context(asked, speaker="Ana").abstain
        monkeypatch.setattr(context_mod, "OTHERS_CLAUSES", False)
        assert not mem.context(asked, speaker="Ana").abstain
    monkeypatch.setattr(context_mod, "OTHERS_CLAUSES", True)
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, [*chat, ("Ana", "Turns out I'm allergic to penicillin too, found out at the clinic."),
                        ("Ana", "My brother lives in Chicago.")])
        ctx = mem.context("What am I allergic to?", speaker="Ana")
        assert not ctx.abstain and "penicillin" in ctx.text, ctx.text
        # the person the question names is no other: "my brother" asked of, "My brother lives ..." said
        ctx = mem.context("Where does Ana's brother live?")
        assert not ctx.abstain and "Chicago" in ctx.text, ctx.text


def test_a_short_answer_speaks_to_the_question_it_answers(monkeypatch):
    """"Merchant analytics." answers the assistant's "Do you know which team
    yet?": asked "Which team am I on?", it grounds the question and is shown
    (ANSWER_TAKES_QUESTION)."""
    import midas_graph._context as context_mod

    chat = [("Hiro", "I accepted the offer from Shopify, I start in March."),
            ("Bot", "Congratulations! Do you know which team yet?"),
            ("Hiro", "Merchant analytics."), *_FILLER[:6]]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        asked = "Which team am I on?"
        ctx = mem.context(asked, speaker="Hiro")
        assert not ctx.abstain and "Merchant analytics" in ctx.text, ctx.text
        monkeypatch.setattr(context_mod, "ANSWER_TAKES_QUESTION", False)
        assert mem.context(asked, speaker="Hiro").abstain


def test_a_short_answer_takes_the_question_asked_before_an_aside():
    """"Nice. Which floor? Asking for the bike." / "3rd. no lift. rip": the
    answer answers the turn's last question, not its last sentence."""
    chat = [("Kasia", "flat signed. 2-bed in De Pijp, move-in 1 Oct."),
            ("Bot", "Nice. Which floor? Asking for the bike logistics."),
            ("Kasia", "3rd. no lift. rip"), *_FILLER[:6]]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ctx = mem.context("what floor is my flat on?", speaker="Kasia")
        assert not ctx.abstain and "3rd" in ctx.text, ctx.text


def test_a_short_answer_is_about_whom_the_question_was_about(monkeypatch):
    """"Want reminders for his physio?" (his: Liam) / "pls. tues 4pm": the
    answer mentions Liam (_people.ANSWER_MENTIONS) and speaks of him with the
    question's words, so "what time is liam's physio?" is answered by it."""
    import midas_graph._people as people_mod

    chat = [("Dana", "liam's knee surgery is mar 14. acl."), ("Bot", "Who's Liam?"), ("Dana", "hubby lol"),
            ("Dana", "surgery went fine, he's home"), ("Bot", "Glad it went well! Want reminders for his physio?"),
            ("Dana", "pls. tues 4pm"), *_FILLER[:6]]
    asked = "what time is liam's physio?"
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ctx = mem.context(asked, speaker="Dana")
        assert not ctx.abstain and "tues 4pm" in ctx.text, ctx.text
        assert mem.check() == []  # no entity without a name
    monkeypatch.setattr(people_mod, "ANSWER_MENTIONS", 0)
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        assert mem.context(asked, speaker="Dana").abstain


def test_a_trip_named_by_its_place_answers_a_question_about_the_trip(monkeypatch):
    """"when's the taipei trip?" after "booking taipei to see ama! sept 20" and
    "taipei moved to oct 18": no turn says "trip"; travel words speak to it
    (TRAVEL_WORDS)."""
    import midas_graph._context as context_mod

    chat = [("ling", "booking taipei to see ama! sept 20 for two weeks"), ("Bot", "Lovely! Noted."),
            *_FILLER[:6], ("ling", "taipei moved to oct 18, work wants me here for the offsite")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        asked = "when's the taipei trip?"
        ctx = mem.context(asked, speaker="ling")
        assert not ctx.abstain and "oct 18" in ctx.text, ctx.text
        monkeypatch.setattr(context_mod, "TRAVEL_WORDS", False)
        assert mem.context(asked, speaker="ling").abstain


def test_what_someone_does_is_answered_by_a_job_title_and_by_a_variant_of_their_name(monkeypatch):
    """"My daughter Rebecca just became principal" answers "What does Becky
    do?": a job title speaks to a question about work (OCCUPATION_WORDS) and
    Becky is a usual form of Rebecca (NAME_VARIANTS)."""
    import midas_graph._context as context_mod
    import midas_graph._recall as recall_mod

    chat = [("Hal", "My daughter Rebecca just became principal of Lincoln Elementary."), ("Bot", "Wonderful!"),
            *_FILLER[:6]]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        for asked in ("What does Rebecca do?", "What does Becky do?"):
            ctx = mem.context(asked, speaker="Hal")
            assert not ctx.abstain and "principal" in ctx.text, (asked, ctx.text)
        monkeypatch.setattr(recall_mod, "NAME_VARIANTS", False)
        assert "principal" not in mem.context("What does Becky do?", speaker="Hal").text
        monkeypatch.setattr(recall_mod, "NAME_VARIANTS", True)
        monkeypatch.setattr(context_mod, "OCCUPATION_WORDS", False)
        assert mem.context("What does Rebecca do?", speaker="Hal").abstain


def test_praise_names_no_job(monkeypatch):
    """The assistant's "Great job, Mei!" is praise: its "job" neither covers
    nor fits "what does my husband do?", so it does not outweigh the line
    that says what he does (PRAISE_JOB); "a great job at Google" keeps its
    job."""
    import midas_graph._context as context_mod

    assert context_mod._unpraised("Great job, Mei!") == "Great , Mei!"
    assert context_mod._unpraised("I have a great job at Google") == "I have a great job at Google"
    chat = [("Mei", "my husband, tariq, flies in from Lagos tomorrow!!"), ("Bot", "Lovely, enjoy!"),
            ("Mei", "finished my first half marathon today"), ("Bot", "Great job, Mei! So proud of you."),
            ("Mei", "tariq got moved to the dubai office, he's still doing engineering at halcrow"),
            ("Bot", "Noted: Tariq is an engineer at Halcrow."), *_FILLER[:4]]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ctx = mem.context("what does my husband do?", speaker="Mei")
        assert not ctx.abstain and "Halcrow" in ctx.text, ctx.reason
        monkeypatch.setattr(context_mod, "PRAISE_JOB", False)
        monkeypatch.setattr(context_mod, "ROLE_GROUNDS", None)  # a turn telling of him would ground it
        assert mem.context("what does my husband do?", speaker="Mei").abstain


def test_my_ex_is_also_the_partner_that_was(monkeypatch):
    """"my ex" is an entity of its own once said ("my ex texted me"), and
    also the one the asker was last with: after "dario and i are done" closed
    partner: Dario, "what's my ex's name?" finds Dario (EX_PARTNER); the new
    partner is no ex."""
    import midas_graph._recall as recall_mod

    chat = [("Imke", "my boyfriend Dario is a chef."), ("Bot", "Nice!"), ("Imke", "dario and i are done. like done done."),
            ("Imke", "my ex texted me at 2am asking for his hoodie back"), ("Imke", "me and javi are official 🙈")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ids = mem._recaller().resolve_names(["Imke's ex"], "default")
        names = {e.name for e in mem._store.entities_by_id(ids)}
        assert "Dario" in names and "Javi" not in names, names
        assert "Dario" in mem.context("whats my ex's name again", speaker="Imke").text
        monkeypatch.setattr(recall_mod, "EX_PARTNER", False)
        assert "Dario" not in mem.context("whats my ex's name again", speaker="Imke").text


def test_who_someone_is_marrying_is_their_fiance():
    """"Terrence proposed to Keisha AT THE PARTY??" (surprise, not a question)
    makes each the other's fiance, and "who's my brother marrying?" asks for
    it ("marry" is said as "engaged", "wedding", "fiancé": words.said_as)."""
    chat = [("Marcus", "my brother Terrence is driving down from Charlotte for the party"), ("Bot", "Fun!"),
            ("Marcus", "party was chaos. Terrence proposed to Keisha AT THE PARTY?? she said yes"), *_FILLER[:4]]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        assert [f.value for f in mem.current("Terrence", "fiance")] == ["Keisha"]
        ctx = mem.context("who's my brother marrying", speaker="Marcus")
        assert not ctx.abstain and "Keisha" in ctx.text, ctx.reason


def test_a_lower_case_question_reads_known_peoples_names_as_names(monkeypatch):
    """"where does ling work?": the tagger reads "ling" as a verb ("le") unless
    the question first gets the capital of the known person Ling
    (QUESTION_NAMES); then her employer answers."""
    import midas_graph._recall as recall_mod

    chat = [("mlchen", "hi!! pls call me Ling. I'm a product designer at Figma."), ("Bot", "Hi Ling! Noted."),
            *_FILLER[:4]]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        recaller = mem._recaller()
        assert recaller.cased_question("where does ling work?", "default") == "where does Ling work?"
        ctx = mem.context("where does ling work?")
        assert not ctx.abstain and "Figma" in ctx.text and ctx.focus == ("Ling",) and ctx.terms == ("work",)
        monkeypatch.setattr(recall_mod, "QUESTION_NAMES", False)
        ctx = mem.context("where does ling work?")
        assert ctx.focus == () and "le" in ctx.terms  # asked of nobody, with the verb "le"


def test_a_name_in_a_turn_answers_which_hospital_or_city(monkeypatch):
    """"she's at Grady, been there 6 yrs" answers "what hospital is nia at?"
    though it never says "hospital" (CATEGORY_NAMES); a place name answers
    "what city"; a turn with no name does not, and nobody else's counts."""
    import midas_graph._context as context_mod

    chat = [("Bot", "How is Nia doing?"),
            ("Marcus", "nia got called in AGAIN at 2am, trauma surgeon life. she's at Grady, been there 6 yrs"),
            ("Bot", "Oof."), ("Marcus", "my brother moved to raleigh last month, he loves it"), ("Bot", "Nice!"),
            *_FILLER[:6]]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ctx = mem.context("what hospital is nia at", speaker="Marcus")
        assert not ctx.abstain and "Grady" in ctx.text, ctx.text
        ctx = mem.context("what city is my brother in now?", speaker="Marcus")
        assert not ctx.abstain and "raleigh" in ctx.text.lower(), ctx.text
        assert mem.context("what hospital is my brother at", speaker="Marcus").abstain  # no name in his turn
        monkeypatch.setattr(context_mod, "CATEGORY_NAMES", False)
        assert mem.context("what hospital is nia at", speaker="Marcus").abstain


def test_a_chat_spelling_or_a_kind_speaks_to_the_asked_word(monkeypatch):
    """"Lea bday 17.02." answers "when is Lea's birthday?", "swimming now,
    knee" answers "what do I do for exercise?" (``words.said_as``); with
    SAID_AS off they do not."""
    import midas_graph._query as query_mod

    chat = [("jk", "Lea bday 17.02. remind me 1 wk before pls"), ("Bot", "Will do. Who's Lea?"),
            ("jk", "my girlfriend, 4 yrs in march"), ("Bot", "Lovely."),
            ("jk", "running is over for now, knee. swimming 3x a week instead"), ("Bot", "Take care!"),
            *_FILLER[:6]]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        for asked, gold in (("when is Lea's birthday?", "17.02"), ("what do I do for exercise these days?", "swimming")):
            ctx = mem.context(asked, speaker="jk")
            assert not ctx.abstain and gold in ctx.text, (asked, ctx.text)
        monkeypatch.setattr(query_mod, "SAID_AS", False)
        assert mem.context("when is Lea's birthday?", speaker="jk").abstain


def test_an_answer_to_who_do_you_report_to_names_the_boss(monkeypatch):
    """"Who do you report to?" / "their CTO, Levent Aydin." answers "who's my
    boss now?": the answer takes the question's words, and "report" speaks
    to "boss" (said_as) even though "boss" is never said."""
    import midas_graph._query as query_mod

    chat = [("jk", "day 1 at Kontor. team of 22. badge photo terrible"),
            ("Bot", "Congrats on the new role! Who do you report to?"),
            ("jk", "their CTO, Levent Aydin. yes another L, i know"), *_FILLER[:6]]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ctx = mem.context("who's my boss now?", speaker="jk")
        assert not ctx.abstain and "Levent" in ctx.text, ctx.text
        monkeypatch.setattr(query_mod, "SAID_AS", False)
        assert mem.context("who's my boss now?", speaker="jk").abstain


def test_where_am_i_living_asks_a_home_and_for_a_living_a_job():
    """"where am I living" never takes a job title for its answer (the stem
    of "living" is "live"); "what does Emiko do for a living?" asks her job."""
    from midas_graph._query import analyze
    from midas_graph.models import load_spacy

    nlp = load_spacy()
    assert analyze("What does Emiko do for a living?", nlp, speaker="u").occupation
    assert not analyze("where am i living these days", nlp, speaker="u").occupation
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, [("u", "officially accepted the founding engineer role at Lumina!!!"), ("Bot", "Congrats!"),
                        *_FILLER[:6]])
        ctx = mem.context("where am i living these days", speaker="u")
        assert "engineer" not in ctx.text, ctx.text
        ctx = mem.context("what do I do for a living?", speaker="u")
        assert not ctx.abstain and "engineer" in ctx.text, ctx.text


def test_a_belief_of_what_someone_is_called_is_a_line_only_when_a_name_is_asked(monkeypatch):
    """"where does Ling work?": that Ling is Mei-Ling is how the memory
    found her, not an answer; the name belief takes no place in the context
    (ONLY_ASKED_NAMES) unless the question asks a name."""
    import midas_graph._context as context_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episode("Hi! I'm Mei-Ling but please call me Ling.", speaker="mlchen",
                        reference_time="2024-01-01T10:00")
        mem.add_episode("I started at Figma last week as a designer.", speaker="mlchen",
                        reference_time="2024-03-01T10:00")
        ctx = mem.context("where does Ling work?", speaker="mlchen")
        assert not ctx.abstain and "Figma" in ctx.text
        assert not any(i.fact is not None and i.fact.attribute == "name" for i in ctx.items)
        asked = mem.context("what's my name?", speaker="mlchen")
        assert any(i.fact is not None and i.fact.attribute == "name" for i in asked.items)
        monkeypatch.setattr(context_mod, "ONLY_ASKED_NAMES", False)
        ctx = mem.context("where does Ling work?", speaker="mlchen")
        assert any(i.fact is not None and i.fact.attribute == "name" for i in ctx.items)


def test_a_turn_telling_of_a_known_role_grounds_a_question_in_other_words(monkeypatch):
    """ROLE_GROUNDS: asked by a role the memory knows someone by, a turn that
    tells of them grounds the question though it never says the asked word
    ("university"), when its words are near enough the asked ones; not when
    the asked word is a relation of theirs nobody told ("my sister's
    husband"), nor for a role nobody is known by."""
    import midas_graph._context as context_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        for t in ["kevin (my little bro) got into waterloo for engineering!!! he's moving there in sept",
                  "my sister Mei is visiting from Taipei next week",
                  "work has been brutal this week, two deadlines"]:
            mem.add_episode(t, speaker="Ling")
        ctx = mem.context("where is my brother going to university?", speaker="Ling")
        assert not ctx.abstain and "waterloo" in ctx.text.lower(), ctx.reason
        assert ctx.reason.startswith("grounded by")
        assert mem.context("what's my sister's husband called?", speaker="Ling").abstain
        assert mem.context("where does my cousin study?", speaker="Ling").abstain
        # a turn whose words are far from the asked ones grounds nothing
        assert mem.context("what's my sister's favorite color?", speaker="Ling").abstain
        # "my parents" is its speaker's: Jo's turn tells nothing of Ling's parents
        mem.add_episode("my parents live in Taipei", speaker="Ling")
        mem.add_episode("when I was ten my parents got me my first game console!", speaker="Jo")
        assert mem.context("When did Ling's parents give her a game console?", speaker="Jo").abstain
        monkeypatch.setattr(context_mod, "ROLE_GROUNDS", None)
        assert mem.context("where is my brother going to university?", speaker="Ling").abstain


def test_the_askers_own_turn_most_like_the_question_grounds_it(monkeypatch):
    """SELF_TOPIC: asked about themselves ("what can't I eat?") with no line
    sharing or near the asked words, the asker's own turn most like the
    question grounds it; not for a "when" its turn holds no date for, nor a
    thing of the asker's ("my dog's name") or a role ("my aunt's name"), nor
    for another person ("where does Steph live now?" stays abstained: asked
    of a person who never speaks, the same rule answered wrong-person traps)."""
    import midas_graph._context as context_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        for t in ["the allergist says I'm allergic to shellfish. no more prawns for me :(",
                  "work has been brutal this week, two deadlines",
                  "Chidi's birthday party is at the bowling place, remind me",
                  "ugh Steph is off to Perth for good. her husband got a mining job there"]:
            mem.add_episode(t, speaker="Ana")
        ctx = mem.context("what can't I eat?", speaker="Ana")
        assert not ctx.abstain and "shellfish" in ctx.text, ctx.reason
        assert ctx.reason.startswith("grounded by")
        for q in ["when's my anniversary?", "what's my dog's name?", "what's my aunt's name?",
                  "what does Steph do for work?"]:
            assert mem.context(q, speaker="Ana").abstain, q
        monkeypatch.setattr(context_mod, "SELF_TOPIC", None)
        assert mem.context("what can't I eat?", speaker="Ana").abstain
        monkeypatch.undo()
        # a near miss is no topic: a turn with an asked word and none of the asked nouns
        mem.add_episode("My favorite food is sushi.", speaker="Ana")
        assert mem.context("What is my favorite color?", speaker="Ana").abstain


def test_a_question_of_a_person_is_grounded_only_by_their_lines(monkeypatch):
    """"When did Lukas start at Kontor?" when only the asker started there:
    the asker's "start at Kontor 01.10." shares every asked word, but says
    nothing of Lukas, so the question abstains (PERSON_ASKED); asked of the
    asker, the same turn answers."""
    import midas_graph._context as context_mod

    chat = [("jk", "long day. roadmap session, Lukas agrees (Lukas = our senior dev btw, w/ us since the beginning)."),
            ("jk", "I'm joining Kontor as VP of Engineering."),
            ("jk", "deal signed 12.08. -> I accepted the VP Eng offer. start at Kontor 01.10., last day at Lagerly "
                   "30.09."),
            ("jk", "day 1 at Kontor. team of 22. badge photo terrible")]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ctx = mem.context("when did Lukas start at Kontor?", speaker="jk")
        assert ctx.abstain, ctx.text
        ctx = mem.context("when did I start at Kontor?", speaker="jk")
        assert not ctx.abstain and "01.10" in ctx.text
        monkeypatch.setattr(context_mod, "PERSON_ASKED", False)
        assert not mem.context("when did Lukas start at Kontor?", speaker="jk").abstain


def test_an_asked_class_speaks_through_its_kinds(monkeypatch):
    """"what kind of animal is Pixel?" is answered by "cat." to "Is Pixel a
    cat or a dog?" ("animal" stands for the pets list in words.said_as).
    The assistant's question, whose words are only asked, does not outrank
    the answer (ASKING_ONLY)."""
    import midas_graph._context as context_mod

    chat = [("kw", "Pixel's vaccines need updating before any move"), ("Bot", "Noted. Is Pixel a cat or a dog?"),
            ("kw", "cat. tabby, 4yo, hates carriers"), ("Bot", "Got it."), *_FILLER[:6]]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ctx = mem.context("what kind of animal is Pixel?", speaker="kw")
        assert not ctx.abstain and "cat." in ctx.text, ctx.text
        assert mem.context("what kind of car is Pixel?", speaker="kw").abstain
        monkeypatch.setattr(context_mod, "ASKING_ONLY", False)
        assert mem.context("what kind of animal is Pixel?", speaker="kw").abstain


def test_a_noun_that_only_qualifies_a_person_does_not_answer_for_it(monkeypatch):
    """"school friend, known her since we were 12" says nothing of what
    school Niamh teaches at (PERSON_QUALIFIERS); "who is my school friend?"
    still finds her, and a pet's noun before "pet" is no qualifier."""
    import midas_graph._context as context_mod

    assert not context_mod._qualifies_person("dog", "has dog pet own have Bruno", "what kind of dog is bruno?")
    assert context_mod._qualifies_person("work", "my work colleague Dan", "where does Dan work?")
    assert not context_mod._qualifies_person("work", "my work colleague Dan", "who is my work colleague?")
    chat = [("shiv", "doing a sea swim with niamh on sunday, she's mad"), ("Bot", "Brave! Is Niamh from work?"),
            ("shiv", "school friend, known her since we were 12"), ("Bot", "Lovely."), *_FILLER[:6]]
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        _add_chat(mem, chat)
        ctx = mem.context("who is my school friend?", speaker="shiv")
        assert not ctx.abstain and "niamh" in ctx.text.lower(), ctx.text
        _abstains_by(monkeypatch, mem, "what school does niamh teach at?", "Nothing is known about Niamh",
                     "PERSON_QUALIFIERS")
