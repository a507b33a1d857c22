"""How much the LoCoMo abstention figures owe to choosing the dominance
threshold on the same data: the threshold checked on splits of the ten
conversations.

    python eval/locomo_threshold_split.py [--thresholds 0.74,0.76,...,0.90]
                                          [--limit N] [--out eval/results/locomo_threshold_split.json]

Every conversation is ingested once (as eval/locomo_eval.py does) and every
question asked through ``context(budget_tokens=512)`` at each threshold
(``midas_graph._context.DOMINANCE``). Then, printed and written as JSON:

* at each threshold: category-5 abstain and categories 1-4 false abstain
  over all conversations, and per conversation;
* at the shipped threshold, over every way of taking half of the
  conversations: the median and range of both rates, and how often they miss
  the issue's targets (abstain >= 0.70, false abstain <= 0.10);
* choosing the threshold on one half (the most category-5 abstention with
  false abstain <= 0.10 on that half) and scoring it on the other half,
  over every split both ways; and leaving one conversation out in turn.

Only the threshold is checked this way: the rules were written after
reading the questions of all ten conversations. About 12 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import locomo  # noqa: E402

TARGET_ABSTAIN, LIMIT_FALSE = 0.70, 0.10


def _rates(rows, convs) -> tuple[float, float]:
    c5 = [a for c, cat, a in rows if c in convs and cat == 5]
    ans = [a for c, cat, a in rows if c in convs and cat != 5]
    return sum(c5) / max(len(c5), 1), sum(ans) / max(len(ans), 1)


def _summary(values: list[float]) -> dict:
    return {"median": round(statistics.median(values), 4), "min": round(min(values), 4), "max": round(max(values), 4)}


def _spread(rates: list[tuple[float, float]]) -> dict:
    """Both rates over several sets of conversations, and how often each misses its target."""
    return {"abstain_cat5": _summary([a for a, _ in rates]),
            "false_abstain": _summary([f for _, f in rates]),
            "abstain_below_target": sum(a < TARGET_ABSTAIN for a, _ in rates),
            "false_above_limit": sum(f > LIMIT_FALSE for _, f in rates)}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--thresholds", default="0.74,0.76,0.78,0.80,0.82,0.84,0.86,0.88,0.90",
                    help="comma-separated DOMINANCE values to try")
    ap.add_argument("--limit", type=int, default=0, help="only the first N conversations (0 = all)")
    ap.add_argument("--out", help="also write the JSON here")
    args = ap.parse_args(argv)
    try:
        grid = sorted({round(float(t), 4) for t in args.thresholds.split(",") if t.strip()})
    except ValueError:
        ap.error(f"--thresholds must be numbers separated by commas, got {args.thresholds!r}")
    if not grid or not all(0 < t <= 1 for t in grid):
        ap.error("--thresholds must lie in (0, 1]")

    import midas_graph._context as context_mod
    from midas_graph import Memory
    from midas_graph.models import default_embedder

    shipped = context_mod.DOMINANCE
    grid = sorted(set(grid) | {shipped})
    conversations = locomo.load()[: args.limit or None]
    if len(conversations) < 2:
        ap.error("needs at least two conversations")
    embedder = default_embedder()
    rows: dict[float, list[tuple[str, int, bool]]] = {t: [] for t in grid}
    try:
        for n, conv in enumerate(conversations, 1):
            with Memory(None, embedder=embedder) as mem:
                mem.add_episodes(conv.episodes, group_id=conv.sample_id, progress=False)
                for q in conv.qa:
                    for t in grid:
                        context_mod.DOMINANCE = t
                        ctx = mem.context(q["question"], budget_tokens=512, group_id=conv.sample_id)
                        rows[t].append((conv.sample_id, int(q["category"]), ctx.abstain))
            print(f"  {conv.sample_id}: {len(conv.qa)} questions ({n}/{len(conversations)})", file=sys.stderr)
    finally:
        context_mod.DOMINANCE = shipped

    result = report(rows, [c.sample_id for c in conversations], shipped)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
    return result


def report(rows: dict[float, list[tuple[str, int, bool]]], ids: list[str], shipped: float) -> dict:
    """The split checks over ``rows`` (threshold -> (conversation, category,
    abstained) per question) of the conversations ``ids``."""
    grid = sorted(rows)
    half = len(ids) // 2
    halves = list(itertools.combinations(ids, half))

    def choose(convs) -> float:
        ok = [(abstain, t) for t in grid for abstain, false in [_rates(rows[t], convs)] if false <= LIMIT_FALSE]
        return max(ok)[1] if ok else grid[0]

    at_shipped = [_rates(rows[shipped], h) for h in halves]
    chosen, held = [], []
    for h in halves:
        other = [c for c in ids if c not in h]
        t = choose(h)
        chosen.append(t)
        held.append(_rates(rows[t], other))
    loo = {c: choose([x for x in ids if x != c]) for c in ids}
    loo_rows = [r for c, t in loo.items() for r in rows[t] if r[0] == c]
    return {
        "benchmark": "locomo_threshold_split",
        "shipped_threshold": shipped,
        "conversations": ids,
        "by_threshold": {
            str(t): {"abstain_cat5": round(_rates(rows[t], ids)[0], 4), "false_abstain": round(_rates(rows[t], ids)[1], 4),
                     "per_conversation": {c: [round(v, 4) for v in _rates(rows[t], [c])] for c in ids}}
            for t in grid},
        "shipped_over_halves": {"halves": len(halves), **_spread(at_shipped)},
        "chosen_on_one_half_scored_on_the_other": {"pairs": len(held), "threshold": _summary(chosen), **_spread(held)},
        "leave_one_out": {
            "thresholds": loo,
            "abstain_cat5": round(_rates(loo_rows, ids)[0], 4),
            "false_abstain": round(_rates(loo_rows, ids)[1], 4)},
    }


if __name__ == "__main__":
    main()
