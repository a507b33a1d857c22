"""A Graphiti-compatible async API over a midas_graph :class:`~midas_graph.Memory`.

Code written against graphiti-core runs unchanged except for the constructor::

    from midas_graph.graphiti import Graphiti      # instead of graphiti_core
    graphiti = Graphiti("agent.db")                # instead of Graphiti(uri, user, password)

    await graphiti.add_episode(name="turn 1", episode_body="user: I moved to Lisbon",
                               source_description="chat", reference_time=now)
    edges = await graphiti.search("Where does the user live?")

Ingest extracts with spaCy and revises with a local NLI model: no LLM, no
network, no API key. What differs from Graphiti (docs/graphiti.md):

* ``created_at`` / ``expired_at`` keep their transaction-time meaning (when the
  memory recorded / stopped holding that version); ``valid_at`` /
  ``invalid_at`` are the valid interval. Graphiti sets ``expired_at`` whenever
  it invalidates an edge; here a superseded edge has ``invalid_at`` set and
  ``expired_at`` open, a retracted one has ``expired_at`` set.
* Searches hide invalidated edges (superseded, ended, retracted) unless
  ``include_invalidated=True`` (or a filter on ``invalid_at``/``expired_at``);
  ``as_of`` / ``known_at`` ask about the past on either axis; ``history()``
  returns every version.
* ``EntityEdge.uuid`` is the belief's id, shared by its versions
  (``attributes["version"]`` tells them apart); ``name`` is the attribute in
  Graphiti's UPPER_SNAKE style (``LIVES_IN``). A literal value (a job title, a
  number) is not a node: ``target_node_uuid`` is ``None`` and the value is in
  ``attributes["value"]``.
* The LLM-schema arguments (``entity_types``, ``edge_types``,
  ``edge_type_map``, ``custom_extraction_instructions``, ``update_communities``,
  sagas, ``driver``) are accepted and ignored. ``build_communities`` works, with
  no LLM: Louvain communities over the entity graph, extractive summaries.
* ``group_id=None`` means the group ``"default"``.

Results are lightweight dataclasses with Graphiti's field names, so the module
works without graphiti-core installed; each has ``to_graphiti()`` for
graphiti-core's own pydantic models (``pip install 'midas-graph[graphiti]'``).
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import enum
import os
import re
import threading
import uuid as _uuid
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Sequence, TypeVar

from ._errors import InvalidInputError, MidasError
from ._memory import Memory
from ._time import TimeLike, parse_time
from ._types import Entity, Episode, EpisodeResult, Fact

__all__ = [
    "AddBulkEpisodeResults",
    "AddEpisodeResults",
    "AddTripletResults",
    "CommunityEdge",
    "CommunityNode",
    "ComparisonOperator",
    "DateFilter",
    "EntityEdge",
    "EntityNode",
    "EpisodeType",
    "EpisodicEdge",
    "EpisodicNode",
    "Graphiti",
    "RawEpisode",
    "SearchConfig",
    "SearchFilters",
    "SearchResults",
]

DEFAULT_GROUP = "default"
INSTALL_HINT = "pip install 'midas-graph[graphiti]'"
#: A retracted belief (found outside the recall index) joins a search only
#: when its sentence is at least this similar to the query (MiniLM cosine).
RETRACTED_MIN_COSINE = 0.25

T = TypeVar("T")


# -- enums and filters -------------------------------------------------------------

class EpisodeType(str, enum.Enum):
    """Graphiti's episode types. ``message`` bodies are ``"speaker: text"``
    lines; ``fact_triple`` is stored as a ``fact`` episode."""

    message = "message"
    json = "json"
    text = "text"
    fact_triple = "fact_triple"

    @staticmethod
    def from_str(episode_type: str) -> EpisodeType:
        try:
            return EpisodeType(episode_type)
        except ValueError:
            raise InvalidInputError("source", f"{episode_type!r} is not one of "
                                    f"{', '.join(e.value for e in EpisodeType)}") from None


_TO_MIDAS = {"message": "message", "json": "json", "text": "text", "fact_triple": "fact"}
_FROM_MIDAS = {"message": EpisodeType.message, "json": EpisodeType.json, "text": EpisodeType.text,
               "fact": EpisodeType.fact_triple}


class ComparisonOperator(str, enum.Enum):
    equals = "="
    not_equals = "<>"
    greater_than = ">"
    less_than = "<"
    greater_than_equal = ">="
    less_than_equal = "<="
    is_null = "IS NULL"
    is_not_null = "IS NOT NULL"


@dataclass
class DateFilter:
    date: _dt.datetime | None = None
    comparison_operator: ComparisonOperator | str = ComparisonOperator.equals


@dataclass
class SearchFilters:
    """Graphiti's search filters. Each date filter is a list of lists of
    :class:`DateFilter` (outer OR, inner AND). ``node_labels`` filters
    nodes; ``property_filters`` is not supported (an error if given)."""

    node_labels: list[str] | None = None
    edge_types: list[str] | None = None
    valid_at: list[list[DateFilter]] | None = None
    invalid_at: list[list[DateFilter]] | None = None
    created_at: list[list[DateFilter]] | None = None
    expired_at: list[list[DateFilter]] | None = None
    edge_uuids: list[str] | None = None
    edge_source_node_uuids: list[str] | None = None
    edge_target_node_uuids: list[str] | None = None
    property_filters: list[Any] | None = None


@dataclass
class SearchConfig:
    """The part of Graphiti's ``SearchConfig`` that applies: which kinds of
    results to return (a kind whose config is ``None`` is skipped) and how
    many. The search recipe itself (rerankers, BFS depth) is ours."""

    edge_config: Any = True
    node_config: Any = True
    episode_config: Any = True
    community_config: Any = None
    limit: int = 10
    reranker_min_score: float = 0


# -- result types ---------------------------------------------------------------------

def _graphiti(module: str):
    try:
        return __import__(f"graphiti_core.{module}", fromlist=["_"])
    except ImportError as exc:
        raise MidasError(f"to_graphiti() needs graphiti-core: {INSTALL_HINT}") from exc


@dataclass
class EntityNode:
    uuid: str
    name: str
    group_id: str
    labels: list[str] = field(default_factory=lambda: ["Entity"])
    created_at: _dt.datetime | None = None
    name_embedding: list[float] | None = None
    summary: str = ""
    attributes: dict[str, Any] = field(default_factory=dict)
    #: the midas_graph entity behind it
    entity: Entity | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, e: Entity) -> EntityNode:
        labels = ["Entity"] + ([e.kind] if e.kind and e.kind != "Entity" else [])
        return cls(uuid=e.id, name=e.name, group_id=e.group_id, labels=labels, created_at=e.created_at,
                   summary=e.summary, attributes={"aliases": list(e.aliases), "kind": e.kind}, entity=e)

    def to_graphiti(self):
        nodes = _graphiti("nodes")
        return nodes.EntityNode(
            uuid=self.uuid, name=self.name, group_id=self.group_id, labels=list(self.labels),
            created_at=self.created_at or _dt.datetime.now(_dt.timezone.utc), name_embedding=self.name_embedding,
            summary=self.summary, attributes=dict(self.attributes),
        )


@dataclass
class CommunityNode:
    """A Louvain community of the entity graph (:meth:`Graphiti.build_communities`).
    ``summary`` is extractive: its members' summaries, most central first;
    ``name`` its most central members' names."""

    uuid: str
    name: str
    group_id: str
    labels: list[str] = field(default_factory=lambda: ["Community"])
    created_at: _dt.datetime | None = None
    name_embedding: list[float] | None = None
    summary: str = ""
    #: extension: the member entities' uuids, most central first
    members: list[str] = field(default_factory=list)

    def to_graphiti(self):
        nodes = _graphiti("nodes")
        return nodes.CommunityNode(
            uuid=self.uuid, name=self.name, group_id=self.group_id, labels=list(self.labels),
            created_at=self.created_at or _dt.datetime.now(_dt.timezone.utc), name_embedding=self.name_embedding,
            summary=self.summary,
        )


