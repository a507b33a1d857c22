"""Bulk backfill of episodes from a JSONL file (``midas-graph ingest``; docs/scaling.md).

One line, one episode::

    {"group_id": "u42", "speaker": "Ann", "reference_time": "2023-05-08T13:56:00Z",
     "content": "I moved to Lisbon.", "id": "optional", "source": "message"}

``time`` may stand for ``reference_time``; ``id``, ``source``, ``name``,
``provenance`` and ``source_description`` are optional. Every line is checked
before anything is written; an error names the line and the field.

Order. Each group's episodes are applied in (``reference_time``, line) order,
whatever order the file has: sequentially (one :class:`~midas_graph.Memory`)
and on Ray (one shard actor per file, ``midas_graph.cluster``) alike, so both
give the same facts, versions and supersessions.

Resuming. An episode's id is its ``id``, or one derived from its line
(:func:`stable_id`): re-running a file finds the episodes already stored (they
committed with their facts, in one transaction each) and skips them, so a run
that stopped in the middle, run again, applies each episode exactly once. The
store is the record of progress: nothing else to keep in step with it. What a
process keeps of a group's last turns (who the listener is, the people of the
last turns, the agent's last claims, the last question) is rebuilt by parsing
the stored episodes again without storing them (``Ingest.run(prime=...)``).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ._errors import InvalidInputError, MidasError
from ._time import parse_time

#: The fields a line may carry.
FIELDS = frozenset({"content", "speaker", "reference_time", "time", "group_id", "id", "source", "name",
                    "provenance", "source_description"})
#: Episodes per call of a shard (one ``Ingest.run``): spaCy and the embedder batch over them.
BATCH = 64


class BackfillStopped(MidasError):
    """The run stopped on purpose after ``applied`` acknowledged episodes
    (``stop_after``: how a test stands for a crash in the middle)."""

    def __init__(self, applied: int) -> None:
        self.applied = applied
        super().__init__(f"stopped after {applied} acknowledged episode(s) (stop_after); run again to resume")

    def __reduce__(self):
        return (type(self), (self.applied,))


@dataclass(frozen=True)
class Turn:
    """One validated line: its place in its group's order, and the episode."""

    key: tuple[_dt.datetime, int]   # (reference_time, line number)
    item: Any                       # _episodes.EpisodeIn, with its stable episode_id

    @property
    def group_id(self) -> str:
        return self.item.group_id


def stable_id(group_id: str, line: int, content: str) -> str:
    """The episode id of a line that names none: the same on every run of
    the same file (its group, line number and content)."""
    h = hashlib.blake2b(f"{group_id}\x1f{line}\x1f{content}".encode("utf-8"), digest_size=12).hexdigest()
    return f"bf-{h}"


def read(path: str | Path) -> list[Turn]:
    """Every line of ``path`` as a :class:`Turn`, checked; in file order."""
    path = Path(path)
    if not path.is_file():
        raise MidasError(f"{path}: no such file")
    with path.open(encoding="utf-8") as fp:
        return parse(fp)


def parse(lines: Iterable[str]) -> list[Turn]:
    from . import _episodes

    turns: list[Turn] = []
    ids: dict[tuple[str, str], int] = {}
    for n, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"line {n}", f"not JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(row, dict):
            raise InvalidInputError(f"line {n}", f"expected a JSON object, got {type(row).__name__}")
        try:
            turns.append(_turn(row, n, _episodes))
        except InvalidInputError as exc:
            raise InvalidInputError(f"line {n}: {exc.field}", str(exc).split(": ", 1)[-1]) from None
        t = turns[-1]
        seen = ids.setdefault((t.group_id, t.item.episode_id), n)
        if seen != n:
            raise InvalidInputError(f"line {n}: id", f"{t.item.episode_id!r} is also the id of line {seen} "
                                                     f"in group {t.group_id!r}")
    return turns


