"""Habits and skills: "I eat/drink/play/drive X", "I speak X", "I'm learning X", "I study X at Y".
"""

from __future__ import annotations

from .lexicon import _ACTIVITIES, _BAD_OBJECTS, _DIETS, _HABITUAL, _PRACTICE_VERBS, LEX
from .tokens import _child, _children, _conjuncts, _is_name, _name_text, _np_text, _value_of


def habit(w, v, st, pol, tense, tv, *, attribute: str) -> None:
    ctx = w.ctx
    subj = w.subject(st)
    if subj is None or not subj.person:
        return
    if tense not in ("present", "perfect"):
        return
    if tense == "present" and v.tag_ not in ("VBP", "VBZ", "VB") and pol != "cease":
        return
    o = _child(v, "dobj")
    if o is None or o.pos_ == "PRON" or o.lower_ in _BAD_OBJECTS:
        return
    if _child(o, "det") is not None and _child(o, "det").lower_ in ("the", "this", "that", "a", "an") and not _is_name(o, ctx):
        if attribute not in ("plays", "drives"):
            return
    for oc in _conjuncts(o):
        val, ent = _value_of(oc, ctx)
        w.emit(subj, attribute, val, v=v, pol=pol, tense="present", tv=tv, value_toks=list(oc.subtree), is_entity=ent, rule=f"habit_{attribute}",
                   conf=0.9)


def h_eat(w, v, st, pol, tense, tv) -> None:
    habit(w, v, st, pol, tense, tv, attribute="eats")


def h_drink(w, v, st, pol, tense, tv) -> None:
    habit(w, v, st, pol, tense, tv, attribute="drinks")


def h_play(w, v, st, pol, tense, tv) -> None:
    habit(w, v, st, pol, tense, tv, attribute="plays")


def h_drive(w, v, st, pol, tense, tv) -> None:
    """ "I drive a Subaru Outback" -> car (a make or model named); "I drive a truck" -> drives."""
    from .possessions import car_claim

    o = _child(v, "dobj")
    if o is not None and pol == "assert" and tense in ("present", "perfect") and \
            car_claim(w, w.subject(st), o, v, pol, tv, rule="drive_car"):
        return
    habit(w, v, st, pol, tense, tv, attribute="drives")


def h_learn(w, v, st, pol, tense, tv) -> None:
    if tense not in ("progressive",):
        return
    subj = w.subject(st)
    o = _child(v, "dobj")
    if subj is None or o is None or o.pos_ == "PRON" or o.lower_ in _BAD_OBJECTS:
        return
    if _child(o, "det") is not None:
        return
    val, ent = _value_of(o, w.ctx)
    w.emit(subj, "learning", val, v=v, pol=pol, tense="present", tv=tv, value_toks=list(o.subtree), is_entity=ent, rule="learning", conf=0.9)


def h_study(w, v, st, pol, tense, tv) -> None:
    subj = w.subject(st)
    if subj is None or not subj.person or tense in ("future", "past"):
        return
    o = _child(v, "dobj")
    if o is not None and o.pos_ != "PRON" and o.lower_ not in _BAD_OBJECTS and _child(o, "det") is None:
        val, ent = _value_of(o, w.ctx)
        w.emit(subj, "studies", val, v=v, pol=pol, tense="present", tv=tv, value_toks=list(o.subtree), is_entity=ent, rule="study", conf=0.9)
    for p in _children(v, "prep"):
        po = _child(p, "pobj")
        if p.lower_ == "at" and po is not None and _is_name(po, w.ctx):
            w.emit(subj, "school", _name_text(po), v=v, pol=pol, tense="present", tv=tv, value_toks=list(po.subtree), is_entity=True, rule="study_at")


