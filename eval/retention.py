"""Retention harness: eviction policies at equal budget (issue 18 item 7).

    python eval/retention.py --quick                       # synthetic (dev seed) + 2 LoCoMo dev conversations
    python eval/retention.py [--split dev|report|all] [--datasets synthetic,locomo,revision]
                             [--questions N] [--engine ladybug|kuzu] [--trace] [--out FILE]

Every history is ingested once into a fresh file-backed ``Memory`` whose clock
stands one hour after its last turn (the agent is still in the conversation:
the last day is the short tier, which forgetting never takes). Then, for each
policy, every cold episode is warmed again and ``Memory.forget`` keeps 50%, then
25%, of the history's episodes hot (the cold set at 25% contains the one at 50%
for every policy here, so the second step continues from the first), and the
questions are asked after each step. Policies, all under the same floor (fact
sources, closings, confirmations, the short tier are never forgotten):

* ``value`` -- importance (0.6 structural + 0.4 content), the default;
* ``content`` / ``structural`` -- that one score;
* ``graph`` -- importance + 0.2 x graph score (``_centrality``: PageRank over
  the entity graph of held facts and co-mentions);
* ``fifo`` -- oldest first;
* ``random`` -- a seeded random order, seeds 0-4 (mean and spread);
* ``protect`` -- importance as a protection only: FIFO, but the turns whose
  importance is in the top quarter of the history go last (the design's
  "importance as protection" lever).

Metrics per (history set, level, policy): evidence recall@10 (fraction of a
question's evidence turns among the ``source_name`` of ``recall(k=10)``),
evidence inside ``context(budget_tokens=512)``, category-5 abstain and false
abstain (LoCoMo), the revision probes (the current value in context, the old
one never shown as current), context tokens, hot episodes, database bytes, and
a SHA-256 of ``as_of`` at a grid of (valid time, transaction time) and
``history`` of every subject, which must not change.

Database bytes: ``in_place`` is the file after a ``CHECKPOINT`` (the value
policy, measured before any warm rewrote vectors); ``rebuilt`` is a fresh file
the memory was exported into and imported from (cold episodes carry no vectors),
after a checkpoint; ``rebuilt_pages_used`` the pages its column chunks use (the
file itself grows in steps of many pages). The target: the pages in use fall by
at least the bytes the forget reports say went since keep-100% (the vectors of
what went cold). ``vacuum``: after the ``value`` policy's last level,
``midas_graph.vacuum`` (here ``Memory._vacuum``, on the open memory) rebuilds the memory's own file in place (file bytes before
and after, and the as-of hash after it); the later policies run on the
vacuumed file.

Data:

* ``synthetic`` -- :func:`synthetic_history`: a seeded 4-month chat of two
  friends where each gold detail (a number, a name, a place) is said once
  among filler (backchannels, small talk, topical distractors), and old values
  are repeated loudly right before they change. Seed 1 is the development
  set, seeds 2-4 are reported.
* ``locomo`` -- LoCoMo (eval/locomo.py; evidence and sampling from
  eval/locomo_eval.py). Conversations 1-3 are the development split, 4-10 are
  reported.
* ``revision`` -- the labelled revision cases (eval/data/revision_cases.jsonl,
  scored by ``locomo_eval.revision_check``): a memory per case, each policy
  at each level, ok = current value held and no stale value shown as current.

``--trace`` lists every evicted gold item (an evidence turn that went cold)
with its value and why: its rank among the candidates, the value at the cut,
its scores and age. Targets (issue 18): on the synthetic set value >= FIFO +
0.15 and >= random + 0.25 in recall@10 at keep-50%, value >= FIFO at keep-25%;
on LoCoMo value >= FIFO at both levels; revision ok stays at its keep-100%
figure (1.000) with no stale value shown as current; the as-of hash identical;
bytes fall at least in proportion.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import baselines  # noqa: E402
import locomo  # noqa: E402
import locomo_eval  # noqa: E402

UTC = dt.timezone.utc
LEVELS = (1.0, 0.5, 0.25)
NAMED = ("value", "content", "structural", "graph", "fifo")
RANDOM_SEEDS = (0, 1, 2, 3, 4)
#: ``protect``: the top quarter of importance is forgotten last.
PROTECT_QUANTILE = 0.75
BUDGET = 512
K = 10
DEV_CONVERSATIONS = 3
SYNTH_DEV_SEEDS = (1,)
SYNTH_REPORT_SEEDS = (2, 3, 4)


# -- policies -------------------------------------------------------------------------
def random_policy(seed: int) -> Callable:
    """A seeded random order: a hash of (seed, episode id)."""
    def rank(ep) -> float:
        h = hashlib.blake2b(f"{seed}:{ep.id}".encode(), digest_size=8).digest()
        return int.from_bytes(h, "big") / 2**64
    rank.__name__ = f"random{seed}"
    return rank


def protect_policy(episodes: Sequence[Any]) -> Callable:
    """FIFO, with the turns whose importance is in the top quarter last."""
    imps = sorted(e.importance or 0.0 for e in episodes)
    cut = imps[int(PROTECT_QUANTILE * (len(imps) - 1))] if imps else 0.0
    times = sorted(e.reference_time for e in episodes)
    span = max(1.0, (times[-1] - times[0]).total_seconds()) if times else 1.0
    t0 = times[0] if times else None

    def rank(ep) -> float:
        frac = (ep.reference_time - t0).total_seconds() / span if t0 else 0.0
        return (1.0 if (ep.importance or 0.0) >= cut and cut > 0 else 0.0) + min(frac, 0.999999)
    rank.__name__ = "protect"
    return rank


def policy_list(names: Sequence[str], episodes: Sequence[Any]) -> list[tuple[str, Any]]:
    """(label, what ``forget(policy=)`` gets) in the order run."""
    out: list[tuple[str, Any]] = []
    for n in names:
        if n == "random":
            out += [(f"random{s}", random_policy(s)) for s in RANDOM_SEEDS]
        elif n == "protect":
            out.append(("protect", protect_policy(episodes)))
        else:
            out.append((n, n))
    return out


# -- invariants -----------------------------------------------------------------------
def belief_hash(mem, group: str, times: Sequence[dt.datetime], knowns: Sequence[dt.datetime]) -> str:
    """SHA-256 over ``as_of`` (whole group) at every (T, K) of the grid and
    ``history`` of every subject held or ever stated."""
    h = hashlib.sha256()
    subjects: set[str] = set()
    for t in [None, *times]:
        for k in [None, *knowns]:
            facts = mem.as_of(valid_at=t, known_at=k, group_id=group)
            h.update(json.dumps(sorted(f.vid for f in facts)).encode())
            subjects.update(f.subject for f in facts)
    for s in sorted(subjects):
        h.update(json.dumps([f.to_dict() for f in mem.history(s, group_id=group)], default=str,
                            sort_keys=True).encode())
    return h.hexdigest()


def grid(episodes: Sequence[dict], start: dt.datetime, end: dt.datetime, n: int = 6
         ) -> tuple[list[dt.datetime], list[dt.datetime]]:
    ref = sorted(e["reference_time"] for e in episodes)
    times = [ref[int(i * (len(ref) - 1) / (n - 1))] for i in range(n)]
    knowns = [start + (end - start) * i / (n - 1) for i in range(n)]
    return times, knowns


class Clock:
    """The memory's clock: starts at ``start`` and moves a millisecond a call."""

    def __init__(self, start: dt.datetime) -> None:
        self.t = start

    def __call__(self) -> dt.datetime:
        self.t += dt.timedelta(milliseconds=1)
        return self.t


