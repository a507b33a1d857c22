"""Text episodes end to end, with the real spaCy pipeline, embedder and NLI model."""

from __future__ import annotations

import pytest
from conftest import ENGINE, StepClock, d, cur as current

from midas_graph import InvalidInputError, MidasError, Memory

pytestmark = pytest.mark.engine


@pytest.fixture
def mem(models_mem):
    return models_mem


def test_episode_is_stored_verbatim_with_its_facts_and_entities(mem):
    text = "I live in Berlin and I work at Acme as a nurse."
    r = mem.add_episode(text, speaker="Dana", reference_time="2024-01-10T09:30:00+01:00",
                        provenance="user_confirmation", name="chat-1")
    ep = mem.episode(r.episode.id)
    assert ep.content == text and ep.speaker == "Dana" and ep.name == "chat-1"
    assert ep.reference_time == d("2024-01-10").replace(hour=8, minute=30)
    assert ep.provenance == "user_confirmation" and ep.recorded_at is not None
    got = {(f.attribute, f.value) for f in r.facts}
    assert {("lives_in", "Berlin"), ("employer", "Acme"), ("job_title", "nurse")} <= got
    assert all(f.episode_id == ep.id and f.provenance == "user_confirmation" for f in r.facts)
    assert all(f.valid_from == ep.reference_time for f in r.facts)
    assert {"Dana", "Berlin", "Acme"} <= {e.name for e in r.entities}
    assert r.superseded == []


def test_a_move_supersedes_by_rule_with_a_relative_date(mem):
    mem.add_episode("I live in Berlin.", speaker="Dana", reference_time="2024-01-10")
    r = mem.add_episode("We finally moved to Lisbon last week!", speaker="Dana", reference_time="2024-03-08")
    assert current(mem, "Dana", "lives_in") == ["Lisbon"]
    [closed] = r.superseded
    assert closed.value == "Berlin" and closed.superseded_by == r.facts[0].id
    assert "single_valued" in closed.reason
    assert r.facts[0].valid_from < d("2024-03-08")  # "last week"
    assert [f.value for f in mem.as_of("Dana", "lives_in", valid_at="2024-02-01")] == ["Berlin"]


def test_correction_retracts_and_takes_the_corrected_time(mem, clock):
    mem.add_episode("I live in Berlin.", speaker="Dana", reference_time="2024-01-10")
    moved = mem.add_episode("I moved to Lisbon.", speaker="Dana", reference_time="2024-03-01")
    before = mem.now()
    r = mem.add_episode("Sorry, I meant Porto, not Lisbon.", speaker="Dana", reference_time="2024-03-02")
    assert current(mem, "Dana", "lives_in") == ["Porto"]
    porto = r.facts[0]
    assert porto.valid_from == moved.facts[0].valid_from
    retracted = [f for f in r.superseded if f.status == "retracted"]
    assert [f.value for f in retracted] == ["Lisbon"]
    assert [f.value for f in mem.as_of("Dana", "lives_in", known_at=before)] == ["Lisbon"]
    assert [f.value for f in mem.as_of("Dana", "lives_in", valid_at="2024-02-01")] == ["Berlin"]


def test_cessation_ends_without_successor(mem):
    mem.add_episode("I work at Acme.", speaker="Dana", reference_time="2024-01-10")
    r = mem.add_episode("I quit Acme yesterday.", speaker="Dana", reference_time="2024-04-02")
    assert current(mem, "Dana", "employer") == []
    [ended] = r.superseded
    assert ended.value == "Acme" and ended.valid_to == d("2024-04-01") and ended.status == "ended"


def test_revision_is_entity_scoped(mem):
    mem.add_episode("The Apollo deadline is May 3.", speaker="Kim", reference_time="2024-04-01")
    r = mem.add_episode("The Artemis deadline is June 1.", speaker="Kim", reference_time="2024-04-02")
    assert r.superseded == []
    history = [f for f in mem.history("Kim")] + [f for e in ("Apollo", "Artemis") for f in mem.history(e)]
    assert history and all(f.superseded_by is None for f in history)


def test_multi_valued_additions_coexist(mem):
    mem.add_episode("I speak French.", speaker="Dana", reference_time="2024-01-10")
    r = mem.add_episode("I also speak Spanish now.", speaker="Dana", reference_time="2024-02-10")
    assert r.superseded == []
    assert current(mem, "Dana", "speaks") == ["French", "Spanish"]


