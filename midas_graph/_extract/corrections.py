"""Corrections: "sorry, I meant X", "actually it's X, not Y", "correction: ...",
"X, not Y", "not Y but X".

:func:`contrast_spans` marks, per sentence, a "not" that rejects a
constituent rather than negating the clause; :func:`contrast` finds the
rejected value (what the correction ``replaces``). A sentence that is a
correction but states no claim of its own gives a bare correction
(:func:`bare_correction`): its value, with the attribute of the claim it
replaces when the same message made it, else ``""`` (revision then picks the
belief to take back). The correction phrases are in
``schema/extract/corrections.toml``.
"""

from __future__ import annotations

import re

from .claims import Claim
from .lexicon import LEX, _BAD_OBJECTS, _CORRECTION_HEADS, _CURRENCY, _NAME_LABELS
from .numbers import _num_value, _parse_number
from .subjects import subject_token
from .tokens import _child, _children, _value_of


#: A phrase that makes a sentence a correction (schema/extract/corrections.toml).
_CORR_STRONG = re.compile(r"\b(?:" + "|".join(LEX.ordered("corrections.strong")) + r")\b", re.I)


def contrast_spans(w, sent) -> None:
    """Find "X, not Y" and "not Y but X": the "not" negates Y, not the clause."""
    ctx = w.ctx
    ctx.contrast_negs, ctx.negated, ctx.alt = set(), set(), {}
    doc = w.doc
    for t in sent:
        if t.lower_ != "not" or t.i + 1 >= sent.end:
            continue
        nxt = doc[t.i + 1]
        x = nxt.head if nxt.pos_ == "DET" else nxt
        if x.pos_ not in ("ADP", "NOUN", "PROPN", "NUM", "DET"):
            continue
        after_comma = t.i > sent.start and doc[t.i - 1].text == ","
        alt = next((c for c in x.children if c.dep_ == "conj" and c.pos_ not in ("VERB", "AUX")
                    and any(cc.dep_ == "cc" and cc.lower_ == "but" for cc in x.children)), None)
        if after_comma or alt is not None:
            ctx.contrast_negs.add(t.i)
            ctx.negated.update(y.i for y in x.subtree if alt is None or y.i not in {z.i for z in alt.subtree})
            if alt is not None:
                ctx.alt[x.i] = alt


def contrast(w, sent):
    """The token Y in "X, not Y" / "not Y but X" (the corrected value), or None."""
    nouns = ("PROPN", "NOUN", "NUM", "ADJ")
    for xi in w.ctx.alt:
        x = w.doc[xi]
        return _child(x, "pobj") if x.pos_ == "ADP" and _child(x, "pobj") is not None else x
    for t in sent:
        if t.dep_ != "neg" or t.lower_ != "not":
            continue
        h = t.head
        if h.pos_ in nouns:
            for c in h.children:
                if c.dep_ in ("appos", "conj", "npadvmod", "dep") and c.i > t.i and c.pos_ in nouns:
                    return c
            if h.dep_ in ("appos", "conj", "npadvmod", "dep") and h.i > t.i:
                return h
            if h.i > t.i and h.dep_ in ("dobj", "attr", "pobj") and any(c.dep_ == "cc" and c.lower_ == "but" for c in h.children):
                return h
        elif h.pos_ == "ADP" and h.i > t.i:
            po = _child(h, "pobj")
            if po is not None and h.dep_ in ("prep", "appos", "conj") and h.head.pos_ in nouns:
                return po
        # word order when the parse is off: "..., not Y."
        doc = t.doc
        if t.i > sent.start and doc[t.i - 1].text == "," and t.i + 1 < sent.end:
            nxt = doc[t.i + 1]
            if nxt.pos_ == "ADP" and _child(nxt, "pobj") is not None:
                return _child(nxt, "pobj")  # "in Lisbon, not in Porto"
            if nxt.pos_ in nouns or nxt.ent_type_ in _NAME_LABELS or nxt.text in _CURRENCY:
                if nxt.text in _CURRENCY and t.i + 2 < sent.end:
                    nxt = doc[t.i + 2]
                return nxt
    return None


