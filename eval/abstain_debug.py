"""Why did context() abstain, or not? A development aid for the abstention rules.

    python eval/abstain_debug.py p1-mateo-q05 [p2-ngozi-q18 ...]   # dev personas only
    python eval/abstain_debug.py --wrong                           # every wrong dev question

For each question, the persona's messages are ingested up to its ``asked_at``
(as eval/assistant_eval.py does), and ``_context.assemble`` is called with a
trace: every candidate with its score, whether it is about the asked entity
(``on``; ``strict`` = said by it or its belief), how it covers the asked words
(``cov``: 2 a shared word, 1 by cosine), its fit and own fit (the dominance
test), then the decision. Held-out personas are refused: rules are chosen on
the development half only (docs/assistant_eval.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import assistant_eval as ae  # noqa: E402


def trace_question(p: dict, qid: str, embedder, nli) -> None:
    from midas_graph import Memory
    from midas_graph._context import assemble

    q = next(x for x in p["questions"] if x["id"] == qid)
    at = ae.parse_time(q["asked_at"])
    clock = ae.Clock(ae.parse_time(p["messages"][0]["time"]))
    with Memory(None, clock=clock, embedder=embedder, nli=nli) as mem:
        for m in p["messages"]:
            when = ae.parse_time(m["time"])
            if when >= at:
                break
            clock.t = when
            mem.add_episode(m["text"], speaker=m["speaker"], reference_time=when, name=m["id"])
        clock.t = at
        trace: list = []
        now = mem.now()
        ctx = assemble(mem, q["question"], budget_tokens=ae.BUDGET, valid_at=now, known_at=now, group_id="default",
                       speaker=q["speaker"], explicit_valid=False, trace=trace)
        row = ae.score_question(q, ctx, mem.recall(q["question"], k=ae.RECALL_K, speaker=q["speaker"]),
                                p["messages"])
    print(f"\n=== {qid} ({q['kind']}): {q['question']}   gold {q['gold']}  -> right={row['right']}")
    print(f"    abstain={ctx.abstain} reason: {ctx.reason[:160]}")
    for t in trace:
        if t.get("decision"):
            print("    DECISION", json.dumps({k: v for k, v in t.items() if k != "decision"}))
        else:
            flags = ("on" if t["on"] else "--") + ("S" if t["strict"] else "-") + f"c{t['cov']}" + (
                "N" if t["named"] else "-")
            print(f"    {t['score']:.4f} {flags} fit={t['fit']} own={t['own_fit']} {t['id']:>6} "
                  f"[{t['who'][:10]}] {t['text'][:90]!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ids", nargs="*")
    ap.add_argument("--wrong", action="store_true", help="every wrong question of the development half")
    ap.add_argument("--data", default=str(ae.DATA),
                    help="personas file (eval/data/answerability_train/*.jsonl: split 'train', traced too)")
    args = ap.parse_args()
    from midas_graph.models import default_embedder, default_nli

    embedder, nli = default_embedder(), default_nli()
    personas = {p["id"]: p for p in ae.load(args.data) if p["split"] in ("dev", "train")}
    ids = list(args.ids)
    if args.wrong:
        for p in personas.values():
            ids += [r["id"] for r in ae.run_persona(p, engine=None, embedder=embedder, nli=nli)["rows"]
                    if not r["right"]]
    for qid in ids:
        pid = "-".join(qid.split("-")[:2])
        if pid not in personas:
            sys.exit(f"{qid}: not a development question (held-out personas are not traced)")
        trace_question(personas[pid], qid, embedder, nli)


if __name__ == "__main__":
    main()
