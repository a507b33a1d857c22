"""The two time axes: supersession, late arrival, retraction, time travel."""

from __future__ import annotations

import pytest
from conftest import ENGINE, StepClock, as_schema, d

from midas_graph import Memory
from midas_graph._store import SCHEMA_VERSION

pytestmark = pytest.mark.engine


def values(facts):
    return [f.value for f in facts]


def test_single_valued_supersession_closes_and_links(mem):
    berlin = mem.add_fact("Alice", "lives_in", "Berlin", valid_from="2020-01-01")
    lisbon = mem.add_fact("Alice", "lives_in", "Lisbon", valid_from="2023-06-01")
    assert values(mem.current("Alice")) == ["Lisbon"]
    assert lisbon.supersedes == (berlin.id,)
    closed = [f for f in mem.history("Alice") if f.id == berlin.id and f.expired_at is None]
    assert len(closed) == 1
    assert closed[0].valid_to == d("2023-06-01")
    assert closed[0].superseded_by == lisbon.id
    assert closed[0].status == "superseded"
    assert "single_valued" in closed[0].reason
    # valid time: before the move Berlin held, after it Lisbon
    assert values(mem.as_of("Alice", valid_at="2022-12-31")) == ["Berlin"]
    assert values(mem.as_of("Alice", valid_at="2023-06-01")) == ["Lisbon"]
    # nothing is deleted: version 1 of Berlin is still stored, expired
    assert [f.version for f in mem.versions(berlin.id)] == [1, 2]


def test_attribute_spellings_land_on_one_key(mem):
    mem.add_fact("Bob", "Lives In", "Paris", valid_from="2020-01-01")
    mem.add_fact("bob", "resides-in", "Rome", valid_from="2021-01-01")
    assert values(mem.current("Bob")) == ["Rome"]
    assert {f.attribute for f in mem.history("Bob")} == {"lives_in"}
    mem.add_fact("Bob", "favourite food", "ramen", valid_from="2020-01-01")
    mem.add_fact("Bob", "favorite_food", "tacos", valid_from="2021-01-01")
    assert values(mem.current("Bob", "favorite food")) == ["tacos"]


def test_multi_valued_attributes_coexist(mem):
    mem.add_fact("Alice", "speaks", "French", valid_from="2020-01-01")
    mem.add_fact("Alice", "speaks", "Spanish", valid_from="2022-01-01")
    assert sorted(values(mem.current("Alice", "speaks"))) == ["French", "Spanish"]
    assert values(mem.as_of("Alice", "speaks", valid_at="2021-01-01")) == ["French"]


def test_restating_a_held_value_records_nothing(mem):
    a = mem.add_fact("Alice", "lives_in", "Berlin", valid_from="2020-01-01")
    b = mem.add_fact("alice", "lives_in", "  berlin ", valid_from="2021-01-01")
    assert b.id == a.id
    assert len(mem.history("Alice")) == 1


def test_late_arrival_is_closed_at_the_later_start(mem):
    lisbon = mem.add_fact("Alice", "lives_in", "Lisbon", valid_from="2023-06-01")
    porto = mem.add_fact("Alice", "lives_in", "Porto", valid_from="2021-01-01")
    assert porto.valid_to == d("2023-06-01")
    assert porto.superseded_by == lisbon.id
    assert "late arrival" in porto.reason
    assert values(mem.current("Alice")) == ["Lisbon"]
    assert values(mem.as_of("Alice", valid_at="2022-01-01")) == ["Porto"]
    assert mem.as_of("Alice", valid_at="2020-01-01") == []


def test_explicit_valid_to_is_respected(mem):
    f = mem.add_fact("Project", "status", "frozen", valid_from="2024-01-01", valid_to="2024-02-01")
    assert f.valid_to == d("2024-02-01") and f.status == "ended"
    assert values(mem.as_of("project", valid_at="2024-01-15")) == ["frozen"]
    assert mem.as_of("project", valid_at="2024-02-01") == []