@dataclass
class CommunityEdge:
    """Graphiti's HAS_MEMBER edge: community (source) -> member entity (target)."""

    uuid: str
    group_id: str
    source_node_uuid: str
    target_node_uuid: str
    created_at: _dt.datetime | None = None

    def to_graphiti(self):
        edges = _graphiti("edges")
        return edges.CommunityEdge(
            uuid=self.uuid, group_id=self.group_id, source_node_uuid=self.source_node_uuid,
            target_node_uuid=self.target_node_uuid, created_at=self.created_at or _dt.datetime.now(_dt.timezone.utc),
        )


@dataclass
class EpisodicNode:
    uuid: str
    name: str
    group_id: str
    source: EpisodeType
    source_description: str
    content: str
    valid_at: _dt.datetime
    created_at: _dt.datetime
    labels: list[str] = field(default_factory=lambda: ["Episodic"])
    entity_edges: list[str] = field(default_factory=list)
    #: the midas_graph episode behind it
    episode: Episode | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, ep: Episode, entity_edges: Iterable[str] = ()) -> EpisodicNode:
        source = _FROM_MIDAS.get(ep.source, EpisodeType.text)
        content = f"{ep.speaker}: {ep.content}" if source is EpisodeType.message else ep.content
        return cls(uuid=ep.id, name=ep.name or "", group_id=ep.group_id, source=source,
                   source_description=ep.source_description, content=content, valid_at=ep.reference_time,
                   created_at=ep.recorded_at, entity_edges=list(dict.fromkeys(entity_edges)), episode=ep)

    def to_graphiti(self):
        nodes = _graphiti("nodes")
        return nodes.EpisodicNode(
            uuid=self.uuid, name=self.name, group_id=self.group_id, labels=list(self.labels),
            created_at=self.created_at, source=nodes.EpisodeType(self.source.value),
            source_description=self.source_description, content=self.content, valid_at=self.valid_at,
            entity_edges=list(self.entity_edges),
        )


@dataclass
class EpisodicEdge:
    """An episode mentions an entity (Graphiti's MENTIONS edge)."""

    uuid: str
    group_id: str
    source_node_uuid: str
    target_node_uuid: str
    created_at: _dt.datetime

    def to_graphiti(self):
        return _graphiti("edges").EpisodicEdge(
            uuid=self.uuid, group_id=self.group_id, source_node_uuid=self.source_node_uuid,
            target_node_uuid=self.target_node_uuid, created_at=self.created_at,
        )


@dataclass
class EntityEdge:
    """One version of one belief, in Graphiti's edge shape.

    ``created_at``/``expired_at``: transaction time (recorded / no longer
    held); ``valid_at``/``invalid_at``: valid time. ``attributes`` carries
    ``value``, ``attribute``, ``status`` (current|superseded|ended|retracted|
    revised), ``superseded_by``, ``supersedes``, ``provenance``, ``reason``,
    ``expire_reason``, ``version``, ``confidence``.
    """

    uuid: str
    group_id: str
    source_node_uuid: str
    target_node_uuid: str | None
    name: str
    fact: str
    created_at: _dt.datetime
    episodes: list[str] = field(default_factory=list)
    expired_at: _dt.datetime | None = None
    valid_at: _dt.datetime | None = None
    invalid_at: _dt.datetime | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    fact_embedding: list[float] | None = None
    #: the midas_graph fact version behind it
    midas_fact: Fact | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, f: Fact) -> EntityEdge:
        return cls(
            uuid=f.id, group_id=f.group_id, source_node_uuid=f.subject_id, target_node_uuid=f.object_id,
            name=f.attribute.upper(), fact=f.text, created_at=f.recorded_at,
            episodes=[f.episode_id] if f.episode_id else [], expired_at=f.expired_at,
            valid_at=f.valid_from, invalid_at=f.valid_to,
            attributes={
                "subject": f.subject, "attribute": f.attribute, "value": f.value, "status": f.status,
                "superseded_by": f.superseded_by, "supersedes": list(f.supersedes),
                "provenance": f.provenance, "reason": f.reason, "expire_reason": f.expire_reason,
                "version": f.version, "confidence": f.confidence, "source": f.source,
            },
            midas_fact=f,
        )

    def to_graphiti(self):
        attributes = {k: (v.isoformat() if isinstance(v, _dt.datetime) else v) for k, v in self.attributes.items()}
        return _graphiti("edges").EntityEdge(
            uuid=self.uuid, group_id=self.group_id, source_node_uuid=self.source_node_uuid,
            target_node_uuid=self.target_node_uuid or "", created_at=self.created_at, name=self.name,
            fact=self.fact, fact_embedding=self.fact_embedding, episodes=list(self.episodes),
            expired_at=self.expired_at, valid_at=self.valid_at, invalid_at=self.invalid_at,
            attributes=attributes,
        )


