"""Switches: a held value replaced by another that the same sentence names.

"switched from red bull to matcha", "moved all my money from HSBC to Monzo",
"swapped Spotify for Tidal", "I cancelled PureGym and joined Anytime Fitness
instead", "I use Tidal instead of Spotify now", "these days Jonas cuts my
hair, not Sarah".

Each gives a claim with no attribute: value Y, ``replaces`` X, ``change``.
The sentence says which value is replaced, not of what: that is the
memory's. Revision ends the subject's held value X, whatever attribute
holds it, and gives Y that attribute (``_episodes``, SWITCHES); when
nothing held is X (or several attributes hold it), nothing is recorded and
the episode's notes say so. So a pattern here may be generous about
wording: it acts only on a value the subject is known to hold.

"I switched dentists, I see Dr. Klein now" names the attribute and not the
old value: a ``change`` claim of ``dentist`` (every other held dentist
ends).

The words are in ``schema/extract/switches.toml``.
"""

from __future__ import annotations

import re

from .casing import places
from .claims import Claim
from .clauses import _polarity, _verb_tense
from .lexicon import LEX
from .possessions import car_claim, vehicle
from .subjects import Subj, subject_token
from .tokens import _child, _children, _is_name, _np_text, attr_key, thing_key

_FROM_TO = LEX.words("switches.from_to_verbs")
_PURE = LEX.words("switches.pure_switch_verbs")
_FOR = LEX.table("switches.for_verbs")
_PARTICLES = LEX.words("switches.for_verb_particles")
_DROP = LEX.words("switches.drop_verbs")
_KIND = LEX.words("switches.kind_verbs")
_ONE_AT_A_TIME = LEX.words("switches.one_at_a_time")
#: a change cue as a word of its own, ended by a space, a comma, a full stop, "!" or the end
_CHANGE_CUE = re.compile(r"(?:^| )(?:" + "|".join(map(re.escape, LEX.ordered("switches.change_cues"))) + r")(?=[ ,.!]|\Z)")
_NOT_MOVED = LEX.words("location.moved_with_us") | LEX.words("switches.not_moved_things")
_PLACES = ("GPE", "LOC", "FAC")
_VALUE_POS = ("PROPN", "NOUN", "NUM")


def _subject(w, v) -> Subj | None:
    """Who switched: the verb's subject; the speaker for a dropped subject or a
    group the speaker speaks for ("our team moved from Jira to Linear")."""
    ctx = w.ctx
    st = subject_token(v)
    if st is None:
        return Subj(ctx.speaker, True, 0.9, True, None)
    subj = w.subject(st)
    if subj is not None and subj.person:
        return subj
    if any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in st.children):
        return Subj(ctx.speaker, True, 0.8, True, None)
    return None


def _owner(w, sent, new) -> Subj | None:
    """Whose value ``new`` is: the subject of its verb, or the speaker when it
    is that subject itself ("these days Jonas cuts my hair, not Sarah")."""
    if new.dep_ in ("nsubj", "nsubjpass"):
        if any(t.lower_ in ("i", "my", "me", "we", "our", "us") for t in sent):
            return Subj(w.ctx.speaker, True, 0.8, True, None)
        return None
    v = new.head if new.head.pos_ in ("VERB", "AUX") else _verb_of(new)
    return _subject(w, v) if v is not None else None


def _valueish(t) -> bool:
    """A token that can head a value: a noun, a name, a number (or a
    capitalised word inside the sentence the parser took for a verb)."""
    if t.is_stop or t.is_punct:
        return False
    return t.pos_ in _VALUE_POS or (t.text[:1].isupper() and t.i != t.sent.start and t.pos_ != "PRON")


