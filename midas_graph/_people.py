"""People in a conversation: who a name, a role or a pronoun refers to.

Mention analysis over the spaCy doc the ingest pipeline already parsed (no
second parse), one episode at a time, with a little state per group carried
from turn to turn (:class:`Tracker`). It finds (docs/people.md has every
rule by example):

* **self-introductions**, names the speaker gives themselves: "I'm Jordan",
  "my name is Hiroshi Tanaka", "call me Hiro", "everyone calls me Zee", "I
  go by AJ", and "teo is fine" in a turn that introduces the speaker;
* **vocatives**, names a turn calls its listener by: "Hey Kate!", "thanks
  Kate", "Nice to meet you, Teo!" (the listener is the group's previous
  other speaker; ingest decides whether the conversation supports the name);
* **a role with a name**, in every order: "my wife Sarah", "my husband,
  Chidi,", "Sarah, my manager,", "Tom — my brother —", "Holly (my best friend
  from uni)", "Churro (lucia's cat)", "ama (grandma)", "Tom is my brother",
  "my brother is Tom", "my cat named Churro"; and across turns: the other
  speaker asks "Who's Ray?" or "Is Dave a colleague?" and the answer is "my
  old roommate from ut" or "My manager, yes."; asked "What are their
  names?" after "my wife and our son", the answer "Emiko and Kenta." pairs
  them in order;
* **role mentions** ("my wife", "Lucia's brother"): a person known by a role
  is an entity, "<owner>'s <role>", whether or not a name is ever given;
* **third-person pronouns** (he, she, him, her, his): the last compatible
  named person of the turn, else of the same speaker's previous turns
  (:data:`PRONOUN_TURNS`). Compatible: a person (a role, a PERSON entity or
  a proper name not tagged as a place or an organisation) whose gender, when
  a role tells it, is the pronoun's. A small, documented coreference, not a
  model: the registry's coreference libraries need weights it does not ship
  (docs/people.md).

Role names follow what extraction makes of "my sister" ("<speaker>'s
sister"); :func:`role_keys` adds the class spelling ("<speaker>'s spouse"
for wife and husband) so that "my hubby" and "my husband" meet.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from typing import Any
from ._extract.casing import Casing, first_name_gender, places
from ._extract.normalize import fold
from ._extract.subjects import _KIN_CAPITAL_ONLY
from ._extract.subjects import _KIN_CLASSES as _KIN_NAME_CLASSES  # one list: what extraction reads bare too
from ._extract.tokens import in_law, name_span
from ._extract.lexicon import _JOBS, LEX

#: Previous turns of the same speaker a pronoun may reach back to.
PRONOUN_TURNS = 3
#: A pronoun with no antecedent in its own turn, in a turn that answers the
#: other speaker's question, is the one person that question named ("Has Nico
#: been to Franklin before?" - "nope first time. hes a chef"), before the
#: speaker's own earlier turns.
QUESTION_PRONOUNS = True
#: A short answer (this many words at most) to the other speaker's closing
#: question mentions the people that question was about: "Want reminders for
#: his physio?" (his: Liam) / "pls. tues 4pm" is a turn about Liam. 0: never.
ANSWER_MENTIONS = 12
#: A pronoun's candidates include a name the group already knows as a person's,
#: whatever the tagger labelled it this time ("Ella" tagged ORG in "I told you
#: Ella was seventeen. She is sixteen", so "she" went to the last PERSON-tagged
#: name, Julie, and Julie got Ella's corrected age).
KNOWN_AS_PERSON = True
#: "Sofia's son was born. His name is Elias": a role a pronoun stands for is
#: named by "his/her name is X".
NAME_OF_PRONOUN = True

# role word -> (class, gender: "f" | "m" | "", a person?)
ROLES: dict[str, tuple[str, str]] = {}
for _c, _words in LEX.table("people.roles").items():  # "wife/f": a role word, its class and gender
    for _word in _words:
        _w, _, _g = _word.partition("/")
        ROLES[fold(_w)] = (_c, _g)
#: Diminutive endings of Spanish and Portuguese role words, and the ending of the
#: word they make smaller (folded): irmãozinho -> irmao, hermanita -> hermana
_DIMINUTIVES = (("zinho", ""), ("zinha", ""), ("ito", "o"), ("ita", "a"))
#: roles that are not people (a pet, a thing): linked to names, never pronoun antecedents
PETS: dict[str, str] = {w: w for w in (
    "dog cat puppy kitten pet bird parrot hamster rabbit bunny fish turtle tortoise horse pony snake "
    "lizard gecko ferret budgie canary cockatiel pup doggo kitty").split()}
PETS.update({"puppy": "dog", "pup": "dog", "doggo": "dog", "kitten": "cat", "kitty": "cat", "bunny": "rabbit",
             "pony": "horse"})
_IN_LAW = re.compile(r"^(mother|father|sister|brother|son|daughter|parents?)[- ]in[- ]laws?$", re.I)
#: adjectives that may stand between a possessor and a role ("my *younger* sister")
_ROLE_ADJ = frozenset("""best old older oldest younger youngest little big baby new former late dear
twin step half favorite favourite beloved lovely amazing sweet wonderful future elder first second
current only eldest middle other own closest close childhood good great""".split())
#: "my" in English and in the languages chat mixes in ("meu irmãozinho", "mi hermana", "meine Oma")
_FIRST_POSS = frozenset({"my", "our", "mine", "meu", "minha", "mi", "mis", "mein", "meine", "mijn"})
_SECOND_POSS = frozenset({"your", "ur", "yo"})
_FEMALE_PRON = frozenset({"she", "her", "hers", "herself"})
_MALE_PRON = frozenset({"he", "him", "his", "himself", "hes", "he's"})
#: words a turn may call its listener by that are not a name
_NOT_NAMES = frozenset("""everyone everybody all guys guy folks team buddy bud dude man mate friend friends
love dear there babe baby honey sweetie sweetheart girl girls boys sir madam maam ma'am doc bro sis fam
god gosh lol omg haha yes no yeah yep ok okay sure well so oh wow hey hi hello thanks thank please sorry
morning evening night afternoon day again too again much lots tons everyone y'all yall you u
btw tho tbh idk lmao rn fyi imo here
""".split()) | frozenset(w for ws in LEX.table("words.said_as").values() for w in ws)  # "my moms bday is ..."
_GREETINGS = ("hey", "hi", "hello", "hiya", "heya", "yo", "thanks", "thank you", "thx", "ty", "cheers",
              "morning", "good morning", "good afternoon", "good evening", "good night", "night", "bye",
              "goodbye", "welcome", "welcome back", "congrats", "congratulations", "nice to meet you",
              "great to meet you", "pleased to meet you", "lovely to meet you", "good to meet you",
              "nice to hear from you", "great to hear from you", "happy birthday", "sorry", "oh", "ah",
              "aw", "aww", "wow", "dear", "okay", "ok", "sure", "of course", "great", "perfect", "noted",
              "got it", "absolutely", "sounds good", "will do", "done")
_GREETING = re.compile(r"^\W*(?:" + "|".join(sorted((re.escape(g) for g in _GREETINGS), key=len, reverse=True))
                       + r")\b[\s,!.]*", re.I)
_NAME_LABELS_NOT_PERSON = frozenset({"GPE", "LOC", "FAC", "DATE", "TIME", "MONEY", "PERCENT", "QUANTITY",
                                     "CARDINAL", "ORDINAL", "LANGUAGE", "LAW", "EVENT", "WORK_OF_ART", "PRODUCT",
                                     "NORP"})
_OPEN = frozenset({",", "—", "–", "-", "--", "(", ":"})
_CLOSE = frozenset({",", "—", "–", "-", "--", ")", ".", "!", "?", ";", ":"})
_YES = frozenset({"yes", "yeah", "yep", "yup", "ya", "yea", "correct", "right", "exactly", "indeed"})
#: A short answer that says yes without the word: "He is, our youngest.",
#: "she is!", "that's right", "sure is", "that's her" (not "he is not", "she's my cousin").
_AFFIRM = re.compile(r"^\W*(?:(?:s?he|they)\s+(?:is|are|was)|that['’]?s\s+(?:right|correct|her|him|them|the one)"
                     r"|sure\s+(?:is|was|are)|mhm+|uh[- ]huh|absolutely|definitely|of course)\s*(?:[,.!;:—–-]|$)", re.I)


#: "Is Aoife your sister?" - "younger sister yeah.": an answer that opens by
#: saying the asked role again (within this many words) and says no "no"
_RESTATE_WITHIN = 3
_NO = frozenset({"no", "nope", "nah", "not", "n't", "never"})


def _restates(sent, role: str) -> bool:
    """Whether an answer opens by saying ``role`` again and denies nothing."""
    words = [t for t in sent if not t.is_punct]
    return any(fold(t.text) == role or fold(t.lemma_) == role for t in words[:_RESTATE_WITHIN]) \
        and not any(t.lower_ in _NO for t in sent)


def role_class(word: str) -> tuple[str, str, bool] | None:
    """(class, gender, a person?) of a role word, or None."""
    w = fold(word)
    if w in ROLES:
        c, g = ROLES[w]
        return c, g, True
    if w.endswith("s") and w[:-1] in ROLES and ROLES[w[:-1]][0] not in ("spouse", "partner", "fiance"):
        c, g = ROLES[w[:-1]]
        return c, g, True
    for end, base_end in _DIMINUTIVES:  # "meu irmãozinho", "mi hermanito", "abuelita"
        if w.endswith(end) and len(w) > len(end) + 2 and (w[:-len(end)] + base_end) in ROLES:
            c, g = ROLES[w[:-len(end)] + base_end]
            return c, g, True
    m = _IN_LAW.match(w)
    if m:
        base = m.group(1).rstrip("s")
        return f"{base}_in_law", ROLES.get(base, ("", ""))[1], True
    if w in PETS:
        return PETS[w], "", False
    return None


#: Kin known only through another ("my mother-in-law" is my wife's mother):
#: a role class -> the role words of the steps that reach it from its owner.
#: The last step of a gendered class is gendered ("my grandson": a child's
#: son); steps of no gender find either ("spouse" finds a wife or husband).
_KIN_STEPS = """
mother_in_law: spouse mother, partner mother, fiance mother
father_in_law: spouse father, partner father, fiance father
brother_in_law: spouse brother, partner brother, sister spouse, sister partner
sister_in_law: spouse sister, partner sister, brother spouse, brother partner
son_in_law: daughter spouse, daughter partner, daughter fiance
daughter_in_law: son spouse, son partner, son fiance
grandchild: son child, daughter child, child child
grandmother: mother mother, father mother
grandfather: mother father, father father
aunt: mother sister, father sister, uncle spouse
uncle: mother brother, father brother, aunt spouse
niece: brother daughter, sister daughter
nephew: brother son, sister son
cousin: aunt child, uncle child
"""
KIN_PATHS: dict[str, list[tuple[str, ...]]] = {
    _c.strip(): [tuple(p.split()) for p in _ps.split(",")]
    for _c, _ps in (row.split(":") for row in _KIN_STEPS.strip().splitlines())}
_GENDERED_CHILD = {"m": "son", "f": "daughter"}


def kin_paths(word: str) -> list[tuple[str, ...]]:
    """The steps that reach the kin a role word names through others
    (:data:`KIN_PATHS`; "grandson" -> son son, daughter son, child son)."""
    cls = role_class(word)
    if cls is None or not cls[2]:
        return []
    paths = KIN_PATHS.get(cls[0], [])
    if cls[0] == "grandchild" and cls[1]:
        paths = [(*p[:-1], _GENDERED_CHILD[cls[1]]) for p in paths]
    elif cls[0] == "cousin":
        paths = [(p[0], c) for p in paths for c in ("son", "daughter", "child")]
    return paths


def kin_through(word: str) -> list[tuple[str, str]]:
    """The other way round, where it names one person: asked someone's
    mother or father ("Nia's mom") when that someone is a spouse or partner,
    the (step, role) pairs that name the same person from the other end:
    ("spouse", "mother-in-law"). Other roles are not read backwards: Tom's
    son is a grandson, but "my grandson" may be another child's."""
    cls = role_class(word)
    if cls is None or cls[0] not in ("mother", "father"):
        return []
    return [(step, f"{cls[0]}-in-law") for step in ("spouse", "partner", "fiance")]


