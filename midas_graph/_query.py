"""What a question is about: its entities, its attribute words, its time.

spaCy only (no LLM). The *focus* of a question is the entities it names
(first person = the asking speaker) and its content words minus those names
("Caroline's favorite color" -> entity Caroline, words {favorite, color});
context assembly abstains when the focus is not grounded in what it found.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from . import _people, _timeexpr

_FIRST = frozenset("i me my mine myself we us our ours".split())
_UNUSED_PIPES = ["parser"]
_NAME_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART"})
_WEAK = frozenset(
    "be have do get go make thing way time kind lot one someone something anything anyone "
    "people person like also really much many good new tell know think say happen "
    "day today tonight week month year moment currently recently lately".split()
)
#: Words that ask what someone said, not what about ("according to", "did he
#: mention", "how does she describe"): the turn that answers seldom holds them.
#: All 10 LoCoMo conversations at DOMINANCE 0.70: false abstain 0.094 -> 0.092,
#: category 5 unchanged.
WEAK_SPEECH = True
_SPEECH = frozenset("accord mention describe share discuss talk".split())
#: A question's time is not what it asks about: the words of a DATE or TIME
#: span ("these days", "last autumn", "the spring") and the parts of a day or
#: week ("in the mornings") are its time (``dates``), not asked words; a
#: reply about coffee "every morning" answers "what do I drink in the mornings".
TIME_NOT_ASKED = True
_TIME_NOUNS = frozenset(
    "morning mornings evening evenings afternoon afternoons night nights noon midnight weekend weekends "
    "weekday weekdays moment season spring summer autumn fall winter".split()
)
#: "What does X do (these days / for a living)?" asks for an occupation: the
#: asked words are those of a job (``do`` alone is a weak word).
_DO_ASKS_JOB = ("job", "work")
#: The words of a place or thing the question names ("Japan", "Lord of the
#: Rings") are asked words too, besides naming an entity: the turn that says
#: Japan fits "How long did Calvin plan to stay in Japan?" better than one
#: that does not, and a trip to Rome fits a question about Barcelona less.
#: Person names are not: every turn of a speaker would match. LoCoMo at 0.70:
#: 0.657 / 0.094 -> 0.670 / 0.093.
PLACE_TERMS = True
_PLACE_LABELS = frozenset({"GPE", "LOC", "FAC", "ORG", "EVENT", "WORK_OF_ART", "PRODUCT", "NORP"})
_PAST_WORDS = re.compile(
    r"\b(used to|before|previous(ly)?|former(ly)?|earlier|originally|at first|history|histor(y|ies)|"
    r"change[ds]?|changing|evolv\w*|no longer|anymore|in the past|back then|last (year|month|week))\b",
    re.I,
)


@dataclass(frozen=True)
class QueryInfo:
    text: str
    names: tuple[str, ...]            # surface names of entities it refers to (speaker for "I")
    terms: tuple[str, ...]            # lemmas of its content words, names excluded
    nouns: tuple[str, ...]            # the nouns among them (what is asked about)
    about_past: bool                  # "used to", "before", an explicit past date, ...
    first_person: bool
    labels: dict = field(default_factory=dict)  # name -> spaCy label
    #: the nouns it takes as given, as written, outside the phrase naming what
    #: it asks for ("What *type* of pizza ... at the *parties*?": parties)
    given: tuple[str, ...] = ()
    #: the given nouns with the word before them that narrows them, as written
    #: ("art show", "hand-painted bowl"): a modifier noun or adjective
    given_pairs: tuple[str, ...] = ()
    #: the calendar spans of the dates it names ("in October 2023", "last week": as of
    #: ``now``, in the past; without ``now`` only dates with a year)
    dates: tuple[tuple[_dt.datetime, _dt.datetime], ...] = ()
    #: the people it asks about by a role, each with its owner, role word and
    #: whether it is loose ("my wife" -> "<speaker>'s wife": (speaker, "wife",
    #: False)); also in ``names``
    roles: dict = field(default_factory=dict)


def analyze(text: str, nlp, *, speaker: str | None = None, now: _dt.datetime | None = None) -> QueryInfo:
    doc = nlp(text, disable=_UNUSED_PIPES)  # no dependency parse needed here: ~25% faster
    names: dict[str, str] = {}
    name_tokens: set[int] = set()
    for ent in doc.ents:
        if ent.label_ in _NAME_LABELS:
            for part in _name_parts(ent):
                names.setdefault(_clean(part.text), ent.label_)
                name_tokens.update(range(part.start, part.end))
    # the month of "in August 2023" is a time, neither a name nor an asked word
    name_tokens.update(t.i for t in doc if t.ent_type_ in ("DATE", "TIME") and t.pos_ == "PROPN")
    for tok in doc:  # proper nouns spaCy did not tag ("Rex", "Apollo")
        if tok.pos_ == "PROPN" and tok.i not in name_tokens and tok.is_alpha and len(tok) > 1:
            span = _propn_span(doc, tok.i)
            names.setdefault(_clean(span.text), "CONCEPT")
            name_tokens.update(range(span.start, span.end))
    # "my wife", "Lucia's brother", "my sister's husband": a person asked about by a role is
    # that person, not its owner (docs/people.md); the role word is no asked word
    roles, role_tokens, owner_tokens = _roles(doc, speaker)
    for rname in roles:
        names[rname] = "PERSON"
    name_tokens.update(role_tokens)
    for owner in {o for o, _, _ in roles.values()}:
        # the owner is asked about only if the question also names it outside its roles
        if owner in names and not any(t.i not in owner_tokens and _clean(t.text).casefold() == owner.casefold()
                                      for t in doc):
            del names[owner]
    who = _WHO_IS.match(text)  # "who's ray again?": the name asked about, in any case
    if who and not any(_clean(who.group(1)).casefold() == n.casefold() for n in names):
        names.setdefault(_clean(who.group(1)), "PERSON")
        name_tokens.update(t.i for t in doc if t.idx >= who.start(1) and t.idx + len(t) <= who.end(1))
    first = any(t.lower_ in _FIRST for t in doc)
    if first and speaker and any(t.lower_ in _FIRST and t.i not in owner_tokens for t in doc):
        names.setdefault(speaker, "PERSON")
    asked_for = _asked_for(doc)
    terms, nouns, given = [], [], []
    if PLACE_TERMS:
        after_prep = {_clean(part.text) for ent in doc.ents for part in _name_parts(ent)
                      if part.start > 0 and doc[part.start - 1].pos_ == "ADP"}
        for name, label in names.items():
            # a place or thing the question asks about ("stay *in Japan*"), not
            # whose it is ("What is Lars allergic to?": the small model calls
            # Lars a PRODUCT, and his name matched every turn that names him)
            if label in _PLACE_LABELS and name in after_prep:
                terms.extend(w.lower() for w in name.split()
                             if w.isalpha() and w.lower() not in nlp.Defaults.stop_words and w.lower() not in terms)
    time_tokens = ({t.i for t in doc if t.ent_type_ in ("DATE", "TIME") or t.lower_ in _TIME_NOUNS}
                   if TIME_NOT_ASKED else set())
    for tok in doc:
        if tok.i in name_tokens or tok.is_stop or not tok.is_alpha or tok.pos_ not in ("NOUN", "VERB", "ADJ", "PROPN", "NUM"):
            continue
        if tok.i in time_tokens or len(tok.text) < 2:
            continue
        lemma = tok.lemma_.lower()
        if lemma not in _WEAK and not (WEAK_SPEECH and lemma in _SPEECH) and lemma not in terms:
            terms.append(lemma)
            if tok.pos_ == "NOUN":
                nouns.append(lemma)
                if tok.i not in asked_for:  # as written: stemmed later like the memory's texts
                    given.append(tok.lower_)     # (spaCy's lemma of "media" is "medium")
    if not terms and _asks_occupation(doc):
        terms.extend(_DO_ASKS_JOB)
        nouns.extend(_DO_ASKS_JOB)
    pairs = [f"{tok.text} {nxt.text}".lower() for tok, nxt in zip(doc, doc[1:])
             if nxt.pos_ == "NOUN" and nxt.lower_ in given and nxt.i not in asked_for
             and tok.pos_ in ("ADJ", "NOUN") and not tok.is_stop and tok.i not in name_tokens
             and tok.lower_ not in _NOT_NARROWING]
    past = bool(_PAST_WORDS.search(text))
    dates = []
    for ent in doc.ents:
        if ent.label_ != "DATE":
            continue
        past = past or (now is not None and _mentions_past_year(ent.text, now))
        # "in October 2023"; "last week", "in January": as of now, in the past
        if now is not None or _YEAR.search(ent.text):
            ref = _resolve_date(ent.text, now or _dt.datetime.now(_dt.timezone.utc))
            if ref is not None:
                dates.append((ref.start, ref.end))
    return QueryInfo(text, tuple(names), tuple(terms), tuple(nouns), past, first, names, tuple(given),
                     tuple(dict.fromkeys(pairs)), tuple(dates), roles)


_WHO_IS = re.compile(r"^\W*who(?:['’]s| is| was)\s+([a-z][\w-]*(?: (?!again\b)[a-z][\w-]*)?)(?:\s+again)?\s*\?*\s*$",
                     re.I)
#: roles whose holder a question may name without the memory having heard of
#: them as a person ("Who is my doctor now?" asks for the name): when the
#: memory knows nobody by the role, the question is about its owner
LOOSE_ROLES = frozenset({"doctor", "dentist", "therapist", "teacher", "coach", "landlord", "mentor", "assistant",
                         "neighbor", "coworker", "roommate", "friend", "cofounder"})
_IDENTITY = re.compile(r"^\W*who(?:['’]s| is| was| are| were)\b|['’]s name\b|\bnames?\b|\bcalled\b|\bnamed\b", re.I)


def owner_instead(info: QueryInfo, roles) -> QueryInfo:
    """``info`` asking about the owners of ``roles`` (role names the memory
    knows nobody by) with the role words as asked words: "Who is my doctor
    now?" with no doctor known is a question about the asker's doctor."""
    from dataclasses import replace

    labels = dict(info.labels)
    terms, nouns = list(info.terms), list(info.nouns)
    for r in roles:
        owner, word, _ = info.roles[r]
        labels.pop(r, None)
        labels.setdefault(owner, "PERSON")
        w = _people.fold(word)
        if w not in terms:
            terms.append(w)
            nouns.append(w)
    kept = {r: v for r, v in info.roles.items() if r not in roles}
    return replace(info, names=tuple(labels), labels=labels, terms=tuple(terms), nouns=tuple(nouns), roles=kept,
                   first_person=info.first_person)


