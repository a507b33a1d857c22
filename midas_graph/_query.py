"""What a question is about: its entities, its attribute words, its time.

spaCy only (no LLM). The *focus* of a question is the entities it names
(first person = the asking speaker) and its content words minus those names
("Caroline's favorite color" -> entity Caroline, words {favorite, color});
context assembly abstains when the focus is not grounded in what it found.
"""

from __future__ import annotations

import datetime as _dt
import functools
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
    r"\b(used to|use to|before|previous(ly)?|former(ly)?|earlier|originally|initially|at first|history|histor(y|ies)|"
    r"change[ds]?|changing|evolv\w*|no longer|anymore|in the past|back then|last (year|month|week))\b",
    re.I,
)
#: Asking for the values that held before the current one ("where did I use
#: to live?", "what did I do previously?", "where did I live before?").
_EARLIER = re.compile(r"\b(used to|use to|previously|formerly|in the past|back then|no longer|anymore|"
                      r"before(?=\s*[?.!]*\s*$))", re.I)
#: Asking for the first value ("originally", "at first", "first planned").
_FIRST_ORDER = re.compile(r"\b(originally|initially|at first|in the beginning|at the start|to begin with)\b", re.I)
#: A question about the future places a bare month or weekday ahead ("When
#: will I fly in December?"); otherwise behind ("in March": the last one).
_FUTURE_Q = re.compile(r"\b(will|going to|gonna|upcoming|next|coming)\b|'ll\b", re.I)
_AUX = frozenset("did do does was were is are will would has have had can could should shall am".split())
_SPEAKER_WORDS = frozenset("i me my mine we us our".split())
_OTHER_WORDS = frozenset("he him his she her they them their".split())


@dataclass(frozen=True)
class TimeAnchor:
    """A time the question names by an event ("before we moved to Bristol",
    "when I worked at Dell", "before Pittsburgh"): placed later through the
    memory's own beliefs (``_asked``)."""

    relation: str                    # "before" | "after" | "during"
    text: str                        # the words after the connective, as written
    names: tuple[str, ...] = ()      # the question's names inside it
    words: tuple[str, ...] = ()      # lemmas of its content words (names too, lower case)
    subject: str | None = None       # "speaker" (I, we), "other" (she, they), None ("before Pittsburgh")
    first: bool = False              # "when I *first* started at X": the start of the interval
    ending: bool = False             # "before I left X": the end of the interval
    starting: bool = False           # "when I joined X", "when I started at X": its start


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
    #: the events it names a time by ("before we moved to Bristol", "when I worked at Dell")
    anchors: tuple[TimeAnchor, ...] = ()
    #: "earlier" (used to, previously), "first" (originally, at first) or None
    order: str | None = None
    #: per date, the word that bounds it ("before May 2020": "before"; "after",
    #: "since", "until"), or None
    date_bounds: tuple[str | None, ...] = ()
    #: "what does X do?": asks X's occupation (its terms are then job, work)
    occupation: bool = False
    #: the adjectives among the terms ("am I still *vegetarian*?")
    adjectives: tuple[str, ...] = ()


#: A chat spelling of an asked word speaks to it ("Lea bday 17.02." to "when
#: is Lea's birthday?"; ``words.said_as``): in recall's keywords and in
#: context's "does this line speak to the question".
SAID_AS = True


def said_as(words) -> list[str]:
    """The chat spellings of asked ``words`` that speak to them too
    ("birthday" -> "bday"; ``words.said_as``), none of ``words`` itself."""
    if not SAID_AS:
        return []
    table = _said_as_table()
    have = {w.casefold() for w in words}
    return [alt for w in words for alt in table.get(w.casefold(), ()) if alt not in have]


@functools.lru_cache(maxsize=1)
def _said_as_table() -> dict[str, tuple[str, ...]]:
    from ._extract.lexicon import LEX

    # "@possessions.pets": every word of that list ("animal" -> cat, dog, beagle...)
    return {k: tuple(w for x in v for w in (sorted(LEX.words(x[1:])) if x.startswith("@") else (x,)))
            for k, v in LEX.table("words.said_as").items()}


