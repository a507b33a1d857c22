"""The personal-assistant evaluation set (eval/data/assistant_sessions.jsonl) is
well-formed, and the scorer's matching and "stale shown as current" rules do
what docs/assistant_eval.md says. Not a test of the scores: no model runs here."""

from __future__ import annotations

import datetime as dt
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "eval"))
import assistant_eval as ae  # noqa: E402

from midas_graph import Context, ContextItem, Episode, Fact  # noqa: E402

PERSONAS = ae.load()
QUESTIONS = [(p, q) for p in PERSONAS for q in p["questions"]]
#: The split was fixed before any rule was written against the held-out personas; it must not
#: move. p5-p8 were the held-out half of rounds 1-2 (their last blind figures are in
#: docs/assistant_eval.md) and became development data when p9-p16, written by other hands
#: for round 3, took their place. p17-p20 (round 4) were written as development data by hands
#: that never saw the rules; their first run, before any rule was written from them, is
#: eval/results/assistant_eval_p17_p20_first.json. p21-p24 (2026-12-06) are a second held-out
#: set ("heldout2"), written by hands that never saw the engine; their first run is
#: eval/results/assistant_eval_heldout2_first.json, and they stay blind like p9-p16. p25-p28
#: (2026-12-06, session 12) are development data written by two hands that never saw the engine
#: or the other personas; their first run, before any rule was written from them, is
#: eval/results/assistant_eval_p25_p28_first.json.
SPLIT = {"p1-mateo": "dev", "p2-ngozi": "dev", "p3-hiroshi": "dev", "p4-ingrid": "dev",
         "p5-aarav": "dev", "p6-zahra": "dev", "p7-liam": "dev", "p8-ling": "dev",
         "p9-travis": "heldout", "p10-beatriz": "heldout", "p11-bridget": "heldout",
         "p12-constance": "heldout", "p13-jaylen": "heldout", "p14-harold": "heldout",
         "p15-katherine": "heldout", "p16-bronwyn": "heldout",
         "p17-rosa": "dev", "p18-dale": "dev", "p19-jonas": "dev", "p20-marcus": "dev",
         "p21-kofi": "heldout2", "p22-hattie": "heldout2", "p23-dorothy": "heldout2", "p24-rafaela": "heldout2",
         "p25-malgorzata": "dev", "p26-renee": "dev", "p27-dennis": "dev", "p28-kasia": "dev"}
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
UTC = dt.timezone.utc


def t(s: str) -> dt.datetime:
    return ae.parse_time(s)


# -- the data ---------------------------------------------------------------------------------------
def test_split_is_fixed_and_disjoint():
    assert {p["id"]: p["split"] for p in PERSONAS} == SPLIT
    ids = [p["id"] for p in PERSONAS]
    assert len(ids) == len(set(ids))
    by_split = Counter(p["split"] for p in PERSONAS)
    assert by_split == {"dev": 16, "heldout": 8, "heldout2": 4}


@pytest.mark.parametrize("p", PERSONAS, ids=lambda p: p["id"])
def test_persona_messages(p):
    assert set(p) >= {"id", "split", "user", "speaker", "messages", "questions"}
    msgs = p["messages"]
    assert len(msgs) >= 45
    assert {m["speaker"] for m in msgs} == {p["speaker"], "assistant"}
    assert len({m["id"] for m in msgs}) == len(msgs)
    times = [m["time"] for m in msgs]
    assert all(ISO.match(x) for x in times)
    assert times == sorted(times) and len(set(times)) == len(times), "messages are in order, one per instant"
    months = (t(times[-1]) - t(times[0])).days / 30.44
    assert 6 <= months <= 14
    assert all(m["text"].strip() for m in msgs)


@pytest.mark.parametrize("p", PERSONAS, ids=lambda p: p["id"])
def test_persona_questions(p):
    qs = p["questions"]
    assert len(qs) >= 25
    kinds = Counter(q["kind"] for q in qs)
    assert set(kinds) == set(ae.KINDS)
    assert all(kinds[k] >= 5 for k in ae.KINDS), kinds
    assert len({q["id"] for q in qs}) == len(qs)
    for q in qs:
        assert set(q) >= {"id", "asked_at", "question", "kind", "gold", "stale", "speaker", "note"}
        assert q["speaker"] == p["speaker"]
        assert ISO.match(q["asked_at"])
        assert isinstance(q["gold"], list) and isinstance(q["stale"], list)
        assert q["note"].strip()


