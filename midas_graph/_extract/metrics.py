"""Numbers that change: "latency dropped to 180 ms", "the price went up to $30",
"we cut the budget to $5k", "I weigh 70 kg".
"""

from __future__ import annotations

import re

from .lexicon import LEX, _CURRENCY, _FIRST, _METRICS, _METRIC_VERBS, _SECOND, _UNITS
from .numbers import _NUM_UNIT_RE, _num_value, _parse_number
from .subjects import owner_of
from .tokens import _child, _children, _is_name, attr_key


#: verbs whose object is the measure ("reach 1,000 users", "my commute takes 40 minutes")
_MEASURE_OBJECT_VERBS = LEX.words("numbers.measure_object_verbs")


def metric_change(w, v, st, pol, tense, tv) -> bool:
    """ "latency dropped to 180 ms", "the price went up to $30", "we cut the budget to $5k"."""
    ctx = w.ctx
    lemma = v.lemma_.lower()
    if lemma not in _METRIC_VERBS:
        return False
    if st is None:
        return False
    h = st
    transitive = False
    if st.lower_ in _FIRST or st.lower_ in _SECOND or _is_name(st, ctx) and st.lower_ not in _METRICS:
        # "we cut the budget to $5k"
        o = _child(v, "dobj")
        if o is None:
            return False
        h = o
        transitive = True
    if h.pos_ not in ("NOUN", "PROPN"):
        return False
    key = attr_key(h)
    if key is None:
        return False
    num_tok = None
    for p in _children(v, "prep"):
        if p.lower_ in ("to", "at", "around", "about"):
            po = _child(p, "pobj")
            if po is not None:
                num_tok = po
                break
    if num_tok is None and lemma in _MEASURE_OBJECT_VERBS:  # "my commute takes 40 minutes"
        num_tok = _child(v, "dobj", "attr")
    if num_tok is None:
        # "rent went up to $2,000" (the parse hangs the number under "up")
        skip = {x.i for x in h.subtree} | {x.i for x in st.subtree}
        for c in v.children:
            if c.dep_ == "prep" and c.lower_ == "from":
                skip |= {x.i for x in c.subtree}
        for x in v.subtree:
            if x.i in skip or x.i == v.i:
                continue
            if (x.like_num or _NUM_UNIT_RE.match(x.text) or any(c.dep_ == "nummod" and c.like_num for c in x.children)) \
                    and x.dep_ in ("pobj", "dobj", "attr", "npadvmod", "appos"):
                num_tok = x
                break
    if num_tok is None:
        return False
    num = _parse_number(num_tok)
    if num is None:
        return False
    n, unit, ntoks = num
    lem = h.lemma_.lower()
    if not (lem in _METRICS or h.lower_ in _METRICS or key.split("_")[-1] in _METRICS
            or unit in _UNITS.values() or unit in _CURRENCY.values()):
        return False
    if st.pos_ == "PRON" and not transitive:
        return False
    owner, explicit = owner_of(h, ctx)
    if owner is None:
        return False
    w.emit(owner, key, _num_value(n, unit), v=v, pol="assert" if pol != "negate" else pol, tense="present", tv=tv, state=False,
               value_toks=ntoks + [num_tok], unit=unit, number=n, rule="metric_change", conf=1.0)
    return True


def h_weigh(w, v, st, pol, tense, tv) -> None:
    subj = w.subject(st)
    o = _child(v, "dobj", "npadvmod", "attr")
    if subj is None or not subj.person or o is None or tense not in ("present", "perfect"):
        return
    num = _parse_number(o)
    if num is not None and num[1] in ("kg", "lb"):
        n, unit, ntoks = num
        w.emit(subj, "weight", _num_value(n, unit), v=v, pol=pol, tense="present", tv=tv, value_toks=ntoks + [o], unit=unit,
                   number=n, rule="weigh")


#: A health reading said the way patients say it, whatever the parse:
#: "A1C down to 7.1", "the June recheck A1C was 6.2", "blood pressure was
#: high, 145 over 95" -> the speaker's reading (``numbers.reading_names``),
#: the latest known from when it is said, or from the sentence's date.
READINGS_SAID = True


def _reading_pattern() -> re.Pattern:
    names = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in
                     sorted(LEX.ordered("numbers.reading_names"), key=len, reverse=True))
    between = "|".join(re.escape(x) for x in sorted(LEX.ordered("numbers.reading_between"), key=len, reverse=True))
    return re.compile(
        rf"(?<![\w'’])(?P<name>{names})(?P<mid>(?:\s*(?:{between}|[,:=-])(?![\w]))*)\s*"
        r"(?P<val>\d{2,3}\s*(?:/|\bover\b)\s*\d{2,3}|\d+(?:\.\d+)?)(?![\d/.]*\d)(?!\s*(?:%|mg|ml|x|times|days?|weeks?|months?|years?)\b)",
        re.I)


_READING = _reading_pattern()
_READING_KEYS = LEX.table("numbers.reading_keys")
_OTHERS = re.compile(r"(?:\b(?:his|her|their|your)|['’]s)\s*$", re.I)


def reading_said(w, sent) -> None:
    """The sentence pattern (``verbs.sentence_patterns``), see :data:`READINGS_SAID`."""
    if not READINGS_SAID or sent.text.rstrip().endswith("?"):
        return
    from .subjects import Subj

    text, ctx = sent.text, w.ctx
    for m in _READING.finditer(text):
        before = text[:m.start()]
        if _OTHERS.search(before):
            continue  # "Dad's blood pressure", "her A1C": someone else's (read by the clause)
        name = re.sub(r"\s+", " ", m.group("name").lower())
        key = _READING_KEYS.get(name, name.replace(" ", "_"))
        val = re.sub(r"\s*(?:/|\bover\b)\s*", "/", m.group("val"), flags=re.I)
        start = sent.start_char + m.start("val")
        toks = [t for t in sent if start <= t.idx < sent.start_char + m.end("val")]
        when = next((t for t in sent if w.is_time_tok(t)), None)
        tr = w.resolve_time_tok(when, -1) if when is not None else None
        w.emit(Subj(ctx.speaker, True, 0.9, True, None), key, val, v=sent.root, pol="assert", tense="present",
               tv=sent.root, value_toks=toks, rule="reading_said", conf=0.9, past_means_cease=False,
               valid_from=tr.start if tr is not None else ctx.ref)
