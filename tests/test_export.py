"""Export and import are lossless: an export of a memory built from text
episodes (the real models), typed facts, retractions and a removed episode,
imported into an empty memory, answers every read the same way, and so does
its own export, byte for byte. A file that names what it does not hold, or
was cut short, or comes from a newer schema, is refused with nothing written."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from conftest import ENGINE, StepClock

from midas_graph import InvalidInputError, Memory, SchemaVersionError
from midas_graph import _io
from midas_graph._store import SCHEMA_VERSION
from midas_graph.cli import main

pytestmark = pytest.mark.engine

QUESTIONS = [
    ("Where does Ana live?", "default"),
    ("Where did Ana live in 2023?", "default"),
    ("Where does Ben work?", "default"),
    ("What does Ana like?", "default"),
    ("What is the latency of the search service?", "default"),
    ("Who is Ana's manager?", "default"),
    ("What is Ana's favourite colour?", "default"),
    ("Where does Cleo live?", "other"),
    ("Where does Cleo work?", "other"),
]


def dump(mem) -> str:
    out = io.StringIO()
    _io.write_jsonl(_io.export_rows(mem), out)
    return out.getvalue()


def load(mem, text: str) -> dict[str, int]:
    return _io.import_rows(mem, _io.read_jsonl(io.StringIO(text), "dump.jsonl"))


def build(mem: Memory, clock: StepClock) -> None:
    """A memory with every kind of row: episodes with their facts, closings,
    a correction and a cessation; typed facts; an alias; a retraction; a
    removed episode; a second group."""
    mem.add_episodes([
        {"content": "Hi Ben! I live in Porto now, I moved here in 2021.", "speaker": "Ana",
         "reference_time": "2023-03-01", "name": "chat-1", "source_description": "chat"},
        {"content": "Nice! I work at Globex, and I like hiking a lot.", "speaker": "Ben",
         "reference_time": "2023-03-01T00:05:00"},
        {"content": "I moved to Berlin last month. The flat is small but I love the neighbourhood, the "
                    "bakery on the corner and the long walks by the canal in the evening. My manager is "
                    "Dana, and my favourite colour is green, which you knew already.",
         "speaker": "Ana", "reference_time": "2024-02-10", "provenance": "user_confirmation"},
        {"content": "I quit my job at Globex.", "speaker": "Ben", "reference_time": "2024-03-01"},
        {"content": "Sorry, I meant Lisbon, not Berlin.", "speaker": "Ana", "reference_time": "2024-03-02"},
    ])
    gone = mem.add_episode("I live in Madrid.", speaker="Ana", reference_time="2024-04-01", source="text")
    svc = mem.add_fact("search service", "latency_ms", 250, valid_from="2024-01-01")
    mem.add_fact("search service", "latency_ms", 180, valid_from="2024-06-01", source="bench")
    mem.add_fact("search service", "healthy", True, valid_from="2024-01-01", confidence=0.8)
    mem.add_fact("search service", "error_rate", 0.25, valid_from="2024-01-01", importance=2.0)
    mem.add_fact("search service", "released", dt.datetime(2023, 5, 4, 12, tzinfo=dt.timezone.utc))
    wrong = mem.add_fact("Ana", "likes", "opera", valid_from="2024-01-01", provenance="planning")
    mem.add_fact("Ana", "likes", "Ben", text="Ana likes Ben.")  # a value that names an entity
    mem.add_alias("Ana", "Anita")
    mem.add_entity("Dana", kind="PERSON", summary="Ana's manager")
    mem.retract(wrong.id, reason="she said she hates opera")
    mem.remove_episode(gone.episode.id)
    mem.add_episode("I live in Oslo.", speaker="Cleo", group_id="other", reference_time="2024-01-05")
    # episode ids are per group: the second is stored under another key
    mem.add_episode("I work at Initech.", speaker="Ana", reference_time="2024-05-01", episode_id="ep-1")
    mem.add_episode("I work at Hooli.", speaker="Cleo", group_id="other", reference_time="2024-05-01",
                    episode_id="ep-1")
    mem.add_facts([("Cleo", "lives_in", "Bergen"), ("Cleo", "pet", "cat")], group_id="other")
    assert svc.id
    # what recall and search embed on first use is stored: build it before exporting
    mem.recall("Where does Ana live?")
    mem.recall("Where does Cleo live?", group_id="other")
    mem.search_entities("Ana")


def instants(mem: Memory, group: str) -> tuple[list[dt.datetime], list[dt.datetime]]:
    """Valid and transaction times at and between every boundary of the group's versions."""
    versions = mem.as_of(group_id=group, valid_at="0001-01-02", known_at="9999-12-30")  # nothing
    assert versions == []
    every = [f for e in mem.entities(group_id=group) for f in mem.history(e.name, group_id=group)]
    valid = sorted({t for f in every for t in (f.valid_from, f.valid_to) if t is not None})
    known = sorted({t for f in every for t in (f.recorded_at, f.expired_at) if t is not None})
    between = lambda ts: ts + [a + (b - a) / 2 for a, b in zip(ts, ts[1:])]  # noqa: E731
    return between(valid), between(known)


