"""midas_graph.graphiti: Graphiti's async API on a Memory, with the real
database and models; conversion checked against graphiti-core's own models."""

from __future__ import annotations

import asyncio
import datetime as dt
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ENGINE, d

from midas_graph import InvalidInputError, Memory, MidasError, NotFoundError
from midas_graph.graphiti import (
    DateFilter,
    EntityEdge,
    EntityNode,
    EpisodeType,
    Graphiti,
    RawEpisode,
    SearchFilters,
    split_turns,
)

ROOT = Path(__file__).resolve().parents[1]
UTC = dt.timezone.utc


def run(coro):
    return asyncio.run(coro)


@pytest.fixture
def mem(models_mem):
    return models_mem


@pytest.fixture
def g(mem):
    return Graphiti(memory=mem)


def facts(edges):
    return sorted(str(e.attributes["value"]) for e in edges)


def add(g, name, body, when, **kw):
    return run(g.add_episode(name=name, episode_body=body, source_description="chat",
                             reference_time=when, **kw))


@pytest.fixture
def moved(g, clock):
    """Dana lived in Berlin, then moved to Lisbon; the clock time between the two."""
    first = add(g, "t1", "Dana: I live in Berlin and I work at Acme.", d("2024-01-10"))
    between = clock.t
    second = add(g, "t2", "Dana: We moved to Lisbon last week!", d("2024-03-08"))
    return first, between, second


# -- ingest and search ------------------------------------------------------------------

def test_add_episode_returns_graphiti_shaped_results(g, moved):
    first, _, second = moved
    ep = first.episode
    assert ep.name == "t1" and ep.source is EpisodeType.message and ep.source_description == "chat"
    assert ep.content == "Dana: I live in Berlin and I work at Acme." and ep.valid_at == d("2024-01-10")
    assert {"Dana", "Berlin", "Acme"} <= {n.name for n in first.nodes}
    assert {(e.name, e.attributes["value"]) for e in first.edges} >= {("LIVES_IN", "Berlin"), ("EMPLOYER", "Acme")}
    assert all(e.episodes == [ep.uuid] and e.source_node_uuid == first.nodes[0].uuid for e in first.edges)
    assert set(ep.entity_edges) == {e.uuid for e in first.edges}
    assert {x.target_node_uuid for x in first.episodic_edges} == {n.uuid for n in first.nodes}
    # the second episode's edges: the new fact, then the one it invalidated
    [lisbon, berlin] = second.edges
    assert lisbon.attributes["value"] == "Lisbon" and lisbon.attributes["status"] == "current"
    assert berlin.attributes["status"] == "superseded" and berlin.attributes["superseded_by"] == lisbon.uuid
    assert berlin.invalid_at == lisbon.valid_at and berlin.expired_at is None  # valid time closed, still held
    assert second.invalidated == [berlin] and second.communities == [] and second.community_edges == []


def test_search_hides_invalidated_edges_unless_asked(g, moved, clock):
    edges = run(g.search("Where does Dana live?"))
    lives = [e for e in edges if e.name == "LIVES_IN"]
    assert facts(lives) == ["Lisbon"] and lives[0].fact == "We moved to Lisbon last week!"
    assert lives[0].created_at <= clock.t and lives[0].expired_at is None  # transaction time
    every = [e for e in run(g.search("Where does Dana live?", include_invalidated=True)) if e.name == "LIVES_IN"]
    assert facts(every) == ["Berlin", "Lisbon"]
    assert {e.attributes["status"] for e in every} == {"current", "superseded"}


def test_search_as_of_and_known_at(g, moved):
    _, between, _ = moved
    past = [e for e in run(g.search("Where does Dana live?", as_of="2024-02-01")) if e.name == "LIVES_IN"]
    assert facts(past) == ["Berlin"] and past[0].invalid_at is not None  # as stored now: closed later
    then = [e for e in run(g.search("Where does Dana live?", known_at=between)) if e.name == "LIVES_IN"]
    assert facts(then) == ["Berlin"] and then[0].invalid_at is None  # as believed then: open