def _lettered(word: str) -> bool:
    """Letters and digits that name a thing ("A1C", "401k", "B12", "PS5"),
    not a number with a suffix ("3rd", "1990s", "5pm")."""
    return word.isalnum() and any(c.isalpha() for c in word) and any(c.isdigit() for c in word) \
        and not re.fullmatch(r"\d+(?:st|nd|rd|th|s|am|pm)", word, re.I)


#: A question with "do" support ("where does X live?") ends in a verb.
_DO_SUPPORT = re.compile(r"^\W*(?:\w+\s+){0,3}?(?:do|does|did)\b", re.I)
#: ... unless it ends in one of these
_TAIL_ADVERBS = frozenset("anymore lately nowadays tho though ago recently currently again now before still yet "
                          "first last too also either".split())


#: A question that opens with a question word ...
_ASKS = re.compile(r"^\s*(?:what|whats|what's|who|whos|who's|whose|where|wheres|where's|when|whens|when's|which|"
                   r"how|why|is|are|was|were|do|does|did|can|could|has|have|had)\b", re.I)
#: ... and goes on, after a comma or dash, with why it is asked ("..., want to
#: get it engraved on a bat", "..., I need to fill in a form"): the aside asks nothing.
_ASIDE = re.compile(r"\s*(?:[,;]|\s[-–—]\s)\s*(?=(?:i|i'm|im|i've|ive|i'd|i'll|want|wanna|need|gotta|"
                    r"got to|have to|so|because|cause|cuz|coz|trying|planning|thinking|just)\b)", re.I)


def asked_part(text: str) -> str:
    """``text`` without a trailing aside that says why the question is asked:
    "Whats my grandson's name, want to get it engraved on a bat" asks the
    name, not about a bat (the reason used to read "Nothing is known about
    your bat and grandson."), and "What's my son's school called, I need to
    fill in a form" asks nothing of the speaker."""
    if ASIDES_CUT and _ASKS.match(text):
        m = _ASIDE.search(text)
        if m is not None and len(text[:m.start()].split()) >= 3:
            return text[:m.start()].rstrip()
    return text


#: See :func:`asked_part`.
ASIDES_CUT = True


