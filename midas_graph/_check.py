"""``Memory.check()``: the memory's fsck.

It reads every stored version, entity, name key, episode link and revision
slot, and reports each broken invariant as a :class:`Violation` (an empty
list means the database is sound). It never writes. The rules:

* ``schema``: the database's schema version is the one this code writes.
* ``digest``: every fact version, episode, entity and name key still
  matches the digest of its fields written with it (a fact's expiry has its
  own), and its primary key finds it (``midas_graph/_digest.py``,
  docs/integrity.md). What the engine cannot read at all is reported here
  too. A damaged row also breaks other rules: fix this one first.
* ``interval``: ``valid_from <= valid_to`` (equal only for a belief that
  revision closed at its own start: superseded by a value from the same
  instant, or ended as it began; never as stated), ``recorded_at <=
  expired_at``, and an expired version says why.
* ``versions``: a belief's versions are numbered 1..n (m..n in a group
  ``compact()`` dropped old versions of: it drops a prefix), share its group,
  subject, attribute and value, do not overlap in transaction time, and at
  most the latest one is held.
* ``overlap``: sequenced uniqueness. At no (valid time, transaction time) are
  two versions of a single-valued attribute visible, nor two versions with
  the same value of any attribute.
* ``successor``: every ``superseded_by`` and ``supersedes`` names a belief
  that exists, and a superseded version has its ``SUPERSEDED_BY`` edge
  (in a compacted group, a link to a belief or a version 1 that
  ``compact()`` dropped is accepted: it rewrites no row).
* ``cycle``: the ``superseded_by`` links of the versions held at any one
  transaction time form no cycle.
* ``episode``: a held belief's source episode exists; every version's is in
  its group, with its ``FROM_EPISODE`` edge (``remove_episode`` deletes the
  episode and leaves no belief it stated held, so those may name it).
* ``subject``: a version hangs off its subject entity, of its group, by
  one ``HAS_FACT`` edge; a value that names an entity links to an entity of
  the group by one ``OBJECT`` edge.
* ``names``: in a group, a name or alias names one entity; every name key
  points to an entity of its group, and every entity's name has a key; a
  held people link's name finds its entity, a "same" link joins two
  entities of its group, and the links form no cycle (docs/people.md).
* ``slot``: each revision slot lists exactly the held versions of its
  (subject, attribute), with their values and ends.
* ``tier``: a cold episode (``Memory.forget``, docs/forgetting.md) has no
  vectors and is none that forgetting must keep: the source of a fact
  version, one that closed a belief, a ``user_confirmation`` one; a purged
  stub (``forget(purge=True)``) has no content left.

The attribute registry used is the memory's own (``Memory(attributes=...)``):
open a database with the registry it was written with.
"""

from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Sequence


from ._digest import damaged
from ._errors import EngineError
from ._store import SCHEMA_VERSION, alias_key, public_episode_id
from ._temporal import norm_value, slot_key
from ._types import Fact

if TYPE_CHECKING:
    from ._memory import Memory

