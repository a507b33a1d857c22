"""compact(before=T), the one lossy operation (docs/forgetting.md): versions
whose transaction time ended at or before T are deleted; answers at
known_at >= T are unchanged, answers before it are refused with
HistoryCompactedError; check() stays clean; export/import carry the horizon."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from conftest import ENGINE, StepClock

from midas_graph import HistoryCompactedError, InvalidInputError, Memory, MidasError, _io

pytestmark = pytest.mark.engine


def _build(mem, clock):
    """Ana moves three times, Bo's employer is retracted, then restated; a
    multi-valued fact stays. The clock steps a minute per call."""
    ana = [mem.add_fact("Ana", "lives_in", c, valid_from=f"202{i}-01-01") for i, c in
           enumerate(["Berlin", "Lisbon", "Porto", "Madrid"])]
    bo = mem.add_fact("Bo", "employer", "Acme", valid_from="2020-01-01")
    mem.retract(bo.id)
    mem.add_fact("Bo", "employer", "Globex", valid_from="2021-01-01")
    mem.add_fact("Ana", "speaks", "Portuguese", valid_from="2022-01-01")
    return ana


def _answers(mem, knowns):
    out = []
    for who in ("Ana", "Bo"):
        for t in (None, "2020-06-01", "2021-06-01", "2022-06-01", "2023-06-01"):
            for k in knowns:
                out.append(sorted(f.vid for f in mem.as_of(who, valid_at=t, known_at=k)))
    return out


def _history(mem, horizon=None):
    return [f.to_dict() for who in ("Ana", "Bo") for f in mem.history(who)
            if horizon is None or f.expired_at is None or f.expired_at > horizon]


def test_compact_drops_only_what_no_later_answer_needs(mem, clock):
    _build(mem, clock)
    times = [f.recorded_at for who in ("Ana", "Bo") for f in mem.history(who)]
    horizon = sorted(set(times))[len(set(times)) // 2]  # half way through the writes
    later = [None, horizon, *sorted({t for t in times if t > horizon})]
    before_answers, before_history = _answers(mem, later), _history(mem, horizon)
    n_before = mem.stats()["Fact"]
    dropped = [f for who in ("Ana", "Bo") for f in mem.history(who)
               if f.expired_at is not None and f.expired_at <= horizon]
    assert dropped  # the scenario has something to compact

    dry = mem.compact(before=horizon, dry_run=True)
    assert dry["versions_dropped"] == len(dropped) and mem.stats()["Fact"] == n_before
    assert mem.compaction_horizon() is None

    report = mem.compact(before=horizon)
    assert report["versions_dropped"] == len(dropped)
    assert mem.stats()["Fact"] == n_before - len(dropped)
    assert mem.compaction_horizon() == horizon
    assert _answers(mem, later) == before_answers
    assert _history(mem) == before_history
    assert mem.check() == []
    # below the horizon: a clear error, never a wrong answer
    with pytest.raises(HistoryCompactedError) as err:
        mem.as_of("Ana", known_at=horizon - dt.timedelta(seconds=1))
    assert isinstance(err.value, MidasError) and err.value.horizon == horizon
    assert "compaction horizon" in str(err.value)
    with pytest.raises(HistoryCompactedError):
        mem.context("Where does Ana live?", known_at=horizon - dt.timedelta(days=1))
    # another group is untouched
    assert mem.as_of("Ana", known_at="2000-01-01", group_id="other") == []
    # versions() of a belief whose first versions went
    for f in mem.history("Ana"):
        vs = mem.versions(f.id)
        assert [v.version for v in vs] == list(range(vs[0].version, vs[-1].version + 1))
    # the horizon never moves back; the future cannot be compacted
    mem.compact(before=horizon - dt.timedelta(days=1))
    assert mem.compaction_horizon() == horizon
    with pytest.raises(InvalidInputError, match="^before:"):
        mem.compact(before=mem.now() + dt.timedelta(days=1))
    assert mem.check() == []


def test_compact_survives_reopen_and_export_import(db_path, tmp_path):
    clock = StepClock()
    with Memory(db_path, clock=clock, engine=ENGINE) as mem:
        _build(mem, clock)
        horizon = mem.now()  # everything expired so far goes
        mem.add_fact("Ana", "lives_in", "Rome", valid_from="2024-01-01")
        report = mem.compact(before=horizon)
        assert report["versions_dropped"] > 0 and report["beliefs_dropped"] >= 1  # Acme was retracted
        answers = _answers(mem, [None, horizon])
        history = _history(mem)
        out = io.StringIO()
        _io.write_jsonl(_io.export_rows(mem), out)
    with Memory(db_path, clock=StepClock(), engine=ENGINE, read_only=True) as again:
        assert again.compaction_horizon() == horizon
        with pytest.raises(HistoryCompactedError):
            again.as_of("Ana", known_at="2020-01-01")
    header = json.loads(out.getvalue().splitlines()[0])
    assert header["format_version"] == 2 and header["compacted"] == {"default": horizon.isoformat()}
    with Memory(str(tmp_path / "copy.db"), clock=StepClock(), engine=ENGINE) as copy:
        _io.import_rows(copy, _io.read_jsonl(io.StringIO(out.getvalue()), "dump.jsonl"))
        assert copy.compaction_horizon() == horizon
        assert copy.check() == []
        assert _answers(copy, [None, horizon]) == answers
        assert _history(copy) == history
        with pytest.raises(HistoryCompactedError):
            copy.as_of("Ana", known_at=horizon - dt.timedelta(minutes=1))


def test_an_uncompacted_export_stays_at_format_1(mem, clock):
    _build(mem, clock)
    out = io.StringIO()
    _io.write_jsonl(_io.export_rows(mem), out)
    header = json.loads(out.getvalue().splitlines()[0])
    assert header["format_version"] == 1 and "compacted" not in header


def test_remove_episode_before_the_horizon_is_refused(models_mem):
    mem = models_mem
    old = mem.add_episode("I live in Berlin.", speaker="Ana").episode
    mem.add_episode("I moved to Lisbon.", speaker="Ana")
    mem.compact(before=mem.now())
    with pytest.raises(HistoryCompactedError, match="cannot be undone"):
        mem.remove_episode(old.id)
    assert mem.check() == []
    late = mem.add_episode("I work at Siemens.", speaker="Ana").episode
    mem.remove_episode(late.id)  # after the horizon: the undo is whole
    assert mem.check() == []
