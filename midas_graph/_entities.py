"""Entity resolution: which stored entity a name in a message refers to.

1. Exact: the name (case-folded, whitespace collapsed) is a stored name or
   alias in the group — one key lookup.
2. Similar: the cosine of MiniLM name embeddings is at least
   :data:`SIMILARITY_THRESHOLD` (0.90) with a stored name of the group, and the
   two names are *compatible*: same digits ("Apollo 11" is not "Apollo 13"),
   and two names that share a first token but differ after it are never
   merged ("Alice Smith" / "Alice Jones", "Alice" / "Alice Smith"). The
   surface form then becomes an alias, so the next lookup is exact.
3. Otherwise a new entity.

Candidates are compared exactly (numpy over the group's name vectors, held in
memory per group and updated as entities are created); no engine extension.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

import numpy as np

SIMILARITY_THRESHOLD = 0.90
_DIGITS = re.compile(r"\d+")


def compatible(a: str, b: str) -> bool:
    """Whether two different names may denote one entity (see module doc)."""
    ta, tb = a.casefold().split(), b.casefold().split()
    if _DIGITS.findall(a) != _DIGITS.findall(b):
        return False
    if ta and tb and ta[0] == tb[0] and ta != tb:
        return False
    return True


@dataclass
class _Group:
    ids: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    vectors: list[np.ndarray | None] = field(default_factory=list)
    matrix: np.ndarray | None = None  # rows of the embedded names, built lazily

    def add(self, eid: str, name: str, vector: np.ndarray | None) -> None:
        self.ids.append(eid)
        self.names.append(name)
        self.vectors.append(vector)
        self.matrix = None


class EntityIndex:
    """Name vectors of each group's entities, for similarity resolution."""

    def __init__(self, store, embedder_factory) -> None:
        self._store = store
        self._embedder_factory = embedder_factory
        self._groups: dict[str, _Group] = {}
        self._lock = threading.Lock()

    def _embed(self, names: list[str]) -> np.ndarray:
        return self._embedder_factory().embed(names)

    def _group(self, group_id: str) -> _Group:
        g = self._groups.get(group_id)
        if g is None:
            g = _Group()
            for eid, name, vec in self._store.entity_vectors(group_id):
                g.add(eid, name, None if vec is None else np.frombuffer(vec, dtype=np.float32))
            self._groups[group_id] = g
        return g

    def note(self, group_id: str, eid: str, name: str, vector: np.ndarray | None) -> None:
        """Record an entity created (and committed) by this process."""
        with self._lock:
            if group_id in self._groups:
                self._groups[group_id].add(eid, name, vector)

    def similar(self, group_id: str, name: str, vector: np.ndarray) -> tuple[str, float] | None:
        """The most similar compatible entity at or above the threshold."""
        with self._lock:
            g = self._group(group_id)
            if not g.ids:
                return None
            if g.matrix is None:
                missing = [i for i, v in enumerate(g.vectors) if v is None]
                if missing:  # entities made by add_fact carry no vector: embed them once
                    vecs = self._embed([g.names[i] for i in missing])
                    for i, v in zip(missing, vecs):
                        g.vectors[i] = v
                g.matrix = np.vstack(g.vectors).astype(np.float32)
            sims = g.matrix @ vector.astype(np.float32)
            for j in np.argsort(-sims)[:5]:
                if sims[j] < SIMILARITY_THRESHOLD:
                    break
                if compatible(name, g.names[j]):
                    return g.ids[j], float(sims[j])
            return None

    def forget(self) -> None:
        with self._lock:
            self._groups.clear()