def analyze(text: str, nlp, *, speaker: str | None = None, now: _dt.datetime | None = None) -> QueryInfo:
    doc = nlp(text, disable=_UNUSED_PIPES)  # no dependency parse needed here: ~25% faster
    names: dict[str, str] = {}
    name_tokens: set[int] = set()
    ahead = 1 if _FUTURE_Q.search(text) else -1
    # the times it names that the resolver finds in running text ("on 31 Dec
    # 2023", "on Valentine's Day", "New Year's Eve"), whatever spaCy tags them
    found = [(a, b, ref) for a, b, ref in _timeexpr.find(text, now or _dt.datetime.now(_dt.timezone.utc), ahead)
             if now is not None or _YEAR.search(text[a:b])] if FIND_DATES else []
    # a longer DATE entity around a found phrase is read whole ("the week before 16 November 2023")
    found = [(a, b, ref) for a, b, ref in found
             if not any(e.label_ == "DATE" and e.start_char <= a and e.end_char >= b and e.end_char - e.start_char > b - a
                        for e in doc.ents)]
    for ent in doc.ents:
        if found and any(a < ent.end_char and b > ent.start_char for a, b, _ in found):
            continue  # a time, whatever its label
        if ent.label_ in _NAME_LABELS:
            for part in _name_parts(ent):
                names.setdefault(_clean(part.text), ent.label_)
                name_tokens.update(range(part.start, part.end))
    # the month of "in August 2023" is a time, neither a name nor an asked word
    name_tokens.update(t.i for t in doc if t.ent_type_ in ("DATE", "TIME") and t.pos_ == "PROPN")
    # the dates it names, placed ("last autumn": its words are the time asked about, not what)
    dates, past_year = [], False
    bounds: list[str | None] = []
    for a, b, ref in found:
        dates.append((ref.start, ref.end))
        bounds.append(_bound(text, a, b))
        past_year = past_year or (now is not None and _mentions_past_year(text[a:b], now))
        if DATE_WORDS_ASKED is False:
            name_tokens.update(t.i for t in doc if t.idx < b and t.idx + len(t) > a)
    for ent in doc.ents:
        if ent.label_ != "DATE" or any(a < ent.end_char and b > ent.start_char for a, b, _ in found):
            continue
        past_year = past_year or (now is not None and _mentions_past_year(ent.text, now))
        # "in October 2023"; "last week", "in January": as of now, in the past
        if now is not None or _YEAR.search(ent.text):
            ref = _resolve_date(ent.text, now or _dt.datetime.now(_dt.timezone.utc), ahead)
            if ref is not None:
                dates.append((ref.start, ref.end))
                bounds.append(_bound(text, ent.start_char, ent.end_char))
                if DATE_WORDS_ASKED is False:
                    name_tokens.update(range(ent.start, ent.end))
    for tok in doc:  # proper nouns spaCy did not tag ("Rex", "Apollo")
        if tok.pos_ == "PROPN" and tok.i not in name_tokens and tok.is_alpha and len(tok) > 1:
            span = _propn_span(doc, tok.i)
            names.setdefault(_clean(span.text), "CONCEPT")
            name_tokens.update(range(span.start, span.end))
    # "my wife", "Lucia's brother", "my sister's husband": a person asked about by a role is
    # that person, not its owner (docs/people.md); the role word is no asked word
    roles, role_tokens, owner_tokens = _roles(doc, speaker)
    role_words = {doc[i].text.casefold() for i in role_tokens}
    for n in [n for n in names if n.casefold() in role_words]:
        del names[n]  # "where does my MIL live?": the small model took the role for a name
    for rname in roles:
        names[rname] = "PERSON"
    name_tokens.update(role_tokens)
    for owner in {o for o, _, _ in roles.values()}:
        # the owner is asked about only if the question also names it outside its roles
        if owner in names and not any(t.i not in owner_tokens and _clean(t.text).casefold() == owner.casefold()
                                      for t in doc):
            del names[owner]
    who = _WHO_IS.match(text)  # "who's ray again?": the name asked about, in any case
    if who and role_tokens and any(t.i in role_tokens for t in doc if t.idx >= who.start(1)):
        who = None  # "who's my roommate?": a role, asked above
    if who and not any(_clean(who.group(1)).casefold() == n.casefold() for n in names):
        names.setdefault(_clean(who.group(1)), "PERSON")
        name_tokens.update(t.i for t in doc if t.idx >= who.start(1) and t.idx + len(t) <= who.end(1))
    first = any(t.lower_ in _FIRST for t in doc)
    if first and speaker and any(t.lower_ in _FIRST and t.i not in owner_tokens for t in doc):
        names.setdefault(speaker, "PERSON")
    asked_for = _asked_for(doc)
    terms, nouns, given, adjectives = [], [], [], []
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
    # "where does nia's mom live?": the small model reads the last word for an adverb
    last = [t for t in doc if t.is_alpha][-1:] if _DO_SUPPORT.match(text) else []
    tail_verb = {t.i for t in last if t.pos_ == "ADV" and not t.is_stop and not t.lower_.endswith("ly")
                 and t.lower_ not in _TAIL_ADVERBS}
    for tok in doc:
        if tok.i in name_tokens or tok.is_stop or not (tok.is_alpha or _lettered(tok.text)) \
                or tok.pos_ not in ("NOUN", "VERB", "ADJ", "PROPN", "NUM") and tok.i not in tail_verb:
            continue
        if tok.i in time_tokens or len(tok.text) < 2:
            continue
        if tok.lower_ in ("use", "used") and tok.i + 1 < len(doc) and doc[tok.i + 1].lower_ == "to":
            continue  # "did I use to live": a time, not an asked word
        lemma = tok.lemma_.lower()
        if lemma not in _WEAK and not (WEAK_SPEECH and lemma in _SPEECH) and lemma not in terms:
            terms.append(lemma)
            if tok.pos_ == "ADJ":
                adjectives.append(lemma)
            if tok.pos_ == "NOUN":
                nouns.append(lemma)
                if tok.i not in asked_for:  # as written: stemmed later like the memory's texts
                    given.append(tok.lower_)     # (spaCy's lemma of "media" is "medium")
    for_a_living = _FOR_A_LIVING.search(text) is not None
    if for_a_living:  # "what does Emiko do for a living?": her job, not where she lives
        terms = [t for t in terms if t != "living"]
        nouns = [t for t in nouns if t != "living"]
        given = [t for t in given if t != "living"]
    occupation = not terms and (for_a_living or _asks_occupation(doc))
    if occupation:
        terms.extend(_DO_ASKS_JOB)
        nouns.extend(_DO_ASKS_JOB)
    pairs = [f"{tok.text} {nxt.text}".lower() for tok, nxt in zip(doc, doc[1:])
             if nxt.pos_ == "NOUN" and nxt.lower_ in given and nxt.i not in asked_for
             and tok.pos_ in ("ADJ", "NOUN") and not tok.is_stop and tok.i not in name_tokens
             and tok.lower_ not in _NOT_NARROWING]
    past = bool(_PAST_WORDS.search(text)) or past_year
    # "back in February", "in the spring": a time already over is the past
    past = past or (now is not None and any(hi <= now for _, hi in dates))
    order = ("first" if _FIRST_ORDER.search(text) or _first_adverb(doc)
             else "earlier" if _EARLIER.search(text) else None)
    anchors = _anchors(doc, names, [(a, b) for a, b, _ in found])
    past = past or order is not None  # an event's time is past once placed (_asked)
    return QueryInfo(text, tuple(names), tuple(terms), tuple(nouns), past, first, names, tuple(given),
                     tuple(dict.fromkeys(pairs)), tuple(dates), roles, anchors, order, tuple(bounds), occupation,
                     tuple(adjectives))