def test_search_filters_and_center_node(g, moved):
    first, _, _ = moved
    only = run(g.search("Dana", search_filter=SearchFilters(edge_types=["EMPLOYER"])))
    assert facts(only) == ["Acme"]
    after = SearchFilters(valid_at=[[DateFilter(date=d("2024-02-01"), comparison_operator=">")]])
    assert facts(run(g.search("Where does Dana live?", search_filter=after))) == ["Lisbon"]
    # a filter on invalid_at looks at invalidated edges
    closed = SearchFilters(invalid_at=[[DateFilter(comparison_operator="IS NOT NULL")]])
    assert facts(run(g.search("Where does Dana live?", search_filter=closed))) == ["Berlin"]
    acme = next(n for n in first.nodes if n.name == "Acme")
    top = run(g.search("Where does Dana live?", center_node_uuid=acme.uuid))
    assert top[0].target_node_uuid == acme.uuid
    with pytest.raises(InvalidInputError) as exc:
        run(g.search("x", search_filter=SearchFilters(valid_at=[[DateFilter(d("2024-01-01"), "~")]])))
    assert exc.value.field == "search_filter.comparison_operator"


def test_search_underscore_returns_edges_nodes_and_episodes(g, moved):
    from graphiti_core.search.search_config_recipes import COMBINED_HYBRID_SEARCH_RRF, EDGE_HYBRID_SEARCH_RRF

    res = run(g.search_("Where does Dana live?", config=COMBINED_HYBRID_SEARCH_RRF))
    assert "Lisbon" in facts(res.edges) and "Berlin" not in facts(res.edges)
    assert res.nodes[0].name == "Dana" and len(res.node_reranker_scores) == len(res.nodes)
    assert {e.name for e in res.episodes} <= {"t1", "t2"} and res.episodes
    assert [c.name.split(", ")[0] for c in res.communities] == ["Dana"]  # the recipe asks for communities
    edges_only = run(g.search_("Where does Dana live?", config=EDGE_HYBRID_SEARCH_RRF))
    assert edges_only.edges and edges_only.nodes == [] and edges_only.episodes == []
    assert run(g.search_("Dana", search_filter=SearchFilters(node_labels=["GPE"]))).nodes[0].name in {"Berlin", "Lisbon"}
    # nodes around a center: the center, then what one current fact links it to
    lisbon = next(n for n in res.nodes if n.name == "Lisbon")
    around = run(g.search_("Dana", config=COMBINED_HYBRID_SEARCH_RRF, center_node_uuid=lisbon.uuid)).nodes
    assert [n.name for n in around[:2]] == ["Lisbon", "Dana"]


TALK = [("Ana", "I live in Lisbon and I work at Siemens as an engineer."),
        ("Bo", "Nice! My sister Carla lives in Porto."),
        ("Ana", "I like tea. I also like jazz."),
        ("Bo", "I work at Stripe. My dog Rex loves the beach."),
        ("Dave", "I play chess with Eve at the club every Friday."),
        ("Eve", "Dave and I both study at Nova University.")]


