"""Ids and groups in the library: episode ids are per group, and the
``group_id=`` keyword of ``fact``, ``versions``, ``retract``, ``episode`` and
``remove_episode`` finds only that group's (another group's id reads as an
unknown one). Without it they behave as before: any group."""

from __future__ import annotations

import asyncio

import pytest

from midas_graph import InvalidInputError, Memory, NotFoundError
from midas_graph.graphiti import Graphiti

from conftest import ENGINE

pytestmark = pytest.mark.engine


def test_two_groups_store_an_episode_under_the_same_id(db_path, models, clock):
    mem = Memory(db_path, engine=ENGINE, clock=clock, embedder=models[0], nli=models[1])
    a = mem.add_episode("My bank is Monzo.", group_id="A", episode_id="ep1", reference_time="2024-01-01")
    b = mem.add_episode("I live in Rome.", group_id="B", episode_id="ep1", reference_time="2024-01-02")
    assert a.episode.id == b.episode.id == "ep1"                     # the id the client gave, both times
    assert [f.episode_id for f in b.facts] == ["ep1"]
    with pytest.raises(InvalidInputError, match="already exists"):   # still unique within a group
        mem.add_episode("Again.", group_id="B", episode_id="ep1")
    with pytest.raises(InvalidInputError, match=r"^episodes\[0\]\.episode_id: must not contain"):
        mem.add_episodes([{"content": "x", "episode_id": "A\x1fep1"}], group_id="C")
    mem.close()

    mem = Memory(db_path, engine=ENGINE, clock=clock, embedder=models[0], nli=models[1])   # reopened
    assert mem.episode("ep1", group_id="A").content == "My bank is Monzo."
    assert mem.episode("ep1", group_id="B").content == "I live in Rome."
    assert mem.episode("ep1").content == "My bank is Monzo."         # no group: the one stored first
    with pytest.raises(NotFoundError, match="^episode_id: no episode with id 'ep1'$"):
        mem.episode("ep1", group_id="C")
    assert [e.id for e in mem.episodes(group_id="B")] == ["ep1"]
    # what B's episode stated is linked to B's episode (recall and context cite it)
    hits = mem.recall("Where do I live?", group_id="B", k=5)
    assert {h.source for h in hits} == {"ep1"} and all(h.fact is None or h.fact.group_id == "B" for h in hits)
    assert [h.episode.content for h in hits if h.kind == "episode"] == ["I live in Rome."]
    assert "Monzo" not in mem.context("What is my bank?", group_id="B").text
    assert mem.check() == []                                          # B's facts find B's episode
    # removing B's leaves A's
    gone = mem.remove_episode("ep1", group_id="B")
    assert [f.value for f in gone] == ["Rome"]
    assert mem.episodes(group_id="B") == []
    assert mem.episode("ep1", group_id="A").content == "My bank is Monzo."
    assert [f.value for f in mem.current("user", group_id="A")] == ["Monzo"]
    with pytest.raises(NotFoundError):
        mem.remove_episode("ep1", group_id="B")
    assert mem.check() == []
    mem.close()


def test_group_id_finds_only_that_groups_fact(mem):
    f = mem.add_fact("Ana", "lives_in", "Porto", group_id="A")
    missing = "no-such-fact"
    for call in (lambda i: mem.fact(i, group_id="B"), lambda i: mem.versions(i, group_id="B"),
                 lambda i: mem.retract(i, group_id="B")):
        with pytest.raises(NotFoundError) as other:
            call(f.id)
        with pytest.raises(NotFoundError) as absent:
            call(missing)
        assert str(other.value).replace(f.id, "?") == str(absent.value).replace(missing, "?")
    assert mem.fact(f.id, group_id="A").value == "Porto"
    assert mem.fact(f.id).value == "Porto"                            # no group: any, as before
    assert [x.value for x in mem.current("Ana", group_id="A")] == ["Porto"]   # B's retract touched nothing
    assert mem.retract(f.id, group_id="A").status == "retracted"
    assert mem.stats(group_id="A") == {"Entity": 1, "Fact": 1, "Episode": 0}
    assert mem.stats(group_id="B") == {"Entity": 0, "Fact": 0, "Episode": 0}
    with pytest.raises(InvalidInputError, match="^group_id"):
        mem.fact(f.id, group_id="  ")


def test_graphiti_episode_uuids_are_per_group(models):
    async def run() -> None:
        async with Graphiti(engine=ENGINE, embedder=models[0], nli=models[1]) as g:
            await g.add_episode(name="a", episode_body="I live in Porto.", source_description="chat",
                                reference_time="2024-01-01", group_id="A", uuid="u1")
            await g.add_episode(name="b", episode_body="I live in Rome.", source_description="chat",
                                reference_time="2024-01-01", group_id="B", uuid="u1")
            with pytest.raises(InvalidInputError, match="already exists"):
                await g.add_episode(name="b2", episode_body="Hi.", source_description="chat",
                                    reference_time="2024-01-02", group_id="B", uuid="u1")
            got = {e.group_id: e for e in await g.retrieve_episodes("2025-01-01", group_ids=["A", "B"])}
            assert {k: (e.uuid, e.content) for k, e in got.items()} == {
                "A": ("u1", "user: I live in Porto."), "B": ("u1", "user: I live in Rome.")}
            assert len(got["A"].entity_edges) == len(got["B"].entity_edges) == 1
            assert got["A"].entity_edges != got["B"].entity_edges

    asyncio.run(run())
