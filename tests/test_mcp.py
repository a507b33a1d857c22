"""The MCP server end to end: the real ``midas-graph serve-mcp`` process,
driven over stdio by the ``mcp`` SDK's own client.

One server per module: an anyio blocking portal keeps the client session
(and the subprocess) alive across tests. Tests that change state use their
own group, so their order does not matter.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from anyio.from_thread import start_blocking_portal

from mcp import Client, StdioServerParameters

from conftest import ENGINE

ROOT = Path(__file__).resolve().parents[1]
TOOLS = {
    "add_memory", "search_memory_facts", "search_nodes", "get_episodes", "get_entity_edge",
    "delete_entity_edge", "delete_episode", "clear_graph", "get_status", "add_triplet",
    "as_of", "history", "get_context", "check_memory_use", "forget_memory", "consolidate_memory",
}


class Server:
    """A connected client; ``call`` returns ``(is_error, payload)``."""

    def __init__(self, portal, client: Client, log: Path) -> None:
        self.portal, self.client, self.log = portal, client, log

    def call(self, tool: str, **args):
        r = self.portal.call(self.client.call_tool, tool, args)
        if r.is_error:
            return True, r.content[0].text
        return False, r.structured_content

    def ok(self, tool: str, **args) -> dict:
        err, out = self.call(tool, **args)
        assert not err, f"{tool} failed: {out}\n--- server log ---\n{self.log.read_text()[-3000:]}"
        return out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mcp")
    log = tmp / "server.log"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "midas_graph.cli", "serve-mcp", "--db", str(tmp / "memory.db")],
        env={"MIDAS_GRAPH_ENGINE": ENGINE},
        cwd=str(ROOT),
    )
    with log.open("w") as errlog, start_blocking_portal() as portal:
        from mcp.client.stdio import stdio_client

        client = Client(stdio_client(params, errlog=errlog))
        with portal.wrap_async_context_manager(client):
            yield Server(portal, client, log)


def test_lists_the_graphiti_and_midas_tools_with_the_policy(server):
    tools = server.portal.call(server.client.list_tools).tools
    assert {t.name for t in tools} == TOOLS
    by_name = {t.name: t for t in tools}
    assert set(by_name["add_memory"].input_schema["required"]) == {"name", "episode_body"}
    assert "invalid_at_before" in by_name["search_memory_facts"].input_schema["properties"]
    assert by_name["get_status"].annotations.read_only_hint is True
    assert by_name["delete_entity_edge"].annotations.destructive_hint is True
    policy = server.client.instructions or ""
    assert "abstain" in policy and "check_memory_use" in policy and "user_confirmation" in policy
    assert server.ok("get_status")["status"] == "ok"


def test_revision_current_and_as_of(server):
    g = "moves"
    first = server.ok("add_memory", name="m1", episode_body="I live in Berlin", group_id=g,
                      reference_time="2024-01-10")
    assert [(f["attribute"], f["value"]) for f in first["facts"]] == [("lives_in", "Berlin")]
    second = server.ok("add_memory", name="m2", episode_body="I moved to Lisbon", group_id=g,
                       reference_time="2024-06-01")
    assert [f["value"] for f in second["superseded"]] == ["Berlin"]

    found = server.ok("search_memory_facts", query="Where does the user live?", group_ids=[g])["facts"]
    assert found and found[0]["value"] == "Lisbon" and found[0]["status"] == "current"
    assert "Berlin" not in [f["value"] for f in found]  # only what is true now

    past = server.ok("as_of", subject="user", attribute="lives_in", valid_at="2024-03-01", group_id=g)
    assert [f["value"] for f in past["facts"]] == ["Berlin"]
    now = server.ok("as_of", subject="user", attribute="lives_in", group_id=g)
    assert [f["value"] for f in now["facts"]] == ["Lisbon"]
    # Graphiti's range filter: facts that became true after March 2024
    later = server.ok("search_memory_facts", query="lives", group_ids=[g], valid_at_after="2024-03-01")["facts"]
    assert [f["value"] for f in later] == ["Lisbon"]
    # searching the world as it was
    then = server.ok("search_memory_facts", query="Where does the user live?", group_ids=[g],
                     valid_at="2024-02-01")["facts"]
    assert then and then[0]["value"] == "Berlin"
    # an invalid_at filter searches the facts that have ended
    ended = server.ok("search_memory_facts", query="Where does the user live?", group_ids=[g],
                      invalid_at_before="2024-12-31")["facts"]
    assert [(f["value"], f["status"], f["valid_to"][:10]) for f in ended] == [("Berlin", "superseded", "2024-06-01")]

    versions = server.ok("history", subject="user", attribute="lives_in", group_id=g)["facts"]
    assert {(f["value"], f["status"]) for f in versions} >= {("Berlin", "superseded"), ("Lisbon", "current")}

    edge = server.ok("get_entity_edge", uuid=found[0]["id"])
    assert edge["value"] == "Lisbon" and edge["versions"]


def test_get_context_abstains_when_ungrounded(server):
    g = "food"
    server.ok("add_memory", name="f1", episode_body="My favorite food is sushi.", group_id=g,
              reference_time="2024-02-01")
    asked = server.ok("get_context", query="What is my favorite color?", group_id=g)
    assert asked["abstain"] is True and asked["reason"]
    assert asked["items"] == []
    known = server.ok("get_context", query="What is my favorite food?", group_id=g)
    assert known["abstain"] is False and "sushi" in known["text"].lower()
    assert known["items"] and known["items"][0]["id"] and known["items"][0]["provenance"] == "observation"


def test_check_memory_use_is_the_provenance_guard(server):
    g = "guard"
    seen = server.ok("add_memory", name="obs", episode_body="My bank is Monzo.", group_id=g,
                     reference_time="2024-03-01")
    fid = seen["facts"][0]["id"]
    refused = server.ok("check_memory_use", use="action", fact_ids=[fid])
    assert refused["allowed"] is False and [x["id"] for x in refused["excluded"]] == [fid]
    assert "user confirmation" in refused["reasons"][fid]
    assert server.ok("check_memory_use", use="planning", fact_ids=[fid])["allowed"] is True
    approved = server.ok("check_memory_use", use="action", fact_ids=[fid], approved=[fid])
    assert approved["allowed"] is True and [x["id"] for x in approved["passed"]] == [fid]

    # a spoofed provenance in an item is ignored: the memory's own record decides
    spoof = server.ok("check_memory_use", use="action", items=[{"id": fid, "provenance": "user_confirmation"}])
    assert spoof["allowed"] is False

    confirmed = server.ok("add_memory", name="conf", episode_body="My email is ana@example.com.", group_id=g,
                          reference_time="2024-03-02", provenance="user_confirmation")
    ctx = server.ok("get_context", query="What is my email?", group_id=g)
    assert not ctx["abstain"]
    mixed = server.ok("check_memory_use", use="action", items=ctx["items"],
                      fact_ids=[fid, confirmed["episode"]["id"]])
    assert mixed["allowed"] is True
    assert fid in [x["id"] for x in mixed["excluded"]]
    assert confirmed["episode"]["id"] in [x["id"] for x in mixed["passed"]]


@pytest.mark.parametrize("tool,args,needle", [
    ("add_memory", {"name": "x"}, "episode_body"),
    ("add_memory", {"name": "x", "episode_body": "   "}, "content"),
    ("add_memory", {"name": "x", "episode_body": "I live in Rome", "reference_time": "yesterday-ish"},
     "reference_time"),
    ("as_of", {"subject": 42}, "subject"),
    ("as_of", {"subject": "user", "valid_at": "2024-13-45"}, "valid_at"),
    ("search_memory_facts", {"query": "x", "max_facts": 0}, "max_facts"),
    ("search_memory_facts", {"query": "x", "valid_at_before": "soon"}, "valid_at_before"),
    ("get_context", {"query": "x", "budget_tokens": "lots"}, "budget_tokens"),
    ("get_entity_edge", {"uuid": "no-such-fact"}, "no-such-fact"),
    ("delete_entity_edge", {"uuid": "no-such-fact"}, "no-such-fact"),
    ("check_memory_use", {"use": "action", "fact_ids": ["no-such-id"]}, "no-such-id"),
    ("check_memory_use", {"use": "launch", "fact_ids": ["x"]}, "use"),
    ("check_memory_use", {"use": "action"}, "fact_ids"),
    ("no_such_tool", {}, "no_such_tool"),
    # times past either end of the calendar once put in UTC (a raw OverflowError before)
    ("as_of", {"subject": "user", "valid_at": "9999-12-31T20:00-05:00"}, "valid_at: "),
    ("as_of", {"subject": "user", "known_at": "0001-01-01T00:00+01:00"}, "known_at: "),
    ("get_context", {"query": "Where do I live?", "valid_at": "0001-01-01T00:30+01:00"}, "valid_at: "),
    ("search_memory_facts", {"query": "x", "valid_at": "9999-12-31T23:59:59.5"}, "valid_at: "),
    ("add_memory", {"name": "x", "episode_body": "I live in Rome", "reference_time": "9999-12-31T22:00-03:00"},
     "reference_time: "),
])
def test_bad_arguments_are_one_line_tool_errors(server, tool, args, needle):
    err, text = server.call(tool, **args)
    assert err is True, text
    assert needle in text and "\n" not in text, text
    assert server.ok("get_status")["status"] == "ok"  # still serving


def test_add_memory_keeps_a_given_uuid(server):
    g = "uuids"
    out = server.ok("add_memory", name="u", episode_body="I play the cello.", group_id=g, uuid="ep-cello-1")
    assert out["episode"]["id"] == "ep-cello-1"
    assert [e["id"] for e in server.ok("get_episodes", group_ids=[g])["episodes"]] == ["ep-cello-1"]
    err, text = server.call("add_memory", name="u2", episode_body="I play the flute.", group_id=g,
                            uuid="ep-cello-1")
    assert err and "ep-cello-1" in text and "\n" not in text


def test_delete_entity_edge_retracts_and_keeps_history(server):
    g = "retract"
    server.ok("add_memory", name="a", episode_body="I work at Google.", group_id=g, reference_time="2024-01-01")
    wrong = server.ok("add_memory", name="b", episode_body="I work at Meta.", group_id=g,
                      reference_time="2024-05-01")["facts"][0]
    out = server.ok("delete_entity_edge", uuid=wrong["id"])
    assert "nothing was physically deleted" in out["message"] and out["fact"]["status"] == "retracted"
    now = server.ok("as_of", subject="user", attribute="employer", group_id=g)["facts"]
    assert [f["value"] for f in now] == ["Google"]  # the superseded belief is re-opened
    hist = server.ok("history", subject="user", attribute="employer", group_id=g)["facts"]
    assert "retracted" in {f["status"] for f in hist}
    err, text = server.call("delete_entity_edge", uuid=wrong["id"])
    assert err and "already retracted" in text


def test_episodes_nodes_delete_episode_and_clear(server):
    g = "admin"
    server.ok("add_memory", name="keep", episode_body="Maria lives in Faro.", group_id="admin-other")
    a = server.ok("add_memory", name="e1", episode_body="Maria lives in Porto.", group_id=g,
                  reference_time="2024-01-01")
    b = server.ok("add_memory", name="e2", episode_body="Maria works at Siemens.", group_id=g,
                  reference_time="2024-02-01")
    eps = server.ok("get_episodes", group_ids=[g], max_episodes=10)["episodes"]
    assert [e["id"] for e in eps] == [a["episode"]["id"], b["episode"]["id"]]
    assert [e["id"] for e in server.ok("get_episodes", group_ids=[g], max_episodes=1)["episodes"]] == \
        [b["episode"]["id"]]
    # "" is Graphiti's default group, in a list as in group_id (the server's default here)
    assert server.ok("get_episodes", group_ids=[""], max_episodes=100) == server.ok("get_episodes")
    err, text = server.call("get_episodes", group_ids=["  "])
    assert err and "group_ids" in text

    nodes = server.ok("search_nodes", query="Maria", group_ids=[g])["nodes"]
    assert nodes and nodes[0]["name"] == "Maria"
    assert server.ok("search_nodes", query="Siemens", group_ids=[g])["nodes"][0]["name"] == "Siemens"
    near = server.ok("search_nodes", query="Siemens", group_ids=[g], center_node_uuid=nodes[0]["id"])["nodes"]
    assert near[0]["name"] == "Maria"           # the center first, then its neighbours

    gone = server.ok("delete_episode", uuid=b["episode"]["id"])
    assert [f["value"] for f in gone["retracted"]] == ["Siemens"]
    assert [e["id"] for e in server.ok("get_episodes", group_ids=[g])["episodes"]] == [a["episode"]["id"]]
    assert server.ok("as_of", subject="Maria", attribute="employer", group_id=g)["facts"] == []
    err, text = server.call("delete_episode", uuid=b["episode"]["id"])
    assert err and "\n" not in text

    cleared = server.ok("clear_graph", group_ids=[g])["cleared"][g]
    assert cleared and all(isinstance(v, int) for v in cleared.values())
    assert server.ok("get_episodes", group_ids=[g])["episodes"] == []
    assert server.ok("as_of", subject="Maria", group_id=g)["facts"] == []
    # other groups are untouched
    kept = server.ok("as_of", subject="Maria", attribute="lives_in", group_id="admin-other")["facts"]
    assert [f["value"] for f in kept] == ["Faro"]


def test_consolidate_memory_makes_restatements_cold_and_warm_undoes_it(server):
    """Cara says the same thing three times (weeks ago, out of the short tier):
    two go cold as dup_of the one kept, out of search, readable by id; beliefs
    are untouched; forget_memory(warm=...) brings them back."""
    g = "consolidate"
    said = [("2024-03-01", "What a beautiful sunny morning it is today!"),
            ("2024-03-02", "I live in Oslo."),
            ("2024-03-10", "What a beautiful sunny morning it is today!!"),
            ("2024-03-20", "what a beautiful sunny morning it is today")]
    ids = [server.ok("add_memory", name=f"c{i}", episode_body=text, group_id=g, speaker="Cara",
                     reference_time=when)["episode"]["id"] for i, (when, text) in enumerate(said)]
    before = server.ok("history", subject="Cara", group_id=g)["facts"]
    dry = server.ok("consolidate_memory", group_id=g, dry_run=True)
    assert dry["dry_run"] is True and "would go cold" in dry["message"]
    out = server.ok("consolidate_memory", group_id=g)
    assert out["cold"] == dry["cold"] and out["groups"] == 1 and out["threshold"] == 0.92
    cold = {eid: kept for eid, kept in out["cold"]}
    assert set(cold) | set(cold.values()) == {ids[0], ids[2], ids[3]} and len(cold) == 2
    assert ids[1] not in cold
    eps = {e["id"]: e for e in server.ok("get_episodes", group_ids=[g], max_episodes=10)["episodes"]}
    for eid, kept in cold.items():
        assert eps[eid]["cold_reason"] == f"dup_of:{kept}"
    assert server.ok("history", subject="Cara", group_id=g)["facts"] == before
    assert server.ok("consolidate_memory", group_id=g)["cold"] == []
    assert server.ok("forget_memory", group_id=g, warm=list(cold))["episodes"] == list(cold)
    assert server.ok("consolidate_memory", group_id=g, dry_run=True)["cold"] == out["cold"]
    err, text = server.call("consolidate_memory", group_id=g, threshold=0.1)
    assert err and "threshold" in text


def test_console_script_serves_over_stdio(tmp_path):
    """The installed ``midas-graph`` entry point (what an MCP client config runs)."""
    import anyio

    exe = Path(sys.executable).with_name("midas-graph")
    if not exe.exists():
        pytest.skip("console script not installed")
    params = StdioServerParameters(command=str(exe), args=["serve-mcp", "--db", str(tmp_path / "m.db")],
                                   env={"MIDAS_GRAPH_ENGINE": ENGINE})

    async def main():
        async with Client(params) as c:
            r = await c.call_tool("get_status", {})
            return json.loads(r.content[0].text)

    assert anyio.run(main)["counts"]["Episode"] == 0


@pytest.mark.slow
def test_concurrent_load_over_http_loses_no_writes(tmp_path):
    sys.path.insert(0, str(ROOT / "eval"))
    import bench_mcp_load

    # 10 s of load, and on until every client has called every tool twice
    report = bench_mcp_load.run(seconds=10, clients=8, db=str(tmp_path / "load.db"), min_calls=2)
    assert report["errors"] == 0, report["error_samples"]
    assert report["writes_acknowledged"] > 0
    assert report["lost_writes"] == 0, report["lost_samples"]
    assert report["ops"] > report["writes_acknowledged"]
    for tool in ("add_memory", "search_memory_facts", "get_context", "as_of"):
        assert report["latency_ms"][tool]["n"] > 0


def wait_ready(proc) -> list[str]:
    """Read the server's stderr up to its readiness line (the memory open,
    SIGTERM handled, over HTTP the port listening); no clock involved. The
    lines read, for the failure message."""
    from midas_graph._mcp import READY

    lines = []
    for raw in iter(proc.stderr.readline, b""):
        lines.append(raw.decode(errors="replace"))
        if lines[-1].startswith(READY):
            return lines
    raise AssertionError(f"the server exited ({proc.wait()}) before it was ready:\n{''.join(lines)}")


@pytest.mark.parametrize("http", [False, True])
def test_sigterm_closes_the_memory_and_exits_0(tmp_path, http):
    """Process managers stop servers with SIGTERM; over stdio the server must
    not wait for its client to close stdin."""
    import signal
    import socket
    import subprocess

    args = [sys.executable, "-m", "midas_graph.cli", "serve-mcp", "--db", str(tmp_path / "m.db")]
    if http:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        args += ["--http", str(port)]
    proc = subprocess.Popen(args, cwd=str(ROOT), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        wait_ready(proc)
        if http:  # it says so once it listens
            socket.create_connection(("127.0.0.1", port)).close()
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=300) == 0, proc.stderr.read().decode()  # the timeout guards a hang only
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
        proc.stderr.close()
    from midas_graph import Memory

    with Memory(str(tmp_path / "m.db"), engine=ENGINE) as mem:  # reopens cleanly
        assert mem.stats()["Episode"] == 0


def test_add_triplet_stores_the_callers_own_fact(server):
    g = "triples"
    first = server.ok("add_triplet", source_node_name="Ada", edge_name="WORKS_AT", target_node_name="Initech",
                      group_id=g, valid_at="2020-01-01")
    assert (first["fact"]["attribute"], first["fact"]["value"]) == ("employer", "Initech")
    second = server.ok("add_triplet", source_node_name="ada", edge_name="employer", target_node_name="Globex",
                       group_id=g, valid_at="2024-01-01", fact="Ada joined Globex.")
    assert second["supersedes"] == [first["fact"]["id"]]
    then = server.ok("as_of", subject="Ada", attribute="employer", valid_at="2022-06-01", group_id=g)
    assert [f["value"] for f in then["facts"]] == ["Initech"]
    # errors name the tool's own arguments, not the library's
    err, text = server.call("add_triplet", source_node_name="", edge_name="x", target_node_name="y", group_id=g)
    assert err and "source_node_name:" in text
    err, text = server.call("add_triplet", source_node_name="Ada", edge_name="x", target_node_name="y", group_id=g,
                            valid_at="0001-01-01T00:00+01:00")
    assert err and "valid_at:" in text and "valid_from" not in text
    err, text = server.call("add_triplet", source_node_name="Ada", edge_name="x", target_node_name="y", group_id=g,
                            valid_at="2024-01-01", invalid_at="2023-01-01")
    assert err and "invalid_at: must be after valid_at" in text


def test_extreme_times_are_accepted_or_named(server):
    """Year 1 and year 9999 with offsets, in every time argument: a result,
    or a one-line tool error that starts with the argument's name."""
    import datetime as dt

    from hypothesis import HealthCheck, example, given, settings
    from hypothesis import strategies as st

    from test_extreme_times import extreme_times, in_range

    calls = {
        "valid_at": ("as_of", {"subject": "user"}),
        "known_at": ("get_context", {"query": "Where do I live?", "group_id": "edge"}),
        "valid_at_before": ("search_memory_facts", {"query": "where", "group_ids": ["edge"]}),
        "reference_time": ("add_memory", {"name": "edge", "episode_body": "I moved to Oslo last week.",
                                          "group_id": "edge"}),
    }

    seen: set[bool] = set()

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(t=extreme_times(), field=st.sampled_from(sorted(calls)))
    # one time in range and one before year 1 in UTC, whatever the draw (30 random draws can miss either)
    @example(t=("0001-01-01T00:00:00+01:00", dt.timedelta(hours=-1)), field="valid_at")
    @example(t=("2024-01-01T00:00:00Z", dt.datetime(2024, 1, 1) - dt.datetime(1, 1, 1)), field="known_at")
    def check(t, field):
        value, seconds = t
        tool, args = calls[field]
        err, out = server.call(tool, **args, **{field: value if isinstance(value, str) else value.isoformat()})
        seen.add(in_range(seconds))
        if in_range(seconds):
            assert not err, out
        else:
            assert err and f"{field}: " in out and "supported range" in out and "\n" not in out, out

    check()
    assert seen == {True, False}


def test_an_unexpected_error_is_one_line_naming_the_tool():
    """A defect of ours (any exception the library does not raise on
    purpose) still reaches the client as one line naming the exception (the
    SDK prefixes the tool's name), not a bare "Error executing tool as_of"."""
    from mcp.server.mcpserver.exceptions import ToolError

    from midas_graph._mcp import _guarded
    from midas_graph import InvalidInputError

    def as_of():
        import datetime as dt

        return dt.datetime(9999, 12, 31) + dt.timedelta(days=1)  # OverflowError

    with pytest.raises(ToolError) as info:
        _guarded(as_of)()
    assert str(info.value) == "unexpected OverflowError: date value out of range"

    def history():
        raise InvalidInputError("subject", "must not be\nempty")

    with pytest.raises(ToolError) as info:
        _guarded(history)()
    assert str(info.value) == "subject: must not be empty"
