"""Work: employer and job title ("I work at X as Y", "I joined X", "I started at X",
"I got a job at X", "I was promoted to Y", "I was hired by X", "I got laid off").

Job titles are the nouns of ``schema/extract/work.toml`` (and any noun
ending in one of its suffixes: "data engineer").
"""

from __future__ import annotations

import re

from .events import event_change, named_event
from .lexicon import (_BAD_OBJECTS, _DROP_ADJ, _GROUPS, _INDUSTRIES, _JOBS, _JOB_SUFFIX_OK, _PLACE_LABELS,
                      _SCHOOLS, _START_JOB, _START_OWN, _TITLE_ACRONYMS, _WORKPLACES, _WORK_AT_NOT_EMPLOYER,
                      _WORK_FOR_NOT_EMPLOYER)
from .tokens import _child, _children, _ent_of, _is_name, _name_text, _np_text, _text, _value_of

_ACRONYM_RE = re.compile(r"\b(" + "|".join(sorted(_TITLE_ACRONYMS)) + r")\b")


def is_job(w, t) -> bool:
    if t.pos_ not in ("NOUN", "PROPN") and not (t.dep_ in ("attr", "pobj") and _child(t, "det") is not None):
        return False  # "busy volunteering"; but "a paramedic" tagged ADJ is a noun
    lem = t.lemma_.lower()
    low = t.lower_
    if lem in _JOBS or low in _JOBS:
        return True
    if lem.endswith(_JOB_SUFFIX_OK):
        return True
    return False


def job_title(w, t) -> str:
    toks = [t]
    for c in t.children:
        if c.i < t.i and c.dep_ in ("compound", "amod", "nmod") and c.lower_ not in _DROP_ADJ:
            toks.extend(x for x in c.subtree if x.dep_ not in ("det", "punct", "advmod") and x.lower_ not in _DROP_ADJ)
    toks.sort(key=lambda x: x.i)
    text = _text(toks)
    if t.lower_ in _TITLE_ACRONYMS:
        return _ACRONYM_RE.sub(lambda m: m.group(1).upper(), text.lower())
    return text.lower()


def employer_from(w, t):
    for p in _children(t, "prep"):
        if p.lower_ in ("at", "for", "with", "of", "in"):
            o = _child(p, "pobj")
            if o is None:
                continue
            if p.lower_ == "in" and not (_is_name(o, w.ctx) and (_ent_of(o) is None or _ent_of(o).label_ == "ORG")):
                continue
            if p.lower_ == "of" and not _is_name(o, w.ctx):
                continue
            if o.lower_ in _BAD_OBJECTS or o.pos_ == "PRON":
                continue
            if w.is_time_tok(o):
                continue
            if not _is_name(o, w.ctx) and o.lemma_.lower() not in _WORKPLACES:
                continue
            return o
    return None


def job_noun(w, subj, o, v, pol, tense, tv, *, rule: str) -> None:
    ctx = w.ctx
    for p in _children(o, "prep") + _children(v, "prep"):
        po = _child(p, "pobj")
        if po is None or w.is_time_tok(po):
            continue
        det = _child(po, "det")
        if p.lower_ in ("at", "with", "for") and (_is_name(po, ctx) or det is not None and det.lower_ in ("a", "an")) \
                and po.lower_ not in _BAD_OBJECTS:
            val, ent = _value_of(po, ctx)
            w.emit(subj, "employer", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(po.subtree), is_entity=ent,
                       rule=rule, past_means_cease=False, conf=1.0 if ent else 0.8)
        elif p.lower_ == "as" and (is_job(w, po) or _child(po, "det") is not None):
            w.emit(subj, "job_title", job_title(w, po), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(po.subtree),
                       rule=rule, past_means_cease=False)


