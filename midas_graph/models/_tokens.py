"""Token counting for context budgets, with the bundled MiniLM WordPiece tokenizer.

A "token" here is one WordPiece of the uncased MiniLM vocabulary, without the
[CLS]/[SEP] markers. It is close to (usually a little above) the counts of
the BPE tokenizers of chat models for English prose; budgets are estimates.
"""

from __future__ import annotations

from typing import Sequence

from ._common import TOKENIZER_PATH, tokenizer

__all__ = ["count_tokens", "count_tokens_batch", "truncate_tokens"]


def _tok():
    return tokenizer(TOKENIZER_PATH, None)


def count_tokens(text: str) -> int:
    """Number of WordPiece tokens in ``text`` (no special tokens, no truncation)."""
    if not text:
        return 0
    return len(_tok().encode(text, add_special_tokens=False).ids)


def count_tokens_batch(texts: Sequence[str]) -> list[int]:
    """:func:`count_tokens` of many texts at once (faster)."""
    texts = list(texts)
    if not texts:
        return []
    encs = _tok().encode_batch(texts, add_special_tokens=False)
    return [len(e.ids) if t else 0 for e, t in zip(encs, texts)]


def truncate_tokens(text: str, max_tokens: int, ellipsis: str = "") -> str:
    """``text`` cut to at most ``max_tokens`` tokens at a token boundary.

    The original characters are kept (the cut is made on character offsets).
    When something is cut, ``ellipsis`` is appended and the result, ellipsis
    included, still counts at most ``max_tokens`` tokens.
    """
    if max_tokens <= 0 or not text:
        return ""
    enc = _tok().encode(text, add_special_tokens=False)
    if len(enc.ids) <= max_tokens:
        return text
    keep = max_tokens - (count_tokens(ellipsis) if ellipsis else 0)
    if keep <= 0:
        return ""
    end = enc.offsets[keep - 1][1]
    return text[:end].rstrip() + ellipsis
