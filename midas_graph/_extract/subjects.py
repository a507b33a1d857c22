"""Who a clause is about: the speaker, the listener, a name, or someone's relation.

The interface the rest of the extractor uses (keep it small):

* :class:`Parties` -- the two people of a conversation turn: ``speaker``,
  ``listener`` (``None`` when unknown) and ``names``, the lower-case names
  and first names that refer to either of them. The walker's context is a
  :class:`Parties`.
* :class:`Subj` -- a resolved subject: ``name`` (the entity claims are about:
  ``"Dana"``, ``"Dana's sister"``, ``"Acme"``), ``is_speaker``, ``conf`` (the
  confidence a claim about it starts from: 1.0 first person, 0.9 a named
  third person or the listener, 0.8 a relation or an implicit owner),
  ``person`` (a person rather than a thing) and ``token`` (the spaCy token
  it was read from, or ``None``).
* :func:`subject_token` -- the token that is the subject of a predicate
  (also the dropped subject of "Moved to Lisbon!", and a conjoined or
  controlling verb's subject).
* :func:`resolve_subject` -- that token as a :class:`Subj`: "I"/"we" -> the
  speaker, "you" -> the listener, "my sister"/"Melanie's daughter" -> a
  relation of its owner, a name -> itself; ``None`` for anything else
  (third-person pronouns are not resolved here).
* :func:`poss_owner` -- the owner of a possessed noun ("*my* dog",
  "*Melanie's* daughter"); :func:`owner_of` -- the owner of an attribute or
  event noun, defaulting to the speaker ("the deadline" is the speaker's).
* :func:`relation_key` -- the relation a noun names ("wife" -> ``spouse``,
  any pet -> ``pet``), from ``schema/extract/people.toml`` and
  ``possessions.toml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Third-person pronoun subjects take the person ``_people`` resolved them to
#: ("My sister Ilse called. She got the job." -> Ilse · ...).
PRONOUN_SUBJECTS = True

from .lexicon import _FIRST, _FRAGMENT_VERBS, _OTHER_PRON, _PETS, _RELATIONS, _SECOND, _STOP_HEADS, _VOCATIVE_OPENERS, LEX
from .tokens import _child, _ent_of, _is_name, _name_text, _np_text, contracted_owner, in_law


class Parties:
    """The speaker and listener of a turn, and the names that refer to them."""

    __slots__ = ("speaker", "listener", "names", "pronouns", "persons")

    def __init__(self, speaker: str, listener: str | None, pronouns: dict[int, str] | None = None,
                 persons: frozenset[str] = frozenset()) -> None:
        self.speaker = speaker
        self.listener = listener
        #: token index -> the person a third-person pronoun refers to (``_people.analyze``)
        self.pronouns = pronouns or {}
        #: lower-case names the conversation has shown to be people ("Karin, our daughter"),
        #: whatever the tagger labels them later ("Karin" GPE)
        self.persons = persons
        names = {speaker.lower()}
        if listener:
            names.add(listener.lower())
        for n in list(names):
            names.add(n.split()[0])
        self.names = names


@dataclass(slots=True)
class Subj:
    name: str
    is_speaker: bool
    conf: float
    person: bool  # a person (speaker, listener, relative) vs a thing
    token: Any = None


def _is_vocative(s) -> bool:
    """ "Hey Nate, my favorite ..." -- the parser makes the addressee a subject."""
    doc = s.doc
    nxt = doc[s.i + 1] if s.i + 1 < len(doc) else None
    if nxt is None or nxt.text != ",":
        return False
    prev = doc[s.i - 1] if s.i > s.sent.start else None
    return prev is None or prev.pos_ == "INTJ" or prev.lower_ in _VOCATIVE_OPENERS


#: A sentence opening with a verb in -ing and no subject ("Joining Globex next
#: month.", "Moving to Leeds in May!") is said by the speaker of themselves, as
#: "I'm joining ..." would be, for the verbs of a change of job or home
#: (``grammar.fragment_verbs``); "Loving the sun" and "Thinking of you" stay unread.
PROGRESSIVE_FRAGMENTS = True


class _Implicit:
    """The dropped subject of a chat fragment ("Moved to Lisbon last week!"): the speaker."""

    lower_ = "i"
    text = "I"
    lemma_ = "I"
    pos_ = "PRON"
    tag_ = "PRP"
    dep_ = "nsubj"
    ent_type_ = ""
    ent_iob_ = "O"
    children = ()
    subtree = ()

    def __init__(self, v):
        self.i = v.i
        self.head = v
        self.doc = v.doc
        self.sent = v.sent
        self.idx = v.idx


def _dropped_subject(v) -> bool:
    """A past-tense fragment that starts the sentence: "Moved to Lisbon!", "Just started at Google!",
    "Got promoted!"; or a progressive one (:data:`PROGRESSIVE_FRAGMENTS`): "Joining Globex next
    month.", "Starting at Aldi in June as assistant manager."."""
    if v.dep_ != "ROOT" or v.lemma_ == "be" or not (
            v.tag_ in ("VBD", "VBN") or v.lower_ in ("got", "quit")
            or PROGRESSIVE_FRAGMENTS and v.tag_ == "VBG" and v.lemma_.lower() in _FRAGMENT_VERBS):
        return False
    if any(c.dep_ in ("aux", "expl", "csubj") or c.dep_ == "auxpass" and c.lower_ not in ("got", "get") for c in v.children):
        return False
    return all(t.pos_ in ("ADV", "INTJ", "PUNCT", "SPACE") or t.dep_ == "auxpass" and t.lower_ in ("got", "get")
               for t in v.doc[v.sent.start:v.i])