#: A partner word is also found as the one whose parent is the owner's
#: parent-in-law ("nia's mom lol. my MIL." : Nia is my wife, partner or fiancée).
KIN_BELOW = True
_PARTNERS = ("spouse", "partner", "fiance")


def kin_below(word: str) -> list[tuple[str, str]]:
    """The other way round from :data:`KIN_PATHS`'s first step, where it
    names one person: asked "my wife", the (in-law, step) pairs whose
    holder's ``step`` is the owner's in-law ("mother-in-law", "mother"):
    whoever's mother my mother-in-law is, is my spouse. Only for the
    partner words (one person, whom the in-law words reach through); "my
    son" is not read from "X's child is my grandchild" (X may be a
    daughter)."""
    cls = role_class(word)
    if not KIN_BELOW or cls is None or cls[0] not in _PARTNERS:
        return []
    return [(f"{parent}-in-law", parent) for parent in ("mother", "father")]


def told_gender(texts, names) -> str:
    """The gender the pronouns tell of a person in what is said of them
    (:func:`about`: the sentences naming them and the pronoun-led ones after):
    "f" or "m" when only one kind is used ("nia got an offer ... she took it"),
    else ""."""
    said = set()
    for text in texts:
        for w in re.findall(r"[a-z]+", about(text, names).lower()):
            if w in _FEMALE_PRON:
                said.add("f")
            elif w in _MALE_PRON:
                said.add("m")
    return next(iter(said)) if len(said) == 1 else ""


def has_kin(word: str) -> bool:
    """Whether a role word names kin others can reach (:func:`kin_paths`,
    :func:`kin_through`, :func:`kin_below`)."""
    return bool(kin_paths(word) or kin_through(word) or kin_below(word))


def role_name(owner: str, word: str) -> str:
    """The entity name of a role, as extraction spells it: "mateo_a's fiancée"."""
    return f"{owner}'s {word.lower()}"


_ROLE_NAME = re.compile(r"^(?P<owner>.+?)['’]s (?P<role>[^'(]+?)(?: \([fm]\))?$")


def split_role(name: str) -> tuple[str, str] | None:
    """(owner, role word) of a role name whose last word is a known role."""
    m = _ROLE_NAME.match(name.strip())
    if m is None or role_class(m.group("role")) is None:
        return None
    return m.group("owner"), m.group("role")


def role_keys(name: str, *, asked: bool = False) -> list[str]:
    """The spellings a role name is known by: as written, and its class
    with its gender ("Ana's husband" -> "Ana's spouse (m)"; "Ana's
    partner" -> "Ana's partner"). ``asked``: the spellings a question's role
    is looked up under, which also meet a role of the other class spelling
    of the same gender or of none ("my spouse" finds "my wife"; "my
    grandson" never finds "my granddaughter")."""
    parts = split_role(name)
    if parts is None:
        return [name]
    owner, word = parts
    cls = role_class(word)
    out = [name]
    if cls is not None:
        base = f"{owner}'s {cls[0].replace('_', ' ')}"
        out.append(f"{base} ({cls[1]})" if cls[1] else base)
        if asked:
            out.extend([base] if cls[1] else [f"{base} (f)", f"{base} (m)"])
    return list(dict.fromkeys(x for x in out))


def is_person_role(name: str) -> bool:
    parts = split_role(name)
    return parts is not None and bool(role_class(parts[1]) and role_class(parts[1])[2])  # type: ignore[index]


def gender_of(name: str) -> str:
    parts = split_role(name)
    if parts is None:
        return ""
    cls = role_class(parts[1])
    return cls[1] if cls else ""


# -- results ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RoleLink:
    """A role and a name that are one: ``role`` is a role name ("user's
    wife"), ``name`` a name ("Sarah"); ``text`` the sentence that says so."""

    role: str
    name: str
    text: str
    how: str


@dataclass
class People:
    self_names: list[tuple[str, str]] = field(default_factory=list)      # (name, sentence)
    listener_names: list[tuple[str, str]] = field(default_factory=list)  # (name, sentence)
    roles: list[RoleLink] = field(default_factory=list)
    role_mentions: list[str] = field(default_factory=list)                # role names mentioned
    #: names the turn shows to be people without a role of their own ("Zoe and
    #: Zion!!" for "the twins' names?")
    persons: list[str] = field(default_factory=list)
    #: (name, another name they go by, sentence): "everyone calls him Lenny"
    nicknames: list[tuple[str, str, str]] = field(default_factory=list)
    #: token index -> the name a third-person pronoun resolves to
    pronouns: dict[int, str] = field(default_factory=dict)

    def names(self) -> list[str]:
        """Every person name this turn refers to (mentions for ingest)."""
        out = dict.fromkeys(self.role_mentions)
        out.update(dict.fromkeys(self.pronouns.values()))
        out.update(dict.fromkeys(self.persons))
        for r in self.roles:
            out[r.role] = None
            out[r.name] = None
        return list(out)


@dataclass
class _Turn:
    speaker: str
    persons: list[tuple[str, str]]   # (name, gender) in order of mention
    roles: list[str]                 # person role names said with a possessor, in order
    asked: tuple[str, str | None, str] | None = None  # (name, role word or None, kind) a question asks
    asked_names: bool | str = False  # "What are their names?" (the role word: "the twins' names?")
    #: the people its closing question names ("Has Nico been to Franklin before?"), for a
    #: pronoun in the answer ("nope, hes a chef")
    question_persons: list[tuple[str, str]] = field(default_factory=list)
    #: the people its closing question is about, its pronouns resolved ("his physio?")
    question_about: list[str] = field(default_factory=list)
    #: the words it said that are not self-introductions, folded: a name its speaker spoke of
    #: ("saoirse, born oct 30") is someone else when the next turn greets it ("Welcome, Saoirse")
    spoke_of: frozenset[str] = frozenset()


