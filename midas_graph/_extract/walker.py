"""The clause walker: sentences -> predicates -> one clause at a time -> a family's handler.

For each sentence of a message that is not a question, :class:`Walker`
finds its predicates (the root and the clauses conjoined with it or
reported by it: "I wanted to tell you I moved"), skips hypothetical and
hedged ones, resolves each clause's subject (:mod:`.subjects`), tense and
polarity (:mod:`.clauses`) and sends it on:

* a copular clause ("be", "become", "remain", ...) to :mod:`.copular`;
* a verb listed in ``schema/extract/verbs.toml`` to its family's handler
  ``h_<name>(w, v, st, pol, tense, tv)`` (``w`` the walker, ``v`` the
  predicate, ``st`` its subject token, ``tv`` the verb whose tense and time
  the claim takes: "started *working* at X" reads the time of "started");
* anything else with a noun subject to the date and metric families
  (:mod:`.events`, :mod:`.metrics`).

A handler states what it read with :meth:`Walker.emit`, which applies the
clause's time (:mod:`.times`), the correction state of the sentence
(:mod:`.corrections`) and the rules every claim obeys (a plan without a date
is not a fact; a past state without a date has ceased).
"""

from __future__ import annotations

import datetime as _dt
import importlib
import re
from typing import Any, Callable, Iterable

from .claims import Claim, Extraction, Mention
from .clauses import _clean_path, _hypothetical, _is_question, _polarity, _verb_tense
from .copular import copular
from .answers import answer
from .corrections import (_CORR_STRONG, _SELF_REPAIR as SELF_REPAIR, bare_correction, contrast, contrast_spans,
                          replaces_text, said_meant, self_repair)
from .events import event_change, named_event
from .lexicon import (LEX, _ANNOUNCE_VERBS, _ASPECT_VERBS, _BAD_OBJECTS, _EVENT_VERBS, _FACT_MARKS, _FIRST,
                      _GLAD_ADJECTIVES, _HYPO_MARKS, _MARITAL, _MENTION_SKIP, _NAMED_EVENT_VERBS, _REPORT_HEADS,
                      _PLAN_VERBS, _REPORT_XCOMP, _SAY_VERBS, _SECOND, _EXCLUSIVE_DIETS)
from .cessation import took_up
from .metrics import metric_change
from .subjects import Parties, Subj, resolve_subject, subject_token
from .standing import standing
from .statements import statement
from .switches import change_cue, leave_guesses
from .times import apply_time, collect_times, is_time_tok, qualifiers, resolve_time_tok, time_of
from .tokens import _attr, _child, _is_name, contracted_owner, name_span


class _Ctx(Parties):
    """What the walk of one message knows: its parties, reference time, time
    expressions, the claims and mentions so far, and the correction state of
    the sentence being read."""

    __slots__ = ("ref", "claims", "mentions", "times", "sent_text",
                 "correction", "replaces_tok", "doc", "used_corr", "contrast_negs", "negated", "alt", "state",
                 "planned", "switched_tok", "plan")

    def __init__(self, doc, speaker: str, listener: str | None, ref: _dt.datetime,
                 pronouns: dict[int, str] | None = None, persons: frozenset[str] = frozenset(),
                 planned: tuple[str, ...] = ()):
        super().__init__(speaker, listener, pronouns, persons)
        self.planned = planned  # places the speaker's last turns talked of moving to (location.py)
        self.doc = doc
        self.ref = ref
        self.claims: list[Claim] = []
        self.mentions: dict[tuple[int, int], Mention] = {}
        self.times: list[tuple[Any, Any]] = []  # (span tokens frozenset, root token, text)
        self.sent_text = ""
        self.correction = False
        self.replaces_tok = None
        self.used_corr = False
        self.contrast_negs: set[int] = set()  # "not" tokens that mark a contrast, not a negated clause
        self.negated: set[int] = set()  # tokens of the constituent a contrast rejects
        self.alt: dict[int, Any] = {}  # rejected constituent -> its replacement ("not on Monday but on Tuesday")
        self.state: dict[str, Any] = {}  # what a family keeps from one sentence to the next ("Got promoted!")
        self.switched_tok = None  # the value a "Y now, not X" replaces (switches.now_not)
        self.plan = False  # reading the complement of "going to", "decided to" (PLANS)