@dataclass
class RawEpisode:
    name: str
    content: str
    source_description: str = ""
    source: EpisodeType | str = EpisodeType.message
    reference_time: _dt.datetime | str | None = None
    uuid: str | None = None


def _convert(items: Iterable[Any]) -> list[Any]:
    return [x.to_graphiti() for x in items]


@dataclass
class SearchResults:
    edges: list[EntityEdge] = field(default_factory=list)
    edge_reranker_scores: list[float] = field(default_factory=list)
    nodes: list[EntityNode] = field(default_factory=list)
    node_reranker_scores: list[float] = field(default_factory=list)
    episodes: list[EpisodicNode] = field(default_factory=list)
    episode_reranker_scores: list[float] = field(default_factory=list)
    communities: list[Any] = field(default_factory=list)
    community_reranker_scores: list[float] = field(default_factory=list)

    def to_graphiti(self):
        return _graphiti("search.search_config").SearchResults(
            edges=_convert(self.edges), edge_reranker_scores=list(self.edge_reranker_scores),
            nodes=_convert(self.nodes), node_reranker_scores=list(self.node_reranker_scores),
            episodes=_convert(self.episodes), episode_reranker_scores=list(self.episode_reranker_scores),
            communities=_convert(self.communities), community_reranker_scores=list(self.community_reranker_scores),
        )


@dataclass
class AddEpisodeResults:
    episode: EpisodicNode
    episodic_edges: list[EpisodicEdge]
    nodes: list[EntityNode]
    #: the facts the episode stated, then the versions it closed (as Graphiti:
    #: new and invalidated edges together)
    edges: list[EntityEdge]
    communities: list[Any] = field(default_factory=list)
    community_edges: list[Any] = field(default_factory=list)
    #: extension: the closed versions alone
    invalidated: list[EntityEdge] = field(default_factory=list)
    #: extension: every turn stored, when a message body had several speakers
    #: (``episode`` is the first)
    turns: list[EpisodicNode] = field(default_factory=list)

    def to_graphiti(self):
        g = _graphiti("graphiti")
        return g.AddEpisodeResults(
            episode=self.episode.to_graphiti(), episodic_edges=_convert(self.episodic_edges),
            nodes=_convert(self.nodes), edges=_convert(self.edges), communities=[], community_edges=[],
        )


@dataclass
class AddBulkEpisodeResults:
    episodes: list[EpisodicNode]
    episodic_edges: list[EpisodicEdge]
    nodes: list[EntityNode]
    edges: list[EntityEdge]
    communities: list[Any] = field(default_factory=list)
    community_edges: list[Any] = field(default_factory=list)

    def to_graphiti(self):
        g = _graphiti("graphiti")
        return g.AddBulkEpisodeResults(
            episodes=_convert(self.episodes), episodic_edges=_convert(self.episodic_edges),
            nodes=_convert(self.nodes), edges=_convert(self.edges), communities=[], community_edges=[],
        )


@dataclass
class AddTripletResults:
    nodes: list[EntityNode]
    edges: list[EntityEdge]

    def to_graphiti(self):
        return _graphiti("graphiti").AddTripletResults(nodes=_convert(self.nodes), edges=_convert(self.edges))


# -- helpers ---------------------------------------------------------------------------

def _group(group_id: Any, field_name: str = "group_id", default: str = DEFAULT_GROUP) -> str:
    """A group id; None or "" (Graphiti's default group) mean ``default``."""
    if group_id is None or group_id == "":
        return default
    if not isinstance(group_id, str) or not group_id.strip():
        raise InvalidInputError(field_name, f"expected a non-empty string, got {group_id!r}")
    return group_id


def _stated(store, episodes: Sequence[Episode]) -> dict[tuple[str, str], list[Fact]]:
    """Every version of the facts each episode stated, by (group, episode id):
    episode ids are per group."""
    by_group: dict[str, list[str]] = {}
    for e in episodes:
        by_group.setdefault(e.group_id, []).append(e.id)
    return {(g, i): fs for g, ids in by_group.items() for i, fs in store.facts_from_episodes(ids, g).items()}


def _groups(group_ids: Any, default: str = DEFAULT_GROUP) -> list[str]:
    """A list of group ids, each as :func:`_group` reads it; None or [] mean
    ``[default]``. Shared by this module and the MCP server."""
    if group_ids is None:
        return [default]
    if isinstance(group_ids, str) or not isinstance(group_ids, (list, tuple, set)):
        raise InvalidInputError("group_ids", "expected a list of group ids")
    out = [_group(g, "group_ids", default) for g in group_ids]
    return list(dict.fromkeys(out)) or [default]


def _source(source: Any) -> str:
    """An EpisodeType (ours or graphiti-core's) or its string -> our source name."""
    value = getattr(source, "value", source)
    if not isinstance(value, str) or value not in _TO_MIDAS:
        raise InvalidInputError("source", f"{source!r} is not one of {', '.join(_TO_MIDAS)}")
    return _TO_MIDAS[value]


