"""The Ray cluster (issue 20 items 2, 3 and 7): shard actors behind the Memory
API, the MCP server over them, and the bulk backfill, on a local Ray with 2
CPUs, no dashboard, 127.0.0.1, its files under the session's tmp path.

One Ray per session (started once, ~5 s); each test starts its own shard
actors (each opens its file; those that ingest load the models, ~5 s). No
sleeps: every wait is on a Ray future or a line the server prints.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ENGINE
from midas_graph import InvalidInputError, Memory, NotFoundError, _backfill, _io
from midas_graph._shards import shard_of

ray = pytest.importorskip("ray")  # the `cluster` extra; `make test` installs it

ROOT = Path(__file__).resolve().parents[1]
GROUPS = ["alice", "bob", "carol", "dave", "erin"]


@pytest.fixture(scope="module")
def local_ray(tmp_path_factory):
    from midas_graph.cluster import start_local_ray

    start_local_ray(num_cpus=2, temp_dir=tmp_path_factory.mktemp("ray"))
    assert {n["NodeManagerAddress"] for n in ray.nodes()} == {"127.0.0.1"}
    yield
    ray.shutdown()


def test_import_midas_graph_imports_no_ray():
    code = ("import sys, midas_graph, midas_graph.cli, midas_graph._mcp, midas_graph._backfill;"
            "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=str(ROOT))
    assert out.stdout.strip() == "[]"


def test_cluster_without_ray_names_the_extra(tmp_path):
    code = (f"import sys; sys.modules['ray'] = None\n"  # as if the extra were not installed
            f"from midas_graph.cluster import Cluster, ClusterError\n"
            f"try:\n    Cluster({str(tmp_path / 'm')!r}, shards=2)\n"
            f"except ClusterError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=str(ROOT))
    assert "pip install 'midas-graph[cluster]'" in out.stdout
    assert not (tmp_path / "m").exists() or not any((tmp_path / "m").glob("shard-*.db"))


def _facts(mem, g: str) -> list[tuple]:
    return [(f.subject, f.attribute, f.value, f.valid_from, f.valid_to, f.expired_at is None)
            for f in mem.history(g, group_id=g)]


def test_shard_actors_route_by_group_and_a_restart_reattaches(local_ray, tmp_path):
    from midas_graph.cluster import Cluster

    root = tmp_path / "mem"
    cluster = Cluster(root, shards=2, preload=False)
    mem = cluster.memory()
    pids = {s["pid"] for s in cluster.shards}
    for g in GROUPS:
        mem.add_fact(g, "lives_in", "Berlin", valid_from="2024-01-01", group_id=g)
        mem.add_fact(g, "lives_in", "Paris", valid_from="2024-06-01", group_id=g)
    # the same types as Memory, the same answers
    (now,) = mem.current("alice", group_id="alice")
    assert now.value == "Paris" and now.supersedes and now.group_id == "alice"
    assert [f.value for f in mem.as_of("bob", "lives_in", valid_at="2024-03-01", group_id="bob")] == ["Berlin"]
    assert mem.stats() == {"Entity": 5, "Fact": 15, "Episode": 0}
    # an id alone finds its shard; errors are the library's, with their fields
    f = mem.current("carol", group_id="carol")[0]
    assert mem.retract(f.id).expired_at is not None
    assert [x.value for x in mem.current("carol", group_id="carol")] == ["Berlin"]  # re-opened
    held = mem.stats()["Fact"]
    with pytest.raises(NotFoundError):
        mem.retract("no-such-fact")
    with pytest.raises(InvalidInputError, match="^group_id"):
        mem.as_of("x", group_id="")
    # a bulk call over two shards checks every row before writing any
    rows = [{"subject": g, "attribute": "team", "value": "red", "group_id": g} for g in GROUPS]
    with pytest.raises(InvalidInputError, match=r"^rows\[3\]\.attribute"):
        mem.add_facts(rows[:3] + [{**rows[3], "attribute": ""}] + rows[4:])
    assert mem.stats()["Fact"] == held
    assert [x.group_id for x in mem.add_facts(rows)] == GROUPS
    assert mem.check() == []
    before = {g: _facts(mem, g) for g in GROUPS}
    cluster.close()

    # each group is in its hashed shard's file, and only there
    for i in range(2):
        with Memory(root / f"shard-{i:04d}.db", engine=ENGINE) as m:
            for g in GROUPS:
                assert bool(m.stats(group_id=g)["Fact"]) == (shard_of(g, 2) == i)

    # one owner per file: a shard another process holds is refused, not opened twice
    if ENGINE == "ladybug":  # the lock across processes is LadybugDB's
        from midas_graph import DatabaseLockedError

        with Memory(root / "shard-0001.db", engine=ENGINE), pytest.raises(DatabaseLockedError):
            Cluster(root, preload=False)

    # a restart: new actors (new processes) on the same files answer the same, here pinned
    # to the node that holds the files (this one)
    again = Cluster(root, preload=False, pin={0: ray.get_runtime_context().get_node_id(),
                                              1: ray.get_runtime_context().get_node_id()})
    try:
        assert not pids & {s["pid"] for s in again.shards}
        assert {g: _facts(again.memory(), g) for g in GROUPS} == before
    finally:
        again.close()


#: Three people, three groups: u-sam and u-li hash to shard 0 of 2, u-ana to shard 1.
GROUPS_OF_THREE = (("u-sam", "Sam"), ("u-ana", "Ana"), ("u-li", "Li"))


def _conversation_file(path: Path) -> Path:
    """The bundled conversation told by three people (three groups), lines
    interleaved and each group's in reverse: the backfill orders them."""
    base = [json.loads(x) for x in (ROOT / "midas_graph/sample/conversation.jsonl").read_text().splitlines()]
    told = []
    for g, who in GROUPS_OF_THREE:
        told.append([{"group_id": g, "speaker": who if t["speaker"] == "Sam" else t["speaker"],
                      "time": t["reference_time"], "content": t["content"].replace("Sam", who)}
                     for t in reversed(base)])
    lines = [x for trio in zip(*told) for x in trio]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