# -- bytes ---------------------------------------------------------------------------------
def dir_bytes(d: str) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))


def rebuilt_bytes(mem, engine: str | None) -> tuple[int, int]:
    """(file bytes, bytes of the pages its column chunks use) of a fresh file
    the memory is exported into (checkpointed). The file grows in steps of
    many pages, so the pages in use are the finer measure."""
    from midas_graph import Memory, _io

    d = tempfile.mkdtemp(prefix="retention-copy-")
    try:
        with Memory(os.path.join(d, "copy.db"), engine=engine) as copy:
            _io.import_rows(copy, enumerate(_io.export_rows(mem), 1))
            copy._store.checkpoint()
            used = sum(sum(c.values()) for c in copy._store.storage_pages().values()) * 4096
            return dir_bytes(d), used
    finally:
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
        os.rmdir(d)


# -- asking ----------------------------------------------------------------------------------
def ask(mem, group: str, questions: Sequence[dict], budget: int = BUDGET) -> list[dict]:
    """One row per question: evidence recall@10, evidence in context, abstain, tokens,
    and the revision check of a probe."""
    from midas_graph.models import count_tokens

    rows = []
    for q in questions:
        row: dict[str, Any] = {"category": q.get("category", 4)}
        ctx = mem.context(q["question"], budget_tokens=budget, group_id=group)
        row["abstain"] = bool(ctx.abstain)
        row["tokens"] = count_tokens(ctx.text)
        if q.get("evidence"):
            hits = mem.recall(q["question"], k=K, group_id=group)
            row["recall@10"] = baselines.evidence_recall([h.source_name for h in hits if h.source_name],
                                                         q["evidence"])[0]
            row["context"] = baselines.evidence_recall([it.source_name for it in ctx.items if it.source_name],
                                                       q["evidence"])[0]
        if q.get("probe"):
            row["probe"] = locomo_eval.revision_check(q["probe"], ctx)
        rows.append(row)
    return rows


def score(rows: Sequence[dict]) -> dict:
    def m(xs):
        xs = list(xs)
        return round(statistics.fmean(xs), 4) if xs else None

    ans = [r for r in rows if r["category"] != 5]
    scored = [r for r in ans if "recall@10" in r]
    probes = [r["probe"] for r in rows if "probe" in r]
    out = {"questions": len(rows), "recall@10": m(r["recall@10"] for r in scored),
           "context": m(r["context"] for r in scored),
           "abstain_cat5": m(float(r["abstain"]) for r in rows if r["category"] == 5),
           "false_abstain": m(float(r["abstain"]) for r in ans),
           "tokens": m(r["tokens"] for r in rows)}
    if probes:
        out["probes_ok"] = m(float(p["ok"]) for p in probes)
        out["probes_stale_as_current"] = m(float(p["stale_as_current"]) for p in probes)
    return out