class Tracker:
    """What :func:`analyze` carries from turn to turn in one group: each
    speaker's last turns (for pronouns and for names given for roles) and
    the question the other speaker's last turn asked."""

    def __init__(self) -> None:
        self.turns: dict[str, list[_Turn]] = {}
        self.last: _Turn | None = None
        self.speakers: set[str] = set()  # folded names of the group's speakers (this process)
        #: (listener, name) -> how often a turn called that listener by that name
        self.vocatives: dict[tuple[str, str], int] = {}
        #: lower-case names a role showed to be people ("Karin, our daughter")
        self.persons: set[str] = set()
        #: the capitals the group's turns have shown (names in lower-case turns)
        self.casing = Casing()
        #: speaker -> [(when, place)]: places their turns talked of living in
        #: (``_extract.location.housing_places``), for a move that names none
        self.housing: dict[str, list[tuple[Any, str]]] = {}
        #: speaker -> the last woman their turns said was expecting ("her and Josh are
        #: expecting"): whom a later "She had the baby!" means (:data:`BIRTHS`)
        self.expecting: dict[str, str] = {}

    #: how long talk of a place to live stays a plan a bare "moved!" completes
    HOUSING_DAYS = 180

    def planned(self, speaker: str, at) -> tuple[str, ...]:
        """The places ``speaker`` talked of living in over the last
        :data:`HOUSING_DAYS` before ``at``, oldest first."""
        try:
            floor = at - _dt.timedelta(days=self.HOUSING_DAYS)
        except OverflowError:  # said in the first days of year 1
            floor = _dt.datetime.min.replace(tzinfo=at.tzinfo)
        return tuple(p for t, p in self.housing.get(fold(speaker), ()) if floor <= t <= at)

    def note_housing(self, speaker: str, at, places: list[str], claims) -> None:
        """Remember a turn's housing places; a move the turn stated about its
        speaker ends the plan, a place they said they live in is no plan."""
        key = fold(speaker)
        got = self.housing.setdefault(key, [])
        got.extend((at, p) for p in places)
        for c in claims:
            if c.attribute != "lives_in" or c.polarity != "assert" or fold(c.subject) != key:
                continue
            if (c.rule or "").startswith("move"):
                got.clear()
            else:
                got[:] = [(t, p) for t, p in got if fold(p) != fold(c.value)]
        del got[:-20]

    def previous(self, speaker: str) -> list[_Turn]:
        return self.turns.get(fold(speaker), [])

    def push(self, turn: _Turn) -> None:
        self.speakers.add(fold(turn.speaker))
        past = self.turns.setdefault(fold(turn.speaker), [])
        past.append(turn)
        del past[:-PRONOUN_TURNS]
        self.last = turn


# -- tokens ------------------------------------------------------------------------------

def _is_nameish(t, *, lower_ok: bool, cued: bool = True) -> bool:
    """A token that may be (part of) a person's name. ``cued``: the context
    says a name stands here (a role's apposition, "call me", a greeting), so
    the small model's place and organisation labels on a first name ("Karin"
    GPE) are not believed."""
    if not t.is_alpha and not re.fullmatch(r"[A-Za-z][a-z]*(?:[-'][A-Za-z][a-z]+)*", t.text):
        return False
    low = t.lower_
    if low in _NOT_NAMES or t.is_stop or role_class(low) is not None or len(t.text) < 2:
        return False
    if t.ent_type_ in _NAME_LABELS_NOT_PERSON and not (cued and t.ent_type_ in ("GPE", "NORP", "PRODUCT", "LOC")):
        return False
    if t.text[:1].isupper():
        if cued and t.pos_ not in ("VERB", "AUX", "DET", "PRON", "ADP", "CCONJ", "SCONJ", "NUM", "PART") \
                and not (t.pos_ == "ADV" and low.endswith("ly")):
            return True  # "Pavel — my brother", "Sven and Maja.": the small model tags them ADJ, ADV
        if t.i == t.sent.start and t.pos_ not in ("PROPN",) and t.ent_type_ != "PERSON":
            return False
        return t.pos_ in ("PROPN", "NOUN", "X", "ADJ") or t.ent_type_ == "PERSON"
    return lower_ok and (t.pos_ == "PROPN" or t.ent_type_ == "PERSON")


def _name_at(doc, i: int, *, lower_ok: bool, end: int | None = None) -> tuple[int, int] | None:
    """The name span starting at token i (a run of name tokens, hyphenated
    parts joined: "mei-ling"), or None."""
    end = len(doc) if end is None else end
    if i >= end or not _is_nameish(doc[i], lower_ok=lower_ok):
        return None
    j = i + 1
    while j < end:
        t = doc[j]
        if t.text == "-" and j + 1 < end and not t.whitespace_ and not doc[j - 1].whitespace_ and doc[j + 1].is_alpha:
            j += 2
            continue
        if _is_nameish(t, lower_ok=lower_ok) and (t.text[:1].isupper() == doc[i].text[:1].isupper()):
            j += 1
            continue
        break
    if j - i > 3:
        return None
    return i, j


def _span_text(doc, a: int, b: int) -> str:
    return doc[a:b].text.strip()


@dataclass
class _Role:
    start: int    # first token of the phrase (the possessor, or the role word)
    head: int     # the role word
    end: int      # one past the role word(s)
    owner: str | None
    word: str     # the role word as written, lower case ("fiancée", "mother-in-law")
    person: bool
    gender: str

    @property
    def name(self) -> str:
        return role_name(self.owner or "", self.word)


def _roles(doc, speaker: str, listener: str | None) -> list[_Role]:
    """Role phrases with their owners: "my wife", "our son", "your sister",
    "Lucia's cat", "my best friend". A role without a possessor ("grandma")
    gets owner None."""
    out = []
    n = len(doc)
    i = 0
    while i < n:
        t = doc[i]
        word, end = t.lower_, i + 1
        # "mother-in-law", "sister in law": hyphens are tokens of their own
        if (law := in_law(doc, i)) is not None:
            word, end = law
        cls = role_class(word) if t.pos_ in ("NOUN", "PROPN", "ADJ", "X") or t.is_alpha else None
        if cls is None or t.pos_ in ("VERB", "AUX", "ADP", "DET", "PRON") or (word in ("pa", "ma", "ex", "sis", "bro") and t.pos_ != "NOUN") \
                or _glossed(t) is not None:  # "ama (grandma)": the gloss is the role
            i += 1
            continue
        j = i - 1
        while j >= 0 and (doc[j].lower_ in _ROLE_ADJ or (doc[j].pos_ == "ADJ" and doc[j].lower_ not in ("own",))):
            j -= 1
        owner: str | None = None
        start = i
        if j >= 0:
            p = doc[j]
            if p.lower_ in _FIRST_POSS or (p.lower_ == "me" and (j == 0 or doc[j - 1].pos_ not in (
                    "VERB", "AUX", "ADP"))):  # "me brother", said for "my brother"; not "call me brother"
                owner, start = speaker, j
            elif p.lower_ in _SECOND_POSS:
                if listener is None:  # "your sister" with no one to be "you"
                    i = end
                    continue
                owner, start = listener, j
            elif p.lower_ in ("'s", "’s", "s'") and j >= 1:
                sp = _name_back(doc, j)
                if sp is not None:
                    owner, start = _span_text(doc, *sp), sp[0]
        if owner is None and start == i and THE_SPOUSE and end + 1 < n and doc[end].text in ("(", ",") and (
                (j >= 0 and doc[j].lower_ == "the" and cls[0] in ("spouse", "partner"))
                or ((j < 0 or doc[j].pos_ not in ("DET", "PRON")) and cls[0] in _KIN_NAME_CLASSES)):
            owner, start = speaker, (j if j >= 0 and doc[j].lower_ == "the" else i)  # "the wife (Sarah)", "mum (Carol)"
        if owner is None and start == i and j >= 0 and doc[j].lower_ in ("a", "an", "the", "his", "her", "their", "its"):
            i = end
            continue
        out.append(_Role(start, i, end, owner, word, cls[2], cls[1]))
        i = end
    return out


#: "the wife (Sarah)", "the hubby, Liam,", "mum (Carol)": a spouse said with
#: "the", or a parent word said bare, followed by a name in apposition, is the
#: speaker's and has that name.
THE_SPOUSE = True


def _plural_role(word: str) -> bool:
    """ "siblings", "kids", "parents": a role of several people (one name names none of them):
    a role word that is another role word with an "s", or an irregular plural."""
    low = word.lower()
    return low.endswith("s") and role_class(low) is not None and role_class(low[:-1]) is not None or low in (
        "children", "grandchildren", "folks")


def _name_back(doc, j: int) -> tuple[int, int] | None:
    """The name right before a possessive "'s" at token j."""
    k = j - 1
    if k < 0 or not _is_nameish(doc[k], lower_ok=True) and not (doc[k].pos_ == "PROPN"):
        return None
    a = k
    while a - 1 >= 0 and doc[a - 1].pos_ == "PROPN" and doc[a - 1].text[:1].isupper() == doc[k].text[:1].isupper():
        a -= 1
    return a, k + 1


#: A lower-case word the parser makes the head of a possessed role ("my bf
#: tomás got", "my sis priya is", "my roommate inês is": the role is its
#: compound) is the role's name when the conversation already knows it as a
#: person's or it is spelt like no English word (a letter with a diacritic).
LOWER_NAME_AFTER_ROLE = True
_LOANWORDS = frozenset("café cafés fiancé fiancée fiancés résumé naïve über déjà entrée protégé".split())


def _lower_name_after_role(doc, r: "_Role", tracker: "Tracker", end: int) -> tuple[int, int] | None:
    k = r.end
    if k >= end or r.owner is None or not r.person:
        return None
    t = doc[k]
    if not t.is_alpha or t.text[:1].isupper() or doc[r.head].dep_ != "compound" or doc[r.head].head.i != k \
            or t.pos_ not in ("NOUN", "PROPN") or t.lower_ in _NOT_NAMES or t.is_stop or role_class(t.lower_):
        return None
    known = t.lower_ in tracker.persons
    foreign = any(ord(c) > 127 for c in t.text) and t.lower_ not in _LOANWORDS
    return (k, k + 1) if known or foreign else None


def _describes(doc, a: int) -> bool:
    """Whether the word at token a is a description, not a name: a job word
    ("charge radiographer, my boss")."""
    return doc[a].lower_ in _JOBS or role_class(doc[a].lower_) is not None


