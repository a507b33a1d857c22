"""One writer per database file (docs/concurrency.md).

In one process, every Memory (and Graphiti) on a path shares the path's one
open Store, so no acknowledged write is lost whatever the order of closing.
Across processes the engine's file lock refuses a second writer, and the
error names the path. ``read_only=True`` reads beside a writer (LadybugDB),
refuses every write, and sees what another process committed after it opened.
Child processes signal readiness by printing a line; nothing here sleeps.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from midas_graph import DatabaseLockedError, EngineError, InvalidInputError, Memory, ReadOnlyError
from midas_graph.graphiti import Graphiti

from conftest import ENGINE, JsonChild

pytestmark = pytest.mark.engine
ROOT = Path(__file__).resolve().parents[1]


def _names(path: str) -> list[str]:
    with Memory(path, engine=ENGINE) as m:
        return sorted(e.name for e in m.entities())


@pytest.mark.parametrize("first", ["a", "b"])
def test_two_memories_on_one_path_keep_every_write_whichever_closes_first(db_path, first):
    a, b = Memory(db_path, engine=ENGINE), Memory(db_path, engine=ENGINE)
    assert a._store is b._store                       # one Store, one lock, one log
    for i in range(51):
        a.add_fact(f"A{i}", "likes", "tea")
        b.add_fact(f"B{i}", "likes", "tea")
    assert [f.value for f in a.current("B50")] == ["tea"]   # each sees the other's writes at once
    (a if first == "a" else b).close()
    (b if first == "a" else a).close()
    names = _names(db_path)
    assert len(names) == 102 and {n[0] for n in names} == {"A", "B"}


def test_a_closed_memory_refuses_use_while_the_other_keeps_the_file(db_path):
    a, b = Memory(db_path, engine=ENGINE), Memory(db_path, engine=ENGINE)
    a.add_fact("Ana", "lives_in", "Porto")
    a.close()
    a.close()                                          # harmless twice
    with pytest.raises(EngineError, match="closed"):
        a.current("Ana")
    with pytest.raises(EngineError, match="closed"):
        a.add_fact("Ana", "lives_in", "Lisbon")
    b.add_fact("Ana", "lives_in", "Lisbon")            # the file is still open for b
    assert [f.value for f in b.current("Ana")] == ["Lisbon"]
    b.close()
    with Memory(db_path, engine=ENGINE) as m:
        assert [f.value for f in m.current("Ana")] == ["Lisbon"]


def test_paths_are_compared_after_resolving_them(tmp_path, monkeypatch):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    a = Memory(str(real / "m.db"), engine=ENGINE)
    b = Memory(os.path.join("link", "m.db"), engine=ENGINE)
    try:
        assert a._store is b._store
    finally:
        a.close()
        b.close()


def test_two_memories_writing_from_two_threads_lose_nothing(db_path):
    a, b = Memory(db_path, engine=ENGINE), Memory(db_path, engine=ENGINE)
    errors: list[BaseException] = []

    def write(mem: Memory, tag: str) -> None:
        try:
            for i in range(40):
                mem.add_fact(f"{tag}{i}", "lives_in", "Berlin")
                mem.add_fact(f"{tag}{i}", "lives_in", "Lisbon")   # supersedes: a read-then-write
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(m, t)) for m, t in ((a, "A"), (b, "B"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    a.close()
    b.close()
    with Memory(db_path, engine=ENGINE) as m:
        assert m.stats()["Fact"] == 240                   # per subject: Berlin, Berlin closed, Lisbon
        now = m.as_of()
        assert len(now) == 80 and {f.value for f in now} == {"Lisbon"}


def test_memories_sharing_a_file_never_record_before_each_others_writes(db_path):
    """Each Memory keeps its own clock, but transaction time on one file never
    runs backwards: b's clock is years behind a's."""
    from conftest import StepClock

    a = Memory(db_path, engine=ENGINE, clock=StepClock("2025-01-01T00:00:00+00:00"))
    b = Memory(db_path, engine=ENGINE, clock=StepClock("2020-01-01T00:00:00+00:00"))
    first = a.add_fact("Ana", "lives_in", "Porto", valid_from="2019-01-01")
    second = b.add_fact("Ana", "lives_in", "Lisbon", valid_from="2019-06-01")
    assert second.recorded_at >= first.recorded_at
    assert [f.value for f in b.as_of("Ana", known_at=second.recorded_at)] == ["Lisbon"]
    a.close()
    b.close()


def test_graphiti_beside_a_memory_on_one_path_shares_it(db_path, models):
    import asyncio

    mem = Memory(db_path, engine=ENGINE, embedder=models[0], nli=models[1])

    async def run() -> None:
        g = Graphiti(db_path, engine=ENGINE, embedder=models[0], nli=models[1])
        assert g.memory._store is mem._store
        await g.add_episode(name="t1", episode_body="I live in Porto.", source_description="chat",
                            reference_time="2024-01-01")
        mem.add_fact("Bob", "likes", "tea")
        await g.close()                                 # Graphiti first, the Memory last

    asyncio.run(run())
    assert mem.stats()["Episode"] == 1
    mem.close()
    with Memory(db_path, engine=ENGINE) as m:
        assert m.stats()["Episode"] == 1
        assert [f.value for f in m.current("user", "lives_in")] == ["Porto"]
        assert [f.value for f in m.current("Bob")] == ["tea"]


# -- read-only in one process ----------------------------------------------------------

def test_a_read_only_memory_beside_a_writer_reads_live_and_refuses_every_write(db_path, models):
    w = Memory(db_path, engine=ENGINE)
    r = Memory(db_path, engine=ENGINE, read_only=True, embedder=models[0], nli=models[1])
    f = w.add_fact("Ana", "lives_in", "Porto")
    assert [x.value for x in r.current("Ana")] == ["Porto"]
    assert r.recall("Where does Ana live?", k=3)[0].fact.value == "Porto"
    refused = [
        lambda: r.add_fact("Ana", "lives_in", "Rome"),
        lambda: r.add_facts([("Ana", "likes", "tea")]),
        lambda: r.retract(f.id),
        lambda: r.add_alias("Ana", "Annie"),
        lambda: r.add_entity("Zed"),
        lambda: r.add_episode("I live in Rome."),
        lambda: r.add_episodes(["I live in Rome."]),
        lambda: r.remove_episode("x"),
        lambda: r.clear(group_id="default"),
    ]
    for call in refused:
        with pytest.raises(ReadOnlyError, match="read-only"):
            call()
    with pytest.raises(ReadOnlyError):
        r._store.transaction().__enter__()            # the store view refuses too
    r.close()
    w.add_fact("Ana", "lives_in", "Lisbon")           # the writer is unaffected
    w.close()
    with Memory(db_path, engine=ENGINE) as m:
        assert [x.value for x in m.current("Ana")] == ["Lisbon"]
        assert m.stats()["Episode"] == 0


def test_a_writer_cannot_join_a_file_this_process_opened_read_only(db_path):
    Memory(db_path, engine=ENGINE).close()
    r = Memory(db_path, engine=ENGINE, read_only=True)
    with pytest.raises(ReadOnlyError, match=db_path.replace("\\", "\\\\")):
        Memory(db_path, engine=ENGINE)
    with pytest.raises(ReadOnlyError):
        r.add_fact("Ana", "likes", "tea")
    r.close()
    with Memory(db_path, engine=ENGINE) as m:                 # once it is closed, it opens for writing
        m.add_fact("Ana", "likes", "tea")


def test_read_only_needs_an_existing_database(tmp_path):
    with pytest.raises(InvalidInputError, match="^path: no database at"):
        Memory(str(tmp_path / "missing.db"), engine=ENGINE, read_only=True)
    assert not (tmp_path / "missing.db").exists()


# -- across processes ---------------------------------------------------------------------

_CHILD = r"""
import json, sys
from midas_graph import Memory, MidasError
path, mode = sys.argv[1], sys.argv[2]
try:
    mem = Memory(path, read_only=mode == "read")