def _is_label(t) -> bool:
    """ "Correction: ...", "Update: ...": a heading word the parser made a subject."""
    doc = t.doc
    return t.i + 1 < len(doc) and doc[t.i + 1].text == ":" and t.i == t.sent.start


def subject_token(v):
    s = _child(v, "nsubj", "nsubjpass")
    if s is not None and _is_label(s):
        s = next((c for c in v.children if c.dep_ in ("nsubj", "nsubjpass") and c.i != s.i), None)
    if s is not None:
        if s.pos_ == "PROPN" and _is_vocative(s):
            return None
        return s
    for c in v.children:
        # "Tim works at Meta": the parser sometimes makes a sentence-initial name an npadvmod
        if c.dep_ == "npadvmod" and c.i < v.i and c.i == c.sent.start and c.pos_ == "PROPN" and c.ent_type_ == "PERSON":
            return c
    if v.pos_ == "VERB" and v.tag_ == "VBG" and (owner := contracted_owner(v)) is not None:
        return owner  # "Steph's working at Acme now": the "'s" (is) read as a possessive of the verb
    if _dropped_subject(v):
        return _Implicit(v)
    h = v
    for _ in range(4):
        if h.dep_ in ("conj", "xcomp") and h.head.i != h.i:
            h = h.head
            s = _child(h, "nsubj", "nsubjpass")
            if s is not None:
                return s
            if _dropped_subject(h):  # "sold the Skoda and bought a Honda Jazz": the dropped "I" of both
                return _Implicit(h)
        else:
            break
    return None


def resolve_subject(s, ctx: Parties) -> Subj | None:
    if s is None:
        return None
    low = s.lower_
    if low in _FIRST:
        return Subj(ctx.speaker, True, 1.0, True, s)
    if low in _SECOND:
        if ctx.listener:
            return Subj(ctx.listener, False, 0.9, True, s)
        return None
    if low in _OTHER_PRON:
        # "he"/"she" resolved by the conversation's people (docs/people.md): a person, a
        # little less sure than a name said in the sentence
        name = ctx.pronouns.get(s.i) if PRONOUN_SUBJECTS else None
        if name is None:
            return None
        return Subj(name, False, 0.8, True, s)
    # possessed relation: "my sister", "Melanie's daughter"
    rel = relation_key(s)
    if rel is not None:
        owner = poss_owner(s, ctx) or bare_owner(s, ctx)
        if owner is not None:
            law = in_law(s.doc, s.i)  # "my mother-in-law" is not "my mother"
            word, end = law if law is not None else (s.lower_, None)
            if end is not None and end + 1 < len(s.doc) and s.doc[end].lower_ in ("'s", "\u2019s") \
                    and relation_key(s.doc[end + 1]) is not None:  # "my sister-in-law's husband is ..."
                nxt = s.doc[end + 1]
                return Subj(f"{owner.name}'s {word}'s {nxt.lower_}", False, 0.8, nxt.lower_ not in _PETS, nxt)
            return Subj(f"{owner.name}'s {word}", False, 0.8, s.lower_ not in _PETS, s)
        return None
    if _is_name(s, ctx):
        if low in ctx.names:
            name = ctx.speaker if low in (ctx.speaker.lower(), ctx.speaker.lower().split()[0]) else (ctx.listener or s.text)
            return Subj(name, name == ctx.speaker, 1.0, True, s)
        ent = _ent_of(s)
        # The small model often calls a first name ORG or NORP ("Caroline is a nurse"): a one-word
        # name that is not all capitals counts as a person unless it is clearly a place or a thing.
        person = ent is None or ent.label_ == "PERSON" or (
            ent.label_ in ("ORG", "NORP") and len(ent) == 1 and not s.text.isupper()) or (
            _name_text(s).lower() in ctx.persons)
        return Subj(_name_text(s), False, 0.9, person, s)
    return None


