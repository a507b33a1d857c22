"""``ShardedMemory``: one memory spread over N database files (docs/scaling.md).

Groups are the unit: a group lives in exactly one shard file, the one
:class:`~midas_graph._shards.Layout` names (a stable hash of its id, unless a
rebalance moved it). Every public :class:`~midas_graph.Memory` method that
takes ``group_id`` is routed to the Memory of the owning file; those methods
are made from Memory's own (same signature, same docstring), listed in the
tables of ``_routing`` (the router ClusterMemory uses too), so the sharded
surface cannot drift from Memory's.

The shard Memories open lazily, one per file, and stay open until
:meth:`ShardedMemory.close`. They share one set of models: the embedder,
NLI model and spaCy pipeline are process-wide (or the ``embedder=`` /
``nli=`` objects given), loaded once whatever the number of shards.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

from ._check import Violation
from ._errors import InvalidInputError, MidasError
from ._memory import Memory, episode_items
from ._routing import BY_ID_METHODS, GROUP_METHODS, Call, Outcome, Router, answer, group_arg, install
from ._shards import MANIFEST, Layout, ShardLayoutError, shard_of
from ._store import resolve_engine
from ._types import EpisodeResult, Fact

class ShardMoveError(MidasError):
    """A group could not be moved: what was copied does not read back the
    same as the source. The source still owns the group, unchanged."""


class _Local:
    """The :class:`~midas_graph._routing.Shards` of a ShardedMemory: each call
    on its shard's Memory, in this process."""

    def __init__(self, sharded: "ShardedMemory") -> None:
        self._sharded = sharded

    def run(self, calls: Sequence[Call]) -> list[Outcome]:
        return [answer(getattr(self._sharded.shard(i), name), args, kwargs) for i, name, args, kwargs in calls]