def test_export_import_is_lossless_for_text_episodes_typed_facts_and_retractions(models, clock):
    src = Memory(clock=clock, engine=ENGINE, embedder=models[0], nli=models[1])
    build(src, clock)
    clock.set("2025-06-01T00:00:00+00:00")
    text = dump(src)
    rows = [json.loads(line) for line in text.splitlines()]
    kinds = [r["type"] for r in rows]
    assert kinds[0] == "header" and rows[0]["schema_version"] == SCHEMA_VERSION and kinds[-1] == "end"
    assert {"entity", "alias", "episode", "removed_episode", "fact", "fact_vector"} <= set(kinds)
    assert [r["group_id"] for r in rows if r.get("id") == "ep-1"] == ["default", "other"]
    assert [r["key"] for r in rows if "key" in r and r["type"] == "episode"] == ["other\x1fep-1"]

    other = StepClock()
    other.set("2025-06-01T00:00:00+00:00")
    dst = Memory(clock=other, engine=ENGINE)  # no models given: the import must not need one
    report = load(dst, text)
    assert dst._embedder_obj is None and dst._nli_obj is None
    counted = {"entities": "entity", "aliases": "alias", "episodes": "episode", "links": "link",
               "versions_restored": "fact", "fact_vectors": "fact_vector"}
    assert report == {**{k: kinds.count(v) for k, v in counted.items()}, "facts_added": 0}
    assert dst.stats() == src.stats()

    # the same database: its export is byte-identical
    assert dump(dst) == text
    for group in ("default", "other"):
        names = [e.name for e in src.entities(group_id=group)]
        assert names == [e.name for e in dst.entities(group_id=group)]
        assert src.entities(group_id=group) == dst.entities(group_id=group)
        for name in names:
            assert dst.history(name, group_id=group) == src.history(name, group_id=group)
        assert dst.episodes(group_id=group, last_n=100) == src.episodes(group_id=group, last_n=100)
        valid, known = instants(src, group)
        for t in valid:
            for k in known:
                assert dst.as_of(group_id=group, valid_at=t, known_at=k) == \
                    src.as_of(group_id=group, valid_at=t, known_at=k), (t, k)
    assert src.entity("anita").id == dst.entity("ANITA").id
    for q, group in QUESTIONS:
        a, b = src.context(q, group_id=group), dst.context(q, group_id=group)
        assert (b.text, b.abstain, b.reason) == (a.text, a.abstain, a.reason), q
        ra, rb = src.recall(q, group_id=group), dst.recall(q, group_id=group)
        assert [(h.id, round(h.score, 9)) for h in rb] == [(h.id, round(h.score, 9)) for h in ra], q

    # importing it again writes nothing
    again = load(dst, text)
    assert set(again.values()) == {0}
    assert dump(dst) == text and dst.stats() == src.stats()
    assert src.check() == []
    src.close()
    assert dst.check() == []
    dst.close()