def _bounded_after(doc, k: int) -> bool:
    """Whether token k ends a phrase: the end, a closing mark, "and", or a verb
    follows ("'s" read as "is": "my husband Youssef's at Bombardier"), or a
    possessive "'s" and what is theirs ("our daughter saoirse's christening")."""
    return k >= len(doc) or doc[k].text in _CLOSE or doc[k].lower_ in ("and", "&", "who", "btw") \
        or doc[k].pos_ in ("VERB", "AUX") or (  # "my wife Nia just moved"
            doc[k].pos_ == "ADV" and k + 1 < len(doc) and doc[k + 1].pos_ in ("VERB", "AUX")) or (
            doc[k].lower_ in ("'s", "\u2019s") and k + 1 < len(doc)
            and (doc[k + 1].pos_ in ("ADP", "ADV", "ADJ", "VERB", "NOUN") or doc[k + 1].tag_ == "VBG"))


def _closed_role(doc, r: _Role) -> int | None:
    """Where an appositive role phrase closes ("my best friend from uni)",
    "my brother —", "our daughter,"): the index of its closing mark, or
    None when a verb follows it directly ("Hey Jon, my brother got ...")."""
    k = r.end
    depth = 0
    while k < len(doc) and k - r.end < 8:
        t = doc[k]
        if t.text in (")", "—", "–", "--", ",", ";", ".", "!", "?") or (t.text == "-" and t.whitespace_):
            return k
        if t.pos_ in ("VERB", "AUX") and depth == 0 and t.dep_ not in ("amod", "acl"):
            return None
        k += 1
    return k if k >= len(doc) else None


#: Parent, grandparent, aunt and uncle words said as a name, with no owner
#: ("Dad's surgery moved", "Mom said hi", "Papa's op", "then she goes to see
#: tia in madrid"): the speaker's own (KIN_NAMES). Lower case counts too for
#: these; short or common words ("ma", "pop") only with a capital. Such a word
#: is no name of theirs: "what's my aunt's name?" abstains (_context, WHO_IS).
KIN_NAMES = True
#: A capitalised parent, grandparent, aunt or uncle word before a name, with
#: no owner ("Auntie Jo called", "Grandma Rose turns 90", "lunch with Aunt
#: Carmen"), names the speaker's kin; "her Uncle Bob" is someone else's. The
#: title is no part of the name (``_extract.tokens.name_span``).
KIN_TITLES = True
_SOMEONE = LEX.words("people.someone_words")


def _someone_called(doc, k: int, end: int) -> int:
    """Past "a woman", "some nice guy" before "called" / "named" ("my manager is a
    woman called Ruth"): the index of "called"; else ``k`` unchanged."""
    j = k
    if j < end and doc[j].lower_ in ("a", "an", "some", "this"):
        j += 1
    while j < end and doc[j].pos_ == "ADJ" and j - k < 3:
        j += 1
    if j + 1 < end and doc[j].lower_ in _SOMEONE and doc[j + 1].lower_ in ("named", "called"):
        return j + 1
    return k


_KIN_OWNERS = frozenset({"my", "our", "your", "his", "her", "their", "the", "a", "an", "'s", "’s", "this", "that"})


def _glossed(t) -> str | None:
    """The role word that glosses token ``t`` in parentheses right after it
    ("see ama (grandma)": the Hokkien grandmother, not the Spanish amá), or None."""
    doc = t.doc
    if t.i + 3 < len(doc) and doc[t.i + 1].text == "(" and doc[t.i + 3].text == ")":
        cls = role_class(doc[t.i + 2].lower_)
        if cls is not None and cls[2]:
            return doc[t.i + 2].lower_
    return None


def _kin_word_as_name(t) -> bool:
    """Whether token ``t`` is a parent, grandparent, aunt or uncle word used as a name."""
    cls = role_class(t.lower_) if t.is_alpha else None
    if cls is None or cls[0] not in _KIN_NAME_CLASSES:
        return False
    if t.tag_ in ("NNS", "NNPS") or t.lower_.endswith("s") and fold(t.lower_) not in ROLES:
        return False  # "Moms at the school"
    before = t.doc[t.i - 1] if t.i > 0 else None
    if not t.text[:1].isupper():
        if t.lower_ in _KIN_CAPITAL_ONLY and _glossed(t) is None:
            return False  # "ma" without a capital is anything; "ama (grandma)" is kin
        if before is not None and not t.is_sent_start and before.is_alpha \
                and before.pos_ not in ("VERB", "AUX", "ADP", "CCONJ", "SCONJ"):
            return False  # "i called ma" reads; "the school mom" does not
    if any(c.dep_ in ("poss", "det") for c in t.children) or before is not None and before.lower_ in _KIN_OWNERS \
            and before.pos_ != "AUX":  # "what's Dad's job": that 's is "is"
        return False  # "my mom", "her dad", "the dad at pickup": a role with an owner, or anyone's
    return t.dep_ in ("nsubj", "nsubjpass", "poss", "dobj", "pobj", "conj", "ROOT", "appos")


#: "everyone calls him Lenny", "she goes by Bee": another name of the person
#: the pronoun stands for (NICKNAMES).
NICKNAMES = True


def _nicknames(doc, pronouns: dict[int, str]) -> list[tuple[str, str, str]]:
    """(name, nickname, sentence) for "... call(s) him/her X" and "he/she
    goes by X", the pronoun resolved (``pronouns``)."""
    out = []
    for t in doc:
        if t.i not in pronouns or t.lower_ not in ("him", "her", "he", "she"):
            continue
        v = t.head
        at = None
        if t.lower_ in ("him", "her") and v.lemma_.lower() == "call" and t.dep_ in ("dobj", "nsubj", "dative"):
            at = t.i + 1  # "calls him Lenny"
        elif t.lower_ in ("he", "she") and t.dep_ == "nsubj" and v.lemma_.lower() == "go" \
                and v.i + 2 < len(doc) and doc[v.i + 1].lower_ == "by":
            at = v.i + 2  # "she goes by Bee"
        if at is None:
            continue
        sp = _name_at(doc, at, lower_ok=False, end=t.sent.end)
        if sp is None or doc[sp[0]].lower_ in _CALL_ME_NOT:
            continue
        nick = _span_text(doc, *sp)
        if fold(nick) != fold(pronouns[t.i]):
            out.append((pronouns[t.i], nick, t.sent.text.strip()))
    return out


