"""The LoCoMo evaluation's baselines and scoring helpers (eval/baselines.py,
eval/locomo_eval.py) on a tiny hand-made corpus."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "eval"))
import baselines  # noqa: E402
import locomo_eval  # noqa: E402

UTC = dt.timezone.utc
T0 = dt.datetime(2023, 5, 8, 13, 56, tzinfo=UTC)

TURNS = [
    {"name": "D1:1", "speaker": "Caroline", "content": "I went to an LGBTQ support group yesterday.", "reference_time": T0},
    {"name": "D1:2", "speaker": "Melanie", "content": "That sounds lovely! I painted a sunrise last week.",
     "reference_time": T0 + dt.timedelta(seconds=1)},
    {"name": "D1:3", "speaker": "Caroline", "content": "I'm thinking about studying psychology and counseling.",
     "reference_time": T0 + dt.timedelta(seconds=2)},
    {"name": "D2:1", "speaker": "Melanie", "content": "We camped at the beach with the kids. The kids loved it.",
     "reference_time": T0 + dt.timedelta(days=30)},
    {"name": "D2:2", "speaker": "Caroline", "content": "My dog is called Rex and he loves long walks.",
     "reference_time": T0 + dt.timedelta(days=30, seconds=1)},
]


class BagOfWords:
    """A deterministic stand-in embedder: normalised counts over a fixed vocabulary."""

    VOCAB = ["support", "group", "sunrise", "painted", "paint", "psychology", "camped", "beach", "kids", "dog", "rex"]

    def embed(self, texts):
        rows = []
        for t in texts:
            words = [w.strip(".,!?'").lower() for w in t.split()]
            v = np.array([words.count(w) for w in self.VOCAB], dtype=np.float32) + 1e-3
            rows.append(v / np.linalg.norm(v))
        return np.stack(rows)


# -- BM25 ------------------------------------------------------------------------------------
def test_bm25_ranks_the_turn_sharing_rare_terms_first():
    bm = baselines.BM25Turns(TURNS)
    top = bm.search("When did Caroline go to the LGBTQ support group?", 3)
    assert top[0][0] == "D1:1"
    assert [s for _, s in top] == sorted((s for _, s in top), reverse=True)


def test_bm25_returns_only_matching_turns_and_handles_unknown_words():
    bm = baselines.BM25Turns(TURNS)
    assert bm.search("xylophone quantum", 5) == []
    assert bm.search("the and of", 5) == []          # stop words only
    hits = bm.search("sunrise", 5)
    assert [n for n, _ in hits] == ["D1:2"]


def test_bm25_term_frequency_and_k():
    bm = baselines.BM25Turns(TURNS)
    assert [n for n, _ in bm.search("kids beach", 1)] == ["D2:1"]
    assert len(bm.search("Caroline Melanie", 2)) == 2


def test_bm25_indexes_the_speaker_name():
    bm = baselines.BM25Turns(TURNS)
    names = {n for n, _ in bm.search("Melanie", 10)}
    assert names == {"D1:2", "D2:1"}


# -- vector ------------------------------------------------------------------------------------
def test_vector_exact_cosine_with_a_given_embedder():
    vec = baselines.VectorTurns(TURNS, BagOfWords())
    assert vec.search("what is the dog's name? rex", 1)[0][0] == "D2:2"
    assert vec.search("beach kids", 2)[0][0] == "D2:1"
    s = vec.scores("psychology")
    assert s.shape == (len(TURNS),)
    assert int(np.argmax(s)) == 2
    assert np.all(s <= 1.0 + 1e-5)


def test_vector_ties_break_by_turn_order():
    dupes = [{**TURNS[4], "name": f"X{i}"} for i in range(4)]
    vec = baselines.VectorTurns(dupes, BagOfWords())
    assert [n for n, _ in vec.search("rex", 4)] == ["X0", "X1", "X2", "X3"]
    bm = baselines.BM25Turns(dupes)
    assert [n for n, _ in bm.search("rex", 4)] == ["X0", "X1", "X2", "X3"]


def test_vector_with_the_bundled_embedder_finds_a_paraphrase(embedder):
    vec = baselines.VectorTurns(TURNS, embedder)
    assert vec.search("Which career is Caroline considering?", 1)[0][0] == "D1:3"
    assert vec.search("What is the name of Caroline's pet?", 1)[0][0] == "D2:2"


# -- recency window ------------------------------------------------------------------------
def words(text: str) -> int:
    return len(text.split())


def test_recency_window_keeps_the_latest_turns_that_fit():
    lines = [baselines.render_turn(t) for t in TURNS]
    budget = words(lines[-1]) + words(lines[-2])       # exactly the last two turns
    names, text = baselines.recency_window(TURNS, budget, count=words)
    assert names == ["D2:1", "D2:2"]
    assert words(text) <= budget
    names, _ = baselines.recency_window(TURNS, budget - 1, count=words)
    assert names == ["D2:2"]


def test_recency_window_orders_by_time_not_by_input_order():
    shuffled = [TURNS[3], TURNS[0], TURNS[4], TURNS[1], TURNS[2]]
    names, _ = baselines.recency_window(shuffled, 10_000, count=words)
    assert names == [t["name"] for t in TURNS]
    assert baselines.recency_window(shuffled, 1, count=words) == ([], "")


def test_recency_window_with_the_real_token_count():
    from midas_graph.models import count_tokens

    names, text = baselines.recency_window(TURNS, 40, count=count_tokens)
    assert names and names[-1] == "D2:2" and "D1:1" not in names
    assert count_tokens(text) <= 40


# -- scoring ---------------------------------------------------------------------------------
def test_evidence_recall_fraction_and_any():
    assert baselines.evidence_recall(["D1:1", "D2:2"], ["D1:1", "D1:3"]) == (0.5, 1.0)
    assert baselines.evidence_recall([], ["D1:1"]) == (0.0, 0.0)
    assert locomo_eval.recall_at(["D9:9", None, "D1:1"], ["D1:1"], 2) == (0.0, 0.0)
    assert locomo_eval.recall_at(["D9:9", None, "D1:1"], ["D1:1"], 3) == (1.0, 1.0)
    with pytest.raises(ValueError):
        baselines.evidence_recall(["D1:1"], [])


def test_norm_evidence_repairs_locomo_ids():
    assert locomo_eval.norm_evidence(["D8:6; D9:17", "D", "D:11:26", "D30:05", "D1:3", "D1:3"]) == [
        "D8:6", "D9:17", "D11:26", "D30:5", "D1:3"]


def test_score_rows_micro_averages_and_counts_budget_violations():
    rows = [
        {"category": 4, "evidence": ["D1:1"], "ranked": {"memory": ["D1:1"], "bm25": ["D2:2"]},
         "context": ["D1:1"], "abstain": False, "tokens": 100, "tokens_reported": 100, "over_budget": False},
        {"category": 4, "evidence": ["D1:2", "D1:3"], "ranked": {"memory": ["D1:3"], "bm25": ["D1:2", "D1:3"]},
         "context": [], "abstain": True, "tokens": 600, "tokens_reported": 500, "over_budget": True},
    ]
    s = locomo_eval.score_rows(rows)
    assert s["memory"]["recall@5"] == 0.75 and s["memory"]["any@5"] == 1.0
    assert s["bm25"]["recall@5"] == 0.5
    assert s["context"] == {"recall": 0.5, "any": 0.5}
    assert s["abstain_rate"] == 0.5 and s["over_budget"] == 1 and s["tokens_mismatch"] == 1


# -- revision cases as questions -------------------------------------------------------------
def test_questions_from_subject_and_attribute():
    q = locomo_eval.question_for
    assert q("Dana", "lives_in") == "Where does Dana live?"
    assert q("Priya", "employer") == "Where does Priya work?"
    assert q("Marcus", "favorite_color") == "What is Marcus's favorite color?"
    assert q("user", "job_title") == "What is my job?"
    assert q("Omar", "response_time") == "What is Omar's response time?"


@pytest.mark.parametrize("text,value,expected", [
    ("Our budget is $10,000.", "10000 USD", True),
    ("The budget was cut to $8,000.", "10000 USD", False),
    ("Response time is 300ms.", "300 ms", True),
    ("I have two kids.", 2, True),
    ("The Apollo budget is $2 million.", "2000000 USD", True),
    ("The deadline is March 15.", "2024-03-15", True),
    ("The deadline got pushed to April 2.", "2024-03-15", False),
    ("My birthday is June 5.", "--06-05", True),
    ("I live in Berlinville.", "Berlin", False),
    ("[2024-01-10 10:00] I'm 34.", 10, False),
])
def test_mentions_value(text, value, expected):
    assert locomo_eval.mentions_value(text, value) is expected


class _Item:
    def __init__(self, text, fact=None, episode=None):
        self.text, self.fact, self.episode = text, fact, episode


class _Fact:
    def __init__(self, value, text):
        self.value, self.text = value, text


class _Ep:
    def __init__(self, content):
        self.content = content


class _Ctx:
    def __init__(self, items, abstain=False):
        self.items, self.abstain, self.reason, self.tokens = items, abstain, "", 0


CASE = {"id": "x", "category": "real_update", "stale": "Berlin", "current": ["Lisbon"],
        "turns": [{"content": "I live in Berlin."}, {"content": "We moved to Lisbon, not Berlin!"}]}


def test_revision_check_current_value_alone_passes():
    ctx = _Ctx([_Item("Dana lives in Lisbon", _Fact("Lisbon", "Dana lives in Lisbon."))])
    r = locomo_eval.revision_check(CASE, ctx)
    assert r["ok"] and r["holds_current"] and not r["stale_as_current"]


def test_revision_check_flags_an_unmarked_stale_fact_or_quote():
    fact = _Item("Dana lives in Berlin", _Fact("Berlin", "Dana lives in Berlin."))
    quote = _Item("[2024-01-10] Dana: I live in Berlin.", episode=_Ep("I live in Berlin."))
    cur = _Item("Dana lives in Lisbon", _Fact("Lisbon", "Dana lives in Lisbon."))
    r = locomo_eval.revision_check(CASE, _Ctx([cur, fact]))
    assert not r["ok"] and r["stale_fact_as_current"] and not r["ok_facts_only"]
    r = locomo_eval.revision_check(CASE, _Ctx([cur, quote]))
    assert not r["ok"] and r["ok_facts_only"]


def test_revision_check_accepts_marked_past_lines_and_the_update_itself():
    marked = _Item("Dana lives in Berlin (superseded 2024-03-01)", _Fact("Berlin", "Dana lives in Berlin."))
    update = _Item("[2024-03-08] Dana: We moved to Lisbon, not Berlin!", episode=_Ep("We moved to Lisbon, not Berlin!"))
    r = locomo_eval.revision_check(CASE, _Ctx([update, marked]))
    assert r["ok"], r


def test_revision_check_missing_current_fails():
    r = locomo_eval.revision_check(CASE, _Ctx([], abstain=True))
    assert not r["ok"] and r["missing_current"] == ["Lisbon"]


def test_threshold_split_report_chooses_on_one_half_and_scores_the_other():
    """eval/locomo_threshold_split.py: a threshold chosen on one half is the
    one with the most category-5 abstention under the false-abstain limit
    there, and it is scored on the other half."""
    import locomo_threshold_split as split

    ids = ["a", "b"]

    def conv(c, c5_abstained, false_abstained):  # 10 category-5 and 10 answerable questions
        return ([(c, 5, i < c5_abstained) for i in range(10)]
                + [(c, 1, i < false_abstained) for i in range(10)])

    rows = {0.7: conv("a", 6, 0) + conv("b", 5, 1),
            0.8: conv("a", 8, 1) + conv("b", 9, 2),   # b: 0.2 false abstain, over the limit
            0.9: conv("a", 9, 2) + conv("b", 9, 3)}   # a: over the limit too
    out = split.report(rows, ids, shipped=0.8)
    assert out["by_threshold"]["0.8"] == {"abstain_cat5": 0.85, "false_abstain": 0.15,
                                          "per_conversation": {"a": [0.8, 0.1], "b": [0.9, 0.2]}}
    # chosen on a: 0.8 (0.9 exceeds the limit), scored on b: 0.9 / 0.2;
    # chosen on b: 0.7 (0.8 and 0.9 exceed it), scored on a: 0.6 / 0.0
    held = out["chosen_on_one_half_scored_on_the_other"]
    assert held["pairs"] == 2 and held["threshold"] == {"median": 0.75, "min": 0.7, "max": 0.8}
    assert held["abstain_cat5"] == {"median": 0.75, "min": 0.6, "max": 0.9}
    assert held["false_above_limit"] == 1 and held["abstain_below_target"] == 1
    assert out["leave_one_out"]["thresholds"] == {"a": 0.7, "b": 0.8}
    assert out["shipped_over_halves"]["false_above_limit"] == 1
