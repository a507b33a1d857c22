"""Bounded growth: memory tiers, the value of a memory, and forgetting.

Forgetting is not belief revision (docs/forgetting.md): it moves episodes
between tiers (hot, cold) and never writes a fact's ``valid_to`` or
``expired_at``, so ``as_of`` and ``history`` answer the same before and
after. A cold episode leaves the recall indexes (it is never a candidate of
``recall``/``context``) and its vectors are dropped; its verbatim content
stays readable by id (``Memory.episode``), every link to it still resolves,
the statistics abstention reads about who said what still count it, and
``Memory.warm`` makes it hot again (its vectors recomputed).

Never forgotten (the floor): an episode that is the source of any fact
version, held or not; one whose transaction closed a belief (superseded,
ended, corrected); a ``user_confirmation`` one; and the short tier (said
within the last day).
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

from ._errors import InvalidInputError
from ._importance import IMPORTANCE_UNSCORED
from ._types import Episode, Fact

#: Tier bounds by age: short <= 1 day, medium <= 1 week, long otherwise.
SHORT = _dt.timedelta(days=1)
MEDIUM = _dt.timedelta(days=7)
TIERS = ("short", "medium", "long")
#: The half-life of a memory's value: ``memory_value = importance x
#: 0.5 ** (age / HALF_LIFE)``. 30 days: a turn of last month counts half as
#: much as one of today with the same importance.
HALF_LIFE = _dt.timedelta(days=30)
POLICIES = ("value", "structural", "content", "graph", "fifo")
#: ``cold_reason`` of a purged episode (``forget(purge=True)``) starts so,
#: followed by the SHA-256 of the content that was deleted.
PURGED = "purged: sha256 "


def is_purged(ep: Episode) -> bool:
    """Whether ``forget(purge=True)`` deleted the episode's content (a stub)."""
    return ep.purged


def purge_reason(ep: Episode) -> str:
    """The purged stub's reason: the digest of what was deleted, then why it went cold."""
    import hashlib

    digest = hashlib.sha256(ep.content.encode("utf-8")).hexdigest()
    was = ep.cold_reason or "forget"
    return f"{PURGED}{digest}; was cold: {was}"


def item_time(item: Episode | Fact) -> _dt.datetime:
    """The time an item's age counts from: an episode's ``reference_time``
    (when it was said), a fact's ``recorded_at`` (when the memory learned it)."""
    if isinstance(item, Episode):
        return item.reference_time
    if isinstance(item, Fact):
        return item.recorded_at
    raise InvalidInputError("item", f"expected an Episode or a Fact, got {type(item).__name__}")


def unwrap(item: Any) -> Episode | Fact:
    """An Episode or Fact, or the one a recall ``Hit`` / context item carries."""
    if isinstance(item, (Episode, Fact)):
        return item
    for name in ("fact", "episode"):
        inner = getattr(item, name, None)
        if isinstance(inner, (Episode, Fact)):
            return inner
    raise InvalidInputError("item", f"expected an Episode, a Fact or a recall hit, got {type(item).__name__}")


def tier(item: Episode | Fact, now: _dt.datetime) -> str:
    """``short`` (at most a day old), ``medium`` (at most a week), ``long``."""
    age = now - item_time(item)
    if age <= SHORT:
        return "short"
    return "medium" if age <= MEDIUM else "long"


def importance_of(item: Episode | Fact, signal: str = "value") -> float:
    if isinstance(item, Fact):
        return float(item.importance)
    v = {"value": item.importance, "structural": item.structural_score,
         "content": item.content_score}.get(signal, item.importance)
    return IMPORTANCE_UNSCORED if v is None else float(v)


def decay(item: Episode | Fact, now: _dt.datetime) -> float:
    age = max(0.0, (now - item_time(item)).total_seconds())
    return 0.5 ** (age / HALF_LIFE.total_seconds())


