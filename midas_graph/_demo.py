"""`midas-graph demo`: build a memory from a bundled multi-day conversation
(or, with ``--facts``, a log of typed facts) and show the two time axes at work."""

from __future__ import annotations

import datetime as _dt
import json
from importlib import resources

from rich.console import Console

from ._memory import Memory
from ._time import parse_time


def load_sample() -> list[dict]:
    text = resources.files("midas_graph.sample").joinpath("facts.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def build(path: str | None = None, engine: str | None = None) -> Memory:
    """A memory holding the sample, written as it was learned (its own clock)."""
    now = [_dt.datetime(2024, 1, 1, tzinfo=_dt.timezone.utc)]
    mem = Memory(path, engine=engine, clock=lambda: now[0])
    for row in load_sample():
        row = dict(row)
        now[0] = parse_time(row.pop("recorded_at"), "recorded_at")  # type: ignore[assignment]
        if row.pop("op", "add") == "retract":
            target = [f for f in mem.current(row["subject"], row["attribute"]) if f.value == row["value"]]
            mem.retract(target[0].id, reason=row["reason"])
        else:
            mem.add_fact(**row)
    return mem


def load_conversation() -> list[dict]:
    text = resources.files("midas_graph.sample").joinpath("conversation.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def run_conversation(out: Console, path: str | None = None, engine: str | None = None) -> None:
    """Ingest the bundled conversation as it happened (each turn recorded at its own time)."""
    from .cli import facts_table

    turns = load_conversation()
    clock_now = [parse_time(turns[0]["reference_time"], "reference_time")]
    mem = Memory(path, engine=engine, clock=lambda: clock_now[0])
    try:
        out.rule(f"[bold]midas_graph demo[/]: {len(turns)} turns between Sam and an assistant, Jan–Apr 2024")
        out.print("[dim]Loading the local models (spaCy, MiniLM embeddings, NLI) ...[/]")
        results = []
        for turn in turns:
            clock_now[0] = parse_time(turn["reference_time"], "reference_time")  # learned as it was said
            results.append(mem.add_episode(**turn))
        n_facts = sum(len(r.facts) for r in results)
        out.print(f"Ingested {len(turns)} turns: {n_facts} facts extracted, "
                  f"{sum(len(r.superseded) for r in results)} beliefs closed, no LLM.\n")
        for attr in ("lives_in", "employer", "manager", "favorite_food"):
            out.print(facts_table(mem.history("Sam", attr), f"Sam · {attr}: every version", ids=False))
        out.print(facts_table(mem.history("Apollo"), "Apollo · release_date: every version", ids=False))
        out.print()
        for known in ("2024-03-10T10:01:00Z", "now"):
            facts = mem.as_of("Sam", "lives_in", valid_at="2024-03-05",
                              known_at=None if known == "now" else known)
            answer = ", ".join(str(f.value) for f in facts) or "unknown"
            out.print(f"Where did Sam live on 2024-03-05, [bold]as believed {'on ' + known[:16] if known != 'now' else 'now'}[/]? "
                      f"→ [green]{answer}[/]")
        past = {f.attribute: f.value for f in mem.as_of("Sam", valid_at="2024-02-10")}
        out.print(f"What was true of Sam on 2024-02-10? → lives in [green]{past.get('lives_in')}[/], works at "
                  f"[green]{past.get('employer')}[/], manager [green]{past.get('manager')}[/]")
        launch = mem.as_of("Apollo", valid_at="2024-02-10", known_at="2024-02-10")
        out.print(f"Apollo's launch date as known on 2024-02-10 → [green]{launch[0].value if launch else '?'}[/]; "
                  f"now → [green]{mem.current('Apollo')[0].value}[/]\n")
        out.print(facts_table(mem.current("Sam"), "What is true of Sam now", why=False, ids=False))
        out.print("\nEvery belief that was closed, and why:")
        for r in results:
            for f in r.superseded:
                why = f.expire_reason if f.status == "retracted" else f.reason
                out.print(f"  • {r.episode.reference_time:%b %d} “{r.episode.content}”\n"
                          f"      {f.subject}.{f.attribute} = {f.value} — {_shorten(why)}", highlight=False)
    finally:
        mem.close()


def _shorten(text: str) -> str:
    from .cli import _shorten_ids

    return _shorten_ids(text or "")


def run(out: Console, path: str | None = None, engine: str | None = None) -> None:
    from .cli import facts_table

    mem = build(path, engine)
    try:
        out.rule("[bold]midas_graph demo[/]: a memory of Alice, written as it learned (Jan–Jul 2024)")
        out.print(facts_table(mem.history("alice", "lives_in"), "Where Alice lives: every version of the belief"))
        out.print(
            "[dim]valid = when it was true in the world; recorded = when the memory held that version. "
            "Hamburg arrived late (July) and was closed at once where Berlin begins; Porto was "
            "retracted a day after it was learned, which re-opened Lisbon.[/]\n"
        )
        for known in ("2024-06-02T18:00:00Z", "2024-08-01"):
            facts = mem.as_of("Alice", "lives_in", valid_at="2024-06-10", known_at=known)
            answer = ", ".join(str(f.value) for f in facts) or "unknown"
            out.print(f"Where did Alice live on 2024-06-10, [bold]as believed on {known[:10]}[/]? → [green]{answer}[/]")
        for known in ("2024-05-01", "2024-08-01"):
            facts = mem.as_of("Project Apollo", "deadline", known_at=known, valid_at=known)
            out.print(f"Apollo's deadline as known on {known}: [green]{facts[0].value}[/]")
        out.print()
        out.print(facts_table(mem.current("Alice"), "What is true of Alice now", why=False))
        out.print()
        out.print("Superseded or retracted beliefs, and why:")
        for f in mem.history("Alice") + mem.history("Project Apollo"):
            if f.expired_at is None and f.superseded_by:
                out.print(f"  • {f.subject}.{f.attribute} = {f.value} until {f.valid_to.date()}: {_reason(mem, f)}")
            elif f.status == "retracted":
                out.print(f"  • {f.subject}.{f.attribute} = {f.value}: {f.expire_reason}")
    finally:
        mem.close()


def _reason(mem: Memory, f) -> str:
    nxt = mem.versions(f.superseded_by)[0]
    kind = "late arrival, closed where" if f.reason.startswith("late arrival") else "superseded by"
    return f"{kind} {nxt.attribute} = {nxt.value} (from {nxt.valid_from.date()})"