class Walker:
    """Walks one parsed message, clause by clause, and collects its claims and mentions."""

    def __init__(self, doc, speaker: str, listener: str | None, ref: _dt.datetime, prompt: str | None = None,
                 pronouns: dict[int, str] | None = None, persons: frozenset[str] = frozenset(),
                 planned: tuple[str, ...] = ()):
        self.doc = doc
        self.text = doc.text  # a Doc joins its tokens on every .text: families read this
        self.ctx = _Ctx(doc, speaker, listener, ref, pronouns, persons, planned)
        self.prompt = prompt  # the other speaker's previous turn (see answers.py)

    def run(self) -> Extraction:
        ctx = self.ctx
        collect_times(self)
        self.collect_mentions()
        carry_correction = False
        said = said_meant(self)  # "I said X but I meant Y", anywhere in the message
        unparsed: list[str] = []
        statements: list[Claim] = []
        first_answer = True
        for sent in self.doc.sents:
            n_before = len(ctx.claims)
            if _is_question(sent):
                carry_correction = False
                unparsed.append(sent.text.strip())
                first_answer = False
                continue
            ctx.sent_text = sent.text.strip()
            low = sent.text.lower()
            strong = bool(_CORR_STRONG.search(low))
            # a self-repair opening a message ("Scratch that, it's Leeds.") corrects what was said before
            found = SELF_REPAIR.search(sent.text)
            repair = found is not None
            if repair and not ctx.claims and len(re.findall(r"[a-z]+", sent.text[:found.start()].lower())) <= 1:
                strong, repair = True, False
            contrast_spans(self, sent)
            rejected = contrast(self, sent)
            meant = next(((x, y) for yi, (x, y) in said.items() if sent.start <= yi < sent.end), None)
            if meant is not None and rejected is None:
                rejected = meant[0]
            ctx.correction = strong or carry_correction or (rejected is not None)
            ctx.replaces_tok, ctx.switched_tok = rejected, None
            if rejected is not None and not (strong or carry_correction or meant) and change_cue(sent.text):
                # "I live in Lisbon now, not Porto": Porto held until now, it was no mistake
                ctx.correction, ctx.replaces_tok, ctx.switched_tok = False, None, rejected
            ctx.used_corr = False
            for pattern in SENTENCE_PATTERNS:
                pattern(self, sent)
            for v in self.predicates(sent):
                try:
                    self.predicate(v)
                except (IndexError, KeyError, ValueError):  # defensive: odd parses
                    continue
            ctx.claims[:] = leave_guesses(ctx.claims, n_before)
            if first_answer and self.prompt and len(ctx.claims) == n_before:
                answer(self, sent, self.prompt)
            if STANDING and len(ctx.claims) == n_before and not ctx.correction:
                standing(self, sent)  # "I bank with Monzo": last, for what no family read
            first_answer = False
            # "on Monday, scratch that, Tuesday": what this message said is taken back
            repaired = repair and not ctx.correction and self_repair(self, sent, n_before)
            if ctx.correction and len(ctx.claims) == n_before:
                bare_correction(self, sent, meant[1] if meant is not None else None)
            carry_correction = strong and len(ctx.claims) == n_before
            if len(ctx.claims) == n_before and not repaired:
                unparsed.append(ctx.sent_text)
                kept = STATEMENTS and not ctx.correction and statement(self, sent)
                if kept:
                    statements.append(kept)
        claims = self.dedupe(ctx.claims)
        mentions = sorted(ctx.mentions.values(), key=lambda m: (m.start, m.end))
        return Extraction(claims=claims, mentions=mentions, unparsed=[u for u in unparsed if u],
                          statements=statements)

    def dedupe(self, claims: list[Claim]) -> list[Claim]:
        seen = set()
        out = []
        for c in claims:
            key = (c.subject.lower(), c.attribute, str(c.value).lower(), c.polarity)
            if key in seen or (c.value == "" and c.polarity == "assert"):
                continue
            seen.add(key)
            out.append(c)
        return out

    def collect_mentions(self) -> None:
        ctx = self.ctx
        for e in self.doc.ents:
            if e.label_ in _MENTION_SKIP:
                continue
            text = e.text
            start = e.start_char
            if e[0].lower_ == "the":
                start = e[1].idx if len(e) > 1 else start
                text = self.doc.text[start:e.end_char]
            elif name_span(e) is not e:  # "mtg w/ Lennart": a name starts at its first capital
                start = name_span(e).start_char
                text = self.doc.text[start:e.end_char]
            text = re.sub(r"(?:'s|’s)$", "", text)
            if not any(ch.isalnum() for ch in text):  # a dash the small model took for a name
                continue
            ctx.mentions[(start, start + len(text))] = Mention(text, e.label_, start, start + len(text))
        for t in self.doc:
            low = t.lower_
            if low in _FIRST:
                ctx.mentions[(t.idx, t.idx + len(t))] = Mention(ctx.speaker, "PERSON_SPEAKER", t.idx, t.idx + len(t))
            elif low in _SECOND and ctx.listener and t.pos_ == "PRON":
                ctx.mentions[(t.idx, t.idx + len(t))] = Mention(ctx.listener, "PERSON_SPEAKER", t.idx, t.idx + len(t))

    def mention_concept(self, toks: list, name: str) -> None:
        if not toks or not name:
            return
        start = min(t.idx for t in toks)
        end = max(t.idx + len(t) for t in toks)
        for (s, e) in self.ctx.mentions:
            if s < end and start < e:
                return
        self.ctx.mentions[(start, end)] = Mention(name, "CONCEPT", start, end)

    def predicates(self, sent) -> list:
        root = sent.root
        out = []
        seen = set()

        def add(v):
            if v.i in seen:
                return
            seen.add(v.i)
            out.append(v)
            for c in v.children:
                if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX"):
                    add(c)
                elif c.dep_ == "parataxis" and c.pos_ in ("VERB", "AUX"):
                    add(c)
                elif c.dep_ in ("ccomp", "parataxis", "dep", "advcl") and v.pos_ == "INTJ" and c.pos_ in ("VERB", "AUX"):
                    add(c)  # "You work at Google, right." / "Yeah, I moved"
                elif c.dep_ == "ccomp" and c.i > v.i and c.pos_ in ("VERB", "AUX") and c.left_edge.i > 0 and \
                        c.doc[c.left_edge.i - 1].lower_ in ("and", "but", ";"):
                    add(c)  # "X is Friday and Y is Monday" parsed as a ccomp
                elif c.dep_ == "ccomp" and (v.lemma_.lower() in _REPORT_HEADS or
                                            (v.lemma_ == "be" and _child(v, "acomp") is not None and
                                             _child(v, "acomp").lemma_.lower() in _REPORT_HEADS)):
                    add(c)
                elif c.dep_ == "xcomp" and v.lemma_.lower() in ("want", "like", "love") and c.lemma_.lower() in _ANNOUNCE_VERBS:
                    add(c)
                elif c.dep_ == "xcomp" and v.lemma_.lower() in _REPORT_HEADS and c.lemma_.lower() in _REPORT_XCOMP:
                    add(c)
                elif c.dep_ == "advcl" and c.pos_ in ("VERB", "AUX"):
                    mark = _child(c, "mark")
                    if mark is not None and mark.lower_ in _FACT_MARKS and _verb_tense(c) in ("past", "perfect"):
                        add(c)
                    elif mark is not None and mark.lower_ == "so" and c.i > v.i and c.lemma_ == "be" \
                            and _verb_tense(c) == "present" and _child(c, "nsubj") is not None:
                        add(c)  # "I started eating fish again, so I'm pescatarian now": a state that follows
                    elif mark is None and c.i < v.i and v.lemma_.lower() not in _REPORT_HEADS and _child(c, "nsubj") is not None and c.tag_ == "VBD":
                        add(c)
                    elif mark is None and c.i == c.sent.start and c.tag_ == "VBG" and c.lemma_.lower() == "do" \
                            and _child(c, "nsubj") is None:
                        add(c)  # "Doing swimming at the lido instead, it's gentler": the speaker's habit
                elif c.dep_ == "acomp" and c.lemma_.lower() in _GLAD_ADJECTIVES:
                    for cc in c.children:
                        if cc.dep_ in ("xcomp", "ccomp") and cc.lemma_.lower() in _SAY_VERBS:
                            add(cc)
                        elif cc.dep_ == "ccomp":
                            add(cc)
        add(root)
        # Clauses the walk above did not reach because the small parser hung them oddly
        # ("Correction: X is Y" -> acl of "Correction"; "I'm a fan of X - it's great" -> ccomp):
        # any predicate with its own subject whose way up to the root is not hedged.
        for t in sent:
            if t.i in seen or not (t.pos_ in ("VERB", "AUX") or t.lemma_ == "like" and t.dep_ == "ROOT"):
                continue
            if _child(t, "nsubj", "nsubjpass") is None or t.dep_ in ("csubj", "pcomp", "amod", "xcomp", "aux", "auxpass"):
                continue
            if t.dep_ == "relcl":  # judged by the clause of the noun it describes
                if _where_copula(t) and _clean_path(t.head if t.head.pos_ in ("VERB", "AUX") else t.head.head):
                    add(t)
                continue
            if _clean_path(t):
                add(t)
        return out

    def predicate(self, v) -> None:
        if v.pos_ not in ("VERB", "AUX") and not (v.lemma_ == "like" and _child(v, "nsubj") is not None):
            said = _noun_read_verb(v)
            if said is not None:  # "Marisol's living in Denver now": "Marisol is living"
                self.dispatch(v, said[1], said[0], _polarity(v, self.ctx.contrast_negs), "progressive", None)
            return
        if _hypothetical(v):
            return
        # a predicate inside an "if" clause or under a hypothetical head
        h = v
        for _ in range(4):
            if h.dep_ in ("advcl", "ccomp", "conj") and _child(h, "mark") is not None and _child(h, "mark").lower_ in _HYPO_MARKS:
                return
            if h.head.i == h.i:
                break
            h = h.head
        lemma = v.lemma_.lower()
        # "used to live in X", "stopped eating meat", "started working at X", "ended up moving to"
        xc = _child(v, "xcomp")
        if xc is not None and PLANS and _planned(v, xc):
            # "I'm going to move to Leeds in May", "has decided to retire at the end of March"
            self.ctx.plan = True
            try:
                self.clause(xc, subj_tok=subject_token(v), force_tense="future")
            finally:
                self.ctx.plan = False
            return
        if xc is not None and xc.pos_ == "VERB":
            if lemma == "use" and v.tag_ == "VBD":
                self.clause(xc, force_polarity="cease", subj_tok=subject_token(v))
                return
            if lemma in _ASPECT_VERBS:
                if not (lemma == "get" and xc.lemma_ in ("know",)):
                    n = len(self.ctx.claims)
                    # "I started working at Globex last month": it holds now, since then
                    began = lemma in ("start", "begin") and _verb_tense(v) in ("past", "perfect")
                    self.clause(xc, subj_tok=subject_token(v), time_verb=v, force_tense="perfect" if began else None)
                    if lemma in ("start", "begin"):
                        if len(self.ctx.claims) == n:
                            took_up(self, v, xc, "assert")  # "I started running"
                        return
            if lemma in ("stop", "quit") or (lemma == "give" and _child(v, "prt") is not None):
                n = len(self.ctx.claims)
                self.clause(xc, force_polarity="cease", subj_tok=subject_token(v), time_verb=v)
                if len(self.ctx.claims) == n:
                    took_up(self, v, xc, "cease")  # "I've stopped running"
                return
        self.clause(v)

    def clause(self, v, *, force_polarity: str | None = None, subj_tok=None, time_verb=None,
               force_tense: str | None = None) -> None:
        ctx = self.ctx
        if _hypothetical(v):
            return
        st = subj_tok if subj_tok is not None else subject_token(v)
        lemma = v.lemma_.lower()
        pol = force_polarity or _polarity(v, ctx.contrast_negs)
        if time_verb is not None and force_polarity is None:
            p2 = _polarity(time_verb, ctx.contrast_negs)
            if p2 != "assert":
                pol = p2
        tense = _verb_tense(time_verb if time_verb is not None else v)
        if force_polarity == "cease" or force_tense is not None:
            tense = force_tense or "present"
        acomp = _child(v, "acomp") if lemma == "turn" else None
        if (lemma in ("become", "marry") or (acomp is not None and not acomp.like_num)) \
                and tense in ("past", "perfect"):
            tense = "present"  # a change of state that still holds ("I turned vegetarian")
        if st is not None and subj_tok is None:
            others = [c for c in st.children if c.dep_ == "conj" and c.pos_ in ("PROPN", "PRON", "NOUN")
                      and not any(n.dep_ == "neg" for n in c.children)]
            for o in others:
                # "Tom and Anna got married", "My partner and I live in Oslo": one claim per subject
                self.dispatch(v, o, lemma, pol, tense, time_verb)
        self.dispatch(v, st, lemma, pol, tense, time_verb)

    def dispatch(self, v, st, lemma: str, pol: str, tense: str, time_verb) -> None:
        ctx = self.ctx
        args = dict(v=v, st=st, pol=pol, tense=tense, tv=time_verb or v)
        turned_age = lemma == "turn" and any(c.dep_ in ("attr", "acomp") and c.like_num for c in v.children)
        if lemma == "be" or (lemma in ("become", "remain", "stay", "turn", "get") and _child(v, "attr", "acomp") is not None
                             and lemma != "get" and not turned_age) \
                or (lemma == "get" and _child(v, "acomp") is not None and _child(v, "acomp").lower_ in _MARITAL):
            copular(self, **args)
            return
        if st is not None and st.lower_ == "it" and lemma in ("mean",):
            return
        # "we pushed the launch to June", "we moved the launch to May 17", "they have moved the
        # surgery again, to November 7", "the clinic rescheduled my appointment for Tuesday":
        # whoever moves it, the event's owner is the one its noun names, or the speaker
        if st is not None and lemma in _EVENT_VERBS and lemma not in ("be", "get", "take"):
            o = _child(v, "dobj")
            if o is not None and o.pos_ in ("NOUN", "PROPN") and event_change(self, **args, h=o):
                return
        handler = VERBS.get(lemma)
        if handler is not None:
            handler(self, **args)
            return
        self.fallback(**args)

    def fallback(self, v, st, pol: str, tense: str, tv) -> None:
        """A clause no verb handler reads: a date or a measure of a noun
        subject ("the deadline moved to Friday", "latency dropped to 180
        ms"), or a named event ("Apollo launches on May 3"). A handler may
        send a clause it does not read here."""
        ctx = self.ctx
        lemma = v.lemma_.lower()
        args = dict(v=v, st=st, pol=pol, tense=tense, tv=tv)
        # event and metric verbs with a noun subject
        if st is not None and not _is_name(st, ctx) and st.lower_ not in _FIRST | _SECOND:
            if event_change(self, **args):
                return
            if metric_change(self, **args):
                return
        elif st is not None and (st.lower_ in _FIRST or _is_name(st, ctx)):
            if metric_change(self, **args):
                return
        if st is not None and _is_name(st, ctx) and lemma in _NAMED_EVENT_VERBS:
            named_event(self, **args)

    def emit(self, subj: Subj, attribute: str, value, *, v, pol: str, tense: str, tv=None, state: bool = True,
              value_toks: Iterable = (), is_entity: bool = False, conf: float = 1.0, rule: str = "",
              unit: str | None = None, number: float | None = None, past_means_cease: bool = True,
              valid_from=None, direction: int | None = None, change: bool = False) -> None:
        ctx = self.ctx
        if value is None or (isinstance(value, str) and not value.strip() and pol == "assert"):
            return
        if isinstance(value, str):
            value = value.strip().strip("\"'“”").strip()
            if value.lower() in _BAD_OBJECTS:
                return
        attribute = _attr(attribute) if attribute else ""
        if ctx.plan and pol == "assert":
            tense = "future"  # whatever tense a family gives it ("decided to retire": retired)
        if attribute == "diet" and str(value).lower() in _EXCLUSIVE_DIETS:
            change = True  # "I'm pescatarian now": no other such diet holds
        if not attribute and not ctx.correction:
            return
        vt_set = {t.i for t in value_toks}
        if vt_set and ctx.negated and vt_set <= ctx.negated:
            return  # "in Lisbon, not in Porto": Porto is what is rejected
        vf, vt, pol = apply_time(self, tv or v, vt_set, state=state, polarity=pol, eff_tense=tense, direction=direction)
        if valid_from is not None:
            vf = valid_from
        if pol == "assert" and tense == "past" and state and past_means_cease and vt is None and vf is None:
            # "I lived in Hamburg" (simple past of a state): it no longer holds
            pol = "cease"
        if tense == "future" and vf is None and pol == "assert" and state:
            return  # a plan without a date is not a fact
        if tense == "future" and pol == "assert":
            conf *= 0.8
        correction = ctx.correction
        replaces = None
        if correction and ctx.replaces_tok is not None:
            replaces = replaces_text(self, ctx.replaces_tok, attribute)
            if replaces is not None and str(replaces).lower() == str(value).lower():
                replaces = None
        claim = Claim(
            subject=subj.name, attribute=attribute, value=value, text=ctx.sent_text,
            valid_from=vf, polarity=pol, correction=correction, replaces=replaces,
            subject_is_speaker=subj.is_speaker, value_is_entity=is_entity,
            confidence=round(min(subj.conf, 1.0) * conf, 3), valid_to=vt, unit=unit, number=number, rule=rule,
            change=change and pol == "assert")
        ctx.claims.append(claim)
        if correction:
            ctx.used_corr = True
        if subj.token is not None and not subj.is_speaker and subj.token.lower_ not in _FIRST | _SECOND:
            self.mention_concept([subj.token], subj.name)
        if is_entity and value_toks:
            self.mention_concept(list(value_toks), str(value))

    def subject(self, st) -> Subj | None:
        return resolve_subject(st, self.ctx)

    # -- time expressions (see times.py), as methods for the families
    def is_time_tok(self, t) -> bool:
        return is_time_tok(self, t)

    def time_of(self, t):
        return time_of(self, t)

    def resolve_time_tok(self, t, direction: int, text: str | None = None):
        return resolve_time_tok(self, t, direction, text)

    def qualifiers(self, v, value_toks: set, *, share: bool = True):
        return qualifiers(self, v, value_toks, share=share)


