"""midas_graph: a bitemporal knowledge-graph memory for AI agents.

Embedded (LadybugDB or Kùzu), local, no LLM and no network at ingest or query
time. Start with :class:`Memory`.
"""

from ._errors import (
    EngineError,
    InvalidInputError,
    MidasError,
    NotFoundError,
    SchemaVersionError,
)
from ._memory import Memory
from ._registry import AttributeRegistry
from ._types import Entity, Episode, EpisodeResult, Fact

__version__ = "0.1.0"

__all__ = [
    "AttributeRegistry",
    "EngineError",
    "Entity",
    "Episode",
    "EpisodeResult",
    "Fact",
    "InvalidInputError",
    "Memory",
    "MidasError",
    "NotFoundError",
    "SchemaVersionError",
    "__version__",
]
