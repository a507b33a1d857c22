"""Medicines: what a person takes, and at what dose ("I'm on metformin",
"they put me on insulin", "the doctor started me on ramipril 5mg", "Dr
Hussain put the ramipril up to 10 from tomorrow", "I'm off the statins now",
"taking me off the statins and putting me on ezetimibe").

A medicine is a word of ``medicines.names`` or one ending in a generic
name's ending (``medicines.endings``: "-olol", "-pril", ...). It is taken
after a word of ``medicines.taken`` ("on", "take", "prescribed") and no
longer after one of ``medicines.ended`` ("off", "stopped"), within a few
words before it; the taker is the speaker when the clause says "I" or "me"
(whoever prescribes), else the clause's subject. A number after "to" or
"at", or one with a unit next to it, is its dose: ``<medicine>_dose``.
"""

from __future__ import annotations

import re
from itertools import islice

from .lexicon import LEX
from .subjects import Subj, subject_token

_NAMES = LEX.words("medicines.names")
_ENDINGS = LEX.ordered("medicines.endings")
_TAKEN = LEX.words("medicines.taken")
_ENDED = LEX.words("medicines.ended")
_UNITS = LEX.words("medicines.dose_units")
_CHANGES = LEX.words("medicines.dose_changes")
_DOSE = re.compile(r"^(\d+(?:\.\d+)?)\s*(" + "|".join(map(re.escape, sorted(_UNITS, key=len, reverse=True))) + r")?$",
                   re.I)
_NOT_MEDICINES = LEX.words("medicines.not_medicines")
_SWITCH = LEX.words("medicines.switch_verbs")
#: how many words before a medicine a word of taking or ending may stand
_WINDOW = 4
#: Read medicines (the sentence pattern :func:`medicines`).
MEDICINES = True


def is_medicine(w, t) -> bool:
    low = t.lower_
    return t.is_alpha and len(low) >= 4 and (low in _NAMES or low.endswith(_ENDINGS)) and t.pos_ != "VERB" \
        and not w.is_time_tok(t) and low not in _NOT_MEDICINES


def _taker(w, t) -> Subj | None:
    """Who takes the medicine ``t``: the speaker when its clause says "I" or
    "me" ("they put me on insulin"), else the clause's subject (a person)."""
    if any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in t.children):
        return Subj(w.ctx.speaker, True, 1.0, True, None)  # "they cut my atorvastatin to 20"
    verbs = [x for x in (t, *t.ancestors) if x.pos_ in ("VERB", "AUX")][:3]
    for v in verbs:  # "putting me on something called ezetimibe": up through "called"
        words = {c.lower_ for c in v.children}
        st = subject_token(v)
        if words & {"me", "i", "myself"} or st is not None and (
                st.lower_ in ("i", "we") or v.lemma_ != "be" and _prescriber(st)):
            return Subj(w.ctx.speaker, True, 1.0, True, None)  # "Dr Hussain put the ramipril up to 10"
        if st is not None:
            return w.subject(st)  # "Lars is on statins"
        if v.i == v.sent.start or v.dep_ == "ROOT":
            return Subj(w.ctx.speaker, True, 0.8, True, None)  # "Started on metformin last week"
    return None


_PRESCRIBERS = LEX.words("medicines.prescribers")


def _prescriber(st) -> bool:
    """Whether a clause's subject is one who prescribes ("Dr Hussain", "the
    doctor", "they"): the medicine is then the speaker's."""
    words = {x.lower_.strip(".") for x in st.subtree} | {st.lower_}
    return bool(words & _PRESCRIBERS)


def _dose(w, t) -> tuple[str, list] | None:
    """The dose said with medicine ``t``: "ramipril 5mg", "20mg of lisinopril",
    "the ramipril up to 10"."""
    doc, sent = t.doc, t.sent
    after = list(doc[t.i + 1:min(sent.end, t.i + 6)])
    for k, x in enumerate(after):
        if x.like_num and (k == 0 or after[k - 1].lower_ in ("to", "at", "of", "on")):
            unit = after[k + 1] if k + 1 < len(after) and after[k + 1].lower_ in _UNITS else None
            sep = "" if unit is None or len(unit.text) <= 3 else " "  # "40mg", "10 milligrams"
            return x.text + (sep + unit.text if unit is not None else ""), [x] + ([unit] if unit is not None else [])
        m = _DOSE.match(x.text)
        if m and m.group(2) and k <= 1:
            return x.text, [x]
        if x.is_punct or x.pos_ in ("VERB",) and k > 0 and after[k - 1].lower_ not in ("up", "down"):
            break
    before = list(doc[max(sent.start, t.i - 4):t.i])
    for k, x in enumerate(before):  # "20mg of lisinopril", "10 mg of it"
        m = _DOSE.match(x.text)
        if m and m.group(2):
            return x.text, [x]
        if x.like_num and k + 1 < len(before) and before[k + 1].lower_ in _UNITS:
            return x.text + before[k + 1].text, [x, before[k + 1]]
    return None


def _switch_cue(window):
    """The nearest "to" / "onto" / "from" of ``window`` that a switching verb
    governs ("switching me to candesartan", "changed my pill from amlodipine
    to losartan"), or None ("allergic to penicillin")."""
    for x in reversed(window):
        if x.lower_ in ("to", "onto", "from") and x.pos_ == "ADP" and any(
                a.lemma_.lower() in _SWITCH and a.pos_ == "VERB" for a in islice(x.ancestors, 3)):
            return x
    return None


def medicines(w, sent) -> None:
    """The sentence pattern (``verbs.sentence_patterns``); see the module."""
    if not MEDICINES:
        return
    for t in sent:
        if not is_medicine(w, t):
            continue
        window = list(t.doc[max(sent.start, t.i - _WINDOW):t.i])
        cue = next((x for x in reversed(window) if x.lower_ in _TAKEN | _ENDED), None)
        switch = _switch_cue(window)
        if switch is not None and (cue is None or switch.i > cue.i):
            cue = switch
        dose = _dose(w, t)
        if cue is None and dose is not None and any(
                x.lower_ in _CHANGES for x in t.doc[max(sent.start, t.i - _WINDOW):min(sent.end, t.i + 4)]):
            cue = t  # "put the ramipril up to 10", "upped my metformin to 1000mg": taken, at a new dose
        if cue is None or any(c.dep_ == "neg" for c in cue.head.children) and cue.lower_ not in _ENDED:
            continue  # "my mum's metformin", "I'm not on insulin"
        taker = _taker(w, t)
        if taker is None:
            continue
        # "stopped taking sertraline": the taking is what stopped
        ended = cue.lower_ in _ENDED or cue is switch and cue.lower_ == "from" \
            or cue.i > sent.start and t.doc[cue.i - 1].lower_ in _ENDED
        v = cue.head if cue.head.pos_ in ("VERB", "AUX") else t.head
        w.emit(taker, "medication", t.lower_, v=v, pol="cease" if ended else "assert", tense="present", tv=v,
               value_toks=[t], conf=0.9, rule="medicine_off" if ended else "medicine_on", past_means_cease=False)
        if dose is not None and not ended:
            w.emit(taker, f"{t.lower_}_dose", dose[0], v=v, pol="assert", tense="present", tv=v, value_toks=dose[1],
                   conf=0.9, rule="medicine_dose", past_means_cease=False)
