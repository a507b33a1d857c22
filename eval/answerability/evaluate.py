"""How well the bundled answerability model tells a turn that answers a question.

    python eval/answerability/evaluate.py [--model DIR]          # prints JSON
    python eval/answerability/evaluate.py --write                # also into the model's config.json

Pairs as ``train.py`` builds them (evidence turns
answer; the turns BM25 ranks highest that are not evidence, and random
turns, do not), on data the model was not trained on: all ten LoCoMo
conversations (categories 1-4), and the development personas p17-p20 of
``eval/data/assistant_sessions.jsonl`` (a turn naming the gold or a stale
value answers too). The model trains on generated pairs and p1-p8; the
held-out personas are never read.

The threshold rule: the lowest threshold at which at most ``--max-neg``
(default 0.03) of p17-p20's non-answering turns score above it. A turn the
model wrongly calls an answer grounds a question that should have been
abstained on, so the rule bounds that first.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from model import ANSWERS_DIR, OnnxAnswers  # noqa: E402
from train import at, locomo_rows, persona_rows, report  # noqa: E402


def probs(model: OnnxAnswers, rows) -> list[float]:
    by_q: dict[str, list[int]] = {}
    for i, (q, _, _) in enumerate(rows):
        by_q.setdefault(q, []).append(i)
    res = np.zeros(len(rows), dtype=np.float32)
    for q, ids in by_q.items():
        res[ids] = model.answers(q, [rows[i][1] for i in ids])
    return [float(x) for x in res]


def choose(rows, ps, max_neg: float) -> float:
    neg = sorted((p for p, r in zip(ps, rows) if r[2] == 1), reverse=True)
    k = int(max_neg * len(neg))
    return round(float(neg[k]) + 1e-4, 4) if k < len(neg) else 0.5


def at_threshold(rows, ps, t: float) -> dict:
    return {"threshold": t, **at([p for p, r in zip(ps, rows) if r[2] == 0],
                                 [p for p, r in zip(ps, rows) if r[2] == 1], t)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=str(ANSWERS_DIR))
    ap.add_argument("--max-neg", type=float, default=0.03)
    ap.add_argument("--write", action="store_true", help="write threshold and metrics into the model's config.json")
    args = ap.parse_args(argv)
    model = OnnxAnswers(args.model)
    loc = locomo_rows(range(10), 99, 4, 2)
    dev = persona_rows("dev", 99, 4, 2, part="val", values=True)
    p_loc, p_dev = probs(model, loc), probs(model, dev)
    t = choose(dev, p_dev, args.max_neg)
    res = {"threshold_rule": f"lowest threshold with at most {args.max_neg} of the non-answering turns of the "
                             "development personas p17-p20 above it",
           "threshold": t,
           "locomo_all": {**report(loc, p_loc), "at_threshold": at_threshold(loc, p_loc, t)},
           "personas_p17_p20": {**report(dev, p_dev), "at_threshold": at_threshold(dev, p_dev, t)}}
    print(json.dumps(res, indent=2))
    if args.write:
        cfg_path = Path(args.model) / "config.json"
        cfg = json.loads(cfg_path.read_text())
        cfg["threshold"] = t
        cfg["metrics"] = res
        cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