def _emit(w, subj: Subj, old, new, rule: str, *, times: bool = False) -> None:
    """A switch claim: ``new`` replaces ``old`` (tokens), whatever attribute holds it.
    ``times``: days and times may be values ("on Thursdays now, not Mondays")."""
    ctx = w.ctx
    if old is None or new is None or old.i == new.i or not times and (w.is_time_tok(old) or w.is_time_tok(new)):
        return
    if old.pos_ == "PRON" or new.pos_ == "PRON":
        return
    x, y = _np_text(old), _np_text(new)
    if not x or not y or x.casefold() == y.casefold():
        return
    ctx.claims.append(Claim(subject=subj.name, attribute="", value=y, text=ctx.sent_text, replaces=x,
                            subject_is_speaker=subj.is_speaker, value_is_entity=_is_name(new, ctx),
                            confidence=0.8, rule=rule, change=True))


def _change(w, subj: Subj, attribute: str, new, rule: str) -> None:
    """A change of a named attribute to the name ``new``: its other held values end."""
    ctx = w.ctx
    ctx.claims.append(Claim(subject=subj.name, attribute=attribute, value=_np_text(new), text=ctx.sent_text,
                            subject_is_speaker=subj.is_speaker, value_is_entity=True, confidence=0.8,
                            rule=rule, change=True))


def _pobj(p):
    """The object of a preposition; a capitalised word the parser took for a
    verb ("from Starling to Monzo": Starling a pcomp) counts."""
    if p is None:
        return None
    o = _child(p, "pobj")
    if o is None:
        o = _child(p, "pcomp")
        if o is not None and not (o.text[:1].isupper() and o.i != o.sent.start):
            o = None
    return o


def _verb_of(t):
    """The verb a preposition or object hangs under (at most three steps up)."""
    for _ in range(3):
        t = t.head
        if t.pos_ in ("VERB", "AUX"):
            return t
        if t.head.i == t.i:
            break
    return None


def _named(w, t) -> bool:
    """A name or a number: what a non-switch verb's "from X to Y" must join."""
    return _is_name(t, w.ctx) or t.like_num or any(c.dep_ == "nummod" for c in t.children)


def _place(t) -> bool:
    return t.ent_type_ in _PLACES


def from_to(w, sent) -> None:
    """ "switched from red bull to matcha", "I moved all my money from HSBC to
    Monzo", "our team moved from Jira to Linear", "I changed my plan from
    Vodafone to O2": X after "from", Y after the first "to" / "into" that
    follows it. A move or a transfer between places is the location
    family's ("moved from Leeds to York"); only the pure switch verbs take
    places here."""
    for src in sent:
        if src.lower_ != "from" or src.pos_ != "ADP":
            continue
        old = _pobj(src)
        v = _verb_of(src)
        if old is None or v is None or v.lemma_.lower() not in _FROM_TO:
            continue
        to = next((t for t in w.doc[old.i + 1:sent.end] if t.lower_ in ("to", "into") and t.pos_ == "ADP"
                   and _pobj(t) is not None), None)
        if to is None:
            continue
        new = _pobj(to)
        if v.lemma_.lower() not in _PURE and (_place(old) or _place(new) or not (_named(w, old) and _named(w, new))):
            continue  # "I went from the office to the gym": a trip
        subj = _subject(w, v)
        if subj is not None:
            _emit(w, subj, old, new, "switch_from_to")


def swap_for(w, sent) -> None:
    """ "swapped Spotify for Tidal", "I ditched Trello for Linear", "we
    replaced Slack with Teams", "I left Acme for Globex": X the object, Y
    after the verb's "for" / "with" (switches.toml ``for_verbs``)."""
    for v in sent:
        preps = _FOR.get(v.lemma_.lower()) if v.pos_ == "VERB" else None
        if not preps:
            continue
        old = _child(v, "dobj")
        if old is None:  # "Traded in the Corolla for a Mazda": the particle read as a preposition
            old = next((_pobj(p) for p in _children(v, "prep") if p.lower_ in _PARTICLES and p.i == v.i + 1), None)
        if old is None:
            continue
        p = next((c for h in (v, old) for c in _children(h, "prep") if c.lower_ in preps and c.i > old.i), None)
        new = _pobj(p)
        if new is None or (v.lemma_.lower() == "leave" and not (_is_name(old, w.ctx) and _is_name(new, w.ctx))):
            continue
        subj = _subject(w, v)
        if subj is not None:
            _emit(w, subj, old, new, "switch_for")
            if subj.person and vehicle(new) is not None:  # "traded in the Corolla for a Mazda": a car, held or not
                car_claim(w, subj, new, v, "assert", v, rule="switch_car")
                car_claim(w, subj, old, v, "cease", v, rule="switch_car")


