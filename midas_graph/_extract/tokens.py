"""Token helpers shared by every family: children, spans, names, noun phrases, attribute keys.

``ctx`` below is the walker's context; these helpers read only its
``speaker``, ``listener`` and ``names`` (see :class:`.subjects.Parties`).
"""

from __future__ import annotations

import datetime as _dt
import functools
import re
from typing import TYPE_CHECKING, Iterable

from .._registry import AttributeRegistry
from .casing import is_first_name
from .lexicon import (_ATTR_ADJECTIVES, _ATTR_NOUNS, _COMMON_SUBJECTS, _DATE_ATTRS, _DROP_ADJ, _EVENTS, _FAVORITE,
                      _FIRST, _MENTION_SKIP, _METRICS, _NAME_LABELS, _OTHER_PRON, _QUANTITY_NOUNS, _RELATIONS,
                      _SECOND, LEX)

if TYPE_CHECKING:
    from .subjects import Parties

_REG: AttributeRegistry | None = None


def _registry() -> AttributeRegistry:
    global _REG
    if _REG is None:
        _REG = AttributeRegistry.default()
    return _REG


def _attr(raw: str) -> str:
    raw = raw.lower().replace("colour", "color").replace("-", "_")
    raw = re.sub(r"^(?:fav|fave|favourite)_", "favorite_", raw)
    return _registry().key(raw)


def _children(t, *deps: str) -> list:
    return [c for c in t.children if c.dep_ in deps]


def _child(t, *deps: str):
    for c in t.children:
        if c.dep_ in deps:
            return c
    return None


def _text(tokens: Iterable) -> str:
    toks = sorted(tokens, key=lambda t: t.i)
    out = []
    for k, t in enumerate(toks):
        out.append(t.text)
        if k + 1 < len(toks):
            nxt = toks[k + 1]
            if t.whitespace_ or nxt.i != t.i + 1:
                if nxt.text not in ("'s", "’s", "'", "-") and t.text != "-":
                    out.append(" ")
    return "".join(out).strip()


_ANY_DAY = _dt.datetime(2001, 1, 1, tzinfo=_dt.timezone.utc)


@functools.lru_cache(maxsize=2048)
def _places_in_time(text: str) -> bool:
    from .._timeexpr import resolve

    return resolve(text, _ANY_DAY) is not None


def false_date(t) -> bool:
    """A lone proper noun the small model calls a date or time that names
    none ("I work at Baird." tags Baird DATE): no digit, and the time parser
    places it nowhere ("Christmas" and "Monday" it places)."""
    if t.ent_type_ not in ("DATE", "TIME") or t.pos_ != "PROPN" or t.ent_iob_ != "B" or any(ch.isdigit() for ch in t.text):
        return False
    nxt = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
    return (nxt is None or nxt.ent_iob_ != "I") and not _places_in_time(t.text)


def _is_name(t, ctx: Parties) -> bool:
    low = t.lower_
    if low in ctx.names:
        return True
    if low in _FIRST or low in _SECOND or low in _OTHER_PRON:
        return False
    if t.ent_type_ in ("DATE", "TIME", "CARDINAL", "ORDINAL", "MONEY", "PERCENT", "QUANTITY") and not false_date(t):
        return False
    det = _child(t, "det")
    if det is not None and (det.lower_ in ("a", "an", "another", "every", "each", "any", "some", "no")
                            and t.ent_type_ != "PRODUCT"
                            or det.lower_ == "the" and t.ent_type_ in ("PERSON", "")):
        return False
    if any(c.dep_ == "amod" and c.lower_ == "fellow" or c.dep_ == "compound" and c.pos_ == "NOUN" and c.text.islower()
           for c in t.children):
        return False
    if t.text.islower():
        return False
    # "Anders has accepted a position": a first name ending in s is tagged a plural noun (NNS)
    if t.pos_ == "NOUN" and t.i == t.sent.start and (t.tag_ == "NN" or t.tag_ == "NNS" and is_first_name(low)) \
            and t.is_alpha and t.text[0].isupper() \
            and t.text[1:].islower() and t.dep_ in ("nsubj", "nsubjpass") and det is None \
            and not any(c.dep_ in ("compound", "amod", "poss") for c in t.children) \
            and low not in _METRICS and low not in _ATTR_NOUNS and low not in _EVENTS and low not in _RELATIONS \
            and low not in _DATE_ATTRS and low not in _COMMON_SUBJECTS and not low.endswith(("ing", "ness", "tion", "ity", "ment")):
        # "Caroline lives in Boston": the small model tags a sentence-initial first name as a common noun
        return True
    if t.pos_ == "PROPN":
        # sentence-initial capitalised common words get tagged PROPN
        if t.i == t.sent.start and (low in _METRICS or low in _ATTR_NOUNS or low in _EVENTS
                                    or low in _RELATIONS or low in _DATE_ATTRS):
            return False
        return True
    return t.ent_type_ in _NAME_LABELS and t.text[:1].isupper()