# -- one history -------------------------------------------------------------------------------
def run_history(mem, group: str, episodes: Sequence[dict], questions: Sequence[dict], names: Sequence[str], *,
                ids: dict[str, str], hash_grid, engine: str | None, dbdir: str | None, trace: bool,
                measure_bytes: bool = True, levels: Sequence[float] = LEVELS, log=None) -> dict:
    """Every policy at every level on one ingested history (see the module docstring)."""
    from midas_graph import _centrality

    by_id = {v: k for k, v in ids.items()}
    gold = {e for q in questions for e in q.get("evidence") or ()}
    base_hash = belief_hash(mem, group, *hash_grid)
    all_eps = mem._store.episodes_by_id(list(ids.values()), group)
    t = time.perf_counter()
    full = score(ask(mem, group, questions))
    out: dict[str, Any] = {"episodes": len(ids), "questions": len(questions), "gold_turns": len(gold),
                           "levels": {"1.0": {"all": full}}, "hash_ok": True, "trace": []}
    protected = mem._store.protected_episodes(group)
    out["gold_protected"] = sum(1 for g in gold if ids.get(g) in protected)
    # consolidation's yield (a dry run: nothing goes cold): restatements of one speaker at cosine >= 0.92
    cons = mem.consolidate(group_id=group, dry_run=True)
    out["consolidate"] = {"groups": cons["groups"], "would_go_cold": len(cons["cold"]), "kept_by_floor": cons["kept"],
                          "yield": round(len(cons["cold"]) / max(1, len(ids)), 4),
                          "gold_would_go_cold": sum(1 for eid, _ in cons["cold"] if by_id.get(eid) in gold)}
    if log:
        print(f"  {group}: keep 100%: {json.dumps(full)} ({time.perf_counter() - t:.0f} s)", file=log, flush=True)
    if measure_bytes and dbdir:
        mem._store.checkpoint()
        rb, used = rebuilt_bytes(mem, engine)
        out["bytes"] = {"1.0": {"in_place": dir_bytes(dbdir), "rebuilt": rb, "rebuilt_pages_used": used}}
    graph = _centrality.episode_scores(mem._store, group)
    for label, spec in policy_list(names, all_eps):
        cold = [i for i in ids.values() if i not in protected]
        cold = [e.id for e in mem._store.episodes_by_id(cold, group) if e.cold_at is not None]
        if cold:
            mem.warm(cold, group_id=group)
        for level in levels:
            if level >= 1.0:
                continue
            t = time.perf_counter()
            report = mem.forget(keep_fraction=level, policy=spec, group_id=group)
            res = score(ask(mem, group, questions))
            res.update({"hot": report.hot_after, "cold": len(ids) - report.hot_after, "floor": report.floor,
                        "short_of": report.short_of, "episode_bytes_before": report.bytes_before,
                        "episode_bytes_after": report.bytes_after})
            h = belief_hash(mem, group, *hash_grid)
            res["hash_ok"] = h == base_hash
            out["hash_ok"] &= res["hash_ok"]
            out["levels"].setdefault(str(level), {})[label] = res
            if report.already_cold == 0:
                full_episode_bytes = report.bytes_before  # all hot: every policy starts warmed
            if measure_bytes and dbdir and label == "value":
                mem._store.checkpoint()
                rb, used = rebuilt_bytes(mem, engine)
                b = {"in_place": dir_bytes(dbdir), "rebuilt": rb, "rebuilt_pages_used": used,
                     "episode_bytes_went": full_episode_bytes - report.bytes_after}
                out["bytes"][str(level)] = b
            if measure_bytes and dbdir and label == "value" and level == min(levels):
                # midas_graph.vacuum on the open memory itself: the file rebuilt in place, every answer the same
                mem._store.checkpoint()
                v = mem._vacuum()
                out["bytes"]["vacuum"] = {"level": level, "file_before": v["bytes_before"],
                                          "file_after": v["bytes_after"],
                                          "hash_ok": belief_hash(mem, group, *hash_grid) == base_hash}
                out["hash_ok"] &= out["bytes"]["vacuum"]["hash_ok"]
            if trace:
                out["trace"] += trace_rows(mem, group, label, level, report, gold, ids, by_id, graph)
            if log:
                print(f"  {group}: {label} keep {level:.0%}: recall@10 {res['recall@10']} context {res['context']} "
                      f"hash {'ok' if res['hash_ok'] else 'CHANGED'} ({time.perf_counter() - t:.0f} s)",
                      file=log, flush=True)
    return out


def trace_rows(mem, group, label, level, report, gold, ids, by_id, graph) -> list[dict]:
    """Every gold turn that is cold after this step: its value and why."""
    now = mem.now()
    values = dict(report.cold)
    gold_ids = {ids[g] for g in gold if g in ids}
    cold_gold = [e for e in mem._store.episodes_by_id(list(gold_ids), group) if e.cold_at is not None]
    ranked = [v for _, v in report.cold]
    cut = ranked[-1] if ranked else None
    rows = []
    for e in cold_gold:
        age = (now - e.reference_time).total_seconds() / 86400
        v = values.get(e.id)
        rank = next((i for i, (cid, _) in enumerate(report.cold) if cid == e.id), None)
        why = (f"rank {rank + 1} of the {len(report.cold)} made cold at this step (value {v}, cut {cut})"
               if rank is not None else f"already cold ({e.cold_reason})")
        rows.append({"policy": label, "level": level, "turn": by_id.get(e.id), "value": v, "why": why,
                     "importance": e.importance, "content": e.content_score, "structural": e.structural_score,
                     "graph": round(graph.get(e.id, 0.0), 4), "age_days": round(age, 1),
                     "text": e.content[:120]})
    return rows