def test_the_cli_round_trip_keeps_what_was_learned_from_text(models, tmp_path, capsys):
    """The issue's case: an episode and a fact exported and imported into a
    new database come back, and the counts printed are what was written."""
    a, b, dumpfile = str(tmp_path / "a.db"), str(tmp_path / "b.db"), tmp_path / "x.jsonl"
    assert main(["--db", a, "--engine", ENGINE, "add-episode", "I live in Berlin"]) == 0
    assert main(["--db", a, "--engine", ENGINE, "add-fact", "Bob", "likes", "tea"]) == 0
    assert main(["--db", a, "--engine", ENGINE, "export", "-o", str(dumpfile)]) == 0
    capsys.readouterr()
    assert main(["--db", b, "--engine", ENGINE, "import", str(dumpfile)]) == 0
    printed = capsys.readouterr().out
    assert "2 versions restored" in printed and "1 episodes" in printed and "3 entities" in printed
    with Memory(b, engine=ENGINE) as mem:
        assert mem.stats() == {"Entity": 3, "Fact": 2, "Episode": 1}
        assert [f.value for f in mem.current("user")] == ["Berlin"]
        [ep] = mem.episodes()
        assert ep.content == "I live in Berlin" and mem.current("user")[0].episode_id == ep.id
    assert main(["--db", b, "--engine", ENGINE, "import", str(dumpfile)]) == 0
    assert "0 entities, 0 aliases, 0 links, 0 episodes, 0 versions restored" in capsys.readouterr().out
    with Memory(b, engine=ENGINE) as mem:
        assert mem.check() == []


# -- refused files: nothing is written ------------------------------------------------

@pytest.fixture
def small(mem):
    """An export of a memory with an episode-less fact, and its rows."""
    mem.add_fact("Ana", "lives_in", "Porto", valid_from="2021-01-01")
    mem.add_fact("Ana", "lives_in", "Lisbon", valid_from="2023-01-01")
    return [json.loads(line) for line in dump(mem).splitlines()]


def _text(rows) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def _refused(rows, error=InvalidInputError):
    with Memory(engine=ENGINE) as fresh:
        with pytest.raises(error) as exc:
            load(fresh, _text(rows))
        assert fresh.stats() == {"Entity": 0, "Fact": 0, "Episode": 0}
    return str(exc.value)


def test_a_fact_whose_episode_is_missing_is_refused_with_its_line(small):
    line = next(i for i, r in enumerate(small, 1) if r["type"] == "fact")
    small[line - 1]["episode_id"] = "no-such-episode"
    msg = _refused(small)
    assert msg.startswith(f"line {line}: episode_id: episode 'no-such-episode' of group 'default' is in neither "
                          "the file nor the memory")
    assert "nothing was imported" in msg


def test_a_fact_whose_subject_is_missing_is_refused_with_its_line(small):
    rows = [r for r in small if r["type"] not in ("entity", "alias")]
    rows[-1]["rows"]["entity"] = rows[-1]["rows"]["alias"] = 0
    line = next(i for i, r in enumerate(rows, 1) if r["type"] == "fact")
    assert _refused(rows).startswith(f"line {line}: subject_id: entity ")


def test_a_fact_that_names_a_missing_successor_is_refused(small):
    line = next(i for i, r in enumerate(small, 1) if r["type"] == "fact" and r["superseded_by"])
    small[line - 1]["superseded_by"] = "no-such-fact"
    assert _refused(small).startswith(f"line {line}: superseded_by: fact 'no-such-fact'")


def test_a_file_cut_short_is_refused(small):
    assert "no end row" in _refused(small[:-3])
    small[-1]["rows"]["fact"] += 1
    assert "do not match the end row" in _refused(small)


def test_a_repeated_row_is_refused(small):
    fact = next(r for r in small if r["type"] == "fact")
    small.insert(-1, fact)
    small[-1]["rows"]["fact"] += 1
    assert "repeats line" in _refused(small)


def test_an_export_from_a_newer_schema_is_refused(small):
    small[0]["schema_version"] = SCHEMA_VERSION + 1
    msg = _refused(small, SchemaVersionError)
    assert msg.startswith("line 1: schema_version:") and "upgrade midas_graph" in msg


def test_a_file_written_into_the_memory_twice_is_stored_once(mem, small):
    assert load(mem, _text(small))["versions_restored"] == 0  # already there: nothing written
    with Memory(engine=ENGINE) as fresh:
        assert load(fresh, _text(small))["versions_restored"] == 3
        assert load(fresh, _text(small)) == dict.fromkeys(
            ("entities", "aliases", "links", "episodes", "versions_restored", "fact_vectors", "facts_added"), 0)
        assert [f.value for f in fresh.current("ana")] == ["Lisbon"]
        assert fresh.check() == []


