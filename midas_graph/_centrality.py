"""Structural importance from the entity graph (issue 18 item 3).

The entity graph of a group: one node per entity; an edge from a held
fact's subject to its value when the value is an entity; an edge between
two entities each time one episode mentions both (co-mention, weighted by
how many episodes do). PageRank (networkx) over it, personalised by how many
held facts each entity is the subject of, says which entities the memory
is organised around.

An episode's graph score is the PageRank of the most central entity it
mentions other than its speakers (every turn mentions its speaker, so the
speakers would give every turn the same score), divided by the largest such
PageRank of the group: a number in [0, 1]. The scores are cached per store
generation (any committed write rebuilds them).

Forgetting's ``graph`` policy ranks by ``importance + GRAPH_WEIGHT x
graph``. It is not the default: on the retention harness's development
split it kept recall@10 0.561 at keep-50% against 0.545 for importance
alone, and 0.424 against 0.431 at keep-25% (docs/forgetting.md).
"""

from __future__ import annotations

from typing import Any

#: Weight of the graph score added to the importance in forgetting's ``graph``
#: policy (0.2 and 0.5 x 0.4 were tried on the development split: the same figures).
GRAPH_WEIGHT = 0.2
#: PageRank's damping factor (networkx's default).
ALPHA = 0.85


def entity_graph(entities: list[tuple[str, str, str]], held: list[tuple[str, str]],
                 mentions: list[tuple[str, str]]) -> tuple[Any, dict[str, int]]:
    """The entity graph (a weighted ``networkx.Graph``; see the module
    docstring) and how many held facts each entity is the subject of. Also
    what ``_summaries.communities`` partitions."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(i for i, _, _ in entities)
    facts: dict[str, int] = {}
    for s, o in held:
        facts[s] = facts.get(s, 0) + 1
        if o and o != s:
            w = graph.get_edge_data(s, o, {}).get("weight", 0.0)
            graph.add_edge(s, o, weight=w + 1.0)
    by_episode: dict[str, list[str]] = {}
    for ep, e in mentions:
        by_episode.setdefault(ep, []).append(e)
    for ents in by_episode.values():
        ents = sorted(set(ents))
        for a in range(len(ents)):
            for b in range(a + 1, len(ents)):
                w = graph.get_edge_data(ents[a], ents[b], {}).get("weight", 0.0)
                graph.add_edge(ents[a], ents[b], weight=w + 1.0)
    return graph, facts


def pagerank(graph: Any, facts: dict[str, int]) -> dict[str, float]:
    """PageRank over :func:`entity_graph`, personalised by held facts."""
    import networkx as nx

    if graph.number_of_nodes() == 0:
        return {}
    # networkx's own PageRank (its sparse, scipy implementation), personalised by held facts
    return nx.pagerank(graph, alpha=ALPHA, personalization={n: 1.0 + facts.get(n, 0) for n in graph.nodes},
                       weight="weight", tol=1e-10, max_iter=200)


def entity_pagerank(entities: list[tuple[str, str, str]], held: list[tuple[str, str]],
                    mentions: list[tuple[str, str]]) -> dict[str, float]:
    """PageRank of every entity (see the module docstring)."""
    return pagerank(*entity_graph(entities, held, mentions))


def episode_scores(store: Any, group_id: str) -> dict[str, float]:
    """Episode id -> graph score in [0, 1] (see the module docstring)."""
    entities, held, mentions, speakers = store.entity_graph(group_id)
    rank = entity_pagerank(entities, held, mentions)
    speakers = {str(s).casefold() for s in speakers}
    skip = {i for i, name, _ in entities if str(name).casefold() in speakers}
    best: dict[str, float] = {}
    for ep, e in mentions:
        if e in skip:
            continue
        best[ep] = max(best.get(ep, 0.0), rank.get(e, 0.0))
    top = max(best.values(), default=0.0)
    return {ep: (v / top if top > 0 else 0.0) for ep, v in best.items()}


class GraphScores:
    """:func:`episode_scores` of each group, cached per store generation."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[int, dict[str, float]]] = {}

    def get(self, store: Any, group_id: str) -> dict[str, float]:
        hit = self._cache.get(group_id)
        if hit is not None and hit[0] == store.generation:
            return hit[1]
        scores = episode_scores(store, group_id)
        self._cache[group_id] = (store.generation, scores)
        return scores
