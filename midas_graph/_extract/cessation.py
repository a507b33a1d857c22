"""Something that held stops: "I left X", "I quit X", "I resigned", "I gave up sugar".

A place left ends ``lives_in``, a company ``employer`` (also "my job":
every current employer), a habit ``habit``, a group ``member_of``; all as
``cease`` claims, whose ``valid_from`` is when it ended.
"""

from __future__ import annotations

from .lexicon import LEX, _BAD_OBJECTS, _LEAVE_JOB, _QUIT_GROUPS, _QUIT_HABITS, _QUIT_JOB
from .habits import activity_text, is_activity
from .subjects import Subj, poss_owner, subject_token
from .times import is_time_tok
from .tokens import _child, _children, _ent_of, _is_name, _name_text, _np_text


def h_leave(w, v, st, pol, tense, tv) -> None:
    ctx = w.ctx
    subj = w.subject(st)
    if subj is None or not subj.person:
        return
    if pol == "negate" or tense == "future" and not w.qualifiers(v, set()):
        return
    o = _child(v, "dobj")
    if o is None:
        for p in _children(v, "prep"):
            if p.lower_ in ("from",):
                o = _child(p, "pobj")
    if o is None or o.pos_ == "PRON":
        return
    lem = o.lemma_.lower()
    if poss_owner(o, ctx) is not None and lem in _LEAVE_JOB:
        w.emit(subj, "employer", "", v=v, pol="cease", tense="present", tv=tv, value_toks=[o], rule="leave_job")
        return
    if not _is_name(o, ctx):
        return
    ent = _ent_of(o)
    attr = "lives_in" if ent is not None and ent.label_ in ("GPE", "LOC", "FAC") else "employer"
    if ent is not None and ent.label_ == "PERSON" and attr == "employer":
        # "I left Acme": the small model calls many company names PERSON; "left Tom" is rarer in memory talk
        if o.lower_ in ctx.names:
            return
    val = _name_text(o)
    w.emit(subj, attr, val, v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree), is_entity=True,
               rule=f"leave_{attr}")
    # "I left Acme to join Globex"
    for c in v.children:
        if c.dep_ in ("xcomp", "advcl") and c.lemma_.lower() in ("join", "work", "start"):
            w.clause(c, subj_tok=st, time_verb=v)


def h_quit(w, v, st, pol, tense, tv) -> None:
    ctx = w.ctx
    subj = w.subject(st)
    if subj is None or not subj.person or pol == "negate":
        return
    o = _child(v, "dobj")
    if o is None:
        for p in _children(v, "prep"):
            # "retire at the end of March": when, not where
            if p.lower_ in ("from", "at") and (po := _child(p, "pobj")) is not None and not is_time_tok(w, po):
                o = po
    if o is None:
        if v.lemma_ in ("retire",):
            w.emit(subj, "employment_status", "retired", v=v, pol="assert", tense="present", tv=tv, rule="retire")
        return
    lem = o.lemma_.lower()
    if lem in _QUIT_JOB:
        w.emit(subj, "employer", "", v=v, pol="cease", tense="present", tv=tv, value_toks=[o], rule="quit_job")
        return
    if o.tag_ == "VBG" or lem in _QUIT_HABITS:
        w.emit(subj, "habit", o.lower_, v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree), rule="quit_habit")
        return
    if _is_name(o, ctx):
        ent = _ent_of(o)
        if ent is not None and ent.label_ in ("LOC", "FAC") and v.lemma_ == "quit":
            return
        w.emit(subj, "employer", _name_text(o), v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree),
                   is_entity=True, rule="quit_employer")
        if v.lemma_ == "retire":
            w.emit(subj, "employment_status", "retired", v=v, pol="assert", tense="present", tv=tv, rule="retire")
    elif lem in _QUIT_GROUPS:
        w.emit(subj, "member_of", _np_text(o), v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree), rule="quit_group")


def h_give(w, v, st, pol, tense, tv) -> None:
    """ "I gave up sugar" -> habit ceases."""
    prt = _child(v, "prt")
    subj = w.subject(st)
    o = _child(v, "dobj")
    if prt is None or prt.lower_ != "up" or subj is None or not subj.person or o is None or pol != "assert":
        return
    if tense not in ("past", "perfect") or o.pos_ == "PRON" or o.lower_ in _BAD_OBJECTS or _child(o, "poss") is not None:
        return
    w.emit(subj, "habit", _np_text(o), v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree), rule="gave_up")


def took_up(w, v, xc, pol: str) -> None:
    """ "I've stopped running" (cease), "I started swimming at the lido"
    (assert): an activity with no pattern of its own becomes a ``habit``."""
    if xc.tag_ != "VBG" or _child(xc, "dobj") is not None or not is_activity(xc):
        return
    subj = w.subject(subject_token(v))
    if subj is None or not subj.person:
        return
    w.emit(subj, "habit", xc.lower_, v=v, pol=pol, tense="present", tv=v, value_toks=[xc],
           rule="started_activity" if pol == "assert" else "stopped_activity", past_means_cease=False, conf=0.9)


def h_stop(w, v, st, pol, tense, tv) -> None:
    """ "I stopped the intermittent fasting", "I've stopped yoga": the habit ends."""
    subj = w.subject(st)
    o = _child(v, "dobj")
    if subj is None or not subj.person or o is None or pol != "assert" or tense in ("future", "progressive"):
        return
    if not is_activity(o) or any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in o.children):
        return
    w.emit(subj, "habit", activity_text(o), v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree),
           rule="stopped_activity", past_means_cease=False, conf=0.9)