def test_nli_decides_when_the_attribute_is_not_single_valued(models, clock):
    # With lives_in made multi-valued, only the NLI model can see that a move contradicts.
    with Memory(clock=clock, engine=ENGINE, embedder=models[0], nli=models[1],
                attributes={"lives_in": "many"}) as mem:
        mem.add_episode("I live in Berlin.", speaker="Dana", reference_time="2024-01-10")
        r = mem.add_episode("I live in Lisbon now.", speaker="Dana", reference_time="2024-03-10")
        assert current(mem, "Dana", "lives_in") == ["Lisbon"]
        [closed] = r.superseded
        assert closed.value == "Berlin" and "nli contradiction" in closed.reason
        # and NLI leaves an unrelated fact of the same person alone
        r = mem.add_episode("I love pizza.", speaker="Dana", reference_time="2024-03-11")
        assert r.superseded == [] and current(mem, "Dana", "lives_in") == ["Lisbon"]


def test_second_person_is_the_other_speaker(mem):
    mem.add_episodes([
        {"content": "Hi Melanie! How are you?", "speaker": "Caroline", "reference_time": "2023-05-08"},
        {"content": "Good! I moved to Boston last month.", "speaker": "Melanie", "reference_time": "2023-05-08"},
        {"content": "You live in Boston now? That's great. I live in Denver.", "speaker": "Caroline",
         "reference_time": "2023-05-08"},
    ])
    assert current(mem, "Melanie", "lives_in") == ["Boston"]
    assert current(mem, "Caroline", "lives_in") == ["Denver"]


def test_names_resolve_case_insensitively_and_first_names_never_merge(mem):
    mem.add_episode("Alice Smith lives in Paris.", speaker="Bo", reference_time="2024-01-10")
    mem.add_episode("Alice Smith works at Globex.", speaker="Bo", reference_time="2024-01-11")
    mem.add_episode("Alice Jones lives in Rome.", speaker="Bo", reference_time="2024-01-12")
    assert current(mem, "alice SMITH") == ["Globex", "Paris"]
    assert current(mem, "Alice Jones") == ["Rome"]


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(content=""), "content"),
        (dict(content="   \n\t"), "content"),
        (dict(content=42), "content"),
        (dict(content="hello", reference_time="yesterday-ish"), "reference_time"),
        (dict(content="hello", speaker=""), "speaker"),
        (dict(content="hello", source="email"), "source"),
        (dict(content="hello", provenance="gossip"), "provenance"),
    ],
)
def test_bad_episodes_are_refused_and_nothing_is_written(mem, kwargs, field):
    with pytest.raises(InvalidInputError) as info:
        mem.add_episode(**kwargs)
    assert info.value.field == field
    assert mem.stats() == {"Entity": 0, "Fact": 0, "Episode": 0}


def test_bulk_validation_names_the_episode(mem):
    with pytest.raises(InvalidInputError, match=r"episodes\[1\]\.content"):
        mem.add_episodes(["I live in Oslo.", "  "])
    assert mem.stats()["Episode"] == 0


class _FailingNLI:
    """A pluggable NLI that fails on one sentence (the protocol, not a mock of ours)."""

    def __init__(self, real):
        self.real = real

    def scores(self, pairs):
        if any("Lisbon" in h for _, h in pairs):
            raise RuntimeError("model server down")
        return self.real.scores(pairs)

    def contradiction(self, premise, hypothesis):
        return float(self.scores([(premise, hypothesis)])[0, 2])


def test_a_failing_episode_in_a_batch_is_named_and_earlier_ones_stay(models, clock):
    with Memory(clock=clock, engine=ENGINE, embedder=models[0], nli=_FailingNLI(models[1]),
                attributes={"lives_in": "many"}) as mem:
        with pytest.raises(MidasError, match=r"episodes\[2\]: model server down") as info:
            mem.add_episodes([
                {"content": "I live in Berlin.", "speaker": "Dana"},
                {"content": "I love jazz.", "speaker": "Dana"},
                {"content": "I live in Lisbon now.", "speaker": "Dana"},
                {"content": "I work at Acme.", "speaker": "Dana"},
            ])
        assert len(info.value.results) == 2
        assert mem.stats()["Episode"] == 2  # the failed one rolled back whole
        assert current(mem, "Dana", "lives_in") == ["Berlin"]


