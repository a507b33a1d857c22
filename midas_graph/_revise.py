"""Belief revision for facts read from text: what a new claim closes.

Entity-scoped: only held facts of the claim's own subject are ever looked at
(Graphiti's group-wide invalidation retires unrelated facts).

* A registered single-valued attribute with a new value supersedes by rule
  (``_temporal``), without NLI.
* Otherwise the candidates are the subject's held facts that are valid at the
  claim's ``valid_from`` and either have the same attribute or a text whose
  embedding cosine with the claim's is at least :data:`CANDIDATE_COSINE`.
  The NLI cross-encoder scores (old text, new text); a contradiction score at
  or above the model's shipped threshold closes the old fact, and the score
  is recorded in its reason.
* Corrections ("sorry, I meant X", "actually X, not Y") retract instead.
* Cessation ("I no longer ...", "I quit Y") ends the held value at the
  claim's time, with no successor.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from ._temporal import Working, same_value
from ._types import Fact

#: Text cosine (MiniLM) at or above which a held fact of another attribute is
#: shown to NLI. Measured on eval/data/revision_cases.jsonl (docs/revision.md).
#: Fact vectors embed "subject attribute value — sentence", which raises the
#: cosine of any two beliefs of one subject: at 0.55 "My birthday is June 5"
#: met "I'm 31" and NLI called it a contradiction (0.98); 0.65 and 0.75 keep
#: recall 1.0 on the cases.
CANDIDATE_COSINE = 0.65


@dataclass
class Judge:
    """Asks NLI about candidate pairs, in one batch per claim, and remembers why."""

    nli_scores: Callable[[Sequence[tuple[str, str]]], np.ndarray]
    threshold: float
    asked: list[tuple[str, str, float]] = field(default_factory=list)  # (old id, new text, score)

    def contradicted(self, candidates: Sequence[Fact], text: str) -> dict[str, str]:
        if not candidates:
            return {}
        scores = self.nli_scores([(f.text, text) for f in candidates])
        out = {}
        for f, row in zip(candidates, scores):
            c = float(row[2])
            self.asked.append((f.id, text, c))
            if c >= self.threshold:
                out[f.id] = f"nli contradiction {c:.2f}"
        return out


def current_of(work: Working, subject_id: str, at: _dt.datetime) -> list[Fact]:
    """Held facts of one subject that are valid at ``at``."""
    return [
        f for f in work.by_id.values()
        if f.subject_id == subject_id and f.valid_from <= at and (f.valid_to is None or at < f.valid_to)
    ]


def candidates(
    current: Sequence[Fact],
    attribute: str,
    text_vector: np.ndarray | None,
    vectors: dict[str, np.ndarray],
    *,
    single: bool,
) -> list[Fact]:
    """Facts NLI should see for a new claim (see module doc)."""
    out = []
    for f in current:
        if f.attribute == attribute:
            if not single:  # single-valued: the rule decides, NLI is not asked
                out.append(f)
        elif text_vector is not None and f.id in vectors:
            if float(vectors[f.id] @ text_vector) >= CANDIDATE_COSINE:
                out.append(f)
    return out


def correction_target(current: Sequence[Fact], attribute: str, replaces: str | None) -> Fact | None:
    """The held belief a correction takes back: the one with the value it
    names, else the most recently recorded one of the attribute."""
    pool = [f for f in current if not attribute or f.attribute == attribute]
    if replaces:
        named = [f for f in pool if isinstance(f.value, str) and _norm(f.value) == _norm(replaces)]
        if named:
            return max(named, key=lambda f: f.recorded_at)
        return None
    return max(pool, key=lambda f: (f.recorded_at, f.valid_from), default=None)


def cessation_targets(current: Sequence[Fact], attribute: str, value: object) -> list[Fact]:
    """Held values a "no longer"/"quit" claim ends: those with its value, or
    every value of the attribute when it names none."""
    pool = [f for f in current if f.attribute == attribute]
    if value in ("", None):
        return pool
    probe = Fact(id="", group_id="", subject="", attribute=attribute, value=value, text="",
                 valid_from=_dt.datetime.min, valid_to=None, recorded_at=_dt.datetime.min, expired_at=None)
    return [f for f in pool if same_value(f, probe)]


def _norm(s: str) -> str:
    return " ".join(s.casefold().split())
