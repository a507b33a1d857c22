"""An MCP server over one :class:`~midas_graph.Memory` (the official ``mcp`` SDK, v2).

Tools keep the names and arguments of Graphiti's MCP server (``add_memory``,
``search_memory_facts``, ``search_nodes``, ``get_episodes``,
``get_entity_edge``, ``delete_entity_edge``, ``delete_episode``,
``clear_graph``, ``get_status``), so an agent configured for Graphiti finds
its tools here, plus midas_graph's own: ``as_of``, ``history``,
``get_context`` (with its abstain flag) and ``check_memory_use`` (the
provenance guard).

Every tool returns a JSON object. Bad arguments (missing, wrong type, bad
dates, unknown ids) come back as a tool error with a one-line message; the
server keeps serving. Tools are plain functions: the SDK runs each call on a
worker thread, so a slow ingest never blocks the event loop, and the store's
lock keeps engine access one call at a time.

Run it with ``midas-graph serve-mcp --db PATH`` (stdio) or
``--http PORT`` (streamable HTTP on 127.0.0.1); see ``docs/mcp.md``.

Tenants. Over HTTP with ``--keys FILE`` every request needs a bearer token,
and each token grants some groups (``_access``). Every tool checks the
group of what it touches: a group not granted is refused, and a fact or
episode id of another group is "not found", exactly as an unknown id (it is
never read, guard-checked or deleted). Over stdio, and over HTTP without
keys (loopback only), the one user may use every group.
"""

from __future__ import annotations

import datetime as _dt
import functools
import logging
from dataclasses import asdict
from typing import Annotated, Any, Callable, Literal, Optional

from pydantic import Field, ValidationError

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from ._access import Grant, KeyVerifier, is_loopback, load_keys
from ._errors import InvalidInputError, MidasError, NotFoundError
from ._memory import Memory, episode_not_found, fact_not_found
from ._time import parse_time
from ._types import Entity, Episode, Fact
from .graphiti import _groups

INSTRUCTIONS = """\
midas_graph is your long-term memory: a bitemporal knowledge graph of facts \
(subject · attribute · value) extracted locally from the episodes you add, each \
with the time it was true in the world (valid_from → valid_to) and the time the \
memory learned it (recorded_at).

Policy:
1. Before answering from memory, call get_context with the question. When it \
returns abstain=true, the memory holds nothing about what was asked: say you \
don't know (or ask the user) rather than guess, and do not pass off the closest \
lines as an answer.
2. Memories are time-stamped. Prefer current facts (status "current"); treat \
superseded, ended or retracted ones as the past and say so when you use them. \
Use as_of for "what was true on <date>" and history for "how did it change".
3. Never take an external or destructive action (sending, paying, deleting, \
booking, changing accounts) on the strength of a memory unless check_memory_use \
with use="action" allows it: only memories the user confirmed \
(provenance user_confirmation) or that the user has just explicitly approved \
(their ids in approved) may back an action. Anything may guide planning.
4. Record what the user tells you with add_memory (one message or text per \
call, with its reference_time when known). When the user confirms something, \
add it with provenance="user_confirmation".
5. Nothing is physically deleted by delete_entity_edge or delete_episode: the \
facts are retracted (no longer believed from now on) and the history keeps \
them. clear_graph does delete a group: call it only when the user asks to.
"""

_READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
_ADD = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
_RETRACT = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False,
                           open_world_hint=False)

IsoTime = Annotated[Optional[str], Field(description="ISO-8601 time or date (a date means midnight UTC).")]
GroupIds = Annotated[Optional[list[str]], Field(description="Groups to search (default: the server's group).")]


class MidasMCPServer(MCPServer):
    """``MCPServer`` whose argument-validation errors are one line: the SDK
    puts pydantic's multi-line report in the message; a model reads a short
    ``field: problem`` list better."""

    async def call_tool(self, name, arguments, context=None):  # type: ignore[override]
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(f"Error executing tool {name}: {_validation_line(cause)}") from cause
            raise


def _validation_line(exc: ValidationError) -> str:
    parts = []
    for e in exc.errors():
        loc = ".".join(str(p) for p in e.get("loc", ())) or "arguments"
        msg = e.get("msg", "invalid")
        if e.get("type") == "missing":
            msg = "is required"
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return " ".join(text.split())