def test_an_export_without_a_header_still_imports(small):
    """Exports written before the header row: entities and versions."""
    old = [r for r in small if r["type"] in ("entity", "fact")]
    for r in old:
        r.pop("name_embedding", None)
    with Memory(engine=ENGINE) as fresh:
        assert load(fresh, _text(old))["versions_restored"] == 3
        assert [f.value for f in fresh.current("ana")] == ["Lisbon"]
        assert fresh.check() == []


def test_an_old_export_of_facts_learned_from_text_is_refused_not_half_imported(small):
    """Exports before the header row held no episodes: their facts from text
    name episodes the file does not hold. Refused, with what to do."""
    old = [r for r in small if r["type"] in ("entity", "fact")]
    old[-1]["episode_id"] = "an-episode-never-exported"
    msg = _refused(old)
    assert msg.startswith(f"line {len(old)}: episode_id:") and "export the database again" in msg


def test_writers_wait_while_an_export_is_read(mem):
    """An export is one committed state: from its first row to its last,
    a writer of this process cannot take the write lock."""
    import threading

    mem.add_fact("Ana", "lives_in", "Porto")

    def writer_could_start() -> bool:
        got = []

        def attempt() -> None:  # the lock every write transaction takes; never waits
            ok = mem._store._lock.acquire(blocking=False)
            if ok:
                mem._store._lock.release()
            got.append(ok)

        t = threading.Thread(target=attempt)
        t.start()
        t.join()
        return got[0]

    rows = _io.export_rows(mem)
    assert next(rows)["type"] == "header"
    assert not writer_could_start()
    assert [r["type"] for r in rows][-1] == "end"
    assert writer_could_start()


def test_the_cli_refuses_a_newer_export_on_one_line(small, tmp_path, capsys):
    small[0]["schema_version"] = SCHEMA_VERSION + 1
    path = tmp_path / "new.jsonl"
    path.write_text(_text(small))
    assert main(["--db", str(tmp_path / "n.db"), "--engine", ENGINE, "import", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: line 1: schema_version:") and "upgrade" in err


def _no_episode_key(row: dict) -> dict:
    """An export row without an episode's stored key (it depends on which
    group of the file took the id first; the id is the same)."""
    return {k: v for k, v in row.items() if not (row["type"] == "episode" and k == "key")}


def test_a_group_exported_alone_imports_alone_and_the_groups_make_the_whole(models, clock):
    """export_rows(mem, group_id=...) (a rebalance moves a group with it,
    docs/scaling.md): only that group's rows, each naming only rows of the
    group, importable on its own; the two groups imported one after the
    other give back the whole database."""
    src = Memory(clock=clock, engine=ENGINE, embedder=models[0], nli=models[1])
    build(src, clock)
    whole = [json.loads(line) for line in dump(src).splitlines()]
    parts = {g: list(_io.export_rows(src, group_id=g)) for g in ("default", "other")}
    for g, rows in parts.items():
        assert {r["group_id"] for r in rows if "group_id" in r} == {g}
        alone = Memory(engine=ENGINE)
        _io.import_rows(alone, enumerate(rows, 1))
        assert alone.check() == [] and alone.stats() == src.stats(group_id=g)
        assert list(map(_no_episode_key, _io.export_rows(alone, group_id=g))) == list(map(_no_episode_key, rows))
        for name in (e.name for e in src.entities(group_id=g)):
            assert alone.history(name, group_id=g) == src.history(name, group_id=g)
        alone.close()
    both = Memory(engine=ENGINE)
    for g in ("other", "default"):  # in either order: "other" first takes the id ep-1 for itself
        _io.import_rows(both, enumerate(parts[g], 1))
    key = lambda r: (r["type"], r.get("group_id"), r.get("id") or r.get("key") or r.get("vid", ""))  # noqa: E731
    strip = lambda rows: sorted((_no_episode_key(r) for r in rows  # noqa: E731
                                 if r["type"] not in ("header", "end")), key=lambda r: (key(r), json.dumps(r)))
    assert strip(_io.export_rows(both)) == strip(whole)
    assert both.stats() == src.stats() and both.check() == []
    with pytest.raises(InvalidInputError, match="^group_id"):
        list(_io.export_rows(src, group_id=""))
    both.close()
    src.close()
