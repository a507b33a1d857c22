"""Copular clauses: "my X is Y", "I'm a nurse", "X is one of my favorites", "the launch is on May 3".

A clause whose verb is "be" (or "become", "remain", "stay", "turn" with a
complement) comes here from the walker. Who the subject is decides the
reading: a person or a named thing (:func:`copular_entity`: job title,
identity, diet, marital status, age, allergy, origin, "a fan of"), or an
attribute, event or metric noun (:func:`copular_attribute`: "my favorite
color is blue", "my sister's name is Ana", "the deadline is Friday",
"latency is 250 ms"); "Blue is my favorite color" and "Emma is my
daughter" are read inverted.
"""

from __future__ import annotations

import re

from .._timeexpr import word_number
from .events import date_key, moved_date
from .lexicon import (_ATTR_NOUNS, _BAD_OBJECTS, _DIETS, _EMPLOYMENT, _EVALUATIVE, _FAN_NOUNS, _FEAR_ADJECTIVES,
                      _FIRST, _IDENTITY, _KEEN_ADJECTIVES, _MARITAL, _METRICS, _NAME_LABELS, _ORG_ROLES, _READINGS,
                      _PAST_MARKERS, _PETS, _PET_CANON, _SCHEDULED_ADJECTIVES, _SECOND, _STOP_HEADS)
from .location import location_preps
from .numbers import _fmt_num, _num_value, _parse_number
from .preferences import pref_values
from .subjects import Subj, owner_of, poss_owner, relation_key, resolve_subject
from .tokens import (_child, _children, _conjuncts, _ent_of, _is_name, _name_text, _np_text, _text, _value_of,
                     attr_key)
from .work import employer_from, is_job, job_title


#: a reading of two numbers: blood pressure ("128/82")
_READING = re.compile(r"\d{2,3}/\d{2,3}")
#: the keys a phone number is said under ("my cell is ...", "my mobile number is ...")
_PHONE_KEYS = frozenset({"phone", "phone_number", "number", "cell", "cell_number", "mobile", "mobile_number"})


def _number_run(t) -> list:
    """The phone number a token is part of: the run of digit groups, "+",
    "-" and brackets around it ("07700 900123", "+44 (0)20 7946 0958")."""
    doc = t.doc

    def part(x) -> bool:
        return x.text in ("+", "-", "(", ")") or x.text.strip("+()-").replace("-", "").isdigit()

    a = t.i
    while a > t.sent.start and part(doc[a - 1]):
        a -= 1
    b = t.i + 1
    while b < t.sent.end and part(doc[b]):
        b += 1
    return list(doc[a:b]) if part(t) else [t]


