"""JSONL export and import (the format, by example: docs/export.md).

An export is lossless: a header row (the format and the schema version),
then every entity (with its name embedding), name key (alias), episode
(verbatim, with its embeddings and the entities it mentions), every stored
fact version (both time axes, its episode, reasons and ``expired_by_episode``),
every fact vector, the episodes versions name that were removed, and an end
row with the count of each kind. Importing it into an empty memory gives the
same database, with no model loaded. Importing it again writes nothing.

Every row is read and every reference checked before anything is written,
and the write is one transaction: a row that names an entity, episode or
fact that is in neither the file nor the memory is refused, with its line.

A file of plain rows (``subject``, ``attribute``, ``value``, ...; no
``type``) is instead ingested as new facts through ``add_facts``.
"""

from __future__ import annotations

import base64
import binascii
import datetime as _dt
import json
import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, TextIO

from ._errors import InvalidInputError, SchemaVersionError
from ._store import FACT_COLUMNS, SCHEMA_VERSION, decode_value, encode_value
from ._time import parse_time
from ._types import Entity, Episode, Fact

#: The ``format`` of the header row, and the version of the row layout.
FORMAT = "midas_graph-export"
FORMAT_VERSION = 2
#: An export of a memory ``compact()`` never touched is written at format 1
#: (readable by older midas_graph); one with a compaction horizon at format 2,
#: whose header carries ``compacted`` ({group: horizon}): an older reader
#: refuses it instead of importing dangling links without their horizon.
_FORMAT_COMPACTED = 2

_TIME_FIELDS = ("valid_from", "valid_to", "stated_valid_to", "recorded_at", "expired_at")
_FACT_FIELDS = tuple(c for c in FACT_COLUMNS if c not in ("vid", "value_type"))
#: Row types in the order an export writes them.
ROW_TYPES = ("header", "entity", "alias", "link", "episode", "removed_episode", "fact", "fact_vector", "end")
_LINK_FIELDS = ("key", "group_id", "kind", "entity_id", "target", "name", "episode_id", "reason", "recorded_at")


# -- rows ------------------------------------------------------------------------

def _iso(dt: _dt.datetime | None) -> str | None:
    return dt.isoformat() if dt is not None else None


def fact_to_json(f: Fact) -> dict[str, Any]:
    value, kind = encode_value(f.value)
    out: dict[str, Any] = {"type": "fact"}
    for name in _FACT_FIELDS:
        v = getattr(f, name)
        if isinstance(v, _dt.datetime):
            v = v.isoformat()
        elif isinstance(v, tuple):
            v = list(v)
        out[name] = v
    out["value"], out["value_type"] = value, kind
    return out


def fact_from_json(d: dict[str, Any]) -> Fact:
    kw = {k: d.get(k) for k in _FACT_FIELDS}
    for name in ("id", "group_id", "subject_id", "subject", "attribute"):
        if not isinstance(kw[name], str) or not kw[name]:
            raise InvalidInputError(name, "must be a non-empty string")
    if not isinstance(d.get("value"), str):
        raise InvalidInputError("value", "must be a string (with value_type)")
    kw["value"] = decode_value(d["value"], d.get("value_type", "str"))
    for name in _TIME_FIELDS:
        kw[name] = parse_time(kw[name], name)
    for name in ("valid_from", "recorded_at"):
        if kw[name] is None:
            raise InvalidInputError(name, "is required")
    if not isinstance(kw["version"], int) or isinstance(kw["version"], bool) or kw["version"] < 1:
        raise InvalidInputError("version", "must be a positive integer")
    kw["supersedes"] = tuple(kw["supersedes"] or ())
    kw["text"] = kw["text"] or ""
    kw["reason"] = kw["reason"] or ""
    kw["provenance"] = kw["provenance"] or "observation"
    kw["confidence"] = 1.0 if kw["confidence"] is None else kw["confidence"]
    kw["importance"] = kw["importance"] or 0.0
    return Fact(**kw)


def entity_to_json(e: Entity, name_embedding: str | None = None) -> dict[str, Any]:
    return {
        "type": "entity", "id": e.id, "group_id": e.group_id, "name": e.name,
        "aliases": list(e.aliases), "kind": e.kind, "summary": e.summary,
        "created_at": _iso(e.created_at), "name_embedding": name_embedding,
    }


