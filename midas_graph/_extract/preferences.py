"""Likes and dislikes: "I love X", "I hate X", "I prefer X", "I can't stand X",
"I'm obsessed with X" (and, from :mod:`.copular`, "a fan of X", "into X").

A standing preference only: a past one-off ("I loved the concert"), a
current mood ("I'm enjoying my new job"), and deictic or vague objects ("I
love that", "I love your photos") yield nothing.
"""

from __future__ import annotations

from .lexicon import _BAD_OBJECTS, _LIGHT_VERBS, _STOP_HEADS
from .tokens import _child, _children, _conjuncts, _is_name, _text, _value_of


def pref_values(w, o) -> list[tuple[str, bool, list]]:
    """Values of a preference object and its conjuncts, skipping deictic and vague ones."""
    ctx = w.ctx
    out = []
    first = o
    det0 = _child(first, "det")
    if det0 is not None and det0.lower_ in ("the", "this", "that", "these", "those", "your", "which", "what") and not _is_name(first, ctx):
        return out
    for oc in _conjuncts(o):
        if oc.pos_ in ("PRON", "DET") or oc.lower_ in _BAD_OBJECTS or oc.lemma_.lower() in _STOP_HEADS:
            continue
        det = _child(oc, "det")
        if det is not None and det.lower_ in ("the", "this", "that", "these", "those", "your", "which", "what", "each", "every") \
                and not _is_name(oc, ctx):
            continue
        poss = _child(oc, "poss")
        if poss is not None and (poss.pos_ == "PRON" or poss.lower_ in ("other", "each")) and not _is_name(oc, ctx):
            continue
        if any(c.dep_ in ("relcl", "acl", "ccomp") for c in oc.children) and oc.pos_ == "NOUN":
            continue
        if any(c.dep_ == "nummod" for c in oc.children):
            continue  # "I'm keen on two projects"
        if oc.pos_ in ("VERB", "AUX"):
            if oc.lemma_.lower() in _LIGHT_VERBS:
                continue
            toks = [x for x in oc.subtree if x.i >= oc.i and x.dep_ not in ("aux", "punct", "det", "cc", "advmod", "neg")
                    and not _under_conj(x, oc)]
            if any(x.pos_ in ("PRON", "DET") or x.lower_ in _BAD_OBJECTS or x.lower_ in ("such", "so", "more") for x in toks):
                continue
            if len(toks) > 4 or any(c.dep_ in ("ccomp", "advcl", "xcomp") for c in oc.children):
                continue
            out.append((_text(toks).lower(), False, toks))
        else:
            val, ent = _value_of(oc, ctx)
            if not val or len(val.split()) > 4:
                continue
            out.append((val, ent, list(oc.subtree)))
    return out


def preference(w, v, st, pol, tense, tv, *, attribute: str) -> None:
    subj = w.subject(st)
    if subj is None:
        return
    if tense == "past" and pol != "cease":
        if not any(c.lower_ in ("always",) for c in v.children):
            return  # "I loved the concert": an episode, not a standing preference
    if tense == "future":
        return
    if tense == "progressive" and v.lemma_ not in ("enjoy", "love"):
        return
    if tense == "progressive":
        # "I'm really enjoying my new job": a current mood, not a lasting preference
        return
    objs = []
    o = _child(v, "dobj")
    if o is not None:
        objs.append(o)
    xc = _child(v, "xcomp")
    if xc is not None and (xc.tag_ == "VBG" or xc.pos_ in ("NOUN", "PROPN") or
                           (xc.pos_ == "VERB" and _child(xc, "aux") is not None and _child(xc, "aux").lower_ == "to")):
        objs.append(xc)
    for o in objs:
        for val, ent, toks in pref_values(w, o):
            w.emit(subj, attribute, val, v=v, pol=pol, tense="present" if tense == "perfect" else tense, tv=tv, value_toks=toks,
                       is_entity=ent, rule=f"pref_{v.lemma_.lower()}")


def _under_conj(x, top) -> bool:
    h = x
    while h.i != top.i and h.head.i != h.i:
        if h.dep_ == "conj":
            return True
        h = h.head
    return False


def h_like(w, v, st, pol, tense, tv) -> None:
    if v.pos_ not in ("VERB", "ADP") or v.pos_ == "ADP" and _child(v, "nsubj") is None:
        return
    preference(w, v, st, pol, tense, tv, attribute="likes")


def h_dislike(w, v, st, pol, tense, tv) -> None:
    preference(w, v, st, pol, tense, tv, attribute="dislikes")


def h_prefer(w, v, st, pol, tense, tv) -> None:
    preference(w, v, st, pol, tense, tv, attribute="prefers")


def h_stand(w, v, st, pol, tense, tv) -> None:
    # "I can't stand X" -> dislikes
    if pol == "negate" and any(c.lower_ in ("ca", "can", "could") for c in v.children):
        subj = w.subject(st)
        o = _child(v, "dobj")
        if o is None:  # "I can't stand cilantro" with the object tagged as an adverb
            o = next((c for c in v.children if c.i > v.i and c.dep_ in ("advmod", "npadvmod", "oprd", "dep", "attr")
                      and c.pos_ in ("NOUN", "PROPN", "ADJ") and c.lower_ not in ("anymore", "much", "long")), None)
        if subj is not None and o is not None and o.lower_ not in _BAD_OBJECTS and o.pos_ != "PRON":
            val, ent = _value_of(o, w.ctx)
            w.emit(subj, "dislikes", val, v=v, pol="assert", tense="present", tv=tv, value_toks=list(o.subtree), is_entity=ent, rule="cant_stand")


def h_obsess(w, v, st, pol, tense, tv) -> None:
    """ "I'm obsessed with Taylor Swift" -> likes."""
    subj = w.subject(st)
    if subj is None or not subj.person or tense in ("past", "future"):
        return
    for p in _children(v, "prep"):
        o = _child(p, "pobj")
        if p.lower_ == "with" and o is not None:
            for val, ent, toks in pref_values(w, o):
                w.emit(subj, "likes", val, v=v, pol=pol, tense="present", tv=tv, value_toks=toks, is_entity=ent, rule="obsessed_with")