def test_retraction_expires_and_reopens_what_it_superseded(clock):
    with Memory(clock=clock, engine=ENGINE) as mem:
        porto = mem.add_fact("Alice", "lives_in", "Porto", valid_from="2024-01-01")
        lisbon = mem.add_fact("Alice", "lives_in", "Lisbon", valid_from="2024-03-01")
        before = mem.now()
        gone = mem.retract(lisbon.id, reason="I meant Porto")
        assert gone.expired_at is not None and gone.status == "retracted"
        assert values(mem.current("Alice")) == ["Porto"]
        reopened = mem.current("Alice")[0]
        assert reopened.id == porto.id and reopened.valid_to is None and reopened.version == 3
        assert lisbon.id in reopened.reason
        # what the memory believed before the retraction is unchanged
        assert values(mem.as_of("Alice", known_at=before)) == ["Lisbon"]
        assert values(mem.as_of("Alice", valid_at="2024-02-01", known_at=before)) == ["Porto"]
        # a retracted fact is true at no valid time from then on
        assert all(f.id != lisbon.id for t in ("2024-02-01", "2024-04-01", "2030-01-01")
                   for f in mem.as_of("Alice", valid_at=t))
        statuses = {(f.id, f.version): f.status for f in mem.history("Alice")}
        assert statuses[(lisbon.id, 1)] == "retracted"


def test_retracting_the_middle_of_a_chain_reconnects_it(mem):
    a = mem.add_fact("Alice", "employer", "Acme", valid_from="2020-01-01")
    b = mem.add_fact("Alice", "employer", "Beta", valid_from="2021-01-01")
    c = mem.add_fact("Alice", "employer", "Gamma", valid_from="2022-01-01")
    mem.retract(b.id)
    now = {f.id: f for f in mem.as_of("Alice", valid_at="2021-06-01")}
    assert list(now) == [a.id]
    assert now[a.id].valid_to == d("2022-01-01") and now[a.id].superseded_by == c.id
    assert values(mem.current("Alice")) == ["Gamma"]


def test_retract_errors(mem):
    f = mem.add_fact("Alice", "age", 30)
    mem.retract(f.id)
    with pytest.raises(ValueError, match="already retracted"):
        mem.retract(f.id)
    with pytest.raises(KeyError, match="no fact"):
        mem.retract("no-such-id")


def test_known_at_time_travel(clock):
    clock.set("2025-01-01T00:00:00+00:00")
    with Memory(clock=clock, engine=ENGINE) as mem:
        mem.add_fact("Apollo", "deadline", "2025-03-01", valid_from="2025-01-01")
        clock.set("2025-02-01T00:00:00+00:00")
        mem.add_fact("Apollo", "deadline", "2025-04-15", valid_from="2025-02-01")
        # asked on Jan 15 about Feb 10: the memory then believed March 1st
        assert values(mem.as_of("Apollo", valid_at="2025-02-10", known_at="2025-01-15")) == ["2025-03-01"]
        assert values(mem.as_of("Apollo", valid_at="2025-02-10")) == ["2025-04-15"]
        assert mem.as_of("Apollo", known_at="2024-12-31") == []


def test_group_isolation(mem):
    mem.add_fact("Alice", "lives_in", "Berlin", group_id="tenant-a")
    mem.add_fact("Alice", "lives_in", "Tokyo", group_id="tenant-b")
    assert values(mem.current("Alice", group_id="tenant-a")) == ["Berlin"]
    assert values(mem.current("Alice", group_id="tenant-b")) == ["Tokyo"]
    assert mem.current("Alice") == []
    assert values(mem.as_of(group_id="tenant-b")) == ["Tokyo"]


def test_whole_group_as_of_and_attribute_filter(mem):
    mem.add_facts([("Alice", "lives_in", "Berlin"), ("Bob", "lives_in", "Paris"), ("Bob", "age", 40)])
    assert sorted(values(mem.as_of(attribute="lives_in"))) == ["Berlin", "Paris"]
    assert len(mem.as_of()) == 3


