"""Work: employer and job title ("I work at X as Y", "I joined X", "I started at X",
"I got a job at X", "I was promoted to Y", "I was hired by X", "I got laid off").

Job titles are the nouns of ``schema/extract/work.toml`` (and any noun
ending in one of its suffixes: "data engineer").
"""

from __future__ import annotations

import re

from .events import named_event, subject_or_event
from .clauses import _verb_tense
from .subjects import Subj
from .habits import activity_text, is_activity
from .lexicon import (LEX, _ACCEPT_JOB, _BAD_OBJECTS, _DROP_ADJ, _GROUPS, _INDUSTRIES, _JOBS, _JOB_SUFFIX_OK, _MADE_TITLES, _PLACE_LABELS,
                      _SCHOOLS, _START_JOB, _START_OWN, _TITLES_WITH_OF, _TITLE_ACRONYMS, _WORKPLACES,
                      _WORK_AT_NOT_EMPLOYER, _WORK_FOR_NOT_EMPLOYER)
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
    """The title a job noun heads: its modifiers ("senior data analyst"), and
    the "of" phrase of a head or director ("head of the piano department")."""
    toks = [t]
    for c in t.children:
        if c.i < t.i and c.dep_ in ("compound", "amod", "nmod") and c.lower_ not in _DROP_ADJ:
            toks.extend(x for x in c.subtree if x.dep_ not in ("det", "punct", "advmod") and x.lower_ not in _DROP_ADJ)
    for c in t.children:  # "head baker" parsed as "head", appos "baker"
        if c.dep_ == "appos" and c.i == t.i + 1 and is_job(w, c):
            toks.append(c)
    if t.lemma_.lower() in _TITLES_WITH_OF:
        for p in _children(t, "prep"):
            po = _child(p, "pobj")
            if p.lower_ == "of" and po is not None and not w.is_time_tok(po):
                toks += [p, po]
                toks.extend(x for c in po.children if c.i < po.i and c.dep_ in ("compound", "amod", "nmod")
                            for x in c.subtree if not x.is_punct)
    toks = [x for x in toks if not w.is_time_tok(x) or x.i == t.i]
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


def _capitalised_inside(t) -> bool:
    """A word with a capital that does not open its sentence and has no article:
    a name, whatever the tagger made of it ("a new job at Stripe": NOUN)."""
    return t.text[:1].isupper() and t.text[1:2].islower() and t.i != t.sent.start and t.is_alpha \
        and _child(t, "det") is None and t.pos_ in ("NOUN", "PROPN", "ADJ")


def job_noun(w, subj, o, v, pol, tense, tv, *, rule: str) -> None:
    """Employer and title around a job noun: "a job at X as Y", "the head of maths job at X",
    "the Globex residency"."""
    ctx = w.ctx
    for c in o.children:
        if c.i > o.i or c.dep_ not in ("compound", "nmod", "amod"):
            continue
        if is_job(w, c):  # "the head of maths job", "a QA lead role"
            w.emit(subj, "job_title", job_title(w, c), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(c.subtree),
                   rule=rule, past_means_cease=False)
        elif c.dep_ == "compound" and any(is_job(w, x) for x in c.subtree if x.i < c.i):
            # "the VP Eng offer": a title whose head is a job word, not a company
            toks = [x for x in c.subtree if not x.is_punct and x.dep_ != "det"]
            w.emit(subj, "job_title", " ".join(x.text for x in toks), v=v, pol=pol, tense=tense, tv=tv,
                   value_toks=toks, rule=rule, past_means_cease=False)
        elif c.dep_ == "compound" and _is_name(c, ctx) and not w.is_time_tok(c) and \
                not any(p.lower_ in ("at", "with", "for") for p in _children(o, "prep") + _children(v, "prep")):
            w.emit(subj, "employer", _name_text(c), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(c.subtree),
                   is_entity=True, rule=rule, past_means_cease=False)
    for p in _children(o, "prep") + _children(v, "prep"):
        po = _child(p, "pobj")
        if po is None or w.is_time_tok(po):
            continue
        det = _child(po, "det")
        if p.lower_ in ("at", "with", "for") and (_is_name(po, ctx) or _capitalised_inside(po) or det is not None
                                                   and det.lower_ in ("a", "an")) \
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
    if any(c.dep_ == "prt" and c.lower_ == "out" for c in v.children):
        return  # "I work out at Iron Temple": a gym, not an employer
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


