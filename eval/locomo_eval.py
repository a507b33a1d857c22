"""Recall, context and abstention of midas_graph on LoCoMo, against turn baselines.

    python eval/locomo_eval.py [--limit N] [--questions N] [--engine ladybug|kuzu]
                               [--budget 512] [--out eval/results/locomo_eval.json]
                               [--rows rows.jsonl] [--no-baselines]
    python eval/locomo_eval.py --revision [--out eval/results/revision_context.json]

For each conversation (../shared/data/locomo/locomo10.json, loaded by
eval/locomo.py: one episode per turn, named by its dia_id, one memory group
per conversation) a fresh in-memory ``Memory`` ingests every turn with
``add_episodes`` (timed), then every question is asked:

* categories 1-4 (multi-hop, temporal, open-domain, single-hop): **evidence
  recall@5/10/20** -- the fraction of the question's evidence dia_ids among
  the ``source_name`` of the top-k ``recall()`` hits (``recall(k=20)`` is
  called once and cut at 5/10/20) -- and the "any evidence" variant (1 if at
  least one evidence turn is there); the same inside
  ``context(question, budget_tokens=512)``'s items; and the **false-abstain**
  rate (``context.abstain`` on an answerable question);
* category 5 (adversarial: the wrong person, or a detail never said): the
  **abstain** rate of ``context()``;
* every context: its tokens (``midas_graph.models.count_tokens(ctx.text)``)
  and whether it is within the budget (violations are listed; target 0).

Baselines over the same turns (eval/baselines.py): BM25 alone (bm25s), vector
alone (the bundled MiniLM, exact cosine), and a recency window (the latest
turns that fit the same token budget; query-independent, so its recall is
"evidence inside the window" and it has no @k).

Evidence ids are normalised ("D8:6; D9:17" -> two ids, "D30:05" -> "D30:5",
"D:11:26" -> "D11:26"); ids that name no turn of the conversation (3 of
2,822) are dropped, and questions left without evidence (4, all category 3)
are not scored for recall. "Overall" is over categories 1-4, one weight per
question (micro average).

``--revision`` turns the labelled revision cases (eval/data/revision_cases.jsonl)
into questions ("Where does Dana live?") and measures the fraction of cases
whose context holds the current value(s) and never presents the stale value as
current; see :func:`revision_check`.

Targets (issue 5): recall@10 >= 0.80 and above every baseline; every context
within budget; abstain >= 0.70 on category 5 with false-abstain <= 0.10 on
categories 1-4; revision cases >= 0.95.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable, Sequence

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import baselines  # noqa: E402
import locomo  # noqa: E402

KS = (5, 10, 20)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
ANSWERABLE = (1, 2, 3, 4)
TARGETS = {"recall@10": 0.80, "abstain_cat5": 0.70, "false_abstain": 0.10, "revision_ok": 0.95}
SYSTEMS = ("memory", "bm25", "vector")          # ranked systems, scored @k
_EVID = re.compile(r"D:?(\d+):0*(\d+)")


# -- evidence and scoring --------------------------------------------------------
def norm_evidence(evidence: Iterable[str] | None) -> list[str]:
    """LoCoMo evidence ids, cleaned: split joined ids, drop leading zeros, keep order, no duplicates."""
    out: list[str] = []
    for e in evidence or ():
        for s, t in _EVID.findall(str(e)):
            x = f"D{int(s)}:{int(t)}"
            if x not in out:
                out.append(x)
    return out


def recall_at(ranked: Sequence[str | None], evidence: Sequence[str], k: int) -> tuple[float, float]:
    """(fraction of evidence in the first k ranked names, any-evidence 0/1)."""
    return baselines.evidence_recall([n for n in ranked[:k] if n], evidence)


def pct(xs: Sequence[float], q: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def mean(xs: Sequence[float]) -> float | None:
    return round(statistics.fmean(xs), 4) if xs else None


def sample_questions(qa: Sequence[dict], n: int) -> list[dict]:
    """All questions (n = 0), or n of them evenly spaced through the list (LoCoMo
    lists questions roughly by category, so a prefix would miss categories)."""
    if not n or n >= len(qa):
        return list(qa)
    return [qa[int(i * len(qa) / n)] for i in range(n)]


# -- one conversation ----------------------------------------------------------------
def eval_conversation(conv, *, engine: str | None, questions: int, budget: int, embedder,
                      run_baselines: bool = True, log=None) -> dict:
    from midas_graph import Memory
    from midas_graph.models import count_tokens

    names = {e["name"] for e in conv.episodes}
    qa = sample_questions(conv.qa, questions)
    rows: list[dict] = []
    with Memory(None, engine=engine, embedder=embedder) as mem:
        t = time.perf_counter()
        results = mem.add_episodes(conv.episodes, group_id=conv.sample_id, progress=False)
        ingest_s = time.perf_counter() - t
        n_facts = sum(len(r.facts) for r in results)
        if run_baselines:
            t = time.perf_counter()
            bm25 = baselines.BM25Turns(conv.episodes)
            vec = baselines.VectorTurns(conv.episodes, embedder)
            window, window_text = baselines.recency_window(conv.episodes, budget, count=count_tokens)
            baseline_index_s = time.perf_counter() - t
        for i, q in enumerate(qa):
            question = q["question"]
            cat = int(q["category"])
            evidence = [e for e in norm_evidence(q.get("evidence")) if e in names]
            t = time.perf_counter()
            hits = mem.recall(question, k=max(KS), group_id=conv.sample_id)
            recall_ms = (time.perf_counter() - t) * 1e3
            t = time.perf_counter()
            ctx = mem.context(question, budget_tokens=budget, group_id=conv.sample_id)
            context_ms = (time.perf_counter() - t) * 1e3
            counted = count_tokens(ctx.text)
            row: dict[str, Any] = {
                "conv": conv.sample_id, "i": i, "category": cat, "question": question,
                "answer": q.get("answer", q.get("adversarial_answer")), "evidence": evidence,
                "ranked": {"memory": [h.source_name for h in hits[: max(KS)]]},
                "hit_kinds": [h.kind for h in hits[: max(KS)]],
                "context": [it.source_name for it in ctx.items],
                "context_kinds": [it.kind for it in ctx.items],
                "abstain": bool(ctx.abstain), "reason": ctx.reason,
                "tokens": counted, "tokens_reported": ctx.tokens, "over_budget": counted > budget,
                "recall_ms": round(recall_ms, 2), "context_ms": round(context_ms, 2),
            }
            if run_baselines:
                row["ranked"]["bm25"] = [n for n, _ in bm25.search(question, max(KS))]
                row["ranked"]["vector"] = [n for n, _ in vec.search(question, max(KS))]
                row["window"] = window
            if counted > budget:
                row["context_text"] = ctx.text
            rows.append(row)
            if log and (i + 1) % 50 == 0:
                print(f"  {conv.sample_id}: {i + 1}/{len(qa)} questions", file=log, flush=True)
    info = {"sample_id": conv.sample_id, "turns": len(conv.episodes), "questions": len(qa),
            "ingest_s": round(ingest_s, 2), "turns_per_s": round(len(conv.episodes) / ingest_s, 1),
            "facts": n_facts}
    if run_baselines:
        info["baseline_index_s"] = round(baseline_index_s, 2)
        info["recency_window_turns"] = len(window)
        info["recency_window_tokens"] = count_tokens(window_text)
    return {"info": info, "rows": rows}


# -- summary ----------------------------------------------------------------------------
def score_rows(rows: Sequence[dict]) -> dict:
    """Metrics of one block of questions (see the module docstring)."""
    out: dict[str, Any] = {"questions": len(rows)}
    scored = [r for r in rows if r["evidence"]]
    out["with_evidence"] = len(scored)
    systems = [s for s in SYSTEMS if scored and all(s in r["ranked"] for r in scored)]
    for s in systems:
        block = {}
        for k in KS:
            fr, an = zip(*(recall_at(r["ranked"][s], r["evidence"], k) for r in scored))
            block[f"recall@{k}"] = mean(fr)
            block[f"any@{k}"] = mean(an)
        block["distinct_turns@10"] = mean([float(len({n for n in r["ranked"][s][:10] if n})) for r in scored])
        out[s] = block
    if scored:
        fr, an = zip(*(baselines.evidence_recall(r["context"], r["evidence"]) for r in scored))
        out["context"] = {"recall": mean(fr), "any": mean(an)}
        if all("window" in r for r in scored):
            fr, an = zip(*(baselines.evidence_recall(r["window"], r["evidence"]) for r in scored))
            out["recency_window"] = {"recall": mean(fr), "any": mean(an)}
    if rows:
        out["abstain_rate"] = mean([float(r["abstain"]) for r in rows])
        out["context_tokens_mean"] = round(statistics.fmean(r["tokens"] for r in rows), 1)
        out["context_items_mean"] = round(statistics.fmean(len(r["context"]) for r in rows), 2)
        out["over_budget"] = sum(r["over_budget"] for r in rows)
        out["tokens_mismatch"] = sum(r["tokens"] != r["tokens_reported"] for r in rows)
    return out


def summarise(rows: Sequence[dict], infos: Sequence[dict], budget: int) -> dict:
    by_cat = defaultdict(list)
    for r in rows:
        by_cat[r["category"]].append(r)
    answerable = [r for r in rows if r["category"] in ANSWERABLE]
    cats = {f"{c} {CATEGORIES[c]}": score_rows(rs) for c, rs in sorted(by_cat.items())}
    overall = score_rows(answerable)
    overall["false_abstain_rate"] = overall.pop("abstain_rate", None)
    for c, rs in sorted(by_cat.items()):
        key = f"{c} {CATEGORIES[c]}"
        if c in ANSWERABLE:
            cats[key]["false_abstain_rate"] = cats[key].pop("abstain_rate", None)
    adv = by_cat.get(5, [])
    turns = sum(i["turns"] for i in infos)
    ingest = sum(i["ingest_s"] for i in infos)
    lat_r = [r["recall_ms"] for r in rows]
    lat_c = [r["context_ms"] for r in rows]
    summary = {
        "benchmark": "locomo_eval",
        "budget_tokens": budget,
        "conversations": len(infos),
        "questions": len(rows),
        "overall_cat1_4": overall,
        "categories": cats,
        "abstain_cat5": mean([float(r["abstain"]) for r in adv]),
        "false_abstain_cat1_4": overall.get("false_abstain_rate"),
        "over_budget": sum(r["over_budget"] for r in rows),
        "over_budget_examples": [{k: r[k] for k in ("conv", "question", "tokens", "context_text")}
                                 for r in rows if r["over_budget"]][:5],
        "context_tokens_mean": round(statistics.fmean(r["tokens"] for r in rows), 1) if rows else None,
        "latency_ms": {"recall_p50": pct(lat_r, 0.5), "recall_p95": pct(lat_r, 0.95),
                       "context_p50": pct(lat_c, 0.5), "context_p95": pct(lat_c, 0.95)},
        "ingest": {"turns": turns, "seconds": round(ingest, 1),
                   "turns_per_s": round(turns / ingest, 1) if ingest else None},
        "per_conversation": list(infos),
    }
    summary["targets"] = targets(summary)
    summary["failure_examples"] = failure_examples(rows)
    return summary


def targets(s: dict) -> dict:
    o = s["overall_cat1_4"]
    r10 = (o.get("memory") or {}).get("recall@10")
    base = {b: (o.get(b) or {}).get("recall@10") for b in ("bm25", "vector")}
    if "recency_window" in o:
        base["recency_window"] = o["recency_window"]["recall"]
    base = {k: v for k, v in base.items() if v is not None}
    out = {
        "recall@10>=0.80": {"value": r10, "ok": r10 is not None and r10 >= TARGETS["recall@10"]},
        "recall@10>every_baseline": {"value": r10, "baselines": base,
                                     "ok": r10 is not None and bool(base) and all(r10 > v for v in base.values())},
        "context_within_budget": {"violations": s["over_budget"], "ok": s["over_budget"] == 0},
        "abstain_cat5>=0.70": {"value": s["abstain_cat5"],
                               "ok": s["abstain_cat5"] is not None and s["abstain_cat5"] >= TARGETS["abstain_cat5"]},
        "false_abstain<=0.10": {"value": s["false_abstain_cat1_4"],
                                "ok": s["false_abstain_cat1_4"] is not None
                                and s["false_abstain_cat1_4"] <= TARGETS["false_abstain"]},
    }
    return out


def failure_examples(rows: Sequence[dict], per_category: int = 4) -> dict:
    """A few typical failures per category: answerable questions whose evidence is not
    in recall's top 10 (with what BM25 found), false abstentions, and adversarial
    questions that were not abstained on."""
    out: dict[str, list] = defaultdict(list)
    for r in rows:
        key = f"{r['category']} {CATEGORIES[r['category']]}"
        if len(out[key]) >= per_category:
            continue
        if r["category"] in ANSWERABLE and r["evidence"]:
            missed = recall_at(r["ranked"]["memory"], r["evidence"], 10)[1] == 0
            if missed or r["abstain"]:
                out[key].append({"question": r["question"], "answer": r["answer"], "evidence": r["evidence"],
                                 "memory_top10": r["ranked"]["memory"][:10],
                                 "bm25_top10": r["ranked"].get("bm25", [])[:10],
                                 "missed@10": missed, "abstain": r["abstain"], "reason": r["reason"]})
        elif r["category"] == 5 and not r["abstain"]:
            out[key].append({"question": r["question"], "adversarial_answer": r["answer"],
                             "evidence": r["evidence"], "context": r["context"][:10], "reason": r["reason"]})
    return dict(out)


def print_table(s: dict, out=sys.stderr) -> None:
    f = lambda v: "  -  " if v is None else f"{v:5.3f}"  # noqa: E731
    hdr = (f"{'block':16} {'n':>5} | {'mem@5':>6} {'mem@10':>6} {'mem@20':>6} {'any@10':>6} | {'ctx':>6} {'ctxany':>6} | "
           f"{'bm25@10':>7} {'vec@10':>6} {'recent':>6} | {'abst':>5} {'tok':>5}")
    print(hdr, file=out)
    print("-" * len(hdr), file=out)
    blocks = [*s["categories"].items(), ("OVERALL 1-4", s["overall_cat1_4"])]
    for name, b in blocks:
        m = b.get("memory") or {}
        ctx = b.get("context") or {}
        abst = b.get("false_abstain_rate", b.get("abstain_rate"))
        print(f"{name:16} {b['questions']:5d} | {f(m.get('recall@5')):>6} {f(m.get('recall@10')):>6} "
              f"{f(m.get('recall@20')):>6} {f(m.get('any@10')):>6} | {f(ctx.get('recall')):>6} {f(ctx.get('any')):>6} | "
              f"{f((b.get('bm25') or {}).get('recall@10')):>7} {f((b.get('vector') or {}).get('recall@10')):>6} "
              f"{f((b.get('recency_window') or {}).get('recall')):>6} | {f(abst):>5} {b.get('context_tokens_mean', 0):5.0f}",
              file=out)
    print("(abst = false-abstain rate on 1-4, abstain rate on 5; ctx = evidence recall inside context())", file=out)
    for name, t in s["targets"].items():
        print(f"target {name:28} {'PASS' if t['ok'] else 'FAIL'}  {json.dumps({k: v for k, v in t.items() if k != 'ok'})}",
              file=out)


# -- revision cases as questions -------------------------------------------------------
# (third person, first person) templates; {s} subject, {a} attribute words.
QUESTION_TEMPLATES: dict[str, tuple[str, str]] = {
    "lives_in": ("Where does {s} live?", "Where do I live?"),
    "employer": ("Where does {s} work?", "Where do I work?"),
    "job_title": ("What is {s}'s job?", "What is my job?"),
    "likes": ("What does {s} like?", "What do I like?"),
    "dislikes": ("What does {s} dislike?", "What do I dislike?"),
    "speaks": ("What languages does {s} speak?", "What languages do I speak?"),
    "plays": ("What does {s} play?", "What do I play?"),
    "drinks": ("What does {s} drink?", "What do I drink?"),
    "eats": ("What does {s} eat?", "What do I eat?"),
    "learning": ("What is {s} learning?", "What am I learning?"),
    "member_of": ("What is {s} a member of?", "What am I a member of?"),
    "has": ("What does {s} have?", "What do I have?"),
    "has_dog": ("What is the name of {s}'s dog?", "What is the name of my dog?"),
    "has_cat": ("What is the name of {s}'s cat?", "What is the name of my cat?"),
    "age": ("How old is {s}?", "How old am I?"),
    "num_kids": ("How many kids does {s} have?", "How many kids do I have?"),
    "allergy": ("What is {s} allergic to?", "What am I allergic to?"),
    "spouse": ("Who is {s}'s spouse?", "Who is my spouse?"),
    "manager": ("Who is {s}'s manager?", "Who is my manager?"),
    "daughter": ("Who is {s}'s daughter?", "Who is my daughter?"),
    "son": ("Who is {s}'s son?", "Who is my son?"),
    "birthday": ("When is {s}'s birthday?", "When is my birthday?"),
    "deadline": ("When is the {s} deadline?", "When is my deadline?"),
    "release_date": ("When is the {s} release date?", "When is my release date?"),
    "review_date": ("When is the {s} review?", "When is my review?"),
}
GENERIC_TEMPLATE = ("What is {s}'s {a}?", "What is my {a}?")
FIRST_PERSON_SUBJECTS = {"user"}
# A line "marks" a value as not current when it says so in words.
PAST_MARK = re.compile(
    r"\b(superseded|supersedes|replaced|retracted|outdated|no longer|formerly|former|previously|previous|"
    r"past|ended|until|used to|not current|stale|was true)\b", re.I)


def question_for(subject: str, attribute: str) -> str:
    """A natural question about ``subject``'s ``attribute`` (first person for the default speaker)."""
    first = subject.casefold() in FIRST_PERSON_SUBJECTS
    if attribute.startswith("favorite_"):
        what = attribute[len("favorite_"):].replace("_", " ")
        tpl = ("What is {s}'s favorite " + what + "?", "What is my favorite " + what + "?")
    else:
        tpl = QUESTION_TEMPLATES.get(attribute, GENERIC_TEMPLATE)
    words = attribute.replace("_", " ")
    return tpl[1 if first else 0].format(s=subject, a=words)


