"""Tiers, the value of a memory and forgetting (docs/forgetting.md): cold
episodes leave recall but stay readable, the floor is kept, beliefs and
abstention do not change, the state survives export and check()."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from conftest import ENGINE, StepClock

from midas_graph import InvalidInputError, Memory, NotFoundError

UTC = dt.timezone.utc
NOW = "2024-06-01T12:00:00+00:00"
#: A conversation said weeks before NOW (the long tier): chit-chat around a few facts.
TALK = [
    ("Ana", "Hey Bo, how are you?", 40),
    ("Bo", "Good thanks! My dog Rex chewed my slippers again, haha.", 40),
    ("Ana", "lol", 40),
    ("Ana", "I live in Berlin.", 39),
    ("Bo", "ok cool", 39),
    ("Bo", "We went hiking near the Harz mountains last weekend with the dog.", 38),
    ("Ana", "nice!", 38),
    ("Ana", "I work at Siemens.", 37),
    ("Bo", "haha yeah", 37),
    ("Ana", "I moved to Lisbon.", 20),
    ("Bo", "wow", 20),
]


def _at(days_ago: int, i: int) -> dt.datetime:
    return dt.datetime.fromisoformat(NOW) - dt.timedelta(days=days_ago) + dt.timedelta(minutes=i)


@pytest.fixture
def talk(models):
    clock = StepClock(NOW, dt.timedelta(seconds=1))
    mem = Memory(clock=clock, engine=ENGINE, embedder=models[0], nli=models[1])
    ids = [mem.add_episode(t, speaker=s, reference_time=_at(days, i)).episode.id
           for i, (s, t, days) in enumerate(TALK)]
    yield mem, ids
    mem.close()


def _beliefs(mem):
    """Every as_of at a grid of (T, K) and every history, as plain data."""
    times = [None, "2024-01-01", "2024-04-25", "2024-05-20", NOW]
    out = []
    for who in ("Ana", "Bo"):
        out.append([f.to_dict() for f in mem.history(who)])
        for t in times:
            for k in times:
                out.append([f.vid for f in mem.as_of(who, valid_at=t, known_at=k)])
    return out


def test_tiers_and_value(talk):
    mem, ids = talk
    old = mem.episode(ids[0])
    assert mem.tier(old) == "long"
    new = mem.add_episode("Just got back from the gym.", speaker="Bo").episode  # said now
    assert mem.tier(new) == "short"
    week = mem.add_episode("Saw a film.", speaker="Bo", reference_time=_at(3, 0)).episode
    assert mem.tier(week) == "medium"
    # importance x 0.5 ** (age / 30 days)
    forty = mem.episode(ids[3])
    age = (mem.now() - forty.reference_time).total_seconds() / 86400
    assert mem.memory_value(forty) == pytest.approx(forty.importance * 0.5 ** (age / 30))
    assert mem.memory_value(new) == pytest.approx(new.importance, rel=1e-3)
    fact = mem.current("Ana", "lives_in")[0]
    assert mem.tier(fact) == "short" and mem.memory_value(fact) > 0  # learned now (recorded_at)
    hit = mem.recall("gym", k=1)[0]
    assert mem.tier(hit) == "short"
    with pytest.raises(InvalidInputError, match="^item:"):
        mem.tier("not an item")
    tiers = mem.tier_stats()["tiers"]
    assert (tiers["short"]["episodes"], tiers["medium"]["episodes"], tiers["long"]["episodes"]) == (1, 1, 11)


def test_forget_makes_the_least_valuable_cold_and_keeps_beliefs(talk):
    mem, ids = talk
    beliefs = _beliefs(mem)
    sources = {f.episode_id for who in ("Ana", "Bo") for f in mem.history(who)}
    assert len(sources) == 4  # Bo has a dog Rex, Ana lives in Berlin, works at Siemens, moved to Lisbon
    dry = mem.forget(keep_fraction=0.5, dry_run=True)
    assert all(mem.episode(i).cold_at is None for i in ids)  # a dry run writes nothing
    report = mem.forget(keep_fraction=0.5)
    assert report.cold == dry.cold and report.target == 6 and report.hot_after == 6
    assert report.hot_before == 11 and report.short_of == 0 and report.message == ""
    cold = [i for i, _ in report.cold]
    assert len(cold) == 5 and not set(cold) & sources
    assert report.protected == {"source of a fact": 4}
    # least valuable first: the backchannels went, the long informative turns stayed
    assert {ids[2], ids[4], ids[6], ids[8], ids[10]} == set(cold)
    assert [v for _, v in report.cold] == sorted(v for _, v in report.cold)
    assert report.bytes_after < report.bytes_before
    assert _beliefs(mem) == beliefs and mem.check() == []
    # readable by id, out of recall
    ep = mem.episode(ids[10])
    assert ep.content == "wow" and ep.cold_at is not None and ep.cold_reason == "forget: policy value"
    hits = mem.recall("wow", k=20)
    assert ids[10] not in {h.id for h in hits}
    assert ids[5] in {h.id for h in mem.recall("hiking Harz mountains", k=5)}
    # warm again: back in recall, with its vectors
    [back] = mem.warm([ids[10]])
    assert back.cold_at is None and back.cold_reason is None
    assert ids[10] in {h.id for h in mem.recall("wow", k=20)}
    assert mem.check() == [] and _beliefs(mem) == beliefs
    with pytest.raises(NotFoundError):
        mem.warm(["no-such-episode"])


def test_the_floor_is_never_crossed_and_the_report_says_so(talk):
    mem, ids = talk
    confirmed = mem.add_episode("Yes, please book the table.", speaker="Ana", provenance="user_confirmation",
                                reference_time=_at(30, 0)).episode
    recent = mem.add_episode("brb", speaker="Bo").episode  # the short tier
    report = mem.forget(max_episodes=0)
    cold = {i for i, _ in report.cold}
    assert confirmed.id not in cold and recent.id not in cold
    assert report.protected["user_confirmation"] == 1 and report.protected["short tier"] == 1
    assert report.protected["source of a fact"] == 4
    assert report.floor == 6 and report.hot_after == 6 and report.short_of == 6
    assert report.message.startswith("refused to go below the floor: 6 hot episode(s) are never forgotten")
    assert mem.check() == []
    again = mem.forget(max_episodes=0)  # nothing more can go
    assert again.cold == [] and again.already_cold == len(cold)
    fifo = mem.forget(max_episodes=0, policy="fifo", dry_run=True)
    assert fifo.cold == []


def test_max_bytes_and_policies(talk):
    mem, ids = talk
    plan = mem.forget(max_bytes=0, dry_run=True)
    assert plan.bytes_after < plan.bytes_before and plan.message.startswith("refused to go below the floor")
    every = mem.forget(keep_fraction=1.0, dry_run=True)
    assert every.cold == []
    budget = plan.bytes_before - 1
    one = mem.forget(max_bytes=budget, dry_run=True)
    assert len(one.cold) == 1 and one.bytes_after <= budget
    fifo = mem.forget(max_episodes=9, policy="fifo", dry_run=True)
    assert [i for i, _ in fifo.cold] == [ids[0], ids[2]]  # the oldest unprotected first
    for bad, field in (({"keep_fraction": 1.5}, "keep_fraction"), ({"max_episodes": -1}, "max_episodes"),
                       ({"max_episodes": 1, "policy": "lru"}, "policy"), ({}, "keep_fraction")):
        with pytest.raises(InvalidInputError, match=f"^{field}:"):
            mem.forget(**bad)


def test_abstention_still_counts_cold_turns(talk):
    from midas_graph._context import _voiced

    mem, ids = talk
    # questions whose evidence (if any) is a fact or a protected turn
    questions = ["What is Bo's dog called?", "Where does Ana live?", "Where did Ana live before Lisbon?",
                 "What is Ana's favorite movie?", "Does Bo have a cat?", "Where does Bo work?"]

    def answers():
        return [(c.abstain, c.reason) for c in (mem.context(q) for q in questions)]

    def statistics():
        idx = mem._recaller().index("default")
        return idx.speaker_keys, {k: set(v) for k, v in _voiced(idx).items()}, sorted(idx.bm25.vocab_dict)

    before, stats = answers(), statistics()
    mem.forget(keep_fraction=0.0)
    idx = mem._recaller().index("default")
    assert idx.cold.sum() == 7
    assert statistics() == stats  # who said what, and every word heard, still count cold turns
    assert answers() == before
    # a question whose only evidence went cold is not answered from it
    harz = mem.context("What did Bo think of the Harz mountains?")
    assert ids[5] not in {i.episode.id for i in harz.items if i.episode is not None}


@pytest.mark.engine
def test_cold_state_survives_export_import_and_is_sealed(talk, tmp_path):
    from midas_graph._io import export_rows, import_rows, read_jsonl, write_jsonl

    mem, ids = talk
    mem.forget(keep_fraction=0.5)
    buf = io.StringIO()
    write_jsonl(export_rows(mem), buf)
    rows = [json.loads(x) for x in buf.getvalue().splitlines()]
    cold_rows = [r for r in rows if r["type"] == "episode" and r["cold_at"]]
    assert len(cold_rows) == 5 and all(r["embedding"] is None and r["sentence_embeddings"] is None
                                       for r in cold_rows)
    with Memory(str(tmp_path / "copy.db"), engine=ENGINE) as copy:
        import_rows(copy, read_jsonl(io.StringIO(buf.getvalue())))
        assert copy.check() == []
        assert [copy.episode(i).to_dict() for i in ids] == [mem.episode(i).to_dict() for i in ids]
        again = io.StringIO()
        write_jsonl(export_rows(copy), again)
        assert again.getvalue() == buf.getvalue()
        # a damaged tier state is found
        key = cold_rows[0]["id"]
        copy._store.q("MATCH (p:Episode {id: $id}) SET p.cold_reason = 'x'", {"id": key})
        found = copy.check()
        assert [v.rule for v in found] == ["digest"] and "(tier)" in found[0].message
        copy._store.q("MATCH (p:Episode {id: $id}) SET p.cold_at = NULL, p.cold_reason = NULL, "
                      "p.cold_digest = NULL", {"id": key})
        assert copy.check() == []
        # a cold episode that still has vectors, or that a fact came from, breaks the tier rule
        src = copy.history("Ana")[0].episode_id
        copy._store.set_cold("default", [src], copy.now(), "by hand")
        assert [v.rule for v in copy.check()] == ["tier"]


@pytest.mark.engine
def test_cli_forget_warm_and_tier_stats(models, db_path, capsys):
    from midas_graph.cli import main

    with Memory(db_path, clock=StepClock(NOW, dt.timedelta(seconds=1)), engine=ENGINE,
                embedder=models[0], nli=models[1]) as mem:
        ids = [mem.add_episode(t, speaker=s, reference_time=_at(days, i)).episode.id
               for i, (s, t, days) in enumerate(TALK)]

    def cli(*args):
        code = main(["--db", db_path, "--engine", ENGINE, *args])
        return code, capsys.readouterr().out

    code, out = cli("forget", "--keep-fraction", "0.5", "--dry-run", "--json")
    assert code == 0 and len(json.loads(out)["cold"]) == 5
    code, out = cli("forget", "--max-episodes", "0")
    assert code == 0 and out.startswith("7 episode(s) went cold") and "refused to go below the floor" in out
    code, out = cli("stats", "--tiers")
    stats = json.loads(out)
    assert code == 0 and stats["tiers"]["long"] == {"episodes": 11, "cold": 7,
                                                     "mean_value": stats["tiers"]["long"]["mean_value"]}
    assert stats["half_life_days"] == 30
    code, out = cli("warm", ids[2])
    assert code == 0 and "1 episode(s) hot" in out
    assert cli("check")[0] == 0
    code, out = cli("forget", "--keep-fraction", "1.0", "--purge")
    assert code == 0 and "6 cold episode(s) purged" in out
    code, out = cli("warm", ids[0])
    assert code != 0
    code, out = cli("compact", "--before", "2024-06-02T00:00:00+00:00")  # after every write above
    assert code == 0 and json.loads(out)["horizon"] == "2024-06-02T00:00:00+00:00"
    assert json.loads(out)["versions_dropped"] >= 1  # Berlin, as held before the move to Lisbon
    code, out = cli("as-of", "Ana", "--known-at", "2024-01-01")
    assert code != 0
    assert cli("check")[0] == 0


@pytest.mark.engine
def test_purge_leaves_stubs_that_links_resolve_and_beliefs_unchanged(talk, tmp_path):
    import hashlib

    from midas_graph._io import export_rows, import_rows, read_jsonl, write_jsonl

    mem, ids = talk
    texts = {i: mem.episode(i).content for i in ids}
    sources = {f.episode_id for who in ("Ana", "Bo") for f in mem.history(who)}
    before = _beliefs(mem)
    first = mem.forget(keep_fraction=0.5)  # some go cold, kept readable
    assert not first.purged and all(not mem.episode(i).purged for i in ids)
    dry = mem.forget(keep_fraction=0.0, purge=True, dry_run=True)
    assert dry.purged and all(mem.episode(i).content == texts[i] for i in ids)
    report = mem.forget(keep_fraction=0.0, purge=True)
    assert set(report.purged) == set(dry.purged)
    assert {i for i, _ in first.cold} <= set(report.purged)  # the already cold ones too
    assert not set(report.purged) & sources  # protected episodes are never cold, never purged
    assert report.bytes_after < report.bytes_before
    for i in ids:
        ep = mem.episode(i)
        if i in report.purged:
            assert ep.purged and ep.content == "" and ep.cold_at is not None
            assert hashlib.sha256(texts[i].encode()).hexdigest() in ep.cold_reason
        else:
            assert not ep.purged and ep.content == texts[i]
    assert _beliefs(mem) == before
    assert mem.check() == []
    gone = report.purged[0]
    with pytest.raises(InvalidInputError, match="^episode_ids: .*purged"):
        mem.warm([gone])
    # purged content is not found by recall
    assert not [h for h in mem.recall("Rex chewed my slippers", k=20)
                if h.episode is not None and h.episode.id in report.purged]
    # a second purge has nothing left to do
    assert mem.forget(keep_fraction=0.0, purge=True).purged == []
    buf = io.StringIO()
    write_jsonl(export_rows(mem), buf)
    with Memory(str(tmp_path / "copy.db"), engine=ENGINE) as copy:
        import_rows(copy, read_jsonl(io.StringIO(buf.getvalue())))
        assert copy.check() == []
        assert copy.episode(gone).purged and copy.episode(gone).content == ""
        # a stub given content back is found
        key = gone
        copy._store.q("MATCH (p:Episode {id: $id}) SET p.content = 'back'", {"id": key})
        assert {v.rule for v in copy.check()} >= {"tier", "digest"}


def test_consolidate_keeps_one_of_a_speakers_restatements(models):
    """Cara says the same thing three times over a month (and Dan says it
    once): her restatements collapse to the one of highest value, the
    others go cold as dup_of it; Dan's turn, other speakers' and different
    turns stay hot; beliefs, check() and warm are as for forget."""
    clock = StepClock(NOW, dt.timedelta(seconds=1))
    said = [("Cara", "What a beautiful sunny morning it is today!", 30),
            ("Dan", "What a beautiful sunny morning it is today!", 30),
            ("Cara", "I live in Oslo.", 29),
            ("Cara", "What a beautiful sunny morning it is today!!", 20),
            ("Dan", "The train was late again this morning.", 20),
            ("Cara", "what a beautiful sunny morning it is today", 10),
            ("Cara", "Just now: what a beautiful sunny morning it is today!", 0)]
    with Memory(clock=clock, engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
        ids = [mem.add_episode(t, speaker=s, reference_time=_at(days, i)).episode.id
               for i, (s, t, days) in enumerate(said)]
        before = [f.vid for f in mem.as_of("Cara")], [f.to_dict() for f in mem.history("Cara")]
        dry = mem.consolidate(dry_run=True)
        assert all(mem.episode(i).cold_at is None for i in ids)
        report = mem.consolidate()
        assert report["cold"] == dry["cold"] and report["groups"] >= 1
        cold = {eid: keeper for eid, keeper in report["cold"]}
        repeats = {ids[0], ids[3], ids[5]}
        # the three month-old restatements go cold, as dup_of the latest one (of most value)
        assert set(cold) == repeats and set(cold.values()) == {ids[6]} and report["kept"] == {}
        for eid, kept in cold.items():
            assert mem.episode(eid).cold_reason == f"dup_of:{kept}"
        assert {ids[1], ids[2], ids[4], ids[6]}.isdisjoint(cold)  # Dan's and different turns stay
        assert ids[0] not in {h.id for h in mem.recall("beautiful sunny morning", k=10)}
        assert ([f.vid for f in mem.as_of("Cara")], [f.to_dict() for f in mem.history("Cara")]) == before
        assert mem.check() == []
        assert mem.consolidate()["cold"] == []  # nothing left to consolidate
        mem.warm(list(cold))
        assert all(mem.episode(i).cold_at is None for i in cold) and mem.check() == []
        with pytest.raises(InvalidInputError, match="^threshold"):
            mem.consolidate(threshold=2)


def test_cli_consolidate(models, db_path, capsys):
    """`midas-graph consolidate` mirrors Memory.consolidate: a dry run writes
    nothing, the real run makes the restatements cold as dup_of the kept turn."""
    from midas_graph.cli import main

    said = [("Cara", "What a beautiful sunny morning it is today!", 30),
            ("Cara", "I live in Oslo.", 29),
            ("Cara", "What a beautiful sunny morning it is today!!", 20),
            ("Cara", "what a beautiful sunny morning it is today", 10)]
    with Memory(db_path, clock=StepClock(NOW, dt.timedelta(seconds=1)), engine=ENGINE,
                embedder=models[0], nli=models[1]) as mem:
        ids = [mem.add_episode(t, speaker=s, reference_time=_at(days, i)).episode.id
               for i, (s, t, days) in enumerate(said)]

    def cli(*args):
        code = main(["--db", db_path, "--engine", ENGINE, *args])
        return code, capsys.readouterr().out

    code, out = cli("consolidate", "--dry-run", "--json")
    dry = json.loads(out)
    assert code == 0 and dry["dry_run"] is True and len(dry["cold"]) == 2 and dry["groups"] == 1
    code, out = cli("consolidate", "--threshold", "0.92")
    assert code == 0 and out.startswith("2 restatement(s) went cold in 1 group(s) of 4 hot episode(s)")
    for eid, kept in dry["cold"]:
        assert f"{eid} dup_of {kept}" in out
    code, out = cli("consolidate", "--json")
    assert code == 0 and json.loads(out)["cold"] == []
    with Memory(db_path, engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
        assert {e.id for e in mem.episodes() if e.cold_at is not None} == {eid for eid, _ in dry["cold"]}
        assert ids[1] not in {eid for eid, _ in dry["cold"]} and mem.check() == []
    code, out = cli("consolidate", "--threshold", "0.2")
    assert code != 0


@pytest.mark.engine
def test_vacuum_rebuilds_the_file_smaller_and_the_same(models, db_path, capsys):
    """Written over ten sessions and half forgotten, the file is rebuilt
    smaller; every belief, episode (tier state included) and check() are as
    before, and the memory goes on working on the new file."""
    import os

    from midas_graph import vacuum
    from midas_graph.cli import main

    clock = StepClock(NOW, dt.timedelta(seconds=1))
    for s in range(10):
        with Memory(db_path, clock=clock, engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
            for i, (who, text, days) in enumerate(TALK[:6]):
                mem.add_episode(f"{text} ({s})", speaker=who, reference_time=_at(days - s, i))
    with Memory(db_path, clock=clock, engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
        assert mem.forget(keep_fraction=0.5).cold
        beliefs = _beliefs(mem)
        episodes = [e.to_dict() for e in mem.episodes(last_n=1000)]
        with pytest.raises(InvalidInputError, match="^path:.*open in this process"):
            vacuum(db_path, engine=ENGINE)  # one writer: refused, nothing done
    report = vacuum(db_path, engine=ENGINE)
    assert report["bytes_after"] < report["bytes_before"] and report["path"] == db_path
    assert os.path.getsize(db_path) <= report["bytes_after"] and not os.path.exists(db_path + ".vacuum")
    with Memory(db_path, clock=clock, engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
        assert _beliefs(mem) == beliefs and [e.to_dict() for e in mem.episodes(last_n=1000)] == episodes
        assert mem.check() == []
        mem.add_episode("I moved to Porto.", speaker="Ana")
        # the open memory itself can be rebuilt in place and goes on on the new file (the harness does so)
        again = mem._vacuum()
        assert again["bytes_after"] > 0 and mem.current("Ana", "lives_in")[0].value == "Porto"
        mem.add_episode("I moved to Faro.", speaker="Ana")  # writes land in the new file
        with Memory(db_path, engine=ENGINE) as other:  # another Memory on the file: refused
            with pytest.raises(InvalidInputError, match="^path:.*shared"):
                mem._vacuum()
            assert other.stats() == mem.stats()
    code = main(["--db", db_path, "--engine", ENGINE, "vacuum"])
    assert code == 0 and json.loads(capsys.readouterr().out)["bytes_after"] > 0
    with Memory(db_path, engine=ENGINE) as again:
        assert again.check() == [] and again.current("Ana", "lives_in")[0].value == "Faro"
    with Memory(engine=ENGINE) as memory_only:
        with pytest.raises(InvalidInputError, match="^path:"):
            memory_only._vacuum()
    with pytest.raises(InvalidInputError, match="^path:"):
        vacuum(db_path + ".missing")

def test_cold_turns_are_found_for_abstention_only(talk):
    """Recaller.cold_turns: the cold turns that share the question's words,
    embedded again in memory only (never stored), never recall candidates;
    a purged turn is not among them."""
    mem, ids = talk
    recaller = mem._recaller()
    assert recaller.cold_turns("hiking Harz mountains", group_id="default", known_at=mem.now()) == []
    mem.forget(keep_fraction=0.0)
    assert mem.episode(ids[5]).cold_at is not None
    found = recaller.cold_turns("hiking Harz mountains", group_id="default", known_at=mem.now())
    assert found and found[0].id == ids[5] and found[0].why == {"cold": True}
    assert all(mem.episode(h.id).cold_at is not None for h in found)
    idx = recaller.index("default")
    assert idx.whole_cosine(("episode", ids[5]), mem._embedder().embed(["hiking in the mountains"])[0]) > 0.3
    assert mem._store.vectors("Episode", [ids[5]], "default").get(ids[5]) is None  # nothing stored
    assert ids[5] not in {h.id for h in mem.recall("hiking Harz mountains", k=20)}
    mem.forget(keep_fraction=0.0, purge=True)
    assert recaller.cold_turns("hiking Harz mountains", group_id="default", known_at=mem.now()) == []


def test_cold_turns_still_ground_a_question_and_give_no_line(models, monkeypatch):
    """Abstention does not change because turns went cold (issue 18 item 5):
    Caroline's race and Melanie's camping trip, made cold, still ground the
    questions about them as when hot, with no line from them and a reason
    that says the turn is cold; a question about someone else's race still
    abstains. Counting cold turns off (COLD_TURNS) makes both abstain."""
    from midas_graph import _context

    said = [("Caroline", "I ran a charity race for mental health last Saturday, it made me realize how much "
                         "self-care matters."),
            ("Melanie", "That's amazing Caroline! I have been painting a lot with my kids."),
            ("Caroline", "Thanks! How are the kids?"),
            ("Melanie", "They're great, we went camping at the beach."),
            ("Melanie", "I also started running in the mornings, it clears my head.")]
    questions = ["What did Caroline realize after the charity race?", "Where did Melanie go camping?",
                 "What did Melanie realize after the charity race?"]
    with Memory(clock=StepClock(NOW, dt.timedelta(seconds=1)), engine=ENGINE, embedder=models[0],
                nli=models[1]) as mem:
        ids = [mem.add_episode(t, speaker=s, reference_time=_at(30, i)).episode.id for i, (s, t) in enumerate(said)]
        before = [mem.context(q) for q in questions]
        assert [c.abstain for c in before] == [False, False, True]
        gone = {ids[0], ids[3]}
        report = mem.forget(max_episodes=len(ids) - 2, policy=lambda e: 0.0 if e.id in gone else 1.0)
        assert {i for i, _ in report.cold} == gone
        after = [mem.context(q) for q in questions]
        assert [c.abstain for c in after] == [False, False, True]
        for c in after[:2]:
            assert "(a cold turn, not shown: Memory.warm brings it back)" in c.reason
            assert not gone & {i.episode.id for i in c.items if i.episode is not None}
        monkeypatch.setattr(_context, "COLD_TURNS", False)
        assert [mem.context(q).abstain for q in questions] == [True, True, True]
