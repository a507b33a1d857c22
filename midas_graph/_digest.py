"""Row digests: every stored row carries a digest of its own fields, so that a
damaged database file is found instead of read as if it were fine.

A zeroed or torn page of the database file does not always make the engine
fail: it can read back a column of ``1970-01-01`` timestamps, a column of
ids turned into other ids, or one subject id for every fact (measured: one
4 KB page of a 3,000-fact database zeroed, 2 of 30 exports passed with
altered rows). The engines keep no page checksums, so midas_graph keeps its
own, one per row, computed from the very values it hands the engine and
checked against the values the engine hands back.

What is digested (see schema/README.md, version 4):

* ``Fact.digest``: every column of a version except the three that are
  written once more when it expires (``expired_at``, ``expire_reason``,
  ``expired_by_episode``). Those columns never change after the insert.
* ``Fact.expiry_digest``: the version id and those three columns, written by
  the same ``SET`` that expires the version. It is null while the version is
  held, and a held version must read back with ``expired_at`` open and no
  reason or episode. A second digest, rather than one digest rewritten at
  expiry, because the expiring statement knows only the vid and the three
  new values: rewriting one digest would mean reading every expiring row
  back first (and would seal whatever damage it read). A held row costs no
  second hash on the write path.
* ``Episode.digest``: the verbatim record (content, speaker, times,
  provenance ...), not its vectors, which recall recomputes.
  Since schema version 6 it also covers the three importance columns
  (tag ``episode/2``); ``Episode.cold_digest`` seals its tier state
  (``cold_at``, ``cold_reason``), written by the same ``SET`` that makes it
  cold, null while it is hot (as a fact's expiry digest).
* ``Entity.digest``: id, group, name, aliases, kind, summary, created_at;
  rewritten with ``aliases`` when an alias is added, after the old digest is
  checked (a damaged row is refused, never re-sealed).
* ``Alias.digest``: the name key and the entity it points to.
* ``Link.digest``: every column of a people link (schema version 5); a link
  row is written once and ended by another row, never changed.

Vectors (``FactVector``, embeddings) and ``Slot`` rows are derived data
and carry no digest; ``Memory.check()`` compares every slot with the held
versions (its ``slot`` rule) and every edge with the digested ids (its
``subject`` rule).

The encoding is fixed here, not by Python's ``repr``: fields joined by
``\\x1e`` behind a tag naming the table and format, ``None`` as ``\\x00``,
timestamps as ISO 8601 (``2024-05-03T10:00:00[.ffffff]``, naive UTC as the
engine stores them), numbers by ``repr``, lists joined by ``\\x1f`` (an empty
list and a null list are the same). Digest: BLAKE2b, 8 bytes, 16 hex
characters. It detects damage, not tampering: anyone who can write the file
can recompute it.
"""

from __future__ import annotations

import datetime as _dt
from contextlib import contextmanager
from dataclasses import dataclass
from hashlib import blake2b
from itertools import repeat
from typing import Any, Iterable, Iterator, Sequence

from ._errors import DamagedError, EngineError

