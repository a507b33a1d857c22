"""Where a group lives when a memory is spread over several files (docs/scaling.md).

A sharded memory is a directory: ``shards.json`` (the manifest) and one database
file per shard, ``shard-0000.db`` … A group's shard is a stable hash of its id
(:func:`shard_of`: BLAKE2b, the same on every machine, every process and every
Python, unlike ``hash()``), unless the group was moved by a rebalance, which the
manifest records in ``moved``. A group never spans two shards.

This module only routes: it opens no database. The sharded memory and the Ray
cluster both read the same :class:`Layout`.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ._errors import InvalidInputError, MidasError

MANIFEST = "shards.json"
FORMAT = 1


class ShardLayoutError(MidasError):
    """The directory is not a sharded memory, or its manifest disagrees with
    what was asked (another shard count, another engine)."""


def shard_of(group_id: str, n: int) -> int:
    """The shard (0 … n-1) a group hashes to: stable across processes and machines."""
    if not isinstance(group_id, str) or not group_id:
        raise InvalidInputError("group_id", "expected a non-empty string")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise InvalidInputError("shards", f"expected a whole number >= 1, got {n!r}")
    digest = hashlib.blake2b(group_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % n


@dataclass
class Layout:
    """The manifest of a sharded memory: how many shards, which engine, and
    the groups a rebalance moved away from their hashed shard."""

    root: Path
    n: int
    engine: str | None = None
    moved: dict[str, int] = field(default_factory=dict)

    @classmethod
    def open(cls, root: str | os.PathLike, n: int | None = None, *, engine: str | None = None,
             create: bool = True) -> "Layout":
        """The layout at ``root``; a new one with ``n`` shards when there is
        none and ``create``. A given ``n`` or ``engine`` must match the manifest."""
        root = Path(root)
        manifest = root / MANIFEST
        if manifest.exists():
            try:
                data = json.loads(manifest.read_text(encoding="utf-8"))
                layout = cls(root=root, n=int(data["shards"]), engine=data.get("engine"),
                             moved={str(g): int(i) for g, i in (data.get("moved") or {}).items()})
            except (ValueError, KeyError, TypeError) as exc:
                raise ShardLayoutError(f"{manifest}: not a shard manifest ({exc})") from None
            if n is not None and n != layout.n:
                raise ShardLayoutError(
                    f"{root} holds {layout.n} shards, not {n}: open it without a count, "
                    "or move its groups to a new layout (docs/scaling.md)")
            if engine is not None and layout.engine is not None and engine != layout.engine:
                raise ShardLayoutError(f"{root} was made with engine {layout.engine!r}, not {engine!r}")
            return layout
        if not create:
            raise ShardLayoutError(f"{root} is not a sharded memory (no {MANIFEST})")
        if n is None:
            raise InvalidInputError("shards", f"{root} is new: say how many shards it has")
        shard_of("x", n)  # validates n
        if root.exists() and any(root.iterdir()):
            raise ShardLayoutError(f"{root} exists and is not empty: a sharded memory needs its own directory")
        root.mkdir(parents=True, exist_ok=True)
        layout = cls(root=root, n=n, engine=engine)
        layout.save()
        return layout

    def shard_for(self, group_id: str) -> int:
        """The shard that owns ``group_id``."""
        i = self.moved.get(group_id)
        return shard_of(group_id, self.n) if i is None else i

    def path(self, i: int) -> Path:
        """The database file of shard ``i``."""
        if not 0 <= i < self.n:
            raise InvalidInputError("shard", f"expected 0..{self.n - 1}, got {i}")
        return self.root / f"shard-{i:04d}.db"

    def paths(self) -> list[Path]:
        return [self.path(i) for i in range(self.n)]

    def record_move(self, group_id: str, to: int) -> None:
        """Say that ``group_id`` now lives on shard ``to`` (written atomically)."""
        self.path(to)  # validates the index
        if to == shard_of(group_id, self.n):
            self.moved.pop(group_id, None)
        else:
            self.moved[group_id] = to
        self.save()

    def save(self) -> None:
        data = {"format": FORMAT, "shards": self.n, "engine": self.engine,
                "moved": dict(sorted(self.moved.items()))}
        tmp = self.root / (MANIFEST + ".tmp")
        with open(tmp, "w", encoding="utf-8") as fp:
            json.dump(data, fp, indent=1)
            fp.flush()
            os.fsync(fp.fileno())
        os.replace(tmp, self.root / MANIFEST)
