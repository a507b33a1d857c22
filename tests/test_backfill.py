"""The bulk backfill without Ray (issue 20 item 3): lines checked, each group
in time order, resumable with nothing applied twice; the CLI `ingest`. The
same on Ray: tests/test_cluster.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import ENGINE
from midas_graph import InvalidInputError, Memory, _backfill, _io
from midas_graph._shards import Layout, shard_of
from midas_graph.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _two_people(path: Path) -> Path:
    """The bundled conversation told by Sam and by Ana (two groups), the
    file's lines in reverse: the backfill puts each group in time order."""
    base = [json.loads(x) for x in (ROOT / "midas_graph/sample/conversation.jsonl").read_text().splitlines()]
    lines = [{"group_id": g, "speaker": who if t["speaker"] == "Sam" else t["speaker"],
              "time": t["reference_time"], "content": t["content"].replace("Sam", who)}
             for g, who in (("u-sam", "Sam"), ("u-ana", "Ana")) for t in base]
    path.write_text("".join(json.dumps(x) + "\n" for x in reversed(lines)))
    return path


@pytest.mark.engine
def test_a_stopped_run_resumed_equals_one_run(tmp_path, models):
    turns = _backfill.read(_two_people(tmp_path / "e.jsonl"))
    with Memory(tmp_path / "one.db", engine=ENGINE) as mem:
        assert _backfill.ingest(mem, turns, progress=False)["applied"] == 48
        expected = _backfill.canonical(_io.export_rows(mem))
        assert [f.value for f in mem.current("Ana", "lives_in", group_id="u-ana")] == \
               [f.value for f in mem.current("Sam", "lives_in", group_id="u-sam")] != []
    with Memory(tmp_path / "two.db", engine=ENGINE) as mem:
        # stopped where the next turn depends on the ones before it (the last question asked):
        # without rebuilding that state the resumed run stores another importance (checked)
        with pytest.raises(_backfill.BackfillStopped, match="after 15 "):
            _backfill.ingest(mem, turns, batch=8, progress=False, stop_after=15)
    with Memory(tmp_path / "two.db", engine=ENGINE) as mem:  # another Memory: a new process's state
        report = _backfill.ingest(mem, turns, batch=8, progress=False)
        assert (report["applied"], report["skipped"], report["primed"]) == (33, 15, 15)
        got = _backfill.canonical(_io.export_rows(mem))
        assert got == expected, "\n".join(_backfill.diff(expected, got))
        again = _backfill.ingest(mem, turns, progress=False)  # all stored: nothing applied, nothing parsed
        assert (again["applied"], again["skipped"], again["primed"]) == (0, 48, 0)
        assert _backfill.canonical(_io.export_rows(mem)) == expected


def test_cli_ingest_stops_resumes_and_shards(tmp_path, models, capsys):
    path = _two_people(tmp_path / "e.jsonl")
    db = str(tmp_path / "m.db")
    assert main(["--db", db, "--engine", ENGINE, "ingest", str(path), "--stop-after", "5"]) == 1
    assert "stopped after 5 acknowledged episode(s)" in capsys.readouterr().err
    assert main(["--db", db, "--engine", ENGINE, "ingest", str(path)]) == 0
    assert capsys.readouterr().out.startswith("43 episode(s) applied, 5 already stored")
    assert main(["--engine", ENGINE, "ingest", str(path), "--dir", str(tmp_path / "sh"), "--shards", "2",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["applied"] == 48
    layout = Layout.open(tmp_path / "sh")
    for g in ("u-sam", "u-ana"):
        with Memory(layout.path(shard_of(g, 2)), engine=ENGINE) as mem:
            assert mem.stats(group_id=g)["Episode"] == 24
    assert main(["ingest", str(path), "--ray"]) == 2  # a Ray ingest needs --dir
    assert main(["ingest", str(path), "--shards", "2"]) == 2
    assert "give its --dir" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"group_id": "g", "speaker": "a", "time": "2024-01-01", "content": "hi"}\n{"group_id": "g"}\n')
    assert main(["--db", db, "ingest", str(bad)]) == 1
    assert capsys.readouterr().err.strip() == "error: line 2: content: is required"


def test_backfill_lines_are_checked_with_line_and_field(tmp_path):
    good = {"group_id": "g", "speaker": "Ann", "time": "2024-01-01", "content": "I live in Oslo."}
    cases = [
        ("not json", r"^line 2: not JSON"),
        (json.dumps([1]), r"^line 2: expected a JSON object"),
        (json.dumps({**good, "colour": 1}), r"^line 2: colour: unknown field"),
        (json.dumps({k: v for k, v in good.items() if k != "group_id"}), r"^line 2: group_id: is required"),
        (json.dumps({k: v for k, v in good.items() if k != "time"}), r"^line 2: reference_time: is required"),
        (json.dumps({**good, "time": "yesterday-ish"}), r"^line 2: time: "),
        (json.dumps({**good, "content": "  "}), r"^line 2: content: must not be empty"),
        (json.dumps({**good, "id": "x"}) + "\n" + json.dumps({**good, "id": "x"}), r"^line 3: id: 'x' is also"),
    ]
    for bad, message in cases:
        path = tmp_path / "bad.jsonl"
        path.write_text(json.dumps(good) + "\n" + bad + "\n")
        with pytest.raises(InvalidInputError, match=message):
            _backfill.read(path)
    path.write_text(json.dumps(good) + "\n\n" + json.dumps({**good, "reference_time": "2024-02-01", "time": None}))
    with pytest.raises(InvalidInputError, match="^line 3: time: give reference_time or time"):
        _backfill.read(path)
    # the same file gives the same ids; a line's own id is kept
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "id": "mine"}) + "\n")
    a, b = _backfill.read(path), _backfill.read(path)
    assert [t.item.episode_id for t in a] == [t.item.episode_id for t in b]
    assert a[1].item.episode_id == "mine" and a[0].item.episode_id.startswith("bf-")