@pytest.mark.parametrize("pq", QUESTIONS, ids=lambda pq: pq[1]["id"])
def test_question_is_grounded_in_its_past(pq):
    p, q = pq
    at = t(q["asked_at"])
    said = [m for m in p["messages"] if t(m["time"]) <= at]
    ids = {m["id"]: m for m in p["messages"]}
    if q["kind"] == "abstain":
        assert q["gold"] == []
    else:
        assert q["gold"], "an answerable question has gold strings"
        assert any(ae.mentions(m["text"], g) for g in q["gold"] for m in said), \
            "some gold string is said by the time the question is asked"
        assert not any(ae.mentions(q["question"], g) for g in q["gold"]), "the question does not give its answer"
        assert q["evidence"], "an answerable question names the message it depends on"
    for e in q.get("evidence", []):
        assert e in ids
        assert t(ids[e]["time"]) <= at, "asked after the last message it depends on"
    assert not set(map(ae.fold, q["gold"])) & set(map(ae.fold, q["stale"]))


def test_names_used_elsewhere_in_the_project_are_avoided():
    text = " ".join(m["text"] + " " for p in PERSONAS for m in p["messages"])
    for name in ("Alice", "Sam", "Dana", "Caroline", "Melanie"):
        assert not ae.mentions(text, name), name


# -- the scorer's rules -------------------------------------------------------------------------------
def test_mentions_is_word_bounded_and_folds_case_accents_quotes():
    assert ae.mentions("Moved to San Antonio!", "san antonio")
    assert ae.mentions("lucía’s cat", "Lucia's cat")
    assert not ae.mentions("a pharmacy resident", "pharmacist")
    assert not ae.mentions("Sfax", "SF")
    assert ae.mentions("valid 2024-12-14→now", "2024-12-14")
    assert ae.without_question("Memory for: Where do I live?\n- Tucson", "where do I live?").strip().endswith("tucson")


T0 = dt.datetime(2024, 1, 1, tzinfo=UTC)
AT = dt.datetime(2024, 6, 1, tzinfo=UTC)


def fact(value, *, valid_to=None, expired_at=None):
    return Fact(id="f", group_id="default", subject="user", attribute="lives_in", value=value,
                text=f"I live in {value}.", valid_from=T0, valid_to=valid_to, recorded_at=T0, expired_at=expired_at)


def episode(content):
    return Episode(id="e", group_id="default", content=content, speaker="user", source="message",
                   reference_time=T0, recorded_at=T0)


def item(obj, *, superseded=False, line=None):
    if isinstance(obj, Fact):
        return ContextItem("fact", line or f"- [fact] user · lives in: {obj.value}", 1.0, "e", "m1", T0,
                           fact=obj, superseded=superseded)
    return ContextItem("episode", line or f'- [said by user] "{obj.content}"', 1.0, obj.id, "m1", T0,
                       episode=obj, superseded=superseded)


def ctx(*items, abstain=False):
    return Context(query="where do I live?", text="\n".join(i.text for i in items), items=list(items),
                   tokens=10, abstain=abstain, reason="")


def test_stale_fact_presented_as_current():
    gold, stale = ["Tucson"], ["Madison"]
    assert ae.stale_items(ctx(item(fact("Madison")), item(fact("Tucson"))), gold, stale, AT)
    # marked superseded, closed before the question, or expired: not presented as current
    assert not ae.stale_items(ctx(item(fact("Madison"), superseded=True), item(fact("Tucson"))), gold, stale, AT)
    assert not ae.stale_items(ctx(item(fact("Madison", valid_to=T0 + dt.timedelta(days=9)))), gold, stale, AT)
    assert not ae.stale_items(ctx(item(fact("Madison", expired_at=T0 + dt.timedelta(days=9)))), gold, stale, AT)
    # an abstaining context presents nothing
    assert not ae.stale_items(ctx(item(fact("Madison")), abstain=True), gold, stale, AT)


def test_stale_episode_counts_only_as_the_only_value_given():
    gold, stale = ["Tucson"], ["Madison"]
    old = item(episode("We have lived in Madison since 1986."))
    new = item(episode("We have been in Tucson since New Year's."))
    assert ae.stale_items(ctx(old), gold, stale, AT)
    assert not ae.stale_items(ctx(old, new), gold, stale, AT)
    marked = item(episode("We have lived in Madison since 1986."),
                  line='- [said by user] "We have lived in Madison since 1986." (no longer holds: lives in Madison)')
    assert not ae.stale_items(ctx(marked), gold, stale, AT)
    # the stricter diagnostic counts the old turn beside the new one
    assert ae.unmarked_stale_items(ctx(old, new), stale, AT)