def test_build_communities_louvain_with_extractive_summaries(g):
    """A small conversation of three circles (Ana's, Bo's, Dave and Eve's):
    Louvain over the entity graph finds them, each named by its most central
    members and summarised by their beliefs; search_ finds them by meaning;
    graphiti-core's own models accept them; a write recomputes them."""
    from graphiti_core.edges import CommunityEdge as GCEdge
    from graphiti_core.nodes import CommunityNode as GCNode
    from graphiti_core.search.search_config_recipes import COMMUNITY_HYBRID_SEARCH_RRF

    for i, (who, text) in enumerate(TALK):
        add(g, f"c{i}", f"{who}: {text}", d("2024-05-01") + dt.timedelta(minutes=i))
    mem = g.memory
    before = [f.to_dict() for who in ("Ana", "Bo", "Dave") for f in mem.history(who)]
    nodes, edges = run(g.build_communities())
    names = {e.id: e.name for e in mem.entities()}
    circles = [{names[m] for m in n.members} for n in nodes]
    assert {"Ana", "Lisbon", "Siemens"} in circles and {"Dave", "Eve", "Nova University"} in circles
    assert any({"Bo", "Carla", "Stripe"} <= c for c in circles)
    assert not any({"Ana", "Dave"} <= c or {"Bo", "Eve"} <= c for c in circles)
    ana = next(n for n in nodes if "Siemens" in {names[m] for m in n.members})
    assert ana.name.startswith("Ana") and mem.entity("Ana").summary in ana.summary
    assert "lives in Lisbon" in ana.summary and ana.labels == ["Community"] and ana.group_id == "default"
    # HAS_MEMBER edges: community -> each member
    assert sorted((e.source_node_uuid, e.target_node_uuid) for e in edges) == sorted(
        (n.uuid, m) for n in nodes for m in n.members)
    # deterministic: the same memory, the same communities and ids
    again, _ = run(g.build_communities(group_ids=["default"]))
    assert [(n.uuid, n.name, n.summary) for n in again] == [(n.uuid, n.name, n.summary) for n in nodes]
    assert run(g.build_communities(group_ids=["empty-group"])) == ([], [])
    # reachable through search_, like Graphiti's community search
    res = run(g.search_("who plays chess at university?", config=COMMUNITY_HYBRID_SEARCH_RRF))
    assert res.edges == [] and res.nodes == [] and res.communities[0].name.startswith(("Dave", "Eve"))
    assert len(res.community_reranker_scores) == len(res.communities)
    assert res.community_reranker_scores == sorted(res.community_reranker_scores, reverse=True)
    conv = res.to_graphiti()
    assert isinstance(conv.communities[0], GCNode) and conv.communities[0].uuid == res.communities[0].uuid
    assert isinstance(edges[0].to_graphiti(), GCEdge)
    # a write recomputes them; nothing was stored and no belief changed
    assert [f.to_dict() for who in ("Ana", "Bo", "Dave") for f in mem.history(who)] == before
    add(g, "c9", "Ana: We moved to Porto last week!", d("2024-06-20"))
    ana2 = next(n for n in run(g.build_communities())[0] if n.name.startswith("Ana"))
    assert "lives in Porto" in ana2.summary and "Lisbon" not in ana2.summary.split("lives in")[1].split(";")[0]
    assert mem.check() == []


def test_history_returns_every_version(g, moved):
    hist = run(g.history("Dana", "lives_in"))
    assert [(e.attributes["value"], e.attributes["version"]) for e in hist] == [
        ("Berlin", 1), ("Berlin", 2), ("Lisbon", 1)]
    assert hist[0].expired_at == hist[1].created_at  # version 1 stopped being held when 2 was recorded


# -- triplets ---------------------------------------------------------------------------

def test_add_triplet_stores_the_callers_own_fact(g):
    from graphiti_core.edges import EntityEdge as GEdge
    from graphiti_core.nodes import EntityNode as GNode

    now = dt.datetime.now(UTC)
    alice = GNode(name="Alice", group_id="", labels=["Person"])
    acme = GNode(name="Acme Corp", group_id="")
    edge = GEdge(group_id="", source_node_uuid=alice.uuid, target_node_uuid=acme.uuid, created_at=now,
                 name="WORKS_AT", fact="Alice works at Acme Corp", valid_at=d("2023-05-01"))
    res = run(g.add_triplet(alice, edge, acme))
    [stored] = res.edges
    assert stored.name == "EMPLOYER" and stored.fact == "Alice works at Acme Corp"  # works_at is spelled employer
    assert stored.valid_at == d("2023-05-01") and stored.group_id == "default"
    assert [n.name for n in res.nodes] == ["Alice", "Acme Corp"] and res.nodes[0].labels == ["Entity", "Person"]
    assert stored.source_node_uuid == res.nodes[0].uuid and stored.target_node_uuid == res.nodes[1].uuid
    # our own classes work too; a new employer supersedes the old one
    globex = EntityNode(uuid="x", name="Globex", group_id="default")
    later = EntityEdge(uuid="y", group_id="default", source_node_uuid="", target_node_uuid="", name="employer",
                       fact="Alice joined Globex", created_at=now, valid_at=d("2024-01-01"))
    run(g.add_triplet(EntityNode(uuid="z", name="alice", group_id="default"), later, globex))
    assert facts(run(g.search("Where does Alice work?"))) == ["Globex"]
    assert facts(run(g.history("Alice"))) == ["Acme Corp", "Acme Corp", "Globex"]


