"""Shared plumbing of the local models: errors, paths, sessions, tokenizers.

One onnxruntime session per model file per process, one tokenizer per
(file, settings); both are created lazily under a lock and then shared by
every thread (``InferenceSession.run`` is thread-safe).
"""

from __future__ import annotations

import importlib.util
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np

from .._errors import MidasError

__all__ = [
    "ModelError",
    "ModelMissingError",
    "DATA_DIR",
    "TOKENIZER_PATH",
    "NLI_DIR",
    "ort_session",
    "tokenizer",
    "default_threads",
    "package_dir",
    "softmax",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
TOKENIZER_PATH = DATA_DIR / "tokenizer.json"
NLI_DIR = DATA_DIR / "nli"

_lock = threading.RLock()
_sessions: dict[tuple[str, int], Any] = {}
_tokenizers: dict[tuple[str, int | None, bool], Any] = {}


class ModelError(MidasError):
    """A model could not be loaded or run (bad file, bad label mapping, ...)."""


class ModelMissingError(ModelError, ImportError):
    """A model, or the package that carries it, is not installed.

    The message names the command that installs it.
    """


def _require(module: str, pip: str, what: str) -> Any:
    try:
        return __import__(module)
    except ImportError as e:
        raise ModelMissingError(f"{what} needs the '{module}' package: pip install {pip}") from e


def package_dir(module: str, pip: str, what: str) -> Path:
    """Directory of an installed (data-only) package, without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModelMissingError(f"{what} is not installed: pip install {pip}")
    return Path(list(spec.submodule_search_locations)[0])


def default_threads() -> int:
    """Intra-op threads: ``MIDAS_MODEL_THREADS`` or the cores, at most 4."""
    env = os.environ.get("MIDAS_MODEL_THREADS")
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            pass
    return max(1, min(4, os.cpu_count() or 1))


def ort_session(path: Path, threads: int | None = None) -> Any:
    """The process-wide onnxruntime session of one model file."""
    ort = _require("onnxruntime", "onnxruntime==1.32.0", "Running a local model")
    path = Path(path)
    n = threads or default_threads()
    key = (str(path.resolve()), n)
    sess = _sessions.get(key)
    if sess is not None:
        return sess
    with _lock:
        sess = _sessions.get(key)
        if sess is None:
            if not path.is_file():
                raise ModelMissingError(f"model file not found: {path}")
            so = ort.SessionOptions()
            so.intra_op_num_threads = n
            so.inter_op_num_threads = 1
            so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
            so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            so.log_severity_level = 3
            # no busy-waiting between ops: on a small machine shared with the
            # engine (or other processes) spinning threads steal each other's core
            so.add_session_config_entry("session.intra_op.allow_spinning", "0")
            try:
                sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
            except Exception as e:  # onnxruntime raises its own exception types
                raise ModelError(f"onnxruntime could not load {path}: {e}") from e
            _sessions[key] = sess
    return sess


def tokenizer(path: Path = TOKENIZER_PATH, max_length: int | None = None,
              special: bool = True) -> Any:
    """A shared ``tokenizers.Tokenizer`` with padding off and the given truncation.

    Instances are never reconfigured after creation, so threads can share them.
    """
    tk = _require("tokenizers", "tokenizers==0.23.3", "Tokenising text")
    path = Path(path)
    key = (str(path.resolve()), max_length, special)
    tok = _tokenizers.get(key)
    if tok is not None:
        return tok
    with _lock:
        tok = _tokenizers.get(key)
        if tok is None:
            if not path.is_file():
                raise ModelMissingError(
                    f"tokenizer not found: {path} (reinstall midas-graph: it ships in the package)")
            tok = tk.Tokenizer.from_file(str(path))
            tok.no_padding()
            if max_length:
                tok.enable_truncation(max_length=max_length)
            else:
                tok.no_truncation()
            _tokenizers[key] = tok
    return tok


def pad_batch(encs: list[Any], pad_id: int = 0,
              need_types: bool = True) -> dict[str, np.ndarray]:
    """Right-pad a batch of ``tokenizers.Encoding`` to its longest member."""
    n = len(encs)
    m = max((len(e.ids) for e in encs), default=0)
    ids = np.full((n, m), pad_id, dtype=np.int64)
    att = np.zeros((n, m), dtype=np.int64)
    typ = np.zeros((n, m), dtype=np.int64)
    for i, e in enumerate(encs):
        k = len(e.ids)
        ids[i, :k] = e.ids
        att[i, :k] = 1
        if need_types:
            typ[i, :k] = e.type_ids
    return {"input_ids": ids, "attention_mask": att, "token_type_ids": typ}


def softmax(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float32, copy=False)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