except MidasError as exc:
    print(json.dumps({"error": type(exc).__name__, "message": str(exc)}), flush=True)
    sys.exit(0)
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    cmd = json.loads(line)
    try:
        if cmd["op"] == "current":
            out = [f.value for f in mem.current(cmd["subject"])]
        elif cmd["op"] == "recall":
            out = [h.text for h in mem.recall(cmd["query"], k=3)]
        elif cmd["op"] == "episodes":
            out = [e.content for e in mem.episodes()]
        else:
            mem.add_fact("Child", "likes", "tea")
            out = "written"
    except MidasError as exc:
        out = {"error": type(exc).__name__, "message": str(exc)}
    print(json.dumps(out), flush=True)
mem.close()
"""


class Child(JsonChild):
    """A process holding a Memory on the file; it prints one JSON line when
    ready (or its open error), then answers one command per line."""

    def __init__(self, path: str, mode: str) -> None:
        super().__init__(_CHILD, path, mode)
        self.first = self.line()


def test_a_second_writer_process_gets_a_clear_error_naming_the_file(db_path):
    with Memory(db_path, engine=ENGINE) as w:
        w.add_fact("Ana", "lives_in", "Porto")
        child = Child(db_path, "write")
        child.close()
    err = child.first
    assert err["error"] == "DatabaseLockedError", err
    assert db_path in err["message"] and "another process" in err["message"]
    assert "IO exception" not in err["message"]                 # not the engine's raw text
    if ENGINE == "ladybug":
        assert f"pid {os.getpid()}" in err["message"]
    assert issubclass(DatabaseLockedError, EngineError)


def test_a_read_only_process_sees_what_a_writer_commits_after_it_opened(db_path):
    w = Memory(db_path, engine=ENGINE)
    w.add_fact("Ana", "lives_in", "Porto")
    child = Child(db_path, "read")
    if ENGINE == "kuzu":
        # Kùzu: a reader cannot open a file another process has open for writing.
        assert child.first["error"] == "DatabaseLockedError" and db_path in child.first["message"]
        child.close()
        w.close()
        child = Child(db_path, "read")
        assert child.first == {"ready": True}
        assert child.ask(op="current", subject="Ana") == ["Porto"]
        assert child.ask(op="write")["error"] == "ReadOnlyError"
        child.close()
        return
    try:
        assert child.first == {"ready": True}
        assert child.ask(op="current", subject="Ana") == ["Porto"]
        before = child.ask(op="recall", query="What does Ana drink?")
        assert not any("coffee" in t for t in before)
        w.add_fact("Ana", "lives_in", "Lisbon")            # committed after the reader opened
        w.add_fact("Ana", "drinks", "coffee")
        assert child.ask(op="current", subject="Ana") == ["coffee", "Lisbon"]
        after = child.ask(op="recall", query="What does Ana drink?")   # its recall index rebuilt
        assert any("coffee" in t for t in after), after
        w._store.checkpoint()                               # folded into the file: still seen
        w.add_fact("Bea", "lives_in", "Rome")
        assert child.ask(op="current", subject="Bea") == ["Rome"]
        assert child.ask(op="write")["error"] == "ReadOnlyError"
    finally:
        child.close()
        w.close()


@pytest.mark.skipif(ENGINE == "kuzu", reason="Kùzu opens no reader beside a writer process")
def test_read_only_opens_retry_while_a_writer_checkpoints(db_path, tmp_path):
    """LadybugDB refuses a read-only open while a checkpoint is pending (157 of
    223 opens failed beside a writer checkpointing every 5 transactions); the
    open retries until the checkpoint is done."""
    stop = tmp_path / "stop"
    writer = subprocess.Popen([sys.executable, "-c", r"""
