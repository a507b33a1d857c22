"""Benchmark of a sharded memory: many small tenants over 4 shard files,
against one single-file Memory holding the same data, in the same run.

Prints one JSON document. Not a test: figures are read, not asserted.

    python eval/bench_shards.py                         # 10,000 tenants x 20 turns, 4 shards
    python eval/bench_shards.py --tenants 1000 --runs 3 --engine kuzu

Method. Each tenant (a group) gets ``--turns`` fact turns (typed facts with
their sentence as text, not spaCy-extracted episodes: ingest is not what is
measured here, and text turns would cost ~30 ms of CPU each): a user who
moves city, changes employer and title (single-valued: supersessions) and
likes things (multi-valued), one turn a day. Both memories receive the same
rows through ``add_facts`` (rows carry their ``group_id``; the sharded one
splits them by shard). Then, for ``--runs`` runs, alternating the two
memories within each run: ``as_of`` of one single-valued attribute of a
random tenant at a random valid time, and ``context`` for "Where does
<user> live now?" of a random tenant, asked twice: the first ask of a
tenant (cold: its recall index is built, its 20 fact texts embedded) and
the second (warm). Latencies are p50/p95 per run; the figure is the median
over runs, with the sharded/single ratio of the medians. Bytes are the
files on disk after closing (checkpointed), per tenant. Open files: the
file descriptors the process holds for the memory's files once every shard
is open (psutil), and the process's total.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

UTC = dt.timezone.utc
T0 = dt.datetime(2024, 1, 1, tzinfo=UTC)
CITIES = ["Porto", "Lisbon", "Rome", "Oslo", "Lima", "Quito", "Accra", "Pune", "Perth", "Turin"]
EMPLOYERS = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark"]
TITLES = ["engineer", "designer", "nurse", "teacher", "chef", "pilot"]
LIKES = ["tea", "jazz", "hiking", "chess", "sushi", "cycling", "poetry", "films"]


def tenant_rows(t: int, turns: int, rng: random.Random) -> list[dict]:
    user = f"User{t}"
    g = f"tenant-{t:06d}"
    rows = []
    for i in range(turns):
        kind = rng.random()
        when = T0 + dt.timedelta(days=i)
        if i == 0 or kind < 0.3:
            v = rng.choice(CITIES)
            row = ("lives_in", v, f"{user} lives in {v}.")
        elif kind < 0.45:
            v = rng.choice(EMPLOYERS)
            row = ("employer", v, f"{user} works at {v}.")
        elif kind < 0.6:
            v = rng.choice(TITLES)
            row = ("job_title", v, f"{user} is a {v}.")
        else:
            v = rng.choice(LIKES)
            row = ("likes", v, f"{user} likes {v}.")
        rows.append({"subject": user, "attribute": row[0], "value": row[1], "text": row[2],
                     "valid_from": when, "group_id": g})
    return rows


def fds_under(root: Path) -> int:
    import psutil

    root_s = str(root.resolve())
    return sum(1 for f in psutil.Process().open_files() if f.path.startswith(root_s))


def files_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tenants", type=int, default=10_000)
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--engine", default=os.environ.get("MIDAS_GRAPH_ENGINE", "ladybug"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--as-of-queries", type=int, default=300)
    ap.add_argument("--context-tenants", type=int, default=40, help="tenants asked per run (each twice)")
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--dir", default=None, help="Work directory (default: a temporary one, removed).")
    args = ap.parse_args()

    import psutil

    from midas_graph import Memory, ShardedMemory
    from midas_graph.models import default_embedder, default_nli, load_spacy

    rng = random.Random(args.seed)
    work = Path(args.dir or tempfile.mkdtemp(prefix="bench_shards_"))
    work.mkdir(parents=True, exist_ok=True)
    rows = [r for t in range(args.tenants) for r in tenant_rows(t, args.turns, rng)]
    t_load = time.perf_counter()
    load_spacy()
    emb, nli = default_embedder().load(), default_nli()
    model_load_s = time.perf_counter() - t_load
    proc = psutil.Process()

    out: dict = {"benchmark": "bench_shards", "engine": args.engine, "tenants": args.tenants, "turns": args.turns,
                 "turn_kind": "typed facts with a sentence as text (add_facts), not extracted episodes",
                 "shards": args.shards, "cpus": os.cpu_count(), "runs": args.runs,
                 "date": dt.date.today().isoformat(), "model_load_s": round(model_load_s, 2)}
    configs = {"single": work / "single", "sharded": work / "sharded"}
    configs["single"].mkdir(exist_ok=True)
    mems: dict = {}
    for name, root in configs.items():
        fd0 = proc.num_fds()
        t = time.perf_counter()
        if name == "single":
            mem = Memory(root / "memory.db", engine=args.engine, embedder=emb, nli=nli)
        else:
            mem = ShardedMemory(root, args.shards, engine=args.engine, embedder=emb, nli=nli)
        for start in range(0, len(rows), 20_000):
            mem.add_facts(rows[start:start + 20_000])
        ingest_s = time.perf_counter() - t
        if name == "sharded":
            for i in range(args.shards):
                mem.shard(i)
        mems[name] = mem
        out[name] = {"ingest_s": round(ingest_s, 1), "ingest_facts_per_s": round(len(rows) / ingest_s),
                     "open_fds_for_memory": fds_under(root), "process_fds_added": proc.num_fds() - fd0}
        if name == "sharded":
            out[name]["groups_per_shard"] = [s["groups"] for s in mem.status()["per_shard"]]
    out["process_fds_total"] = proc.num_fds()
    out["rss_mb"] = round(proc.memory_info().rss / 2**20, 1)

    tenants = list(range(args.tenants))
    end = T0 + dt.timedelta(days=args.turns)
    per_run: dict[str, list[dict]] = {name: [] for name in mems}
    for run in range(args.runs):
        qrng = random.Random(args.seed * 100 + run)
        as_of_q = [(qrng.choice(tenants), qrng.choice(["lives_in", "employer", "job_title"]),
                    T0 + dt.timedelta(hours=qrng.randrange(0, 24 * args.turns))) for _ in range(args.as_of_queries)]
        ctx_q = qrng.sample(tenants, min(args.context_tenants, len(tenants)))
        for name, mem in mems.items():
            lat = []
            for t, attr, at in as_of_q:
                s = time.perf_counter()
                mem.as_of(f"User{t}", attr, valid_at=at, group_id=f"tenant-{t:06d}")
                lat.append((time.perf_counter() - s) * 1000)
            cold, warm, answered = [], [], 0
            for t in ctx_q:
                q = f"Where does User{t} live now?"
                for bucket in (cold, warm):
                    s = time.perf_counter()
                    ctx = mem.context(q, budget_tokens=256, valid_at=end, group_id=f"tenant-{t:06d}")
                    bucket.append((time.perf_counter() - s) * 1000)
                answered += not ctx.abstain and "lives in" in ctx.text
            per_run[name].append({"as_of_p50": pct(lat, .5), "as_of_p95": pct(lat, .95),
                                  "context_cold_p50": pct(cold, .5), "context_cold_p95": pct(cold, .95),
                                  "context_p50": pct(warm, .5), "context_p95": pct(warm, .95),
                                  "context_answered": answered / len(ctx_q)})
    for name, runs in per_run.items():
        for key in runs[0]:
            out[name][key] = round(statistics.median(r[key] for r in runs), 3)
        out[name]["per_run"] = [{k: round(v, 3) for k, v in r.items()} for r in runs]
    for name, mem in mems.items():
        mem.close()
        size = files_bytes(configs[name])
        out[name]["bytes"] = size
        out[name]["bytes_per_tenant"] = round(size / args.tenants)
    out["sharded_over_single"] = {
        k: round(out["sharded"][k] / out["single"][k], 2)
        for k in ("as_of_p50", "as_of_p95", "context_p50", "context_p95", "context_cold_p50", "bytes_per_tenant")
        if out["single"][k]}
    if args.dir is None:
        shutil.rmtree(work, ignore_errors=True)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