def _positive(value: Any, field_name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidInputError(field_name, f"must be a positive integer, got {value!r}")
    return value


# "Dana: hi", "Dana (user): hi", "assistant: ok" -- a short name, then ": ".
_TURN = re.compile(r"^\s*([^\s:()][^:\n()]{0,48}?)\s*(?:\(([^()\n]{1,24})\))?\s*:\s+(\S.*)$")


def split_turns(body: str) -> list[tuple[str, str]]:
    """A message body as (speaker, text) turns. Lines without a speaker
    prefix continue the previous turn; a body with no prefix at all is one
    turn of ``"user"``."""
    turns: list[list[str]] = []
    for line in body.splitlines():
        m = _TURN.match(line)
        if m and not m.group(1).lower().startswith(("http", "www")) and len(m.group(1).split()) <= 4:
            turns.append([m.group(1).strip(), m.group(3)])
        elif turns:
            turns[-1][1] += "\n" + line
        elif line.strip():
            turns.append(["user", line])
    out = [(s, t.strip()) for s, t in turns if t.strip()]
    return out or [("user", body)]


def _rename(exc: InvalidInputError, names: dict[str, str], prefix: str = "") -> InvalidInputError:
    head, _, rest = exc.field.partition(".")
    new_field = prefix + names.get(head, head) + ("." + rest if rest else "")
    return InvalidInputError(new_field, str(exc).split(": ", 1)[-1])


_EPISODE_FIELDS = {"content": "episode_body", "episode_id": "uuid"}


_OPERATORS = frozenset(o.value for o in ComparisonOperator)


def _cmp(value: _dt.datetime | None, flt: Any) -> bool:
    op = getattr(flt, "comparison_operator", None)
    op = getattr(op, "value", op)
    if op not in _OPERATORS:
        raise InvalidInputError("search_filter.comparison_operator", f"unknown operator {op!r}")
    if op == "IS NULL":
        return value is None
    if op == "IS NOT NULL":
        return value is not None
    when = parse_time(getattr(flt, "date", None), "search_filter.date")
    if value is None or when is None:
        return False
    if op == "=":
        return value == when
    if op == "<>":
        return value != when
    if op == ">":
        return value > when
    if op == "<":
        return value < when
    if op == ">=":
        return value >= when
    return value <= when


class _Filter:
    """A SearchFilters (ours or graphiti-core's), checked once, applied to edges and nodes."""

    DATES = ("valid_at", "invalid_at", "created_at", "expired_at")

    def __init__(self, flt: Any, registry) -> None:
        self.flt = flt
        get = (lambda name: getattr(flt, name, None)) if flt is not None else (lambda name: None)
        if get("property_filters"):
            raise InvalidInputError("search_filter.property_filters", "not supported by midas_graph")
        types = get("edge_types")
        self.edge_types = {registry.key(t) for t in types} if types else None
        self.uuids = set(get("edge_uuids") or ()) or None
        self.sources = set(get("edge_source_node_uuids") or ()) or None
        self.targets = set(get("edge_target_node_uuids") or ()) or None
        self.labels = set(get("node_labels") or ()) or None
        self.dates = {d: get(d) for d in self.DATES if get(d)}
        for name, groups in self.dates.items():
            if not isinstance(groups, (list, tuple)) or not all(isinstance(g, (list, tuple)) for g in groups):
                raise InvalidInputError(f"search_filter.{name}", "expected a list of lists of DateFilter")
            for g in groups:
                for f in g:
                    _cmp(None, f)  # validates the operator and the date
                    parse_time(getattr(f, "date", None), f"search_filter.{name}.date")

    @property
    def wants_invalidated(self) -> bool:
        return "invalid_at" in self.dates or "expired_at" in self.dates

    @property
    def narrows(self) -> bool:
        return bool(self.edge_types or self.uuids or self.sources or self.targets or self.dates)

    def edge(self, e: EntityEdge) -> bool:
        if self.edge_types is not None and e.attributes.get("attribute") not in self.edge_types:
            return False
        if self.uuids is not None and e.uuid not in self.uuids:
            return False
        if self.sources is not None and e.source_node_uuid not in self.sources:
            return False
        if self.targets is not None and e.target_node_uuid not in self.targets:
            return False
        for name, groups in self.dates.items():
            value = getattr(e, name)
            if not any(all(_cmp(value, f) for f in group) for group in groups):
                return False
        return True

    def node(self, n: EntityNode) -> bool:
        return self.labels is None or bool(self.labels & set(n.labels))


# -- the API ----------------------------------------------------------------------------

class Graphiti:
    """Graphiti's async API on an embedded midas_graph :class:`Memory`.

    ``Graphiti(path=None, *, engine=None, memory=None, **memory_kwargs)``:
    ``path=None`` is an in-memory database; ``memory_kwargs`` go to
    :class:`Memory` (``clock``, ``embedder``, ``nli``, ...). Or wrap an open
    ``memory`` (then :meth:`close` leaves it open). Blocking work runs in a
    worker thread, one call at a time.
    """

    def __init__(self, path: str | os.PathLike | None = None, *, engine: str | None = None,
                 memory: Memory | None = None, **memory_kwargs: Any) -> None:
        if memory is not None:
            if not isinstance(memory, Memory):
                raise InvalidInputError("memory", f"expected a midas_graph.Memory, got {type(memory).__name__}")
            if path is not None or engine is not None or memory_kwargs:
                raise InvalidInputError("memory", "give either an open memory or path/engine/options, not both")
            self.memory, self._owns = memory, False
        else:
            self.memory, self._owns = Memory(path, engine=engine, **memory_kwargs), True
        self._lock = threading.Lock()
        self._closed = False
        self._communities: dict[str, tuple[int, list[CommunityNode], Any]] = {}  # per store generation

    def __repr__(self) -> str:
        return f"Graphiti(memory={self.memory!r})"

    # -- plumbing ----------------------------------------------------------------
    async def _run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self._closed:
            raise MidasError("this Graphiti is closed")

        def call() -> T:
            with self._lock:
                return fn(*args, **kwargs)

        return await asyncio.to_thread(call)

    async def close(self) -> None:
        """Close the memory (unless it was handed in already open)."""
        if not self._closed:
            self._closed = True
            if self._owns:
                await asyncio.to_thread(self.memory.close)

    async def __aenter__(self) -> Graphiti:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def build_indices_and_constraints(self, delete_existing: bool = False) -> None:
        """Nothing to do: the schema is created (and migrated) when the memory opens."""
        if self._closed:
            raise MidasError("this Graphiti is closed")

    # -- ingest ------------------------------------------------------------------
    async def add_episode(
        self,
        name: str,
        episode_body: str,
        source_description: str,
        reference_time: _dt.datetime | str | None,
        source: EpisodeType | str = EpisodeType.message,
        group_id: str | None = None,
        uuid: str | None = None,
        update_communities: bool = False,
        entity_types: Any = None,
        excluded_entity_types: Any = None,
        previous_episode_uuids: Any = None,
        edge_types: Any = None,
        edge_type_map: Any = None,
        custom_extraction_instructions: Any = None,
        saga: Any = None,
        saga_previous_episode_uuid: Any = None,
    ) -> AddEpisodeResults:
        """Store an episode and extract its facts (no LLM). A ``message`` body
        is ``"speaker: text"``; a body with several speakers is stored as one
        episode per turn (``uuid`` names the first, ``<uuid>-2`` ... the rest).
        The LLM-schema arguments are accepted and ignored."""
        items = self._items(name, episode_body, source_description, reference_time, source, group_id, uuid)
        results = await self._run(self._add, items, "")
        return self._episode_results(results)

    async def add_episode_bulk(
        self,
        bulk_episodes: Sequence[Any],
        group_id: str | None = None,
        entity_types: Any = None,
        excluded_entity_types: Any = None,
        edge_types: Any = None,
        edge_type_map: Any = None,
        strict_edge_types: bool = False,
        custom_extraction_instructions: Any = None,
        saga: Any = None,
        use_combined_extraction: bool = True,
    ) -> AddBulkEpisodeResults:
        """Many episodes (our :class:`RawEpisode` or graphiti-core's), in order,
        parsing and embeddings batched. All are validated before any is stored."""
        if isinstance(bulk_episodes, (str, bytes)) or not isinstance(bulk_episodes, (list, tuple)):
            raise InvalidInputError("bulk_episodes", "expected a list of RawEpisode")
        items: list[dict[str, Any]] = []
        for i, raw in enumerate(bulk_episodes):
            try:
                get = (lambda k, _r=raw: _r.get(k)) if isinstance(raw, dict) else (
                    lambda k, _r=raw: getattr(_r, k, None))
                items.extend(self._items(get("name"), get("content"), get("source_description") or "",
                                         get("reference_time"), get("source") or EpisodeType.message,
                                         group_id, get("uuid")))
            except InvalidInputError as exc:
                raise _rename(exc, {"episode_body": "content"}, f"bulk_episodes[{i}].") from None
        results = await self._run(self._add, items, "bulk_episodes")
        eps = [self._episode_results([r]) for r in results]
        return AddBulkEpisodeResults(
            episodes=[e.episode for e in eps],
            episodic_edges=[x for e in eps for x in e.episodic_edges],
            nodes=list({n.uuid: n for e in eps for n in e.nodes}.values()),
            edges=list({x.uuid: x for e in eps for x in e.edges}.values()),
        )

    def _items(self, name, body, source_description, reference_time, source, group_id, uuid) -> list[dict]:
        if not isinstance(name, str):
            raise InvalidInputError("name", f"expected a string, got {type(name).__name__}")
        if not isinstance(body, str) or not body.strip():
            raise InvalidInputError("episode_body", "must be a non-empty string")
        if not isinstance(source_description, str):
            raise InvalidInputError("source_description", "expected a string")
        if uuid is not None and (not isinstance(uuid, str) or not uuid.strip()):
            raise InvalidInputError("uuid", "must be a non-empty string")
        src, group = _source(source), _group(group_id)
        when = parse_time(reference_time, "reference_time") or self.memory.now()
        base = dict(reference_time=when, group_id=group, source=src, source_description=source_description)
        if src != "message":
            return [dict(base, content=body, name=name, episode_id=uuid)]
        turns = split_turns(body)
        out = []
        for i, (speaker, text) in enumerate(turns, 1):
            eid = uuid if i == 1 or uuid is None else f"{uuid}-{i}"
            label = name if len(turns) == 1 else f"{name} ({i}/{len(turns)})"
            out.append(dict(base, content=text, speaker=speaker, name=label, episode_id=eid))
        return out

    def _add(self, items: list[dict], where: str) -> list[EpisodeResult]:
        ids = [i["episode_id"] for i in items if i.get("episode_id")]
        taken: set[str] = set()
        for g in {i["group_id"] for i in items if i.get("episode_id")}:  # episode ids are per group
            mine = [i["episode_id"] for i in items if i.get("episode_id") and i["group_id"] == g]
            taken.update(self.memory._store.episode_keys(g, mine))
        dup = next((i for n, i in enumerate(ids) if i in taken or i in ids[:n]), None)
        if dup is not None:  # checked before anything is stored
            raise InvalidInputError(f"{where}.uuid" if where else "uuid", f"an episode with uuid {dup!r} already exists")
        try:
            results = self.memory.add_episodes(items, group_id=items[0]["group_id"] if items else DEFAULT_GROUP)
            # the nodes carry their summaries as they stand after the episodes (docs/forgetting.md)
            return [replace(r, entities=self._summarized(r.entities)) for r in results]
        except InvalidInputError as exc:
            field_name = re.sub(r"^episodes\[\d+\]\.", "", exc.field)
            raise _rename(InvalidInputError(field_name, str(exc).split(": ", 1)[-1]), _EPISODE_FIELDS,
                          f"{where}." if where else "") from None

    def _episode_results(self, results: list[EpisodeResult]) -> AddEpisodeResults:
        turns, mentions, nodes, stated, closed = [], [], {}, {}, {}
        for r in results:
            turns.append(EpisodicNode.of(r.episode, [f.id for f in r.facts]))
            for e in r.entities:
                nodes.setdefault(e.id, EntityNode.of(e))
                mentions.append(EpisodicEdge(
                    uuid=str(_uuid.uuid5(_uuid.NAMESPACE_OID, f"{r.episode.id}\x1f{e.id}")),
                    group_id=r.episode.group_id, source_node_uuid=r.episode.id, target_node_uuid=e.id,
                    created_at=r.episode.recorded_at,
                ))
            stated.update((f.id, EntityEdge.of(f)) for f in r.facts)
            closed.update((f.id, EntityEdge.of(f)) for f in r.superseded)
        invalidated = [e for k, e in closed.items() if k not in stated]
        return AddEpisodeResults(
            episode=turns[0], episodic_edges=mentions, nodes=list(nodes.values()),
            edges=[*stated.values(), *invalidated], invalidated=invalidated, turns=turns,
        )

    async def add_triplet(self, source_node: Any, edge: Any, target_node: Any, episode: Any = None) -> AddTripletResults:
        """Store the caller's own (source, edge, target) as a fact, with no
        extraction: subject = ``source_node.name``, attribute = ``edge.name``,
        value = ``target_node.name`` (an entity), text = ``edge.fact``, valid
        from ``edge.valid_at`` to ``edge.invalid_at``. The uuids given are not
        kept: the results carry the stored ids."""
        names = {}
        for obj, label in ((source_node, "source_node"), (edge, "edge"), (target_node, "target_node")):
            n = getattr(obj, "name", None)
            if not isinstance(n, str) or not n.strip():
                raise InvalidInputError(f"{label}.name", "must be a non-empty string")
            names[label] = n.strip()
        fact_text = getattr(edge, "fact", None)
        if fact_text is not None and not isinstance(fact_text, str):
            raise InvalidInputError("edge.fact", "expected a string")
        group = _group(getattr(edge, "group_id", None) or getattr(source_node, "group_id", None), "edge.group_id")
        return await self._run(self._triplet, source_node, edge, target_node, names, fact_text or None, group)

    def _triplet(self, source_node, edge, target_node, names, fact_text, group) -> AddTripletResults:
        mem = self.memory

        def kind(node) -> str:
            labels = [x for x in (getattr(node, "labels", None) or []) if isinstance(x, str) and x != "Entity"]
            return labels[0] if labels else "CONCEPT"

        row = dict(subject=names["source_node"], attribute=names["edge"], value=names["target_node"],
                   text=fact_text, valid_from=getattr(edge, "valid_at", None),
                   valid_to=getattr(edge, "invalid_at", None), source="add_triplet")
        try:
            mem._draft(row, group)  # validate before the nodes are written
            src = mem.add_entity(row["subject"], group_id=group, kind=kind(source_node),
                                 summary=getattr(source_node, "summary", "") or "")
            tgt = mem.add_entity(row["value"], group_id=group, kind=kind(target_node),
                                 summary=getattr(target_node, "summary", "") or "")
            fact = mem.add_fact(**{**row, "subject": src.name, "value": tgt.name}, group_id=group)
        except InvalidInputError as exc:
            raise _rename(exc, {"subject": "source_node.name", "attribute": "edge.name",
                                "value": "target_node.name", "text": "edge.fact",
                                "valid_from": "edge.valid_at", "valid_to": "edge.invalid_at"}) from None
        return AddTripletResults(nodes=[EntityNode.of(x) for x in self._summarized([src, tgt])],
                                 edges=[EntityEdge.of(fact)])

    def _summarized(self, entities: Sequence[Entity]) -> list[Entity]:
        """``entities`` with their extractive summaries (``Entity.summary``,
        docs/forgetting.md) where none was given."""
        return self.memory._summaries.fill(self.memory, list(entities))

    # -- reading -----------------------------------------------------------------
    async def search(
        self,
        query: str,
        center_node_uuid: str | None = None,
        group_ids: list[str] | None = None,
        num_results: int = 10,
        search_filter: Any = None,
        driver: Any = None,
        *,
        as_of: TimeLike | None = None,
        known_at: TimeLike | None = None,
        include_invalidated: bool = False,
    ) -> list[EntityEdge]:
        """The ``num_results`` edges most relevant to ``query``, best first.

        Hybrid recall (BM25, MiniLM cosine, the query's entities' subgraph).
        Only edges valid at ``as_of`` as believed at ``known_at`` (both
        default now) unless ``include_invalidated``; edges touching
        ``center_node_uuid`` come first."""
        edges, _ = await self._run(self._edges, query, group_ids, num_results, search_filter, as_of, known_at,
                                   include_invalidated, [center_node_uuid] if center_node_uuid else [])
        return edges

    async def search_(
        self,
        query: str,
        config: Any = None,
        group_ids: list[str] | None = None,
        center_node_uuid: str | None = None,
        bfs_origin_node_uuids: list[str] | None = None,
        search_filter: Any = None,
        driver: Any = None,
        query_vector: Any = None,
        *,
        as_of: TimeLike | None = None,
        known_at: TimeLike | None = None,
        include_invalidated: bool = False,
    ) -> SearchResults:
        """Edges, nodes, episodes and communities for ``query``. ``config``
        (ours or graphiti-core's ``SearchConfig``, e.g. a recipe of
        ``graphiti_core.search.search_config_recipes``) chooses the kinds and
        the limit; with no config: edges, nodes and episodes. Edges touching
        ``center_node_uuid`` or ``bfs_origin_node_uuids`` come first.
        Communities (:meth:`build_communities`; computed when first asked,
        no need to build them first) rank by the cosine of their name and
        summary with the query."""
        limit = _positive(getattr(config, "limit", 10) if config is not None else 10, "config.limit")
        want = {k: config is None or getattr(config, f"{k}_config", None) is not None
                for k in ("edge", "node", "episode")}
        want["community"] = config is not None and getattr(config, "community_config", None) is not None
        centers = [center_node_uuid] if center_node_uuid else []
        if bfs_origin_node_uuids:
            if isinstance(bfs_origin_node_uuids, str):
                raise InvalidInputError("bfs_origin_node_uuids", "expected a list of uuids")
            centers += list(bfs_origin_node_uuids)
        return await self._run(self._search_all, query, group_ids, limit, search_filter, as_of, known_at,
                               include_invalidated, centers, want)

    def _search_all(self, query, group_ids, limit, search_filter, as_of, known_at, include_invalidated,
                    centers, want) -> SearchResults:
        out = SearchResults()
        edges, hits = self._edges(query, group_ids, limit, search_filter, as_of, known_at, include_invalidated,
                                  centers, episodes=want["episode"])
        if want["edge"]:
            out.edges = edges
            out.edge_reranker_scores = [e.attributes.get("score", 0.0) for e in edges]
        if want["node"]:
            flt = _Filter(search_filter, self.memory.registry)
            scored = []
            near = centers[0] if centers else None
            for g in _groups(group_ids):
                scored += [(EntityNode.of(e), s) for e, s in
                           self.memory.search_entities(query, k=limit * 2, group_id=g, near=near)]
            scored = [(n, s) for n, s in scored if flt.node(n)]
            if near is None:  # else keep search_entities' order: the center's neighbourhood first
                scored.sort(key=lambda x: -x[1])
            scored = scored[:limit]
            out.nodes, out.node_reranker_scores = [n for n, _ in scored], [s for _, s in scored]
        if want["episode"]:
            eps = sorted((h for h in hits if h.kind == "episode"), key=lambda h: -h.score)[:limit]
            stated = _stated(self.memory._store, [h.episode for h in eps])
            out.episodes = [EpisodicNode.of(h.episode, [f.id for f in stated.get((h.episode.group_id, h.id), [])])
                            for h in eps]
            out.episode_reranker_scores = [h.score for h in eps]
        if want["community"]:
            ranked = []
            qvec = None
            for g in _groups(group_ids):
                nodes, vecs = self._communities_of(g)
                if nodes:
                    if qvec is None:
                        qvec = self.memory._embedder().embed([query])[0]
                    ranked += [(n, float(v @ qvec)) for n, v in zip(nodes, vecs)]
            ranked.sort(key=lambda x: -x[1])
            ranked = ranked[:limit]
            out.communities = [n for n, _ in ranked]
            out.community_reranker_scores = [round(sc, 6) for _, sc in ranked]
        return out

    def _communities_of(self, group: str) -> tuple[list[CommunityNode], Any]:
        """The group's communities and the vectors of their name and summary,
        cached per store generation (any write recomputes them)."""
        import numpy as np

        from ._summaries import communities

        mem = self.memory
        gen = mem._store.generation
        hit = self._communities.get(group)
        if hit is not None and hit[0] == gen:
            return hit[1], hit[2]
        now = mem.now()
        found = communities(mem, group)
        nodes = [CommunityNode(uuid=c.id, name=c.name, group_id=c.group_id, created_at=now, summary=c.summary,
                               members=list(c.members)) for c in found]
        vecs = (np.asarray(mem._embedder().embed([f"{n.name}. {n.summary}" for n in nodes]), dtype=np.float32)
                if nodes else np.zeros((0, 384), dtype=np.float32))
        self._communities[group] = (gen, nodes, vecs)
        return nodes, vecs

    async def build_communities(self, group_ids: list[str] | None = None, driver: Any = None
                                ) -> tuple[list[CommunityNode], list[CommunityEdge]]:
        """Graphiti's ``build_communities``, with no LLM: Louvain communities
        (networkx, seeded) over each group's entity graph (held facts between
        entities and co-mentions in episodes), each named by its most central
        members and summarised by its members' extractive summaries
        (docs/forgetting.md, "Communities"). Returns ``(communities,
        HAS_MEMBER edges)`` like Graphiti. Nothing is stored: they are
        computed from the memory as it is (cached until the next write), so
        they never go stale, and :meth:`search_` finds them with a
        ``community_config``. ``driver`` is accepted and ignored."""
        groups = _groups(group_ids)

        def run() -> tuple[list[CommunityNode], list[CommunityEdge]]:
            nodes: list[CommunityNode] = []
            for g in groups:
                nodes += self._communities_of(g)[0]
            edges = [CommunityEdge(uuid=str(_uuid.uuid5(_uuid.NAMESPACE_OID, f"{n.uuid}\x1f{m}")),
                                   group_id=n.group_id, source_node_uuid=n.uuid, target_node_uuid=m,
                                   created_at=n.created_at) for n in nodes for m in n.members]
            return nodes, edges

        return await self._run(run)

    def _edges(self, query, group_ids, num_results, search_filter, as_of, known_at, include_invalidated,
               centers, episodes: bool = False):
        mem = self.memory
        if not isinstance(query, str) or not query.strip():
            raise InvalidInputError("query", "must be a non-empty string")
        _positive(num_results, "num_results")
        if not isinstance(include_invalidated, bool):
            raise InvalidInputError("include_invalidated", "expected True or False")
        groups = _groups(group_ids)
        flt = _Filter(search_filter, mem.registry)
        past = include_invalidated or flt.wants_invalidated
        now = mem.now()
        t = parse_time(as_of, "as_of")
        kt = parse_time(known_at, "known_at") or now
        fetch = num_results * (5 if flt.narrows or centers else 2) + 10
        qvec = mem._embedder().embed([query])[0]
        scored: list[tuple[Fact, float]] = []
        hits = []
        for g in groups:
            found = mem._recaller().recall(query, k=fetch, valid_at=t or now, known_at=kt, group_id=g,
                                           speaker="user", qvec=qvec, explicit_valid=t is not None,
                                           include_past=past)
            hits += found
            facts = [(h.fact, h.score) for h in found if h.kind == "fact" and h.fact is not None]
            # a retracted belief is outside the recall index: it can only matter to
            # invalidated edges, or when asking about a time before its retraction
            scored += self._with_retracted(g, facts, qvec, t or now, kt, past) if past or known_at else facts
        scored.sort(key=lambda x: -x[1])
        edges = []
        for f, s in scored:
            e = EntityEdge.of(f)
            e.attributes["score"] = round(float(s), 6)
            if flt.edge(e):
                edges.append(e)
        if centers:
            near = set(centers)
            edges.sort(key=lambda e: 0 if {e.source_node_uuid, e.target_node_uuid} & near else 1)
        return edges[:num_results], hits

    def _with_retracted(self, group, facts, qvec, valid_at, known_at, past) -> list[tuple[Fact, float]]:
        """Merge in retracted beliefs, which the recall index no longer holds:
        as they were held at ``known_at`` (if it is before the retraction), or
        as retracted when invalidated edges are wanted. Each is placed by the
        cosine of its sentence among the recalled facts."""
        import numpy as np

        store = self.memory._store
        have = {f.id for f, _ in facts}
        extra: list[Fact] = []
        for r in store.retracted(group):
            if r.id in have or r.recorded_at > known_at and r.version == 1:
                continue
            versions = store.versions(r.id) if r.version > 1 else [r]
            held = [v for v in versions if v.held_at(known_at)]
            if held and (past or held[0].valid_at(valid_at)):
                extra.append(held[0])
            elif not held and past and r.expired_at is not None and r.expired_at <= known_at:
                extra.append(r)
        if not extra:
            return facts
        ids = [f.id for f, _ in facts] + [f.id for f in extra]
        vecs = store.vectors("FactVector", ids)
        missing = [f for f in extra if f.id not in vecs]
        if missing:
            from ._store import fact_document

            for f, v in zip(missing, self.memory._embedder().embed(
                    [fact_document(f.subject, f.attribute, f.value, f.text) for f in missing])):
                vecs[f.id] = np.asarray(v, dtype=np.float32).tobytes()
        cos = {i: float(np.frombuffer(b, dtype=np.float32) @ qvec) for i, b in vecs.items()}
        out = list(facts)
        for f in sorted(extra, key=lambda f: -cos[f.id]):
            c = cos[f.id]
            if c < RETRACTED_MIN_COSINE:
                continue
            # just above the first recalled fact that is less similar to the query
            pos = next((i for i, (g, _) in enumerate(out) if cos.get(g.id, -1.0) < c), len(out))
            score = out[pos][1] + 1e-6 if pos < len(out) else (out[-1][1] - 1e-6 if out else c)
            out.insert(pos, (f, score))
        return out

    async def retrieve_episodes(
        self,
        reference_time: _dt.datetime | str,
        last_n: int = 3,
        group_ids: list[str] | None = None,
        source: EpisodeType | str | None = None,
        driver: Any = None,
        saga: Any = None,
    ) -> list[EpisodicNode]:
        """The ``last_n`` episodes said at or before ``reference_time``, oldest first."""
        _positive(last_n, "last_n")
        when = parse_time(reference_time, "reference_time")
        src = _source(source) if source is not None else None
        groups = _groups(group_ids)

        def run() -> list[EpisodicNode]:
            eps: list[Episode] = []
            for g in groups:
                eps += self.memory.episodes(group_id=g, last_n=last_n, before=when, source=src)
            eps = sorted(eps, key=lambda e: (e.reference_time, e.recorded_at, e.id))[-last_n:]
            stated = _stated(self.memory._store, eps)
            return [EpisodicNode.of(e, [f.id for f in stated[(e.group_id, e.id)]]) for e in eps]

        return await self._run(run)

    async def remove_episode(self, episode_uuid: str) -> list[EntityEdge]:
        """Delete an episode, retract the facts it stated and give back what
        it closed (superseded, ended or corrected beliefs hold again, unless
        changed since; see :meth:`Memory.remove_episode`). Returns the
        retracted edges (Graphiti returns nothing). Entities stay; retracted
        versions stay in :meth:`history`."""
        facts = await self._run(self.memory.remove_episode, episode_uuid)
        return [EntityEdge.of(f) for f in facts]

    async def get_nodes_and_edges_by_episode(self, episode_uuids: list[str]) -> SearchResults:
        """The episodes, the entities they mention and the facts they stated
        (latest version of each). Unknown uuids are skipped."""
        if isinstance(episode_uuids, str) or not isinstance(episode_uuids, (list, tuple)):
            raise InvalidInputError("episode_uuids", "expected a list of episode uuids")
        if not all(isinstance(u, str) and u for u in episode_uuids):
            raise InvalidInputError("episode_uuids", "every uuid must be a non-empty string")

        def run() -> SearchResults:
            store = self.memory._store
            eps = store.episodes_by_id(list(dict.fromkeys(episode_uuids)))
            stated = _stated(store, eps)
            latest: dict[str, Fact] = {}
            for e in eps:
                for f in stated[(e.group_id, e.id)]:
                    if f.id not in latest or f.version > latest[f.id].version:
                        latest[f.id] = f
            entity_ids = list(dict.fromkeys(i for e in eps for i in store.mentioned(e.id, e.group_id)))
            return SearchResults(
                edges=[EntityEdge.of(f) for f in sorted(latest.values(), key=lambda f: (f.recorded_at, f.id))],
                nodes=[EntityNode.of(x) for x in self._summarized(store.entities_by_id(entity_ids))],
                episodes=[EpisodicNode.of(e, [f.id for f in stated[(e.group_id, e.id)]]) for e in eps],
            )

        return await self._run(run)

    # -- extensions ----------------------------------------------------------------
    async def history(self, subject: str, attribute: str | None = None,
                      group_id: str | None = None) -> list[EntityEdge]:
        """Every version of every belief about ``subject`` (superseded,
        ended and retracted ones included), as edges."""
        facts = await self._run(self.memory.history, subject, attribute, group_id=_group(group_id))
        return [EntityEdge.of(f) for f in facts]

    async def get_entity_edge(self, uuid: str) -> EntityEdge:
        """The latest version of one edge (``NotFoundError`` if unknown)."""
        return EntityEdge.of(await self._run(self.memory.fact, uuid))

    async def get_episode(self, uuid: str) -> EpisodicNode:
        """One episode (``NotFoundError`` if unknown)."""
        ep = await self._run(self.memory.episode, uuid)
        stated = await self._run(self.memory._store.facts_from_episodes, [ep.id], ep.group_id)
        return EpisodicNode.of(ep, [f.id for f in stated[ep.id]])

    async def clear_graph(self, group_ids: list[str] | None = None) -> dict[str, int]:
        """Physically delete the groups (default ``"default"``); counts deleted."""
        total: dict[str, int] = {}
        for g in _groups(group_ids):
            for k, v in (await self._run(self.memory.clear, group_id=g)).items():
                total[k] = total.get(k, 0) + v
        return total