def _turn(row: Mapping[str, Any], n: int, _episodes: Any) -> Turn:
    unknown = sorted(set(row) - FIELDS)
    if unknown:
        raise InvalidInputError(unknown[0], f"unknown field (a line has {', '.join(sorted(FIELDS))})")
    for name in ("content", "speaker", "group_id"):
        if name not in row:
            raise InvalidInputError(name, "is required")
    if "reference_time" in row and "time" in row:
        raise InvalidInputError("time", "give reference_time or time, not both")
    field = "reference_time" if "reference_time" in row else "time"
    if row.get(field) is None:
        raise InvalidInputError("reference_time", "is required (or time): a backfill is applied in time order")
    when = parse_time(row[field], field)
    eid = row.get("id")
    if eid is not None and (not isinstance(eid, str) or not eid.strip()):
        raise InvalidInputError("id", "must be a non-empty string")
    item = _episodes.validate(
        row["content"], speaker=row["speaker"], reference_time=when, group_id=row["group_id"],
        source=row.get("source", "message"), provenance=row.get("provenance", "observation"),
        name=row.get("name"), source_description=row.get("source_description", ""),
    )
    if not item.group_id.strip() or item.group_id != item.group_id.strip():
        raise InvalidInputError("group_id", "must not start or end with whitespace")
    item = dataclasses.replace(item, episode_id=eid or stable_id(item.group_id, n, item.content))
    return Turn((when, n), item)


def ordered(turns: Sequence[Turn]) -> list[Turn]:
    """Every group's turns in time order (ties in line order): the order both
    ingests apply them in."""
    return sorted(turns, key=lambda t: t.key)


class Applier:
    """Applies turns to one Memory, resumably (one per process and file: the
    sequential ingest's, or a shard actor's)."""

    def __init__(self, mem: Any) -> None:
        self.mem = mem
        self._seen: dict[str, tuple] = {}  # group -> key of the last turn this process ingested or primed

    def apply(self, turns: Sequence[Turn], vectors: Mapping[str, Any] | None = None) -> dict[str, int]:
        """Store the turns not stored yet, each group's in order. Returns
        counts: ``applied``, ``skipped`` (stored by an earlier run), ``facts``,
        ``primed`` (stored ones parsed again to rebuild their group's last turns)."""
        stored = self._stored(turns)
        prime: list[Turn] = []
        todo: list[Turn] = []
        for t in turns:
            g = t.group_id
            known = t.item.episode_id in stored
            if known and self._seen.get(g, ()) >= t.key:
                continue  # this process ingested it already
            if known:
                if any(x.group_id == g for x in todo):
                    raise MidasError(
                        f"group {g!r}: episode {t.item.episode_id!r} is stored but one before it is not: "
                        "the file changed since the run that stored it (lines moved or edited)")
                prime.append(t)
            else:
                todo.append(t)
        skipped = len(turns) - len(todo)
        if not prime and not todo:
            return {"applied": 0, "skipped": skipped, "facts": 0, "primed": 0}
        from ._episodes import EpisodeError

        try:
            results = self.mem._episodes().run([t.item for t in prime + todo], False, vectors=vectors,
                                               prime=len(prime))
        except EpisodeError as exc:  # the ones before it are stored: a re-run goes on from it
            t = todo[exc.index]
            raise MidasError(f"line {t.key[1]}: group {t.group_id!r}, episode {t.item.episode_id!r}: "
                             f"{exc.__cause__ or exc}") from None
        except Exception as exc:
            if len(todo) != 1:
                raise
            t = todo[0]
            raise MidasError(f"line {t.key[1]}: group {t.group_id!r}, episode {t.item.episode_id!r}: "
                             f"{type(exc).__name__}: {exc}") from None
        for t in prime + todo:
            if self._seen.get(t.group_id, ()) < t.key:
                self._seen[t.group_id] = t.key
        return {"applied": len(results), "skipped": skipped, "facts": sum(len(r.facts) for r in results),
                "primed": len(prime)}

    def _stored(self, turns: Sequence[Turn]) -> set[str]:
        return self.stored_ids([(t.group_id, t.item.episode_id) for t in turns])

    def stored_ids(self, pairs: Sequence[tuple[str, str]]) -> set[str]:
        """The episode ids of these (group, id) pairs the file holds."""
        by_group: dict[str, list[str]] = {}
        for g, i in pairs:
            by_group.setdefault(g, []).append(i)
        out: set[str] = set()
        for g, ids in by_group.items():
            for s in range(0, len(ids), 1000):
                out.update(e.id for e in self.mem._store.episodes_by_id(ids[s:s + 1000], g))
        return out