def do_field_at(w, v, st, o, pol, tense, tv) -> bool:
    """ "he's still doing civil engineering at WSP", "Tom does marketing for
    Nike": a field of work (``work.industries``) done at or for a named
    employer is work there (employer and industry). Whether it read the clause."""
    ctx = w.ctx
    if o.lemma_.lower() not in _INDUSTRIES or pol == "negate" or tense == "future":
        return False
    subj = w.subject(st)
    if subj is None or not subj.person and not _is_name(st, ctx):
        return False
    t_eff = "present" if tense == "progressive" else tense
    at = [po for p in _children(v, "prep") + _children(o, "prep") if p.lower_ in ("at", "for")
          and (po := _child(p, "pobj")) is not None and _is_name(po, ctx) and po.lower_ not in _BAD_OBJECTS]
    if not at:
        return False
    val, ent = _value_of(at[0], ctx)
    w.emit(subj, "employer", val, v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(at[0].subtree), is_entity=ent,
           conf=1.0 if ent else 0.8, rule="do_field_at")
    w.emit(subj, "industry", o.lower_, v=v, pol=pol, tense=t_eff, tv=tv, value_toks=[o], rule="do_field_at", conf=0.9)
    return True


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
    subj = subject_or_event(w, v, st, pol, tense, tv)  # "the launch starts on May 3"
    if subj is None:
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
    if o is not None and is_activity(o):
        # "I started intermittent fasting", "I've started water aerobics"
        w.emit(subj, "habit", activity_text(o), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(o.subtree),
               rule="start_activity", past_means_cease=False, conf=0.9)
        return
    # "I start at Shopify on July 8": a present-tense start with a date is scheduled
    ahead = 1 if tense == "present" else None
    for p in _children(v, "prep"):
        if p.lower_ in ("at", "with"):
            po = _child(p, "pobj")
            if po is not None and _is_name(po, ctx):
                w.emit(subj, "employer", _name_text(po), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(po.subtree),
                       is_entity=True, rule="start_at", past_means_cease=False, direction=ahead)
        if p.lower_ == "as":
            po = _child(p, "pobj")
            if po is not None and is_job(w, po):
                w.emit(subj, "job_title", job_title(w, po), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(po.subtree),
                       rule="start_as", past_means_cease=False, direction=ahead)


def h_promote(w, v, st, pol, tense, tv) -> None:
    """ "I was promoted to team lead"; "Got promoted! Senior designer as of today." (the title in the next sentence)."""
    subj = w.subject(st)
    if subj is None or not subj.person or pol == "negate":
        return
    w.ctx.state["new_job"] = subj  # a title may follow as a fragment
    for p in _children(v, "prep"):
        po = _child(p, "pobj")
        if p.lower_ == "to" and po is not None:
            w.emit(subj, "job_title", job_title(w, po), v=v, pol="assert", tense="present", tv=tv, value_toks=list(po.subtree),
                       rule="promoted_to", past_means_cease=False)
            return
    for x in _children(v, "xcomp"):
        # "promoted to head of design" parsed as a to-infinitive
        toks = [y for y in x.subtree if y.dep_ != "aux" and not y.is_punct and not w.is_time_tok(y)]
        if 0 < len(toks) <= 5:
            w.emit(subj, "job_title", _text(toks).lower(), v=v, pol="assert", tense="present", tv=tv, value_toks=toks,
                       rule="promoted_to", past_means_cease=False)


def h_hire(w, v, st, pol, tense, tv) -> None:
    ctx = w.ctx
    # passive: "I got hired by Google", "I was hired at Stripe as a designer"
    if pol == "negate":
        return
    if _child(v, "nsubjpass") is None:
        # active: "Globex hired me as a designer", "the museum has hired me as their coordinator"
        o = _child(v, "dobj")
        hired = w.subject(o) if o is not None and o.pos_ == "PRON" else None
        if hired is None or not hired.person or tense == "future":
            return
        if st is not None and _is_name(st, ctx) and st.lower_ not in ctx.names:
            w.emit(hired, "employer", _name_text(st), v=v, pol="assert", tense="present", tv=tv,
                   value_toks=list(st.subtree), is_entity=True, rule="hired_me", past_means_cease=False)
        for p in _children(v, "prep"):
            po = _child(p, "pobj")
            if p.lower_ == "as" and po is not None and is_job(w, po):
                w.emit(hired, "job_title", job_title(w, po), v=v, pol="assert", tense="present", tv=tv,
                       value_toks=list(po.subtree), rule="hired_me_as", past_means_cease=False)
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