def entity_from_json(d: dict[str, Any]) -> Entity:
    for name in ("id", "group_id", "name"):
        if not isinstance(d.get(name), str) or not d[name]:
            raise InvalidInputError(name, "must be a non-empty string")
    return Entity(
        id=d["id"], group_id=d["group_id"], name=d["name"], aliases=tuple(d.get("aliases") or ()),
        kind=d.get("kind") or "CONCEPT", summary=d.get("summary") or "",
        created_at=parse_time(d.get("created_at"), "created_at"),
    )


def episode_to_json(ep: Episode, embedding: str | None, sentences: str | None,
                    mentions: list[str], key: str | None = None) -> dict[str, Any]:
    """``key``: the stored key, when it is not the id (``_store.episode_key``:
    another group held the id when this episode was stored)."""
    out = {"type": "episode", "id": ep.id}
    if key is not None and key != ep.id:
        out["key"] = key
    return out | {
        "group_id": ep.group_id, "name": ep.name, "content": ep.content,
        "speaker": ep.speaker, "source": ep.source, "source_description": ep.source_description,
        "reference_time": _iso(ep.reference_time), "recorded_at": _iso(ep.recorded_at),
        "provenance": ep.provenance, "importance": ep.importance, "content_score": ep.content_score,
        "structural_score": ep.structural_score, "cold_at": _iso(ep.cold_at), "cold_reason": ep.cold_reason,
        "mentions": mentions, "embedding": embedding, "sentence_embeddings": sentences,
    }


def episode_from_json(d: dict[str, Any]) -> Episode:
    for name in ("id", "group_id", "speaker", "source"):
        if not isinstance(d.get(name), str) or not d[name]:
            raise InvalidInputError(name, "must be a non-empty string")
    if not isinstance(d.get("content"), str):
        raise InvalidInputError("content", "must be a string")
    for name in ("reference_time", "recorded_at"):
        if d.get(name) is None:
            raise InvalidInputError(name, "is required")
    if d.get("name") is not None and not isinstance(d["name"], str):
        raise InvalidInputError("name", "must be a string or null")
    scores = {}
    for name in ("importance", "content_score", "structural_score"):  # schema version 6; absent before
        v = d.get(name)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)):
            raise InvalidInputError(name, "must be a finite number or null")
        scores[name] = None if v is None else float(v)
    if d.get("cold_reason") is not None and not isinstance(d["cold_reason"], str):
        raise InvalidInputError("cold_reason", "must be a string or null")
    return Episode(
        id=d["id"], group_id=d["group_id"], content=d["content"], speaker=d["speaker"], source=d["source"],
        reference_time=parse_time(d["reference_time"], "reference_time"),  # type: ignore[arg-type]
        recorded_at=parse_time(d["recorded_at"], "recorded_at"),  # type: ignore[arg-type]
        provenance=d.get("provenance") or "observation", name=d.get("name"),
        source_description=d.get("source_description") or "", **scores,
        cold_at=parse_time(d.get("cold_at"), "cold_at"), cold_reason=d.get("cold_reason"),
    )


