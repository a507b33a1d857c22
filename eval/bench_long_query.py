"""Bounded work per request: 1 MB queries to recall, context and the MCP
search tools at 10k facts, and what they cost other clients' reads.

    python eval/bench_long_query.py [--facts 10000] [--runs 5] [--out eval/results/bench_long_query.json]

Prints one JSON document. Not a test: the target (issue 21, item 12) is
checked by reading it: a 1 MB query returns within 2 s at 10k facts, and
other clients' ``as_of`` is not starved meanwhile.

Method. One on-disk memory of ``--facts`` synthetic facts about people (the
generator of eval/bench_context.py) and 200 chat turns (``add_episodes``) is
built, and its recall index warmed. A long query is a question followed by
filler made of the memory's own fact sentences (many distinct terms that
all occur in the memory: the worst case for BM25 and the graph walk), cut
to 2,000 characters (``MAX_QUERY_CHARS``, where the cut begins), 200 KB and
1 MB.

* Library: ``recall(k=10)`` and ``context(512)`` in process, per query
  length, median over ``--runs`` calls (each a new string), with the same
  question alone as the same-run baseline.
* MCP: ``midas-graph serve-mcp --http`` on the same file (the readiness
  line it prints is waited for). Client A calls ``as_of`` back to back,
  first alone (``--runs`` x 10 calls), then while client B (another
  session, another thread) sends 1 MB ``search_memory_facts`` and
  ``get_context`` calls in turn (``--runs`` each); B's round trips and A's
  ``as_of`` latency alone and meanwhile are reported (p50, p95, max).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import anyio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

SIZES = {"question": 0, "2k": 2_000, "200k": 200_000, "1m": 1_000_000}
TARGET_S = 2.0


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


def summary(xs: list[float], unit: float = 1.0, nd: int = 3) -> dict:
    return {"n": len(xs), "p50": round(statistics.median(xs) * unit, nd), "p95": round(pct(xs, 0.95) * unit, nd),
            "max": round(max(xs) * unit, nd)}


def long_query(question: str, size: int, filler: list[str], rng: random.Random) -> str:
    if size == 0:
        return question
    parts, n = [question], len(question)
    while n < size:
        s = rng.choice(filler)
        parts.append(s)
        n += len(s) + 1
    return " ".join(parts)[:size]


def build(path: str, facts: int, engine: str | None, rng: random.Random) -> tuple[dict, list[str], list[str]]:
    import bench_context as bc

    from midas_graph import Memory

    ppl, cos = bc.people(max(200, facts // 25)), bc.companies()
    rows = list(bc.fact_rows(0, facts, ppl, cos, rng))
    started = time.perf_counter()
    with Memory(path, engine=engine) as mem:
        mem.add_episodes(bc.episode_rows(200, ppl, rng), progress=False)
        mem.add_facts(rows, progress=False)
        t = time.perf_counter()
        mem.recall("warm up the index", k=10)  # embeds the facts once and stores their vectors
        built = {"build_s": round(time.perf_counter() - started, 1), "index_build_s": round(time.perf_counter() - t, 1),
                 **mem.stats()}
    people = sorted({r["subject"] for r in rows if r["attribute"] == "lives_in"})
    return built, people, [r["text"] for r in rows]


def library(path: str, engine: str | None, people: list[str], filler: list[str], runs: int,
            rng: random.Random) -> dict:
    from midas_graph import Memory

    out: dict = {}
    with Memory(path, engine=engine) as mem:
        mem.context("warm up: where does anyone live?")
        for label, size in SIZES.items():
            rec, ctx, cut = [], [], set()
            for _ in range(runs):
                q = long_query(f"Where does {rng.choice(people)} live these days?", size, filler, rng)
                t = time.perf_counter()
                hits = mem.recall(q, k=10)
                rec.append(time.perf_counter() - t)
                q = long_query(f"What does {rng.choice(people)} do for a living?", size, filler, rng)
                t = time.perf_counter()
                c = mem.context(q, budget_tokens=512)
                ctx.append(time.perf_counter() - t)
                cut.add((bool(hits and hits[0].query_truncated), c.query_truncated))
            out[label] = {"chars": size or "question", "recall_s": summary(rec), "context_s": summary(ctx),
                          "truncated (recall, context)": sorted(cut)}
    base_r, base_c = out["question"]["recall_s"]["p50"], out["question"]["context_s"]["p50"]
    for label in SIZES:
        out[label]["recall / question"] = round(out[label]["recall_s"]["p50"] / base_r, 2)
        out[label]["context / question"] = round(out[label]["context_s"]["p50"] / base_c, 2)
    return out


async def _client_loop(url: str, calls: list[tuple[str, dict]], times: list[float], errors: list[str],
                       stop: threading.Event | None = None) -> None:
    from mcp import Client

    async with Client(url) as c:
        i = 0
        while (stop is None and i < len(calls)) or (stop is not None and not stop.is_set()):
            tool, args = calls[i % len(calls)]
            t = time.perf_counter()
            r = await c.call_tool(tool, args)
            times.append(time.perf_counter() - t)
            if r.is_error:
                errors.append(f"{tool}: {r.content[0].text[:200]}")
            i += 1


def mcp(path: str, engine: str | None, people: list[str], filler: list[str], runs: int, rng: random.Random) -> dict:
    from bench_mcp_load import ServerProcess, free_port

    log = Path(path).with_suffix(".server.log")
    server = ServerProcess(path, free_port(), log, engine)
    try:
        startup = server.wait_ready()
        url = server.url
        as_of = [("as_of", {"subject": p}) for p in rng.sample(people, 20)]
        errors: list[str] = []
        # warm: the server's first search builds its recall index
        anyio.run(_client_loop, url, [("search_memory_facts", {"query": "where does anyone live?"}),
                                      ("get_context", {"query": "where does anyone live?"})], [], errors)
        alone: list[float] = []
        anyio.run(_client_loop, url, as_of * (runs * 10 // len(as_of) + 1), alone, errors)
        long_calls = []
        for _ in range(runs):
            long_calls.append(("search_memory_facts", {
                "query": long_query(f"Where does {rng.choice(people)} live?", SIZES["1m"], filler, rng)}))
            long_calls.append(("get_context", {
                "query": long_query(f"Who is {rng.choice(people)}'s manager?", SIZES["1m"], filler, rng)}))
        during: list[float] = []
        long_times: list[float] = []
        stop = threading.Event()
        reader = threading.Thread(target=anyio.run, args=(_client_loop, url, as_of, during, errors, stop))
        reader.start()
        try:
            anyio.run(_client_loop, url, long_calls, long_times, errors)
        finally:
            stop.set()
            reader.join()
    finally:
        rc = server.stop()
    search, context = long_times[0::2], long_times[1::2]
    return {
        "server_startup_s": round(startup, 2),
        "search_memory_facts_1mb_s": summary(search),
        "get_context_1mb_s": summary(context),
        "as_of_alone_ms": summary(alone, 1000, 1),
        "as_of_during_long_requests_ms": summary(during, 1000, 1),
        "as_of_p95 during / alone": round(pct(during, 0.95) / pct(alone, 0.95), 2),
        "errors": errors[:10],
        "server_exit_code": rc,
    }


def run(facts: int = 10_000, runs: int = 5, engine: str | None = None, seed: int = 0) -> dict:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="bench_long_query_") as tmp:
        path = os.path.join(tmp, "long.db")
        built, people, filler = build(path, facts, engine, rng)
        lib = library(path, engine, people, filler, runs, rng)
        server = mcp(path, engine, people, filler, runs, rng)
    worst = max(lib["1m"]["recall_s"]["max"], lib["1m"]["context_s"]["max"],
                server["search_memory_facts_1mb_s"]["max"], server["get_context_1mb_s"]["max"])
    return {
        "facts": facts,
        "engine": engine or os.environ.get("MIDAS_GRAPH_ENGINE", "ladybug"),
        "runs": runs,
        "database": built,
        "library": lib,
        "mcp_http": server,
        "target": {"1 MB query <= 2 s (slowest call)": worst <= TARGET_S, "slowest_s": worst},
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cpu_count": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--facts", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--engine", default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="also write the JSON here (e.g. eval/results/bench_long_query.json)")
    args = ap.parse_args(argv)
    report = run(args.facts, args.runs, args.engine, args.seed)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
