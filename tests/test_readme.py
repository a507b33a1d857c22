"""Every README snippet runs, and says what it does.

The README's fenced blocks run in order in one temporary directory:

* ```python blocks in one namespace (top-level ``await`` allowed, as in a
  notebook). A one-line statement whose comment states its result is
  checked: a Python literal (``# ['Lisbon']``, ``# True: ...``), or a
  ``Fact(key='value', ...)`` pattern where ``...`` stands for anything;
  a comment with a ``<placeholder>`` is not checked.
* ```sh blocks line by line through a shell, with the installed
  ``midas-graph`` on the PATH: every command exits 0 without a traceback.
  ``<fact-id>`` becomes the id of Alice's current fact, ``[...]``
  optional parts are left out; servers, ``make`` and the demo are not run
  here (other tests run them).
* ```json blocks parse, and a ``midas-graph`` command they name exists.
"""

from __future__ import annotations

import ast
import asyncio
import io
import json
import os
import re
import subprocess
import sys
import tokenize
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from conftest import ENGINE

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w*)\s*$")
NOT_RUN = ("make ", "midas-graph serve-mcp", "midas-graph demo")


def blocks(text: str) -> list[tuple[str, int, str]]:
    """``(language, line number of the first code line, code)`` of each fenced block."""
    out, lang, start, buf = [], None, 0, []
    for n, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m and lang is None:
            lang, start, buf = m.group(1) or "text", n + 1, []
        elif line.strip() == "```" and lang is not None:
            out.append((lang, start, "\n".join(buf) + "\n"))
            lang = None
        elif lang is not None:
            buf.append(line)
    assert lang is None, "an unclosed fence in README.md"
    return out


# -- python ------------------------------------------------------------------------------

def _fact_matches(fact, pairs: list[tuple[str, str]]) -> bool:
    for key, want in pairs:
        got = getattr(fact, key, None)
        shown = {str(got)} | ({got.isoformat(), got.date().isoformat()} if hasattr(got, "isoformat") else set())
        pattern = ".*".join(re.escape(p) for p in want.split("..."))
        if not any(re.fullmatch(pattern, s, re.S) for s in shown):
            return False
    return True


def check(value, comment: str, where: str, shown: bool):
    """Compare ``value`` with what the README's comment says it is."""
    if shown:
        print(value)
    text = comment.lstrip("#").strip()
    if "<" in text:  # a placeholder: "('<id of Berlin>',)"
        return
    for candidate in (text, text.split(":", 1)[0]):
        try:
            expected = ast.literal_eval(candidate)
        except (ValueError, SyntaxError):
            continue
        assert value == expected, f"README {where}: got {value!r}, the comment says {candidate}"
        return
    if re.match(r"\[?Fact\(", text):
        facts = value if isinstance(value, list) else [value]
        wanted = re.findall(r"Fact\(([^()]*(?:\([^()]*\)[^()]*)*)\)", text)
        assert len(facts) == len(wanted), f"README {where}: {len(facts)} facts, the comment shows {len(wanted)}"
        for spec in wanted:
            pairs = [(k, q if q else u) for k, q, u in re.findall(r"(\w+)=(?:'((?:[^'\\]|\\.)*)'|([^,\s)]+))", spec)]
            assert any(_fact_matches(f, pairs) for f in facts), f"README {where}: no fact is {spec}: {facts}"


def instrument(code: str, first_line: int) -> str:
    """Each one-line expression statement with a trailing comment becomes a
    call of :func:`check` (a ``print(x)`` still prints ``x``)."""
    tree = ast.parse(code)
    single = {node.lineno: node for node in ast.walk(tree)
              if isinstance(node, ast.Expr) and node.lineno == node.end_lineno}
    lines = code.splitlines()
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type != tokenize.COMMENT or tok.start[0] not in single:
            continue
        node = single[tok.start[0]]
        call = node.value
        shown = (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print"
                 and len(call.args) == 1 and not call.keywords)
        expr = ast.get_source_segment(code, call.args[0] if shown else call)
        indent = lines[node.lineno - 1][: node.col_offset]
        where = f"line {first_line + node.lineno - 1}"
        lines[node.lineno - 1] = f"{indent}__check__({expr}, {tok.string!r}, {where!r}, {shown})"
    return "\n".join(lines) + "\n"


