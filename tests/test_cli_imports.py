"""A CLI command that needs no model imports none of the heavy machinery
(spaCy, onnxruntime, tokenizers, bm25s, numpy, matplotlib, the MCP SDK, our
own ranking and extraction code): each runs in a fresh interpreter, as a
user's shell runs it, and reports what it imported. Its speed is measured by
eval/bench_cli.py, not here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ENGINE

pytestmark = pytest.mark.engine

ROOT = Path(__file__).resolve().parents[1]
# pydantic is not listed: typer (0.29) coerces every CLI parameter through it.
HEAVY = ("spacy", "onnxruntime", "tokenizers", "bm25s", "Stemmer", "numpy", "matplotlib", "mcp", "torch",
         "transformers", "midas_graph._recall", "midas_graph._context",
         "midas_graph._extract", "midas_graph._episodes", "midas_graph._timeline", "midas_graph.models",
         "midas_graph._mcp", "midas_graph.graphiti", "ray", "midas_graph.cluster")

PROBE = """
import json, sys
from midas_graph.cli import main
heavy = {heavy!r}
code = main(sys.argv[1:])
loaded = sorted(m for m in heavy if m in sys.modules)
print("\\nPROBE " + json.dumps({{"code": code, "loaded": loaded}}))
"""


def run(db: str, *args: str) -> tuple[int, list[str], str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), "--db", db, "--engine", ENGINE, *args],
        capture_output=True, text=True, cwd=str(ROOT),
    )
    line = [x for x in out.stdout.splitlines() if x.startswith("PROBE ")]
    assert line, out.stderr
    report = json.loads(line[-1][len("PROBE "):])
    return report["code"], report["loaded"], out.stdout


def test_model_free_commands_import_no_heavy_module(tmp_path):
    db = str(tmp_path / "m.db")
    commands = [
        ["add-fact", "Alice", "lives_in", "Berlin", "--valid-from", "2020-01-01"],
        ["add-fact", "Alice", "lives_in", "Lisbon", "--valid-from", "2023-01-01", "--json"],
        ["alias", "Alice", "Ally"],
        ["as-of", "ally", "--valid-at", "2021-06-01"],
        ["as-of", "Alice", "--json"],
        ["current", "Alice"],
        ["history", "Alice"],
        ["history", "Alice", "--json"],
        ["stats"],
        ["export", "-o", str(tmp_path / "dump.jsonl")],
    ]
    from midas_graph.cli import app

    names = {c.name for c in app.registered_commands}
    if "check" in names:  # the memory's fsck, where it exists
        commands.append(["check"])
    for args in commands:
        code, loaded, out = run(db, *args)
        assert code == 0, (args, out)
        assert loaded == [], f"midas-graph {' '.join(args)} imported {loaded}"

    fid = json.loads(run(db, "as-of", "Alice", "--json")[2].split("\nPROBE ")[0])[0]["id"]
    code, loaded, out = run(db, "retract", fid, "--reason", "a visit")
    assert code == 0 and loaded == [], (out, loaded)
    code, loaded, out = run(str(tmp_path / "copy.db"), "import", str(tmp_path / "dump.jsonl"))
    assert code == 0 and loaded == [], (out, loaded)


def test_the_probe_sees_what_a_model_command_imports(tmp_path):
    """The probe itself works: a command that does need the models (recall
    ranks with MiniLM and BM25) is seen loading them."""
    db = str(tmp_path / "m.db")
    assert run(db, "add-fact", "Alice", "lives_in", "Berlin")[0] == 0
    code, loaded, _ = run(db, "recall", "where does Alice live", "-k", "1")
    assert code == 0
    assert {"bm25s", "numpy", "onnxruntime", "midas_graph._recall"} <= set(loaded)


def test_the_package_still_exports_everything():
    """The lazy names resolve, and ``import midas_graph`` alone pulls in none
    of the ranking code."""
    code = ("import sys, midas_graph; before = sorted(m for m in {heavy!r} if m in sys.modules); "
            "from midas_graph import Context, ContextItem, Hit, plot_timeline; "
            "assert all(hasattr(midas_graph, n) for n in midas_graph.__all__); "
            "assert set(midas_graph.__all__) <= set(dir(midas_graph)); print(before)").format(heavy=HEAVY)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
