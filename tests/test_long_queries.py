"""Bounded work per request: a query longer than MAX_QUERY_CHARS is ranked
by its start, and the result says so. (How long it takes is measured by
eval/bench_long_query.py, not here.)"""

from __future__ import annotations

import pytest

from midas_graph._memory import MAX_QUERY_CHARS, _bounded_query

pytestmark = pytest.mark.engine


def test_the_cut():
    assert MAX_QUERY_CHARS == 2000
    exact = "a" * MAX_QUERY_CHARS
    assert _bounded_query(exact) == (exact, False)
    words = ("word " * 1000).strip()  # 4,999 characters
    cut, was = _bounded_query(words)
    assert was and cut == ("word " * 400).strip() and len(cut) == 1999  # at a word boundary
    solid = "x" * 5000
    assert _bounded_query(solid) == ("x" * MAX_QUERY_CHARS, True)  # no boundary near: a hard cut
    padded = " " * 3000 + "Where does Mia live?"
    assert _bounded_query(padded) == ("Where does Mia live?", False)  # long by its whitespace only
    assert _bounded_query("\n" * 10 + "y" * 2500)[0] == "y" * MAX_QUERY_CHARS


def test_recall_and_context_rank_the_start_of_a_long_query(models_mem):
    mem = models_mem
    mem.add_fact("Mia Rossi", "lives_in", "Lisbon", text="Mia Rossi moved to Lisbon.")
    mem.add_fact("Mia Rossi", "likes", "pottery", text="Mia Rossi loves pottery.")
    question = "Where does Mia Rossi live? "
    long = question + "lorem ipsum dolor " * 60_000  # about 1 MB
    hits = mem.recall(long, k=3)
    assert hits and all(h.query_truncated for h in hits)
    assert hits[0].fact is not None and hits[0].fact.value == "Lisbon"
    assert not any(h.query_truncated for h in mem.recall(question, k=3))

    ctx = mem.context(long)
    assert ctx.query_truncated and len(ctx.query) <= MAX_QUERY_CHARS and long.startswith(ctx.query)
    assert "cut to its first" in ctx.reason
    assert not ctx.abstain and "Lisbon" in ctx.text
    assert ctx.tokens <= ctx.budget_tokens
    short = mem.context(question)
    assert not short.query_truncated and "cut" not in short.reason

    # an unanswerable long question still abstains, and says it was cut
    other = mem.context("What is Mia Rossi's favorite color? " + "x " * 5000)
    assert other.abstain and other.query_truncated and "cut to its first" in other.reason

    # entity search ranks the start too
    assert mem.search_entities("Mia Rossi " + "z" * 1_000_000, k=1)[0][0].name == "Mia Rossi"