def relation_key(t) -> str | None:
    low = t.lower_
    lem = t.lemma_.lower()
    if low in _RELATIONS:
        return _RELATIONS[low]
    if lem in _RELATIONS:
        return _RELATIONS[lem]
    if lem in _PETS or low in _PETS:
        return "pet"
    return None


#: the relation classes whose words, said bare, are the speaker's ("mum rang")
_KIN_CLASSES = frozenset({"mother", "father", "grandmother", "grandfather", "aunt", "uncle"})
_KIN_CAPITAL_ONLY = LEX.words("people.kin_capital_only")


def bare_owner(t, ctx: Parties) -> Subj | None:
    """The speaker, for a parent, grandparent, aunt or uncle word said with no
    owner and no article ("mum bought a unit", "Mam's hip op", "tia lives in
    Madrid"; "ma" only with a capital);
    else None. Looser than ``_people.KIN_NAMES`` (which the questions and
    pronouns use): no check of the word before it or of its dependency."""
    if _RELATIONS.get(t.lower_) not in _KIN_CLASSES or any(c.dep_ in ("det", "poss") for c in t.children) \
            or (t.lower_ in _KIN_CAPITAL_ONLY and not t.text[:1].isupper()):
        return None
    return Subj(ctx.speaker, True, 0.9, True, None)


def poss_owner(t, ctx: Parties) -> Subj | None:
    p = _child(t, "poss")
    if p is None:
        return None
    low = p.lower_
    if low in ("my", "our", "mine"):
        return Subj(ctx.speaker, True, 1.0, True, p)
    if low in ("your", "ur"):
        return Subj(ctx.listener, False, 0.9, True, p) if ctx.listener else None
    if p.pos_ == "PRON":
        return None
    if p.lower_ in ("law", "laws"):  # "my sister-in-law's husband": the owner is the sister-in-law
        rel = next((p.doc[j] for j in range(max(0, p.i - 4), p.i)
                    if (in_law(p.doc, j) or ("", -1))[1] == p.i + 1 and relation_key(p.doc[j]) is not None), None)
        o2 = poss_owner(rel, ctx) if rel is not None else None
        if o2 is None:
            return None
        return Subj(f"{o2.name}'s {in_law(p.doc, rel.i)[0]}", False, 0.8, True, p)  # type: ignore[union-attr,index]
    if p.pos_ == "NOUN" and relation_key(p) is not None:
        # "my dog's name", "Melanie's daughter's school", "mum's new flat"
        o2 = poss_owner(p, ctx) or bare_owner(p, ctx)
        if o2 is not None:
            return Subj(f"{o2.name}'s {p.lower_}", False, 0.8, p.lower_ not in _PETS, p)
        return None
    if _is_name(p, ctx):
        if p.lower_ in ctx.names:
            name = ctx.speaker if p.lower_ in (ctx.speaker.lower(), ctx.speaker.lower().split()[0]) else (ctx.listener or p.text)
            return Subj(name, name == ctx.speaker, 1.0, True, p)
        return Subj(_name_text(p), False, 0.9, True, p)
    return None


def owner_of(h, ctx: Parties) -> tuple[Subj | None, bool]:
    """Owner of an attribute/event noun: (subject, explicit?). None subject = a pronoun owner we skip."""
    p = _child(h, "poss")
    if p is not None:
        o = poss_owner(h, ctx)
        if o is None and p.pos_ == "NOUN" and relation_key(p) is None and p.lemma_.lower() not in _STOP_HEADS:
            det = _child(p, "det")
            if det is not None and det.lower_ in ("the", "our", "my"):
                # "the app's load time", "our company's headcount": the thing is the subject
                return Subj(_np_text(p), False, 0.8, False, p), True
        return o, True
    for c in h.children:
        if c.dep_ == "compound" and c.i < h.i and not any(ch.isdigit() for ch in c.text) and \
                (_is_name(c, ctx) or c.text.isupper() and len(c.text) > 1 and c.is_alpha):
            return Subj(_name_text(c), c.lower_ in ctx.names and c.lower_ == ctx.speaker.lower(), 0.9, False, c), True
    for c in h.children:
        if c.dep_ == "prep" and c.lower_ in ("of", "for") and c.i > h.i:
            pobj = _child(c, "pobj")
            if pobj is not None and _is_name(pobj, ctx):
                return Subj(_name_text(pobj), False, 0.9, False, pobj), True
    return Subj(ctx.speaker, True, 0.8, True, None), False
