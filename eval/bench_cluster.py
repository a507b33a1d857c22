"""Backfill and serving on a local Ray cluster (issue 20 item 5).

    python eval/bench_cluster.py [--turns 40] [--convs 10] [--runs 3] [--num-cpus 2]
                                 [--mcp-seconds 30] [--no-mcp] [--out eval/results/bench_cluster.json]

Prints one JSON document.

Data. The LoCoMo turns (../shared/data/locomo): the first ``--turns`` turns
of each of ``--convs`` conversations, one group per session of a conversation
(``--group-by conversation``: one per conversation; 10 groups hash unevenly
over 2 shards), written as the JSONL ``midas-graph ingest`` reads and read
back through it.

Backfill. Each run ingests the same file four ways, each into fresh files:
``sequential`` (one Memory in this process, the baseline: what
``midas-graph ingest FILE`` does), and on Ray with 1 worker (1 shard), 2
workers (2 shards), and 2 workers plus the Ray Data embedding pre-pass on 2
workers. The modes rotate from run to run. For each: turns/s (wall time of
the ingest, after the models are loaded: a shard actor loads them when it
starts, which is reported apart as ``startup_s``) and CPU ms per turn, the
sum of user + system CPU over this process and every process under it
(Ray's GCS, raylet and workers; processes that ended were reaped by their
parent and count in its children's times), from psutil. Ratios are against
the sequential run of the same round; medians over the runs. Every Ray
ingest is compared with the sequential one (``_backfill.canonical``): the
same facts, versions, supersessions, episodes and vectors.

Per-task overhead: a no-op actor call (``ray.get(actor.ping.remote())``),
p50/p95 over 1,000 calls, and a routed read (``ClusterMemory.as_of``)
against the same read on an in-process Memory.

MCP load: ``eval/bench_mcp_load.py`` against ``serve-mcp --http --dir D
--shards 2`` (the server starts its own Ray), 8 clients over 4 groups, then a
restart on the same files and every acknowledged write read back; and the
same load against a one-file server for comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

MODES = ("sequential", "ray_1", "ray_2", "ray_2_prepass")


class CpuMeter:
    """User + system CPU of this process and every process under it between
    start() and stop(). Processes come and go (Ray Data's workers end with
    their dataset), so a thread reads them all every ``every`` seconds and
    keeps each one's last reading: a process that ended counts up to its
    last reading (at most ``every`` s of it is missed), one that existed at
    start from its reading then."""

    def __init__(self, every: float = 0.1) -> None:
        import threading

        self.every = every
        self._seen: dict[tuple[int, float], list[float]] = {}  # (pid, born) -> [first, last]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _read(self) -> None:
        import psutil

        me = psutil.Process()
        for p in [me, *me.children(recursive=True)]:
            try:
                t = p.cpu_times()
                key = (p.pid, p.create_time())
            except psutil.Error:
                continue
            cpu = t.user + t.system
            self._seen.setdefault(key, [cpu, cpu])[1] = cpu

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            self._read()

    def start(self) -> "CpuMeter":
        self._read()
        self._base = set(self._seen)
        self._thread.start()
        return self

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        self._read()
        return sum(last - (first if key in self._base else 0.0) for key, (first, last) in self._seen.items())


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


def write_file(path: Path, convs: int, turns: int, by: str) -> dict:
    """The JSONL of the first ``turns`` turns of ``convs`` conversations; a
    group per conversation, or per session of one (``by="session"``: more,
    smaller tenants, which spread over the shards more evenly)."""
    from locomo import load

    groups: dict[str, int] = {}
    with path.open("w", encoding="utf-8") as fp:
        for c in load()[:convs]:
            for e in c.episodes[:turns]:
                g = c.sample_id if by == "conversation" else f"{c.sample_id}-{e['name'].split(':')[0]}"
                fp.write(json.dumps({"group_id": g, "speaker": e["speaker"],
                                     "time": e["reference_time"].isoformat(), "content": e["content"],
                                     "name": e["name"]}) + "\n")
                groups[g] = groups.get(g, 0) + 1
    return groups


def one(mode: str, turns: list, tmp: Path, k: int) -> tuple[dict, list]:
    from midas_graph import Memory, _backfill, _io
    from midas_graph.cluster import Cluster

    if mode == "sequential":
        with Memory(tmp / f"seq-{k}.db") as mem:
            meter, t0 = CpuMeter().start(), time.perf_counter()
            report = _backfill.ingest(mem, turns, progress=False)
            wall, cpu = time.perf_counter() - t0, meter.stop()
            dump = _backfill.canonical(_io.export_rows(mem))
        return {"startup_s": 0.0, "wall_s": wall, "cpu_s": cpu, "applied": report["applied"]}, dump
    shards = 1 if mode == "ray_1" else 2
    t0 = time.perf_counter()
    cluster = Cluster(tmp / f"{mode}-{k}", shards=shards)
    startup = time.perf_counter() - t0
    try:
        meter, t0 = CpuMeter().start(), time.perf_counter()
        report = _backfill.ingest_ray(cluster, turns, prepass_workers=2 if mode.endswith("prepass") else None,
                                      progress=False)
        wall, cpu = time.perf_counter() - t0, meter.stop()
        dump = _backfill.canonical(cluster.memory().export_rows())
    finally:
        cluster.close()
    return {"startup_s": startup, "wall_s": wall, "cpu_s": cpu, "applied": report["applied"],
            "prepass_s": report["prepass_seconds"]}, dump


def overhead(tmp: Path, calls: int = 1000) -> dict:
    from midas_graph import Memory
    from midas_graph.cluster import Cluster

    cluster = Cluster(tmp / "overhead", shards=1, preload=False)
    try:
        actor = cluster.actors[0]
        ray = cluster._ray
        ping = []
        for _ in range(calls):
            t0 = time.perf_counter()
            ray.get(actor.ping.remote())
            ping.append((time.perf_counter() - t0) * 1000)
        mem = cluster.memory()
        for i in range(20):
            mem.add_fact("Ann", "lives_in", f"City{i}", valid_from=f"2020-01-{i + 1:02d}", group_id="g")
        routed = []
        for _ in range(calls // 4):
            t0 = time.perf_counter()
            mem.as_of("Ann", "lives_in", valid_at="2020-01-10", group_id="g")
            routed.append((time.perf_counter() - t0) * 1000)
    finally:
        cluster.close()
    local = []
    with Memory(tmp / "local.db") as m:
        for i in range(20):
            m.add_fact("Ann", "lives_in", f"City{i}", valid_from=f"2020-01-{i + 1:02d}", group_id="g")
        for _ in range(calls // 4):
            t0 = time.perf_counter()
            m.as_of("Ann", "lives_in", valid_at="2020-01-10", group_id="g")
            local.append((time.perf_counter() - t0) * 1000)
    r = lambda x: round(x, 3)  # noqa: E731
    return {"noop_call_ms": {"n": calls, "p50": r(pct(ping, .5)), "p95": r(pct(ping, .95))},
            "as_of_routed_ms": {"n": len(routed), "p50": r(pct(routed, .5)), "p95": r(pct(routed, .95))},
            "as_of_in_process_ms": {"n": len(local), "p50": r(pct(local, .5)), "p95": r(pct(local, .95))}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--turns", type=int, default=40, help="turns of each conversation")
    ap.add_argument("--convs", type=int, default=10)
    ap.add_argument("--group-by", choices=("session", "conversation"), default="session")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--num-cpus", type=int, default=2)
    ap.add_argument("--mcp-seconds", type=float, default=30)
    ap.add_argument("--no-mcp", action="store_true")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    modes = args.modes.split(",")

    from midas_graph import _backfill
    from midas_graph._shards import shard_of
    from midas_graph.cluster import start_local_ray
    from midas_graph.models import default_embedder, default_nli, load_spacy

    tmp = Path(tempfile.mkdtemp(prefix="mgc-"))
    groups = write_file(tmp / "turns.jsonl", args.convs, args.turns, args.group_by)
    turns = _backfill.read(tmp / "turns.jsonl")
    load_spacy(), default_embedder().load(), default_nli().load()  # the baseline's models, loaded before timing
    ray = start_local_ray(args.num_cpus, tmp / "ray")
    rounds: list[dict] = []
    mismatches: list[str] = []
    try:
        for k in range(args.runs):
            order = modes[k % len(modes):] + modes[:k % len(modes)]
            got, dumps = {}, {}
            for mode in order:
                got[mode], dumps[mode] = one(mode, turns, tmp, k)
                print(f"run {k} {mode}: {got[mode]}", file=sys.stderr)
            if "sequential" in dumps:
                for mode, dump in dumps.items():
                    if mode != "sequential" and dump != dumps["sequential"]:
                        mismatches.append(f"run {k} {mode}: " + "; ".join(_backfill.diff(dumps["sequential"], dump, 2)))
            rounds.append(got)
        over = overhead(tmp)
    finally:
        ray.shutdown()

    n = len(turns)
    backfill = {}
    for mode in modes:
        rs = [r[mode] for r in rounds]
        out = {"turns_per_s": round(statistics.median(n / r["wall_s"] for r in rs), 2),
               "cpu_ms_per_turn": round(statistics.median(1000 * r["cpu_s"] / n for r in rs), 2),
               "wall_s": [round(r["wall_s"], 2) for r in rs],
               "startup_s": round(statistics.median(r["startup_s"] for r in rs), 2)}
        if "sequential" in modes and mode != "sequential":
            out["cpu_ratio_vs_sequential"] = round(statistics.median(
                r[mode]["cpu_s"] / r["sequential"]["cpu_s"] for r in rounds), 3)
            out["speedup_vs_sequential"] = round(statistics.median(
                r["sequential"]["wall_s"] / r[mode]["wall_s"] for r in rounds), 3)
        if mode.endswith("prepass"):
            out["prepass_s"] = round(statistics.median(r["prepass_s"] for r in rs), 2)
        backfill[mode] = out
    by_shard = {}
    for g, c in groups.items():
        by_shard[shard_of(g, 2)] = by_shard.get(shard_of(g, 2), 0) + c
    report = {
        "data": {"turns": n, "groups": len(groups), "turns_per_shard_of_2": [by_shard.get(i, 0) for i in range(2)],
                 "group_by": args.group_by, "source": "LoCoMo, first turns of each conversation"},
        "runs": args.runs, "num_cpus": args.num_cpus, "cpu_count": os.cpu_count(),
        "backfill": backfill,
        "equal_to_sequential": not mismatches, "mismatches": mismatches[:5],
        "target_cpu_ratio_max": 1.1,
        "per_task_overhead": over,
    }
    if not args.no_mcp:
        import bench_mcp_load

        four = ["tenant-a", "tenant-b", "tenant-c", "tenant-d"]
        sharded = bench_mcp_load.run(args.mcp_seconds, 8, shards=2, groups=four, min_calls=1)
        single = bench_mcp_load.run(args.mcp_seconds, 8, groups=four, min_calls=1)
        keep = ("clients", "shards", "seconds", "server_startup_s", "ops", "ops_per_s", "errors", "error_samples",
                "writes_acknowledged", "lost_writes", "lost_samples", "latency_ms", "verified_after_restart")
        report["mcp_load"] = {"sharded_2": {k: sharded[k] for k in keep if k in sharded},
                              "one_file": {k: single[k] for k in keep if k in single}}
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
    ok = not mismatches and all(m.get("errors", 0) == 0 and m.get("lost_writes", 0) == 0
                                for m in report.get("mcp_load", {}).values())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
