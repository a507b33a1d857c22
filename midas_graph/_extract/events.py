"""Plans and dates: "the launch is on May 3", "the deadline moved to Friday", "we pushed
the launch to June", "Project Apollo launches on May 3".

Date attributes are ``<event>_date`` for the event nouns of
``schema/extract/events.toml`` or one of its named date phrases
("deadline", "birthday"); the owner is the one the noun names ("the Apollo
deadline", "Apollo's budget") or the speaker.
"""

from __future__ import annotations

from .lexicon import _DATE_ATTRS, _DATE_HEADS, _EVENTS, _EVENT_PARTICLES, _EVENT_VERBS, _GENERIC_MODS, _MOVING_VERBS
from .subjects import Subj, owner_of, resolve_subject
from .tokens import _child, _children, _ent_of, _is_name, _name_text, attr_key


def _is_place(t, ctx) -> bool:
    """A place's name (spaCy's GPE or LOC)."""
    ent = _ent_of(t)
    return ent is not None and ent.label_ in ("GPE", "LOC") and _is_name(t, ctx)



def date_value(w, tok, direction: int) -> tuple[str, list]:
    """A time token's value (ISO when the resolver places it, else the
    expression as written) and the tokens that say it."""
    tr = w.resolve_time_tok(tok, direction)
    entry = w.time_of(tok)
    return (tr.iso() if tr is not None else entry[2]), [w.ctx.doc[i] for i in entry[0]]


def date_key(w, h, key: str, acomp) -> str | None:
    low = h.lower_
    lem = h.lemma_.lower()
    # "the product launch", "the project deadline": generic modifiers name no other date
    parts = key.split("_")
    while len(parts) > 1 and parts[0] in _GENERIC_MODS:
        parts = parts[1:]
    key = "_".join(parts)
    phrase = key.replace("_", " ")
    if phrase in _DATE_ATTRS:
        return _DATE_ATTRS[phrase]
    if "_" in key and key.endswith(("deadline", "_date", "birthday", "anniversary")):
        return key  # "the Q3 deadline", "the report deadline"
    if lem in _DATE_ATTRS:
        return _DATE_ATTRS[lem]
    if "_" in key and key.rsplit("_", 1)[1] in _DATE_HEADS and any(
            c.dep_ == "compound" or c.dep_ == "amod" and c.tag_ == "VBG" for c in h.children if c.i < h.i):
        return key  # "demo day", "moving day", "games night"; not "my last day" (work.last_day's)
    if acomp is not None and acomp.lower_ == "due":
        return f"{key}_deadline"
    if lem in _EVENTS or low in _EVENTS or key.split("_")[-1] in _EVENTS:
        return f"{key}_date"
    if key.endswith(("deadline", "date")):
        return key
    return None


def subject_or_event(w, v, st, pol, tense, tv):
    """The clause's subject; when it has none that is a person or a name, a
    change of a thing is read as an event ("the deadline moved to Friday",
    :func:`event_change`) and None comes back."""
    subj = w.subject(st)
    if subj is None and st is not None:
        event_change(w, v, st, pol, tense, tv)
    return subj


def event_change(w, v, st, pol, tense, tv, h=None) -> bool:
    """ "the deadline moved to Friday", "the launch slipped to June 12", "the Apollo launch was pushed to May"."""
    ctx = w.ctx
    lemma = v.lemma_.lower()
    if lemma not in _EVENT_VERBS:
        return False
    if h is None:
        h = st
    if h is None or h.pos_ not in ("NOUN", "PROPN"):
        return False
    key = attr_key(h)
    if key is None:
        return False
    akey = date_key(w, h, key, None)
    if akey is None and lemma in _MOVING_VERBS and h.dep_ == "dobj" and _is_place(h, ctx):
        # "we postponed Kyoto again, to March": the place stands for the trip there, as
        # in "the Kyoto trip is moved to November 2" (its owner the place)
        owner, akey = Subj(_name_text(h), False, 0.9, False, h), "trip_date"
    elif akey is None:
        return False
    else:
        owner, explicit = owner_of(h, ctx)
    if owner is None:
        return False
    date_tok = None
    # "pushed back to Friday", "moved up to June 3", "brought forward to May": the time
    # may hang under the particle
    heads = [v, *(c for c in v.children if c.dep_ in ("advmod", "prt", "prep") and c.lower_ in _EVENT_PARTICLES)]
    for p in (p for hd in heads for p in _children(hd, "prep")):
        if p.lower_ in ("to", "until", "till", "for", "on", "in", "by", "at"):
            po = _child(p, "pobj")
            if po is not None and w.is_time_tok(po):
                date_tok = po
                if p.lower_ in ("to", "until", "till", "for"):
                    break
    if date_tok is None:
        for c in v.children:
            if c.dep_ == "npadvmod" and w.is_time_tok(c) and lemma in ("be", "happen"):
                date_tok = c
    if date_tok is None:
        if lemma in _MOVING_VERBS and pol != "negate":
            # "The operation has been postponed. ... the new date is 9 September": the
            # turn's next bare date is this event's (:func:`moved_date`)
            w.ctx.state["moved_event"] = (owner, akey)
        return False
    if lemma in ("end", "finish", "close"):
        akey = akey.replace("_date", "_end_date") if akey.endswith("_date") else akey
    val, toks = date_value(w, date_tok, -1 if tense == "past" and lemma in ("happen", "be") else 1)
    # a plan that moved has one new time: the times it had before end ("moved to", "postponed to")
    moved = lemma in _MOVING_VERBS and date_tok.head.lower_ in ("to", "until", "till", "for")
    w.emit(owner, akey, val, v=v, pol="assert" if pol != "negate" else pol, tense="present", tv=tv, state=False,
               value_toks=toks, rule="event_change", conf=1.0, change=moved)
    return True


