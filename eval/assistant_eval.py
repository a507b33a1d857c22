"""Context-level scoring of midas_graph on personal-assistant conversations (no LLM).

    python eval/assistant_eval.py [--split heldout|heldout2|dev|all] [--persona ID] [--trace]
                                  [--engine ladybug|kuzu] [--out PATH] [--rows PATH]

The data is eval/data/assistant_sessions.jsonl (format: eval/data/README.md):
eight personas, each a user talking to an assistant over ten months or so,
with questions of four kinds. Personas 1-4 are the development half, 5-8 the
held-out half; only the held-out half is the result (``--split heldout``,
the default). Rules and thresholds may be chosen on ``--split dev`` only.
``--split heldout2`` is a second held-out set (p21-p24, written 2026-12-06 by
hands that never saw the engine), first run at adfa377; keep it blind too
(counts, never its texts).

For each persona a fresh in-memory ``Memory`` (the real spaCy, NLI and
embedding models) ingests the messages in order with ``add_episode``
(``speaker`` as given, ``reference_time`` = the message's time, ``name`` =
its id) while an injected clock stands at the message's time, so that
transaction time is the time the message was sent. A question is asked when
the clock reaches its ``asked_at``: before any later message is ingested,
with the clock at ``asked_at`` (so ``known_at`` and ``valid_at``, left at
their default "now", are ``asked_at``), by
``mem.context(question, budget_tokens=512, speaker=<asker>)`` and, for the
evidence diagnostic, ``mem.recall(question, k=10, speaker=<asker>)``.

Scoring (docs/assistant_eval.md has the definitions by example):

* ``current`` / ``past`` / ``linking``: right iff the context does not
  abstain and some gold string appears in ``context.text`` (case- and
  accent-insensitive, on word boundaries; the question's own words are
  removed from the text first, so that a context which only echoes the
  question scores nothing);
* ``abstain``: right iff ``context.abstain``;
* **false abstain**: the share of answerable questions (current, past,
  linking) whose context abstained;
* **stale shown as current**: over current and linking questions with
  ``stale`` strings, the share whose context presents a stale string as
  current (see :func:`stale_items`);
* **evidence recall@10** (diagnostic): the share of answerable questions for
  which some message said by ``asked_at`` that contains a gold string is the
  source of one of ``recall(question, k=10)``'s hits (``..._annotated``: one
  of the question's annotated ``evidence`` messages).

Targets on the held-out half (issue 17): current >= 0.90, past >= 0.85,
linking >= 0.85, abstain >= 0.85, false abstain <= 0.08, stale shown as
current <= 0.03.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import re
import sys
import time
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable, Sequence

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "assistant_sessions.jsonl"
KINDS = ("current", "past", "linking", "abstain")
ANSWERABLE = ("current", "past", "linking")
STALE_KINDS = ("current", "linking")
SPLITS = ("dev", "heldout", "heldout2")
BUDGET = 512
RECALL_K = 10
TARGETS = {"current": (">=", 0.90), "past": (">=", 0.85), "linking": (">=", 0.85), "abstain": (">=", 0.85),
           "false_abstain": ("<=", 0.08), "stale_shown_as_current": ("<=", 0.03)}


# -- data ---------------------------------------------------------------------------------
def load(path: str | Path = DATA) -> list[dict]:
    """The personas, in file order (one JSON object per line)."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def parse_time(s: str) -> _dt.datetime:
    return _dt.datetime.fromisoformat(s.replace("Z", "+00:00"))


# -- matching -----------------------------------------------------------------------------
def fold(text: str) -> str:
    """Lower case, accents and curly quotes folded, whitespace collapsed ("Lucía’s" -> "lucia's")."""
    text = unicodedata.normalize("NFKD", str(text))
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("\u2019", "'").replace("\u2018", "'").casefold()
    return " ".join(text.split())


def mentions(text: str, needle: str) -> bool:
    """Whether ``needle`` occurs in ``text`` on word boundaries, after :func:`fold`."""
    n = fold(needle)
    return bool(n) and re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", fold(text)) is not None


def mentions_any(text: str, needles: Iterable[str]) -> bool:
    return any(mentions(text, n) for n in needles)


def without_question(text: str, question: str) -> str:
    """The context's text with the question's own wording taken out (its header echoes it)."""
    return fold(text).replace(fold(question), " ")


# -- stale shown as current -----------------------------------------------------------------
#: An episode line that says what of it no longer holds ("...; no longer holds: employer Google; ...").
_NO_LONGER = re.compile(r"no longer holds?:([^()]*)", re.I)


