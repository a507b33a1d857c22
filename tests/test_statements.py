"""Statements kept whole (issue 19 item 3): a sentence of the speaker's that
no family reads is held as a ``said`` belief, so that a later sentence can
supersede it through NLI; recall and context read it in its episode. Real
spaCy, embeddings and NLI; sentences written for these tests (not from any
evaluation set).
"""

from __future__ import annotations

import datetime as dt

import pytest

from midas_graph import SAID
from midas_graph._extract import extract
from midas_graph._revise import keeps

REF = dt.datetime(2024, 5, 10, 12, 0, tzinfo=dt.timezone.utc)


def kept(nlp, text):
    ex = extract(text, speaker="Oona", reference_time=REF, listener="assistant", doc=nlp(text))
    return [c.value for c in ex.statements]


KEPT = [
    "Our wifi router is a Netgear Orbi.",
    "There are six of us in the choir.",
    "My long run on Sundays is 14k.",
    "The choir meets on Thursdays.",
    "Upgraded to the Fairphone 5 yesterday!",  # past, but it announces a change
]
NOT_KEPT = [
    "I went to a concert with Tom yesterday.",  # a past event, no change announced
    "Can you remind me to water the plants?",  # a question, a request
    "Set a reminder for the dentist on Friday.",  # an imperative
    "You should try the new ramen place.",  # about the listener
    "That's a great idea.",  # about no one of the speaker's
    "I might join a choir next year.",  # a guess
    "I'll book the vet for Monday.",  # a plan
    "lol same",  # no content
    "All my receipts go in a shoebox under the bed.",  # no name or number: nothing to give another value of
    "It's been a great way to work through stuff I'm going through.",
    "[photo: a photo of a dog walking past a wall with a painting of a woman]",  # an aside
    "Life's been hard lately, my son had an accident at football last Saturday.",  # a dated past event
    "Gonna be so awesome, honestly!",  # "Gonna" opening a sentence is no name
    "Here's one of my trophies from the contest.",  # "one" is no number
]


@pytest.mark.parametrize("text", KEPT)
def test_a_sentence_no_family_reads_is_kept_whole(spacy_nlp, text):
    assert kept(spacy_nlp, text) == [text]


@pytest.mark.parametrize("text", NOT_KEPT)
def test_what_states_nothing_standing_is_not_kept(spacy_nlp, text):
    assert kept(spacy_nlp, text) == []


def test_a_sentence_a_family_reads_is_no_statement(spacy_nlp):
    ex = extract("I live in Bristol.", speaker="Oona", reference_time=REF, doc=spacy_nlp("I live in Bristol."))
    assert ex.statements == [] and ex.claims


def test_a_later_sentence_that_names_the_old_value_without_ending_it_keeps_it():
    assert keeps("I'm a member at Gymbox.", "Gymbox has added a sauna, so I go even more.")
    assert keeps("My alarm goes off at 6:15 on weekdays.", "Even on holiday I woke up at 6:15.")
    assert not keeps("I see a physio called Brigid.", "Stopped going to Brigid, my new physio is Tom.")
    assert not keeps("I'm a member at Gymbox.", "My gym is Fitness First now.")  # names nothing of it
    # an ending word counts next to the value only
    assert keeps("My dentist is Dr. Okafor.", "Dr. Okafor moved her practice to the high street, still seeing her.")
    assert keeps("My locker is number 41.", "Someone scratched the door of locker 41, not impressed.")
    assert not keeps("I use Firefox as my browser.", "Firefox is gone, I use Vivaldi.")
    assert not keeps("I park in bay C9.", "They moved me from C9 to bay A3.")


def said_now(mem, who="Oona"):
    return sorted(f.value for f in mem.current(who, SAID))


@pytest.mark.engine
def test_a_contradicting_statement_supersedes_the_old_one_and_its_turn_leaves_the_context(models_mem):
    mem = models_mem
    mem.add_episode("The choir meets on Thursdays.", speaker="Oona", reference_time="2024-01-10")
    r = mem.add_episode("The choir meets on Mondays now.", speaker="Oona", reference_time="2024-06-01")
    assert [(f.attribute, f.value) for f in r.superseded] == [(SAID, "The choir meets on Thursdays.")]
    assert "nli contradiction" in r.superseded[0].reason
    assert said_now(mem) == ["The choir meets on Mondays now."]
    assert r.unparsed == ["The choir meets on Mondays now."]  # kept, not understood
    # valid time: in March the old statement held
    assert [f.value for f in mem.as_of("Oona", SAID, valid_at="2024-03-01")] == ["The choir meets on Thursdays."]
    ctx = mem.context("What day does Oona's choir meet?", budget_tokens=400)
    assert "Mondays" in ctx.text and "Thursdays" not in ctx.text, ctx.text
    assert "· said:" not in ctx.text  # read in its episode, never as a fact line
    assert mem.check() == []


@pytest.mark.engine
def test_an_unrelated_statement_and_one_that_keeps_the_old_value_close_nothing(models_mem):
    mem = models_mem
    mem.add_episode("I'm a member at Gymbox.", speaker="Oona", reference_time="2024-01-10")
    mem.add_episode("The choir meets on Thursdays.", speaker="Oona", reference_time="2024-01-11")
    r = mem.add_episode("Gymbox has added a sauna, so I go even more now.", speaker="Oona", reference_time="2024-03-01")
    assert r.superseded == []
    r = mem.add_episode("My sister's band plays at the Fleece on Friday.", speaker="Oona", reference_time="2024-03-02")
    assert r.superseded == []
    assert "I'm a member at Gymbox." in said_now(mem)
    assert "The choir meets on Thursdays." in said_now(mem)


@pytest.mark.engine
def test_the_agent_says_nothing_kept(models_mem):
    r = models_mem.add_episode("The choir meets on Thursdays, I believe.", speaker="assistant")
    assert r.facts == []


@pytest.mark.engine
def test_a_new_one_ends_what_was_said_of_the_last_one(models_mem):
    mem = models_mem
    mem.add_episode("Mr. Okoro walks our dog at lunchtime on weekdays.", speaker="Oona", reference_time="2024-01-10")
    mem.add_episode("The choir meets on Thursdays.", speaker="Oona", reference_time="2024-01-11")
    r = mem.add_episode("New dog walker started this week, a lad called Ollie.", speaker="Oona",
                        reference_time="2024-04-01")
    assert [(f.attribute, f.value) for f in r.facts] == [("dog_walker", "Ollie")]
    assert [f.value for f in r.superseded] == ["Mr. Okoro walks our dog at lunchtime on weekdays."]
    assert "changed" in r.superseded[0].reason
    assert said_now(mem) == ["The choir meets on Thursdays."]  # it speaks of no dog walker


def test_the_names_and_numbers_a_statement_is_compared_by():
    from midas_graph._revise import named, speaks_of

    assert named("I bank with Bank of America.") == {"Bank of America": False}
    assert named("I get my hair cut at Toni & Guy.") == {"Toni & Guy": False}
    assert named("I'm on the Galaxy S21 at the moment.") == {"Galaxy S21": False}
    assert named("Siobhan is my physio.") == {"Siobhan": True}  # opening the sentence: its capital says nothing
    assert named("We go to St. Anne's on Sundays.") == {"St. Anne's": False}  # the day says when, not where
    assert named("The choir meets on Thursdays.") == {"Thursdays": False}  # ... unless it is all there is
    assert named("My long run is 14k.") == {"14k": False}
    assert speaks_of("Mr. Pell walks our dog at lunchtime.", "dog_walker")
    assert not speaks_of("I love my dog.", "dog_walker")