def bare_correction(w, sent) -> None:
    """ "Sorry, I meant Lisbon, not Porto." / "Actually it's Lisbon, not Porto." / "Correction: Friday, not Thursday." """
    ctx = w.ctx
    root = sent.root
    val_tok = None
    if root.lemma_ == "mean" and root.tag_ != "VBD":
        return  # "I mean, ..." is a filler; "I meant X" corrects
    if root.lemma_ == "mean":
        val_tok = _child(root, "dobj", "attr", "oprd")
        if val_tok is None:
            # "I meant Spanish, not Portuguese." parsed without an object: the first content word after "meant"
            stop = ctx.replaces_tok.i if ctx.replaces_tok is not None else sent.end
            for x in w.doc[root.i + 1:stop]:
                if x.lower_ == "not":
                    break
                if x.pos_ in ("PROPN", "NOUN", "NUM", "ADJ") and not x.is_punct:
                    val_tok = x
                    break
    elif root.lemma_ == "be":
        st = subject_token(root)
        if st is not None and st.lower_ in ("it", "that", "this"):
            val_tok = _child(root, "attr", "acomp")
            if val_tok is None:
                for p in _children(root, "prep"):
                    po = _child(p, "pobj")
                    if po is not None:
                        val_tok = po
    elif root.pos_ in ("PROPN", "NOUN", "NUM") and root.dep_ == "ROOT" and _CORR_STRONG.search(sent.text.lower()):
        val_tok = root
        if root.lower_ in _CORRECTION_HEADS:
            cands = [c for c in root.children if c.dep_ in ("appos", "dep", "npadvmod", "conj") and c.pos_ in ("PROPN", "NOUN", "NUM")
                     and not any(n.dep_ == "neg" for n in c.children)]
            val_tok = cands[0] if cands else None
    if val_tok is None or val_tok.pos_ in ("PRON", "ADJ", "ADV", "VERB") and val_tok.ent_type_ not in _NAME_LABELS \
            or val_tok.lower_ in _BAD_OBJECTS or (ctx.replaces_tok is not None and val_tok.i == ctx.replaces_tok.i):
        return
    if w.is_time_tok(val_tok):
        tr = w.resolve_time_tok(val_tok, 1)
        val = tr.iso() if tr is not None else w.time_of(val_tok)[2]
        ent = False
    else:
        num = _parse_number(val_tok)
        if num is not None and (num[1] is not None or val_tok.like_num):
            val, ent = _num_value(num[0], num[1]), False
        else:
            val, ent = _value_of(val_tok, ctx)
    replaces = replaces_text(w, ctx.replaces_tok, "") if ctx.replaces_tok is not None else None
    subject, attribute, is_sp = ctx.speaker, "", True
    # resolve against a claim made earlier in this same message
    for c in reversed(ctx.claims):
        if replaces is not None and str(c.value).lower() == str(replaces).lower():
            subject, attribute, is_sp = c.subject, c.attribute, c.subject_is_speaker
            break
    ctx.claims.append(Claim(subject=subject, attribute=attribute, value=val, text=ctx.sent_text, correction=True,
                            replaces=replaces, subject_is_speaker=is_sp, value_is_entity=ent,
                            confidence=0.8 if not attribute else 0.9, rule="bare_correction"))


def replaces_text(w, r, attribute: str):
    if w.is_time_tok(r):
        tr = w.resolve_time_tok(r, 1)
        if tr is not None:
            return tr.iso()
    num = _parse_number(r)
    if num is not None and (num[1] is not None or r.like_num):
        return str(_num_value(num[0], num[1]))
    val, _ = _value_of(r, w.ctx)
    return val or None


def h_mean(w, v, st, pol, tense, tv) -> None:
    # "I meant that I live in Lisbon" -> ccomp handled by _predicates; bare objects by _bare_correction
    return