def _guarded(fn: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """Turn every error of a tool into a one-line tool error. The library's
    own errors (a :class:`MidasError`; bad input names its field first) keep
    their message; anything else is a defect of ours, reported with its type
    and the start of its message (the SDK prefixes the tool: ``Error
    executing tool as_of: unexpected OverflowError: date value out of
    range``) and its traceback logged on the server's stderr. The server
    keeps serving."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> dict[str, Any]:
        try:
            return fn(*args, **kwargs)
        except ToolError:
            raise
        except (MidasError, ValueError, KeyError, TypeError) as exc:
            raise ToolError(_one_line(exc)) from exc
        except Exception as exc:  # noqa: BLE001 - reported to the client, logged here
            logging.getLogger("midas_graph.mcp").exception("tool %s failed", fn.__name__)
            raise ToolError(f"unexpected {type(exc).__name__}: {_one_line(exc)[:200]}") from exc

    return wrapper


# -- JSON shapes -------------------------------------------------------------------

def _iso(dt: _dt.datetime | None) -> str | None:
    return None if dt is None else dt.isoformat()


def entity_dict(e: Entity) -> dict[str, Any]:
    d = asdict(e)
    d["aliases"] = list(e.aliases)
    d["created_at"] = _iso(e.created_at)
    return d


def _context_item(item: Any) -> dict[str, Any]:
    obj = item.fact if item.fact is not None else item.episode
    return {
        "kind": item.kind,
        "id": obj.id if obj is not None else None,
        "text": item.text,
        "score": round(float(item.score), 6),
        "source": item.source,
        "source_name": item.source_name,
        "time": _iso(item.time),
        "superseded": item.superseded,
        "provenance": obj.provenance if obj is not None else None,
        "fact": item.fact.to_dict() if item.fact is not None else None,
        "episode": item.episode.to_dict() if item.episode is not None else None,
    }


def build_server(memory: Memory, *, group_id: str = "default", name: str = "midas-graph",
                 log_level: str = "WARNING", keys: dict[str, Grant] | None = None) -> MCPServer:
    """An MCP server exposing ``memory``: a :class:`Memory`, or anything with
    its public methods (``midas_graph.cluster.ClusterMemory``, whose calls go
    to the shard actor of their group). ``group_id`` is the group a tool
    uses when the call names none. ``keys`` (from :func:`~midas_graph._access.load_keys`):
    over HTTP, every request needs one of these bearer tokens, and each tool
    keeps to the groups its token grants (its default group replaces
    ``group_id``). The caller keeps ownership of ``memory``."""
    from . import __version__

    mem = memory
    default_group = group_id
    verifier = KeyVerifier(keys) if keys else None
    auth: dict[str, Any] = {}
    if verifier is not None:
        from mcp.server.auth.settings import AuthSettings

        # The SDK requires an issuer URL; with no resource_server_url it serves no OAuth
        # metadata: tokens come from the keys file, not from an authorization server.
        auth = {"token_verifier": verifier,
                "auth": AuthSettings(issuer_url="http://127.0.0.1", resource_server_url=None)}
    server = MidasMCPServer(name, title="midas_graph memory", instructions=INSTRUCTIONS, version=__version__,
                            log_level=log_level, **auth)  # type: ignore[arg-type]
    single_user = Grant(None, default_group)

    def grant() -> Grant:
        """The caller's grant: its token's, or every group for the one user."""
        if verifier is None:
            return single_user
        from mcp.server.auth.middleware.auth_context import get_access_token

        token = get_access_token()
        found = verifier.by_client.get(token.client_id) if token is not None else None
        if found is None:  # the SDK's middleware lets no request without a valid token through
            raise ToolError("unauthorized: this server requires a bearer token")
        return found

    def one_group(group: str | None, field: str = "group_id") -> str:
        """The group a call names, if granted; its default when it names none (None or "")."""
        g = grant()
        if not group:
            return g.default
        if not g.allows(group):
            raise InvalidInputError(field, f"group {group!r} is not granted to this client")
        return group

    def some_groups(groups: Any) -> list[str]:
        g = grant()
        out = _groups(groups, g.default)
        for x in out:
            if not g.allows(x):
                raise InvalidInputError("group_ids", f"group {x!r} is not granted to this client")
        return out

    def own_versions(fact_id: str) -> list[Fact]:
        """Every version of a fact of the caller's groups; another group's is not found."""
        versions = mem.versions(fact_id)
        if not grant().allows(versions[0].group_id):
            raise fact_not_found(fact_id)
        return versions

    def own_episode(episode_id: str, group: str | None = None) -> Episode:
        """The caller's episode with this id (ids are per group); another group's is not found."""
        if not isinstance(episode_id, str) or not episode_id.strip():
            raise InvalidInputError("uuid", "must be a non-empty string")
        g = grant()
        if group:
            return mem.episode(episode_id, group_id=one_group(group))
        if g.groups is None:
            return mem.episode(episode_id)
        found = []
        for x in sorted(g.groups):
            try:
                found.append(mem.episode(episode_id, group_id=x))
            except NotFoundError:
                pass
        if not found:
            raise episode_not_found(episode_id)
        if len(found) > 1:
            raise InvalidInputError("group_id", f"episode {episode_id!r} is in several of your groups "
                                                f"({', '.join(e.group_id for e in found)}): say which")
        return found[0]

    def lookup(item_id: str) -> Fact | Episode:
        """The stored fact (latest version) or episode with this id, of the caller's groups."""
        if not isinstance(item_id, str) or not item_id.strip():
            raise ValueError("fact_ids: every id must be a non-empty string")
        try:
            return own_versions(item_id)[-1]
        except KeyError:
            pass
        try:
            return own_episode(item_id)
        except KeyError:
            raise ValueError(f"fact_ids: no fact or episode with id {item_id!r}") from None
    # bm25s sets its own logger to DEBUG on import; the SDK's handler would print every index build.
    import bm25s  # noqa: F401

    logging.getLogger("bm25s").setLevel(max(logging.getLevelName(log_level), logging.INFO))

    def tool(annotations: ToolAnnotations):
        def register(fn):
            server.add_tool(_guarded(fn), name=fn.__name__, description=fn.__doc__, annotations=annotations)
            return fn

        return register

    # -- Graphiti-compatible tools ------------------------------------------------------
    @tool(_ADD)
    def add_memory(
        name: Annotated[str, Field(description="A short name for the episode.")],
        episode_body: Annotated[str, Field(description="The message or text, verbatim.")],
        group_id: Optional[str] = None,
        source: Annotated[Literal["text", "message", "json"], Field(description="Kind of content.")] = "text",
        source_description: str = "",
        uuid: Annotated[Optional[str], Field(description="Store the episode under this id (default a new UUID).")
                        ] = None,
        reference_time: IsoTime = None,
        speaker: Annotated[str, Field(description="Who said it; first person ('I', 'my') means them.")] = "user",
        provenance: Annotated[
            Literal["observation", "user_confirmation", "planning", "action"],
            Field(description="user_confirmation only when the user confirmed it."),
        ] = "observation",
    ) -> dict[str, Any]:
        """Add an episode (a message or a text) to memory. It is stored verbatim, its facts are extracted
        locally (no LLM) and what it contradicts is superseded, all before this call returns. reference_time
        is when it was said (default now) and anchors relative times ("last week")."""
        r = mem.add_episode(
            episode_body, speaker=speaker, reference_time=reference_time, group_id=one_group(group_id),
            source=source, provenance=provenance, name=name, source_description=source_description,
            episode_id=uuid,
        )
        return {
            "message": f"Episode '{name}' added: {len(r.facts)} fact(s) recorded, {len(r.superseded)} closed",
            "episode": r.episode.to_dict(),
            "facts": [f.to_dict() for f in r.facts],
            "superseded": [f.to_dict() for f in r.superseded],
            "entities": [entity_dict(e) for e in r.entities],
        }

    @tool(_ADD)
    def add_triplet(
        source_node_name: Annotated[str, Field(description="The subject, e.g. 'Alice'.")],
        edge_name: Annotated[str, Field(description="The attribute or relation, e.g. 'lives_in' or 'WORKS_AT'.")],
        target_node_name: Annotated[str, Field(description="The value, e.g. 'Berlin' (an entity if it names one).")],
        fact: Annotated[Optional[str], Field(description="The sentence it comes from (default: built).")] = None,
        group_id: Optional[str] = None,
        valid_at: IsoTime = None,
        invalid_at: IsoTime = None,
        provenance: Annotated[
            Literal["observation", "user_confirmation", "planning", "action"],
            Field(description="user_confirmation only when the user confirmed it."),
        ] = "observation",
    ) -> dict[str, Any]:
        """Store your own (subject, relation, value) triple as a fact, with no extraction. valid_at / invalid_at
        bound when it was true; a new value of a single-valued attribute (lives_in, employer, ...) supersedes
        the old one."""
        # The tool's own argument names in errors (the library says valid_from / valid_to).
        start, end = parse_time(valid_at, "valid_at"), parse_time(invalid_at, "invalid_at")
        if start is not None and end is not None and end <= start:
            raise InvalidInputError("invalid_at", f"must be after valid_at ({end.isoformat()} <= {start.isoformat()})")
        names = {"subject": "source_node_name", "attribute": "edge_name", "value": "target_node_name",
                 "text": "fact"}
        try:
            f = mem.add_fact(
                source_node_name, edge_name, target_node_name, text=fact, group_id=one_group(group_id),
                valid_from=start, valid_to=end, provenance=provenance, source="mcp add_triplet",
            )
        except InvalidInputError as exc:
            if exc.field not in names:
                raise
            raise InvalidInputError(names[exc.field], str(exc).split(": ", 1)[-1]) from None
        return {"message": f"Fact {f.id} recorded", "fact": f.to_dict(),
                "supersedes": list(f.supersedes)}

    @tool(_READ)
    def search_memory_facts(
        query: str,
        group_ids: GroupIds = None,
        max_facts: Annotated[int, Field(ge=1, le=200)] = 10,
        center_node_uuid: Annotated[Optional[str], Field(description="Rank facts about this entity id first.")] = None,
        edge_types: Annotated[Optional[list[str]], Field(description="Only these attributes (e.g. lives_in).")] = None,
        valid_at_after: IsoTime = None,
        valid_at_before: IsoTime = None,
        invalid_at_after: IsoTime = None,
        invalid_at_before: IsoTime = None,
        valid_at: Annotated[
            Optional[str], Field(description="Search the world as it was at this time (default now).")
        ] = None,
    ) -> dict[str, Any]:
        """Search facts relevant to query (graph walk + BM25 + vectors). By default only facts true now, as
        believed now; valid_at searches another time. The range filters select on when a fact became true
        (valid_at = its valid_from) and stopped being true (invalid_at = its valid_to; an open fact has none);
        with an invalid_at filter, facts that have ended (superseded ones too) are searched as well."""
        lo_v, hi_v = parse_time(valid_at_after, "valid_at_after"), parse_time(valid_at_before, "valid_at_before")
        lo_i, hi_i = parse_time(invalid_at_after, "invalid_at_after"), parse_time(invalid_at_before, "invalid_at_before")
        at = parse_time(valid_at, "valid_at")
        if not isinstance(query, str) or not query.strip():
            raise ValueError("query: must not be empty")
        attrs = {mem.registry.key(t) for t in edge_types} if edge_types else None
        past = lo_i is not None or hi_i is not None  # asks about facts that ended
        now = mem.now()
        scored: list[tuple[float, Fact]] = []
        for g in some_groups(group_ids):
            hits = mem.recall(query, k=max(4 * max_facts, 40), valid_at=at, known_at=now, group_id=g,
                              include_past=past)
            for h in hits:
                f = h.fact
                if f is None:
                    continue
                if attrs is not None and f.attribute not in attrs:
                    continue
                if lo_v is not None and f.valid_from < lo_v or hi_v is not None and f.valid_from > hi_v:
                    continue
                if (lo_i is not None or hi_i is not None) and f.valid_to is None:
                    continue
                if lo_i is not None and f.valid_to < lo_i or hi_i is not None and f.valid_to > hi_i:
                    continue
                scored.append((h.score, f))
        if center_node_uuid:
            scored.sort(key=lambda sf: (center_node_uuid not in (sf[1].subject_id, sf[1].object_id), -sf[0]))
        else:
            scored.sort(key=lambda sf: -sf[0])
        facts = [{**f.to_dict(), "score": round(float(s), 6)} for s, f in scored[:max_facts]]
        return {"message": "Facts retrieved" if facts else "No relevant facts found", "facts": facts}

    @tool(_READ)
    def search_nodes(
        query: str,
        group_ids: GroupIds = None,
        max_nodes: Annotated[int, Field(ge=1, le=200)] = 10,
        entity_types: Annotated[
            Optional[list[str]], Field(description="Only entities of these kinds (PERSON, GPE, ORG, CONCEPT...).")
        ] = None,
        center_node_uuid: Annotated[
            Optional[str], Field(description="This entity, then those one current fact away from it, first.")
        ] = None,
    ) -> dict[str, Any]:
        """Search entities (people, places, things) by name and alias similarity."""
        kinds = {k.upper() for k in entity_types} if entity_types else None
        found: list[tuple[float, Entity]] = []
        for g in some_groups(group_ids):
            k = max_nodes * 4 if kinds else max_nodes
            for e, score in mem.search_entities(query, k=k, group_id=g, near=center_node_uuid or None):
                if kinds is None or e.kind.upper() in kinds:
                    found.append((score, e))
        if not center_node_uuid:  # else keep search_entities' order: the center's neighbourhood first
            found.sort(key=lambda se: -se[0])
        nodes = [{**entity_dict(e), "score": round(float(s), 6)} for s, e in found[:max_nodes]]
        return {"message": "Nodes retrieved" if nodes else "No relevant nodes found", "nodes": nodes}

    @tool(_READ)
    def get_episodes(group_ids: GroupIds = None, max_episodes: Annotated[int, Field(ge=1, le=100_000)] = 10
                     ) -> dict[str, Any]:
        """The most recent episodes of the groups (oldest first within each group)."""
        episodes: list[Episode] = []
        for g in some_groups(group_ids):
            episodes.extend(mem.episodes(group_id=g, last_n=max_episodes))
        return {"message": "Episodes retrieved" if episodes else "No episodes found",
                "episodes": [e.to_dict() for e in episodes]}

    @tool(_READ)
    def get_entity_edge(uuid: Annotated[str, Field(description="A fact id.")]) -> dict[str, Any]:
        """One fact (entity edge) by id, as its latest version, with every version's interval."""
        versions = own_versions(uuid)
        return {**versions[-1].to_dict(), "versions": [f.to_dict() for f in versions]}

    @tool(_RETRACT)
    def delete_entity_edge(uuid: Annotated[str, Field(description="A fact id.")]) -> dict[str, Any]:
        """Retract a fact that was wrong. Nothing is physically deleted: the fact stops being believed from
        now on, whatever it had superseded is re-opened, and history / as_of(known_at=earlier) still show it."""
        group = own_versions(uuid)[0].group_id
        f = mem.retract(uuid, reason="retracted via MCP delete_entity_edge", group_id=group)
        return {"message": f"Fact {uuid} retracted (kept in history; nothing was physically deleted)",
                "fact": f.to_dict()}

    @tool(_RETRACT)
    def delete_episode(
        uuid: Annotated[str, Field(description="An episode id.")],
        group_id: Annotated[Optional[str], Field(
            description="Its group, when the same id is in several of yours (episode ids are per group).")] = None,
    ) -> dict[str, Any]:
        """Remove an episode: the facts it stated are retracted (kept in history), every belief it closed
        (superseded, ended or corrected) holds again unless changed since, and the episode itself is deleted."""
        ep = own_episode(uuid, group_id)
        retracted = mem.remove_episode(uuid, group_id=ep.group_id)
        return {"message": f"Episode {uuid} deleted; {len(retracted)} fact(s) retracted (kept in history)",
                "retracted": [f.to_dict() for f in retracted]}

    @tool(_RETRACT)
    def clear_graph(group_ids: GroupIds = None) -> dict[str, Any]:
        """Delete everything in the groups (default: the server's group). This one does physically delete:
        call it only when the user explicitly asks to wipe the memory."""
        cleared = {g: mem.clear(group_id=g) for g in some_groups(group_ids)}
        return {"message": f"Cleared {', '.join(cleared)}", "cleared": cleared}

    @tool(_READ)
    def get_status() -> dict[str, Any]:
        """Server and database status (counts of your groups)."""
        g = grant()
        out = {"status": "ok", "message": "midas_graph memory is running", "engine": mem.engine,
               "group_id": g.default, "version": __version__}
        if g.groups is None:
            return {**out, "path": mem.path, "counts": mem.stats()}
        counts: dict[str, int] = {}
        for x in sorted(g.groups):
            for k, v in mem.stats(group_id=x).items():
                counts[k] = counts.get(k, 0) + v
        return {**out, "groups": sorted(g.groups), "counts": counts}

    # -- midas_graph tools -------------------------------------------------------------
    @tool(_ADD)
    def forget_memory(
        keep_fraction: Annotated[Optional[float], Field(ge=0, le=1, description=(
            "Keep at most this share of the group's episodes hot."))] = None,
        max_episodes: Annotated[Optional[int], Field(ge=0, description="Keep at most this many hot.")] = None,
        max_bytes: Annotated[Optional[int], Field(ge=0, description=(
            "Keep what the episodes store under this (cold ones keep their text)."))] = None,
        policy: Literal["value", "structural", "content", "graph", "fifo"] = "value",
        dry_run: Annotated[bool, Field(description="Only say what would go cold.")] = False,
        group_id: Optional[str] = None,
        purge: Annotated[bool, Field(description=(
            "Also delete the text of every cold episode (privacy; not undone): a stub with its id, times "
            "and a digest of the deleted text stays."))] = False,
        warm: Annotated[Optional[list[str]], Field(description=(
            "Instead: make these cold episodes hot again (back in search)."))] = None,
    ) -> dict[str, Any]:
        """Bound the memory's growth: the least important episodes go cold, out of
        search, their text still readable by id. No fact changes: as_of and history answer the same. Never
        forgotten: episodes facts came from, that changed a belief, user confirmations, the last day."""
        group = one_group(group_id)
        if warm:
            eps = mem.warm(warm, group_id=group)
            return {"message": f"{len(eps)} episode(s) hot", "episodes": [e.id for e in eps]}
        report = mem.forget(keep_fraction=keep_fraction, max_episodes=max_episodes, max_bytes=max_bytes,
                            policy=policy, group_id=group, dry_run=dry_run, purge=purge)
        verb = "would go" if dry_run else "went"
        purged = f"; {len(report.purged)} purged" if purge else ""
        return {"message": f"{len(report.cold)} episode(s) {verb} cold{purged}"
                + (f"; {report.message}" if report.message else ""), **report.to_dict()}

    @tool(_ADD)
    def consolidate_memory(
        threshold: Annotated[Optional[float], Field(ge=0.5, le=1.0, description=(
            "Two turns of one speaker at least this similar (cosine) say the same thing (default 0.92)."))] = None,
        dry_run: Annotated[bool, Field(description="Only say which restatements would go cold.")] = False,
        group_id: Optional[str] = None,
    ) -> dict[str, Any]:
        """Where a speaker said the same thing again, keep one turn (the most valuable) and make the others
        cold, out of search, their text still readable by id (cold_reason dup_of:<kept id>). Nothing is
        rewritten and no fact changes. forget_memory(warm=[ids]) brings them back."""
        report = mem.consolidate(threshold, group_id=one_group(group_id), dry_run=dry_run)
        verb = "would go" if dry_run else "went"
        return {"message": f"{len(report['cold'])} restatement(s) {verb} cold in {report['groups']} group(s)",
                **report}

    @tool(_READ)
    def as_of(
        subject: Annotated[str, Field(description="Entity name or alias (case-insensitive); 'user' for the user.")],
        attribute: Annotated[Optional[str], Field(description="Only this attribute, e.g. lives_in.")] = None,
        valid_at: Annotated[Optional[str], Field(description="World time asked about (default now).")] = None,
        known_at: Annotated[
            Optional[str], Field(description="Memory time: what the memory believed then (default now).")
        ] = None,
        group_id: Optional[str] = None,
    ) -> dict[str, Any]:
        """What the memory believed at known_at about subject at valid_at (both default to now)."""
        facts = mem.as_of(subject, attribute, valid_at=valid_at, known_at=known_at,
                          group_id=one_group(group_id))
        return {"subject": subject, "attribute": attribute, "valid_at": valid_at or "now",
                "known_at": known_at or "now", "facts": [f.to_dict() for f in facts],
                "message": f"{len(facts)} fact(s)" if facts else "nothing known"}

    @tool(_READ)
    def history(
        subject: Annotated[str, Field(description="Entity name or alias (case-insensitive).")],
        attribute: Optional[str] = None,
        group_id: Optional[str] = None,
    ) -> dict[str, Any]:
        """Every version of every belief about subject: current, superseded, ended and retracted, with their
        valid and recorded intervals and the links between them."""
        facts = mem.history(subject, attribute, group_id=one_group(group_id))
        return {"subject": subject, "attribute": attribute, "facts": [f.to_dict() for f in facts],
                "message": f"{len(facts)} version(s)" if facts else "nothing known"}

    @tool(_READ)
    def get_context(
        query: Annotated[str, Field(description="The question to answer.")],
        budget_tokens: Annotated[int, Field(ge=16, le=32768)] = 512,
        valid_at: IsoTime = None,
        known_at: IsoTime = None,
        group_id: Optional[str] = None,
        speaker: Annotated[str, Field(description="Who asks (first person in the query).")] = "user",
    ) -> dict[str, Any]:
        """A grounded, time-stamped context for answering query, within budget_tokens, or an explicit
        abstention. When abstain is true the memory holds nothing about what was asked: say you don't know."""
        ctx = mem.context(query, budget_tokens=budget_tokens, valid_at=valid_at, known_at=known_at,
                          group_id=one_group(group_id), speaker=speaker)
        return {"query": ctx.query, "abstain": ctx.abstain, "reason": ctx.reason, "tokens": ctx.tokens,
                "text": ctx.text, "items": [_context_item(i) for i in ctx.items]}

    @tool(_READ)
    def check_memory_use(
        use: Annotated[Literal["planning", "action"], Field(
            description="planning (anything may guide it) or action (an external or destructive step).")],
        fact_ids: Annotated[Optional[list[str]], Field(description="Ids of the facts or episodes to rely on.")] = None,
        items: Annotated[Optional[list[dict[str, Any]]], Field(
            description="Items as returned by get_context / search_memory_facts (their ids are looked up).")] = None,
        approved: Annotated[Optional[list[str]], Field(
            description="Ids the user has just explicitly approved for this action.")] = None,
    ) -> dict[str, Any]:
        """The provenance guard: which memories may back what you are about to do. An action may rest only on
        memories the user confirmed or has just approved. Provenance is read from the memory, not from the
        items passed in."""
        ids = list(fact_ids or []) + [_item_id(it, n) for n, it in enumerate(items or [])]
        if not ids:
            raise ValueError("fact_ids: give the ids (or items) of the memories to rely on")
        stored = [lookup(i) for i in dict.fromkeys(ids)]
        decision = mem.guard_reliance(stored, use, approved=approved or ())
        out = {
            "use": decision.use,
            "allowed": decision.allowed,
            "passed": [_brief(x) for x in decision.passed],
            "excluded": [_brief(x) for x in decision.excluded],
            "reasons": decision.reasons,
        }
        if use == "action":
            out["advice"] = (
                "You may act on the passed memories only." if decision.allowed and not decision.excluded else
                "You may act on the passed memories only; do not rely on the excluded ones without asking the user."
                if decision.allowed else
                "Do not act: ask the user to confirm, then call again with the confirmed ids in approved."
            )
        return out

    return server


def _item_id(item: Any, n: int) -> str:
    if isinstance(item, dict):
        for obj in (item, item.get("fact"), item.get("episode")):
            if isinstance(obj, dict) and isinstance(obj.get("id"), str) and obj["id"]:
                return obj["id"]
    raise ValueError(f"items[{n}]: carries no id (pass items as returned by get_context or search_memory_facts)")


def _brief(x: Fact | Episode) -> dict[str, Any]:
    if isinstance(x, Fact):
        return {"id": x.id, "kind": "fact", "provenance": x.provenance, "text": x.text, "status": x.status}
    return {"id": x.id, "kind": "episode", "provenance": x.provenance, "text": x.content}


def serve(path: str | None, *, http_port: int | None = None, engine: str | None = None,
          group_id: str = "default", host: str = "127.0.0.1", log_level: str = "WARNING",
          keys: str | None = None, shards: int | None = None, shard_dir: str | None = None,
          address: str | None = None, num_cpus: int | None = None) -> None:
    """Open the memory at ``path`` and serve it: over stdio, or over
    streamable HTTP at ``http://host:http_port/mcp`` when ``http_port`` is given.

    ``shard_dir``: serve the sharded memory there instead (``shards`` files
    when new), one Ray actor per shard (``midas_graph.cluster``: a local Ray
    with ``num_cpus``, or the cluster at ``address``); each tool call goes
    to the actor of its group.

    ``keys``: a keys file (``_access``); HTTP then requires its bearer
    tokens. Without one, HTTP serves a loopback ``host`` only (anyone who can
    reach the port could otherwise read and delete every group). stdio is
    one user, the one who started it: it takes no keys."""
    if keys is not None and http_port is None:
        raise InvalidInputError("keys", "bearer tokens are for --http: over stdio the server has one user, "
                                        "the process that started it")
    grants = load_keys(keys) if keys is not None else None
    if http_port is not None and grants is None and not is_loopback(host):
        raise InvalidInputError("host", f"{host!r} is not a loopback address: serving beyond this machine "
                                        f"needs bearer tokens (--keys FILE; docs/mcp.md)")
    if shard_dir is not None:
        from .cluster import Cluster

        mem: Any = Cluster(shard_dir, shards, address=address, num_cpus=num_cpus, engine=engine).memory()
        where = f"{mem.layout.n} shards in {shard_dir}"
    elif shards is not None:
        raise InvalidInputError("shards", "a sharded memory needs its directory (--dir)")
    else:
        mem = Memory(path, engine=engine)
        where = f"db {path}"
    _on_terminate(mem, stdio=http_port is None)
    try:
        server = build_server(mem, group_id=group_id, log_level=log_level, keys=grants)
        if http_port is None:
            _ready(f"MCP over stdio, {where}")  # what a client writes to stdin now waits for us
            server.run("stdio")
        else:
            import anyio

            anyio.run(_serve_http, server, host, http_port, f"MCP over http://{host}:{http_port}/mcp, {where}")
    except KeyboardInterrupt:  # Ctrl-C / SIGINT: uvicorn has shut down cleanly; close and exit 0
        pass
    finally:
        mem.close()


#: The line ``serve`` writes on stderr once it takes requests (the memory
#: open, SIGTERM handled, over HTTP the port listening): what a supervisor or
#: a test waits for instead of sleeping.
READY = "midas-graph: ready"


def _ready(what: str) -> None:
    import sys

    sys.stderr.write(f"{READY} ({what})\n")
    sys.stderr.flush()


async def _serve_http(server: MCPServer, host: str, port: int, what: str) -> None:
    """``server.run("streamable-http")``, announcing :data:`READY` once
    uvicorn listens (it binds after its startup, which installs its signal
    handlers and restores ours on shutdown)."""
    import uvicorn

    class Announcing(uvicorn.Server):
        async def startup(self, sockets=None) -> None:  # type: ignore[override]
            await super().startup(sockets=sockets)
            if not self.should_exit:
                _ready(what)

    app = server.streamable_http_app(host=host)
    await Announcing(uvicorn.Config(app, host=host, port=port, log_level=server.settings.log_level.lower())).serve()


def _on_terminate(mem: Memory, *, stdio: bool) -> None:
    """SIGTERM (process managers, ``docker stop``, a client closing us) shuts
    down cleanly: the memory is closed (checkpointed), the exit code is 0.

    Over HTTP it is handled like Ctrl-C (uvicorn finishes its requests first).
    Over stdio the SDK's reader thread would hold the process until stdin
    closes, so the memory is closed at once (after the write in flight, if
    any: closing takes the store lock) and the process exits."""
    import os
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return

    def handler(signum, frame):  # noqa: ARG001
        if not stdio:
            raise KeyboardInterrupt
        mem.close()
        os._exit(0)

    signal.signal(signal.SIGTERM, handler)