def h_speak(w, v, st, pol, tense, tv) -> None:
    subj = w.subject(st)
    if subj is None or not subj.person:
        return
    if tense not in ("present", "perfect") and not (tense == "past" and pol == "cease"):
        if tense == "past":
            pol = "cease"
        else:
            return
    o = _child(v, "dobj")
    if o is None:
        return
    for oc in _conjuncts(o):
        if oc.ent_type_ in ("LANGUAGE", "NORP") or oc.text[:1].isupper():
            w.emit(subj, "speaks", oc.text, v=v, pol=pol, tense="present", tv=tv, value_toks=[oc], rule="speak")


def is_activity(t) -> bool:
    """An activity one takes up or stops: a word of ``habits.activities``
    ("running", "yoga"), or a phrase headed by one ("intermittent fasting",
    "water aerobics")."""
    lem = t.lemma_.lower()
    if any(c.dep_ == "det" and c.lower_ in ("a", "an", "this", "that", "your") for c in t.children):
        return False  # "a painting", "that meeting"
    return t.pos_ in ("NOUN", "VERB") and (lem in _ACTIVITIES or t.lower_ in _ACTIVITIES)


def activity_text(t) -> str:
    return _np_text(t)


def h_go(w, v, st, pol, tense, tv) -> None:
    """ "I went vegan last month", "I've gone fully vegetarian since New Year's": the diet changes
    (and holds now). "I go running every morning", "I've been going climbing": a habit. Any
    other "go" is read as a measure or a date ("rent went up to $2,000")."""
    if diet_change(w, v, st, pol, tense, tv) or switched_to(w, v, st, pol, tense, tv):
        return
    xc = next((c for c in v.children if c.dep_ == "xcomp" and c.tag_ == "VBG" and is_activity(c)
               and _child(c, "dobj") is None), None)
    if xc is not None and _habit_now(v, tense, pol):
        _practice(w, v, st, pol, tv, xc.lower_, [xc], rule="go_activity")
        return
    w.fallback(v=v, st=st, pol=pol, tense=tense, tv=tv)


def h_do(w, v, st, pol, tense, tv) -> None:
    """ "I do yoga on Sundays", "I'm doing pilates now", "Doing swimming at the lido instead": a habit."""
    from .work import do_field_at  # work reads habits' activities: imported here, not at the top

    o = _child(v, "dobj")
    if o is not None and do_field_at(w, v, st, o, pol, tense, tv):  # "doing engineering at WSP"
        return
    fragment = v.tag_ == "VBG" and _child(v, "nsubj", "aux") is None  # "Doing swimming instead, ..."
    if o is None or not is_activity(o) or not _habit_now(v, tense, pol, fragment=fragment):
        w.fallback(v=v, st=st, pol=pol, tense=tense, tv=tv)
        return
    _practice(w, v, None if fragment else st, pol, tv, activity_text(o), list(o.subtree), rule="do_activity")


def h_practice(w, v, st, pol, tense, tv) -> None:
    """ "I run three times a week", "I swim every morning now": an activity verb with a word of
    frequency is a habit; with an object it is something else ("I run a bakery")."""
    if _child(v, "dobj") is not None or tense != "present" or (v.tag_ not in ("VBP", "VBZ") and pol != "cease") \
            or (not _habitual(v) and pol != "cease") or not _person_subject(w, v, st):
        w.fallback(v=v, st=st, pol=pol, tense=tense, tv=tv)  # "throughput climbed to 800 rps"
        return
    _practice(w, v, st, pol, tv, _PRACTICE_VERBS[v.lemma_.lower()], [v], rule="practice")


def _person_subject(w, v, st) -> bool:
    subj = w.subject(st) if st is not None else None
    return subj is not None and subj.person


def _habit_now(v, tense: str, pol: str, fragment: bool = False) -> bool:
    """Said of now: the present ("I do yoga"), the progressive ("I'm doing pilates", "I've been
    going climbing"), or a sentence-opening "-ing" fragment ("Doing swimming instead")."""
    if pol == "negate":
        return False
    if fragment:
        return v.tag_ == "VBG" and all(t.pos_ in ("ADV", "INTJ", "PUNCT", "SPACE", "CCONJ")
                                       for t in v.doc[v.sent.start:v.i])
    return tense in ("present", "progressive") or (tense == "perfect" and v.tag_ == "VBG")


