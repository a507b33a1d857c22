"""One writer at a time, concurrent readers (the MCP server serves calls from
worker threads)."""

from __future__ import annotations

import threading
import time

import pytest
from conftest import ENGINE, StepClock

from midas_graph import Memory

pytestmark = pytest.mark.engine


def test_a_read_from_another_thread_does_not_wait_for_an_open_write_transaction():
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_fact("Kim", "lives_in", "Oslo")
        store = mem._store
        inside, release = threading.Event(), threading.Event()

        def writer():
            with store.transaction():
                store.set_meta("probe", "uncommitted")
                inside.set()
                release.wait(10)

        t = threading.Thread(target=writer)
        t.start()
        assert inside.wait(10)
        start = time.perf_counter()
        facts = mem.as_of("Kim")                   # reads the committed snapshot
        meta = store.meta("probe")
        waited = time.perf_counter() - start
        release.set()
        t.join()
        assert [f.value for f in facts] == ["Oslo"]
        assert meta is None                        # the open transaction is not visible
        assert waited < 5
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
