"""What people have, and their family by count or name: "I have a dog named Rex",
"I have two kids", "we adopted a cat", "I sold my car", "I got a job/a car".
"""

from __future__ import annotations

from .._timeexpr import word_number
from .lexicon import (_ACQUIRED, _BUSINESSES, _CREDENTIALS, _GET_JOB, _MARITAL, _PETS, _PET_CANON, _POSSESSIONS,
                      _RELATIONS, _VEHICLE_NAMES, _VEHICLE_NOUNS)
from .numbers import _fmt_num
from .subjects import poss_owner
from .tokens import _child, _children, _conjuncts, _ent_of, _is_name, _name_text, _np_text, _text
from .work import is_job, job_noun, job_title


def named_in(w, o):
    """ "a dog named Rex" / "a dog called Rex" / "a dog, Rex" -> the name token."""
    for c in o.children:
        if c.dep_ == "acl" and c.lemma_.lower() in ("name", "call"):
            n = _child(c, "oprd", "dobj", "attr", "xcomp", "npadvmod")
            if n is not None:
                return n
        if c.dep_ == "appos" and c.pos_ == "PROPN" and (o.lemma_.lower() in _PETS or o.lemma_.lower() in _RELATIONS) \
                and c.i == o.i + 2 and o.doc[o.i + 1].text == ",":
            return c
    return None


def vehicle(o) -> str | None:
    """The car a noun phrase names by make or model ("a used Tesla Model Y" -> "Tesla Model
    Y", "the Outback" -> "Outback", "a red Toyota Prius" -> "Toyota Prius"), or None ("a car",
    "a Tesla charger")."""
    if o.pos_ not in ("PROPN", "NOUN", "NUM"):
        return None
    toks = [c for c in o.lefts if c.dep_ == "compound" or (c.pos_ == "PROPN" and c.dep_ in ("nmod", "amod"))]
    toks.append(o)
    toks += [c for c in o.rights if c.dep_ in ("nummod", "compound") and c.pos_ in ("NUM", "PROPN")]  # "Model 3"
    words = " ".join(t.text for t in toks).rstrip(".,!?;:")  # "Model Y." at the end of a sentence
    folded = words.casefold()
    if not any(f" {n} " in f" {folded} " for n in _VEHICLE_NAMES):  # a make or model among its words
        return None
    if o.lemma_.lower() not in _VEHICLE_NOUNS and o.pos_ == "NOUN" and folded.split()[-1] not in _VEHICLE_NAMES \
            and not o.text[:1].isupper():
        return None  # "a Tesla charger"; not "a Honda Jazz" (a model's name the tagger calls a noun)
    return words


def car_claim(w, subj, o, v, pol, tv, *, rule: str) -> bool:
    """A car named by make or model: car = its name (``cease`` when sold). True when read."""
    name = vehicle(o)
    if name is None or subj is None or not subj.person:
        return False
    w.emit(subj, "car", name, v=v, pol=pol, tense="present", tv=tv, value_toks=list(o.subtree), rule=rule,
           past_means_cease=False, conf=0.9)
    return True


def acquire(w, subj, o, v, pol, tense, tv, *, rule: str) -> None:
    """ "we adopted a cat named Luna", "I bought a car" -> has; "we bought a used Tesla Model
    Y" -> car."""
    if pol == "assert" and car_claim(w, subj, o, v, pol, tv, rule=rule + "_car"):
        return
    lem = o.lemma_.lower()
    named = named_in(w, o)
    if named is not None:
        key = _RELATIONS.get(lem) or (f"has_{_PET_CANON.get(lem, lem)}")
        if lem in _PETS:
            key = f"has_{_PET_CANON.get(lem, lem)}"
        w.emit(subj, key, _name_text(named), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(named.subtree), is_entity=True,
                   rule=rule + "_named", past_means_cease=False)
        return
    if lem in _PETS or lem in _ACQUIRED:
        if _child(o, "det") is None and not o.tag_ == "NNS" and _child(o, "nummod") is None:
            if not _is_name(o, w.ctx):
                return
        w.emit(subj, "has", _np_text(o, keep_adj=True), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree),
                   rule=rule, past_means_cease=False, conf=0.9)


