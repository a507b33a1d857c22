"""Belief revision for facts read from text: what a new claim closes.

Entity-scoped: only held facts of the claim's own subject are ever looked at
(Graphiti's group-wide invalidation retires unrelated facts).

* A registered single-valued attribute with a new value supersedes by rule
  (``_temporal``), without NLI.
* Otherwise the candidates are the subject's held facts that are valid at the
  claim's ``valid_from`` and either have the same attribute or a text whose
  embedding cosine with the claim's is at least :data:`CANDIDATE_COSINE`.
  The NLI cross-encoder scores (old text, new text); a contradiction score at
  or above the model's shipped threshold closes the old fact, and the score
  is recorded in its reason.
* Corrections ("sorry, I meant X", "actually X, not Y") retract the belief
  they correct (:func:`correction_target`) instead; when which one is
  unclear, nothing is retracted and the episode's result says so.
* Cessation ("I no longer ...", "I quit Y") ends the held value at the
  claim's time, with no successor.
"""

from __future__ import annotations

import datetime as _dt
import difflib
import functools
import re
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from ._temporal import Working, same_value
from ._types import SAID, Fact

#: Text cosine (MiniLM) at or above which a held fact of another attribute is
#: shown to NLI. Measured on eval/data/revision_cases.jsonl (docs/revision.md).
#: Fact vectors embed "subject attribute value — sentence", which raises the
#: cosine of any two beliefs of one subject: at 0.55 "My birthday is June 5"
#: met "I'm 31" and NLI called it a contradiction (0.98); 0.65 and 0.75 keep
#: recall 1.0 on the cases.
CANDIDATE_COSINE = 0.65


@dataclass
class Judge:
    """Asks NLI about candidate pairs, in one batch per claim, and remembers why."""

    nli_scores: Callable[[Sequence[tuple[str, str]]], np.ndarray]
    threshold: float
    asked: list[tuple[str, str, float]] = field(default_factory=list)  # (old id, new text, score)

    def contradicted(self, candidates: Sequence[Fact], text: str, said: bool = False) -> dict[str, str]:
        """The candidates NLI calls contradicted by ``text`` (``said``: a
        statement kept whole), id -> reason."""
        if not candidates:
            return {}
        scores = self.nli_scores([(f.text, text) for f in candidates])
        out = {}
        for f, row in zip(candidates, scores):
            c = float(row[2])
            self.asked.append((f.id, text, c))
            if c >= (max(self.threshold, STATEMENT_NLI) if said or f.attribute == SAID else self.threshold):
                out[f.id] = f"nli contradiction {c:.2f}"
        return out


#: Words that say a statement adds to what holds rather than replacing it
#: ("I'm allergic to penicillin as well", "I also speak French", "another
#: cat", "... too." at the end of a clause). Such a claim asks NLI nothing.
_ADDS = re.compile(r"\b(?:also|as well|in addition|additionally|besides|another)\b|\btoo\s*[.!?,;)]*\s*$", re.I)


def adds(text: str) -> bool:
    """Whether a claim's sentence says it adds to what holds (:data:`_ADDS`)."""
    return _ADDS.search(text.strip()) is not None


def current_of(work: Working, subject_id: str, at: _dt.datetime) -> list[Fact]:
    """Held facts of one subject that are valid at ``at``."""
    return [
        f for f in work.by_id.values()
        if f.subject_id == subject_id and f.valid_from <= at and (f.valid_to is None or at < f.valid_to)
    ]


def candidates(
    current: Sequence[Fact],
    attribute: str,
    text_vector: np.ndarray | None,
    vectors: dict[str, np.ndarray],
    *,
    single_of: Callable[[str], bool],
    text: str = "",
    value: object = None,
) -> list[Fact]:
    """Facts NLI should see for a new claim (see module doc); never one that
    holds the claim's own ``value`` for its attribute. A belief of
    another attribute whose value the new statement names is not one
    (``text``; NAMED_VALUE_KEEPS): "I got promoted to senior analyst at
    Acme." contradicts "I joined Acme as a junior analyst." on the title,
    not on ``employer: Acme``."""
    single = single_of(attribute)
    out = []
    for f in current:
        if f.attribute == SAID or attribute == SAID:
            # a statement kept whole (_extract/statements.py): shown to NLI when the two
            # sentences are alike, unless the new one speaks of the old one's name or
            # number without ending it
            if text_vector is not None and f.id in vectors and not (single and single_of(f.attribute)) \
                    and float(vectors[f.id] @ text_vector) >= STATEMENT_COSINE \
                    and not keeps(f.text, text, None if f.attribute == SAID else f.value) \
                    and _norm(f.text) != _norm(text):
                out.append(f)
        elif f.attribute == attribute and attribute in LISTS:
            continue  # "put me on ramipril" adds to the atorvastatin; only a switch or "off" ends one
        elif f.attribute == attribute:
            # single-valued: the rule decides, NLI is not asked; the same value is said
            # again, not contradicted ("Like I said before, my prescriptions go to Rite
            # Aid." scored 0.75 against its own first saying)
            if not single and (value is None or _norm(str(f.value)) != _norm(str(value))):
                out.append(f)
        elif text_vector is not None and f.id in vectors:
            if SINGLES_APART and single and single_of(f.attribute):
                continue  # two single-valued attributes of the registry: "My birthday is June 5." / "I'm 52."
            if float(vectors[f.id] @ text_vector) >= CANDIDATE_COSINE and not (
                    NAMED_VALUE_KEEPS and text and _names_value(text, f.value)):
                out.append(f)
    return out


