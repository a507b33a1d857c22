"""Ingest all 10 LoCoMo conversations (5,882 turns) with the real pipeline.

    python eval/locomo_ingest.py [--engine ladybug] [--single 300] [--out eval/results/locomo_ingest.json]

Reports bulk turns/s (add_episodes, one memory group and database per
conversation), p50/p95 ms of a single add_episode (the first ``--single``
turns of conversation 1, one call each, into a fresh database), facts and
entities per turn, supersessions, the process's CPU time per bulk turn, and
peak RSS. Models are loaded (and timed)
before any clock starts. Targets on 2 cores (issue 4): >= 30 turns/s bulk,
p50 <= 60 ms per single add_episode, RSS <= 1.5 GB.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import locomo  # noqa: E402


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=None)
    ap.add_argument("--single", type=int, default=300, help="turns timed one add_episode at a time")
    ap.add_argument("--limit", type=int, default=0, help="only the first N conversations (0 = all)")
    ap.add_argument("--out", help="also write the JSON here")
    args = ap.parse_args()

    from midas_graph import Memory
    from midas_graph.models import default_embedder, default_nli, load_spacy

    t = time.perf_counter()
    load_spacy(), default_embedder().embed(["warm up"]), default_nli().scores([("a", "b")])
    load_s = time.perf_counter() - t
    convs = locomo.load()[: args.limit or None]
    tmp = tempfile.mkdtemp(prefix="locomo-")

    # single add_episode latency, fresh database
    lat = []
    with Memory(f"{tmp}/single.db", engine=args.engine) as mem:
        for e in convs[0].episodes[: args.single]:
            t = time.perf_counter()
            mem.add_episode(**e, group_id=convs[0].sample_id)
            lat.append((time.perf_counter() - t) * 1e3)
    lat.sort()

    turns = facts = superseded = 0
    per_conv = []
    elapsed = cpu = 0.0
    for conv in convs:
        with Memory(f"{tmp}/{conv.sample_id}.db", engine=args.engine) as mem:
            t, c = time.perf_counter(), time.process_time()
            results = mem.add_episodes(conv.episodes, group_id=conv.sample_id)
            dt_s = time.perf_counter() - t
            cpu += time.process_time() - c
            stats = mem.stats()
        elapsed += dt_s
        n_facts = sum(len(r.facts) for r in results)
        n_sup = sum(len(r.superseded) for r in results)
        turns += len(results)
        facts += n_facts
        superseded += n_sup
        per_conv.append({"sample_id": conv.sample_id, "turns": len(results), "seconds": round(dt_s, 2),
                         "turns_per_s": round(len(results) / dt_s, 1), "facts": n_facts,
                         "entities": stats["Entity"], "superseded": n_sup})
        print(json.dumps(per_conv[-1]), file=sys.stderr, flush=True)
    report = {
        "benchmark": "locomo_ingest",
        "engine": args.engine or "ladybug",
        "conversations": len(convs),
        "turns": turns,
        "bulk_turns_per_s": round(turns / elapsed, 1),
        # CPU of the process (every thread) per bulk turn: much less sensitive than turns/s to
        # other processes on a shared machine
        "bulk_cpu_ms_per_turn": round(cpu / turns * 1e3, 2),
        "single_add_episode_ms": {"n": len(lat), "p50": round(lat[len(lat) // 2], 1),
                                  "p95": round(lat[int(len(lat) * 0.95)], 1),
                                  "mean": round(statistics.fmean(lat), 1)} if lat else None,  # --single 0
        "facts_per_turn": round(facts / turns, 3),
        "entities_per_turn": round(sum(c["entities"] for c in per_conv) / turns, 3),
        "supersessions": superseded,
        "model_load_s": round(load_s, 2),
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "per_conversation": per_conv,
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