def _where_copula(v) -> bool:
    """ "The dental office where she's a hygienist has lost two girls": a
    "where" clause of "be" with a subject of its own and a noun after it says
    what that subject is, whatever the sentence goes on to say."""
    adv = _child(v, "advmod")
    return v.lemma_ == "be" and adv is not None and adv.lower_ == "where" and adv.i < v.i \
        and _child(v, "attr") is not None


def _noun_read_verb(v):
    """``(lemma, subject)`` when the tagger read "<name>'s <verb>ing" as a
    possessive and a noun ("Marisol's living in Denver now": "living" a noun
    Marisol owns) and the "-ing" word is a verb of a handler; else None."""
    if v.pos_ != "NOUN" or v.dep_ != "ROOT" or not v.lower_.endswith("ing") or len(v) < 6:
        return None
    st = contracted_owner(v)
    if st is None:
        return None
    stem = v.lower_[:-3]
    for lemma in (stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else None):
        if lemma and lemma in VERBS:
            return lemma, st
    return None


def _verb_table() -> dict[str, Callable[..., None]]:
    """verb lemma -> handler, from schema/extract/verbs.toml."""
    out: dict[str, Callable[..., None]] = {}
    for family, handlers in LEX.raw("verbs.handlers").items():
        module = importlib.import_module(f".{family}", __package__)
        for name, lemmas in handlers.items():
            fn = getattr(module, f"h_{name}")
            for lemma in lemmas:
                if lemma in out:
                    raise ValueError(f"schema/extract/verbs.toml: {lemma!r} has two handlers")
                out[lemma] = fn
    return out