#: See :func:`candidates`.
NAMED_VALUE_KEEPS = True
#: Attributes whose values are a list, each added without replacing another
#: ("Dr Hussain put the ramipril up to 10" closed "atorvastatin" by NLI): a
#: value of one ends only by cessation ("off the statins"), a switch or a
#: correction, never by NLI against a value of the same attribute.
LISTS = frozenset({"medication"})
#: Cosine (MiniLM, of the two facts' documents) at or above which a pair with
#: a statement kept whole on either side (``_extract/statements.py``) is shown
#: to NLI. Chosen on the supersession dev sets (docs/revision.md): a
#: statement's document ("Amara said Moved my current account over to Chase
#: UK …") sits further from a claim's ("Amara bank with NatWest — I bank with
#: NatWest.") than two claims' do; 0.5 rather than CANDIDATE_COSINE for that
#: pair caught 11 more of dev2's 201 and 1 more of dev's 90, false
#: supersessions unchanged (0.4: one more catch).
STATEMENT_COSINE = 0.5
#: A pair with a statement kept whole on either side closes only at this NLI
#: contradiction score or above (or the model's threshold, if higher): two
#: sentences of one person's routine that differ in a number ("I'm usually in
#: bed by 10:30." / "On weekends I'm normally up by 7:30.") scored 0.64-0.84
#: with the distilled model. Chosen on the supersession dev sets: 0.63 -> 0.75
#: kept 125 of 134 catches and removed 4 of 6 such closings (docs/revision.md).
STATEMENT_NLI = 0.75
#: A claim of a single-valued registered attribute is not put to NLI against
#: a belief of another single-valued registered attribute: the registry says
#: they are different things, each replaced by its own rule ("My birthday is
#: June 5." and "I'm 52." scored 0.64 and 0.83 with the distilled model).
SINGLES_APART = True


#: names and numbers of a sentence, as :func:`named` reads them
_NAMED = re.compile(r"\d[\d.,:]*(?:\s?(?:am|pm|k|%))?"
                    r"|\b[A-Z][\w'&.-]*(?:(?:\s+(?:of|and|&|de|la|du|van|von))*\s+[A-Z][\w'&.-]*)*")
_ME = frozenset({"i", "i'm", "i've", "i'd", "i'll"})
_TIME_NAME = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?(?:\s+(?:morning|afternoon|evening|night)s?)?"
                        r"|jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept?(?:ember)?"
                        r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|christmas|easter", re.I)


def named(sentence: str) -> dict[str, bool]:
    """The names and numbers of a sentence: runs of capitalised words (with
    "of", "&" ... inside: "Bank of America", "Toni & Guy") cut at "I" and
    less the function words that open them ("My Spotify" -> "Spotify", "The
    Y" -> "Y"), and numbers ("6:15", "12k"); each mapped to whether it is
    one word opening the sentence, where a capital says nothing ("Honestly",
    "Siobhan")."""
    from spacy.lang.en.stop_words import STOP_WORDS

    out: dict[str, bool] = {}
    for m in _NAMED.finditer(sentence):
        pieces: list[list[str]] = [[]]
        for w in m.group(0).strip(".,").split():
            if w.casefold() in _ME:
                pieces.append([])
            else:
                pieces[-1].append(w)
        for words in pieces:
            while words and words[0].casefold().strip(".,") in STOP_WORDS:
                words = words[1:]
            if words:
                name = " ".join(words)
                opening = len(words) == 1 and not sentence[:sentence.find(name)].strip(" \"'(")
                out[name] = out.get(name, True) and opening
    # a day or a month is the value only when nothing else is named ("on Sundays" in
    # "We go to St Mary's on Sundays" says when, not where)
    times = {n for n in out if _TIME_NAME.fullmatch(n)}
    return {n: o for n, o in out.items() if n not in times} if len(times) < len(out) else out


@functools.cache
def _end_words(key: str = "end_words") -> re.Pattern:
    from ._extract.lexicon import LEX  # here: the extractor imports this module

    return LEX.phrases(f"statements.{key}")


