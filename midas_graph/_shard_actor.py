"""The process that owns one shard file on a Ray cluster (``midas_graph.cluster``).

A plain class: ``midas_graph.cluster`` wraps it with ``ray.remote``, so this
module imports no Ray. Ray runs its calls on a few threads at once
(``Cluster(concurrency=)``), as the MCP server runs its tools on one Memory. It opens ``Memory(path)`` once, loads the models once
(``preload``), and answers every call of its shard: the public ``Memory``
methods by name (:data:`CALLS`), the backfill's :meth:`apply`, an export.

A call's library error (a :class:`~midas_graph.MidasError`, or the
``ValueError``/``KeyError``/``TypeError`` bad arguments raise) comes back as a
value and is raised again by the caller as itself, with its type and message,
instead of a ``RayTaskError`` around a remote traceback.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any, Mapping, Sequence

#: The ``Memory`` methods a shard answers (every public one that reads or
#: writes the file).
CALLS = frozenset({
    "add_fact", "add_facts", "retract", "add_alias", "add_entity", "add_episode", "add_episodes",
    "episode", "episodes", "remove_episode", "fact", "clear", "search_entities", "recall", "context",
    "entity", "entities", "as_of", "current", "history", "versions", "check", "stats", "tier",
    "memory_value", "forget", "consolidate", "warm", "compact", "compaction_horizon", "tier_stats", "now",
})


class ShardServer:
    """One shard: its Memory, its backfill applier."""

    def __init__(self, path: str, index: int, *, engine: str | None = None,
                 attributes: Mapping[str, str] | None = None, clock: Any = None, preload: bool = True) -> None:
        from ._backfill import Applier
        from ._memory import Memory

        from ._errors import MidasError

        self.index = index
        self.failed: BaseException | None = None
        try:
            self.mem = Memory(path, engine=engine, attributes=attributes, clock=clock)
        except MidasError as exc:  # the file is locked, damaged, of a newer schema: said by ready()
            self.failed = exc
            return
        if preload:  # once per process: every later call finds them loaded
            from .models import default_embedder, default_nli, load_spacy

            load_spacy()
            default_embedder().load()
            default_nli().load()
        self.applier = Applier(self.mem)
        self._applying = threading.Lock()  # one backfill batch at a time (calls run on threads)

    def ready(self) -> tuple[str, Any]:
        """Who owns the file, or why it could not be opened: what ``Cluster``
        waits on before it takes calls."""
        import socket

        if self.failed is not None:
            return "err", self.failed
        return "ok", {"shard": self.index, "path": self.mem.path, "pid": os.getpid(),
                      "host": socket.gethostname(), "engine": self.mem.engine}

    def ping(self) -> None:
        return None

    def nli_threshold(self) -> float:
        return self.mem.nli_threshold

    def call(self, name: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> tuple[str, Any]:
        from ._routing import answer

        if name not in CALLS:
            return "err", AttributeError(f"a shard does not answer {name!r}")
        try:
            return answer(getattr(self.mem, name), args, dict(kwargs))
        except Exception:
            logging.getLogger("midas_graph.cluster").exception("shard %d: %s failed", self.index, name)
            raise

    def validate(self, kind: str, rows: Sequence[tuple[int, Any]], group_id: str) -> tuple[str, Any]:
        """Check rows of ``add_facts`` / ``add_episodes`` without writing
        (the rows of one call spread over shards are all checked before any
        shard writes); an error names the row's index in the whole call."""
        from ._errors import InvalidInputError
        from ._memory import _EPISODE_KEYS, _episodes

        for i, row in rows:
            try:
                if kind == "facts":
                    self.mem._draft(row, group_id)
                elif isinstance(row, str):
                    _episodes.validate(row, group_id=group_id)
                else:
                    unknown = set(row) - _EPISODE_KEYS
                    if unknown:
                        raise InvalidInputError(sorted(unknown)[0], "unknown field")
                    if "content" not in row:
                        raise InvalidInputError("content", "is required")
                    _episodes.validate(**{"group_id": group_id, **row})
            except InvalidInputError as exc:
                name = "rows" if kind == "facts" else "episodes"
                return "err", InvalidInputError(f"{name}[{i}].{exc.field}", str(exc).split(": ", 1)[-1])
        return "ok", None

    def apply(self, turns: Sequence[Any], vectors: Mapping[str, Any] | None = None) -> tuple[str, Any]:
        """The backfill: store the turns not stored yet (``_backfill.Applier``)."""
        from ._errors import MidasError

        try:
            with self._applying:
                return "ok", self.applier.apply(turns, vectors)
        except MidasError as exc:  # an episode that failed: those before it stay stored; a re-run resumes
            return "err", exc

    def stored_ids(self, pairs: Sequence[tuple[str, str]]) -> set[str]:
        """Which of these (group, episode id) the file holds (a backfill's resume)."""
        return self.applier.stored_ids(pairs)

    def export(self) -> list[dict[str, Any]]:
        from . import _io

        return list(_io.export_rows(self.mem))

    def close(self) -> None:
        if self.failed is None:
            self.mem.close()