def h_work(w, v, st, pol, tense, tv) -> None:
    ctx = w.ctx
    subj = w.subject(st)
    if subj is None or not subj.person and not _is_name(st, ctx):
        return
    if tense == "future" or tense == "progressive" and any(c.lower_ in ("on",) for c in v.children):
        return
    for p in _children(v, "prep"):
        pl = p.lower_
        o = _child(p, "pobj")
        if o is None or o.pos_ == "PRON" or w.is_time_tok(o):
            continue
        if pl in ("at", "for") and o.lower_ not in _WORK_AT_NOT_EMPLOYER:
            if o.lower_ in _BAD_OBJECTS or o.lemma_.lower() in _WORK_FOR_NOT_EMPLOYER:
                continue
            det = _child(o, "det")
            if not _is_name(o, ctx) and (det is None or det.lower_ not in ("a", "an")):
                continue  # "I work at the shop": which shop is not said
            if _child(o, "poss") is not None and _child(o, "poss").lower_ in ("my", "our"):
                continue  # "I work for my dad" -- skip
            val, ent = _value_of(o, ctx)
            w.emit(subj, "employer", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), is_entity=ent,
                       conf=1.0 if ent else 0.8, rule="work_at")
        elif pl == "as":
            if is_job(w, o) or _child(o, "det") is not None:
                w.emit(subj, "job_title", job_title(w, o), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), rule="work_as")
                emp = employer_from(w, o)
                if emp is not None:
                    val, ent = _value_of(emp, ctx)
                    w.emit(subj, "employer", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(emp.subtree), is_entity=ent, rule="work_as_at")
        elif pl == "in" and _is_name(o, ctx) and (_ent_of(o) is None or _ent_of(o).label_ in _PLACE_LABELS):
            w.emit(subj, "work_location", _name_text(o), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), is_entity=True,
                       conf=0.8, rule="work_in")
        elif pl == "in" and o.lemma_.lower() in _INDUSTRIES:
            w.emit(subj, "industry", o.lower_, v=v, pol=pol, tense=tense, tv=tv, value_toks=[o], rule="work_in_field", conf=0.9)


def h_join(w, v, st, pol, tense, tv) -> None:
    ctx = w.ctx
    subj = w.subject(st)
    if subj is None or not subj.person and not _is_name(st, ctx) or pol == "negate":
        return
    if tense in ("future", "progressive") and not w.qualifiers(v, set()):
        return
    o = _child(v, "dobj")
    if o is None or o.pos_ == "PRON":
        return
    t_eff = "present" if tense in ("past", "perfect") else tense
    if _is_name(o, ctx):
        ent = _ent_of(o)
        if ent is not None and ent.label_ in ("LOC", "FAC"):
            return
        w.emit(subj, "employer", _name_text(o), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(o.subtree), is_entity=True,
                   rule="join_employer", past_means_cease=False)
        for p in _children(v, "prep"):
            if p.lower_ == "as":
                jo = _child(p, "pobj")
                if jo is not None:
                    w.emit(subj, "job_title", job_title(w, jo), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(jo.subtree),
                               rule="join_as", past_means_cease=False)
        return
    lem = o.lemma_.lower()
    if lem in _GROUPS:
        w.emit(subj, "member_of", _np_text(o), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(o.subtree), rule="join_group",
                   conf=0.8, past_means_cease=False)