def h_make(w, v, st, pol, tense, tv) -> None:
    """ "Tom has been made head of sales", "Priya got made a partner at her firm": a new title;
    "made contracts manager at john paul." with no subject at all: the speaker's."""
    elided = (v.lower_ == "made" and v.dep_ == "ROOT" and _child(v, "nsubj") is None and _child(v, "nsubjpass") is None
              and all(t.dep_ in ("aux", "auxpass", "advmod") for t in v.doc[v.sent.start:v.i]))
    if pol == "negate" or tense == "future":
        return
    if _child(v, "nsubjpass") is None and not elided:
        _made_someone(w, v, tv)
        return
    subj = Subj(w.ctx.speaker, True, 0.8, True, None) if elided else w.subject(st)
    if subj is None or not subj.person:
        return
    title = next((c for c in v.children if c.dep_ in ("oprd", "dobj", "attr", "xcomp") and c.pos_ in ("NOUN", "PROPN")), None)
    if title is None or not (is_job(w, title) or title.lemma_.lower() in _MADE_TITLES):
        return
    w.emit(subj, "job_title", job_title(w, title), v=v, pol="assert", tense="present", tv=tv,
           value_toks=list(title.subtree), rule="made_title", past_means_cease=False)
    for p in _children(v, "prep") + _children(title, "prep"):
        po = _child(p, "pobj")
        if p.lower_ == "at" and po is not None and _is_name(po, w.ctx) and not w.is_time_tok(po):
            w.emit(subj, "employer", _name_text(po), v=v, pol="assert", tense="present", tv=tv,
                   value_toks=list(po.subtree), is_entity=True, rule="made_title_at", past_means_cease=False)


def _made_someone(w, v, tv) -> None:
    """ "they made me shift supervisor", "they're making me dispatcher": the one
    made (the speaker for "me", a name for "they made Tom head of sales") holds
    the title the words after them end in. "they made me coffee" names no job."""
    toks = v.doc[v.i + 1:v.sent.end]
    if len(toks) < 2:
        return
    p = toks[0]
    if p.lower_ == "me":
        subj = Subj(w.ctx.speaker, True, 0.8, True, None)
    elif _is_name(p, w.ctx) and p.ent_type_ == "PERSON":
        subj = Subj(_name_text(p), False, 0.8, False, p)
    else:
        return
    run = []
    for t in toks[1:]:
        if t.pos_ not in ("NOUN", "PROPN", "ADJ") or w.is_time_tok(t):
            break
        run.append(t)
    # a job word the small model tags ADJ ("making me dispatcher") is still a job
    while run and not (is_job(w, run[-1]) or run[-1].lower_ in _JOBS):
        run.pop()
    run = [t for t in run if t.lower_ not in _DROP_ADJ]
    if not run:
        return
    w.emit(subj, "job_title", _text(run).lower(), v=v, pol="assert", tense="present", tv=tv,
           value_toks=run, rule="made_someone_title", past_means_cease=False)


def h_accept(w, v, st, pol, tense, tv) -> None:
    """ "She accepted a position at the Royal Library", "I took a job at Initech", "I landed a role at X"."""
    if _measure_taken(w, v, st, pol, tense, tv):
        return
    subj = w.subject(st)
    if subj is None or not subj.person or pol == "negate" or tense in ("future", "progressive"):
        return
    o = _child(v, "dobj")
    if o is None or o.lemma_.lower() not in _ACCEPT_JOB:
        return
    job_noun(w, subj, o, v, pol, "present", tv, rule="accept_job")


def _measure_taken(w, v, st, pol, tense, tv) -> bool:
    """ "my commute takes 40 minutes": a "take" no job reads, of a measured noun (metrics.py)."""
    o = _child(v, "dobj")
    if st is None or st.pos_ == "PRON" or o is None or not (
            o.like_num or any(c.dep_ == "nummod" and c.like_num for c in o.children)):
        return False
    w.fallback(v=v, st=st, pol=pol, tense=tense, tv=tv)
    return True