def _value_tok(toks):
    """The head of the first value-like noun phrase among ``toks``."""
    for t in toks:
        if _valueish(t):
            h = t
            while h.dep_ in ("compound", "nummod", "amod", "flat") and h.head.i != h.i and h.head.i > h.i:
                h = h.head
            return h
    return None


def instead(w, sent) -> None:
    """ "I use Tidal instead of Spotify now", "instead of Spotify I use Tidal",
    "I cancelled PureGym and joined Anytime Fitness instead": Y is the value
    nearest before "instead" (or, first in the sentence, the first after X),
    X the value after "of" or the object of a dropping verb ("cancel",
    "quit", "drop": switches.toml ``drop_verbs``)."""
    doc = w.doc
    for t in sent:
        if t.lower_ != "instead":
            continue
        if t.i + 1 < sent.end and doc[t.i + 1].lower_ == "of":
            old = _value_tok(doc[t.i + 2:sent.end])
            if old is None:
                continue
            before = [x for x in doc[sent.start:t.i] if _valueish(x)]
            if before:
                new = _value_tok([before[-1]]) if before[-1].dep_ not in ("compound", "amod") else _value_tok(before)
            else:
                end = max(x.i for x in old.subtree) + 1
                new = _value_tok(doc[end:sent.end])
        else:
            new = _value_tok(reversed(doc[sent.start:t.i]))
            dropped = [x for x in sent if x.pos_ == "VERB" and x.lemma_.lower() in _DROP and x.i < t.i]
            old = next((o for d in dropped for o in [_child(d, "dobj")] if o is not None), None)
        if old is None or new is None:
            continue
        subj = _owner(w, sent, new)
        if subj is not None:
            _emit(w, subj, old, new, "switch_instead")


def change_cue(text: str) -> bool:
    """Whether a sentence says something changed ("now", "these days", "any
    more"): its "Y, not X" replaces X rather than correcting it."""
    return _CHANGE_CUE.search(text.lower()) is not None


def now_not(w, sent) -> None:
    """ "The book club meets on Thursdays now, not Mondays", "these days Jonas
    cuts my hair, not Sarah": a rejected value (``ctx.switched_tok``, set by
    the walker when the sentence has a change cue and is no correction) is
    replaced by the nearest value of its kind before the "not"."""
    ctx = w.ctx
    old = ctx.switched_tok
    if old is None or not (sent.start <= old.i < sent.end):
        return
    while old.dep_ in ("compound", "flat") and old.head.i > old.i:  # "not Dr. Lee": Lee
        old = old.head
    # a value word before the "not", or any word of the rejected value's entity kind ("on Thursdays")
    cands = [t for t in w.doc[sent.start:old.i]
             if t.pos_ in _VALUE_POS and not t.is_stop and t.dep_ not in ("compound", "amod", "poss")
             and not w.is_time_tok(t)
             or t.ent_type_ and t.ent_type_ == old.ent_type_ and t.dep_ != "compound"]
    same = [t for t in cands if old.ent_type_ and t.ent_type_ == old.ent_type_] or \
        [t for t in cands if t.pos_ == old.pos_]
    if not same:
        return
    subj = _owner(w, sent, same[-1])
    if subj is not None:
        _emit(w, subj, old, same[-1], "switch_now_not", times=True)


_GUESSES = LEX.words("switches.guesses_left_to_switch")


def leave_guesses(claims: list[Claim], start: int) -> list[Claim]:
    """``claims`` without the guesses (switches.toml ``guesses_left_to_switch``)
    that the sentence's claims from ``start`` on make of a value a switch
    gives: in "I cancelled PureGym and joined Anytime Fitness instead", a
    join reads as an employer; the switch takes the attribute of what was
    cancelled."""
    switched = {str(c.value).casefold() for c in claims[start:] if c.change and not c.attribute and c.replaces}
    if not switched:
        return claims
    return claims[:start] + [c for c in claims[start:]
                             if not (c.rule in _GUESSES and str(c.value).casefold() in switched)]