def _unfinished(run: list[Turn], stored: set[str]) -> tuple[list[Turn], int]:
    """The turns of the groups an earlier run did not finish, and how many
    turns the finished groups have: a finished group needs nothing, not even
    its last turns parsed again."""
    left = {t.group_id for t in run if t.item.episode_id not in stored}
    rest = [t for t in run if t.group_id in left]
    return rest, len(run) - len(rest)


def _bar(total: int, progress: bool | None):
    if progress is False:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=" episodes", disable=None if progress is None else False, smoothing=0.1)


def ingest(mem: Any, turns: Sequence[Turn], *, batch: int = BATCH, progress: bool | None = None,
           stop_after: int | None = None) -> dict[str, Any]:
    """The sequential ingest: every turn into ``mem``, in order, resumably.
    ``stop_after``: stop once that many episodes were applied (and raise
    :class:`BackfillStopped`): a crash in the middle, for tests."""
    mem._writable()
    t0 = time.perf_counter()
    applier = Applier(mem)
    run, finished = _unfinished(ordered(turns), applier._stored(turns))
    counts = {"applied": 0, "skipped": finished, "facts": 0, "primed": 0}
    bar = _bar(len(turns), progress)
    if bar is not None:
        bar.update(finished)
    try:
        for s in range(0, len(run), batch):
            chunk = run[s:s + batch]
            if stop_after is not None:
                chunk = _within(applier, chunk, stop_after - counts["applied"])
            got = applier.apply(chunk)
            for k in counts:
                counts[k] += got[k]
            if bar is not None:
                bar.update(len(chunk))
            if stop_after is not None and counts["applied"] >= stop_after:
                raise BackfillStopped(counts["applied"])
    finally:
        if bar is not None:
            bar.close()
    return {"episodes": len(turns), **counts, "groups": len({t.group_id for t in turns}),
            "seconds": round(time.perf_counter() - t0, 3)}


def ingest_shards(root: Any, shards: int | None, turns: Sequence[Turn], *, engine: str | None = None,
                  **kwargs: Any) -> dict[str, Any]:
    """The sequential ingest into a sharded memory, without Ray: shard after
    shard in this process, each group's turns into its shard's file."""
    import os

    from ._memory import Memory
    from ._shards import Layout

    engine = engine or os.environ.get("MIDAS_GRAPH_ENGINE") or "ladybug"
    layout = Layout.open(root, shards, engine=engine)
    parts: dict[int, list[Turn]] = {}
    for t in turns:
        parts.setdefault(layout.shard_for(t.group_id), []).append(t)
    total = {"episodes": 0, "applied": 0, "skipped": 0, "facts": 0, "primed": 0, "groups": 0, "seconds": 0.0}
    stop = kwargs.pop("stop_after", None)
    for i in sorted(parts):
        with Memory(layout.path(i), engine=layout.engine or engine) as mem:
            left = None if stop is None else stop - total["applied"]
            try:
                got = ingest(mem, parts[i], stop_after=left, **kwargs)
            except BackfillStopped as exc:
                raise BackfillStopped(total["applied"] + exc.applied) from None
        for k in total:
            total[k] += got[k]
    total["seconds"] = round(total["seconds"], 3)
    return {**total, "shards": layout.n}


def _within(applier: Applier, chunk: list[Turn], budget: int) -> list[Turn]:
    """The leading turns of ``chunk`` that apply at most ``budget`` new episodes."""
    stored = applier._stored(chunk)
    out = []
    for t in chunk:
        if t.item.episode_id not in stored:
            if budget <= 0:
                break
            budget -= 1
        out.append(t)
    return out


# -- comparing two memories -----------------------------------------------------------

#: Export fields that legitimately differ between two ingests of the same
#: file: ids made up at write time, and transaction times (a version's
#: ``recorded_at`` / ``expired_at`` are when *this* memory learned it; only
#: whether a version is expired is compared), with the digests over them.
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
VOLATILE = frozenset({"recorded_at", "expired_at", "created_at", "digest", "key", "cold_at"})


