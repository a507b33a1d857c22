"""One writer at a time, concurrent readers (the MCP server serves calls from
worker threads)."""

from __future__ import annotations

import threading

import pytest
from conftest import ENGINE, StepClock

from midas_graph import Memory

pytestmark = pytest.mark.engine


def test_a_read_from_another_thread_does_not_wait_for_an_open_write_transaction():
    """The writer holds its transaction open until the read has returned: a
    read that waited for the writer would never return (the test would hang
    and fail at the guard below), whatever the machine's speed."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_fact("Kim", "lives_in", "Oslo")
        store = mem._store
        inside, read_done = threading.Event(), threading.Event()
        seen: dict = {}

        def writer():
            with store.transaction():
                store.set_meta("probe", "uncommitted")
                inside.set()
                read_done.wait(300)  # a guard against a hang only: the read is milliseconds

        def reader():
            assert inside.wait(300)
            seen["facts"] = mem.as_of("Kim")           # reads the committed snapshot
            seen["meta"] = store.meta("probe")
            seen["writer_open"] = t.is_alive()
            read_done.set()

        t = threading.Thread(target=writer)
        t.start()
        r = threading.Thread(target=reader)
        r.start()
        r.join()
        t.join()
        assert seen["writer_open"] is True             # the read returned inside the open write
        assert [f.value for f in seen["facts"]] == ["Oslo"]
        assert seen["meta"] is None                    # the open transaction is not visible
        assert store.meta("probe") == "uncommitted"  # and is once committed


def test_concurrent_readers_and_a_writer_agree_with_a_serial_replay():
    """Four threads read while one writes 200 facts; every read sees a
    consistent state (the value of one committed write), and at the end
    every write is there."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_fact("Kim", "lives_in", "City 0")
        errors: list[BaseException] = []
        seen: list[str] = []
        done = threading.Event()

        def reader():
            try:
                while not done.is_set():
                    values = [f.value for f in mem.current("Kim", "lives_in")]
                    assert len(values) == 1, values    # single-valued: never two at once
                    seen.append(values[0])
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        readers = [threading.Thread(target=reader) for _ in range(4)]
        for r in readers:
            r.start()
        for i in range(1, 201):
            mem.add_fact("Kim", "lives_in", f"City {i}")
        done.set()
        for r in readers:
            r.join()
        assert not errors, errors[0]
        assert seen and all(v.startswith("City ") for v in seen)
        assert [f.value for f in mem.current("Kim", "lives_in")] == ["City 200"]
        assert len({f.id for f in mem.history("Kim", "lives_in")}) == 201
