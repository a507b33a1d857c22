"""`midas-graph demo`: replay a bundled log of changing facts and show the
two time axes at work."""

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