def h_have(w, v, st, pol, tense, tv) -> None:
    ctx = w.ctx
    subj = w.subject(st)
    if subj is None or not (subj.person or _is_name(st, ctx)):
        return
    if tense == "future" or tense == "progressive":
        return
    if tense == "past":
        # "I had a dog named Rex" -- a past possession; "we had a baby" -- an event; keep only named pets/kids as cease
        pass
    if v.lemma_ == "have" and any(c.dep_ == "xcomp" for c in v.children):
        return  # "I have to go"
    o = _child(v, "dobj")
    if o is None:
        for c in _children(v, "ccomp"):
            if c.lemma_.lower() in ("call", "name"):
                noun = next((x for x in c.children if x.dep_ in ("npadvmod", "nsubj", "nsubjpass", "dobj") and x.pos_ == "NOUN"), None)
                name = _child(c, "oprd", "attr")
                if noun is not None and name is not None and _is_name(name, ctx):
                    lem = noun.lemma_.lower()
                    key = f"has_{_PET_CANON.get(lem, lem)}" if lem in _PETS else _RELATIONS.get(lem, f"has_{lem}")
                    w.emit(subj, key, _name_text(name), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(name.subtree),
                               is_entity=True, rule="have_named")
                    return
    if o is None or o.pos_ == "PRON":
        return
    if any(c.dep_ == "det" and c.lower_ == "no" for c in o.children):
        pol = "negate" if pol == "assert" else pol
    lem = o.lemma_.lower()
    low = o.lower_
    named = named_in(w, o)
    if named is not None:
        if lem in _PETS:
            key = f"has_{_PET_CANON.get(lem, lem)}"
        elif lem in _RELATIONS:
            key = _RELATIONS[lem]
        elif _child(o, "acl") is not None:
            key = f"has_{lem}"
        else:
            return
        for n in _conjuncts(named):
            w.emit(subj, key, _name_text(n), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(n.subtree), is_entity=True, rule="have_named")
        return
    if pol == "assert" and tense != "past" and car_claim(w, subj, o, v, pol, tv, rule="have_car"):
        return  # "we have a red Toyota Prius"
    nummod = _child(o, "nummod")
    if nummod is not None and o.tag_ in ("NNS", "NNPS") and (lem in _POSSESSIONS or low in _POSSESSIONS):
        n = word_number(nummod.text)
        if n is not None:
            plural = {"child": "kids", "kid": "kids", "children": "kids"}.get(lem, low)
            w.emit(subj, f"num_{plural}", _fmt_num(n), v=v, pol=pol, tense=tense, tv=tv, value_toks=[nummod, o],
                       number=float(n), rule="have_count")
            return
    if lem in _POSSESSIONS or low in _POSSESSIONS or (_is_name(o, ctx) and (_ent_of(o) is None or _ent_of(o).label_ in ("PRODUCT", "ORG"))):
        if lem in _BUSINESSES and not _child(o, "det"):
            return
        if pol == "assert" and tense == "past":
            return
        if lem in ("allergy",):
            for p in _children(o, "prep"):
                po = _child(p, "pobj")
                if po is not None:
                    w.emit(subj, "allergy", _np_text(po), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(po.subtree), rule="have_allergy")
            return
        if lem in _CREDENTIALS:
            w.emit(subj, "has", _np_text(o), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), rule="have", conf=0.8)
            return
        if o.tag_ in ("NNS",) and nummod is None and pol == "assert" and lem not in _RELATIONS:
            pass
        val = _np_text(o) if not _is_name(o, ctx) else _name_text(o)
        if lem in _RELATIONS and o.tag_ in ("NNS",) and nummod is None and pol == "assert":
            return  # "I have kids" without a count: vague
        w.emit(subj, "has", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), rule="have",
                   is_entity=_is_name(o, ctx))