class ShardedMemory(Router):
    """A memory over ``shards`` database files in the directory ``root``.

    >>> mem = ShardedMemory("memdir", shards=4)                # doctest: +SKIP
    >>> mem.add_fact("Ana", "lives_in", "Porto", group_id="user-17")  # doctest: +SKIP

    Behaves as :class:`Memory` for every call about one group (same methods,
    signatures and answers; ``group_id`` picks the shard). ``shards`` is
    needed to create the directory and must match it afterwards (or be
    left out). ``engine`` is fixed when the directory is made (its
    manifest says which). ``memory_kwargs`` go to each shard's Memory
    (``clock``, ``attributes``, ``embedder``, ``nli``, ``read_only``, ...).
    Calls without a group: :meth:`check`, :meth:`stats` (every shard), and
    the by-id reads and writes (``episode``, ``fact``, ``versions``,
    ``retract``, ``remove_episode``), which look the id up in every shard.
    One process owns the files (each is locked for writing by the engine);
    other processes read them with ``read_only=True``.
    """

    if TYPE_CHECKING:  # what type checkers see: Memory's own methods (made from the tables below)
        add_fact = Memory.add_fact
        add_alias = Memory.add_alias
        add_entity = Memory.add_entity
        add_episode = Memory.add_episode
        episodes = Memory.episodes
        clear = Memory.clear
        search_entities = Memory.search_entities
        recall = Memory.recall
        context = Memory.context
        entity = Memory.entity
        entities = Memory.entities
        as_of = Memory.as_of
        current = Memory.current
        history = Memory.history
        forget = Memory.forget
        consolidate = Memory.consolidate
        warm = Memory.warm
        compact = Memory.compact
        compaction_horizon = Memory.compaction_horizon
        tier_stats = Memory.tier_stats
        episode = Memory.episode
        remove_episode = Memory.remove_episode
        versions = Memory.versions
        fact = Memory.fact
        retract = Memory.retract

    def __init__(self, root: str | os.PathLike, shards: int | None = None, *, engine: str | None = None,
                 **memory_kwargs: Any) -> None:
        if "path" in memory_kwargs:
            raise InvalidInputError("path", "a sharded memory is a directory: give root, not path")
        read_only = bool(memory_kwargs.get("read_only", False))
        fresh = not (Path(root) / MANIFEST).exists()
        self.layout = Layout.open(root, shards, engine=resolve_engine(engine) if fresh or engine else None,
                                  create=not read_only)
        self.engine = resolve_engine(engine or self.layout.engine)
        self.read_only = read_only
        self._kwargs = memory_kwargs
        self._mems: dict[int, Memory] = {}
        self._open_lock = threading.Lock()
        self._gate = threading.Condition()
        self._busy: Counter[str] = Counter()  # calls in progress per group
        self._moving: set[str] = set()
        self._closed = False
        self._empty: Memory | None = None
        self._shards = _Local(self)
        self._manifest_sig = _signature(self.layout.root / MANIFEST)

    # -- shards ------------------------------------------------------------------
    @property
    def root(self) -> Path:
        return self.layout.root

    @property
    def shards(self) -> int:
        return self.layout.n

    def shard_for(self, group_id: str) -> int:
        """The shard that owns ``group_id``: the manifest is read again when
        it changed on disk (another process moved a group)."""
        return self._owner(group_id)

    def _fresh_layout(self) -> None:
        sig = _signature(self.layout.root / MANIFEST)
        if sig != self._manifest_sig:
            self.layout = Layout.open(self.layout.root, create=False)
            self._manifest_sig = sig

    def shard(self, i: int) -> Memory:
        """The Memory on shard ``i`` (opened on first use, kept open)."""
        if self._closed:
            from ._errors import EngineError

            raise EngineError(f"the sharded memory on {str(self.root)!r} is closed")
        mem = self._mems.get(i)
        if mem is None:
            path = self.layout.path(i)
            if self.read_only and not path.exists():
                return self._nothing()  # no group was ever written there: read as an empty memory
            with self._open_lock:
                mem = self._mems.get(i)
                if mem is None:
                    mem = Memory(path, engine=self.engine, **self._kwargs)
                    self._mems[i] = mem
        return mem

    def _nothing(self) -> Memory:
        """What a read-only sharded memory reads for a shard whose file does
        not exist yet: an empty in-memory database that refuses writes (the
        file is looked for again at the next call)."""
        if self._empty is None:
            kwargs = {k: v for k, v in self._kwargs.items() if k != "read_only"}
            self._empty = Memory(None, engine=self.engine, **kwargs)
            self._empty.read_only = True  # its writes raise ReadOnlyError, as the shard's would
        return self._empty

    def for_group(self, group_id: str) -> Memory:
        """The Memory on the shard that owns ``group_id``."""
        return self.shard(self.shard_for(group_id))

    def _live(self) -> list[int]:
        """The shards whose file exists (a shard no group was written to has none yet)."""
        return [i for i in range(self.layout.n) if i in self._mems or self.layout.path(i).exists()]

    @contextmanager
    def _using(self, *groups: str) -> Iterator[None]:
        """A call about these groups: it waits while one is being moved, and
        a move waits for the calls in progress."""
        with self._gate:
            while self._moving.intersection(groups):
                self._gate.wait()
            self._busy.update(groups)
        try:
            yield
        finally:
            with self._gate:
                self._busy.subtract(groups)
                for g in groups:
                    if not self._busy[g]:
                        del self._busy[g]
                self._gate.notify_all()

    # -- batches ---------------------------------------------------------------------
    def add_facts(self, rows: Iterable[Mapping[str, Any] | Sequence[Any]], *, group_id: str = "default",
                  batch_size: int = 20_000, progress: bool | None = None) -> list[Fact]:
        """:meth:`Memory.add_facts`, each row on its group's shard: every row is
        validated before anything is written; facts come back in row order.
        One call per shard (rows of several groups of a shard share its
        transactions); a batch over several shards is not one transaction."""
        if isinstance(rows, (str, bytes, Mapping)):
            raise InvalidInputError("rows", "expected an iterable of rows, not a single row")
        rows = list(rows)
        any_mem = self.for_group(group_arg(group_id))
        any_mem._writable()
        groups: list[str] = []
        for i, row in enumerate(rows):
            try:
                groups.append(any_mem._draft(row, group_id).group_id)
            except InvalidInputError as exc:
                raise InvalidInputError(f"rows[{i}].{exc.field}", str(exc).split(": ", 1)[-1]) from None
        return self._write_split("add_facts", rows, groups, group_id,
                                 {"batch_size": batch_size, "progress": progress})

    def add_episodes(self, episodes: Iterable[Mapping[str, Any] | str], *, group_id: str = "default",
                     progress: bool | None = None) -> list[EpisodeResult]:
        """:meth:`Memory.add_episodes`, each episode on its group's shard, in
        order within each group; every episode is validated first."""
        episodes = list(episodes) if not isinstance(episodes, (str, bytes, Mapping)) else episodes
        items = episode_items(episodes, group_arg(group_id))
        self.for_group(group_id)._writable()
        groups = [item.group_id for item in items]
        return self._write_split("add_episodes", episodes, groups, group_id, {"progress": progress})

    # -- the whole memory --------------------------------------------------------------
    def _stray_violations(self, group_id: str | None) -> list[Violation]:
        return [Violation("shard", f"shard {i} holds rows of group {g!r}, which shard "
                          f"{self.layout.shard_for(g)} owns (left over by a move cut short; "
                          f"`midas-graph shards move {g} {self.layout.shard_for(g)}` removes them)", (g,))
                for i, g in self.strays() if group_id is None or g == group_id]

    def groups(self, i: int) -> list[str]:
        """Every group with rows in shard ``i``'s file (owned or left over)."""
        if i not in self._mems and not self.layout.path(i).exists():
            return []
        mem = self.shard(i)
        if mem.read_only:
            mem._store.refresh()
        return mem._store.group_ids()

    def strays(self) -> list[tuple[int, str]]:
        """(shard, group) for every group found on a shard that does not own it."""
        self._fresh_layout()
        return [(i, g) for i in self._live() for g in self.groups(i) if self.layout.shard_for(g) != i]

    def status(self) -> dict[str, Any]:
        """Per shard: its file, bytes on disk (database and log), how many
        groups it owns, and the groups it holds but does not own."""
        self._fresh_layout()
        per = []
        for i in range(self.layout.n):
            path = self.layout.path(i)
            size = sum(os.path.getsize(f) for f in (path, Path(f"{path}.wal")) if f.exists())
            groups = self.groups(i)
            per.append({"shard": i, "path": str(path), "bytes": size,
                        "groups": sum(1 for g in groups if self.layout.shard_for(g) == i),
                        "left_over": [g for g in groups if self.layout.shard_for(g) != i]})
        return {"root": str(self.root), "shards": self.layout.n, "engine": self.engine,
                "moved": dict(sorted(self.layout.moved.items())), "per_shard": per}

    # -- rebalancing (docs/scaling.md) --------------------------------------------------
    def move_group(self, group_id: str, to_shard: int) -> dict[str, Any]:
        """Move one group to shard ``to_shard``: copy it (a per-group export
        imported into the target), verify the copy, record the move in the
        manifest, then delete the group from the source. Calls about the
        group wait meanwhile. The manifest decides the owner at every
        point: a crash before it is written leaves the source owning the
        group (the copy is left over, removed by the next move), after it
        the target (the source's rows are left over, removed by the next
        move; moving a group to the shard that owns it only removes such
        leftovers). :meth:`check` reports leftovers. Returns what was done."""
        g = group_arg(group_id)
        if not isinstance(to_shard, int) or isinstance(to_shard, bool) or not 0 <= to_shard < self.layout.n:
            raise InvalidInputError("to_shard", f"expected a shard number 0..{self.layout.n - 1}, got {to_shard!r}")
        with self._gate:
            while g in self._moving or self._busy[g]:
                self._gate.wait()
            self._moving.add(g)
        try:
            source = self.shard_for(g)
            report: dict[str, Any] = {"group_id": g, "from": source, "to": to_shard, "copied": {},
                                      "left_over_removed": []}
            if source != to_shard:
                report["copied"] = self._copy_group(g, source, to_shard)
                self._record_move(g, to_shard)
            report["left_over_removed"] = self._remove_left_over(g)
            return report
        finally:
            with self._gate:
                self._moving.discard(g)
                self._gate.notify_all()

    def _copy_group(self, g: str, source: int, target: int) -> dict[str, int]:
        """Steps 1-3 of a move: export the group from ``source``, import it
        into ``target`` (after deleting any copy left there by a move cut
        short), and verify that the target reads the same."""
        from ._io import export_rows, import_rows

        src, dst = self.shard(source), self.shard(target)
        broken = src.check(group_id=g)
        if broken:
            raise ShardMoveError(f"group {g!r} on shard {source} fails check() ({len(broken)} violations, first: "
                                 f"{broken[0]}): repair it before moving it")
        rows = list(export_rows(src, group_id=g))
        if dst.stats(group_id=g) != {"Entity": 0, "Fact": 0, "Episode": 0} or g in dst._store.group_ids():
            dst.clear(group_id=g)  # a copy left by a move cut short: it may be older than the source
        at = src.now()
        before = _picture(src, g, at)
        import_rows(dst, enumerate(rows, 1))
        problems = [str(v) for v in dst.check(group_id=g)]
        if _comparable(list(export_rows(dst, group_id=g))) != _comparable(rows):
            problems.append("the export of the copy differs from the source's")
        if _picture(dst, g, at) != before:
            problems.append("as_of / history of the copy differ from the source's")
        if problems:
            dst.clear(group_id=g)
            raise ShardMoveError(f"moving group {g!r} from shard {source} to shard {target}: {problems[0]}; "
                                 "the copy was deleted and the group stays on its shard")
        return dict(rows[-1]["rows"])

    def _record_move(self, g: str, target: int) -> None:
        """Step 4: the manifest names the new owner (one atomic file replace)."""
        self.layout.record_move(g, target)
        self._manifest_sig = _signature(self.layout.root / MANIFEST)

    def _remove_left_over(self, g: str) -> list[int]:
        """Step 5: delete the group from every shard that holds it without owning it."""
        done = []
        for i, stray in self.strays():
            if stray == g:
                self.shard(i).clear(group_id=g)
                done.append(i)
        return done

    # -- lifecycle ------------------------------------------------------------------------
    def close(self) -> None:
        """Close every shard's Memory. Closing twice is harmless."""
        self._closed = True
        mems, self._mems = list(self._mems.values()), {}
        if self._empty is not None:
            mems.append(self._empty)
            self._empty = None
        for mem in mems:
            mem.close()

    def __enter__(self) -> "ShardedMemory":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ShardedMemory(root={str(self.root)!r}, shards={self.layout.n}, engine={self.engine!r})"


install(ShardedMemory)
# The typed names above and the tables (GROUP_METHODS, BY_ID_METHODS) must say the same
# (tests/test_sharded.py checks it).


def _signature(path: Path) -> tuple | None:
    """What changes when the manifest is written again (it is replaced: a new inode)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _comparable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Export rows without what depends on the file rather than the group:
    an episode's stored key (another group may hold its id there)."""
    return [{k: v for k, v in r.items() if not (r["type"] == "episode" and k == "key")} for r in rows]


def _picture(mem: Memory, g: str, at) -> tuple:
    """What a group answers: the whole group as of ``at``, and the history
    of each of its entities."""
    names = sorted(e.name for e in mem.entities(group_id=g))
    return (tuple(mem.as_of(group_id=g, valid_at=at, known_at=at)),
            tuple((n, tuple(mem.history(n, group_id=g))) for n in names))


__all__ = ["ShardedMemory", "ShardMoveError", "ShardLayoutError", "shard_of"]
