"""Answers: a fragment that answers the other speaker's question takes its slot.

"Where did you end up?" / "Minneapolis!! it's 9 degrees out" -> the one
answering lives in Minneapolis; "Who's Lucia?" / "my gf" -> Lucia is their
partner; "What's your dog's name?" / "Biscuit" -> has_dog = Biscuit.

The walker hands :func:`answer` the first sentence of a turn when that
sentence states no claim of its own and the turn follows another speaker's
turn (its ``prompt``). The question is the prompt's last sentence that ends
with "?"; the slots it may ask for are the ``[[slot]]`` tables of
``schema/extract/answers.toml`` (a regular expression on the question, the
attribute, the kind of answer and whom it is about). The answer must be a
fragment (no clause with a subject of its own); a "yes"/"no" is no value.

:func:`confirms` says whether a turn confirms the statements of the turn
before it ("yes, that's right"); ``_episodes`` uses it to record what the
agent said once the user confirms it.
"""

from __future__ import annotations

import re

from .lexicon import LEX, _FIRST, _JOBS, _PET_CANON, _PETS, _RELATIONS
from .numbers import _fmt_num, _parse_number
from .subjects import Subj, relation_key
from .tokens import _child, _ent_of, _np_text, _text
from .work import is_job, job_title

_SLOTS = [
    {**slot, "re": re.compile(slot["question"], re.I)} for slot in LEX.raw("answers.slot")
]
_CONFIRMATIONS = LEX.words("answers.confirmations")
_NUMBER_SLOTS_NOT = LEX.words("answers.number_slots_not")
_CONFIRM_QUESTION = re.compile(LEX.raw("answers.confirmation_questions"), re.I)
_QUESTION = re.compile(r"[^.!?\n]*\?+")
_NOT_A_VALUE = frozenset("""yes yeah yep ya yup no nope nah ok okay sure maybe idk dunno lol haha hmm well um uh oh
thanks thank thx cool great nice awesome wow hey hi hello sorry congrats lovely good bad""".split())
_PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})


def last_question(prompt: str) -> str | None:
    """The last sentence of ``prompt`` that asks something, or None."""
    found = _QUESTION.findall(prompt or "")
    return found[-1].strip() if found else None


def _words(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s']", " ", text.lower()).replace("'", "").split())


def confirms(text: str, prompt: str) -> bool:
    """Whether ``text`` confirms the statements of ``prompt``: its first
    sentence is a confirmation ("Yes.", "Correct, thank you.", "that's
    right") and ``prompt`` does not end with a question other than one that
    asks for confirmation ("..., right?")."""
    first = re.split(r"[.!?\n]|,(?=\s)", text.strip(), maxsplit=1)[0]
    if _words(first) not in _CONFIRMATIONS:
        return False
    if len(_words(text).split()) > 8:
        return False  # "yes, and also ..." says more than yes
    tail = prompt.strip()
    if tail.endswith("?") or _QUESTION.search(tail.rsplit(".", 1)[-1] or ""):
        return bool(_CONFIRM_QUESTION.search(tail))
    return True


def _is_fragment(seg) -> bool:
    """No clause with a subject of its own in the first segment:
    "Minneapolis!!", "my gf 😅", "Lily", "Leeds, been here since 2020"."""
    for t in seg:
        if t.pos_ in ("VERB", "AUX") and any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in t.children):
            return False
    return True


def _segment(sent) -> list:
    """The tokens of the fragment's first segment (up to a comma, a dash, a
    colon): "leeds, been here since 2020" -> [leeds]."""
    out = []
    for t in sent:
        if t.is_punct and (t.text in (",", ";", ":", "(", "—", "–", "...", "…") or t.text == "-" and t.whitespace_):
            break
        out.append(t)
    return out


def _after_it_is(seg) -> list:
    """ "it's 550 now", "that's €820": the words after an opening "it/that is"
    (which says nothing of its own) when they open with a number or a name
    ("it's complicated" answers nothing), or nothing."""
    rest = []
    if len(seg) > 2 and seg[0].lower_ in ("it", "that") and seg[1].lemma_ == "be":
        rest = seg[2:]
    elif len(seg) > 1 and seg[0].lower_ in ("its", "thats"):
        rest = seg[1:]
    if rest and (rest[0].like_num or rest[0].is_currency or (rest[0].pos_ == "PROPN" and rest[0].text[:1].isupper())):
        return rest
    return []


