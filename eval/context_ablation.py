"""What each context rule does on LoCoMo: category-5 abstain and false abstain with it turned off.

    python eval/context_ablation.py OTHERS_CLAUSES ANSWER_TAKES_QUESTION [--limit N]
                                    [--out eval/results/context_ablation.json]

Each LoCoMo conversation is ingested once; then every question is asked of
``context()`` with all rules on (``all``), and again with each named flag of
``midas_graph._context`` or ``midas_graph._recall`` set to False alone. It
prints, per configuration, the category-5 abstain rate, the false-abstain rate
on categories 1-4 and evidence inside the context, and the questions whose
abstention the flag changes (up to 20 each), so that a rule chosen on other
data can be checked here, and a regression traced to its rule. A development
aid, like eval/abstain_debug.py: it only reads flags, it changes no default.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import baselines  # noqa: E402
from locomo import load as load_locomo  # noqa: E402
from locomo_eval import norm_evidence  # noqa: E402


def _module_of(flag: str):
    import midas_graph._context as context_mod
    import midas_graph._recall as recall_mod

    for mod in (context_mod, recall_mod):
        if isinstance(getattr(mod, flag, None), bool):
            return mod
    raise SystemExit(f"{flag}: not a True/False flag of midas_graph._context or midas_graph._recall")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("flags", nargs="+", help="flags to turn off one at a time")
    ap.add_argument("--limit", type=int, default=0, help="only the first N conversations (0 = all 10)")
    ap.add_argument("--budget", type=int, default=512)
    ap.add_argument("--out", help="also write the JSON here")
    args = ap.parse_args()

    from midas_graph import Memory
    from midas_graph.models import default_embedder

    mods = {f: _module_of(f) for f in args.flags}
    configs = ["all", *args.flags]
    rows: dict[str, list[dict]] = {c: [] for c in configs}
    convs = load_locomo()[: args.limit or None]
    embedder = default_embedder()
    for conv in convs:
        names = {e["name"] for e in conv.episodes}
        with Memory(None, embedder=embedder) as mem:
            mem.add_episodes(conv.episodes, group_id=conv.sample_id, progress=False)
            for c in configs:
                if c != "all":
                    setattr(mods[c], c, False)
                try:
                    for i, q in enumerate(conv.qa):
                        ctx = mem.context(q["question"], budget_tokens=args.budget, group_id=conv.sample_id)
                        rows[c].append({"id": f"{conv.sample_id}#{i}", "category": int(q["category"]),
                                        "question": q["question"], "abstain": bool(ctx.abstain),
                                        "evidence": [e for e in norm_evidence(q.get("evidence")) if e in names],
                                        "context": [it.source_name for it in ctx.items]})
                finally:
                    if c != "all":
                        setattr(mods[c], c, True)
        print(f"{conv.sample_id}: done", file=sys.stderr, flush=True)

    def summary(rs: list[dict]) -> dict:
        adv = [r for r in rs if r["category"] == 5]
        ans = [r for r in rs if r["category"] != 5]
        ev = [r for r in ans if r["evidence"]]
        return {"abstain_cat5": round(sum(r["abstain"] for r in adv) / max(1, len(adv)), 4),
                "false_abstain": round(sum(r["abstain"] for r in ans) / max(1, len(ans)), 4),
                "context_evidence": round(sum(baselines.evidence_recall(r["context"], r["evidence"])[0]
                                              for r in ev) / max(1, len(ev)), 4)}

    out = {"benchmark": "context_ablation", "conversations": len(convs), "configs": {}}
    base = {r["id"]: r for r in rows["all"]}
    for c in configs:
        s = summary(rows[c])
        if c != "all":
            flips = [r for r in rows[c] if r["abstain"] != base[r["id"]]["abstain"]]
            s["changed"] = len(flips)
            s["examples"] = [{"id": r["id"], "category": r["category"], "question": r["question"],
                              "abstain_with_rule": base[r["id"]]["abstain"]} for r in flips[:20]]
        out["configs"][c if c == "all" else f"{c}=False"] = s
    print(json.dumps(out, indent=2))
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