import os, sys
from midas_graph import Memory
path, stop = sys.argv[1], sys.argv[2]
with Memory(path) as m:
    n = 0
    while not os.path.exists(stop):
        m.add_facts([(f"P{n}-{i}", "likes", "tea") for i in range(100)])
        n += 1
        if n % 5 == 0:
            m._store.checkpoint()
        if n == 1:
            print("ready", flush=True)
""", db_path, str(stop)], cwd=str(ROOT), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "ready", writer.stderr.read()[-3000:]
        seen = []
        for _ in range(15):
            with Memory(db_path, engine=ENGINE, read_only=True) as r:
                seen.append(r.stats()["Fact"])
        assert len(seen) == 15 and seen[0] >= 100 and seen == sorted(seen)
    finally:
        stop.touch()
        assert writer.wait(timeout=120) == 0, writer.stderr.read()[-3000:]
        writer.stdout.close()
        writer.stderr.close()


def test_the_cli_reads_read_only_and_refuses_writes(db_path, capsys):
    from midas_graph.cli import main

    assert main(["--db", db_path, "--engine", ENGINE, "add-fact", "Ana", "lives_in", "Porto"]) == 0
    capsys.readouterr()
    with Memory(db_path, engine=ENGINE):               # held for writing here: the CLI shares it
        assert main(["--db", db_path, "--engine", ENGINE, "--read-only", "as-of", "Ana", "--json"]) == 0
        assert [f["value"] for f in json.loads(capsys.readouterr().out)] == ["Porto"]
    assert main(["--db", db_path, "--engine", ENGINE, "--read-only", "add-fact", "Ana", "likes", "tea"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "is read-only" in " ".join(err.split()) and "Traceback" not in err


def test_a_memory_dropped_without_close_lets_the_file_go(db_path):
    """The registry holds handles weakly: as before sharing, a Memory that is
    garbage-collected without close() releases the file (the engine closes
    it), and the next Memory on the path opens it afresh."""
    import gc
    import weakref

    from midas_graph import _handles

    m = Memory(db_path, engine=ENGINE)
    m.add_fact("Ana", "lives_in", "Porto")
    store = weakref.ref(m._store)
    del m
    gc.collect()
    assert store() is None and _handles.key_of(db_path) not in _handles._open
    with Memory(db_path, engine=ENGINE) as again:
        assert [f.value for f in again.current("Ana")] == ["Porto"]