def _habitual(v) -> bool:
    words = {t.lower_ for c in v.children if c.dep_ in ("advmod", "npadvmod", "prep", "advcl") for t in c.subtree}
    return bool(words & _HABITUAL)


def _practice(w, v, st, pol, tv, value: str, toks, *, rule: str) -> None:
    from .subjects import _Implicit

    subj = w.subject(st if st is not None else _Implicit(v))
    if subj is None or not subj.person:
        return
    w.emit(subj, "habit", value, v=v, pol="cease" if pol == "cease" else "assert", tense="present", tv=tv,
           value_toks=toks, rule=rule, past_means_cease=False, conf=0.9)


#: attributes a "switched to Y" after a stopped habit carries on
_SWITCHABLE = frozenset({"drinks", "eats", "habit", "plays", "drives", "uses"})


def switched_to(w, v, st, pol, tense, tv) -> bool:
    """ "I don't drink coffee anymore, switched to yerba mate": what this
    message just stopped (a ``cease`` claim of a habit-like attribute of the
    same person) is replaced by the "to" object. True when read."""
    if v.lemma_.lower() != "switch" or pol != "assert" or tense == "future":
        return False
    po = next((_child(p, "pobj") for p in _children(v, "prep") if p.lower_ == "to"), None)
    if po is None or po.pos_ not in ("NOUN", "PROPN"):
        return False
    subj = w.subject(st) if st is not None else None
    stopped = next((c for c in reversed(w.ctx.claims) if c.polarity == "cease" and c.attribute in _SWITCHABLE
                    and (subj is None or c.subject == subj.name)), None)
    if stopped is None:
        return False
    from .subjects import Subj

    who = subj or Subj(stopped.subject, stopped.subject_is_speaker, 1.0 if stopped.subject_is_speaker else 0.9, True)
    w.emit(who, stopped.attribute, _np_text(po), v=v, pol="assert", tense="present", tv=tv, value_toks=list(po.subtree),
           rule="switched_to", past_means_cease=False, conf=0.9)
    return True


def diet_change(w, v, st, pol, tense, tv) -> bool:
    """A verb of change whose complement is a diet ("went vegan", "turned vegetarian"): True when read."""
    comp = next((c for c in v.children if c.dep_ in ("acomp", "dobj", "oprd", "attr", "xcomp")
                 and (c.lower_ in _DIETS or c.lemma_.lower() in _DIETS)), None)
    if comp is None:
        for p in _children(v, "prep"):  # "switched to vegan"
            po = _child(p, "pobj")
            if p.lower_ == "to" and po is not None and (po.lower_ in _DIETS or po.lemma_.lower() in _DIETS):
                comp = po
    if comp is None:
        return False
    subj = w.subject(st)
    if subj is None or not subj.person or pol == "negate" or tense == "future":
        return True
    w.emit(subj, "diet", comp.lower_, v=v, pol=pol if pol == "cease" else "assert", tense="present", tv=tv,
           value_toks=[comp], rule="diet_change", past_means_cease=False, change=True)
    return True


def switch_after_stop(w, sent) -> None:
    """The sentence pattern of :func:`switched_to`, for a "switched to Y"
    the clause walk does not reach ("switched to yerba mate, my stomach was
    wrecked": an adverbial clause with a dropped subject)."""
    from .subjects import subject_token

    for t in sent:
        if t.lemma_.lower() == "switch" and t.pos_ == "VERB" and t.dep_ not in ("ROOT", "conj"):
            switched_to(w, t, subject_token(t), "assert", "past", t)