_NUM_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"]
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "mn": 1e6, "b": 1e9, "billion": 1e9}
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|\b\d{1,2}:\d{2}\b")


def norm(v: Any) -> str:
    return " ".join(str(v).casefold().split())


def _numbers(text: str) -> set[float]:
    """Numbers stated in ``text`` (timestamps removed): "$10,000" -> 10000, "$2 million" -> 2e6, "two" -> 2."""
    text = _TIMESTAMP.sub(" ", text.casefold())
    out = set()
    for m in re.finditer(r"(\d[\d,]*(?:\.\d+)?)(?:\s*(thousand|million|billion|mn|k|m|b)\b)?", text):
        try:
            x = float(m.group(1).replace(",", ""))
        except ValueError:
            continue
        out.add(x)
        if m.group(2):
            out.add(x * _SCALE[m.group(2)])
    for w in re.findall(r"[a-z]+", text):
        if w in _NUM_WORDS:
            out.add(float(_NUM_WORDS[w]))
    return out


def mentions_value(text: str, value: Any) -> bool:
    """Does ``text`` state ``value`` (a normalised fact value from the revision cases)?

    Literal words match on word boundaries; numbers (with units) match any
    equal number in the text ("$10,000" for "10000 USD", "two" for 2);
    ISO dates match "March 15" / "15 March", their weekday ("on Tuesday")
    or the ISO form; "--MM-DD" birthdays match the month and day.
    """
    t = text.casefold()
    v = norm(value)
    if not v:
        return False
    bare = t if re.fullmatch(r"(\d{4}|-)-\d{2}-\d{2}", v) else _TIMESTAMP.sub(" ", t)  # no "10" in "10:00"
    if re.search(r"(?<!\w)" + re.escape(v) + r"(?!\w)", bare):
        return True
    m = re.fullmatch(r"(\d{4}|-)-(\d{2})-(\d{2})", v)
    if m:
        month, day = _MONTHS[int(m.group(2)) - 1], int(m.group(3))
        mon = month[:3]
        if m.group(1) != "-":   # a full date also matches its weekday ("on Tuesday")
            wd = _dt.date(int(m.group(1)), int(m.group(2)), day).strftime("%A").casefold()
            if re.search(rf"\b{wd}\b", t):
                return True
        return bool(re.search(rf"\b({month}|{mon}\.?)\s+0?{day}(st|nd|rd|th)?\b"
                              rf"|\b0?{day}(st|nd|rd|th)?\s+(of\s+)?({month}|{mon})\b", t))
    m = re.fullmatch(r"(\d[\d,]*(?:\.\d+)?)\s*(%|[a-z]+)?", v)
    if m:
        x = float(m.group(1).replace(",", ""))
        return x in _numbers(t)
    return False