def _day_at(w, sent, adjectives: tuple[str, ...], units: tuple[str, ...]):
    """The employer of "<adjective> <unit> at X" in ``sent`` ("my last day at
    Deloitte", "first week at Norvik"): (owner, value, is an entity, its token,
    the day the sentence dates it or None), or None. The
    value is "" for "at work" or "at the library" (the one they work at)."""
    day = next((t for t in sent if t.lemma_.lower() in units and any(c.dep_ == "amod" and c.lower_ in adjectives
                                                                     for c in t.children)), None)
    if day is None or _is_question_like(sent):
        return None
    ctx = w.ctx
    where = None
    for h in (day, day.head):
        for p in _children(h, "prep"):
            po = _child(p, "pobj")
            if p.lower_ in ("at", "with", "for") and po is not None and not w.is_time_tok(po):
                where = po
                break
        if where is not None:
            break
    if where is None:
        return None
    poss = _child(day, "poss")
    if poss is not None and poss.lower_ not in ("my", "our"):
        owner = w.subject(poss) if poss.pos_ != "PRON" else None
        if owner is None:
            return None
    else:
        owner = w.subject(poss) if poss is not None else None
        if owner is None:
            owner = Subj(ctx.speaker, True, 1.0, True, None)
    if _is_name(where, ctx):
        value, ent = _name_text(where), True
    elif where.lemma_.lower() in _WORKPLACES or where.lemma_.lower() in ("work", "job", "office"):
        value, ent = "", False  # "at the library": the one they work at
    elif where.pos_ in ("NOUN", "PROPN") and where.is_alpha and _child(where, "det") is None \
            and where.lemma_.lower() not in _SCHOOLS | _BAD_OBJECTS | _LAST_DAY_NOT_EMPLOYER:
        # "last day at dell today", typed in lower case: a bare noun after "last day at" names the employer
        toks = [c for c in where.subtree if c.dep_ == "compound" and c.i < where.i] + [where]
        value, ent = " ".join(t.text[:1].upper() + t.text[1:] for t in sorted(toks, key=lambda t: t.i)), True
    else:
        return None
    span = {x.i for x in day.subtree} | {day.i}
    when = next((t for t in sent if w.is_time_tok(t) and t.i not in span and t.i != day.i
                 and not any(c.i == t.i for c in day.children)), None)
    tense = _verb_tense(sent.root) if sent.root.pos_ in ("VERB", "AUX") else "present"
    vf = None
    if when is not None:
        tr = w.resolve_time_tok(when, 1 if tense in ("future", "present") else -1)
        vf = tr.start if tr is not None else None
    return owner, value, ent, where, vf


def last_day(w, sent) -> None:
    """ "Today was my last day at Deloitte", "My last day at Amazon will be June 14",
    "last day at the library today": the employer ends then (the sentence's
    date, else when it is said)."""
    found = _day_at(w, sent, ("last", "final"), ("day",))
    if found is None:
        return
    owner, value, ent, where, vf = found
    w.emit(owner, "employer", value, v=sent.root, pol="cease", tense="present", tv=sent.root, value_toks=list(where.subtree),
           is_entity=ent, rule="last_day", past_means_cease=False, valid_from=vf or w.ctx.ref, state=False)


#: "First day at Norvik tomorrow", "my first week at Corvel": the speaker's employer from then
#: (:func:`first_day`).
FIRST_DAYS = True


def first_day(w, sent) -> None:
    """ "First day at Norvik tomorrow, eek.", "Just finished my first week at
    Corvel!": the speaker works there from the day the sentence names, else
    from when it is said. Only the speaker's own first day (a child's first
    day at a school is no job), and only a named employer."""
    found = _day_at(w, sent, ("first",), ("day", "week")) if FIRST_DAYS else None
    if found is None:
        return
    owner, value, ent, where, vf = found
    if not owner.is_speaker or not value or not ent or value.split()[-1].casefold() in _SCHOOLS | _FIRST_DAY_SCHOOLS:
        return  # "my first day at Leeds Uni", "at Hillside Primary": a school, a student's as likely
    if any(t.lower_ in _OTHER_PRONOUNS for t in w.doc) or _other_person_before(w, sent):
        return  # "first day at little sprouts went ok!! she cried at dropoff": her first day
    w.emit(owner, "employer", value, v=sent.root, pol="assert", tense="present", tv=sent.root,
           value_toks=list(where.subtree), is_entity=True, conf=0.9, rule="first_day", past_means_cease=False,
           valid_from=vf or w.ctx.ref)


