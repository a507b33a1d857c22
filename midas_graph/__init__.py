"""midas_graph: a bitemporal knowledge-graph memory for AI agents.

Embedded (LadybugDB or Kùzu), local, no LLM and no network at ingest or query
time. Start with :class:`Memory`.
"""

from typing import TYPE_CHECKING, Any

from ._errors import (
    DamagedError,
    DatabaseLockedError,
    EngineError,
    HistoryCompactedError,
    InvalidInputError,
    MidasError,
    NotFoundError,
    ReadOnlyError,
    SchemaVersionError,
)
from ._check import Violation
from ._guard import GuardDecision, guard_reliance
from ._io import vacuum
from ._memory import Memory
from ._registry import AttributeRegistry
from ._sharded import ShardedMemory, ShardMoveError
from ._shards import ShardLayoutError
from ._types import SAID, Entity, Episode, EpisodeResult, Fact

if TYPE_CHECKING:
    from ._context import Context, ContextItem
    from ._forget import ForgetReport
    from ._recall import Hit
    from ._timeline import plot_timeline

__version__ = "0.1.0"

# Imported on first use (``from midas_graph import Context`` works as ever):
# ranking pulls in numpy and the recall code, the plot matplotlib, and a CLI
# call that needs no model should not pay for them (tests/test_cli_imports.py).
_LAZY = {"Context": "._context", "ContextItem": "._context", "Hit": "._recall", "plot_timeline": "._timeline",
         "ForgetReport": "._forget"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

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
    "ForgetReport",
    "GuardDecision",
    "HistoryCompactedError",
    "Hit",
    "InvalidInputError",
    "Memory",
    "MidasError",
    "NotFoundError",
    "ReadOnlyError",
    "SAID",
    "SchemaVersionError",
    "ShardLayoutError",
    "ShardMoveError",
    "ShardedMemory",
    "Violation",
    "guard_reliance",
    "plot_timeline",
    "vacuum",
    "__version__",
]
