"""Standing relations: what a sentence no other family reads, when it says in
the simple present that a person stands in some relation to a named thing.

"I bank with Monzo" -> bank_with: Monzo; "I see Dr. Lee for my teeth" ->
see: Dr. Lee; "we shop at Lidl" -> shop_at: Lidl; "my son goes to Oakwood"
-> <speaker>'s son · go_to: Oakwood. The attribute is the verb (with its
particle and preposition); the registry does not know it, so a later value
replaces it only through a switch ("moved my account from Monzo to ING",
:mod:`.switches`), a change of the same attribute ("these days I bank with
ING": NLI is asked about the held value), or NLI on similar statements.

A thing of the speaker's with a name names the attribute itself: "all my
passwords are in Dashlane" -> password, "our home insurance is through
Admiral" -> home_insurance, "we do our weekly shop at Tesco" -> shop, "I have
cello lessons with Mrs. Brandt" -> cello_lesson, "I see a physio called
Siobhan" -> physio; never a key the registry has for something else ("I take
my car to Kwik Fit" is no ``car``: :func:`.tokens.thing_key`).

Last of all, and only for a sentence that gave nothing else: the value must
be a name (not a common noun, not a time), the verb present simple (or
progressive with a change cue: "I'm seeing Dr. Patel now"), asserted, not
modal, not hypothetical, and not one of ``standing.not_standing_verbs``
(saying, thinking, meeting: events and attitudes, not relations). Its
confidence is 0.7: a reading of the wording, not a pattern for it.
"""

from __future__ import annotations

from .clauses import _hypothetical, _polarity, _verb_tense
from .lexicon import LEX, _RELATIONS
from .subjects import Subj, subject_token
from .switches import change_cue
from .tokens import _child, _children, _is_name, _value_of, attr_key, thing_key

_NOT_STANDING = LEX.words("standing.not_standing_verbs")
_PREPS = LEX.words("standing.prepositions")
_THING_PREPS = LEX.words("standing.thing_prepositions")
_NOT_MAIN = frozenset({"aux", "auxpass", "xcomp", "advcl", "acl", "relcl", "pcomp", "csubj", "amod", "prep"})


def _called(obj):
    """The name in "a physio called Siobhan" / "a tutor named Pilar" (or None)."""
    if obj.pos_ != "NOUN":
        return None
    for acl in _children(obj, "acl"):
        if acl.lemma_.lower() in ("call", "name"):
            return _child(acl, "oprd", "attr", "dobj", "xcomp")
    return None


def _a_name(w, obj) -> bool:
    """Whether ``obj`` is a value these readings take: a name, not a time, not
    a party of the conversation."""
    return obj is not None and _is_name(obj, w.ctx) and not w.is_time_tok(obj) and obj.lower_ not in w.ctx.names


def _thing_with_name(w, subj: Subj, thing, v, heads) -> bool:
    """Emit ``thing``'s noun as ``subj``'s attribute, valued by the name after
    the first thing-preposition under ``heads`` ("... in Dashlane", "...
    through Admiral"); False when there is none or the registry has that key
    for something else (:func:`.tokens.thing_key`)."""
    p = next((c for h in heads if h is not None for c in _children(h, "prep")
              if c.lower_ in _THING_PREPS and _child(c, "pobj") is not None), None)
    obj = _child(p, "pobj") if p is not None else None
    key = thing_key(thing) if _a_name(w, obj) else None
    if not key:
        return False
    value, is_entity = _value_of(obj, w.ctx)
    w.emit(subj, key, value, v=v, pol="assert", tense="present", tv=v, value_toks=list(obj.subtree),
           is_entity=is_entity, conf=0.7, rule="standing_thing")
    return True


