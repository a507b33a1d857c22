"""SIGKILL a writer in the middle of bulk add_facts, many times: only whole
batches survive, every acknowledged batch survives, and no belief is closed
without its successor."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap

import pytest
from conftest import ENGINE

from midas_graph import Memory

pytestmark = [pytest.mark.engine, pytest.mark.slow]

BATCH = 300
WRITER = textwrap.dedent(
    """
    import datetime as dt
    import sys
    from midas_graph import Memory
    path, engine, run, batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    mem = Memory(path, engine=engine)
    start = dt.datetime(2010 + run, 1, 1)
    print("ready", flush=True)
    done = 0
    while True:  # until killed: each row moves one of 50 people, superseding the previous city
        rows = [
            {"subject": f"person{i % 50}", "attribute": "lives_in", "value": f"city{run}-{i}",
             "valid_from": start + dt.timedelta(seconds=i)}
            for i in range(done, done + batch * 5)
        ]
        mem.add_facts(rows, batch_size=batch)  # 5 transactions
        done += len(rows)
        print("acked", done, flush=True)
    """
)


def check(path: str) -> int:
    with Memory(path, engine=ENGINE) as mem:
        facts = mem._store.facts_of(None, group_id="default")
        assert mem.check() == [], "the database's invariants broke"
    ids = {f.id for f in facts}
    firsts = [f for f in facts if f.version == 1]
    assert len(firsts) % BATCH == 0, f"{len(firsts)} facts is not a whole number of batches"
    for f in facts:
        if f.superseded_by is not None:
            assert f.superseded_by in ids, "a belief was closed but its successor is missing"
        assert all(s in ids for s in f.supersedes)
    vids = {f.vid for f in facts}
    for f in facts:
        if f.expired_at is not None and not (f.expire_reason or "").startswith("retracted"):
            assert f"{f.id}:{f.version + 1}" in vids, f"{f.vid} expired without a next version"
    return len(firsts)


def test_sigkill_during_bulk_ingest_keeps_whole_acknowledged_batches(tmp_path):
    """The writer never finishes on its own; it is killed after a random
    number of acknowledged calls (1 to 6), while it writes the next one: the
    kill point depends on the acknowledgements read, not on the machine's
    speed."""
    path = str(tmp_path / "killed.db")
    rng = random.Random(7)
    stored = 0
    for run in range(5):  # five kills at random points; each reopens what the last left
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, path, ENGINE, str(run), str(BATCH)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        try:
            assert child.stdout.readline().strip() == "ready", child.stderr.read()
            wanted, acked = rng.randint(1, 6), 0
            for _ in range(wanted):
                line = child.stdout.readline()
                assert line.startswith("acked"), (line, child.stderr.read())
                acked = int(line.split()[1])
            os.kill(child.pid, signal.SIGKILL)  # somewhere in the next call's transactions
            assert child.wait() == -signal.SIGKILL
            for line in child.stdout.read().splitlines():  # acknowledged before it died
                if line.startswith("acked"):
                    acked = int(line.split()[1])
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            child.stdout.close()
            child.stderr.close()
        now = check(path)
        assert now >= stored + acked, f"acknowledged writes were lost ({now} < {stored} + {acked})"
        assert now <= stored + acked + 5 * BATCH, "more was stored than the writer was asked to write"
        stored = now
    assert stored > 0
