"""A memory over several shard files answers as one file does (docs/scaling.md).

The same calls go to a single-file Memory and to a ShardedMemory; every group
lands on exactly one shard, and facts, versions, supersessions, retractions
and as_of at a grid of (valid, known) times read the same. Rebalancing moves
a group with its whole history; a move cut short at any step leaves one
owner (the manifest's) and check() names the leftover copy.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re

import pytest

from midas_graph import InvalidInputError, Memory, NotFoundError, ShardedMemory
from midas_graph._shards import Layout

from conftest import ENGINE, StepClock

pytestmark = pytest.mark.engine

GROUPS = [f"tenant-{i}" for i in range(8)]
PEOPLE = ["Ana", "Bo", "Cy"]
CITIES = ["Porto", "Lisbon", "Rome", "Oslo", "Lima"]


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _proj(f):
    """A fact version without its ids (UUIDs differ between the two runs)."""
    return (f.group_id, f.subject, f.attribute, f.value, f.valid_from, f.valid_to, f.recorded_at, f.expired_at,
            f.version, f.superseded_by is not None, len(f.supersedes), _UUID.sub("<id>", f.expire_reason or ""),
            _UUID.sub("<id>", f.reason or ""), f.status)


def _same(a, b) -> bool:
    """Equal as sets of versions (ties in time are ordered by id, which differs)."""
    return sorted(map(_proj, a), key=repr) == sorted(map(_proj, b), key=repr)


def _day(n: int) -> str:
    return (dt.date(2024, 1, 1) + dt.timedelta(days=n)).isoformat()


def _feed(single: Memory, sharded: ShardedMemory, seed: int = 7, steps: int = 120):
    """The same random calls on both; returns the facts each returned, pairwise."""
    rng = random.Random(seed)
    made: list[tuple] = []
    start = dt.datetime(2025, 1, 1, tzinfo=dt.timezone.utc)
    for step in range(steps):
        # Both clocks read the step's time throughout the step: a batch over several
        # shards is one transaction per shard, so it may read the clock more often.
        for m in (single, sharded):
            m._clock_for_test.set(start + dt.timedelta(minutes=step))
        op = rng.random()
        if op < 0.6:
            kw = dict(group_id=rng.choice(GROUPS), valid_from=_day(rng.randrange(0, 300)))
            args = (rng.choice(PEOPLE), rng.choice(["lives_in", "likes"]), rng.choice(CITIES))
            made.append((single.add_fact(*args, **kw), sharded.add_fact(*args, **kw)))
        elif op < 0.8:  # a batch across groups: rows carry their own group_id
            rows = [{"subject": rng.choice(PEOPLE), "attribute": "lives_in", "value": rng.choice(CITIES),
                     "valid_from": _day(rng.randrange(0, 300)), "group_id": rng.choice(GROUPS)} for _ in range(4)]
            made.extend(zip(single.add_facts(rows), sharded.add_facts(rows)))
        elif made:
            a, b = rng.choice(made)
            if a.expired_at is None and single.fact(a.id).expired_at is None:
                ra = single.retract(a.id)
                rb = sharded.retract(b.id) if step % 2 else sharded.retract(b.id, group_id=b.group_id)
                assert _proj(ra) == _proj(rb)
    return made


def test_a_sharded_memory_answers_as_one_file_does(tmp_path):
    single = Memory(tmp_path / "one.db", engine=ENGINE, clock=(c1 := StepClock()))
    sharded = ShardedMemory(tmp_path / "shards", 3, engine=ENGINE, clock=(c2 := StepClock()))
    single._clock_for_test, sharded._clock_for_test = c1, c2
    try:
        made = _feed(single, sharded)
        for a, b in made:
            assert _proj(a) == _proj(b)
            assert [_proj(f) for f in single.versions(a.id)] == [_proj(f) for f in sharded.versions(b.id)]
            assert [_proj(f) for f in single.versions(a.id)] == [
                _proj(f) for f in sharded.versions(b.id, group_id=b.group_id)]
        now = single.now()
        times = [_day(n) for n in (0, 50, 150, 299, 400)] + [now]
        knowns = sorted({a.recorded_at for a, _ in made})[::9] + [now]
        for g in GROUPS:
            for p in PEOPLE:
                assert _same(single.history(p, group_id=g), sharded.history(p, group_id=g))
            for t in times:
                for k in knowns:
                    assert _same(single.as_of(valid_at=t, known_at=k, group_id=g),
                                 sharded.as_of(valid_at=t, known_at=k, group_id=g)), (g, t, k)
        assert sharded.stats() == single.stats()
        assert sharded.check() == [] and single.check() == []
        # a group never spans two shards: each is found in exactly its owner's file
        where = {i: set(sharded.groups(i)) for i in range(3)}
        for g in GROUPS:
            holders = [i for i, gs in where.items() if g in gs]
            assert holders == [sharded.shard_for(g)], (g, holders)
        assert len({sharded.shard_for(g) for g in GROUPS}) > 1            # spread over several files
    finally:
        single.close()
        sharded.close()


def test_routing_surface_and_refusals(tmp_path):
    with ShardedMemory(tmp_path / "m", 2, engine=ENGINE) as mem:
        import inspect

        assert inspect.signature(ShardedMemory.as_of) == inspect.signature(Memory.as_of)
        assert "as_of" in dir(mem) and "Routed" in ShardedMemory.recall.__doc__
        f = mem.add_fact("Ana", "lives_in", "Porto", group_id="g1")
        assert mem.fact(f.id).value == "Porto"
        with pytest.raises(NotFoundError, match="^fact_id"):
            mem.versions("nope")
        with pytest.raises(NotFoundError, match="^fact_id"):
            mem.versions(f.id, group_id="g2")                      # another tenant's id is not found
        with pytest.raises(InvalidInputError, match="^group_id"):
            mem.as_of(group_id="")
        with pytest.raises(InvalidInputError, match="^rows\\[1\\]\\.value"):
            mem.add_facts([("Bo", "likes", "tea"), {"subject": "Bo", "attribute": "likes", "group_id": "g2"}])
        assert mem.stats(group_id="g2")["Fact"] == 0              # nothing of a refused batch was written
        e1 = mem.add_episode("hello", group_id="g1", episode_id="e1")
        mem.add_episode("hi", group_id="g2", episode_id="e1")
        if mem.shard_for("g1") != mem.shard_for("g2"):
            with pytest.raises(InvalidInputError, match="^group_id"):
                mem.episode("e1")                                   # ambiguous across shards
        assert mem.episode("e1", group_id="g1").content == e1.episode.content
    with pytest.raises(InvalidInputError, match="^shards"):
        ShardedMemory(tmp_path / "new", engine=ENGINE)


def test_shards_share_one_set_of_models(tmp_path, models):
    emb, nli = models
    with ShardedMemory(tmp_path / "m", 3, engine=ENGINE, embedder=emb, nli=nli) as mem:
        groups = [g for g in GROUPS if mem.shard_for(g) in (0, 1)][:2]
        for g in groups:
            mem.add_episode("I moved to Lisbon last year.", speaker="Ana", group_id=g)
        opened = [mem.shard(i) for i in range(3)]
        assert len({id(m._embedder()) for m in opened}) == 1 and len({id(m._nli()) for m in opened}) == 1
        assert [h.text for h in mem.recall("Where does Ana live?", group_id=groups[0])][:1]


def _moving_setup(tmp_path, models):
    mem = ShardedMemory(tmp_path / "m", 3, engine=ENGINE, clock=StepClock(), embedder=models[0], nli=models[1])
    g = "tenant-move"
    mem.add_episode("I live in Porto and I work at Acme.", speaker="Ana", group_id=g)
    mem.add_fact("Ana", "lives_in", "Lisbon", valid_from="2025-06-01", group_id=g)
    f = mem.add_fact("Ana", "likes", "tea", group_id=g)
    mem.retract(f.id)
    mem.add_fact("Bo", "lives_in", "Rome", group_id="tenant-stay")
    return mem, g


def _answers(mem, g):
    at = "2025-09-01"
    return ([_proj(f) for f in mem.as_of(group_id=g, valid_at=at)],
            [_proj(f) for f in mem.history("Ana", group_id=g)], mem.stats(group_id=g))


def test_move_group_keeps_every_version_and_reroutes(tmp_path, models):
    mem, g = _moving_setup(tmp_path, models)
    try:
        before = _answers(mem, g)
        home = mem.shard_for(g)
        to = (home + 1) % 3
        report = mem.move_group(g, to)
        assert report["from"] == home and report["to"] == to and report["copied"]["fact"] == before[2]["Fact"]
        assert mem.shard_for(g) == to and Layout.open(mem.root).moved == {g: to}
        assert _answers(mem, g) == before
        assert g not in mem.groups(home) and mem.check() == []
        assert mem.recall("Where does Ana work?", group_id=g)
        mem.add_fact("Ana", "lives_in", "Oslo", group_id=g)     # writes go to the new owner
        assert [f.value for f in mem.current("Ana", "lives_in", group_id=g)] == ["Oslo"]
        assert mem.shard(home).stats(group_id=g)["Fact"] == 0
        mem.move_group(g, home)                                  # and back: the manifest forgets the override
        assert Layout.open(mem.root).moved == {} and mem.shard_for(g) == home
        assert [f.value for f in mem.current("Ana", "lives_in", group_id=g)] == ["Oslo"]
        with pytest.raises(InvalidInputError, match="^to_shard"):
            mem.move_group(g, 3)
    finally:
        mem.close()


@pytest.mark.parametrize("cut", ["after_copy", "after_manifest"])
def test_a_move_cut_short_leaves_one_owner_and_the_next_move_finishes_it(tmp_path, models, cut):
    mem, g = _moving_setup(tmp_path, models)
    before = _answers(mem, g)
    home = mem.shard_for(g)
    to = (home + 1) % 3
    mem._copy_group(g, home, to)                                 # the steps move_group takes ...
    if cut == "after_manifest":
        mem._record_move(g, to)
    mem.close()                                                  # ... and the process dies here
    mem = ShardedMemory(tmp_path / "m", engine=ENGINE, clock=StepClock("2026-01-01T00:00:00+00:00"),
                        embedder=models[0], nli=models[1])
    try:
        owner = to if cut == "after_manifest" else home
        left = home if cut == "after_manifest" else to
        assert mem.shard_for(g) == owner
        assert _answers(mem, g) == before                        # never twice, never lost
        assert mem.stats()["Fact"] == before[2]["Fact"] * 2 + 1  # the leftover copy is still on disk ...
        problems = mem.check()                                   # ... and check() names it
        assert [(v.rule, v.ids) for v in problems] == [("shard", (g,))], problems
        assert f"shard {left} holds rows of group {g!r}" in problems[0].message
        assert mem.status()["per_shard"][left]["left_over"] == [g]
        if cut == "after_copy":  # the owner changes after the cut: the stale copy must not survive the move
            mem.add_fact("Ana", "lives_in", "Lima", group_id=g)
            before = _answers(mem, g)
        mem.move_group(g, to)                                    # finishes (or redoes) the move
        assert mem.shard_for(g) == to and mem.check() == [] and _answers(mem, g) == before
        assert mem.strays() == []
    finally:
        mem.close()


def test_cli_shards_status_and_move(tmp_path, capsys):
    from midas_graph.cli import main

    root = tmp_path / "m"
    with ShardedMemory(root, 4, engine=ENGINE) as mem:
        for g in GROUPS:
            mem.add_fact("Ana", "lives_in", "Porto", group_id=g)
        g = GROUPS[0]
        home = mem.shard_for(g)
    capsys.readouterr()
    assert main(["--engine", ENGINE, "shards", "status", "--dir", str(root)]) == 0
    status = json.loads(capsys.readouterr().out)
    assert sum(s["groups"] for s in status["per_shard"]) == len(GROUPS)
    assert all(s["bytes"] > 0 for s in status["per_shard"] if s["groups"])
    to = (home + 2) % 4
    assert main(["--engine", ENGINE, "shards", "move", g, str(to), "--dir", str(root)]) == 0
    assert json.loads(capsys.readouterr().out)["to"] == to
    with ShardedMemory(root, engine=ENGINE) as mem:
        assert mem.shard_for(g) == to and [f.value for f in mem.current("Ana", group_id=g)] == ["Porto"]
    assert main(["--engine", ENGINE, "shards", "status", "--dir", str(tmp_path / "none")]) == 1
    assert "not a sharded memory" in capsys.readouterr().err


def test_a_read_only_sharded_memory_reads_and_refuses_writes(tmp_path):
    from midas_graph import ReadOnlyError
    from midas_graph._shards import ShardLayoutError

    root = tmp_path / "m"
    with ShardedMemory(root, 4, engine=ENGINE) as mem:
        mem.add_fact("Ana", "lives_in", "Porto", group_id="g1")
        empty = next(g for g in GROUPS if not mem.layout.path(mem.shard_for(g)).exists())
    with ShardedMemory(root, read_only=True) as ro:
        assert ro.engine == ENGINE
        assert [f.value for f in ro.current("Ana", group_id="g1")] == ["Porto"]
        assert ro.as_of(group_id=empty) == [] and ro.stats(group_id=empty)["Fact"] == 0  # no file yet
        for g in ("g1", empty):
            with pytest.raises(ReadOnlyError):
                ro.add_fact("Bo", "likes", "tea", group_id=g)
        assert ro.check() == []
    with pytest.raises(ShardLayoutError, match="not a sharded memory"):
        ShardedMemory(tmp_path / "none", read_only=True)


def test_every_group_method_of_memory_is_routed_and_typed():
    import ast
    import inspect

    import midas_graph._sharded as sharded

    routed = set(sharded.GROUP_METHODS) | set(sharded.BY_ID_METHODS)
    public = {n for n, f in vars(Memory).items() if callable(f) and not n.startswith("_")
              and "group_id" in inspect.signature(f).parameters}
    assert public == routed | {"add_facts", "add_episodes", "check", "stats"}       # nothing left unrouted
    tree = ast.parse(inspect.getsource(sharded.ShardedMemory))
    stubs = next(node for node in ast.walk(tree) if isinstance(node, ast.If)
                 and ast.unparse(node.test) == "TYPE_CHECKING")
    typed = {t.id for stmt in stubs.body if isinstance(stmt, ast.Assign) for t in stmt.targets}
    assert typed == routed                                                            # the stubs type checkers read


def test_a_reader_follows_a_move_made_by_the_owner(tmp_path):
    """Another ShardedMemory on the directory (here in this process; a
    read-only one in another process alike) reads the manifest again when
    it changed on disk, so it follows a move."""
    root = tmp_path / "m"
    owner = ShardedMemory(root, 3, engine=ENGINE)
    other = ShardedMemory(root, engine=ENGINE)
    try:
        owner.add_fact("Ana", "lives_in", "Porto", group_id="g")
        assert [f.value for f in other.current("Ana", group_id="g")] == ["Porto"]
        to = (owner.shard_for("g") + 1) % 3
        owner.move_group("g", to)
        assert other.shard_for("g") == to
        assert [f.value for f in other.current("Ana", group_id="g")] == ["Porto"]
    finally:
        other.close()
        owner.close()
