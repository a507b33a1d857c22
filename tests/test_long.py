"""Long episodes: stored verbatim whatever their size, indexed by passages
(BM25 over every passage, vectors for the first ones), so that recall finds
a sentence deep inside; one long row never fails a batch."""

from __future__ import annotations

import io
import random

import pytest
from conftest import ENGINE

import midas_graph._episodes as episodes_mod
import midas_graph._store as store_mod
from midas_graph import Memory
from midas_graph import _io
from midas_graph._store import (
    LONG_EPISODE_CHARS,
    PASSAGE_WORDS,
    episode_document,
    passage_spans,
    sentence_documents,
)

pytestmark = pytest.mark.engine

NEEDLE = "My passport number is X7781."
#: Not English prose, but every kind of character a pasted text may hold:
#: accents, an emoji outside the BMP, CRLF line ends, tabs, a NUL-free control.
ODD = "Café déjà vu — naïve 😀 résumé\r\n\tindent\x0b end"
_WORDS = ("river garden window morning letter station market winter summer history music paper table "
          "doctor village mountain yellow quiet heavy bright slowly often never always walked carried "
          "painted opened wrote listened remembered kitchen bridge forest engine harbour pencil orange "
          "candle the a of to and in that it with as for on was at by this from but not").split()


def filler(n: int, seed: int = 7) -> str:
    """About ``n`` characters of sentences of everyday words (none about passports)."""
    rng = random.Random(seed)
    out, size = [], 0
    while size < n:
        s = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(6, 18))).capitalize() + rng.choice(".!?")
        if rng.random() < 0.05:
            s += "\n"
        out.append(s)
        size += len(s) + 1
    return " ".join(out)[:n]


@pytest.fixture
def cheap(monkeypatch):
    """The costs of a long episode that these tests do not measure, made
    small: facts come from its first 5,000 characters, vectors from its
    first 8 passages (eval/bench_long.py measures the shipped values)."""
    monkeypatch.setattr(episodes_mod, "EXTRACT_CHARS", 5_000)
    monkeypatch.setattr(store_mod, "PASSAGE_VECTORS", 8)