def copular(w, v, st, pol, tense, tv) -> None:
    ctx = w.ctx
    attr = _child(v, "attr")
    acomp = _child(v, "acomp")
    preps = _children(v, "prep")
    if st is None:
        return
    # "It's Lisbon, not Porto" -- left to the bare-correction path
    if st.lower_ in ("it", "that", "this") and ctx.correction:
        return
    # "X is one of my favorites" / "One of my favorite dishes is lasagna" -> likes
    for one, other in ((attr, st), (st, attr)):
        if one is None or other is None or one.lower_ != "one":
            continue
        for p in _children(one, "prep"):
            po = _child(p, "pobj")
            if p.lower_ != "of" or po is None:
                continue
            fav = po.lemma_.lower() in ("favorite", "favourite", "fave") or any(
                c.dep_ == "amod" and c.lower_ in ("favorite", "favourite") for c in po.children)
            owner = poss_owner(po, ctx) if fav else None
            if owner is None or other.pos_ == "PRON" or other.lower_ in _BAD_OBJECTS or \
                    any(c.dep_ in ("relcl", "acl") for c in other.children):
                return
            if _is_name(other, ctx) and not (other.i == other.sent.start and other.ent_type_ not in _NAME_LABELS):
                val, ent = _name_text(other), True
            else:
                val, ent = _np_text(other), False
                val = val.lower()
            w.emit(owner, "likes", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(other.subtree), is_entity=ent,
                       rule="one_of_favorites")
            return
    # inverted: "Blue is my favorite color", "Emma is my daughter", "Rex is my dog"
    if attr is not None and _child(attr, "poss") is not None and st.lower_ not in _FIRST | _SECOND:
        owner = poss_owner(attr, ctx)
        if owner is not None:
            key = attr_key(attr)
            if key is not None and (key.startswith("favorite_") or relation_key(attr) or attr.lower_ in _ATTR_NOUNS):
                if _is_name(st, ctx) and not (key.startswith("favorite_") and st.ent_type_ not in _NAME_LABELS):
                    val, ent = _name_text(st), True
                else:
                    val, ent = _np_text(st), False
                    if key.startswith("favorite_"):
                        val = val.lower()
                if relation_key(attr) == "pet":
                    key = f"has_{_PET_CANON.get(attr.lemma_.lower(), attr.lemma_.lower())}"
                w.emit(owner, key, val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(st.subtree),
                           is_entity=ent, rule="copular_inverted")
                return
    if st.lower_ in _METRICS and st.pos_ == "PROPN" and _child(st, "poss") is not None:
        # "My A1C is 6.9": a measure of the owner, not a name
        copular_attribute(w, v, st, attr, acomp, preps, pol, tense, tv)
        return
    subj = resolve_subject(st, ctx)
    if subj is not None and st.pos_ == "NOUN" and relation_key(st) is not None and \
            ((attr is not None and _is_name(attr, ctx)) or (relation_key(st) == "pet" and attr is not None and _child(attr, "det") is None)):
        # "Melanie's daughter is Emma", "my dog is Rex": the relation is the attribute
        copular_attribute(w, v, st, attr, acomp, preps, pol, tense, tv)
        return
    if subj is not None and (subj.person or _is_name(st, ctx)):
        copular_entity(w, subj, v, st, attr, acomp, preps, pol, tense, tv)
        return
    # the subject is an attribute/event/metric noun: "my favorite color is blue", "the launch is on May 3"
    if st.pos_ in ("NOUN", "PROPN") or st.lower_ in _METRICS:
        copular_attribute(w, v, st, attr, acomp, preps, pol, tense, tv)


def _words_number(t) -> int | None:
    """The number a word token says, with its hyphenated other half ("seventy-two"
    is three tokens: "seventy", "-", "two"); None when it is not one."""
    doc = t.doc
    lo, hi = t.i, t.i
    while lo >= 2 and doc[lo - 1].text == "-" and doc[lo - 2].is_alpha:
        lo -= 2
    while hi + 2 < len(doc) and doc[hi + 1].text == "-" and doc[hi + 2].is_alpha:
        hi += 2
    parts = [word_number(doc[i].lower_) for i in range(lo, hi + 1, 2)]
    if any(p is None for p in parts):
        return None
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2 and parts[0] >= 20 and parts[0] % 10 == 0 and 0 < parts[1] < 10:
        return parts[0] + parts[1]
    return None


def _age_in_words(t) -> int | None:
    """The age a word number says as the complement of "be" ("Ella is
    seventeen", "I'm seventy-two", "She is sixteen"), not "one of"; None
    otherwise."""
    if t.pos_ != "NUM" or not t.is_alpha or any(c.dep_ == "prep" for c in t.children):
        return None
    years = _words_number(t)
    return years if years is not None and 1 < years < 125 else None