def _name_span(seg, labels=None):
    """The first name of the segment (an entity of ``labels``, else any
    proper noun run), as (text, tokens)."""
    ids = {t.i for t in seg}
    ents = {e.start: e for e in seg[0].doc.ents} if seg else {}
    for t in seg:
        e = ents.get(t.i)
        if e is not None and (labels is None or e.label_ in labels) and all(x.i in ids for x in e):
            toks = [x for x in e if x.lower_ != "the"]
            if toks:
                return _text(toks), toks
    run = []
    for t in seg:
        if t.pos_ == "PROPN" and t.lower_ not in _NOT_A_VALUE and not t.like_num and t.ent_type_ not in ("DATE", "TIME") \
                and t.dep_ != "intj":
            run.append(t)
        elif run:
            break
    if run:
        return _text(run), run
    return None


def _head_noun(seg):
    """The noun a fragment is about ("sparkling water mostly" -> water)."""
    ids = {t.i for t in seg}
    for t in seg:
        if t.pos_ in ("NOUN", "PROPN") and t.lower_ not in _NOT_A_VALUE and (t.head.i not in ids or t.head.i == t.i):
            return t
    return next((t for t in seg if t.pos_ in ("NOUN", "PROPN") and t.lower_ not in _NOT_A_VALUE), None)


def _place(seg):
    got = _name_span(seg, _PLACE_LABELS) or _name_span(seg)
    if got is not None:
        text = got[0]
        return (text.title() if text.islower() else text), got[1], True
    words = [t for t in seg if t.is_alpha and t.lower_ not in _NOT_A_VALUE]
    if 0 < len(words) <= 3 and all(t.pos_ in ("NOUN", "PROPN", "ADJ") for t in words):
        # "austin." typed in lower case: the words are the name
        return " ".join(t.text[:1].upper() + t.text[1:] for t in words), words, True
    return None


def _relation_answer(seg):
    """ "my gf", "My manager, yes.", "my big sister!" -> (relation attribute, tokens)."""
    for t in seg:
        if t.pos_ in ("NOUN", "PROPN") and relation_key(t) is not None:
            poss = _child(t, "poss")
            if poss is not None and poss.lower_ in _FIRST:
                rel = relation_key(t)
                if rel == "pet":
                    return f"has_{_PET_CANON.get(t.lemma_.lower(), t.lemma_.lower())}", [t]
                if t.doc.text[t.idx + len(t.text):].lower().startswith("-in-law"):
                    return f"{rel}_in_law", [t]
                return rel, [t]
    return None


def _described(w, seg, name: str, me: Subj):
    """A who-question's answer that describes rather than relates: a job
    ("charge nurse on the unit", "driver. don't ask") is the named person's
    job_title; a pet word of the speaker's ("our alsatian") makes the named
    one the speaker's pet. (subject, attribute, value, tokens, is_entity) or None."""
    h = _head_noun(seg)
    if h is None:
        return None
    low = h.lemma_.lower()
    if low in _PETS:
        # "our beagle lol": the parser may make the tail the head and the pet word its compound
        poss = _child(h, "poss") or (_child(h.head, "poss") if h.dep_ == "compound" else None)
        if poss is None or poss.lower_ not in _FIRST:
            return None
        return (me, f"has_{_PET_CANON.get(low, low)}", name, [h], True)
    if is_job(w, h) and _child(h, "poss") is None:
        return (Subj(name, False, 0.9, True, None), "job_title", job_title(w, h), [h], False)
    return None


