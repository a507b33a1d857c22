"""The storage module: every call into the graph engine lives here.

The engine is LadybugDB (``ladybug``, default) or Kùzu 0.11.3 (``kuzu``); both
speak the same Cypher and Python API. The two wheels register the same native
types, so one process can load only one of them: the engine is imported on
first use and asking for the other one afterwards is a clear error.

All Cypher is parameterised; no user data is ever formatted into a query.
Two engine habits shape the queries (measured, see schema/README.md):

* a ``WHERE`` on a traversed node's properties makes the planner scan the whole
  table and hash-join; ``MATCH (e {id: $x})-[:HAS_FACT]->(f) WITH f WHERE ...``
  keeps the index-nested-loop walk from the primary key (0.3 ms vs 13 ms at
  100k facts);
* per-row queries cost ~0.3 ms each, so writes go in ``UNWIND $rows`` batches;
* a list of row maps as a parameter costs ~6 µs per value to convert; column
  lists (``UNWIND range(1, $n) AS i ... $col[i]``) are five times cheaper, but
  a primary-key match on ``$col[i]`` scans, so matches use small row maps;
* two primary-key matches in one ``MATCH`` become a hash join over full scans
  (15 s per 500 links at 100k facts); ``MATCH (a {pk}) WITH a, r MATCH (b {pk})``
  stays two index lookups (5 ms).
"""

from __future__ import annotations

import base64
import datetime as _dt
import importlib
import json
import os
import re
import sys
import threading
import time
import warnings
from contextlib import contextmanager
from importlib import resources
from typing import Any, Iterable, Iterator, Sequence

from . import _digest
from ._errors import DatabaseLockedError, EngineError, InvalidInputError, ReadOnlyError, SchemaVersionError
from ._temporal import Plan, SlotEntry, norm_value, slot_key
from ._time import FOREVER, from_db, to_db
from ._types import SAID, Link, Entity, Episode, Fact

ENGINES = {"ladybug": "ladybug", "kuzu": "kuzu"}
DEFAULT_ENGINE = "ladybug"
ENGINE_ENV = "MIDAS_GRAPH_ENGINE"
SCHEMA_VERSION = 7
#: The generation counter of writes that name no group (every group's caches follow it too).
ANY_GROUP = "*"
#: Meta key prefix of a group's compaction horizon (``Memory.compact``): the
#: versions of the group that expired at or before it are gone.
HORIZON_KEY = "compacted_before\x1f"

FACT_COLUMNS = (
    "vid", "id", "version", "group_id", "subject_id", "subject", "attribute", "value",
    "value_type", "object_id", "text", "valid_from", "valid_to", "stated_valid_to",
    "recorded_at", "expired_at", "superseded_by", "supersedes", "episode_id", "provenance",
    "confidence", "importance", "source", "reason", "expire_reason", "expired_by_episode",
)
_TIME_COLUMNS = frozenset(
    ("valid_from", "valid_to", "stated_valid_to", "recorded_at", "expired_at", "created_at", "reference_time",
     "cold_at")
)


def _returning(var: str, columns: Sequence[str]) -> str:
    """A RETURN list. Times come back as text: LadybugDB 0.22 leaks ~47 bytes
    per TIMESTAMP value it converts to a Python datetime (7 KB per as_of
    query, measured), and text parses just as fast."""
    return ", ".join(
        f"CAST({var}.{c} AS STRING)" if c in _TIME_COLUMNS else f"{var}.{c}" for c in columns
    )


_FACT_RETURN = _returning("f", FACT_COLUMNS)
_ENTITY_COLUMNS = ("id", "group_id", "name", "aliases", "kind", "summary", "created_at")
_ENTITY_RETURN = _returning("e", _ENTITY_COLUMNS)


def resolve_engine(engine: str | None) -> str:
    name = (engine or os.environ.get(ENGINE_ENV) or DEFAULT_ENGINE).strip().lower()
    if name not in ENGINES:
        raise InvalidInputError("engine", f"unknown engine {name!r}; choose one of {sorted(ENGINES)}")
    return name


def _import_engine(name: str):
    other = "kuzu" if name == "ladybug" else "ladybug"
    if other in sys.modules and name not in sys.modules:
        raise EngineError(
            f"engine {name!r} cannot be loaded: this process already loaded {other!r}, and the two "
            f"native libraries cannot share a process (run one engine per process)"
        )
    try:
        return importlib.import_module(ENGINES[name])
    except ImportError as exc:  # pragma: no cover - both are dependencies
        raise EngineError(f"engine {name!r} is not installed: pip install {name}") from exc


# -- value codec ---------------------------------------------------------------

def encode_value(value: Any) -> tuple[str, str]:
    if isinstance(value, bool):
        return ("true" if value else "false"), "bool"
    if isinstance(value, int):
        return str(value), "int"
    if isinstance(value, float):
        return repr(value), "float"
    if isinstance(value, _dt.datetime):
        return value.isoformat(), "datetime"
    return value, "str"


def decode_value(text: str, kind: str | None) -> Any:
    if kind == "int":
        return int(text)
    if kind == "float":
        return float(text)
    if kind == "bool":
        return text == "true"
    if kind == "datetime":
        return _dt.datetime.fromisoformat(text)
    return text


def fact_columns(facts: Sequence[Fact]) -> dict[str, list[Any]]:
    """Facts as column lists, in the storage encoding (see ``_create_columnar``),
    with the digests of those very values (``digest``, ``expiry_digest``)."""
    encoded = [encode_value(f.value) for f in facts]
    col = lambda name: [getattr(f, name) for f in facts]  # noqa: E731
    times = lambda name: [to_db(getattr(f, name)) for f in facts]  # noqa: E731
    columns = {
        "vid": [f.vid for f in facts], "id": col("id"), "version": col("version"),
        "group_id": col("group_id"), "subject_id": col("subject_id"), "subject": col("subject"),
        "attribute": col("attribute"), "value": [v for v, _ in encoded],
        "value_type": [k for _, k in encoded], "object_id": col("object_id"), "text": col("text"),
        "valid_from": times("valid_from"), "valid_to": times("valid_to"),
        "stated_valid_to": times("stated_valid_to"), "recorded_at": times("recorded_at"),
        "expired_at": times("expired_at"), "superseded_by": col("superseded_by"),
        "supersedes": [list(f.supersedes) for f in facts], "episode_id": col("episode_id"),
        "provenance": col("provenance"), "confidence": [float(f.confidence) for f in facts],
        "importance": [float(f.importance) for f in facts], "source": col("source"),
        "reason": col("reason"), "expire_reason": col("expire_reason"),
        "expired_by_episode": col("expired_by_episode"),
    }
    columns["digest"], columns["expiry_digest"] = _digest.fact_digests(columns)
    return columns


def row_to_fact(row: Sequence[Any]) -> Fact:
    d = dict(zip(FACT_COLUMNS, row))
    return Fact(
        id=d["id"], group_id=d["group_id"], subject=d["subject"], attribute=d["attribute"],
        value=decode_value(d["value"], d["value_type"]), text=d["text"] or "",
        valid_from=from_db(d["valid_from"]), valid_to=from_db(d["valid_to"]),  # type: ignore[arg-type]
        recorded_at=from_db(d["recorded_at"]), expired_at=from_db(d["expired_at"]),  # type: ignore[arg-type]
        superseded_by=d["superseded_by"], supersedes=tuple(d["supersedes"] or ()),
        episode_id=d["episode_id"], provenance=d["provenance"] or "observation",
        confidence=d["confidence"] if d["confidence"] is not None else 1.0,
        version=d["version"], subject_id=d["subject_id"], object_id=d["object_id"],
        importance=d["importance"] or 0.0, source=d["source"], reason=d["reason"] or "",
        expire_reason=d["expire_reason"], stated_valid_to=from_db(d["stated_valid_to"]),
        expired_by_episode=d["expired_by_episode"],
    )


def row_to_entity(row: Sequence[Any]) -> Entity:
    d = dict(zip(_ENTITY_COLUMNS, row))
    return Entity(
        id=d["id"], group_id=d["group_id"], name=d["name"], aliases=tuple(d["aliases"] or ()),
        kind=d["kind"] or "CONCEPT", created_at=from_db(d["created_at"]), summary=d["summary"] or "",
    )


_EPISODE_COLUMNS = ("id", "group_id", "content", "speaker", "source", "reference_time", "recorded_at",
                    "provenance", "name", "source_description", "importance", "content_score",
                    "structural_score", "cold_at", "cold_reason")
_EPISODE_RETURN = _returning("p", _EPISODE_COLUMNS)


#: Separates the group from a client-chosen episode id in a stored key (never in an id).
KEY_SEP = "\x1f"


def _group_where(var: str, group_id: str | None) -> tuple[str, dict[str, Any] | None]:
    """`` WHERE <var>.group_id = $g`` and its parameters, or nothing (every group)."""
    if group_id is None:
        return "", None
    return f" WHERE {var}.group_id = $g", {"g": group_id}


def episode_key(group_id: str, episode_id: str) -> str:
    """The stored key of an episode whose id another group already holds.

    Episode ids are per group: a client may store an episode under an id
    another group uses (and must not learn that it does). The stored primary
    key is the id itself while no other group holds it, else
    ``group + KEY_SEP + id``; lookups by (group, id) try both keys and keep
    the row of that group (:meth:`Store.episode_keys`). Rows stored before
    this rule all have the id as their key."""
    return f"{group_id}{KEY_SEP}{episode_id}"


def public_episode_id(key: str, group_id: str) -> str:
    """The episode id a client gave (or was given), from its stored key."""
    prefix = f"{group_id}{KEY_SEP}"
    return key[len(prefix):] if key.startswith(prefix) else key


def episode_digest(ep: Episode, key: str) -> str:
    """The digest of an episode row as :meth:`Store.create_episode` writes it
    (under its stored ``key``, :func:`episode_key`)."""
    return _digest.row_digest("Episode", {
        "id": key, "group_id": ep.group_id, "name": ep.name, "content": ep.content, "speaker": ep.speaker,
        "source": ep.source, "source_description": ep.source_description,
        "reference_time": to_db(ep.reference_time), "recorded_at": to_db(ep.recorded_at),
        "expired_at": FOREVER, "provenance": ep.provenance, "importance": ep.importance,
        "content_score": ep.content_score, "structural_score": ep.structural_score,
    })


def row_to_episode(row: Sequence[Any]) -> Episode:
    d = dict(zip(_EPISODE_COLUMNS, row))
    d["id"] = public_episode_id(d["id"], d["group_id"])
    d["reference_time"] = from_db(d["reference_time"])
    d["recorded_at"] = from_db(d["recorded_at"])
    d["provenance"] = d["provenance"] or "observation"
    d["source_description"] = d["source_description"] or ""
    d["cold_at"] = from_db(d["cold_at"])
    return Episode(**d)


def document(who: str | None, text: str | None) -> str:
    """What recall indexes and embeds for a fact or an episode: who it is
    about (or who said it) and the text. Questions name people; "I love
    hiking" alone does not say whose love it is."""
    return f"{who}: {text or ''}" if who else (text or "")