_WHO_IS = re.compile(r"^\W*who(?:['’]s| is| was)\s+([a-z][\w-]*(?: (?!again\b)[a-z][\w-]*)?)(?:\s+again)?\s*\?*\s*$",
                     re.I)
#: roles whose holder a question may name without the memory having heard of
#: them as a person ("Who is my doctor now?" asks for the name): when the
#: memory knows nobody by the role, the question is about its owner
LOOSE_ROLES = frozenset({"doctor", "dentist", "therapist", "teacher", "coach", "landlord", "mentor", "assistant",
                         "neighbor", "coworker", "roommate", "friend", "cofounder"})
_IDENTITY = re.compile(r"^\W*who(?:['’]s| is| was| are| were)\b|['’]s name\b|\bnames?\b|\bcalled\b|\bnamed\b", re.I)


_NAME_WORDS = frozenset({"name", "names", "called", "named"})


def _asks_identity(doc, first: int, last: int) -> bool:
    """Whether a question asks who holds the role said at tokens ``first..last``:
    "who is my doctor?", "what's my boss's name?", "what is my son called?",
    "the name of my nephew" -- not "what's my son's school called?", where the
    name asked is the school's (the role is then asked about, not looked for)."""
    if not ROLE_NAME_NEAR:
        return bool(_IDENTITY.search(doc.text))
    if _WHO_HOLDS.search(doc.text):
        return True
    for t in doc[last + 1:]:
        if t.lower_ in _NAME_WORDS:
            return True
        if t.pos_ in ("NOUN", "PROPN") or t.lower_ in (",", ";"):
            break
    return first >= 2 and doc[first - 1].lower_ in ("of",) and doc[first - 2].lower_ in _NAME_WORDS


