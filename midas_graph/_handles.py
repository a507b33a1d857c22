"""The database files this process has open: one :class:`Store` per file.

Two engine ``Database`` objects on one file in one process do not see each
other: each keeps its own pages, and the one closed last writes its state
over the other's. Measured before this module: ``a = Memory(p); b =
Memory(p)``, 51 writes through each, ``a.close(); b.close()``: the file held
only a's 51 facts (closed the other way round, only b's), on both engines.

So a :class:`~midas_graph.Memory` on a path that is already open in the
process shares that path's one Store (same lock, same transactions, same
write-ahead log), counted by reference; the last close closes it. The
registry holds handles weakly: Memories dropped without ``close()`` let
their Store be collected (the engine closes the file), as before. Paths are
compared after ``os.path.realpath``. The first opener's engine and buffer
pool hold for all; a read-only Memory may share a writable Store (it then
refuses writes itself), but a writer cannot join a Store opened read-only.
docs/concurrency.md has the whole story (across processes too).
"""

from __future__ import annotations

import datetime as _dt
import os
import threading
import weakref
from typing import Any

from ._errors import EngineError, ReadOnlyError
from ._store import _READ_ONLY, Store, resolve_engine
from ._time import Clock, MonotonicClock

_lock = threading.Lock()
_open: weakref.WeakValueDictionary[str, "Handle"] = weakref.WeakValueDictionary()


class Handle:
    """One open file: its Store, how many Memories use it, the latest
    transaction time any of them used, and the Memories themselves. Each
    Memory holds its handle (the registry does not)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.refs = 0
        self.floor = Floor()
        self.users: weakref.WeakSet[Any] = weakref.WeakSet()


class Floor:
    """The latest transaction time used on a store, shared by the Memories
    that write to it: each has its own clock, and none may record before
    another's last write."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.value: _dt.datetime | None = None

    def raise_to(self, dt: _dt.datetime | None) -> None:
        if dt is None:
            return
        with self._lock:
            if self.value is None or dt > self.value:
                self.value = dt


class SharedClock:
    """A Memory's clock on a store others may share: its own time source
    (``Memory(clock=...)``), never before the store's floor. Same interface
    as :class:`~midas_graph._time.MonotonicClock`."""

    def __init__(self, clock: Clock | None, floor: Floor) -> None:
        self._own = MonotonicClock(clock)
        self._floor = floor

    def observe(self, dt: _dt.datetime | None) -> None:
        self._own.observe(dt)
        self._floor.raise_to(dt)

    def now(self) -> _dt.datetime:
        self._own.observe(self._floor.value)
        t = self._own.now()
        self._floor.raise_to(t)
        return t

    def peek(self) -> _dt.datetime:
        self._own.observe(self._floor.value)
        return self._own.peek()


def key_of(path: str | os.PathLike) -> str:
    return os.path.realpath(os.fspath(path))


def is_open(path: str | os.PathLike) -> bool:
    """Whether a Memory of this process has ``path`` open."""
    with _lock:
        return key_of(path) in _open


def acquire(path: str | os.PathLike | None, engine: str | None, *, buffer_pool_mb: int | None,
            read_only: bool, user: Any) -> Handle:
    """The handle of ``path``'s Store (opened now, or the one already open).
    ``path=None`` is a private in-memory database."""
    if path is None:
        handle = Handle(Store(None, engine, buffer_pool_mb=buffer_pool_mb, read_only=read_only))
        handle.refs = 1
        return handle
    key = key_of(path)
    with _lock:  # opening under the lock: two threads opening one file must not open it twice
        handle = _open.get(key)
        if handle is None:
            handle = Handle(Store(path, engine, buffer_pool_mb=buffer_pool_mb, read_only=read_only))
            _open[key] = handle
        else:
            store = handle.store
            if engine is not None and resolve_engine(engine) != store.engine:
                raise EngineError(f"database {os.fspath(path)!r} is already open in this process with engine "
                                  f"{store.engine!r}, not {engine!r}")
            if store.read_only and not read_only:
                raise ReadOnlyError(
                    f"database {os.fspath(path)!r} is open read-only in this process: close every "
                    f"Memory(..., read_only=True) on it before opening it for writing"
                )
        handle.refs += 1
        handle.users.add(user)
        return handle


def release(handle: Handle) -> None:
    """One user is done with the handle; the last one closes its Store."""
    with _lock:
        handle.refs -= 1
        if handle.refs > 0:
            return
        path = handle.store.path
        if path is not None and _open.get(key_of(path)) is handle:
            del _open[key_of(path)]
        handle.store.close()


def siblings(handle: Handle, user: Any) -> list[Any]:
    """The other users of a handle (to tell them about a deleted group)."""
    with _lock:
        return [u for u in handle.users if u is not user]


class ReadOnlyView:
    """A writable Store as a read-only Memory sees it: reads pass through,
    a transaction or a writing statement raises :class:`ReadOnlyError`."""

    read_only = True

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def _error(self) -> ReadOnlyError:
        return ReadOnlyError(f"this memory on {self._store.path!r} is read-only (read_only=True): "
                             f"it cannot be written")

    def transaction(self):
        raise self._error()

    def q(self, cypher: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        if not _READ_ONLY.match(cypher):
            raise self._error()
        return self._store.q(cypher, params)


class ClosedStore:
    """What a closed Memory holds instead of its Store (which other
    Memories may still share): every use is an error."""

    read_only = True

    def __init__(self, path: str | None, engine: str) -> None:
        self.path, self.engine = path, engine

    def __getattr__(self, name: str) -> Any:
        raise EngineError(f"the memory on {self.path or ':memory:'!r} is closed")

    def close(self) -> None:
        pass