def switched_kind(w, sent) -> None:
    """ "I switched dentists, I see Dr. Klein now", "changed banks, I'm with
    Monzo": a plural object names the attribute, the first name after it is
    the new value."""
    for v in sent:
        if v.pos_ != "VERB" or v.lemma_.lower() not in _KIND:
            continue
        o = _child(v, "dobj")
        if o is None or o.tag_ != "NNS" or any(c.dep_ in ("det", "poss", "amod", "nummod") for c in o.children):
            continue
        if any(p.lower_ in ("from", "to") for h in (v, o) for p in _children(h, "prep")):
            continue
        new = next((t for t in w.doc[o.i + 1:sent.end] if _is_name(t, w.ctx) and t.dep_ not in ("compound", "flat")
                    and not w.is_time_tok(t)), None)
        subj = _subject(w, v)
        if new is not None and subj is not None:
            _change(w, subj, o.lemma_.lower(), new, "switched_kind")


_TRIP = re.compile(r"\b(?:" + "|".join(map(re.escape, LEX.ordered("switches.trip_words"))) + r")\b", re.I)


def _placeish(t) -> bool:
    """A place by its entity kind, or a name GeoNames knows as one (the small
    model calls Hull a person and Whitby an organisation)."""
    return _place(t) or _np_text(t).casefold() in places()


def _left_place(w, sent):
    """The place a sentence of the speaker's leaves: "out of London",
    "we finally left London" (a name)."""
    for t in sent:
        if t.lower_ == "of" and t.head.lower_ == "out" and t.i == t.head.i + 1:
            o = _pobj(t)
        elif t.lemma_.lower() == "leave" and t.pos_ == "VERB" and _verb_tense(t) in ("past", "perfect"):
            o = _child(t, "dobj")
            st = subject_token(t)
            if st is not None and st.lower_ not in ("i", "we"):
                continue
        else:
            continue
        if o is not None and _is_name(o, w.ctx) and _placeish(o):
            return o
    return None


def left_for(w, sent) -> None:
    """ "Finally out of London, we're in Bath now", "We finally left London!
    We're in Bath now.": a place the speaker leaves, and the speaker in another
    place in the same turn, replace it. Like every switch this acts only on a
    value the speaker is known to hold (where they live). A turn of a trip
    (``switches.trip_words``: "out of London for the weekend") is passed over."""
    if _TRIP.search(w.text) or sent.text.rstrip().endswith("?"):
        return
    ctx = w.ctx
    for be in sent:
        if be.lemma_ != "be" or _verb_tense(be) != "present" or _polarity(be) != "assert":
            continue
        st = subject_token(be)
        if st is None or st.lower_ not in ("i", "we"):
            continue
        new = next((_pobj(p) for p in _children(be, "prep") if p.lower_ == "in"), None)
        if new is None or not _is_name(new, ctx) or w.is_time_tok(new) or not _placeish(new):
            continue
        old = _left_place(w, sent) or next(
            (o for s in w.doc.sents if s.start < sent.start for o in [_left_place(w, s)] if o is not None), None)
        if old is not None:
            _emit(w, Subj(ctx.speaker, True, 0.8, True, None), old, new, "switch_left_for")
            return


def one_at_a_time(attribute: str) -> bool:
    """Whether an attribute is someone a person has one of at a time
    (``one_at_a_time``: physio, dog_walker, piano_teacher)."""
    return attribute.rsplit("_", 1)[-1] in _ONE_AT_A_TIME