def analyze(doc, speaker: str, listener: str | None, tracker: Tracker | None = None, *,
            agent: bool = False) -> People:
    """The people of one turn (see the module doc). ``tracker`` carries
    state from the group's earlier turns and is updated with this one.
    ``agent``: the speaker is the agent (its "Mom" is not its own mother)."""
    out = People()
    tracker = tracker if tracker is not None else Tracker()
    roles = _roles(doc, speaker, listener)
    by_head = {r.head: r for r in roles}
    seen_links: set[tuple[str, str]] = set()

    def link(role: _Role | str, name: str, sent, how: str) -> None:
        rname = role if isinstance(role, str) else role.name
        if not name or fold(name) in (fold(speaker), fold(listener or "")):
            return
        key = (fold(rname), fold(name))
        if key not in seen_links:
            seen_links.add(key)
            out.roles.append(RoleLink(rname, name, sent.text.strip() if hasattr(sent, "text") else str(sent), how))

    for r in roles:
        if r.owner is not None and r.person:
            out.role_mentions.append(r.name)

    # -- a role with a name, in one sentence
    for r in roles:
        sent = doc[r.head].sent
        n_end = sent.end
        # "my wife Sarah", "my husband, Chidi,", "my cat named Churro", "my brother is Tom"
        if r.owner is not None:
            k = r.end
            how = "apposition"
            if k < n_end and doc[k].text in (",", "—", "–", "--", "-", "("):
                k += 1
            elif k + 1 < n_end and doc[k].lower_ in ("named", "called"):
                k += 1
                how = "named"
            elif k + 1 < n_end and doc[k].lower_ in ("is", "'s", "was") and doc[k - 1].lower_ not in ("'s",):
                k += 1
                k = _someone_called(doc, k, n_end)
                if k < n_end and doc[k].lower_ in ("named", "called"):
                    k += 1
                how = "copula"
            sp = _name_at(doc, k, lower_ok=True, end=n_end)
            if sp is None and how == "apposition" and k == r.end and LOWER_NAME_AFTER_ROLE:
                sp = _lower_name_after_role(doc, r, tracker, n_end)
            if sp is not None and _bounded_after(doc, sp[1]):
                link(r, _span_text(doc, *sp), sent, how)
                continue
        # "Sarah, my manager,", "nico — my brother —", "Holly (my best friend ...)", "ama (grandma)"
        k = r.start - 1
        if k >= sent.start and doc[k].text in _OPEN:
            opener = doc[k].text
            if r.owner is None and opener != "(":
                continue
            if _closed_role(doc, r) is None:
                continue
            sp = _name_back_plain(doc, k, sent.start)
            if sp is not None and opener == "," and _describes(doc, sp[0]):
                # "greg (charge radiographer, my boss)": the name is before the parenthesis
                paren = next((x for x in range(sp[0] - 1, max(sent.start, sp[0] - 5) - 1, -1)
                              if doc[x].text == "("), None)
                sp = _name_back_plain(doc, paren, sent.start) if paren is not None else None
            if sp is not None and not _after_greeting(doc, sp[0], sent.start):
                link(r if r.owner is not None else role_name(speaker, r.word), _span_text(doc, *sp), sent,
                     "apposition")
                continue
        # "Tom is my brother", "Tom's my brother"
        if r.owner is not None and k >= sent.start and doc[k].lower_ in ("is", "'s", "was") and k - 1 >= sent.start:
            sp = _name_back_plain(doc, k, sent.start)
            if sp is not None and sp[0] == sent.start or (sp is not None and doc[sp[0] - 1].is_punct):
                link(r, _span_text(doc, *sp), sent, "copula")

    # -- "Dad's surgery moved": the speaker's father, named by the word
    kin = [t for t in doc if _kin_word_as_name(t)] if KIN_NAMES and not agent else []
    for t in kin:
        link(role_name(speaker, _glossed(t) or t.lower_), t.text, t.sent, "kin name")
    # -- "Auntie Jo called", "Grandma Rose turns 90": the kin word is a title of the speaker's kin
    for t in doc if KIN_TITLES and not agent else ():
        if t.dep_ == "compound" and t.head.i == t.i + 1 and t.head.pos_ == "PROPN" and t.text[:1].isupper() \
                and t.head.text[:1].isupper() and (cls := role_class(t.lower_)) is not None \
                and cls[0] in _KIN_NAME_CLASSES and role_class(t.head.lower_) is None \
                and (t.i == 0 or doc[t.i - 1].lower_ not in _KIN_OWNERS):
            link(role_name(speaker, t.lower_), t.head.text, t.sent, "title")

    # -- self-introductions and vocatives, sentence by sentence
    intro = False
    nick_candidates: list[tuple[str, Any]] = []
    for si, sent in enumerate(doc.sents):
        names, nick = _self_names(doc, sent, first=si == 0)
        for nm in names:
            out.self_names.append((nm, sent.text.strip()))
            intro = True
        nick_candidates.extend((nm, sent) for nm in nick)
        for nm in _vocatives(doc, sent):
            if listener and _supported(tracker, listener, nm, sent.text) and not _spoke_of(tracker, listener, nm):
                out.listener_names.append((nm, sent.text.strip()))
    signed = _signature(doc)
    if signed is not None:
        out.self_names.append(signed)
        intro = True
    if intro:
        out.self_names.extend((nm, s.text.strip()) for nm, s in nick_candidates)

    # -- across turns: the other speaker asked who someone is, or for names
    prev = tracker.last
    third_owner = None  # (token index, person) of an answer's "her husband."
    if prev is not None and fold(prev.speaker) != fold(speaker):
        first = next(iter(doc.sents), None)
        if prev.asked is not None and first is not None:
            asked_name, asked_role, kind = prev.asked
            # "my old roommate from ut", and another's: "nia's mom lol" (Loretta is Nia's mother)
            lead = [r for r in roles if r.owner is not None and r.person and r.head < first.end and (
                r.start <= first.start + 2 or _lead_in(doc, first.start, r.start, asked_name))]
            said = _answer_role(doc, first, asked_name) if kind == "who" and not lead else None
            said_role, said_owner = said if said is not None else (None, None)
            if said_owner is not None:  # "her husband.": whoever she is, not the one asked about
                owned_by = _third_owner(tracker, speaker, said_owner, asked_name)
                if owned_by is not None:
                    link(role_name(owned_by, said_role), asked_name, first, "answer")
                third_owner = (said_owner.i, owned_by)
                said_role = None
            if lead:
                link(lead[0], asked_name, first, "answer")
                # "nia's mom lol. my MIL.": a later sentence that is only a role names the same person
                for sent in list(doc.sents)[1:3]:
                    more = [r for r in roles if r.owner is not None and r.person and sent.start <= r.start
                            and r.head < sent.end and _lead_in(doc, sent.start, r.start, asked_name)
                            and _clause_ends(doc, r.end, sent.end)]
                    if more:
                        link(more[0], asked_name, sent, "answer")
            elif said_role is not None:  # "the girlfriend", "me brother"
                link(role_name(speaker, said_role), asked_name, first, "answer")
            elif asked_role and (kind == "your" or kind.startswith("of:")) and (
                    first[0].lower_ in _YES or _AFFIRM.match(first.text) or _restates(first, asked_role)):
                # "Is Anne your daughter?" / "Is Sam Marc's son?" - "Yes, ..."; "Are Ella and Sam
                # Marc's children?" - "Yes": people, each theirs, not one entity
                whose = speaker if kind == "your" else kind[3:]
                named = [nm.strip() for nm in _NAMES_SPLIT.split(asked_name) if nm.strip()]
                if len(named) == 1:
                    link(role_name(whose, asked_role), named[0], first, "answer")
                else:
                    out.persons.extend(named)
                    # children by the gender their first names tell ("Ella" a daughter), and one
                    # left untold the child: two never share a role name
                    by_gender = _GENDERED_ROLE.get(asked_role)
                    genders = {nm: first_name_gender(nm) for nm in named} if by_gender else {}
                    untold = [nm for nm, g in genders.items() if not g]
                    for nm, g in genders.items():
                        if g or len(untold) == 1:
                            link(role_name(whose, by_gender[g] if g else asked_role), nm, first, "answer")
            else:  # "she's my sister", "he is my manager"
                for r in roles:
                    if r.owner == speaker and r.person and r.head < first.end and any(
                            t.lower_ in _FEMALE_PRON | _MALE_PRON | {"they"} for t in doc[first.start:r.start]):
                        link(r, asked_name, first, "answer")
                        break
        if prev.asked_names and first is not None:
            before = tracker.previous(speaker)
            wanted = before[-1].roles if before else []
            listed = _name_list(doc, first)
            if wanted and len(listed) == len(wanted):
                for rname, nm in zip(wanted, listed):
                    link(rname, nm, first, "answer")
            elif isinstance(prev.asked_names, str) and listed:  # "the twins' names?" / "Zoe and Zion!!"
                if len(listed) == 1:
                    link(role_name(speaker, prev.asked_names), listed[0], first, "answer")
                else:  # several for one role word: people, each theirs, not one entity
                    out.persons.extend(listed)

    # -- pronouns: the last compatible person of this turn, else of the speaker's last turns
    persons: list[tuple[int, str, str]] = []  # (token index, name, gender)
    link_gender = {fold(x.name): gender_of(x.role) for x in out.roles}
    for r in roles:
        if r.owner is not None and r.person:
            persons.append((r.head, r.name, r.gender))
    # "mom called. she got a new job": the speaker's mother
    persons.extend((t.i, role_name(speaker, t.lower_), (role_class(t.lower_) or ("", ""))[1]) for t in kin)
    for ent in doc.ents:
        # a person already known by this name is a person whatever the tagger says
        # ("I told you Ella was seventeen. She is sixteen": Ella tagged ORG)
        if (ent.label_ == "PERSON" or (KNOWN_AS_PERSON and ent.text.lower() in tracker.persons)) \
                and fold(ent.text) not in (fold(speaker), fold(listener or "")):
            span = name_span(ent)  # "mtg w/ Lennart" -> "Lennart"
            nm = re.sub(r"['’]s$", "", span.text).strip()
            persons.append((span.start, nm, link_gender.get(fold(nm), "") or _role_gender(doc, span)))
    for t in doc:
        subj = ("nsubj", "nsubjpass", "dep", "poss")
        if t.pos_ == "PROPN" and t.ent_type_ == "" and (t.dep_ in subj or (  # "Nico and Pablo"
                t.dep_ == "conj" and t.head.pos_ == "PROPN" and t.head.dep_ in subj)) \
                and _is_nameish(t, lower_ok=True, cued=False) and fold(t.text) not in (fold(speaker), fold(listener or "")):
            persons.append((t.i, t.text, link_gender.get(fold(t.text), "")))
    for x in out.roles:  # a role and its name: the name stands for both
        for idx, (i, nm, g) in enumerate(persons):
            if fold(nm) == fold(x.role):
                persons[idx] = (i, x.name, g)
    persons.sort()
    history = [p for turn in tracker.previous(speaker) for p in turn.persons]
    prev_question = (prev.question_persons if prev is not None and fold(prev.speaker) != fold(speaker)
                     else [])
    for t in doc:
        low = t.lower_
        if low not in _FEMALE_PRON and low not in _MALE_PRON:
            continue
        g = "f" if low in _FEMALE_PRON else "m"
        same_sent = [p for p in persons if p[0] < t.i]
        cand = next((nm for _, nm, pg in reversed(same_sent) if pg in ("", g)), None)
        if cand is None and QUESTION_PRONOUNS and prev_question:
            # an answer's pronoun is the one the other speaker's question asked about
            fits = list(dict.fromkeys(nm for nm, pg in prev_question if pg in ("", g)))
            cand = fits[0] if len(fits) == 1 else None
        if cand is None:
            cand = next((nm for nm, pg in reversed(history) if pg in ("", g)), None)
        if cand is not None:
            out.pronouns[t.i] = cand
    if third_owner is not None:
        out.pronouns.pop(third_owner[0], None)
        if third_owner[1] is not None:
            out.pronouns[third_owner[0]] = third_owner[1]
    if NAME_OF_PRONOUN:
        # "Sofia's son was born at 03:40. His name is Elias": the role the pronoun stands for is named
        for t in doc:
            role = split_role(out.pronouns[t.i]) if t.lower_ in ("his", "her") and t.i in out.pronouns else None
            if role is not None and not _plural_role(role[1]) \
                    and t.i + 3 < len(doc) and doc[t.i + 1].lower_ == "name" and doc[t.i + 2].lower_ in ("is", "'s", "’s"):
                sp = _name_at(doc, t.i + 3, lower_ok=True)
                if sp is not None and _bounded_after(doc, sp[1]):
                    link(out.pronouns[t.i], _span_text(doc, *sp), t.sent, "named")
    if BIRTHS and not agent:
        for sent in doc.sents:
            if _EXPECTING.search(sent.text):
                women = [(i, out.pronouns[i]) for i in out.pronouns
                         if sent.start <= i < sent.end and doc[i].lower_ in _FEMALE_PRON]
                women += [(i, nm) for i, nm, g in persons if sent.start <= i < sent.end and g == "f"]
                if women:
                    tracker.expecting[fold(speaker)] = min(women)[1]
        owners = {r.head: r.name for r in roles if r.owner is not None and r.person}
        pronouns = dict(out.pronouns)
        mother = tracker.expecting.get(fold(speaker))
        if mother is not None:  # "She had the baby!": the one who was expecting
            pronouns.update({i: mother for i in pronouns if doc[i].lower_ in _FEMALE_PRON})
        for owner, word, sp, sent in _births(doc, speaker, owners, pronouns):
            link(role_name(owner, word), _span_text(doc, *sp), sent, "birth")
            if fold(owner) == fold(mother or ""):
                tracker.expecting.pop(fold(speaker), None)
    if NICKNAMES:
        out.nicknames.extend(_nicknames(doc, out.pronouns))
    turn = _Turn(speaker, [(nm, g) for _, nm, g in persons] or [], [r.name for r in roles if r.owner == speaker and r.person])
    if SPOKEN_OF_NOT_LISTENER:
        own = {fold(w) for nm, _ in out.self_names for w in nm.split()}
        turn.spoke_of = frozenset(fold(t.text) for t in doc if t.is_alpha) - own
    turn.asked, turn.asked_names = _question(doc, listener)
    sents = list(doc.sents)
    if sents and sents[-1].text.strip().endswith("?"):
        turn.question_persons = [(nm, g) for i, nm, g in persons if i >= sents[-1].start]
        # "Want reminders for his physio?": whom its pronouns stand for, for a short answer's mentions
        turn.question_about = list(dict.fromkeys(
            [nm for nm, _ in turn.question_persons]
            + [nm for i, nm in sorted(out.pronouns.items()) if i >= sents[-1].start]))
    if ANSWER_MENTIONS and prev is not None and fold(prev.speaker) != fold(speaker) and prev.question_about \
            and len([t for t in doc if not t.is_punct and not t.is_space]) <= ANSWER_MENTIONS:
        # "pls. tues 4pm": a short answer is about whom the question it answers was about
        out.persons.extend(nm for nm in prev.question_about
                           if nm.strip() and fold(nm) not in (fold(speaker), fold(listener or "")) and nm not in out.persons)
    # a pronoun-resolved person is the last one spoken of
    if out.pronouns:
        last_i = max(out.pronouns)
        if not persons or persons[-1][0] < last_i:
            turn.persons.append((out.pronouns[last_i], link_gender.get(fold(out.pronouns[last_i]), "")))
    tracker.push(turn)
    tracker.persons.update(x.name.lower() for x in out.roles if is_person_role(x.role))
    tracker.persons.update(n.lower() for n in out.persons)
    return out