#: (column, kind) of each digested table, in digest order. Kinds: ``s``
#: string, ``n`` number, ``t`` timestamp, ``l`` list of strings.
FACT_FIELDS: tuple[tuple[str, str], ...] = (
    ("vid", "s"), ("id", "s"), ("version", "n"), ("group_id", "s"), ("subject_id", "s"),
    ("subject", "s"), ("attribute", "s"), ("value", "s"), ("value_type", "s"), ("object_id", "s"),
    ("text", "s"), ("valid_from", "t"), ("valid_to", "t"), ("stated_valid_to", "t"),
    ("recorded_at", "t"), ("superseded_by", "s"), ("supersedes", "l"), ("episode_id", "s"),
    ("provenance", "s"), ("confidence", "n"), ("importance", "n"), ("source", "s"), ("reason", "s"),
)
EXPIRY_FIELDS: tuple[tuple[str, str], ...] = (
    ("vid", "s"), ("expired_at", "t"), ("expire_reason", "s"), ("expired_by_episode", "s"),
)
EPISODE_FIELDS: tuple[tuple[str, str], ...] = (
    ("id", "s"), ("group_id", "s"), ("name", "s"), ("content", "s"), ("speaker", "s"), ("source", "s"),
    ("source_description", "s"), ("reference_time", "t"), ("recorded_at", "t"), ("expired_at", "t"),
    ("provenance", "s"),
    # schema version 6 (tag episode/2): the importance computed at ingest
    ("importance", "n"), ("content_score", "n"), ("structural_score", "n"),
)
#: An episode's tier state (schema version 6): sealed by ``cold_digest``,
#: written by the same ``SET`` that makes it cold; null while it is hot.
COLD_FIELDS: tuple[tuple[str, str], ...] = (("id", "s"), ("cold_at", "t"), ("cold_reason", "s"))
COLD_TAG = "cold/1"
ENTITY_FIELDS: tuple[tuple[str, str], ...] = (
    ("id", "s"), ("group_id", "s"), ("name", "s"), ("aliases", "l"), ("kind", "s"), ("summary", "s"),
    ("created_at", "t"),
)
ALIAS_FIELDS: tuple[tuple[str, str], ...] = (
    ("key", "s"), ("group_id", "s"), ("alias", "s"), ("entity_id", "s"),
)
#: People links (schema version 5, docs/people.md): written once, never changed.
LINK_FIELDS: tuple[tuple[str, str], ...] = (
    ("key", "s"), ("group_id", "s"), ("kind", "s"), ("entity_id", "s"), ("target", "s"), ("name", "s"),
    ("episode_id", "s"), ("reason", "s"), ("recorded_at", "t"),
)

#: table -> (tag, fields, primary key column): what :func:`damaged` verifies.
TABLES: dict[str, tuple[str, tuple[tuple[str, str], ...], str]] = {
    "Fact": ("fact/1", FACT_FIELDS, "vid"),
    "Episode": ("episode/2", EPISODE_FIELDS, "id"),
    "Entity": ("entity/1", ENTITY_FIELDS, "id"),
    "Alias": ("alias/1", ALIAS_FIELDS, "key"),
    "Link": ("link/1", LINK_FIELDS, "key"),
}
EXPIRY_TAG = "expiry/1"
#: The stored open end of an interval, as its digest encodes it.
_OPEN = "9999-12-31T23:59:59"
_NULL = "\x00"


def _iso(v: Any) -> str:
    if v is None:
        return _NULL
    if isinstance(v, str):  # as the engine returns it: CAST(t AS STRING)
        return _iso_text(v)
    return v.isoformat()


def _iso_text(v: str) -> str:
    """``datetime.fromisoformat(v).isoformat()`` for the engine's text of a
    timestamp (``2024-05-03 10:00:00``, ``... 10:00:00.5``), without the
    round trip; anything else takes it."""
    if len(v) >= 19 and v[10] == " " and v[4] == "-" and v[13] == ":" and (len(v) == 19 or v[19] == "."):
        if len(v) == 19:
            return v[:10] + "T" + v[11:]
        frac = v[20:]
        if 0 < len(frac) <= 6 and frac.isdigit():
            return v[:10] + "T" + v[11:20] + frac.ljust(6, "0")
    return _dt.datetime.fromisoformat(v).isoformat()


def _encode(values: Sequence[Any], kind: str) -> Sequence[str]:
    """One column as the strings its digest covers (work per column, not per
    value, where the column allows: a batch shares most times and many strings)."""
    if kind == "s":
        return [_NULL if v is None else v for v in values] if None in values else values
    if kind == "t":
        uniq = set(values)
        if len(uniq) * 4 > len(values):  # mostly distinct (valid_from of a bulk batch)
            try:
                return [v.isoformat() for v in values]  # datetimes, as the store writes them
            except AttributeError:
                if None not in uniq:  # text, as the engine returns it
                    return [_iso_text(v) for v in values]
                return [_iso(v) for v in values]
        memo = {v: _iso(v) for v in uniq}
        return [memo[v] for v in values]
    if kind == "l":
        return ["\x1f".join(v) if v else "" for v in values]
    return [_NULL if v is None else repr(v) for v in values]  # no memo: 0.0 == -0.0, 1 == 1.0 == True


