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