def canonical(rows: Iterable[Mapping[str, Any]]) -> list[tuple]:
    """An export (``_io.export_rows``, of one memory or of every shard) as a
    sorted list in which the ids made up at write time are replaced by what
    they name: an entity by (group, name), a fact by (group, its episode,
    subject, attribute, value, valid_from of version 1); transaction times
    by whether they are set. Two ingests of one file compare equal iff they
    hold the same entities, names, episodes (with their vectors and scores),
    fact versions, supersessions and expiries."""
    rows = [r for r in rows if r.get("type") not in ("header", "end")]
    ents = {r["id"]: (r["group_id"], r["name"]) for r in rows if r["type"] == "entity"}
    first = {r["id"]: r for r in rows if r["type"] == "fact" and r["version"] == 1}
    facts = {i: (r["group_id"], r["episode_id"], r["subject"], r["attribute"], json.dumps(r["value"]),
                 r["valid_from"]) for i, r in first.items()}

    def fix(k: str, v: Any) -> Any:
        if k in ("entity_id", "subject_id", "object_id", "target"):
            return ents.get(v, v)
        if k in ("superseded_by",):
            return facts.get(v, v)
        if k in ("supersedes",):
            return tuple(sorted(facts.get(x, x) for x in v))
        if k == "mentions":
            return tuple(sorted(ents.get(x, x) for x in v))
        if k in ("expire_reason", "reason") and isinstance(v, str):
            return _UUID.sub(lambda m: "/".join(map(str, facts.get(m.group(0)) or ents.get(m.group(0))
                                                     or (m.group(0),))), v)
        if k in ("expired_at", "cold_at"):
            return v is not None
        if isinstance(v, list):
            return tuple(v)
        return v

    out = []
    for r in rows:
        t = r["type"]
        if t == "fact_vector":
            out.append((t, facts.get(r["id"], r["id"]), r["embedding"]))
            continue
        ident = ents.get(r["id"]) if t == "entity" else facts.get(r["id"]) if t == "fact" else None
        items = tuple(sorted((k, fix(k, v)) for k, v in r.items()
                             if k not in ("id", "type") and (k not in VOLATILE or k in ("expired_at", "cold_at"))))
        out.append((t, ident, items) if ident is not None else (t, items))
    return sorted(out, key=repr)


def diff(a: list[tuple], b: list[tuple], limit: int = 5) -> list[str]:
    """What one canonical dump has that the other has not (for a test's message)."""
    from collections import Counter

    ca, cb = Counter(map(repr, a)), Counter(map(repr, b))
    only_a = list((ca - cb).elements())[:limit]
    only_b = list((cb - ca).elements())[:limit]
    return [f"- {x[:400]}" for x in only_a] + [f"+ {x[:400]}" for x in only_b]



# -- on Ray -----------------------------------------------------------------------------

#: Turns whose content vectors one pre-pass computes (and the driver holds) at a time.
WINDOW = 20_000


class _EmbedBatch:
    """A Ray Data worker of the pre-pass: the bundled embedder, loaded once."""

    def __init__(self) -> None:
        from .models import default_embedder

        self.embedder = default_embedder().load()

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        texts = [str(t) for t in batch["text"]]
        return {"text": batch["text"], "vector": self.embedder.embed(texts)}