def digests(tag: str, fields: Sequence[tuple[str, str]], columns: dict[str, Sequence[Any]]) -> list[str]:
    """The digest of each row of ``columns`` (column name -> values, as the
    store writes them or as the engine returns them)."""
    encoded = [_encode(columns[name], kind) for name, kind in fields]
    join = "\x1e".join
    return [blake2b(join(row).encode(), digest_size=8).hexdigest()
            for row in zip(repeat(tag), *encoded)]


def fact_digests(columns: dict[str, Sequence[Any]]) -> tuple[list[str], list[str | None]]:
    """(digest, expiry digest) of each fact row of ``columns`` (the storage
    encoding, :func:`midas_graph._store.fact_columns`). The expiry digest is
    None for a held row (open ``expired_at``, no reason, no episode)."""
    main = digests("fact/1", FACT_FIELDS, columns)
    expiry: list[str | None] = [None] * len(main)
    ended = [i for i, (at, why, ep) in enumerate(zip(columns["expired_at"], columns["expire_reason"],
                                                      columns["expired_by_episode"]))
             if why is not None or ep is not None or _iso(at) != _OPEN]
    if ended:
        sub = {name: [columns[name][i] for i in ended] for name, _ in EXPIRY_FIELDS}
        for i, d in zip(ended, digests(EXPIRY_TAG, EXPIRY_FIELDS, sub)):
            expiry[i] = d
    return main, expiry


def expiry_digest(vid: str, expired_at: _dt.datetime, reason: str | None, episode: str | None) -> str:
    """The expiry digest a version gets when it expires (``expired_at`` naive UTC)."""
    return digests(EXPIRY_TAG, EXPIRY_FIELDS, {"vid": [vid], "expired_at": [expired_at],
                                               "expire_reason": [reason], "expired_by_episode": [episode]})[0]


def cold_digest(key: str, cold_at: _dt.datetime, reason: str | None) -> str:
    """The tier digest an episode (by stored key) gets when it goes cold (``cold_at`` naive UTC)."""
    return digests(COLD_TAG, COLD_FIELDS, {"id": [key], "cold_at": [cold_at], "cold_reason": [reason]})[0]


def row_digest(table: str, row: dict[str, Any]) -> str:
    """The digest of one row of ``table`` (column name -> value)."""
    tag, fields, _ = TABLES[table]
    return digests(tag, fields, {name: [row.get(name)] for name, _ in fields})[0]


@dataclass(frozen=True, slots=True)
class Damage:
    """One stored row whose fields no longer match its digest.

    ``table`` and ``key`` name the row (``Fact`` rows by vid); ``part`` is
    ``fields`` (the columns written once), ``expiry`` (``expired_at``,
    ``expire_reason``, ``expired_by_episode``) or ``index`` (its primary
    key does not find it); ``detail`` says what differs.
    """

    table: str
    key: str
    part: str
    detail: str

    def __str__(self) -> str:
        return f"{self.table} {self.key!r} ({self.part}): {self.detail}"


def verify(table: str, rows: Sequence[Sequence[Any]], columns: Sequence[str]) -> list[Damage]:
    """The damaged rows among raw ``rows`` of ``table`` whose values are in
    ``columns`` order; ``columns`` must include ``digest`` (and, for facts,
    the expiry columns and ``expiry_digest``)."""
    if not rows:
        return []
    tag, fields, key = TABLES[table]
    cols = dict(zip(columns, map(list, zip(*rows))))
    keys = [_NULL if k is None else str(k) for k in cols[key]]
    out = []
    try:
        want = digests(tag, fields, cols)
    except (TypeError, ValueError, AttributeError, UnicodeError):  # a value no writer could have written
        want = [_one(tag, fields, cols, i) for i in range(len(rows))]
    for k, have, w in zip(keys, cols["digest"], want):
        if have is None:
            out.append(Damage(table, k, "fields", "no digest stored"))
        elif have != w:
            out.append(Damage(table, k, "fields", "the stored fields do not match their digest"))
    if table == "Fact":
        out.extend(_verify_expiry(cols, keys))
    elif table == "Episode" and "cold_digest" in cols:
        out.extend(_verify_cold(cols, keys))
    return out


