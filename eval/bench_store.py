"""Benchmark of the fact store: bulk ingest, as_of and history latency, memory.

Prints one JSON document. Not a test: targets are checked by reading it.

    python eval/bench_store.py                       # both engines, 10k/100k/1M
    python eval/bench_store.py --engine ladybug --sizes 10000,100000

Method. One database grows through the sizes (10k, then 100k, then 1M stored
facts). Twenty *probe* subjects hold 50 beliefs each (with supersessions) and
are written first; the rest are filler facts over N/100 other subjects. So
the probe subjects' own history stays the same size while the database grows,
and the as_of latency at 10k vs 1M shows the dependence on database size
alone. Each latency figure is the median over ``--runs`` runs of the p50/p95
of ``--queries`` queries, and is also given as a ratio to a primary-key
lookup measured in the same run (these machines are shared and noisy).
Each engine runs in its own process (the two cannot share one).

Storage per memory (``small_memory`` in each engine's report; ``--small-only``
runs just it): the bytes on disk of small memories of chat turns
(eval/retention.py's synthetic history), each written in one session and
closed (the engine checkpoints on close): empty, 1, 50 and 600 turns; the
same 50 turns written in 10 sessions of 5 (a CLI's pattern: every close
checkpoints); the 50 turns rebuilt into a fresh file by export and import;
bytes per episode ((600 turns - 50 turns) / 550) and per fact ((11,000 facts -
1,000 facts) / 10,000, ``add_facts``); and, for the 50-turn file, the pages of
each table's column chunks (``storage_info``), where the floor comes from.
See docs/forgetting.md, "Storage per memory".
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

UTC = dt.timezone.utc
T0 = dt.datetime(2020, 1, 1, tzinfo=UTC)
SINGLE = ["lives_in", "employer", "job_title", "status", "age"]
MULTI = [f"tag_{i}" for i in range(10)] + ["likes", "speaks", "knows", "has", "visited"]
PROBES = 20


def rss_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20


def peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def filler_rows(start: int, stop: int, n_subjects: int, rng: random.Random):
    for i in range(start, stop):
        attr = rng.choice(SINGLE + MULTI)
        yield {
            "subject": f"subject-{rng.randrange(n_subjects)}",
            "attribute": attr,
            "value": f"value-{rng.randrange(50)}",
            "valid_from": T0 + dt.timedelta(minutes=i),
        }


def probe_rows(rng: random.Random):
    rows = []
    for p in range(PROBES):
        for j in range(50):
            rows.append({
                "subject": f"probe-{p}",
                "attribute": SINGLE[j % len(SINGLE)] if j % 2 else MULTI[j % len(MULTI)],
                "value": f"v{j}-{rng.randrange(5)}",
                "valid_from": T0 + dt.timedelta(days=j * 7),
            })
    return rows


def percentiles(samples: list[float]) -> tuple[float, float]:
    s = sorted(samples)
    return s[len(s) // 2], s[min(len(s) - 1, int(len(s) * 0.95))]


def timed(fn, args_list) -> list[float]:
    out = []
    for args in args_list:
        t = time.perf_counter()
        fn(*args)
        out.append((time.perf_counter() - t) * 1e3)
    return out


def measure_queries(mem, rng: random.Random, queries: int, runs: int) -> dict:
    from midas_graph._store import alias_key

    store = mem._store
    probe_ids = [store.lookup_names([alias_key("default", f"probe-{p}")]).popitem()[1] for p in range(PROBES)]
    result: dict[str, list] = {"as_of": [], "history": [], "baseline": []}
    for _ in range(runs):
        subj = [(f"probe-{rng.randrange(PROBES)}",) for _ in range(queries)]
        at = [(s, None) for (s,) in subj]
        at = [(s, T0 + dt.timedelta(days=rng.randrange(0, 400))) for s, _ in at]
        base = timed(lambda i: store.entity(i), [(rng.choice(probe_ids),) for _ in range(queries)])
        asof = timed(lambda s, t: mem.as_of(s, valid_at=t), at)
        hist = timed(lambda s: mem.history(s), subj)
        result["baseline"].append(percentiles(base))
        result["as_of"].append(percentiles(asof))
        result["history"].append(percentiles(hist))
    out = {}
    base50 = statistics.median(p[0] for p in result["baseline"])
    for name, runs_ in result.items():
        p50 = statistics.median(p[0] for p in runs_)
        p95 = statistics.median(p[1] for p in runs_)
        out[name] = {"p50_ms": round(p50, 3), "p95_ms": round(p95, 3)}
        if name != "baseline":
            out[name]["p50_vs_pk_lookup"] = round(p50 / base50, 2)
    return out


def run_engine(engine: str, sizes: list[int], queries: int, runs: int, growth_queries: int, batch: int) -> dict:
    from midas_graph import Memory

    rng = random.Random(42)
    tmp = tempfile.mkdtemp(prefix=f"bench-{engine}-")
    path = os.path.join(tmp, "bench.db")
    now = [dt.datetime(2025, 1, 1, tzinfo=UTC)]

    def clock():
        now[0] += dt.timedelta(seconds=1)
        return now[0]

    report: dict = {"engine": engine, "sizes": {}}
    rss0 = rss_mb()
    with Memory(path, engine=engine, clock=clock) as mem:
        t = time.perf_counter()
        mem.add_facts(probe_rows(rng), batch_size=batch)
        report["probe_ingest_s"] = round(time.perf_counter() - t, 3)
        n_subjects = max(100, sizes[-1] // 100)
        have = PROBES * 50
        for size in sizes:
            # Streamed in calls of 50k rows (as an importer would), results dropped,
            # so that RSS measures the memory, not the benchmark's own lists.
            elapsed = 0.0
            for start in range(have, size, 50_000):
                rows = list(filler_rows(start, min(size, start + 50_000), n_subjects, rng))
                gc.collect()
                t = time.perf_counter()
                mem.add_facts(rows, batch_size=batch, progress=False)
                elapsed += time.perf_counter() - t
                del rows
            stats = mem.stats()
            entry = {
                "ingested": size - have,
                "ingest_facts_per_s": round((size - have) / elapsed) if size > have else None,
                "stored_versions": stats["Fact"],
                "entities": stats["Entity"],
                "rss_mb": round(rss_mb(), 1),
            }
            # Right after a bulk import the log holds up to 128 MB not yet folded into
            # the file; measure there, and again once checkpointed (the steady state).
            entry["after_ingest"] = measure_queries(mem, rng, queries, max(1, runs // 2))
            t = time.perf_counter()
            mem._store.checkpoint()
            entry["checkpoint_s"] = round(time.perf_counter() - t, 2)
            gc.collect()
            entry["rss_after_checkpoint_mb"] = round(rss_mb(), 1)
            entry.update(measure_queries(mem, rng, queries, runs))
            entry["peak_rss_mb"] = round(peak_rss_mb(), 1)
            report["sizes"][str(size)] = entry
            have = size
            print(f"[{engine}] {size}: {json.dumps(entry)}", file=sys.stderr, flush=True)
        # A long-running agent must not grow: RSS across many repeated queries.
        if growth_queries:
            subj = [f"probe-{i % PROBES}" for i in range(growth_queries)]
            for s in subj[:2000]:  # warm caches first
                mem.as_of(s)
            gc.collect()
            before = rss_mb()
            t = time.perf_counter()
            for s in subj:
                mem.as_of(s)
            gc.collect()
            after = rss_mb()
            report["rss_growth"] = {
                "queries": growth_queries,
                "rss_before_mb": round(before, 1),
                "rss_after_mb": round(after, 1),
                "growth_kb_per_1k_queries": round((after - before) * 1024 / (growth_queries / 1000), 2),
                "seconds": round(time.perf_counter() - t, 1),
            }
    report["rss_at_start_mb"] = round(rss0, 1)
    report["peak_rss_mb"] = round(peak_rss_mb(), 1)
    report["db_bytes"] = sum(os.path.getsize(os.path.join(tmp, f)) for f in os.listdir(tmp))
    return report


def _dir_bytes(d: str) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))


def small_memory(engine: str) -> dict:
    """Bytes on disk of small memories (see the module docstring)."""
    import shutil

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import retention

    from midas_graph import Memory, _io

    turns, _ = retention.synthetic_history(7, days=60, turns=600, golds=30)
    out: dict = {"engine": engine, "page_bytes": 4096}

    def fresh(name: str, write, sessions: int = 1) -> tuple[int, str]:
        d = tempfile.mkdtemp(prefix=f"small-{engine}-{name}-")
        path = os.path.join(d, "m.db")
        for s in range(sessions):
            with Memory(path, engine=engine) as mem:
                write(mem, s)
        return _dir_bytes(d), d

    def episodes(rows):
        return lambda mem, s: mem.add_episodes(rows, group_id="g", progress=False) if rows else None

    out["empty_bytes"], d = fresh("empty", lambda mem, s: None)
    shutil.rmtree(d)
    out["turns_1_bytes"], d = fresh("t1", episodes(turns[:1]))
    shutil.rmtree(d)
    out["turns_50_bytes"], d50 = fresh("t50", episodes(turns[:50]))
    with Memory(os.path.join(d50, "m.db"), engine=engine) as mem:
        pages50 = pages = mem._store.storage_pages()
        rows = list(_io.export_rows(mem))
    out["turns_50_pages_by_table"] = dict(sorted(((t, sum(c.values())) for t, c in pages.items() if sum(c.values())),
                                                 key=lambda x: -x[1]))
    out["turns_50_episode_pages_by_column"] = dict(sorted(pages.get("Episode", {}).items(), key=lambda x: -x[1])[:6])
    out["turns_50_pages_in_chunks"] = sum(sum(c.values()) for c in pages.values())
    out["turns_50_file_pages"] = out["turns_50_bytes"] // 4096
    shutil.rmtree(d50)
    out["turns_50_in_10_sessions_bytes"], d = fresh(
        "t50s", lambda mem, s: mem.add_episodes(turns[5 * s:5 * s + 5], group_id="g", progress=False), sessions=10)
    shutil.rmtree(d)
    out["turns_50_rebuilt_bytes"], d = fresh("t50r", lambda mem, s: _io.import_rows(mem, enumerate(rows, 1)))
    shutil.rmtree(d)
    out["turns_600_bytes"], d = fresh("t600", episodes(turns))
    shutil.rmtree(d)
    out["bytes_per_episode"] = round((out["turns_600_bytes"] - out["turns_50_bytes"]) / 550)
    rng = random.Random(7)
    facts = list(filler_rows(0, 11_000, 500, rng))
    out["facts_1000_bytes"], d = fresh("f1k", lambda mem, s: mem.add_facts(facts[:1000], progress=False))
    with Memory(os.path.join(d, "m.db"), engine=engine) as mem:
        pages = mem._store.storage_pages()
    out["facts_1000_pages_by_table"] = dict(sorted(((t, sum(c.values())) for t, c in pages.items()
                                                    if sum(c.values())), key=lambda x: -x[1]))
    # the primary-key hash index of each node table (LadybugDB reports it as the column "_PK")
    out["facts_1000_primary_key_index_pages"] = sum(c.get("_PK", 0) for c in pages.values())
    out["turns_50_primary_key_index_pages"] = sum(c.get("_PK", 0) for c in pages50.values())
    shutil.rmtree(d)
    out["facts_11000_bytes"], d = fresh("f11k", lambda mem, s: mem.add_facts(facts, progress=False))
    shutil.rmtree(d)
    out["bytes_per_fact"] = round((out["facts_11000_bytes"] - out["facts_1000_bytes"]) / 10_000)
    print(f"[{engine}] small memory: {json.dumps(out)}", file=sys.stderr, flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="both", choices=["both", "ladybug", "kuzu"])
    ap.add_argument("--sizes", default="10000,100000,1000000", help="comma-separated stored-fact sizes")
    ap.add_argument("--kuzu-sizes", default="10000,100000",
                    help="sizes for kuzu in --engine both (its ingest slows with size: a 1M run takes hours)")
    ap.add_argument("--queries", type=int, default=300, help="queries per run")
    ap.add_argument("--runs", type=int, default=5, help="runs per figure (median taken)")
    ap.add_argument("--growth-queries", type=int, default=None,
                    help="repeated as_of queries for RSS growth (default 100k on ladybug, 10k on kuzu, "
                         "whose as_of is ~10x slower)")
    ap.add_argument("--batch", type=int, default=20_000, help="add_facts batch size (the library default)")
    ap.add_argument("--out", help="also write the JSON here")
    ap.add_argument("--small-only", action="store_true", help="only the storage per memory (small_memory)")
    ap.add_argument("--no-small", action="store_true", help="skip the storage per memory")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.engine == "both":  # one process per engine
        reports = []
        for engine in ("ladybug", "kuzu"):
            engine_sizes = args.sizes if engine == "ladybug" else args.kuzu_sizes
            cmd = [sys.executable, __file__, "--engine", engine, "--sizes", engine_sizes,
                   "--queries", str(args.queries), "--runs", str(args.runs), "--batch", str(args.batch)]
            if args.growth_queries is not None:
                cmd += ["--growth-queries", str(args.growth_queries)]
            cmd += ["--small-only"] if args.small_only else ["--no-small"] if args.no_small else []
            reports.append(json.loads(subprocess.run(cmd, check=True, capture_output=False,
                                                     stdout=subprocess.PIPE, text=True).stdout))
        result = {"benchmark": "bench_store", "cpus": os.cpu_count(), "engines": reports}
    else:
        growth = args.growth_queries
        if growth is None:
            growth = 100_000 if args.engine == "ladybug" else 10_000
        if args.small_only:
            result = {"engine": args.engine, "small_memory": small_memory(args.engine)}
        else:
            result = run_engine(args.engine, sizes, args.queries, args.runs, growth, args.batch)
            if not args.no_small:
                result["small_memory"] = small_memory(args.engine)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        with open(args.out, "w") as fp:
            fp.write(text + "\n")


if __name__ == "__main__":
    main()
