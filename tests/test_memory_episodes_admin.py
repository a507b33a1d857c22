"""Memory.episodes / remove_episode / fact / clear / search_entities, with the
real database and models (the admin surface the Graphiti and MCP layers use)."""

from __future__ import annotations

import pytest
from conftest import ENGINE, as_schema, d

from midas_graph import InvalidInputError, Memory, NotFoundError
from midas_graph._store import SCHEMA_VERSION

pytestmark = pytest.mark.engine


@pytest.fixture
def mem(models_mem):
    return models_mem


def values(facts):
    return sorted(str(f.value) for f in facts)


# -- episodes ---------------------------------------------------------------------

def test_episodes_are_the_last_n_before_a_time_oldest_first(mem):
    said = ["2024-03-01", "2024-01-01", "2024-04-01", "2024-02-01"]
    for i, day in enumerate(said):
        mem.add_episode(f"Note number {i}.", reference_time=day, name=f"n{i}")
    mem.add_episode("Other group.", reference_time="2024-05-01", group_id="other")
    assert [e.name for e in mem.episodes(last_n=2)] == ["n0", "n2"]
    assert [e.name for e in mem.episodes()] == ["n1", "n3", "n0", "n2"]
    assert [e.name for e in mem.episodes(last_n=2, before="2024-03-01")] == ["n3", "n0"]
    assert [e.reference_time for e in mem.episodes(last_n=1, before="2024-02-15")] == [d("2024-02-01")]
    assert mem.episodes(before="2023-12-31") == []
    assert [e.content for e in mem.episodes(group_id="other")] == ["Other group."]


def test_episodes_filter_by_source(mem):
    mem.add_episode("A chat line.", reference_time="2024-01-01", source="message")
    mem.add_episode("A document.", reference_time="2024-01-02", source="text")
    assert [e.content for e in mem.episodes(source="text")] == ["A document."]
    assert [e.content for e in mem.episodes(source="message")] == ["A chat line."]


@pytest.mark.parametrize(
    "kwargs, field",
    [({"last_n": 0}, "last_n"), ({"last_n": "3"}, "last_n"), ({"last_n": True}, "last_n"),
     ({"source": "email"}, "source"), ({"before": "yesterday"}, "before"), ({"group_id": ""}, "group_id")],
)
def test_episodes_bad_input_names_the_field(mem, kwargs, field):
    with pytest.raises(InvalidInputError) as exc:
        mem.episodes(**kwargs)
    assert exc.value.field == field


# -- remove_episode -----------------------------------------------------------------

def test_remove_episode_retracts_its_facts_and_reopens_what_they_superseded(mem, clock):
    mem.add_episode("I live in Berlin.", speaker="Dana", reference_time="2024-01-10")
    moved = mem.add_episode("We moved to Lisbon last week!", speaker="Dana", reference_time="2024-03-08")
    [lisbon] = [f for f in moved.facts if f.attribute == "lives_in"]
    assert values(mem.current("Dana", "lives_in")) == ["Lisbon"]
    before = mem.now()
    n_episodes = mem.stats()["Episode"]

    removed = mem.remove_episode(moved.episode.id)

    assert lisbon.id in {f.id for f in removed}
    gone = next(f for f in removed if f.id == lisbon.id)
    assert gone.expired_at is not None and gone.status == "retracted"
    assert gone.expire_reason == f"retracted: episode {moved.episode.id} removed"
    assert values(mem.current("Dana", "lives_in")) == ["Berlin"]  # re-opened
    assert mem.fact(lisbon.id).status == "retracted"
    # the text is gone: no episode node, no links from its facts
    with pytest.raises(NotFoundError):
        mem.episode(moved.episode.id)
    assert mem.stats()["Episode"] == n_episodes - 1
    assert mem._store.facts_from_episodes([moved.episode.id])[moved.episode.id] == []
    assert [e.content for e in mem.episodes()] == ["I live in Berlin."]
    # the past picture is kept on the transaction-time axis
    assert values(mem.as_of("Dana", "lives_in", known_at=before)) == ["Lisbon"]
    assert "Lisbon" in values(mem.history("Dana", "lives_in"))