def _fact_current(item, at: _dt.datetime) -> bool:
    fact = item.fact
    if getattr(item, "superseded", False):
        return False
    if fact.valid_to is not None and fact.valid_to <= at:
        return False
    if fact.expired_at is not None and fact.expired_at <= at:
        return False
    return True


def _episode_states(item, value: str) -> bool:
    """An episode item states ``value`` as current: its message mentions it, the item is not
    flagged superseded, and its line does not list ``value`` among what no longer holds."""
    if getattr(item, "superseded", False):
        return False
    content = item.episode.content if item.episode is not None else item.text
    if not mentions(content, value):
        return False
    marked = " ".join(m.group(1) for m in _NO_LONGER.finditer(item.text or ""))
    return not mentions(marked, value)


def _current_stale_facts(ctx, stale: Sequence[str], at: _dt.datetime) -> list:
    """The context's fact items whose value mentions a stale string and that hold at ``at``."""
    return [it for it in ctx.items if it.kind == "fact" and it.fact is not None
            and mentions_any(str(it.fact.value), stale) and _fact_current(it, at)]


def stale_items(ctx, gold: Sequence[str], stale: Sequence[str], at: _dt.datetime) -> list:
    """The context's items that present a stale string as current.

    * a **fact** item whose value mentions a stale string, not flagged
      ``superseded``, and whose valid interval and transaction interval are
      open at ``at`` (the question's time);
    * when no item of the context mentions a gold string (the stale value is
      then the only value given): an **episode** item whose message mentions a
      stale string, not flagged ``superseded`` and not listing it after "no
      longer holds:".

    An abstaining context presents nothing.
    """
    if ctx.abstain or not stale:
        return []
    out = _current_stale_facts(ctx, stale, at)
    gold_given = any(
        mentions_any(it.episode.content if it.kind == "episode" and it.episode is not None else
                     (str(it.fact.value) + " " + it.text if it.fact is not None else it.text), gold)
        for it in ctx.items)
    if not gold_given:
        for it in ctx.items:
            if it.kind == "episode" and any(_episode_states(it, s) for s in stale):
                out.append(it)
    return out


def unmarked_stale_items(ctx, stale: Sequence[str], at: _dt.datetime) -> list:
    """Diagnostic, stricter than :func:`stale_items`: every item that mentions a stale string
    without marking it as past, whether or not the gold value is given beside it (a fact by its
    value, an episode by its message: "it's san antonio, not houston" counts, so read it as an
    upper bound on clutter, not as an error count)."""
    if ctx.abstain or not stale:
        return []
    return _current_stale_facts(ctx, stale, at) + [
        it for it in ctx.items if it.kind == "episode" and any(_episode_states(it, s) for s in stale)]


# -- one persona ------------------------------------------------------------------------------
class Clock:
    """The injected clock: stands where the evaluation puts it."""

    def __init__(self, t: _dt.datetime) -> None:
        self.t = t

    def __call__(self) -> _dt.datetime:
        return self.t


def score_question(q: dict, ctx, hits, messages: Sequence[dict]) -> dict:
    at = parse_time(q["asked_at"])
    kind = q["kind"]
    text = without_question(ctx.text, ctx.query or q["question"])
    row: dict[str, Any] = {
        "id": q["id"], "kind": kind, "question": q["question"], "gold": q["gold"], "stale": q["stale"],
        "abstain": bool(ctx.abstain), "reason": ctx.reason, "tokens": ctx.tokens, "items": len(ctx.items),
    }
    if kind == "abstain":
        row["right"] = bool(ctx.abstain)
    else:
        row["right"] = (not ctx.abstain) and mentions_any(text, q["gold"])
        said = {m["id"] for m in messages if parse_time(m["time"]) <= at and mentions_any(m["text"], q["gold"])}
        sources = [h.source_name for h in hits]
        row["evidence_recall"] = any(s in said for s in sources)
        row["evidence_recall_annotated"] = any(s in set(q.get("evidence") or ()) for s in sources)
        row["gold_messages"] = sorted(said)
    if kind in STALE_KINDS and q["stale"]:
        bad = stale_items(ctx, q["gold"], q["stale"], at)
        row["stale_shown_as_current"] = bool(bad)
        row["stale_lines"] = [it.text for it in bad][:3]
        row["stale_unmarked_anywhere"] = bool(unmarked_stale_items(ctx, q["stale"], at))
    row["context_head"] = ctx.text.splitlines()[:8]
    return row


