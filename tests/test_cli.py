"""The CLI mirrors the library: exit codes, one-line errors, JSONL round trip."""

from __future__ import annotations

import json

import pytest
from conftest import ENGINE

from midas_graph.cli import main

pytestmark = pytest.mark.engine


@pytest.fixture
def cli(db_path, capsys):
    def run(*args: str) -> tuple[int, str, str]:
        code = main(["--db", db_path, "--engine", ENGINE, *args])
        cap = capsys.readouterr()
        return code, cap.out, cap.err

    return run


def test_add_as_of_history(cli):
    assert cli("add-fact", "Alice", "lives in", "Berlin", "--valid-from", "2020-01-01")[0] == 0
    code, out, _ = cli("add-fact", "alice", "lives_in", "Lisbon", "--valid-from", "2023-01-01")
    assert code == 0 and "superseded" in out
    code, out, _ = cli("as-of", "ALICE", "--valid-at", "2021-06-01", "--json")
    assert code == 0 and [f["value"] for f in json.loads(out)] == ["Berlin"]
    code, out, _ = cli("history", "Alice", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 3
    assert {r["status"] for r in rows} == {"revised", "superseded", "current"}
    code, out, _ = cli("history", "Alice")
    assert code == 0 and "Lisbon" in out and "superseded" in out
    code, out, _ = cli("add-fact", "Svc", "latency_ms", "250", "--type", "int", "--json")
    assert json.loads(out)["value"] == 250


def test_errors_are_one_line_and_exit_1(cli):
    code, out, err = cli("as-of", "Alice", "--valid-at", "not-a-date")
    assert code == 1 and err.strip() == "error: valid_at: cannot parse 'not-a-date' as an ISO-8601 date or datetime"
    code, _, err = cli("retract", "missing-id")
    assert code == 1 and err.count("\n") == 1 and "missing-id" in err
    code, _, err = cli("add-fact", "Alice", "lives_in", "   ")
    assert code == 1 and "value" in err and "Traceback" not in err


def test_usage_errors_exit_2(cli):
    assert cli("add-fact", "Alice")[0] == 2
    assert cli("no-such-command")[0] == 2
    assert cli("add-fact", "A", "age", "old", "--type", "int")[0] == 2


def test_export_import_round_trip(cli, tmp_path, capsys):
    cli("add-fact", "Alice", "lives_in", "Berlin", "--valid-from", "2020-01-01")
    cli("add-fact", "Alice", "lives_in", "Lisbon", "--valid-from", "2023-01-01")
    cli("add-fact", "Alice", "lives_in", "Porto", "--valid-from", "2021-01-01")
    cli("alias", "Alice", "Ally")
    code, first, _ = cli("export")
    assert code == 0
    dump = tmp_path / "dump.jsonl"
    dump.write_text(first)
    other = str(tmp_path / "other.db")
    assert main(["--db", other, "--engine", ENGINE, "import", str(dump)]) == 0
    capsys.readouterr()
    assert main(["--db", other, "--engine", ENGINE, "export"]) == 0
    second = capsys.readouterr().out
    assert second == first
    assert main(["--db", other, "--engine", ENGINE, "as-of", "ally", "--json"]) == 0
    assert [f["value"] for f in json.loads(capsys.readouterr().out)] == ["Lisbon"]
    # importing the same export again changes nothing
    assert main(["--db", other, "--engine", ENGINE, "import", str(dump)]) == 0
    assert "0 versions restored" in capsys.readouterr().out


def test_import_plain_rows_and_bad_lines(cli, tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        '{"subject": "Bob", "attribute": "employer", "value": "Acme", "valid_from": "2020-01-01"}\n'
        "\n"
        '{"subject": "Bob", "attribute": "employer", "value": "Globex", "valid_from": "2022-01-01"}\n'
    )
    code, out, _ = cli("import", str(rows))
    assert code == 0 and "2 facts added" in out
    code, out, _ = cli("current", "bob", "--json")
    assert [f["value"] for f in json.loads(out)] == ["Globex"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"subject": "Bob", "attribute": "age", "value": 3}\n{oops\n')
    code, _, err = cli("import", str(bad))
    assert code == 1 and "line 2" in err or "bad.jsonl:2" in err
    bad.write_text('{"subject": "Bob", "attribute": "age", "value": 3}\n{"subject": "Bob", "attribute": "", "value": 4}\n')
    code, _, err = cli("import", str(bad))
    assert code == 1 and "line 2: attribute" in err  # the file's line, not the row's index
    code, out, _ = cli("history", "Bob", "--json")
    assert len(json.loads(out)) == 2  # nothing from the bad files was written


def test_typed_demo_runs(capsys):
    assert main(["demo", "--facts"]) == 0
    out = capsys.readouterr().out
    assert "as believed on 2024-06-02? → Porto" in out
    assert "as believed on 2024-08-01? → Lisbon" in out
    assert "late arrival" in out


def test_conversation_demo_runs(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "as believed on 2024-03-10T10:01? → Porto" in out
    assert "as believed now? → Lisbon" in out
    assert "now → 2024-05-06" in out
    assert "retracted: correction" in out and "ended: cease" in out


def test_episode_recall_and_context_commands(cli):
    code, out, _ = cli("add-episode", "I live in Berlin and I work at Acme.", "--speaker", "Dana",
                       "--reference-time", "2024-01-10")
    assert code == 0 and "Dana.lives_in = Berlin" in out
    code, out, _ = cli("add-episode", "We moved to Lisbon last week!", "--speaker", "Dana",
                       "--reference-time", "2024-03-08", "--json")
    assert code == 0 and json.loads(out)["superseded"][0]["value"] == "Berlin"
    code, out, _ = cli("recall", "Where does Dana live?", "--json")
    assert code == 0 and json.loads(out)[0]["text"]
    from midas_graph._recall import DATE_WEIGHT

    code, out, _ = cli("recall", "What did Dana say in March 2024?")  # the table names the bonuses
    assert code == 0 and "bonus" in out and f"date +{DATE_WEIGHT:g}" in out
    code, out, _ = cli("context", "Where does Dana live?", "--budget", "128", "--json")
    ctx = json.loads(out)
    assert code == 0 and not ctx["abstain"] and ctx["tokens"] <= 128 and "Lisbon" in ctx["text"]
    code, out, err = cli("context", "Where does Dana live?")
    assert code == 0 and "Lisbon" in out and err.startswith("answered: ")   # and why
    code, out, err = cli("context", "What is Dana's favorite color?")
    assert code == 0 and "Not known" in out and "abstained" in err
    assert cli("context", "x", "--budget", "3")[0] == 2


def test_export_of_a_damaged_database_exits_1_and_leaves_no_file(cli, db_path, tmp_path):
    for city, year in (("Berlin", 2019), ("Lisbon", 2021)):
        assert cli("add-fact", "Ann", "lives_in", city, "--valid-from", f"{year}-01-01")[0] == 0
    out = tmp_path / "dump.jsonl"
    assert cli("export", "-o", str(out))[0] == 0 and out.read_text().count("\n") > 3
    out.unlink()
    from midas_graph import Memory

    with Memory(db_path, engine=ENGINE) as mem:  # one row altered behind the store's back
        mem._store.q("MATCH (f:Fact) WHERE f.value = 'Berlin' SET f.value = 'Bern'")
    code, _, err = cli("export", "-o", str(out))
    assert code == 1 and "damaged" in err.lower() and err.count("\n") == 1
    assert not out.exists() and list(tmp_path.glob(".export-*")) == []