#: words before (and after) a named value in which a word that ends it counts
END_BEFORE, END_AFTER = 4, 2


def keeps(old: str, new: str, value: object = None) -> bool:
    """Whether statement ``new`` names a name or number of statement ``old``
    with no word that ends it next to it (``statements.end_words`` at most
    END_BEFORE words before it, ``end_after_words`` END_AFTER after): it speaks of the old
    value, it does not replace it ("Fade Street Barbers is shut for a
    refurb" after "I get my hair cut at Fade Street Barbers"; "woke up at
    6:15" after "my alarm goes off at 6:15"), where "Stopped going to
    Siobhan", "goodbye Firefox" and "instead of Bluestone Tax" end it.
    ``value``: the old belief's value, when it is a claim (named whatever
    its sentence's capitals: "i bank with monzo")."""
    low = new.casefold()
    found = False
    names = named(old)
    if isinstance(value, str) and len(value.strip()) > 1:
        names.setdefault(value.strip(), False)
    for n, opening in names.items():
        # a word that only opened the old sentence is a name only if the new one capitalises it too
        pattern = re.compile(r"(?<!\w)" + re.escape(n if opening else n.casefold()) + r"(?!\w)")
        for m in pattern.finditer(new if opening else low):
            found = True
            before = " ".join(low[:m.start()].split()[-END_BEFORE:])
            after = " ".join(low[m.end():].split()[:END_AFTER])
            if _end_words().search(before) or _end_words("end_after_words").search(after):
                return False
    return found


def speaks_of(sentence: str, attribute: str) -> bool:
    """Whether a sentence has a word for each word of ``attribute`` (by its
    first letters: "Mr. Pell walks our dog" speaks of dog_walker, "My
    Spanish tutor is Lucía" of tutor)."""
    words = [w for w in re.findall(r"[a-z]+", sentence.casefold())]
    return all(any(w.startswith(p[:max(3, min(4, len(p) - 2))]) for w in words)
               for p in attribute.split("_") if p)


def _names_value(text: str, value: object) -> bool:
    v = str(value).strip()
    return len(v) > 1 and re.search(r"(?<!\w)" + re.escape(v) + r"(?!\w)", text, re.I) is not None


#: A correction that names neither the attribute nor the value it takes back
#: ("Correction: that's Elk Mountain Road.", "but I meant March 21") corrects
#: the speaker's latest belief of the same kind of value recorded at most
#: this long before it; an older one is not guessed at.
CORRECTION_WINDOW = _dt.timedelta(days=14)

_DATE_VALUE = re.compile(r"^(?:\d{4}(?:-\d{2}(?:-\d{2})?)?|\d{4}-W\d{2}|--\d{2}-\d{2}|---\d{2})$")
_MEASURE_VALUE = re.compile(r"^-?\d+(?:[.,]\d+)?(?:%| \S+)?$")


def value_kind(value: object, is_entity: bool = False) -> str:
    """``date`` | ``number`` | ``name`` | ``text``: the kind of a value, so
    that a correction takes back a belief of its own kind ("but I meant March
    21" is a date and corrects no employer)."""
    if isinstance(value, bool):
        return "text"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, _dt.datetime):
        return "date"
    s = str(value).strip()
    if _DATE_VALUE.match(s):
        return "date"
    if _MEASURE_VALUE.match(s):
        return "number"
    return "name" if is_entity else "text"


def corrected_value(target: Fact, value: object) -> object:
    """The value a correction gives ``target``: ``value``, or, for a day of
    the month ("---19", from "the 19th, not the 17th"), the target's date
    on that day."""
    if isinstance(value, str) and value.startswith("---") and isinstance(target.value, str) \
            and re.match(r"^\d{4}-\d{2}-\d{2}$", target.value):
        return target.value[:8] + value[3:]
    return value


def _same_day(fact: Fact, day: str) -> bool:
    return isinstance(fact.value, str) and re.match(r"^(?:\d{4}-\d{2}|-)-\d{2}$", fact.value) is not None \
        and fact.value[-2:] == day[3:]


