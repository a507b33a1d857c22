"""Where people live: "I live in X", "we moved to X", "I'm based in X", "moved out of X".

A completed move is a present state; a planned one needs a date; "the
deadline moved to Friday" is handed to :mod:`.events`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import islice

from .casing import _english
from .clauses import _polarity, _verb_tense
from .events import subject_or_event
from .subjects import Subj, subject_token
from .switches import _TRIP, _placeish
from .lexicon import _DROP_ADJ, _FIRST, _MOVE_ADVERBS, _MOVE_PLACE_NOUNS, _PLACE_NOUNS, LEX
from .tokens import _child, _children, _conjuncts, _ent_of, _is_name, _name_text, _text, _value_of


def location_preps(w, subj, head, pol, tense, tv, *, v, rule: str, cease_preps=("out", "away"),
                    allowed=("in", "to", "into", "near", "outside", "at")) -> bool:
    ctx = w.ctx
    done = False
    for p in _children(head, "prep"):
        pl = p.lower_
        if pl not in allowed and pl not in ("from",):
            continue
        o = _child(p, "pobj")
        if o is None or o.pos_ == "PRON" or w.is_time_tok(o):
            continue
        if pl == "from":
            continue
        if not _is_name(o, ctx):
            home = _home_place(o, ctx)
            if home is not None:
                # "settled into the new house in Didsbury", "we live in a flat in Leith": the place of the home
                val, ent = _value_of(home, ctx)
                w.emit(subj, "lives_in", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(home.subtree),
                       is_entity=ent, conf=0.9, rule=rule)
                done = True
                continue
            # "a small town near Lyon": keep the place only when it is anchored to a name
            near = next((c for c in o.children if c.dep_ == "prep" and c.lower_ in ("near", "outside", "in", "of", "by")
                         and _child(c, "pobj") is not None and _is_name(_child(c, "pobj"), ctx)), None)
            if near is None or o.lemma_.lower() not in _PLACE_NOUNS:
                continue
            toks = [x for x in o.subtree if x.dep_ not in ("det",) and not x.is_punct and x.lower_ not in _DROP_ADJ]
            w.emit(subj, "lives_in", _text(toks), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree),
                       is_entity=False, conf=0.8, rule=rule)
            done = True
            continue
        if _ent_of(o) is not None and _ent_of(o).label_ in ("ORG",) and rule != "based_in" and head.lemma_ != "live":
            pass
        for o2 in _conjuncts(o):
            val, ent = _value_of(o2, ctx)
            w.emit(subj, "lives_in", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o2.subtree), is_entity=ent, rule=rule)
            done = True
        if head.lemma_ in ("move", "relocate") and pl == "to":
            break
    return done


def h_live(w, v, st, pol, tense, tv) -> None:
    subj = w.subject(st)
    if subj is None or not subj.person and not _is_name(st, w.ctx):
        return
    location_preps(w, subj, v, pol, tense, tv, v=v, rule="live_in", allowed=("in", "near", "outside", "at", "on", "into"))


#: A home noun with a named place in it ("the new house in Didsbury") is that
#: place, where living, settling or being in the home is said (:func:`_home_place`).
HOME_PLACES = True


def _home_place(o, ctx):
    """The named place of a home noun ``o``: "a flat in Leith" -> Leith (the last
    name after "in" under it), or None."""
    if not HOME_PLACES or o.lemma_.lower() not in _HOME_NOUNS or o.lemma_.lower() in ("key", "keys", "lease", "bed"):
        return None
    places = [_child(p, "pobj") for h in o.subtree for p in _children(h, "prep") if p.lower_ == "in"]
    places = [x for x in places if x is not None and _is_name(x, ctx)]
    return places[-1] if places else None


#: A completed move that names no destination ("moved last week!") moved to
#: the one place its turn names ("we're officially Pittsburgh people"),
#: when the turn names exactly one (not after "from" or "left").
MOVE_TURN_PLACE = True


#: A completed move of the speaker that names no destination, in a turn that
#: names no place ("we're in!!! moved saturday. boxes everywhere"), moved to
#: the last place the speaker's recent turns talked of living in ("looking at
#: houses in Decatur", "Wohnung search in Ottensen"): see :func:`housing_places`;
#: ingest passes them as ``planned`` (``_people.Tracker.planned``).
MOVE_PLANNED_PLACE = True
_HOUSING = LEX.words("location.housing_words")
_OWN = frozenset({"my", "our"})


def housing_places(doc) -> list[str]:
    """The places (GPE) a turn names in a sentence about where to live (a
    lemma of ``location.housing_words``), in order; not a place left ("from
    Leeds", "leaving Austin") nor the home the speaker has ("our 2br in East
    Atlanta is too small"; "our new place in Decatur" is a destination)."""
    out = []
    for e in doc.ents:
        if e.label_ != "GPE":
            continue
        sent = e.sent
        if not any(t.lemma_.lower() in _HOUSING or t.lower_ in _HOUSING for t in sent):
            continue
        if e.start > sent.start and doc[e.start - 1].lower_ in ("from", "of", "left", "leaving"):
            continue
        if _own_home(e.root):
            continue
        out.append(e.text)
    return out


def _own_home(tok) -> bool:
    """Whether a place hangs off "my/our <housing noun>" without "new"."""
    for h in tok.ancestors:
        if h.pos_ in ("VERB", "AUX"):
            return False
        if h.lemma_.lower() in _HOUSING and any(c.lower_ in _OWN for c in h.children) \
                and not any(c.lower_ in ("new", "next") for c in h.children):
            return True
    return False


#: what a person moves when they move house ("we moved the family to Leeds"); any other
#: object makes "moved X to Y" a thing moved (location.toml ``moved_with_us``)
_MOVED_WITH_US = LEX.words("location.moved_with_us")


def h_move(w, v, st, pol, tense, tv) -> None:
    ctx = w.ctx
    subj = subject_or_event(w, v, st, pol, tense, tv)  # "the deadline moved to Friday"
    if subj is None:
        return
    if not subj.person and not _is_name(st, ctx):
        return
    if pol != "assert" and pol != "cease":
        return
    if pol == "negate":
        return
    moved = _child(v, "dobj")
    if moved is not None and moved.lower_ not in _MOVED_WITH_US:
        return  # "I moved my passwords to Bitwarden": a thing moved, not the speaker (switches.moved_to)
    prt = _child(v, "prt")
    preps = _children(v, "prep")
    # "moved out of X" / "moved away from X"
    outp = prt if prt is not None and prt.lower_ in ("out", "away") else next(
        (p for p in preps if p.lower_ in ("out", "away")), None)
    if outp is not None:
        for p in preps + _children(outp, "prep"):
            if p.lower_ in ("of", "from"):
                o = _child(p, "pobj")
                if o is not None and _is_name(o, ctx):
                    w.emit(subj, "lives_in", _name_text(o), v=v, pol="cease", tense=tense, tv=tv, value_toks=list(o.subtree),
                               is_entity=True, rule="move_out", past_means_cease=False)
        return
    if pol == "cease":
        return
    if prt is not None and prt.lower_ == "in" and not preps:
        return
    if tense == "past" or tense == "perfect":
        tense_eff = "present"  # a completed move starts a current state
    else:
        tense_eff = tense
    ahead = None
    if tense == "present" and not any(c.lower_ in ("now", "finally", "officially") for c in v.children):
        # "I move to Paris" (habitual / narrative present) is rare; accept only with a date
        quals = w.qualifiers(v, set())
        if not quals:
            return
        if not any(c.lower_ in ("now", "finally", "officially") for c in v.children):
            tense_eff, ahead = "future", 1  # "we move to Hamburg in July": a plan, dated ahead
    if tense == "progressive":
        quals = w.qualifiers(v, set())
        if not quals:
            return
        tense_eff = "future"
    for c in v.children:
        if c.dep_ == "advmod" and c.lower_ in _MOVE_ADVERBS:
            preps = preps + _children(c, "prep")  # "moving back to Chicago"
    for p in preps:
        if p.lower_ in ("to", "into", "in"):
            o = _child(p, "pobj")
            if o is None or w.is_time_tok(o):
                continue
            if not (_is_name(o, ctx) or o.lemma_.lower() in _MOVE_PLACE_NOUNS):
                continue
            for o2 in _conjuncts(o):
                val, ent = _value_of(o2, ctx)
                w.emit(subj, "lives_in", val, v=v, pol="assert", tense=tense_eff, tv=tv, value_toks=list(o2.subtree),
                           is_entity=ent, rule="move_to", past_means_cease=False, direction=ahead)
            return
    # "moved on saturday", "moved last week": no prep that could hold a place
    placed = [p for p in preps if _child(p, "pobj") is not None and not w.is_time_tok(_child(p, "pobj"))]
    if MOVE_TURN_PLACE and subj.person and tense in ("past", "perfect") and not placed and prt is None:
        # "we're officially pittsburgh people. moved last week": the turn's one place
        places = [e for e in v.doc.ents if e.label_ == "GPE"
                  and not (e.start > 0 and v.doc[e.start - 1].lower_ in ("from", "of", "left", "leaving"))]
        if len({e.text.casefold() for e in places}) == 1 and places[0].text.casefold() != subj.name.casefold():
            e = places[-1]
            w.emit(subj, "lives_in", e.text, v=v, pol="assert", tense="present", tv=tv, value_toks=list(e),
                   is_entity=True, rule="move_turn_place", past_means_cease=False)
        elif MOVE_PLANNED_PLACE and not places and subj.is_speaker and ctx.planned:
            # "moved saturday. boxes everywhere", after "looking at houses in Decatur"
            w.emit(subj, "lives_in", ctx.planned[-1], v=v, pol="assert", tense="present", tv=tv, value_toks=[v],
                   is_entity=True, conf=0.7, rule="move_planned_place", past_means_cease=False)


def h_base(w, v, st, pol, tense, tv) -> None:
    """ "I'm based in Berlin" -> lives_in; "Acme is based in Berlin" -> headquarters."""
    ctx = w.ctx
    subj = w.subject(st)
    if subj is None or pol == "negate":
        return
    ent = _ent_of(st) if st is not None else None
    if not subj.person and ent is not None and ent.label_ == "ORG" or (st is not None and st.lower_ not in _FIRST and not subj.person
                                                                   and ent is None):
        for p in _children(v, "prep"):
            po = _child(p, "pobj")
            if p.lower_ in ("in", "out") and po is not None and _is_name(po, ctx):
                w.emit(subj, "headquarters", _name_text(po), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(po.subtree),
                           is_entity=True, rule="based_in_org")
        return
    location_preps(w, subj, v, pol, tense, tv, v=v, rule="based_in")


def h_visit(w, v, st, pol, tense, tv) -> None:
    """ "My sister is coming from Gothenburg for two weeks", "my mom is visiting from Ohio",
    "he flew in from Denver": a visitor lives where they come from (confidence 0.7). Only of
    another person (the speaker coming from work says nothing of a home), a place name, and
    not "back from" or "home from" (a return)."""
    subj = w.subject(st) if st is not None else None
    if pol != "assert" or any(c.lower_ in ("back", "home") for c in v.children if c.dep_ in ("advmod", "prt")) \
            or subj is None or not subj.person or subj.is_speaker or st.lower_ in _FIRST:
        w.fallback(v=v, st=st, pol=pol, tense=tense, tv=tv)  # "the release comes out on May 3"
        return
    for p in _children(v, "prep"):
        o = _child(p, "pobj")
        if p.lower_ == "from" and o is not None and _ent_of(o) is not None and _ent_of(o).label_ == "GPE":
            val, ent = _value_of(o, w.ctx)
            w.emit(subj, "lives_in", val, v=v, pol=pol, tense="present", tv=tv, value_toks=list(o.subtree),
                   is_entity=ent, conf=0.7, rule="visit_from", past_means_cease=False)
            return
    w.fallback(v=v, st=st, pol=pol, tense=tense, tv=tv)


_GETTING = LEX.words("location.home_getting_verbs")
_HOME_NOUNS = LEX.words("location.home_nouns")


def _place_name(o, ctx) -> bool:
    """A name, or a word typed in lower case that is no English word ("a
    unit in chermside"): after a home got "in", that is a place."""
    return _is_name(o, ctx) or (o.is_alpha and o.is_lower and len(o) >= 3 and not o.is_stop
                                and o.lower_ not in _english())


def new_home(w, sent) -> None:
    """ "mum bought a unit in chermside", "she and dara got the keys to a house
    in lucan", "we've found a 2 bed in drumcondra": a home got in a named place
    is where whoever got it lives now (a change of ``lives_in``). Only a
    getting that is done (past or perfect, asserted): "we're looking at houses
    in Decatur" is a plan, "we made an offer on a house in Decatur" no getting.
    The place is the last name after "in" under the home noun ("a 3 bed on
    maple ave in westerville": Westerville)."""
    ctx = w.ctx
    for v in sent:
        if v.pos_ != "VERB" or v.lemma_.lower() not in _GETTING:
            continue
        if _verb_tense(v) not in ("past", "perfect") or _polarity(v) != "assert":
            continue
        # the homes that hang off the getting (dobj, or "the keys to a house"; "got the keys
        # to our place": "to" hangs off "got"); "a flat" is an ADJ to the parser
        homes = [t for t in v.subtree if t.lemma_.lower() in _HOME_NOUNS and t.i != v.i
                 and (t.pos_ in ("NOUN", "PROPN") or t.dep_ == "dobj") and v in islice(t.ancestors, 3)]
        if not homes:
            continue
        # the object of "in"; a word typed in lower case may be parsed as anything under it ("in stoneygate")
        places = [next((c for c in p.children if c.dep_ == "pobj" or c.is_lower and c.dep_ in ("amod", "compound")),
                       None) for h in (*(x for home in homes for x in home.subtree), v)
                  for p in _children(h, "prep") if p.lower_ in ("in", "at")]
        # "in drumcondra 5 mins from the school": a distance is no place; the name hung under it is
        places = [next((c for c in o.children if c.dep_ in ("nmod", "compound")), None)
                  if o is not None and (any(c.dep_ == "nummod" for c in o.children)
                                        or o.i > 0 and o.doc[o.i - 1].like_num) else o for o in places]
        places = [o for o in places if o is not None and _place_name(o, ctx) and not w.is_time_tok(o)]
        if not places:
            continue
        st = subject_token(v)
        if st is None:
            owners = [Subj(ctx.speaker, True, 0.9, True, None)]
        else:
            owners = [o for o in (w.subject(t) for t in _conjuncts(st)) if o is not None and o.person]
        place = places[-1]
        val, ent = _value_of(place, ctx)
        if place.is_lower and not _is_name(place, ctx):  # typed in lower case: "a unit in chermside"
            val, ent = place.text.capitalize(), True
        for subj in owners:
            w.emit(subj, "lives_in", val, v=v, pol="assert", tense="present", tv=v, value_toks=list(place.subtree),
                   is_entity=ent, conf=0.8, rule="new_home", past_means_cease=False, change=True)
        return


_MOVING_DAY = re.compile(r"\b(?:" + "|".join(map(re.escape, LEX.ordered("location.moving_day_words"))) + r")\b", re.I)
#: who is in the place: the speaker, or the speaker and theirs
_WE = frozenset({"i", "we"})


def moved_in(w, sent) -> None:
    """ "We are in Bristol! Everything is in boxes", "finally in Leeds, the movers
    left at 6": the speaker in a named place, in a turn that speaks of a move
    done (``location.moving_day_words``), lives there now. Without such words
    ("We're in Paris! The hotel is lovely") it is a trip, and nothing is read."""
    ctx = w.ctx
    if not _MOVING_DAY.search(w.text) or sent.text.rstrip().endswith("?"):
        return
    for be in sent:
        if be.lemma_.lower() != "be" or be.dep_ not in ("ROOT", "ccomp", "conj") \
                or _verb_tense(be) not in ("present", "progressive") or _polarity(be) != "assert":
            continue
        st = subject_token(be)
        if st is None or st.lower_ not in _WE:
            continue
        for p in _children(be, "prep"):
            o = _child(p, "pobj")
            ent = _ent_of(o) if o is not None else None
            home = _home_place(o, ctx) if o is not None and p.lower_ == "in" else None
            if home is not None:  # "We're in the new flat in Leith now."
                o, ent = home, _ent_of(home) or ent
            if p.lower_ == "in" and ent is not None and ent.label_ == "GPE" and _is_name(o, ctx):
                w.emit(Subj(ctx.speaker, True, 0.8, True, None), "lives_in", _name_text(o), v=be, pol="assert",
                       tense="present", tv=be, value_toks=list(o.subtree), is_entity=True, conf=0.8, rule="moved_in",
                       past_means_cease=False, change=True)
                return


_IS = frozenset({"is", "'s", "\u2019s", "are", "'re", "\u2019re"})
#: "for two weeks", "for the weekend", "tomorrow": a stretch or a day near, a trip's
_OFF_FOR = re.compile(r"\b(?:for|until|till|tomorrow|tonight|today|this (?:week|weekend|morning|afternoon|evening))\b",
                      re.I)


def off_to(w, sent) -> None:
    """ "steph's off to perth", "he's off to perth in april, his sister's over
    there", "My brother is off to Toronto next month": someone else being off
    to a named place moves there (a change of ``lives_in``, from the date
    said). Not the speaker ("I'm off to Paris!" is mostly a trip), not a
    question, not in a turn with a trip word (``switches.trip_words``) nor
    with a stretch or a near day ("for two weeks", "tomorrow")."""
    ctx = w.ctx
    text = sent.text
    if "off" not in text.lower() or text.rstrip().endswith("?") or _TRIP.search(w.text) or _OFF_FOR.search(text):
        return
    for off in sent:
        if off.lower_ != "off" or off.i + 2 >= sent.end or off.i - 2 < sent.start:
            continue
        be, to = off.nbor(-1), off.nbor(1)
        # ("'s" after a name is lemmatised as itself when the parser takes it for a possessive)
        if not (be.lemma_.lower() == "be" or be.lower_ in _IS) or to.lower_ != "to" or _polarity(be) != "assert":
            continue
        place = to.nbor(1)
        if place.lower_ == "the" and place.i + 1 < sent.end:  # "off to the Gold Coast"
            place = place.nbor(1)
        if place.ent_type_ in ("GPE", "LOC"):  # the last word of the name
            place = next((e[-1] for e in place.doc.ents if e.start <= place.i < e.end), place)
        if not (_placeish(place) or place.ent_type_ in ("GPE", "LOC")) or w.is_time_tok(place):
            continue
        who = be.nbor(-1)
        subj = w.subject(who) if who.pos_ in ("PRON", "PROPN", "NOUN") else None
        if subj is None or not subj.person or subj.is_speaker:  # "I", "we": the speaker
            continue
        if subj.name.endswith(("'s", "\u2019s")):  # "steph's off": the name without the verb
            subj = replace(subj, name=subj.name[:-2])
        val, ent = _value_of(place, ctx)
        w.emit(subj, "lives_in", val, v=be, pol="assert", tense="present", tv=be, value_toks=list(place.subtree),
               is_entity=True, conf=0.8, rule="off_to", past_means_cease=False, change=True)
        return