#: "My sister had her baby, a girl called Rosa", "She had the baby! Boy, 8lb 2oz,
#: Cooper James": the name given is the mother's child (her daughter or son, by
#: the word "girl" or "boy"; of the speaker for "I" and "we"), so that "my
#: niece" and "my grandson" reach it (:func:`kin_paths`).
BIRTHS = True
_BIRTH = re.compile(r"\b(?:had|delivered|welcomed)\s+(?:her|his|their|our|my|the|a)\s+(?:baby|little\s+one)\b"
                    r"|\bgave\s+birth\b", re.I)
_EXPECTING = re.compile(r"\bpregnant\b|\bdue (?:in|on|date)\b|\bbaby on the way\b|\bhaving a baby\b"
                        r"|\bexpecting(?=\s*(?:[.,!;)]|$|\s+(?:a\s+(?:baby|boy|girl)|twins|again|in|another)\b))", re.I)
_CHILD_WORDS = {"boy": "son", "son": "son", "girl": "daughter", "daughter": "daughter"}
#: capitalised words after a birth that name no child
_BIRTH_NOT_NAMES = frozenset({"baby", "boy", "girl", "born", "mum", "mom", "mother", "dad", "healthy", "little",
                              "congrats", "congratulations", "omg", "finally", "welcome"})


def _births(doc, speaker: str, owners: dict[int, str], pronouns: dict[int, str]):
    """(mother, "son" | "daughter" | "child", name span, sentence) of each
    birth a turn tells and names (:data:`BIRTHS`): the name after "called",
    "named" or "name is", else the first name-like word after the birth in
    its sentence or the next two; the mother is the subject of "had"
    ("I"/"we" the speaker, a role, a resolved pronoun, a name)."""
    sents = list(doc.sents)
    for m in _BIRTH.finditer(doc.text):
        span = doc.char_span(m.start(), m.end(), alignment_mode="expand")
        if span is None:
            continue
        verb = span[0]
        subj = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subj is None or subj.lower_ in ("i", "we"):
            owner = speaker if subj is not None or verb.i == verb.sent.start else None
        else:
            owner = owners.get(subj.i) or pronouns.get(subj.i) or (
                subj.text if subj.pos_ == "PROPN" and _is_nameish(subj, lower_ok=False) else None)
        if owner is None:
            continue
        si = next(k for k, st in enumerate(sents) if st.start <= verb.i < st.end)
        window = [t for st in sents[si:si + 3] for t in st if t.i >= span.end]
        word = next((_CHILD_WORDS[t.lower_] for t in window if t.lower_ in _CHILD_WORDS), "child")
        found = None
        for t in window:
            cue = t.lower_ in ("called", "named") or t.lower_ in ("is", "'s", "’s") and t.i >= 2 \
                and doc[t.i - 1].lower_ == "name"
            if cue and t.i + 1 < len(doc):
                found = _name_at(doc, t.i + 1, lower_ok=True, end=t.sent.end)
                if found is not None:
                    break
        if found is None:
            for t in window:
                if t.text[:1].isupper() and t.lower_ not in _BIRTH_NOT_NAMES and fold(t.text) not in (
                        fold(speaker), fold(owner)) and _is_nameish(t, lower_ok=False, cued=False):
                    found = _name_at(doc, t.i, lower_ok=False, end=t.sent.end)
                    if found is not None:
                        break
        if found is not None:
            yield owner, word, found, doc[found[0]].sent


def _role_gender(doc, ent) -> str:
    """The gender a role word next to a name tells, whoever owns the role:
    "her husband Pete", "his wife, Ana," (the role and the name in apposition
    or side by side): "m", "f" or ""."""
    root = ent.root
    words = [root.head] if root.dep_ == "appos" else []
    k = ent.start - 1
    if k >= 0 and doc[k].is_punct:
        k -= 1
    if k >= 0:
        words.append(doc[k])
    for w in words:
        cls = role_class(w.lower_)
        if cls is not None and cls[1]:
            return cls[1]
    return ""


def _name_back_plain(doc, k: int, floor: int) -> tuple[int, int] | None:
    """The name that ends right before token k (not before ``floor``)."""
    b = k
    a = k - 1
    if a < floor or not _is_nameish(doc[a], lower_ok=True):
        return None
    while a - 1 >= floor and _is_nameish(doc[a - 1], lower_ok=True) and b - a < 3 \
            and doc[a - 1].text[:1].isupper() == doc[a].text[:1].isupper():
        a -= 1
    return a, b


def _after_greeting(doc, a: int, floor: int) -> bool:
    """Whether the name at token a follows a greeting ("Hey Jon, my brother ...")."""
    return a - 1 >= floor and bool(_GREETING.match(doc[floor:a].text)) and not doc[a - 1].is_punct or (
        a - 1 >= floor and doc[a - 1].lower_ in ("hey", "hi", "hello", "thanks", "dear", "yo"))


_INTRO = re.compile(r"(?:^|[,.!?;:—–-]\s*)\W*(?:(?:hi|hello|hey|hiya|heya|ok|okay|so|well|oh|there|all|and|but)\b"
                    r"[\s,!.]*)*(?:i['’]?m|i am)\s+$"
                    r"|^\W*(?:(?:hi|hello|hey|hiya|heya|ok|okay|so|well|oh|there)\b[\s,!.]*)*"
                    r"(?:it['’]?s|this is|here['’]?s)\s+$", re.I)
_NAME_IS = re.compile(r"\b(?:my|the) name['’]?s?\s*(?:is\s+)?$|^\W*name['’]s\s+$|\bmy name is\s+$"
                      r"|^\W*name\s+is\s+$", re.I)  # "Name is Dale Hoffmeier but ..."
_CALL_ME = re.compile(r"\b(?:call|calls|called|calling)\s+me\s+$|\bi go by\s+$|\bgo by\s+$|\bknown as\s+$", re.I)
_NICK_AFTER = re.compile(r"^\s*(?:is|'s|works)\s+(?:fine|ok|okay|good|great|too|also fine|works)\b|^\s*works\b", re.I)
#: the words a self-introduced name follows ("I'm", "I am", "it's", "is", "me", "by", "as")
_CUE_BEFORE = frozenset({"'m", "’m", "m", "im", "am", "'s", "’s", "s", "its", "is", "me", "by", "as", "name"})
_CALL_ME_NOT = frozenset("""back crazy later tomorrow tonight now when if anytime old old-fashioned maybe
whatever lazy paranoid sometime soon""".split())


