"""Text -> entity-attribute-value claims, with spaCy dependency patterns (no LLM).

:func:`extract` parses one message (or takes a parsed ``doc``) and returns the
:class:`Claim` s it states and the :class:`Mention` s of entities in it.
:func:`extract_many` does the same for many messages with ``nlp.pipe``.

What it reads (one clause at a time; the known gaps are listed at the end):

- copular and possessive: "my X is Y", "X's Y is Z", "Y is my X",
  "X is a <job>" (job_title), "X is the CEO of Y", "I'm 34", "I'm married",
  "X is one of my favorites" (likes);
- location: live in / move to / relocate to / settle in / be based in
  (lives_in); "moved out of X", "used to live in X" (cease);
- employment: work at/for, join, start at, get a job at, be hired by
  (employer); work as / be / become a <job>, be promoted to (job_title);
  leave / quit / resign from / be laid off (cease);
- preferences: love / like / enjoy / adore -> likes, hate / dislike /
  can't stand -> dislikes, prefer -> prefers, "be into / a fan of / keen
  on / obsessed with" -> likes, "my favo(u)rite X is Y" -> favorite_x;
- having: "I have a dog named Rex" -> has_dog = Rex, "I have two kids"
  -> num_kids = 2, "I have a car" -> has = car; speaks / eats / drinks /
  plays / drives / learning / studies;
- dates of plans and events: "the launch is on May 3", "the deadline moved
  to Friday", "we pushed the launch to June", "the report is due Friday";
- numbers: "response time is now 250ms", "latency dropped to 180 ms";
- negation ("I don't like X": negate), cessation ("I no longer ...",
  "... anymore", "I quit Y", "I stopped eating meat", a past-tense state
  without a date: cease), corrections ("sorry, I meant X", "actually it's
  X, not Y", "correction: ...", "X, not Y", "not Y but X").

Who: first person resolves to ``speaker`` (so does the dropped subject of a
chat fragment: "Moved to Lisbon last week!"), second person to ``listener``
(skipped when unknown), proper names to themselves, "my sister" to
"<speaker>'s sister", conjoined subjects to one claim each. Third-person
pronouns are not resolved (no coreference): their clauses yield nothing. A
plan, event date or metric with no owner in the sentence ("the deadline
moved to Friday") belongs to the speaker; a named owner ("the Apollo
deadline", "Apollo's budget") is the subject.

Values: names as written ("Lisbon", "St Mary's hospital"), common nouns in
lower case without determiners ("golden retriever"), dates as ISO strings at
their grain ("2024-05-03", "2024-06", "2024-W11"; a birthday without a year
"--05-03"), counts as ints, measures as "<number> <unit>" with the unit
normalised ("250 ms", "5000 USD", "99.5%"; also in ``number``/``unit``).
Attribute names go through the registry's aliases (latency ->
response_time, boss -> manager, launch_date -> release_date, love -> likes).

What it refuses (precision first): questions (but not a statement with a
tag: "I'm vegan, remember?"), hypotheticals ("if I moved to Paris", "I'd
love to", "I might", "once I finish school I'll ..."), wishes and plans
without a date ("I want to move", "I'm going to move"), hedged or reported
beliefs ("I think ...", "my brother thinks I should ..."), deictic objects
("I love that!", "I love your photos", "I love the idea"), past one-off
episodes ("I loved the concert"), vocatives the parser mistakes for
subjects ("Hey Nate, ...").

Time: time expressions that qualify a claim's clause become ``valid_from``
(and ``valid_to`` for a bounded past state: "I lived in Hamburg in 2019",
"from 2015 to 2018"), resolved against ``reference_time`` by
:mod:`midas_graph._timeexpr`; a clause without one takes the time of a
conjoined clause with the same subject. For a ``cease`` claim,
``valid_from`` is when the state ended. A plan with a future date ("I'm
moving to Rome next month") is kept with a future ``valid_from`` and lower
confidence.

Known gaps: no coreference (he/she/they/it), so a fact stated about an
earlier-named person in a later sentence is lost; events that are not
attribute changes ("I went to a support group yesterday") yield nothing;
NER labels of the small model are unreliable, so "left X" is read as a
place only when X is tagged GPE/LOC/FAC; nested possessors beyond one level
("my sister's husband's job") are not followed; values are surface forms,
so "NYC" and "New York" are two values until entity resolution merges them.

Layout (one module per concern; the words they use are data, in
``schema/extract/*.toml``, read once by :mod:`.lexicon`):

- :mod:`.walker` -- the clause walker: sentences, predicates, one clause at a
  time, sent to a family by the verb table ``schema/extract/verbs.toml``;
  :meth:`.walker.Walker.emit` records a claim;
- :mod:`.subjects` -- who a clause is about; :mod:`.clauses` -- question,
  tense, polarity, hedges; :mod:`.times` -- time expressions and valid time;
  :mod:`.tokens`, :mod:`.numbers` -- token, name and number helpers;
- the pattern families: :mod:`.copular`, :mod:`.location`, :mod:`.work`,
  :mod:`.cessation`, :mod:`.possessions`, :mod:`.preferences`,
  :mod:`.habits`, :mod:`.life`, :mod:`.events` (plans and dates),
  :mod:`.metrics` (numbers), :mod:`.corrections`.

A new phrasing of a pattern that exists is a word in a TOML file and a test
(tests/test_extract.py); eval/extract_diff.py shows which claims a change
adds or removes over LoCoMo, the revision cases and the development personas.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import replace
from typing import Sequence

from .answers import confirms
from .claims import Claim, Extraction, Mention
from .normalize import for_parsing, original, repair_entities, repair_lemmas
from .walker import Walker

__all__ = ["Claim", "Mention", "Extraction", "extract", "extract_many", "confirms", "excludes", "for_parsing"]


def excludes(attribute: str, new: object, old: object) -> bool:
    """Whether a change to ``new`` ends ``old`` (a claim with ``change``):
    any other value, except for a diet, where only the diets of
    ``habits.exclusive_diets`` exclude one another ("vegan" ends
    "vegetarian", not "gluten-free")."""
    from .lexicon import _EXCLUSIVE_DIETS

    if str(new).casefold() == str(old).casefold():
        return False
    if attribute == "diet":
        return str(old).casefold() in _EXCLUSIVE_DIETS
    return True

UTC = _dt.timezone.utc


def _ref_utc(reference_time) -> _dt.datetime:
    if isinstance(reference_time, str):
        from .._time import parse_time
        t = parse_time(reference_time, "reference_time")
        assert t is not None
        return t
    if isinstance(reference_time, _dt.datetime):
        if reference_time.tzinfo is None:
            return reference_time.replace(tzinfo=UTC)
        return reference_time.astimezone(UTC)
    if isinstance(reference_time, _dt.date):
        return _dt.datetime(reference_time.year, reference_time.month, reference_time.day, tzinfo=UTC)
    raise TypeError(f"reference_time must be a datetime, got {type(reference_time).__name__}")


def _nlp():
    from ..models import load_spacy
    return load_spacy()


def extract(text: str, *, speaker: str, reference_time: _dt.datetime, listener: str | None = None, doc=None,
            prompt: str | None = None, pronouns: dict[int, str] | None = None,
            persons: frozenset[str] = frozenset(), planned: tuple[str, ...] = ()) -> Extraction:
    """Claims and mentions of one message. ``doc``: an already parsed spaCy Doc of ``text``.
    ``prompt``: the other speaker's previous turn, whose last question a fragment answer fills
    ("Where did you end up?" / "Minneapolis!!"). ``pronouns`` (token index -> name) and
    ``persons`` (lower-case names known to be people): what the conversation's people
    analysis (``_people``) knows, so that "She is a nurse." is said of someone.
    ``planned``: places the speaker's last turns talked of moving to, for a
    move that names none (``location.MOVE_PLANNED_PLACE``)."""
    ref = _ref_utc(reference_time)
    if doc is None:
        if not text or not text.strip():
            return Extraction([], [])
        doc = _nlp()(for_parsing(text))
    repair_lemmas(doc)
    repair_entities(doc)
    return as_written(Walker(doc, speaker or "user", listener, ref, prompt, pronouns, persons, planned).run(), doc.text, text)


def as_written(ex: Extraction, parsed: str, text: str) -> Extraction:
    """``ex``, read from ``parsed`` (:func:`for_parsing` of ``text``), with its
    quotes and names as ``text`` wrote them; except that a name typed all in
    lower case keeps the capitals the parser was given (``casing.py``:
    "denver" is the place Denver, one entity with the claim's value)."""
    if parsed == text or len(parsed) != len(text):
        return ex
    claims = [replace(c, text=original(parsed, text, c.text)) for c in ex.claims]
    mentions = [replace(m, name=text[m.start:m.end])
                if parsed[m.start:m.end] == m.name and not text[m.start:m.end].islower() else m
                for m in ex.mentions]
    statements = [replace(c, value=original(parsed, text, c.text), text=original(parsed, text, c.text))
                  for c in ex.statements]
    return replace(ex, claims=claims, mentions=mentions, unparsed=[original(parsed, text, u) for u in ex.unparsed],
                   statements=statements)


def extract_many(items: Sequence[tuple], *, batch_size: int = 64) -> list[Extraction]:
    """:func:`extract` over ``(text, speaker, reference_time, listener)`` or
    ``(text, speaker, reference_time, listener, prompt)`` tuples, parsing with ``nlp.pipe``."""
    items = list(items)
    if not items:
        return []
    nlp = _nlp()
    docs = nlp.pipe((for_parsing(it[0] or "") for it in items), batch_size=batch_size)
    out = []
    for item, doc in zip(items, docs):
        text, speaker, ref, listener = item[:4]
        prompt = item[4] if len(item) > 4 else None
        out.append(extract(text, speaker=speaker, reference_time=ref, listener=listener, doc=doc, prompt=prompt))
    return out