def _verify_cold(cols: dict[str, list[Any]], keys: list[str]) -> Iterator[Damage]:
    """A hot episode reads back with no ``cold_at``, reason or digest; a
    cold one matches its tier digest."""
    for i, (key, at, why, have) in enumerate(zip(keys, cols["cold_at"], cols["cold_reason"], cols["cold_digest"])):
        if have is None:
            if at is not None or why is not None:
                yield Damage("Episode", key, "tier", f"cold_at {at} on an episode with no tier digest")
            continue
        try:
            want = digests(COLD_TAG, COLD_FIELDS, {"id": [cols["id"][i]], "cold_at": [at], "cold_reason": [why]})[0]
        except (TypeError, ValueError, AttributeError, UnicodeError):
            want = "unreadable"
        if have != want:
            yield Damage("Episode", key, "tier", "cold_at or cold_reason do not match their digest")


def _one(tag: str, fields, cols: dict[str, list[Any]], i: int) -> str:
    try:
        return digests(tag, fields, {name: [cols[name][i]] for name, _ in fields})[0]
    except (TypeError, ValueError, AttributeError, UnicodeError):
        return "unreadable"


def _verify_expiry(cols: dict[str, list[Any]], keys: list[str]) -> Iterator[Damage]:
    for i, (vid, at, why, ep, have) in enumerate(zip(keys, cols["expired_at"], cols["expire_reason"],
                                                     cols["expired_by_episode"], cols["expiry_digest"])):
        try:
            held = why is None and ep is None and _iso(at) == _OPEN
        except (TypeError, ValueError, AttributeError):
            held = False
        if have is None:
            if not held:
                yield Damage("Fact", vid, "expiry", f"expired_at {at} on a version with no expiry digest")
            continue
        sub = {"vid": [cols["vid"][i]], "expired_at": [at], "expire_reason": [why], "expired_by_episode": [ep]}
        try:
            want = digests(EXPIRY_TAG, EXPIRY_FIELDS, sub)[0]
        except (TypeError, ValueError, AttributeError, UnicodeError):
            want = "unreadable"
        if have != want:
            yield Damage("Fact", vid, "expiry", "expired_at, expire_reason or expired_by_episode do not "
                                                "match their digest")


def damaged(store, group_id: str | None = None) -> list[Damage]:
    """Every damaged row of the database (of one group): rows whose fields
    no longer match their digests, and rows their primary key does not find
    (a damaged index). A full scan. What the engine cannot read (its own
    error on a damaged page) is listed too, with key ``*``; the rest is
    still checked. ``Memory.check()`` runs it as its ``digest`` rule; its
    ``subject`` and ``slot`` rules check the edges and slots against these
    rows."""
    out: list[Damage] = []
    for table, (_, _, key) in TABLES.items():
        with _unreadable(out, table, "fields"):
            for columns, rows in store.scan_for_digest(table, group_id):
                out.extend(verify(table, rows, columns))
                keys = [k for k in (r[columns.index(key)] for r in rows) if isinstance(k, str)]
                with _unreadable(out, table, "index"):
                    out.extend(Damage(table, k, "index", "its primary key does not find it")
                               for k in store.keys_not_found(table, keys))
    return out


@contextmanager
def _unreadable(out: list[Damage], table: str, part: str) -> Iterator[None]:
    """The engine failing to read a damaged page is damage found, not a reason
    to stop looking: it is listed (key ``*``: the rows cannot be named)."""
    try:
        yield
    except (EngineError, ValueError, TypeError, UnicodeError) as exc:  # values no writer could have written
        found = Damage(table, "*", part, f"cannot be read: {exc}")
        if found not in out[-8:]:  # once per table, not once per batch
            out.append(found)


def raise_if_damaged(found: Iterable[Damage], what: str = "the database") -> None:
    found = list(found)
    if found:
        raise DamagedError(found, what)