def person_names_out(info: QueryInfo, focus, people=frozenset()) -> QueryInfo:
    """``info`` without the asked words that are the name of a person it
    asks about (``focus``: the entities its names resolved to). The small
    model labels many first names as places or organisations ("Takeshi"
    ORG, "Marguerite" LOC), and a place's words are asked words
    (``PLACE_TERMS``); a person's are not. ``people``: ids of entities a
    people link names (persons whatever their label)."""
    people = {w for e in focus if e.kind in ("PERSON", "PERSON_SPEAKER") or e.id in people
              for n in (e.name, *e.aliases) for w in n.casefold().split()}
    if not people:
        return info
    drop = {w for n in info.names for w in n.casefold().split() if w in people}
    if not drop or not drop & set(info.terms):
        return info
    from dataclasses import replace

    keep = lambda xs: tuple(x for x in xs if x not in drop)  # noqa: E731
    return replace(info, terms=keep(info.terms), nouns=keep(info.nouns), given=keep(info.given))


def nothing_known(roles, asked: dict, speaker: str | None) -> str:
    """The reason a question about unknown people abstains: "Nothing is
    known about your sister" (the asker's own roles in the second person)."""
    said = []
    for r in roles:
        owner, word, _ = asked.get(r, (None, r, False))
        if owner is not None and speaker is not None and owner == speaker:
            said.append(f"your {word}")
        elif owner is not None and speaker is not None and owner.startswith(f"{speaker}'s "):
            said.append(f"your {owner[len(speaker) + 3:]}'s {word}")
        else:
            said.append(r)
    return "Nothing is known about " + " or ".join(said)


