"""Row digests (midas_graph/_digest.py): every write path seals what it
writes, verification finds every kind of altered row, export refuses a
damaged database, and a zeroed page of a real database file is never read
as if it were fine."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import ENGINE, StepClock, as_schema

from midas_graph import DamagedError, Memory, MidasError
from midas_graph._digest import damaged
from midas_graph._io import export_rows, import_rows
from midas_graph._store import SCHEMA_VERSION
from midas_graph._time import FOREVER

pytestmark = pytest.mark.engine


def parts(store) -> set[tuple[str, str]]:
    return {(d.table, d.part) for d in damaged(store)}


def small_memory(mem):
    """Typed values, a supersession, a retraction, an alias, a bulk batch."""
    import datetime as dt

    mem.add_fact("Alice", "lives_in", "Berlin", valid_from="2020-01-01")
    lisbon = mem.add_fact("Alice", "lives_in", "Lisbon", valid_from="2023-01-01")
    mem.add_fact("Alice", "knows", "Bob")
    mem.add_fact("Bob", "age", 41)
    mem.add_fact("Svc", "error_rate", 0.25)
    mem.add_fact("Svc", "healthy", True)
    mem.add_fact("Svc", "released", dt.datetime(2024, 5, 3, 12, 30, 0, 5, tzinfo=dt.timezone.utc))
    mem.add_fact("Old", "born_in", "Ur", valid_from="0001-01-01T00:00:00.5")  # the engine prints "0001-... .5"
    mem.add_fact("Old", "age", 9, valid_from="0999-03-04T05:06:07.000120")
    mem.add_facts([{"subject": f"p{i % 7}", "attribute": "lives_in", "value": f"c{i}",
                    "valid_from": f"20{10 + i % 10}-01-01"} for i in range(60)])
    gone = mem.retract(lisbon.id)
    mem.add_alias("Alice", "Ally")
    return lisbon, gone


def test_every_write_path_seals_its_rows(models_mem):
    mem = models_mem
    small_memory(mem)
    mem.add_episode("I live in Paris and I work at Acme.", speaker="Dana", reference_time="2024-01-10")
    moved = mem.add_episode("I moved to Rome last week.", speaker="Dana", reference_time="2024-03-10")
    assert moved.superseded and all(f.expired_by_episode is None or f.expired_by_episode == moved.episode.id
                                    for f in moved.superseded)
    extra = mem.add_episode("I work at Initech now.", speaker="Dana", reference_time="2024-04-01")
    mem.remove_episode(extra.episode.id)
    store = mem._store
    assert damaged(store) == []
    digests = store.q("MATCH (f:Fact) RETURN f.digest, f.expiry_digest, f.expired_at < $inf", {"inf": FOREVER})
    assert all(d and (e is not None) == expired for d, e, expired in digests)
    assert any(expired for _, _, expired in digests) and any(not expired for _, _, expired in digests)
    assert all(r[0] for r in store.q("MATCH (n:Episode) RETURN n.digest"))
    # an export restored into another memory is sealed too
    rows = list(export_rows(mem))
    with Memory(engine=ENGINE, clock=StepClock("2030-01-01T00:00:00+00:00")) as other:
        import_rows(other, ((i, r) for i, r in enumerate(rows, 1)))
        assert other._store.count("Fact") > 60 and damaged(other._store) == []


def test_altered_fields_of_each_table_are_found(mem):
    lisbon, gone = small_memory(mem)
    store = mem._store
    assert damaged(store) == []
    store.q("MATCH (f:Fact {vid: $v}) SET f.value = 'Porto'", {"v": f"{lisbon.id}:1"})
    found = damaged(store)
    assert [(d.table, d.key, d.part) for d in found] == [("Fact", f"{lisbon.id}:1", "fields")]
    assert "do not match their digest" in str(found[0])
    store.q("MATCH (e:Entity) WHERE e.name = 'Bob' SET e.kind = 'ORG'")
    store.q("MATCH (a:Alias) WHERE a.alias = 'Ally' SET a.entity_id = 'someone-else'")
    assert parts(store) == {("Fact", "fields"), ("Entity", "fields"), ("Alias", "fields")}


@pytest.mark.parametrize("column, value", [
    ("expired_at", "1970-01-01"),         # what a zeroed page of timestamps reads back as
    ("expire_reason", "superseded"),
    ("expired_by_episode", "ep-1"),
])
def test_altered_expiry_of_an_expired_version_is_found(mem, column, value):
    _, gone = small_memory(mem)
    store = mem._store
    param = {"v": gone.vid, "x": value}
    if column == "expired_at":
        store.q("MATCH (f:Fact {vid: $v}) SET f.expired_at = timestamp($x)", param)
    else:
        store.q(f"MATCH (f:Fact {{vid: $v}}) SET f.{column} = $x", param)
    assert [(d.key, d.part) for d in damaged(store)] == [(gone.vid, "expiry")]


def test_a_held_version_that_reads_as_expired_is_found(mem):
    """A held version has no expiry digest: it must read back held."""
    small_memory(mem)
    store = mem._store
    held = mem.current("Alice")[0]
    store.q("MATCH (f:Fact {vid: $v}) SET f.expired_at = timestamp('1970-01-01')", {"v": held.vid})
    found = damaged(store)
    assert [(d.key, d.part) for d in found] == [(held.vid, "expiry")]
    assert "1970-01-01" in found[0].detail
    # check() reports it first, then what it breaks: the slot that lists it as held
    rules = [v.rule for v in mem.check()]
    assert rules[0] == "digest" and "slot" in rules and held.vid in str(mem.check()[0])
    # and a valid_to of 1970 is a field change
    store.q("MATCH (f:Fact {vid: $v}) SET f.expired_at = timestamp('9999-12-31 23:59:59'), "
            "f.valid_to = timestamp('1970-01-01')", {"v": held.vid})
    assert [(d.key, d.part) for d in damaged(store)] == [(held.vid, "fields")]


def test_a_sound_memory_checks_clean_and_damage_is_the_digest_rule(mem):
    lisbon, _ = small_memory(mem)
    assert mem.check() == []
    mem._store.q("MATCH (f:Fact {vid: $v}) SET f.subject = 'Alicia'", {"v": f"{lisbon.id}:1"})
    got = mem.check()
    assert [(v.rule, v.ids) for v in got] == [("digest", (f"{lisbon.id}:1",))]
    assert "do not match their digest" in got[0].message


def test_missing_digest_and_wrong_edges_are_found(mem):
    small_memory(mem)
    store = mem._store
    fact = mem.current("Svc")[0]
    store.q("MATCH (f:Fact {vid: $v}) SET f.digest = NULL", {"v": fact.vid})
    found = damaged(store)
    assert [(d.key, d.part, d.detail) for d in found] == [(fact.vid, "fields", "no digest stored")]
    store.q("MATCH (f:Fact {vid: $v}) SET f.digest = $d", {"v": fact.vid, "d": "0" * 16})
    assert parts(store) == {("Fact", "fields")}
    # a second HAS_FACT edge on a sound row: check()'s subject rule
    alice = mem.current("Alice")[0].vid
    store.q("MATCH (e:Entity) WHERE e.name = 'Bob' WITH e MATCH (f:Fact {vid: $v}) CREATE (e)-[:HAS_FACT]->(f)",
            {"v": alice})
    edge = [v for v in mem.check() if v.rule == "subject"]
    assert len(edge) == 1 and "HAS_FACT edges from other entities" in edge[0].message and edge[0].ids == (alice,)


def test_export_refuses_a_damaged_database_and_names_the_versions(mem):
    small_memory(mem)
    store = mem._store
    a, b = sorted(f.vid for f in mem.current("Svc"))[:2]
    store.q("MATCH (f:Fact) WHERE f.vid IN $v SET f.valid_to = timestamp('1970-01-01')", {"v": [a, b]})
    with pytest.raises(DamagedError) as err:
        list(export_rows(mem))
    assert {d.key for d in err.value.damage} == {a, b}
    assert a in str(err.value) and b in str(err.value) and "midas-graph check" in str(err.value)
    # streamed in batches: nothing at or after the first damaged batch comes out
    got = []
    with pytest.raises(DamagedError):
        for f in store.iter_facts(chunk=5):
            got.append(f.vid)
    first_bad = sorted(f.vid for f in store.facts_of(None, group_id="default")).index(min(a, b))
    assert len(got) == first_bad // 5 * 5 and a not in got and b not in got


def test_export_refuses_a_damaged_entity_or_episode(mem):
    small_memory(mem)
    store = mem._store
    store.q("MATCH (e:Entity) WHERE e.name = 'Bob' SET e.name = 'Rob'")
    with pytest.raises(DamagedError, match="Entity"):
        list(export_rows(mem))
    with pytest.raises(DamagedError, match="Entity"):  # and an alias is not added on top of it
        mem.add_alias("Bob", "Robert")
    assert mem.entity("Robert") is None
    store.q("MATCH (e:Entity) WHERE e.name = 'Rob' SET e.name = 'Bob'")  # as it was: sound again
    assert list(export_rows(mem))
    store.q("MATCH (a:Alias) WHERE a.alias = 'Ally' SET a.alias = 'Sally'")
    with pytest.raises(DamagedError, match="Alias"):
        list(export_rows(mem))


def test_episodes_are_sealed_and_verified(models_mem):
    mem = models_mem
    r = mem.add_episode("I live in Oslo.", speaker="Kim", reference_time="2024-02-01")
    store = mem._store
    assert [e.id for e in store.iter_episodes()] == [r.episode.id]
    store.q("MATCH (p:Episode {id: $id}) SET p.content = 'I live in Bergen.'", {"id": r.episode.id})
    assert [(d.table, d.key, d.part) for d in damaged(store)] == [("Episode", r.episode.id, "fields")]
    with pytest.raises(DamagedError, match=r.episode.id):
        list(store.iter_episodes())
    with pytest.raises(DamagedError, match=r.episode.id):  # and export, which reads them its own way
        list(export_rows(mem))


def test_an_older_database_gets_digests_when_upgraded(db_path):
    clock = StepClock()
    with Memory(db_path, clock=clock, engine=ENGINE) as mem:
        small_memory(mem)
        n = mem._store.count("Fact")
    as_schema(db_path, 3)
    with Memory(db_path, clock=clock, engine=ENGINE) as mem:
        store = mem._store
        assert store.schema_version == SCHEMA_VERSION
        assert store.q("MATCH (f:Fact) WHERE f.digest IS NULL RETURN count(f)")[0][0] == 0
        assert store.q("MATCH (e:Entity) WHERE e.digest IS NULL RETURN count(e)")[0][0] == 0
        assert damaged(store) == [] and sum(1 for _ in store.iter_facts()) == n
        mem.add_fact("Alice", "lives_in", "Madrid", valid_from="2024-06-01")  # and takes writes, sealed
        assert damaged(store) == []


# -- a zeroed page of a real database file ---------------------------------------

#: Run in a child: an engine that aborts or runs away on a damaged file must
#: fail the trial, not kill pytest. Prints one JSON line.
TRIAL = textwrap.dedent(
    """
    import hashlib, json, sys
    from midas_graph import Memory, MidasError
    from midas_graph._digest import damaged
    out = {}
    try:
        mem = Memory(sys.argv[1], engine=sys.argv[2])
    except MidasError as exc:
        print(json.dumps({"outcome": "open failed", "error": f"{type(exc).__name__}: {exc}"})); sys.exit(0)
    store = mem._store
    try:
        found = damaged(store)
        out["damage"] = sorted({(d.table, d.part) for d in found})
        out["rules"] = sorted({v.rule for v in mem.check()})
    except MidasError as exc:
        out["check_error"] = f"{type(exc).__name__}: {exc}"
    try:
        rows = [repr(e) for e in store.all_entities()] + [repr(f) for f in store.iter_facts()]
        out["export"] = hashlib.sha256("\\n".join(rows).encode()).hexdigest()
    except MidasError as exc:
        out["export_error"] = f"{type(exc).__name__}: {exc}"
    try:
        mem.close()
    except MidasError as exc:
        out["close_error"] = f"{type(exc).__name__}: {exc}"
    print(json.dumps(out))
    """
)
PAGE = 4096
#: The tables export reads rows of (a Slot or Alias is rebuilt on import).
EXPORTED = ("Fact", "Entity", "Episode")
#: Kùzu 0.11.3 walks each primary-key index's page list at open without
#: checking it for a cycle (LadybugDB, its fork, checks: "Cannot read PIP
#: page"); a zeroed page there makes it allocate without bound before
#: midas_graph gets control. Bounded here so that the trial ends. It can
#: also crash (SIGSEGV) reading a damaged string column (seen: Fact.id).
RUNAWAY_BYTES = 1_500_000_000


def run_trial(path: str) -> dict:
    import psutil

    out_path = path + ".out"
    with open(out_path, "w") as out:  # a file, not a pipe: the child never blocks on a full pipe
        child = subprocess.Popen([sys.executable, "-X", "faulthandler", "-c", TRIAL, path, ENGINE], stdout=out,
                                 stderr=subprocess.STDOUT, text=True)
    proc = psutil.Process(child.pid)
    while child.poll() is None:
        try:
            rss = proc.memory_info().rss
        except psutil.NoSuchProcess:
            break
        if rss > RUNAWAY_BYTES:
            child.kill()
            child.wait()
            return {"outcome": "engine runaway"}
        time.sleep(0.05)  # polling a memory bound, not waiting for an event
    child.wait()
    with open(out_path) as fp:
        out = fp.read()
    if child.returncode < 0:  # killed by a signal: the engine crashed in native code
        return {"outcome": "engine crash", "signal": -child.returncode, "trace": out[-1500:]}
    assert child.returncode == 0, f"the trial process failed ({child.returncode}): {out[-2000:]}"
    return json.loads(out.strip().splitlines()[-1])


def pages_holding(data: bytes, needle: bytes) -> list[int]:
    pages, at = [], data.find(needle)
    while at >= 0:
        pages.append(at // PAGE)
        at = data.find(needle, at + 1)
    return sorted(set(pages))


@pytest.mark.slow
def test_a_zeroed_page_is_never_read_as_if_fine(tmp_path):
    """A 3,000-fact database, closed; one 4 KB page zeroed at a time: pages
    that hold fact values, fact ids and entity names (found in the file), and
    pages spread over the whole file. Each trial either fails to open (or
    to read) with a MidasError, or verification lists the damaged rows and
    export refuses them, or export reads exactly what it read before (an
    unused page, or damage to an index, edge or slot, which verification
    lists). Never altered rows passing as fine."""
    path = str(tmp_path / "clean.db")
    with Memory(path, engine=ENGINE, clock=StepClock()) as mem:
        mem.add_facts([{"subject": f"person-{i % 300:03d}-name", "attribute": "lives_in" if i % 3 else "likes",
                        "value": f"city-{i:05d}-of-the-test", "valid_from": f"20{10 + i % 10}-0{1 + i % 9}-01"}
                       for i in range(3000)])
        marker_fact = mem.history("person-007-name")[0]
        assert mem._store.count("Fact") > 2000
    data = open(path, "rb").read()
    n_pages = len(data) // PAGE
    content = {  # pages known to hold rows of each kind
        "fact value": pages_holding(data, b"-of-the-test"),
        "fact id": pages_holding(data, marker_fact.id.encode()),
        "entity name": pages_holding(data, b"person-007-name"),
    }
    assert all(content.values()), content
    chosen = {pages[len(pages) // 2]: kind for kind, pages in content.items()}
    chosen.update({pages[0]: kind for kind, pages in content.items() if pages[0] not in chosen})
    chosen.update({int(n_pages * f): "spread" for f in (0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95)
                   if int(n_pages * f) not in chosen})
    reference = run_trial(path)
    assert reference.get("damage") == [] and reference.get("rules") == [] and "export" in reference, reference
    outcomes = {}
    for page, kind in sorted(chosen.items()):
        trial = str(tmp_path / f"page{page}.db")
        shutil.copyfile(path, trial)
        with open(trial, "r+b") as fp:
            fp.seek(page * PAGE)
            fp.write(b"\0" * PAGE)
        got = run_trial(trial)
        os.remove(trial)
        assert "check_error" not in got, f"page {page}: verification raised instead of listing: {got}"
        if got.get("outcome") == "open failed":
            assert got["error"].split(":")[0] in ("EngineError", "SchemaVersionError"), got
            outcome = "open failed"
        elif got.get("outcome") in ("engine runaway", "engine crash"):
            # Kùzu 0.11.3 only (docs/integrity.md): a limit of the engine, not a silent pass
            assert ENGINE == "kuzu", f"page {page} ({kind}): {got}"
            outcome = got["outcome"]
        elif any(table in EXPORTED and part in ("fields", "expiry") for table, part in got["damage"]):
            assert "export" not in got, f"page {page} ({kind}): export passed damaged rows: {got}"
            assert got["export_error"].startswith(("DamagedError", "EngineError")), got
            assert "digest" in got["rules"], got
            outcome = "digests caught it"
        else:
            # nothing found in what export reads (an unused page, or damage to an
            # index, an edge or a slot, which check() lists): export is intact
            assert got.get("export") == reference["export"], \
                f"page {page} ({kind}): rows changed and nothing reported: {got}"
            outcome = "check() lists damage" if got["rules"] else "unchanged"
        outcomes[page] = (kind, outcome)
    # pages found by their content held live rows the digests had to catch (a
    # page can also hold a stale copy the engine no longer reads: "unchanged")
    assert "digests caught it" in [o for k, o in outcomes.values() if k != "spread"], sorted(outcomes.items())