def test_add_triplet_bad_input_names_the_field(g):
    node = EntityNode(uuid="a", name="Alice", group_id="default")
    edge = EntityEdge(uuid="e", group_id="default", source_node_uuid="a", target_node_uuid="b", name="LIVES_IN",
                      fact="", created_at=d("2024-01-01"))
    for bad, target, field in (
        (EntityNode(uuid="a", name=" ", group_id="default"), node, "source_node.name"),
        (node, EntityNode(uuid="b", name="", group_id="default"), "target_node.name"),
    ):
        with pytest.raises(InvalidInputError) as exc:
            run(g.add_triplet(bad, edge, target))
        assert exc.value.field == field
    backwards = EntityEdge(uuid="e", group_id="default", source_node_uuid="a", target_node_uuid="b",
                           name="LIVES_IN", fact="x", created_at=d("2024-01-01"),
                           valid_at=d("2024-05-01"), invalid_at=d("2024-01-01"))
    with pytest.raises(InvalidInputError) as exc:
        run(g.add_triplet(node, backwards, EntityNode(uuid="b", name="Paris", group_id="default")))
    assert exc.value.field == "edge.invalid_at"
    assert g.memory.entity("Paris") is None  # validated before anything was written


# -- episodes -----------------------------------------------------------------------------

def test_retrieve_episodes_order_last_n_groups_and_source(g):
    from graphiti_core.nodes import EpisodeType as GType

    for i, day in enumerate(["2024-01-03", "2024-01-01", "2024-01-04", "2024-01-02"]):
        add(g, f"e{i}", f"user: note {i}", d(day))
    add(g, "doc", "A text document.", d("2024-01-05"), source=GType.text)
    add(g, "other", "user: elsewhere", d("2024-01-06"), group_id="other")
    got = run(g.retrieve_episodes(d("2024-01-05"), last_n=3))
    assert [e.name for e in got] == ["e0", "e2", "doc"]
    assert [e.name for e in run(g.retrieve_episodes(d("2024-01-04")))] == ["e3", "e0", "e2"]
    assert [e.name for e in run(g.retrieve_episodes(d("2024-01-09"), last_n=2, source=GType.message))] == ["e0", "e2"]
    both = run(g.retrieve_episodes(d("2024-01-09"), last_n=2, group_ids=["default", "other"]))
    assert [e.name for e in both] == ["doc", "other"]
    assert got[-1].source is EpisodeType.text and got[-1].content == "A text document."
    with pytest.raises(InvalidInputError) as exc:
        run(g.retrieve_episodes(d("2024-01-09"), last_n=0))
    assert exc.value.field == "last_n"


def test_remove_episode_retracts_its_facts(g, moved, clock):
    _, _, second = moved
    before = clock.t
    removed = run(g.remove_episode(second.episode.uuid))
    assert facts(removed) == ["Lisbon"] and removed[0].attributes["status"] == "retracted"
    assert removed[0].expired_at is not None
    assert facts([e for e in run(g.search("Where does Dana live?")) if e.name == "LIVES_IN"]) == ["Berlin"]
    every = [e for e in run(g.search("Where does Dana live?", include_invalidated=True)) if e.name == "LIVES_IN"]
    assert {(e.attributes["value"], e.attributes["status"]) for e in every} == {
        ("Berlin", "current"), ("Lisbon", "retracted")}
    # as believed before the removal, Lisbon was where Dana lived
    then = [e for e in run(g.search("Where does Dana live?", known_at=before)) if e.name == "LIVES_IN"]
    assert facts(then) == ["Lisbon"]
    assert [e.name for e in run(g.retrieve_episodes(dt.datetime.now(UTC)))] == ["t1"]
    with pytest.raises(NotFoundError):
        run(g.remove_episode(second.episode.uuid))