def _ent_of(t):
    if t.ent_iob_ in ("B", "I") and t.ent_type_ not in _MENTION_SKIP:
        for e in t.doc.ents:
            if e.start <= t.i < e.end:
                return e
    return None


#: kin words said as a title before a name ("Uncle Bob", "Auntie Jo"): no part of the name
_KIN_TITLES = LEX.words("people.kin_titles")


def _is_contracted(t) -> bool:
    """"Steph's moving to Perth": the "'s" the tagger took for a possessive
    is "is" — the name is the subject of a verb that has no "be" of its own
    ("Luigi's is closing" keeps "Luigi's")."""
    head = t.head
    return t.dep_ in ("nsubj", "nsubjpass") and head.pos_ != "AUX" and head.lemma_ != "be" and head.i > t.i + 1 \
        and not any(c.dep_ in ("aux", "auxpass") and c.lemma_ == "be" for c in head.children)


def contracted_owner(v):
    """The name whose "'s" (is) the tagger read as a possessive of ``v``, the
    word right after it ("Steph's working", "Marisol's living"), or None."""
    if v.i < 2:
        return None
    owner = v.doc[v.i - 2]
    if owner.head.i != v.i or owner.dep_ != "poss" or owner.pos_ != "PROPN" or v.doc[v.i - 1].lower_ not in ("'s", "’s"):
        return None
    return owner


def _name_tokens(t) -> list:
    """The proper-name span headed by t: compounds, flat names, "of" names."""
    toks = [t]
    if t.dep_ != "poss" and not _is_contracted(t):
        toks.extend(c for c in t.children if c.dep_ == "case" and c.i == t.i + 1)
    for c in t.children:
        if c.dep_ in ("compound", "flat", "nmod") and c.i < t.i and (c.pos_ in ("PROPN", "NUM") or c.text[:1].isupper()):
            toks.extend(x for x in c.subtree if x.dep_ not in ("det", "punct", "case") or x.dep_ == "case")
        elif c.dep_ == "poss" and c.pos_ == "PROPN" and c.i < t.i:
            toks.extend(c.subtree)
    for c in t.children:
        if c.dep_ == "prep" and c.lower_ == "of" and c.i > t.i:
            pobj = _child(c, "pobj")
            if pobj is not None and pobj.pos_ == "PROPN":
                toks.append(c)
                toks.extend(x for x in pobj.subtree if x.dep_ != "punct")
    ent = _ent_of(t)
    if ent is not None and len(ent) > 1:
        # not a verb the tagger swept into the name ("Leaving Acme on Friday." -> "Acme")
        extra = [x for x in ent if x.lower_ not in ("the", "a", "an") and x.dep_ != "punct"
                 and not (x.pos_ == "VERB" and x.i == t.head.i)]
        toks = list({x.i: x for x in toks + extra}.values())
    # keep the contiguous run around t
    toks.sort(key=lambda x: x.i)
    toks = [x for x in toks if x.lower_ not in ("the",)]
    # "my MIL Loretta": a relation word after a possessive is the role, not part of the name
    while len(toks) > 1 and toks[0].i < t.i and toks[0].lower_ in _RELATIONS and toks[0].i > 0 \
            and toks[0].nbor(-1).lower_ in ("my", "our", "your", "his", "her", "their"):
        toks = toks[1:]
    # "Uncle Bob", "Grandma Rose": a kin title is no part of the name either
    if len(toks) > 1 and toks[0].i < t.i and toks[0].lower_ in _KIN_TITLES and toks[0].text[:1].isupper():
        toks = toks[1:]
    return toks


