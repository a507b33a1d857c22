"""The provenance guard: which memories may back what an agent is about to do.

Every fact and episode carries a provenance: ``planning`` (the agent's own
plan), ``action`` (something the agent did), ``observation`` (something it
read or was told in passing) or ``user_confirmation`` (the user confirmed
it). Any of them may guide **planning**. An **action** (external or
destructive: sending, paying, deleting) may rest only on
``user_confirmation``, or on an item the user has just approved (its id in
``approved``). A mixed bundle is not vetoed as a whole: the items that may
not back the use are excluded, and the decision says which and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ._errors import InvalidInputError
from ._types import PROVENANCES

USES = ("planning", "action")


@dataclass(frozen=True)
class GuardDecision:
    use: str
    allowed: bool                      # at least one item may back the use
    passed: list[Any] = field(default_factory=list)
    excluded: list[Any] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)   # item id -> why it passed or was excluded

    def __str__(self) -> str:
        head = f"{self.use}: {len(self.passed)} item(s) may be relied on, {len(self.excluded)} excluded"
        return "\n".join([head, *(f"  {k}: {v}" for k, v in self.reasons.items())])


def _provenance(item: Any) -> str:
    for obj in (item, getattr(item, "fact", None), getattr(item, "episode", None)):
        if obj is None:
            continue
        p = obj.get("provenance") if isinstance(obj, dict) else getattr(obj, "provenance", None)
        if p is not None:
            return p
    raise InvalidInputError("items", f"{type(item).__name__} carries no provenance")


def _id(item: Any, n: int) -> str:
    for obj in (item, getattr(item, "fact", None), getattr(item, "episode", None)):
        if obj is None:
            continue
        i = obj.get("id") if isinstance(obj, dict) else getattr(obj, "id", None)
        if i:
            return str(i)
    return f"item {n}"


def guard_reliance(items: Iterable[Any], use: str, *, approved: Iterable[str] = ()) -> GuardDecision:
    """Split ``items`` (facts, episodes, recall hits, context items, or dicts
    with ``provenance``) into those that may back ``use`` and those that may not."""
    if use not in USES:
        raise InvalidInputError("use", f"{use!r} is not one of {', '.join(USES)}")
    if isinstance(items, (str, bytes, dict)):
        raise InvalidInputError("items", "expected an iterable of memories")
    approved = set(approved)
    passed, excluded, reasons = [], [], {}
    for n, item in enumerate(items):
        prov, key = _provenance(item), _id(item, n)
        if prov not in PROVENANCES:
            excluded.append(item)
            reasons[key] = f"unknown provenance {prov!r}"
        elif use == "planning":
            passed.append(item)
            reasons[key] = f"{prov} may guide planning"
        elif prov == "user_confirmation":
            passed.append(item)
            reasons[key] = "confirmed by the user"
        elif key in approved:
            passed.append(item)
            reasons[key] = f"{prov}, approved for this action"
        else:
            excluded.append(item)
            reasons[key] = f"{prov}: an action needs user confirmation or an explicit approval"
    return GuardDecision(use, bool(passed), passed, excluded, reasons)
