"""Benchmark the local models: load times, latency, throughput, memory.

    .venv/bin/python eval/bench_models.py            # table + JSON on stdout
    .venv/bin/python eval/bench_models.py --write    # also eval/results/bench_models.json

Measures, in one fresh process: load time of each model; NLI ms per pair
alone and in batches of 32; embedding ms per sentence alone and in batches
of 32; spaCy ms per short document (alone and with ``nlp.pipe``); resident
memory (RSS) after each load and with all three loaded.

Targets (issue 3, 2 cores): NLI <= 5 ms per pair batched; all three models
loaded <= 800 MB RSS. Run it on a quiet machine: other processes on the same
cores inflate every latency.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from midas_graph.models import (  # noqa: E402
    default_embedder,
    default_nli,
    load_spacy,
)
from midas_graph.models._common import default_threads  # noqa: E402
from midas_graph.models.revision_pairs import generate  # noqa: E402

RESULTS = ROOT / "eval" / "results" / "bench_models.json"
TARGETS = {"nli_ms_per_pair_batched": 5.0, "rss_mb_all_loaded": 800.0}


def rss_mb() -> float:
    try:
        import psutil

        return psutil.Process().memory_info().rss / 2**20
    except ImportError:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    return float("nan")


def per_item_ms(fn, items, batch: int, repeats: int) -> float:
    """Best-of-``repeats`` wall time per item, running ``fn`` on batches."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        for i in range(0, len(items), batch):
            fn(items[i:i + batch])
        best = min(best, (time.perf_counter() - t) / len(items) * 1000)
    return best


def median_single_ms(fn, items) -> float:
    times = []
    for it in items:
        t = time.perf_counter()
        fn([it])
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=256, help="pairs / sentences / docs per measurement")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)

    r: dict = {"machine": {"cpus": os.cpu_count(), "threads": default_threads(),
                           "python": platform.python_version(), "platform": platform.platform()},
               "targets": TARGETS}
    pairs = [(p.premise, p.hypothesis) for p in generate(args.n, split="heldout", seed=7)]
    sents = [p for p, _ in pairs]
    docs = [f"{a} {b} We talked about it on Monday with Alice from Acme in Berlin."
            for a, b in pairs]

    r["rss_mb_start"] = round(rss_mb(), 1)
    t = time.perf_counter()
    emb = default_embedder().load()
    r["embedder_load_s"] = round(time.perf_counter() - t, 3)
    r["rss_mb_after_embedder"] = round(rss_mb(), 1)
    t = time.perf_counter()
    nli = default_nli().load()
    r["nli_load_s"] = round(time.perf_counter() - t, 3)
    r["rss_mb_after_nli"] = round(rss_mb(), 1)
    t = time.perf_counter()
    nlp = load_spacy()
    r["spacy_load_s"] = round(time.perf_counter() - t, 3)
    r["rss_mb_after_spacy"] = round(rss_mb(), 1)

    # warm up (first runs allocate)
    nli.scores(pairs[:64])
    emb.embed(sents[:64])
    list(nlp.pipe(docs[:16]))

    r["nli_ms_per_pair_single"] = round(median_single_ms(nli.scores, pairs[:64]), 2)
    r["nli_ms_per_pair_batched"] = round(per_item_ms(nli.scores, pairs, 32, args.repeats), 2)
    r["embed_ms_per_sentence_single"] = round(median_single_ms(emb.embed, sents[:64]), 2)
    r["embed_ms_per_sentence_batched"] = round(per_item_ms(emb.embed, sents, 32, args.repeats), 2)
    r["spacy_ms_per_doc_single"] = round(
        statistics.median([_time_ms(lambda d=d: nlp(d)) for d in docs[:64]]), 2)
    r["spacy_ms_per_doc_pipe"] = round(
        per_item_ms(lambda b: list(nlp.pipe(b, batch_size=32)), docs, 32, 1), 2)
    r["rss_mb_all_loaded"] = round(rss_mb(), 1)
    r["verdict"] = {
        "nli_ms_per_pair_batched<=5": r["nli_ms_per_pair_batched"] <= TARGETS["nli_ms_per_pair_batched"],
        "rss_mb_all_loaded<=800": r["rss_mb_all_loaded"] <= TARGETS["rss_mb_all_loaded"],
    }

    rows = [
        ("load: embedder (s)", r["embedder_load_s"], ""),
        ("load: NLI (s)", r["nli_load_s"], ""),
        ("load: spaCy (s)", r["spacy_load_s"], ""),
        ("NLI ms/pair, one at a time", r["nli_ms_per_pair_single"], ""),
        ("NLI ms/pair, batches of 32", r["nli_ms_per_pair_batched"], "<= 5"),
        ("embedding ms/sentence, one at a time", r["embed_ms_per_sentence_single"], ""),
        ("embedding ms/sentence, batches of 32", r["embed_ms_per_sentence_batched"], ""),
        ("spaCy ms/doc, one at a time", r["spacy_ms_per_doc_single"], ""),
        ("spaCy ms/doc, nlp.pipe", r["spacy_ms_per_doc_pipe"], ""),
        ("RSS MB at start", r["rss_mb_start"], ""),
        ("RSS MB, embedder loaded", r["rss_mb_after_embedder"], ""),
        ("RSS MB, + NLI", r["rss_mb_after_nli"], ""),
        ("RSS MB, + spaCy (all three)", r["rss_mb_after_spacy"], ""),
        ("RSS MB, all three after use", r["rss_mb_all_loaded"], "<= 800"),
    ]
    print(f"{'measure':<42} {'value':>10} {'target':>8}")
    print("-" * 62)
    for name, v, tgt in rows:
        print(f"{name:<42} {v:>10} {tgt:>8}")
    print("-" * 62)
    for k, v in r["verdict"].items():
        print(f"{k:<42} {'PASS' if v else 'FAIL':>10}")
    print(json.dumps(r, indent=2))
    if args.write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(r, indent=2) + "\n")
        print(f"wrote {RESULTS}")
    return 0 if all(r["verdict"].values()) else 1


def _time_ms(fn) -> float:
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000


if __name__ == "__main__":
    raise SystemExit(main())