#: Only an episode of at least this many words keeps sentence vectors: a
#: short turn's own vector is focused enough. All 10 LoCoMo conversations,
#: recall@10 with 0 / 20 / 30 / 40: 0.772 / 0.776 / 0.776 / 0.768; sentences
#: embedded per turn 2.9 / 2.1 / 1.4; ingest 67 -> 77 turns/s from 0 to 30.
SPLIT_MIN_WORDS = 30
#: Where an episode's text breaks into sentences: after . ! or ?, at a line
#: break, and before a bracketed note such as a photo caption ("[photo: ...]").
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\s*\n\s*|\s+(?=\[)")


def sentence_documents(who: str | None, text: str | None) -> list[str]:
    """The sentences of an episode as recall embeds them one by one (each a
    :func:`document`), or none when the text is under SPLIT_MIN_WORDS words
    or has fewer than two sentences of two words or more: a sentence's own
    vector is not blurred by the rest of a long turn (docs/recall.md).
    A long episode (:func:`is_long`) is embedded by passages instead: its
    first PASSAGE_VECTORS passages (:func:`passage_spans`)."""
    if is_long(text):
        return passage_documents(who, text or "")[:PASSAGE_VECTORS]
    if len((text or "").split()) < SPLIT_MIN_WORDS:
        return []
    parts = [p for p in _SENTENCE_BREAK.split(text or "") if len(p.split()) >= 2]
    return [document(who, p) for p in parts] if len(parts) > 1 else []


#: An episode longer than this many characters is *long* (a pasted document,
#: a transcript): recall indexes it by passages, BM25 and vectors alike, and
#: its own vector reads its first LONG_EPISODE_CHARS characters (MiniLM reads
#: 256 tokens at most, some 1,000 characters, so every shorter episode's
#: vector is what it was). No LoCoMo turn is longer than 454 characters.
LONG_EPISODE_CHARS = 8_000
#: Words per passage of a long episode: consecutive sentences packed up to
#: this many words (a longer sentence is cut into windows of this many words),
#: about 130 MiniLM tokens, inside the model's 256-token window.
PASSAGE_WORDS = 100
#: Passages of one long episode that get a vector: the first ones (about
#: 25,000 words, some 150 KB of English). Embedding costs about as much per
#: word as parsing (1 MB of chat took 87 s to add with 1,000 passage vectors,
#: 31-50 s with 256, on a busy 2-core machine: eval/bench_long.py); BM25 indexes every passage,
#: so a sentence past these is still found by its words, not by its meaning
#: (docs/recall.md, "Long episodes").
PASSAGE_VECTORS = 256
_WORD = re.compile(r"\S+")


def is_long(text: str | None) -> bool:
    """Whether an episode is indexed by passages (see LONG_EPISODE_CHARS)."""
    return text is not None and len(text) > LONG_EPISODE_CHARS


def episode_document(who: str | None, text: str | None) -> str:
    """What an episode's own vector is computed from: its :func:`document`,
    with a long text cut to its first LONG_EPISODE_CHARS characters (the
    model reads no further; the tokenizer need not read megabytes)."""
    if is_long(text):
        text = (text or "")[:LONG_EPISODE_CHARS]
    return document(who, text)


def passage_spans(text: str, words: int | None = None) -> list[tuple[int, int]]:
    """``(start, end)`` of each passage of ``text``: its sentences (as
    :data:`_SENTENCE_BREAK` cuts them) packed in order into passages of at
    most ``words`` words (PASSAGE_WORDS); a sentence of more words is cut
    into windows of that many. ``text[start:end]`` is the passage, verbatim."""
    words = words or PASSAGE_WORDS
    spans: list[tuple[int, int]] = []
    start, end, count = -1, -1, 0

    def segments():
        pos = 0
        for m in _SENTENCE_BREAK.finditer(text):
            yield pos, m.start()
            pos = m.end()
        yield pos, len(text)

    for s, e in segments():
        if e <= s:
            continue
        n = len(text[s:e].split()) if e - s <= 20 * words else words + 1
        if n == 0:
            continue
        if count and count + n > words:
            spans.append((start, end))
            count = 0
        if n > words:  # one long sentence (or a text without breaks): windows of words
            window: list[tuple[int, int]] = []
            for m in _WORD.finditer(text, s, e):
                window.append(m.span())
                if len(window) == words:
                    spans.append((window[0][0], window[-1][1]))
                    window = []
            if window:
                start, end, count = window[0][0], window[-1][1], len(window)
            continue
        if not count:
            start = s
        end, count = e, count + n
    if count:
        spans.append((start, end))
    return spans


def passage_documents(who: str | None, text: str) -> list[str]:
    """The passages of a text (:func:`passage_spans`), each a :func:`document`."""
    return [document(who, text[s:e]) for s, e in passage_spans(text)]


def fact_document(subject: str, attribute: str, value: Any, text: str | None) -> str:
    """A fact as recall indexes it: the belief spelled out, then its sentence
    ("Sam lives in Lisbon — Sorry, I meant Lisbon, not Porto.")."""
    return f"{subject} {attribute.replace('_', ' ')} {value} — {text or ''}"


def alias_key(group_id: str, name: str) -> str:
    """The primary key of a name in a group: case-folded, whitespace collapsed."""
    return f"{group_id}\x1f{' '.join(name.casefold().split())}"


# -- the store -------------------------------------------------------------------

#: Statements that only read: they may run on a reader connection.
_READ_ONLY = re.compile(
    r"^\s*(MATCH|UNWIND|OPTIONAL|WITH|RETURN|CALL)\b(?!.*\b(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|COPY|DROP|ALTER)\b)",
    re.IGNORECASE | re.DOTALL,
)


class _Conn:
    """One engine connection and its prepared statements.

    Queries go to the native connection under the engine's Python wrapper,
    prepared once and reused (Kùzu's wrapper prepares on every call: 0.5 ms
    per query), and batch parameters skip LadybugDB's wrapper, which walks
    every value in Python to key its own cache (a third of bulk-ingest
    time). Only statements whose parameters are strings, times or lists are
    reused: the native binder narrows integer types to the value seen first.
    """

    def __init__(self, engine: str, conn) -> None:
        self.conn = conn
        self.prepared: dict[str, Any] = {}
        self.closed = False
        conn.init_connection()
        if engine == "ladybug" and not getattr(conn, "_using_pybind_backend", lambda: False)():
            self.raw = None  # another backend: stay on the public API
        else:
            self.raw = getattr(conn, "_connection", None)

    def run(self, cypher: str, params: dict[str, Any]) -> list[list[Any]]:
        try:
            raw = self.raw
            if raw is None:  # pragma: no cover - a backend without the native connection
                result = self.conn.execute(cypher, params)
                rows = result.get_all()
                result.close()
                return rows
            if not params:
                return _collect(raw.query(cypher))
            reusable = _reusable(params)
            prepared = self.prepared.get(cypher) if reusable else None
            if prepared is None:
                # Prepared without the values: binding them here too converts every value twice.
                prepared = raw.prepare(cypher, {})
                if not prepared.is_success():
                    raise EngineError(f"engine error: {prepared.get_error_message()}")
                if reusable and len(self.prepared) < 512:
                    self.prepared[cypher] = prepared
            return _collect(raw.execute(prepared, params))
        except EngineError:
            raise
        except Exception as exc:
            raise EngineError(f"engine error: {exc}") from exc

    def close(self) -> None:
        self.closed = True
        self.prepared.clear()
        try:
            self.conn.close()
        except Exception:  # pragma: no cover - closing twice is fine
            pass


#: Native engine objects that must never be destroyed (see :meth:`Store._fail`).
_ABANDONED: list[Any] = []


def _abandon(*objs: Any) -> None:
    """Keep engine objects alive for the life of the process, through
    interpreter exit too (an extra reference that nothing releases): their
    destructors would retry a write that failed and throw, which aborts."""
    import ctypes

    for obj in objs:
        if obj is not None:
            _ABANDONED.append(obj)
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(obj))


def _io_failure(exc: BaseException) -> bool:
    """Whether an engine error is the file system refusing a write (a full
    disk, a quota, a read-only or vanished file system)."""
    text = str(exc)
    return "IO exception" in text or "No space left" in text


_COMMIT = re.compile(r"^\s*COMMIT\b", re.IGNORECASE)


def _fatal(cypher: str, exc: BaseException) -> bool:
    """Whether an engine error leaves the engine unfit for use: any I/O
    failure of a write, and a COMMIT that failed without committing (Kùzu
    0.11, its post-commit checkpoint failing on a full disk, says "Invalid
    transaction type to rollback" and aborts later in a destructor)."""
    return _io_failure(exc) or (_COMMIT.match(cypher) is not None and "committed successfully" not in str(exc))