def _vector(d: dict[str, Any], name: str, *, required: bool = False) -> str | None:
    """A stored vector as exported: base64 text of float32 bytes (checked, kept as text)."""
    v = d.get(name)
    if v is None and not required:
        return None
    if not isinstance(v, str):
        raise InvalidInputError(name, "must be base64 text of float32 values")
    try:
        raw = base64.b64decode(v, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidInputError(name, "is not valid base64") from None
    if len(raw) % 4:
        raise InvalidInputError(name, f"holds {len(raw)} bytes, not a whole number of float32 values")
    return v


def _string(d: dict[str, Any], name: str) -> str:
    v = d.get(name)
    if not isinstance(v, str) or not v:
        raise InvalidInputError(name, "must be a non-empty string")
    return v


def _strings(d: dict[str, Any], name: str) -> list[str]:
    v = d.get(name) or []
    if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
        raise InvalidInputError(name, "must be a list of ids")
    return v


# -- export ------------------------------------------------------------------------

def export_rows(mem, *, group_id: str | None = None) -> Iterator[dict[str, Any]]:
    """Every row of an export, in a stable order (two exports of one
    database are byte-identical). Writers of this process wait until the
    rows are read to the end (or the iterator is closed): the export is one
    committed state. ``group_id``: the rows of that group only (a group
    moved to another shard, docs/scaling.md): every row it names is of the
    group too, so the export imports on its own."""
    if group_id is not None and (not isinstance(group_id, str) or not group_id.strip()):
        raise InvalidInputError("group_id", "expected a non-empty string")
    with mem._store.writes_paused():
        yield from _export_rows(mem._store, group_id)


def _export_rows(store, group_id: str | None = None) -> Iterator[dict[str, Any]]:
    counts = dict.fromkeys(ROW_TYPES[1:-1], 0)
    horizons = store.horizons()
    if group_id is not None:
        horizons = {g: t for g, t in horizons.items() if g == group_id}
    header = {"type": "header", "format": FORMAT, "format_version": _FORMAT_COMPACTED if horizons else 1,
              "schema_version": store.schema_version}
    if horizons:
        header["compacted"] = {g: t.isoformat() for g, t in sorted(horizons.items())}
    yield header
    for e, vec in store.export_entities(group_id):
        counts["entity"] += 1
        yield entity_to_json(e, vec)
    for key, group, alias, eid in sorted(store.alias_rows(group_id=group_id)):
        counts["alias"] += 1
        yield {"type": "alias", "key": key, "group_id": group, "alias": alias, "entity_id": eid}
    for row in sorted(store.link_rows(group_id), key=lambda r: r["key"]):  # people links (docs/people.md)
        counts["link"] += 1
        yield {"type": "link", **{k: (row[k].isoformat() if k == "recorded_at" else row[k]) for k in _LINK_FIELDS}}
    stored: set[tuple[str, str]] = set()
    for ep, key, emb, sent, mentions in store.export_episodes(group_id=group_id):
        stored.add((ep.group_id, ep.id))
        counts["episode"] += 1
        yield episode_to_json(ep, emb, sent, mentions, key)
    # Episodes that versions name but the memory no longer holds (remove_episode deletes
    # the episode, and the versions keep its id): listed, so that an import tells them
    # apart from a row missing from the file.
    for ep_id, group in store.fact_episode_ids(group_id):
        if (group, ep_id) not in stored:
            counts["removed_episode"] += 1
            yield {"type": "removed_episode", "id": ep_id, "group_id": group}
    for f in store.iter_facts(group_id):
        counts["fact"] += 1
        yield fact_to_json(f)
    for fid, vec in store.export_fact_vectors(group_id=group_id):
        counts["fact_vector"] += 1
        yield {"type": "fact_vector", "id": fid, "embedding": vec}
    yield {"type": "end", "rows": counts}


def write_jsonl(rows: Iterable[dict[str, Any]], fp: TextIO) -> int:
    n = 0
    for row in rows:
        fp.write(json.dumps(row, ensure_ascii=False) + "\n")
        n += 1
    return n


def read_jsonl(fp: TextIO, name: str = "input") -> Iterator[tuple[int, dict[str, Any]]]:
    for lineno, line in enumerate(fp, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"{name}:{lineno}", f"not valid JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise InvalidInputError(f"{name}:{lineno}", "each line must be a JSON object")
        yield lineno, row


# -- import ------------------------------------------------------------------------

@dataclass
class Dump:
    """The rows of an export, parsed, each with its line number."""

    header: int | None = None  # line of the header row (None: an export written before headers)
    end: tuple[int, dict[str, int]] | None = None
    entities: list[tuple[int, Entity, str | None]] = field(default_factory=list)
    aliases: list[tuple[int, tuple[str, str, str, str]]] = field(default_factory=list)
    links: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    episodes: list[tuple[int, Episode, str, str | None, str | None, list[str]]] = field(default_factory=list)
    removed: dict[tuple[str, str], int] = field(default_factory=dict)  # (group, episode id) -> line
    horizons: dict[str, _dt.datetime] = field(default_factory=dict)  # group -> compaction horizon
    facts: list[tuple[int, Fact]] = field(default_factory=list)
    fact_vectors: list[tuple[int, str, str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.header is not None or bool(self.entities or self.facts or self.episodes)

    def add(self, lineno: int, row: dict[str, Any]) -> None:
        kind = row["type"]
        if kind != "header" and self.end is not None:
            raise InvalidInputError("type", f"a {kind} row after the end row (line {self.end[0]})")
        if kind == "header":
            if self.header is not None:
                raise InvalidInputError("type", f"a second header row (the first is line {self.header})")
            if row.get("format") != FORMAT:
                raise InvalidInputError("format", f"{row.get('format')!r} is not {FORMAT!r}")
            version = row.get("schema_version")
            fmt = row.get("format_version")
            if not isinstance(version, int) or not isinstance(fmt, int):
                raise InvalidInputError("schema_version", "the header must give schema_version and format_version")
            if version > SCHEMA_VERSION or fmt > FORMAT_VERSION:
                raise SchemaVersionError(
                    f"line {lineno}: schema_version: the export was written at schema version {version} "
                    f"(format {fmt}), but this midas_graph reads up to schema version {SCHEMA_VERSION} "
                    f"(format {FORMAT_VERSION}): upgrade midas_graph to import it"
                )
            compacted = row.get("compacted") or {}
            if not isinstance(compacted, dict):
                raise InvalidInputError("compacted", "must map group ids to compaction horizons")
            for g, t in compacted.items():
                at = parse_time(t, "compacted")
                if not isinstance(g, str) or at is None:
                    raise InvalidInputError("compacted", f"{g!r}: {t!r} is not a group and a time")
                self.horizons[g] = at
            self.header = lineno
        elif kind == "end":
            rows = row.get("rows")
            if not isinstance(rows, dict) or not all(isinstance(v, int) for v in rows.values()):
                raise InvalidInputError("rows", "the end row must count the rows of each type")
            self.end = (lineno, rows)
        elif kind == "entity":
            self.entities.append((lineno, entity_from_json(row), _vector(row, "name_embedding")))
        elif kind == "alias":
            self.aliases.append((lineno, (_string(row, "key"), _string(row, "group_id"), _string(row, "alias"),
                                          _string(row, "entity_id"))))
        elif kind == "link":
            link = {k: row.get(k) for k in _LINK_FIELDS}
            for k in ("key", "group_id", "kind", "entity_id"):
                _string(row, k)
            if link["kind"] not in ("alias", "same", "unlink"):
                raise InvalidInputError("kind", f"{link['kind']!r} is not alias, same or unlink")
            link["recorded_at"] = parse_time(link["recorded_at"], "recorded_at")
            if link["recorded_at"] is None:
                raise InvalidInputError("recorded_at", "is required")
            self.links.append((lineno, link))
        elif kind == "episode":
            ep = episode_from_json(row)
            key = row.get("key", ep.id)
            if not isinstance(key, str) or not key:
                raise InvalidInputError("key", "must be a non-empty string")
            self.episodes.append((lineno, ep, key, _vector(row, "embedding"), _vector(row, "sentence_embeddings"),
                                  _strings(row, "mentions")))
        elif kind == "removed_episode":
            self.removed.setdefault((_string(row, "group_id"), _string(row, "id")), lineno)
        elif kind == "fact":
            self.facts.append((lineno, fact_from_json(row)))
        elif kind == "fact_vector":
            self.fact_vectors.append((lineno, _string(row, "id"), _vector(row, "embedding", required=True)))  # type: ignore[arg-type]
        else:
            raise InvalidInputError("type", f"unknown row type {kind!r} (one of {', '.join(ROW_TYPES)})")

    def finish(self) -> None:
        """Refuse a file cut short: an export with a header ends with its end row,
        whose counts must match the rows read."""
        if self.header is None:
            if self.end is not None:
                raise InvalidInputError(f"line {self.end[0]}: type", "an end row without a header row")
            if self.aliases or self.episodes or self.removed or self.fact_vectors:
                first = min(x[0] for x in [*self.aliases, *self.episodes, *self.fact_vectors]
                            + [(n,) for n in self.removed.values()])
                raise InvalidInputError(f"line {first}: type", "export rows without the header row")
            return
        if self.end is None:
            raise InvalidInputError("end", "the export has no end row: it was cut short (nothing was imported)")
        read = {"entity": len(self.entities), "alias": len(self.aliases), "link": len(self.links),
                "episode": len(self.episodes),
                "removed_episode": len(self.removed), "fact": len(self.facts),
                "fact_vector": len(self.fact_vectors)}
        wrong = {k: (v, read.get(k, 0)) for k, v in self.end[1].items() if read.get(k, 0) != v}
        if wrong:
            what = ", ".join(f"{k}: {want} announced, {got} read" for k, (want, got) in sorted(wrong.items()))
            raise InvalidInputError(f"line {self.end[0]}: rows", f"the rows do not match the end row ({what})")

    def check_references(self, store) -> None:
        """Refuse the first row (by line) that repeats a key of the file or
        names an entity, episode or fact that is in neither the file nor
        the memory."""
        problems: list[tuple[int, str, str]] = []
        seen: dict[tuple[str, str], int] = {}

        def unique(kind: str, key, lineno: int, name: str = "id", shown: str | None = None) -> None:
            first = seen.setdefault((kind, key), lineno)
            if first != lineno:
                problems.append((lineno, name, f"{shown or f'{kind} {key!r}'} repeats line {first}"))

        for lineno, e, _ in self.entities:
            unique("entity", e.id, lineno)
        for lineno, (key, *_) in self.aliases:
            unique("alias", key, lineno, "key")
        for lineno, link in self.links:
            unique("link", link["key"], lineno, "key")
        for lineno, ep, key, *_ in self.episodes:
            unique("episode", (ep.group_id, ep.id), lineno, shown=f"episode {ep.id!r} of group {ep.group_id!r}")
            unique("episode key", key, lineno, "key")
        for lineno, f in self.facts:
            unique("fact version", f.vid, lineno, "version")
        for lineno, fid, _ in self.fact_vectors:
            unique("fact vector", fid, lineno)

        entity_refs: list[tuple[int, str, str]] = [(n, "entity_id", eid) for n, (_, _, _, eid) in self.aliases]
        entity_refs += [(n, "mentions", eid) for n, *_, ms in self.episodes for eid in ms]
        entity_refs += [(n, "entity_id", x["entity_id"]) for n, x in self.links]
        entity_refs += [(n, "target", x["target"]) for n, x in self.links if x["kind"] == "same"]
        episode_refs: list[tuple[int, str, tuple[str, str]]] = []  # (line, field, (group, episode id))
        fact_refs: list[tuple[int, str, str]] = [(n, "id", fid) for n, fid, _ in self.fact_vectors]
        for n, f in self.facts:
            entity_refs.append((n, "subject_id", f.subject_id))
            if f.object_id is not None:
                entity_refs.append((n, "object_id", f.object_id))
            for name in ("episode_id", "expired_by_episode"):
                if getattr(f, name) is not None:
                    episode_refs.append((n, name, (f.group_id, getattr(f, name))))
            if f.superseded_by is not None:
                fact_refs.append((n, "superseded_by", f.superseded_by))
            fact_refs.extend((n, "supersedes", x) for x in f.supersedes)

        # in a compacted group a link may name a belief compact() dropped (it rewrites no row)
        compacted = set(self.horizons) | set(store.horizons())
        fact_group = {n: f.group_id for n, f in self.facts}
        fact_refs = [r for r in fact_refs if fact_group.get(r[0]) not in compacted or r[1] == "id"]

        def resolve(refs, have: set[str], label: str, key=lambda x: x) -> None:
            wanted = sorted({ref for _, _, ref in refs} - have)
            stored = store.existing(label, [key(x) for x in wanted]) if wanted else set()
            for n, name, ref in refs:
                if ref not in have and key(ref) not in stored:
                    what = {"Entity": "entity", "Episode": "episode", "Fact": "fact"}[label]
                    problems.append((n, name, f"{what} {ref!r} is in neither the file nor the memory"))

        resolve(entity_refs, {e.id for _, e, _ in self.entities}, "Entity")
        resolve(fact_refs, {f.id for _, f in self.facts}, "Fact", key=lambda fid: f"{fid}:1")
        # episode ids are per group: looked up in the group that names them
        have = {(ep.group_id, ep.id) for _, ep, *_ in self.episodes} | set(self.removed)
        wanted: dict[str, set[str]] = {}
        for _, _, (g, i) in episode_refs:
            if (g, i) not in have:
                wanted.setdefault(g, set()).add(i)
        have |= {(g, i) for g, ids in wanted.items() for i in store.episode_keys(g, sorted(ids))}
        for n, name, (g, i) in episode_refs:
            if (g, i) not in have:
                problems.append((n, name, f"episode {i!r} of group {g!r} is in neither the file nor the memory"))
        if problems:
            problems.sort()
            n, name, message = problems[0]
            more = f" ({len(problems) - 1} more rows name missing or repeated rows)" if len(problems) > 1 else ""
            hint = ("; exports without a header row hold no episodes: export the database again"
                    if self.header is None and name in ("episode_id", "expired_by_episode") else "")
            raise InvalidInputError(f"line {n}: {name}", f"{message}{hint}; nothing was imported{more}")


def import_rows(mem, rows: Iterable[tuple[int, dict[str, Any]]], *, group_id: str = "default",
                batch_size: int = 20_000, progress: bool | None = None) -> dict[str, int]:
    """Restore an export verbatim, or add plain rows as new facts; return
    what was written, counted in the database before and after."""
    dump = Dump()
    plain: list[tuple[int, dict[str, Any]]] = []
    for lineno, row in rows:
        kind = row.get("type")
        try:
            if kind is None:
                plain.append((lineno, row))
            else:
                dump.add(lineno, row)
        except InvalidInputError as exc:
            raise InvalidInputError(f"line {lineno}: {exc.field}", str(exc).split(": ", 1)[-1]) from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidInputError(f"line {lineno}", f"malformed {kind} row ({exc})") from None
    dump.finish()
    for lineno, row in plain:  # validated before anything is written
        try:
            mem._draft(row, group_id)
        except InvalidInputError as exc:
            raise InvalidInputError(f"line {lineno}: {exc.field}", str(exc).split(": ", 1)[-1]) from None
    report = {"entities": 0, "aliases": 0, "episodes": 0, "versions_restored": 0, "fact_vectors": 0}
    if dump:
        report = mem._restore(dump)
    before = mem._store.count_beliefs() if plain else 0
    if plain:
        mem.add_facts([r for _, r in plain], group_id=group_id, batch_size=batch_size, progress=progress)
    report["facts_added"] = mem._store.count_beliefs() - before if plain else 0
    return report


def vacuum(path: str, *, engine: str | None = None) -> dict[str, Any]:
    """Shrink a database file by rebuilding it (docs/forgetting.md, "Vacuum").

    Neither engine gives pages back in place, so what ``forget``, ``purge``
    and ``compact`` dropped, and what many checkpoints left behind, stays in
    the file until it is rebuilt: the memory is exported into a new file
    beside it (``<path>.vacuum``), the copy must pass ``check()`` and hold as
    many entities, fact versions and episodes, then it replaces the file
    (``os.replace``, atomic). Nothing is lost: ids, versions, times, tiers and
    digests are carried as an export carries them; if the copy is not the
    same memory it is deleted and the file is not touched (``DamagedError``
    or ``MidasError``).

    One writer: refused (``InvalidInputError``, ``path``) when the file is
    open in this process; the engine's lock keeps writers of other processes
    out while the copy is made. Run it with no other process on the file (a
    reader elsewhere would keep reading the old one). Returns ``{"path",
    "bytes_before", "bytes_after", "rows"}``."""
    import os

    from . import _handles
    from ._memory import Memory

    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path).strip():
        raise InvalidInputError("path", "expected the path of a database file")
    path = os.fspath(path)
    if not os.path.exists(path):
        raise InvalidInputError("path", f"{path!r} does not exist")
    if _handles.is_open(path):
        raise InvalidInputError("path", f"{path!r} is open in this process: close every Memory on it first")
    with Memory(path, engine=engine) as mem:
        return mem._vacuum()