def h_adopt(w, v, st, pol, tense, tv) -> None:
    subj = w.subject(st)
    if subj is None or not subj.person or pol == "negate" or tense == "future":
        return
    o = _child(v, "dobj")
    if o is None:
        return
    acquire(w, subj, o, v, pol, "present" if tense in ("past", "perfect") else tense, tv, rule="adopt")


def h_sell(w, v, st, pol, tense, tv) -> None:
    subj = w.subject(st)
    if subj is None or not subj.person or pol != "assert" or tense not in ("past", "perfect"):
        return
    o = _child(v, "dobj")
    if o is not None and car_claim(w, subj, o, v, "cease", tv, rule="sell_car"):
        return  # "we sold the Outback"
    owner, det = (poss_owner(o, w.ctx), _child(o, "det")) if o is not None else (None, None)
    if o is None or owner is None and det is None:
        return
    if o.lemma_.lower() in _VEHICLE_NOUNS and (owner is not None or det.lower_ == "the"):
        # "I sold my car", "we sold the van": the car held, whichever it was (and "has: car" below)
        w.emit(subj, "car", "", v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree),
               rule="sell_car", past_means_cease=False, conf=0.9)
    lem = o.lemma_.lower()
    if lem in _POSSESSIONS:
        w.emit(subj, "has", _np_text(o), v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree), rule="sell", conf=0.9)


def h_get(w, v, st, pol, tense, tv) -> None:
    subj = w.subject(st)
    if subj is None or not subj.person or pol == "negate":
        return
    o = _child(v, "dobj")
    prt = _child(v, "prt")
    # "I got married"
    ac = _child(v, "acomp")
    if ac is not None and ac.lower_ in _MARITAL:
        w.emit(subj, "marital_status", _MARITAL[ac.lower_], v=v, pol="assert", tense="present", tv=tv, rule="get_married")
        return
    if any(c.lemma_ == "have" and c.lower_ not in ("had", "'d") for c in v.children if c.dep_ == "aux") and o is not None:
        # "I've got two kids" == "I have two kids"
        h_have(w, v, st, pol, "present", tv)
        return
    if o is None:
        return
    if tense in ("future",) and not w.qualifiers(v, set()):
        return
    lem = o.lemma_.lower()
    t_eff = "present" if tense in ("past", "perfect") else tense
    if lem not in _GET_JOB and is_job(w, o):
        # "Sarah got the head of marketing job at Acme" (parsed: head -> of -> job)
        for p in _children(o, "prep"):
            inner = _child(p, "pobj")
            if p.lower_ == "of" and inner is not None and inner.lemma_.lower() in _GET_JOB:
                toks = [o, p] + [x for c in inner.children if c.i < inner.i and c.dep_ in ("compound", "amod")
                                 for x in c.subtree]
                w.emit(subj, "job_title", _text(sorted(toks, key=lambda x: x.i)).lower(), v=v, pol=pol, tense=t_eff,
                       tv=tv, value_toks=toks, rule="get_job", past_means_cease=False)
                job_noun(w, subj, inner, v, pol, t_eff, tv, rule="get_job")
                return
    if lem in _GET_JOB:
        if lem == "promotion":
            for p in _children(o, "prep") + _children(v, "prep"):
                po = _child(p, "pobj")
                if p.lower_ == "to" and po is not None:
                    w.emit(subj, "job_title", job_title(w, po), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(po.subtree),
                               rule="promotion", past_means_cease=False)
            return
        if lem == "offer":
            return
        job_noun(w, subj, o, v, pol, t_eff, tv, rule="get_job")
        return
    if prt is None and tense in ("past", "perfect"):
        acquire(w, subj, o, v, pol, t_eff, tv, rule="get_has")
    elif prt is None and tense == "progressive" and pol == "assert":
        # "sold the Skoda and I'm getting a Honda Jazz": a car being got is the one driven from now
        car_claim(w, subj, o, v, pol, tv, rule="getting_car")
