"""eval/answerability (research, not shipped): its generated pairs and its
guard on the held-out personas."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "eval" / "answerability"))

import pairs  # noqa: E402
import train  # noqa: E402


def test_generated_pairs_are_deterministic_and_keep_held_out_families_apart():
    a = pairs.generate(400, "train", 4)
    assert a == pairs.generate(400, "train", 4)
    held = {k for k, f in pairs.FAMILIES.items() if f.get("heldout")}
    assert held and not {p.family for p in a} & held
    assert {p.family for p in pairs.generate(100, "heldout", 4)} <= held
    assert {p.label for p in a} == {0, 1}
    assert {p.kind for p in a} == {"answer", "other_subject", "other_person", "no_answer", "small_talk"}


def test_training_never_reads_the_held_out_personas():
    for split in ("heldout", "heldout2"):
        with pytest.raises(SystemExit):
            train.persona_rows(split, 0, 4, 2)
    rows = train.persona_rows("dev", 0, 4, 2, part="val")
    assert rows and {r[2] for r in rows} == {0, 1}
    ids = train.TRAIN_PERSONAS
    assert all(p.startswith("p") for p in ids) and "p17-" not in ids