def memory_value(item: Episode | Fact, now: _dt.datetime, signal: str = "value") -> float:
    """importance x 0.5 ** (age / HALF_LIFE) (an unscored episode counts as
    IMPORTANCE_UNSCORED)."""
    return importance_of(item, signal) * decay(item, now)


@dataclass(frozen=True)
class ForgetReport:
    """What :meth:`Memory.forget` did (or, ``dry_run``, would do).

    ``cold``: the episodes that went cold, least valuable first, each with
    what the policy ranked it by; ``protected``: how many episodes the floor kept, by reason;
    ``hot_before`` / ``hot_after``: hot episodes of the group; ``bytes_before``
    / ``bytes_after``: what the group's episodes store (content and vectors,
    as stored); ``floor``: the fewest hot episodes forgetting can leave;
    ``short_of``: how many more would have had to go cold to meet the budget
    (0 when it was met), with ``message`` saying why when not."""

    group_id: str
    policy: str
    dry_run: bool
    target: int
    hot_before: int
    hot_after: int
    cold: list[tuple[str, float]]
    protected: dict[str, int]
    bytes_before: int
    bytes_after: int
    floor: int
    short_of: int
    message: str = ""
    already_cold: int = 0
    purged: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["cold"] = [{"id": i, "value": v} for i, v in self.cold]
        return d


@dataclass
class _Row:
    ep: Episode
    bytes_hot: int     # content + vectors, as stored
    bytes_cold: int    # content only
    why: str | None = None   # protected: why
    value: float = 0.0
    extra: dict = field(default_factory=dict)


def policy_name(policy: Any) -> str:
    """How a report and ``cold_reason`` name a policy (a callable by its ``__name__``)."""
    return policy if isinstance(policy, str) else f"custom {getattr(policy, '__name__', type(policy).__name__)}"


def rank_value(ep: Episode, policy: Any, graph: dict[str, float] | None) -> float:
    """What a policy ranks a hot, unprotected episode by (the lowest goes
    cold first; on a tie the older): ``value`` its importance; ``structural``
    / ``content`` that one score; ``graph`` importance + GRAPH_WEIGHT x its
    graph score (``_centrality``); a callable, what it returns for the episode.

    Not :func:`memory_value`: recency does not rank eviction. On the
    retention harness's development split (eval/retention.py, LoCoMo
    conversations 1-2) ranking by importance x 0.5 ** (age / 30 days) kept
    recall@10 0.43 at keep-50%, little better than FIFO (0.39) and below a
    random order (0.49); importance alone kept 0.55 (0.43 at keep-25%, FIFO
    0.23). A
    history's turns are asked about whatever their age; the recent ones are
    kept by the short tier of the floor (docs/forgetting.md)."""
    if callable(policy):
        v = policy(ep)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise InvalidInputError("policy", f"the policy returned {v!r} for episode {ep.id}; "
                                    "expected a finite number")
        return float(v)
    if policy == "graph":
        from ._centrality import GRAPH_WEIGHT

        return importance_of(ep, "value") + GRAPH_WEIGHT * (graph or {}).get(ep.id, 0.0)
    return importance_of(ep, policy if policy in ("structural", "content") else "value")


