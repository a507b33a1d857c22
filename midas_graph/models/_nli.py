"""Natural-language inference: the ``NLI`` protocol and ONNX cross-encoders.

The bundled model (``data/nli/``) is a MiniLM-L6 cross-encoder fine-tuned by
``midas_graph.models.train_nli`` on SNLI plus generated memory-revision
pairs. ``OnnxNLI(path)`` also serves any ONNX MNLI/SNLI cross-encoder
directory that holds ``model.onnx``, ``tokenizer.json`` and a label mapping
(``config.json`` with ``id2label`` or ``labels``, or the ``labels=``
argument).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

from ._common import (
    NLI_DIR,
    ModelError,
    ModelMissingError,
    ort_session,
    pad_batch,
    softmax,
    tokenizer,
)

__all__ = [
    "NLI",
    "OnnxNLI",
    "default_nli",
    "NLI_LABELS",
    "NLI_CONTRADICTION_THRESHOLD",
]

#: Column order of every ``NLI.scores`` result.
NLI_LABELS = ("entailment", "neutral", "contradiction")

#: Contradiction probability above which the bundled model's verdict is
#: "contradiction" (a new fact supersedes the old one). Chosen on the
#: validation split of the training families for precision first; see
#: ``data/nli/MODEL_CARD.md`` and ``docs/models.md``.
NLI_CONTRADICTION_THRESHOLD = 0.63

#: Ways to combine the contradiction probability of (a, b) and of (b, a)
#: (``OnnxNLI(both_orders=...)`` or ``"both_orders"`` in a model's config.json).
BOTH_ORDERS = ("mean", "max", "min")

_ALIASES = {
    "entailment": 0, "entail": 0, "entails": 0, "entailed": 0,
    "neutral": 1, "neutrality": 1,
    "contradiction": 2, "contradict": 2, "contradicts": 2, "contradictory": 2,
}


@runtime_checkable
class NLI(Protocol):
    """Scores (premise, hypothesis) pairs.

    ``scores(pairs)`` returns float32 ``[len(pairs), 3]`` softmax
    probabilities with columns (entailment, neutral, contradiction).
    ``contradiction(premise, hypothesis)`` is the contradiction probability
    of one pair. An implementation may carry a ``threshold`` attribute (its
    calibrated contradiction cut-off); callers fall back to
    :data:`NLI_CONTRADICTION_THRESHOLD`.
    """

    def scores(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray: ...

    def contradiction(self, premise: str, hypothesis: str) -> float: ...


def _label_order(labels: Sequence[str] | Mapping) -> list[int]:
    """Map model output columns to (entailment, neutral, contradiction)."""
    if isinstance(labels, Mapping):
        items = sorted(((int(k), str(v)) for k, v in labels.items()), key=lambda kv: kv[0])
        if [k for k, _ in items] != list(range(len(items))):
            raise ModelError(f"label mapping must number outputs 0..n-1: {dict(labels)}")
        names = [v for _, v in items]
    else:
        names = [str(v) for v in labels]
    cols = [-1, -1, -1]
    for col, name in enumerate(names):
        std = _ALIASES.get(name.strip().lower())
        if std is None:
            continue
        if cols[std] != -1:
            raise ModelError(f"label {NLI_LABELS[std]!r} appears twice in {names}")
        cols[std] = col
    if -1 in cols:
        raise ModelError(
            f"label mapping {names} does not name entailment, neutral and contradiction; "
            "pass labels=[...] in the model's output order")
    return cols


class OnnxNLI:
    """An ONNX NLI cross-encoder served with onnxruntime and ``tokenizers``.

    ``path`` is a directory with ``model.onnx`` (the first output, or the one
    named ``logits``, is ``[batch, n_labels]``), ``tokenizer.json`` (or the
    ``tokenizer`` entry of ``config.json``) and a label mapping: ``labels``
    (list in output order) or Hugging Face ``id2label`` in ``config.json``,
    or the ``labels=`` argument. Pairs are encoded as the tokenizer's pair
    template, truncated longest-first to ``max_length``, sorted by length and
    run in batches with padding to the longest pair of each batch. Loading is
    lazy and thread-safe; the session is shared by the process.
    """

    def __init__(self, path: str | Path, *, labels: Sequence[str] | Mapping | None = None,
                 tokenizer_path: str | Path | None = None, max_length: int | None = None,
                 threshold: float | None = None, batch_size: int = 32,
                 threads: int | None = None, both_orders: str | None = None) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            raise ModelMissingError(f"NLI model directory not found: {self.path}")
        cfg_file = self.path / "config.json"
        self.config: dict = json.loads(cfg_file.read_text()) if cfg_file.is_file() else {}
        model = self.path / "model.onnx"
        if not model.is_file():
            onnx = sorted(self.path.glob("*.onnx")) + sorted(self.path.glob("onnx/model*.onnx"))
            if not onnx:
                raise ModelMissingError(f"no model.onnx in {self.path}")
            model = onnx[0]
        self.model_path = model
        if tokenizer_path is None:
            tokenizer_path = self.path / self.config.get("tokenizer", "tokenizer.json")
        self.tokenizer_path = Path(tokenizer_path)
        if not self.tokenizer_path.is_file():
            raise ModelMissingError(f"tokenizer.json not found for {self.path}")
        if labels is None:
            labels = self.config.get("labels") or self.config.get("id2label")
            lf = self.path / "labels.json"
            if labels is None and lf.is_file():
                labels = json.loads(lf.read_text())
        if labels is None:
            raise ModelError(f"{self.path} has no label mapping (config.json id2label or "
                             "labels); pass labels=[...] in the model's output order")
        self._cols = _label_order(labels)
        self.max_length = int(max_length or self.config.get("max_length") or
                              self._tokenizer_max_length() or 512)
        t = threshold if threshold is not None else self.config.get("contradiction_threshold")
        self.threshold = float(t) if t is not None else NLI_CONTRADICTION_THRESHOLD
        self.batch_size = max(1, int(batch_size))
        self.threads = threads
        both = both_orders if both_orders is not None else self.config.get("both_orders")
        if both not in (None, "", "none", *BOTH_ORDERS):
            raise ModelError(f"both_orders must be one of {BOTH_ORDERS} or none, not {both!r}")
        self.both_orders = both if both in BOTH_ORDERS else None
        self._lock = threading.Lock()
        self._ready: tuple | None = None

    def _tokenizer_max_length(self) -> int | None:
        f = self.path / "tokenizer_config.json"
        if f.is_file():
            n = json.loads(f.read_text()).get("model_max_length")
            if isinstance(n, int) and 0 < n <= 4096:
                return n
        return None

    def _load(self) -> tuple:
        if self._ready is None:
            with self._lock:
                if self._ready is None:
                    sess = ort_session(self.model_path, self.threads)
                    tok = tokenizer(self.tokenizer_path, self.max_length)
                    names = {i.name for i in sess.get_inputs()}
                    outs = [o.name for o in sess.get_outputs()]
                    out = "logits" if "logits" in outs else outs[0]
                    pad = 0
                    for p in ("[PAD]", "<pad>"):
                        if tok.token_to_id(p) is not None:
                            pad = tok.token_to_id(p)
                            break
                    self._ready = (sess, tok, names, out, pad)
        return self._ready

    def load(self) -> "OnnxNLI":
        """Load the model now (otherwise it loads on the first call)."""
        self._load()
        return self

    def logits(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """Raw model outputs ``[n, n_labels]`` in the model's own column order."""
        pairs = [(str(p), str(h)) for p, h in pairs]
        if not pairs:
            return np.zeros((0, 3), dtype=np.float32)
        sess, tok, names, out, pad = self._load()
        encs = tok.encode_batch(pairs)
        order = sorted(range(len(pairs)), key=lambda i: len(encs[i].ids))
        res: np.ndarray | None = None
        for s in range(0, len(order), self.batch_size):
            idx = order[s:s + self.batch_size]
            feed = pad_batch([encs[i] for i in idx], pad, "token_type_ids" in names)
            feed = {k: v for k, v in feed.items() if k in names}
            try:
                lg = np.asarray(sess.run([out], feed)[0], dtype=np.float32)
            except Exception as e:
                raise ModelError(f"NLI model failed: {e}") from e
            if res is None:
                res = np.zeros((len(pairs), lg.shape[-1]), dtype=np.float32)
            res[idx] = lg
        assert res is not None
        return res

    def scores(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        if isinstance(pairs, tuple) and len(pairs) == 2 and isinstance(pairs[0], str):
            raise TypeError("scores() takes a sequence of (premise, hypothesis) pairs")
        pairs = list(pairs)
        if self.both_orders and pairs:
            lg = self.logits(pairs + [(h, p) for p, h in pairs])
            s = softmax(lg)[:, self._cols]
            return combine_orders(s[:len(pairs)], s[len(pairs):], self.both_orders)
        lg = self.logits(pairs)
        if len(lg) == 0:
            return lg
        return softmax(lg)[:, self._cols]

    def contradiction(self, premise: str, hypothesis: str) -> float:
        return float(self.scores([(premise, hypothesis)])[0, 2])

    def contradicts(self, premise: str, hypothesis: str) -> bool:
        """Whether the contradiction probability exceeds :attr:`threshold`."""
        return self.contradiction(premise, hypothesis) > self.threshold

    def __repr__(self) -> str:
        return f"OnnxNLI({str(self.path)!r}, threshold={self.threshold})"


def combine_orders(fwd: np.ndarray, rev: np.ndarray, how: str) -> np.ndarray:
    """Scores of (a, b) with the contradiction column taken from both orders.

    Contradiction is symmetric (if b rules out a, a rules out b), entailment
    is not: the entailment column stays that of (a, b), the contradiction
    column is the ``how`` ("mean", "max" or "min") of the two orders, and
    neutral takes what is left, so that each row still sums to one."""
    fn = {"mean": lambda a, b: (a + b) / 2, "max": np.maximum, "min": np.minimum}[how]
    out = fwd.astype(np.float32).copy()
    con = fn(fwd[:, 2], rev[:, 2])
    ent = np.minimum(fwd[:, 0], 1.0 - con)
    out[:, 0], out[:, 2] = ent, con
    out[:, 1] = np.clip(1.0 - ent - con, 0.0, 1.0)
    return out


_default: OnnxNLI | None = None
_default_lock = threading.Lock()


def bundled_nli_dir() -> Path:
    return NLI_DIR


def default_nli() -> OnnxNLI:
    """The process-wide NLI model: ``$MIDAS_NLI_MODEL`` if set, else the bundled one."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                env = os.environ.get("MIDAS_NLI_MODEL")
                if env:
                    _default = OnnxNLI(env)
                else:
                    if not (NLI_DIR / "model.onnx").is_file():
                        raise ModelMissingError(
                            f"the bundled NLI model is missing ({NLI_DIR / 'model.onnx'}): "
                            "reinstall midas-graph (pip install --force-reinstall midas-graph), "
                            "or build it from a source checkout with `make nli-model`")
                    _default = OnnxNLI(NLI_DIR)
    return _default
