"""Corrections: "sorry, I meant X", "I said X but I meant Y", "actually it's X, not Y",
"correction: ...", "I misspoke", "X, not Y", "not Y but X", and self-repairs
within a message ("on Monday, scratch that, Tuesday").

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

import datetime as _dt
import re
from dataclasses import replace

from .._revise import value_kind
from .claims import Claim
from .lexicon import LEX, _BAD_OBJECTS, _CORRECTION_HEADS, _CURRENCY, _NAME_LABELS
from .numbers import _num_value, _parse_number
from .subjects import subject_token
from .tokens import _child, _children, _text, _value_of


#: A phrase that makes a sentence a correction (schema/extract/corrections.toml).
_CORR_STRONG = re.compile(r"\b(?:" + "|".join(LEX.ordered("corrections.strong")) + r")\b", re.I)
#: A phrase of a self-repair within one message ("on Monday, scratch that, Tuesday").
_SELF_REPAIR = re.compile(r"\b(?:" + "|".join(LEX.ordered("corrections.self_repair")) + r")\b", re.I)
#: "I said X but I meant Y" (groups x and y).
_SAID_MEANT = [re.compile(p, re.I) for p in LEX.ordered("corrections.said_meant")]
_BARE_DAY = re.compile(LEX.raw("corrections.bare_day"))


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


def _span_head(doc, start: int, end: int):
    """The head token of the characters [start, end) of the message, or None."""
    toks = [t for t in doc if start <= t.idx < end and not t.is_punct]
    ids = {t.i for t in toks}
    return next((t for t in toks if t.head.i not in ids or t.head.i == t.i), None)


def said_meant(w) -> dict[int, tuple]:
    """ "I said X but I meant Y" anywhere in the message: {Y's head token index: (X head, Y head)}."""
    out: dict[int, tuple] = {}
    text = w.text
    for pattern in _SAID_MEANT:
        for m in pattern.finditer(text):
            x = _span_head(w.doc, m.start("x"), m.end("x"))
            y = _span_head(w.doc, m.start("y"), m.end("y"))
            if x is not None and y is not None and y.i not in out:
                out[y.i] = (x, y)
    return out


def _bare_day(t) -> str | None:
    """ "---17" for "the 17th" (a day of the month without its month), else None."""
    m = _BARE_DAY.match(_text([x for x in t.subtree if not x.is_punct and x.dep_ != "neg"]).lower())
    return f"---{int(m.group(1)):02d}" if m and 1 <= int(m.group(1)) <= 31 else None


def token_value(w, tok) -> tuple[str | int | float, bool]:
    """(value, is_entity) of a correcting token: a date, a day, a number or a name/noun phrase."""
    day = _bare_day(tok)
    if day is not None:
        return day, False
    if w.is_time_tok(tok):
        tr = w.resolve_time_tok(tok, 1)
        return (tr.iso() if tr is not None else w.time_of(tok)[2]), False
    num = _parse_number(tok)
    if num is not None and (num[1] is not None or tok.like_num):
        return _num_value(num[0], num[1]), False
    return _value_of(tok, w.ctx)


def correction_value(w, sent, val_tok=None):
    """The token a correcting sentence gives as the right value, or None.

    "I meant X", "it's X", "Correction: X", "Not Y but X", or ``val_tok``
    (from "I said Y but I meant X")."""
    ctx = w.ctx
    root = sent.root
    if val_tok is None:
        if root.lemma_ == "mean" and root.tag_ != "VBD":
            return None  # "I mean, ..." is a filler; "I meant X" corrects
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
        elif root.i in ctx.alt:
            val_tok = ctx.alt[root.i]  # "Not Porto but Lisbon."
        elif root.pos_ in ("PROPN", "NOUN", "NUM") and root.dep_ == "ROOT" and _CORR_STRONG.search(sent.text.lower()):
            val_tok = root
            if root.lower_ in _CORRECTION_HEADS:
                cands = [c for c in root.children if c.dep_ in ("appos", "dep", "npadvmod", "conj") and c.pos_ in ("PROPN", "NOUN", "NUM")
                         and not any(n.dep_ == "neg" for n in c.children)]
                val_tok = cands[0] if cands else None
        if val_tok is None:
            # "it's X" as the root or anywhere in the sentence ("I misspoke, it's Leeds")
            for be in [root] + [t for t in sent if t.lemma_ == "be" and t.i != root.i]:
                if be.lemma_ != "be":
                    continue
                st = subject_token(be)
                if st is None or st.lower_ not in ("it", "that", "this") and _person_be(w, be) is None:
                    continue
                val_tok = _child(be, "attr", "acomp")
                if val_tok is None:
                    for p in _children(be, "prep"):
                        po = _child(p, "pobj")
                        if po is not None:
                            val_tok = po
                if val_tok is not None:
                    break
    if val_tok is None or val_tok.pos_ in ("PRON", "ADJ", "ADV", "VERB") and val_tok.ent_type_ not in _NAME_LABELS \
            and _bare_day(val_tok) is None or val_tok.lower_ in _BAD_OBJECTS \
            or (ctx.replaces_tok is not None and val_tok.i == ctx.replaces_tok.i):
        return None
    return val_tok


def _person_be(w, be):
    """The person a "be" states something of in a correction that rejects a
    value ("jun's at arup, not wsp", "I'm at Meta, not Google"), or None."""
    if w.ctx.replaces_tok is None:
        return None
    st = subject_token(be)
    subj = w.subject(st) if st is not None and st.lower_ not in ("it", "that", "this") else None
    return subj if subj is not None and subj.person else None


def _stated_of(w, val_tok):
    """The person whose "be" clause gives ``val_tok`` ("at arup" in "jun's at
    arup, not wsp"), or None."""
    t = val_tok.head if val_tok.dep_ == "pobj" else val_tok
    be = t.head if t.dep_ in ("prep", "attr", "acomp") else None
    return _person_be(w, be) if be is not None and be.lemma_ == "be" else None


def bare_correction(w, sent, val_tok=None) -> None:
    """ "Sorry, I meant Lisbon, not Porto." / "Actually it's Lisbon, not Porto." / "Correction: Friday, not Thursday."

    A correction whose sentence states no claim: its value, with the subject
    and attribute of the claim it replaces when this message made that claim,
    else the speaker's and ``""`` (revision picks the belief it corrects)."""
    ctx = w.ctx
    val_tok = correction_value(w, sent, val_tok)
    if val_tok is None:
        return
    val, ent = token_value(w, val_tok)
    replaces = replaces_text(w, ctx.replaces_tok, "") if ctx.replaces_tok is not None else None
    subject, attribute, is_sp = ctx.speaker, "", True
    if (who := _stated_of(w, val_tok)) is not None:  # "jun's at arup, not wsp": Jun's belief
        subject, is_sp = who.name, who.is_speaker
    # resolve against a claim made earlier in this same message
    for c in reversed(ctx.claims):
        if replaces is not None and str(c.value).lower() == str(replaces).lower():
            subject, attribute, is_sp = c.subject, c.attribute, c.subject_is_speaker
            break
    ctx.claims.append(Claim(subject=subject, attribute=attribute, value=val, text=ctx.sent_text, correction=True,
                            replaces=replaces, subject_is_speaker=is_sp, value_is_entity=ent,
                            confidence=0.8 if not attribute else 0.9, rule="bare_correction"))


def self_repair(w, sent, first: int) -> bool:
    """ "... on Monday, scratch that, Tuesday": the value after the phrase
    replaces the value of this message's latest claim of the same kind
    (claims from ``first`` on are this sentence's own). True when it
    changed a claim."""
    ctx = w.ctx
    m = _SELF_REPAIR.search(sent.text)
    if m is None:
        return False
    at = sent.start_char + m.end()
    own = ctx.claims[first:]
    after = [c for c in own if c.text == ctx.sent_text and _claim_start(w, c, sent) >= at]
    if after:
        # "scratch that, I live in Leeds": a claim of its own replaces the earlier one of its slot
        slots = {(c.subject, c.attribute) for c in after}
        ctx.claims[:] = [c for c in ctx.claims if c in after or (c.subject, c.attribute) not in slots]
        return True
    tok = next((t for t in sent if t.idx >= at and not t.is_punct and t.pos_ not in ("INTJ", "CCONJ", "PRON", "AUX", "DET")
                and t.lower_ not in ("no", "wait", "sorry", "actually", "i", "mean", "rather")), None)
    if tok is None:
        return False
    while tok.head.i != tok.i and tok.head.i >= 0 and tok.head.idx >= at and tok.dep_ in ("compound", "nummod", "amod", "det"):
        tok = tok.head
    val, ent = token_value(w, tok)
    kind = value_kind(val, ent)
    for k in range(len(ctx.claims) - 1, -1, -1):
        c = ctx.claims[k]
        if c.correction or c.polarity != "assert":
            continue
        if value_kind(c.value, c.value_is_entity) == kind:
            ctx.claims[k] = replace(c, value=val, value_is_entity=ent, text=f"{c.text} {ctx.sent_text}".strip()
                                    if c.text != ctx.sent_text else c.text, rule=f"{c.rule}+self_repair")
            return True
        if kind == "date" and c.valid_from is not None and isinstance(val, str) and len(val) == 10:
            vf = _dt.datetime.fromisoformat(val).replace(tzinfo=_dt.timezone.utc)
            ctx.claims[k] = replace(c, valid_from=vf, rule=f"{c.rule}+self_repair")
            return True
    return False


def _claim_start(w, c, sent) -> int:
    """Where in the sentence a claim's value is said (its first occurrence), or the sentence start."""
    pos = sent.text.lower().find(str(c.value).lower())
    return sent.start_char + pos if pos >= 0 else sent.start_char


def replaces_text(w, r, attribute: str):
    day = _bare_day(r)
    if day is not None:
        return day
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