def run_persona(p: dict, *, engine: str | None, embedder, nli, log=None) -> dict:
    from midas_graph import Memory

    msgs = p["messages"]
    questions = sorted(p["questions"], key=lambda q: parse_time(q["asked_at"]))
    clock = Clock(parse_time(msgs[0]["time"]))
    rows: list[dict] = []
    ingest_s = ask_s = 0.0
    with Memory(None, clock=clock, engine=engine, embedder=embedder, nli=nli) as mem:
        qi = 0

        def ask_until(limit: _dt.datetime | None) -> None:
            nonlocal qi, ask_s
            while qi < len(questions) and (limit is None or parse_time(questions[qi]["asked_at"]) < limit):
                q = questions[qi]
                clock.t = parse_time(q["asked_at"])
                t0 = time.perf_counter()
                ctx = mem.context(q["question"], budget_tokens=BUDGET, speaker=q["speaker"])
                hits = mem.recall(q["question"], k=RECALL_K, speaker=q["speaker"])
                ask_s += time.perf_counter() - t0
                row = score_question(q, ctx, hits, msgs)
                row["persona"] = p["id"]
                row["split"] = p["split"]
                row["asked_at"] = q["asked_at"]
                row["note"] = q.get("note", "")
                rows.append(row)
                qi += 1

        for m in msgs:
            when = parse_time(m["time"])
            ask_until(when)
            clock.t = when
            t0 = time.perf_counter()
            mem.add_episode(m["text"], speaker=m["speaker"], reference_time=when, name=m["id"])
            ingest_s += time.perf_counter() - t0
        ask_until(None)
    order = {q["id"]: i for i, q in enumerate(p["questions"])}
    rows.sort(key=lambda r: order[r["id"]])
    info = {"persona": p["id"], "split": p["split"], "messages": len(msgs), "questions": len(rows),
            "ingest_s": round(ingest_s, 2), "ask_s": round(ask_s, 2)}
    if log:
        print(json.dumps(info), file=log, flush=True)
    return {"info": info, "rows": rows}


# -- summary ------------------------------------------------------------------------------------
def _share(xs: Sequence[bool]) -> float | None:
    return round(sum(xs) / len(xs), 4) if xs else None


def summarise(rows: Sequence[dict]) -> dict:
    """Per kind: n and the share right; then false abstain, stale shown as current and the
    evidence-recall diagnostic, each with its denominator."""
    out: dict[str, Any] = {}
    for kind in KINDS:
        rs = [r for r in rows if r["kind"] == kind]
        out[kind] = _share([r["right"] for r in rs])
        out[f"n_{kind}"] = len(rs)
    ans = [r for r in rows if r["kind"] in ANSWERABLE]
    out["false_abstain"] = _share([r["abstain"] for r in ans])
    out["n_answerable"] = len(ans)
    st = [r for r in rows if "stale_shown_as_current" in r]
    out["stale_shown_as_current"] = _share([r["stale_shown_as_current"] for r in st])
    out["n_with_stale"] = len(st)
    out["stale_unmarked_anywhere"] = _share([r["stale_unmarked_anywhere"] for r in st])
    out["current_and_linking_right_and_clean"] = _share(
        [r["right"] and not r.get("stale_shown_as_current", False) for r in rows if r["kind"] in STALE_KINDS])
    out["evidence_recall@10"] = _share([r["evidence_recall"] for r in ans])
    out["evidence_recall@10_annotated"] = _share([r["evidence_recall_annotated"] for r in ans])
    return out


def targets(s: dict) -> dict:
    met = {}
    for key, (op, bound) in TARGETS.items():
        v = s.get(key)
        met[key] = None if v is None else (v >= bound if op == ">=" else v <= bound)
    return met


def report(rows: Sequence[dict], infos: Sequence[dict]) -> dict:
    out: dict[str, Any] = {"splits": {}, "personas": {}}
    for split in (*SPLITS, "all"):
        rs = [r for r in rows if split == "all" or r["split"] == split]
        if rs:
            s = summarise(rs)
            s["personas"] = sorted({r["persona"] for r in rs})
            s["targets_met"] = targets(s)
            out["splits"][split] = s
    for info in infos:
        s = summarise([r for r in rows if r["persona"] == info["persona"]])
        out["personas"][info["persona"]] = {**info, **s}
    # one line per question, so that two runs can be compared question by question
    out["questions"] = {r["id"]: {"kind": r["kind"], "right": r["right"], "abstain": r["abstain"],
                                  "stale_shown_as_current": r.get("stale_shown_as_current")} for r in rows}
    return out