def revision_check(case: dict, ctx, *, as_of_ctx=None) -> dict:
    """Score one case's context.

    Each context item is classified by what it carries:

    * a **fact** item presents ``value`` as current when the fact's value is
      ``value`` (not its sentence: "I meant Lisbon, not Porto" is a fact about
      Lisbon) and the line has no past marker (``PAST_MARK``: "superseded",
      "until", "formerly", ...) and the item is not flagged ``superseded``;
    * an **episode** item presents ``value`` as current when the quoted turn
      states it and the line has no past marker, except the case's last turn
      when ``value`` is the stale one (the update itself names what it
      replaces: "Sorry, I meant Lisbon, not Porto").

    ``holds_current``: every current value is presented as current by some
    item. ``stale_as_current``: some item presents the stale value as current
    (strict: fact and episode lines; ``stale_fact_as_current``: fact lines
    only). ``ok`` = holds_current and not stale_as_current.
    """
    stale = case.get("stale")
    current = list(case.get("current") or [])
    last_turn = norm(case["turns"][-1]["content"])

    def states(item, value) -> bool:
        fact = getattr(item, "fact", None)
        if fact is not None:
            return norm(fact.value) == norm(value) or mentions_value(str(fact.value), value)
        ep = getattr(item, "episode", None)
        if ep is not None:
            return mentions_value(ep.content, value)
        return mentions_value(item.text, value)

    def as_current(item, value, *, is_stale: bool) -> bool:
        if not states(item, value):
            return False
        if getattr(item, "superseded", False) or PAST_MARK.search(item.text or ""):
            return False
        ep = getattr(item, "episode", None)
        if is_stale and ep is not None and norm(ep.content) == last_turn:
            return False
        return True

    items = list(ctx.items)
    holds = {str(v): any(as_current(it, v, is_stale=False) for it in items) for v in current}
    stale_items = [it for it in items if stale is not None and as_current(it, stale, is_stale=True)]
    row = {
        "id": case["id"], "category": case["category"],
        "holds_current": all(holds.values()),
        "stale_as_current": bool(stale_items),
        "stale_fact_as_current": any(getattr(it, "fact", None) is not None for it in stale_items),
        "abstain": bool(ctx.abstain), "reason": ctx.reason, "tokens": ctx.tokens,
        "missing_current": [v for v, ok in holds.items() if not ok],
        "stale_lines": [it.text for it in stale_items][:3],
    }
    row["ok"] = row["holds_current"] and not row["stale_as_current"]
    row["ok_facts_only"] = row["holds_current"] and not row["stale_fact_as_current"]
    if as_of_ctx is not None:
        exp = case["as_of"]["expect"]
        row["as_of_ok"] = all(any(as_current(it, v, is_stale=False) or states(it, v) for it in as_of_ctx.items)
                              for v in exp)
    return row