def ingest(episodes: Sequence[dict], group: str, *, engine: str | None, embedder, nli, dbdir: str | None):
    """A file-backed memory (in ``dbdir``) whose clock stands an hour after the last turn."""
    from midas_graph import Memory

    last = max(e["reference_time"] for e in episodes)
    start = last + dt.timedelta(hours=1)
    clock = Clock(start)
    path = os.path.join(dbdir, "memory.db") if dbdir else None
    mem = Memory(path, engine=engine, clock=clock, embedder=embedder, nli=nli)
    results = mem.add_episodes(list(episodes), group_id=group, progress=False)
    ids = {e["name"]: r.episode.id for e, r in zip(episodes, results)}
    return mem, ids, grid(episodes, start, clock.t)


# -- synthetic buried-evidence history ---------------------------------------------------------
_FIRST = ["Leila", "Omar", "Priya", "Jonas", "Mei", "Tariq", "Inez", "Kofi", "Sanna", "Diego", "Hana", "Ravi",
          "Greta", "Yusuf", "Nadia", "Felix", "Amara", "Bruno", "Chiara", "Emeka"]
_CITY = ["Lyon", "Porto", "Krakow", "Osaka", "Austin", "Dublin", "Nairobi", "Tromso", "Valencia", "Quebec",
         "Bergen", "Seville", "Hanoi", "Tbilisi", "Ghent", "Perth"]
_PLACE = ["gym", "office", "studio", "garage", "clubhouse", "workshop", "library", "boathouse"]
_DISH = ["ramen", "tacos", "paella", "dumplings", "pho", "curry", "lasagna", "falafel"]
_ITEM = ["tent", "drill", "camera", "kayak", "projector", "ladder", "telescope", "sewing machine"]
_MONTH = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October"]
_WEEKDAY = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_STREET = ["Maple", "Harbor", "Linden", "Canal", "Orchard", "Quarry", "Willow", "Beacon"]
_ORG = ["chess", "robotics", "pottery", "salsa", "astronomy", "birding", "improv", "cycling"]

#: (statement, question) templates of gold details: each said once, by either friend.
_GOLD = [
    ("{f1} and I finally tried Casa {s1} on {st} Street, the {dish} was {n2} dollars.",
     "How much was the {dish} at Casa {s1}?"),
    ("My cousin {f1}'s flight from {city} lands at {h}:{mm} on {wd}.", "When does {f1}'s flight from {city} land?"),
    ("The code for the bike lock at the {place} is {code}.", "What is the code for the bike lock at the {place}?"),
    ("I lent my {item} to {f1} before the trip to {city}.", "Who did I lend my {item} to?"),
    ("{f1}'s birthday party is at the {st} Street bowling alley on {mon} {d}.", "Where is {f1}'s birthday party?"),
    ("The {org} club meets in room {room} of the {st} community center now.", "Where does the {org} club meet?"),
    ("Dr. {f1} said my knee X-ray from {mon} {d} looked completely fine.",
     "What did Dr. {f1} say about the knee X-ray?"),
    ("I paid {n3} dollars for the {item} repair at {f1}'s shop in {city}.", "How much was the {item} repair?"),
    ("{f1} recommended the novel Winter in {city}, it has {n2} chapters.", "Which novel did {f1} recommend?"),
    ("Our landlord {f1} raised the parking fee to {n2} dollars from {mon}.",
     "What parking fee did the landlord {f1} set?"),
]
_BACKCHANNEL = ["haha", "ok cool", "nice!", "lol yeah", "thanks!", "sounds good", "oh wow", "yeah totally",
                "hmm", "true", "awesome", "right?", "same", "ha, nice", "ok!"]
_SMALL_Q = ["How was your day?", "What are you up to this weekend?", "Did you sleep well?", "How's work going?",
            "Any plans for tonight?", "How are you feeling today?", "What did you have for lunch?"]
_GENERIC = ["I'm so tired today, work was long.", "The weather has been really nice lately.",
            "I've been thinking about getting back into reading.", "Just made some coffee, I really need it.",
            "Traffic was terrible this morning.", "I watched a funny movie last night.",
            "I need to clean the apartment this weekend.", "Work has been pretty busy this week.",
            "I went for a long walk after dinner.", "I'm trying to drink more water these days.",
            "The neighbors were loud again last night.", "I finally did the laundry."]
#: Filler that shares words with the gold questions but says nothing they ask.
_TOPICAL = ["We should try a new restaurant sometime.", "I need to book a flight for the holidays soon.",
            "My bike needs new tires before summer.", "I keep forgetting codes and passwords.",
            "Birthday parties are exhausting honestly.", "I should join a club or something.",
            "My knee has been a bit sore after running.", "Repairs always cost more than you think.",
            "I want to read more novels this year.", "Parking downtown is such a pain."]
#: Loud old values and their updates: (first statement, loud restatement, update, question, attribute, stale, current).
_REVISIONS = [
    ("I live in {old}.", "{old} is the best, I love living in {old}!", "I moved to {new} last week.",
     "Where does {who} live?", "lives_in"),
    ("I work at {old_co}.", "Honestly {old_co} is such a great place to work, I love {old_co}.",
     "Big news: I joined {new_co} on Monday.", "Where does {who} work?", "employer"),
    ("My favorite band is {old_band}.", "{old_band} is still my favorite band, {old_band} forever!",
     "These days my favorite band is {new_band}.", "What is {who}'s favorite band?", "favorite_band"),
]
_CO = ["Siemens", "Novartis", "Spotify", "Airbus", "Philips", "Ericsson", "Adidas", "Lego"]
_BAND = ["Radiohead", "Coldplay", "Metallica", "Queen", "Blondie", "Muse", "Portishead", "Oasis"]