def test_the_versions_an_episode_expires_name_it(mem):
    mem.add_episode("I live in Paris.", speaker="Ana", reference_time="2024-01-01")
    mem.add_episode("I love hiking.", speaker="Ana", reference_time="2024-01-02")
    moved = mem.add_episode("I moved to Berlin.", speaker="Ana", reference_time="2024-06-01")
    quit_ = mem.add_episode("I don't like hiking anymore.", speaker="Ana", reference_time="2024-07-01")
    mem.add_episode("I live in Porto.", speaker="Bo", reference_time="2024-01-01")
    fixed = mem.add_episode("Sorry, I meant Lisbon, not Porto.", speaker="Bo", reference_time="2024-01-02")

    def expired_by(subject, value):
        return [(f.version, f.expired_by_episode) for f in mem.history(subject) if f.value == value]

    assert expired_by("Ana", "Paris") == [(1, moved.episode.id), (2, None)]   # superseded
    assert expired_by("Ana", "hiking") == [(1, quit_.episode.id), (2, None)]  # ended
    assert expired_by("Bo", "Porto") == [(1, fixed.episode.id)]               # corrected
    [porto] = [f for f in fixed.superseded if f.value == "Porto"]
    assert porto.expired_by_episode == fixed.episode.id
    # an API call is no episode
    [berlin] = [f for f in moved.facts if f.value == "Berlin"]
    assert mem.retract(berlin.id).expired_by_episode is None
    assert expired_by("Ana", "Paris") == [(1, moved.episode.id), (2, None), (3, None)]
    assert all(f.expired_by_episode is None for f in mem.history("Ana") if f.expired_at is None)


def test_remove_episode_of_an_episode_without_facts_and_unknown_ids(mem):
    r = mem.add_episode("Hmm, okay.", reference_time="2024-01-01")
    assert mem.remove_episode(r.episode.id) == []
    assert mem.episodes() == []
    with pytest.raises(NotFoundError):
        mem.remove_episode(r.episode.id)
    with pytest.raises(NotFoundError):
        mem.remove_episode("no-such-episode")
    with pytest.raises(InvalidInputError) as exc:
        mem.remove_episode("")
    assert exc.value.field == "episode_id"


def test_remove_episode_whose_facts_were_already_superseded(mem):
    first = mem.add_episode("I work at Acme.", speaker="Dana", reference_time="2024-01-01")
    mem.add_episode("I work at Globex now.", speaker="Dana", reference_time="2024-06-01")
    removed = mem.remove_episode(first.episode.id)
    assert [f.value for f in removed] == ["Acme"]
    assert values(mem.current("Dana", "employer")) == ["Globex"]
    assert values(mem.as_of("Dana", "employer", valid_at="2024-03-01")) == []


def held(mem, subject, attribute=None):
    """(value, valid_from day, valid_to day or None) of what is held now, at any valid time."""
    return sorted((str(f.value), f.valid_from.date().isoformat(), f.valid_to and f.valid_to.date().isoformat())
                  for f in mem.history(subject, attribute) if f.expired_at is None)


def test_removing_a_move_gives_the_old_city_back(mem):
    mem.add_episode("I live in Paris.", speaker="Ana", reference_time="2024-01-01")
    moved = mem.add_episode("I moved to Berlin.", speaker="Ana", reference_time="2024-06-01")
    [berlin] = moved.facts
    assert values(mem.current("Ana", "lives_in")) == ["Berlin"]
    before, kept = mem.now(), [(f.vid, f.value) for f in mem.history("Ana")]

    mem.remove_episode(moved.episode.id)

    assert values(mem.current("Ana", "lives_in")) == ["Paris"]
    assert held(mem, "Ana") == [("Paris", "2024-01-01", None)]  # held once, open again
    assert mem.fact(berlin.id).status == "retracted"
    assert set(kept) < {(f.vid, f.value) for f in mem.history("Ana")}  # every version is kept
    assert values(mem.as_of("Ana", "lives_in", known_at=before)) == ["Berlin"]
    assert values(mem.as_of("Ana", "lives_in", valid_at="2024-07-01", known_at=before)) == ["Berlin"]