def plan(store, group_id: str, now: _dt.datetime, *, keep_fraction: float | None, max_episodes: int | None,
         max_bytes: int | None, policy: Any, graph: dict[str, float] | None = None
         ) -> tuple[list[_Row], list[_Row], int, dict[str, int], int, int, str]:
    """What to make cold: (chosen rows, hot rows, target, protected counts,
    bytes before, floor, message). ``graph``: the graph scores of the
    ``graph`` policy (``_centrality.episode_scores``)."""
    rows = [_Row(ep, hot, cold) for ep, hot, cold in store.episode_sizes(group_id)]
    protected_ids = store.protected_episodes(group_id)
    hot = [r for r in rows if r.ep.cold_at is None]
    counts: dict[str, int] = {}
    for r in hot:
        why = protected_ids.get(r.ep.id)
        if why is None and r.ep.provenance == "user_confirmation":
            why = "user_confirmation"
        if why is None and tier(r.ep, now) == "short":
            why = "short tier"
        r.why = why
        if why is not None:
            counts[why] = counts.get(why, 0) + 1
        r.value = rank_value(r.ep, policy, graph) if why is None else memory_value(r.ep, now)
    before = sum(r.bytes_cold if r.ep.cold_at is not None else r.bytes_hot for r in rows)
    targets = []
    if keep_fraction is not None:
        targets.append(math.ceil(keep_fraction * len(rows)))
    if max_episodes is not None:
        targets.append(max_episodes)
    target = min(targets) if targets else len(hot)
    candidates = [r for r in hot if r.why is None]
    if policy == "fifo":
        candidates.sort(key=lambda r: (r.ep.reference_time, r.ep.recorded_at, r.ep.id))
    else:
        candidates.sort(key=lambda r: (r.value, r.ep.reference_time, r.ep.recorded_at, r.ep.id))
    need = max(0, len(hot) - target)
    chosen = candidates[:need]
    if max_bytes is not None:
        size = before - sum(r.bytes_hot - r.bytes_cold for r in chosen)
        for r in candidates[len(chosen):]:
            if size <= max_bytes:
                break
            chosen.append(r)
            size -= r.bytes_hot - r.bytes_cold
    floor = len(hot) - len(candidates)
    message = ""
    over_bytes = max_bytes is not None and before - sum(r.bytes_hot - r.bytes_cold for r in chosen) > max_bytes
    if need > len(candidates) or over_bytes:
        parts = ", ".join(f"{n} {why}" for why, n in sorted(counts.items()))
        message = (f"refused to go below the floor: {floor} hot episode(s) are never forgotten ({parts})"
                   if floor else "the budget cannot be met: cold episodes keep their content")
        if over_bytes and floor:
            message += "; cold episodes keep their content"
    return chosen, hot, target, counts, before, floor, message