class Store:
    """One open database. Thread-safe: one write connection behind a lock (one
    writer at a time), and a read connection per reading thread (see :meth:`q`).

    ``read_only=True`` opens an existing database without taking the write
    lock (docs/concurrency.md): every write raises :class:`ReadOnlyError`,
    queries run one at a time, and :meth:`refresh` reopens the database when
    another process has committed since (its file or log changed)."""

    def __init__(
        self,
        path: str | os.PathLike | None,
        engine: str | None = None,
        *,
        buffer_pool_mb: int | None = None,
        threads: int | None = None,
        read_only: bool = False,
    ) -> None:
        self.engine = resolve_engine(engine)
        self.path = None if path is None else os.fspath(path)
        self.read_only = bool(read_only)
        self._failure: str | None = None  # set when a write failed on I/O: see _fail
        lb = _import_engine(self.engine)
        self._lib = lb
        self._pool = int(os.environ.get("MIDAS_GRAPH_BUFFER_POOL_MB", buffer_pool_mb or 1024))
        self._threads = threads or min(4, os.cpu_count() or 2)
        if self.path is not None and os.path.isdir(self.path):
            raise EngineError(f"{self.path!r} is a directory; give a database file path")
        if self.read_only and (self.path is None or not os.path.isfile(self.path)):
            raise InvalidInputError(
                "path", f"no database at {self.path or ':memory:'!r}: read_only=True opens an existing database file"
            )
        self._signature = self._files_signature()
        self._db, self._conn = self._open()
        self._lock = threading.RLock()
        self._readers_lock = threading.Lock()  # the list of read connections (see q)
        self._writer: _Conn | None = _Conn(self.engine, self._conn)
        self._readers: list[_Conn] = []
        self._local = threading.local()
        self.generation = 0  # committed write transactions, and reopenings (in this process)
        #: Identifies this Store object in caches keyed by store (``id()`` is reused once it is collected).
        self.token = object()
        # Stored group generations (schema 7) this process has read or written: valid while no other
        # process can have committed (see group_generation).
        self._gens: dict[str, int] = {}
        self._touched: set[str] = set()  # groups the current write transaction wrote
        self._tx_wrote = False  # whether it ran a writing statement
        self._horizons: tuple[int, dict[str, _dt.datetime]] | None = None
        self._horizon_of: dict[str, tuple[tuple[int, int], _dt.datetime | None]] = {}
        self._in_tx = False
        self._tx_thread: int | None = None
        self._slots_seen: dict[str, bool] = {}  # slot key -> exists, within one transaction
        self._episode_keys: dict[tuple[str, str], str] = {}  # (group, id) -> key, episodes created in it
        try:
            self.schema_version = self._migrate()
        except BaseException as exc:
            try:
                self.close()
            except EngineError:  # the error that stopped the open says more
                pass
            if isinstance(exc, EngineError) and not isinstance(exc, DatabaseLockedError):
                # e.g. a damaged page of the file: the engine's text says which
                raise EngineError(f"cannot open database {self.path or ':memory:'!r} with engine "
                                  f"{self.engine!r}: {exc}") from exc
            raise

    def _open(self):
        """Open the engine's database and a connection. A read-only open
        retries while another process checkpoints or changes the file under
        it, for up to ``MIDAS_GRAPH_OPEN_TIMEOUT`` seconds (30): LadybugDB
        refuses it during a checkpoint, and an open racing a checkpoint can
        fail on the half-written log or index (beside a writer checkpointing
        every 5 transactions, 157 of 223 opens failed, all but one of them
        "checkpoint recovery is pending")."""
        lb, where = self._lib, self.path if self.path is not None else ":memory:"
        deadline = time.monotonic() + _open_timeout()
        pause = 0.005
        while True:
            before = self._files_signature()
            try:
                db = lb.Database(
                    where, buffer_pool_size=self._pool * 1024 * 1024, max_num_threads=self._threads,
                    read_only=self.read_only, **_env_settings(self.engine),
                )
                return db, lb.Connection(db)
            except Exception as exc:  # the engine raises RuntimeError with its own text
                text = str(exc)
                if "Could not set lock" in text:
                    raise DatabaseLockedError(_locked_message(where, self.engine, self.read_only, text)) from None
                transient = "checkpoint" in text.lower() or self._files_signature() != before
                if self.read_only and transient and time.monotonic() < deadline:
                    time.sleep(pause)  # another process is folding its log into the file
                    pause = min(pause * 2, 0.2)
                    continue
                raise EngineError(
                    f"cannot open database {where!r} with engine {self.engine!r}: {' '.join(text.split())}"
                ) from exc

    def _files_signature(self) -> tuple:
        """What changes when any process commits: the database file and its
        write-ahead log (size, modification time, inode)."""
        if self.path is None:
            return ()
        out = []
        for f in (self.path, self.path + ".wal"):
            try:
                st = os.stat(f)
                out.append((st.st_size, st.st_mtime_ns, st.st_ino))
            except OSError:
                out.append(None)
        return tuple(out)

    def refresh(self) -> None:
        """Read-only: reopen the database if another process has committed
        since it was opened (an open database keeps the state it opened on).
        :class:`~midas_graph.Memory` calls it at the start of every read, so
        each call reads one state, the latest committed. A no-op on a
        writable store, which sees its own commits."""
        if self.read_only:
            with self._lock:
                self._refresh()

    def _refresh(self) -> None:
        """:meth:`refresh`, with the lock held."""
        sig = self._files_signature()
        if sig == self._signature or self._db is None:
            return
        old_db, old = self._db, self._writer
        if old is not None:
            old.close()
        try:
            old_db.close()
        except Exception:  # pragma: no cover - closing twice is fine
            pass
        self._db, self._writer = None, None
        self._db, self._conn = self._open()
        self._writer = _Conn(self.engine, self._conn)
        self._signature = sig
        self.generation += 1
        self._gens = {}  # another process committed: the stored generations are read again

    # -- plumbing ----------------------------------------------------------------
    def q(self, cypher: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        """Run one parameterised query and return all its rows.

        One writer at a time, concurrent readers: a read-only statement from
        a thread that is not inside this store's write transaction runs on
        that thread's own connection, without the store's lock, and sees
        the last committed state (the engine's snapshot isolation); writes,
        and reads inside a write transaction, share the one write connection.
        """
        params = params or {}
        if self._failure is not None:
            raise EngineError(self._refusal())
        if self.read_only:
            if not _READ_ONLY.match(cypher):
                raise self._read_only_error()
            with self._lock:  # one query at a time: a refresh replaces the connection
                deadline = time.monotonic() + _open_timeout()
                while True:
                    if self._writer is None:
                        raise EngineError("engine error: the database is closed")
                    seen = self._signature
                    try:
                        return self._writer.run(cypher, params)
                    except EngineError:
                        # Another process changed the file under the query (a checkpoint):
                        # reopen on what it committed and run the query again.
                        if self._files_signature() == seen or time.monotonic() >= deadline:
                            raise
                        self._refresh()
        if (self._in_tx and self._tx_thread == threading.get_ident()) or not _READ_ONLY.match(cypher):
            with self._lock:
                if self._failure is not None:
                    raise EngineError(self._refusal())
                if self._writer is None:
                    raise EngineError("engine error: the database is closed")
                if self._in_tx and not self._tx_wrote and not _READ_ONLY.match(cypher):
                    self._tx_wrote = True
                try:
                    return self._writer.run(cypher, params)
                except EngineError as exc:
                    if not _fatal(cypher, exc):
                        raise
                    self._fail(exc)
                    raise EngineError(self._failure) from exc
        reader = getattr(self._local, "reader", None)
        if reader is None or reader.closed:
            # Not under the write lock: a thread's first read (an MCP worker
            # thread's) must not wait for a write transaction in progress.
            with self._readers_lock:
                if self._db is None:
                    raise EngineError("engine error: the database is closed")
                reader = _Conn(self.engine, self._lib.Connection(self._db))
                self._readers.append(reader)
            self._local.reader = reader
        return reader.run(cypher, params)

    @contextmanager
    def writes_paused(self) -> Iterator[None]:
        """Hold off this process's writers to the database (they wait), while
        reads go on: a reader that makes several queries (an export) sees one
        committed state throughout."""
        with self._lock:
            yield

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction; nested use joins the outer one."""
        if self.read_only:
            raise self._read_only_error()
        with self._lock:
            if self._in_tx:
                yield
                return
            self.q("BEGIN TRANSACTION")
            self._in_tx, self._tx_thread = True, threading.get_ident()
            self._slots_seen, self._episode_keys = {}, {}
            self._touched, self._tx_wrote = set(), False
            try:
                yield
                bumped = self._bump_generations()
            except BaseException:
                self._in_tx = False
                self._slots_seen, self._episode_keys = {}, {}
                self._touched, self._tx_wrote = set(), False
                self._horizons = None  # it may have read this transaction's own
                self._horizon_of = {}
                if self._failure is None:  # after an I/O failure the engine is left alone (see _fail)
                    try:
                        self.q("ROLLBACK")
                        if self.engine == "kuzu":
                            # Kùzu 0.11.3 (archived) leaves rolled-back row versions behind:
                            # a later write to such a row fails with "Write-write conflict"
                            # or segfaults, in about a third of runs of the same statements.
                            # Folding the log into the file right after clears them (0 of
                            # 40 runs failed; tests/test_freshness.py drives it).
                            self.q("CHECKPOINT")
                    except EngineError:
                        pass
                raise
            self._in_tx = False
            self._slots_seen, self._episode_keys = {}, {}
            try:
                self.q("COMMIT")
            except EngineError as exc:
                # LadybugDB commits, then folds the log into the file; when only
                # the second step fails the write is durable (replayed on open).
                if "committed successfully" not in str(exc):
                    raise
                warnings.warn(f"midas_graph: the write is durable but {exc}", RuntimeWarning, stacklevel=3)
            self.generation += 1
            self._gens.update(bumped)

    # -- group generations (schema 7; docs/scaling.md, "Freshness") ------------------------
    def touch(self, *groups: str | None) -> None:
        """Say that the current write transaction writes these groups: their
        stored generations move when it commits. Every writing method of this
        class calls it with the groups of the rows it writes; a transaction
        that writes and names no group moves :data:`ANY_GROUP`."""
        if self._in_tx:
            self._touched.update(g for g in groups if g is not None)

    def _bump_generations(self) -> dict[str, int]:
        """Inside the transaction, just before COMMIT: add one to the stored
        generation of every group it wrote (of ``"*"`` when it wrote and
        named none). Returns the new values, kept once the commit succeeds."""
        if not self._tx_wrote or getattr(self, "schema_version", 0) < 7:
            return {}  # nothing written, or the upgrade itself (no counters yet)
        groups = sorted(self._touched or {ANY_GROUP})
        if len(groups) == 1:  # the common case: one statement
            n = self.q("MERGE (c:GroupGeneration {group_id: $g}) ON CREATE SET c.generation = 1 "
                       "ON MATCH SET c.generation = c.generation + 1 RETURN c.generation", {"g": groups[0]})
            return {groups[0]: int(n[0][0])}
        have = dict(self.q("UNWIND $k AS x MATCH (c:GroupGeneration {group_id: x}) RETURN c.group_id, c.generation",
                           {"k": groups}))
        new = {g: int(have.get(g) or 0) + 1 for g in groups}
        old = [{"g": g, "n": new[g]} for g in groups if g in have]
        if old:
            self.q("UNWIND $rows AS r MATCH (c:GroupGeneration {group_id: r.g}) SET c.generation = r.n", {"rows": old})
        fresh = [g for g in groups if g not in have]
        if fresh:
            self._create_columnar("GroupGeneration", {"group_id": fresh, "generation": [1] * len(fresh)})
        return new

    def group_generation(self, group_id: str) -> tuple[int, int]:
        """The stored generations of ``group_id`` and of :data:`ANY_GROUP`:
        what a cache of the group keys on. Read from the database once, then
        kept while no other process can have committed: a writable store
        holds the file's write lock (no other process writes it) and counts
        its own commits; a read-only one reads them again whenever it
        reopens on another process's commits (:meth:`refresh`)."""
        gens = self._gens
        out = []
        for g in (group_id, ANY_GROUP):
            n = gens.get(g)
            if n is None:  # one primary-key lookup each (an UNWIND of the two costs 5x on Kùzu)
                rows = self.q("MATCH (c:GroupGeneration {group_id: $g}) RETURN c.generation", {"g": g})
                # setdefault: a commit of this process that landed meanwhile has put its newer value
                n = gens.setdefault(g, int(rows[0][0]) if rows else 0)
            out.append(n)
        return out[0], out[1]

    def _fail(self, exc: BaseException, doing: str | None = None) -> None:
        """A write failed on I/O (measured with a full disk). The engine keeps
        the failed write in its log buffer and retries it from destructors,
        which throw and abort the process (exit 134 on both engines, at
        close or at interpreter exit), and Kùzu 0.11 crashes in a checkpoint
        run after such a failure (a double free). So from here on the store
        refuses every call, and its engine objects are abandoned, never
        closed: every transaction committed before is in the write-ahead
        log, which the next open replays (a torn tail is dropped)."""
        if self._failure is None:
            if doing is not None:
                what = f"{doing} failed, likely on a full disk"
            elif "committed successfully" in str(exc):
                what = "the engine failed after committing the last write, likely on a full disk"
            else:
                what = "a write failed, likely on a full disk; it is not acknowledged"
            self._failure = (
                f"database {self.path or ':memory:'!r}: {what} ({exc}). Every acknowledged write is safe "
                f"in the write-ahead log. Close this memory and open it again once the disk has space"
            )
            _abandon(getattr(self, "_db", None), getattr(self, "_conn", None),
                     *(r.conn for r in getattr(self, "_readers", ())))

    def _refusal(self) -> str:
        return (f"database {self.path or ':memory:'!r} is out of service since a write failed (likely a full "
                f"disk; the first error said why): close this memory and open it again once the disk has space")

    def _read_only_error(self) -> ReadOnlyError:
        return ReadOnlyError(f"database {self.path!r} is open read-only: it cannot be written (open it without "
                             f"read_only=True, in the one process that writes to it)")

    def close(self) -> None:
        """Close the database: fold the log into the file, release it.
        Raises :class:`EngineError` (once) when the file system refused a
        write, then or before; the database then opens again, with every
        acknowledged write, once there is space."""
        with self._lock, self._readers_lock:
            if getattr(self, "_db", None) is None:
                return
            for reader in self._readers:
                if self._failure is None:
                    reader.close()
            self._readers.clear()
            if self._failure is None and self.path is not None and not self.read_only and self._writer:
                # Checkpoint here rather than in the engine's destructor, which
                # cannot report a failure (a full disk aborted the process there).
                try:
                    self._writer.run("CHECKPOINT", {})
                except EngineError as exc:
                    if _io_failure(exc):
                        self._fail(exc, "folding the write-ahead log into the database file")
            failure = self._failure
            if self._writer is not None:
                self._writer.prepared.clear()
                self._writer = None
            if failure is None:
                for obj in (self._conn, self._db):
                    try:
                        obj.close()
                    except Exception:  # pragma: no cover - closing twice is fine
                        pass
            self._conn = None  # type: ignore[assignment]
            self._db = None
        if failure is not None:
            raise EngineError(f"cannot close cleanly: {failure}")

    # -- schema ----------------------------------------------------------------
    def _tables(self) -> set[str]:
        return {r[0] for r in self.q("CALL show_tables() RETURN name")}

    def _migrate(self) -> int:
        files = sorted(
            (int(m.group(1)), f)
            for f in resources.files("midas_graph.schema").iterdir()
            if (m := re.match(r"(\d+)_.*\.cypher$", f.name))
        )
        current = 0
        if "Meta" in self._tables():
            rows = self.q("MATCH (m:Meta {key: 'schema_version'}) RETURN m.value")
            current = int(rows[0][0]) if rows else 0
        if current > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"database {self.path!r} has schema version {current}, but this midas_graph "
                f"understands up to version {SCHEMA_VERSION}: upgrade midas_graph to open it"
            )
        if self.read_only and current < SCHEMA_VERSION:
            raise SchemaVersionError(
                f"database {self.path!r} has schema version {current} and this midas_graph reads version "
                f"{SCHEMA_VERSION}: open it once for writing (without read_only=True) to upgrade it"
            )
        for version, f in files:
            if version <= current:
                continue
            with self.transaction():
                for stmt in _statements(f.read_text("utf-8")):
                    self.q(stmt)
                if version == 4:  # episodes are sealed at version 6, with the columns it adds
                    self._backfill_digests([t for t in _digest.TABLES if t != "Episode"])
                if version == 6:
                    self._backfill_digests(["Episode"])
                self.q(
                    "MERGE (m:Meta {key: 'schema_version'}) SET m.value = $v",
                    {"v": str(version)},
                )
            current = version
        return current

    def _backfill_digests(self, tables: Sequence[str]) -> None:
        """Schema version 4: give every row written before it its digests,
        computed from the row as it reads now; version 6 seals every
        episode again (its digest covers its importance since)."""
        present = self._tables()
        for table in tables:
            if table not in present:  # made by a later version, with digests from the start
                continue
            key = _digest.TABLES[table][2]
            for columns, rows in self.scan_for_digest(table):
                cols = {name: [r[i] for r in rows] for i, name in enumerate(columns)}
                tag, fields, _ = _digest.TABLES[table]
                if table == "Fact":
                    main, expiry = _digest.fact_digests(cols)
                    updates = [{"k": k, "d": d, "e": e} for k, d, e in zip(cols[key], main, expiry)]
                    self.q("UNWIND $rows AS r MATCH (n:Fact {vid: r.k}) SET n.digest = r.d, n.expiry_digest = r.e",
                           {"rows": updates})
                else:
                    new = _digest.digests(tag, fields, cols)
                    if table == "Episode":
                        # sealed before version 6 (tag episode/1, without the importance columns):
                        # a row that no longer matches its old digest keeps it, and is found damaged
                        old = _digest.digests("episode/1", _digest.EPISODE_FIELDS[:-3], cols)
                        new = [n if have is None or have == o else have for n, o, have in zip(new, old, cols["digest"])]
                    updates = [{"k": k, "d": d} for k, d in zip(cols[key], new)]
                    self.q(f"UNWIND $rows AS r MATCH (n:{table} {{{key}: r.k}}) SET n.digest = r.d",
                           {"rows": updates})

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the database file."""
        self.q("CHECKPOINT")

    def storage_pages(self) -> dict[str, dict[str, int]]:
        """Pages (4 KiB) of the checkpointed column chunks of each table, by
        column (the engine's ``storage_info``; eval/bench_store.py). Table
        names come from the engine's own ``show_tables``, never from input."""
        out: dict[str, dict[str, int]] = {}
        for row in self.q("CALL show_tables() RETURN *"):
            name = row[1]
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(name)):
                continue
            cols: dict[str, int] = {}
            for r in self.q(f"CALL storage_info('{name}') RETURN column_name, num_pages"):
                cols[r[0]] = cols.get(r[0], 0) + int(r[1] or 0)
            out[name] = cols
        return out

    def meta(self, key: str) -> str | None:
        rows = self.q("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": key})
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self.q("MERGE (m:Meta {key: $k}) SET m.value = $v", {"k": key, "v": value})

    # -- entities ----------------------------------------------------------------
    def lookup_names(self, keys: Iterable[str]) -> dict[str, str]:
        """alias key -> entity id, for the keys that exist."""
        keys = list(dict.fromkeys(keys))
        if not keys:
            return {}
        rows = self.q(
            "UNWIND $keys AS k MATCH (a:Alias {key: k}) RETURN a.key, a.entity_id", {"keys": keys}
        )
        return {k: eid for k, eid in rows}

    def create_entities(self, entities: Sequence[Entity], vectors: dict[str, bytes] | None = None) -> None:
        """Create entities (with name embeddings by id, if given) and their
        name keys. Names that already name another entity keep pointing at it
        (first come, first served)."""
        if not entities:
            return
        vectors = vectors or {}
        columns = {
            "id": [e.id for e in entities], "group_id": [e.group_id for e in entities],
            "name": [e.name for e in entities], "aliases": [list(e.aliases) for e in entities],
            "kind": [e.kind for e in entities], "summary": [e.summary for e in entities],
            "created_at": [to_db(e.created_at) for e in entities],
        }
        columns["digest"] = _digest.digests("entity/1", _digest.ENTITY_FIELDS, columns)
        self._create_columnar("Entity", {
            "name_embedding": [_vec_text(vectors.get(e.id)) for e in entities], **columns})
        keys: dict[str, tuple[Entity, str]] = {}
        for e in entities:
            for name in (e.name, *e.aliases):
                keys.setdefault(alias_key(e.group_id, name), (e, name))
        self._create_aliases(keys)

    def _create_aliases(self, keys: dict[str, tuple[Entity, str]]) -> None:
        # MERGE over UNWIND scans the table: look the keys up, create the missing.
        taken = self.lookup_names(keys)
        fresh = [(k, e, name) for k, (e, name) in keys.items() if k not in taken]
        if fresh:
            columns = {
                "key": [k for k, _, _ in fresh], "group_id": [e.group_id for _, e, _ in fresh],
                "alias": [name for _, _, name in fresh], "entity_id": [e.id for _, e, _ in fresh],
            }
            columns["digest"] = _digest.digests("alias/1", _digest.ALIAS_FIELDS, columns)
            self._create_columnar("Alias", columns)

    def add_alias(self, entity: Entity, alias: str) -> None:
        """Add a name to an entity. Its row is checked against its digest
        first: a damaged row is refused, never sealed with a new digest."""
        self.touch(entity.group_id)
        self._create_aliases({alias_key(entity.group_id, alias): (entity, alias)})
        columns = [name for name, _ in _digest.ENTITY_FIELDS] + ["digest"]
        rows = self.q(f"MATCH (n:Entity {{id: $id}}) RETURN {_returning('n', columns)}", {"id": entity.id})
        _digest.raise_if_damaged(_digest.verify("Entity", rows, columns), f"database {self.path or ':memory:'!r}")
        row = dict(zip(columns, rows[0])) if rows else {}
        row["aliases"] = [*(row.get("aliases") or ()), alias]
        self.q(
            "MATCH (e:Entity {id: $id}) SET e.aliases = $a, e.digest = $d",
            {"id": entity.id, "a": row["aliases"], "d": _digest.row_digest("Entity", row)},
        )

    # -- people links (schema version 5, docs/people.md) --------------------------
    def create_links(self, links: Sequence[Link]) -> None:
        """Write people links (and "unlink" rows that end one), once each."""
        if not links:
            return
        columns = {
            "key": [x.key for x in links], "group_id": [x.group_id for x in links],
            "kind": [x.kind for x in links], "entity_id": [x.entity_id for x in links],
            "target": [x.target for x in links], "name": [x.name for x in links],
            "episode_id": [x.episode_id for x in links], "reason": [x.reason for x in links],
            "recorded_at": [to_db(x.recorded_at) for x in links],
        }
        columns["digest"] = _digest.digests("link/1", _digest.LINK_FIELDS, columns)
        self._create_columnar("Link", columns)

    def links(self, group_id: str | None = None) -> list[Link]:
        """Every people link of a group (of the database), held or ended,
        oldest first; an "unlink" row ends the link whose key is its
        ``target`` (``Link.ended_at``)."""
        cols = [name for name, _ in _digest.LINK_FIELDS]
        where = " WHERE n.group_id = $g" if group_id is not None else ""
        rows = self.q(f"MATCH (n:Link){where} RETURN {_returning('n', cols)}",
                      {"g": group_id} if group_id is not None else None)
        made, ends = [], {}
        for r in rows:
            d = dict(zip(cols, r))
            if d["kind"] == "unlink":
                ends[d["target"]] = (from_db(d["recorded_at"]), d["reason"])
            else:
                made.append(d)
        out = []
        for d in made:
            end = ends.get(d["key"], (None, None))
            out.append(Link(d["key"], d["group_id"], d["kind"], d["entity_id"], d["target"], d["name"] or "",
                            d["episode_id"], d["reason"] or "", from_db(d["recorded_at"]), *end))
        out.sort(key=lambda x: (x.recorded_at, x.key))
        return out

    def link_rows(self, group_id: str | None = None) -> list[dict[str, Any]]:
        """Every Link row (of one group) as stored (export), verified against its digest."""
        cols = [name for name, _ in _digest.LINK_FIELDS]
        where, params = _group_where("n", group_id)
        rows = self.q(f"MATCH (n:Link){where} RETURN {_returning('n', cols + ['digest'])}", params)
        _digest.raise_if_damaged(_digest.verify("Link", rows, cols + ["digest"]), f"database {self.path or ':memory:'!r}")
        out = []
        for r in rows:
            d = dict(zip(cols, r))
            d["recorded_at"] = from_db(d["recorded_at"])
            out.append(d)
        return out

    def restore_links(self, rows: Sequence[dict[str, Any]]) -> int:
        """Write exported Link rows whose keys are not stored yet."""
        present = self.existing("Link", [r["key"] for r in rows])
        fresh = [r for r in rows if r["key"] not in present]
        self.create_links([Link(r["key"], r["group_id"], r["kind"], r["entity_id"], r["target"], r["name"] or "",
                                r["episode_id"], r["reason"] or "", r["recorded_at"]) for r in fresh])
        return len(fresh)

    def remove_alias(self, entity_id: str, alias: str, group_id: str) -> None:
        """Take a name from an entity: its name key (if it points to that
        entity) and its entry in ``aliases`` (the row checked first, as in
        :meth:`add_alias`)."""
        self.touch(group_id)
        key = alias_key(group_id, alias)
        self.q("MATCH (a:Alias {key: $k}) WHERE a.entity_id = $e DELETE a", {"k": key, "e": entity_id})
        columns = [name for name, _ in _digest.ENTITY_FIELDS] + ["digest"]
        rows = self.q(f"MATCH (n:Entity {{id: $id}}) RETURN {_returning('n', columns)}", {"id": entity_id})
        if not rows:
            return
        _digest.raise_if_damaged(_digest.verify("Entity", rows, columns), f"database {self.path or ':memory:'!r}")
        row = dict(zip(columns, rows[0]))
        fold = " ".join(alias.casefold().split())
        row["aliases"] = [a for a in (row.get("aliases") or ()) if " ".join(a.casefold().split()) != fold]
        self.q("MATCH (e:Entity {id: $id}) SET e.aliases = $a, e.digest = $d",
               {"id": entity_id, "a": row["aliases"], "d": _digest.row_digest("Entity", row)})

    def entity(self, entity_id: str) -> Entity | None:
        rows = self.q(f"MATCH (e:Entity {{id: $id}}) RETURN {_ENTITY_RETURN}", {"id": entity_id})
        return row_to_entity(rows[0]) if rows else None

    def entity_names(self, ids: Sequence[str]) -> dict[str, str]:
        if not ids:
            return {}
        rows = self.q("UNWIND $ids AS x MATCH (e:Entity {id: x}) RETURN e.id, e.name", {"ids": list(ids)})
        return {i: n for i, n in rows}

    def entities_by_id(self, ids: Sequence[str]) -> list[Entity]:
        if not ids:
            return []
        rows = self.q(f"UNWIND $ids AS x MATCH (e:Entity {{id: x}}) RETURN {_ENTITY_RETURN}", {"ids": list(ids)})
        by_id = {r[0]: row_to_entity(r) for r in rows}
        return [by_id[i] for i in ids if i in by_id]

    def entities(self, group_id: str) -> list[Entity]:
        rows = self.q(
            f"MATCH (e:Entity) WHERE e.group_id = $g RETURN {_ENTITY_RETURN} ORDER BY e.created_at, e.id",
            {"g": group_id},
        )
        return [row_to_entity(r) for r in rows]

    # -- episodes and vectors ------------------------------------------------------
    def episode_keys(self, group_id: str | None, ids: Iterable[str]) -> dict[str, str]:
        """Stored key of each episode id that exists in ``group_id`` (see
        :func:`episode_key`); ``group_id=None``: the episode stored under
        the id itself, whatever its group."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        if group_id is None:
            rows = self.q("UNWIND $k AS x MATCH (p:Episode {id: x}) RETURN p.id", {"k": ids})
            return {r[0]: r[0] for r in rows}
        mine = self._episode_keys if self._in_tx and self._tx_thread == threading.get_ident() else {}
        known = {i: mine[(group_id, i)] for i in ids if (group_id, i) in mine}
        probe = [k for i in ids if i not in known for k in (i, episode_key(group_id, i))]
        if probe:
            # Filtered here, not in a WHERE: a key lookup stays a key lookup.
            rows = self.q("UNWIND $k AS x MATCH (p:Episode {id: x}) RETURN p.id, p.group_id", {"k": probe})
            known.update((public_episode_id(k, group_id), k) for k, g in rows if g == group_id)
        return known

    def create_episode(self, ep: Episode, embedding: bytes | None, sentences: bytes | None = None) -> str:
        """``sentences``: the float32 vectors of its sentences, concatenated
        (empty when it has fewer than two; None: not computed). The caller
        has checked that the group holds no episode with this id; if another
        group holds it, the episode is stored under :func:`episode_key`.
        Returns the stored key."""
        self.touch(ep.group_id)
        if KEY_SEP in ep.id:
            raise InvalidInputError("episode_id", "must not contain the character \\x1f")
        taken = self.q("MATCH (p:Episode {id: $id}) RETURN p.group_id", {"id": ep.id})
        key = episode_key(ep.group_id, ep.id) if taken else ep.id
        if self._in_tx:
            self._episode_keys[(ep.group_id, ep.id)] = key
        self.q(
            "CREATE (:Episode {id: $id, group_id: $g, name: $name, content: $content, speaker: $speaker, "
            "source: $source, source_description: $sd, reference_time: $rt, recorded_at: $ra, "
            "expired_at: $inf, provenance: $prov, embedding: $emb, sentence_embeddings: $sent, digest: $dg, "
            "importance: $imp, content_score: $cs, structural_score: $ss})",
            {"id": key, "g": ep.group_id, "name": ep.name, "content": ep.content, "speaker": ep.speaker,
             "source": ep.source, "sd": ep.source_description, "rt": to_db(ep.reference_time),
             "ra": to_db(ep.recorded_at), "inf": FOREVER, "prov": ep.provenance, "emb": _vec_text(embedding),
             "sent": _vec_text(sentences), "dg": episode_digest(ep, key), "imp": ep.importance,
             "cs": ep.content_score, "ss": ep.structural_score},
        )
        return key

    def set_importance(self, ep: Episode, key: str) -> None:
        """Write an episode's importance columns (``ep`` as stored under
        ``key`` with them), with its digest computed from ``ep``: in the
        transaction that created it, once its structural score is known."""
        self.touch(ep.group_id)
        self.q("MATCH (p:Episode {id: $id}) SET p.importance = $imp, p.content_score = $cs, "
               "p.structural_score = $ss, p.digest = $dg",
               {"id": key, "imp": ep.importance, "cs": ep.content_score, "ss": ep.structural_score,
                "dg": episode_digest(ep, key)})

    def set_cold(self, group_id: str, ids: Sequence[str], at: _dt.datetime | None, reason: str | None) -> int:
        """Make episodes of a group cold (``at`` set: out of the recall
        indexes, their vectors dropped) or hot again (``at=None``: their
        vectors are put back by the caller, :meth:`set_vectors`). The tier
        columns are sealed by their digest (null while hot). Returns how
        many rows were changed."""
        self.touch(group_id)
        keys = self.episode_keys(group_id, ids)
        if not keys:
            return 0
        if at is None:
            self.q("UNWIND $k AS x MATCH (p:Episode {id: x}) "
                   "SET p.cold_at = NULL, p.cold_reason = NULL, p.cold_digest = NULL", {"k": list(keys.values())})
        else:
            when = to_db(at)
            rows = [{"k": k, "d": _digest.cold_digest(k, when, reason)} for k in keys.values()]
            self.q("UNWIND $rows AS r MATCH (p:Episode {id: r.k}) SET p.cold_at = $at, p.cold_reason = $why, "
                   "p.cold_digest = r.d, p.embedding = NULL, p.sentence_embeddings = NULL",
                   {"rows": rows, "at": when, "why": reason})
        return len(keys)

    def purge_episodes(self, episodes: Sequence[Episode], at: _dt.datetime, reasons: dict[str, str]) -> int:
        """Delete the content of cold episodes (``forget(purge=True)``): each
        row keeps its id, times, speaker, provenance and scores, its content
        becomes empty and its row digest is sealed again over that; its tier
        state (cold, ``reasons[id]``: the purge and the digest of what was
        removed) is sealed by its tier digest. Returns how many rows changed."""
        self.touch(*{ep.group_id for ep in episodes})
        rows = []
        for ep in episodes:
            key = self.episode_keys(ep.group_id, [ep.id]).get(ep.id)
            if key is None:
                continue
            stub = Episode(**{**{f: getattr(ep, f) for f in Episode.__dataclass_fields__}, "content": ""})
            when = to_db(ep.cold_at or at)
            why = reasons[ep.id]
            rows.append({"k": key, "dg": episode_digest(stub, key), "at": when, "why": why,
                         "cd": _digest.cold_digest(key, when, why)})
        if rows:
            self.q("UNWIND $rows AS r MATCH (p:Episode {id: r.k}) SET p.content = '', p.digest = r.dg, "
                   "p.cold_at = r.at, p.cold_reason = r.why, p.cold_digest = r.cd, p.embedding = NULL, "
                   "p.sentence_embeddings = NULL", {"rows": rows})
        return len(rows)

    def purged_with_content(self, group_id: str | None = None) -> list[tuple[str, str]]:
        """(id, group) of purged stubs that still have content (``check()``)."""
        where, params = (" AND p.group_id = $g", {"g": group_id}) if group_id is not None else ("", {})
        rows = self.q("MATCH (p:Episode) WHERE p.cold_reason STARTS WITH $pre AND size(p.content) > 0" + where
                      + " RETURN p.id, p.group_id", {**params, "pre": "purged: sha256 "})
        return [(public_episode_id(k, g), g) for k, g in rows]

    def cold_episode_ids(self, group_id: str) -> set[str]:
        """The ids of a group's cold episodes (out of the recall indexes)."""
        rows = self.q("MATCH (p:Episode) WHERE p.group_id = $g AND p.cold_at IS NOT NULL RETURN p.id",
                      {"g": group_id})
        return {public_episode_id(k, group_id) for k, in rows}

    def cold_rows(self, group_id: str | None = None) -> list[tuple[str, str, str, bool]]:
        """(id, group, provenance, whether it still has vectors) of every cold
        episode (of one group): for ``check()``'s ``tier`` rule."""
        where, params = (" AND p.group_id = $g", {"g": group_id}) if group_id is not None else ("", {})
        rows = self.q("MATCH (p:Episode) WHERE p.cold_at IS NOT NULL" + where + " RETURN p.id, p.group_id, "
                      "p.provenance, p.embedding IS NOT NULL OR p.sentence_embeddings IS NOT NULL", params)
        return [(public_episode_id(k, g), g, prov, bool(v)) for k, g, prov, v in rows]

    def episode_sizes(self, group_id: str, content: bool = False) -> list[tuple[Episode, int, int]]:
        """Every episode of a group, in the order said, with what it stores
        hot (content and vectors, as stored: characters of text) and cold
        (content only). ``content=False``: the episodes' ``content`` is left
        out (empty), for the planning of forgetting and the tier counts."""
        cols = tuple(c for c in _EPISODE_COLUMNS if content or c != "content")
        rows = self.q(
            f"MATCH (p:Episode) WHERE p.group_id = $g RETURN {_returning('p', cols)}, "
            "size(p.content), coalesce(size(p.embedding), 0) + coalesce(size(p.sentence_embeddings), 0) "
            "ORDER BY p.reference_time, p.recorded_at, p.id", {"g": group_id})
        out = []
        for r in rows:
            d = dict(zip(cols, r))
            d.setdefault("content", "")
            n, vec = r[-2], r[-1]
            ep = row_to_episode([d[c] for c in _EPISODE_COLUMNS])
            out.append((ep, int(n or 0) + int(vec or 0), int(n or 0)))
        return out

    def protected_episodes(self, group_id: str) -> dict[str, str]:
        """Episode id -> why forgetting must keep it: it is the source of a
        fact version (held or not), or its transaction closed a belief."""
        out: dict[str, str] = {}
        for (i,) in self.q("MATCH (f:Fact) WHERE f.group_id = $g AND f.expired_by_episode IS NOT NULL "
                           "RETURN DISTINCT f.expired_by_episode", {"g": group_id}):
            out[i] = "closed a belief"
        for (i,) in self.q("MATCH (f:Fact) WHERE f.group_id = $g AND f.episode_id IS NOT NULL "
                           "RETURN DISTINCT f.episode_id", {"g": group_id}):
            out[i] = "source of a fact"
        return out

    def entity_graph(self, group_id: str) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]],
                                                   list[tuple[str, str]], set[str]]:
        """What the entity graph of a group is built from (``_centrality``):
        (entity id, name, kind) of every entity; (subject id, object id or
        ``""``) of every held fact version (transaction time open), one row
        per version and one more for an entity value; (episode id, entity
        id) of every MENTIONS edge; the speakers of the group's episodes."""
        ents = [(i, n, k) for i, n, k in self.q(
            "MATCH (e:Entity) WHERE e.group_id = $g RETURN e.id, e.name, e.kind", {"g": group_id})]
        held = [(s, "") for (s,) in self.q(
            "MATCH (e:Entity)-[:HAS_FACT]->(f:Fact) WHERE f.group_id = $g AND f.expired_at = $inf RETURN e.id",
            {"g": group_id, "inf": FOREVER})]
        held += [(s, o) for s, o in self.q(
            "MATCH (e:Entity)-[:HAS_FACT]->(f:Fact)-[:OBJECT]->(o:Entity) "
            "WHERE f.group_id = $g AND f.expired_at = $inf RETURN e.id, o.id", {"g": group_id, "inf": FOREVER})]
        mentions = [(public_episode_id(k, group_id), e) for k, e in self.q(
            "MATCH (p:Episode)-[:MENTIONS]->(e:Entity) WHERE p.group_id = $g RETURN p.id, e.id", {"g": group_id})]
        speakers = {s for (s,) in self.q("MATCH (p:Episode) WHERE p.group_id = $g RETURN DISTINCT p.speaker",
                                         {"g": group_id})}
        return ents, held, mentions, speakers

    def link_mentions(self, episode_id: str, entity_ids: Sequence[str], group_id: str | None = None) -> None:
        self.touch(group_id)
        key = self.episode_keys(group_id, [episode_id]).get(episode_id, episode_id)
        if entity_ids:
            self.q(
                "MATCH (p:Episode {id: $p}) WITH p UNWIND $ids AS x MATCH (e:Entity {id: x}) "
                "CREATE (p)-[:MENTIONS]->(e)",
                {"p": key, "ids": list(dict.fromkeys(entity_ids))},
            )

    def episode(self, episode_id: str, group_id: str | None = None) -> Episode | None:
        """The episode with this id in ``group_id`` (``None``: stored under the id, any group)."""
        found = self.episodes_by_id([episode_id], group_id)
        return found[0] if found else None

    def recent_episodes(self, group_id: str, before: _dt.datetime, last_n: int,
                        source: str | None = None) -> list[Episode]:
        """The ``last_n`` episodes of a group said at or before ``before``, newest first."""
        cond = " AND p.source = $src" if source is not None else ""
        params: dict[str, Any] = {"g": group_id, "t": to_db(before), "n": last_n}
        if source is not None:
            params["src"] = source
        rows = self.q(
            f"MATCH (p:Episode) WHERE p.group_id = $g AND p.reference_time <= $t{cond} "
            f"RETURN {_EPISODE_RETURN} ORDER BY p.reference_time DESC, p.recorded_at DESC, p.id DESC LIMIT $n",
            params,
        )
        return [row_to_episode(r) for r in rows]

    def retracted(self, group_id: str) -> list[Fact]:
        """The retracted versions of a group (one per retracted belief)."""
        rows = self.q(
            "MATCH (f:Fact) WHERE f.group_id = $g AND f.expire_reason STARTS WITH 'retracted' "
            f"RETURN {_FACT_RETURN}", {"g": group_id},
        )
        return [row_to_fact(r) for r in rows]

    def mentioned(self, episode_id: str, group_id: str | None = None) -> list[str]:
        """Ids of the entities an episode mentions."""
        key = self.episode_keys(group_id, [episode_id]).get(episode_id, episode_id)
        rows = self.q("MATCH (p:Episode {id: $id})-[:MENTIONS]->(e:Entity) RETURN e.id", {"id": key})
        return [r[0] for r in rows]

    def delete_episode(self, episode_id: str, group_id: str | None = None) -> None:
        """Delete an episode node with its MENTIONS and FROM_EPISODE links
        (the facts it stated keep their ``episode_id``)."""
        self.touch(group_id)
        key = self.episode_keys(group_id, [episode_id]).get(episode_id)
        if key is not None:
            self.q("MATCH (p:Episode {id: $id}) DETACH DELETE p", {"id": key})

    def delete_group(self, group_id: str) -> dict[str, int]:
        """Physically delete everything of one group: entities, aliases, fact
        versions, episodes, fact vectors and slots (with their edges).
        Returns how many of each were deleted."""
        self.touch(group_id)
        g = {"g": group_id}
        fact_ids = [r[0] for r in self.q("MATCH (f:Fact) WHERE f.group_id = $g RETURN DISTINCT f.id", g)]
        slot_keys = [
            slot_key(s, a) for s, a in self.q(
                "MATCH (f:Fact) WHERE f.group_id = $g RETURN DISTINCT f.subject_id, f.attribute", g)
        ]
        counts = {}
        for name, label in (("entities", "Entity"), ("aliases", "Alias"), ("facts", "Fact"),
                            ("episodes", "Episode"), ("links", "Link")):
            counts[name] = int(self.q(f"MATCH (n:{label}) WHERE n.group_id = $g RETURN count(n)", g)[0][0])
            if counts[name]:
                self.q(f"MATCH (n:{label}) WHERE n.group_id = $g DETACH DELETE n", g)
        counts["vectors"] = counts["slots"] = 0
        for name, label, column, keys in (("vectors", "FactVector", "id", fact_ids),
                                          ("slots", "Slot", "key", slot_keys)):
            for start in range(0, len(keys), 5000):
                chunk = keys[start:start + 5000]
                counts[name] += int(self.q(
                    f"UNWIND $k AS x MATCH (n:{label} {{{column}: x}}) RETURN count(n)", {"k": chunk})[0][0])
                self.q(f"UNWIND $k AS x MATCH (n:{label} {{{column}: x}}) DELETE n", {"k": chunk})
        self._slots_seen = {}
        return counts

    def set_vectors(self, label: str, vectors: dict[str, bytes], group_id: str | None = None) -> None:
        """Store embeddings (float32 bytes) by id: ``FactVector`` rows (by fact
        id, shared by all versions of a belief), an Entity's name vector, or
        an Episode's sentence vectors (``EpisodeSentences``; episode ids of
        ``group_id``)."""
        self.touch(group_id)
        if not vectors:
            return
        if label == "FactVector":
            self._create_columnar("FactVector", {"id": list(vectors), "embedding": [_vec_text(v) for v in vectors.values()]})
            return
        table, column = _VECTOR_COLUMNS[label]
        if table == "Episode":
            keys = self.episode_keys(group_id, vectors)
            vectors = {keys[i]: v for i, v in vectors.items() if i in keys}
        self.q(
            f"UNWIND $rows AS r MATCH (n:{table} {{id: r.id}}) SET n.{column} = r.v",
            {"rows": [{"id": k, "v": _vec_text(v)} for k, v in vectors.items()]},
        )

    def vectors(self, label: str, ids: Sequence[str], group_id: str | None = None) -> dict[str, bytes]:
        """Stored embeddings by id (``FactVector``, ``Episode``, ``Entity``,
        ``EpisodeSentences``; episode ids of ``group_id``); ids with none
        stored are left out."""
        if not ids:
            return {}
        table, column = _VECTOR_COLUMNS[label]
        if table == "Episode":
            keys = self.episode_keys(group_id, ids)
            public = {k: i for i, k in keys.items()}
            rows = self.q(f"UNWIND $ids AS x MATCH (n:Episode {{id: x}}) RETURN n.id, n.{column}",
                          {"ids": list(public)})
            return {public[k]: _vec_bytes(v) for k, v in rows if v is not None}
        rows = self.q(f"UNWIND $ids AS x MATCH (n:{table} {{id: x}}) RETURN n.id, n.{column}", {"ids": list(ids)})
        return {i: _vec_bytes(v) for i, v in rows if v is not None}

    def entity_vectors(self, group_id: str) -> list[tuple[str, str, bytes | None]]:
        return [
            (i, n, _vec_bytes(v)) for i, n, v in self.q(
                "MATCH (e:Entity) WHERE e.group_id = $g RETURN e.id, e.name, e.name_embedding", {"g": group_id}
            )
        ]

    # -- facts: reads ----------------------------------------------------------
    def slot_entries(self, keys: Sequence[str]) -> dict[str, list[SlotEntry]]:
        """The stored held lists of (subject, attribute) slots: a primary-key
        lookup per slot, so the cost follows the batch, not the history."""
        if not keys:
            return {}
        rows = self.q("UNWIND $k AS x MATCH (s:Slot {key: x}) RETURN s.key, s.held", {"k": list(keys)})
        if self._in_tx:  # remember which exist, so that apply() need not ask again
            self._slots_seen.update(dict.fromkeys(keys, False))
            self._slots_seen.update((key, True) for key, _ in rows)
        return {key: _decode_slot(held) for key, held in rows}

    def facts_by_vid(self, vids: Sequence[str]) -> list[Fact]:
        if not vids:
            return []
        rows = self.q(f"UNWIND $v AS x MATCH (f:Fact {{vid: x}}) RETURN {_FACT_RETURN}", {"v": list(vids)})
        return [row_to_fact(r) for r in rows]

    def held(self, subject_ids: Sequence[str]) -> list[Fact]:
        """Every held version (transaction time open) of the given subjects."""
        if not subject_ids:
            return []
        if len(subject_ids) == 1:
            rows = self.q(
                "MATCH (e:Entity {id: $s})-[:HAS_FACT]->(f:Fact) WITH f WHERE f.expired_at = $inf "
                f"RETURN {_FACT_RETURN}",
                {"s": subject_ids[0], "inf": FOREVER},
            )
        else:
            rows = self.q(
                "MATCH (e:Entity) WHERE e.id IN $s WITH e MATCH (e)-[:HAS_FACT]->(f:Fact) "
                f"WITH f WHERE f.expired_at = $inf RETURN {_FACT_RETURN}",
                {"s": list(subject_ids), "inf": FOREVER},
            )
        return [row_to_fact(r) for r in rows]

    def ended_at(self, group_id: str, when: _dt.datetime) -> list[Fact]:
        """Held versions of a group recorded at ``when`` that only closed a
        belief without a successor ("ended: ..."): what one write transaction
        (an episode's cessations) ended. A scan: for rare operations."""
        rows = self.q(
            "MATCH (f:Fact) WHERE f.group_id = $g AND f.recorded_at = $t AND f.expired_at = $inf "
            f"AND f.reason STARTS WITH 'ended:' RETURN {_FACT_RETURN}",
            {"g": group_id, "t": to_db(when), "inf": FOREVER},
        )
        return [row_to_fact(r) for r in rows]

    def expired_by_episode(self, group_id: str, episode_id: str, at: _dt.datetime) -> list[Fact]:
        """The versions of a group that one episode's write transaction
        expired (``expired_by_episode``, at the episode's ``recorded_at``).
        A scan: for rare operations."""
        rows = self.q(
            "MATCH (f:Fact) WHERE f.group_id = $g AND f.expired_by_episode = $e AND f.expired_at = $t "
            f"RETURN {_FACT_RETURN}",
            {"g": group_id, "e": episode_id, "t": to_db(at)},
        )
        return [row_to_fact(r) for r in rows]

    def versions(self, fact_id: str, compacted: bool = False) -> list[Fact]:
        """Every version of one belief, oldest first (probes ``id:1``, ``id:2``, ...).
        ``compacted``: the group has a compaction horizon, so the first
        versions of a belief may be gone (``compact``): a belief none of
        whose first 16 versions is stored is looked for by a scan."""
        out: list[Fact] = []
        start = 1
        while True:
            vids = [f"{fact_id}:{v}" for v in range(start, start + 16)]
            rows = self.q(
                f"UNWIND $v AS x MATCH (f:Fact {{vid: x}}) RETURN {_FACT_RETURN}", {"v": vids}
            )
            found = [row_to_fact(r) for r in rows]
            out.extend(found)
            if not found and start == 1 and compacted:
                rows = self.q(f"MATCH (f:Fact) WHERE f.id = $id RETURN {_FACT_RETURN}", {"id": fact_id})
                return sorted((row_to_fact(r) for r in rows), key=lambda f: f.version)
            # versions are contiguous (compaction drops a prefix): go on while the batch's last one is stored
            if not found or max(f.version for f in found) < start + 15:
                return sorted(out, key=lambda f: f.version)
            start += 16

    # -- compaction (Memory.compact, docs/forgetting.md) ---------------------------------
    def compact_versions(self, group_id: str, before: _dt.datetime, dry_run: bool = False
                         ) -> tuple[int, list[str]]:
        """Delete the group's fact versions whose transaction time ended at or
        before ``before`` (with their edges), and the vectors of the beliefs
        left with no version. Returns (versions deleted, beliefs gone)."""
        self.touch(group_id)
        params = {"g": group_id, "t": to_db(before), "inf": FOREVER}
        rows = self.q("MATCH (f:Fact) WHERE f.group_id = $g AND f.expired_at <> $inf AND f.expired_at <= $t "
                      "RETURN f.vid, f.id", params)
        if not rows:
            return 0, []
        ids = sorted({r[1] for r in rows})
        dropped = {r[0] for r in rows}
        left: set[str] = set()
        for start in range(0, len(ids), 5000):
            left.update(r[0] for r in self.q(
                "MATCH (f:Fact) WHERE f.group_id = $g AND f.id IN $ids RETURN f.vid",
                {"g": group_id, "ids": ids[start:start + 5000]}))
        vids_by_id: dict[str, set[str]] = {}
        for vid in left:
            vids_by_id.setdefault(vid.rsplit(":", 1)[0], set()).add(vid)
        gone = [i for i in ids if not (vids_by_id.get(i, set()) - dropped)]
        if dry_run:
            return len(dropped), gone
        vids = sorted(dropped)
        for start in range(0, len(vids), 5000):
            self.q("UNWIND $v AS x MATCH (f:Fact {vid: x}) DETACH DELETE f", {"v": vids[start:start + 5000]})
        for start in range(0, len(gone), 5000):
            self.q("UNWIND $k AS x MATCH (n:FactVector {id: x}) DELETE n", {"k": gone[start:start + 5000]})
        return len(dropped), gone

    def horizons(self) -> dict[str, _dt.datetime]:
        """Every group's compaction horizon (``Memory.compact``), from the meta
        rows (cached per store generation: every read asks)."""
        cached = self._horizons
        if cached is not None and cached[0] == self.generation:
            return cached[1]
        rows = self.q("MATCH (m:Meta) WHERE m.key STARTS WITH $p RETURN m.key, m.value", {"p": HORIZON_KEY})
        out = {k[len(HORIZON_KEY):]: _dt.datetime.fromisoformat(v) for k, v in rows}
        self._horizons = (self.generation, out)
        return out

    def horizon(self, group_id: str) -> _dt.datetime | None:
        """The group's compaction horizon, cached per stored group generation
        (:meth:`group_generation`): every read asks, in every process."""
        gen = self.group_generation(group_id)
        cached = self._horizon_of.get(group_id)
        if cached is not None and cached[0] == gen:
            return cached[1]
        rows = self.q("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": HORIZON_KEY + group_id})
        out = _dt.datetime.fromisoformat(rows[0][0]) if rows else None
        if not self._in_tx:  # a transaction's own horizon is not committed yet
            self._horizon_of[group_id] = (gen, out)
        return out

    def set_horizon(self, group_id: str, at: _dt.datetime) -> None:
        """Raise the group's compaction horizon to ``at`` (it never moves back)."""
        self.touch(group_id)
        old = self.horizon(group_id)
        if old is None or at > old:
            self.set_meta(HORIZON_KEY + group_id, at.isoformat())
        self._horizons = None
        self._horizon_of.pop(group_id, None)

    def facts_of(
        self,
        subject_ids: Sequence[str] | None,
        *,
        group_id: str,
        attribute: str | None = None,
        valid_at: _dt.datetime | None = None,
        known_at: _dt.datetime | None = None,
        statements: bool = False,
    ) -> list[Fact]:
        """Versions about the subjects (or the whole group when ``None``).

        With ``valid_at``/``known_at`` only the versions visible there:
        ``recorded_at <= K < expired_at`` and ``valid_from <= T < valid_to``.
        Statements kept whole (attribute :data:`SAID`) only with
        ``statements``: what the public reads (``as_of``) shows them; what
        recall and context reason about is what was read, and they read a
        statement in its episode.
        """
        conds, params = [], {}  # type: ignore[var-annotated]
        if not statements:
            conds.append("f.attribute <> $said")
            params["said"] = SAID
        if known_at is not None:
            conds.append("f.recorded_at <= $k AND f.expired_at > $k")
            params["k"] = to_db(known_at)
        if valid_at is not None:
            conds.append("f.valid_from <= $t AND f.valid_to > $t")
            params["t"] = to_db(valid_at)
        if attribute is not None:
            conds.append("f.attribute = $a")
            params["a"] = attribute
        if subject_ids is None:
            conds.append("f.group_id = $g")
            params["g"] = group_id
            head = "MATCH (f:Fact)"
        elif len(subject_ids) == 1:
            head = "MATCH (e:Entity {id: $s})-[:HAS_FACT]->(f:Fact) WITH f"
            params["s"] = subject_ids[0]
        else:
            head = "MATCH (e:Entity) WHERE e.id IN $s WITH e MATCH (e)-[:HAS_FACT]->(f:Fact) WITH f"
            params["s"] = list(subject_ids)
        where = (" WHERE " + " AND ".join(conds)) if conds else ""
        rows = self.q(f"{head}{where} RETURN {_FACT_RETURN}", params)
        return [row_to_fact(r) for r in rows]

    def facts_with_object(self, entity_ids: Sequence[str], *, valid_at=None, known_at=None) -> list[Fact]:
        """Versions whose value is one of the entities (the walk's reverse edge)."""
        out = []
        for eid in entity_ids:
            conds, params = ["true"], {"s": eid}
            if known_at is not None:
                conds.append("f.recorded_at <= $k AND f.expired_at > $k")
                params["k"] = to_db(known_at)
            if valid_at is not None:
                conds.append("f.valid_from <= $t AND f.valid_to > $t")
                params["t"] = to_db(valid_at)
            rows = self.q(
                "MATCH (e:Entity {id: $s})<-[:OBJECT]-(f:Fact) WITH f WHERE " + " AND ".join(conds)
                + f" RETURN {_FACT_RETURN}", params,
            )
            out.extend(row_to_fact(r) for r in rows)
        return out

    def episodes_mentioning(self, entity_ids: Sequence[str], limit: int = 200) -> dict[str, list[str]]:
        """Episode ids that mention each entity (most recent first)."""
        out = {}
        for eid in entity_ids:
            rows = self.q(
                "MATCH (e:Entity {id: $s})<-[:MENTIONS]-(p:Episode) "
                "RETURN p.id, p.group_id ORDER BY p.reference_time DESC LIMIT $n",
                {"s": eid, "n": limit},
            )
            out[eid] = [public_episode_id(k, g) for k, g in rows]
        return out

    def facts_from_episodes(self, episode_ids: Sequence[str], group_id: str | None = None) -> dict[str, list[Fact]]:
        """Every version of the facts each episode (of ``group_id``) stated."""
        keys = self.episode_keys(group_id, episode_ids)
        out: dict[str, list[Fact]] = {}
        for eid in episode_ids:  # one walk each: a chained UNWIND walk scans on this engine
            if eid not in keys:
                out[eid] = []
                continue
            rows = self.q(f"MATCH (p:Episode {{id: $id}})<-[:FROM_EPISODE]-(f:Fact) RETURN {_FACT_RETURN}",
                          {"id": keys[eid]})
            out[eid] = [row_to_fact(r) for r in rows]
        return out

    def episodes_by_id(self, ids: Sequence[str], group_id: str | None = None) -> list[Episode]:
        """The episodes of ``group_id`` with these ids (``None``: stored under the ids, any group):
        both keys of each id probed at once (see :func:`episode_key`), rows of other groups dropped."""
        if not ids:
            return []
        keys = list(ids) if group_id is None else [k for i in ids for k in (i, episode_key(group_id, i))]
        rows = self.q(f"UNWIND $ids AS x MATCH (p:Episode {{id: x}}) RETURN {_EPISODE_RETURN}", {"ids": keys})
        return [e for e in map(row_to_episode, rows) if group_id is None or e.group_id == group_id]

    def visible_by_id(self, fact_ids: Sequence[str], *, valid_at, known_at, probe: int = 4) -> list[Fact]:
        """The version of each belief visible at (valid_at, known_at), if any
        (``valid_at=None``: the version held at known_at, whatever its valid
        time). Versions are probed by key (``id:1`` .. ``id:probe``, more if needed)."""
        out: list[Fact] = []
        pending, start = list(dict.fromkeys(fact_ids)), 1
        while pending:
            vids = [f"{i}:{v}" for i in pending for v in range(start, start + probe)]
            rows = self.q(f"UNWIND $v AS x MATCH (f:Fact {{vid: x}}) RETURN {_FACT_RETURN}", {"v": vids})
            facts = [row_to_fact(r) for r in rows]
            out.extend(f for f in facts if f.held_at(known_at) and (valid_at is None or f.valid_at(valid_at)))
            last = {f.id for f in facts if f.version == start + probe - 1}
            pending, start = [i for i in pending if i in last], start + probe
        return out

    def group_documents(self, group_id: str) -> tuple[list[tuple[str, str]],
                                                      list[tuple[str, str, str, str, _dt.datetime]]]:
        """(fact id, text) of every belief with a held version (but statements
        kept whole, which recall reads in their episodes), and (episode id,
        text, speaker, content, reference time) of every episode in the order
        they were said, of one group: what recall indexes (a text is a
        :func:`document`)."""
        facts = self.q(
            "MATCH (f:Fact) WHERE f.group_id = $g AND f.expired_at = $inf AND f.attribute <> $said "
            "RETURN DISTINCT f.id, f.subject, f.attribute, f.value, f.text",
            {"g": group_id, "inf": FOREVER, "said": SAID},
        )
        episodes = self.q(
            "MATCH (p:Episode) WHERE p.group_id = $g RETURN p.id, p.speaker, p.content, "
            "CAST(p.reference_time AS STRING), CAST(p.recorded_at AS STRING)", {"g": group_id}
        )
        episodes = [[public_episode_id(r[0], group_id), *r[1:]] for r in episodes]
        episodes.sort(key=lambda r: (r[3], r[4], r[0]))
        facts.sort(key=lambda r: [str(x) for x in r])  # rankings must not depend on the engine's row order
        return ([(i, fact_document(s, a, v, t)) for i, s, a, v, t in facts],
                [(i, document(s, c), s or "", c or "", from_db(t)) for i, s, c, t, _ in episodes])

    def iter_facts(self, group_id: str | None = None, *, verify: bool = True, chunk: int = 5000) -> Iterator[Fact]:
        """Every stored version in the database (or one group), ordered by
        vid (for export and check), converted as it is read. One query,
        streamed: paging with ``ORDER BY ... SKIP`` sorted the table once per
        page (check took 19 s at 100k versions, 17x its time at 10k; 8 s now).

        ``verify`` (export): each version is checked against its digests as
        it is read, ``chunk`` at a time. From the first damaged chunk on nothing
        more is yielded, the rest is only checked, and then
        :class:`~midas_graph.DamagedError` names every damaged version.
        ``check()`` reads with ``verify=False`` and runs its digest rule."""
        where, params = ("WHERE f.group_id = $g ", {"g": group_id}) if group_id is not None else ("", {})
        chunk_size = chunk
        if not verify:
            for row in self._stream(f"MATCH (f:Fact) {where}RETURN {_FACT_RETURN} ORDER BY f.vid", params):
                yield row_to_fact(row)
            return
        columns = (*FACT_COLUMNS, "digest", "expiry_digest")
        rows: list[list[Any]] = []
        damage: list[_digest.Damage] = []
        for row in self._stream(f"MATCH (f:Fact) {where}RETURN {_returning('f', columns)} ORDER BY f.vid", params):
            rows.append(row)
            if len(rows) == chunk_size:
                yield from self._checked("Fact", rows, columns, damage, row_to_fact)
                rows = []
        yield from self._checked("Fact", rows, columns, damage, row_to_fact)
        _digest.raise_if_damaged(damage, f"database {self.path or ':memory:'!r}")

    @staticmethod
    def _checked(table: str, rows: list[list[Any]], columns: Sequence[str], damage: list, convert) -> list[Any]:
        """The rows converted, if they and every row before them match their
        digests; else none (their damage is added to ``damage``)."""
        damage.extend(_digest.verify(table, rows, columns))
        return [] if damage else [convert(r) for r in rows]

    def _stream(self, cypher: str, params: dict[str, Any] | None = None) -> Iterator[list[Any]]:
        """Rows of one read-only query as the engine hands them over, on a
        connection of its own (so that the caller may run other queries
        while it iterates); it sees the last committed state."""
        with self._lock:
            if self._db is None:
                raise EngineError("engine error: the database is closed")
            conn = self._lib.Connection(self._db)
        result = None
        try:
            try:
                result = conn.execute(cypher, params or {})
            except Exception as exc:
                raise EngineError(f"engine error: {exc}") from exc
            while True:
                try:
                    if not result.has_next():
                        return
                    row = result.get_next()
                except Exception as exc:
                    raise EngineError(f"engine error: {exc}") from exc
                yield row
        finally:
            if result is not None:
                result.close()
            conn.close()

    def all_entities(self, *, verify: bool = True) -> list[Entity]:
        """Every entity (for export and check). ``verify`` (export): checked
        against their digests, a damaged row raises
        :class:`~midas_graph.DamagedError`."""
        if not verify:
            return [row_to_entity(r) for r in self.q(f"MATCH (e:Entity) RETURN {_ENTITY_RETURN} ORDER BY e.id")]
        columns = (*_ENTITY_COLUMNS, "digest")
        rows = self.q(f"MATCH (e:Entity) RETURN {_returning('e', columns)} ORDER BY e.id")
        damage: list[_digest.Damage] = []
        out = self._checked("Entity", rows, columns, damage, row_to_entity)
        _digest.raise_if_damaged(damage, f"database {self.path or ':memory:'!r}")
        return out

    def iter_episodes(self, group_id: str | None = None) -> Iterator[Episode]:
        """Every episode (of one group), in the order said, each checked
        against its digest as it is read (as :meth:`iter_facts`: a damaged
        chunk stops the yield and :class:`~midas_graph.DamagedError` names
        every damaged episode). For export."""
        where, params = ("WHERE p.group_id = $g ", {"g": group_id}) if group_id is not None else ("", {})
        columns = (*_EPISODE_COLUMNS, "expired_at", "digest", "cold_digest")
        chunk: list[list[Any]] = []
        damage: list[_digest.Damage] = []
        for row in self._stream(f"MATCH (p:Episode) {where}RETURN {_returning('p', columns)} "
                                "ORDER BY p.reference_time, p.recorded_at, p.id", params):
            chunk.append(row)
            if len(chunk) == 500:
                yield from self._checked("Episode", chunk, columns, damage, row_to_episode)
                chunk = []
        yield from self._checked("Episode", chunk, columns, damage, row_to_episode)
        _digest.raise_if_damaged(damage, f"database {self.path or ':memory:'!r}")

    #: Rows per batch when a whole table is read for its digests.
    _SCAN_BATCH = {"Fact": 20_000, "Entity": 20_000, "Alias": 50_000, "Episode": 1_000, "Link": 50_000}

    def scan_for_digest(self, table: str, group_id: str | None = None
                        ) -> Iterator[tuple[tuple[str, ...], list[list[Any]]]]:
        """Every row of ``table`` (Fact, Episode, Entity, Alias; of one group)
        as the columns its digests cover, in batches of raw rows (by node
        offset): (column names, rows)."""
        _, fields, _ = _digest.TABLES[table]
        columns = (*(name for name, _ in fields), "digest")
        if table == "Fact":
            columns += ("expired_at", "expire_reason", "expired_by_episode", "expiry_digest")
        elif table == "Episode":
            columns += ("cold_at", "cold_reason", "cold_digest")
        ret = _returning("n", columns)
        top = self.q(f"MATCH (n:{table}) RETURN max(offset(id(n)))")[0][0]
        if top is None:
            return
        where = " AND n.group_id = $g" if group_id is not None else ""
        step = self._SCAN_BATCH[table]
        for lo in range(0, int(top) + 1, step):
            params: dict[str, Any] = {"lo": lo, "hi": lo + step}
            if group_id is not None:
                params["g"] = group_id
            rows = self.q(f"MATCH (n:{table}) WHERE offset(id(n)) >= $lo AND offset(id(n)) < $hi{where} "
                          f"RETURN {ret}", params)
            if rows:
                yield columns, rows

    def keys_not_found(self, table: str, keys: Sequence[str]) -> list[str]:
        """The keys of ``table`` (Fact, Episode, Entity, Alias) that a
        primary-key lookup does not find, or finds on a row with another key:
        a damaged index, where a scan still reads the row."""
        key = _digest.TABLES[table][2]
        found = {x for x, have in self.q(
            f"UNWIND $k AS x MATCH (n:{table} {{{key}: x}}) RETURN x, n.{key}", {"k": list(keys)}) if x == have}
        return [k for k in keys if k not in found]

    def count(self, label: str, group_id: str | None = None) -> int:
        """How many nodes of a kind, in the database or in one group (a scan)."""
        if label not in _PRIMARY_KEYS:
            raise ValueError(label)
        if group_id is None:
            return int(self.q(f"MATCH (n:{label}) RETURN count(n)")[0][0])
        return int(self.q(f"MATCH (n:{label}) WHERE n.group_id = $g RETURN count(n)", {"g": group_id})[0][0])

    # -- facts: writes ---------------------------------------------------------
    def apply(self, plan: Plan) -> None:
        """Write a plan: insert versions with their edges, expire, link.

        Inserts go first: a plan may expire a version it inserted itself (a
        batch that states two values of one attribute)."""
        if plan.inserts:
            self._create_facts(plan.inserts)
        if plan.expires:
            ep = plan.expired_by_episode
            rows = {"rows": [{"vid": v, "at": to_db(at), "why": why,
                              "d": _digest.expiry_digest(v, to_db(at), why, ep)} for v, at, why in plan.expires]}
            if ep is None:
                groups = self.q("UNWIND $rows AS r MATCH (f:Fact {vid: r.vid}) "
                                "SET f.expired_at = r.at, f.expire_reason = r.why, f.expiry_digest = r.d "
                                "RETURN DISTINCT f.group_id", rows)
            else:  # an episode's transaction: each version says which episode expired it
                groups = self.q("UNWIND $rows AS r MATCH (f:Fact {vid: r.vid}) "
                                "SET f.expired_at = r.at, f.expire_reason = r.why, f.expired_by_episode = $ep, "
                                "f.expiry_digest = r.d RETURN DISTINCT f.group_id", {**rows, "ep": ep})
            self.touch(*(g for g, in groups))
        self._link(plan.links)
        if plan.slots:
            # MERGE over UNWIND scans the table; a key lookup, then SET or CREATE, does not.
            rows = [{"key": k, "held": _encode_slot(es)} for k, es in plan.slots.items()]
            unknown = [k for k in plan.slots if k not in self._slots_seen]
            have = {k for k in plan.slots if self._slots_seen.get(k)}
            if unknown:
                have.update(r[0] for r in self.q("UNWIND $k AS x MATCH (s:Slot {key: x}) RETURN s.key",
                                                 {"k": unknown}))
            self._slots_seen.update(dict.fromkeys(plan.slots, True))
            old = [r for r in rows if r["key"] in have]
            if old:
                self.q("UNWIND $rows AS r MATCH (s:Slot {key: r.key}) SET s.held = r.held", {"rows": old})
            new = [r for r in rows if r["key"] not in have]
            if new:
                self._create_columnar("Slot", {"key": [r["key"] for r in new], "held": [r["held"] for r in new]})

    def rebuild_slots(self) -> None:
        """Recompute every slot from the held versions (after an import)."""
        slots: dict[str, list[SlotEntry]] = {}
        for vid, sid, attr, value, kind, valid_to in self.q(
            "MATCH (f:Fact) WHERE f.expired_at = $inf "
            "RETURN f.vid, f.subject_id, f.attribute, f.value, f.value_type, CAST(f.valid_to AS STRING)",
            {"inf": FOREVER},
        ):
            entry = (vid, norm_value(decode_value(value, kind)), from_db(valid_to))
            slots.setdefault(slot_key(sid, attr), []).append(entry)
        self.q("MATCH (s:Slot) DELETE s")
        self._slots_seen = {}
        for start in range(0, len(slots), 5000):
            keys = list(slots)[start:start + 5000]
            self.apply(Plan(slots={k: slots[k] for k in keys}))

    def _create_facts(self, facts: Sequence[Fact], episodes: set[tuple[str, str]] | None = None) -> None:
        """Create fact versions with their HAS_FACT (and OBJECT, FROM_EPISODE)
        edges in one statement per shape: the subject is matched by key from
        a small row map, the properties come from column lists by index.
        (Matching the new Fact node afterwards scans the table on Kùzu 0.11.)
        A version whose episode is stored gets its FROM_EPISODE edge (with
        ``episodes``, only one whose (group, episode id) is also in it); one
        whose episode was removed keeps its ``episode_id`` without an edge
        (a belief re-recorded after its episode was removed). Every version
        is written or the statement fails: a MATCH that finds no subject
        would otherwise drop the row without a word."""
        self.touch(*{f.group_id for f in facts})
        wanted = [f for f in facts if f.episode_id is not None
                  and (episodes is None or (f.group_id, f.episode_id) in episodes)]
        keys = self._fact_episode_keys(wanted) if wanted else {}
        groups: dict[tuple[bool, bool], list[Fact]] = {}
        for f in facts:
            linked = f.episode_id is not None and (f.group_id, f.episode_id) in keys
            groups.setdefault((f.object_id is not None, linked), []).append(f)
        for (has_object, has_episode), group in groups.items():
            match = "UNWIND $rows AS r MATCH (e:Entity {id: r.s})"
            path = "(e)-[:HAS_FACT]->(f:Fact {%s})"
            row = lambda f, i: {"s": f.subject_id, "i": i}  # noqa: E731
            if has_object:
                match += " WITH e, r MATCH (o:Entity {id: r.o})"
                path += "-[:OBJECT]->(o)"
                row = lambda f, i, _r=row: {**_r(f, i), "o": f.object_id}  # noqa: E731
            if has_episode:
                match += f" WITH e, r{', o' if has_object else ''} MATCH (p:Episode {{id: r.p}})"
                row = lambda f, i, _r=row, k=keys: {**_r(f, i), "p": k[(f.group_id, f.episode_id)]}  # noqa: E731
            props, params = _bind_columns(fact_columns(group), "r.i")
            create = " CREATE " + path % props
            if has_episode:
                create += ", (f)-[:FROM_EPISODE]->(p)"
            params["rows"] = [row(f, i) for i, f in enumerate(group, 1)]
            made = self.q(match + create + " RETURN count(*)", params)
            if int(made[0][0]) != len(group):
                raise EngineError(
                    f"engine error: {len(group)} fact versions to write, {made[0][0]} written (a subject or "
                    f"object entity is missing, e.g. one of {sorted({f.subject_id for f in group})[:3]}); "
                    "nothing was written"
                )

    def _fact_episode_keys(self, facts: Sequence[Fact]) -> dict[tuple[str, str], str]:
        """Stored key of the episode of each fact (by the fact's group)."""
        by_group: dict[str, set[str]] = {}
        for f in facts:
            by_group.setdefault(f.group_id, set()).add(f.episode_id)  # type: ignore[arg-type]
        return {(g, i): k for g, ids in by_group.items() for i, k in self.episode_keys(g, sorted(ids)).items()}

    def _create_columnar(self, label: str, columns: dict[str, list[Any]]) -> None:
        """CREATE nodes from column lists: five times faster than a list of
        row maps, whose per-row struct conversion dominates. A column with one
        value in every row is bound once as a scalar; a column that is null
        (or an empty list) in every row is left out and reads back null."""
        if "group_id" in columns and label != "GroupGeneration":
            self.touch(*set(columns["group_id"]))
        props, params = _bind_columns(columns, "i")
        params["n"] = len(next(iter(columns.values())))
        self.q(f"UNWIND range(1, $n) AS i CREATE (:{label} {{{props}}})", params)

    def restore_versions(self, facts: Sequence[Fact]) -> int:
        """Insert exported versions verbatim (import of an export); skip vids
        already present. A version whose episode is not stored (it was
        removed) keeps its ``episode_id`` without a FROM_EPISODE edge; its
        subject (and object) entity must exist. Call :meth:`link_successors`
        once all are in."""
        if not facts:
            return 0
        present = self.existing("Fact", [f.vid for f in facts])
        fresh = [f for f in facts if f.vid not in present]
        by_group: dict[str, set[str]] = {}
        for f in fresh:
            if f.episode_id is not None:
                by_group.setdefault(f.group_id, set()).add(f.episode_id)
        episodes = {(g, i) for g, ids in by_group.items() for i in self.episode_keys(g, sorted(ids))}
        if fresh:
            self._create_facts(fresh, episodes)
        return len(fresh)

    def link_successors(self) -> None:
        """Create any SUPERSEDED_BY edge that ``superseded_by`` implies but is missing."""
        self.q(
            "MATCH (a:Fact) WHERE a.superseded_by IS NOT NULL "
            "AND NOT EXISTS { MATCH (a)-[:SUPERSEDED_BY]->(:Fact) } "
            "MATCH (b:Fact {vid: a.superseded_by + ':1'}) CREATE (a)-[:SUPERSEDED_BY]->(b)"
        )

    # -- export and import (midas_graph._io) ----------------------------------------
    def existing(self, label: str, keys: Sequence[str]) -> set[str]:
        """The primary keys among ``keys`` that are stored in table ``label``
        (Entity and Episode ids, Fact vids, Alias keys, FactVector ids)."""
        column = _PRIMARY_KEYS[label]
        keys = list(dict.fromkeys(keys))
        out: set[str] = set()
        for start in range(0, len(keys), 5000):
            out.update(r[0] for r in self.q(f"UNWIND $k AS x MATCH (n:{label} {{{column}: x}}) RETURN n.{column}",
                                            {"k": keys[start:start + 5000]}))
        return out

    def count_beliefs(self) -> int:
        """How many beliefs (distinct fact ids) the database holds."""
        return int(self.q("MATCH (f:Fact) RETURN count(DISTINCT f.id)")[0][0])

    def fact_episode_ids(self, group_id: str | None = None) -> list[tuple[str, str]]:
        """(episode id, group id) of every episode a version (of one group)
        names, as its source or as the episode that expired it (stored or not)."""
        g = " AND f.group_id = $g" if group_id is not None else ""
        params = {"g": group_id} if group_id is not None else None
        rows = self.q(f"MATCH (f:Fact) WHERE f.episode_id IS NOT NULL{g} RETURN DISTINCT f.episode_id, f.group_id",
                      params)
        rows += self.q(f"MATCH (f:Fact) WHERE f.expired_by_episode IS NOT NULL{g} "
                       "RETURN DISTINCT f.expired_by_episode, f.group_id", params)
        return sorted({(i, g) for i, g in rows})

    def export_entities(self, group_id: str | None = None) -> list[tuple[Entity, str | None]]:
        """Every entity (of one group) with its stored name embedding (base64
        text), by id, checked against its digest: a damaged row raises
        :class:`~midas_graph.DamagedError`."""
        columns = (*_ENTITY_COLUMNS, "digest", "name_embedding")
        where, params = _group_where("e", group_id)
        rows = self.q(f"MATCH (e:Entity){where} RETURN {_returning('e', columns)} ORDER BY e.id", params)
        damage: list[_digest.Damage] = []
        out = self._checked("Entity", rows, columns, damage, lambda r: (row_to_entity(r), r[-1]))
        _digest.raise_if_damaged(damage, f"database {self.path or ':memory:'!r}")
        return out

    def export_episodes(self, batch: int = 64, group_id: str | None = None
                        ) -> Iterator[tuple[Episode, str, str | None, str | None, list[str]]]:
        """Every episode (of one group), by stored key (:func:`episode_key`), as
        ``(episode, key, embedding, sentence embeddings, mentioned entity
        ids)``, vectors as base64 text as stored; read ``batch`` at a time (an
        episode may be megabytes)."""
        where, params = _group_where("p", group_id)
        ids = [r[0] for r in self.q(f"MATCH (p:Episode){where} RETURN p.id ORDER BY p.id", params)]
        columns = (*_EPISODE_COLUMNS, "expired_at", "digest", "cold_digest", "embedding", "sentence_embeddings")
        damage: list[_digest.Damage] = []
        for start in range(0, len(ids), batch):
            chunk = ids[start:start + batch]
            rows = self.q(f"UNWIND $ids AS x MATCH (p:Episode {{id: x}}) RETURN {_returning('p', columns)}",
                          {"ids": chunk})
            if self._checked("Episode", rows, columns, damage, lambda r: r) == []:
                continue  # damaged (named at the end), or an empty chunk
            mentions: dict[str, list[str]] = {}
            for pid in chunk:  # one walk each: a chained UNWIND walk scans on this engine
                mentions[pid] = sorted(r[0] for r in self.q(
                    "MATCH (p:Episode {id: $id})-[:MENTIONS]->(e:Entity) RETURN e.id", {"id": pid}))
            by_id = {r[0]: r for r in rows}
            for pid in chunk:
                r = by_id[pid]
                yield row_to_episode(r[:len(_EPISODE_COLUMNS)]), pid, r[-2], r[-1], mentions[pid]
        _digest.raise_if_damaged(damage, f"database {self.path or ':memory:'!r}")

    def export_fact_vectors(self, batch: int = 10_000, group_id: str | None = None) -> Iterator[tuple[str, str]]:
        """Every stored fact vector (of the facts of one group): (fact id,
        base64 text), by id."""
        if group_id is None:
            ids = [r[0] for r in self.q("MATCH (v:FactVector) RETURN v.id ORDER BY v.id")]
        else:  # vectors are keyed by fact id: the group's fact ids that have one
            ids = sorted(self.existing("FactVector", [r[0] for r in self.q(
                "MATCH (f:Fact) WHERE f.group_id = $g RETURN DISTINCT f.id", {"g": group_id})]))
        for start in range(0, len(ids), batch):
            rows = self.q("UNWIND $ids AS x MATCH (v:FactVector {id: x}) RETURN v.id, v.embedding",
                          {"ids": ids[start:start + batch]})
            yield from sorted((i, v) for i, v in rows if v is not None)

    def restore_entities(self, entities: Sequence[Entity], vectors: dict[str, str | None]) -> int:
        """Create exported entities verbatim (``vectors``: name embeddings as
        base64 text, by id) without name keys (see :meth:`restore_aliases`);
        skip ids already present. Returns how many were created."""
        present = self.existing("Entity", [e.id for e in entities])
        fresh = [e for e in entities if e.id not in present]
        if fresh:
            columns = {
                "id": [e.id for e in fresh], "group_id": [e.group_id for e in fresh],
                "name": [e.name for e in fresh], "aliases": [list(e.aliases) for e in fresh],
                "kind": [e.kind for e in fresh], "summary": [e.summary for e in fresh],
                "created_at": [to_db(e.created_at) for e in fresh],
            }
            columns["digest"] = _digest.digests("entity/1", _digest.ENTITY_FIELDS, columns)
            self._create_columnar("Entity", {"name_embedding": [vectors.get(e.id) for e in fresh], **columns})
        return len(fresh)

    def restore_aliases(self, rows: Sequence[tuple[str, str, str, str]]) -> int:
        """Create exported name keys ``(key, group_id, alias, entity_id)``
        verbatim; a key already present keeps pointing where it points."""
        present = self.existing("Alias", [k for k, *_ in rows])
        fresh = [r for r in rows if r[0] not in present]
        if fresh:
            columns = {
                "key": [k for k, *_ in fresh], "group_id": [g for _, g, _, _ in fresh],
                "alias": [a for _, _, a, _ in fresh], "entity_id": [e for *_, e in fresh],
            }
            columns["digest"] = _digest.digests("alias/1", _digest.ALIAS_FIELDS, columns)
            self._create_columnar("Alias", columns)
        return len(fresh)

    def restore_episodes(self, episodes: Sequence[tuple[Episode, str, str | None, str | None, Sequence[str]]]) -> int:
        """Create exported episodes verbatim, each ``(episode, stored key,
        embedding, sentence embeddings, mentioned entity ids)`` with vectors
        as base64 text, and their MENTIONS edges; skip an episode its group
        already holds. One whose key another group holds here is stored
        under :func:`episode_key`, as :meth:`create_episode` does."""
        self.touch(*{ep.group_id for ep, *_ in episodes})
        by_group: dict[str, list[str]] = {}
        for ep, *_ in episodes:
            by_group.setdefault(ep.group_id, []).append(ep.id)
        held = {(g, i) for g, ids in by_group.items() for i in self.episode_keys(g, ids)}
        fresh = [x for x in episodes if (x[0].group_id, x[0].id) not in held]
        taken = self.existing("Episode", [k for _, k, *_ in fresh])
        for ep, key, emb, sent, mentions in fresh:
            if key in taken:
                key = episode_key(ep.group_id, ep.id)
            self.q(
                "CREATE (:Episode {id: $id, group_id: $g, name: $name, content: $content, speaker: $speaker, "
                "source: $source, source_description: $sd, reference_time: $rt, recorded_at: $ra, "
                "expired_at: $inf, provenance: $prov, embedding: $emb, sentence_embeddings: $sent, digest: $dg, "
                "importance: $imp, content_score: $cs, structural_score: $ss, cold_at: $ca, cold_reason: $cr, "
                "cold_digest: $cd})",
                {"id": key, "g": ep.group_id, "name": ep.name, "content": ep.content, "speaker": ep.speaker,
                 "source": ep.source, "sd": ep.source_description, "rt": to_db(ep.reference_time),
                 "ra": to_db(ep.recorded_at), "inf": FOREVER, "prov": ep.provenance, "emb": emb, "sent": sent,
                 "dg": episode_digest(ep, key), "imp": ep.importance, "cs": ep.content_score,
                 "ss": ep.structural_score, "ca": to_db(ep.cold_at) if ep.cold_at else None,
                 "cr": ep.cold_reason,
                 "cd": _digest.cold_digest(key, to_db(ep.cold_at), ep.cold_reason) if ep.cold_at else None},
            )
            self.link_mentions(key, list(mentions))
        return len(fresh)

    def restore_fact_vectors(self, vectors: dict[str, str]) -> int:
        """Create exported fact vectors (base64 text by fact id); skip ids already present."""
        present = self.existing("FactVector", list(vectors))
        fresh = {k: v for k, v in vectors.items() if k not in present}
        if fresh:
            self._create_columnar("FactVector", {"id": list(fresh), "embedding": list(fresh.values())})
        return len(fresh)

    def _link(self, links: Sequence[tuple[str, str]]) -> None:
        """SUPERSEDED_BY edges run from a version to the first version of its successor."""
        if links:
            # Chained key lookups: two index probes on LadybugDB; Kùzu 0.11 scans
            # for this (and runs out of buffer pool at 100k facts for a one-join form).
            self.q(
                "UNWIND $rows AS r MATCH (a:Fact {vid: r.a}) WITH a, r MATCH (b:Fact {vid: r.b}) "
                "CREATE (a)-[:SUPERSEDED_BY]->(b)",
                {"rows": [{"a": vid, "b": f"{fid}:1"} for vid, fid in links]},
            )


    # -- integrity reads (Memory.check) -------------------------------------------
    def alias_rows(self, *, verify: bool = True, group_id: str | None = None) -> list[tuple[str, str, str, str]]:
        """Every name key (of one group): (key, group_id, alias, entity_id).
        ``verify`` (export): checked against their digests, a damaged row
        raises :class:`~midas_graph.DamagedError`; ``check()`` reads with
        ``verify=False``."""
        where, params = _group_where("a", group_id)
        if not verify:
            return [tuple(r) for r in self.q(f"MATCH (a:Alias){where} RETURN a.key, a.group_id, a.alias, a.entity_id",
                                             params)]
        columns = ("key", "group_id", "alias", "entity_id", "digest")
        rows = self.q(f"MATCH (a:Alias){where} RETURN a.key, a.group_id, a.alias, a.entity_id, a.digest", params)
        damage: list[_digest.Damage] = []
        out = self._checked("Alias", rows, columns, damage, lambda r: tuple(r[:4]))
        _digest.raise_if_damaged(damage, f"database {self.path or ':memory:'!r}")
        return out

    def group_ids(self) -> list[str]:
        """Every group with a row in the database (entities, aliases,
        episodes, fact versions or people links), sorted."""
        out: set[str] = set()
        for label in ("Entity", "Alias", "Episode", "Fact", "Link"):
            out.update(r[0] for r in self.q(f"MATCH (n:{label}) RETURN DISTINCT n.group_id"))
        return sorted(out)

    def episode_groups(self) -> dict[str, set[str]]:
        """Episode id (as clients know it) -> the groups that hold an
        episode under it, for every stored episode."""
        out: dict[str, set[str]] = {}
        for key, g in self.q("MATCH (p:Episode) RETURN p.id, p.group_id"):
            out.setdefault(public_episode_id(key, g), set()).add(g)
        return out

    def slot_rows(self) -> dict[str, list[SlotEntry] | None]:
        """Every revision slot's stored held list, by slot key (None: it does
        not parse, a damaged row)."""
        out: dict[str, list[SlotEntry] | None] = {}
        for k, h in self.q("MATCH (s:Slot) RETURN s.key, s.held"):
            try:
                out[k] = _decode_slot(h)
            except (ValueError, TypeError, AttributeError):
                out[k] = None
        return out

    def edge_pairs(self, rel: str) -> list[tuple[str, str]]:
        """(from key, to key) of every edge of one relationship table, keyed
        as the check reads them: ``HAS_FACT`` (entity id, vid), ``OBJECT``
        (vid, entity id), ``FROM_EPISODE`` (vid, episode id), ``SUPERSEDED_BY``
        (vid, vid)."""
        shapes = {
            "HAS_FACT": "MATCH (a:Entity)-[:HAS_FACT]->(b:Fact) RETURN a.id, b.vid",
            "OBJECT": "MATCH (a:Fact)-[:OBJECT]->(b:Entity) RETURN a.vid, b.id",
            "FROM_EPISODE": "MATCH (a:Fact)-[:FROM_EPISODE]->(b:Episode) RETURN a.vid, b.id",
            "SUPERSEDED_BY": "MATCH (a:Fact)-[:SUPERSEDED_BY]->(b:Fact) RETURN a.vid, b.vid",
        }
        return [(a, b) for a, b in self.q(shapes[rel])]