def _name_text(t) -> str:
    text = _text(_name_tokens(t))
    if t.dep_ != "poss" and not _is_contracted(t) and any(c.dep_ == "case" and c.lower_ in ("'s", "’s")
                                                          for c in t.children):
        return text.strip()  # "I'm the head chef at Luigi's"
    return re.sub(r"\s*'s$", "", text).strip()


def _np_tokens(t, *, keep_adj: bool = True) -> list:
    """A common noun phrase headed by t, without determiners and possessive pronouns."""
    toks = [t]

    def keep(x) -> bool:
        if x.dep_ == "advmod" and x.i + 1 < len(x.doc) and x.doc[x.i + 1].tag_ == "HYPH":
            return True  # "emotionally-driven"
        if x.dep_ in ("det", "predet", "advmod", "cc", "prep") and x.head.i != t.i:
            return False
        if x.is_punct and x.tag_ != "HYPH":
            return False
        if x.pos_ == "PRON" or x.lower_ in _DROP_ADJ:
            return False
        return True

    for c in t.children:
        if c.i > t.i:
            if c.dep_ == "prep" and c.lower_ == "of" and t.lower_ not in _QUANTITY_NOUNS:
                pobj = _child(c, "pobj")
                if pobj is not None and (pobj.pos_ in ("PROPN", "NOUN")) and len(list(pobj.subtree)) <= 4:
                    toks.append(c)
                    toks.extend(x for x in pobj.subtree if x.dep_ not in ("det", "punct") and x.pos_ != "PRON")
            continue
        if c.dep_ in ("det", "predet", "punct", "cc", "advmod", "nummod") or (c.dep_ == "poss" and c.pos_ == "PRON"):
            if c.tag_ == "HYPH":
                toks.append(c)
            continue
        if c.dep_ == "amod" and (not keep_adj or c.lower_ in _DROP_ADJ):
            continue
        if c.dep_ in ("compound", "amod", "nmod", "poss", "case", "quantmod", "npadvmod"):
            toks.extend(x for x in c.subtree if keep(x))
    return sorted({x.i: x for x in toks}.values(), key=lambda x: x.i)


def _np_text(t, *, keep_adj: bool = True) -> str:
    toks = _np_tokens(t, keep_adj=keep_adj)
    out = []
    for k, x in enumerate(toks):
        proper = x.pos_ == "PROPN" or x.ent_type_ in _NAME_LABELS or (x.text[:1].isupper() and x.i != x.sent.start)
        out.append(x.text if proper else x.text.lower())
        if k + 1 < len(toks):
            nxt = toks[k + 1]
            if (x.whitespace_ or nxt.i != x.i + 1) and nxt.tag_ != "HYPH" and x.tag_ != "HYPH" and nxt.text not in ("'s", "’s"):
                out.append(" ")
    return "".join(out).strip()


def _value_of(t, ctx: Parties) -> tuple[str, bool]:
    """(surface value, is_entity) for a value token."""
    if _is_name(t, ctx) and t.lower_ not in ctx.names:
        return _name_text(t), True
    if t.lower_ in ctx.names:
        return (ctx.speaker if t.lower_ in (ctx.speaker.lower(), ctx.speaker.lower().split()[0]) else ctx.listener or t.text), True
    return _np_text(t), False