def _roles(doc, speaker: str | None) -> tuple[dict[str, tuple[str, str, bool]], set[int], set[int]]:
    """The people a question names by a role ("my wife", "Lucia's brother",
    "my sister's husband"; persons only, not pets), as role names
    (``_people.role_name``) with their owner, role word and whether it is
    loose (asked who holds it, or one of LOOSE_ROLES); the tokens of the
    role phrases, and the tokens of their owners."""
    out: dict[str, tuple[str, str, bool]] = {}
    role_toks: set[int] = set()
    owner_toks: set[int] = set()
    chain: dict[int, str] = {}  # token index of a role word -> its role name (for nested roles)
    for t in doc:
        cls = _people.role_class(t.lower_)
        if cls is None or not cls[2] or t.pos_ in ("VERB", "AUX", "ADP", "DET", "PRON"):
            continue
        j = t.i - 1
        while j >= 0 and (doc[j].lower_ in _people._ROLE_ADJ or doc[j].pos_ == "ADJ"):
            j -= 1
        if j < 0:
            continue
        p = doc[j]
        owner = None
        own = set()
        if p.lower_ in ("my", "our") and speaker:
            owner, own = speaker, {j}
        elif p.lower_ in ("'s", "’s", "s'") and j >= 1:
            prev = doc[j - 1]
            if prev.i in chain:  # "my sister's husband"
                owner = chain[prev.i]
                own = {k for k in range(j - 1, j + 1)}
            elif prev.pos_ == "PROPN" or prev.ent_type_ in ("PERSON", "ORG", "GPE", "NORP"):
                a = prev.i
                while a - 1 >= 0 and doc[a - 1].pos_ == "PROPN":
                    a -= 1
                owner, own = _clean(doc[a:prev.i + 1].text), set(range(a, j + 1))
        if owner is None:
            continue
        rname = _people.role_name(owner, t.lower_)
        if owner in out:  # the owner was itself a role ("my sister's husband")
            del out[owner]
        cls = _people.role_class(t.lower_)
        # "who is my doctor?", "what's my boss's name?": asks who holds the role
        loose = bool(_IDENTITY.search(doc.text)) or (cls is not None and cls[0] in LOOSE_ROLES)
        out[rname] = (owner, t.lower_, loose)
        chain[t.i] = rname
        role_toks.update(range(j + 1, t.i + 1))
        role_toks.update(own)
        owner_toks.update(own)
    return out, role_toks, owner_toks


