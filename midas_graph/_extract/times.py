"""Time expressions of a message and the valid time they give a claim.

:func:`collect_times` finds the message's time expressions once (spaCy
DATE/TIME entities and bare time words); :func:`qualifiers` finds those
that qualify a predicate (a predicate without its own takes one of a
conjoined predicate with the same subject); :func:`apply_time` turns them
into ``(valid_from, valid_to, polarity)`` with :mod:`midas_graph._timeexpr`
against the message's reference time.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

from .._timeexpr import TimeRef, parse_duration, resolve, shift
from .clauses import _verb_tense
from .subjects import subject_token
from .tokens import _child, _text, false_date

UTC = _dt.timezone.utc


def collect_times(w) -> None:
    ctx = w.ctx
    covered = set()
    for e in w.doc.ents:
        if e.label_ in ("DATE", "TIME") and not false_date(e[0]):
            ctx.times.append((frozenset(t.i for t in e), e.root, e.text))
            covered.update(t.i for t in e)
    timeword = re.compile(
        r"^(?:yesterday|today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
        r"january|february|march|april|june|july|august|september|october|november|december|"
        r"(?:19|20)\d\d|\d{4}-\d\d-\d\d|weekend|summer|winter|spring|autumn|fall)$")
    for t in w.doc:
        if t.i in covered or not timeword.match(t.lower_):
            continue
        if t.lower_ == "march" and t.pos_ == "VERB":
            continue
        if t.lower_ in ("fall", "spring") and t.pos_ != "NOUN":
            continue
        toks = [t] + [c for c in t.children if c.dep_ in ("amod", "det", "nummod", "compound") and c.lower_ in
                      ("last", "next", "this", "past", "coming", "previous", "the") or c.like_num]
        ctx.times.append((frozenset(x.i for x in toks), t, _text(toks)))


def is_time_tok(w, t) -> bool:
    for toks, _, _ in w.ctx.times:
        if t.i in toks:
            return True
    return False


def time_of(w, t) -> tuple[Any, Any, str] | None:
    for entry in w.ctx.times:
        if t.i in entry[0]:
            return entry
    return None


def resolve_time_tok(w, t, direction: int, text: str | None = None) -> TimeRef | None:
    entry = w.time_of(t)
    if entry is None:
        return None
    toks, root, etext = entry
    if text is None:
        text = etext
    else:
        root = t
    prep = root.head if root.head.dep_ == "prep" or root.head.pos_ == "ADP" else None
    if prep is not None and prep.lower_ in ("in", "within") and re.match(r"^(?:\d|a |an |one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple)", text.lower()):
        text = prep.lower_ + " " + text
    return resolve(text, w.ctx.ref, direction)


def qualifiers(w, v, value_toks: set, *, share: bool = True) -> list[tuple[TimeRef | None, str, dict | None, str]]:
    """Time expressions qualifying predicate v: (root token, prep, duration, text).

    A predicate with no time of its own takes the one of a predicate it is
    conjoined with ("I left Deloitte and started at KPMG last month").
    """
    out = own_qualifiers(w, v, value_toks)
    if out or not share:
        return out
    partners = [c for c in v.children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX")]
    if v.dep_ == "conj" and v.head.pos_ in ("VERB", "AUX"):
        partners.append(v.head)
    for p in partners:
        if _child(p, "nsubj", "nsubjpass") is not None and subject_token(p) is not None and \
                subject_token(v) is not None and subject_token(p).lower_ != subject_token(v).lower_:
            continue  # another subject: "I moved in May and she joined in June"
        got = own_qualifiers(w, p, value_toks)
        if got:
            return got
    return out


def own_qualifiers(w, v, value_toks: set) -> list[tuple[Any, str, dict | None, str]]:
    out = []
    for toks, root, text in w.ctx.times:
        if toks & w.ctx.negated:
            continue  # "not on Monday but on Tuesday"
        if toks & value_toks:
            rest = sorted(toks - value_toks)
            if not rest or rest[-1] - rest[0] + 1 != len(rest):
                continue
            rtoks = [w.doc[i] for i in rest]
            root = next((x for x in rtoks if x.head.i not in toks - value_toks or x.head.i == x.i), None)
            if root is None:
                continue
            text = _text(rtoks)
        h = root
        ok = False
        for _ in range(6):
            if h.i in value_toks:
                break
            if h.i == v.i:
                ok = True
                break
            if h.pos_ in ("VERB", "AUX") and h.dep_ in ("ccomp", "conj", "advcl", "relcl", "parataxis", "ROOT"):
                break  # the time belongs to another clause
            if h.head.i == h.i:
                break
            h = h.head
        if not ok:
            # fronted time shared by conjoined predicates: "Last month I quit X and joined Y"
            if v.dep_ == "conj" and root.head.i == v.head.i and root.i < v.head.i:
                ok = True
        if not ok:
            continue
        prep = ""
        p = root.head
        if p.i != root.i and (p.dep_ == "prep" or p.pos_ in ("ADP", "SCONJ")) and p.lower_ in (
                "since", "from", "until", "till", "to", "through", "in", "on", "at", "by", "for", "during", "as", "after", "before",
                "between"):
            prep = p.lower_
            if prep == "as" and any(c.lower_ == "of" for c in p.children):
                prep = "since"
        dur = parse_duration(text) if prep == "for" or re.search(r"\b(?:years?|months?|weeks?|days?)$", text.lower()) and not re.search(r"\b(?:ago|last|next|this|past)\b", text.lower()) else None
        out.append((root, prep, dur, text))
    return out


def _start_direction(prep: str, tense: str, direction: int) -> int:
    """Where a bare date lies: "since July 1" before now; "from July 1" before
    now too, unless the verb says it is ahead ("I'm joining Acme as COO from
    July 1", said in May: this July, not last; a future verb: the next one,
    a progressive one: the nearer)."""
    if prep == "since" or (prep == "from" and tense not in ("future", "progressive")):
        return -1
    if prep == "from":
        return 1 if tense == "future" else (direction if direction > 0 else 0)
    return direction


def apply_time(w, v, value_toks: set, *, state: bool, polarity: str, eff_tense: str | None = None,
               direction: int | None = None) -> tuple[_dt.datetime | None, _dt.datetime | None, str]:
    """(valid_from, valid_to, polarity) for predicate v.

    ``eff_tense``: the tense of the claim (a completed move is a present
    state); the verb's own tense still places bare dates, unless
    ``direction`` does (+1: a scheduled start, "I start on July 8").
    """
    tense = "future" if w.ctx.plan else _verb_tense(v)  # "I plan to move in May": ahead
    bounded = state and (eff_tense or tense) == "past"
    quals = w.qualifiers(v, value_toks)
    if not quals:
        return None, None, polarity
    if direction is None:
        # a progressive with a date is an arrangement, ahead or just behind ("Emeka is joining
        # Acme in July", said in May: this July): the nearer one
        direction = -1 if tense in ("past", "perfect") else (
            1 if tense == "future" else 0 if tense == "progressive" else -1 if state else 0)
    vf = vt = None
    start_ref = end_ref = None
    point = None
    for root, prep, dur, text in quals:
        if dur is not None and prep in ("for", ""):
            if tense in ("perfect", "present", "progressive") and not re.search(r"\bago\b", text.lower()):
                try:
                    vf = _dt.datetime.combine(shift(w.ctx.ref.astimezone(UTC).date(), **{k: -v_ for k, v_ in dur.items()}),
                                              _dt.time(), tzinfo=UTC)
                except (OverflowError, ValueError):  # "for ten years" said in year 3: before the calendar
                    pass
            continue
        rng = re.fullmatch(r"(?:between\s+)?(.+?)\s+(?:to|until|till|through|thru|and|-|–)\s+(.+)", text.strip(), re.I)
        if rng is not None and prep in ("from", "between", ""):
            a = resolve(rng.group(1), w.ctx.ref, -1)
            b = resolve(rng.group(2), w.ctx.ref, -1)
            if a is not None and b is not None:
                start_ref = a
                end_ref = ("until" if re.search(r"\buntil|till\b", text) else "to", b)
                continue
        tr = w.resolve_time_tok(root, _start_direction(prep, tense, direction), text)
        if tr is None:
            continue
        if prep in ("since", "from"):
            start_ref = tr
        elif prep in ("until", "till"):
            end_ref = ("until", tr)
        elif prep in ("to", "through") and start_ref is not None:
            end_ref = ("to", tr)
        elif prep == "by" and state:
            start_ref = start_ref or tr
        else:
            point = tr
    if start_ref is not None:
        vf = start_ref.start
        if end_ref is not None:
            vt = end_ref[1].start if end_ref[0] == "until" else end_ref[1].end
    elif end_ref is not None:
        if bounded:
            # "I lived in Hamburg until 2019": the state ended then
            return end_ref[1].start, None, "cease"
    if point is not None and vf is None:
        vf = point.start
        if bounded and polarity != "cease" and point.grain in ("month", "season", "year"):
            vt = point.end
    if vf is not None and vt is not None and vt <= vf:
        vt = None
    return vf, vt, polarity