def test_removing_a_correction_gives_back_the_value_it_corrected(mem):
    mem.add_episode("I live in Porto.", speaker="Bo", reference_time="2024-01-01")
    fixed = mem.add_episode("Sorry, I meant Lisbon, not Porto.", speaker="Bo", reference_time="2024-01-02")
    assert values(mem.current("Bo", "lives_in")) == ["Lisbon"]
    porto = next(f for f in fixed.superseded if f.value == "Porto")
    before = mem.now()

    removed = mem.remove_episode(fixed.episode.id)

    assert values(removed) == ["Lisbon"]
    assert held(mem, "Bo") == [("Porto", "2024-01-01", None)]
    back = mem.fact(porto.id)
    assert back.version == 2 and back.status == "current" and fixed.episode.id in back.reason
    assert [f.status for f in mem.versions(porto.id)] == ["retracted", "current"]
    assert values(mem.as_of("Bo", "lives_in", known_at=before)) == ["Lisbon"]


def test_removing_a_correction_of_a_move_restores_the_move_and_what_it_closed(mem):
    mem.add_episode("I live in Paris.", speaker="Ana", reference_time="2023-01-01")
    mem.add_episode("I moved to Porto.", speaker="Ana", reference_time="2024-01-01")
    fixed = mem.add_episode("Sorry, I meant Lisbon, not Porto.", speaker="Ana", reference_time="2024-01-02")
    assert held(mem, "Ana") == [("Lisbon", "2024-01-01", None), ("Paris", "2023-01-01", "2024-01-01")]

    mem.remove_episode(fixed.episode.id)

    # Paris, which retracting Lisbon re-opened, is closed again by the Porto that is back
    assert held(mem, "Ana") == [("Paris", "2023-01-01", "2024-01-01"), ("Porto", "2024-01-01", None)]
    [paris] = [f for f in mem.history("Ana") if f.value == "Paris" and f.expired_at is None]
    [porto] = [f for f in mem.history("Ana") if f.value == "Porto" and f.expired_at is None]
    assert paris.superseded_by == porto.id and porto.supersedes == (paris.id,)
    assert values(mem.as_of("Ana", "lives_in", valid_at="2023-06-01")) == ["Paris"]


def test_episodes_recorded_at_one_instant_are_told_apart(mem, clock):
    clock.set("2025-03-01T00:00:00+00:00")  # every write from here on shares this instant
    mem.add_episode("I love hiking and chess.", speaker="Cy", reference_time="2024-01-01")
    mem.add_episode("I love hiking and chess.", speaker="Di", reference_time="2024-01-01")
    cy = mem.add_episode("I don't like hiking anymore.", speaker="Cy", reference_time="2024-04-15")
    di = mem.add_episode("I don't like hiking anymore.", speaker="Di", reference_time="2024-04-15")
    assert cy.episode.recorded_at == di.episode.recorded_at

    mem.remove_episode(cy.episode.id)

    assert values(mem.current("Cy", "likes")) == ["chess", "hiking"]
    assert values(mem.current("Di", "likes")) == ["chess"]  # Di's own cessation stands
    assert ("hiking", "2024-01-01", "2024-04-15") in held(mem, "Di")
    mem.remove_episode(di.episode.id)
    assert values(mem.current("Di", "likes")) == ["chess", "hiking"]


def test_an_episode_id_used_again_at_the_same_instant_undoes_only_its_own_episode(mem, clock):
    clock.set("2025-03-01T00:00:00+00:00")
    mem.add_episode("I live in Porto.", speaker="Bo", reference_time="2024-01-01")
    mem.add_episode("Sorry, I meant Lisbon, not Porto.", speaker="Bo", reference_time="2024-01-02",
                    episode_id="turn-7")
    mem.remove_episode("turn-7")
    [porto] = mem.current("Bo", "lives_in")
    assert porto.value == "Porto" and porto.version == 2
    mem.retract(porto.id, reason="wrong after all")
    mem.add_episode("Hmm, okay.", speaker="Bo", reference_time="2024-01-03", episode_id="turn-7")
    n = len(mem.history("Bo"))

    mem.remove_episode("turn-7")  # the first turn-7's correction is not undone a second time

    assert mem.current("Bo") == [] and len(mem.history("Bo")) == n


def test_a_cessation_narrowed_later_by_another_episode_is_left_alone(mem):
    mem.add_episode("I love hiking.", speaker="Cy", reference_time="2024-01-01")
    quit_ = mem.add_episode("I don't like hiking anymore.", speaker="Cy", reference_time="2024-04-15")
    # recorded later, said earlier: the end moves to February (a new version, by another episode)
    mem.add_episode("I don't like hiking anymore.", speaker="Cy", reference_time="2024-02-01")
    assert held(mem, "Cy") == [("hiking", "2024-01-01", "2024-02-01")]
    n = len(mem.history("Cy"))

    mem.remove_episode(quit_.episode.id)

    assert held(mem, "Cy") == [("hiking", "2024-01-01", "2024-02-01")]
    assert len(mem.history("Cy")) == n  # nothing recorded