def answer(w, sent, prompt: str) -> bool:
    """Read ``sent`` (the first sentence of a turn) as the answer to the
    question of ``prompt``; True when it gave a claim."""
    question = last_question(prompt)
    if question is None or len([t for t in sent if not t.is_punct]) > 12:
        return False
    if all(t.is_punct or t.pos_ == "INTJ" or t.lower_ in _NOT_A_VALUE for t in sent):
        return False  # "Thanks!", "Yes."
    ctx = w.ctx
    seg = _segment(sent)
    if seg and not _is_fragment(seg):
        seg = _after_it_is(seg)  # "it's 550 now": what "it" is, is the answer
    if not seg or not _is_fragment(seg):
        return False
    me = Subj(ctx.speaker, True, 0.9, True, None)
    for slot in _SLOTS:
        m = slot["re"].search(question)
        if m is None:
            continue
        kind, attribute, about = slot["answer"], slot["attribute"], slot["about"]
        subj = me
        if about == "named":
            name = m.group("name")
            if not name[:1].isupper() or name.lower() in _NOT_A_VALUE or name.lower() in ctx.names:
                return False
        rel_word = next((m.group(g) for g in ("rel", "rel2", "rel3") if g in m.groupdict() and m.group(g)), None)
        if about == "yours":
            if rel_word is None:
                return False
            low = rel_word.lower()
            if low in _PETS:
                attribute = f"has_{_PET_CANON.get(low, low)}"
            elif low in _RELATIONS:
                attribute = _RELATIONS[low]
            else:
                return False
        if attribute == "favorite":
            attribute = "favorite_" + "_".join(m.group("what").split())
        change = False
        if attribute == "asked":  # "What's your rent now?" / "550": the thing the question names
            attribute = m.group("what").lower()
            if attribute in _NUMBER_SLOTS_NOT or attribute in _NOT_A_VALUE or len(attribute) < 3:
                continue
            change = True  # the number it is now: another number held for it ends
        value = toks = since = None
        is_entity = False
        if kind == "place":
            got = _place(seg)
            if got is not None:
                value, toks, is_entity = got
        elif kind == "name":
            got = _name_span(seg, {"PERSON", "ORG", "GPE", "FAC", "PRODUCT", "NORP", "WORK_OF_ART"}) or _name_span(seg)
            if got is not None:
                value, toks = got
                is_entity = True
            elif about == "yours":
                got = _place(seg)  # "biscuit" typed in lower case
                if got is not None:
                    value, toks, is_entity = got
        elif kind == "job":
            h = _head_noun(seg)
            if h is None or not is_job(w, h):  # "paramedic, mostly nights": a job word the tagger calls ADJ
                h = next((t for t in seg if t.lower_ in _JOBS or t.lemma_.lower() in _JOBS), None)
            if h is not None:
                value, toks = (job_title(w, h) if is_job(w, h) else h.lower_), [h]
        elif kind == "thing":
            h = _head_noun(seg)
            if h is not None:
                value, toks = _np_text(h), list(h.subtree)
                is_entity = h.pos_ == "PROPN" or _ent_of(h) is not None
        elif kind == "number":
            n = next((t for t in seg if t.like_num), None)
            num = _parse_number(n) if n is not None else None
            if num is not None:
                value, toks = _fmt_num(num[0]), [n]
        elif kind == "date":
            d = next((t for t in seg if w.is_time_tok(t)), None)
            tr = w.resolve_time_tok(d, 1) if d is not None else None
            if tr is not None:
                value, toks = tr.iso(), [d]
                if slot.get("value"):  # "When do you start at Initech?" / "June 3": Initech from then
                    value, toks, is_entity, since = m.group(slot["value"]), [], True, tr.start
        elif kind == "relation":
            got = _relation_answer(seg)
            if got is not None:
                attribute, toks = got
                value, is_entity = m.group("name"), True
            elif about == "named" and (said := _described(w, seg, m.group("name"), me)) is not None:
                # "Who's Bríd?" / "charge nurse on the unit": what she does; "Who's Bruno?" / "our alsatian"
                subj, attribute, value, toks, is_entity = said
        if value in (None, "") or str(value).lower() in _NOT_A_VALUE:
            return False
        text = f"{question} — {ctx.sent_text}"
        before = len(ctx.claims)
        saved = ctx.sent_text
        ctx.sent_text = text
        try:
            w.emit(subj, attribute, value, v=sent.root, pol="assert", tense="present", tv=sent.root,
                   value_toks=toks or [], is_entity=is_entity, conf=0.9, rule=f"answer_{attribute}",
                   past_means_cease=False, valid_from=since, change=change)
        finally:
            ctx.sent_text = saved
        return len(ctx.claims) > before
    return False