def named_event(w, v, st, pol, tense, tv) -> None:
    """ "Project Apollo launches on May 3" -> Apollo.launch_date."""
    ctx = w.ctx
    lemma = v.lemma_.lower()
    key = {"launch": "launch_date", "ship": "ship_date", "release": "release_date", "open": "opening_date", "premiere": "premiere_date",
           "start": "start_date", "begin": "start_date", "close": "end_date", "end": "end_date", "go": "launch_date"}.get(lemma)
    if key is None:
        return
    if lemma == "go" and not any(c.lower_ == "live" for c in v.children):
        return
    subj = resolve_subject(st, ctx)
    if subj is None:
        return
    for p in _children(v, "prep"):
        po = _child(p, "pobj")
        if po is not None and w.is_time_tok(po) and p.lower_ in ("on", "in", "at", "by"):
            val, toks = date_value(w, po, -1 if tense == "past" else 1)
            w.emit(subj, key, val, v=v, pol=pol, tense="present", tv=tv, state=False, value_toks=toks,
                       rule="named_event")
            return


#: the date words a turn may give a plan it has just said moved ("the new date
#: is 9 September", "new date: June 21")
_BARE_DATES = frozenset({"date", "new_date", "day", "new_day"})


def _moved_plan(w, sent):
    """A plan this sentence says moved, with no date of its own ("The wedding got
    moved, new date is June 21"): (owner, date attribute), or None."""
    for t in sent:
        if t.pos_ != "VERB" or t.lemma_.lower() not in _MOVING_VERBS:
            continue
        h = _child(t, "nsubjpass") or _child(t, "dobj")
        if h is None or h.pos_ not in ("NOUN", "PROPN") or (key := attr_key(h)) is None:
            continue
        akey = date_key(w, h, key, None)
        owner = owner_of(h, w.ctx)[0] if akey is not None else None
        if owner is not None:
            return owner, akey
    return None


def moved_date(w, akey: str, owner, sent=None):
    """The attribute and owner a date said bare ("the new date is ...") takes:
    those of the plan the turn said moved without a date ("The operation has
    been postponed.", in an earlier sentence or this one: ``sent``), else as
    given. Third value: whether it moved."""
    if akey not in _BARE_DATES:
        return akey, owner, False
    pending = w.ctx.state.pop("moved_event", None) or (_moved_plan(w, sent) if sent is not None else None)
    if pending is None:
        return akey, owner, False
    return pending[1], pending[0], True


def it_moved_to(w, sent) -> None:
    """ "my dentist appointment was rescheduled. it's now on the 3rd of march":
    "it" with a date, after a plan the turn said moved without one, is that
    plan's new date."""
    pending = w.ctx.state.get("moved_event")
    root = sent.root
    if pending is None or root.lemma_.lower() != "be" or not any(
            c.dep_ == "nsubj" and c.lower_ in ("it", "that", "this") for c in root.children):
        return
    date_tok = next((o for p in _children(root, "prep") if p.lower_ in ("on", "to", "for", "in")
                     and (o := _child(p, "pobj")) is not None and w.is_time_tok(o)), None) or next(
        (c for c in root.children if c.dep_ in ("attr", "npadvmod") and w.is_time_tok(c)), None)
    if date_tok is None:
        return
    w.ctx.state.pop("moved_event", None)
    val, toks = date_value(w, date_tok, 1)
    w.emit(pending[0], pending[1], val, v=root, pol="assert", tense="present", tv=root, state=False,
           value_toks=toks, rule="it_moved_to", conf=0.9, change=True)