def copular_entity(w, subj: Subj, v, st, attr, acomp, preps, pol, tense, tv) -> None:
    """Copular clause about a person or named thing."""
    ctx = w.ctx
    if attr is not None and attr.i in ctx.alt:
        attr = ctx.alt[attr.i]  # "I'm not a nurse but a doctor"
    if attr is not None:
        a_low = attr.lower_
        a_lem = attr.lemma_.lower()
        det = _child(attr, "det")
        if det is not None and det.lower_ == "no" and pol == "assert":
            pol = "negate"  # "I'm no writer"
        num = _parse_number(attr) if attr.pos_ == "NUM" or attr.like_num else None
        # "I'm 34"; "I'm seventy-two" (:func:`_age_in_words`)
        if attr.pos_ == "NUM" and attr.is_alpha:
            years = _age_in_words(attr)
            num = (years, None) if years is not None else None
        if num is not None and subj.person and num[1] is None and 0 < num[0] < 125 and tense != "past" and (
                attr.text.isdigit() or attr.is_alpha):
            w.emit(subj, "age", _fmt_num(num[0]), v=v, pol=pol, tense=tense, tv=tv, value_toks=[attr],
                       rule="copular_age", past_means_cease=False)
            return
        # "I'm a big fan of jazz" -> likes
        if a_lem in _FAN_NOUNS and not any(p.lower_ == "of" for p in _children(attr, "prep")):
            comp = [c for c in attr.children if c.dep_ == "compound" and c.i < attr.i]
            if comp and subj.person:
                toks = sorted({x.i: x for c in comp for x in c.subtree if not x.is_punct or x.tag_ == "HYPH"}.values(), key=lambda x: x.i)
                w.emit(subj, "likes", _text(toks) if any(x.pos_ == "PROPN" for x in toks) else _text(toks).lower(),
                           v=v, pol=pol, tense=tense, tv=tv, value_toks=toks, is_entity=any(x.pos_ == "PROPN" for x in toks),
                           rule="copular_fan")
            return
        if a_lem in _FAN_NOUNS:
            for p in _children(attr, "prep"):
                if p.lower_ == "of" and _child(p, "pobj") is not None:
                    for val, ent, toks in pref_values(w, _child(p, "pobj")):
                        w.emit(subj, "likes", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=toks,
                                   is_entity=ent, rule="copular_fan")
                    return
            return
        # job titles: "I'm a nurse", "Caroline is a software engineer at Google", "Tim is the CEO of Apple"
        if is_job(w, attr) and not any(c.lower_ in _EVALUATIVE or c.lemma_.lower() in _EVALUATIVE
                                           for c in attr.children if c.dep_ in ("amod", "predet", "advmod")):
            title = job_title(w, attr)
            if title and subj.person or (title and _is_name(st, ctx) and (det is None or det.lower_ in ("a", "an", "the"))):
                if _is_name(st, ctx) and not subj.person and (_ent_of(st) is not None and _ent_of(st).label_ in ("GPE", "LOC")):
                    return
                emp_tok = employer_from(w, attr)
                if a_lem == "student":
                    w.emit(subj, "job_title", title, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(attr.subtree), rule="copular_job")
                    if emp_tok is not None:
                        val, ent = _value_of(emp_tok, ctx)
                        w.emit(subj, "school", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(emp_tok.subtree), is_entity=ent, rule="copular_school")
                    return
                w.emit(subj, "job_title", title, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(attr.subtree), rule="copular_job")
                if emp_tok is not None:
                    val, ent = _value_of(emp_tok, ctx)
                    w.emit(subj, "employer", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(emp_tok.subtree),
                               is_entity=ent, rule="copular_job_employer")
                    if a_lem in _ORG_ROLES and ent and pol == "assert":
                        org = Subj(val, False, 0.9, False, emp_tok)
                        w.emit(org, "ceo" if a_lem == "ceo" else a_lem, subj.name, v=v, pol=pol, tense=tense, tv=tv,
                                   value_toks=list(st.subtree), is_entity=True, rule="copular_org_role")
                return
        # identity: "I'm a vegetarian", "Rex is a golden retriever"
        if det is not None and det.lower_ in ("a", "an") and attr.pos_ == "NOUN":
            if a_lem in _DIETS or a_low in _DIETS:
                w.emit(subj, "diet", a_lem, v=v, pol=pol, tense=tense, tv=tv, value_toks=[attr], rule="copular_diet")
                return
            if subj.person and subj.is_speaker is False and not _is_name(st, ctx):
                return
            if _is_name(st, ctx) and not subj.is_speaker and (a_lem in _PETS or a_low in _PETS):
                w.emit(subj, "is_a", _np_text(attr), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(attr.subtree), rule="copular_is_a")
                return
            if subj.person and (a_lem in _IDENTITY or a_low in _IDENTITY):
                w.emit(subj, "is_a", _np_text(attr), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(attr.subtree), rule="copular_is_a")
                return
            if not subj.person and _is_name(st, ctx) and attr.lemma_.lower() not in _STOP_HEADS \
                    and attr.lemma_.lower() not in _EVALUATIVE and _ent_of(st) is not None \
                    and _ent_of(st).label_ in ("ORG", "PRODUCT", "GPE", "FAC", "LOC") \
                    and not any(c.lower_ in _EVALUATIVE for c in attr.children):
                w.emit(subj, "is_a", _np_text(attr), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(attr.subtree),
                           rule="copular_is_a", conf=0.8)
                return
            return
        # "My name is Dana" handled by attribute path; "I'm Dana" -> name
        if subj.is_speaker and _is_name(attr, ctx) and st.lower_ == "i" and attr.lower_ not in ctx.names - {ctx.speaker.lower()}:
            if _ent_of(attr) is not None and _ent_of(attr).label_ == "PERSON":
                w.emit(subj, "name", _name_text(attr), v=v, pol=pol, tense=tense, tv=tv, value_toks=[attr], is_entity=False,
                           rule="copular_name", past_means_cease=False)
            return
        # "Melanie's daughter is Emma" handled by the attribute path (st = daughter); nothing else here
        if attr.dep_ == "attr" and a_lem in _DIETS:
            w.emit(subj, "diet", a_lem, v=v, pol=pol, tense=tense, tv=tv, value_toks=[attr], rule="copular_diet")
        return
    if acomp is not None:
        a = acomp.lower_
        a_lem = acomp.lemma_.lower()
        # "Ella is seventeen", "I'm forty": the parser makes a word number acomp (:func:`_age_in_words`)
        years = _age_in_words(acomp)
        if years is not None and subj.person and tense != "past":
            w.emit(subj, "age", _fmt_num(years), v=v, pol=pol, tense=tense, tv=tv, value_toks=[acomp],
                   rule="copular_age_words", past_means_cease=False)
            return
        if a in _MARITAL and subj.person:
            w.emit(subj, "marital_status", _MARITAL[a], v=v, pol=pol, tense=tense, tv=tv, value_toks=[acomp], rule="copular_marital")
            for p in _children(acomp, "prep"):
                if p.lower_ in ("to",) and a in ("married", "engaged"):
                    o = _child(p, "pobj")
                    if o is not None and _is_name(o, ctx):
                        w.emit(subj, "spouse" if a == "married" else "fiance", _name_text(o), v=v, pol=pol, tense=tense, tv=tv,
                                   value_toks=list(o.subtree), is_entity=True, rule="copular_spouse")
            return
        if a in _DIETS and subj.person:
            w.emit(subj, "diet", a, v=v, pol=pol, tense=tense, tv=tv, value_toks=[acomp], rule="copular_diet")
            return
        if a in _EMPLOYMENT and subj.person:
            w.emit(subj, "employment_status", _EMPLOYMENT[a], v=v, pol=pol, tense=tense, tv=tv, value_toks=[acomp], rule="copular_employment")
            return
        # "I'm 34 years old"
        if a == "old" and subj.person:
            for c in acomp.children:
                if c.dep_ == "npadvmod" and c.lemma_ == "year":
                    n = _child(c, "nummod")
                    if n is not None:
                        num = word_number(n.text)
                        if num is not None:
                            w.emit(subj, "age", _fmt_num(num), v=v, pol=pol, tense=tense, tv=tv, value_toks=[n, c, acomp],
                                       rule="copular_age", past_means_cease=False)
                            return
        if a == "allergic" and subj.person:
            for x in _children(acomp, "xcomp"):  # "allergic to shellfish" parsed as to-infinitive
                if x.lower_ not in _BAD_OBJECTS:
                    w.emit(subj, "allergy", x.lower_, v=v, pol=pol, tense=tense, tv=tv, value_toks=[x], rule="copular_allergy")
            for p in _children(acomp, "prep"):
                o = _child(p, "pobj")
                if o is not None:
                    for o2 in _conjuncts(o):
                        val, ent = _value_of(o2, ctx)
                        w.emit(subj, "allergy", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o2.subtree), rule="copular_allergy")
            return
        if a in ("fluent", "native") and subj.person:
            for p in _children(acomp, "prep"):
                o = _child(p, "pobj")
                if o is not None:
                    for o2 in _conjuncts(o):
                        w.emit(subj, "speaks", o2.text, v=v, pol=pol, tense=tense, tv=tv, value_toks=[o2], is_entity=False, rule="copular_fluent")
            return
        if a_lem in _KEEN_ADJECTIVES and subj.person:
            for p in _children(acomp, "prep"):
                if p.lower_ in ("about", "on", "with"):
                    o = _child(p, "pobj") or _child(p, "pcomp")
                    if o is not None:
                        for val, ent, toks in pref_values(w, o):
                            w.emit(subj, "likes", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=toks,
                                       is_entity=ent, rule="copular_keen")
            return
        if a_lem in _FEAR_ADJECTIVES and subj.person:
            for p in _children(acomp, "prep"):
                o = _child(p, "pobj")
                if p.lower_ == "of" and o is not None:
                    val, ent = _value_of(o, ctx)
                    w.emit(subj, "fears", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), rule="copular_fear")
            return
        if a_lem == "based":
            location_preps(w, subj, acomp, pol, tense, tv, v=v, rule="based_in")
            return
        if a_lem in ("from", "originally"):
            pass
        # "I'm from Sweden" sometimes lands as acomp? fall through to preps
    for p in preps:
        pl = p.lower_
        o = _child(p, "pobj")
        if o is None:
            continue
        if pl == "from" and subj.person and _is_name(o, ctx):
            w.emit(subj, "origin", _name_text(o), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), is_entity=True,
                       rule="copular_from", past_means_cease=False)
            return
        if pl == "into" and subj.person:
            for val, ent, toks in pref_values(w, o):
                w.emit(subj, "likes", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=toks, is_entity=ent, rule="copular_into")
            return
        # "we have been in Tucson since New Year's", "I've been in Seattle for nine years": a stay
        # counted from a date, or in years, is where one lives (not "I'm in Paris now": a trip)
        if pl == "in" and subj.person and _is_name(o, ctx) and _ent_of(o) is not None \
                and _ent_of(o).label_ == "GPE" and pol == "assert" and _a_stay(w, v, preps):
            w.emit(subj, "lives_in", _name_text(o), v=v, pol=pol, tense="present", tv=tv, value_toks=list(o.subtree),
                   is_entity=True, conf=0.8, rule="been_in_since")
            return
        if pl == "at" and subj.person and _is_name(o, ctx) and _ent_of(o) is not None \
                and _ent_of(o).label_ in ("ORG", "GPE", "PRODUCT", "NORP") and \
                any(c.lower_ in ("now", "currently", "still") for c in v.children):
            w.emit(subj, "employer", _name_text(o), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), is_entity=True,
                       conf=0.8, rule="copular_at_org")
            return


