"""Extractive entity summaries (docs/forgetting.md, "Entity summaries"): built
from what the memory holds now, most important first, bounded, recomputed
after every write, never stored and never changing a belief."""

from __future__ import annotations

import datetime as dt

from conftest import d

from midas_graph._summaries import SUMMARY_CHARS, entity_summary
from midas_graph._types import Fact

UTC = dt.timezone.utc


def _fact(attribute, value, importance, minute=0):
    t = dt.datetime(2024, 1, 1, 0, minute, tzinfo=UTC)
    return Fact(id=f"{attribute}-{value}", group_id="g", subject="Ana", attribute=attribute, value=value,
                text="", valid_from=t, valid_to=None, recorded_at=t, expired_at=None, importance=importance)


def test_summary_orders_by_importance_joins_values_and_is_bounded():
    facts = [_fact("likes", "tea", 0.6, 1), _fact("lives_in", "Lisbon", 1.0), _fact("likes", "jazz", 0.6, 2),
             _fact("employer", "Siemens", 0.9)]
    # the most important attribute first; a multi-valued one's values together, the latest first
    assert entity_summary("Ana", facts) == "Ana: lives in Lisbon; employer Siemens; likes jazz, tea."
    assert entity_summary("Ana", []) == ""
    many = [_fact(f"hobby_{i}", "x" * 30, 0.5, i) for i in range(20)]
    s = entity_summary("Ana", many)
    assert len(s) <= SUMMARY_CHARS and s.endswith("; …") and s.startswith("Ana: hobby 19 ")
    one = entity_summary("Ana", [_fact("note", "y" * 400, 1.0)], limit=50)
    assert len(one) <= 50 and one.endswith("…")


def test_summaries_follow_the_beliefs_and_change_none(models_mem):
    mem = models_mem
    mem.add_episode("I live in Berlin and I work at Siemens.", speaker="Ana", reference_time=d("2024-01-10"))
    mem.add_episode("I like tea.", speaker="Ana", reference_time=d("2024-01-11"))
    assert mem.entity("ana").summary == "Ana: employer Siemens; lives in Berlin; likes tea."
    mem.add_episode("We moved to Lisbon last week!", speaker="Ana", reference_time=d("2024-03-08"))
    grid = [None, "2024-01-10", "2024-03-09"]
    before = ([f.to_dict() for f in mem.history("Ana")],
              [[f.vid for f in mem.as_of("Ana", valid_at=t, known_at=k)] for t in grid for k in grid])
    gen = mem._store.generation
    # recomputed after the write: the superseded value is gone, the latest learned leads its equals
    now = "Ana: lives in Lisbon; employer Siemens; likes tea."
    assert mem.entity("Ana").summary == now
    assert {e.name: e.summary for e in mem.entities()}["Ana"] == now
    found = dict((e.name, e.summary) for e, _ in mem.search_entities("Ana"))
    assert found["Ana"] == now
    assert mem.entity("Lisbon").summary == ""  # the subject of no belief
    # reading summaries writes nothing and changes no answer
    assert mem._store.generation == gen and mem._store.entity(mem.entity("Ana").id).summary == ""
    assert ([f.to_dict() for f in mem.history("Ana")],
            [[f.vid for f in mem.as_of("Ana", valid_at=t, known_at=k)] for t in grid for k in grid]) == before
    assert mem.check() == []
    # a summary the caller gave wins, and is stored as given
    mem.add_entity("Zed", summary="Our landlord.")
    assert mem.entity("Zed").summary == "Our landlord."
    assert mem.entity("Nobody") is None