def test_get_nodes_and_edges_by_episode(g, moved):
    first, _, second = moved
    res = run(g.get_nodes_and_edges_by_episode([first.episode.uuid, "unknown"]))
    assert [e.uuid for e in res.episodes] == [first.episode.uuid]
    assert {"Dana", "Berlin", "Acme"} <= {n.name for n in res.nodes}
    by_value = {e.attributes["value"]: e for e in res.edges}
    assert set(by_value) == {"Berlin", "Acme"}
    assert by_value["Berlin"].attributes["status"] == "superseded"  # the latest version
    both = run(g.get_nodes_and_edges_by_episode([first.episode.uuid, second.episode.uuid]))
    assert facts(both.edges) == ["Acme", "Berlin", "Lisbon"]
    with pytest.raises(InvalidInputError):
        run(g.get_nodes_and_edges_by_episode(first.episode.uuid))


def test_add_episode_bulk_with_graphiti_core_raw_episodes(g):
    from graphiti_core.nodes import EpisodeType as GType
    from graphiti_core.utils.bulk_utils import RawEpisode as GRaw

    raws = [
        GRaw(name="b1", uuid="ep-1", content="Sam: I live in Porto.", source_description="chat",
             source=GType.message, reference_time=d("2024-01-01")),
        RawEpisode(name="b2", content="Sam: I moved to Faro.", source_description="chat",
                   source="message", reference_time=d("2024-06-01")),
    ]
    res = run(g.add_episode_bulk(raws, group_id="bulk"))
    assert [e.name for e in res.episodes] == ["b1", "b2"] and res.episodes[0].uuid == "ep-1"
    assert all(e.group_id == "bulk" for e in res.episodes)
    assert facts(run(g.search("Where does Sam live?", group_ids=["bulk"]))) == ["Faro"]
    assert run(g.search("Where does Sam live?")) == []  # group None is "default"
    with pytest.raises(InvalidInputError) as exc:  # a used uuid: nothing of the batch is stored
        run(g.add_episode_bulk([
            RawEpisode(name="b3", content="Sam: I live in Braga.", reference_time=d("2024-07-01")),
            RawEpisode(name="b4", uuid="ep-1", content="Sam: hi", reference_time=d("2024-07-02")),
        ], group_id="bulk"))
    assert exc.value.field == "bulk_episodes.uuid"
    assert len(run(g.retrieve_episodes(d("2025-01-01"), last_n=10, group_ids=["bulk"]))) == 2
    with pytest.raises(InvalidInputError) as exc:
        run(g.add_episode_bulk([RawEpisode(name="x", content=" ", reference_time=d("2024-01-01"))]))
    assert exc.value.field == "bulk_episodes[0].content"


def test_message_bodies_split_into_speaker_turns(g):
    res = add(g, "chat", "user: I love jazz.\nassistant: Noted! I love helping.\nuser: My sister is Eve.",
              d("2024-02-01"), uuid="turns")
    assert [t.content for t in res.turns] == ["user: I love jazz.", "assistant: Noted! I love helping.",
                                            "user: My sister is Eve."]
    assert [t.uuid for t in res.turns] == ["turns", "turns-2", "turns-3"] and res.episode is res.turns[0]
    assert {e.attributes["subject"] for e in res.edges if e.attributes["value"] == "jazz"} == {"user"}
    assert split_turns("Dana (user): hi there\nsecond line") == [("Dana", "hi there\nsecond line")]
    assert split_turns("no speaker here") == [("user", "no speaker here")]
    assert split_turns("see https://x.org: a link") == [("user", "see https://x.org: a link")]


