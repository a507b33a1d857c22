"""The retention harness's core (eval/retention.py) on a tiny synthetic
history, and the graph importance it measures (midas_graph/_centrality.py):
forgetting under every policy leaves as_of/history unchanged and the floor
hot, the budget is met, the trace names only gold turns that went cold, and
the belief hash does change when a belief does (so the check can fail)."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import networkx as nx
import pytest
from conftest import ENGINE

from midas_graph import InvalidInputError
from midas_graph._centrality import entity_pagerank

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "eval"))
import retention  # noqa: E402


def test_entity_pagerank_lifts_held_subjects_and_joins_co_mentions():
    """Held facts lift their subject; co-mentions join entities; an entity
    with no edge still gets a rank (networkx's PageRank, personalised)."""
    rank = entity_pagerank([("a", "A", "PERSON"), ("b", "B", "GPE"), ("c", "C", "ORG"), ("d", "D", "PERSON")],
                           [("a", ""), ("a", ""), ("a", "b")], [("e1", "b"), ("e1", "c")])
    assert rank["a"] > rank["c"] and rank["b"] > rank["c"] and 0 < rank["d"] < min(rank["a"], rank["c"])
    assert abs(sum(rank.values()) - 1) < 1e-9
    assert entity_pagerank([], [], []) == {}


@pytest.mark.engine
def test_harness_core_keeps_beliefs_and_the_floor(models, tmp_path):
    episodes, questions = retention.synthetic_history(3, days=12, turns=48, golds=5)
    group = "tiny"
    mem, ids, hash_grid = retention.ingest(episodes, group, engine=ENGINE, embedder=models[0], nli=models[1],
                                           dbdir=str(tmp_path))
    with mem:
        protected = mem._store.protected_episodes(group)
        assert protected, "the revisions' updates are sources of facts"
        out = retention.run_history(mem, group, episodes, questions, ["value", "graph", "fifo", "random"], ids=ids,
                                    hash_grid=hash_grid, engine=ENGINE, dbdir=str(tmp_path), trace=True)
        assert out["hash_ok"]
        # vacuum (Memory._vacuum) after the value policy's last level: a smaller file, the same beliefs
        vac = out["bytes"]["vacuum"]
        assert vac["hash_ok"] and vac["level"] == 0.25 and 0 < vac["file_after"] < vac["file_before"]
        assert out["consolidate"]["would_go_cold"] >= 0 and 0.0 <= out["consolidate"]["yield"] < 1.0
        gold = {e for q in questions for e in q["evidence"]}
        for level in ("0.5", "0.25"):
            block = out["levels"][level]
            assert set(block) == {"value", "graph", "fifo", *(f"random{s}" for s in retention.RANDOM_SEEDS)}
            for label, res in block.items():
                assert res["hash_ok"], (label, level)
                assert res["hot"] == max(math.ceil(float(level) * len(ids)), res["floor"]), (label, level)
                assert 0.0 <= res["recall@10"] <= 1.0
        # after the last step (random4 at 25%) every protected episode is still hot
        eps = mem._store.episodes_by_id(list(protected), group)
        assert eps and all(e.cold_at is None for e in eps)
        # the trace names gold turns that are cold, each with why
        assert out["trace"], "at keep-25% some gold turn went cold under some policy"
        for row in out["trace"]:
            assert row["turn"] in gold and row["why"]
            if row["why"].startswith("rank"):
                assert row["value"] is not None
        # the hash sees a changed belief: the check can fail
        fact = mem.current("Maya", group_id=group)[0]
        before = retention.belief_hash(mem, group, *hash_grid)
        mem.retract(fact.id)
        assert retention.belief_hash(mem, group, *hash_grid) != before


def test_graph_and_custom_policies(models_mem):
    mem = models_mem
    turns = ["I live in Berlin with Ana.", "haha ok", "Ana and Bo went to Siemens in Berlin.", "nice",
             "The weather is nice today.", "Bo likes Munich."]
    ids = [mem.add_episode(t, speaker="Cy", reference_time=f"2024-01-0{i + 1}").episode.id
           for i, t in enumerate(turns)]
    scores = mem._graph_scores.get(mem._store, "default")
    assert scores and max(scores.values()) == 1.0 and all(0.0 <= v <= 1.0 for v in scores.values())
    assert mem._graph_scores.get(mem._store, "default") is scores  # cached while nothing was written
    report = mem.forget(keep_fraction=0.5, policy="graph", dry_run=True)
    assert report.policy == "graph" and report.cold
    # a callable policy: the lowest goes cold first
    order = {i: n for n, i in enumerate(ids)}

    def newest_first(ep):
        return -order[ep.id]

    report = mem.forget(max_episodes=4, policy=newest_first)
    assert report.policy == "custom newest_first"
    cold = [i for i, _ in report.cold]
    unprotected = [i for i in ids if i not in mem._store.protected_episodes("default")]
    assert len(cold) == 2 and cold == sorted(unprotected, key=order.__getitem__, reverse=True)[:2]
    assert mem.episode(cold[0]).cold_reason == "forget: policy custom newest_first"
    assert mem._graph_scores.get(mem._store, "default") is not scores  # the write moved the generation
    with pytest.raises(InvalidInputError, match="^policy"):
        mem.forget(keep_fraction=0.5, policy=lambda ep: float("nan"))
    with pytest.raises(InvalidInputError, match="^policy"):
        mem.forget(keep_fraction=0.5, policy="pagerank")
