"""Property tests: as_of(T, K) equals a naive replay of the operation log up
to K, and the database's invariants (``Memory.check()``) hold after every step.

The naive model below is written independently of midas_graph._temporal: a
list of beliefs edited in place, no versions, no transaction time. Replaying
the operations recorded up to K and asking it about T must give exactly what
the bitemporal store answers for as_of(valid_at=T, known_at=K).

Its rules, in the words of docs/temporal.md:

* a value already held at the new start is a restatement: nothing changes;
* the same value held from a later start, which the new interval reaches,
  is widened to the new start (one belief, not two);
* otherwise a new belief: for a single-valued attribute it closes every
  other value valid at its start, and is itself closed at the start of the
  first other value that begins after it (late arrival);
* a retraction kills a belief; every belief it had closed gets its stated
  end back, then is closed at the start of the first held belief that begins
  after it (any value if single-valued, the same value otherwise); a belief
  that begins at the same instant wins, unless it is re-opened too, then the
  larger id does; a re-opened belief that begins inside an earlier held one
  closes it there (or, with the same value, stays closed at its own start).
"""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import ENGINE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

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
        mine = self.alive(s, a)
        same = [b for b in mine if b["v"] == v and b["vf"] <= vf < b["vt"]]
        if same:
            return min(same, key=lambda b: (b["vf"], b["id"]))["id"]
        others = [b for b in mine if b["v"] != v] if a in SINGLE else []
        closing = [b for b in others if b["vf"] <= vf < b["vt"]]
        later = [b for b in others if b["vf"] > vf and b["vt"] > b["vf"]]
        end, sup = vt, None
        if later:
            first = min(later, key=lambda b: (b["vf"], b["id"]))
            if first["vf"] < end:
                end, sup = first["vf"], first["id"]
        widen = [b for b in mine if b["v"] == v and vf < b["vf"] < end and b["vt"] > b["vf"]]
        if widen:
            target = min(widen, key=lambda b: (b["vf"], b["id"]))
            target["vf"] = vf
        else:
            target = dict(id=fid, s=s, a=a, v=v, vf=vf, vt=end, stated=vt, sup=sup, alive=True)
            self.beliefs[fid] = target
        for b in closing:
            b["vt"], b["sup"] = vf, target["id"]
        return target["id"]

    def retract(self, fid):
        b = self.beliefs.get(fid)
        if b is None or not b["alive"]:
            return False
        b["alive"] = False
        reopened = [g for g in self.alive(b["s"], b["a"]) if g["sup"] == fid]
        for g in reopened:  # first all get their stated end back ...
            g["vt"], g["sup"] = g["stated"], None
        closing = []
        for g in reopened:  # ... then each is closed by the next belief that begins
            later = []
            for h in self.alive(g["s"], g["a"]):
                if h is g or h["vt"] <= h["vf"] or (g["a"] not in SINGLE and h["v"] != g["v"]):
                    continue
                if h["vf"] > g["vf"] or (h["vf"] == g["vf"] and (h not in reopened or h["id"] > g["id"])):
                    later.append(h)
            if later:
                first = min(later, key=lambda h: (h["vf"], h["id"]))
                if first["vf"] < g["vt"]:
                    closing.append((g, first))
        for g, first in closing:
            g["vt"], g["sup"] = first["vf"], first["id"]
        covered = {}  # ... and one that begins inside an earlier held belief closes it there
        for g in reopened:
            if g["vt"] <= g["vf"]:
                continue
            for h in self.alive(g["s"], g["a"]):
                if h is g or h in reopened or (g["a"] not in SINGLE and h["v"] != g["v"]):
                    continue
                if h["vf"] < g["vf"] < h["vt"]:
                    if h["v"] == g["v"]:  # the same value already holds there
                        g["vt"], g["sup"] = g["vf"], h["id"]
                    elif h["id"] not in covered or g["vf"] < covered[h["id"]][1]["vf"]:
                        covered[h["id"]] = (h, g)
        for h, g in covered.values():
            h["vt"], h["sup"] = g["vf"], g["id"]
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


def held_now(mem, k=None):
    facts = mem._store.facts_of(None, group_id="default", known_at=k or mem.now())
    return {(f.id, " ".join(f.value.casefold().split()), f.valid_from, f.valid_to or END, f.superseded_by)
            for f in facts}


def single_values_visible(mem, t, k):
    """(subject, attribute) -> values visible at (t, k), for the invariant."""
    out: dict[tuple, list] = {}
    for f in mem.as_of(valid_at=t, known_at=k):
        out.setdefault((f.subject, f.attribute), []).append(f.value)
    return out


# -- one random log, replayed and compared at every transaction time ----------------

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
            assert held_now(mem, k) == replay(log, k).held(), k
        # And through the public API at random (T, K).
        for t_day, k_day in queries:
            t = V0 + dt.timedelta(days=t_day)
            k = T0 + dt.timedelta(days=k_day)
            got = {(f.id, f.value, f.valid_from, f.valid_to or END, f.superseded_by)
                   for f in mem.as_of(valid_at=t, known_at=k)}
            assert got == replay(log, k).at(t), (t, k)
        assert mem.check() == []
    finally:
        mem.close()


