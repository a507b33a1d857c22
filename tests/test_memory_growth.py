"""A long-running agent must not grow: repeated reads keep RSS flat.

LadybugDB 0.22 leaks ~47 bytes for every TIMESTAMP it hands to Python (7 KB
per as_of query); the store returns times as text instead. Kùzu 0.11.3 grows
~8 KB per query by itself (upstream, archived), so this runs on ladybug only.
"""

from __future__ import annotations

import gc

import psutil
import pytest
from conftest import ENGINE

from midas_graph import Memory

pytestmark = pytest.mark.skipif(ENGINE != "ladybug", reason="Kùzu 0.11.3 grows per query upstream")


def rss_kb() -> float:
    gc.collect()
    return psutil.Process().memory_info().rss / 1024


def test_repeated_reads_do_not_grow(clock):
    with Memory(clock=clock, engine=ENGINE) as mem:
        mem.add_facts([
            {"subject": f"s{i % 5}", "attribute": f"a{i % 7}", "value": f"v{i}",
             "valid_from": f"2024-01-{1 + i % 28:02d}"}
            for i in range(300)
        ])
        for i in range(500):  # warm caches
            mem.as_of(f"s{i % 5}")
            mem.history(f"s{i % 5}")
        before = rss_kb()
        n = 4000
        for i in range(n):
            mem.as_of(f"s{i % 5}", valid_at="2024-01-15")
            mem.history(f"s{i % 5}")
        growth = (rss_kb() - before) / n
    # the leak this guards against was ~7 KB per as_of query on this data
    assert growth < 0.5, f"RSS grew {growth:.2f} KB per as_of+history pair"