#: schema/extract/habits.toml: what may open a sentence before "no more" / "back to"
#: without naming anyone else, and the first-person words before "back to"
_OPENING = LEX.words("habits.sentence_openers")
_MY_BACK = LEX.words("habits.back_to_first_person")
_BACK_FILLERS = LEX.words("habits.back_to_fillers")


def _opens(sent, i: int, allowed: frozenset[str]) -> bool:
    """Whether the words of ``sent`` before token ``i`` are all in ``allowed`` (or punctuation)."""
    return all(t.is_punct or t.is_space or t.lower_ in allowed for t in sent.doc[sent.start:i])


def no_more(w, sent) -> None:
    """ "No more running for a while, I twisted my ankle", "no more swimming for me
    this year": a sentence that opens with "no more" and an activity
    (``habits.activities``) ends the speaker's habit. "no more rain please" names no
    activity and ends nothing."""
    from .subjects import Subj

    toks = list(sent)
    for j, t in enumerate(toks[:-2]):
        if t.lower_ != "no" or toks[j + 1].lower_ != "more":
            continue
        a = toks[j + 2]
        if not _opens(sent, t.i, _OPENING) or not (is_activity(a) or a.lower_ in _ACTIVITIES):
            return
        if any(x.lower_ == "?" for x in toks):
            return
        w.emit(Subj(w.ctx.speaker, True, 0.9, True, None), "habit", a.lower_, v=a, pol="cease", tense="present",
               tv=a, value_toks=[a], rule="no_more_activity", past_means_cease=False, conf=0.9)
        return


def back_to(w, sent) -> None:
    """ "keto experiment over. back to vegetarian", "back to being vegetarian", "I'm
    back to running": the speaker goes back to a diet (which replaces the one held)
    or takes up an activity again. Said of someone else ("she's back to ...") it is
    left alone."""
    from .subjects import Subj

    toks = list(sent)
    for j, t in enumerate(toks[:-2]):
        if t.lower_ != "back" or toks[j + 1].lower_ != "to" or not _opens(sent, t.i, _OPENING | _MY_BACK):
            continue
        k = j + 2
        if toks[k].lower_ in _BACK_FILLERS and k + 1 < len(toks):
            k += 1
        a = toks[k]
        me = Subj(w.ctx.speaker, True, 0.9, True, None)
        if a.lower_ in _DIETS or a.lemma_.lower() in _DIETS:
            w.emit(me, "diet", a.lower_, v=a, pol="assert", tense="present", tv=a, value_toks=[a],
                   rule="back_to_diet", past_means_cease=False, change=True, conf=0.9)
        elif is_activity(a) or a.lower_ in _ACTIVITIES:
            w.emit(me, "habit", a.lower_, v=a, pol="assert", tense="present", tv=a, value_toks=[a],
                   rule="back_to_activity", past_means_cease=False, conf=0.9)
        return


#: "keto experiment over", "the vegan phase is done": words between a diet and its end, and the end
_DIET_SPANS = LEX.words("habits.diet_end_between")
_OVER = LEX.words("habits.diet_end_words")


def diet_over(w, sent) -> None:
    """ "keto experiment over.", "the vegan phase is done": the speaker's diet
    ends. Only a sentence that opens with the diet (after "the", "my", "our")."""
    from .subjects import Subj

    toks = [t for t in sent if not t.is_punct]
    j = 0
    while j < len(toks) and toks[j].lower_ in _OPENING | {"the", "my", "our"}:
        j += 1
    if j >= len(toks) or toks[j].lower_ not in _DIETS:
        return
    d, k = toks[j], j + 1
    while k < len(toks) and toks[k].lower_ in _DIET_SPANS:
        k += 1
    if k < len(toks) and toks[k].lower_ in _OVER and (k + 1 == len(toks) or toks[k + 1].lower_ in ("for", "now")):
        w.emit(Subj(w.ctx.speaker, True, 0.9, True, None), "diet", d.lower_, v=d, pol="cease", tense="present",
               tv=d, value_toks=[d], rule="diet_over", past_means_cease=False, conf=0.9)