def _clause_ends(doc, i: int, end: int, allowed: tuple[str, ...] = ()) -> bool:
    """Whether nothing but ``allowed`` words comes between token i and the
    next punctuation (or ``end``)."""
    for t in doc[i:end]:
        if t.is_punct:
            return True
        if t.is_alpha and t.lower_ not in allowed:
            return False
    return True


def _self_names(doc, sent, *, first: bool) -> tuple[list[str], list[str]]:
    """Names a sentence gives its speaker ("I'm Jordan", "call me Hiro"), and
    nickname candidates ("teo is fine") kept only if the turn introduces."""
    out, nick = [], []
    for i in range(sent.start + 1, sent.end):
        if doc[i - 1].lower_ not in _CUE_BEFORE:  # only after "I'm", "is", "me", "by", "as"
            continue
        head = doc[sent.start:i].text + " "
        if i > sent.start and doc[i - 1].whitespace_ == "":
            head = doc[sent.start:i].text
        cue = None
        if _INTRO.match(head):
            cue = "intro"
        elif _NAME_IS.search(head):
            cue = "name"
        elif _CALL_ME.search(head):
            cue = "call"
        if cue is None:
            continue
        if cue == "call" and doc[i].lower_ in _CALL_ME_NOT:
            continue
        sp = _name_at(doc, i, lower_ok=True, end=sent.end)
        t = doc[i]
        plain = t.is_alpha and not t.is_stop and len(t) > 1 and t.lower_ not in _NOT_NAMES and role_class(t.lower_) is None
        if sp is None and cue == "call" and plain and t.pos_ not in ("ADV", "ADP", "DET", "PRON", "VERB", "AUX", "NUM") \
                and (t.pos_ != "ADJ" or _called_by_others(doc[i - 2] if i >= 2 else None)):
            sp = (i, i + 1)  # "the lads call me ocky": others calling me something names me
        if sp is None and cue == "call" and t.is_alpha and t.text[:1].isupper() and role_class(t.lower_) is not None:
            sp = (i, i + 1)  # "my grandchildren call me Mormor": a kin word others call me by is my name
        if sp is None and cue == "intro" and plain and t.pos_ in ("NOUN", "PROPN", "X") and i + 1 < sent.end \
                and doc[i + 1].lower_ in ("btw", "here"):
            sp = (i, i + 1)  # "its mateo btw"
        if sp is None:
            continue
        after = doc[sp[1]] if sp[1] < sent.end else None
        if cue == "intro":
            said = doc[sent.start:i].text.lower()
            if after is not None and after.is_alpha and after.lower_ not in ("btw", "but", "and", "here", "lol", "haha"):
                continue  # "I'm Jordan's mom", "it's Tom who ..."
            if re.search(r"\bi['’]?m\b|\bi am\b", said):
                if t.pos_ != "PROPN" and t.ent_type_ != "PERSON":
                    continue  # "i'm vegetarian", "im home"
            elif not (after is not None and after.lower_ in ("btw", "here")) and t.pos_ != "PROPN":
                continue  # "it's coffee": only "its mateo btw", "it's Tom here"
        out.append(_span_text(doc, *sp))
    # "Katherine here (Kat is fine)", "Hi! Dale here.": a name, then "here", then nothing more
    k = sent.start
    m = _GREETING.match(sent.text)
    if m and m.end() > 0:
        k = next((t.i for t in sent if t.idx - sent.start_char >= m.end()), sent.end)
    sp = _name_at(doc, k, lower_ok=True, end=sent.end)
    if sp is not None and sp[1] < sent.end and doc[sp[1]].lower_ == "here" \
            and all(t.pos_ == "PROPN" for t in doc[sp[0]:sp[1]]) and doc[sp[0]].ent_type_ not in ("FAC", "NORP") \
            and _span_text(doc, *sp).lower() not in places() \
            and _clause_ends(doc, sp[1] + 1, sent.end, ("again", "btw")):
        out.append(_span_text(doc, *sp))
    # "teo is fine", "AJ works too": a nickname, if the turn introduces its speaker
    for i in range(sent.start, sent.end):
        if i == sent.start or doc[i - 1].is_punct or doc[i - 1].lower_ in ("but", "and", "or", "so"):
            sp = _name_at(doc, i, lower_ok=True, end=sent.end)
            if sp is None and doc[i].is_alpha and doc[i].pos_ in ("PROPN", "NOUN", "X") and not doc[i].is_stop:
                sp = (i, i + 1)
            if sp is not None and _NICK_AFTER.match(doc[sp[1]:sent.end].text + " "):
                nick.append(_span_text(doc, *sp))
    return out, nick


_SIGN_OFFS = LEX.words("people.sign_offs")
_SIGN_OFF = re.compile(
    r"(?:^|[.!?\n]\s*)(?:[-–—~]+\s*|(?P<off>(?:"
    + "|".join(sorted((re.escape(w) for w in _SIGN_OFFS), key=len, reverse=True))
    + r")\s*[,.!—–-]*\s+))(?P<name>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?)\s*[.!]?\s*$", re.I)


def _signature(doc) -> tuple[str, str] | None:
    """The name a message is signed with, and its sign-off ("Regards,
    Harold", "Love,\nHal", "- Hal"): a name with a capital at the very end,
    after a sign-off word (``people.sign_offs``) or a dash, opening its
    line or following a sentence's end."""
    text = doc.text
    m = _SIGN_OFF.search(text, max(0, len(text) - 160))  # it ends the message: no need to try every start
    if m is None or not m.group("name")[:1].isupper():
        return None
    span = doc.char_span(m.start("name"), m.end("name"), alignment_mode="expand")
    # where it stands says it is a name, whatever the tagger made of it ("- Hal": VERB)
    if span is None or not all(t.text[:1].isupper() and t.lower_ not in _NOT_NAMES and not t.is_stop
                               and role_class(t.lower_) is None and t.ent_type_ not in _NAME_LABELS_NOT_PERSON
                               for t in span):
        return None
    return span.text, m.group(0).lstrip(".!?\n ").strip()


#: A greeting that comes with learning a name: one such vocative is enough.
_MEETING = re.compile(r"\b(?:nice|great|pleased|lovely|good|glad) to (?:meet|e-?meet) you\b|\bwelcome\b", re.I)


def _supported(tracker: Tracker, listener: str, name: str, sentence: str) -> bool:
    """Whether the conversation supports calling ``listener`` by ``name``:
    the name is not another speaker's, and it is part of the listener's own
    name ("Teo" in "mateo_a", "Mel" of "Melanie"), or comes with a greeting
    that meets someone ("Nice to meet you, Teo!"), or the listener has been
    called by it before (the second time counts)."""
    n, who = fold(name), fold(listener)
    if n == who or n in tracker.speakers:
        return False
    key = (who, n)
    tracker.vocatives[key] = tracker.vocatives.get(key, 0) + 1
    if len(n) >= 3 and n in who:
        return True
    return bool(_MEETING.search(sentence)) or tracker.vocatives[key] >= 2


#: A name the listener's own last turn spoke of is not the listener's ("saoirse,
#: born oct 30" / "Congratulations, Ocky!! Welcome, Saoirse."): a greeting may
#: meet someone the listener brought in.
SPOKEN_OF_NOT_LISTENER = True


def _spoke_of(tracker: Tracker, listener: str, name: str) -> bool:
    before = tracker.previous(listener)
    return bool(before) and all(fold(w) in before[-1].spoke_of for w in name.split())


def _called_by_others(verb_before) -> bool:
    """Whether "call" (the token before "me") has a subject: "the lads call
    me ...", not the imperative "call me crazy"."""
    return verb_before is not None and any(c.dep_ in ("nsubj",) and c.lower_ not in ("you", "u") for c in verb_before.children)


def _vocatives(doc, sent) -> list[str]:
    """Names a sentence calls its listener by: after a greeting at its start
    ("Hey Kate!", "Thanks, Hiro.") or after a comma at its end ("Nice to
    meet you, Teo!")."""
    out = []
    text = sent.text
    m = _GREETING.match(text)
    if m and m.end() > 0:
        # the first token at or after the greeting's end
        k = next((t.i for t in sent if t.idx - sent.start_char >= m.end()), sent.end)
        sp = _name_at(doc, k, lower_ok=False, end=sent.end)
        if sp is not None and (sp[1] >= sent.end or doc[sp[1]].text in (",", "!", ".", "?", "—", "-", ":", ";")
                               or doc[sp[1]].text.startswith(("!", "?"))):
            out.append(_span_text(doc, *sp))
    # "..., Kate!" at the sentence's end
    toks = [t for t in sent if not (t.is_punct and t.text != ",") and not t.is_space]
    if len(toks) >= 3 and toks[-2].text == "," and toks[-1].i not in range(sent.start, sent.start + 1):
        t = toks[-1]
        if _is_nameish(t, lower_ok=False) and t.text[:1].isupper() and not any(
                c.lower_ in _FIRST_POSS for c in sent):
            out.append(t.text)
    return list(dict.fromkeys(out))


_LEAD_INS = LEX.words("people.answer_lead_ins")
_ANSWER_OWNERS = LEX.words("people.answer_owners")


def _lead_in(doc, a: int, b: int, name: str) -> bool:
    """Whether tokens a..b-1 only open an answer: interjections, "she's", the
    asked name itself ("oh lol tessa, my girlfriend")."""
    parts = {fold(w) for w in name.split()}
    return all(t.is_punct or t.is_space or t.lower_ in _LEAD_INS or fold(t.text) in parts for t in doc[a:b])