RULES = ("schema", "digest", "interval", "versions", "overlap", "successor", "cycle", "episode", "subject", "names", "slot", "tier")


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken invariant: the ``rule`` (one of :data:`RULES`), a one-line
    ``message``, and the ids involved (version ids ``<id>:<n>``, entity,
    episode or slot keys)."""

    rule: str
    message: str
    ids: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


def _when(dt: _dt.datetime | None) -> str:
    return "open" if dt is None else dt.isoformat()


def _visible_box(f: Fact) -> bool:
    """Whether the version is visible at some (T, K) at all."""
    return (f.valid_to is None or f.valid_to > f.valid_from) and (
        f.expired_at is None or f.expired_at > f.recorded_at)


def _meet(a: Fact, b: Fact) -> tuple[_dt.datetime, _dt.datetime] | None:
    """A (valid time, transaction time) at which both versions are visible, if any."""
    t = max(a.valid_from, b.valid_from)
    k = max(a.recorded_at, b.recorded_at)
    if a.valid_at(t) and b.valid_at(t) and a.held_at(k) and b.held_at(k):
        return t, k
    return None


class _Report:
    def __init__(self) -> None:
        self.items: list[Violation] = []

    def add(self, rule: str, message: str, *ids: str) -> None:
        self.items.append(Violation(rule, message, tuple(ids)))


def check(mem: Memory, *, group_id: str | None = None) -> list[Violation]:
    """Every broken invariant of the database (of one group, if given)."""
    store = mem._store
    out = _Report()
    version = store.meta("schema_version")
    if version != str(SCHEMA_VERSION):
        out.add("schema", f"the database is at schema version {version}, this code writes {SCHEMA_VERSION}")

    for d in damaged(store, group_id):
        out.add("digest", f"{d.table} {d.key} ({d.part}): {d.detail}", d.key)
    digest_ok = not out.items or out.items[-1].rule != "digest"
    try:
        _rules(mem, store, group_id, out)
    except EngineError as exc:  # a damaged page the engine cannot read (the digest rule names it)
        out.add("digest", f"the engine cannot read the database ({exc}); the other rules stopped there")
    except (ValueError, TypeError, UnicodeError) as exc:
        if digest_ok:  # not a damaged value tripping a rule: a defect
            raise
        out.add("digest", f"damaged rows cannot be read as values ({exc}); the other rules stopped there")
    return out.items


def _rules(mem: Memory, store, group_id: str | None, out: _Report) -> None:
    """Every rule but ``schema`` and ``digest``, on the rows as they read."""
    entities = {e.id: e for e in store.all_entities(verify=False)}
    facts = list(store.iter_facts(group_id, verify=False))
    episodes = store.episode_groups()
    if group_id is not None:
        entities_all = entities
        entities = {i: e for i, e in entities.items() if e.group_id == group_id}
    else:
        entities_all = entities

    beliefs: dict[str, list[Fact]] = defaultdict(list)
    for f in facts:
        beliefs[f.id].append(f)
    for vs in beliefs.values():
        vs.sort(key=lambda f: f.version)

    _intervals(facts, out)
    compacted = set(store.horizons())  # groups compact() dropped old versions of
    _versions(beliefs, compacted, out)
    _overlaps(facts, mem.registry.is_single, out)
    _successors(facts, beliefs, store, compacted, out)
    _cycles(facts, out)
    _episodes(facts, beliefs, episodes, store, out)
    _subjects(facts, entities_all, store, out)
    _names(entities, store, group_id, out)
    _links(entities, store, group_id, out)
    _slots(facts, entities, store, group_id, out)
    _tiers(facts, store, group_id, out)


def _tiers(facts: Sequence[Fact], store, group_id: str | None, out: _Report) -> None:
    cold = store.cold_rows(group_id)
    if not cold:
        return
    sources = {(f.group_id, f.episode_id) for f in facts if f.episode_id}
    closers = {(f.group_id, f.expired_by_episode) for f in facts if f.expired_by_episode}
    for i, g, prov, vectors in cold:
        if vectors:
            out.add("tier", f"cold episode {i} (group {g!r}) still has vectors", i)
        if (g, i) in sources:
            out.add("tier", f"cold episode {i} (group {g!r}) is the source of a fact version", i)
        if (g, i) in closers:
            out.add("tier", f"cold episode {i} (group {g!r}) closed a belief", i)
        if prov == "user_confirmation":
            out.add("tier", f"cold episode {i} (group {g!r}) is a user confirmation", i)
    for i, g in store.purged_with_content(group_id):
        out.add("tier", f"purged episode {i} (group {g!r}) still has content", i)


def _intervals(facts: Iterable[Fact], out: _Report) -> None:
    for f in facts:
        if f.valid_to is not None and f.valid_to < f.valid_from:
            out.add("interval", f"{f.vid} ends before it starts in valid time "
                    f"({_when(f.valid_from)} -> {_when(f.valid_to)})", f.vid)
        elif f.valid_to is not None and f.valid_to == f.valid_from and f.stated_valid_to == f.valid_to:
            out.add("interval", f"{f.vid} was stated to hold at no valid time", f.vid)
        if f.expired_at is not None and f.expired_at < f.recorded_at:
            out.add("interval", f"{f.vid} expires before it was recorded "
                    f"({_when(f.recorded_at)} -> {_when(f.expired_at)})", f.vid)
        if f.expired_at is not None and not f.expire_reason:
            out.add("interval", f"{f.vid} is expired without a reason", f.vid)


def _versions(beliefs: dict[str, list[Fact]], compacted: set[str], out: _Report) -> None:
    for fid, vs in beliefs.items():
        numbers = [f.version for f in vs]
        # compact() drops a prefix of a belief's versions (those expired before the horizon)
        first_n = numbers[0] if vs[0].group_id in compacted else 1
        if numbers != list(range(first_n, first_n + len(vs))) or first_n < 1:
            out.add("versions", f"belief {fid} has versions {numbers}, not {first_n}..{first_n + len(vs) - 1}",
                    *(f.vid for f in vs))
        first = vs[0]
        for f in vs[1:]:
            if (f.group_id, f.subject_id, f.attribute, norm_value(f.value)) != (
                    first.group_id, first.subject_id, first.attribute, norm_value(first.value)):
                out.add("versions", f"{f.vid} changes the group, subject, attribute or value of {first.vid}",
                        first.vid, f.vid)
        held = [f for f in vs if f.expired_at is None]
        if len(held) > 1:
            out.add("versions", f"belief {fid} has {len(held)} held versions", *(f.vid for f in held))
        elif held and held[0] is not vs[-1]:
            out.add("versions", f"{held[0].vid} is held but is not the latest version of {fid}", held[0].vid)
        for a, b in zip(vs, vs[1:]):
            if a.expired_at is None or a.expired_at > b.recorded_at:
                out.add("versions", f"{a.vid} and {b.vid} overlap in transaction time", a.vid, b.vid)


def _overlaps(facts: Sequence[Fact], is_single, out: _Report) -> None:
    """Two versions visible at one (T, K): in a single-valued slot, any two;
    in any slot, two with the same value (by text, or by the entity it
    names). A sweep over transaction time per group of versions that must
    not meet."""
    groups: dict[tuple, list[Fact]] = defaultdict(list)
    for f in facts:
        if not _visible_box(f):
            continue
        slot = (f.subject_id, f.attribute)
        if is_single(f.attribute):
            groups[slot].append(f)
            continue
        groups[(*slot, "value", norm_value(f.value))].append(f)
        if f.object_id is not None:
            groups[(*slot, "entity", f.object_id)].append(f)
    seen: set[tuple[str, str]] = set()
    for vs in groups.values():
        if len(vs) < 2:
            continue
        vs.sort(key=lambda f: (f.recorded_at, f.vid))
        active: list[Fact] = []
        for f in vs:
            active = [a for a in active if a.expired_at is None or a.expired_at > f.recorded_at]
            for a in active:
                at = _meet(a, f)
                if at is not None and (a.vid, f.vid) not in seen:
                    seen.add((a.vid, f.vid))
                    what = "a single-valued attribute" if is_single(f.attribute) else "the same value"
                    out.add("overlap", f"{f.subject}.{f.attribute}: {a.value!s} ({a.vid}) and {f.value!s} "
                            f"({f.vid}) are both visible at valid {_when(at[0])}, known {_when(at[1])} "
                            f"({what})", a.vid, f.vid)
            active.append(f)


def _successors(facts: Sequence[Fact], beliefs: dict[str, list[Fact]], store, compacted: set[str],
                out: _Report) -> None:
    """In a compacted group (``Memory.compact``) a link may name a belief
    whose versions were all dropped, and the SUPERSEDED_BY edge goes to a
    belief's version 1, which may be gone: compaction rewrites no row (the
    link fields stay sealed by their digests), so both are accepted there."""
    known = set(beliefs)
    missing = {x for f in facts for x in (f.superseded_by, *f.supersedes) if x and x not in known}
    if missing:  # another group's belief (a group-filtered check), or gone
        known |= {x for x in missing if store.versions(x, compacted=bool(compacted))}
    edges = set(store.edge_pairs("SUPERSEDED_BY"))
    firsts = store.existing("Fact", [f"{f.superseded_by}:1" for f in facts
                                     if f.superseded_by is not None and f.group_id in compacted])
    for f in facts:
        gone_ok = f.group_id in compacted
        if f.superseded_by is not None:
            if f.superseded_by not in known:
                if not gone_ok:
                    out.add("successor", f"{f.vid} is superseded by {f.superseded_by}, which does not exist",
                            f.vid)
            elif (f.vid, f"{f.superseded_by}:1") not in edges and not (
                    gone_ok and f"{f.superseded_by}:1" not in firsts):
                out.add("successor", f"{f.vid} has no SUPERSEDED_BY edge to {f.superseded_by}", f.vid)
        for s in f.supersedes:
            if s not in known and not gone_ok:
                out.add("successor", f"{f.vid} supersedes {s}, which does not exist", f.vid)


def _cycles(facts: Sequence[Fact], out: _Report) -> None:
    """No cycle of ``superseded_by`` links among the versions held at any
    one transaction time (across times, versions of one belief may point
    both ways: a belief re-opened inside another closes it). Links stay
    within one subject, so each subject's links are swept in transaction
    time: at each instant the versions that expire leave, those recorded
    join, and a joining link u -> w closes a cycle iff w already reaches u."""
    import networkx as nx  # on first use: the CLI's reads must stay light

    by_subject: dict[str, list[Fact]] = defaultdict(list)
    for f in facts:
        if f.superseded_by is not None and (f.expired_at is None or f.expired_at > f.recorded_at):
            by_subject[f.subject_id].append(f)
    seen: set[frozenset[str]] = set()
    for versions in by_subject.values():
        events: dict[_dt.datetime, tuple[list[Fact], list[Fact]]] = defaultdict(lambda: ([], []))
        for f in versions:
            events[f.recorded_at][1].append(f)
            if f.expired_at is not None:
                events[f.expired_at][0].append(f)
        graph = nx.MultiDiGraph()
        for k in sorted(events):
            leave, join = events[k]
            for f in leave:
                graph.remove_edge(f.id, f.superseded_by, key=f.vid)
            for f in join:
                graph.add_edge(f.id, f.superseded_by, key=f.vid)
            for f in join:
                if nx.has_path(graph, f.superseded_by, f.id):
                    ring = frozenset(nx.shortest_path(graph, f.superseded_by, f.id))
                    if ring not in seen:
                        seen.add(ring)
                        ids = sorted(ring)
                        out.add("cycle", f"superseded_by links held at {_when(k)} form a cycle through "
                                f"{', '.join(ids)}", *ids)


def _episodes(facts: Sequence[Fact], beliefs: dict[str, list[Fact]], episodes: dict[str, set[str]], store,
              out: _Report) -> None:
    edges = {vid: key for vid, key in store.edge_pairs("FROM_EPISODE")}
    for f in facts:
        ep = f.episode_id
        if ep is None:
            if f.vid in edges:
                out.add("episode", f"{f.vid} has a FROM_EPISODE edge but names no episode", f.vid)
            continue
        groups = episodes.get(ep, set())
        if f.group_id not in groups:
            # remove_episode deletes the episode and leaves no belief it stated held
            if beliefs[f.id][-1].expired_at is None:
                where = f"only group(s) {sorted(groups)} hold it" if groups else "it does not exist"
                out.add("episode", f"{f.vid} (group {f.group_id!r}) comes from episode {ep}, but {where}",
                        f.vid, ep)
        elif f.vid not in edges or public_episode_id(edges[f.vid], f.group_id) != ep:
            out.add("episode", f"{f.vid} has no FROM_EPISODE edge to episode {ep}", f.vid, ep)


def _subjects(facts: Sequence[Fact], entities: dict, store, out: _Report) -> None:
    has: dict[str, set[str]] = defaultdict(set)
    obj: dict[str, set[str]] = defaultdict(set)
    for eid, vid in store.edge_pairs("HAS_FACT"):
        has[vid].add(eid)
    for vid, eid in store.edge_pairs("OBJECT"):
        obj[vid].add(eid)
    for f in facts:
        subject = entities.get(f.subject_id)
        if subject is None:
            out.add("subject", f"{f.vid} is about entity {f.subject_id}, which does not exist", f.vid)
        elif subject.group_id != f.group_id:
            out.add("subject", f"{f.vid} (group {f.group_id!r}) is about an entity of group "
                    f"{subject.group_id!r}", f.vid, f.subject_id)
        if f.subject_id not in has[f.vid]:
            out.add("subject", f"{f.vid} has no HAS_FACT edge from its subject {f.subject_id}", f.vid)
        if has[f.vid] - {f.subject_id}:  # a damaged edge table can add one
            out.add("subject", f"{f.vid} has HAS_FACT edges from other entities too: "
                    f"{sorted(has[f.vid] - {f.subject_id})}", f.vid)
        if f.object_id is not None:
            target = entities.get(f.object_id)
            if target is None or target.group_id != f.group_id:
                out.add("subject", f"{f.vid}'s value names entity {f.object_id}, which is not in its group",
                        f.vid, f.object_id)
            elif f.object_id not in obj[f.vid]:
                out.add("subject", f"{f.vid} has no OBJECT edge to {f.object_id}", f.vid)
        if obj[f.vid] - {f.object_id}:
            out.add("subject", f"{f.vid} has OBJECT edges to entities its value does not name: "
                    f"{sorted(obj[f.vid] - {f.object_id})}", f.vid)


def _names(entities: dict, store, group_id: str | None, out: _Report) -> None:
    keys = {k: (g, eid) for k, g, _, eid in store.alias_rows(verify=False) if group_id is None or g == group_id}
    named: dict[str, set[str]] = defaultdict(set)
    for e in entities.values():
        if not e.name.strip():  # nobody can ask for it, and history() refuses it
            out.add("names", f"entity {e.id} has an empty name", e.id)
        for name in (e.name, *e.aliases):
            named[alias_key(e.group_id, name)].add(e.id)
        if alias_key(e.group_id, e.name) not in keys:
            out.add("names", f"entity {e.id} ({e.name!r}) has no name key", e.id)
    for key, ids in named.items():
        if len(ids) > 1:
            group, name = key.split("\x1f", 1)
            out.add("names", f"{name!r} names {len(ids)} entities in group {group!r}", *sorted(ids))
    for key, (group, eid) in keys.items():
        target = entities.get(eid)
        if target is None or target.group_id != group:
            out.add("names", f"name key {key.split(chr(31), 1)[-1]!r} of group {group!r} points to entity "
                    f"{eid}, which is not in that group", eid)


def _links(entities: dict, store, group_id: str | None, out: _Report) -> None:
    """People links (docs/people.md): a held alias is a name key of its
    entity; a held "same" link joins two entities of its group, and the
    links form no cycle."""
    links = [x for x in store.links(group_id) if x.ended_at is None]
    aliases = [x for x in links if x.kind == "alias"]
    found = store.lookup_names([alias_key(x.group_id, x.name) for x in aliases])
    for x in aliases:
        if found.get(alias_key(x.group_id, x.name)) != x.entity_id:
            out.add("names", f"link {x.key} gives {x.name!r} to entity {x.entity_id}, but the name does not "
                    f"find it", x.key)
    nxt: dict[str, str] = {}
    for x in links:
        if x.kind != "same":
            continue
        for eid in (x.entity_id, x.target):
            e = entities.get(eid)
            if e is None or e.group_id != x.group_id:
                out.add("names", f"link {x.key} joins entity {eid}, which is not in group {x.group_id!r}", x.key)
        if x.entity_id in nxt:
            out.add("names", f"entity {x.entity_id} is linked to two entities", x.key)
        nxt[x.entity_id] = x.target or ""
    for start in nxt:
        seen, cur = {start}, nxt[start]
        while cur in nxt:
            if cur in seen:
                out.add("names", f"the links from entity {start} come back to it", start)
                break
            seen.add(cur)
            cur = nxt[cur]


def _slots(facts: Sequence[Fact], entities: dict, store, group_id: str | None, out: _Report) -> None:
    want: dict[str, dict[str, tuple]] = defaultdict(dict)
    for f in facts:
        if f.expired_at is None:
            want[slot_key(f.subject_id, f.attribute)][f.vid] = (norm_value(f.value), f.valid_to)
    stored = store.slot_rows()
    if group_id is not None:  # only the slots of the group's subjects
        stored = {k: v for k, v in stored.items() if k.split("\x1f", 1)[0] in entities}
    for key in sorted(set(want) | set(stored)):
        if key in stored and stored[key] is None:
            out.add("slot", f"slot {key.replace(chr(31), '.')}'s held list cannot be read (a damaged row)", key)
            continue
        have = {vid: (n, end) for vid, n, end in stored.get(key) or []}
        if have != want.get(key, {}):
            extra = sorted(set(have) - set(want.get(key, {})))
            lost = sorted(set(want.get(key, {})) - set(have))
            changed = sorted(v for v in set(have) & set(want.get(key, {})) if have[v] != want[key][v])
            subject, attribute = key.split("\x1f", 1)
            out.add("slot", f"slot {subject}.{attribute} lists {len(have)} held versions, the store holds "
                    f"{len(want.get(key, {}))} (not held: {extra or '-'}; missing: {lost or '-'}; "
                    f"stale: {changed or '-'})", key)