_WHO_HOLDS = re.compile(r"^\W*who(?:['’]s| is| was| are| were)\b", re.I)
#: A name word asks who holds a role only next to it (:func:`_asks_identity`).
ROLE_NAME_NEAR = True


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
    return "Nothing is known about " + " or ".join(said) + "."


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
        if speaker and _people._kin_word_as_name(t):
            owner, own = speaker, set()  # "where does mum live?", "Dad's job": the asker's
        elif j < 0:
            continue
        else:
            owner, own = _owner_at(doc, j, speaker, chain)
        if owner is None:
            continue
        word, last = t.lower_, t.i
        if [x.lower_ for x in doc[t.i + 1:t.i + 4]] in (["-", "in", "-"],) and t.i + 4 < len(doc) \
                and doc[t.i + 4].lower_ in ("law", "laws"):
            word, last = f"{t.lower_}-in-law", t.i + 4  # "my mother-in-law": hyphens are tokens of their own
        rname = _people.role_name(owner, word)
        if owner in out:  # the owner was itself a role ("my sister's husband")
            del out[owner]
        cls = _people.role_class(word)
        # "who is my doctor?", "what's my boss's name?": asks who holds the role
        loose = _asks_identity(doc, j, last) or (cls is not None and cls[0] in LOOSE_ROLES)
        out[rname] = (owner, word, loose)
        chain[last] = rname
        role_toks.update(range(j + 1, last + 1))
        role_toks.update(own)
        owner_toks.update(own)
    return out, role_toks, owner_toks


def _owner_at(doc, j: int, speaker: str | None, chain: dict[int, str]) -> tuple[str | None, set[int]]:
    """Who owns a role word whose owner phrase ends at token ``j`` ("my",
    "Lucia's", "my sister's"), and the owner's tokens; (None, set()) if none."""
    p = doc[j]
    if p.lower_ in ("my", "our") and speaker:
        return speaker, {j}
    if p.lower_ in ("'s", "’s", "s'") and j >= 1:
        prev = doc[j - 1]
        if prev.i in chain:  # "my sister's husband"
            return chain[prev.i], {k for k in range(j - 1, j + 1)}
        if prev.pos_ == "PROPN" or prev.ent_type_ in ("PERSON", "ORG", "GPE", "NORP"):
            a = prev.i
            while a - 1 >= 0 and doc[a - 1].pos_ == "PROPN":
                a -= 1
            return _clean(doc[a:prev.i + 1].text), set(range(a, j + 1))
    return None, set()


_FOR_A_LIVING = re.compile(r"\bfor a living\b", re.I)


def _asks_occupation(doc) -> bool:
    """ "What does Emiko do (these days)?", "what do you do for a living": a
    question whose only verb is "do" after "what" and a subject."""
    words = [t.lower_ for t in doc if t.is_alpha]
    if len(words) < 4 or words[0] != "what" or words[1] not in ("does", "do") or "do" not in words[2:]:
        return False  # "what did Caro do yesterday?" asks what happened, not an occupation
    verbs = [t for t in doc if t.pos_ in ("VERB", "AUX")]
    return all(t.lemma_.lower() == "do" for t in verbs)


_BOUND = re.compile(r"\b(before|after|since|until|till|prior to)\s+(?:the\s+)?$", re.I)
_BOUND_IN = re.compile(r"(before|after|since|until|till|prior to)\b", re.I)


def _bound(text: str, a: int, b: int) -> str | None:
    """The word that bounds the date at ``text[a:b]`` ("*before* May 2020"), if any."""
    m = _BOUND_IN.match(text, a) or _BOUND.search(text, max(0, a - 20), a)
    if not m:
        return None
    word = m.group(1).lower()
    return {"till": "until", "prior to": "before"}.get(word, word)


def _first_adverb(doc) -> bool:
    """"When was the trip *first* planned?": "first" as an adverb of a verb
    in the past (not "the first person", nor "when I first started at X",
    which an anchor reads)."""
    for tok in doc:
        if tok.lower_ == "first" and tok.tag_ == "RB":
            before = doc[:tok.i]
            if any(t.lower_ in ("when", "while") and t.i > 0 for t in before):
                return False
            return any(t.tag_ in ("VBD", "VBN") for t in doc)
    return False