def _held_thing(w, v, st) -> bool:
    """ "All my passwords are in Dashlane", "our home insurance is through
    Admiral", "my side projects are hosted on GitLab", "my bike gets serviced
    at Halfords": a thing of the speaker's (my / our, not a person) is with a
    name; the thing's noun is the attribute."""
    ctx = w.ctx
    if st is None or st.pos_ != "NOUN" or not any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in st.children):
        return False
    subj = w.subject(st)
    if subj is not None and subj.person:
        return False
    heads = [v] + [c for c in v.children if c.dep_ in ("xcomp", "acomp") and c.pos_ in ("VERB", "ADJ")]
    return _thing_with_name(w, Subj(ctx.speaker, True, 0.9, True, None), st, v, heads)


def _thing_taken(w, v, tense: str) -> bool:
    """ "I take my car to Kwik Fit", "we do our weekly shop at Tesco", "I keep my
    notes in Obsidian", "I have piano lessons with Mrs. Fielding", "I get my hair
    cut at Rush": a person does a thing of theirs with a name; the thing's noun
    is the attribute (car, shop, note, piano_lesson, hair)."""
    if tense != "present":
        return False
    st = subject_token(v)
    subj = w.subject(st) if st is not None else None
    if subj is None or not subj.person:
        return False
    o, heads = _child(v, "dobj"), [v]
    if o is None:  # "get my hair cut at Rush": the thing is the subject of "cut"
        cc = next((c for c in v.children if c.dep_ == "ccomp" and c.pos_ == "VERB"), None)
        o = _child(cc, "nsubj") if cc is not None else None
        heads.append(cc)
    if o is None or o.pos_ != "NOUN" or o.lower_ in _RELATIONS or o.lemma_.lower() in _RELATIONS:
        return False
    mine = any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in o.children)
    bare = o.tag_ == "NNS" and not any(c.dep_ in ("det", "poss") for c in o.children)
    if not (mine or bare):
        return False
    return _thing_with_name(w, subj, o, v, heads + [o])


def standing(w, sent) -> None:
    ctx = w.ctx
    for v in sent:
        if v.pos_ not in ("VERB", "AUX") or v.dep_ in _NOT_MAIN or _hypothetical(v):
            continue  # "I'd love to move to Paris", "the gym I go to": not a statement of its own
        if any(c.tag_ == "TO" for c in v.children):
            continue
        if any(c.dep_ == "aux" and c.tag_ == "MD" for c in v.children):
            continue  # "I can see Dr. Lee", "I should bank with ING"
        if _polarity(v, ctx.contrast_negs) != "assert":
            continue
        tense = _verb_tense(v)
        if tense in ("present", "perfect") and (_held_thing(w, v, subject_token(v)) or _thing_taken(w, v, tense)):
            return
        if v.pos_ != "VERB" or v.lemma_.lower() in _NOT_STANDING:
            continue
        if tense != "present" and not (tense == "progressive" and change_cue(sent.text)):
            continue
        st = subject_token(v)
        if st is None:
            subj = Subj(ctx.speaker, True, 0.9, True, None) if v.i == sent.start else None
        else:
            subj = w.subject(st)
        if subj is None or not subj.person:
            continue
        obj, prep = _child(v, "dobj"), None
        if obj is None:
            p = next((c for c in _children(v, "prep") if c.lower_ in _PREPS and _child(c, "pobj") is not None), None)
            obj, prep = (_child(p, "pobj"), p.lower_) if p is not None else (None, None)
        named = _called(obj) if obj is not None and prep is None else None
        if named is not None:  # "I see a physio called Siobhan": physio: Siobhan
            obj, attribute = named, attr_key(obj)
        else:
            prt = _child(v, "prt")
            attribute = "_".join(x for x in (v.lemma_.lower(), prt.lower_ if prt is not None else None, prep) if x)
        if not attribute or not _a_name(w, obj):
            continue
        value, is_entity = _value_of(obj, ctx)
        w.emit(subj, attribute, value, v=v, pol="assert", tense="present", tv=v, value_toks=list(obj.subtree),
               is_entity=is_entity, conf=0.7, rule="standing_relation")
        return
