"""JSONL export and import.

An export holds every stored version verbatim (and the entities they hang
off), so importing it into an empty memory reproduces the same versions, ids
and both time axes. A file of plain rows (``subject``, ``attribute``,
``value``, ...) is instead ingested as new facts through ``add_facts``.
"""

from __future__ import annotations

import datetime as _dt
import json
from typing import Any, Iterable, Iterator, TextIO

from ._errors import InvalidInputError
from ._store import FACT_COLUMNS, decode_value, encode_value
from ._time import parse_time
from ._types import Entity, Fact

_TIME_FIELDS = ("valid_from", "valid_to", "stated_valid_to", "recorded_at", "expired_at")
_FACT_FIELDS = tuple(c for c in FACT_COLUMNS if c not in ("vid", "value_type"))


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
    kw["value"] = decode_value(d["value"], d.get("value_type", "str"))
    for name in _TIME_FIELDS:
        kw[name] = parse_time(kw[name], name)
    kw["supersedes"] = tuple(kw["supersedes"] or ())
    return Fact(**kw)


def entity_to_json(e: Entity) -> dict[str, Any]:
    return {
        "type": "entity", "id": e.id, "group_id": e.group_id, "name": e.name,
        "aliases": list(e.aliases), "kind": e.kind, "summary": e.summary,
        "created_at": e.created_at.isoformat() if e.created_at else None,
    }


def entity_from_json(d: dict[str, Any]) -> Entity:
    return Entity(
        id=d["id"], group_id=d["group_id"], name=d["name"], aliases=tuple(d.get("aliases") or ()),
        kind=d.get("kind") or "CONCEPT", summary=d.get("summary") or "",
        created_at=parse_time(d.get("created_at"), "created_at"),
    )


def export_rows(mem) -> Iterator[dict[str, Any]]:
    store = mem._store
    for e in store.all_entities():
        yield entity_to_json(e)
    for f in store.iter_facts():
        yield fact_to_json(f)


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


def import_rows(mem, rows: Iterable[tuple[int, dict[str, Any]]], *, group_id: str = "default",
                batch_size: int = 20_000, progress: bool | None = None) -> dict[str, int]:
    """Restore exported entities and versions verbatim; add plain rows as new facts."""
    entities: list[Entity] = []
    versions: list[Fact] = []
    plain: list[dict[str, Any]] = []
    for lineno, row in rows:
        kind = row.get("type")
        try:
            if kind == "entity":
                entities.append(entity_from_json(row))
            elif kind == "fact":
                versions.append(fact_from_json(row))
            elif kind is None:
                plain.append(row)
            else:
                raise InvalidInputError("type", f"unknown row type {kind!r}")
        except InvalidInputError as exc:
            raise InvalidInputError(f"line {lineno}: {exc.field}", str(exc).split(": ", 1)[-1]) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidInputError(f"line {lineno}", f"malformed {kind} row ({exc})") from None
    restored = 0
    if entities or versions:
        restored = mem._restore(entities, versions)
    added = mem.add_facts(plain, group_id=group_id, batch_size=batch_size, progress=progress) if plain else []
    return {"entities": len(entities), "versions_restored": restored, "facts_added": len(added)}
