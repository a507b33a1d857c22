"""``Memory``: the public entry point. It validates, resolves names and plans;
the rules live in ``_temporal`` and the engine calls in ``_store``."""

from __future__ import annotations

import contextlib
import datetime as _dt
import functools
import math
import os
import uuid
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, NamedTuple, Sequence

from ._centrality import GraphScores
from ._summaries import Summaries
from ._errors import EngineError, InvalidInputError, NotFoundError, ReadOnlyError
from ._registry import AttributeRegistry
from ._store import KEY_SEP, alias_key
from ._temporal import Working, norm_value, slot_key
from ._time import Clock, TimeLike, parse_time
from . import _handles, _importance
from ._types import PROVENANCES, Entity, Episode, EpisodeResult, Fact

from ._guard import GuardDecision, guard_reliance

if TYPE_CHECKING:
    from ._check import Violation
    from ._context import Context
    from ._recall import Hit
    from .models import NLI, Embedder

def _reads(fn):
    """A public read: on a read-only memory, first reopen on what other
    processes have committed since (``Store.refresh``), so each call reads
    the latest committed state."""

    @functools.wraps(fn)
    def read(self, *args, **kwargs):
        if self.read_only:
            self._store.refresh()
        return fn(self, *args, **kwargs)

    return read


class _LazyModule:
    """A sibling module imported on first use: text ingest (spaCy patterns,
    numpy) costs a CLI call that only reads or writes typed facts nothing."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        import importlib

        return getattr(importlib.import_module(self._name, __package__), attr)


_episodes: Any = _LazyModule("._episodes")


def new_id() -> str:
    return str(uuid.uuid4())


#: Work per request is bounded: a query to :meth:`Memory.recall` or
#: :meth:`Memory.context` longer than this many characters is cut to its
#: start (at a word boundary when one is near) before anything ranks it, and
#: the result says so (``query_truncated``). A question is rarely longer than
#: a few hundred; a pasted document is not a question (docs/recall.md).
MAX_QUERY_CHARS = 2000


def _bounded_query(query: str) -> tuple[str, bool]:
    """``query``, or its first :data:`MAX_QUERY_CHARS` characters (back to
    the last whitespace within the last tenth) and whether it was cut."""
    if len(query) <= MAX_QUERY_CHARS:
        return query, False
    head = query.lstrip()[:MAX_QUERY_CHARS + 1]
    if len(head) <= MAX_QUERY_CHARS:  # it was long only by its leading whitespace
        return head, False
    cut = max(head.rfind(c, MAX_QUERY_CHARS * 9 // 10) for c in " \n\t\r")
    return (head[:cut] if cut > 0 else head[:MAX_QUERY_CHARS]).rstrip(), True


def _text(value: Any, field: str, *, allow_none: bool = False) -> str | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, str):
        raise InvalidInputError(field, f"expected a string, got {type(value).__name__}")
    if not value.strip():
        raise InvalidInputError(field, "must not be empty")
    return value


def _check_value(value: Any) -> Any:
    if isinstance(value, str):
        if not value.strip():
            raise InvalidInputError("value", "must not be empty")
        return value
    if isinstance(value, bool) or isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInputError("value", f"must be a finite number, got {value!r}")
        return value
    if isinstance(value, _dt.datetime):
        return parse_time(value, "value")
    if isinstance(value, _dt.date):
        return parse_time(value, "value")
    raise InvalidInputError(
        "value", f"expected str, int, float, bool or datetime, got {type(value).__name__}"
    )


class _Draft(NamedTuple):
    """One validated fact to write; times not yet defaulted."""

    subject: str
    attribute: str
    value: Any
    text: str | None
    valid_from: _dt.datetime | None
    valid_to: _dt.datetime | None
    group_id: str
    provenance: str
    source: str | None
    confidence: float
    importance: float
    subject_key: str = ""  # alias key of the subject
    value_key: str | None = None  # alias key of a string value (it may name an entity)
    episode_id: str | None = None
    why: str = "asserted"

    def fact(self, subject_id: str, subject: str, object_id: str | None, now: _dt.datetime,
             valid_from: _dt.datetime) -> Fact:
        """The new belief (version 1) this draft states, recorded ``now``."""
        return Fact(
            id=new_id(), group_id=self.group_id, subject=subject, attribute=self.attribute,
            value=self.value,
            text=self.text if self.text is not None else _sentence(self.subject, self.attribute, self.value),
            valid_from=valid_from, valid_to=self.valid_to, recorded_at=now, expired_at=None,
            episode_id=self.episode_id, provenance=self.provenance, confidence=self.confidence,
            subject_id=subject_id, object_id=object_id if object_id != subject_id else None,
            importance=self.importance, source=self.source, stated_valid_to=self.valid_to,
            reason=self.why,
        )


class Memory:
    """A bitemporal memory of entity-attribute-value facts in an embedded graph.

    >>> mem = Memory()                      # in-memory; Memory("agent.db") persists
    >>> f = mem.add_fact("Alice", "lives_in", "Berlin", valid_from="2024-01-01")
    >>> [x.value for x in mem.current("alice")]
    ['Berlin']

    ``engine`` is ``"ladybug"`` (default) or ``"kuzu"`` (also the
    ``MIDAS_GRAPH_ENGINE`` environment variable). ``attributes`` extends the
    attribute registry: ``{"team": "one", "skills": "many"}``. ``clock``
    returns the current time (transaction time); tests inject their own.
    ``embedder`` and ``nli`` replace the bundled local models (any object with
    ``embed(texts)`` / ``scores(pairs)``, see :mod:`midas_graph.models`); they
    load on first use. A contradiction supersedes a belief when its
    probability reaches ``nli_threshold``: by default the NLI model's own
    ``threshold`` (the bundled model's, or the one in the config of a model
    directory ``$MIDAS_NLI_MODEL`` names), else
    :data:`~midas_graph.models.NLI_CONTRADICTION_THRESHOLD`.

    A path already open in the process is shared, not opened twice: every
    Memory on one file uses its one handle, the last :meth:`close` closes it
    (docs/concurrency.md). ``read_only=True`` opens an existing file for
    reading only: beside another process that writes to it (LadybugDB),
    seeing its commits at each call; every write raises
    :class:`~midas_graph.ReadOnlyError`.
    """

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        *,
        clock: Clock | None = None,
        engine: str | None = None,
        attributes: Mapping[str, str] | AttributeRegistry | None = None,
        buffer_pool_mb: int | None = None,
        embedder: Embedder | None = None,
        nli: NLI | None = None,
        nli_threshold: float | None = None,
        read_only: bool = False,
        importance: Callable[[Episode, Mapping[str, float]], float] | None = None,
    ) -> None:
        if attributes is None or isinstance(attributes, Mapping):
            self.registry = AttributeRegistry.default().extend(attributes or {})
        elif isinstance(attributes, AttributeRegistry):
            self.registry = attributes
        else:
            raise InvalidInputError("attributes", "expected a mapping of attribute -> 'one'|'many'")
        if not isinstance(read_only, bool):
            raise InvalidInputError("read_only", "expected True or False")
        scorer = _importance.check_scorer(importance)
        # One Store per file in the process, shared (docs/concurrency.md).
        handle = _handles.acquire(path, engine, buffer_pool_mb=buffer_pool_mb, read_only=read_only, user=self)
        store = handle.store
        self._handle: _handles.Handle | None = handle
        self._store: Any = _handles.ReadOnlyView(store) if read_only and not store.read_only else store
        self.read_only = read_only
        self._embedder_obj = embedder
        self._nli_obj = nli
        self._nli_threshold = nli_threshold
        self._importance_scorer = scorer
        self._ingest: Any = None
        self._recall: Any = None
        self._graph_scores = GraphScores()  # forget(policy="graph"), per store generation
        self._summaries = Summaries()  # extractive Entity.summary, per store generation
        self._clock = _handles.SharedClock(clock, handle.floor)
        try:
            last = self._store.meta("last_tx")
        except BaseException:
            self.close()
            raise
        if last:
            self._clock.observe(parse_time(last, "last_tx"))

    # -- lifecycle -------------------------------------------------------------
    @property
    def engine(self) -> str:
        return self._store.engine

    @property
    def path(self) -> str | None:
        return self._store.path

    def close(self) -> None:
        """Let go of the database; the last Memory on a file closes it
        (checkpointed). Closing twice is harmless; a closed Memory raises."""
        handle, self._handle = self._handle, None
        if handle is not None:
            self._store = _handles.ClosedStore(handle.store.path, handle.store.engine)
            _handles.release(handle)

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Memory(path={self.path!r}, engine={self.engine!r})"

    def now(self) -> _dt.datetime:
        """The memory's current time (its clock, never before its last write)."""
        if self.read_only:
            # Another process may have written since: reopen on it if so (the stored group
            # generations, on which the caches key, are read again); "now" is never before its last write.
            self._store.refresh()
            last = self._store.meta("last_tx")
            if last:
                self._clock.observe(parse_time(last, "last_tx"))
        return self._clock.peek()

    def _writable(self) -> None:
        """Refuse a write at once, before any work, on a read-only or closed memory."""
        if self._handle is None:
            raise EngineError(f"the memory on {self.path or ':memory:'!r} is closed")
        if self.read_only:
            raise ReadOnlyError(f"this memory on {self.path!r} is read-only (read_only=True): it cannot be written")

    # -- writes ----------------------------------------------------------------
    def add_fact(
        self,
        subject: str,
        attribute: str,
        value: Any,
        *,
        valid_from: TimeLike | None = None,
        valid_to: TimeLike | None = None,
        text: str | None = None,
        group_id: str = "default",
        provenance: str = "observation",
        source: str | None = None,
        confidence: float = 1.0,
        importance: float | None = None,
    ) -> Fact:
        """Record one belief; supersede what it contradicts; return the stored fact.

        Restating a belief that already holds at ``valid_from`` records nothing
        and returns the held fact. ``importance`` defaults to the attribute's
        durability x ``confidence`` (docs/forgetting.md).
        """
        self._writable()
        draft = self._draft(
            dict(subject=subject, attribute=attribute, value=value, valid_from=valid_from,
                 valid_to=valid_to, text=text, provenance=provenance, source=source,
                 confidence=confidence, importance=importance),
            group_id,
        )
        return self._write([draft])[0]

    def add_facts(
        self,
        rows: Iterable[Mapping[str, Any] | Sequence[Any]],
        *,
        group_id: str = "default",
        batch_size: int = 20_000,
        progress: bool | None = None,
    ) -> list[Fact]:
        """Bulk :meth:`add_fact`, applied in order; one transaction per batch.

        A row is a mapping with the keyword names of :meth:`add_fact` (and
        optionally ``group_id``), or a ``(subject, attribute, value)`` tuple.
        Every row is validated before anything is written. ``progress``: a
        progress bar on stderr (default: when the input is large and stderr
        is a terminal).
        """
        self._writable()
        if isinstance(rows, (str, bytes, Mapping)):
            raise InvalidInputError("rows", "expected an iterable of rows, not a single row")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise InvalidInputError("batch_size", "must be a positive integer")
        drafts = []
        for i, row in enumerate(rows):
            try:
                drafts.append(self._draft(row, group_id))
            except InvalidInputError as exc:
                raise InvalidInputError(f"rows[{i}].{exc.field}", str(exc).split(": ", 1)[-1]) from None
        out: list[Fact] = []
        bar = _progress(len(drafts), progress, "facts")
        try:
            for start in range(0, len(drafts), batch_size):
                chunk = drafts[start:start + batch_size]
                out.extend(self._write(chunk))
                if bar is not None:
                    bar.update(len(chunk))
        finally:
            if bar is not None:
                bar.close()
        return out

    def retract(self, fact_id: str, *, reason: str | None = None, group_id: str | None = None) -> Fact:
        """The belief was wrong: expire it now; re-open what it had superseded.

        Returns the retracted version (with ``expired_at`` set). ``as_of`` with
        a ``known_at`` before now still shows it. ``group_id``: only a belief
        of that group (another group's is not found, as if absent).
        """
        self._writable()
        _text(fact_id, "fact_id")
        if reason is not None and not isinstance(reason, str):
            raise InvalidInputError("reason", f"expected a string, got {type(reason).__name__}")
        _group_or_none(group_id)
        with self._store.transaction():
            versions = self._store.versions(fact_id)
            if not versions or (group_id is not None and versions[0].group_id != group_id):
                raise fact_not_found(fact_id)
            held = [v for v in versions if v.expired_at is None]
            if not held:
                raise InvalidInputError("fact_id", f"fact {fact_id!r} is already retracted")
            now = self._clock.now()
            work = Working(self._store.held([held[0].subject_id]), self.registry.is_single)
            out = work.retract(fact_id, now, reason)
            self._store.apply(work.finish())
            self._store.set_meta("last_tx", now.isoformat())
        return out

    def add_alias(self, name: str, alias: str, *, group_id: str = "default") -> Entity:
        """Make ``alias`` another name of the entity called ``name``."""
        self._writable()
        _text(name, "name")
        _text(alias, "alias")
        with self._store.transaction():
            ent = self.entity(name, group_id=group_id)
            if ent is None:
                raise NotFoundError(f"name: no entity called {name!r} in group {group_id!r}")
            other = self._store.lookup_names([alias_key(group_id, alias)])
            if other:
                eid = next(iter(other.values()))
                if eid == ent.id:
                    return ent
                raise InvalidInputError("alias", f"{alias!r} already names another entity")
            self._store.add_alias(ent, alias)
        return self._store.entity(ent.id)  # type: ignore[return-value]

    def add_entity(
        self, name: str, *, group_id: str = "default", kind: str = "CONCEPT", summary: str = ""
    ) -> Entity:
        """The entity called ``name`` (or one of its aliases) in the group,
        created if there is none. A fact whose value is this name then links
        to it (``Fact.object_id``)."""
        self._writable()
        _text(name, "name")
        _text(group_id, "group_id")
        _text(kind, "kind")
        if not isinstance(summary, str):
            raise InvalidInputError("summary", "expected a string")
        with self._store.transaction():
            found = self._store.lookup_names([alias_key(group_id, name)])
            if found:
                return self._store.entity(next(iter(found.values())))  # type: ignore[return-value]
            now = self._clock.now()
            ent = Entity(id=new_id(), group_id=group_id, name=name.strip(), kind=kind, created_at=now,
                         summary=summary)
            self._store.create_entities([ent])
            self._store.set_meta("last_tx", now.isoformat())
        if self._ingest is not None:  # similarity resolution may merge later mentions into it
            self._ingest.index.note(group_id, ent.id, ent.name, None)
        return ent

    # -- episodes ----------------------------------------------------------------
    def add_episode(
        self,
        content: str,
        *,
        speaker: str = "user",
        reference_time: TimeLike | None = None,
        group_id: str = "default",
        source: str = "message",
        provenance: str = "observation",
        name: str | None = None,
        source_description: str = "",
        episode_id: str | None = None,
    ) -> EpisodeResult:
        """Store a message verbatim, extract its facts (spaCy, no LLM), resolve
        its entities and revise what it contradicts, in one transaction.

        First person means ``speaker``; second person, the group's previous
        other speaker. ``reference_time`` (when it was said; default now)
        anchors relative times ("last week") and is each fact's default
        ``valid_from``. ``episode_id``: the id to store it under (default a
        new UUID; an id the group already uses is an error). Episode ids are
        per group: another group may use the same id, and nothing here says
        whether one does.

        ``content`` may be of any length: a long text (a pasted document) is
        stored verbatim and recall indexes all of it by passages, but facts
        are extracted from its first ``_episodes.EXTRACT_CHARS`` (100,000)
        characters only (docs/recall.md, "Long episodes").
        """
        self._writable()
        item = _own_id(_episodes.validate(
            content, speaker=speaker, reference_time=reference_time, group_id=group_id, source=source,
            provenance=provenance, name=name, source_description=source_description, episode_id=episode_id,
        ))
        return self._episodes().run([item])[0]

    def add_episodes(
        self,
        episodes: Iterable[Mapping[str, Any] | str],
        *,
        group_id: str = "default",
        progress: bool | None = None,
    ) -> list[EpisodeResult]:
        """Bulk :meth:`add_episode`, in order: parsing and embeddings are
        batched, each episode is its own transaction. Every episode is
        validated first (an error names it, nothing is written); if one fails
        while being stored, :class:`~midas_graph.MidasError` names it and the
        ones before it stay stored (``exc.results``).

        An episode is a string or a mapping with the keyword names of
        :meth:`add_episode` (``content`` required).
        """
        self._writable()
        items = episode_items(episodes, group_id)
        return self._episodes().run(items, progress) if items else []

    @_reads
    def episode(self, episode_id: str, *, group_id: str | None = None) -> Episode:
        """The episode with this id. Episode ids are per group (two groups
        may each use an id of their own choosing): ``group_id`` looks in that
        group only; ``None`` finds the episode stored under the id, in any
        group (when the id is used in several groups, the one stored first).
        A purged episode (``forget(purge=True)``) reads as its stub:
        ``purged`` is True, ``content`` empty."""
        _text(episode_id, "episode_id")
        _group_or_none(group_id)
        ep = self._store.episode(episode_id, group_id)
        if ep is None:
            raise episode_not_found(episode_id)
        return ep

    @_reads
    def episodes(
        self,
        *,
        group_id: str = "default",
        last_n: int = 10,
        before: TimeLike | None = None,
        source: str | None = None,
    ) -> list[Episode]:
        """The ``last_n`` most recent episodes of a group said at or before
        ``before`` (``reference_time <= before``; default now), returned
        oldest first (Graphiti's ``retrieve_episodes`` order). ``source``
        keeps only episodes of that source (message|text|json|fact)."""
        _text(group_id, "group_id")
        if not isinstance(last_n, int) or isinstance(last_n, bool) or last_n < 1:
            raise InvalidInputError("last_n", "must be a positive integer")
        if source is not None and source not in _episodes.SOURCES:
            raise InvalidInputError("source", f"{source!r} is not one of {', '.join(_episodes.SOURCES)}")
        t = parse_time(before, "before") or self.now()
        return self._store.recent_episodes(group_id, t, last_n, source)[::-1]

    def remove_episode(self, episode_id: str, *, group_id: str | None = None) -> list[Fact]:
        """Forget an episode and undo what it changed, in one transaction.
        Returns the retracted versions of the facts it stated. ``group_id``:
        the episode's group (as in :meth:`episode`; ``None``: any group).

        1. Every still-held fact it stated is retracted (as :meth:`retract`
           does, so beliefs they had superseded re-open).
        2. Every belief the episode closed gets its interval back: what it
           superseded or ended ("I don't like hiking anymore"), and what its
           corrections retracted ("sorry, I meant Lisbon, not Porto"), which
           is recorded again. A belief is left alone if a later write has
           changed it since the episode closed it (the episode's version is
           no longer its latest).
        3. The names it gave and the people it made one (its people links,
           docs/people.md) are ended: the aliases go, the Link rows stay,
           each ended by an "unlink" row.
        4. The episode is deleted with its MENTIONS and FROM_EPISODE links.

        What the episode closed is found by ``expired_by_episode``, which
        every version an episode expires records. Nothing is deleted but the
        episode: the retracted versions stay in :meth:`history` (with
        ``expire_reason`` "retracted: episode <id> removed"), the versions the
        episode closed too; entities stay. For an episode stored before
        schema version 2, only what it *ended* can be found (by time and
        text); its supersessions re-open through step 1, its corrections are
        not restored. An episode recorded at or before the group's compaction
        horizon (:meth:`compact` dropped the versions it closed) cannot be
        undone: :class:`~midas_graph.HistoryCompactedError`.
        """
        self._writable()
        _text(episode_id, "episode_id")
        _group_or_none(group_id)
        out: list[Fact] = []
        with self._store.transaction():
            ep = self._store.episode(episode_id, group_id)
            if ep is None:
                raise episode_not_found(episode_id)
            horizon = self._store.horizon(ep.group_id)
            if horizon is not None and ep.recorded_at <= horizon:
                # what it closed expired when it was recorded: compact() dropped those versions
                from ._errors import HistoryCompactedError

                raise HistoryCompactedError(
                    ep.group_id, ep.recorded_at, horizon,
                    f"episode_id: episode {episode_id} was recorded at {ep.recorded_at.isoformat()}, not after the "
                    f"compaction horizon {horizon.isoformat()} of group {ep.group_id!r}: the versions it closed "
                    "were dropped by compact(), so it cannot be undone (forget() makes it cold)")
            stated = self._store.facts_from_episodes([episode_id], ep.group_id)[episode_id]
            own = {f.id for f in stated}
            touched = [f for f in self._store.expired_by_episode(ep.group_id, episode_id, ep.recorded_at)
                       if f.id not in own]
            # Fallback, by time and text, for cessations stored before schema 2 (no expired_by_episode).
            legacy = self._ended_before_schema_2(ep)
            if any(f.expired_at is None for f in stated) or touched or legacy:
                order = sorted(stated, key=lambda f: (f.recorded_at, f.id, f.version))
                ids = list(dict.fromkeys(f.id for f in order))
                now = self._clock.now()
                subjects = sorted({f.subject_id for f in [*stated, *touched, *legacy]})
                work = Working(self._store.held(subjects), self.registry.is_single)
                before = dict(work.by_id)  # the held version of each belief, as the removal found it
                # First the episode's own facts: a belief they superseded re-opens here, and
                # the re-opening below must not bring it back a second time.
                for fid in ids:
                    if fid in work.by_id:  # still held (re-opened ones included)
                        out.append(work.retract(fid, now, f"episode {episode_id} removed"))
                reopen, reinstate = self._closed_by(touched, before)
                # A retracted belief whose own episode was removed since stays retracted.
                sources = {f.episode_id for f, _ in reinstate if f.episode_id not in (None, episode_id)}
                alive = self._store.episode_keys(ep.group_id, sorted(sources)) if sources else {}
                reinstate = [(f, v) for f, v in reinstate
                             if f.episode_id in (None, episode_id) or f.episode_id in alive]
                for f in [*reopen, *legacy]:
                    if f.id in work.by_id and work.by_id[f.id].vid == f.vid:  # not re-opened above
                        work.reopen(f.id, now, f"episode {episode_id}, which closed it, was removed")
                for f, version in reinstate:
                    work.reinstate(f, version, now, f"episode {episode_id}, which retracted it, was removed")
                self._store.apply(work.finish())
                self._store.set_meta("last_tx", now.isoformat())
            # the names it gave and the people it made one (docs/people.md)
            from ._entities import held_links, undo_links

            if any(x.episode_id == episode_id for x in held_links(self._store, ep.group_id)):
                now = self._clock.now()
                undo_links(self._store, ep.group_id, episode_id, now)
                self._store.set_meta("last_tx", now.isoformat())
            self._store.delete_episode(episode_id, ep.group_id)
        return out

    def _closed_by(self, touched: Sequence[Fact], held: Mapping[str, Fact]
                   ) -> tuple[list[Fact], list[tuple[Fact, int]]]:
        """What an episode closed, from the versions its transaction expired
        (``touched``, of beliefs it did not state) and the held version of
        each belief now (``held``): the held versions it wrote closed and
        that are still the latest (to re-open), and the beliefs it retracted
        that nothing has recorded since (each as it was before the episode,
        with the version number to record it again under)."""
        by_belief: dict[str, list[Fact]] = {}
        for f in touched:
            by_belief.setdefault(f.id, []).append(f)
        reopen: list[Fact] = []
        gone: list[tuple[Fact, int]] = []
        successors = {f.vid for f in self._store.facts_by_vid(
            [f"{fid}:{max(v.version for v in vs) + 1}" for fid, vs in by_belief.items()])}
        for fid, vs in by_belief.items():
            first = min(vs, key=lambda v: v.version)  # as the belief was before the episode
            last = max(vs, key=lambda v: v.version)   # the last version the episode expired
            cur = held.get(fid)
            if cur is not None:
                # The episode left the belief held as the next version. Still its latest,
                # and closed by it (ended earlier than before; not a belief it re-opened)?
                if cur.version == last.version + 1 and cur.valid_to is not None and (
                        first.valid_to is None or cur.valid_to < first.valid_to):
                    reopen.append(cur)
            elif f"{fid}:{last.version + 1}" not in successors:
                gone.append((first, last.version + 1))  # retracted by it, and nothing since
        reopen.sort(key=lambda f: (f.valid_from, f.id))
        gone.sort(key=lambda x: (x[0].valid_from, x[0].id))
        return reopen, gone

    def _ended_before_schema_2(self, ep: Episode) -> list[Fact]:
        """Fallback for episodes stored before schema version 2, whose
        expiries name no episode: the held versions recorded with the
        episode that ended a belief ("ended: ...") and quote one of its
        clauses (:func:`_ended_by`). A heuristic (two transactions may share
        an instant, and the quote is text), so it is used only for versions
        whose expired predecessor has no ``expired_by_episode``: since
        version 2 every expiry an episode makes names it, and only episodes
        end beliefs."""
        ended = self._store.ended_at(ep.group_id, ep.recorded_at)
        if not ended:
            return []
        prev = {f.vid: f for f in self._store.facts_by_vid([f"{f.id}:{f.version - 1}" for f in ended])}
        return [
            f for f in ended
            if (p := prev.get(f"{f.id}:{f.version - 1}")) is not None and p.expired_by_episode is None
            and _ended_by(f, ep)
        ]

    def fact(self, fact_id: str, *, group_id: str | None = None) -> Fact:
        """The latest version of a belief (current, closed or retracted).
        ``group_id``: only a belief of that group (another's is not found)."""
        return self.versions(fact_id, group_id=group_id)[-1]

    def clear(self, *, group_id: str) -> dict[str, int]:
        """Physically delete one group: its entities, aliases, every fact
        version, episodes, fact vectors and revision slots. Other groups are
        untouched. Returns the number deleted of each kind. Unlike
        :meth:`retract`, nothing of the group stays in :meth:`history`."""
        self._writable()
        _text(group_id, "group_id")
        with self._store.transaction():
            counts = self._store.delete_group(group_id)
        # The recall index keys on the group's stored generation (moved by the commit);
        # the entity-resolution cache and the speaker memory are per Memory:
        # this one's, and those of the other Memories sharing the file.
        for mem in [self, *_handles.siblings(self._handle, self)]:
            if mem._ingest is not None:
                mem._ingest.forget(group_id)
        return counts

    @_reads
    def search_entities(self, query: str, *, k: int = 10, group_id: str = "default",
                        near: str | None = None) -> list[tuple[Entity, float]]:
        """Entities of a group ranked for ``query``, best first, with a score.

        Name and alias matches come first: ``2 + cosine`` when the query is
        a name or alias (case-insensitive), ``1 + cosine`` when every word of
        a name or alias is in the query or every word of the query is in it;
        the rest rank by the cosine of MiniLM name embeddings alone.
        ``near`` (an entity id): that entity, then the entities one current
        fact away from it (either direction), then the rest, each in score order.
        A query longer than :data:`MAX_QUERY_CHARS` is ranked by its start.
        """
        import re

        import numpy as np

        _text(query, "query")
        _text(group_id, "group_id")
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise InvalidInputError("k", "must be a positive integer")
        if near is not None:
            _text(near, "near")
        query = _bounded_query(query)[0]
        ents = self._store.entities(group_id)
        if not ents:
            return []
        stored = {i: v for i, _, v in self._store.entity_vectors(group_id) if v is not None}
        missing = [e for e in ents if e.id not in stored]
        vecs = self._embedder().embed([query, *(e.name for e in missing)])
        qvec = np.asarray(vecs[0], dtype=np.float32)
        if missing:  # entities made by add_fact carry no name vector: embed them once, keep them
            new = {e.id: np.asarray(v, dtype=np.float32).tobytes() for e, v in zip(missing, vecs[1:])}
            if not self._store.read_only:
                with self._store.transaction():
                    self._store.set_vectors("Entity", new)
            stored.update(new)
        words = lambda text: set(re.findall(r"\w+", text.casefold()))  # noqa: E731
        qkey, qwords = " ".join(query.casefold().split()), words(query)
        scored = []
        for e in ents:
            cos = float(np.frombuffer(stored[e.id], dtype=np.float32) @ qvec)
            tier = 0
            for name in (e.name, *e.aliases):
                nwords = words(name)
                if " ".join(name.casefold().split()) == qkey:
                    tier = 2
                    break
                if nwords and qwords and (nwords <= qwords or qwords <= nwords):
                    tier = 1
            scored.append((e, tier + cos))
        scored.sort(key=lambda x: (-x[1], x[0].name, x[0].id))
        if near is not None:
            now = self.now()
            hop = {f.object_id for f in self._store.facts_of([near], group_id=group_id, valid_at=now, known_at=now)}
            hop |= {f.subject_id for f in self._store.facts_with_object([near], valid_at=now, known_at=now)
                    if f.group_id == group_id}
            scored.sort(key=lambda x: 0 if x[0].id == near else 1 if x[0].id in hop else 2)  # stable
        scored = scored[:k]
        return list(zip(self._summaries.fill(self, [e for e, _ in scored]), [s for _, s in scored]))

    @property
    def nli_threshold(self) -> float:
        if self._nli_threshold is None:
            from .models import NLI_CONTRADICTION_THRESHOLD

            own = getattr(self._nli(), "threshold", None)  # a model chosen for its own threshold
            self._nli_threshold = float(own) if own is not None else NLI_CONTRADICTION_THRESHOLD
        return self._nli_threshold

    def _embedder(self) -> Embedder:
        if self._embedder_obj is None:
            from .models import default_embedder

            self._embedder_obj = default_embedder()
        return self._embedder_obj

    def _nli(self) -> NLI:
        if self._nli_obj is None:
            from .models import default_nli

            self._nli_obj = default_nli()
        return self._nli_obj

    def _episodes(self) -> Any:
        if self._ingest is None:
            self._ingest = _episodes.Ingest(self)
        return self._ingest

    # -- recall and context ---------------------------------------------------------
    @_reads
    def recall(
        self,
        query: str,
        *,
        k: int = 10,
        valid_at: TimeLike | None = None,
        known_at: TimeLike | None = None,
        group_id: str = "default",
        speaker: str = "user",
        include_past: bool = False,
    ) -> list[Hit]:
        """The ``k`` facts and episodes most relevant to ``query``, best first,
        among those visible at ``(valid_at, known_at)`` (both default to now).

        Graph walk from the entities the query names (first person =
        ``speaker``), BM25 and vector similarity, fused by a weighted sum of
        normalised scores, plus bonuses for a turn said by someone the query
        names, said within a date it names ("in May 2023", "last week"), or
        telling a time when it asks when (docs/recall.md); each hit says which
        rankers found it and which bonuses it got (``why``). ``include_past=True`` also ranks beliefs that no longer
        hold at ``valid_at`` (superseded or ended), as held at ``known_at``.
        A query longer than :data:`MAX_QUERY_CHARS` (2,000 characters) is
        ranked by its start alone, and every hit says so (``query_truncated``).
        """
        _text(query, "query")
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise InvalidInputError("k", "must be a positive integer")
        now = self.now()
        t = parse_time(valid_at, "valid_at")
        kt = parse_time(known_at, "known_at") or now
        self._known(kt, group_id)
        query, cut = _bounded_query(query)
        hits = self._recaller().recall(query, k=k, valid_at=t or now, known_at=kt, group_id=group_id,
                                       speaker=speaker, explicit_valid=t is not None,
                                       include_past=bool(include_past))
        if cut:
            from dataclasses import replace

            hits = [replace(h, query_truncated=True) for h in hits]
        return hits

    @_reads
    def context(
        self,
        query: str,
        *,
        budget_tokens: int = 512,
        valid_at: TimeLike | None = None,
        known_at: TimeLike | None = None,
        group_id: str = "default",
        speaker: str = "user",
    ) -> Context:
        """A grounded, time-stamped context for ``query`` within ``budget_tokens``
        (MiniLM tokens), or an explicit abstention.

        ``abstain`` is True, with a ``reason``, when the entity or attribute
        asked about is not grounded in what the memory holds (no near-miss
        lines are handed over). Superseded beliefs appear only for questions
        about the past or about change, marked as such. A question longer
        than :data:`MAX_QUERY_CHARS` (2,000 characters) is answered from its
        start alone: ``query_truncated`` is True, ``query`` holds that start
        and ``reason`` says so.
        """
        from ._context import assemble

        _text(query, "query")
        if not isinstance(budget_tokens, int) or isinstance(budget_tokens, bool) or budget_tokens < 16:
            raise InvalidInputError("budget_tokens", "must be an integer of at least 16")
        now = self.now()
        t = parse_time(valid_at, "valid_at")
        kt = parse_time(known_at, "known_at") or now
        self._known(kt, group_id)
        query, cut = _bounded_query(query)
        ctx = assemble(self, query, budget_tokens=budget_tokens, valid_at=t or now, known_at=kt,
                       group_id=group_id, speaker=speaker, explicit_valid=t is not None)
        if cut:
            from dataclasses import replace

            note = f"the question was cut to its first {len(query):,} characters"
            ctx = replace(ctx, query_truncated=True, reason=f"{ctx.reason}; {note}" if ctx.reason else note)
        return ctx

    def guard_reliance(self, items: Iterable[Any], use: str, *, approved: Iterable[str] = ()) -> GuardDecision:
        """Which memories may back ``use``: ``"planning"`` (anything may) or
        ``"action"`` (an external or destructive step: only
        ``user_confirmation`` provenance, or items whose ids the user has
        just approved). Invalid items are excluded, not the whole bundle."""
        return guard_reliance(items, use, approved=approved)

    def _recaller(self):
        if self._recall is None:
            from ._recall import Recaller

            self._recall = Recaller(self)
        return self._recall

    # -- reads -----------------------------------------------------------------
    @_reads
    def entity(self, name: str, *, group_id: str = "default") -> Entity | None:
        """The entity a name or alias refers to (case-insensitive), or ``None``."""
        _text(name, "name")
        ids = self._store.lookup_names([alias_key(group_id, name)])
        e = self._store.entity(next(iter(ids.values()))) if ids else None
        return self._summaries.fill(self, [e])[0] if e is not None else None

    @_reads
    def entities(self, *, group_id: str = "default") -> list[Entity]:
        """Every entity of a group, each with its extractive summary
        (``Entity.summary``, docs/forgetting.md) where none was given."""
        return self._summaries.fill(self, self._store.entities(group_id))

    @_reads
    def as_of(
        self,
        subject: str | None = None,
        attribute: str | None = None,
        *,
        valid_at: TimeLike | None = None,
        known_at: TimeLike | None = None,
        group_id: str = "default",
    ) -> list[Fact]:
        """What the memory believed at ``known_at`` about the world at ``valid_at``.

        Both default to now. A version is visible iff ``recorded_at <= known_at
        < expired_at`` and ``valid_from <= valid_at < valid_to``. ``subject=None``
        covers the whole group.
        """
        now = self.now()
        t = parse_time(valid_at, "valid_at") or now
        k = parse_time(known_at, "known_at") or now
        self._known(k, group_id)
        facts = self._facts(subject, attribute, group_id, valid_at=t, known_at=k)
        return sorted(facts, key=lambda f: (f.subject, f.attribute, f.valid_from, f.recorded_at, f.id))

    @_reads
    def current(self, subject: str, attribute: str | None = None, *, group_id: str = "default") -> list[Fact]:
        """What is true now, as the memory believes now."""
        _text(subject, "subject")
        return self.as_of(subject, attribute, group_id=group_id)

    @_reads
    def history(self, subject: str, attribute: str | None = None, *, group_id: str = "default") -> list[Fact]:
        """Every version of every belief about ``subject``: superseded, retracted
        and revised ones included, ordered by attribute, then valid and
        transaction time. After :meth:`compact`, the versions it dropped
        (expired at or before the group's horizon) are not among them."""
        _text(subject, "subject")
        facts = self._facts(subject, attribute, group_id)
        return sorted(facts, key=lambda f: (f.attribute, f.valid_from, f.recorded_at, f.id, f.version))

    @_reads
    def versions(self, fact_id: str, *, group_id: str | None = None) -> list[Fact]:
        """Every version of one belief, oldest first. ``group_id``: only a
        belief of that group (another group's is not found, as if absent)."""
        _text(fact_id, "fact_id")
        _group_or_none(group_id)
        out = self._store.versions(fact_id, compacted=bool(self._store.horizons()))
        if not out or (group_id is not None and out[0].group_id != group_id):
            raise fact_not_found(fact_id)
        return out

    @_reads
    def check(self, *, group_id: str | None = None) -> list[Violation]:
        """The memory's fsck: every broken invariant of the database (of one
        group, if given), as :class:`~midas_graph.Violation` items; an empty
        list means it is sound. Reads only. See :mod:`midas_graph._check`
        for the rules (row digests: a damaged file, docs/integrity.md;
        sequenced uniqueness, successors, cycles, episodes, subjects, names,
        revision slots, intervals, versions, schema)."""
        from ._check import check

        _group_or_none(group_id)
        return check(self, group_id=group_id)

    @_reads
    def stats(self, *, group_id: str | None = None) -> dict[str, int]:
        """Counts of entities, fact versions and episodes: in the whole
        database, or in one group."""
        _group_or_none(group_id)
        return {k: self._store.count(k, group_id) for k in ("Entity", "Fact", "Episode")}

    # -- bounded growth (docs/forgetting.md) ------------------------------------------
    def tier(self, item: Any) -> str:
        """``"short"`` (at most a day old), ``"medium"`` (at most a week) or
        ``"long"``: the age of an Episode (from its ``reference_time``) or a
        Fact (from its ``recorded_at``), or of what a recall hit carries."""
        from ._forget import tier, unwrap

        return tier(unwrap(item), self.now())

    def memory_value(self, item: Any) -> float:
        """What an item is worth keeping now: its importance x
        ``0.5 ** (age / 30 days)`` (``_forget.HALF_LIFE``). An episode stored
        before schema version 6 counts as importance 0.5."""
        from ._forget import memory_value, unwrap

        return memory_value(unwrap(item), self.now())

    def forget(
        self,
        *,
        keep_fraction: float | None = None,
        max_episodes: int | None = None,
        max_bytes: int | None = None,
        policy: str = "value",
        group_id: str = "default",
        dry_run: bool = False,
        purge: bool = False,
    ):
        """Make the least valuable episodes of a group cold until the budget
        holds: at most ``keep_fraction`` of its episodes (or ``max_episodes``)
        hot, its episodes storing at most ``max_bytes`` (content and vectors;
        a cold one keeps its content). ``policy``: ``value`` (the
        episode's importance; recency does not rank eviction, the short tier
        keeps the last day: measured in docs/forgetting.md), ``structural`` or
        ``content`` (that one score), ``graph`` (importance + 0.2 x graph
        score: the PageRank of the most central entity the turn mentions,
        ``_centrality``), ``fifo`` (oldest first), or a callable ``(episode)
        -> number`` (the lowest goes cold first; e.g. a seeded random order
        for a baseline). On a tie the older goes first. The floor holds for
        every policy.

        A cold episode leaves the recall indexes and its vectors are dropped;
        it is still read by id, the facts it stated and every link to it are
        unchanged, and :meth:`warm` brings it back. No fact is written:
        ``as_of`` and ``history`` answer the same. Never forgotten: an episode
        that is the source of a fact version, one that closed a belief, a
        ``user_confirmation`` one, and the short tier; when the budget would
        need them, forgetting stops at that floor and the report says so
        (``short_of``, ``message``). Returns a
        :class:`~midas_graph.ForgetReport`; ``dry_run``: what it would do.

        ``purge=True`` (for privacy; not undone): every episode of the group
        that is cold after this call has its content deleted. A stub stays
        (id, times, speaker, provenance, scores; ``cold_reason`` "purged:
        sha256 <digest of the deleted content>; ..."), so the links to it
        still resolve; it cannot be warmed, and ``report.purged`` lists it.
        Protected episodes are never cold, so never purged."""
        from . import _forget

        _forget.validate(keep_fraction, max_episodes, max_bytes, policy)
        _text(group_id, "group_id")
        for name, flag in (("dry_run", dry_run), ("purge", purge)):
            if not isinstance(flag, bool):
                raise InvalidInputError(name, "expected True or False")
        if not dry_run:
            self._writable()
        store = self._store
        with store.transaction() if not dry_run else _nothing():
            now = self._clock.now() if not dry_run else self.now()
            graph = self._graph_scores.get(store, group_id) if policy == "graph" else None
            chosen, hot, target, protected, before, floor, message = _forget.plan(
                store, group_id, now, keep_fraction=keep_fraction, max_episodes=max_episodes,
                max_bytes=max_bytes, policy=policy, graph=graph)
            if chosen and not dry_run:
                store.set_cold(group_id, [r.ep.id for r in chosen], now,
                               f"forget: policy {_forget.policy_name(policy)}")
                store.set_meta("last_tx", now.isoformat())
            purged: list[str] = []
            removed = 0
            if purge:
                chosen_ids = {r.ep.id for r in chosen}
                keep = store.protected_episodes(group_id)
                ids = [ep.id for ep, _, _ in store.episode_sizes(group_id)
                       if (ep.cold_at is not None or ep.id in chosen_ids) and not _forget.is_purged(ep)
                       and ep.id not in keep and ep.provenance != "user_confirmation"]
                eps = store.episodes_by_id(ids, group_id)
                purged = [ep.id for ep in eps]
                removed = sum(len(ep.content) for ep in eps)
                if eps and not dry_run:
                    store.purge_episodes(eps, now, {ep.id: _forget.purge_reason(ep) for ep in eps})
                    store.set_meta("last_tx", now.isoformat())
        after = before - sum(r.bytes_hot - r.bytes_cold for r in chosen) - removed
        hot_after = len(hot) - len(chosen)
        return _forget.ForgetReport(
            group_id=group_id, policy=_forget.policy_name(policy), dry_run=dry_run, target=target, hot_before=len(hot),
            hot_after=hot_after, cold=[(r.ep.id, round(r.value, 6)) for r in chosen], protected=protected,
            bytes_before=before, bytes_after=after, floor=floor, short_of=max(0, hot_after - target),
            message=message, already_cold=store.count("Episode", group_id) - len(hot), purged=purged)

    def consolidate(self, threshold: float | None = None, *, group_id: str = "default",
                    dry_run: bool = False) -> dict[str, Any]:
        """Extractive consolidation: where one speaker said the same thing
        again (turns whose vectors are at least ``threshold`` similar, 0.92 by
        default; connected components), keep the turn of the highest
        :meth:`memory_value` and make the others cold with the reason
        ``dup_of:<kept id>``. Nothing is rewritten and no fact is written:
        ``as_of`` and ``history`` answer the same; :meth:`warm` undoes it.
        The floor of :meth:`forget` holds (fact sources, closings,
        confirmations and the short tier stay hot). Returns ``{"group_id",
        "threshold", "groups", "cold": [[id, kept id], ...], "kept": {why:
        n}, "hot_before", "dry_run"}``."""
        from . import _forget

        _text(group_id, "group_id")
        if threshold is None:
            threshold = _forget.CONSOLIDATE_THRESHOLD
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0.5 <= threshold <= 1.0:
            raise InvalidInputError("threshold", "expected a number from 0.5 to 1.0")
        if not isinstance(dry_run, bool):
            raise InvalidInputError("dry_run", "expected True or False")
        if not dry_run:
            self._writable()
        store = self._store
        with store.transaction() if not dry_run else _nothing():
            now = self._clock.now() if not dry_run else self.now()
            cold, groups, kept = _forget.consolidation_plan(self, group_id, now, float(threshold))
            hot_before = sum(1 for ep, _, _ in store.episode_sizes(group_id) if ep.cold_at is None)
            if cold and not dry_run:
                by_keeper: dict[str, list[str]] = {}
                for eid, keeper in cold:
                    by_keeper.setdefault(keeper, []).append(eid)
                for keeper, ids in by_keeper.items():
                    store.set_cold(group_id, ids, now, f"{_forget.DUP_OF}{keeper}")
                store.set_meta("last_tx", now.isoformat())
        return {"group_id": group_id, "threshold": float(threshold), "groups": len(groups),
                "cold": [list(x) for x in cold], "kept": kept, "hot_before": hot_before, "dry_run": dry_run}

    def warm(self, episode_ids: Iterable[str], *, group_id: str = "default") -> list[Episode]:
        """Make cold episodes hot again: back in the recall indexes, their
        vectors recomputed. Returns them as stored now (hot ones are
        returned unchanged); an id the group does not hold raises
        :class:`~midas_graph.NotFoundError`."""
        from ._forget import warm_vectors

        self._writable()
        _text(group_id, "group_id")
        if isinstance(episode_ids, str):
            raise InvalidInputError("episode_ids", "expected a list of episode ids, not one string")
        ids = list(dict.fromkeys(episode_ids))
        for i in ids:
            _text(i, "episode_ids")
        eps = {e.id: e for e in self._store.episodes_by_id(ids, group_id)}
        for i in ids:
            if i not in eps:
                raise episode_not_found(i)
        cold = [eps[i] for i in ids if eps[i].cold_at is not None]
        from ._forget import is_purged

        for ep in cold:
            if is_purged(ep):
                raise InvalidInputError("episode_ids", f"episode {ep.id} was purged (forget(purge=True)): its "
                                        "content is deleted, only a stub is left, so it cannot be warmed")
        if cold:
            whole, sentences = warm_vectors(self, cold)  # before the transaction: model time
            with self._store.transaction():
                self._store.set_cold(group_id, [e.id for e in cold], None, None)
                self._store.set_vectors("Episode", whole, group_id)
                self._store.set_vectors("EpisodeSentences", sentences, group_id)
                self._store.set_meta("last_tx", self._clock.now().isoformat())
        return self._store.episodes_by_id(ids, group_id)

    def compact(self, *, before: TimeLike, group_id: str = "default", dry_run: bool = False) -> dict[str, Any]:
        """The one lossy operation (docs/forgetting.md): delete the group's
        fact versions whose transaction time ended (``expired_at``) at or
        before ``before``; what the memory believes from then on is
        unchanged. ``before`` becomes the group's compaction horizon (kept in
        the database, carried by exports; it never moves back): afterwards
        :meth:`as_of`, :meth:`recall` and :meth:`context` asked at a
        ``known_at`` before it raise
        :class:`~midas_graph.HistoryCompactedError` rather than answer
        from an incomplete past, and :meth:`history` lists the versions
        left. No row is rewritten: a ``supersedes`` / ``superseded_by`` that
        names a dropped belief stays as written (``check()`` accepts it in a
        compacted group). ``before`` may not be later than now. Returns
        ``{"group_id", "horizon", "versions_dropped", "beliefs_dropped",
        "dry_run"}``."""
        _text(group_id, "group_id")
        if not isinstance(dry_run, bool):
            raise InvalidInputError("dry_run", "expected True or False")
        t = parse_time(before, "before")
        if t is None:
            raise InvalidInputError("before", "give the time to compact before")
        if not dry_run:
            self._writable()
        with self._store.transaction() if not dry_run else _nothing():
            now = self._clock.now() if not dry_run else self.now()
            if t > now:
                raise InvalidInputError("before", f"{t.isoformat()} is later than now ({now.isoformat()}): "
                                        "only the past can be compacted")
            dropped, gone = self._store.compact_versions(group_id, t, dry_run=dry_run)
            if not dry_run:
                self._store.set_horizon(group_id, t)
                self._store.set_meta("last_tx", now.isoformat())
            horizon = self._store.horizon(group_id) if not dry_run else max(
                t, self._store.horizon(group_id) or t)
        return {"group_id": group_id, "horizon": horizon.isoformat(), "versions_dropped": dropped,
                "beliefs_dropped": len(gone), "dry_run": dry_run}

    def _vacuum(self) -> dict[str, Any]:
        """Rebuild this memory's file in place and go on on the new one
        (:func:`midas_graph.vacuum`, docs/forgetting.md "Vacuum"): the memory
        is exported into a new file beside it, the copy must pass
        :meth:`check` and hold the same counts, then it replaces the file
        (``os.replace``: atomic) and this Memory reopens it. Refused (nothing
        changed) for an in-memory or read-only memory, or when another Memory
        of this process shares the file. Private: not a routed method of the
        sharded and cluster memories (a shard file is vacuumed by its path)."""
        from ._errors import DamagedError, MidasError
        from ._io import export_rows, import_rows

        self._writable()
        path, engine, handle = self.path, self.engine, self._handle
        if path is None:
            raise InvalidInputError("path", "an in-memory memory has no file to vacuum")
        if handle is None or handle.refs > 1:
            raise InvalidInputError("path", f"{path!r} is shared by another Memory of this process: close it first")
        tmp = f"{path}.vacuum"

        def size(p: str) -> int:
            return sum(os.path.getsize(x) for x in (p, f"{p}.wal") if os.path.isfile(x))

        def drop(p: str) -> None:
            for x in (p, f"{p}.wal", f"{p}.lock"):
                if os.path.isfile(x):
                    os.remove(x)

        self._store.checkpoint()
        before = size(path)
        drop(tmp)
        counts = {k: self._store.count(k, None) for k in ("Entity", "Fact", "Episode")}
        try:
            with Memory(tmp, engine=engine, embedder=self._embedder_obj, nli=self._nli_obj,
                        attributes=self.registry) as copy:
                written = import_rows(copy, enumerate(export_rows(self), 1))
                found = copy.check()
                got = {k: copy._store.count(k, None) for k in counts}
                if found:
                    raise DamagedError(found, "the rebuilt copy (vacuum; the file was not touched)")
                if got != counts:
                    raise MidasError(f"vacuum: the rebuilt copy holds {got}, the file {counts}; "
                                     "the file was not touched")
        except BaseException:
            drop(tmp)
            raise
        # the swap: close the file, put the copy in its place, open it again
        clock = self._clock
        self._handle = None
        _handles.release(handle)
        os.replace(tmp, path)
        if os.path.isfile(f"{tmp}.wal"):
            os.replace(f"{tmp}.wal", f"{path}.wal")
        drop(tmp)
        handle = _handles.acquire(path, engine, buffer_pool_mb=None, read_only=False, user=self)
        self._handle, self._store = handle, handle.store
        self._clock = clock
        self._ingest = self._recall = None
        self._graph_scores, self._summaries = GraphScores(), Summaries()
        return {"path": path, "bytes_before": before, "bytes_after": size(path), "rows": sum(written.values())
                if isinstance(written, dict) else written}

    def compaction_horizon(self, *, group_id: str = "default") -> _dt.datetime | None:
        """The group's compaction horizon (:meth:`compact`), or ``None``."""
        _text(group_id, "group_id")
        return self._store.horizon(group_id)

    def _known(self, known_at: _dt.datetime, group_id: str) -> None:
        """Refuse a ``known_at`` before the group's compaction horizon."""
        from ._errors import HistoryCompactedError

        if not isinstance(group_id, str):
            return  # the read itself names the bad group_id
        horizon = self._store.horizon(group_id)
        if horizon is not None and known_at < horizon:
            raise HistoryCompactedError(group_id, known_at, horizon)

    def tier_stats(self, *, group_id: str = "default") -> dict[str, Any]:
        """Per tier (short, medium, long): how many episodes, how many of
        them cold, and their mean :meth:`memory_value` (``midas-graph stats
        --tiers``)."""
        from ._forget import tier_stats

        _text(group_id, "group_id")
        return tier_stats(self._store, group_id, self.now())

    # -- internals ---------------------------------------------------------------
    def _restore(self, dump) -> dict[str, int]:
        """Write a parsed export (:class:`midas_graph._io.Dump`) verbatim, in
        one transaction: its references are checked first (a row naming
        what is in neither the file nor the memory is refused, with its
        line, and nothing is written); rows already stored are skipped.
        Returns what was written, counted in the database before and after."""
        from ._errors import EngineError

        self._writable()
        store = self._store
        labels = {"entities": "Entity", "aliases": "Alias", "links": "Link", "episodes": "Episode",
                  "versions_restored": "Fact", "fact_vectors": "FactVector"}
        with store.transaction():
            dump.check_references(store)
            before = {k: store.count(label) for k, label in labels.items()}
            entities = [e for _, e, _ in dump.entities]
            if dump.header is None:  # an export without name keys: derive them (first come, first served)
                have = store.existing("Entity", [e.id for e in entities])
                store.create_entities([e for e in entities if e.id not in have])
            else:
                store.restore_entities(entities, {e.id: v for _, e, v in dump.entities if v is not None})
                store.restore_aliases([a for _, a in dump.aliases])
                store.restore_links([x for _, x in dump.links])
            store.restore_episodes([x[1:] for x in dump.episodes])
            versions = [f for _, f in dump.facts]
            expected = 0
            for start in range(0, len(versions), 5000):
                expected += store.restore_versions(versions[start:start + 5000])
            store.restore_fact_vectors({i: v for _, i, v in dump.fact_vectors})
            store.link_successors()
            store.rebuild_slots()
            for g, t in dump.horizons.items():  # what compact() dropped before the export
                store.set_horizon(g, t)
            written = {k: store.count(label) - before[k] for k, label in labels.items()}
            if written["versions_restored"] != expected:  # never report what was not written
                raise EngineError(f"import wrote {written['versions_restored']} of {expected} new fact versions; "
                                  "nothing was imported")
            times = [t for f in versions for t in (f.recorded_at, f.expired_at)]
            times += [ep.recorded_at for _, ep, *_ in dump.episodes] + [e.created_at for e in entities]
            for t in times:
                self._clock.observe(t)
            store.set_meta("last_tx", self._clock.now().isoformat())
        if self._ingest is not None:  # entities it resolves names against may be new
            self._ingest.index.forget()
        return written

    def _facts(self, subject, attribute, group_id, *, valid_at=None, known_at=None) -> list[Fact]:
        _text(group_id, "group_id")
        attr = None
        if attribute is not None:
            _text(attribute, "attribute")
            attr = self.registry.key(attribute)
        if subject is None:
            ids = None
        else:
            _text(subject, "subject")
            found = self._store.lookup_names([alias_key(group_id, subject)])
            if not found:
                return []
            from ._entities import cluster  # a person's other names: its linked entities (docs/people.md)

            ids = cluster(self._store, group_id, found.values())
        return self._store.facts_of(ids, group_id=group_id, attribute=attr, valid_at=valid_at, known_at=known_at,
                                    statements=True)

    def _draft(self, row: Mapping[str, Any] | Sequence[Any], group_id: str) -> _Draft:
        if isinstance(row, Mapping):
            unknown = set(row) - _ROW_KEYS
            if unknown:
                raise InvalidInputError(sorted(unknown)[0], "unknown field")
            get = row.get
        elif isinstance(row, (list, tuple)) and len(row) == 3:
            get = dict(zip(("subject", "attribute", "value"), row)).get
        else:
            raise InvalidInputError("row", "expected a mapping or a (subject, attribute, value) tuple")
        for key in ("subject", "attribute", "value"):
            if get(key) is None:
                raise InvalidInputError(key, "is required")
        subject = _text(get("subject"), "subject").strip()  # type: ignore[union-attr]
        raw_attr = _text(get("attribute"), "attribute")
        attribute = self.registry.key(raw_attr)  # type: ignore[arg-type]
        if not attribute:
            raise InvalidInputError("attribute", f"{raw_attr!r} has no letters or digits")
        value = _check_value(get("value"))
        text = _text(get("text"), "text", allow_none=True)
        group = _text(get("group_id") or group_id, "group_id")
        provenance = get("provenance") or "observation"
        if provenance not in PROVENANCES:
            raise InvalidInputError("provenance", f"{provenance!r} is not one of {', '.join(PROVENANCES)}")
        source = _text(get("source"), "source", allow_none=True)
        confidence = _number(get("confidence"), "confidence", 1.0)
        importance = _number(get("importance"), "importance", -1.0)
        if get("importance") is None:  # none given: durability x confidence (docs/forgetting.md)
            importance = _importance.fact_importance(self.registry.is_single(attribute), confidence)
        vf = parse_time(get("valid_from"), "valid_from")
        vt = parse_time(get("valid_to"), "valid_to")
        if vf is not None and vt is not None and vt <= vf:
            raise InvalidInputError("valid_to", f"must be after valid_from ({vt.isoformat()} <= {vf.isoformat()})")
        return _Draft(subject, attribute, value, text, vf, vt, group, provenance, source,
                      confidence, importance, alias_key(group, subject),
                      alias_key(group, value) if isinstance(value, str) else None)

    def _resolve(self, drafts: Sequence[_Draft], now: _dt.datetime) -> tuple[dict[str, str], dict[str, str]]:
        """Alias key -> entity id for every subject (created if new) and for
        string values that name a known entity; and the canonical name of
        every subject entity."""
        subject_keys = {d.subject_key: d for d in drafts}
        value_keys = [d.value_key for d in drafts if d.value_key is not None]
        known = self._store.lookup_names([*subject_keys, *value_keys])
        created: list[Entity] = []
        for key, d in subject_keys.items():
            if key not in known:
                ent = Entity(id=new_id(), group_id=d.group_id, name=d.subject, created_at=now)
                created.append(ent)
                known[key] = ent.id
        self._store.create_entities(created)
        fresh = {e.id for e in created}
        old = {known[k] for k in subject_keys} - fresh
        names = self._store.entity_names(sorted(old))
        names.update((e.id, e.name) for e in created)
        return known, names

    def _relevant(self, drafts, known, slots, now) -> list[str]:
        """The held versions revision can touch: of a single-valued slot, those
        still valid at or after the new ``valid_from``; of a multi-valued one,
        only those with the same value (a restatement)."""
        need: set[str] = set()
        for d in drafts:
            entries = slots.get(slot_key(known[d.subject_key], d.attribute))
            if not entries:
                continue
            start = d.valid_from or now
            single = self.registry.is_single(d.attribute)
            norm = norm_value(d.value)
            need.update(
                vid for vid, val, end in entries
                if (end is None or end > start) and (single or val == norm)
            )
        return sorted(need)

    def _write(self, drafts: Sequence[_Draft]) -> list[Fact]:
        with self._store.transaction():
            now = self._clock.now()
            known, names = self._resolve(drafts, now)
            slots = self._store.slot_entries(sorted({slot_key(known[d.subject_key], d.attribute) for d in drafts}))
            work = Working(self._store.facts_by_vid(self._relevant(drafts, known, slots, now)),
                           self.registry.is_single, slots)
            results = []
            for d in drafts:
                vf = d.valid_from or now
                if d.valid_to is not None and d.valid_to <= vf:
                    raise InvalidInputError(
                        "valid_to", f"must be after valid_from ({d.valid_to.isoformat()} <= {vf.isoformat()})"
                    )
                sid = known[d.subject_key]
                obj = known.get(d.value_key) if d.value_key is not None else None
                results.append(work.assert_fact(d.fact(sid, names[sid], obj, now, vf)))
            self._store.apply(work.finish())
            self._store.set_meta("last_tx", now.isoformat())
        # A later row of the batch may have closed an earlier one: return the held version.
        return [work.by_id.get(f.id, f) for f in results]


