"""Retrieval baselines over raw conversation turns, for eval/locomo_eval.py.

Each baseline sees exactly the turns the memory ingested (the rows given to
``Memory.add_episodes``: ``content``, ``speaker``, ``reference_time``,
``name``) and ranks them for a query. A turn is indexed as
``"{speaker}: {content}"`` (the speaker's name is part of what a plain RAG
would index; LoCoMo questions name the speaker).

* :class:`BM25Turns` -- BM25 (``bm25s``, Lucene variant, k1=1.5, b=0.75)
  over the turns, tokenised exactly as midas_graph's own BM25 (spaCy's English
  stop words, Snowball stemmer), so that the comparison isolates what the
  memory adds: fusion, the graph, the previous-turn context.
* :class:`VectorTurns` -- exact cosine with numpy over the embeddings of the
  turns (``midas_graph.models.default_embedder()`` unless one is given).
* :func:`recency_window` -- the most recent turns whose rendered lines fit a
  token budget (counted with ``midas_graph.models.count_tokens`` on the
  joined text, the same count the context budget uses). It does not depend on
  the query.

``search`` returns ``[(name, score), ...]`` best first; ties are broken by
turn order so that runs are deterministic.
"""

from __future__ import annotations

import datetime as _dt
from typing import Callable, Iterable, Sequence

import numpy as np

__all__ = ["BM25Turns", "VectorTurns", "evidence_recall", "recency_window", "render_turn", "turn_text"]


def turn_text(turn: dict) -> str:
    """What the retrieval baselines index for one turn."""
    speaker = turn.get("speaker") or ""
    return f"{speaker}: {turn['content']}" if speaker else str(turn["content"])


def render_turn(turn: dict) -> str:
    """One line of the recency window: ``[time] speaker: content``."""
    t = turn.get("reference_time")
    if isinstance(t, _dt.datetime):
        t = t.strftime("%Y-%m-%d %H:%M")
    prefix = f"[{t}] " if t else ""
    return prefix + turn_text(turn)


def _names(turns: Sequence[dict]) -> list[str]:
    return [str(t.get("name") or i) for i, t in enumerate(turns)]


def _top(scores: np.ndarray, names: list[str], k: int, keep: np.ndarray | None = None) -> list[tuple[str, float]]:
    if k <= 0 or len(names) == 0:
        return []
    order = np.lexsort((np.arange(len(scores)), -scores))  # score desc, then turn order
    if keep is not None:
        order = order[keep[order]]
    return [(names[i], float(scores[i])) for i in order[:k]]


class BM25Turns:
    """BM25 over turns with ``bm25s``."""

    def __init__(self, turns: Sequence[dict], *, k1: float = 1.5, b: float = 0.75):
        import bm25s
        from midas_graph._recall import _stemmer, _stopwords

        self._bm25s = bm25s
        self.stopwords, self.stemmer = _stopwords(), _stemmer()
        self.names = _names(turns)
        corpus = [turn_text(t) for t in turns]
        self._tokens = self._tokenize(corpus)
        self.model = bm25s.BM25(k1=k1, b=b, method="lucene")
        if corpus:
            self.model.index(self._tokens, show_progress=False)

    def _tokenize(self, texts: list[str]) -> list[list[str]]:
        return self._bm25s.tokenize(texts, stopwords=self.stopwords, stemmer=self.stemmer, return_ids=False,
                                    show_progress=False)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every turn (0 for turns sharing no term with the query)."""
        if not self.names:
            return np.zeros(0, dtype=np.float32)
        q = self._tokenize([query])[0]
        vocab = self.model.vocab_dict
        q = [w for w in q if w in vocab]
        if not q:
            return np.zeros(len(self.names), dtype=np.float32)
        return np.asarray(self.model.get_scores(q), dtype=np.float32)

    def search(self, query: str, k: int = 10) -> list[tuple[str, float]]:
        s = self.scores(query)
        return _top(s, self.names, k, keep=s > 0)


class VectorTurns:
    """Exact cosine over turn embeddings (the embedder returns L2-normalised rows)."""

    def __init__(self, turns: Sequence[dict], embedder=None, *, batch_size: int = 64):
        if embedder is None:
            from midas_graph.models import default_embedder

            embedder = default_embedder()
        self.embedder = embedder
        self.names = _names(turns)
        texts = [turn_text(t) for t in turns]
        chunks = [np.asarray(embedder.embed(texts[i:i + batch_size]), dtype=np.float32)
                  for i in range(0, len(texts), batch_size)]
        m = np.concatenate(chunks) if chunks else np.zeros((0, 1), dtype=np.float32)
        norms = np.linalg.norm(m, axis=1, keepdims=True) if len(m) else None
        self.matrix = m / np.maximum(norms, 1e-12) if len(m) else m

    def scores(self, query: str) -> np.ndarray:
        if not self.names:
            return np.zeros(0, dtype=np.float32)
        q = np.asarray(self.embedder.embed([query]), dtype=np.float32)[0]
        q = q / max(float(np.linalg.norm(q)), 1e-12)
        return self.matrix @ q

    def search(self, query: str, k: int = 10) -> list[tuple[str, float]]:
        return _top(self.scores(query), self.names, k)


def recency_window(
    turns: Sequence[dict],
    budget_tokens: int,
    *,
    count: Callable[[str], int] | None = None,
    render: Callable[[dict], str] = render_turn,
) -> tuple[list[str], str]:
    """The most recent turns whose lines, joined by newlines, fit ``budget_tokens``.

    Turns are ordered by ``reference_time`` (then by input order). Returns the
    names of the turns in the window, oldest first, and the window's text.
    Stops at the first turn (going back in time) that no longer fits, so the
    window is contiguous.
    """
    if count is None:
        from midas_graph.models import count_tokens as count
    order = sorted(range(len(turns)), key=lambda i: (_time_key(turns[i].get("reference_time")), i))
    lines: list[str] = []
    picked: list[int] = []
    for i in reversed(order):
        candidate = [render(turns[i]), *lines]
        if count("\n".join(candidate)) > budget_tokens:
            break
        lines, picked = candidate, [i, *picked]
    return [str(turns[i].get("name") or i) for i in picked], "\n".join(lines)


def _time_key(t) -> float:
    if t is None:
        return float("-inf")
    if isinstance(t, str):
        t = _dt.datetime.fromisoformat(t.replace("Z", "+00:00"))
    if t.tzinfo is None:
        t = t.replace(tzinfo=_dt.timezone.utc)
    return t.timestamp()


def evidence_recall(found: Iterable[str], evidence: Sequence[str]) -> tuple[float, float]:
    """(fraction of ``evidence`` among ``found``, 1.0 if any of it is there else 0.0)."""
    ev = set(evidence)
    if not ev:
        raise ValueError("evidence: empty")
    got = ev & set(found)
    return len(got) / len(ev), float(bool(got))
