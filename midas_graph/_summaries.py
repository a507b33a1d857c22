"""Extractive summaries of entities and of communities (issue 18 item 6).

No LLM and nothing rewritten: a summary is built from the beliefs the
memory holds now, in their own words (attribute and value), and is never
stored, so no fact, no ``as_of`` and no ``history`` can change because of it.

* **Entity summary** (:func:`entity_summary`): ``"Ana: lives in Lisbon;
  employer Siemens; likes tea, jazz."`` -- the entity's current beliefs
  (valid now, held now), one part per attribute (the values of a
  multi-valued one joined), the parts in order of the beliefs' importance
  (then the latest learned first), cut at :data:`SUMMARY_CHARS` at a part's
  end (``…`` says more is held). An entity that is the subject of no
  current belief has an empty summary. A summary given by the caller
  (``Memory.add_entity(summary=...)``, Graphiti's ``add_triplet``) is stored
  and wins over this one.
* **Communities** (:func:`communities`): Louvain communities
  (``networkx.community.louvain_communities``, seeded) over the entity graph
  of ``_centrality`` (held facts between entities and co-mentions in
  episodes). A community of at least :data:`MIN_MEMBERS` entities is named
  by its :data:`NAME_MEMBERS` most central members (PageRank) and summarised
  by its members' summaries, most central first, cut at
  :data:`COMMUNITY_CHARS`.

Both are computed on demand and cached per store generation (any committed
write recomputes them): ``Memory`` caches entity summaries, the Graphiti class
its communities.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import uuid as _uuid
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ._types import Entity, Fact

#: The longest entity summary, in characters (cut at the end of a part).
SUMMARY_CHARS = 280
#: The longest community summary, in characters.
COMMUNITY_CHARS = 600
#: The fewest members of a community worth naming (a lone entity is none).
MIN_MEMBERS = 2
#: A community is named by this many of its most central members.
NAME_MEMBERS = 3
#: Louvain's seed (deterministic communities) and resolution (networkx's default).
SEED = 7
RESOLUTION = 1.0
_NS = _uuid.UUID("6f1f3a52-5d3e-4b43-9c1e-2b1f0c9d7a18")


def _words(attribute: str) -> str:
    return attribute.replace("_", " ")


def _value(f: Fact) -> str:
    v = f.value
    if isinstance(v, _dt.datetime):
        return v.date().isoformat() if v.hour == v.minute == v.second == 0 else v.isoformat()
    return str(v)


def entity_summary(name: str, facts: Iterable[Fact], limit: int = SUMMARY_CHARS) -> str:
    """``"<name>: <attribute> <value>[, <value>]; ...."`` from ``facts`` (the
    entity's current beliefs), most important attribute first; ``""`` when
    there are none. Deterministic: ties go to the latest learned, then the
    attribute and the value in text order."""
    by_attr: dict[str, list[Fact]] = {}
    for f in facts:
        by_attr.setdefault(f.attribute, []).append(f)
    if not by_attr:
        return ""

    def rank(fs: list[Fact]) -> tuple:
        top = max(fs, key=lambda f: (f.importance, f.recorded_at))
        return (-top.importance, -top.recorded_at.timestamp(), top.attribute)

    parts = []
    for attr in sorted(by_attr, key=lambda a: rank(by_attr[a])):
        fs = sorted(by_attr[attr], key=lambda f: (-f.importance, -f.recorded_at.timestamp(), _value(f)))
        values = list(dict.fromkeys(_value(f) for f in fs))
        parts.append(f"{_words(attr)} {', '.join(values)}")
    head = f"{name}: "
    out = head + parts[0]
    if len(out) + 1 > limit:
        return out[: max(len(head), limit - 2)].rstrip() + "…"
    for p in parts[1:]:
        if len(out) + 2 + len(p) + 1 > limit:
            return out + "; …"
        out += "; " + p
    return out + "."


def summaries(store: Any, entities: Sequence[Entity], group_id: str, now: _dt.datetime) -> dict[str, str]:
    """Entity id -> extractive summary, for ``entities`` of one group (one read)."""
    if not entities:
        return {}
    facts = store.facts_of([e.id for e in entities], group_id=group_id, valid_at=now, known_at=now)
    by_subject: dict[str, list[Fact]] = {}
    for f in facts:
        by_subject.setdefault(f.subject_id, []).append(f)
    return {e.id: entity_summary(e.name, by_subject.get(e.id, ())) for e in entities}


class Summaries:
    """:func:`summaries`, cached per (group, store generation)."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[int, dict[str, str]]] = {}

    def fill(self, mem: Any, entities: Sequence[Entity]) -> list[Entity]:
        """``entities`` with ``summary`` filled in where the stored one is empty."""
        from dataclasses import replace

        store = mem._store
        want: dict[str, list[Entity]] = {}
        for e in entities:
            if not e.summary:
                want.setdefault(e.group_id, []).append(e)
        got: dict[str, str] = {}
        for g, ents in want.items():
            hit = self._cache.get(g)
            if hit is None or hit[0] != store.generation:
                hit = (store.generation, {})
                self._cache[g] = hit
            todo = [e for e in ents if e.id not in hit[1]]
            if todo:
                hit[1].update(summaries(store, todo, g, mem.now()))
            got.update({e.id: hit[1][e.id] for e in ents})
        return [replace(e, summary=got[e.id]) if not e.summary and got.get(e.id) else e for e in entities]


# -- communities ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Community:
    """One Louvain community of a group's entity graph."""

    id: str
    group_id: str
    name: str
    summary: str
    #: member entity ids, most central first
    members: tuple[str, ...]
    #: the members' PageRank, summed (how central the community is)
    weight: float


def community_id(group_id: str, members: Iterable[str]) -> str:
    """A stable id: the same members in the same group, the same id."""
    key = group_id + "\x1f" + "\x1f".join(sorted(members))
    return str(_uuid.uuid5(_NS, hashlib.sha256(key.encode("utf-8")).hexdigest()))


def communities(mem: Any, group_id: str) -> list[Community]:
    """The group's communities, most central first (see the module docstring)."""
    import networkx as nx

    from ._centrality import entity_graph, pagerank

    store = mem._store
    entities, held, mentions, _ = store.entity_graph(group_id)
    graph, facts = entity_graph(entities, held, mentions)
    if graph.number_of_edges() == 0:
        return []
    rank = pagerank(graph, facts)
    parts = nx.community.louvain_communities(graph, weight="weight", resolution=RESOLUTION, seed=SEED)
    groups = [sorted(p, key=lambda i: (-rank.get(i, 0.0), i)) for p in parts if len(p) >= MIN_MEMBERS]
    if not groups:
        return []
    names = {i: n for i, n, _ in entities}
    ents = store.entities_by_id([i for g in groups for i in g])
    said = {e.id: e.summary for e in mem._summaries.fill(mem, ents)}
    out = []
    for members in groups:
        name = ", ".join(names.get(i, i) for i in members[:NAME_MEMBERS])
        text = ""
        for i in members:
            s = said.get(i) or ""
            if not s:
                continue
            if text and len(text) + 1 + len(s) > COMMUNITY_CHARS:
                break
            text = f"{text} {s}".strip()
        if not text:
            text = f"{name}: mentioned together ({len(members)} entities)."
        out.append(Community(community_id(group_id, members), group_id, name, text[:COMMUNITY_CHARS],
                             tuple(members), round(sum(rank.get(i, 0.0) for i in members), 6)))
    out.sort(key=lambda c: (-c.weight, c.name))
    return out