def test_a_1mb_message_is_stored_verbatim_and_recall_finds_a_sentence_near_its_end(models, db_path, cheap):
    text = ODD + " " + filler(1_000_000 - 3_000) + " " + NEEDLE + " " + filler(2_000, seed=8)
    assert len(text) > 999_000 and text.index(NEEDLE) > 995_000
    with Memory(db_path, engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
        mem.add_episode("I moved to Lisbon in May.", speaker="Ana", reference_time="2024-01-01")
        res = mem.add_episode(text, speaker="Ana", reference_time="2024-01-02", name="pasted")
        mem.add_episode("Ben likes trains.", speaker="Ben", reference_time="2024-01-03")
        assert res.facts == [] or all(NEEDLE not in f.text for f in res.facts)  # beyond the extracted head
        hits = mem.recall("What is Ana's passport number?", k=3)
        assert hits[0].kind == "episode" and hits[0].id == res.episode.id
        assert NEEDLE in hits[0].text and len(hits[0].text) < 2_000  # the passage, not the megabyte
        assert hits[0].episode.content == text and hits[0].why["passage"] > 1
        ctx = mem.context("What is Ana's passport number?", budget_tokens=512)
        assert not ctx.abstain and NEEDLE in ctx.text and ctx.tokens <= 512
    with Memory(db_path, engine=ENGINE) as mem:  # byte for byte, after a reopen
        stored = mem.episode(res.episode.id).content
        assert stored.encode("utf-8") == text.encode("utf-8")
        out = io.StringIO()  # and through an export and an import
        _io.write_jsonl(_io.export_rows(mem), out)
    with Memory(engine=ENGINE) as other:
        _io.import_rows(other, _io.read_jsonl(io.StringIO(out.getvalue())))
        assert other.episode(res.episode.id).content == text
        assert other.check() == []


def test_one_long_row_does_not_fail_a_batch(models_mem, cheap):
    long = filler(300_000) + " I live in Oslo."
    got = models_mem.add_episodes([
        {"content": "I work at Globex.", "speaker": "Ana"},
        {"content": long, "speaker": "Ben"},
        {"content": "I live in Porto.", "speaker": "Ana"},
    ])
    assert [len(r.episode.content) for r in got] == [17, len(long), 16]
    assert models_mem.stats()["Episode"] == 3
    assert sorted(f.value for f in models_mem.current("Ana")) == ["Globex", "Porto"]


def test_the_vector_ranker_finds_a_passage_by_its_meaning(models_mem, monkeypatch):
    """No word of the question is in the text: the passage shown is the one
    whose vector is closest (the needle sits among the first passages)."""
    monkeypatch.setattr(store_mod, "PASSAGE_VECTORS", 64)
    text = filler(3_000) + " Our kitten came from the animal shelter on Elm Street. " + filler(9_000, seed=9)
    res = models_mem.add_episode(text, speaker="Ana", reference_time="2024-01-02")
    models_mem.add_episode("The bakery sells bread.", speaker="Ben", reference_time="2024-01-03")
    [hit] = [h for h in models_mem.recall("Where did they adopt their cat?", k=5) if h.kind == "episode"
             and h.id == res.episode.id]
    assert "bm25" not in hit.why and "vector" in hit.why
    assert "kitten came from the animal shelter" in hit.text


def test_passages_cover_a_long_text_in_order_within_the_word_limit():
    text = filler(40_000) + " " + " ".join(["word"] * 450) + ". " + filler(5_000, seed=3)
    spans = passage_spans(text)
    assert all(0 < len(text[a:b].split()) <= PASSAGE_WORDS for a, b in spans)
    assert all(a < b <= c for (a, b), (c, _) in zip(spans, spans[1:]))
    assert [w for a, b in spans for w in text[a:b].split()] == text.split()  # every word, once, in order
    assert any(text[a:b] == " ".join(["word"] * PASSAGE_WORDS) for a, b in spans)  # a long sentence: windows
    docs = sentence_documents("Ana", text)
    assert len(docs) == min(len(spans), store_mod.PASSAGE_VECTORS)
    assert docs[0] == f"Ana: {text[spans[0][0]:spans[0][1]]}"
    # the own vector of a long episode reads its first page; a short one is as before
    assert episode_document("Ana", text) == "Ana: " + text[:LONG_EPISODE_CHARS]
    short = filler(LONG_EPISODE_CHARS)
    assert episode_document("Ana", short) == f"Ana: {short}"
    assert sentence_documents("Ana", short) == [
        f"Ana: {p}" for p in store_mod._SENTENCE_BREAK.split(short) if len(p.split()) >= 2]


def test_extraction_reads_the_head_cut_at_a_sentence_break():
    text = filler(300_000)
    head = episodes_mod.extraction_text(text)
    assert text.startswith(head) and len(head) <= episodes_mod.EXTRACT_CHARS
    assert head[-1] in ".!?" and len(head) > episodes_mod.EXTRACT_CHARS - 200
    assert episodes_mod.extraction_text("Short. Text.") == "Short. Text."


@pytest.mark.slow
def test_a_10mb_message_with_the_shipped_limits(models, tmp_path):
    """The shipped EXTRACT_CHARS and PASSAGE_VECTORS: a 10 MB message is
    stored, and recall finds the sentence 1,500 characters from its end."""
    text = filler(10_000_000 - 2_000) + " " + NEEDLE + " " + filler(1_400, seed=8)
    with Memory(str(tmp_path / "big.db"), engine=ENGINE, embedder=models[0], nli=models[1]) as mem:
        res = mem.add_episode(text, speaker="Ana", reference_time="2024-01-02")
        hits = mem.recall("What is Ana's passport number?", k=3)
        assert hits[0].id == res.episode.id and NEEDLE in hits[0].text
        assert mem.episode(res.episode.id).content == text
