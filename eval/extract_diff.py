"""Which claims the extractor reads from a fixed set of turns, and how two runs differ.

    python eval/extract_diff.py dump  -o before.jsonl        # claims of every turn, now
    python eval/extract_diff.py diff  before.jsonl [after.jsonl] [--show 40] [--identical]

``dump`` runs :func:`midas_graph._extract.extract_many` over

* every LoCoMo turn (eval/locomo.py; speaker = the turn's speaker, listener
  = the speaker of the previous turn when it is the other one, as
  ``Memory.add_episode`` gives it),
* every turn of the revision cases (eval/data/revision_cases.jsonl, as
  eval/check_revision_cases.py runs them),
* the turns of the bundled sample conversation (midas_graph/sample),
* every message of the *development* personas of
  eval/data/assistant_sessions.jsonl (the held-out half is never read here),

and writes one JSON line per turn: its key, text and claims (every field of
:class:`Claim`) and mentions. ``diff`` compares two dumps (or a dump and a
fresh run when ``after`` is left out) turn by turn and prints what was added
and removed, per rule and per turn. With ``--identical`` it exits 1 when
anything differs: the check that a restructuring changed no behaviour.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _turns(corpora: set[str]) -> list[tuple[str, str, str, dt.datetime, str | None, str | None]]:
    """(key, text, speaker, reference_time, listener, prompt) of every turn: the listener and the
    prompt (the other speaker's previous turn) as ``Memory.add_episode`` gives them."""
    from midas_graph._time import parse_time

    out = []
    if "locomo" in corpora:
        import locomo

        for conv in locomo.load():
            last = None
            for ep in conv.episodes:
                other = last is not None and last[0].casefold() != ep["speaker"].casefold()
                out.append((f"locomo/{conv.sample_id}/{ep['name']}", ep["content"], ep["speaker"],
                            ep["reference_time"], last[0] if other else None, last[1] if other else None))
                last = (ep["speaker"], ep["content"])
    if "revision" in corpora:
        for line in (HERE / "data" / "revision_cases.jsonl").read_text("utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            speakers: list[str] = []
            for t in case["turns"]:
                if t["speaker"] not in speakers:
                    speakers.append(t["speaker"])
            for k, t in enumerate(case["turns"]):
                others = [s for s in speakers if s != t["speaker"]]
                out.append((f"revision/{case['id']}/{k}", t["content"], t["speaker"],
                            parse_time(t["reference_time"], "reference_time"), others[0] if others else None, None))
    if "sample" in corpora:
        from importlib import resources

        last = None
        text = resources.files("midas_graph.sample").joinpath("conversation.jsonl").read_text("utf-8")
        for k, line in enumerate(x for x in text.splitlines() if x.strip()):
            m = json.loads(line)
            other = last is not None and last[0].casefold() != m["speaker"].casefold()
            out.append((f"sample/conversation/{k}", m["content"], m["speaker"],
                        parse_time(m["reference_time"], "reference_time"), last[0] if other else None,
                        last[1] if other else None))
            last = (m["speaker"], m["content"])
    if "assistant" in corpora:
        for line in (HERE / "data" / "assistant_sessions.jsonl").read_text("utf-8").splitlines():
            if not line.strip():
                continue
            persona = json.loads(line)
            if persona.get("split") != "dev":
                continue  # the held-out half is not read
            last = None
            for m in persona["messages"]:
                other = last is not None and last[0].casefold() != m["speaker"].casefold()
                out.append((f"assistant/{persona['id']}/{m['id']}", m["text"], m["speaker"],
                            parse_time(m["time"], "time"), last[0] if other else None, last[1] if other else None))
                last = (m["speaker"], m["text"])
    return out


def _claim_row(c) -> dict:
    row = dataclasses.asdict(c)
    for k, v in row.items():
        if isinstance(v, dt.datetime):
            row[k] = v.isoformat()
    return row


def run(corpora: set[str]) -> list[dict]:
    from midas_graph._extract import extract_many

    turns = _turns(corpora)
    exs = extract_many([(text, speaker, ref, listener, prompt) for _, text, speaker, ref, listener, prompt in turns])
    return [
        {"key": key, "text": text,
         "claims": [_claim_row(c) for c in ex.claims],
         "mentions": [dataclasses.asdict(m) for m in ex.mentions]}
        for (key, text, *_), ex in zip(turns, exs)
    ]


def _load(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _short(c: dict) -> str:
    extra = [c["polarity"]] if c["polarity"] != "assert" else []
    if c.get("correction"):
        extra.append(f"correction(replaces={c.get('replaces')!r})")
    if c.get("valid_from"):
        extra.append(f"from {c['valid_from'][:10]}")
    if c.get("valid_to"):
        extra.append(f"to {c['valid_to'][:10]}")
    return f"{c['subject']}|{c['attribute']}|{c['value']!r}" + (f" [{', '.join(extra)}]" if extra else "") + \
        f" <{c.get('rule') or '?'}>"


def diff(before: list[dict], after: list[dict], show: int) -> int:
    """Print the differences; return how many turns differ."""
    a = {r["key"]: r for r in before}
    b = {r["key"]: r for r in after}
    only_a = sorted(set(a) - set(b))
    only_b = sorted(set(b) - set(a))
    changed = []
    added_rules: Counter[str] = Counter()
    removed_rules: Counter[str] = Counter()
    n_added = n_removed = mention_turns = 0
    for key in [k for k in a if k in b]:
        ca = Counter(json.dumps(c, sort_keys=True) for c in a[key]["claims"])
        cb = Counter(json.dumps(c, sort_keys=True) for c in b[key]["claims"])
        removed = [json.loads(x) for x in (ca - cb).elements()]
        added = [json.loads(x) for x in (cb - ca).elements()]
        order_only = not removed and not added and [c for c in a[key]["claims"]] != [c for c in b[key]["claims"]]
        mentions_differ = a[key]["mentions"] != b[key]["mentions"]
        if removed or added or order_only or mentions_differ:
            changed.append((key, removed, added, order_only, mentions_differ))
        mention_turns += mentions_differ
        n_added += len(added)
        n_removed += len(removed)
        added_rules.update(c.get("rule") or "?" for c in added)
        removed_rules.update(c.get("rule") or "?" for c in removed)
    corpora = Counter(k.split("/")[0] for k in b)
    print(f"turns: {len(b)} ({', '.join(f'{k} {v}' for k, v in sorted(corpora.items()))}); "
          f"claims before {sum(len(r['claims']) for r in before)}, after {sum(len(r['claims']) for r in after)}")
    print(f"turns that differ: {len(changed)}; claims added {n_added}, removed {n_removed}; "
          f"turns whose mentions differ {mention_turns}; turns only before {len(only_a)}, only after {len(only_b)}")
    if added_rules:
        print("added by rule:   " + ", ".join(f"{r} {n}" for r, n in added_rules.most_common()))
    if removed_rules:
        print("removed by rule: " + ", ".join(f"{r} {n}" for r, n in removed_rules.most_common()))
    for key, removed, added, order_only, mentions_differ in changed[:show]:
        print(f"\n{key}: {b[key]['text'][:200]!r}")
        for c in removed:
            print(f"  - {_short(c)}")
        for c in added:
            print(f"  + {_short(c)}")
        if order_only:
            print("  (same claims, another order)")
        if mentions_differ:
            ma = {(m["name"], m["label"]) for m in a[key]["mentions"]}
            mb = {(m["name"], m["label"]) for m in b[key]["mentions"]}
            print(f"  mentions - {sorted(ma - mb)} + {sorted(mb - ma)}" if ma != mb else "  (mention spans differ)")
    if len(changed) > show:
        print(f"\n... {len(changed) - show} more turns differ (--show N)")
    return len(changed) + len(only_a) + len(only_b)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump", help="write the claims of every turn")
    d.add_argument("-o", "--out", required=True)
    d.add_argument("--corpus", action="append", choices=("locomo", "revision", "sample", "assistant"),
                   help="repeatable; default all four")
    c = sub.add_parser("diff", help="compare two dumps, or a dump and a fresh run")
    c.add_argument("before")
    c.add_argument("after", nargs="?")
    c.add_argument("--show", type=int, default=40, help="turns to print")
    c.add_argument("--identical", action="store_true", help="exit 1 when anything differs")
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        rows = run(set(args.corpus or ("locomo", "revision", "sample", "assistant")))
        with open(args.out, "w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        print(f"{len(rows)} turns, {sum(len(r['claims']) for r in rows)} claims -> {args.out}")
        return 0
    before = _load(args.before)
    if args.after:
        after = _load(args.after)
    else:
        corpora = {r["key"].split("/")[0] for r in before}
        after = run(corpora)
    n = diff(before, after, args.show)
    return 1 if args.identical and n else 0


if __name__ == "__main__":
    sys.exit(main())
