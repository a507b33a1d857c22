"""The public value types: plain frozen dataclasses, cheap to build and print."""

from __future__ import annotations

import datetime as _dt
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Union

Value = Union[str, int, float, bool, _dt.datetime]
Provenance = Literal["planning", "action", "observation", "user_confirmation"]
PROVENANCES: tuple[str, ...] = ("planning", "action", "observation", "user_confirmation")


#: The attribute of a statement kept whole: a sentence of the speaker's that
#: no pattern read, held so that a later one can supersede it through NLI
#: (``_extract/statements.py``). Recall and context read it in its episode.
SAID = "said"


@dataclass(frozen=True, slots=True)
class Fact:
    """One stored version of one entity-attribute-value belief.

    ``id`` names the belief across its versions; ``version`` counts them (1 is
    the version first recorded). Valid time is ``[valid_from, valid_to)``,
    transaction time ``[recorded_at, expired_at)``; ``None`` at an end means
    open (still true / still held).
    """

    id: str
    group_id: str
    subject: str
    attribute: str
    value: Value
    text: str
    valid_from: _dt.datetime
    valid_to: _dt.datetime | None
    recorded_at: _dt.datetime
    expired_at: _dt.datetime | None
    superseded_by: str | None = None
    supersedes: tuple[str, ...] = ()
    episode_id: str | None = None
    provenance: str = "observation"
    confidence: float = 1.0
    # extensions of the contract
    version: int = 1
    subject_id: str = ""
    object_id: str | None = None
    importance: float = 0.0
    source: str | None = None
    reason: str = ""
    expire_reason: str | None = None
    #: ``valid_to`` as the source stated it, before any closing by revision;
    #: a belief re-opened by a retraction gets this end back.
    stated_valid_to: _dt.datetime | None = None
    #: The episode whose write transaction expired this version (set with
    #: ``expired_at``); ``None`` while held, when an API call (``retract``,
    #: ``add_fact``, ``remove_episode``) expired it, and on versions expired
    #: before schema version 2.
    expired_by_episode: str | None = None

    @property
    def vid(self) -> str:
        """The id of this version: ``"<id>:<version>"``."""
        return f"{self.id}:{self.version}"

    @property
    def status(self) -> str:
        """``current`` | ``superseded`` | ``retracted`` | ``revised`` | ``ended``.

        ``revised``: a newer version of the same belief replaced this one in
        the memory (transaction time); ``ended``: held, but its valid
        interval is closed without a successor.
        """
        if self.expired_at is not None:
            reason = self.expire_reason or ""
            return "retracted" if reason.startswith("retracted") else "revised"
        if self.superseded_by is not None:
            return "superseded"
        if self.valid_to is not None:
            return "ended"
        return "current"

    def held_at(self, known_at: _dt.datetime) -> bool:
        return self.recorded_at <= known_at and (self.expired_at is None or known_at < self.expired_at)

    def valid_at(self, at: _dt.datetime) -> bool:
        return self.valid_from <= at and (self.valid_to is None or at < self.valid_to)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["supersedes"] = list(self.supersedes)
        d["status"] = self.status
        for k, v in d.items():
            if isinstance(v, _dt.datetime):
                d[k] = v.isoformat()
        return d


@dataclass(frozen=True, slots=True)
class Entity:
    id: str
    group_id: str
    name: str
    aliases: tuple[str, ...] = ()
    kind: str = "CONCEPT"
    created_at: _dt.datetime | None = None
    summary: str = ""


@dataclass(frozen=True, slots=True)
class Link:
    """Why two names are one person (docs/people.md): a name an episode gave
    an entity (``kind="alias"``: "I'm Jordan", "my wife Sarah") or two
    entities an episode found to be one (``kind="same"``: ``entity_id`` is
    one with ``target``). ``ended_at`` / ``end_reason``: when and why the
    memory stopped holding it (the episode that made it was removed);
    ``None`` while held."""

    key: str
    group_id: str
    kind: str
    entity_id: str
    target: str | None
    name: str
    episode_id: str | None
    reason: str
    recorded_at: _dt.datetime
    ended_at: _dt.datetime | None = None
    end_reason: str | None = None


@dataclass(frozen=True, slots=True)
class Episode:
    """One message or text as it was received (the episodic store, verbatim)."""

    id: str
    group_id: str
    content: str
    speaker: str
    source: str
    reference_time: _dt.datetime
    recorded_at: _dt.datetime
    provenance: str = "observation"
    name: str | None = None
    source_description: str = ""
    #: How much the episode is worth keeping (docs/forgetting.md): the no-LLM
    #: blend of ``content_score`` and ``structural_score`` computed at
    #: ingest, or what ``Memory(importance=...)`` returned; ``None`` on
    #: episodes stored before schema version 6.
    importance: float | None = None
    content_score: float | None = None
    structural_score: float | None = None
    #: When ``Memory.forget`` took it out of the recall indexes (``None``:
    #: hot), and why. A cold episode is still read by id.
    cold_at: _dt.datetime | None = None
    cold_reason: str | None = None

    @property
    def purged(self) -> bool:
        """Whether ``forget(purge=True)`` deleted its content: a stub (id,
        times, speaker, provenance; ``content`` is empty and ``cold_reason``
        gives the SHA-256 of what was deleted)."""
        return self.cold_at is not None and (self.cold_reason or "").startswith("purged: sha256 ")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k, v in d.items():
            if isinstance(v, _dt.datetime):
                d[k] = v.isoformat()
        return d


@dataclass(frozen=True, slots=True)
class EpisodeResult:
    """What :meth:`Memory.add_episode` stored: the episode, the facts it
    stated (as recorded), the versions it closed or retracted (each as it is
    now held or was expired, with ``reason``/``expire_reason`` saying why),
    and the entities it mentioned.

    ``unparsed``: the sentences no fact was read from (questions, filler and
    what the extractor does not understand), in order; they are stored
    verbatim in the episode and recall finds them, but no belief holds
    what they mean (a statement among them is held whole, as the speaker's
    :data:`SAID` belief, in ``facts``). ``notes``: what was read but not
    recorded, and why (a correction whose target is unclear, an ending of
    something not held, the agent's own statements)."""

    episode: Episode
    facts: list[Fact]
    superseded: list[Fact]
    entities: list[Entity]
    unparsed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