def _conjuncts(t) -> list:
    out = [t]
    stack = [t]
    while stack:
        x = stack.pop()
        for c in x.children:
            if c.dep_ == "conj" and not any(n.dep_ == "neg" for n in c.children):
                out.append(c)
                stack.append(c)
            elif c.dep_ == "appos" and c.pos_ in ("NOUN", "PROPN") and x.pos_ in ("NOUN", "PROPN") and \
                    not any(n.dep_ == "neg" for n in c.children) and False:
                out.append(c)
    return out


def attr_key(h) -> str | None:
    """Attribute name of a noun phrase headed by h ("favorite color", "phone number", "p95 latency")."""
    mods = []
    fav = False
    for c in h.children:
        if c.i > h.i:
            continue
        low = c.lower_
        if c.dep_ == "amod" and low in _FAVORITE:
            fav = True
        elif c.dep_ == "amod" and low in ("least",):
            return None
        elif c.dep_ == "compound" and not any(ch.isdigit() for ch in c.text) and \
                (c.pos_ == "PROPN" or c.ent_type_ in _NAME_LABELS or c.text.isupper() and len(c.text) > 1):
            continue  # "the Apollo deadline", "the API latency": the owner, not the attribute
        elif c.dep_ == "compound" and (c.pos_ == "NOUN" or not c.text[:1].isupper() or any(ch.isdigit() for ch in c.text)):
            mods.extend(x.lemma_.lower() for x in c.subtree if x.dep_ not in ("det", "punct"))
        elif c.dep_ == "amod" and low in _ATTR_ADJECTIVES:
            mods.append(low)
        elif c.dep_ == "amod" and fav:
            mods.append(low)
    head = h.lemma_.lower() if h.pos_ == "NOUN" else h.lower_
    if h.lower_ in ("colours", "colors"):
        head = "color"
    if fav:
        # "favorite ice cream flavor": modifiers after favorite
        return "favorite_" + "_".join(mods + [head])
    rel = _RELATIONS.get(h.lower_) or _RELATIONS.get(head)
    if rel and not mods:
        return rel
    return "_".join(mods + [head])


def thing_key(o) -> str | None:
    """The attribute a thing of the speaker's names ("my home insurance" ->
    home_insurance), or None when the registry has that key for something else
    ("I take my car to Kwik Fit" is no car)."""
    key = attr_key(o)
    return key if key and not _registry().knows(key) else None


def name_span(ent):
    """A PERSON entity span from its first capital ("mtg w/ Lennart" ->
    "Lennart"): the small model sweeps lower-case words before a name into it;
    and a person's (or an ORG's: the small model's other guess for a name)
    from after a kin title ("Uncle Bob" -> "Bob", "Aunt Carmen" -> "Carmen";
    _people.KIN_TITLES makes them the speaker's uncle and aunt). Other spans,
    and spans with no capital, as they are."""
    if len(ent) >= 2 and ent.label_ in ("PERSON", "ORG") and ent[0].lower_ in _KIN_TITLES \
            and ent[0].text[:1].isupper() and ent[1].text[:1].isupper():
        return ent.doc[ent.start + 1:ent.end]
    if ent.label_ != "PERSON" or len(ent) < 2 or ent[0].text[:1].isupper():
        return ent
    first = next((t for t in ent if t.text[:1].isupper()), None)
    return ent if first is None else ent.doc[first.i:ent.end]


def in_law(doc, i: int) -> tuple[str, int] | None:
    """The role word and one past its end when "in-law" follows token ``i``
    ("mother-in-law", "sister in law": the hyphens are tokens of their
    own): ("sister-in-law", end), else None."""
    k = i + 1
    if k < len(doc) and doc[k].text == "-":
        k += 1
    if k >= len(doc) or doc[k].lower_ != "in":
        return None
    k += 1
    if k < len(doc) and doc[k].text == "-":
        k += 1
    if k < len(doc) and doc[k].lower_ in ("law", "laws"):
        return f"{doc[i].lower_}-in-{doc[k].lower_}", k + 1
    return None

