"""Whether a turn answers a question: a small ONNX cross-encoder (research, not shipped).

A model exported by ``train.py`` (the NLI student fine-tuned as a two-way
classifier) scores (question, turn) pairs; ``evaluate.py`` judges it. The
engine does not use it: see docs/assistant_eval.md, round 8, for why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from midas_graph.models._common import TOKENIZER_PATH, ModelMissingError, ort_session, pad_batch, softmax, tokenizer


#: Column order of the model's output.
LABELS = ("answers", "other")
ANSWERS_DIR = Path(__file__).resolve().parents[2] / "work-train" / "answers" / "model"


def answer_text(turn: str, asked: str = "") -> str:
    """The second text of a pair: the turn, after the other speaker's
    question it answers when there is one ("Where did you end up?
    Minneapolis!!")."""
    return f"{asked} {turn}".strip() if asked else turn


@runtime_checkable
class Answers(Protocol):
    """``answers(question, texts)``: for each text, the probability that it answers the question."""

    def answers(self, question: str, texts: Sequence[str]) -> np.ndarray: ...


class OnnxAnswers:
    """The bundled answerability cross-encoder (or one in ``path``)."""

    def __init__(self, path: str | Path = ANSWERS_DIR, batch_size: int = 32,
                 threads: int | None = None) -> None:
        self.path = Path(path)
        model = self.path / "model.onnx"
        if not model.is_file():
            raise ModelMissingError(f"no model in {self.path}: train one with eval/answerability/train.py")
        self.config = json.loads((self.path / "config.json").read_text())
        self.threshold = float(self.config.get("threshold") or 0.5)
        self._model = model
        self._tok_path = TOKENIZER_PATH  # the MiniLM tokenizer the package ships
        self._max = int(self.config.get("max_length", 128))
        self._threads = threads
        self.batch_size = batch_size

    def answers(self, question: str, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros(0, dtype=np.float32)
        sess = ort_session(self._model, self._threads)
        tok = tokenizer(self._tok_path, self._max)
        encs = tok.encode_batch([(question, t) for t in texts])
        out = np.zeros(len(texts), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(encs[i].ids))
        for s in range(0, len(order), self.batch_size):
            idx = order[s:s + self.batch_size]
            lg = sess.run(["logits"], pad_batch([encs[i] for i in idx]))[0]
            out[idx] = softmax(np.asarray(lg))[:, 0]
        return out