def h_start(w, v, st, pol, tense, tv) -> None:
    """ "I started at Google", "I started a new job at Stripe", "the launch starts on May 3"."""
    ctx = w.ctx
    subj = w.subject(st)
    if subj is None:
        if st is not None:
            event_change(w, v, st, pol, tense, tv)
        return
    if _is_name(st, ctx) and not subj.person and st.lower_ not in ctx.names:
        named_event(w, v, st, pol, tense, tv)
        return
    if pol == "negate":
        return
    if tense in ("future", "progressive") and not w.qualifiers(v, set()):
        return
    t_eff = "present" if tense in ("past", "perfect") else tense
    o = _child(v, "dobj")
    if o is not None and o.lemma_.lower() in _START_JOB:
        job_noun(w, subj, o, v, pol, t_eff, tv, rule="start_job")
        return
    if o is not None and o.lemma_.lower() in _START_OWN:
        return
    if o is not None and o.lemma_.lower() in _SCHOOLS:
        for p in _children(v, "prep") + _children(o, "prep"):
            po = _child(p, "pobj")
            if p.lower_ in ("at", "in") and po is not None and _is_name(po, ctx) and not w.is_time_tok(po):
                w.emit(subj, "school", _name_text(po), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(po.subtree),
                           is_entity=True, rule="start_school", past_means_cease=False)
        return
    for p in _children(v, "prep"):
        if p.lower_ in ("at", "with"):
            po = _child(p, "pobj")
            if po is not None and _is_name(po, ctx):
                w.emit(subj, "employer", _name_text(po), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(po.subtree),
                           is_entity=True, rule="start_at", past_means_cease=False)
                return
        if p.lower_ == "as":
            po = _child(p, "pobj")
            if po is not None and is_job(w, po):
                w.emit(subj, "job_title", job_title(w, po), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(po.subtree),
                           rule="start_as", past_means_cease=False)


def h_promote(w, v, st, pol, tense, tv) -> None:
    subj = w.subject(st)
    if subj is None or not subj.person or pol == "negate":
        return
    for p in _children(v, "prep"):
        po = _child(p, "pobj")
        if p.lower_ == "to" and po is not None:
            w.emit(subj, "job_title", job_title(w, po), v=v, pol="assert", tense="present", tv=tv, value_toks=list(po.subtree),
                       rule="promoted_to", past_means_cease=False)
            return
    for x in _children(v, "xcomp"):
        # "promoted to head of design" parsed as a to-infinitive
        toks = [y for y in x.subtree if y.dep_ != "aux" and not y.is_punct]
        if 0 < len(toks) <= 5:
            w.emit(subj, "job_title", _text(toks).lower(), v=v, pol="assert", tense="present", tv=tv, value_toks=toks,
                       rule="promoted_to", past_means_cease=False)


def h_hire(w, v, st, pol, tense, tv) -> None:
    ctx = w.ctx
    # passive: "I got hired by Google", "I was hired at Stripe as a designer"
    if _child(v, "nsubjpass") is None or pol == "negate":
        return
    subj = w.subject(st)
    if subj is None or not subj.person:
        return
    for c in v.children:
        if c.dep_ in ("agent", "prep") and c.lower_ in ("by", "at"):
            po = _child(c, "pobj")
            if po is not None and _is_name(po, ctx):
                w.emit(subj, "employer", _name_text(po), v=v, pol="assert", tense="present", tv=tv, value_toks=list(po.subtree),
                           is_entity=True, rule="hired_by", past_means_cease=False)
        if c.dep_ == "prep" and c.lower_ == "as":
            po = _child(c, "pobj")
            if po is not None:
                w.emit(subj, "job_title", job_title(w, po), v=v, pol="assert", tense="present", tv=tv, value_toks=list(po.subtree),
                           rule="hired_as", past_means_cease=False)


def h_fire(w, v, st, pol, tense, tv) -> None:
    # "I got laid off", "I was fired from Acme"
    if _child(v, "nsubjpass") is None or pol == "negate" or tense == "future":
        return
    if v.lemma_ == "lay" and not any(c.lower_ == "off" for c in v.children):
        return
    subj = w.subject(st)
    if subj is None or not subj.person:
        return
    val = ""
    toks = []
    for c in v.children:
        if c.dep_ == "prep" and c.lower_ in ("from", "at", "by"):
            po = _child(c, "pobj")
            if po is not None and _is_name(po, w.ctx):
                val, toks = _name_text(po), list(po.subtree)
    w.emit(subj, "employer", val, v=v, pol="cease", tense="present", tv=tv, value_toks=toks, is_entity=bool(val), rule="laid_off")