def run_revision(*, engine: str | None, budget: int, embedder, nli, verbose: bool = False) -> dict:
    from midas_graph import Memory

    cases = [json.loads(x) for x in (HERE / "data" / "revision_cases.jsonl").read_text("utf-8").splitlines() if x.strip()]
    rows = []
    t0 = time.perf_counter()
    for case in cases:
        with Memory(None, engine=engine, embedder=embedder, nli=nli) as mem:
            mem.add_episodes(case["turns"], progress=False)
            q = question_for(case["subject"], case["attribute"])
            ctx = mem.context(q, budget_tokens=budget)
            as_of_ctx = None
            if case.get("as_of"):
                as_of_ctx = mem.context(q, budget_tokens=budget, valid_at=case["as_of"]["valid_at"])
            row = revision_check(case, ctx, as_of_ctx=as_of_ctx)
            row["question"] = q
            if not row["ok"] or not row.get("as_of_ok", True):
                row["context_text"] = ctx.text
            rows.append(row)
            if verbose and not row["ok"]:
                print(json.dumps(row, ensure_ascii=False), file=sys.stderr)

    def block(rs):
        return {"cases": len(rs), "ok": mean([float(r["ok"]) for r in rs]),
                "ok_facts_only": mean([float(r["ok_facts_only"]) for r in rs]),
                "holds_current": mean([float(r["holds_current"]) for r in rs]),
                "stale_as_current": mean([float(r["stale_as_current"]) for r in rs if _has_stale(cases, r)]) ,
                "abstain": mean([float(r["abstain"]) for r in rs])}

    by_cat = defaultdict(list)
    for r in rows:
        by_cat[r["category"]].append(r)
    as_of_rows = [r for r in rows if "as_of_ok" in r]
    summary = {
        "benchmark": "revision_context",
        "budget_tokens": budget,
        "overall": block(rows),
        "categories": {c: block(rs) for c, rs in sorted(by_cat.items())},
        "as_of_ok": mean([float(r["as_of_ok"]) for r in as_of_rows]),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    summary["target"] = {"ok>=0.95": {"value": summary["overall"]["ok"],
                                      "ok": (summary["overall"]["ok"] or 0) >= TARGETS["revision_ok"]}}
    summary["failures"] = [r for r in rows if not r["ok"]][:40]
    return summary


def _has_stale(cases, row) -> bool:
    return next(c for c in cases if c["id"] == row["id"]).get("stale") is not None


def print_revision(s: dict, out=sys.stderr) -> None:
    f = lambda v: "  -  " if v is None else f"{v:5.3f}"  # noqa: E731
    print(f"{'category':32} {'n':>4} {'ok':>6} {'okfact':>6} {'holds':>6} {'stale':>6} {'abst':>6}", file=out)
    for c, b in [*s["categories"].items(), ("OVERALL", s["overall"])]:
        print(f"{c:32} {b['cases']:4d} {f(b['ok']):>6} {f(b['ok_facts_only']):>6} {f(b['holds_current']):>6} "
              f"{f(b['stale_as_current']):>6} {f(b['abstain']):>6}", file=out)
    print(f"as_of (late arrivals, valid_at): {f(s['as_of_ok'])}", file=out)
    t = s["target"]["ok>=0.95"]
    print(f"target ok>=0.95 {'PASS' if t['ok'] else 'FAIL'} ({f(t['value'])})", file=out)


# -- main ------------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=None, help="ladybug (default) or kuzu")
    ap.add_argument("--limit", type=int, default=0, help="only the first N conversations (0 = all)")
    ap.add_argument("--questions", type=int, default=0,
                    help="only N questions per conversation, evenly spaced (0 = all)")
    ap.add_argument("--budget", type=int, default=512, help="context budget in tokens")
    ap.add_argument("--no-baselines", action="store_true", help="skip the baselines (faster)")
    ap.add_argument("--revision", action="store_true", help="run the revision-cases check instead of LoCoMo")
    ap.add_argument("--out", help="also write the summary JSON here")
    ap.add_argument("--rows", help="write every question's row (JSON lines) here")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)

    from midas_graph import Memory
    from midas_graph.models import default_embedder, default_nli, load_spacy

    if not hasattr(Memory, "recall") or not hasattr(Memory, "context"):
        raise SystemExit("Memory.recall/context are not in this checkout of midas_graph yet")
    embedder, nli = default_embedder(), default_nli()
    t = time.perf_counter()
    load_spacy(), embedder.embed(["warm up"]), nli.scores([("a", "b")])
    load_s = time.perf_counter() - t

    if args.revision:
        summary = run_revision(engine=args.engine, budget=args.budget, embedder=embedder, nli=nli,
                               verbose=args.verbose)
        print_revision(summary)
    else:
        convs = locomo.load()[: args.limit or None]
        rows, infos = [], []
        for conv in convs:
            res = eval_conversation(conv, engine=args.engine, questions=args.questions, budget=args.budget,
                                    embedder=embedder, run_baselines=not args.no_baselines, log=sys.stderr)
            rows += res["rows"]
            infos.append(res["info"])
            print(json.dumps(res["info"]), file=sys.stderr, flush=True)
        summary = summarise(rows, infos, args.budget)
        summary["args"] = {k: v for k, v in vars(args).items() if k not in ("out", "rows")}
        summary["model_load_s"] = round(load_s, 2)
        print_table(summary)
        if args.rows:
            with open(args.rows, "w", encoding="utf-8") as fh:
                for r in rows:
                    fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    summary["engine"] = args.engine or "ladybug"
    summary["date"] = _dt.date.today().isoformat()
    text = json.dumps(summary, indent=2, ensure_ascii=False)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