def correction_target(
    current: Sequence[Fact], attribute: str, replaces: str | None, value: object = None,
    value_is_entity: bool = False, *, now: _dt.datetime | None = None,
) -> tuple[Fact | None, str]:
    """The held belief a correction takes back, and why not when there is none.

    * With ``replaces`` (the value said before: "Stripe" in "I said Stripe
      but I meant Square"), the most recently recorded belief with that
      value (a day "---17" matches a date on the 17th), of ``attribute``
      when it is named; none when no belief has it.
    * Else, with ``attribute``, the most recently recorded belief of it.
    * Else the most recently recorded belief whose value is of the same
      kind as ``value`` (:func:`value_kind`; a name must also
      :func:`resembles` it), recorded within :data:`CORRECTION_WINDOW` of
      ``now``; none when there is none, or
      when another belief of that kind but of another attribute was stated
      in the same episode (which one was meant is unclear).
    """
    pool = [f for f in current if not attribute or f.attribute == attribute]
    if replaces:
        if replaces.startswith("---"):
            named = [f for f in pool if _same_day(f, replaces)]
        else:
            named = [f for f in pool if isinstance(f.value, (str, int, float)) and _norm(str(f.value)) == _norm(replaces)]
        if named:
            return max(named, key=lambda f: (f.recorded_at, f.valid_from)), ""
        return None, f"no belief holds {replaces!r}"
    if attribute:
        found = max(pool, key=lambda f: (f.recorded_at, f.valid_from), default=None)
        return found, "" if found is not None else f"no belief of {attribute} to correct"
    kind = value_kind(value, value_is_entity)
    if kind == "text":
        return None, "it names neither the attribute nor the value it corrects"
    same = [f for f in pool if value_kind(f.value, f.object_id is not None) == kind
            and (now is None or f.recorded_at >= now - CORRECTION_WINDOW)]
    if kind == "name":
        # a name corrects a name it resembles ("Elk Mountain Road" / "Elm
        # Mountain Road"), never just the latest name said (an employer)
        same = [f for f in same if resembles(str(f.value), str(value))]
    if not same:
        return None, f"no recent belief with a {kind} value like it to correct"
    best = max(same, key=lambda f: (f.recorded_at, f.valid_from))
    rivals = {f.attribute for f in same if f.episode_id is not None and f.episode_id == best.episode_id}
    if len(rivals) > 1:
        return None, f"unclear which belief it corrects ({', '.join(sorted(rivals))})"
    return best, ""


def cessation_targets(current: Sequence[Fact], attribute: str, value: object) -> list[Fact]:
    """Held values a "no longer"/"quit" claim ends: those with its value, or
    every value of the attribute when it names none."""
    pool = [f for f in current if f.attribute == attribute]
    if value in ("", None):
        return pool
    probe = Fact(id="", group_id="", subject="", attribute=attribute, value=value, text="",
                 valid_from=_dt.datetime.min, valid_to=None, recorded_at=_dt.datetime.min, expired_at=None)
    return [f for f in pool if same_value(f, probe) or _ends_with(f.value, value)
            or (attribute in BY_FIRST_WORDS and _starts_with(f.value, value))
            or (attribute in BY_CLASS_ENDING and _of_class(f.value, value))]


#: Attributes whose values are called by their class, the ending they share:
#: "off the statins" ends "atorvastatin".
BY_CLASS_ENDING = frozenset({"medication"})


def _of_class(held: object, said: object) -> bool:
    if not isinstance(held, str) or not isinstance(said, str):
        return False
    h, s = _norm(held), _norm(said).removesuffix("s")
    return len(s) >= 4 and h != s and h.endswith(s)


#: Attributes whose values are called by their first words too: a car by its
#: make ("sold the Skoda" ends "Skoda Octavia"), unlike an employer ("left Acme"
#: does not end "Acme Labs").
BY_FIRST_WORDS = frozenset({"car"})


def _starts_with(held: object, said: object) -> bool:
    if not isinstance(held, str) or not isinstance(said, str):
        return False
    h, s = _norm(held).split(), _norm(said).split()
    return 0 < len(s) < len(h) and h[:len(s)] == s and len(" ".join(s)) >= 3


def _ends_with(held: object, said: object) -> bool:
    """A name said by its last words ends the value it shortens: "sold the Outback" ends
    "Subaru Outback", "left Acme" does not end "Acme Labs" (the first words differ)."""
    if not isinstance(held, str) or not isinstance(said, str):
        return False
    h, s = _norm(held).split(), _norm(said).split()
    return 0 < len(s) < len(h) and h[-len(s):] == s and len(" ".join(s)) >= 3


def resembles(a: str, b: str) -> bool:
    """Whether two names look like one misspoken for the other: a shared
    first or last word ("Elm Mountain Road" / "Elk Mountain Road", "St
    Davids" / "St Mary's"), or spellings at least 0.6 alike (difflib)."""
    wa, wb = _norm(a).split(), _norm(b).split()
    if not wa or not wb:
        return False
    if wa[-1] == wb[-1] or (len(wa) > 1 and len(wb) > 1 and wa[0] == wb[0]):
        return True
    return difflib.SequenceMatcher(None, " ".join(wa), " ".join(wb)).ratio() >= 0.6


def _norm(s: str) -> str:
    """Case, accents of punctuation and a leading "the" do not matter: "St. David's" == "st davids"."""
    s = re.sub(r"[^\w\s]", "", s.casefold())
    s = re.sub(r"^the\s+", "", s.strip())
    return " ".join(s.split())
