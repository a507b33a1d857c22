"""No-LLM importance (midas_graph/_importance.py): the content score from the
spaCy parse, the structural score from what ingest did, stored on each
episode (schema version 6), a fact's default importance, a user's scorer."""

from __future__ import annotations

import io

import pytest

from conftest import ENGINE, StepClock, as_schema
from midas_graph import InvalidInputError, Memory
from midas_graph._importance import content_signals
from midas_graph._store import SCHEMA_VERSION


def _content(nlp, text: str) -> float:
    return content_signals(nlp(text)).score


def test_content_score_orders_turns_by_what_they_say(spacy_nlp):
    backchannel = ["ok", "haha nice!", "Thanks so much!", "yeah, totally", "lol"]
    rich = [
        "I started working at Siemens in Munich in March 2021.",
        "My daughter Lena turns 7 on 14 May.",
        "We adopted a beagle called Biscuit from the Oakland shelter last year.",
    ]
    plain = "I think that it was kind of fun, to be honest."
    question = "What did you do at the weekend?"
    for t in backchannel:
        assert _content(spacy_nlp, t) <= 0.05, t
    for t in rich:
        assert _content(spacy_nlp, t) > _content(spacy_nlp, plain) + 0.2, t
        assert _content(spacy_nlp, t) > 0.6, t
    assert _content(spacy_nlp, question) < _content(spacy_nlp, "I did a pottery class at the weekend.")
    assert content_signals(spacy_nlp(question)).is_question
    assert not content_signals(spacy_nlp("I did a pottery class. Why?")).is_question  # not all questions


def test_numbers_and_names_each_add(spacy_nlp):
    base = _content(spacy_nlp, "I bought a new bike for the trip.")
    assert _content(spacy_nlp, "I bought 2 new bikes for the trip.") > base
    assert _content(spacy_nlp, "I bought a new bike for the trip to Oslo.") > base


def test_episodes_carry_their_scores(models_mem):
    mem = models_mem
    turns = [
        ("Ana", "Hi Bo!"),
        ("Bo", "Where do you live these days, Ana?"),
        ("Ana", "I live in Berlin and I work at Siemens."),
        ("Bo", "haha nice"),
        ("Ana", "I moved to Lisbon."),
        ("Ana", "I live in Lisbon."),
    ]
    res = [mem.add_episode(t, speaker=s) for s, t in turns]
    eps = [r.episode for r in res]
    for e in eps:
        assert e.importance is not None and 0.0 <= e.importance <= 1.0
        assert 0.0 <= e.content_score <= 1.0 and 0.0 <= e.structural_score <= 1.0
        assert mem.episode(e.id) == e  # stored as returned
    hi, asked, claims, bc, moved, restated = eps
    # two new claims (0.4 + 0.1), on single-valued attributes (0.2), answering Bo's question (0.15)
    assert claims.structural_score == pytest.approx(0.85)
    assert moved.structural_score >= 0.8 and res[4].superseded  # it closed Berlin
    assert bc.structural_score == 0.0 and bc.importance < 0.05
    assert 0 < restated.structural_score < moved.structural_score  # only restated a held fact
    assert min(claims.importance, moved.importance) > max(hi.importance, asked.importance, bc.importance)
    assert mem.check() == []


def test_answering_the_other_speakers_question_counts(models_mem):
    mem = models_mem
    mem.add_episode("What are you reading at the moment?", speaker="Bo")
    answer = mem.add_episode("A novel about a lighthouse keeper.", speaker="Ana").episode
    mem.add_episode("I'm reading a lot lately.", speaker="Bo")
    same = mem.add_episode("A novel about a lighthouse keeper.", speaker="Ana").episode
    assert answer.structural_score == pytest.approx(same.structural_score + 0.15)


def test_fact_importance_defaults_to_durability_times_confidence(mem):
    assert mem.add_fact("Ana", "lives_in", "Berlin").importance == 1.0          # single-valued
    assert mem.add_fact("Ana", "likes", "tea", confidence=0.5).importance == 0.3  # many: 0.6 x 0.5
    assert mem.add_fact("Ana", "likes", "jazz", importance=0.0).importance == 0.0  # given: kept
    assert mem.add_fact("Ana", "employer", "Acme", importance=3.5).importance == 3.5
    rows = mem.add_facts([{"subject": "Bo", "attribute": "employer", "value": "X", "confidence": 0.8}])
    assert rows[0].importance == 0.8


def test_a_users_scorer_sets_the_importance(models):
    seen = []

    def scorer(episode, signals):
        seen.append((episode.content, dict(signals)))
        return 10.0 if "Berlin" in episode.content else 0.25

    with Memory(clock=StepClock(), engine=ENGINE, embedder=models[0], nli=models[1], importance=scorer) as mem:
        a = mem.add_episode("I live in Berlin.", speaker="Ana").episode
        b = mem.add_episode("ok", speaker="Bo").episode
        assert (a.importance, b.importance) == (10.0, 0.25)
        assert a.structural_score > 0 and a.content_score > 0  # the no-LLM scores are kept beside it
        assert {"content", "structural", "structural.new_claims", "content.density"} <= set(seen[0][1])
        assert mem.check() == []

    def bad(episode, signals):
        return float("nan")

    with Memory(clock=StepClock(), engine=ENGINE, embedder=models[0], nli=models[1], importance=bad) as mem:
        with pytest.raises(InvalidInputError, match="^importance: the scorer returned nan"):
            mem.add_episode("I live in Rome.", speaker="Ana")
        assert mem.stats()["Episode"] == 0  # nothing half-stored
    with pytest.raises(InvalidInputError, match="^importance:"):
        Memory(engine=ENGINE, importance="high")


@pytest.mark.engine
def test_scores_survive_export_and_import(models, tmp_path):
    from midas_graph._io import export_rows, import_rows, read_jsonl, write_jsonl

    with Memory(clock=StepClock(), engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
        mem.add_episode("I live in Berlin.", speaker="Ana")
        mem.add_episode("cool", speaker="Bo")
        before = [e.to_dict() for e in mem.episodes(last_n=10)]
        buf = io.StringIO()
        write_jsonl(export_rows(mem), buf)
    text = buf.getvalue()
    assert '"importance": ' in text and '"cold_at": null' in text
    with Memory(str(tmp_path / "copy.db"), engine=ENGINE) as copy:
        import_rows(copy, read_jsonl(io.StringIO(text)))
        assert [e.to_dict() for e in copy.episodes(last_n=10)] == before
        assert copy.check() == []
        again = io.StringIO()
        write_jsonl(export_rows(copy), again)
    assert again.getvalue() == text


@pytest.mark.engine
def test_a_schema_5_database_upgrades_with_unscored_episodes(models, db_path):
    with Memory(db_path, clock=StepClock(), engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
        mem.add_episode("I live in Berlin.", speaker="Ana")
    as_schema(db_path, 5)
    with Memory(db_path, engine=ENGINE) as mem:
        assert mem._store.meta("schema_version") == str(SCHEMA_VERSION)
        [ep] = mem.episodes()
        assert (ep.importance, ep.content_score, ep.structural_score, ep.cold_at) == (None, None, None, None)
        assert mem.check() == []
