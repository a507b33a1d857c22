"""Benchmark of long episodes: ingest time and memory of one 1 MB and one
10 MB message, recall and context latency over them, and whether recall finds
a sentence near the end.

Prints one JSON document. Not a test: targets are checked by reading it.

    python eval/bench_long.py                        # 1 MB x3, 10 MB x1, ladybug
    python eval/bench_long.py --sizes 1e6 --runs 5 --engine kuzu

Method. Each run is its own process (peak RSS is the process's own): a new
in-memory Memory, the models loaded first (their load is not counted), then
one ``add_episode`` of filler text with one sentence near its end ("My
passport number is X7781.", 1,500 characters before the end). The filler is
the LoCoMo turns (../shared/data/locomo, repeated to the size) when present,
else seeded random sentences. In the same process and run, a baseline: one
short message ingested into the same kind of new Memory. Reported per size,
medians over runs: ingest seconds (and per MB), peak RSS before and after the
ingest, the first recall (it builds the index: splits and tokenises every
passage), the median of 5 later recalls and of 5 contexts, of 3 recalls each
after one more short message (the index is rebuilt, reusing the passages),
and the rank of the episode for "What is Ana's passport number?" (1 = first)
with the passage shown. ``--batch`` also times ``add_episodes`` of 200 LoCoMo turns with and
without one 348,853-character message among them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

NEEDLE = "My passport number is X7781."
LOCOMO = Path(os.environ.get("MIDAS_LOCOMO", Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo"))


def turns() -> list[str]:
    path = LOCOMO / "locomo10.json"
    if not path.is_file():
        return []
    out = []
    for conv in json.loads(path.read_text()):
        for v in conv["conversation"].values():
            if isinstance(v, list):
                out += [t["text"] for t in v]
    return out


def filler(n: int, seed: int = 7) -> str:
    said = turns()
    if said:
        text = "\n".join(said)
        return (text * (n // len(text) + 1))[:n]
    rng = random.Random(seed)
    words = ("the a of to and in that it with as for on was at by this from but not river garden window "
             "morning letter station market winter summer history music paper table doctor village").split()
    out, size = [], 0
    while size < n:
        s = " ".join(rng.choice(words) for _ in range(rng.randint(6, 18))).capitalize() + "."
        out.append(s)
        size += len(s) + 1
    return " ".join(out)[:n]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one(size: int, engine: str) -> dict:
    from midas_graph import Memory
    from midas_graph.models import default_embedder, default_nli, load_spacy

    load_spacy()
    default_embedder().load()
    default_nli().load()
    text = filler(size - 1500) + " " + NEEDLE + " " + filler(1500)[: 1500 - len(NEEDLE) - 2]
    base = Memory(engine=engine)
    t = time.perf_counter()
    base.add_episode("I moved to Lisbon last week.", speaker="Ana", reference_time="2024-01-01")
    baseline = time.perf_counter() - t
    base.close()
    before = peak_mb()
    mem = Memory(engine=engine)
    t = time.perf_counter()
    res = mem.add_episode(text, speaker="Ana", reference_time="2024-01-01")
    ingest = time.perf_counter() - t
    after_ingest = peak_mb()
    q = "What is Ana's passport number?"
    t = time.perf_counter()
    hits = mem.recall(q)
    first = time.perf_counter() - t
    later, ctx = [], []
    for _ in range(5):
        t = time.perf_counter()
        hits = mem.recall(q)
        later.append(time.perf_counter() - t)
        t = time.perf_counter()
        c = mem.context(q)
        ctx.append(time.perf_counter() - t)
    rank = next((i for i, h in enumerate(hits, 1) if h.kind == "episode" and NEEDLE in h.text), None)
    rebuilt = []  # a write to the group makes the next query rebuild its index (reusing the passages)
    for i in range(3):
        mem.add_episode(f"Note {i}: the bus was late again.", speaker="Ben", reference_time="2024-01-03")
        t = time.perf_counter()
        mem.recall(q)
        rebuilt.append(time.perf_counter() - t)
    return {
        "chars": len(text), "ingest_s": ingest, "baseline_ingest_s": baseline, "peak_rss_mb_before": before,
        "peak_rss_mb_after": after_ingest, "recall_first_s": first, "recall_s": statistics.median(later),
        "context_s": statistics.median(ctx), "recall_after_a_write_s": statistics.median(rebuilt), "needle_rank": rank, "context_has_needle": NEEDLE in c.text,
        "stored_verbatim": mem.episode(res.episode.id).content == text, "facts": len(res.facts),
        "peak_rss_mb_end": peak_mb(),
    }


def batch(engine: str) -> dict:
    from midas_graph import Memory
    from midas_graph.models import default_embedder, default_nli, load_spacy

    load_spacy()
    default_embedder().load()
    default_nli().load()
    said = turns()[:200] or [filler(200, seed=i) for i in range(200)]
    rows = [{"content": t, "speaker": "AB"[i % 2], "reference_time": "2024-01-01"} for i, t in enumerate(said)]
    out = {}
    for name, extra in (("200_turns", []), ("200_turns_plus_348853_chars", [filler(348_853)])):
        mem = Memory(engine=engine)
        batch_rows = rows[:100] + [{"content": x, "speaker": "A", "reference_time": "2024-01-01"} for x in extra] + rows[100:]
        t = time.perf_counter()
        got = mem.add_episodes(batch_rows)
        out[name] = {"s": time.perf_counter() - t, "episodes": len(got), "stored": mem.stats()["Episode"]}
        mem.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1e6,1e7")
    ap.add_argument("--runs", type=int, default=0, help="runs per size (default: 3 under 5 MB, else 1)")
    ap.add_argument("--engine", default=os.environ.get("MIDAS_GRAPH_ENGINE", "ladybug"))
    ap.add_argument("--batch", action="store_true")
    ap.add_argument("--child", default=None)
    args = ap.parse_args()
    if args.child:
        kind, arg = args.child.split(":")
        print(json.dumps(one(int(arg), args.engine) if kind == "one" else batch(args.engine)))
        return
    report: dict = {"engine": args.engine, "sizes": {}}
    for size in (int(float(s)) for s in args.sizes.split(",")):
        runs = args.runs or (3 if size < 5_000_000 else 1)
        results = []
        for _ in range(runs):
            out = subprocess.run([sys.executable, __file__, "--engine", args.engine, "--child", f"one:{size}"],
                                 capture_output=True, text=True, check=True)
            results.append(json.loads(out.stdout.strip().splitlines()[-1]))
        med = {k: statistics.median(r[k] for r in results) for k in results[0]
               if isinstance(results[0][k], (int, float)) and not isinstance(results[0][k], bool)}
        med.update({k: [r[k] for r in results] for k in ("needle_rank", "context_has_needle", "stored_verbatim")})
        med["ingest_s_per_mb"] = med["ingest_s"] / (size / 1e6)
        med["ingest_vs_baseline"] = med["ingest_s"] / med["baseline_ingest_s"]
        med["runs"] = runs
        report["sizes"][str(size)] = med
    if args.batch:
        out = subprocess.run([sys.executable, __file__, "--engine", args.engine, "--child", "batch:0"],
                             capture_output=True, text=True, check=True)
        report["batch"] = json.loads(out.stdout.strip().splitlines()[-1])
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
