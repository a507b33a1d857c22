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
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported where vectors are used: `midas-graph as-of` reads links without it
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
            import numpy as np

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
        import numpy as np

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


# -- people: names and links (docs/people.md) -------------------------------------------
#
# Two entities found to be one person (a role entity "user's wife" and a name
# entity "Sarah" that both already hold facts or mentions) are *linked*, not
# moved: a "same" Link row says that one is one with the other, with the
# episode that said so. Nothing is rewritten: each keeps its facts, its name
# keys and its history, and every read of either takes the union of the
# cluster (:func:`cluster`). New facts land on the cluster's root (the entity
# the links lead to), so revision sees one subject from then on. A name given
# to a single entity ("I'm Jordan") is an alias, also with a Link row naming
# its episode. remove_episode ends both (an "unlink" row) and takes the alias
# away; the Link rows stay, so the memory can still say when two names were
# one and why.

from ._types import Link  # noqa: E402

class _Lru:
    """A bounded cache, least recently used first out. Keys carry the
    group's generation, so an entry of an older one is never asked for
    again and ages out. Sized for many tenants: a process serving a shard
    of thousands of groups asks about each in turn (a cache of 64 cleared
    when full missed on every call: 0.5 ms more per as_of, measured by
    eval/bench_shards.py)."""

    def __init__(self, size: int) -> None:
        import threading
        from collections import OrderedDict

        self._size, self._d, self._lock = size, OrderedDict(), threading.Lock()

    def get(self, key):
        with self._lock:
            out = self._d.get(key)
            if out is not None:
                self._d.move_to_end(key)
            return out

    def put(self, key, value) -> None:
        with self._lock:
            self._d[key] = value
            self._d.move_to_end(key)
            while len(self._d) > self._size:
                self._d.popitem(last=False)


#: Per group (and generation): entity id -> root of its people cluster; the entities a link names.
_ROOTS = _Lru(8192)
_LINKED = _Lru(8192)


def _cache_key(store, group_id: str) -> tuple:
    """What a cache of the group's links keys on: the store object (its
    ``token``: an ``id()`` is reused once a closed store is collected) and the
    group's stored generation, which every commit that writes the group moves,
    in any process (docs/scaling.md, "Freshness")."""
    return (store.token, store.group_generation(group_id), group_id)


def held_links(store, group_id: str) -> list[Link]:
    """The people links of a group the memory holds now."""
    return [x for x in store.links(group_id) if x.ended_at is None]


def roots(store, group_id: str) -> dict[str, str]:
    """entity id -> the root of its cluster, for the entities of a group
    that are linked to another (cached per stored group generation)."""
    key = _cache_key(store, group_id)
    out = _ROOTS.get(key)
    if out is None:
        nxt = {x.entity_id: x.target for x in held_links(store, group_id) if x.kind == "same" and x.target}
        out = {}
        for eid in nxt:
            seen, cur = {eid}, nxt[eid]
            while cur in nxt and cur not in seen:  # links point root-ward; a cycle cannot be written
                seen.add(cur)
                cur = nxt[cur]
            out[eid] = cur
        _ROOTS.put(key, out)
    return out


def linked(store, group_id: str) -> frozenset[str]:
    """The entities of a group that a held people link names: people,
    whatever the tagger labelled their names (cached per stored group generation)."""
    key = _cache_key(store, group_id)
    out = _LINKED.get(key)
    if out is None:
        out = frozenset(i for x in held_links(store, group_id) if x.kind != "unlink"
                        for i in (x.entity_id, x.target) if i)
        _LINKED.put(key, out)
    return out


def root_of(store, group_id: str, entity_id: str) -> str:
    return roots(store, group_id).get(entity_id, entity_id)


def cluster(store, group_id: str, ids) -> list[str]:
    """``ids`` with every entity linked to one of them (either way), in order."""
    ids = list(dict.fromkeys(ids))
    r = roots(store, group_id)
    if not r:
        return ids
    wanted = {r.get(i, i) for i in ids}
    out = dict.fromkeys(ids)
    out.update(dict.fromkeys(sorted(wanted)))
    out.update(dict.fromkeys(sorted(e for e, root in r.items() if root in wanted)))
    return list(out)


def undo_links(store, group_id: str, episode_id: str, now) -> list[Link]:
    """End every held people link an episode made (its removal): an
    "unlink" row for each, and the names it gave taken away again. Returns
    the links ended."""
    import uuid

    ended = [x for x in held_links(store, group_id) if x.episode_id == episode_id]
    if not ended:
        return []
    rows = [Link(str(uuid.uuid4()), group_id, "unlink", x.entity_id, x.key, x.name, episode_id,
                 f"episode {episode_id}, which made it, was removed", now) for x in ended]
    for x in ended:
        if x.kind == "alias":
            store.remove_alias(x.entity_id, x.name, group_id)
    store.create_links(rows)
    return ended
