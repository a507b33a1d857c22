"""Belief revision on the two time axes, as pure Python over stored versions.

The store loads the *held* versions (``expired_at`` open) of the subjects a
write touches into a :class:`Working` set; every operation here edits that set
and appends the writes it implies to a :class:`Plan`; the store then applies
the plan in one transaction. Keeping the rules here, away from the engine,
makes them the same for one fact and for a bulk batch, and testable against a
naive replay model.

Rules (see docs/temporal.md):

* A stored version never changes except for ``expired_at``/``expire_reason``
  (and ``expired_by_episode``, written with them).
  Changing a belief's valid interval expires its held version and records a
  new version (``version + 1``) at the same transaction time.
* Restating a held value that is valid at the new ``valid_from`` records
  nothing and returns the held fact.
* Supersession: a new value of a single-valued attribute (or an explicit
  ``close_ids`` list, from NLI) closes each held, different-valued fact that
  is valid at or starts at the new ``valid_from``: its valid interval ends at
  the new ``valid_from`` and it is linked ``superseded_by`` the new fact.
* Late arrival: if a held different value of a single-valued attribute starts
  after the new ``valid_from``, the new fact is recorded closed at the start
  of the earliest such value, ``superseded_by`` it.
* Retraction expires the held version; each fact it had superseded is
  re-opened (new version, its stated ``valid_to`` back) and then closed again
  by the late-arrival rule if a later value still holds.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import datetime as _dt
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

from ._types import Fact


def slot_key(subject_id: str, attribute: str) -> str:
    """The key of one (subject, attribute) slot: the unit revision looks at."""
    return f"{subject_id}\x1f{attribute}"


@functools.lru_cache(maxsize=65536)
def norm_value(value: object) -> str:
    """A short digest of a value as restatement compares it (strings
    case-folded and whitespace-collapsed, other types with their type). Equal
    values give equal digests; a rare collision only costs an extra load."""
    text = " ".join(value.casefold().split()) if isinstance(value, str) else f"{type(value).__name__}:{value!r}"
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


#: One held version as a slot lists it: (vid, value digest, valid_to or None).
SlotEntry = tuple[str, str, "_dt.datetime | None"]


@dataclass
class Plan:
    inserts: list[Fact] = field(default_factory=list)
    expires: list[tuple[str, _dt.datetime, str]] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)  # (version vid, successor id)
    #: slot key -> its held versions after the plan (only the slots it touched)
    slots: dict[str, list[SlotEntry]] = field(default_factory=dict)
    #: the episode whose transaction this is: stored on every version it expires
    expired_by_episode: str | None = None

    def __bool__(self) -> bool:
        return bool(self.inserts or self.expires or self.links)


def same_value(a: Fact, b: Fact) -> bool:
    if a.object_id and b.object_id:
        return a.object_id == b.object_id
    va, vb = a.value, b.value
    if isinstance(va, str) and isinstance(vb, str):
        return " ".join(va.casefold().split()) == " ".join(vb.casefold().split())
    return type(va) is type(vb) and va == vb


def _when(t: _dt.datetime) -> str:
    """A time as a reason quotes it: the date alone at midnight."""
    return t.date().isoformat() if t.time() == _dt.time(0) else t.isoformat()


def _valid_at(f: Fact, at: _dt.datetime) -> bool:
    return f.valid_from <= at and (f.valid_to is None or at < f.valid_to)


def _entry(f: Fact) -> SlotEntry:
    return (f.vid, norm_value(f.value), f.valid_to)


def _start_order(f: Fact) -> tuple:
    """Earliest start first; the id breaks ties so that any replay agrees."""
    return (f.valid_from, f.id)


def _empty(f: Fact) -> bool:
    """Closed at its own start (superseded by a value from the same instant)."""
    return f.valid_to is not None and f.valid_to <= f.valid_from


class Working:
    """The held versions of some subjects, edited in place by revision rules."""

    def __init__(
        self,
        held: Iterable[Fact] = (),
        is_single: Callable[[str], bool] = lambda a: False,
        slots: dict[str, list[SlotEntry]] | None = None,
        *,
        episode_id: str | None = None,
    ) -> None:
        """``held``: the held versions revision may look at. ``slots``: the
        stored held lists of the slots a write touches, when ``held`` holds
        only the part of them that matters (else ``held`` must be complete
        for every slot touched). ``episode_id``: the episode whose
        transaction this is; every version the plan expires records it."""
        self.is_single = is_single
        self._base = slots or {}
        self.by_id: dict[str, Fact] = {}
        self.by_key: dict[tuple[str, str], dict[str, Fact]] = {}
        for f in held:
            self._put(f)
        self.plan = Plan(expired_by_episode=episode_id)
        self._fresh: dict[str, int] = {}  # vid -> index in plan.inserts
        self._touched: set[tuple[str, str]] = set()

    # -- bookkeeping ---------------------------------------------------------
    def _put(self, f: Fact) -> None:
        self.by_id[f.id] = f
        self.by_key.setdefault((f.subject_id, f.attribute), {})[f.id] = f

    def _drop(self, f: Fact) -> None:
        self.by_id.pop(f.id, None)
        self.by_key.get((f.subject_id, f.attribute), {}).pop(f.id, None)

    def held(self, subject_id: str, attribute: str) -> list[Fact]:
        return list(self.by_key.get((subject_id, attribute), {}).values())

    def _touch(self, f: Fact) -> None:
        self._touched.add((f.subject_id, f.attribute))

    def _expire(self, f: Fact, now: _dt.datetime, why: str) -> None:
        self.plan.expires.append((f.vid, now, why))
        self._drop(f)
        self._touch(f)

    def _record(self, f: Fact) -> Fact:
        self._fresh[f.vid] = len(self.plan.inserts)
        self.plan.inserts.append(f)
        self._put(f)
        self._touch(f)
        return f

    def finish(self) -> Plan:
        """The plan, with the held list of every slot it touched: the stored
        list (or the working set's) minus what expired plus what was recorded."""
        expired = {vid for vid, _, _ in self.plan.expires}
        # Every version recorded with a successor gets its SUPERSEDED_BY edge
        # (derived here, so that no rule can forget one).
        self.plan.links = [(f.vid, f.superseded_by) for f in self.plan.inserts if f.superseded_by is not None]
        fresh: dict[tuple[str, str], list[Fact]] = {}
        for f in self.plan.inserts:
            if f.vid not in expired:
                fresh.setdefault((f.subject_id, f.attribute), []).append(f)
        for s, a in self._touched:
            key = slot_key(s, a)
            base = self._base.get(key)
            if base is None:
                entries = [_entry(f) for f in self.by_key.get((s, a), {}).values()]
            else:
                entries = [e for e in base if e[0] not in expired]
                entries += [_entry(f) for f in fresh.get((s, a), ())]
            self.plan.slots[key] = entries
        return self.plan

    def _revise(self, f: Fact, now: _dt.datetime, why: str, **changes) -> Fact:
        """Expire ``f``'s held version and record the next one with ``changes``.

        A version recorded by this same plan was never visible to anyone: it
        is amended in place rather than stored expired at its own instant.
        """
        fresh = self._fresh.get(f.vid)
        if fresh is not None:
            amended = dataclasses.replace(f, **changes)
            self.plan.inserts[fresh] = amended
            self._put(amended)
            return amended
        self._expire(f, now, why)
        nxt = dataclasses.replace(
            f, version=f.version + 1, recorded_at=now, expired_at=None, expire_reason=None,
            expired_by_episode=None, **changes
        )
        return self._record(nxt)

    # -- operations ----------------------------------------------------------
    def assert_fact(self, new: Fact, *, close: Mapping[str, str] | None = None) -> Fact:
        """Record ``new`` (version 1, held, with ``stated_valid_to`` set to its
        ``valid_to``) and apply supersession and late arrival.

        ``close`` maps held facts of the same subject that a revision model
        found contradicted (beyond the single-valued rule) to why (e.g. the
        NLI score), which their closing reason quotes. Returns the recorded
        fact, or the held fact it restates.
        """
        now, start = new.recorded_at, new.valid_from
        single = self.is_single(new.attribute)
        held = self.held(new.subject_id, new.attribute)
        restated = [f for f in held if same_value(f, new) and _valid_at(f, start)]
        if restated:  # the longest-standing one
            return min(restated, key=_start_order)
        close = close or {}
        rule = "single_valued"
        to_close: list[Fact] = []
        later: list[Fact] = []
        if single:
            for f in held:
                if same_value(f, new):
                    continue
                if f.valid_from > start:
                    if not _empty(f):
                        later.append(f)
                elif f.valid_to is None or f.valid_to > start:
                    to_close.append(f)
        for fid in close:
            f = self.by_id.get(fid)
            if (
                f is not None and f not in to_close and f.subject_id == new.subject_id
                and f.valid_from <= start and (f.valid_to is None or f.valid_to > start)
            ):
                to_close.append(f)
        valid_to, successor, reason = new.valid_to, None, new.reason
        if later:
            first = min(later, key=_start_order)
            if valid_to is None or first.valid_from < valid_to:
                valid_to, successor = first.valid_from, first.id
                reason = f"late arrival: closed at the start of {first.id} ({rule})"
        # Sequenced uniqueness: the same value held from a later start, which the
        # new interval reaches, is one belief stated with an earlier start: widen it.
        same_later = [
            f for f in held
            if same_value(f, new) and f.valid_from > start and not _empty(f)
            and (valid_to is None or f.valid_from < valid_to)
        ]
        if same_later:
            return self._widen(min(same_later, key=_start_order), new, to_close, close, rule)
        rec = new
        if successor is not None or to_close or reason != new.reason:
            rec = dataclasses.replace(
                new, valid_to=valid_to, superseded_by=successor,
                supersedes=tuple(f.id for f in to_close), reason=reason,
            )
        for f in to_close:
            why = close.get(f.id, rule)
            self._revise(
                f, now, f"superseded by {rec.id}",
                valid_to=start, superseded_by=rec.id,
                reason=f"superseded by {rec.id} ({why})",
            )
        return self._record(rec)

    def _widen(self, g: Fact, new: Fact, to_close: Sequence[Fact], close: Mapping[str, str], rule: str) -> Fact:
        """Restating ``g``'s value from an earlier start: record ``g``'s next
        version starting at ``new.valid_from`` (its end unchanged) and close
        what held at that start in its favour, as a new fact would."""
        now, start = new.recorded_at, new.valid_from
        note = f"widened: restated from {_when(start)} (was from {_when(g.valid_from)})"
        supersedes = tuple(dict.fromkeys([*g.supersedes, *(f.id for f in to_close)]))
        rec = self._revise(g, now, note, valid_from=start, supersedes=supersedes, reason=note)
        for f in to_close:
            why = close.get(f.id, rule)
            self._revise(
                f, now, f"closed earlier: {rec.id} was widened to start at {_when(start)}",
                valid_to=start, superseded_by=rec.id, reason=f"superseded by {rec.id} ({why})",
            )
        return rec

    def retract(self, fact_id: str, now: _dt.datetime, reason: str | None) -> Fact:
        f = self.by_id[fact_id]
        why = "retracted" + (f": {reason}" if reason else "")
        self._expire(f, now, why)
        reopened = [
            g for g in self.by_id.values() if g.subject_id == f.subject_id and g.superseded_by == fact_id
        ]
        # Every re-opened belief first gets its stated interval back; only then
        # is each closed by the late-arrival rule, so the order does not matter.
        ends = {g.id: g.stated_valid_to for g in reopened}
        decided = [(g, *self._later_close(g, g.stated_valid_to, ends)) for g in reopened]
        for g, valid_to, successor in decided:
            self._reopen(g, now, f"{fact_id} was retracted", valid_to, successor)
        return dataclasses.replace(f, expired_at=now, expire_reason=why,
                                   expired_by_episode=self.plan.expired_by_episode)

    def _reopen(self, g: Fact, now: _dt.datetime, why: str, valid_to: _dt.datetime | None,
                successor: str | None) -> Fact:
        """Record ``g`` again with the end (and successor) decided for it."""
        note = f"re-opened: {why}" + (f"; closed at the start of {successor}" if successor else "")
        return self._revise(g, now, note, valid_to=valid_to, superseded_by=successor, reason=note)

    def _later_close(
        self, g: Fact, valid_to: _dt.datetime | None, ends: dict[str, _dt.datetime | None]
    ) -> tuple[_dt.datetime | None, str | None]:
        """Late arrival for a re-opened belief: its end and successor given the
        held values of a single-valued slot that start after it (``ends``
        overrides the end of beliefs being re-opened with it)."""
        single = self.is_single(g.attribute)
        later = []
        for h in self.held(g.subject_id, g.attribute):
            end = ends.get(h.id, h.valid_to) if h.id in ends else h.valid_to
            if h.id == g.id or (end is not None and end <= h.valid_from):
                continue  # itself, or a belief that holds at no valid time
            if not single and not same_value(h, g):
                continue  # values of a multi-valued attribute coexist
            if h.valid_from > g.valid_from:
                later.append(h)
            elif h.valid_from == g.valid_from and (h.id not in ends or h.id > g.id):
                # Same start: the one that held while ``g`` was closed was stated
                # after it and wins; between two re-opened at once, the larger id.
                later.append(h)
        if later:
            first = min(later, key=_start_order)
            if valid_to is None or first.valid_from < valid_to:
                return first.valid_from, first.id
        return valid_to, None

    def reopen(self, fact_id: str, now: _dt.datetime, why: str) -> Fact:
        """Undo a cessation: the belief gets its stated end back (closed by a
        later value of a single-valued slot if there is one)."""
        g = self.by_id[fact_id]
        return self._reopen(g, now, why, *self._later_close(g, g.stated_valid_to, {}))

    def reinstate(self, f: Fact, version: int, now: _dt.datetime, why: str) -> Fact:
        """Undo a retraction: record the retracted belief ``f`` again, as
        version ``version``, with its stated end. It then follows the rules
        of a new fact: it closes the held different values of a
        single-valued slot valid at its start (and the beliefs it had
        superseded, if they hold again), and a later value closes it.
        Returns what holds: the re-recorded belief, or a held one with the
        same value that already covers its start."""
        note = f"re-opened: {why}"
        again = dataclasses.replace(
            f, version=version, recorded_at=now, expired_at=None, expire_reason=None,
            expired_by_episode=None, valid_to=f.stated_valid_to, superseded_by=None, supersedes=(),
            reason=note,
        )
        rec = self.assert_fact(again, close=dict.fromkeys(f.supersedes, "re-instated"))
        if rec.id == f.id and rec.superseded_by is not None:  # late arrival: keep why it is back
            rec = self._revise(rec, now, "", reason=f"{note}; closed at the start of {rec.superseded_by}")
        return rec

    def end(self, fact_id: str, at: _dt.datetime, now: _dt.datetime, why: str) -> Fact:
        """Close a held belief's valid interval at ``at`` with no successor (cessation)."""
        f = self.by_id[fact_id]
        if f.valid_to is not None and f.valid_to <= at:
            return f
        return self._revise(f, now, f"ended: {why}", valid_to=max(at, f.valid_from), reason=f"ended: {why}")