def test_persistence_across_close_and_reopen(db_path):
    clock = StepClock()
    with Memory(db_path, clock=clock, engine=ENGINE) as mem:
        a = mem.add_fact("Alice", "lives_in", "Berlin", valid_from="2020-01-01")
        mem.add_fact("Alice", "lives_in", "Lisbon", valid_from="2023-01-01")
        mem.add_alias("Alice", "Ally")
        last = max(f.recorded_at for f in mem.history("Alice"))
    with Memory(db_path, clock=StepClock("2000-01-01T00:00:00+00:00"), engine=ENGINE) as mem:
        assert values(mem.current("ally")) == ["Lisbon"]
        assert [f.version for f in mem.versions(a.id)] == [1, 2]
        # the clock went backwards; transaction time does not
        b = mem.add_fact("Alice", "age", 41)
        assert b.recorded_at >= last


def test_a_schema_1_database_is_upgraded_when_opened(db_path):
    clock = StepClock()
    with Memory(db_path, clock=clock, engine=ENGINE) as mem:
        berlin = mem.add_fact("Alice", "lives_in", "Berlin", valid_from="2020-01-01")
        lisbon = mem.add_fact("Alice", "lives_in", "Lisbon", valid_from="2023-01-01")
    as_schema(db_path, 1)
    with Memory(db_path, clock=clock, engine=ENGINE) as mem:
        assert mem._store.schema_version == SCHEMA_VERSION and mem._store.meta("schema_version") == str(SCHEMA_VERSION)
        columns = {r[1] for r in mem._store.q("CALL table_info('Fact') RETURN *")}
        assert "expired_by_episode" in columns
        # the old rows are all there, with nothing recorded in the new column
        assert [(f.version, f.expired_by_episode) for f in mem.versions(berlin.id)] == [(1, None), (2, None)]
        assert values(mem.current("Alice")) == ["Lisbon"]
        # and the upgraded database takes writes
        gone = mem.retract(lisbon.id)
        assert gone.status == "retracted" and gone.expired_by_episode is None
        assert values(mem.current("Alice")) == ["Berlin"]
    with Memory(db_path, clock=clock, engine=ENGINE) as mem:  # opening again changes nothing
        assert mem._store.schema_version == SCHEMA_VERSION
        assert values(mem.current("Alice")) == ["Berlin"]


def test_typed_values_round_trip(mem):
    import datetime as dt

    mem.add_fact("Svc", "response_time_ms", 250)
    mem.add_fact("Svc", "error_rate", 0.25)
    mem.add_fact("Svc", "healthy", True)
    mem.add_fact("Svc", "released", dt.datetime(2024, 5, 3, 12, tzinfo=dt.timezone.utc))
    got = {f.attribute: f.value for f in mem.current("Svc")}
    assert got == {"response_time_ms": 250, "error_rate": 0.25, "healthy": True,
                   "released": dt.datetime(2024, 5, 3, 12, tzinfo=dt.timezone.utc)}
    assert type(got["healthy"]) is bool


def test_custom_attribute_registry(clock):
    with Memory(clock=clock, engine=ENGINE, attributes={"team": "one"}) as mem:
        mem.add_fact("Alice", "team", "infra", valid_from="2024-01-01")
        mem.add_fact("Alice", "team", "ml", valid_from="2024-06-01")
        assert values(mem.current("Alice")) == ["ml"]
    with Memory(clock=clock, engine=ENGINE) as mem:  # default: many
        mem.add_fact("Alice", "team", "infra", valid_from="2024-01-01")
        mem.add_fact("Alice", "team", "ml", valid_from="2024-06-01")
        assert sorted(values(mem.current("Alice"))) == ["infra", "ml"]


def test_times_come_back_aware_utc(mem):
    f = mem.add_fact("Alice", "lives_in", "Berlin", valid_from="2024-05-03T10:00:00+02:00")
    assert f.valid_from == d("2024-05-03").replace(hour=8)
    got = mem.current("Alice")[0]
    assert got.valid_from.tzinfo is not None and got.valid_from.utcoffset().total_seconds() == 0
    assert got.valid_from == f.valid_from and got.recorded_at == f.recorded_at