def copular_attribute(w, v, st, attr, acomp, preps, pol, tense, tv) -> None:
    """Copular clause whose subject is an attribute/event/metric noun."""
    ctx = w.ctx
    h = st
    low = h.lower_
    lem = h.lemma_.lower()
    owner, explicit = owner_of(h, ctx)
    if owner is None:
        return
    # "my old address was X" -- a past value
    past_marked = any(c.dep_ == "amod" and c.lower_ in _PAST_MARKERS for c in h.children)
    if past_marked:
        pol = "cease"
    key = attr_key(h)
    if key is None:
        return
    val_tok = attr if attr is not None else acomp
    if val_tok is None:
        for c in v.children:
            if c.i > v.i and c.dep_ in ("npadvmod", "dep", "oprd", "dobj", "appos") and c.pos_ in ("NUM", "PROPN", "NOUN"):
                val_tok = c
                break
    if key == "email":
        em = next((x for x in v.sent if x.like_email), None)
        if em is not None:
            w.emit(owner, "email", em.text, v=v, pol=pol, tense=tense, tv=tv, value_toks=[em], rule="copular_email",
                       past_means_cease=False)
        return
    if key in _PHONE_KEYS and val_tok is not None:
        toks = _number_run(val_tok)
        digits = sum(ch.isdigit() for ch in "".join(x.text for x in toks))
        if key == "number" and not any(c.lower_ in ("phone", "cell", "mobile") for c in h.children) and digits < 7:
            return  # "my number is 12": a number; "my number is 07700 900123": a phone's
        if digits >= 6:
            w.emit(owner, "phone", "".join(x.text for x in toks).lstrip("-"), v=v, pol=pol, tense=tense, tv=tv,
                   value_toks=toks, rule="copular_phone", past_means_cease=False)
        elif key == "phone":  # "My new phone is a Pixel 8": the phone itself, not its number
            toks = [x for x in val_tok.subtree if x.dep_ not in ("det", "poss") and not x.is_punct]
            w.emit(owner, "phone_model", _text(toks), v=v, pol=pol, tense=tense, tv=tv, value_toks=toks,
                   rule="copular_phone_model", past_means_cease=False)
        return
    # date value: "the launch is on May 3", "the deadline is Friday", "my birthday is in June"
    date_tok = None
    if val_tok is not None and w.is_time_tok(val_tok):
        date_tok = val_tok
    else:
        for p in preps:
            p = ctx.alt.get(p.i, p)  # "not on Monday but on Tuesday"
            o = _child(p, "pobj")
            if o is not None and w.is_time_tok(o) and p.lower_ in ("on", "in", "at", "for", "by", "until"):
                if date_tok is None or (w.resolve_time_tok(date_tok, 1) is None and w.resolve_time_tok(o, 1) is not None):
                    date_tok = o  # "at 6am on Friday": the day, not the hour
        if date_tok is None and val_tok is None:
            for c in v.children:
                if c.dep_ in ("npadvmod", "attr", "dobj") and w.is_time_tok(c) and c.i > h.i:
                    date_tok = c
                    break
        if date_tok is None and acomp is not None and acomp.lower_ in _SCHEDULED_ADJECTIVES:
            for c in acomp.children:
                if w.is_time_tok(c):
                    date_tok = c
                    break
                if c.dep_ == "prep":
                    o = _child(c, "pobj")
                    if o is not None and w.is_time_tok(o):
                        date_tok = o
                        break
    akey = date_key(w, h, key, acomp) if date_tok is not None else None
    moved = False
    if akey is not None:
        akey, owner, moved = moved_date(w, akey, owner, v.sent)
    if date_tok is not None and akey is not None:
        direction = -1 if tense == "past" else 1
        tr = w.resolve_time_tok(date_tok, direction)
        entry = w.time_of(date_tok)
        val = tr.iso() if tr is not None else (entry[2] if entry else date_tok.text)
        if low == "birthday" or key == "birthday":
            if tr is not None and tr.grain == "day" and not re.search(r"\d{4}", entry[2] if entry else ""):
                val = tr.start.strftime("--%m-%d")
        vt = entry[0] if entry else {date_tok.i}
        w.emit(owner, akey, val, v=v, pol=pol, tense=tense, tv=tv, state=False, value_toks=[ctx.doc[i] for i in vt],
                   rule="copular_date", conf=1.0, change=moved)
        return
    # number value: "response time is now 250ms", "the budget is $5,000", "my age is 34"
    if val_tok is None:
        cands = list(preps)
        for c in v.children:
            if c.dep_ == "advmod" and c.lower_ in ("down", "up", "back"):
                cands.extend(_children(c, "prep"))  # "the error rate is down to 0.5%"
        for p in cands:
            if p.lower_ in ("at", "around", "about", "to"):
                po = _child(p, "pobj")
                if po is not None and _parse_number(po) is not None:
                    val_tok = po
                    break
    if val_tok is not None and _READING.fullmatch(val_tok.text) and (lem in _METRICS or low in _METRICS):
        # "My blood pressure is 128/82": a reading of two numbers (the small model calls it a DATE)
        if tense == "past" and not w.qualifiers(tv, {val_tok.i}):
            tense = "present"  # "my BP was 128/82 at the check": the latest reading, from then
        w.emit(owner, key, val_tok.text, v=v, pol=pol, tense=tense, tv=tv, value_toks=[val_tok], rule="copular_reading")
        return
    if val_tok is not None:
        num = _parse_number(val_tok)
        if num is not None and (lem in _METRICS or low in _METRICS or key.split("_")[-1] in _METRICS or num[1] is not None
                                or key in ("age", "height", "weight")):
            if lem in _STOP_HEADS and num[1] is None:
                return
            n, unit, ntoks = num
            reading = lem in _READINGS or low in _READINGS
            own_time = w.qualifiers(tv, {x.i for x in ntoks + [val_tok]})
            when = None
            if reading and not own_time:
                # "my A1C was 7.4 in 2022": the date hangs off the number
                found = next(iter(w.qualifiers(tv, set())), None)
                tr = w.resolve_time_tok(found[0], -1 if tense == "past" else 0) if found is not None else None
                when = tr.start if tr is not None else None
            if tense == "past" and pol == "assert" and when is None and not own_time:
                if not reading:
                    return  # "our Q2 revenue was $1.2M": a past measurement; nothing says what it is now
                tense = "present"  # "my A1C was 6.9 at the last check": the latest reading, from then
            w.emit(owner, key, _num_value(n, unit), v=v, pol=pol, tense="present" if when else tense, tv=tv,
                   value_toks=ntoks + [val_tok], unit=unit, number=n, rule="copular_number", conf=1.0,
                   valid_from=when)
            return
    if not explicit:
        return  # "the weather is nice", "the movie was great"
    if val_tok is None:
        return
    rel = relation_key(h)
    if key.startswith("favorite_") or low in _ATTR_NOUNS or lem in _ATTR_NOUNS or rel is not None:
        pass
    elif not (_is_name(val_tok, ctx) and lem not in _STOP_HEADS):
        return
    if lem in _STOP_HEADS and not key.startswith("favorite_"):
        return
    if val_tok.pos_ == "ADJ" and not (key.startswith("favorite_") or "color" in key):
        return
    if val_tok.pos_ == "PRON" or val_tok.lower_ in _BAD_OBJECTS:
        return
    if rel == "pet":
        key = f"has_{_PET_CANON.get(lem, lem)}"
        if not _is_name(val_tok, ctx):
            return
    if key == "name" and owner.is_speaker is False and owner.token is not None and owner.token.dep_ == "poss" and relation_key(owner.token):
        pass
    # "my dog's name is Rex" -> has_dog; "my sister's name is Ana" -> sister
    if key == "name":
        p = _child(h, "poss")
        if p is not None and p.pos_ != "PRON":
            prel = relation_key(p)
            pown = poss_owner(p, ctx)
            if prel is not None and pown is not None:
                key = f"has_{_PET_CANON.get(p.lemma_.lower(), p.lemma_.lower())}" if prel == "pet" else prel
                owner = pown
                explicit = True
    values = _conjuncts(val_tok) if val_tok.dep_ == "attr" else [val_tok]
    for vt in values:
        if vt.like_num and key not in ("age",):
            num = _parse_number(vt)
            if num is not None:
                n, unit, ntoks = num
                w.emit(owner, key, _num_value(n, unit), v=v, pol=pol, tense=tense, tv=tv, value_toks=ntoks,
                           unit=unit, number=n, rule="copular_number")
                continue
        if key in ("email",) or vt.like_email or vt.like_url:
            w.emit(owner, key, vt.text, v=v, pol=pol, tense=tense, tv=tv, value_toks=[vt], rule="copular_attribute")
            continue
        if key == "phone":
            toks = [x for x in vt.subtree if x.dep_ != "punct" or x.text == "-"]
            w.emit(owner, key, _text(toks).replace(" ", ""), v=v, pol=pol, tense=tense, tv=tv, value_toks=toks, rule="copular_attribute")
            continue
        val, ent = _value_of(vt, ctx)
        if key.startswith("favorite_") and not ent:
            val = val.lower()
        w.emit(owner, key, val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(vt.subtree), is_entity=ent,
                   rule="copular_attribute", past_means_cease=True)


def _a_stay(w, v, preps) -> bool:
    """The clause counts its stay from a time or an event ("since 2019", "since
    New Year's") or in years ("for nine years"), and gives it no purpose ("for a
    conference" is a trip)."""
    stay = False
    for p in preps:
        o = _child(p, "pobj")
        if o is None or p.lower_ not in ("since", "for"):
            continue
        if p.lower_ == "since":
            stay = True
        elif o.lemma_.lower() in ("year", "decade"):
            stay = True
        elif not w.is_time_tok(o):
            return False  # "for a conference", "for work"
    return stay


def h_become(w, v, st, pol, tense, tv) -> None:
    copular(w, v, st, pol, "present" if tense in ("past", "perfect") else tense, tv)