# -- conversion to graphiti-core ---------------------------------------------------------------

def test_to_graphiti_validates_and_keeps_the_key_fields(g, moved):
    from graphiti_core.edges import EntityEdge as GEdge
    from graphiti_core.graphiti import AddEpisodeResults as GResults
    from graphiti_core.nodes import EntityNode as GNode
    from graphiti_core.nodes import EpisodeType as GType
    from graphiti_core.nodes import EpisodicNode as GEpisode
    from graphiti_core.search.search_config import SearchResults as GSearch

    first, _, second = moved
    conv = second.to_graphiti()
    assert isinstance(conv, GResults) and isinstance(conv.episode, GEpisode)
    assert conv.episode.uuid == second.episode.uuid and conv.episode.source is GType.message
    assert conv.episode.valid_at == d("2024-03-08") and conv.episode.content == second.episode.content
    for ours, theirs in zip(second.edges, conv.edges):
        assert isinstance(theirs, GEdge)
        for name in ("uuid", "group_id", "source_node_uuid", "name", "fact", "episodes", "created_at",
                     "expired_at", "valid_at", "invalid_at"):
            assert getattr(theirs, name) == getattr(ours, name), name
        assert theirs.attributes["status"] == ours.attributes["status"]
        GEdge.model_validate(theirs.model_dump())  # survives a pydantic round trip
    node = first.nodes[0].to_graphiti()
    assert isinstance(node, GNode) and node.uuid == first.nodes[0].uuid and node.name == "Dana"
    literal = next(e for e in first.edges if e.attributes["attribute"] == "employer")
    assert literal.target_node_uuid is not None  # Acme is an entity
    res = run(g.search_("Dana")).to_graphiti()
    assert isinstance(res, GSearch) and res.edges and res.nodes
    # graphiti-core's own filter objects are accepted
    from graphiti_core.search.search_filters import ComparisonOperator, DateFilter as GDate
    from graphiti_core.search.search_filters import SearchFilters as GFilters

    flt = GFilters(valid_at=[[GDate(date=d("2024-02-01"), comparison_operator=ComparisonOperator.less_than)]])
    assert facts(run(g.search("Dana", search_filter=flt))) == ["Acme"]


def test_to_graphiti_without_graphiti_core_says_how_to_install(g, moved, monkeypatch):
    monkeypatch.setitem(sys.modules, "graphiti_core.edges", None)
    with pytest.raises(MidasError, match=r"pip install 'midas-graph\[graphiti\]'"):
        moved[0].edges[0].to_graphiti()


