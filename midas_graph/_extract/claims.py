"""The extractor's public types: :class:`Claim`, :class:`Mention`, :class:`Extraction`."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Claim:
    """One entity-attribute-value statement read from text.

    ``polarity``: ``assert`` (it holds), ``negate`` (it does not hold: "I
    don't like coffee"), ``cease`` (it held and stopped: "I no longer live in
    Berlin", "I quit Acme", "I lived in Hamburg").

    ``attribute`` is ``""`` only for a bare correction whose attribute the
    sentence does not name ("sorry, I meant Lisbon, not Porto"): the
    belief to correct is the subject's current fact whose value is
    ``replaces`` (or, without ``replaces``, the speaker's most recent one
    of the same kind of value; see ``_revise.correction_target``). A
    ``replaces`` of the form ``"---DD"`` names a day of the month ("the
    17th"): the corrected belief is a date on that day. For a
    ``cease`` claim, ``value`` may be ``""`` ("I quit my job"): every
    current value of the attribute ends, and ``valid_from`` is when.

    Extensions: ``valid_to`` closes a stated past interval ("from 2015 to
    2018"); ``number``/``unit`` split a measure ("250 ms" -> 250.0, "ms");
    ``rule`` names the pattern that produced the claim (for ``history()``'s
    "why"). ``confidence`` is 1.0 for first person, 0.9 for a named third
    person, 0.8 for an owner the sentence leaves implicit or a relative
    ("my sister"), times 0.8 for a dated plan.
    """

    subject: str
    attribute: str
    value: str | int | float
    text: str
    valid_from: _dt.datetime | None = None
    polarity: str = "assert"
    correction: bool = False
    replaces: str | None = None
    subject_is_speaker: bool = False
    value_is_entity: bool = False
    confidence: float = 1.0
    # extensions
    valid_to: _dt.datetime | None = None
    unit: str | None = None
    number: float | None = None
    rule: str = ""
    #: a change of state ("I went vegan", "switched to decaf"): the value
    #: replaces every current value of the attribute, even a "many" one
    change: bool = False


@dataclass(frozen=True, slots=True)
class Mention:
    name: str
    label: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Extraction:
    """The claims and mentions of one message, and its sentences that gave no
    claim (``unparsed``: questions, filler, and what no pattern reads), in
    order."""

    claims: list[Claim]
    mentions: list[Mention]
    unparsed: list[str] = field(default_factory=list)
    #: ``said`` claims of unparsed sentences kept whole (:mod:`.statements`)
    statements: list[Claim] = field(default_factory=list)
