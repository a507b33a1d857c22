"""Concurrency load test of the MCP server over streamable HTTP.

    python eval/bench_mcp_load.py [--seconds 60] [--clients 8] [--write-share 0.3]
                                  [--engine ladybug] [--out eval/results/bench_mcp_load.json]

Prints one JSON document.

Method. ``midas-graph serve-mcp --http PORT`` runs as its own process on a
fresh database on 127.0.0.1. A few seed episodes go in first. Then
``--clients`` MCP clients (the SDK's ``Client``, one session each, all in one
event loop) call tools back to back for ``--seconds``: with probability
``--write-share`` an ``add_memory`` of a unique marker sentence
("Nadia Kalomiren lives in Porto." — a name no other write uses), otherwise a
read picked evenly among ``search_memory_facts``, ``get_context`` and
``as_of`` about a person already written. Every call's round trip is timed on
the client; a tool error or an exception counts as an error.

No lost writes. After the run, every acknowledged ``add_memory`` is checked:
its episode must be listed by ``get_episodes``, and the fact it reported must
come back from ``get_entity_edge`` and from ``as_of(name, "lives_in",
valid_at=<its valid_from>)``. The server is then stopped (SIGINT, a clean
shutdown), started again on the same file, and the same check runs against
the reopened database (durability).

The machine is shared (2 cores, noisy); ingest (spaCy + MiniLM + NLI) is CPU
bound and the store serialises writes, so throughput is what two cores give.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

FIRST = ["Nadia", "Omar", "Priya", "Kenji", "Lucia", "Marcus", "Ingrid", "Tomas", "Amara", "Felix",
         "Hana", "Diego", "Layla", "Jonas", "Mei", "Ravi"]
SYLLABLES = ["ka", "lo", "mi", "ren", "tor", "vas", "bel", "dun"]
CITIES = ["Lisbon", "Porto", "Berlin", "Madrid", "Vienna", "Prague", "Oslo", "Dublin", "Lyon", "Turin"]
READS = ("search_memory_facts", "get_context", "as_of")
SEED = ["I live in Berlin.", "My favorite food is ramen.", "I work at Siemens.", "Maria lives in Porto."]


def marker_name(client: int, n: int) -> str:
    """A pronounceable surname unique to (client, n): n in base 8, one syllable a digit."""
    surname = "".join(SYLLABLES[int(d)] for d in f"{n:04o}").capitalize()
    return f"{FIRST[client % len(FIRST)]} {surname}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


class ServerProcess:
    """``midas-graph serve-mcp --http`` as a child process (stopped by its own pid)."""

    def __init__(self, db: str, port: int, log: Path, engine: str | None, where: list[str] | None = None) -> None:
        """``where``: the memory's arguments (default ``--db DB``; a sharded
        server: ``--dir D --shards N``)."""
        import threading

        self.url = f"http://127.0.0.1:{port}/mcp"
        env = dict(os.environ)
        if engine:
            env["MIDAS_GRAPH_ENGINE"] = engine
        self._log = log.open("a")
        self._t0 = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "midas_graph.cli", "serve-mcp", *(where or ["--db", db]), "--http", str(port)],
            cwd=str(ROOT), env=env, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.PIPE,
        )
        self._ready = threading.Event()
        self._ready_at: float | None = None
        self._tee = threading.Thread(target=self._copy_stderr, daemon=True)
        self._tee.start()

    def _copy_stderr(self) -> None:
        """The server's stderr into the log; the readiness line it writes once
        it listens sets ``_ready`` (so does its exit)."""
        from midas_graph._mcp import READY

        for raw in iter(self.proc.stderr.readline, b""):
            line = raw.decode(errors="replace")
            self._log.write(line)
            self._log.flush()
            if line.startswith(READY) and self._ready_at is None:
                self._ready_at = time.monotonic()
                self._ready.set()
        self._ready.set()

    def wait_ready(self) -> float:
        """Seconds from the start until the server said it was ready (it
        listens); no polling, no clock in the decision."""
        self._ready.wait()
        if self._ready_at is None:
            raise RuntimeError(f"server exited with {self.proc.wait()} before it was ready")
        return self._ready_at - self._t0

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=300)  # a guard against a hang only
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._tee.join()
        self.proc.stderr.close()
        self._log.close()
        return self.proc.returncode


async def _status(url: str) -> dict:
    from mcp import Client

    async with Client(url) as c:
        r = await c.call_tool("get_status", {})
        if r.is_error:
            raise RuntimeError(r.content[0].text)
        return r.structured_content


async def _call(c, tool: str, args: dict, rec: dict) -> dict | None:
    t0 = time.perf_counter()
    try:
        r = await c.call_tool(tool, args)
    except Exception as exc:  # transport failure
        rec["latency"].setdefault(tool, []).append((time.perf_counter() - t0) * 1000)
        rec["errors"].append(f"{tool}: {type(exc).__name__}: {exc}"[:300])
        return None
    rec["latency"].setdefault(tool, []).append((time.perf_counter() - t0) * 1000)
    if r.is_error:
        rec["errors"].append(f"{tool}: {r.content[0].text}"[:300])
        return None
    return r.structured_content


async def _worker(url: str, client: int, deadline: float, write_share: float, rec: dict, seed: int,
                  min_calls: int = 0, group: str | None = None) -> None:
    """``group``: this client's group (default: the server's)."""
    from mcp import Client

    scope = {"group_id": group} if group else {}

    rng = random.Random(seed * 1000 + client)
    known = ["user", "Maria"]
    n = 0

    def more() -> bool:
        """Until the deadline, and on until this client has made ``min_calls``
        calls of each tool (so that a slow machine still exercises them all)."""
        return time.monotonic() < deadline or any(
            len(rec["latency"].get(t, ())) < min_calls for t in ("add_memory", *READS))

    async with Client(url) as c:
        while more():
            if rng.random() < write_share:
                name = marker_name(client, n)
                city = CITIES[n % len(CITIES)]
                out = await _call(c, "add_memory", {
                    "name": f"probe-{client}-{n}", "episode_body": f"{name} lives in {city}.",
                    "source_description": "bench_mcp_load", **scope,
                }, rec)
                if out is not None:
                    facts = [f for f in out["facts"] if f["attribute"] == "lives_in"]
                    rec["writes"].append({
                        "name": name, "city": city, "group": group, "episode_id": out["episode"]["id"],
                        "fact_id": facts[0]["id"] if facts else None,
                        "valid_from": facts[0]["valid_from"] if facts else None,
                    })
                    if facts:
                        known.append(facts[0]["subject"])
                n += 1
            else:
                tool = READS[rng.randrange(len(READS))]
                who = rng.choice(known)
                if tool == "search_memory_facts":
                    await _call(c, tool, {"query": f"Where does {who} live?", "max_facts": 5,
                                          **({"group_ids": [group]} if group else {})}, rec)
                elif tool == "get_context":
                    await _call(c, tool, {"query": f"Where does {who} live?", "budget_tokens": 256, **scope}, rec)
                else:
                    await _call(c, tool, {"subject": who, **scope}, rec)


async def _load(url: str, clients: int, seconds: float, write_share: float, seed: int,
                min_calls: int = 0, groups: list[str] | None = None) -> tuple[list[dict], float]:
    recs = [{"latency": {}, "errors": [], "writes": []} for _ in range(clients)]
    t0 = time.monotonic()
    deadline = t0 + seconds
    async with anyio.create_task_group() as tg:
        for i in range(clients):
            tg.start_soon(_worker, url, i, deadline, write_share, recs[i], seed, min_calls,
                          groups[i % len(groups)] if groups else None)
    return recs, time.monotonic() - t0


async def _seed(url: str, groups: list[str] | None = None) -> None:
    from mcp import Client

    async with Client(url) as c:
        for g in groups or [None]:
            for i, text in enumerate(SEED):
                r = await c.call_tool("add_memory", {"name": f"seed-{i}", "episode_body": text,
                                                     **({"group_id": g} if g else {})})
                if r.is_error:
                    raise RuntimeError(r.content[0].text)


async def _verify(url: str, writes: list[dict], workers: int = 8, groups: list[str] | None = None) -> dict:
    """Every acknowledged write: its episode listed, its fact found by id and by as_of."""
    from mcp import Client

    lost: list[str] = []
    async with Client(url) as c:
        r = await c.call_tool("get_episodes", {"max_episodes": 100_000, **({"group_ids": groups} if groups else {})})
        if r.is_error:
            raise RuntimeError(r.content[0].text)
        listed = {e["id"] for e in r.structured_content["episodes"]}
    for w in writes:
        if w["episode_id"] not in listed:
            lost.append(f"episode {w['episode_id']} ({w['name']}) not listed")
    with_fact = [w for w in writes if w["fact_id"]]

    async def check(chunk: list[dict]) -> None:
        async with Client(url) as c:
            for w in chunk:
                r = await c.call_tool("get_entity_edge", {"uuid": w["fact_id"]})
                if r.is_error or r.structured_content["value"] != w["city"]:
                    lost.append(f"fact {w['fact_id']} ({w['name']}): get_entity_edge "
                                f"{r.content[0].text[:120] if r.is_error else r.structured_content['value']}")
                    continue
                r = await c.call_tool("as_of", {"subject": w["name"], "attribute": "lives_in",
                                                "valid_at": w["valid_from"],
                                                **({"group_id": w["group"]} if w.get("group") else {})})
                ids = [] if r.is_error else [f["id"] for f in r.structured_content["facts"]]
                if w["fact_id"] not in ids:
                    lost.append(f"fact {w['fact_id']} ({w['name']}): not in as_of at {w['valid_from']}")

    async with anyio.create_task_group() as tg:
        for i in range(workers):
            tg.start_soon(check, with_fact[i::workers])
    return {"episodes_listed": len(listed), "writes_checked": len(writes), "facts_checked": len(with_fact),
            "lost": lost}


def run(seconds: float = 60, clients: int = 8, db: str | None = None, *, write_share: float = 0.3,
        engine: str | None = None, seed: int = 0, port: int | None = None, min_calls: int = 0,
        shards: int | None = None, groups: list[str] | None = None) -> dict:
    """``min_calls``: each client goes on past ``seconds`` until it has made
    that many calls of each tool (the test uses it: its assertions must not
    depend on how fast the machine is). ``shards``: serve a sharded memory
    of that many files in the directory ``db`` (one Ray actor per file,
    eval/bench_cluster.py); ``groups``: client i uses ``groups[i % len]``."""
    tmp = tempfile.mkdtemp(prefix="mcp_load_")
    db = db or os.path.join(tmp, "load" if shards else "load.db")
    where = ["--dir", db, "--shards", str(shards)] if shards else None
    log = Path(tmp) / "server.log"
    port = port or free_port()
    server = ServerProcess(db, port, log, engine, where)
    try:
        startup_s = server.wait_ready()
        anyio.run(_seed, server.url, groups)
        recs, elapsed = anyio.run(_load, server.url, clients, seconds, write_share, seed, min_calls, groups)
        writes = [w for r in recs for w in r["writes"]]
        live = anyio.run(_verify, server.url, writes, 8, groups)
    finally:
        rc = server.stop()
    restarted = ServerProcess(db, port, log, engine, where)
    try:
        restarted.wait_ready()
        durable = anyio.run(_verify, restarted.url, writes, 8, groups)
    finally:
        rc2 = restarted.stop()

    latency: dict[str, list[float]] = {}
    for r in recs:
        for tool, xs in r["latency"].items():
            latency.setdefault(tool, []).extend(xs)
    errors = [e for r in recs for e in r["errors"]]
    ops = sum(len(xs) for xs in latency.values())
    lost = live["lost"] + [f"after restart: {x}" for x in durable["lost"]]
    report = {
        "clients": clients,
        **({"shards": shards, "groups": groups} if shards else {}),
        "seconds": round(elapsed, 2),
        "write_share": write_share,
        "engine": engine or os.environ.get("MIDAS_GRAPH_ENGINE", "ladybug"),
        "transport": "streamable-http (127.0.0.1)",
        "server_startup_s": round(startup_s, 2),
        "ops": ops,
        "ops_per_s": round(ops / elapsed, 2),
        "errors": len(errors),
        "error_samples": errors[:10],
        "writes_acknowledged": len(writes),
        "writes_with_fact": sum(1 for w in writes if w["fact_id"]),
        "writes_per_s": round(len(writes) / elapsed, 2),
        "latency_ms": {
            tool: {"n": len(xs), "p50": round(statistics.median(xs), 1), "p95": round(percentile(xs, 0.95), 1),
                   "max": round(max(xs), 1)}
            for tool, xs in sorted(latency.items())
        },
        "verified_live": {k: v for k, v in live.items() if k != "lost"},
        "verified_after_restart": {k: v for k, v in durable.items() if k != "lost"},
        "lost_writes": len(lost),
        "lost_samples": lost[:10],
        "server_exit_codes": [rc, rc2],
        "cpu_count": os.cpu_count(),
    }
    if errors or lost:
        report["server_log_tail"] = log.read_text()[-2000:]
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--write-share", type=float, default=0.3)
    ap.add_argument("--engine", default=None)
    ap.add_argument("--db", default=None, help="database file (default: a fresh temporary one)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="also write the JSON here (e.g. eval/results/bench_mcp_load.json)")
    args = ap.parse_args(argv)
    report = run(args.seconds, args.clients, args.db, write_share=args.write_share, engine=args.engine,
                 seed=args.seed)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
    return 0 if report["errors"] == 0 and report["lost_writes"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
