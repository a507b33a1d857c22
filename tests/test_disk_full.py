"""A full disk: every path ends with a clear MidasError and a non-zero exit,
never an abort, no acknowledged write is lost, and the database works again
once there is space. On a small tmpfs; skipped where one cannot be mounted.

The risky parts run in child processes: an engine that aborts (measured
before the fix: exit 134 from an IOException thrown in a destructor at
close) fails the test instead of killing pytest."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ENGINE

from midas_graph import Memory
from midas_graph._digest import damaged

pytestmark = [pytest.mark.engine, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
BATCH = 200
#: Writes batches of facts until the disk is full, prints each acknowledged
#: batch, then tries once more and closes: the exit code says how close ended.
WRITER = textwrap.dedent(
    """
    import sys
    from midas_graph import Memory, MidasError
    mem = Memory(sys.argv[1], engine=sys.argv[2])
    batch = int(sys.argv[3])
    for b in range(100_000):
        rows = [{"subject": f"b{b}-{i}", "attribute": "likes", "value": f"value {b} {i} " + "x" * 40}
                for i in range(batch)]
        try:
            mem.add_facts(rows)
        except MidasError as exc:
            print("failed", exc, flush=True)
            break
        print("acked", b, flush=True)
    try:
        mem.add_fact("one", "likes", "more")
    except MidasError as exc:
        print("refused", exc, flush=True)
    try:
        mem.close()
    except MidasError as exc:
        print("close failed", exc, flush=True)
        sys.exit(1)
    print("closed", flush=True)
    """
)


@pytest.fixture
def small_disk(tmp_path):
    """A 48 MB tmpfs, 40 MB of it taken by a file the test can delete."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", str(mnt)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): {done.stderr.strip()}")
    try:
        with open(mnt / "filler", "wb") as fp:
            fp.write(b"\0" * (40 << 20))
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "midas_graph.cli", "--engine", ENGINE, *args], cwd=str(ROOT),
                          input=stdin, capture_output=True, text=True, timeout=300)


def assert_clear_failure(done: subprocess.CompletedProcess) -> None:
    """Exit 1 with one clear line, not an abort (134) or a segfault (139)."""
    text = done.stdout + done.stderr
    assert done.returncode == 1, f"exit {done.returncode}: {text[-2000:]}"
    assert "terminate called" not in text and "Traceback" not in text, text[-2000:]
    assert "error:" in done.stderr and ("full disk" in done.stderr or "No space left" in done.stderr), done.stderr[-2000:]


def mcp_shutdown(db: str) -> subprocess.CompletedProcess:
    """Start the stdio MCP server, wait for its answer to `initialize` (it is
    ready), ask it to write and wait for the answer, then SIGTERM it."""
    proc = subprocess.Popen([sys.executable, "-m", "midas_graph.cli", "--engine", ENGINE, "serve-mcp", "--db", db],
                            cwd=str(ROOT), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        def send(msg: dict) -> None:
            proc.stdin.write(json.dumps(msg) + "\n")
            proc.stdin.flush()

        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}})
        assert json.loads(proc.stdout.readline())["id"] == 1, proc.stderr.read()
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "add_triplet", "arguments": {"source_node_name": "Ada", "edge_name": "likes",
                                                  "target_node_name": "tea"}}})
        reply = json.loads(proc.stdout.readline())  # refused, or fitted in blocks the log already had
        assert reply["id"] == 2, reply
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_a_full_disk_fails_clearly_everywhere_and_loses_no_acknowledged_write(small_disk, tmp_path):
    db = str(small_disk / "m.db")
    writer = subprocess.run([sys.executable, "-c", WRITER, db, ENGINE, str(BATCH)], capture_output=True,
                            text=True, timeout=600)
    out = writer.stdout
    acked = [int(line.split()[1]) for line in out.splitlines() if line.startswith("acked")]
    assert writer.returncode == 1, f"exit {writer.returncode}: {out[-1500:]} {writer.stderr[-1500:]}"
    assert "terminate called" not in writer.stderr, writer.stderr[-2000:]
    assert len(acked) >= 5, out[-1500:]
    failed = next(line for line in out.splitlines() if line.startswith("failed"))
    assert "full disk" in failed and "not acknowledged" in failed, failed
    assert "refused" in out and "out of service" in out, out[-1500:]
    assert "close failed cannot close cleanly" in out and "write-ahead log" in out, out[-1500:]

    # still full: each CLI write path ends with one clear error line and exit 1
    assert_clear_failure(cli("--db", db, "add-fact", "Bob", "likes", "tea"))
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps({"subject": f"imp{i}", "attribute": "likes", "value": "x" * 200}) + "\n"
                            for i in range(5000)))
    assert_clear_failure(cli("--db", db, "import", str(rows)))
    # and so does the MCP server's shutdown (its write was refused)
    shutdown = mcp_shutdown(db)
    assert shutdown.returncode != 0 and shutdown.returncode not in (-6, 134, -11, 139), \
        f"exit {shutdown.returncode}: {shutdown.stderr[-2000:]}"
    assert "terminate called" not in shutdown.stderr and "full disk" in shutdown.stderr, shutdown.stderr[-2000:]

    # space again: every acknowledged batch is there, nothing is damaged, writes work
    os.remove(small_disk / "filler")
    with Memory(db, engine=ENGINE) as mem:
        names = {e.name for e in mem.entities()}
        missing = [b for b in acked if not {f"b{b}-0", f"b{b}-{BATCH - 1}"} <= names]
        assert missing == [], f"acknowledged batches lost: {missing}"
        assert mem.stats()["Fact"] >= len(acked) * BATCH
        assert damaged(mem._store) == []
        mem.add_fact("after", "likes", "space")
    with Memory(db, engine=ENGINE) as mem:
        assert [f.value for f in mem.current("after")] == ["space"]
    done = cli("--db", db, "add-fact", "Bob", "likes", "tea")
    assert done.returncode == 0, done.stderr
