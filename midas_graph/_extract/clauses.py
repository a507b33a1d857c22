"""The grammar of one clause: is it a question, its tense, its polarity, is it hedged.

These judge a predicate token of the spaCy parse; the word lists they use
(modals, subordinators, epistemic heads, question tags) are in
``schema/extract/grammar.toml``.
"""

from __future__ import annotations

import re

from .lexicon import _EPISTEMIC, _FACT_MARKS, _HYPO_MARKS, _MODALS, _QAUX, _TAGS, _TELL, _WH
from .tokens import _child


def _polarity(v, skip: frozenset | set = frozenset()) -> str:
    """assert | negate | cease from negation and "no longer" / "anymore" around a predicate.

    "I don't eat meat" -> negate; "I no longer eat meat", "I don't eat meat anymore",
    "I'm not married anymore" -> cease.
    """
    neg = False
    cease = False
    scope = list(v.children)
    for c in v.children:
        if c.dep_ in ("acomp", "attr", "dobj", "xcomp", "prep"):
            scope.extend(x for x in c.children if x.dep_ in ("advmod", "neg", "npadvmod"))
    for c in scope:
        if c.i in skip:
            continue  # the "not" of a contrast ("in Lisbon, not in Porto") negates no clause
        low = c.lower_
        kids = [x.lower_ for x in c.children]
        if c.dep_ == "neg" or low == "never":
            if low == "no" and (c.head.lower_ == "longer" or any(x.lower_ == "longer" for x in scope)):
                cease = True
            else:
                neg = True
        elif low in ("anymore", "longer") and (low == "anymore" or "no" in kids or any(x.lower_ == "no" for x in scope)):
            cease = True
        elif low == "more" and "any" in kids:
            cease = True
        elif low == "any" and ("more" in kids or "longer" in kids):
            cease = True
    if cease:
        return "cease"
    return "negate" if neg else "assert"


#: "Terrence proposed to Keisha AT THE PARTY??", "chief of trauma surgery?!":
#: a statement in statement order that ends in "??" or "?!" is surprise, not
#: a question, unless it is said of "you" ("you moved??" asks).
SURPRISE_MARKS = True
_SURPRISE = re.compile(r"(?:\?\s*){2,}$|\?\s*!|!\s*\?")


def _surprised(toks) -> bool:
    tail = "".join(t.text for t in toks[-4:] if t.is_punct)
    if not SURPRISE_MARKS or not _SURPRISE.search(tail):
        return False
    words = [t for t in toks if not t.is_punct]
    if not words or words[0].lower_ in _WH or words[0].lower_ in _QAUX or words[0].pos_ == "AUX":
        return False
    return not any(t.lower_ in ("you", "u", "ya", "y'all") and t.dep_ in ("nsubj", "nsubjpass") for t in words)


def _is_question(sent) -> bool:
    toks = [t for t in sent if not t.is_space]
    if not toks:
        return True
    if any(t.text == "?" for t in toks[-3:]) or toks[-1].text.endswith("?"):
        if _surprised(toks):
            return False
        # a statement with a tag: "I'm a vegetarian, remember?"
        commas = [k for k, t in enumerate(toks) if t.text == ","]
        if commas:
            tail = " ".join(t.lower_ for t in toks[commas[-1] + 1:] if not t.is_punct)
            head = toks[:commas[-1]]
            if tail in _TAGS and head and head[0].lower_ not in _WH and not (head[0].pos_ == "AUX" and head[0].dep_ != "nsubj"):
                return False
        return True
    words = [t for t in toks if not t.is_punct]
    if not words:
        return True
    w0 = words[0]
    if w0.lower_ in _WH and len(words) > 1 and (words[1].pos_ == "AUX" or words[1].lower_ in _QAUX):
        return True
    if w0.lower_ in _QAUX and w0.pos_ == "AUX" and len(words) > 1 and words[1].dep_ in ("nsubj", "expl", "nsubjpass"):
        return True
    return False


def _verb_tense(v) -> str:
    """past | perfect | future | progressive | present."""
    auxes = [c for c in v.children if c.dep_ in ("aux", "auxpass")]
    if not auxes and v.dep_ == "conj" and v.tag_ in ("VBG", "VBN") and v.head.pos_ in ("VERB", "AUX") and v.head.i != v.i:
        return _verb_tense(v.head)  # "We're having dinner and enjoying lasagna"
    lows = {a.lower_ for a in auxes}
    lemmas = {a.lemma_.lower() for a in auxes}
    if "will" in lemmas or "'ll" in lows or "wo" in lows or "shall" in lemmas:
        return "future"
    if v.head.i != v.i and v.dep_ == "xcomp" and v.head.lemma_ == "go" and v.head.tag_ == "VBG":
        return "future"
    if v.lower_ in ("gonna",) or any(a.lower_ in ("gonna",) for a in auxes):
        return "future"
    if "have" in lemmas and v.tag_ == "VBN":
        if any(a.lower_ in ("had", "'d") and a.lemma_ == "have" for a in auxes):
            return "past"
        return "perfect"
    if any(a.tag_ == "VBD" for a in auxes):
        return "past"
    if v.tag_ == "VBD":
        return "past"
    if v.tag_ == "VBN" and not auxes and v.dep_ == "ROOT" and not any(
            c.dep_ in ("nsubj", "nsubjpass", "expl") for c in v.children):
        return "past"  # "Moved last week!": the subject dropped, the tagger reads a participle
    if v.tag_ == "VBG" and any(a.lemma_ == "be" for a in auxes):
        return "progressive"
    if v.tag_ == "VBG" and not auxes and v.dep_ == "ROOT" and not any(
            c.dep_ in ("nsubj", "nsubjpass", "expl") for c in v.children):
        return "progressive"  # "Joining Globex next month.": "I'm joining", the subject dropped
    return "present"


def _hypothetical(v) -> bool:
    for c in v.children:
        if c.dep_ == "aux" and (c.lemma_.lower() in _MODALS or c.lower_ in ("'d",) and c.lemma_ != "have"):
            return True
        if c.dep_ == "mark" and c.lower_ in _HYPO_MARKS:
            return True
        if c.dep_ == "aux" and c.lower_ in ("ca", "can") and v.lemma_ not in ("speak", "stand"):
            # "I can't wait", "I can move" -- ability/possibility, not a fact
            return True
    return False


def _clean_path(t) -> bool:
    """Whether a predicate states something, judged by its way up to the sentence root."""
    h = t
    for _ in range(8):
        mark = _child(h, "mark")
        if mark is not None and mark.lower_ in _HYPO_MARKS:
            return False
        if h.dep_ == "ROOT" or h.head.i == h.i:
            return True
        if h.dep_ in ("relcl", "csubj", "pcomp", "amod", "acl") and _child(h, "nsubj", "nsubjpass") is None:
            return False
        if h.dep_ == "relcl":
            return False
        head = h.head
        hl = head.lemma_.lower()
        if h.dep_ in ("ccomp", "xcomp", "advcl", "acl") and hl in _EPISTEMIC:
            if not (h.dep_ == "xcomp" and h.lemma_.lower() in _TELL and hl in ("want", "like", "love")):
                return False
        if h.dep_ == "advcl":
            if mark is not None and not (mark.lower_ in _FACT_MARKS and _verb_tense(h) in ("past", "perfect")):
                return False
        if any(c.dep_ == "aux" and c.lemma_.lower() in _MODALS for c in head.children) and h.dep_ in ("ccomp", "xcomp"):
            return False
        h = head
    return False
