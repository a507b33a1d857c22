"""Cost of claim extraction on top of spaCy parsing, per turn.

    python eval/bench_extract.py [--runs 5] [--out eval/results/bench_extract.json]

Prints one JSON document. Not a test (it was a timed unit test in
tests/test_extract.py, which failed on a loaded machine; issue 21, item 6).

Method. The turns of the bundled sample conversation and the sentences of
the revision cases (eval/data/revision_cases.jsonl) are parsed once with the
spaCy pipeline; then, per run, every parsed turn goes through
``_extract.extract`` three times. The figure is the median over ``--runs``
of the mean ms per turn, and its ratio to the parse itself (``nlp.pipe``
over the same turns, timed in the same run).

Target (from the original test): extraction < 10 ms per turn on top of the parse.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import time
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REF = dt.datetime(2024, 3, 6, 12, tzinfo=dt.timezone.utc)
TARGET_MS = 10.0


def texts() -> list[str]:
    out = [json.loads(line)["content"]
           for line in resources.files("midas_graph.sample").joinpath("conversation.jsonl").read_text().splitlines()
           if line.strip()]
    cases = ROOT / "eval" / "data" / "revision_cases.jsonl"
    if cases.exists():
        for line in cases.read_text().splitlines():
            if line.strip():
                case = json.loads(line)
                out += [t for t in _strings(case) if 8 <= len(t) <= 300]
    return out


def _strings(obj) -> list[str]:
    if isinstance(obj, str):
        return [obj] if " " in obj else []
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _strings(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v)]
    return []


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)

    from midas_graph._extract import extract
    from midas_graph.models import load_spacy

    nlp = load_spacy()
    items = texts()
    docs = list(nlp.pipe(items))
    extract_ms, parse_ms = [], []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        list(nlp.pipe(items))
        parse_ms.append((time.perf_counter() - t0) * 1000 / len(items))
        t0 = time.perf_counter()
        for _ in range(3):
            for text, doc in zip(items, docs):
                extract(text, speaker="Dana", reference_time=REF, listener="Sam", doc=doc)
        extract_ms.append((time.perf_counter() - t0) * 1000 / (3 * len(items)))
    med = statistics.median(extract_ms)
    report = {
        "turns": len(items),
        "runs": args.runs,
        "extract_ms_per_turn": {"p50_of_runs": round(med, 3), "min": round(min(extract_ms), 3),
                                "max": round(max(extract_ms), 3)},
        "parse_ms_per_turn": round(statistics.median(parse_ms), 3),
        "extract / parse": round(med / statistics.median(parse_ms), 3),
        "target_ms": TARGET_MS,
        "met": med < TARGET_MS,
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