@contextlib.contextmanager
def _mcp(root: Path, tmp_path: Path, default_group: str):
    """``midas-graph serve-mcp --dir ROOT`` over stdio, joining the session's
    Ray: it finds the shard actors already running on ROOT (by name) and
    uses them. Yields ``call(tool, **args) -> (is_error, payload)``."""
    from anyio.from_thread import start_blocking_portal
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "midas_graph.cli", "serve-mcp", "--dir", str(root), "--address",
              ray.get_runtime_context().gcs_address, "--group", default_group],
        env={**os.environ, "MIDAS_GRAPH_ENGINE": ENGINE}, cwd=str(ROOT))  # as a user's shell: Ray's settings too
    log = tmp_path / "server.log"
    with log.open("w") as errlog, start_blocking_portal() as portal:
        client = Client(stdio_client(params, errlog=errlog), read_timeout_seconds=180)
        with portal.wrap_async_context_manager(client):
            def call(tool, **args):
                r = portal.call(client.call_tool, tool, args)
                return (True, r.content[0].text) if r.is_error else (False, r.structured_content)

            yield call


@pytest.mark.slow
def test_backfill_on_ray_equals_sequential_after_a_crash(local_ray, tmp_path, models):
    from midas_graph.cluster import Cluster

    turns = _backfill.read(_conversation_file(tmp_path / "episodes.jsonl"))
    with Memory(tmp_path / "seq.db", engine=ENGINE) as mem:
        report = _backfill.ingest(mem, turns, progress=False)
        expected = _backfill.canonical(_io.export_rows(mem))
        lives = [f.value for f in mem.current("Li", "lives_in", group_id="u-li")]
    assert report["applied"] == len(turns) == 72 and report["facts"] > 20
    assert lives and lives != ["Berlin"]  # the later move won: applied in time order
    assert any(r[0] == "fact" and dict(r[2])["superseded_by"] for r in expected)

    assert {shard_of(g, 2) for g, _ in GROUPS_OF_THREE} == {0, 1}
    root = tmp_path / "sharded"
    cluster = Cluster(root, shards=2)
    with pytest.raises(_backfill.BackfillStopped, match="after 29 "):
        _backfill.ingest_ray(cluster, turns, stop_after=29, batch=8, progress=False)
    assert cluster.actors == []  # killed mid-run, files not closed
    again = Cluster(root)  # new processes: recover the files, rebuild each group's last turns
    try:
        report = _backfill.ingest_ray(again, turns, prepass_workers=1, batch=8, progress=False)
        assert (report["applied"], report["skipped"]) == (72 - 29, 29) and report["primed"] > 0
        got = _backfill.canonical(again.memory().export_rows())
        assert got == expected, "\n".join(_backfill.diff(expected, got))
        assert again.memory().check() == []
        # once more: everything is stored, nothing is applied twice
        report = _backfill.ingest_ray(again, turns, batch=8, progress=False)
        assert (report["applied"], report["skipped"], report["primed"]) == (0, 72, 0)
        assert _backfill.canonical(again.memory().export_rows()) == expected
        _serve_the_backfilled_shards(again, tmp_path)
    finally:
        again.close()