#: A verbless "job at employer" sentence is the speaker's job (:func:`title_fragment`).
TITLE_FRAGMENTS = True


def promotion_title(w, sent) -> None:
    """The title after "Got promoted!" or other news of a new job (:func:`job_news`):
    a fragment that is a job ("Senior designer as of today.", "Team lead now.",
    "Quality Assurance Specialist, I start on 1 September."), from the day the
    turn says it starts, else as the fragment dates it."""
    subj = w.ctx.state.pop("new_job", None)
    if subj is None or any(c.subject == subj.name and c.attribute == "job_title" for c in w.ctx.claims):
        return
    root = sent.root
    h = root if root.pos_ in ("NOUN", "PROPN") else None if any(t.pos_ in ("VERB", "AUX") for t in sent) else next(
        (t for t in sent if t.pos_ == "NOUN" and is_job(w, t)), None)  # a verb's clause is read by its family
    if h is not None and is_job(w, h) and not any(t.dep_ in ("nsubj", "nsubjpass") for t in sent):
        title, toks = job_title(w, h), list(h.subtree)
    else:
        toks = _lead_title(w, sent)
        if toks is None:
            return
        title = _text(toks).lower()
    w.emit(subj, "job_title", title, v=root, pol="assert", tense="present", tv=root, value_toks=toks,
           rule="promoted_title", past_means_cease=False, valid_from=_start_date(w))


_TITLE_TAIL = LEX.words("work.title_fragment_tail")


def _lead_title(w, sent) -> list | None:
    """The words of a title a sentence opens with, when the tagger read it as
    anything but a noun phrase ("Team lead now.": "lead" a verb) or a subject
    follows it ("Quality Assurance Specialist, I start on 1 September."): up to
    five words before a comma, a time or a word of ``work.title_fragment_tail``,
    the last one a job noun; no other person after it."""
    toks: list = []
    for t in sent:
        if not toks and (t.is_punct or t.lower_ in ("a", "an", "the", "new", "my")):
            continue
        if t.is_alpha and t.lower_ not in _TITLE_TAIL and not w.is_time_tok(t) \
                and t.pos_ not in ("PRON", "AUX", "ADP", "DET", "CCONJ", "SCONJ"):
            toks.append(t)
            continue
        break
    if not 1 <= len(toks) <= 5:
        return None
    last = toks[-1]
    if not (last.lower_ in _JOBS or last.lemma_.lower() in _JOBS or last.lower_.endswith(_JOB_SUFFIX_OK)):
        return None
    if any(t.pos_ == "VERB" and t.i != last.i or t.ent_type_ == "PERSON" for t in toks):
        return None
    rest = sent[last.i - sent.start + 1:]
    if any(t.dep_ in ("nsubj", "nsubjpass") and t.lower_ not in ("i", "we") for t in rest):
        return None
    return toks


#: News of the speaker's own new job with no title in it ("Got the job!!", "They
#: offered me the position!" in a turn that takes it) lets a title fragment after
#: it be the speaker's new title (:func:`job_news`, :func:`promotion_title`).
JOB_NEWS = True


def _news_patterns() -> tuple[re.Pattern, re.Pattern]:
    said_by_me = r"(?:^|\b(?:i|we)\s+(?:just\s+|finally\s+|officially\s+|actually\s+)?)"
    done = "|".join(map(re.escape, LEX.ordered("work.job_news")))
    return re.compile(said_by_me + "(?:" + done + r")\b", re.I), LEX.phrases("work.job_offers")


_NEWS_DONE, _NEWS_OFFER = _news_patterns()


def job_news(w, sent) -> None:
    """ "Got the job!!", "I accepted the offer!", "They offered me the job!!! ...
    I start on 1 September": the speaker has a new job, whose title a later
    fragment of the turn may give (:func:`promotion_title`). An offer alone is
    no job: only in a turn with a yes or the day it starts, and none undecided."""
    if not JOB_NEWS or _is_question_like(sent):
        return
    text = sent.text.strip()
    done = _NEWS_DONE.search(text)
    if not (done or _NEWS_OFFER.search(text)) or _UNDECIDED.search(w.text):
        return
    if done or _YES.search(w.text) or _start_date(w) is not None:
        w.ctx.state["new_job"] = Subj(w.ctx.speaker, True, 0.9, True, None)


