"""Property test: as_of(T, K) equals a naive replay of the operation log up to K.

The naive model below is written independently of midas_graph._temporal: a
list of beliefs edited in place, no versions, no transaction time. Replaying
the operations recorded up to K and asking it about T must give exactly what
the bitemporal store answers for as_of(valid_at=T, known_at=K).
"""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import ENGINE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from midas_graph import Memory

pytestmark = pytest.mark.engine

UTC = dt.timezone.utc
V0 = dt.datetime(2024, 1, 1, tzinfo=UTC)
T0 = dt.datetime(2025, 1, 1, tzinfo=UTC)
END = dt.datetime.max.replace(tzinfo=UTC)
SINGLE = {"lives_in", "employer"}


class Naive:
    def __init__(self):
        self.beliefs: dict[str, dict] = {}

    def alive(self, s, a):
        return [b for b in self.beliefs.values() if b["alive"] and b["s"] == s and b["a"] == a]

    def add(self, fid, s, a, v, vf, vt):
        same = [b for b in self.alive(s, a) if b["v"] == v and b["vf"] <= vf < b["vt"]]
        if same:
            return min(same, key=lambda b: (b["vf"], b["id"]))["id"]
        new = dict(id=fid, s=s, a=a, v=v, vf=vf, vt=vt, stated=vt, sup=None, alive=True)
        if a in SINGLE:
            others = [b for b in self.alive(s, a) if b["v"] != v]
            later = [b for b in others if b["vf"] > vf and b["vt"] > b["vf"]]
            for b in others:
                if b["vf"] <= vf < b["vt"]:
                    b["vt"], b["sup"] = vf, fid
            if later:
                first = min(later, key=lambda b: (b["vf"], b["id"]))
                if first["vf"] < new["vt"]:
                    new["vt"], new["sup"] = first["vf"], first["id"]
        self.beliefs[fid] = new
        return fid

    def retract(self, fid):
        b = self.beliefs.get(fid)
        if b is None or not b["alive"]:
            return False
        b["alive"] = False
        reopened = [g for g in self.alive(b["s"], b["a"]) if g["sup"] == fid]
        for g in reopened:  # first all get their stated end back ...
            g["vt"], g["sup"] = g["stated"], None
        closing = []
        for g in reopened:  # ... then each is closed by a later value
            later = [h for h in self.alive(g["s"], g["a"]) if h["id"] != g["id"]
                     and h["vf"] > g["vf"] and h["v"] != g["v"] and h["vt"] > h["vf"]]
            if g["a"] in SINGLE and later:
                first = min(later, key=lambda h: (h["vf"], h["id"]))
                if first["vf"] < g["vt"]:
                    closing.append((g, first))
        for g, first in closing:
            g["vt"], g["sup"] = first["vf"], first["id"]
        return True

    def held(self):
        return {(b["id"], b["v"], b["vf"], b["vt"], b["sup"]) for b in self.beliefs.values() if b["alive"]}

    def at(self, t):
        return {x for x in self.held() if x[2] <= t < x[3]}


def replay(log, k):
    model = Naive()
    for when, op in log:
        if when > k:
            break
        if op[0] == "add":
            model.add(*op[1:])
        else:
            model.retract(op[1])
    return model


add_op = st.tuples(
    st.just("add"),
    # few subjects, attributes, values and days, so that beliefs collide often
    st.sampled_from(["Ann", "Ann", "Ann", "Bo"]),
    st.sampled_from(["lives_in", "lives_in", "lives_in", "employer", "speaks"]),
    st.sampled_from(["v1", "v2", "v3"]),
    st.integers(0, 6),
    st.one_of(st.none(), st.integers(1, 6)),
)
retract_op = st.tuples(st.just("retract"), st.integers(0, 3))  # one of the 4 latest facts
step = st.sampled_from([0, 0, 0, 1, 2])  # days per operation; 0 often, so that bulk batches form
ops = st.lists(st.tuples(step, st.one_of(add_op, add_op, add_op, retract_op)), min_size=3, max_size=25)
queries = st.lists(st.tuples(st.integers(-1, 14), st.integers(-1, 60)), min_size=4, max_size=12)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=ops, queries=queries, bulk=st.booleans())
def test_as_of_matches_naive_replay(ops, queries, bulk):
    """With ``bulk``, runs of adds at one transaction time go through one add_facts call."""
    now = [T0]
    mem = Memory(clock=lambda: now[0], engine=ENGINE)
    model = Naive()
    log, ids = [], []
    pending: list[tuple] = []

    def flush():
        if not pending:
            return
        rows = [dict(subject=s, attribute=a, value=v, valid_from=vf, valid_to=vt) for s, a, v, vf, vt in pending]
        facts = mem.add_facts(rows) if bulk else [mem.add_fact(**r) for r in rows]
        for fact, (s, a, v, vf, vt) in zip(facts, pending):
            expected = model.add(fact.id, s, a, v, vf, vt or END)
            assert fact.id == expected
            if expected not in ids:
                ids.append(expected)
                log.append((now[0], ("add", fact.id, s, a, v, vf, vt or END)))
        pending.clear()

    try:
        for dstep, op in ops:
            if dstep:
                flush()
            now[0] = now[0] + dt.timedelta(days=dstep)
            if op[0] == "add":
                _, s, a, v, vf_day, span = op
                vf = V0 + dt.timedelta(days=vf_day)
                vt = None if span is None else vf + dt.timedelta(days=span)
                pending.append((s, a, v, vf, vt))
                continue
            flush()
            if ids:
                fid = ids[-1 - op[1] % len(ids)]
                ok = model.retract(fid)
                if ok:
                    mem.retract(fid)
                    log.append((now[0], ("retract", fid)))
                else:
                    with pytest.raises(ValueError):
                        mem.retract(fid)
        flush()
        # Exhaustive over valid time: at every transaction time of the log (and
        # just before each), the versions held must be exactly the model's beliefs.
        for k in sorted({w for w, _ in log} | {w - dt.timedelta(seconds=1) for w, _ in log}):
            held = mem._store.facts_of(None, group_id="default", known_at=k)
            got = {(f.id, f.value, f.valid_from, f.valid_to or END, f.superseded_by) for f in held}
            assert got == replay(log, k).held(), k
        # And through the public API at random (T, K).
        for t_day, k_day in queries:
            t = V0 + dt.timedelta(days=t_day)
            k = T0 + dt.timedelta(days=k_day)
            got = {(f.id, f.value, f.valid_from, f.valid_to or END, f.superseded_by)
                   for f in mem.as_of(valid_at=t, known_at=k)}
            assert got == replay(log, k).at(t), (t, k)
    finally:
        mem.close()