def _git(*args: str) -> str | None:
    import subprocess

    try:
        return subprocess.run(["git", *args], cwd=HERE, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def print_table(summary: dict, out=sys.stderr) -> None:
    cols = ("current", "past", "linking", "abstain", "false_abstain", "stale_shown_as_current",
            "evidence_recall@10")
    head = ("current", "past", "linking", "abstain", "f.abst", "stale", "ev@10")
    print(f"{'':22}" + "".join(f"{h:>9}" for h in head), file=out)

    def line(name, s):
        f = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
        print(f"{name:22}" + "".join(f"{f(s.get(c)):>9}" for c in cols), file=out)

    for name, s in summary["splits"].items():
        line(f"[{name}]", s)
    for name, s in summary["personas"].items():
        line(f"  {name}", s)
    t = summary["splits"].get("heldout")
    if t:
        print("held-out targets: " + ", ".join(f"{k} {TARGETS[k][0]} {TARGETS[k][1]}: "
                                              f"{'met' if v else 'NOT met'}"
                                              for k, v in t["targets_met"].items()), file=out)


def print_trace(rows: Sequence[dict], out=sys.stderr) -> None:
    """Every wrong question (and every stale one shown as current), with the context's reason and first lines."""
    for r in rows:
        wrong = not r["right"]
        stale = r.get("stale_shown_as_current", False)
        if not (wrong or stale):
            continue
        tags = [t for t, on in (("WRONG", wrong), ("STALE", stale)) if on]
        print(f"\n[{'+'.join(tags)}] {r['id']} ({r['kind']}, asked {r['asked_at']}): {r['question']}", file=out)
        print(f"  gold {r['gold']}  stale {r['stale']}  -- {r['note']}", file=out)
        print(f"  abstain={r['abstain']} reason: {r['reason']}", file=out)
        if r.get("stale_lines"):
            for ln in r["stale_lines"]:
                print(f"  stale line: {ln[:200]}", file=out)
        if r["kind"] in ANSWERABLE:
            print(f"  evidence in recall@10: {r['evidence_recall']} (gold in {r['gold_messages'][:6]})", file=out)
        for ln in r["context_head"][:6]:
            print(f"  | {ln[:200]}", file=out)


def main(argv: Sequence[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=("heldout", "heldout2", "dev", "all"), default="heldout",
                    help="which personas to run (default heldout: the reported result)")
    ap.add_argument("--persona", action="append", help="only this persona id (repeatable)")
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--engine", default=None, help="ladybug (default) or kuzu")
    ap.add_argument("--trace", action="store_true", help="list every wrong question with its context")
    ap.add_argument("--out", help="also write the summary JSON here")
    ap.add_argument("--rows", help="write every question's row (JSON lines) here")
    args = ap.parse_args(argv)

    from midas_graph.models import default_embedder, default_nli, load_spacy

    personas = [p for p in load(args.data)
                if (args.split == "all" or p["split"] == args.split)
                and (not args.persona or p["id"] in args.persona)]
    if not personas:
        raise SystemExit("no persona selected")
    t = time.perf_counter()
    embedder, nli = default_embedder(), default_nli()
    load_spacy(), embedder.embed(["warm up"]), nli.scores([("a", "b")])
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    rows, infos = [], []
    for p in personas:
        res = run_persona(p, engine=args.engine, embedder=embedder, nli=nli, log=sys.stderr)
        rows += res["rows"]
        infos.append(res["info"])
    summary = report(rows, infos)
    summary["args"] = {"split": args.split, "persona": args.persona, "engine": args.engine or "ladybug",
                       "budget_tokens": BUDGET, "recall_k": RECALL_K}
    summary["targets"] = {k: f"{op} {v}" for k, (op, v) in TARGETS.items()}
    summary["model_load_s"] = round(load_s, 2)
    summary["run_s"] = round(time.perf_counter() - t, 1)
    summary["date"] = _dt.date.today().isoformat()
    summary["commit"] = _git("rev-parse", "--short", "HEAD")
    summary["package_commit"] = _git("log", "-1", "--format=%h", "--", "../midas_graph", "../schema")
    print_table(summary)
    if args.trace:
        print_trace(rows)
    if args.rows:
        with open(args.rows, "w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False, default=str) + "\n")
    text = json.dumps(summary, indent=2, ensure_ascii=False)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return summary


if __name__ == "__main__":
    main()