_ROW_KEYS = frozenset(
    ("subject", "attribute", "value", "valid_from", "valid_to", "text", "group_id",
     "provenance", "source", "confidence", "importance")
)


def _ended_by(f: Fact, ep: Episode) -> bool:
    """Whether a cessation recorded with ``ep`` quotes it ("ended: cease:
    <clause of the episode>"): transactions may share an instant. Only for
    versions written before schema version 2 (see ``_ended_before_schema_2``)."""
    clause = f.reason.split(": ", 2)[-1].removesuffix(_episodes.ROLE_WITH_EMPLOYER).strip()
    return bool(clause) and clause in ep.content


def fact_not_found(fact_id: str) -> NotFoundError:
    """The one answer for a fact id that is absent, or of a group not asked
    about: the two must read the same (an id of another tenant is not found)."""
    return NotFoundError(f"fact_id: no fact with id {fact_id!r}")


def episode_not_found(episode_id: str) -> NotFoundError:
    """As :func:`fact_not_found`, for an episode id."""
    return NotFoundError(f"episode_id: no episode with id {episode_id!r}")


def _own_id(item: _episodes.EpisodeIn) -> _episodes.EpisodeIn:
    """A client-chosen episode id never holds the separator of stored keys
    (``_store.episode_key``): no id can pose as another group's."""
    if item.episode_id is not None and KEY_SEP in item.episode_id:
        raise InvalidInputError("episode_id", "must not contain the control character \\x1f")
    return item


