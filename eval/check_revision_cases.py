"""Check that the labelled revision cases are extractable by midas_graph's extractor.

For every case in ``eval/data/revision_cases.jsonl`` this runs
:func:`midas_graph._extract.extract_many` on every turn (first person is the
turn's speaker, second person the other speaker of the case) and checks that
the claims the case's label depends on are there:

- the earlier turns state the ``stale`` value (or, without one, the first
  ``current`` value) of ``subject``/``attribute``;
- the last turn states what the category needs: the new value (real update,
  numeric change), a correction carrying the new value (correction), a
  ``cease``/``negate`` of the stale value (negation/cessation), the same value
  again (restatement), every value of a multi-valued attribute, a dated past
  value covering ``as_of.valid_at`` (late arrival), a claim about another
  attribute of the same subject or about the same attribute of another
  subject and none about the case's own slot (different attribute,
  confusable entity), and nothing about the case's slot (chit-chat).

Usage: ``python eval/check_revision_cases.py [--cases PATH] [--min 0.95] [-v]``.
Prints the extractable share per category and overall, lists the cases that
fail and why, and exits 1 when the overall share is below ``--min``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from midas_graph._extract import Claim, extract_many
from midas_graph._registry import AttributeRegistry
from midas_graph._time import parse_time

DEFAULT_CASES = Path(__file__).parent / "data" / "revision_cases.jsonl"
_REG = AttributeRegistry.default()


def _key(attr: str) -> str:
    return _REG.key(attr) if attr else ""


def _same(a, b) -> bool:
    return str(a).strip().lower() == str(b).strip().lower()


def _fmt(c: Claim) -> str:
    extra = []
    if c.polarity != "assert":
        extra.append(c.polarity)
    if c.correction:
        extra.append(f"correction(replaces={c.replaces!r})")
    if c.valid_from:
        extra.append(f"from {c.valid_from.date()}")
    if c.valid_to:
        extra.append(f"to {c.valid_to.date()}")
    return f"{c.subject}|{c.attribute}|{c.value!r}" + (f" [{', '.join(extra)}]" if extra else "")


def extract_case_turns(case: dict) -> list[list[Claim]]:
    speakers = []
    for t in case["turns"]:
        if t["speaker"] not in speakers:
            speakers.append(t["speaker"])
    items = []
    for t in case["turns"]:
        others = [s for s in speakers if s != t["speaker"]]
        items.append((t["content"], t["speaker"], parse_time(t["reference_time"], "reference_time"),
                      others[0] if others else None))
    return [ex.claims for ex in extract_many(items)]


def check_case(case: dict, per_turn: list[list[Claim]]) -> str | None:
    """None if the case is extractable, else the reason it is not."""
    subject, attr = case["subject"], _key(case["attribute"])
    cat = case["category"]
    stale, current = case["stale"], case["current"]
    prior = [c for turn in per_turn[:-1] for c in turn]
    last = per_turn[-1]

    def slot(c: Claim) -> bool:
        return _same(c.subject, subject) and _key(c.attribute) == attr

    def states(claims, value, *, polarity=("assert",)) -> bool:
        return any(slot(c) and _same(c.value, value) and c.polarity in polarity for c in claims)

    first = stale if stale is not None else (current[0] if current else None)
    if first is not None and not states(prior, first):
        return f"earlier turns do not state {subject}|{attr}|{first!r}"

    if cat in ("real_update", "numeric_change"):
        if not states(last, current[0]):
            return f"last turn does not state {subject}|{attr}|{current[0]!r}"
    elif cat == "correction":
        ok = any(c.correction and _same(c.subject, subject) and _same(c.value, current[0])
                 and (_key(c.attribute) == attr or (c.attribute == "" and c.replaces is not None and _same(c.replaces, stale)))
                 for c in last)
        if not ok:
            return f"last turn has no correction to {subject}|{attr}|{current[0]!r}"
    elif cat == "negation_cessation":
        if not any(slot(c) and c.polarity in ("cease", "negate") and (_same(c.value, stale) or c.value == "") for c in last):
            return f"last turn does not end {subject}|{attr}|{stale!r}"
    elif cat == "paraphrase_restatement":
        if not states(last, current[0]):
            return f"last turn does not restate {subject}|{attr}|{current[0]!r}"
    elif cat == "multi_valued_addition":
        everything = prior + last
        missing = [v for v in current if not states(everything, v)]
        if missing:
            return f"values not extracted: {missing}"
        if not any(states(last, v) for v in current):
            return "last turn adds no value"
    elif cat == "late_arrival_explicit_dates":
        at = parse_time(case["as_of"]["valid_at"], "valid_at")
        exp = case["as_of"]["expect"]
        ok = any(slot(c) and c.polarity == "assert" and any(_same(c.value, v) for v in exp)
                 and c.valid_from is not None and c.valid_from <= at and (c.valid_to is None or at < c.valid_to)
                 for c in last)
        if not ok:
            return f"last turn has no dated {subject}|{attr} in {exp} valid at {at.date()}"
    elif cat == "different_attribute_same_entity":
        if any(slot(c) for c in last):
            return "last turn touches the case's own attribute"
        if not any(_same(c.subject, subject) and _key(c.attribute) != attr for c in last):
            return "last turn states no other attribute of the subject"
    elif cat == "confusable_other_entity":
        if any(slot(c) for c in last):
            return "last turn is attributed to the case's subject"
        if not any(not _same(c.subject, subject) and _key(c.attribute) == attr for c in last):
            return "last turn states the attribute of no other subject"
    elif cat == "unrelated_chitchat":
        if any(slot(c) for c in last):
            return "chit-chat produced a claim on the case's slot"
    else:
        return f"unknown category {cat!r}"
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=Path, default=DEFAULT_CASES)
    ap.add_argument("--min", type=float, default=0.95, help="fail below this overall extractable share")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case's claims")
    args = ap.parse_args(argv)

    cases = [json.loads(line) for line in args.cases.read_text("utf-8").splitlines() if line.strip()]
    ids = Counter(c["id"] for c in cases)
    dup = [i for i, n in ids.items() if n > 1]
    if dup:
        print(f"duplicate ids: {dup}", file=sys.stderr)
        return 2
    total = defaultdict(int)
    good = defaultdict(int)
    failures = []
    for case in cases:
        per_turn = extract_case_turns(case)
        why = check_case(case, per_turn)
        total[case["category"]] += 1
        if why is None:
            good[case["category"]] += 1
        else:
            failures.append((case, why, per_turn))
        if args.verbose:
            print(f"{case['id']:8} {'ok ' if why is None else 'BAD'} " +
                  " || ".join("; ".join(_fmt(c) for c in turn) or "-" for turn in per_turn))
    print(f"{'category':34} {'ok':>4} / {'n':>3}")
    for cat in sorted(total):
        print(f"{cat:34} {good[cat]:>4} / {total[cat]:>3}")
    n, ok = sum(total.values()), sum(good.values())
    share = ok / n if n else 0.0
    print(f"{'overall':34} {ok:>4} / {n:>3}  = {100 * share:.1f}% extractable")
    for case, why, per_turn in failures:
        print(f"\n{case['id']} ({case['category']}): {why}")
        for t, claims in zip(case["turns"], per_turn):
            print(f"   {t['speaker']}: {t['content']!r} -> {'; '.join(_fmt(c) for c in claims) or '-'}")
    return 0 if share >= args.min else 1


if __name__ == "__main__":
    sys.exit(main())
