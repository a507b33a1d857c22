"""The one error hierarchy of midas_graph.

Every error the library raises on purpose is a :class:`MidasError`. Bad input is
also a :class:`ValueError` (or :class:`KeyError` for an unknown id), so callers
that already catch the built-in types keep working.
"""

from __future__ import annotations


class MidasError(Exception):
    """Base class of every midas_graph error."""


class InvalidInputError(MidasError, ValueError):
    """An argument is malformed: the message names the field."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")

    def __reduce__(self):  # crosses processes whole (a shard actor's error, midas_graph.cluster)
        return (type(self), (self.field, str(self)[len(self.field) + 2:]))


class NotFoundError(MidasError, KeyError):
    """An id (fact, episode, entity) is unknown in this memory."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


class SchemaVersionError(MidasError):
    """The database was written by a newer midas_graph than this one."""


class EngineError(MidasError):
    """The graph engine is missing, misconfigured or failed."""


class ReadOnlyError(MidasError):
    """A write was asked of a memory opened with ``read_only=True``."""


class DatabaseLockedError(EngineError):
    """Another process holds the database file (one writer process per file)."""


class DamagedError(MidasError):
    """Stored rows no longer match their digests: the database file is
    damaged. ``damage`` lists every damaged row found (see ``Memory.check``)."""

    def __init__(self, damage, what: str = "the database") -> None:
        self.damage = list(damage)
        shown = "; ".join(str(d) for d in self.damage[:10])
        more = f" (and {len(self.damage) - 10} more)" if len(self.damage) > 10 else ""
        super().__init__(
            f"{what} is damaged: {len(self.damage)} stored row(s) no longer match their digests: "
            f"{shown}{more}. Restore it from a backup or an export; `midas-graph check` lists them all"
        )
        self._what = what

    def __reduce__(self):
        return (type(self), (self.damage, self._what))


class HistoryCompactedError(MidasError):
    """A question about what the memory knew before its compaction horizon
    (``Memory.compact(before=T)`` dropped the versions expired before T):
    the answer would be incomplete, so none is given. ``horizon`` is T."""

    def __init__(self, group_id: str, known_at, horizon, message: str | None = None) -> None:
        self.group_id = group_id
        self.known_at = known_at
        self.horizon = horizon
        self._message = message
        super().__init__(message or
            f"known_at: {known_at.isoformat()} is before the compaction horizon {horizon.isoformat()} of group "
            f"{group_id!r}: the versions the memory held only before it were dropped by compact(), so what it "
            f"knew then cannot be answered; ask at known_at >= {horizon.isoformat()}"
        )

    def __reduce__(self):
        return (type(self), (self.group_id, self.known_at, self.horizon, self._message))