# -- a state machine: restatements, coarse and fine starts, reverse arrivals, ------------
# -- retractions of restatements, reopening the file; invariants after every step -------

#: Starts the machine draws from: coarse ones (a month, a year) and fine ones
#: inside them, so that one value is often restated with an earlier or later start.
STARTS = [V0 + dt.timedelta(days=d) for d in (0, 0, 14, 31, 31, 45, 59, 90, 120, 365)]
VALUES = ["Berlin", "Lisbon", "berlin ", "Porto"]  # "berlin " restates Berlin


class BitemporalMachine(RuleBasedStateMachine):
    """Every rule is one write (or a reopen); after every step the database's
    own invariants hold, the held versions equal the naive model's beliefs,
    and no (T, K) shows two values of a single-valued attribute. At the end,
    the whole log is replayed at every transaction time."""

    def __init__(self):
        super().__init__()
        self.now = [T0]
        self.model = Naive()
        self.log: list[tuple] = []
        self.ids: list[str] = []
        self.mem = None

    @initialize()
    def open_memory(self):
        import tempfile

        self.dir = tempfile.TemporaryDirectory(prefix="midas-prop-")
        self.path = f"{self.dir.name}/m.db"
        self.mem = Memory(self.path, clock=lambda: self.now[0], engine=ENGINE)

    def _tick(self, minutes):
        self.now[0] = self.now[0] + dt.timedelta(minutes=minutes)

    def _record(self, facts, rows):
        for fact, (s, a, v, vf, vt) in zip(facts, rows):
            expected = self.model.add(fact.id, s, a, self._norm(v), vf, vt or END)
            assert fact.id == expected, (fact, rows)
            if expected not in self.ids:
                self.ids.append(expected)
            self.log.append((self.now[0], ("add", fact.id, s, a, self._norm(v), vf, vt or END)))

    @staticmethod
    def _norm(v):
        return " ".join(v.casefold().split())

    @rule(s=st.sampled_from(["Q", "Q", "R"]), a=st.sampled_from(["lives_in", "lives_in", "speaks"]),
          v=st.sampled_from(VALUES), vf=st.sampled_from(STARTS), span=st.sampled_from([None, None, 10, 40, 400]),
          tick=st.sampled_from([0, 1, 60]))
    def add(self, s, a, v, vf, span, tick):
        self._tick(tick)
        vt = None if span is None else vf + dt.timedelta(days=span)
        fact = self.mem.add_fact(s, a, v, valid_from=vf, valid_to=vt)
        self._record([fact], [(s, a, v, vf, vt)])

    @rule(rows=st.lists(st.tuples(st.just("Q"), st.sampled_from(["lives_in", "speaks"]), st.sampled_from(VALUES),
                                  st.sampled_from(STARTS), st.sampled_from([None, 10, 400])),
                        min_size=2, max_size=5),
          reverse=st.booleans())
    def add_batch(self, rows, reverse):
        """One transaction; ``reverse`` sends a timeline newest first."""
        self._tick(1)
        if reverse:
            rows = sorted(rows, key=lambda r: r[3], reverse=True)
        rows = [(s, a, v, vf, None if span is None else vf + dt.timedelta(days=span)) for s, a, v, vf, span in rows]
        facts = self.mem.add_facts([dict(subject=s, attribute=a, value=v, valid_from=vf, valid_to=vt)
                                    for s, a, v, vf, vt in rows])
        self._record(facts, rows)

    @precondition(lambda self: self.ids)
    @rule(pick=st.integers(0, 5), tick=st.sampled_from([0, 1, 60]))
    def retract(self, pick, tick):
        self._tick(tick)
        fid = self.ids[-1 - pick % len(self.ids)]
        if self.model.retract(fid):
            self.mem.retract(fid)
            self.log.append((self.now[0], ("retract", fid)))
        else:
            with pytest.raises(ValueError):
                self.mem.retract(fid)

    @rule()
    def reopen(self):
        self.mem.close()
        self.mem = Memory(self.path, clock=lambda: self.now[0], engine=ENGINE)

    @invariant()
    def sound(self):
        if self.mem is None:
            return
        assert self.mem.check() == []
        assert held_now(self.mem) == self.model.held()
        k = self.now[0]
        for t in STARTS[::3]:
            for (s, a), values in single_values_visible(self.mem, t, k).items():
                if a == "lives_in":
                    assert len(values) == 1, (s, a, t, values)
                else:
                    assert len(values) == len(set(values)), (s, a, t, values)

    def teardown(self):
        if self.mem is None:
            return
        try:
            times = {w for w, _ in self.log}
            for k in sorted(times | {w - dt.timedelta(seconds=1) for w in times}):
                assert held_now(self.mem, k) == replay(self.log, k).held(), k
        finally:
            self.mem.close()
            self.dir.cleanup()


# The default engine runs the full count; Kùzu, whose runs are several times
# slower here, half of it: the rules under test are the engine-neutral
# _temporal module's, and Kùzu's half checks its storage gives the same answers.
BitemporalMachine.TestCase.settings = settings(
    max_examples=40 if ENGINE == "ladybug" else 20, stateful_step_count=20, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_bitemporal_state_machine = BitemporalMachine.TestCase
