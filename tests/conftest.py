"""Shared fixtures. The engine under test comes from MIDAS_GRAPH_ENGINE
(default ladybug); `make test` runs the engine-marked tests once per engine,
each in its own process (the two engines cannot share one)."""

from __future__ import annotations

import datetime as dt
import os

import pytest

from midas_graph import Memory

ENGINE = os.environ.get("MIDAS_GRAPH_ENGINE", "ladybug")

# No test depends on timing: hypothesis's per-example deadline (200 ms by
# default) would fail a property test on a loaded machine.
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("midas", deadline=None)
_hypothesis_settings.load_profile("midas")
UTC = dt.timezone.utc


def cur(mem, subject, attribute=None) -> list[str]:
    """The values a subject holds now (of one attribute, or of all), sorted, as text."""
    return sorted(str(f.value) for f in mem.current(subject, attribute))


class StepClock:
    """A deterministic clock: each call returns the next instant."""

    def __init__(self, start: str = "2025-01-01T00:00:00+00:00", step: dt.timedelta = dt.timedelta(minutes=1)):
        self.t = dt.datetime.fromisoformat(start)
        self.step = step

    def __call__(self) -> dt.datetime:
        self.t += self.step
        return self.t

    def set(self, when: str | dt.datetime) -> None:
        self.t = dt.datetime.fromisoformat(when) if isinstance(when, str) else when
        self.step = dt.timedelta(0)


@pytest.fixture
def clock() -> StepClock:
    return StepClock()


@pytest.fixture
def mem(clock):
    m = Memory(clock=clock, engine=ENGINE)
    yield m
    m.close()


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "memory.db")


def d(s: str) -> dt.datetime:
    """'2024-05-03' -> aware UTC midnight."""
    return dt.datetime.fromisoformat(s).replace(tzinfo=UTC)


#: The columns each schema version added: (table, column).
_ADDED_IN = {
    2: [("Fact", "expired_by_episode")],
    3: [("Episode", "sentence_embeddings")],
    4: [("Fact", "digest"), ("Fact", "expiry_digest"), ("Episode", "digest"), ("Entity", "digest"),
        ("Alias", "digest")],
    6: [("Episode", c) for c in ("importance", "content_score", "structural_score", "cold_at", "cold_reason",
                                 "cold_digest")],
}
#: The tables each schema version added.
_TABLES_ADDED_IN = {5: ["Link"], 7: ["GroupGeneration"]}


def as_schema(db_path: str, version: int) -> None:
    """Make a database look as schema ``version`` left it: the columns later
    versions added are dropped (so their rows read back null once the
    columns are added again) and ``version`` is in Meta."""
    from midas_graph._store import Store

    store = Store(db_path, ENGINE)
    store.schema_version = version  # its commits now write as that version did (no group generations before 7)
    dropped = [(t, c) for v, added in _ADDED_IN.items() if v > version for t, c in added]
    with store.transaction():
        if 4 <= version < 6:  # episodes as schema 4 and 5 sealed them (tag episode/1, no importance)
            from midas_graph import _digest

            for columns, rows in store.scan_for_digest("Episode"):
                cols = {name: [r[i] for r in rows] for i, name in enumerate(columns)}
                old = _digest.digests("episode/1", _digest.EPISODE_FIELDS[:-3], cols)
                store.q("UNWIND $rows AS r MATCH (n:Episode {id: r.k}) SET n.digest = r.d",
                        {"rows": [{"k": k, "d": x} for k, x in zip(cols["id"], old)]})
        for table, column in dropped:
            store.q(f"ALTER TABLE {table} DROP {column}")
        for v, tables in _TABLES_ADDED_IN.items():
            for table in tables if v > version else ():
                store.q(f"DROP TABLE {table}")
        store.set_meta("schema_version", str(version))
    for table, column in dropped:
        assert column not in {r[1] for r in store.q(f"CALL table_info('{table}') RETURN *")}
    store.close()


# --- models fixtures ---
# Session-scoped: each real model loads once per test session. Maintained with
# midas_graph/models; keep this block self-contained.
@pytest.fixture(scope="session")
def embedder():
    from midas_graph.models import default_embedder

    return default_embedder().load()


@pytest.fixture(scope="session")
def nli():
    from midas_graph.models import default_nli

    return default_nli().load()


@pytest.fixture(scope="session")
def spacy_nlp():
    from midas_graph.models import load_spacy

    return load_spacy()
@pytest.fixture(scope="session")
def models():
    """The embedder and NLI model, loaded once (spaCy too)."""
    from midas_graph.models import default_embedder, default_nli, load_spacy

    load_spacy()
    return default_embedder(), default_nli()


@pytest.fixture
def models_mem(models, clock):
    """An in-memory Memory on the step clock, with the shared models."""
    m = Memory(clock=clock, engine=ENGINE, embedder=models[0], nli=models[1])
    yield m
    m.close()
# --- end models fixtures ---


class JsonChild:
    """A Python child process (``code`` run with ``args``) that reads one JSON
    command per line on stdin and answers with one JSON line on stdout.
    Readiness is its first line (:meth:`line`), never a sleep."""

    def __init__(self, code: str, *args: str) -> None:
        import subprocess
        import sys
        from pathlib import Path

        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, *args], cwd=str(Path(__file__).resolve().parents[1]), text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "MIDAS_GRAPH_ENGINE": ENGINE},
        )

    def line(self):
        import json

        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError(f"child died: {self.proc.stderr.read()[-3000:]}")
        return json.loads(line)

    def ask(self, **cmd):
        import json

        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        return self.line()

    def close(self) -> None:
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        assert self.proc.wait(timeout=120) == 0, self.proc.stderr.read()[-3000:]
        self.proc.stdout.close()
        self.proc.stderr.close()