def synthetic_history(seed: int, *, days: int = 120, turns: int = 480, golds: int = 40,
                      start: dt.datetime = dt.datetime(2024, 1, 1, 9, tzinfo=UTC)) -> tuple[list[dict], list[dict]]:
    """(episodes, questions) of a seeded long history of two friends (see the module docstring).

    Each gold detail is said once, at a random place; its question's evidence
    is that turn. Each revision is said once early, restated loudly three
    times right before its update, then updated; its question's evidence is
    the update, and its probe checks the old value is not shown as current.
    Five questions ask about details never said (category 5)."""
    rng = random.Random(seed)
    speakers = ("Maya", "Theo")
    slots: list[dict | None] = [None] * turns
    questions: list[dict] = []
    free = list(range(turns))
    rng.shuffle(free)
    used_keys: set[str] = set()

    def take_after(lo: int, hi: int) -> int:
        for i, x in enumerate(free):
            if lo <= x < hi:
                return free.pop(i)
        raise RuntimeError("no free slot")

    # revisions: first statement in the first quarter, loud restatements and the update later
    for r, (first, loud, update, q, attr) in enumerate(_REVISIONS):
        who = speakers[r % 2]
        vals = {"old": rng.choice(_CITY[:8]), "new": rng.choice(_CITY[8:]), "old_co": _CO[2 * r],
                "new_co": _CO[2 * r + 1], "old_band": _BAND[2 * r], "new_band": _BAND[2 * r + 1], "who": who}
        a = take_after(0, turns // 4)
        upd = take_after(turns // 2, turns - turns // 8)
        slots[a] = {"speaker": who, "content": first.format(**vals), "role": "revision-first"}
        for j in range(3):
            i = take_after(max(a + 1, upd - 40), upd)
            slots[i] = {"speaker": who, "content": loud.format(**vals), "role": "revision-loud"}
        slots[upd] = {"speaker": who, "content": update.format(**vals), "role": "revision-update"}
        stale = vals["old"] if attr == "lives_in" else vals["old_co"] if attr == "employer" else vals["old_band"]
        cur = vals["new"] if attr == "lives_in" else vals["new_co"] if attr == "employer" else vals["new_band"]
        questions.append({"question": q.format(who=who), "evidence": [f"S{upd}"], "category": 4,
                          "probe": {"id": f"synthetic-{seed}-{attr}", "category": "loud_old_value", "stale": stale,
                                    "current": [cur], "turns": [{"content": slots[upd]["content"]}]}})
    # gold details
    for g in range(golds):
        tpl, q = _GOLD[g % len(_GOLD)]
        for _ in range(1000):
            vals = {"f1": rng.choice(_FIRST), "s1": rng.choice(_FIRST), "st": rng.choice(_STREET),
                    "dish": rng.choice(_DISH), "n2": rng.randrange(11, 99), "n3": rng.randrange(120, 990),
                    "city": rng.choice(_CITY), "h": rng.randrange(1, 12), "mm": f"{rng.randrange(0, 60):02d}",
                    "wd": rng.choice(_WEEKDAY), "place": rng.choice(_PLACE), "code": rng.randrange(1000, 9999),
                    "item": rng.choice(_ITEM), "mon": rng.choice(_MONTH), "d": rng.randrange(1, 28),
                    "org": rng.choice(_ORG), "room": rng.randrange(100, 400)}
            key = q.format(**vals)
            if key not in used_keys:
                used_keys.add(key)
                break
        else:
            raise RuntimeError(f"no new question for the template {q!r}")
        i = free.pop()
        who = speakers[rng.randrange(2)]
        slots[i] = {"speaker": who, "content": tpl.format(**vals), "role": "gold"}
        questions.append({"question": key.replace("I lend my", f"{who} lend their").replace(
            "did I lend my", f"did {who} lend their"), "evidence": [f"S{i}"], "category": 4})
    # never said (category 5)
    for q in ("What is the code for the garage door?", "When does Hana's train from Lyon arrive?",
              "How much was the sushi at Casa Bruno?", "Where does the knitting club meet?",
              "Who did Maya lend her guitar to?"):
        questions.append({"question": q, "evidence": [], "category": 5})
    # filler
    for i in range(turns):
        if slots[i] is None:
            x = rng.random()
            pool = _BACKCHANNEL if x < 0.3 else _SMALL_Q if x < 0.45 else _GENERIC if x < 0.85 else _TOPICAL
            slots[i] = {"speaker": None, "content": rng.choice(pool), "role": "filler"}
    episodes = []
    per_day = turns / days
    for i, s in enumerate(slots):
        day = int(i / per_day)
        when = start + dt.timedelta(days=day, minutes=int((i - day * per_day) * 3))
        speaker = s["speaker"] or speakers[i % 2]
        episodes.append({"content": s["content"], "speaker": speaker, "reference_time": when, "name": f"S{i}"})
    return episodes, questions


# -- datasets ------------------------------------------------------------------------------------------
def run_synthetic(seeds, names, *, engine, embedder, nli, trace, log) -> dict:
    out = {}
    for seed in seeds:
        episodes, questions = synthetic_history(seed)
        with tempfile.TemporaryDirectory(prefix="retention-") as d:
            t = time.perf_counter()
            mem, ids, hg = ingest(episodes, f"synthetic-{seed}", engine=engine, embedder=embedder, nli=nli, dbdir=d)
            if log:
                print(f"synthetic seed {seed}: {len(episodes)} turns ingested in {time.perf_counter() - t:.0f} s",
                      file=log, flush=True)
            with mem:
                out[f"seed{seed}"] = run_history(mem, f"synthetic-{seed}", episodes, questions, names, ids=ids,
                                                 hash_grid=hg, engine=engine, dbdir=d, trace=trace, log=log)
    return out


def run_locomo(convs, names, *, questions_per_conv, engine, embedder, nli, trace, log, partial=None) -> dict:
    out = {}
    for conv in convs:
        names_set = {e["name"] for e in conv.episodes}
        qs = []
        for q in locomo_eval.sample_questions(conv.qa, questions_per_conv):
            ev = [e for e in locomo_eval.norm_evidence(q.get("evidence")) if e in names_set]
            qs.append({"question": q["question"], "evidence": ev, "category": int(q["category"])})
        with tempfile.TemporaryDirectory(prefix="retention-") as d:
            t = time.perf_counter()
            mem, ids, hg = ingest(conv.episodes, conv.sample_id, engine=engine, embedder=embedder, nli=nli, dbdir=d)
            if log:
                print(f"{conv.sample_id}: {len(conv.episodes)} turns ingested in {time.perf_counter() - t:.0f} s",
                      file=log, flush=True)
            with mem:
                out[conv.sample_id] = run_history(mem, conv.sample_id, conv.episodes, qs, names, ids=ids,
                                                  hash_grid=hg, engine=engine, dbdir=d, trace=trace, log=log)
        if partial:  # what is done so far, in case the run is stopped
            Path(partial).write_text(json.dumps(out, default=str) + "\n", encoding="utf-8")
    return out


def run_revision(names, *, engine, embedder, nli, log, limit: int = 0) -> dict:
    """Each revision case in its own memory: every policy at every level."""
    from midas_graph import Memory

    cases = [json.loads(x) for x in (HERE / "data" / "revision_cases.jsonl").read_text("utf-8").splitlines()
             if x.strip()][: limit or None]
    res: dict[str, dict[str, list]] = {}
    hash_ok = True
    t = time.perf_counter()
    for case in cases:
        last = max(dt.datetime.fromisoformat(x["reference_time"].replace("Z", "+00:00")) for x in case["turns"])
        start = last + dt.timedelta(days=2)  # nothing in the short tier: forgetting may take any turn but the floor
        clock = Clock(start)
        with Memory(None, engine=engine, embedder=embedder, nli=nli, clock=clock) as mem:
            results = mem.add_episodes(case["turns"], progress=False)
            q = locomo_eval.question_for(case["subject"], case["attribute"])
            eps = [r.episode for r in results]
            turns = [{"reference_time": e.reference_time} for e in eps]
            hg = grid(turns, start, clock.t, n=3)
            base = belief_hash(mem, "default", *hg)
            row0 = locomo_eval.revision_check(case, mem.context(q, budget_tokens=BUDGET))
            res.setdefault("1.0", {}).setdefault("all", []).append(row0)
            stored = mem._store.episodes_by_id([e.id for e in eps], "default")
            for label, spec in policy_list(names, stored):
                cold = [e.id for e in mem._store.episodes_by_id([e.id for e in eps], "default") if e.cold_at]
                if cold:
                    mem.warm(cold)
                for level in LEVELS[1:]:
                    mem.forget(keep_fraction=level, policy=spec)
                    row = locomo_eval.revision_check(case, mem.context(q, budget_tokens=BUDGET))
                    row["hash_ok"] = belief_hash(mem, "default", *hg) == base
                    hash_ok &= row["hash_ok"]
                    res.setdefault(str(level), {}).setdefault(label, []).append(row)
    out: dict[str, Any] = {"cases": len(cases), "seconds": round(time.perf_counter() - t, 1), "hash_ok": hash_ok,
                           "levels": {}}
    for level, by in res.items():
        out["levels"][level] = {
            label: {"ok": round(statistics.fmean(float(r["ok"]) for r in rows), 4),
                    "stale_as_current": sum(r["stale_as_current"] for r in rows),
                    "failures": [r["id"] for r in rows if not r["ok"]][:10]}
            for label, rows in by.items()}
    if log:
        print(f"revision: {json.dumps(out['levels'])}", file=log, flush=True)
    return out


# -- summary --------------------------------------------------------------------------------------------
def aggregate(histories: dict[str, dict]) -> dict:
    """Per level and policy: the mean over histories (question-weighted), random pooled
    over seeds (mean and spread of the per-seed means)."""
    out: dict[str, Any] = {}
    for level in (str(x) for x in LEVELS):
        per: dict[str, dict[str, list]] = {}
        for h in histories.values():
            for label, res in h["levels"].get(level, {}).items():
                for k, v in res.items():
                    if isinstance(v, (int, float)) and v is not None:
                        per.setdefault(label, {}).setdefault(k, []).append((v, res.get("questions", 1)))
        block: dict[str, Any] = {}
        for label, metrics in per.items():
            block[label] = {k: round(sum(v * w for v, w in xs) / sum(w for _, w in xs), 4)
                            for k, xs in metrics.items() if k not in ("hot", "cold", "floor", "short_of")}
            for k in ("hot", "cold", "floor", "short_of"):
                if k in metrics:
                    block[label][k] = sum(v for v, _ in metrics[k])
        rnd = [label for label in block if label.startswith("random")]
        if rnd:
            agg = {}
            for k in ("recall@10", "context", "abstain_cat5", "false_abstain", "tokens", "probes_ok"):
                xs = [block[r][k] for r in rnd if block[r].get(k) is not None]
                if xs:
                    agg[k] = round(statistics.fmean(xs), 4)
                    agg[f"{k}_spread"] = [round(min(xs), 4), round(max(xs), 4)]
                    agg[f"{k}_stdev"] = round(statistics.pstdev(xs), 4)
            block["random"] = agg
        out[level] = block
    return out


def targets(summary: dict) -> dict:
    t: dict[str, Any] = {}
    syn = summary.get("synthetic", {}).get("table")
    if syn:
        def r(level, p):
            return (syn.get(level, {}).get(p) or {}).get("recall@10")
        v50, f50, r50 = r("0.5", "value"), r("0.5", "fifo"), r("0.5", "random")
        v25, f25 = r("0.25", "value"), r("0.25", "fifo")
        t["synthetic value >= fifo + 0.15 @50%"] = {"value": v50, "fifo": f50,
                                                    "ok": None not in (v50, f50) and v50 >= f50 + 0.15}
        t["synthetic value >= random + 0.25 @50%"] = {"value": v50, "random": r50,
                                                      "ok": None not in (v50, r50) and v50 >= r50 + 0.25}
        t["synthetic value >= fifo @25%"] = {"value": v25, "fifo": f25, "ok": None not in (v25, f25) and v25 >= f25}
    loc = summary.get("locomo", {}).get("table")
    if loc:
        for level in ("0.5", "0.25"):
            v = (loc.get(level, {}).get("value") or {}).get("recall@10")
            f = (loc.get(level, {}).get("fifo") or {}).get("recall@10")
            t[f"locomo value >= fifo @{float(level):.0%}"] = {"value": v, "fifo": f,
                                                              "ok": None not in (v, f) and v >= f}
    rev = summary.get("revision")
    if rev:
        lv = rev["levels"]
        full = lv["1.0"]["all"]["ok"]
        worst = min(x["ok"] for level in ("0.5", "0.25") for x in lv.get(level, {}).values()) if len(lv) > 1 else full
        stale = sum(x["stale_as_current"] for level in lv.values() for x in level.values())
        t["revision ok unchanged by forgetting, none stale"] = {"keep100": full, "worst": worst, "stale_shown": stale,
                                                               "ok": worst >= full and stale == 0}
    hashes = [h["hash_ok"] for ds in ("synthetic", "locomo") for h in summary.get(ds, {}).get("histories", {}).values()]
    if rev:
        hashes.append(rev["hash_ok"])
    t["as_of/history hash identical"] = {"ok": all(hashes), "checked": len(hashes)}
    falls = []
    for ds in ("synthetic", "locomo"):
        for name, h in summary.get(ds, {}).get("histories", {}).items():
            b = h.get("bytes") or {}
            if "rebuilt_pages_used" not in b.get("1.0", {}):
                continue
            for level in ("0.5", "0.25"):
                if level in b:
                    fall = b["1.0"]["rebuilt_pages_used"] - b[level]["rebuilt_pages_used"]
                    went = b[level]["episode_bytes_went"]
                    falls.append({"history": name, "level": level, "rebuilt_pages_fall": fall,
                                  "rebuilt_file_fall": b["1.0"]["rebuilt"] - b[level]["rebuilt"],
                                  "in_place_fall": b["1.0"]["in_place"] - b[level]["in_place"],
                                  "went": went, "fall_over_went": round(fall / went, 3) if went else None,
                                  "ok": fall >= went})
    if falls:
        t["bytes fall at least in proportion (rebuilt file)"] = {"ok": all(f["ok"] for f in falls), "rows": falls}
    vac = []
    for ds in ("synthetic", "locomo"):
        for name, h in summary.get(ds, {}).get("histories", {}).items():
            b = h.get("bytes") or {}
            v = b.get("vacuum")
            if not v or "1.0" not in b:
                continue
            level = str(v["level"])
            went = (b.get(level) or {}).get("episode_bytes_went")
            fall = b["1.0"]["rebuilt"] - v["file_after"]  # against the whole memory rebuilt at keep-100%
            vac.append({"history": name, "level": level, "file_before": v["file_before"],
                        "file_after": v["file_after"], "keep100_rebuilt": b["1.0"]["rebuilt"],
                        "fall_vs_keep100": fall, "went": went,
                        "fall_over_went": round(fall / went, 3) if went else None, "hash_ok": v["hash_ok"]})
    cons = [{"history": name, **h["consolidate"], "episodes": h["episodes"]}
            for ds in ("synthetic", "locomo") for name, h in summary.get(ds, {}).get("histories", {}).items()
            if "consolidate" in h]
    if cons:
        went = sum(c["would_go_cold"] for c in cons)
        t["consolidation yield (not a target)"] = {"ok": True, "yield": round(went / sum(c["episodes"] for c in cons), 4),
                                                   "rows": cons}
    if vac:
        t["vacuum after forget (file bytes)"] = {"ok": all(r["hash_ok"] for r in vac), "rows": vac}
    return t


def print_table(summary: dict, out=sys.stderr) -> None:
    f = lambda v: "  -  " if v is None else f"{v:5.3f}"  # noqa: E731
    for ds in ("synthetic", "locomo"):
        table = summary.get(ds, {}).get("table")
        if not table:
            continue
        print(f"\n{ds}: recall@10 / evidence in context(512) / cat-5 abstain / false abstain / tokens", file=out)
        for level, block in table.items():
            for label, m in block.items():
                if label.startswith("random") and label != "random":
                    continue
                spread = m.get("recall@10_spread")
                print(f"  keep {float(level):4.0%} {label:11} {f(m.get('recall@10'))} {f(m.get('context'))} "
                      f"{f(m.get('abstain_cat5'))} {f(m.get('false_abstain'))} {m.get('tokens') or 0:6.1f}"
                      + (f"  spread {spread}" if spread else ""), file=out)
    for name, tt in summary.get("targets", {}).items():
        print(f"target {name:48} {'PASS' if tt['ok'] else 'FAIL'}", file=out)


def merge(files: Sequence[str], out: str | None) -> None:
    """One summary from several runs (e.g. LoCoMo conversations run in parallel processes)."""
    summary: dict[str, Any] = {"benchmark": "retention", "merged": list(files)}
    for f in files:
        d = json.loads(Path(f).read_text("utf-8"))
        if f.endswith(".partial"):
            d = {"locomo": {"histories": d}}
        for ds in ("synthetic", "locomo"):
            if ds in d:
                summary.setdefault(ds, {}).setdefault("histories", {}).update(d[ds]["histories"])
        if "revision" in d:
            summary["revision"] = d["revision"]
        for k in ("split", "policies", "levels", "budget_tokens", "engine"):
            summary.setdefault(k, d.get(k))
    for ds in ("synthetic", "locomo"):
        if ds in summary:
            summary[ds]["table"] = aggregate(summary[ds]["histories"])
    summary["targets"] = targets(summary)
    print_table(summary)
    text = json.dumps(summary, indent=2, ensure_ascii=False, default=str)
    print(text)
    if out:
        Path(out).write_text(text + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="dev split only: synthetic seed 1, 2 LoCoMo conversations "
                    "(60 questions each), 30 revision cases")
    ap.add_argument("--split", default="report", choices=["dev", "report", "all"])
    ap.add_argument("--datasets", default="synthetic,locomo,revision")
    ap.add_argument("--policies", default="value,content,structural,graph,fifo,random,protect")
    ap.add_argument("--questions", type=int, default=0, help="LoCoMo questions per conversation (0 = all)")
    ap.add_argument("--limit", type=int, default=0, help="at most N LoCoMo conversations of the split")
    ap.add_argument("--conversations", default="",
                    help="LoCoMo conversations by number, 1-10 (e.g. 4,5): overrides the split's list")
    ap.add_argument("--engine", default=None)
    ap.add_argument("--trace", action="store_true", help="list every evicted gold item with its value and why")
    ap.add_argument("--out")
    ap.add_argument("--merge", nargs="+", metavar="JSON",
                    help="instead of running: combine the histories of earlier runs' --out files (or their "
                         ".partial files) into one summary, table and targets")
    args = ap.parse_args(argv)
    if args.merge:
        return merge(args.merge, args.out)
    datasets = args.datasets.split(",")
    names = args.policies.split(",")

    from midas_graph.models import default_embedder, default_nli, load_spacy

    embedder, nli = default_embedder(), default_nli()
    load_spacy(), embedder.embed(["warm up"]), nli.scores([("a", "b")])
    split = "dev" if args.quick else args.split
    log = sys.stderr
    t0 = time.perf_counter()
    summary: dict[str, Any] = {"benchmark": "retention", "split": split, "policies": names,
                               "levels": list(LEVELS), "budget_tokens": BUDGET}
    if "synthetic" in datasets:
        seeds = {"dev": SYNTH_DEV_SEEDS, "report": SYNTH_REPORT_SEEDS,
                 "all": SYNTH_DEV_SEEDS + SYNTH_REPORT_SEEDS}[split]
        hs = run_synthetic(seeds, names, engine=args.engine, embedder=embedder, nli=nli, trace=args.trace, log=log)
        summary["synthetic"] = {"seeds": list(seeds), "table": aggregate(hs), "histories": hs}
    if "locomo" in datasets:
        convs = locomo.load()
        if args.conversations:
            picked = [int(x) for x in args.conversations.split(",")]
            if split == "report" and any(n <= DEV_CONVERSATIONS for n in picked):
                raise SystemExit(f"--conversations: 1-{DEV_CONVERSATIONS} are the development split")
            convs = [convs[n - 1] for n in picked]
        else:
            convs = {"dev": convs[:DEV_CONVERSATIONS], "report": convs[DEV_CONVERSATIONS:], "all": convs}[split]
        if args.quick:
            convs = convs[:2]
        convs = convs[: args.limit or None]
        qn = args.questions or (60 if args.quick else 0)
        hs = run_locomo(convs, names, questions_per_conv=qn, engine=args.engine, embedder=embedder, nli=nli,
                        trace=args.trace, log=log, partial=args.out and args.out + ".partial")
        summary["locomo"] = {"conversations": [c.sample_id for c in convs], "questions_per_conversation": qn,
                             "table": aggregate(hs), "histories": hs}
    if "revision" in datasets:
        summary["revision"] = run_revision(names, engine=args.engine, embedder=embedder, nli=nli, log=log,
                                           limit=30 if args.quick else 0)
    summary["targets"] = targets(summary)
    summary["seconds"] = round(time.perf_counter() - t0, 1)
    summary["engine"] = args.engine or "ladybug"
    summary["date"] = dt.date.today().isoformat()
    print_table(summary)
    if not args.trace:
        for ds in ("synthetic", "locomo"):
            for h in summary.get(ds, {}).get("histories", {}).values():
                h.pop("trace", None)
    text = json.dumps(summary, indent=2, ensure_ascii=False, default=str)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