#: The primary key column of each node table.
_PRIMARY_KEYS = {"Fact": "vid", "Entity": "id", "Episode": "id", "Alias": "key", "FactVector": "id",
                 "Slot": "key", "Meta": "key", "Link": "key"}

#: Where each kind of stored vector lives: (table, column).
_VECTOR_COLUMNS = {
    "FactVector": ("FactVector", "embedding"), "Episode": ("Episode", "embedding"),
    "Entity": ("Entity", "name_embedding"), "EpisodeSentences": ("Episode", "sentence_embeddings"),
}


def _vec_text(v: bytes | None) -> str | None:
    """Embeddings are stored as base64 text of float32 bytes: Kùzu 0.11 takes no
    bytes parameter, and a FLOAT[384] list costs 35x more to write."""
    return None if v is None else base64.b64encode(v).decode("ascii")


def _vec_bytes(v: str | bytes | None) -> bytes | None:
    if v is None or isinstance(v, bytes):
        return v
    return base64.b64decode(v)


def _encode_slot(entries: Sequence[SlotEntry]) -> str:
    """A slot's held list as one JSON string: a string column is four times
    cheaper to rewrite than three list columns."""
    return json.dumps([[v, n, e.isoformat() if e else None] for v, n, e in entries], separators=(",", ":"))