def run_python(code: str, first_line: int, ns: dict) -> str:
    source = instrument(code, first_line)
    compiled = compile(source, f"README.md:{first_line}", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    out = io.StringIO()
    with redirect_stdout(out):
        result = eval(compiled, ns)  # noqa: S307 - the README's own code
        if asyncio.iscoroutine(result):
            asyncio.run(result)
    return out.getvalue()


# -- sh ----------------------------------------------------------------------------------

def shell_lines(code: str) -> list[str]:
    out = []
    for line in code.splitlines():
        line = re.sub(r"\s+#\s.*$", "", line).strip()  # the comment
        line = re.sub(r"\s*\[[^\]]*\]", "", line)       # optional parts: [--json]
        if line and not line.startswith(NOT_RUN):
            out.append(line)
    return out


def run_sh(line: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    if "<fact-id>" in line:  # the README retracts Alice's move to Lisbon: her current belief
        current = subprocess.run(["midas-graph", "as-of", "Alice", "--json"], cwd=cwd, env=env,
                                 capture_output=True, text=True, check=True)
        line = line.replace("<fact-id>", json.loads(current.stdout)[0]["id"])
    r = subprocess.run(line, shell=True, cwd=cwd, env=env, capture_output=True, text=True)
    assert r.returncode == 0 and "Traceback" not in r.stderr, f"README: `{line}` exited {r.returncode}:\n{r.stderr}"
    return r


def test_every_readme_snippet_runs(tmp_path, monkeypatch, models):
    monkeypatch.chdir(tmp_path)
    bin_dir = Path(sys.executable).parent
    if not (bin_dir / "midas-graph").exists():
        pytest.skip("the midas-graph console script is not installed next to this interpreter")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "MIDAS_GRAPH_ENGINE": ENGINE}
    env.pop("MIDAS_GRAPH_DB", None)
    ns: dict = {"__check__": check, "__name__": "__readme__"}
    printed: list[str] = []
    ran = {"python": 0, "sh": 0, "json": 0}
    cli_out: list[str] = []
    for lang, first, code in blocks(README.read_text(encoding="utf-8")):
        if lang == "python":
            printed.append(run_python(code, first, ns))
            ran["python"] += 1
        elif lang == "sh":
            for line in shell_lines(code):
                cli_out.append(f"$ {line}\n{run_sh(line, tmp_path, env).stdout}")
                ran["sh"] += 1
        elif lang == "json":
            cfg = json.loads(code)
            from midas_graph.cli import app

            commands = {c.name for c in app.registered_commands}
            for server in cfg.get("mcpServers", {}).values():
                if server["command"] == "midas-graph":
                    assert server["args"][0] in commands
            ran["json"] += 1
    assert ran["python"] >= 3 and ran["sh"] >= 10 and ran["json"] >= 1, ran
    # the history example prints why the retracted version ended (its expire_reason)
    assert "retracted: she only visited" in printed[0], printed[0]
    # ... and so does the CLI's timeline of versions
    history = next(out for out in cli_out if out.startswith("$ midas-graph history Alice"))
    assert "she only visited" in history, history
    assert (tmp_path / "alice.png").stat().st_size > 0


def test_the_checker_catches_a_wrong_comment():
    """A README line whose comment misstates its result fails the test."""
    with pytest.raises(AssertionError, match="the comment says"):
        check(["Lisbon"], "# ['Berlin']", "line 1", False)
    with pytest.raises(AssertionError, match="no fact is"):
        from midas_graph import Memory

        with Memory(engine=ENGINE) as mem:
            f = mem.add_fact("Dana", "lives_in", "Porto", valid_from="2024-02-26")
        check([f], "# [Fact(subject='Dana', value='Lisbon', valid_from=2024-02-26...)]", "line 2", False)
    check([f], "# [Fact(subject='Dana', value='Porto', valid_from=2024-02-26...)]", "line 3", False)
    check(f, "# Fact(... reason='ass...')", "line 4", False)
    code = "x = [1]\nprint(x)  # [2]\n"
    with pytest.raises(AssertionError, match="README line 11"):
        run_python(code, 10, {"__check__": check})