#: "Who's Dara?" - "her husband.": a role owned by a third-person possessive
#: in the answer is the role of the person the speaker's last turn spoke of
#: (not the one asked about, nor one of the speaker's own roles: the
#: speaker's mother's husband would be "my dad").
THIRD_OWNER_ANSWERS = True
_THIRD_POSS = {"his": "m", "her": "f"}


def _answer_role(doc, sent, name: str) -> tuple[str, Any] | None:
    """The role word of an answer that is only a role said without "my"
    ("The girlfriend.", "me brother, ya", "her husband."), after any
    lead-in, with the token that owns it when it is "his" or "her"; else
    None."""
    toks = [t for t in sent if not (t.is_punct or t.is_space)]
    k = 0
    while k < len(toks) and (toks[k].lower_ in _LEAD_INS or fold(toks[k].text) in {fold(w) for w in name.split()}):
        k += 1
    owner = None
    if k < len(toks) and (toks[k].lower_ in _ANSWER_OWNERS or (THIRD_OWNER_ANSWERS and toks[k].lower_ in _THIRD_POSS)):
        owner = toks[k] if toks[k].lower_ in _THIRD_POSS else None
        k += 1
    # "A former colleague.", "an old friend from uni": the describing words before the role
    while k < len(toks) and toks[k].lower_ in _ROLE_ADJ and k + 1 < len(toks):
        k += 1
    if k >= len(toks):
        return None
    cls = role_class(toks[k].lower_)
    if cls is None or not cls[2]:
        return None
    rest = toks[k + 1:]
    # the role ends the answer, or a short tail follows ("from uni", "lol"); not another's
    # ("a friend of my sister's")
    if len(rest) > 4 or any(t.pos_ in ("VERB", "AUX") for t in rest) or (rest and rest[0].lower_ == "of"):
        return None
    return toks[k].lower_, owner


def _third_owner(tracker: Tracker, speaker: str, owner, asked_name: str) -> str | None:
    """Whom "her"/"his" of an answer to "Who's <asked_name>?" stands for
    (:data:`THIRD_OWNER_ANSWERS`): the last person of that gender, or of none
    told, whom the speaker's last turn spoke of, other than the asked one and
    the speaker's own roles."""
    before = tracker.previous(speaker)
    if not before:
        return None
    g = _THIRD_POSS[owner.lower_]
    for nm, pg in reversed(before[-1].persons):
        parts = split_role(nm)
        mine = (parts and fold(parts[0]) == fold(speaker)) or role_class(nm) is not None  # "my mam", "mam"
        if pg in ("", g) and fold(nm) != fold(asked_name) and not mine:
            return nm
    return None


#: "Who is Bengt, for my notes?": a short tail after a comma asks nothing more
_WHO_IS = re.compile(r"^\W*(?:and\s+|so\s+|wait,?\s+|sorry,?\s+)?who(?:['’]s| is| was| are)\s+(?P<name>[^?,]+?)\s*(?:again)?"
                     r"\s*(?:,[^?,]{1,30})?\?", re.I)
_IS_ROLE = re.compile(r"^\W*(?:[Aa]nd\s+|[Ss]o\s+)?(?:[Ii]s|[Ww]as)\s+(?P<name>[A-Z][\w-]*(?:\s[A-Z][\w-]*)?)\s+"
                      r"(?:(?P<det>your|a|an|the)\s+)?(?P<role>[a-z-]+)(?:\s[^?]*)?\?")
_NAME_RE = r"[A-Z][\w-]*(?:\s[A-Z][\w-]*)?"
_OWNED_ROLE = re.compile(r"^\W*(?:[Aa]nd\s+|[Ss]o\s+)?(?:[Ii]s|[Aa]re|[Ww]as|[Ww]ere)\s+"
                         rf"(?P<names>{_NAME_RE}(?:\s*(?:,|and|&)\s*{_NAME_RE})*)\s+"
                         r"(?P<owner>your|[A-Z][\w-]*['’]s)\s+(?P<role>[a-z-]+)(?:\s[^?]*)?\?")
_NAMES_SPLIT = re.compile(r"\s*(?:,|\band\b|&)\s*")
_SINGULAR = {"children": "child", "grandchildren": "grandchild"}
#: the gendered role words of a role of several children (:func:`first_name_gender`)
_GENDERED_ROLE = {"child": {"m": "son", "f": "daughter"}, "kid": {"m": "son", "f": "daughter"},
                  "grandchild": {"m": "grandson", "f": "granddaughter"},
                  "grandkid": {"m": "grandson", "f": "granddaughter"}}
_ASK_NAMES = re.compile(r"\bwhat(?:['’]s| is| are)\s+(?:their|his|her|(?:your|the) \w+(?:['’]s|s['’]))\s+names?\b"
                        r"|\bwhat (?:are|is) (?:they|he|she) called\b|\bwhat do you call (?:them|him|her)\b"
                        r"|\bwho are they\b", re.I)


def _question(doc, listener: str | None) -> tuple[tuple[str, str | None, str] | None, bool]:
    """What a turn asks about someone, for the next turn of the one it asks:
    "Who's Ray?" -> (Ray, None); "Is Dave a colleague?" -> (Dave, colleague);
    and whether it asks for names ("What are their names?")."""
    asked = None
    names = False
    for sent in doc.sents:
        text = sent.text.strip()
        if not text.endswith("?"):
            continue
        m = _WHO_IS.search(text)
        if m:
            name = m.group("name").strip()
            if name and len(name.split()) <= 3 and name.lower() not in ("that", "this", "it", "he", "she", "they",
                                                                        "you", "there"):
                asked = (name, None, "who")
        # "Is Dave a colleague?", "Is Adaeze family?": whatever the answer calls them
        m = _IS_ROLE.search(text)
        if m and m.group("name").lower() not in ("it", "that", "this", "there", "he", "she", "everything"):
            role = m.group("role").lower() if role_class(m.group("role")) is not None else None
            asked = (m.group("name"), role, "your" if (m.group("det") or "").lower() == "your" else "a")
        # "Are Ella and Sam Marc's children?", "Is Sam Marc's son?", "Are Zoe and Zion your twins?"
        m = _OWNED_ROLE.search(text) if asked is None or asked[2] == "a" else None
        if m and (len(_NAMES_SPLIT.split(m.group("names"))) > 1 or m.group("owner") != "your") \
                and (role_class(m.group("role")) or ("", "", False))[2]:
            word = m.group("role").lower()
            if _plural_role(word):
                word = _SINGULAR.get(word, word[:-1])
            owner = m.group("owner")
            asked = (m.group("names"), word, "your" if owner.lower() == "your" else "of:" + owner[:-2])
        if _ASK_NAMES.search(text):
            # "What are the twins' names?": the role the names are for, when the question says it
            role = next((t.lemma_.lower() for t in sent if t.pos_ == "NOUN"
                         and (role_class(t.lemma_.lower()) or ("", "", False))[2]), None)
            names = role or True
    return asked, names


def _name_list(doc, sent) -> list[str]:
    """The names of a sentence that is a list of names ("Emiko and Kenta."),
    else nothing."""
    out = []
    i = sent.start
    while i < sent.end:
        t = doc[i]
        if t.is_punct or t.lower_ in ("and", "&"):
            i += 1
            continue
        sp = _name_at(doc, i, lower_ok=True, end=sent.end)
        if sp is None:
            return []
        out.append(_span_text(doc, *sp))
        i = sp[1]
    return out


_SENT = re.compile(r"(?<=[.!?])\s+")
_SEGMENT = re.compile(r"\s*(?:[,;:—–]|\s-\s|\b(?:because|but|and|so|which|while|although|though)\b)\s*", re.I)
_ME = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|im|me|my|mine|myself)\b", re.I)
_THIRD = re.compile(r"^\W*(?:he|she|they|his|her|their|him|them)\b", re.I)
#: a sentence that speaks of somebody: a person pronoun, a first person, a capitalised word inside it
_SOMEBODY = re.compile(r"\b(?i:i|i'm|im|me|my|we|our|us|you|your|he|she|they|his|her|their|him|them)\b"
                       r"|(?<=\w )[A-Z][a-z]+")
#: ``about`` carries a person through sentences that speak of nobody.
ABOUT_THROUGH_NEUTRAL = True


def about(text: str, names) -> str:
    """What a turn says about a person who does not speak in it: its
    sentences that name them (``names``: their names and aliases; a role
    name "<speaker>'s mother" is found as "my mother"), and the sentences
    right after one that begin with a third-person pronoun, without their
    parts about the speaker ("Marguerite called. She has run our book club
    for twenty years, because it is my favourite book." -> "Marguerite
    called. She has run our book club for twenty years"). Empty when no
    sentence names them."""
    pats = []
    for n in names:
        parts = split_role(n)
        spelled = f"(?:my|our) (?:\\w+ )?{re.escape(parts[1])}" if parts else re.escape(n)
        pats.append(spelled)
    if not pats:
        return ""
    named = re.compile(r"\b(?:" + "|".join(pats) + r")\b", re.I)
    out, carry = [], False
    for sent in _SENT.split(text):
        hit = bool(named.search(sent))
        if hit or (carry and _THIRD.search(sent)):
            keep = [seg for seg in _SEGMENT.split(sent) if seg and (not _ME.search(seg) or named.search(seg))]
            out.append(" ".join(keep))
            carry = True
        else:
            # "my boyfriend!! sorry. 4 years together in november. he teaches PE": a sentence
            # that speaks of nobody keeps the person in view for the pronoun after it
            carry = carry and ABOUT_THROUGH_NEUTRAL and not _SOMEBODY.search(sent)
    return " ".join(x for x in out if x)