def _serve_the_backfilled_shards(cluster, tmp_path: Path) -> None:
    """MCP over the shards: the server joins the running actors (another
    driver's), answers from the backfilled files, routes each call to its
    group's shard, and leaves the actors running when it exits."""
    mem = cluster.memory()
    with _mcp(cluster.layout.root, tmp_path, "u-sam") as call:
        def ok(tool, **args):
            err, out = call(tool, **args)
            assert not err, f"{tool}: {out}\n{(tmp_path / 'server.log').read_text()[-2000:]}"
            return out

        for g, who in GROUPS_OF_THREE:  # what the backfill stored, as the owning shard answers it directly
            direct = [f.to_dict() for f in mem.history(who, group_id=g)]
            assert direct and ok("history", subject=who, group_id=g)["facts"] == direct
        assert ok("get_status")["counts"] == mem.stats()
        fact = ok("add_triplet", source_node_name="Ana", edge_name="lives_in", target_node_name="Rome",
                  group_id="u-ana")["fact"]  # on shard 1
        assert ok("get_entity_edge", uuid=fact["id"])["group_id"] == "u-ana"  # an id alone: every shard asked
        assert [f.value for f in mem.current("Ana", "lives_in", group_id="u-ana")] == ["Rome"]
        moved = ok("add_memory", name="m", episode_body="I moved to Oslo.", speaker="Sam",
                   reference_time="2030-01-01")  # the server's default group: u-sam, shard 0
        assert [f["value"] for f in moved["facts"]] == ["Oslo"] and moved["superseded"]
        ok("delete_entity_edge", uuid=fact["id"])
        assert "Rome" not in [f.value for f in mem.current("Ana", "lives_in", group_id="u-ana")]
        err, out = call("as_of", subject="Sam", group_id="no-such-group-anywhere")
        assert not err and out["facts"] == []
    assert mem.check() == []  # the server is gone; the actors (this driver's) still serve


def test_cluster_memory_has_every_public_method_of_memory():
    """A method added to Memory must be routed too (or this fails)."""
    from midas_graph._shard_actor import CALLS
    from midas_graph.cluster import ClusterMemory

    public = {n for n in dir(Memory) if not n.startswith("_")}
    assert public <= {n for n in dir(ClusterMemory) if not n.startswith("_")}
    methods = {n for n in public if callable(getattr(Memory, n))} - {"close", "guard_reliance"}
    assert methods <= CALLS