def prepass(texts: Sequence[str], *, workers: int, batch_size: int = 256) -> dict[str, Any]:
    """Embed ``texts`` with Ray Data (``map_batches`` over ``workers`` actors):
    text -> vector, the same vectors the shard would compute (one model, and
    the embedder's rows do not depend on their batch)."""
    import ray.data

    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    if not texts:
        return {}
    batch_size = max(1, min(batch_size, -(-len(texts) // workers)))
    ds = ray.data.from_items([{"text": t} for t in texts],
                             override_num_blocks=max(workers, min(-(-len(texts) // batch_size), 8 * workers)))
    out = ds.map_batches(_EmbedBatch, batch_size=batch_size, compute=ray.data.ActorPoolStrategy(size=workers),
                         num_cpus=1, batch_format="numpy", runtime_env={"env_vars": {"MIDAS_MODEL_THREADS": "1"}})
    vectors: dict[str, Any] = {}
    for b in out.iter_batches(batch_size=None, batch_format="numpy"):
        for t, v in zip(b["text"], b["vector"]):
            vectors[str(t)] = v
    return vectors


def ingest_ray(cluster: Any, turns: Sequence[Turn], *, prepass_workers: int | None = None, batch: int = BATCH,
               window: int = WINDOW, progress: bool | None = None, stop_after: int | None = None) -> dict[str, Any]:
    """The backfill on a :class:`~midas_graph.cluster.Cluster`: each shard's
    actor applies its groups' turns in order, one batch in flight per shard,
    the shards in parallel. ``prepass_workers``: first embed each window's
    contents with Ray Data on that many workers (``None`` or 0: the shards
    embed). ``stop_after``: once that many turns were acknowledged, kill the
    actors (a crash: no close, no checkpoint) and raise :class:`BackfillStopped`."""
    from ._episodes import Ingest

    ray = cluster._ray
    t0 = time.perf_counter()
    by_shard: dict[int, list[tuple[str, str]]] = {}
    for t in turns:
        by_shard.setdefault(cluster.layout.shard_for(t.group_id), []).append((t.group_id, t.item.episode_id))
    stored: set[str] = set()
    for found in cluster.get([cluster.actors[s].stored_ids.remote(p) for s, p in by_shard.items()]):
        stored |= found
    run, finished = _unfinished(ordered(turns), stored)
    counts = {"applied": 0, "skipped": finished, "facts": 0, "primed": 0}
    acked = dispatched = 0
    bar = _bar(len(turns), progress)
    if bar is not None:
        bar.update(finished)
    prepass_s = 0.0
    try:
        for w in range(0, len(run), window):
            part = run[w:w + window]
            if stop_after is not None:
                part = part[:max(0, stop_after - dispatched)]
            vectors: dict[str, Any] = {}
            if prepass_workers:
                tp = time.perf_counter()
                texts = list(dict.fromkeys(x for t in part for x in Ingest.content_texts(t.item.speaker, t.item.content)))
                vectors = prepass(texts, workers=prepass_workers)
                prepass_s += time.perf_counter() - tp
            queues: dict[int, list[Turn]] = {}
            for t in part:
                queues.setdefault(cluster.layout.shard_for(t.group_id), []).append(t)
            pos = dict.fromkeys(queues, 0)
            inflight: dict[Any, tuple[int, int]] = {}
            busy: set[int] = set()
            while True:
                for s, q in queues.items():
                    if s in busy or pos[s] >= len(q):
                        continue
                    chunk = q[pos[s]:pos[s] + batch]
                    pos[s] += len(chunk)
                    dispatched += len(chunk)
                    given = {x: vectors[x] for t in chunk
                             for x in Ingest.content_texts(t.item.speaker, t.item.content) if x in vectors}
                    inflight[cluster.actors[s].apply.remote(chunk, given or None)] = (s, len(chunk))
                    busy.add(s)
                if not inflight:
                    break
                done, _ = ray.wait(list(inflight), num_returns=1)
                for ref in done:
                    s, n = inflight.pop(ref)
                    busy.discard(s)
                    status, got = cluster.get(ref)
                    if status == "err":
                        raise got
                    for k in counts:
                        counts[k] += got[k]
                    acked += n
                    if bar is not None:
                        bar.update(n)
            if stop_after is not None and acked >= stop_after:
                _crash(cluster)
                raise BackfillStopped(acked)
    finally:
        if bar is not None:
            bar.close()
    return {"episodes": len(turns), **counts, "groups": len({t.group_id for t in turns}), "shards": cluster.layout.n,
            "seconds": round(time.perf_counter() - t0, 3), "prepass_seconds": round(prepass_s, 3)}


def _crash(cluster: Any) -> None:
    """Kill every shard actor at once (no close: what a crash leaves), and
    wait until Ray reports each one dead."""
    ray = cluster._ray
    actors, cluster.actors, cluster._owned = cluster.actors, [], []
    for a in actors:
        ray.kill(a, no_restart=True)
    for a in actors:
        try:
            ray.get(a.ping.remote())
        except ray.exceptions.RayActorError:
            pass
