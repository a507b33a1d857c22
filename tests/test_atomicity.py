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
import threading
import time

import pytest
from conftest import ENGINE

from midas_graph import Memory

pytestmark = [pytest.mark.engine, pytest.mark.slow]

BATCH = 300
WRITER = textwrap.dedent(
    """
    import sys
    from midas_graph import Memory
    path, engine, run, batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    mem = Memory(path, engine=engine)
    # each row moves one of 50 people, superseding the previous city
    rows = [
        {"subject": f"person{i % 50}", "attribute": "lives_in", "value": f"city{run}-{i}",
         "valid_from": f"20{10 + run:02d}-01-01T00:{i // 3600 % 60:02d}:{i // 60 % 60:02d}"}
        for i in range(100 * batch)
    ]
    print("ready", flush=True)
    for start in range(0, len(rows), batch * 5):
        mem.add_facts(rows[start:start + batch * 5], batch_size=batch)  # 5 transactions
        print("acked", start + batch * 5, flush=True)
    """
)


def check(path: str) -> int:
    with Memory(path, engine=ENGINE) as mem:
        facts = mem._store.facts_of(None, group_id="default")
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
    path = str(tmp_path / "killed.db")
    rng = random.Random(7)
    kills, stored = 0, 0
    for run in range(8):
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, path, ENGINE, str(run), str(BATCH)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        acked = [0]

        def read_acks():
            for line in child.stdout:
                if line.startswith("acked"):
                    acked[0] = int(line.split()[1])

        reader = threading.Thread(target=read_acks, daemon=True)
        reader.start()
        time.sleep(rng.uniform(0.2, 2.5))
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
            kills += 1
        child.wait(timeout=60)
        reader.join(timeout=10)
        now = check(path)
        assert now >= stored + acked[0], f"acknowledged writes were lost ({now} < {stored} + {acked[0]})"
        stored = now
    assert kills >= 4, "the writer finished before it could be killed; make the job longer"
    assert stored > 0