def episode_items(episodes: Iterable[Mapping[str, Any] | str], group_id: str) -> list[Any]:
    """The validated episodes of :meth:`Memory.add_episodes` (each with its
    ``group_id``); an error names the episode, nothing is written."""
    if isinstance(episodes, (str, bytes, Mapping)):
        raise InvalidInputError("episodes", "expected an iterable of episodes, not a single one")
    items = []
    for i, e in enumerate(episodes):
        try:
            if isinstance(e, str):
                items.append(_own_id(_episodes.validate(e, group_id=group_id)))
            elif isinstance(e, Mapping):
                unknown = set(e) - _EPISODE_KEYS
                if unknown:
                    raise InvalidInputError(sorted(unknown)[0], "unknown field")
                if "content" not in e:
                    raise InvalidInputError("content", "is required")
                items.append(_own_id(_episodes.validate(**{"group_id": group_id, **e})))
            else:
                raise InvalidInputError("episode", f"expected a string or a mapping, got {type(e).__name__}")
        except InvalidInputError as exc:
            raise InvalidInputError(f"episodes[{i}].{exc.field}", str(exc).split(": ", 1)[-1]) from None
    return items


def _group_or_none(group_id: Any) -> None:
    if group_id is not None:
        _text(group_id, "group_id")


@contextlib.contextmanager
def _nothing():
    yield


def _number(value: Any, field: str, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InvalidInputError(field, f"expected a finite number, got {value!r}")
    if field == "confidence" and not 0.0 <= value <= 1.0:
        raise InvalidInputError(field, f"must be between 0 and 1, got {value!r}")
    return float(value)


def _sentence(subject: str, attribute: str, value: Any) -> str:
    return f"{subject} {attribute.replace('_', ' ')} {value}"


_EPISODE_KEYS = frozenset(
    ("content", "speaker", "reference_time", "group_id", "source", "provenance", "name", "source_description",
     "episode_id")
)


def _progress(total: int, wanted: bool | None, unit: str, threshold: int = 20_000):
    if wanted is False or (wanted is None and total < threshold):
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=f" {unit}", disable=None if wanted is None else False)