def _asks_occupation(doc) -> bool:
    """ "What does Emiko do (these days)?", "what do you do for a living": a
    question whose only verb is "do" after "what" and a subject."""
    words = [t.lower_ for t in doc if t.is_alpha]
    if len(words) < 4 or words[0] != "what" or words[1] not in ("does", "do") or "do" not in words[2:]:
        return False  # "what did Caro do yesterday?" asks what happened, not an occupation
    verbs = [t for t in doc if t.pos_ in ("VERB", "AUX")]
    return all(t.lemma_.lower() == "do" for t in verbs)


#: "favorite book" is a book the asker likes best, not a kind of book someone spoke of
_NOT_NARROWING = frozenset({"favorite", "favourite"})
_WH = frozenset({"what", "which", "whose"})
_HOW = frozenset({"many", "much"})
_CATEGORY = frozenset({"kind", "type", "sort", "form", "variety", "genre", "brand", "style"})


def _asked_for(doc) -> set[int]:
    """Token indices of the phrase that names what a question asks for: the
    words after "what" / "which" / "how many" ("which US *state*", "what
    *kind* of *music*")."""
    n = len(doc)
    # "favorite *style* of dance": a kind of something is asked for wherever it stands
    out: set[int] = {t.i for t in doc if t.lemma_.lower() in _CATEGORY and t.i + 1 < n and doc[t.i + 1].lower_ == "of"}
    i = 0
    while i < n:
        t = doc[i]
        start = (t.lower_ in _WH) or (t.lower_ == "how" and i + 1 < n and doc[i + 1].lower_ in _HOW)
        if not start:
            i += 1
            continue
        i += 2 if t.lower_ == "how" else 1
        while i < n and doc[i].pos_ in ("ADJ", "NOUN", "PROPN", "NUM", "PUNCT", "SYM") and doc[i].lower_ != "?":
            out.add(i)
            if (doc[i].lemma_.lower() in _CATEGORY and i + 1 < n and doc[i + 1].lower_ == "of"):
                i += 1  # "kind of": the kind is what follows
            i += 1
    return out


def _name_parts(ent) -> list:
    """The names in an entity span, split at the verbs and lower-case nouns
    the small model sometimes sweeps into a name ("When did [James meet
    Samantha]?", "What event did [John volunteer] at?"): those words are
    asked about, and "John volunteer" names nobody. Only a lower-case word
    splits: the tagger may call a name a verb ("What does Sam like?")."""
    parts, start = [], ent.start
    for tok in ent:
        if tok.text.islower() and tok.pos_ in ("VERB", "AUX", "NOUN"):
            if tok.i > start:
                parts.append(ent.doc[start:tok.i])
            start = tok.i + 1
    if ent.end > start:
        parts.append(ent.doc[start:ent.end])
    return parts


def _propn_span(doc, i: int):
    start = end = i
    while start > 0 and doc[start - 1].pos_ == "PROPN":
        start -= 1
    while end + 1 < len(doc) and doc[end + 1].pos_ == "PROPN":
        end += 1
    return doc[start:end + 1]


def _clean(name: str) -> str:
    name = re.sub(r"['’]s$", "", name.strip())
    return re.sub(r"^(the|a|an)\s+", "", name, flags=re.I)


_DATED = re.compile(r"(?:\d{1,2}\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
                    r"(?:\s+\d{1,2}(?:st|nd|rd|th)?)?,?\s*(?:19|20)\d\d", re.I)


def _resolve_date(text: str, now: _dt.datetime):
    """A date the question names, in the past of ``now``; for a phrase the
    resolver does not know ("the first weekend of October 2023", "the week
    before August 3, 2023"), the month or day with a year inside it."""
    text = re.sub(r",(?=\d)", ", ", text)
    ref = _timeexpr.resolve(text, now, -1)
    if ref is None and (m := _DATED.search(text)):
        ref = _timeexpr.resolve(m.group(0), now, -1)
    return ref


_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def _mentions_past_year(text: str, now: _dt.datetime) -> bool:
    years = [int(y) for y in _YEAR.findall(text)]
    return any(y < now.year for y in years) or bool(re.search(r"\b(ago|last|previous)\b", text, re.I))