def test_a_move_whose_destination_was_corrected_later_is_left_alone(mem):
    mem.add_episode("I live in Paris.", speaker="Di", reference_time="2023-01-01")
    moved = mem.add_episode("I moved to Berlin.", speaker="Di", reference_time="2024-01-01")
    mem.add_episode("Sorry, I meant Munich, not Berlin.", speaker="Di", reference_time="2024-01-02")
    picture = held(mem, "Di")
    assert picture == [("Munich", "2024-01-01", None), ("Paris", "2023-01-01", "2024-01-01")]
    n = len(mem.history("Di"))

    assert mem.remove_episode(moved.episode.id) == []  # Berlin was already retracted

    assert held(mem, "Di") == picture and len(mem.history("Di")) == n


def test_removing_an_episode_stored_before_schema_2_gives_back_what_it_ended(models, db_path):
    # Older databases recorded no expired_by_episode: the cessation is found by its text.
    with Memory(db_path, engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
        mem.add_episode("I love hiking and chess.", speaker="Sam", reference_time="2024-01-01")
        quit_ = mem.add_episode("I don't like hiking anymore.", speaker="Sam", reference_time="2024-04-15")
    as_schema(db_path, 1)
    with Memory(db_path, engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
        assert mem._store.schema_version == SCHEMA_VERSION
        assert all(f.expired_by_episode is None for f in mem.history("Sam"))
        mem.remove_episode(quit_.episode.id)
        assert values(mem.current("Sam", "likes")) == ["chess", "hiking"]


# -- fact -------------------------------------------------------------------------------

def test_fact_is_the_latest_version_of_a_belief(mem):
    old = mem.add_fact("Sam", "lives_in", "Porto", valid_from="2024-01-01")
    assert mem.fact(old.id) == old
    new = mem.add_fact("Sam", "lives_in", "Lisbon", valid_from="2024-05-01")
    latest = mem.fact(old.id)
    assert latest.version == 2 and latest.superseded_by == new.id and latest.valid_to == d("2024-05-01")
    mem.retract(new.id)
    assert mem.fact(new.id).status == "retracted"
    with pytest.raises(NotFoundError):
        mem.fact("nope")
    with pytest.raises(InvalidInputError) as exc:
        mem.fact(None)  # type: ignore[arg-type]
    assert exc.value.field == "fact_id"


# -- clear ------------------------------------------------------------------------------

def test_clear_deletes_one_group_and_nothing_else(mem):
    mem.add_episode("I live in Berlin and I work at Acme.", speaker="Dana", reference_time="2024-01-01",
                    group_id="a")
    mem.add_fact("Sam", "lives_in", "Porto", group_id="a")
    mem.add_fact("Sam", "lives_in", "Lisbon", group_id="a")
    mem.add_alias("Sam", "Samuel", group_id="a")
    mem.add_episode("I live in Rome.", speaker="Eve", reference_time="2024-01-01", group_id="b")
    mem.add_fact("Zoe", "employer", "Initech", group_id="b")
    assert mem.recall("Where does Sam live?", group_id="a")  # builds the recall index of "a"
    keep_b = (values(mem.history("Eve", group_id="b")), values(mem.history("Zoe", group_id="b")))

    counts = mem.clear(group_id="a")

    assert counts["entities"] >= 4 and counts["episodes"] == 1
    assert counts["facts"] >= 5  # Berlin, Acme, Porto (2 versions), Lisbon
    assert counts["aliases"] >= counts["entities"] + 1
    assert counts["vectors"] >= 2 and counts["slots"] >= 3
    assert mem.entities(group_id="a") == [] and mem.episodes(group_id="a") == []
    assert mem.history("Sam", group_id="a") == [] and mem.entity("Samuel", group_id="a") is None
    assert mem.recall("Where does Sam live?", group_id="a") == []  # the index was rebuilt
    assert (values(mem.history("Eve", group_id="b")), values(mem.history("Zoe", group_id="b"))) == keep_b
    assert [e.content for e in mem.episodes(group_id="b")] == ["I live in Rome."]
    assert sum(mem.stats().values()) == len(mem.entities(group_id="b")) + 2 + 1
    assert mem.clear(group_id="a") == dict.fromkeys(counts, 0)
    # the group is usable again
    mem.add_fact("Sam", "lives_in", "Faro", group_id="a")
    assert values(mem.current("Sam", group_id="a")) == ["Faro"]
    with pytest.raises(InvalidInputError) as exc:
        mem.clear(group_id="")
    assert exc.value.field == "group_id"


# -- search_entities ---------------------------------------------------------------------

def test_search_entities_ranks_names_then_aliases_then_meaning(mem):
    mem.add_fact("Alice Smith", "employer", "Acme Corp")
    mem.add_fact("Bob", "lives_in", "Berlin")
    mem.add_fact("Carol", "likes", "jazz music")
    mem.add_fact("Berlin", "population", 3_700_000)  # subjects are entities; literal values are not
    mem.add_alias("Bob", "Robert")

    top = mem.search_entities("alice smith")
    assert top[0][0].name == "Alice Smith" and top[0][1] >= 2
    assert mem.search_entities("Where does Alice work?")[0][0].name == "Alice Smith"
    [(bob, score)] = mem.search_entities("ROBERT", k=1)
    assert bob.name == "Bob" and score >= 2
    # nothing matches by name: the name embedding decides
    assert mem.search_entities("a large German city", k=1)[0][0].name == "Berlin"
    scores = [s for _, s in mem.search_entities("Bob", k=10)]
    assert scores == sorted(scores, reverse=True) and len(scores) == len(mem.entities())
    assert mem.search_entities("Bob", group_id="empty") == []
    with pytest.raises(InvalidInputError) as exc:
        mem.search_entities("Bob", k=0)
    assert exc.value.field == "k"
    with pytest.raises(InvalidInputError) as exc:
        mem.search_entities("  ")
    assert exc.value.field == "query"


def test_search_entities_near_an_entity_puts_its_neighbourhood_first(mem):
    for place in ("Lisbon", "Lyon", "Globex"):       # known entities: facts naming them link to them
        mem.add_entity(place)
    mem.add_fact("Dana", "lives_in", "Lisbon")
    mem.add_fact("Dana", "employer", "Globex")
    mem.add_fact("Eve", "lives_in", "Lyon")
    mem.add_fact("Finn", "manager", "Dana")            # Finn -> Dana: a neighbour the other way
    dana = next(e for e in mem.entities() if e.name == "Dana")
    plain = [e.name for e, _ in mem.search_entities("Lyon", k=3)]
    assert plain[0] == "Lyon"
    near = [e.name for e, _ in mem.search_entities("Lyon", k=10, near=dana.id)]
    assert near[0] == "Dana" and set(near[1:4]) == {"Lisbon", "Globex", "Finn"}
    assert near.index("Lyon") > 3
    # a fact that no longer holds is no longer a hop
    mem.add_fact("Dana", "lives_in", "Lyon")            # supersedes Lisbon
    near = [e.name for e, _ in mem.search_entities("Lyon", k=10, near=dana.id)]
    assert near[:2] == ["Dana", "Lyon"] and near.index("Lisbon") > 3


def test_removing_an_episode_gives_back_what_it_ended(mem):
    mem.add_episode("I love hiking and chess.", speaker="Sam", reference_time="2024-01-01")
    quit_ = mem.add_episode("I don't like hiking anymore, my knee is bad.", speaker="Sam",
                            reference_time="2024-04-15")
    assert sorted(f.value for f in mem.current("Sam", "likes")) == ["chess"]
    mem.remove_episode(quit_.episode.id)
    back = [f for f in mem.current("Sam", "likes") if f.value == "hiking"]
    assert back and back[0].valid_to is None and "re-opened" in back[0].reason
    # the memory still knows it had believed the hiking had ended
    assert any(f.value == "hiking" and f.status == "revised" for f in mem.history("Sam", "likes"))


def test_removing_a_resignation_gives_back_the_employer_and_the_title(mem):
    mem.add_episode("I'm the CTO at Lumen.", speaker="Theo", reference_time="2023-07-15")
    left = mem.add_episode("I resigned from Lumen last week.", speaker="Theo", reference_time="2024-01-15")
    assert not mem.current("Theo")
    mem.remove_episode(left.episode.id)
    assert {(f.attribute, f.value) for f in mem.current("Theo")} >= {("employer", "Lumen"), ("job_title", "CTO")}
