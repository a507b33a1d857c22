"""The ``midas-graph`` command line: the library's verbs, one command each.

Exit codes: 0 ok, 1 error (one line on stderr, no traceback), 2 usage.
"""

from __future__ import annotations

import datetime as _dt
import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer
from rich.console import Console
from rich.table import Table

from . import _io
from ._errors import MidasError
from ._memory import Memory
from ._types import Fact

app = typer.Typer(
    name="midas-graph",
    help=(
        "Bitemporal knowledge-graph memory for AI agents.\n\n"
        "Facts are entity-attribute-value beliefs with a valid time (when true in the world) "
        "and a transaction time (when the memory held them). Nothing is deleted: ask what was "
        "true at any date, what the memory believed at any date, and how a belief evolved."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
# Piped output (CI logs, `make demo | less`) gets a wide table rather than 80 columns.
out = Console(width=None if sys.stdout.isatty() else 140)
err = Console(stderr=True)


class _Settings:
    db: str = "midas.db"
    engine: Optional[str] = None
    read_only: bool = False


settings = _Settings()


@app.callback()
def _main(
    db: str = typer.Option(
        "midas.db", "--db", envvar="MIDAS_GRAPH_DB", help="Database file (created if missing).",
        show_default=True,
    ),
    engine: Optional[str] = typer.Option(
        None, "--engine", envvar="MIDAS_GRAPH_ENGINE",
        help="Graph engine: ladybug (default) or kuzu.",
    ),
    read_only: bool = typer.Option(
        False, "--read-only", envvar="MIDAS_GRAPH_READ_ONLY",
        help="Open the database read-only: reads beside a process that writes to it; writes are refused.",
    ),
) -> None:
    settings.db, settings.engine, settings.read_only = db, engine, read_only


@contextmanager
def _memory() -> Iterator[Memory]:
    mem = Memory(settings.db, engine=settings.engine, read_only=settings.read_only)
    try:
        yield mem
    finally:
        mem.close()


def _when(dt: _dt.datetime | None) -> str:
    if dt is None:
        return "…"
    if dt.hour == dt.minute == dt.second == dt.microsecond == 0:
        return dt.date().isoformat()
    return dt.strftime("%Y-%m-%d %H:%M")


def _short(fid: str | None) -> str:
    return fid[:8] if fid else ""


def _print_json(obj) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def facts_table(facts: list[Fact], title: str, *, why: bool = True, ids: bool = True) -> Table:
    """A timeline table of fact versions (the attribute column is left out
    when all rows share one)."""
    table = Table(title=title, title_justify="left", show_lines=False)
    one_attribute = len({f.attribute for f in facts}) == 1 and why
    if not one_attribute:
        table.add_column("attribute", style="cyan", no_wrap=True)
    table.add_column("value", style="bold", min_width=8, overflow="fold")
    table.add_column("valid", no_wrap=True)
    table.add_column("recorded", no_wrap=True)
    table.add_column("status", no_wrap=True)
    if ids:
        table.add_column("id", style="dim", no_wrap=True)
    if why:
        table.add_column("why", style="dim", min_width=24)
    styles = {"current": "green", "superseded": "yellow", "retracted": "red", "revised": "dim", "ended": "blue"}
    for f in facts:
        status = f.status
        row = [] if one_attribute else [f.attribute]
        row += [
            str(f.value), f"{_when(f.valid_from)} → {_when(f.valid_to)}",
            f"{_when(f.recorded_at)} → {_when(f.expired_at)}", f"[{styles.get(status, '')}]{status}[/]",
        ]
        if ids:
            row.append(f"{_short(f.id)}.v{f.version}")
        if why:
            reason = f.expire_reason if f.expired_at is not None else f.reason
            if f.superseded_by and f.expired_at is None:
                reason = f"{reason}" if _short(f.superseded_by) in reason else f"{reason}; by {_short(f.superseded_by)}"
            row.append(_shorten_ids(reason or ""))
        table.add_row(*row)
    return table


def _shorten_ids(text: str) -> str:
    import re

    return re.sub(r"\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", r"\1", text)


# -- commands ----------------------------------------------------------------------

@app.command("add-fact")
def add_fact(
    subject: str = typer.Argument(..., help="Who or what the fact is about."),
    attribute: str = typer.Argument(..., help="Attribute, e.g. lives_in (normalised to snake case)."),
    value: str = typer.Argument(..., help="The value."),
    valid_from: Optional[str] = typer.Option(None, help="When it became true (ISO-8601; default now)."),
    valid_to: Optional[str] = typer.Option(None, help="When it stopped being true (default: open)."),
    text: Optional[str] = typer.Option(None, help="The fact as a sentence."),
    kind: str = typer.Option("str", "--type", help="Value type: str, int, float, bool or datetime."),
    group: str = typer.Option("default", help="Tenant group."),
    provenance: str = typer.Option("observation", help="planning | action | observation | user_confirmation"),
    source: Optional[str] = typer.Option(None, help="Free-form source description."),
    as_json: bool = typer.Option(False, "--json", help="Print the stored fact as JSON."),
) -> None:
    """Record one fact; supersede what it contradicts."""
    with _memory() as mem:
        f = mem.add_fact(subject, attribute, _coerce(value, kind), valid_from=valid_from, valid_to=valid_to,
                         text=text, group_id=group, provenance=provenance, source=source)
    if as_json:
        _print_json(f.to_dict())
    else:
        msg = f"recorded {f.subject}.{f.attribute} = {f.value!s} (id {f.id})"
        if f.supersedes:
            msg += f"; superseded {', '.join(_short(s) for s in f.supersedes)}"
        out.print(msg, highlight=False, markup=False)


def _coerce(value: str, kind: str):
    try:
        if kind == "str":
            return value
        if kind == "int":
            return int(value)
        if kind == "float":
            return float(value)
        if kind == "bool":
            if value.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError(value)
            return value.lower() in ("true", "yes", "1")
        if kind == "datetime":
            return value  # validated by the library as a time
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not a valid {kind}", param_hint="VALUE") from None
    raise typer.BadParameter(f"unknown type {kind!r}", param_hint="--type")


@app.command("retract")
def retract(
    fact_id: str = typer.Argument(..., help="Id of the fact that was wrong."),
    reason: Optional[str] = typer.Option(None, help="Why (kept in the history)."),
) -> None:
    """Mark a belief as wrong; re-open what it had superseded."""
    with _memory() as mem:
        f = mem.retract(fact_id, reason=reason)
    out.print(f"retracted {f.subject}.{f.attribute} = {f.value!s} ({f.id})", highlight=False, markup=False)


@app.command("alias")
def alias(name: str, other: str, group: str = typer.Option("default", help="Tenant group.")) -> None:
    """Make OTHER another name of the entity NAME."""
    with _memory() as mem:
        e = mem.add_alias(name, other, group_id=group)
    out.print(f"{e.name}: {', '.join(e.aliases)}", highlight=False, markup=False)


@app.command("import")
def import_(
    file: str = typer.Argument(..., help="JSONL file ('-' for stdin): an export, or rows of facts."),
    group: str = typer.Option("default", help="Group of plain rows that name none."),
    batch_size: int = typer.Option(20_000, min=1, help="Facts per transaction."),
) -> None:
    """Import JSONL: restore an export verbatim (every row checked first), or add plain fact rows; print what was written."""
    fp = sys.stdin if file == "-" else _open(file)
    with fp, _memory() as mem:
        report = _io.import_rows(mem, _io.read_jsonl(fp, file), group_id=group, batch_size=batch_size)
    out.print(", ".join(f"{v} {k.replace('_', ' ')}" for k, v in report.items()), highlight=False)


def _open(file: str):
    path = Path(file)
    if not path.is_file():
        raise MidasError(f"{file}: no such file")
    return path.open(encoding="utf-8")


@app.command("export")
def export(
    output: Optional[str] = typer.Option(None, "-o", "--output", help="File to write (default stdout)."),
) -> None:
    """Write the whole memory as JSONL: entities, names, episodes, every version, vectors (docs/export.md)."""
    with _memory() as mem:
        if output is None:
            _io.write_jsonl(_io.export_rows(mem), sys.stdout)
        else:
            # Written beside the target and renamed once whole: a failed export
            # (a damaged row, a full disk) leaves no half file under its name.
            import os
            import tempfile

            target = os.path.abspath(output)
            fd, tmp = tempfile.mkstemp(prefix=".export-", suffix=".jsonl", dir=os.path.dirname(target))
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fp:
                    n = _io.write_jsonl(_io.export_rows(mem), fp)
                os.replace(tmp, target)
            except BaseException:
                os.unlink(tmp)
                raise
            err.print(f"wrote {n} rows to {output}", highlight=False)


@app.command("as-of")
def as_of(
    subject: str = typer.Argument(..., help="Entity name or alias (case-insensitive)."),
    attribute: Optional[str] = typer.Option(None, "--attribute", "-a", help="Only this attribute."),
    valid_at: Optional[str] = typer.Option(None, help="World time asked about (default now)."),
    known_at: Optional[str] = typer.Option(None, help="Memory time: what it believed then (default now)."),
    group: str = typer.Option("default", help="Tenant group."),
    as_json: bool = typer.Option(False, "--json", help="JSON output."),
) -> None:
    """What the memory believed at KNOWN_AT about SUBJECT at VALID_AT."""
    with _memory() as mem:
        facts = mem.as_of(subject, attribute, valid_at=valid_at, known_at=known_at, group_id=group)
    if as_json:
        _print_json([f.to_dict() for f in facts])
        return
    title = f"{subject} — true at {valid_at or 'now'}, as believed at {known_at or 'now'}"
    if not facts:
        out.print(f"{title}: nothing known", highlight=False)
        return
    out.print(facts_table(facts, title, why=False))


@app.command("current")
def current(
    subject: str = typer.Argument(..., help="Entity name or alias."),
    attribute: Optional[str] = typer.Option(None, "--attribute", "-a"),
    group: str = typer.Option("default", help="Tenant group."),
    as_json: bool = typer.Option(False, "--json", help="JSON output."),
) -> None:
    """What is true now, as the memory believes now."""
    as_of(subject, attribute, None, None, group, as_json)


@app.command("history")
def history(
    subject: str = typer.Argument(..., help="Entity name or alias."),
    attribute: Optional[str] = typer.Option(None, "--attribute", "-a", help="Only this attribute."),
    group: str = typer.Option("default", help="Tenant group."),
    as_json: bool = typer.Option(False, "--json", help="JSON output (every version, every field)."),
) -> None:
    """Every version of every belief about SUBJECT, as a timeline."""
    with _memory() as mem:
        facts = mem.history(subject, attribute, group_id=group)
    if as_json:
        _print_json([f.to_dict() for f in facts])
        return
    if not facts:
        out.print(f"{subject}: nothing known", highlight=False)
        return
    out.print(facts_table(facts, f"History of {facts[0].subject}"))


@app.command("add-episode")
def add_episode(
    content: str = typer.Argument(..., help="The message or text, verbatim ('-' reads stdin)."),
    speaker: str = typer.Option("user", help="Who said it (first person resolves to them)."),
    reference_time: Optional[str] = typer.Option(None, help="When it was said (ISO-8601; default now)."),
    group: str = typer.Option("default", help="Tenant group."),
    provenance: str = typer.Option("observation", help="planning | action | observation | user_confirmation"),
    as_json: bool = typer.Option(False, "--json", help="JSON output."),
) -> None:
    """Store a message and the facts it states (spaCy + local NLI, no LLM)."""
    if content == "-":
        content = sys.stdin.read()
    with _memory() as mem:
        r = mem.add_episode(content, speaker=speaker, reference_time=reference_time, group_id=group,
                            provenance=provenance)
    if as_json:
        _print_json({"episode": r.episode.to_dict(), "facts": [f.to_dict() for f in r.facts],
                     "superseded": [f.to_dict() for f in r.superseded],
                     "entities": [e.name for e in r.entities]})
        return
    out.print(f"episode {r.episode.id}: {len(r.facts)} fact(s), {len(r.superseded)} closed", highlight=False)
    for f in r.facts:
        out.print(f"  + {f.subject}.{f.attribute} = {f.value}", highlight=False, markup=False)
    for f in r.superseded:
        out.print(f"  - {f.subject}.{f.attribute} = {f.value} ({f.status})", highlight=False, markup=False)


@app.command("recall")
def recall(
    query: str = typer.Argument(..., help="What to look for."),
    k: int = typer.Option(10, "-k", min=1, help="How many hits."),
    valid_at: Optional[str] = typer.Option(None, help="World time (default now)."),
    known_at: Optional[str] = typer.Option(None, help="Memory time (default now)."),
    group: str = typer.Option("default", help="Tenant group."),
    speaker: str = typer.Option("user", help="Who asks (first person)."),
    as_json: bool = typer.Option(False, "--json", help="JSON output."),
) -> None:
    """Facts and episodes most relevant to QUERY (graph + BM25 + vectors, fused)."""
    with _memory() as mem:
        hits = mem.recall(query, k=k, valid_at=valid_at, known_at=known_at, group_id=group, speaker=speaker)
    if as_json:
        _print_json([{"kind": h.kind, "id": h.id, "text": h.text, "score": round(h.score, 6),
                      "source": h.source, "source_name": h.source_name, "time": h.time.isoformat(),
                      "why": h.why} for h in hits])
        return
    table = Table(title=f"recall: {query}", title_justify="left")
    for col in ("score", "kind", "text", "time", "source", "found by", "bonus"):
        table.add_column(col, overflow="fold")
    for h in hits:
        table.add_row(f"{h.score:.4f}", h.kind, h.text, _when(h.time), h.source_name or _short(h.source),
                      ", ".join(f"{k}#{v}" for k, v in h.why.items() if k in ("graph", "bm25", "vector")),
                      ", ".join(f"{k} +{v:g}" for k, v in h.why.items() if k in ("speaker", "date", "when")))
    out.print(table)


@app.command("context")
def context(
    query: str = typer.Argument(..., help="The question."),
    budget: int = typer.Option(512, "--budget", min=16, help="Token budget (MiniLM tokens)."),
    valid_at: Optional[str] = typer.Option(None, help="World time (default now)."),
    known_at: Optional[str] = typer.Option(None, help="Memory time (default now)."),
    group: str = typer.Option("default", help="Tenant group."),
    speaker: str = typer.Option("user", help="Who asks (first person)."),
    as_json: bool = typer.Option(False, "--json", help="JSON output."),
) -> None:
    """The grounded, time-stamped context for QUERY, or an explicit abstention."""
    with _memory() as mem:
        ctx = mem.context(query, budget_tokens=budget, valid_at=valid_at, known_at=known_at,
                          group_id=group, speaker=speaker)
    if as_json:
        _print_json({"query": ctx.query, "abstain": ctx.abstain, "reason": ctx.reason, "tokens": ctx.tokens,
                     "text": ctx.text,
                     "items": [{"kind": i.kind, "text": i.text, "score": round(i.score, 6), "source": i.source,
                                "source_name": i.source_name, "superseded": i.superseded} for i in ctx.items]})
        return
    sys.stdout.write(ctx.text + "\n")
    if ctx.abstain:
        err.print(f"abstained: {ctx.reason}", highlight=False, markup=False)
    elif ctx.reason:
        err.print(f"answered: {ctx.reason}", highlight=False, markup=False)


@app.command("check")
def check(
    group: Optional[str] = typer.Option(None, help="Only this group (default: the whole database)."),
    as_json: bool = typer.Option(False, "--json", help="JSON output: a list of violations."),
) -> None:
    """Verify every invariant of the database (its fsck); exit 1 if any is broken.

    Sequenced uniqueness (no two visible versions of a single-valued attribute),
    successors and their edges, no supersession cycles, source episodes, subjects,
    unique names, revision slots, intervals, version chains and the schema version.
    Reads only."""
    with _memory() as mem:
        found = mem.check(group_id=group)
    if as_json:
        _print_json([{"rule": v.rule, "message": v.message, "ids": list(v.ids)} for v in found])
    else:
        for v in found:
            out.print(str(v), highlight=False, markup=False, soft_wrap=True)
        where = f"group {group!r}" if group else settings.db
        out.print(f"{where}: " + (f"{len(found)} violation{'s' if len(found) != 1 else ''}" if found
                                   else "no violations"), highlight=False, markup=False)
    if found:
        raise typer.Exit(1)


@app.command("stats")
def stats(
    tiers: bool = typer.Option(False, "--tiers", help="Also the episodes of each tier (short <= 1 day, "
                               "medium <= 1 week, long), how many are cold, and their mean value."),
    group: str = typer.Option("default", help="Tenant group (for --tiers)."),
) -> None:
    """Counts of entities, fact versions and episodes."""
    with _memory() as mem:
        out = {"db": settings.db, "engine": mem.engine, **mem.stats()}
        if tiers:
            out["group"] = group
            out.update(mem.tier_stats(group_id=group))
        _print_json(out)


@app.command("forget")
def forget(
    keep_fraction: Optional[float] = typer.Option(None, min=0.0, max=1.0,
                                                  help="Keep at most this share of the episodes hot."),
    max_episodes: Optional[int] = typer.Option(None, min=0, help="Keep at most this many episodes hot."),
    max_bytes: Optional[int] = typer.Option(None, min=0, help="Keep what the episodes store under this."),
    policy: str = typer.Option("value", help="value | structural | content | graph | fifo"),
    group: str = typer.Option("default", help="Tenant group."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Only say what would go cold."),
    purge: bool = typer.Option(False, "--purge", help="Also delete the text of every cold episode (a stub stays)."),
    as_json: bool = typer.Option(False, "--json", help="JSON output: the report."),
) -> None:
    """Make the least valuable episodes cold (out of recall, vectors dropped, text kept).

    No fact is changed: as_of and history answer the same. Never forgotten: an
    episode a fact came from, one that closed a belief, a user confirmation, the
    last day. `midas-graph warm ID...` brings episodes back. See docs/forgetting.md."""
    with _memory() as mem:
        report = mem.forget(keep_fraction=keep_fraction, max_episodes=max_episodes, max_bytes=max_bytes,
                            policy=policy, group_id=group, dry_run=dry_run, purge=purge)
    if as_json:
        _print_json(report.to_dict())
        return
    verb = "would go" if dry_run else "went"
    protected = ", ".join(f"{n} {why}" for why, n in sorted(report.protected.items())) or "none"
    out.print(f"{len(report.cold)} episode(s) {verb} cold; {report.hot_after} hot of "
              f"{report.hot_after + report.already_cold + len(report.cold)} (target {report.target}); "
              f"protected: {protected}; bytes {report.bytes_before} -> {report.bytes_after}",
              highlight=False, markup=False)
    if report.message:
        out.print(report.message, highlight=False, markup=False)
    if purge:
        out.print(f"{len(report.purged)} cold episode(s) {'would be' if dry_run else ''} purged: text deleted, "
                  "stubs kept".replace("  ", " "), highlight=False, markup=False)


@app.command("consolidate")
def consolidate(
    threshold: Optional[float] = typer.Option(None, min=0.5, max=1.0, help=(
        "Two turns of one speaker at least this similar (cosine) say the same thing [default: 0.92].")),
    group: str = typer.Option("default", help="Tenant group."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Only say which restatements would go cold."),
    as_json: bool = typer.Option(False, "--json", help="JSON output: the report."),
) -> None:
    """Keep one of each speaker's restatements; the others go cold as dup_of it.

    Extractive only: nothing is rewritten and no fact changes (as_of and history
    answer the same). The floor of `forget` holds. `midas-graph warm ID...` undoes
    it. See docs/forgetting.md."""
    with _memory() as mem:
        report = mem.consolidate(threshold, group_id=group, dry_run=dry_run)
    if as_json:
        _print_json(report)
        return
    verb = "would go" if dry_run else "went"
    kept = ", ".join(f"{n} {why}" for why, n in sorted(report["kept"].items())) or "none"
    out.print(f"{len(report['cold'])} restatement(s) {verb} cold in {report['groups']} group(s) of "
              f"{report['hot_before']} hot episode(s) (threshold {report['threshold']}); kept by the floor: {kept}",
              highlight=False, markup=False)
    for eid, keeper in report["cold"]:
        out.print(f"  {eid} dup_of {keeper}", highlight=False, markup=False)


@app.command("compact")
def compact(
    before: str = typer.Option(..., "--before", help="Drop the fact versions expired at or before this time."),
    group: str = typer.Option("default", help="Tenant group."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Only count what would be dropped."),
) -> None:
    """The one lossy operation: drop old fact versions no answer at or after BEFORE needs.

    Afterwards as_of/recall/context asked at a known time before it refuse
    (HistoryCompactedError). See docs/forgetting.md."""
    with _memory() as mem:
        report = mem.compact(before=before, group_id=group, dry_run=dry_run)
    _print_json(report)


@app.command("vacuum")
def vacuum() -> None:
    """Shrink the database file: rebuild it (export into a new file, check it, swap it in atomically).

    The engines do not give pages back in place: what forget, --purge and compact
    dropped, and what many sessions' checkpoints left, stays in the file until it
    is rebuilt. Run it with no other process on the file. See docs/forgetting.md."""
    from ._io import vacuum as rebuild

    _print_json(rebuild(settings.db, engine=settings.engine))


@app.command("warm")
def warm(
    episode_ids: list[str] = typer.Argument(..., help="Ids of cold episodes."),
    group: str = typer.Option("default", help="Tenant group."),
) -> None:
    """Make cold episodes hot again: back in recall, vectors recomputed."""
    with _memory() as mem:
        eps = mem.warm(episode_ids, group_id=group)
    out.print(f"{len(eps)} episode(s) hot", highlight=False)


@app.command("serve-mcp")
def serve_mcp(
    db: Optional[str] = typer.Option(None, "--db", help="Database file (default: the global --db)."),
    http: Optional[int] = typer.Option(
        None, "--http", min=1, max=65535, help="Serve streamable HTTP on HOST:PORT/mcp instead of stdio.",
    ),
    host: str = typer.Option(
        "127.0.0.1", "--host", help="HTTP address to listen on; other than loopback, --keys is required.",
    ),
    keys: Optional[str] = typer.Option(
        None, "--keys", help="HTTP: require bearer tokens from this TOML/JSON file; each grants some groups.",
    ),
    group: str = typer.Option("default", help="Group used when a tool call names none."),
    log_level: str = typer.Option("WARNING", help="Server log level (stderr)."),
    shards: Optional[int] = typer.Option(
        None, "--shards", min=1, help="Serve a sharded memory of N files (with --dir), one Ray actor per file.",
    ),
    shard_dir: Optional[str] = typer.Option(None, "--dir", help="The sharded memory's directory (needs Ray)."),
    address: Optional[str] = typer.Option(
        None, "--address", help="Join this Ray cluster ('auto': the local one) instead of starting one.",
    ),
    num_cpus: Optional[int] = typer.Option(None, "--num-cpus", min=1, help="CPUs of the Ray started here."),
) -> None:
    """Serve the memory to agents over MCP (stdio by default; Graphiti's tool names)."""
    from ._mcp import serve

    if log_level.upper() not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise typer.BadParameter(f"{log_level!r} is not a log level", param_hint="--log-level")
    if http is not None:
        auth = f", bearer tokens from {keys}" if keys else ""
        where = f"{shard_dir}, sharded" if shard_dir else f"db {db or settings.db}"
        err.print(f"midas-graph MCP server on http://{host}:{http}/mcp ({where}{auth})", highlight=False)
    serve(db or settings.db, http_port=http, engine=settings.engine, group_id=group, log_level=log_level.upper(),
          host=host, keys=keys, shards=shards, shard_dir=shard_dir, address=address, num_cpus=num_cpus)


@app.command("ingest")
def ingest(
    file: str = typer.Argument(..., help="JSONL, one episode a line: content, speaker, reference_time (or time), "
                                         "group_id; optional id, source, name, provenance."),
    on_ray: bool = typer.Option(False, "--ray", help="Apply on a Ray cluster, one actor per shard (needs --dir)."),
    shard_dir: Optional[str] = typer.Option(
        None, "--dir", help="Ingest into the sharded memory in this directory instead of --db.",
    ),
    shards: Optional[int] = typer.Option(None, "--shards", min=1, help="Shard files of a new --dir."),
    address: Optional[str] = typer.Option(None, "--address", help="--ray: join this Ray cluster ('auto')."),
    num_cpus: Optional[int] = typer.Option(None, "--num-cpus", min=1, help="--ray: CPUs of the Ray started here."),
    prepass: Optional[int] = typer.Option(
        None, "--prepass", min=0, help="--ray: Ray Data workers that embed contents first (0: none; default 0).",
    ),
    batch: int = typer.Option(64, "--batch", min=1, help="Episodes per call of a shard."),
    stop_after: Optional[int] = typer.Option(None, "--stop-after", min=1, hidden=True,
                                             help="Stop after N acknowledged episodes (tests: a crash)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Backfill episodes from JSONL, each group in time order; resumable: run it again after a crash and
    nothing is applied twice (docs/scaling.md)."""
    from . import _backfill

    if shards is not None and shard_dir is None:
        raise typer.BadParameter("a sharded memory needs its directory: give --dir", param_hint="--shards")
    turns = _backfill.read(file)
    if on_ray:
        if shard_dir is None:
            raise typer.BadParameter("--ray ingests into a sharded memory: give its --dir", param_hint="--dir")
        from .cluster import Cluster

        cluster = Cluster(shard_dir, shards, address=address, num_cpus=num_cpus, engine=settings.engine)
        try:
            report = _backfill.ingest_ray(cluster, turns, prepass_workers=prepass, batch=batch,
                                          stop_after=stop_after)
        finally:
            cluster.close()
    elif shard_dir is not None:
        report = _backfill.ingest_shards(shard_dir, shards, turns, engine=settings.engine, batch=batch,
                                         stop_after=stop_after)
    else:
        with _memory() as mem:
            report = _backfill.ingest(mem, turns, batch=batch, stop_after=stop_after)
    if as_json:
        _print_json(report)
    else:
        out.print(f"{report['applied']} episode(s) applied, {report['skipped']} already stored, "
                  f"{report['facts']} fact(s), {report['groups']} group(s), {report['seconds']} s", highlight=False)


@app.command("timeline")
def timeline(
    subject: str = typer.Argument(..., help="Entity name or alias."),
    output: Optional[str] = typer.Option(
        None, "-o", "--output", help="Image to write; .png, .svg or .pdf (default SUBJECT-timeline.png)."
    ),
    attribute: Optional[str] = typer.Option(None, "--attribute", "-a", help="Only this attribute."),
    group: str = typer.Option("default", "--group", help="Tenant group."),
) -> None:
    """Plot how the beliefs about SUBJECT changed: valid time above, transaction time below."""
    from ._timeline import plot_timeline

    with _memory() as mem:
        fig = plot_timeline(mem, subject, attribute=attribute, group_id=group)
    if output is None:
        import re

        output = re.sub(r"[^A-Za-z0-9_.-]+", "_", subject).strip("_.") + "-timeline.png"
    try:
        fig.savefig(output, dpi=110)
    except (OSError, ValueError) as exc:
        raise MidasError(f"{output}: cannot write the image ({exc})") from None
    err.print(f"wrote the timeline of {subject} to {output}", highlight=False, markup=False)


@app.command("demo")
def demo(
    db: Optional[str] = typer.Option(None, help="Keep the demo memory in this file (default: in memory)."),
    facts: bool = typer.Option(False, "--facts", help="Replay typed facts instead of a conversation."),
) -> None:
    """Build a memory from a bundled multi-day conversation and show how its beliefs changed."""
    from ._demo import run, run_conversation

    (run if facts else run_conversation)(out, path=db, engine=settings.engine)


shards_app = typer.Typer(help="A memory sharded over several files (docs/scaling.md): status, rebalancing.",
                         no_args_is_help=True)
app.add_typer(shards_app, name="shards")


@contextmanager
def _sharded(directory: str):
    from ._sharded import ShardedMemory
    from ._shards import Layout

    Layout.open(directory, create=False)  # an existing sharded memory, never a new one
    mem = ShardedMemory(directory, engine=settings.engine, read_only=settings.read_only)
    try:
        yield mem
    finally:
        mem.close()


@shards_app.command("status")
def shards_status(directory: str = typer.Option(..., "--dir", help="The sharded memory's directory.")) -> None:
    """Per shard: its file, bytes on disk, groups it owns, and groups left over by a move cut short (JSON)."""
    with _sharded(directory) as mem:
        _print_json(mem.status())


@shards_app.command("move")
def shards_move(
    group: str = typer.Argument(..., help="The group to move."),
    to: int = typer.Argument(..., help="The shard to move it to (0 .. N-1)."),
    directory: str = typer.Option(..., "--dir", help="The sharded memory's directory."),
) -> None:
    """Move one group to another shard: copy, verify, record in the manifest, delete from the source.
    Run it again after a crash to finish it (moving a group to its own shard removes leftovers)."""
    with _sharded(directory) as mem:
        _print_json(mem.move_group(group, to))


def main(argv: list[str] | None = None) -> int:
    """Console entry point. Usage errors exit 2 (click's own handling); a
    MidasError prints one line on stderr and exits 1."""
    try:
        app(args=argv, prog_name="midas-graph")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except MidasError as exc:
        # Written as is: a rich console would wrap a long message onto a second line.
        sys.stderr.write(f"error: {' '.join(str(exc).split())}\n")
        sys.stderr.flush()
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
