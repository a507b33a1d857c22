"""Every group has a stored generation; a read in any process sees what any
other process committed (docs/scaling.md, "Freshness").

Each commit moves the stored counter of the groups it wrote, in the same
transaction; the caches of a group (recall index, people links, compaction
horizon) key on it. Two real processes: the child prints a line when ready
and answers one command per line; nothing here sleeps.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from midas_graph import Memory
from midas_graph._store import ANY_GROUP, SCHEMA_VERSION

from conftest import ENGINE, JsonChild, StepClock, as_schema

pytestmark = pytest.mark.engine
ROOT = Path(__file__).resolve().parents[1]


def test_a_commit_moves_the_generation_of_the_groups_it_wrote_and_no_other(db_path):
    with Memory(db_path, engine=ENGINE, clock=StepClock()) as mem:
        store = mem._store
        assert store.group_generation("x") == (0, 0)
        mem.add_fact("Ana", "drinks", "tea", group_id="x")
        mem.add_fact("Bo", "drinks", "tea", group_id="y")
        x, y = store.group_generation("x"), store.group_generation("y")
        f = mem.add_fact("Ana", "drinks", "coffee", group_id="x")
        assert store.group_generation("x") == (x[0] + 1, 0) and store.group_generation("y") == y
        mem.retract(f.id)                                  # a plan that only expires names its group too
        assert store.group_generation("x") == (x[0] + 2, 0)
        with pytest.raises(RuntimeError):                  # rolled back: nothing moves
            with store.transaction():
                mem.add_fact("Ana", "drinks", "milk", group_id="x")
                raise RuntimeError("abort")
        assert store.group_generation("x") == (x[0] + 2, 0)
        with store.transaction():                          # a write that names no group moves "*"
            store.set_meta("note", "x")
        assert store.group_generation("y") == (y[0], 1)
        mem.add_facts([{"subject": "Cy", "attribute": "likes", "value": "tea", "group_id": g} for g in "pqr"])
        assert [store.group_generation(g)[0] for g in "pqr"] == [1, 1, 1]
        mem.clear(group_id="y")                            # deleting a group moves it, never resets it
        assert store.group_generation("y")[0] == y[0] + 1
        gens = dict(store.q("MATCH (c:GroupGeneration) RETURN c.group_id, c.generation"))
    with Memory(db_path, engine=ENGINE) as again:         # stored: a new process reads the same counters
        assert {g: again._store.group_generation(g)[0] for g in gens if g != ANY_GROUP} == {
            g: n for g, n in gens.items() if g != ANY_GROUP}


def test_rows_a_rolled_back_write_touched_take_later_writes(db_path):
    # Kùzu 0.11.3 left the versions of rolled-back rows behind: the next write to
    # the same Meta or Slot row failed ("Write-write conflict") or segfaulted in
    # about a third of runs. Eight rounds make a miss of the fix near certain.
    with Memory(db_path, engine=ENGINE, clock=StepClock()) as mem:
        for n in range(8):
            mem.add_fact("Ana", "lives_in", f"Town{n}", group_id="x")
            with pytest.raises(RuntimeError):
                with mem._store.transaction():
                    mem.add_fact("Ana", "lives_in", "Oslo", group_id="x")
                    raise RuntimeError("abort")
            mem.add_fact("Cy", "likes", f"tea{n}", group_id="x")
        assert [f.value for f in mem.as_of("Ana", "lives_in", group_id="x")] == ["Town7"]
        assert mem.check() == []


def test_a_write_to_one_group_keeps_the_other_groups_caches(db_path, models):
    with Memory(db_path, engine=ENGINE, clock=StepClock(), embedder=models[0], nli=models[1]) as mem:
        mem.add_fact("Ana", "drinks", "tea", group_id="x")
        mem.add_fact("Bo", "drinks", "water", group_id="y")
        mem.recall("What does Ana drink?", group_id="x")
        mem.recall("What does Bo drink?", group_id="y")
        ix, iy = (mem._recaller()._indexes[g][1] for g in "xy")
        mem.add_fact("Ana", "drinks", "coffee", group_id="x")
        assert any("coffee" in h.text for h in mem.recall("What does Ana drink?", group_id="x"))
        assert mem._recaller()._indexes["x"][1] is not ix             # rebuilt
        mem.recall("What does Bo drink?", group_id="y")
        assert mem._recaller()._indexes["y"][1] is iy                 # kept


def test_an_old_database_is_upgraded_to_stored_generations(db_path):
    with Memory(db_path, engine=ENGINE, clock=StepClock()) as mem:
        mem.add_fact("Ana", "drinks", "tea", group_id="x")
    as_schema(db_path, 6)
    with Memory(db_path, engine=ENGINE) as mem:
        assert mem._store.meta("schema_version") == str(SCHEMA_VERSION) == "7"
        assert mem._store.group_generation("x") == (0, 0)             # no row yet: generation 0
        mem.add_fact("Ana", "drinks", "coffee", group_id="x")
        assert mem._store.group_generation("x") == (1, 0)
        assert mem.check() == []


_CHILD = r"""
import json, sys
from midas_graph import Memory
path = sys.argv[1]
mem = None
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    cmd = json.loads(line)
    op, g = cmd["op"], cmd.get("group")
    if op == "open":
        mem, out = Memory(path, read_only=True), "open"
    elif op == "close":
        mem.close()
        mem, out = None, "closed"
    elif op == "as_of":
        out = sorted(str(f.value) for f in mem.as_of("Ana", group_id=g))
    elif op == "recall":
        out = [h.text for h in mem.recall(cmd["query"], k=5, group_id=g)]
    elif op == "context":
        out = mem.context(cmd["query"], group_id=g).text
    elif op == "state":  # after a read: the generations it read, and its recall index
        idx = mem._recaller()._indexes.get(g)
        out = {"generation": list(mem._store.group_generation(g)), "index": id(idx[1]) if idx else None}
    print(json.dumps(out), flush=True)