def test_the_module_works_without_graphiti_core():
    code = (
        "import sys, asyncio\n"
        "sys.modules['graphiti_core'] = None\n"
        "from midas_graph.graphiti import Graphiti, EntityNode, EntityEdge\n"
        "async def main():\n"
        "    async with Graphiti() as g:\n"
        "        n = lambda name: EntityNode(uuid='', name=name, group_id='default')\n"
        "        e = EntityEdge(uuid='', group_id='default', source_node_uuid='', target_node_uuid='',\n"
        "                       name='LIVES_IN', fact='Ann lives in Oslo', created_at=None)\n"
        "        await g.add_triplet(n('Ann'), e, n('Oslo'))\n"
        "        print([x.fact for x in await g.search('Where does Ann live?')])\n"
        "asyncio.run(main())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**__import__("os").environ, "MIDAS_GRAPH_ENGINE": ENGINE})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['Ann lives in Oslo']"


# -- bad input and lifecycle ------------------------------------------------------------------

@pytest.mark.parametrize(
    "kwargs, field",
    [({"episode_body": ""}, "episode_body"), ({"episode_body": None}, "episode_body"),
     ({"name": 3}, "name"), ({"source": "email"}, "source"), ({"reference_time": "soon"}, "reference_time"),
     ({"group_id": 7}, "group_id"), ({"uuid": ""}, "uuid"), ({"source_description": None}, "source_description")],
)
def test_add_episode_bad_input_names_the_field(g, kwargs, field):
    args = dict(name="n", episode_body="user: hi", source_description="", reference_time=d("2024-01-01"))
    with pytest.raises(InvalidInputError) as exc:
        run(g.add_episode(**{**args, **kwargs}))
    assert exc.value.field == field
    assert g.memory.episodes() == []


def test_search_bad_input_and_duplicate_uuid(g):
    add(g, "n", "user: hello", d("2024-01-01"), uuid="same")
    with pytest.raises(InvalidInputError) as exc:
        add(g, "n", "user: again", d("2024-01-02"), uuid="same")
    assert exc.value.field == "uuid"
    for kwargs, field in (({"query": " "}, "query"), ({"num_results": 0}, "num_results"),
                          ({"group_ids": "default"}, "group_ids"), ({"as_of": "later"}, "as_of"),
                          ({"include_invalidated": "yes"}, "include_invalidated")):
        with pytest.raises(InvalidInputError) as exc:
            run(g.search(**{"query": "hello", **kwargs}))
        assert exc.value.field == field


def test_lifecycle(models, tmp_path):
    path = str(tmp_path / "g.db")

    async def scenario():
        async with Graphiti(path, engine=ENGINE, embedder=models[0], nli=models[1]) as g:
            await g.build_indices_and_constraints()
            await g.add_episode("n", "Kim: I live in Oslo.", "chat", d("2024-01-01"))
        with pytest.raises(MidasError):
            await g.search("Oslo")
        async with Graphiti(path, engine=ENGINE, embedder=models[0], nli=models[1]) as again:
            return facts(await again.search("Where does Kim live?"))

    assert run(scenario()) == ["Oslo"]
    mem = Memory(engine=ENGINE)
    with pytest.raises(InvalidInputError) as exc:
        Graphiti(path, memory=mem)
    assert exc.value.field == "memory"
    run(Graphiti(memory=mem).close())  # leaves a memory it did not open open
    assert mem.stats()["Fact"] == 0
    mem.close()


def test_example_agent_runs_unchanged():
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "graphiti_agent.py")], capture_output=True,
                         text=True, timeout=300, cwd=ROOT, env={**__import__("os").environ, "MIDAS_GRAPH_ENGINE": ENGINE})
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "Where does Maya live now? -> Big news: I moved to Lisbon in March."
    assert lines[1] == "What is Maya's favorite food? -> My favorite food is bacalhau."
    assert lines[2:4] == ["Past beliefs:",
                          "  [superseded] Hi! I live in Porto and I work as a nurse. (2024-01-15 to 2024-03-01)"]
    assert "Where does Maya work? -> Maya works at Clinica Lisboa" in lines
    assert "Last two turns: Maya: Big news: I moved to Lisbon in March. | Maya: My favorite food is bacalhau." in lines
    assert lines[-1] == "After forgetting the move: Hi! I live in Porto and I work as a nurse."


def test_extensions_get_edge_get_episode_and_clear_graph(g, moved):
    first, _, second = moved
    berlin = next(e for e in first.edges if e.attributes["value"] == "Berlin")
    latest = run(g.get_entity_edge(berlin.uuid))
    assert latest.attributes["version"] == 2 and latest.attributes["status"] == "superseded"
    ep = run(g.get_episode(second.episode.uuid))
    assert ep.content == "Dana: We moved to Lisbon last week!" and ep.entity_edges == second.episode.entity_edges
    with pytest.raises(NotFoundError):
        run(g.get_entity_edge("nope"))
    add(g, "o", "Kim: I live in Oslo.", d("2024-01-01"), group_id="other")
    counts = run(g.clear_graph())
    assert counts["episodes"] == 2 and counts["facts"] >= 4
    assert run(g.search("Where does Dana live?")) == []
    assert facts(run(g.search("Where does Kim live?", group_ids=["other"]))) == ["Oslo"]