def new_kind(w, sent) -> None:
    """ "My new physio, Rafael, actually listens", "we've got a new nanny,
    Rosalind", "New Spanish tutor as of this month: Andrés", "New dog walker
    started this week, a lad called Jordan", "Dr. Ruiz is my new GP": a new
    one of someone a person has one of at a time (``one_at_a_time``) names
    the attribute (its noun with its compounds: dog_walker, piano_teacher;
    "Spanish tutor" is a tutor) and the name is its new value, a ``change``:
    the last one ends. Always the speaker's: "her new physio" and "my
    sister has a new boss" are passed over."""
    ctx = w.ctx
    for n in sent:
        mods = [n, *_children(n, "compound")]  # "New dog walker": "new" qualifies the compound
        if n.pos_ != "NOUN" or n.lemma_.lower() not in _ONE_AT_A_TIME \
                or not any(c.dep_ == "amod" and c.lower_ == "new" for m in mods for c in m.children):
            continue
        if any(c.dep_ == "poss" and c.lower_ not in ("my", "our") for c in n.children):
            continue  # "her new physio": someone else's
        owner = _child(n.head, "nsubj") if n.dep_ in ("dobj", "attr") else None
        if owner is not None and owner.lower_ not in ("i", "we") and not (
                n.dep_ == "attr" and _is_name(owner, ctx)):
            continue  # "My sister has a new boss, Karen": the sister's
        key = "_".join(p for p in (attr_key(n) or "").split("_") if p != "new")
        new = _named_for(w, sent, n)
        if key and new is not None:
            _change(w, Subj(ctx.speaker, True, 0.8, True, None), key, new, "new_kind")


def _named_for(w, sent, n):
    """The name a "new <someone>" is given: an apposition ("my new physio,
    Rafael"), "called/named X" after it, the name after a colon ("tutor as
    of this month: Andrés"), or the subject of "X is my new GP"."""
    ctx = w.ctx

    def name(t):
        return t is not None and _is_name(t, ctx) and not w.is_time_tok(t)

    for a in _children(n, "appos"):
        if name(a):
            return a
        called = next((c for c in a.subtree if c.lemma_.lower() in ("call", "name") and c.i > a.i), None)
        if called is not None:
            x = _child(called, "oprd", "attr", "dobj", "xcomp")
            if name(x):
                return x
    after = w.doc[n.i + 1:sent.end]
    if len(after) > 1 and after[0].text == "," and name(after[1]):
        return after[1]  # "we've got a new nanny, Rosalind" (the parser hangs the name elsewhere)
    for i, t in enumerate(after):
        if t.lemma_.lower() in ("call", "name") and i + 1 < len(after) and name(after[i + 1]):
            return after[i + 1]
        if t.text == ":":
            return next((x for x in after[i + 1:] if name(x)), None)
    if n.dep_ == "attr" and n.head.lemma_ == "be":
        s = _child(n.head, "nsubj")
        if name(s):
            return s
    return None


def moved_to(w, sent) -> None:
    """ "I moved all my passwords to Bitwarden", "I've moved the home insurance
    to Admiral", "we switched energy supplier to Ovo", "switched browsers to
    Vivaldi": the thing moved names the attribute (its noun, as
    ``attr_key`` spells it: password, home_insurance, energy_supplier,
    browser), the name after "to" / "into" / "onto" is its new value, and a
    ``change``: every other held value of it ends. With a "from X" it is
    :func:`from_to`'s."""
    ctx = w.ctx
    for v in sent:
        if v.pos_ != "VERB" or v.lemma_.lower() not in _FROM_TO:
            continue
        o = _child(v, "dobj")
        if o is None or o.pos_ != "NOUN" or o.lower_ in _NOT_MOVED or _is_name(o, ctx):
            continue
        heads = [v, o] + [p for p in _children(v, "prt", "advmod") if p.lower_ in ("over", "across")]
        preps = [p for h in heads for p in _children(h, "prep")]
        if any(p.lower_ == "from" for p in preps):
            continue
        to = next((p for p in preps if p.lower_ in ("to", "into", "onto") and _pobj(p) is not None), None)
        new = _pobj(to)
        if new is None or not _is_name(new, ctx) or w.is_time_tok(new):
            continue
        key = thing_key(o)
        subj = _subject(w, v)
        if key and subj is not None:
            _change(w, subj, key, new, "moved_to")
