"""midas_graph: a bitemporal knowledge-graph memory for AI agents.

Embedded (LadybugDB or Kùzu), local, no LLM and no network at ingest or query
time. Start with :class:`Memory`.
"""

from ._errors import (
    DamagedError,
    DatabaseLockedError,
    EngineError,
    InvalidInputError,
    MidasError,
    NotFoundError,
    ReadOnlyError,
    SchemaVersionError,
)
from ._check import Violation
from ._context import Context, ContextItem
from ._guard import GuardDecision, guard_reliance
from ._memory import Memory
from ._recall import Hit
from ._timeline import plot_timeline
from ._registry import AttributeRegistry
from ._types import Entity, Episode, EpisodeResult, Fact

__version__ = "0.1.0"

__all__ = [
    "AttributeRegistry",
    "Context",
    "ContextItem",
    "DamagedError",
    "DatabaseLockedError",
    "EngineError",
    "Entity",
    "Episode",
    "EpisodeResult",
    "Fact",
    "GuardDecision",
    "Hit",
    "InvalidInputError",
    "Memory",
    "MidasError",
    "NotFoundError",
    "ReadOnlyError",
    "SchemaVersionError",
    "Violation",
    "guard_reliance",
    "plot_timeline",
    "__version__",
]
