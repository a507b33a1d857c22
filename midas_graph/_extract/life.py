"""A life's facts: born on/in, grew up in, turned 40, got married (to X).
"""

from __future__ import annotations

from .._timeexpr import word_number
from .metrics import metric_change
from .numbers import _fmt_num
from .habits import diet_change
from .tokens import _child, _children, _is_name, _name_text


def h_bear(w, v, st, pol, tense, tv) -> None:
    ctx = w.ctx
    if _child(v, "nsubjpass") is None:
        return
    subj = w.subject(st)
    if subj is None or not subj.person:
        return
    for p in _children(v, "prep"):
        po = _child(p, "pobj")
        if po is None:
            continue
        if w.is_time_tok(po):
            tr = w.resolve_time_tok(po, -1)
            if tr is not None:
                key = "birthday" if tr.grain == "day" else "birth_year" if tr.grain == "year" else "birth_date"
                val = tr.iso() if tr.grain != "year" else tr.start.year
                e = w.time_of(po)
                w.emit(subj, key, val, v=v, pol="assert", tense="present", tv=tv, value_toks=[ctx.doc[i] for i in e[0]],
                           state=False, rule="born_on", past_means_cease=False)
        elif p.lower_ in ("in", "at") and _is_name(po, ctx):
            w.emit(subj, "birthplace", _name_text(po), v=v, pol="assert", tense="present", tv=tv, value_toks=list(po.subtree),
                       is_entity=True, state=False, rule="born_in", past_means_cease=False, valid_from=None)


def h_grow(w, v, st, pol, tense, tv) -> None:
    ctx = w.ctx
    prt = _child(v, "prt")
    subj = w.subject(st)
    if prt is not None and prt.lower_ == "up" and subj is not None and subj.person:
        for p in _children(v, "prep"):
            po = _child(p, "pobj")
            if p.lower_ in ("in", "on") and po is not None and _is_name(po, ctx):
                w.emit(subj, "grew_up_in", _name_text(po), v=v, pol="assert", tense="present", tv=tv, value_toks=list(po.subtree),
                           is_entity=True, state=False, rule="grew_up_in", past_means_cease=False)
        return
    if subj is None and st is not None:
        metric_change(w, v, st, pol, tense, tv)


def h_turn(w, v, st, pol, tense, tv) -> None:
    # "I turned 40 last week"; "I turned vegetarian"
    if diet_change(w, v, st, pol, tense, tv):
        return
    subj = w.subject(st)
    if subj is None or not subj.person:
        return
    o = _child(v, "dobj", "attr", "oprd", "acomp")  # "turns 17", "turns seventeen" (acomp)
    if o is not None and o.like_num:
        n = word_number(o.text)
        if n is not None and 0 < n < 125:
            # "Ella turns 17 on December 9", said in May: from this December 9, not last
            ahead = 1 if tense in ("present", "future", "progressive") else None
            w.emit(subj, "age", _fmt_num(n), v=v, pol="assert", tense="present", tv=tv, value_toks=[o], rule="turned_age",
                   past_means_cease=False, direction=ahead)
            turned_on(w, v, subj, pol, tense, tv)


def turned_on(w, v, subj, pol, tense, tv) -> None:
    """ "Kenta turns eight on November 19": the day one turns a year older is
    one's birthday (month and day; the year is the turning's, not the birth's)."""
    for p in _children(v, "prep"):
        po = _child(p, "pobj")
        if p.lower_ != "on" or po is None or not w.is_time_tok(po):
            continue
        tr = w.resolve_time_tok(po, -1 if tense == "past" else 1)
        if tr is None or tr.grain != "day":
            continue
        e = w.time_of(po)
        w.emit(subj, "birthday", tr.start.strftime("--%m-%d"), v=v, pol="assert", tense="present", tv=tv,
               value_toks=[w.ctx.doc[i] for i in e[0]] if e else [po], state=False, rule="turns_on",
               past_means_cease=False)
        return


def h_marry(w, v, st, pol, tense, tv) -> None:
    """ "We got married in June", "I married Tom", "I'm married to Tom"."""
    ctx = w.ctx
    subj = w.subject(st)
    if subj is None or not subj.person or pol == "negate" or tense == "future":
        return
    if _child(v, "nsubjpass") is None and _child(v, "dobj") is None:
        return
    w.emit(subj, "marital_status", "married", v=v, pol=pol, tense="present", tv=tv, rule="married")
    o = _child(v, "dobj")
    if o is None:
        for p in _children(v, "prep"):
            if p.lower_ == "to":
                o = _child(p, "pobj")
    if o is not None and _is_name(o, ctx):
        w.emit(subj, "spouse", _name_text(o), v=v, pol=pol, tense="present", tv=tv, value_toks=list(o.subtree), is_entity=True,
                   rule="married_to")
