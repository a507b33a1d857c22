"""``Memory.check()`` and ``midas-graph check``: a sound memory passes, and
each invariant, broken on purpose through the store, is reported by its rule."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ENGINE, StepClock

from midas_graph import Memory, Violation
from midas_graph._digest import FACT_FIELDS, fact_digests
from midas_graph._store import FOREVER, alias_key
from midas_graph._time import to_db
from midas_graph._types import Entity

pytestmark = pytest.mark.engine


def build(mem: Memory) -> dict[str, str]:
    """A small memory: a supersession, a late arrival, a retraction that
    re-opens, a widened restatement, a multi-valued attribute and an entity value."""
    ids = {}
    ids["berlin"] = mem.add_fact("Ann", "lives_in", "Berlin", valid_from="2019-01-01").id
    ids["lisbon"] = mem.add_fact("Ann", "lives_in", "Lisbon", valid_from="2021-01-01").id
    ids["porto"] = mem.add_fact("Ann", "lives_in", "Porto", valid_from="2022-01-01").id
    mem.retract(ids["porto"], reason="a trip")
    ids["hamburg"] = mem.add_fact("Ann", "lives_in", "Hamburg", valid_from="2016-01-01").id
    mem.add_fact("Ann", "lives_in", "Lisbon", valid_from="2020-06-01")  # widens Lisbon
    ids["tea"] = mem.add_fact("Ann", "likes", "tea").id
    mem.add_fact("Bo", "speaks", "Danish")
    ids["knows"] = mem.add_fact("Ann", "knows", "Bo").id  # a value that names an entity
    return ids


@pytest.fixture
def built(tmp_path):
    mem = Memory(str(tmp_path / "c.db"), clock=StepClock(), engine=ENGINE)
    ids = build(mem)
    yield mem, ids
    mem.close()


def rules(mem: Memory) -> set[str]:
    return {v.rule for v in mem.check()}


def set_version(mem: Memory, vid: str, **props) -> None:
    """Overwrite stored properties of one version as a bug in a write path
    would: the row is sealed again with the digests of what it now holds, so
    that only the rule under test sees it (damage, unsealed, is the digest
    rule's: tests/test_digest.py)."""
    for key, value in props.items():
        mem._store.q(f"MATCH (f:Fact {{vid: $v}}) SET f.{key} = $x", {"v": vid, "x": value})
    columns = [name for name, _ in FACT_FIELDS] + ["expired_at", "expire_reason", "expired_by_episode"]
    row = mem._store.q(f"MATCH (f:Fact {{vid: $v}}) RETURN {', '.join(f'f.{c}' for c in columns)}", {"v": vid})[0]
    digest, expiry = fact_digests({c: [v] for c, v in zip(columns, row)})
    mem._store.q("MATCH (f:Fact {vid: $v}) SET f.digest = $d, f.expiry_digest = $e",
                 {"v": vid, "d": digest[0], "e": expiry[0]})


def test_a_sound_memory_has_no_violations(built):
    mem, ids = built
    assert mem.check() == []
    assert mem.check(group_id="default") == []
    assert mem.check(group_id="nobody") == []
    lisbon = mem.versions(ids["lisbon"])
    assert lisbon[-1].valid_from.year == 2020 and lisbon[-1].reason.startswith("widened")


def test_two_open_values_of_a_single_valued_attribute_are_an_overlap(built):
    mem, ids = built
    berlin = [f for f in mem.versions(ids["berlin"]) if f.expired_at is None][0]
    set_version(mem, berlin.vid, valid_to=FOREVER, superseded_by=None)
    found = mem.check()
    overlap = [v for v in found if v.rule == "overlap"]
    assert overlap and berlin.vid in overlap[0].ids
    assert "Berlin" in overlap[0].message and "Lisbon" in overlap[0].message
    assert "slot" in {v.rule for v in found}  # the revision slot no longer matches the row


def test_the_same_value_twice_is_an_overlap_for_any_attribute(built):
    mem, ids = built
    tea = mem.versions(ids["tea"])[0]
    mem.add_fact("Ann", "likes", "coffee")
    coffee = [f for f in mem.current("Ann", "likes") if f.value == "coffee"][0]
    set_version(mem, coffee.vid, value="TEA ")
    assert any(v.rule == "overlap" and tea.vid in v.ids for v in mem.check())


def test_a_missing_successor_and_a_cycle_are_reported(built):
    mem, ids = built
    berlin = [f for f in mem.versions(ids["berlin"]) if f.expired_at is None][0]
    set_version(mem, berlin.vid, superseded_by="no-such-fact")
    assert "successor" in rules(mem)
    set_version(mem, berlin.vid, superseded_by=ids["lisbon"])
    lisbon = [f for f in mem.versions(ids["lisbon"]) if f.expired_at is None][0]
    set_version(mem, lisbon.vid, superseded_by=ids["berlin"], valid_to=to_db(lisbon.valid_from))
    found = [v for v in mem.check() if v.rule == "cycle"]
    assert found and set(found[0].ids) == {ids["berlin"], ids["lisbon"]}


def test_a_missing_edge_is_reported(built):
    mem, ids = built
    berlin = [f for f in mem.versions(ids["berlin"]) if f.expired_at is None][0]
    mem._store.q("MATCH (:Fact {vid: $v})-[r:SUPERSEDED_BY]->() DELETE r", {"v": berlin.vid})
    mem._store.q("MATCH (:Entity)-[r:HAS_FACT]->(:Fact {vid: $v}) DELETE r", {"v": f"{ids['tea']}:1"})
    mem._store.q("MATCH (:Fact {vid: $v})-[r:OBJECT]->() DELETE r", {"v": f"{ids['knows']}:1"})
    msgs = [str(v) for v in mem.check()]
    assert any(m.startswith("successor:") and berlin.vid in m for m in msgs)
    assert any(m.startswith("subject:") and "HAS_FACT" in m for m in msgs)
    assert any(m.startswith("subject:") and "OBJECT" in m for m in msgs)


def test_an_episode_that_does_not_exist_is_reported(built):
    mem, ids = built
    set_version(mem, f"{ids['tea']}:1", episode_id="gone")
    found = [v for v in mem.check() if v.rule == "episode"]
    assert found and "gone" in found[0].ids


def test_bad_intervals_and_versions_are_reported(built):
    mem, ids = built
    tea = f"{ids['tea']}:1"
    set_version(mem, tea, valid_to=to_db(mem.versions(ids["tea"])[0].valid_from).replace(year=2000))
    assert "interval" in rules(mem)
    start = to_db(mem.versions(ids["tea"])[0].valid_from)
    set_version(mem, tea, valid_to=start, stated_valid_to=start)  # stated to hold at no time
    assert any(v.rule == "interval" and "stated" in v.message for v in mem.check())
    set_version(mem, tea, stated_valid_to=FOREVER)  # closed at its own start by revision: allowed
    assert "interval" not in rules(mem)
    set_version(mem, tea, valid_to=FOREVER)
    first = mem.versions(ids["berlin"])[0]
    assert first.expired_at is not None
    set_version(mem, first.vid, expired_at=FOREVER)  # two held versions of one belief
    found = {v.rule for v in mem.check()}
    assert "versions" in found


def test_duplicate_names_and_a_dangling_name_key_are_reported(built):
    mem, ids = built
    ann = mem.entity("Ann")
    twin = Entity(id="twin", group_id="default", name="ANN", created_at=ann.created_at)
    mem._store.create_entities([twin])  # its name key is taken: first come, first served
    found = [v for v in mem.check() if v.rule == "names"]
    assert any("names 2 entities" in v.message and set(v.ids) == {ann.id, "twin"} for v in found)
    mem._store.q("MATCH (a:Alias {key: $k}) SET a.entity_id = 'nobody'", {"k": alias_key("default", "Bo")})
    assert any("nobody" in v.ids for v in mem.check() if v.rule == "names")


def test_a_stale_revision_slot_and_a_schema_mismatch_are_reported(built):
    mem, _ = built
    mem._store.q("MATCH (s:Slot) SET s.held = '[]'")
    assert "slot" in rules(mem)
    mem._store.set_meta("schema_version", "1")
    found = [v for v in mem.check() if v.rule == "schema"]
    assert found and "version 1" in found[0].message


def test_violations_read_as_one_line_each(built):
    mem, ids = built
    set_version(mem, f"{ids['tea']}:1", superseded_by="x")
    v = mem.check()[0]
    assert isinstance(v, Violation) and "\n" not in str(v) and str(v).startswith(v.rule + ": ")


def test_cli_check_exits_0_when_sound_and_1_with_the_violations(tmp_path):
    path = str(tmp_path / "cli.db")
    with Memory(path, engine=ENGINE) as mem:
        ids = build(mem)
    run = lambda *a: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "midas_graph.cli", "--db", path, "--engine", ENGINE, "check", *a],
        capture_output=True, text=True, timeout=300,
    )
    ok = run()
    assert ok.returncode == 0, ok.stderr
    assert "no violations" in ok.stdout
    with Memory(path, engine=ENGINE) as mem:
        set_version(mem, f"{ids['tea']}:1", superseded_by="no-such-fact")
    bad = run()
    assert bad.returncode == 1
    assert "successor:" in bad.stdout and "1 violation" in bad.stdout
    as_json = run("--json")
    assert as_json.returncode == 1 and '"rule": "successor"' in as_json.stdout