"""


class Reader(JsonChild):
    """A child process that reads the file read-only; ready when it says so."""

    def __init__(self, path: str) -> None:
        super().__init__(_CHILD, path)
        assert self.line() == {"ready": True}


def _reads(reader: Reader, g: str) -> tuple:
    return (reader.ask(op="as_of", group=g), reader.ask(op="recall", group=g, query="What does Ana drink?"),
            reader.ask(op="context", group=g, query="What does Ana drink?"))


def _cli_add_fact(db: str, *args: str) -> None:
    """Another process that opens the file, writes and closes it (the CLI)."""
    out = subprocess.run([sys.executable, "-m", "midas_graph.cli", "--db", db, "--engine", ENGINE, "add-fact", *args],
                         capture_output=True, text=True, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr


def test_another_process_sees_each_commit_at_its_next_read(db_path):
    """B reads (as_of, recall, context); A writes and commits; B's next reads
    see it. LadybugDB: B keeps the file open beside A, a long-lived writer (a
    server, a shard actor), and keeps the caches of the group A did not
    write. Kùzu opens no reader beside a writer: B opens for each round,
    and A is a process that opens, writes and closes (the CLI)."""
    w = Memory(db_path, engine=ENGINE)
    w.add_fact("Ana", "drinks", "tea", group_id="x")
    w.add_fact("Ana", "drinks", "water", group_id="y")
    if ENGINE == "kuzu":
        w.close()
    reader = Reader(db_path)
    try:
        reader.ask(op="open")
        as_of, hits, text = _reads(reader, "x")
        assert as_of == ["tea"] and not any("coffee" in h for h in hits) and "coffee" not in text
        _reads(reader, "y")
        x0, y0 = reader.ask(op="state", group="x"), reader.ask(op="state", group="y")
        if ENGINE == "kuzu":
            reader.ask(op="close")
            _cli_add_fact(db_path, "Ana", "drinks", "coffee", "--group", "x")
            reader.ask(op="open")
        else:
            w.add_fact("Ana", "drinks", "coffee", group_id="x")     # committed after B read
        as_of, hits, text = _reads(reader, "x")
        assert as_of == ["coffee", "tea"] and any("coffee" in h for h in hits) and "coffee" in text
        assert _reads(reader, "y")[0] == ["water"]
        x1, y1 = reader.ask(op="state", group="x"), reader.ask(op="state", group="y")
        assert x1["generation"] == [x0["generation"][0] + 1, x0["generation"][1]]
        assert y1["generation"] == y0["generation"]
        if ENGINE != "kuzu":
            assert x1["index"] != x0["index"] and y1["index"] == y0["index"]  # only x's index was rebuilt
    finally:
        reader.close()
        w.close()