def _decode_slot(text: str | None) -> list[SlotEntry]:
    if not text:
        return []
    return [(v, n, _dt.datetime.fromisoformat(e) if e else None) for v, n, e in json.loads(text)]


def _open_timeout() -> float:
    return float(os.environ.get("MIDAS_GRAPH_OPEN_TIMEOUT", 30))


def _locked_message(path: str, engine: str, read_only: bool, text: str) -> str:
    """The engine's "Could not set lock on file" in words: who holds the file, what to do."""
    pid = re.search(r"PID (\d+)", text)
    holder = f"another process (pid {pid.group(1)})" if pid else "another process"
    if read_only:
        return (f"database {path!r} is open for writing in {holder}; engine {engine!r} cannot read it "
                f"until that process closes it (LadybugDB reads beside a writer that opened first)")
    return (f"database {path!r} is in use by {holder}: a process that writes to a database file must have it to "
            f"itself. Send the writes to that process (e.g. one `midas-graph serve-mcp` per file), close it "
            f"first, or read beside it with read_only=True (docs/concurrency.md)")


def _env_settings(engine: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if engine == "ladybug":
        # A process killed while appending to the log leaves a torn last
        # record; by default LadybugDB then refuses to open at all. Replay
        # what is whole and drop the torn tail (an uncommitted transaction):
        # tests/test_atomicity.py checks that every acknowledged batch survives.
        out["throw_on_wal_replay_failure"] = False
    # A checkpoint after every 16 MB of log (the engine's default) made COMMIT the
    # largest cost of bulk ingest. 256 MB cut it by 4x at 100k facts but left
    # 1.65 GB resident after importing 1M facts; 128 MB keeps the ingest speed
    # (12.3k vs 10.7k facts/s at 100k, same machine, other runs) at 1.50 GB,
    # and 64 MB gave 1.43 GB at 9.9k facts/s (eval/bench_store.py).
    out["checkpoint_threshold"] = int(os.environ.get("MIDAS_GRAPH_CHECKPOINT_MB", 128)) * 2**20
    return out


def _bind_columns(columns: dict[str, list[Any]], index: str) -> tuple[str, dict[str, Any]]:
    """Property map text and parameters for columns bound by ``index``. A
    column with one value in every row is bound once as a scalar; one that is
    null (or an empty list) in every row is left out and reads back null."""
    props, params = [], {}
    for name, values in columns.items():
        first = values[0]
        if all(v == first for v in values):
            if first is None or first == []:
                continue
            props.append(f"{name}: $c_{name}")
            params[f"c_{name}"] = first
        else:
            props.append(f"{name}: $c_{name}[{index}]")
            params[f"c_{name}"] = values
    return ", ".join(props), params


def _reusable(params: dict[str, Any]) -> bool:
    """Whether a prepared statement may be reused for these values: no
    integers anywhere, no numbers in a list (judged on the first list item).
    A float or a boolean on its own binds the same whatever its value (the
    importance update of every turn: a prepare saved, ~1.5 ms)."""
    def plain(v: Any, top: bool = True) -> bool:
        if v is None or isinstance(v, (str, _dt.datetime)):
            return True
        if top and isinstance(v, (float, bool)):
            return True
        if isinstance(v, list):
            return not v or plain(v[0], False)
        if isinstance(v, dict):
            return all(plain(x, False) for x in v.values())
        return False

    return all(plain(v) for v in params.values())


def _collect(result) -> list[list[Any]]:
    try:
        if not result.isSuccess():
            raise EngineError(f"engine error: {result.getErrorMessage()}")
        rows = []
        while result.hasNext():
            rows.append(result.getNext())
        return rows
    finally:
        result.close()


def _statements(text: str) -> list[str]:
    body = "\n".join(line for line in text.splitlines() if not line.strip().startswith("//"))
    return [s.strip() for s in body.split(";") if s.strip()]

