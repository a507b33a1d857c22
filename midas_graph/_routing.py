"""One router for a memory spread over shard files (docs/scaling.md).

:class:`~midas_graph.ShardedMemory` (the shards' Memories in this process) and
:class:`~midas_graph.cluster.ClusterMemory` (one Ray actor per shard) answer
the same calls the same way, and this module is that way: which shard a call
goes to (the group's, from :class:`~midas_graph._shards.Layout`), the methods
made from :class:`~midas_graph.Memory`'s own (same signature and docstring),
an id without its group looked for in every shard, a batch split by shard
(rows back in their order, an error naming the row's index in the whole
call), and ``check()`` / ``stats()`` over every shard.

What differs, how a call reaches a shard, is the one-method protocol
:class:`Shards`: a call on a Memory of this process, or on a Ray actor.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections import Counter
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Callable, Iterable, Protocol, Sequence

from ._check import Violation
from ._errors import InvalidInputError, MidasError, NotFoundError
from ._memory import Memory, episode_not_found, fact_not_found
from ._shards import Layout

#: Memory methods whose ``group_id`` names one group: routed to its shard.
GROUP_METHODS = (
    "add_fact", "add_alias", "add_entity", "add_episode", "episodes", "clear", "search_entities",
    "recall", "context", "entity", "entities", "as_of", "current", "history", "forget", "consolidate",
    "warm", "compact", "compaction_horizon", "tier_stats",
)
#: Methods that take an id and an optional ``group_id``: routed when it is
#: given; without it, the id is looked for in every shard (Router._group_of_id).
BY_ID_METHODS = ("episode", "remove_episode", "versions", "fact", "retract")
_FACT_ID_METHODS = ("versions", "fact", "retract")

#: One call on one shard: (shard, Memory method, positional args, keyword args).
Call = tuple[int, str, tuple, dict]
#: Its answer: ``("ok", value)``, or ``("err", error)`` for an error of the library's.
Outcome = tuple[str, Any]

#: The errors a call answers with rather than crashes on: MidasError, the
#: ValueError/KeyError/TypeError kinds of bad input, and wrong arguments.
LIBRARY_ERRORS = (MidasError, ValueError, KeyError, TypeError)


class Shards(Protocol):
    """How calls reach the shards: the one thing a local and a Ray memory do differently."""

    def run(self, calls: Sequence[Call]) -> list[Outcome]:
        """Make every call on its shard (at once where the shards are other
        processes) and answer each, in order."""
        ...


def answer(method: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any]) -> Outcome:
    """One call, its library error returned as a value (to be raised again by
    the caller as itself, with its type and message)."""
    try:
        return "ok", method(*args, **kwargs)
    except LIBRARY_ERRORS as exc:
        return "err", exc


def group_arg(group_id: Any) -> str:
    """``group_id`` checked: a non-empty string."""
    if not isinstance(group_id, str) or not group_id.strip():
        raise InvalidInputError("group_id", "expected a non-empty string")
    return group_id


def renumber(exc: InvalidInputError, index: Sequence[int]) -> InvalidInputError:
    """An error of a shard's part of a bulk call, naming the row's index in the whole call."""
    m = re.match(r"(rows|episodes)\[(\d+)\](.*)", exc.field)
    if not m or int(m.group(2)) >= len(index):
        return exc
    return InvalidInputError(f"{m.group(1)}[{index[int(m.group(2))]}]{m.group(3)}", str(exc).split(": ", 1)[-1])


class Router:
    """The routing of a memory over shards, for a class that sets ``layout``
    (its :class:`Layout`) and ``_shards`` (its :class:`Shards`). The hooks
    ``_fresh_layout``, ``_using``, ``_live`` and ``_stray_violations`` are
    for what only some memories do (a rebalance, shards opened lazily)."""

    layout: Layout
    _shards: Shards

    # -- hooks ---------------------------------------------------------------------
    def _fresh_layout(self) -> None:
        """Read the manifest again if it changed (a memory that can follow a move)."""

    def _using(self, *groups: str) -> AbstractContextManager[Any]:
        """Held around a call about these groups (a memory whose groups can move)."""
        return nullcontext()

    def _live(self) -> list[int]:
        """The shards to ask when a call names no group."""
        return list(range(self.layout.n))

    def _stray_violations(self, group_id: str | None) -> list[Violation]:
        """More of :meth:`check`: rows left on a shard that does not own them."""
        return []

    # -- calls -----------------------------------------------------------------------
    def _owner(self, group_id: Any) -> int:
        """The shard that owns ``group_id`` (checked: InvalidInputError naming it)."""
        self._fresh_layout()
        return self.layout.shard_for(group_arg(group_id))

    def _call(self, shard: int, name: str, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None) -> Any:
        (status, value), = self._shards.run([(shard, name, tuple(args), dict(kwargs or {}))])
        if status == "err":
            raise value
        return value

    def _ask(self, name: str, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None,
             shards: Sequence[int] | None = None) -> list[Outcome]:
        """The same call on every shard (or on ``shards``), answered in shard order."""
        shards = self._live() if shards is None else shards
        return self._shards.run([(i, name, tuple(args), dict(kwargs or {})) for i in shards])

    @staticmethod
    def _ok(answers: Iterable[Outcome]) -> list[Any]:
        out = []
        for status, value in answers:
            if status == "err":
                raise value
            out.append(value)
        return out

    def _group_of_id(self, method: str, the_id: Any) -> str:
        """The group of a fact or episode id, looked for in every shard (only
        in the groups each shard owns: a leftover copy does not count)."""
        self._fresh_layout()
        facts = method in _FACT_ID_METHODS
        if not isinstance(the_id, str) or not the_id.strip():
            raise InvalidInputError("fact_id" if facts else "episode_id",
                                    "must be a non-empty string" if isinstance(the_id, str)
                                    else f"expected a string, got {type(the_id).__name__}")
        shards = self._live()
        groups: set[str] = set()
        for i, (status, value) in zip(shards, self._ask("versions" if facts else "episode", (the_id,),
                                                        shards=shards)):
            if status == "err":
                if isinstance(value, NotFoundError):
                    continue
                raise value
            g = (value[0] if facts else value).group_id
            if self.layout.shard_for(g) == i:
                groups.add(g)
        if not groups:
            raise fact_not_found(the_id) if facts else episode_not_found(the_id)
        if len(groups) > 1:
            raise InvalidInputError("group_id", f"episode id {the_id!r} is used by {len(groups)} groups on "
                                    "different shards: name the group")
        return groups.pop()

    # -- batches ---------------------------------------------------------------------
    def _by_shard(self, groups: Sequence[str]) -> dict[int, list[int]]:
        """Positions of ``groups`` by the shard that owns each, in order."""
        self._fresh_layout()
        out: dict[int, list[int]] = {}
        for i, g in enumerate(groups):
            out.setdefault(self.layout.shard_for(g), []).append(i)
        return out

    def _write_split(self, name: str, rows: Sequence[Any], groups: Sequence[str], group_id: str,
                     kwargs: dict[str, Any]) -> list[Any]:
        """``add_facts`` / ``add_episodes``: one call per shard with its rows
        (``groups[i]`` is row i's group), answers back in row order."""
        out: list[Any] = [None] * len(rows)
        for shard, idx in self._by_shard(groups).items():
            with self._using(*{groups[i] for i in idx}):
                try:
                    got = self._call(shard, name, ([rows[i] for i in idx],), {"group_id": group_id, **kwargs})
                except InvalidInputError as exc:  # its index is the row's index in the shard's part
                    raise renumber(exc, idx) from None
            for i, value in zip(idx, got):
                out[i] = value
        return out

    # -- the whole memory --------------------------------------------------------------
    def check(self, *, group_id: str | None = None) -> list[Violation]:
        """:meth:`Memory.check` on every shard (or on the group's), each
        message prefixed with its shard, plus a ``shard`` violation for every
        group found on a shard that does not own it (a move cut short: the
        manifest's owner is right, the other copy is left over; moving the
        group again, or to where it is, removes it)."""
        shards = self._live() if group_id is None else [self._owner(group_id)]
        parts = self._ok(self._ask("check", kwargs={"group_id": group_id}, shards=shards))
        out = [Violation(v.rule, f"shard {i}: {v.message}", v.ids) for i, part in zip(shards, parts) for v in part]
        return out + self._stray_violations(group_id)

    def stats(self, *, group_id: str | None = None) -> dict[str, int]:
        """:meth:`Memory.stats` of the group (on its shard), or summed over every shard."""
        if group_id is not None:
            return self._call(self._owner(group_id), "stats", (), {"group_id": group_arg(group_id)})
        total: Counter[str] = Counter({"Entity": 0, "Fact": 0, "Episode": 0})
        for part in self._ok(self._ask("stats")):
            total.update(part)
        return dict(total)

    def guard_reliance(self, items: Iterable[Any], use: str, *, approved: Iterable[str] = ()):
        """:meth:`Memory.guard_reliance` (it reads no database)."""
        from ._guard import guard_reliance

        return guard_reliance(items, use, approved=approved)


def _routed(name: str) -> Callable[..., Any]:
    target = getattr(Memory, name)
    default = inspect.signature(target).parameters["group_id"].default

    @functools.wraps(target)
    def call(self: Router, *args: Any, **kwargs: Any) -> Any:
        g = group_arg(kwargs.get("group_id", default))
        with self._using(g):
            return self._call(self._owner(g), name, args, kwargs)

    call.__doc__ = f"Routed to the shard of ``group_id``: {target.__doc__ or ''}"
    return call


def _by_id(name: str) -> Callable[..., Any]:
    target = getattr(Memory, name)
    id_name = list(inspect.signature(target).parameters)[1]  # fact_id or episode_id

    @functools.wraps(target)
    def call(self: Router, *args: Any, group_id: str | None = None, **kwargs: Any) -> Any:
        if group_id is None:
            group_id = self._group_of_id(name, args[0] if args else kwargs.get(id_name))
        g = group_arg(group_id)
        with self._using(g):
            return self._call(self._owner(g), name, args, {**kwargs, "group_id": g})

    call.__doc__ = (f"Routed to the shard of ``group_id``; without one, the id is looked for in every "
                    f"shard (an episode id used by groups on two shards must name its group): "
                    f"{target.__doc__ or ''}")
    return call


def install(cls: type) -> type:
    """Give a :class:`Router` class Memory's routed methods (from the tables above)."""
    for name in GROUP_METHODS:
        setattr(cls, name, _routed(name))
    for name in BY_ID_METHODS:
        setattr(cls, name, _by_id(name))
    return cls