def title_fragment(w, sent) -> None:
    """A sentence that is only a job at a named employer, in the speaker's own
    turn: "I GOT IT. Nurse educator at the Ottawa Hospital, starting August
    14!!!", "senior product designer at figma now" -> the speaker's job_title
    and employer. No verb and no other person in the sentence (a list of
    others' jobs is not the speaker's). An agent's turn keeps its claims
    only when the user confirms them (``_episodes``)."""
    if not TITLE_FRAGMENTS:
        return
    root = sent.root
    if root.pos_ not in ("NOUN", "PROPN") or not is_job(w, root):
        return
    if any(t.pos_ in ("VERB", "AUX") and t.i < root.i for t in sent) or any(
            t.dep_ in ("nsubj", "nsubjpass", "poss") or (t.ent_type_ == "PERSON" and t.i < root.i) for t in sent):
        return
    me = Subj(w.ctx.speaker, True, 0.9, True, None)
    if _other_person_before(w, sent):
        # "my Freundin :) ... architect at Studio Kranich": her job, not the speaker's; whose,
        # when the turn answers "Who's Lea?"
        from .answers import last_question  # answers reads jobs from this module

        asked = _WHO_ASKED.search(last_question(w.prompt) or "") if w.prompt else None
        if asked is None:
            return
        me = Subj(asked.group("name"), False, 0.8, True, None)
    emp = employer_from(w, root)
    if emp is None or not _is_name(emp, w.ctx):
        return
    # "..., starting August 14": the job begins then, ahead of when it is said
    ahead = 1 if any(t.lower_ in ("starting", "from", "effective") for t in sent) else None
    title = [t for t in root.subtree if t.i <= root.i]
    w.emit(me, "job_title", job_title(w, root), v=root, pol="assert", tense="present", value_toks=title,
           rule="title_fragment", past_means_cease=False, direction=ahead)
    val, ent = _value_of(emp, w.ctx)
    w.emit(me, "employer", val, v=root, pol="assert", tense="present", value_toks=list(emp.subtree),
           is_entity=ent, rule="title_fragment", past_means_cease=False, direction=ahead)


_WHO_ASKED = re.compile(r"\b[Ww]ho(?:['’]s| is)\s+(?P<name>[A-Z][\w-]*(?: [A-Z][\w-]*)?)\s*(?:again|by the way)?\s*[?,]")
_OTHER_PRONOUNS = frozenset({"he", "she", "him", "her", "his", "hers", "they", "them", "their"})
_OWN_WORK = frozenset({"job", "position", "role", "offer", "title", "work", "career", "gig", "contract", "shift"})


def _other_person_before(w, sent) -> bool:
    """Whether the turn speaks of someone else before ``sent``: a person's
    name, a third-person pronoun, or "my <someone>" ("my Freundin :)"),
    not "my new job"."""
    for t in w.doc[:sent.start]:
        if t.ent_type_ == "PERSON" and t.text.casefold() != w.ctx.speaker.casefold() or t.lower_ in _OTHER_PRONOUNS:
            return True
        if t.pos_ in ("NOUN", "PROPN") and any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in t.children) \
                and t.lemma_.lower() not in _OWN_WORK and not is_job(w, t):
            return True
    return False


#: An offer the speaker took: "<Org> offered me a job as Y" or "I got an offer
#: from <Org>", in a turn that also says yes ("I accepted", "told them yes",
#: "took it") and nothing undecided, and the day it starts -> the speaker's
#: employer (and title) from that day (:func:`offer_taken`). An offer alone is
#: no job, and a taken one with no start leaves the job held now.
OFFERS_TAKEN = True
_YES = re.compile(r"\b(?:said|say|told \w+|tell \w+) yes\b|\baccept(?:ed|ing)?\b|\btook it\b|\btaking it\b"
                  r"|\bsigned\b", re.I)
_UNDECIDED = re.compile(r"\b(?:declin\w*|turn(?:ed)? (?:it |them )?down|said no|not sure|thinking|deciding|decide|"
                        r"might|maybe|if|whether)\b", re.I)