def _sentence_patterns() -> list[Callable[..., None]]:
    """The sentence-level patterns of schema/extract/verbs.toml, in order."""
    out = []
    for name in LEX.ordered("verbs.sentence_patterns"):
        family, _, fn = name.partition(".")
        out.append(getattr(importlib.import_module(f".{family}", __package__), fn))
    return out


VERBS = _verb_table()
#: read a standing relation from a sentence nothing else read (standing.py)
STANDING = True
#: A sentence no family read is kept whole as a ``said`` claim of the speaker's
#: when it states something (:mod:`.statements`).
STATEMENTS = True
SENTENCE_PATTERNS = _sentence_patterns()
#: A complement said as a plan ("I'm going to move to Leeds in May", "gonna be
#: a pharmacy resident", "has decided to retire at the end of March",
#: ``grammar.plan_verbs``) is read as "will" would say it: kept with a future
#: date, no fact without one.
PLANS = True


def _planned(v, xc) -> bool:
    """Whether ``xc`` is the "to" complement of a plan verb ``v`` that states a
    plan still held: "I'm going to", "we've decided to", "I plan to"; not "I was
    going to", "I was planning to", "I'm not going to", "decided not to"."""
    lemma = v.lemma_.lower()
    if lemma not in _PLAN_VERBS or xc.pos_ not in ("VERB", "AUX"):
        return False
    if not any(c.dep_ == "aux" and c.tag_ == "TO" for c in xc.children):
        return False
    if any(c.dep_ == "neg" for c in (*v.children, *xc.children)):
        return False
    auxes = [c for c in v.children if c.dep_ in ("aux", "auxpass")]
    if any(a.tag_ == "VBD" for a in auxes):
        return False  # "I was going to move", "we were planning to"
    if lemma == "go":
        return v.tag_ == "VBG" and any(a.lemma_ == "be" for a in auxes)
    return lemma == "decide" or v.tag_ != "VBD"  # "I planned to move in May": not said to hold
