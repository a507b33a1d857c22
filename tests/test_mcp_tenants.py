"""Tenant isolation over MCP: a real ``midas-graph serve-mcp --http --keys``
process, two clients with different bearer tokens (docs/mcp.md, "Tenants").

Client B can neither read, search, guard-check nor delete A's data, and
cannot learn that A's ids exist: an id of A's is "not found" exactly as an
unknown id, and B may store an episode under the id A used. The server
signals readiness with uvicorn's "Uvicorn running on" line; nothing sleeps.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from conftest import ENGINE

ROOT = Path(__file__).resolve().parents[1]
TOKEN_A = "tok-alice-5b0e1c6f3a9d4e27"
TOKEN_B = "tok-bob-9d2a7c4e1b3f5a60d8"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tenants")
    keys = tmp / "keys.toml"
    keys.write_text(
        "[tokens]\n"
        f'"{TOKEN_A}" = ["tenantA"]\n'
        f'"{TOKEN_B}" = {{ groups = ["tenantB", "shared"], default = "tenantB", name = "bob" }}\n'
    )
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "midas_graph.cli", "serve-mcp", "--db", str(tmp / "m.db"), "--http", str(port),
         "--keys", str(keys), "--log-level", "INFO"],
        cwd=str(ROOT), env={**os.environ, "MIDAS_GRAPH_ENGINE": ENGINE},
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    ready, log = threading.Event(), []

    def drain() -> None:  # the readiness line, and the pipe kept empty afterwards
        for line in proc.stderr:
            log.append(line)
            if "Uvicorn running on" in line:
                ready.set()
        ready.set()  # the process ended: stop waiting

    threading.Thread(target=drain, daemon=True).start()
    try:
        assert ready.wait(300) and proc.poll() is None, "".join(log)[-3000:]
        yield f"http://127.0.0.1:{port}/mcp", log
    finally:
        proc.terminate()
        proc.wait(timeout=60)


@asynccontextmanager
async def connect(url: str, token: str | None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with create_mcp_http_client(headers=headers) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            yield client


async def call(client, tool: str, **args):
    r = await client.call_tool(tool, args)
    return (True, r.content[0].text) if r.is_error else (False, r.structured_content)


async def ok(client, tool: str, **args) -> dict:
    err, out = await call(client, tool, **args)
    assert not err, f"{tool}: {out}"
    return out


def same_but_the_id(a: str, b: str, id_a: str, id_b: str) -> bool:
    return a.replace(id_a, "<ID>") == b.replace(id_b, "<ID>")


def test_b_can_neither_read_search_guard_check_nor_delete_as_data(server):
    url, log = server

    async def scenario() -> None:
        async with connect(url, TOKEN_A) as a, connect(url, TOKEN_B) as b:
            bank = await ok(a, "add_memory", name="bank", episode_body="My bank is Monzo.", uuid="ep-bank",
                            reference_time="2024-03-01")
            assert bank["episode"]["group_id"] == "tenantA"              # the token's default group
            fid, eid = bank["facts"][0]["id"], bank["episode"]["id"]
            assert eid == "ep-bank"
            await ok(a, "add_memory", name="home", episode_body="I live in Porto.", reference_time="2024-03-02")

            # -- read and search: A's group is refused, B's own holds nothing of A's
            for tool, args in [
                ("history", {"subject": "user", "group_id": "tenantA"}),
                ("as_of", {"subject": "user", "group_id": "tenantA"}),
                ("get_context", {"query": "What is my bank?", "group_id": "tenantA"}),
                ("search_memory_facts", {"query": "bank", "group_ids": ["tenantA"]}),
                ("search_memory_facts", {"query": "bank", "group_ids": ["tenantB", "tenantA"]}),
                ("search_nodes", {"query": "Monzo", "group_ids": ["tenantA"]}),
                ("get_episodes", {"group_ids": ["tenantA"]}),
                ("add_memory", {"name": "x", "episode_body": "I bank with HSBC.", "group_id": "tenantA"}),
                ("add_triplet", {"source_node_name": "user", "edge_name": "bank", "target_node_name": "HSBC",
                                 "group_id": "tenantA"}),
                ("clear_graph", {"group_ids": ["tenantA"]}),
                ("delete_episode", {"uuid": "ep-bank", "group_id": "tenantA"}),
            ]:
                err, text = await call(b, tool, **args)
                assert err and "not granted" in text and "tenantA" in text, (tool, text)
                assert "Monzo" not in text and "Porto" not in text
            assert (await ok(b, "history", subject="user"))["facts"] == []
            assert (await ok(b, "as_of", subject="user"))["facts"] == []
            assert (await ok(b, "search_memory_facts", query="What is my bank?"))["facts"] == []
            assert (await ok(b, "search_nodes", query="Monzo"))["nodes"] == []
            assert (await ok(b, "get_episodes", max_episodes=100))["episodes"] == []
            ctx = await ok(b, "get_context", query="What is my bank?")
            assert ctx["abstain"] is True and "Monzo" not in ctx["text"]
            status = await ok(b, "get_status")
            assert status["counts"]["Episode"] == 0 and status["group_id"] == "tenantB"
            assert status["groups"] == ["shared", "tenantB"] and "path" not in status

            # -- ids of A's: "not found", word for word as an unknown id
            unknown_fact, unknown_ep = "00000000-0000-4000-8000-000000000000", "ep-nobody-has"
            for tool, known, unknown in [
                ("get_entity_edge", fid, unknown_fact),
                ("delete_entity_edge", fid, unknown_fact),
                ("delete_episode", eid, unknown_ep),
            ]:
                err_k, text_k = await call(b, tool, uuid=known)
                err_u, text_u = await call(b, tool, uuid=unknown)
                assert err_k and err_u and same_but_the_id(text_k, text_u, known, unknown), (text_k, text_u)
                assert "Monzo" not in text_k
            for ids in ([fid], [eid]):
                err_k, text_k = await call(b, "check_memory_use", use="planning", fact_ids=ids)
                err_u, text_u = await call(b, "check_memory_use", use="planning", fact_ids=[unknown_ep])
                assert err_k and err_u and same_but_the_id(text_k, text_u, ids[0], unknown_ep), (text_k, text_u)
            err, text = await call(b, "check_memory_use", use="action",
                                   items=[{"id": fid, "provenance": "user_confirmation"}])
            assert err and "no fact or episode" in text

            # -- episode ids are per group: B stores one under the id A used, unaware of it
            mine = await ok(b, "add_memory", name="b1", episode_body="My bank is Barclays.", uuid="ep-bank",
                            reference_time="2024-04-01")
            fresh = await ok(b, "add_memory", name="b2", episode_body="I like tea.", uuid="ep-fresh",
                             reference_time="2024-04-02")
            assert mine["episode"]["id"] == "ep-bank" and fresh["episode"]["id"] == "ep-fresh"
            assert mine["episode"]["group_id"] == fresh["episode"]["group_id"] == "tenantB"
            assert mine["message"].startswith("Episode 'b1' added")
            assert fresh["message"].startswith("Episode 'b2' added")
            err, text = await call(b, "add_memory", name="b3", episode_body="Again.", uuid="ep-bank")
            assert err and "already exists" in text                     # its own id, in its own group
            b_fact = mine["facts"][0]
            assert b_fact["episode_id"] == "ep-bank" and b_fact["value"] == "Barclays"
            edge = await ok(b, "get_entity_edge", uuid=b_fact["id"])
            assert edge["value"] == "Barclays"
            guard = await ok(b, "check_memory_use", use="planning", fact_ids=["ep-bank"])
            assert [x["text"] for x in guard["passed"]] == ["My bank is Barclays."]   # B's episode, not A's
            gone = await ok(b, "delete_episode", uuid="ep-bank")          # B's own
            assert [f["value"] for f in gone["retracted"]] == ["Barclays"]
            assert [e["id"] for e in (await ok(b, "get_episodes"))["episodes"]] == ["ep-fresh"]
            # B's other group, granted too
            await ok(b, "add_triplet", source_node_name="Bob", edge_name="likes", target_node_name="jazz",
                     group_id="shared")
            assert [f["value"] for f in (await ok(b, "as_of", subject="Bob", group_id="shared"))["facts"]] == ["jazz"]

            # -- A's data is untouched: read, guard-checked and found by A
            now = await ok(a, "as_of", subject="user")
            assert sorted(f["value"] for f in now["facts"]) == ["Monzo", "Porto"]
            eps = (await ok(a, "get_episodes", max_episodes=10))["episodes"]
            assert [e["content"] for e in eps if e["id"] == "ep-bank"] == ["My bank is Monzo."]
            assert (await ok(a, "get_entity_edge", uuid=fid))["status"] == "current"
            assert (await ok(a, "check_memory_use", use="planning", fact_ids=[fid, eid]))["allowed"] is True
            assert (await ok(a, "get_status"))["counts"]["Episode"] == 2
            # and A cannot see B's groups either
            err, text = await call(a, "as_of", subject="Bob", group_id="shared")
            assert err and "not granted" in text
            err, text = await call(a, "get_entity_edge", uuid=b_fact["id"])
            assert err and "no fact with id" in text

    anyio.run(scenario)


def test_requests_without_a_valid_token_are_refused(server):
    url, _ = server

    async def scenario() -> None:
        async with create_mcp_http_client() as http:
            for headers in ({}, {"Authorization": "Bearer not-a-token-of-this-server"},
                            {"Authorization": f"Bearer {TOKEN_A}x"}):
                r = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
                                    headers={"Accept": "application/json, text/event-stream", **headers})
                assert r.status_code == 401, (headers, r.status_code, r.text)

    anyio.run(scenario)


@pytest.mark.parametrize("args,needle", [
    (["--http", "8765", "--host", "0.0.0.0"], "host: '0.0.0.0' is not a loopback address"),
    (["--keys", "KEYS"], "keys: bearer tokens are for --http"),
    (["--http", "8765", "--keys", "MISSING"], "cannot read it"),
    (["--http", "8765", "--keys", "BAD"], "token #1: a token is a string of at least 16 characters"),
])
def test_the_server_refuses_to_start_unsafely(tmp_path, capsys, args, needle):
    from midas_graph.cli import main

    good, bad = tmp_path / "keys.toml", tmp_path / "bad.json"
    good.write_text(f'[tokens]\n"{TOKEN_A}" = ["tenantA"]\n')
    bad.write_text(json.dumps({"tokens": {"short": ["tenantA"]}}))
    paths = {"KEYS": str(good), "MISSING": str(tmp_path / "none.toml"), "BAD": str(bad)}
    db = tmp_path / "m.db"
    code = main(["--db", str(db), "--engine", ENGINE, "serve-mcp", *[paths.get(a, a) for a in args]])
    err = " ".join(capsys.readouterr().err.split())
    assert code == 1 and needle in err, err
    assert "short" not in err                                   # a token is never quoted
    assert not db.exists()                                      # refused before opening anything


def test_keys_files_in_toml_and_json(tmp_path):
    from midas_graph._access import Grant, digest, load_keys

    toml = tmp_path / "k.toml"
    toml.write_text(f'[tokens]\n"{TOKEN_A}" = ["a"]\n"{TOKEN_B}" = {{ groups = ["b", "c"], default = "c" }}\n')
    js = tmp_path / "k.json"
    js.write_text(json.dumps({"tokens": {TOKEN_A: ["a"], TOKEN_B: {"groups": ["b", "c"], "default": "c"}}}))
    want = {digest(TOKEN_A): Grant(frozenset({"a"}), "a"), digest(TOKEN_B): Grant(frozenset({"b", "c"}), "c")}
    assert load_keys(toml) == load_keys(js) == want
    assert TOKEN_A not in repr(want)                            # only digests are kept
    js.write_text(json.dumps({"tokens": {TOKEN_A: {"groups": ["a"], "default": "z"}}}))
    with pytest.raises(ValueError, match=re.escape("default 'z' is not one of its groups")):
        load_keys(js)