def validate(keep_fraction, max_episodes, max_bytes, policy) -> None:
    if keep_fraction is None and max_episodes is None and max_bytes is None:
        raise InvalidInputError("keep_fraction", "give a budget: keep_fraction, max_episodes or max_bytes")
    if keep_fraction is not None and (isinstance(keep_fraction, bool) or not isinstance(keep_fraction, (int, float))
                                      or not 0.0 <= keep_fraction <= 1.0):
        raise InvalidInputError("keep_fraction", f"must be a number between 0 and 1, got {keep_fraction!r}")
    for name, v in (("max_episodes", max_episodes), ("max_bytes", max_bytes)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
            raise InvalidInputError(name, f"must be a non-negative integer, got {v!r}")
    if not callable(policy) and policy not in POLICIES:
        raise InvalidInputError("policy", f"{policy!r} is not one of {', '.join(POLICIES)}, nor a callable "
                                "(episode) -> number")


def tier_stats(store, group_id: str, now: _dt.datetime) -> dict[str, Any]:
    """Per tier: episodes (hot and cold) and their mean value; facts by tier."""
    out: dict[str, Any] = {t: {"episodes": 0, "cold": 0, "value_sum": 0.0} for t in TIERS}
    for ep, _, _ in store.episode_sizes(group_id, content=False):
        t = out[tier(ep, now)]
        t["episodes"] += 1
        t["cold"] += ep.cold_at is not None
        t["value_sum"] += memory_value(ep, now)
    for t in out.values():
        t["mean_value"] = round(t.pop("value_sum") / t["episodes"], 6) if t["episodes"] else 0.0
    return {"tiers": out, "half_life_days": HALF_LIFE.total_seconds() / 86400}


def warm_vectors(mem, episodes: Sequence[Episode]) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The vectors a cold episode gets back: of its document and of its sentences."""
    import numpy as np

    from ._store import episode_document, sentence_documents

    docs: dict[str, None] = {}
    for ep in episodes:
        docs[episode_document(ep.speaker, ep.content)] = None
        docs.update(dict.fromkeys(sentence_documents(ep.speaker, ep.content)))
    keys = list(docs)
    vecs = dict(zip(keys, mem._embedder().embed(keys))) if keys else {}
    whole, sentences = {}, {}
    for ep in episodes:
        whole[ep.id] = np.asarray(vecs[episode_document(ep.speaker, ep.content)], dtype=np.float32).tobytes()
        sentences[ep.id] = np.asarray([vecs[d] for d in sentence_documents(ep.speaker, ep.content)],
                                      dtype=np.float32).tobytes()
    return whole, sentences


#: ``Memory.consolidate``: two turns of one speaker whose vectors are at least
#: this similar say the same thing (the design's measured yield: 2-8% of a
#: long history at 0.92).
CONSOLIDATE_THRESHOLD = 0.92
#: ``cold_reason`` of a restatement that consolidation made cold, followed by
#: the id of the turn kept.
DUP_OF = "dup_of:"


def restatements(mem, group_id: str, threshold: float) -> list[list[str]]:
    """Groups of hot episodes (ids, in the order said) in which one speaker
    said the same thing again: connected components (networkx) of the graph
    whose edges join two turns of the same speaker with cosine >= threshold
    over the vectors recall already holds."""
    import networkx as nx
    import numpy as np

    idx = mem._recaller().index(group_id)
    cold = idx.cold if len(idx.cold) == len(idx.keys) else np.zeros(len(idx.keys), dtype=bool)
    by_speaker: dict[str, list[int]] = {}
    for r, (kind, eid) in enumerate(idx.keys):
        if kind == "episode" and not cold[r] and idx.speakers.get(eid) is not None:
            by_speaker.setdefault(idx.speakers[eid], []).append(r)
    graph = nx.Graph()
    for rows in by_speaker.values():
        if len(rows) < 2:
            continue
        m = idx.matrix[rows]
        live = np.linalg.norm(m, axis=1) > 0  # a row with no vector (zero) joins nothing
        sims = m @ m.T
        a, b = np.nonzero(np.triu(sims >= threshold, k=1))
        graph.add_edges_from((idx.keys[rows[i]][1], idx.keys[rows[j]][1]) for i, j in zip(a, b)
                             if live[i] and live[j])
    order = {eid: r for r, (kind, eid) in enumerate(idx.keys) if kind == "episode"}
    return sorted((sorted(c, key=order.__getitem__) for c in nx.connected_components(graph)),
                  key=lambda c: order[c[0]])


def consolidation_plan(mem, group_id: str, now: _dt.datetime, threshold: float
                       ) -> tuple[list[tuple[str, str]], list[list[str]], dict[str, int]]:
    """(episode id, id of the turn kept) of each restatement to make cold,
    the groups found, and how many were kept because forgetting never takes
    them (the same floor as :func:`plan`). In each group the turn of the
    highest :func:`memory_value` is kept (the latest on a tie)."""
    store = mem._store
    groups = restatements(mem, group_id, threshold)
    if not groups:
        return [], [], {}
    eps = {e.id: e for e in store.episodes_by_id([i for g in groups for i in g], group_id)}
    protected_ids = store.protected_episodes(group_id)
    out: list[tuple[str, str]] = []
    kept: dict[str, int] = {}
    for g in groups:
        members = [eps[i] for i in g if i in eps]
        if len(members) < 2:
            continue
        keep = max(members, key=lambda e: (memory_value(e, now), e.reference_time, e.recorded_at))
        for e in members:
            if e.id == keep.id:
                continue
            why = protected_ids.get(e.id) or ("user_confirmation" if e.provenance == "user_confirmation" else None) \
                or ("short tier" if tier(e, now) == "short" else None)
            if why is not None:
                kept[why] = kept.get(why, 0) + 1
                continue
            out.append((e.id, keep.id))
    return out, groups, kept