def test_persistence_of_episodes(models, db_path):
    with Memory(db_path, clock=StepClock(), engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
        r = mem.add_episode("My favorite color is green.", speaker="Dana", reference_time="2024-01-10")
    with Memory(db_path, engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
        assert mem.episode(r.episode.id).content == "My favorite color is green."
        assert current(mem, "Dana") == ["green"]


def test_leaving_an_employer_ends_the_role_stated_with_it(mem):
    mem.add_episode("I'm the CTO at Lumen.", speaker="Theo", reference_time="2023-07-15")
    mem.add_episode("I also teach yoga on weekends.", speaker="Theo", reference_time="2023-08-01")
    r = mem.add_episode("I resigned from Lumen last week.", speaker="Theo", reference_time="2024-01-15")
    ended = {(f.attribute, f.value) for f in r.superseded}
    assert {("employer", "Lumen"), ("job_title", "CTO")} <= ended
    assert not [f for f in mem.current("Theo") if f.attribute in ("employer", "job_title")]
    assert [f.value for f in mem.as_of("Theo", "job_title", valid_at="2023-12-01")] == ["CTO"]


def test_another_attribute_of_the_same_person_is_not_a_contradiction(mem):
    """Fact vectors share the subject's name, so two beliefs of one person
    look alike; NLI must not be asked about a birthday when an age arrives."""
    mem.add_episode("My birthday is June 5.", speaker="Priya", reference_time="2024-01-15T10:00:00Z")
    r = mem.add_episode("I'm 31.", speaker="Priya", reference_time="2024-01-16T10:00:00Z")
    assert r.superseded == []
    assert {f.attribute for f in mem.current("Priya")} == {"birthday", "age"}


def test_embedding_beside_the_parse_stores_what_one_thread_stores(monkeypatch):
    """A batch embeds its texts on a second thread while it is parsed
    (OVERLAP_MIN); the memory it makes is the one a single thread makes."""
    import midas_graph._episodes as episodes_mod
    turns = [{"content": c, "speaker": s, "reference_time": f"2024-03-{i + 1:02d}T10:00"} for i, (s, c) in enumerate([
        ("Ana", "I live in Lisbon and work at Siemens."), ("Bot", "Nice! Who's Rui?"),
        ("Ana", "Rui, my brother. He moved to Porto."), ("Ana", "I moved to Berlin last week."),
        ("Bot", "How is Berlin?"), ("Ana", "cold lol. my manager is Petra now")])]

    def rows(overlap_min: int) -> list:
        monkeypatch.setattr(episodes_mod, "OVERLAP_MIN", overlap_min)
        with Memory(engine=ENGINE, clock=StepClock()) as m:
            m.add_episodes(turns)
            facts = sorted((f.subject, f.attribute, str(f.value), f.valid_from, f.valid_to, f.expired_at)
                           for e in m.entities() for f in m.history(e.name))
            return facts, sorted((e.name, e.kind, tuple(sorted(e.aliases))) for e in m.entities())
    overlapped, alone = rows(2), rows(10**9)
    assert overlapped == alone and len(overlapped[0]) >= 3


def test_a_bare_move_lands_where_the_speakers_last_turns_talked_of_living(mem):
    """House-hunting in Harrogate, then "we're in!!! moved saturday": the
    user lives in Harrogate now, and the flat they had is no plan. Talk of a
    place from more than HOUSING_DAYS before is no plan either."""
    t = "2024-{}T10:00"
    mem.add_episodes([
        {"content": "I live in Leeds.", "speaker": "u", "reference_time": t.format("01-05")},
        {"content": "our flat in Leeds is way too small, we're looking at houses in Harrogate",
         "speaker": "u", "reference_time": t.format("03-05")},
        {"content": "we're in!!! moved saturday. boxes everywhere", "speaker": "u", "reference_time": t.format("06-10")},
    ])
    assert [f.value for f in mem.as_of("u", "lives_in")] == ["Harrogate"]
    mem.add_episodes([
        {"content": "I live in Ripon.", "speaker": "v", "reference_time": t.format("01-05")},
        {"content": "we're looking at houses in Thirsk", "speaker": "v", "reference_time": t.format("01-06")},
        {"content": "moved saturday, so tired", "speaker": "v", "reference_time": t.format("09-10")},
    ])
    assert [f.value for f in mem.as_of("v", "lives_in")] == ["Ripon"]


def test_the_result_says_which_sentences_gave_no_claim():
    """EpisodeResult.unparsed lists the sentences no fact was read from
    (they are stored verbatim; recall finds them), and not one a claim came
    from, by the extractor or by the people analysis ("my wife sarah ...")."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        r = mem.add_episode("My wife Sarah is a nurse. The weather is nice. How are you?", speaker="Jordan")
        assert {(f.attribute, f.value) for f in r.facts} >= {("spouse", "Sarah"), ("job_title", "nurse")}
        assert r.unparsed == ["The weather is nice.", "How are you?"]
        r = mem.add_episode("my brother tom loves it here", speaker="Jordan")
        assert r.facts and r.unparsed == []
        r = mem.add_episode("Anjali and I ran into each other again.", speaker="Jordan")
        assert r.facts == [] and r.unparsed == ["Anjali and I ran into each other again."]
        # read since the standing relations (issue 19): "report to" is the registry's manager
        r = mem.add_episode("I report to Anjali now.", speaker="Jordan")
        assert [(f.attribute, f.value) for f in r.facts] == [("manager", "Anjali")] and r.unparsed == []