#: A question's dates are found by _timeexpr.find too, not only among
#: spaCy's DATE entities: the small model tags "31" of "on 31 Dec 2023" a
#: number and the date "Dec 2023", "New Year's Eve" an event, "Valentine" a
#: person.
FIND_DATES = True
#: The words of a date the question names and that is placed ("last
#: *autumn*", "in the *spring*") are not asked words: the date is the time
#: asked about (_asked), and "autumn" asked of every turn made "where was I
#: working last autumn?" abstain. False: left out of ``terms``.
DATE_WORDS_ASKED = False
_CONNECTIVES = {"before": "before", "after": "after", "when": "during", "while": "during", "during": "during"}
_ENDING = frozenset("leave quit stop end finish lose sell close retire".split())
_STARTING = frozenset("start begin join arrive".split())
_CLAUSE_END = frozenset(",?.!;:")


def _anchors(doc, names: dict[str, str], times: list[tuple[int, int]] = ()) -> tuple[TimeAnchor, ...]:
    """The events a question names a time by: "before|after <phrase or
    clause>", "when|while <clause>" (a clause: "when" followed by its
    subject, not by an auxiliary: "When did I ..." asks when), "during
    <phrase>". Not inside a date ("the week before August 3, 2023"), and
    not when the clause is the whole question ("When Jon lost his job?")."""
    out = []
    n = len(doc)
    for tok in doc:
        rel = _CONNECTIVES.get(tok.lower_)
        if rel is None or tok.ent_type_ in ("DATE", "TIME") or tok.i + 1 >= n:
            continue
        if any(a <= tok.idx < b or a <= doc[tok.i + 1].idx < b for a, b in times):
            continue  # "the week before August 3", "before May 5": a date, read as one
        nxt = doc[tok.i + 1]
        if nxt.ent_type_ in ("DATE", "TIME") or nxt.like_num:
            continue  # "before 2020", "after May 3": a date, read as one
        if tok.lower_ in ("when", "while") and (nxt.lower_ in _AUX or nxt.pos_ in ("AUX", "PUNCT")
                                                or not (nxt.pos_ in ("PRON", "PROPN") or nxt.lower_ in _SPEAKER_WORDS)):
            continue
        end = tok.i + 1
        while end < n and doc[end].text not in _CLAUSE_END and not (
                end > tok.i + 1 and doc[end].tag_ in ("WDT", "WP", "WRB")):
            end += 1
        span = doc[tok.i + 1:end]
        if not len(span):
            continue
        rest = [t for t in doc if t.is_alpha and not (tok.i <= t.i < end)]
        if len(rest) < 2:
            continue
        low = span.text.lower()
        inside = tuple(nm for nm in names if re.search(r"(?<!\w)" + re.escape(nm.lower()) + r"(?!\w)", low))
        words = tuple(dict.fromkeys(t.lemma_.lower() for t in span
                                    if t.is_alpha and not t.is_stop and t.pos_ in ("NOUN", "VERB", "PROPN", "ADJ")))
        who = [t.lower_ for t in span]
        subject = ("speaker" if any(w in _SPEAKER_WORDS for w in who)
                   else "other" if any(w in _OTHER_WORDS for w in who) else None)
        out.append(TimeAnchor(rel, span.text, inside, words, subject,
                              first=any(t.lower_ == "first" for t in span),
                              ending=any(t.lemma_.lower() in _ENDING for t in span if t.pos_ == "VERB"),
                              starting=any(t.lemma_.lower() in _STARTING for t in span if t.pos_ == "VERB")))
    return tuple(out)


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


def _resolve_date(text: str, now: _dt.datetime, direction: int = -1):
    """A date the question names, in the past of ``now`` (``direction`` +1:
    ahead of it); for a phrase the resolver does not know ("the first
    weekend of October 2023", "the week before August 3, 2023"), the month
    or day with a year inside it."""
    text = re.sub(r",(?=\d)", ", ", text)
    ref = _timeexpr.resolve(text, now, direction)
    if ref is None and (m := _DATED.search(text)):
        ref = _timeexpr.resolve(m.group(0), now, direction)
    return ref


_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def _mentions_past_year(text: str, now: _dt.datetime) -> bool:
    years = [int(y) for y in _YEAR.findall(text)]
    return any(y < now.year for y in years) or bool(re.search(r"\b(ago|last|previous)\b", text, re.I))