def _start_date(w):
    """The day a turn says its new job starts ("start January 6", "i start
    june 3", "starting the 13th"), ahead of when it is said; the last one it
    says ("I start on 1 September. I misspoke: I start on Monday 2 September");
    None if it says none."""
    found = None
    for t in w.doc:
        if t.lemma_.lower() not in ("start", "begin"):
            continue
        for x in w.doc[t.i + 1:min(len(w.doc), t.i + 5)]:
            if x.is_punct and x.text not in (",",):
                break
            if w.is_time_tok(x):
                tr = w.resolve_time_tok(x, 1)
                if tr is not None:
                    found = tr.start
                    break
    return found


def offer_taken(w, sent) -> None:
    """ "Big news, the Sugar Creek Co-op offered me a job as a seed sales rep.
    I told them yes" -> the speaker's employer Sugar Creek Co-op and title
    seed sales rep; "I got an offer from Stripe as a PM. Said yes!" -> Stripe."""
    if not OFFERS_TAKEN or not _YES.search(w.text) or _UNDECIDED.search(w.text):
        return
    me = Subj(w.ctx.speaker, True, 1.0, True, None)
    for t in sent:
        if t.lemma_.lower() != "offer":
            continue
        org, job = None, None
        if t.pos_ == "VERB":  # "<Org> offered me a job as Y"
            if not any(c.dep_ in ("dative", "dobj") and c.lower_ == "me" for c in t.children):
                continue
            orgs = [e for e in sent.ents if e.label_ == "ORG" and e.end <= t.i]
            subj = _child(t, "nsubj")
            if orgs:
                org = orgs[-1]
            elif subj is not None and subj.pos_ == "PROPN" and _is_name(subj, w.ctx):  # "Acme" the tagger left bare
                org = w.doc[min(x.i for x in subj.subtree if x.dep_ != "det"):subj.i + 1]
            job = _child(t, "dobj")
        elif any(c.lower_ in ("i", "my") for c in t.head.children if c.dep_ in ("nsubj", "poss")) or any(
                c.lower_ == "my" for c in t.children):  # "I got an offer from X", "my offer from X"
            po = next((_child(p, "pobj") for p in _children(t, "prep") if p.lower_ == "from"), None)
            org = w.doc[po.i:po.i + 1] if po is not None and _is_name(po, w.ctx) else None
            job = t
        if org is None:
            continue
        start = _start_date(w)
        if start is None:
            return  # taken, but from when is not said: the job held now goes on (a start is a plan)
        name = re.sub(r"^(?:the|a)\s+", "", org.text, flags=re.I)
        w.emit(me, "employer", name, v=t, pol="assert", tense="present", value_toks=list(org), is_entity=True,
               conf=0.9, rule="offer_taken", past_means_cease=False, valid_from=start)
        if job is not None and job.lemma_.lower() in _ACCEPT_JOB:
            for c in job.children:
                po = _child(c, "pobj") if c.dep_ == "prep" and c.lower_ == "as" else None
                if po is not None and (is_job(w, po) or any(is_job(w, x) for x in po.subtree)):
                    # "as a seed sales rep" (the tagger hangs "rep" off "seed")
                    end = next((x.i for x in po.subtree if x.is_punct and x.i > po.i), po.right_edge.i + 1)
                    toks = [x for x in po.subtree if x.dep_ != "det" and not x.is_punct and x.i < end]
                    w.emit(me, "job_title", " ".join(x.text for x in toks), v=t, pol="assert", tense="present",
                           value_toks=toks, conf=0.9, rule="offer_taken", past_means_cease=False, valid_from=start)
                elif c.dep_ == "compound" and is_job(w, c):  # "the bookkeeper position"
                    w.emit(me, "job_title", job_title(w, c), v=t, pol="assert", tense="present",
                           value_toks=list(c.subtree), conf=0.9, rule="offer_taken", past_means_cease=False,
                           valid_from=start)
        return


_FIRST_DAY_SCHOOLS = LEX.words("work.first_day_schools")
#: "last day at camp/home/sea": a bare noun that names no employer
_LAST_DAY_NOT_EMPLOYER = frozenset({"camp", "home", "sea", "church", "the", "gym", "hospital", "rehab", "practice",
                                   "training", "summer", "college", "school", "uni", "university", "kindergarten"})


def _is_question_like(sent) -> bool:
    return sent.text.strip().endswith("?")
