"""Hybrid recall over facts and episodes, as of a time.

Candidates come from three rankers over one group:

* **graph** — the query's entities (names, aliases, first person = the
  speaker) and their subgraph: their facts, facts whose value is them, and
  one more hop through those values;
* **bm25** — BM25 (``bm25s``) over fact sentences and episode contents;
* **vector** — exact cosine (numpy) of the MiniLM query vector with the
  group's fact and episode vectors.

They are fused by a weighted sum of min-max normalised scores (BM25 and
cosine over each ranker's top 50; the graph as a small rank bonus), plus a
recency tie-break and importance; an episode said by an entity the query
names gets a bonus (``SPEAKER_WEIGHT``), and so does one said within a date
the query names ("in October 2023": ``DATE_WEIGHT``) and, when the query asks
when, one that tells a time ("yesterday": ``WHEN_WEIGHT``). Reciprocal rank fusion is kept as an option
(``FUSION = "rrf"``); it lost to the sum on LoCoMo (docs/recall.md). Only facts visible at
``(valid_at, known_at)`` and episodes recorded by ``known_at`` (and said by
``valid_at`` when it is given) are returned.

The BM25 index and the vector matrix of a group are built on first use and
rebuilt after writes to the group (one build, then every query is cheap).
Facts stored without a vector (``add_fact``) are embedded at build time.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import math
import re
import threading
from collections import Counter
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Sequence

import numpy as np

from . import _people
from ._entities import cluster, linked
from ._extract.casing import _english, is_first_name, places
from ._query import QueryInfo, analyze, asked_part, said_as
from ._store import alias_key, document, episode_document, is_long, passage_spans, sentence_documents
from ._types import Entity, Episode, Fact

RRF_K = 60
#: Fusion: "sum" of min-max normalised BM25 and cosine scores (plus a graph
#: bonus) beat reciprocal rank fusion on LoCoMo evidence recall@10 (0.60 vs
#: 0.52 on conv-26; BM25 alone 0.49, vector alone 0.45): docs/recall.md.
FUSION = "sum"
WEIGHTS = {"graph": 0.1, "bm25": 1.0, "vector": 0.5}
#: Episodes that merely mention a query entity are not a ranker of their own:
#: in a two-person chat that is every turn (it cost 0.06 recall@10).
GRAPH_EPISODES = False
RECENCY_BONUS = 0.001   # at most, for the newest candidate: a tie-break
CANDIDATES = 50         # per ranker
#: Cold episodes context assembly counts in its abstention test
#: (Recaller.cold_turns; docs/forgetting.md, "Abstention under forgetting").
COLD_TURNS = 10
#: Added to the fused score of an episode said by an entity the query names:
#: what a person says is mostly about themselves. LoCoMo recall@10, conv-26+30:
#: 0.765 without, 0.784 at 0.2; conv-41..43: 0.719, 0.743 at 0.2, 0.753 at 0.3.
#: All 10 with the final rankers (TERM_VECTOR 0.5): 0.749 at 0.2, 0.754 at 0.3,
#: 0.759 at 0.4, 0.760 at 0.5, 0.761 at 0.6; 0.762 at 0.4 with TERM_VECTOR 0.7.
#: With SENTENCES and TERM_VECTOR 0.5: 0.772 at 0.4, 0.776 at 0.5 (a prototype
#: splitting photo captions slightly differently: 0.770 at 0.3, 0.778 at 0.5);
#: but 0.5 costs context assembly (category-5 abstain 0.511 -> 0.504, evidence
#: in context 0.618 -> 0.612), so context assembly keeps 0.4 (its own
#: _context.SPEAKER_WEIGHT). With the date and "when" bonuses, all 10,
#: recall@10 at 0.4 / 0.5 / 0.6 / 0.7 / 0.8 (WHEN_WEIGHT 0.2, DATE_WEIGHT
#: 1.0): 0.796 / 0.798 / 0.800 / 0.800 / 0.800; 0.7 is the best of a 20-point
#: grid (0.8003). Chosen on the data it is reported on: choosing the grid
#: point on nine conversations and scoring the tenth, in turn, gives 0.7995.
SPEAKER_WEIGHT = 0.7
#: A name no speaker has that begins the name of one speaker of the group
#: alone is that speaker ("Mel" for Melanie, "Caro" for Caroline; three
#: letters or more): people shorten the names of those they talk to, and the
#: entity made from "Wow Mel" is not the speaker. LoCoMo, all 10 conversations
#: (with BETWEEN in _context): false abstain 0.084 -> 0.080, category 5 and
#: recall@10 unchanged.
NICKNAMES = True
#: A first name asked also finds the entities named by its usual variants
#: ("Becky" for Rebecca, "Tom" for Thomas, and back; the ``nicknames``
#: package's table, Apache-2.0): people call one person by both, and the
#: memory keeps whichever was said.
NAME_VARIANTS = True
#: A role known only through others is found through them ("my mother-in-law":
#: my wife's mother; ``_people.KIN_PATHS``).
KIN = True
#: A question typed without capitals gets the capitals of the people the
#: memory knows before it is parsed (:meth:`Recaller.cased_question`).
QUESTION_NAMES = True
#: ... and the capital of a word that is a first name (``casing.is_first_name``)
#: the memory does not know and no place of the place table is ("hilliard"),
#: so that the question is of someone unknown ("where is priya moving?"
#: abstains) and not of the words "priya" and "moving".
QUESTION_FIRST_NAMES = True


@lru_cache(maxsize=1)
def _nick_namer():
    try:
        from nicknames import NickNamer
    except ImportError:  # the package is a dependency; without it, no variants
        return None
    return NickNamer()


def name_variants(name: str) -> set[str]:
    """The usual other forms of a single first name (lower case), itself excluded."""
    nn = _nick_namer()
    n = name.strip().lower()
    if nn is None or not n.isalpha() or len(n) < 2:
        return set()
    out = nn.canonicals_of(n) | nn.nicknames_of(n)
    return out - {n}
#: Facts embedded and stored per transaction when an index build finds facts without vectors.
VECTOR_CHUNK = 2048
#: BM25 indexes each episode together with this many messages said before it
#: (LoCoMo conv-26 + conv-30 recall@10 with 1, 2, 3 messages: 0.753, 0.765, 0.756; docs/recall.md).
CONTEXT_TURNS = 2
#: When the query names someone, the vector ranker's score is this share the
#: cosine with the asked words alone (names left out), the rest the cosine with
#: the query: the name in the query favours turns that address that person.
#: All 10 LoCoMo conversations, recall@10: 0.736 at 0, 0.747 at 0.35, 0.748 at
#: 0.5, 0.750 at 0.7, 0.744 at 1.0 (docs/recall.md); with the message after each
#: turn in BM25: 0.754 at 0.5, 0.758 at 0.7. With SENTENCES (speaker bonus
#: 0.4): 0.772 at 0.5, 0.770 at 0.7 (the prototype: 0.767 at 0, 0.771 at 0.3).
TERM_VECTOR = 0.5
#: ... and this many messages said after it: a reply often names what the
#: message was about ("Pottery sounds fun!"). All 10 LoCoMo conversations,
#: recall@10 with 0, 1, 2: 0.748, 0.754, 0.755 (1 previous message and 1
#: next: 0.738).
NEXT_TURNS = 1
#: The vector ranker scores an episode of several sentences by its best
#: sentence: a long turn's single vector blurs what each sentence says.
#: All 10 LoCoMo conversations, vector alone: 0.440 -> 0.565 recall@10;
#: fused: 0.762 -> 0.771 (mixing in the whole-turn vector: 0.770 at 0.15,
#: 0.769 at 0.3, 0.764 at 0.5). docs/recall.md.
SENTENCES = True
#: An episode said within a date the question names ("in October 2023", "on
#: 16 November, 2023"; "last week", "in May": the latest before the query
#: time), or up to DATE_SLACK days after it (a turn tells of last week), gets
#: this bonus (QueryInfo.dates). All 10 LoCoMo conversations,
#: recall@10: 0.776 without; 0.778 / 0.782 / 0.790 at 0.2 / 0.4 / 0.8 with
#: 7 days; with 0 days 0.788 / 0.789 / 0.789 at 0.8 / 1.2 / 2.0 (0.4 with 21
#: days: 0.782); adding every episode of the span as a candidate (not only
#: the rankers' top 50): +0.0006. With the "when" bonus and the speaker
#: bonus at 0.7: 0.799 at 0.8, 0.800 at 1.0.
DATE_WEIGHT = 1.0
DATE_SLACK = 7
#: An episode also counts as said within a date the question names when a
#: time it tells of overlaps the date ("the fireworks last night", said on 1
#: January, tells of 31 December): its event times, found by
#: _timeexpr.find against its reference time when the index is built. A
#: told time longer than the asked date and longer than a week ("in 2023"
#: asked about 31 December) does not count. docs/time.md has the figures.
EVENT_TIMES = True
_WEEK_S = 7 * 86400.0
#: When the question asks *when* ("When did ...", "what year", "how long
#: ago"), an episode that tells a time ("yesterday", "last week", "in May",
#: "2022", "ago", "just") gets this bonus: the answer is a time said in a
#: turn, or the turn's own date. All 10 LoCoMo conversations, recall@10
#: (speaker bonus 0.4, date 0.8): 0.790 without, 0.791 / 0.793 / 0.792 /
#: 0.793 at 0.1 / 0.2 / 0.3 / 0.4 (temporal questions 0.827 -> 0.842 at 0.2);
#: speaker bonus 0.7, date 1.0: 0.798 without, 0.800 with 0.2.
WHEN_WEIGHT = 0.2
_WHEN_Q = re.compile(r"^\s*when\b|\b(what|which) (year|month|date|day)\b|\bhow long ago\b", re.I)
_TIME_WORDS = re.compile(
    r"\b(yesterday|today|tonight|tomorrow|ago|recently|just|(19|20)\d\d|"
    r"(last|this|next) (week|weekend|month|year|night|morning|summer|winter|spring|fall|autumn|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"january|february|march|april|june|july|august|september|october|november|december)\b", re.I)


#: Irregular forms are put to their lemma before stemming ("spent" -> "spend";
#: read once, when the process's stemmer is built). LoCoMo: recall@10 0.8022
#: -> 0.8032; category-5 / false abstain 0.628 / 0.095 -> 0.621 / 0.094 at
#: the same threshold.
IRREGULAR = True
_STEMMER = None
#: Irregular forms that are more often a word of their own ("the ground", "a rose").
_HOMOGRAPHS = frozenset({"ground", "wound", "rose", "bore", "lay", "lied"})


class _Stemmer:
    """English Snowball stems (PyStemmer: "lives", "living" and "live" are one
    term), with irregular verb and noun forms first put to their lemma, from
    the exceptions table of the spaCy pipeline's lemmatizer ("spent" ->
    "spend", "bought" -> "buy", "children" -> "child"): "Where did Sam spend
    the day?" matches "I spent the day hiking"."""

    def __init__(self) -> None:
        import Stemmer

        self._snowball = Stemmer.Stemmer("english")
        self._lemma: dict[str, str] = {}
        if IRREGULAR:
            from .models import load_spacy

            exc = load_spacy().get_pipe("lemmatizer").lookups.get_table("lemma_exc")
            for pos in ("verb", "noun"):
                for form, lemmas in exc.get(pos, {}).items():
                    lemma = lemmas[0] if lemmas else form
                    # a plural in s may be a verb too ("lives", "leaves"): Snowball has those
                    if (form.isalpha() and lemma.isalpha() and form not in _HOMOGRAPHS
                            and not (pos == "noun" and form.endswith("s")) and form not in self._lemma
                            and self._snowball.stemWord(form) != self._snowball.stemWord(lemma)):
                        self._lemma[form] = lemma

    def stemWord(self, word: str) -> str:  # noqa: N802 (PyStemmer's name, which bm25s calls)
        return self._snowball.stemWord(self._lemma.get(word, word))

    def stemWords(self, words) -> list[str]:  # noqa: N802
        return self._snowball.stemWords([self._lemma.get(w, w) for w in words])


def _stemmer() -> _Stemmer:
    global _STEMMER
    if _STEMMER is None:
        _STEMMER = _Stemmer()
    return _STEMMER


_STOPWORDS: list[str] | None = None


def _stopwords() -> list[str]:
    """spaCy's English stop words (326): bm25s's own list keeps "where",
    "do", "how" and "you", so "Where do I work?" matched "How do you like it?"."""
    global _STOPWORDS
    if _STOPWORDS is None:
        from spacy.lang.en.stop_words import STOP_WORDS

        _STOPWORDS = sorted(STOP_WORDS)
    return _STOPWORDS


@dataclass(frozen=True, slots=True)
class Hit:
    """One recalled fact or episode, with its score and where it came from."""

    kind: Literal["fact", "episode"]
    id: str
    text: str                     # a fact's sentence; an episode's content (a long one's: the passage that matched)
    score: float
    fact: Fact | None
    episode: Episode | None
    source: str | None            # the episode it comes from (its own id for an episode)
    source_name: str | None       # that episode's name
    time: _dt.datetime            # valid_from of a fact, reference_time of an episode
    why: dict = field(default_factory=dict)  # ranker -> rank (1 = best), and the fused parts
    #: The query was longer than ``MAX_QUERY_CHARS`` (2,000 characters) and
    #: only its start was ranked (set on every hit of that recall).
    query_truncated: bool = False


@dataclass(frozen=True)
class _Passages:
    """A long episode as recall indexes it (``_store.is_long``): a digest of
    its content, the spans of its passages (``_store.passage_spans``) and
    the BM25 terms of each. BM25 ranks the passages, and an episode scores
    as its best passage; the first PASSAGE_VECTORS of them have the
    episode's sentence vectors, in the same order."""

    digest: bytes
    spans: list[tuple[int, int]]
    tokens: list[list[str]]


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


@dataclass
class _Index:
    keys: list[tuple[str, str]]           # (kind, id)
    texts: list[str]
    bm25: Any
    matrix: np.ndarray                    # rows aligned with keys, L2-normalised (zero if unknown)
    row: dict[tuple[str, str], int]
    tokens: list[list[str]] = field(default_factory=list)  # BM25 terms of each text alone
    speakers: dict[str, str] = field(default_factory=dict)  # episode id -> alias key of its speaker
    #: per row, an episode's sentence vectors (None: scored by its ``matrix`` row alone)
    sentences: list[np.ndarray | None] = field(default_factory=list)
    #: per row, an episode's (own terms, terms put to its listener), filled on
    #: first use by context assembly (_context._voiced) and reused by rebuilds
    voice: list[tuple[frozenset[str], frozenset[str]] | None] = field(default_factory=list)
    #: per row, an episode's reference time (POSIX seconds; NaN for a fact)
    times: np.ndarray = field(default_factory=lambda: np.zeros(0))
    #: per row, whether an episode tells a time ("yesterday", "in May"; False for a fact)
    timed: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    #: per row, the times an episode tells of, as (start, end) POSIX seconds
    #: (_timeexpr.find against its reference time; empty for a fact)
    events: list[tuple[tuple[float, float], ...]] = field(default_factory=list)
    #: per row, a long episode's passages (None: the row is one BM25 document)
    passages: list[_Passages | None] = field(default_factory=list)
    #: the row of each BM25 document, non-decreasing (None: one document per row)
    doc_rows: np.ndarray | None = None
    #: per row, a cold episode (Memory.forget, docs/forgetting.md): never a
    #: candidate, but its text, speaker and terms stay, so that what abstention
    #: reads about who said what still counts it
    cold: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    _idf: dict[str, float] | None = field(default=None, repr=False)
    _voiced: dict[str, set[str]] | None = field(default=None, repr=False)
    #: row -> the vector of a cold episode, embedded again in memory (never
    #: stored) when abstention counts it (Recaller.cold_turns)
    cold_vectors: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        #: the alias keys of everyone who speaks in the group
        self.speaker_keys = frozenset(self.speakers.values())
        rows = [r for r, m in enumerate(self.sentences) if m is not None and len(m)]
        self._sent_rows = np.array(rows, dtype=np.int64)
        self._sent_starts = np.cumsum([0] + [len(self.sentences[r]) for r in rows[:-1]], dtype=np.int64)  # type: ignore[arg-type]
        self._sent_matrix = (np.concatenate([self.sentences[r] for r in rows]) if rows  # type: ignore[misc]
                             else np.zeros((0, self.matrix.shape[1]), dtype=np.float32))

    def whole_cosine(self, key: tuple[str, str], v: np.ndarray) -> float | None:
        """One document's cosine with ``v`` by its own vector (not its best
        sentence's, as :meth:`cosines`); None when it is not in the index.
        A long episode has no vector of the whole (its own reads its first
        page): its best passage's."""
        r = self.row.get(key)
        if r is None:
            return None
        if r in self.cold_vectors:
            return float(self.cold_vectors[r] @ v)
        if self.long(r) and self.sentences[r] is not None and len(self.sentences[r]):  # type: ignore[arg-type]
            return float(np.max(self.sentences[r] @ v))  # type: ignore[operator]
        return float(self.matrix[r] @ v)

    def said_within(self, r: int, spans: Sequence[tuple[float, float]], slack: float = 0.0) -> bool:
        """Whether row ``r`` (an episode) was said within one of ``spans``
        ((start, end) POSIX seconds) or up to ``slack`` seconds after it, or
        tells of a time that overlaps one (EVENT_TIMES) and is no longer
        than it or than a week."""
        t = self.times[r]
        if any(lo <= t < hi + slack for lo, hi in spans):
            return True
        if not EVENT_TIMES or r >= len(self.events):
            return False
        return any(a < hi and b > lo and b - a <= max(hi - lo, _WEEK_S)
                   for a, b in self.events[r] for lo, hi in spans)

    def long(self, r: int) -> bool:
        """Whether row ``r`` is a long episode, indexed by passages."""
        return r < len(self.passages) and self.passages[r] is not None

    def best_passage(self, r: int, doc_scores: np.ndarray | None, v: np.ndarray) -> int:
        """The passage of long episode ``r`` that best matches the query:
        its best BM25 passage, else its most similar passage vector, else the first."""
        if doc_scores is not None and self.doc_rows is not None:
            lo, hi = np.searchsorted(self.doc_rows, [r, r + 1])
            if hi > lo and doc_scores[lo:hi].max() > 0:
                return int(np.argmax(doc_scores[lo:hi]))
        m = self.sentences[r]
        p = self.passages[r]
        if m is not None and len(m) and p is not None and len(m) <= len(p.spans):  # the first passages
            return int(np.argmax(m @ v))
        return 0

    def cosines(self, v: np.ndarray) -> np.ndarray:
        """The cosine of every document with ``v``; an episode of several
        sentences scores by its best sentence (SENTENCES)."""
        sims = self.matrix @ v
        if SENTENCES and len(self._sent_rows):
            sims[self._sent_rows] = np.maximum.reduceat(self._sent_matrix @ v, self._sent_starts)
        return sims

    def idf(self) -> dict[str, float]:
        """BM25's inverse document frequency of each term over the texts alone
        (computed on first use: only context assembly asks)."""
        if self._idf is None:
            df = Counter(t for toks in self.tokens for t in set(toks))
            n = len(self.tokens)
            self._idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        return self._idf


#: Episodes longer than this are not searched for the times they tell of
#: (a pasted document's dates are not one event).
EVENT_CHARS = 2000


def _event_times(content: str | None, when: _dt.datetime | None) -> tuple[tuple[float, float], ...]:
    """The times an episode tells of ("last night" said on 1 January: 31
    December), as (start, end) POSIX seconds, the day it was said left out."""
    if not EVENT_TIMES or not content or when is None or len(content) > EVENT_CHARS:
        return ()
    from ._timeexpr import find

    said = when.timestamp()
    out = []
    for _, _, ref in find(content, when):
        lo, hi = ref.start.timestamp(), ref.end.timestamp()
        if not lo <= said < hi and (lo, hi) not in out:
            out.append((lo, hi))
    return tuple(out)


def _with_said_as(query: str) -> str:
    """``query`` with the chat spellings of its words after it ("birthday"
    also looks for "bday"; ``_query.said_as``)."""
    alts = said_as(re.findall(r"[a-z]+", query.casefold()))
    return f"{query} {' '.join(alts)}" if alts else query


def _top_positive(scores: np.ndarray, n: int) -> list[tuple[int, float]]:
    """The ``n`` best positive scores, best first, as (row, score). BM25 scores
    are mostly zero: selecting among the positive ones only is what keeps a
    100k-row memory fast (a partition of the whole array, most of it ties at
    zero, cost 13 ms a question there)."""
    pos = np.flatnonzero(scores > 0)
    if len(pos) > n:
        pos = pos[np.argpartition(-scores[pos], n - 1)[:n]]
    pos = pos[np.argsort(-scores[pos], kind="stable")]
    return [(int(j), float(scores[j])) for j in pos]


def _tokenize(texts: list[str]) -> list[list[str]]:
    """BM25 terms (stop words out, Snowball stems) of each text. A few texts
    (a question, a line being judged) come from a cache: context() asks for
    the same lines' terms question after question."""
    if not texts:
        return []
    if len(texts) > 4:  # an index build: one call
        return _bm25_tokenize(texts)
    return [list(_terms_of(t)) for t in texts]


def _bm25_tokenize(texts: list[str]) -> list[list[str]]:
    import bm25s

    return bm25s.tokenize(texts, stopwords=_stopwords(), stemmer=_stemmer(), return_ids=False,
                          show_progress=False)


@lru_cache(maxsize=16384)
def _terms_of(text: str) -> tuple[str, ...]:
    return tuple(_bm25_tokenize([text])[0])


#: "my ex" is the one the asker was last with, when that ended: the value of
#: their latest partner, fiancé(e) or spouse belief that no longer holds
#: ("dario and i are done" closed partner: Dario, so "how long was i with my
#: ex?" asks of Dario and finds "my bf lol. 2 yrs in april").
EX_PARTNER = True
#: A role the memory knows by an alias ("Helen, my manager") and by its owner's
#: relation fact is whoever the fact holds now ("my direct manager is a man
#: called Gareth Rees" closed manager: Helen): the alias names the first holder.
HOLDER_FIRST = True
EX_OF = ("partner", "fiance", "spouse")


def _is_ex(word: str) -> bool:
    """Whether a role word is "ex" (or one of its spellings)."""
    cls = _people.role_class(word)
    return cls is not None and cls[0] == "ex"


#: A child of no told role gender is a son or daughter of a kin path when
#: the pronouns said of them tell only that gender ("Are Ella and Sam Marc's
#: children?" - "Yes" ... "Sam made the team! He's their goalie": my grandson).
KIN_CHILD_TOLD = True

class Recaller:
    """The recall indexes of one Memory (per group, rebuilt after writes)."""

    def __init__(self, mem) -> None:
        self.mem = mem
        self._indexes: dict[str, tuple[tuple[int, int], _Index]] = {}
        self._lock = threading.Lock()

    # -- indexes ---------------------------------------------------------------------
    def index(self, group_id: str) -> _Index:
        store = self.mem._store
        with self._lock:
            cached = self._indexes.get(group_id)
            # The group's stored generation (schema 7): it moves with every commit
            # that writes the group, in any process (docs/scaling.md, "Freshness").
            if cached is not None and cached[0] == store.group_generation(group_id):
                return cached[1]
            # Stamp the index with the generation its documents were read at: a
            # write committed by another thread during the build must make the
            # next query rebuild, not hide behind a newer stamp. The build's own
            # commits (vectors of facts that had none) are counted in.
            before = store.group_generation(group_id)
            built, own_commits = self._build(group_id, cached[1] if cached is not None else None)
            after = store.group_generation(group_id)
            stamp = after if after == (before[0] + own_commits, before[1]) else before
            self._indexes[group_id] = (stamp, built)
            return built

    def forget(self, group_id: str | None = None) -> None:
        """Drop cached indexes (after deletions: a rebuild then starts afresh)."""
        with self._lock:
            if group_id is None:
                self._indexes.clear()
            else:
                self._indexes.pop(group_id, None)

    def _build(self, group_id: str, prev: _Index | None = None) -> tuple[_Index, int]:
        """The group's index, and how many transactions building it committed.
        What ``prev`` (the index before the last
        writes) already holds is reused: a document's vector never changes
        (a fact's is keyed by its id, shared by its versions) and its terms
        change only with its text. So a rebuild reads and tokenises only
        what is new: at 100k facts, ~1 s instead of ~10 s, most of which was
        reading every vector back from the database."""
        import bm25s

        store = self.mem._store
        facts, episodes = store.group_documents(group_id)
        cold_ids = store.cold_episode_ids(group_id)
        keys = [("fact", i) for i, _ in facts] + [("episode", i) for i, *_ in episodes]
        # a long episode's text in the index is its first page (what context assembly
        # reads of a turn); BM25 indexes all of it, by passages
        texts = [t or "" for _, t in facts] + [
            episode_document(s or None, c) if is_long(c) else (t or "") for _, t, s, c, _ in episodes]
        nf = len(facts)
        digests = {nf + j: _digest(c) for j, (_, _, _, c, _) in enumerate(episodes) if is_long(c)}
        passages: list[_Passages | None] = [None] * len(keys)
        speakers = {i: alias_key(group_id, s) for i, _, s, *_ in episodes if s}
        times = np.array([math.nan] * len(facts) + [t.timestamp() if t else math.nan for *_, t in episodes])
        timed = np.array([False] * len(facts) + [bool(_TIME_WORDS.search(c)) for _, _, _, c, _ in episodes], dtype=bool)
        events: list[tuple[tuple[float, float], ...] | None] = [()] * len(facts) + [None] * len(episodes)
        matrix = np.zeros((len(keys), 384), dtype=np.float32)
        sentences: list[np.ndarray | None] = [None] * len(keys)
        voice: list[tuple[frozenset[str], frozenset[str]] | None] = [None] * len(keys)
        tokens: list[list[str] | None] = [None] * len(keys)
        reused = [False] * len(keys)
        cold = np.array([kind == "episode" and i in cold_ids for kind, i in keys], dtype=bool)
        if prev is not None:
            for r, key in enumerate(keys):
                j = prev.row.get(key)
                if j is None:
                    continue
                if j < len(prev.cold) and prev.cold[j] and not cold[r]:
                    continue  # warmed: its vectors are read again
                old = prev.passages[j] if j < len(prev.passages) else None
                same = prev.texts[j] == texts[r] and (old.digest if old else None) == digests.get(r)
                if same and old is not None:
                    passages[r] = old
                if same or key[0] == "fact":  # an episode id may be reused for new content
                    matrix[r] = prev.matrix[j]
                    sentences[r] = prev.sentences[j]
                    reused[r] = True
                if same and j < len(prev.tokens):
                    tokens[r] = prev.tokens[j]
                if same and j < len(prev.voice):
                    voice[r] = prev.voice[j]
                if same and key[0] == "episode" and j < len(prev.events) and prev.times[j] == times[r]:
                    events[r] = prev.events[j]
        new_episodes = [i for r, (kind, i) in enumerate(keys) if kind == "episode" and not reused[r]]
        fvec = store.vectors("FactVector", [i for r, (kind, i) in enumerate(keys) if kind == "fact" and not reused[r]])
        evec = store.vectors("Episode", new_episodes, group_id)
        svec = store.vectors("EpisodeSentences", new_episodes, group_id)
        missing, unsplit, commits = [], [], 0
        for r, (kind, i) in enumerate(keys):
            if reused[r] or cold[r]:  # a cold episode has no vectors
                continue
            b = (fvec if kind == "fact" else evec).get(i)
            if b is not None:
                matrix[r] = np.frombuffer(b, dtype=np.float32)
            elif kind == "fact":
                missing.append(r)
            if kind == "episode":
                if (b := svec.get(i)) is None:
                    unsplit.append(r)
                elif b:
                    sentences[r] = np.frombuffer(b, dtype=np.float32).reshape(-1, matrix.shape[1])
        for r in np.flatnonzero(cold):  # carried over from the index before it went cold
            matrix[r] = 0.0
            sentences[r] = None
        if missing:  # facts written by add_fact carry no vector: embed them once, keep them
            commits += self._keep_vectors(missing, "FactVector", "facts embedded", group_id, lambda rows: {
                keys[r][1]: v for r, v in zip(rows, self._embed_rows(matrix, rows, [texts[r] for r in rows]))})
        if unsplit:  # episodes stored before schema version 3: split and embed them once, keep them
            commits += self._keep_vectors(unsplit, "EpisodeSentences", "episodes split into sentences", group_id,
                                          lambda rows: self._embed_sentences(rows, keys, episodes, nf, sentences))
        for r in range(nf, len(keys)):
            if events[r] is None:
                _, _, _, content, when = episodes[r - nf]
                events[r] = _event_times(content, when)
        fresh = [r for r, t in enumerate(tokens) if t is None]
        for r, toks in zip(fresh, _tokenize([texts[r] for r in fresh])):
            tokens[r] = toks
        self._split_long(episodes, nf, digests, passages)
        bm25, doc_rows = None, None
        if keys:
            # An episode is indexed for BM25 with the messages around it: a reply
            # ("Yes, adoption agencies!") carries the question's words. On LoCoMo
            # conv-26 one message lifted recall@10 from 0.60 to 0.70 (docs/recall.md);
            # the same for the vectors did not help and blurred abstention.
            # A long episode lends its nearest passage, and is indexed by its passages.
            def lent(i: int, before: bool) -> list[str]:
                p = passages[nf + i]
                if p is None:
                    return tokens[nf + i]  # type: ignore[return-value]
                return (p.tokens[-1] if before else p.tokens[0]) if p.tokens else []

            corpus = tokens[:nf]
            rows = list(range(nf))
            for j in range(len(episodes)):
                p = passages[nf + j]
                if p is not None and p.tokens:
                    corpus.extend(p.tokens)
                    rows.extend([nf + j] * len(p.tokens))
                    continue
                corpus.append(tokens[nf + j] + [w for i in range(max(0, j - CONTEXT_TURNS), j) for w in lent(i, True)]
                              + [w for i in range(j + 1, min(len(episodes), j + 1 + NEXT_TURNS))
                                 for w in lent(i, False)])
                rows.append(nf + j)
            if len(rows) != len(keys):
                doc_rows = np.asarray(rows, dtype=np.int64)
            if any(corpus):
                bm25 = bm25s.BM25()
                bm25.index(corpus, show_progress=False)
        index = _Index(keys, texts, bm25, matrix, {k: r for r, k in enumerate(keys)}, tokens,  # type: ignore[arg-type]
                       speakers, sentences, voice, times, timed, events=events,  # type: ignore[arg-type]
                       passages=passages, doc_rows=doc_rows, cold=cold)
        return index, commits

    @staticmethod
    def _split_long(episodes, nf: int, digests: dict[int, bytes], passages: list[_Passages | None]) -> None:
        """Split the long episodes not carried over from the last index into
        passages, and tokenise each (one call for all)."""
        todo = [r for r in digests if passages[r] is None]
        if not todo:
            return
        spans = {r: passage_spans(episodes[r - nf][3]) for r in todo}
        docs = [document(episodes[r - nf][2] or None, episodes[r - nf][3][a:b]) for r in todo for a, b in spans[r]]
        toks = iter(_tokenize(docs))
        for r in todo:
            passages[r] = _Passages(digests[r], spans[r], [next(toks) for _ in spans[r]])

    def _embed_rows(self, matrix: np.ndarray, rows: list[int], texts: list[str]) -> list[bytes]:
        """Embed facts stored without a vector into their ``matrix`` rows."""
        vecs = self.mem._embedder().embed(texts)
        matrix[rows] = vecs
        return [v.tobytes() for v in np.asarray(vecs, dtype=np.float32)]

    def _embed_sentences(self, rows: list[int], keys, episodes, nf: int,
                         sentences: list[np.ndarray | None]) -> dict[str, bytes]:
        """Split and embed episodes stored without sentence vectors."""
        docs = {r: sentence_documents(episodes[r - nf][2] or None, episodes[r - nf][3]) for r in rows}
        flat = [d for r in rows for d in docs[r]]
        vecs = np.asarray(self.mem._embedder().embed(flat), dtype=np.float32) if flat else None
        out, at = {}, 0
        for r in rows:
            block = vecs[at:at + len(docs[r])] if vecs is not None and docs[r] else None
            at += len(docs[r])
            sentences[r] = block
            out[keys[r][1]] = b"" if block is None else block.tobytes()
        return out

    def _keep_vectors(self, rows: list[int], label: str, what: str, group_id: str,
                      embed: Callable[[list[int]], dict[str, bytes]]) -> int:
        """Embed what was stored without vectors and keep the vectors, one
        transaction per chunk (returns how many were committed): a 100k-fact first build wrote 200 MB in one
        commit, whose checkpoint ran the buffer pool out. Interrupted, it
        resumes where it stopped. A progress bar on a terminal when long."""
        from ._memory import _progress

        store = self.mem._store
        bar = _progress(len(rows), None, what, threshold=VECTOR_CHUNK)
        try:
            for start in range(0, len(rows), VECTOR_CHUNK):
                chunk = rows[start:start + VECTOR_CHUNK]
                vectors = embed(chunk)
                if not store.read_only:  # read-only: used for this index only
                    with store.transaction():
                        store.set_vectors(label, vectors, group_id)
                if bar is not None:
                    bar.update(len(chunk))
        finally:
            if bar is not None:
                bar.close()
        return 0 if store.read_only else -(-len(rows) // VECTOR_CHUNK)

    # -- recall -----------------------------------------------------------------------
    def recall(
        self, query: str, *, k: int, valid_at: _dt.datetime, known_at: _dt.datetime, group_id: str,
        speaker: str | None = None, info: QueryInfo | None = None, qvec: np.ndarray | None = None,
        term_vec: np.ndarray | None = None,
        explicit_valid: bool = False, include_past: bool = False, speaker_weight: float | None = None,
        focus: Sequence[Entity] | None = None,
    ) -> list[Hit]:
        """``focus``: the question's entities, when the caller has already
        resolved its names (context assembly); resolved here otherwise."""
        from .models import load_spacy

        mem, store = self.mem, self.mem._store
        idx = self.index(group_id)
        query = asked_part(query)
        if info is None:
            info = analyze(self.cased_question(query, group_id), load_spacy(), speaker=speaker, now=known_at)
        # the asked words alone (names left out) join the query in the vector ranker
        use_terms = bool(TERM_VECTOR and info.names and info.terms)
        need_query, need_terms = qvec is None, use_terms and term_vec is None
        if need_query or need_terms:  # one model call for what the caller did not pass
            vecs = iter(mem._embedder().embed([query] * need_query + [" ".join(info.terms)] * need_terms))
            qvec = next(vecs) if need_query else qvec
            term_vec = next(vecs) if need_terms else term_vec
        ranks: dict[str, dict[tuple[str, str], int]] = {}

        # graph: the query's entities and their neighbourhood
        entity_ids = self.resolve_names(info.names, group_id) if focus is None else [e.id for e in focus]
        graph: dict[tuple[str, str], float] = {}
        subgraph_facts: dict[str, Fact] = {}
        # include_past: any valid time (superseded and ended beliefs too), as held at known_at
        when = None if include_past else valid_at
        if entity_ids:
            for f in store.facts_of(entity_ids, group_id=group_id, valid_at=when, known_at=known_at):
                subgraph_facts[f.id] = f
                graph[("fact", f.id)] = 2.0
            for f in store.facts_with_object(entity_ids, valid_at=when, known_at=known_at):
                subgraph_facts.setdefault(f.id, f)
                graph.setdefault(("fact", f.id), 1.5)
            hop2 = sorted({f.object_id for f in subgraph_facts.values() if f.object_id} - set(entity_ids))[:20]
            for f in store.facts_of(hop2, group_id=group_id, valid_at=when, known_at=known_at) if hop2 else []:
                subgraph_facts.setdefault(f.id, f)
                graph.setdefault(("fact", f.id), 1.0)
            if GRAPH_EPISODES:
                for eid, eps in store.episodes_mentioning(entity_ids).items():
                    for i in eps:
                        r = idx.row.get(("episode", i))
                        if r is None or r >= len(idx.cold) or not idx.cold[r]:
                            graph.setdefault(("episode", i), 1.0)
        if graph:
            # within the subgraph, order by similarity to the query
            scored = sorted(
                graph, key=lambda key: -(graph[key] + float(idx.matrix[idx.row[key]] @ qvec) if key in idx.row else graph[key])
            )
            ranks["graph"] = {key: r for r, key in enumerate(scored[: CANDIDATES * 2], 1)}

        values: dict[str, dict[tuple[str, str], float]] = {}
        doc_scores: np.ndarray | None = None  # BM25 per document, when long episodes are several
        vq = (1 - TERM_VECTOR) * qvec + TERM_VECTOR * term_vec if use_terms else qvec
        if idx.keys:
            # one product: the cosine mix is linear in the query vector
            sims = idx.cosines(vq)
            n_cold = int(idx.cold.sum()) if len(idx.cold) else 0
            n = min(CANDIDATES + n_cold, len(sims))
            top = np.argpartition(-sims, n - 1)[:n]
            top = top[np.argsort(-sims[top])]
            if n_cold:  # cold episodes are never candidates (docs/forgetting.md)
                top = top[~idx.cold[top]][:CANDIDATES]
            ranks["vector"] = {idx.keys[j]: r for r, j in enumerate(top, 1)}
            values["vector"] = {idx.keys[j]: float(sims[j]) for j in top}
            terms = [w for w in _tokenize([_with_said_as(query)])[0] if idx.bm25 is not None and w in idx.bm25.vocab_dict]
            if terms and idx.doc_rows is None:  # one BM25 document per row
                found = _top_positive(idx.bm25.get_scores(terms), CANDIDATES + n_cold)
                found = [(j, s) for j, s in found if not (n_cold and idx.cold[j])][:CANDIDATES]
                ranks["bm25"] = {idx.keys[j]: r for r, (j, _) in enumerate(found, 1)}
                values["bm25"] = {idx.keys[j]: s for j, s in found}
            elif terms:  # long episodes are several documents: a row scores as its best one
                doc_scores = idx.bm25.get_scores(terms)
                per_row = np.zeros(len(idx.keys))
                np.maximum.at(per_row, idx.doc_rows, doc_scores)
                if n_cold:
                    per_row[idx.cold] = 0.0
                found = np.flatnonzero(per_row > 0)
                top = found[np.argsort(-per_row[found], kind="stable")][:CANDIDATES]
                ranks["bm25"] = {idx.keys[j]: r for r, j in enumerate(top, 1)}
                values["bm25"] = {idx.keys[j]: float(per_row[j]) for j in top}

        fused: dict[tuple[str, str], float] = {}
        if FUSION == "rrf":
            for ranker, rank in ranks.items():
                for key, r in rank.items():
                    fused[key] = fused.get(key, 0.0) + WEIGHTS[ranker] / (RRF_K + r)
        else:  # "sum": min-max normalised scores, weighted; graph as a rank-based bonus
            for ranker, vals in values.items():
                if not vals:
                    continue
                lo, hi = min(vals.values()), max(vals.values())
                for key, v in vals.items():
                    fused[key] = fused.get(key, 0.0) + WEIGHTS[ranker] * ((v - lo) / (hi - lo) if hi > lo else 1.0)
            for key, r in ranks.get("graph", {}).items():
                fused[key] = fused.get(key, 0.0) + WEIGHTS["graph"] * 2.0 / (1 + r)
        if not fused:
            return []
        bonus: dict[tuple[str, str], dict[str, float]] = {}  # key -> the bonuses it got (its "why")

        def add(name: str, weight: float, holds: Callable[[int, str], bool]) -> None:
            for key in fused:
                r = idx.row.get(key)
                if key[0] == "episode" and r is not None and holds(r, key[1]):
                    fused[key] += weight
                    bonus.setdefault(key, {})[name] = weight

        said_bonus = SPEAKER_WEIGHT if speaker_weight is None else speaker_weight
        if said_bonus and info.names:  # said by someone the question names
            # under the asked names and any name the asked entities go by ("Mel" for Melanie)
            said_by = {alias_key(group_id, n) for n in info.names}
            for e in store.entities_by_id(entity_ids) if focus is None else focus:
                said_by.update(alias_key(group_id, n) for n in (e.name, *e.aliases))
            add("speaker", said_bonus, lambda r, i: idx.speakers.get(i) in said_by)
        if WHEN_WEIGHT and _WHEN_Q.search(query):  # "When did ...": a turn that tells a time
            add("when", WHEN_WEIGHT, lambda r, i: bool(idx.timed[r]))
        if DATE_WEIGHT and info.dates:  # "in October 2023": what was said then, or tells of then
            slack = DATE_SLACK * 86400.0
            spans = [(lo.timestamp(), hi.timestamp()) for lo, hi in info.dates]
            add("date", DATE_WEIGHT, lambda r, i: idx.said_within(r, spans, slack))
        ordered = sorted(fused, key=lambda key: -fused[key])[: max(k * 4, 40)]
        # a long episode is shown by its passage that matched (Hit.text; Hit.episode is all of it)
        excerpts = {}
        for key in ordered:
            r = idx.row.get(key)
            if key[0] == "episode" and r is not None and idx.long(r):
                j = idx.best_passage(r, doc_scores, vq)
                excerpts[key] = (j, *idx.passages[r].spans[j])  # type: ignore[union-attr]
        return self._materialise(ordered, fused, ranks, bonus, subgraph_facts, valid_at, known_at, k,
                                 explicit_valid, include_past, group_id, excerpts)[:k]

    def cold_turns(self, query: str, *, group_id: str, known_at: _dt.datetime, k: int = COLD_TURNS) -> list[Hit]:
        """The cold episodes (``Memory.forget``) that share the most of the
        query's words (BM25 over the cold rows alone), at most ``k``, as hits.

        Not recall: a cold turn is never a candidate, never a line of a
        context. Context assembly counts them in what decides whether a
        question is grounded (who said the asked words, and how well), as it
        did while they were hot, so that forgetting does not change whether
        it abstains (docs/forgetting.md, "Abstention under forgetting").
        Their vectors were dropped: each is embedded again once and kept in
        the index in memory only (``_Index.cold_vectors``), never stored.
        A purged turn is not among them: its words are gone."""
        idx = self.index(group_id)
        if not len(idx.cold) or not idx.cold.any() or idx.bm25 is None:
            return []
        terms = [w for w in _tokenize([_with_said_as(query)])[0] if w in idx.bm25.vocab_dict]
        if not terms:
            return []
        doc_scores = idx.bm25.get_scores(terms)
        per_row = np.zeros(len(idx.keys))
        np.maximum.at(per_row, idx.doc_rows if idx.doc_rows is not None else np.arange(len(idx.keys)), doc_scores)
        per_row[~idx.cold] = 0.0
        found = [int(r) for r in np.flatnonzero(per_row > 0)]
        # a turn that says the words itself before one that only sits beside them (BM25 lends neighbours' words)
        asked = set(terms)
        own = {r: len(asked.intersection(idx.tokens[r])) if r < len(idx.tokens) else 0 for r in found}
        top = sorted(found, key=lambda r: (-own[r], -per_row[r], r))[:k]
        if not top:
            return []
        eps = {e.id: e for e in self.mem._store.episodes_by_id([idx.keys[r][1] for r in top], group_id)}
        rows = [r for r in top if idx.keys[r][1] in eps and not eps[idx.keys[r][1]].purged
                and eps[idx.keys[r][1]].recorded_at <= known_at]
        todo = [r for r in rows if r not in idx.cold_vectors]
        if todo:
            docs = [episode_document(eps[idx.keys[r][1]].speaker, eps[idx.keys[r][1]].content) for r in todo]
            for r, v in zip(todo, self.mem._embedder().embed(docs)):
                v = np.asarray(v, dtype=np.float32)
                n = float(np.linalg.norm(v))
                idx.cold_vectors[r] = v / n if n else v
        out = []
        for r in rows:
            ep = eps[idx.keys[r][1]]
            out.append(Hit("episode", ep.id, idx.texts[r] or ep.content, float(per_row[r]), None, ep, ep.id, ep.name,
                           ep.reference_time, {"cold": True}))
        return out

    def resolve_names(self, names, group_id: str, *, kin: bool = True, guess: bool = True) -> list[str]:
        """Entity ids of the names a question uses, each with every entity it
        is one with (``_entities.cluster``: "Sarah" and "user's wife" after
        "my wife Sarah"). A role name ("user's wife") is found by its name
        keys (as written and by its class, "user's spouse"), else as the
        value of its owner's current relation fact ("user · spouse: Sarah"),
        else (``kin``) through others (:meth:`_by_kin`); a name none of
        these find is, with ``guess``, the entity whose name is nearest in
        meaning (``EntityIndex.similar``);
        :meth:`unknown_roles` says which roles found nobody."""
        store = self.mem._store
        keys: dict[str, str] = {}
        for n in names:
            for spelling in _people.role_keys(n, asked=True):
                keys.setdefault(alias_key(group_id, spelling), n)
        found = store.lookup_names(keys)
        roles = {n for n in names if _people.split_role(n) is not None}
        if roles - {keys[k] for k in found}:
            found.update(self._by_relation(roles - {keys[k] for k in found}, group_id, keys, kin=kin))
        if HOLDER_FIRST and roles & {keys[k] for k in found}:
            # a role whose holder changed ("Helen, my manager" then "my direct manager is
            # Gareth Rees"): the alias names the first holder, the owner's relation fact
            # the one now
            for k, i in self._by_relation(roles & {keys[k] for k in found}, group_id, keys, kin=kin).items():
                for key in [x for x, n in keys.items() if n == keys[k] and x in found]:
                    found[key] = i
        ids = list(dict.fromkeys(found.values()))
        exes = {r for r in roles if EX_PARTNER and _is_ex(_people.split_role(r)[1])} & {keys[k] for k in found}  # type: ignore[index]
        if exes:  # "my ex", known by that name too ("my ex texted me"), is also the partner that was
            ids += [i for i in self._by_relation(exes, group_id, keys, kin=kin).values() if i not in ids]
        kin_roles = {r for r in roles if _people.has_kin(_people.split_role(r)[1])} if KIN and kin else set()  # type: ignore[index]
        if kin_roles:
            # known by no name ("my MIL just moved to Macon" made a "Marcus's mil" of its own): also through others
            named = {keys[k] for k, i in found.items() if keys[k] in kin_roles
                     and self._person_names([i], group_id)[0]}
            # a named one is still one with whoever is that person from the other end ("Nia's mom" and "my MIL")
            for role, found_kin in self._by_kin(kin_roles, group_id, through_only=named).items():
                ids.extend(i for i in found_kin if i not in ids)
                found.update((k, found_kin[0]) for k, n in keys.items() if n == role and k not in found)
        missing = [n for key, n in keys.items() if key not in found]
        # "What was Johns's reaction?": a stray plural s on a known name
        bare = {alias_key(group_id, n[:-1]): n for n in missing if len(n) > 3 and n.endswith("s")}
        if bare:
            for key, i in store.lookup_names(bare).items():
                missing.remove(bare[key])
                if i not in ids:
                    ids.append(i)
        if NICKNAMES:
            # "Mel" for Melanie: a name that begins one speaker's name alone, and is no speaker's
            speakers = self.index(group_id).speaker_keys
            longer = {}
            for n in names:
                k = alias_key(group_id, n)
                if len(n) >= 3 and " " not in n.strip() and k not in speakers:
                    full = [s for s in speakers if s.startswith(k) and len(s) > len(k)]
                    if len(full) == 1:
                        longer[full[0]] = n
            for key, i in store.lookup_names(longer).items() if longer else ():
                if longer[key] in missing:
                    missing.remove(longer[key])
                if i not in ids:
                    ids.append(i)
        if NAME_VARIANTS:
            # a variant that names one entity alone ("Dan" beside Daniel and Danielle is neither)
            variants = {alias_key(group_id, v): n for n in names if _people.split_role(n) is None
                        for v in name_variants(n)}
            per_name: dict[str, set[str]] = {}
            for key, i in store.lookup_names(variants).items() if variants else ():
                per_name.setdefault(variants[key], set()).add(i)
            speakers = self.index(group_id).speaker_keys
            for n, found_ids in per_name.items():
                k = alias_key(group_id, n)
                if len(found_ids) != 1 or sum(s.startswith(k) and s != k for s in speakers) > 1:
                    continue  # two speakers' names begin with it: which one is meant is open
                if n in missing:
                    missing.remove(n)
                if (i := next(iter(found_ids))) not in ids:
                    ids.append(i)
        if missing and guess:
            ingest = self.mem._episodes()
            vecs = self.mem._embedder().embed(missing)
            for n, v in zip(missing, vecs):
                hit = ingest.index.similar(group_id, n, v)
                if hit is not None and hit[0] not in ids:
                    ids.append(hit[0])
        return cluster(store, group_id, ids)

    def _role_ids(self, role: str, group_id: str) -> list[str]:
        """The entities a role name is known as, by its spellings or as its
        owner's relation fact; nothing guessed."""
        keys = {alias_key(group_id, s): role for s in _people.role_keys(role, asked=True)}
        found = self.mem._store.lookup_names(keys) or self._by_relation([role], group_id, keys, kin=False)
        return list(dict.fromkeys(found.values()))

    def _person_names(self, ids, group_id: str) -> tuple[list[str], list[str]]:
        """(names, role names) of the entities one with ``ids``."""
        store = self.mem._store
        names: list[str] = []
        roles: list[str] = []
        for e in store.entities_by_id(cluster(store, group_id, ids)) if ids else ():
            for n in (e.name, *e.aliases):
                (names if _people.split_role(n) is None else roles).append(n)
        return names, roles

    def _by_kin(self, roles, group_id: str, through_only=frozenset()) -> dict[str, list[str]]:
        """Roles known through others (KIN): "my mother-in-law" is my
        spouse's mother, "my grandson" a son of my child
        (``_people.kin_paths``; not for the roles in ``through_only``, known
        by a name already); "Nia's mom", when Nia is my wife, my
        mother-in-law (``_people.kin_through``). Role name -> entity ids.
        One step of kin: the lookups here do not reason about kin again (an
        aunt is an uncle's spouse and an uncle an aunt's)."""
        out: dict[str, list[str]] = {}
        for role in roles:
            owner, word = _people.split_role(role)  # type: ignore[misc]
            found: list[str] = []
            for path in _people.kin_paths(word) if role not in through_only else ():
                found += self._role_ids("'s ".join((owner, *path)), group_id)  # "Marcus's daughter's spouse"
                owners = [owner]
                for step in path[:-1]:  # "Marcus's daughter" is Shelby; "Shelby's spouse"
                    ids = [i for o in owners for i in self._role_ids(f"{o}'s {step}", group_id)]
                    owners = self._person_names(ids, group_id)[0]
                found += [i for o in owners for i in self._role_ids(f"{o}'s {path[-1]}", group_id)]
                last = _people.role_class(path[-1])
                if KIN_CHILD_TOLD and last is not None and last[0] in ("son", "daughter"):
                    # "my grandson": Marc's child Sam, whom "he" was said of
                    found += [i for o in owners for i in self._role_ids(f"{o}'s child", group_id)
                              if self._genders(i, group_id) == {last[1]}]
            through = _people.kin_through(word)
            if through:
                # the roles the owner is known by ("Nia" is "Marcus's wife"): Marcus's mother-in-law
                ids = list(self.mem._store.lookup_names([alias_key(group_id, owner)]).values()) \
                    or self._role_ids(owner, group_id)
                as_roles = [_people.split_role(r) for r in self._person_names(ids, group_id)[1]]
                for step, target in through:
                    step_class = _people.role_class(step)[0]  # type: ignore[index]
                    found += [i for parts in as_roles if parts and _people.role_class(parts[1])[0] == step_class
                              for i in self._role_ids(f"{parts[0]}'s {target}", group_id)]
            gender = _people.gender_of(role)
            for in_law, step in _people.kin_below(word) if role not in through_only else ():
                # "Marcus's mother-in-law" is Loretta, who is "nia's mom": Nia is Marcus's wife
                as_roles = [_people.split_role(r) for r in self._person_names(
                    self._role_ids(f"{owner}'s {in_law}", group_id), group_id)[1]]
                holders = {parts[0] for parts in as_roles if parts and parts[0] != owner
                           and _people.role_class(parts[1])[0] == step}  # type: ignore[index]
                found += [i for i in self.mem._store.lookup_names(
                    [alias_key(group_id, h) for h in holders]).values()
                          if not gender or self._genders(i, group_id) <= {gender, ""}]
            if found:
                out[role] = list(dict.fromkeys(found))
        return out

    def _genders(self, entity_id: str, group_id: str) -> set[str]:
        """The genders the roles of an entity tell ("f", "m"; both when they
        disagree), else the one the pronouns said of it tell
        (``_people.told_gender``), or {""} when none does."""
        names, roles = self._person_names([entity_id], group_id)
        told = {g for r in roles if (g := _people.gender_of(r))}
        if told or not names:
            return told or {""}
        spelled = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in names) + r")\b", re.I)
        return {_people.told_gender([t for t in self.index(group_id).texts if t and spelled.search(t)], names)}

    def roles_at(self, names, group_id: str, valid_at, known_at) -> list[str]:
        """The entities that held the roles among ``names`` at ``valid_at`` as
        known at ``known_at`` ("Ben's manager" in 2022: Paul, though Sarah is
        now): the value of the owner's relation fact then."""
        roles = {n for n in names if _people.split_role(n) is not None}
        if not roles:
            return []
        keys = {alias_key(group_id, n): n for n in roles}
        return list(dict.fromkeys(self._by_relation(roles, group_id, keys, at=(valid_at, known_at)).values()))

    def role_holders(self, names, group_id: str, known_at) -> list[str]:
        """Every entity that has held one of the roles among ``names``, as
        known at ``known_at``: the values of the owner's relation facts at any
        valid time ("who was my boss at the pharma job?": Helen, though
        Gareth is now)."""
        out: list[str] = []
        for role in (n for n in names if _people.split_role(n) is not None):
            owner, word = _people.split_role(role)  # type: ignore[misc]
            owner_ids = self.resolve_names([owner], group_id) if owner else []
            attrs = self._relation_attributes(word)
            out += [f.object_id for f in self.mem._store.facts_of(owner_ids, group_id=group_id, known_at=known_at)
                    if owner_ids and f.attribute in attrs and f.object_id and f.object_id not in out]
        return out

    def _relation_attributes(self, word: str) -> set[str]:
        """The attributes of an owner's relation facts that a role word names:
        the word as the registry keys it, and its class only for a word of no
        gender ("my kid")."""
        reg = self.mem.registry
        cls = _people.role_class(word)
        return {reg.key(_people.fold(word))} | ({reg.key(cls[0])} if cls and not cls[1] else set())

    def _by_relation(self, roles, group_id: str, keys: dict[str, str], at=None, *, kin: bool = True) -> dict[str, str]:
        """Role names found as the entity value of their owner's current
        relation fact ("my sister" -> "user · sister: Ana" -> Ana), or the one
        valid and known at ``at`` (valid_at, known_at), as alias key -> entity
        id (under one of the role's keys)."""
        store = self.mem._store
        now = self.mem.now()
        valid_at, known_at = at if at is not None else (now, now)
        out: dict[str, str] = {}
        for role in roles:
            owner, word = _people.split_role(role)  # type: ignore[misc]
            owner_ids = self.resolve_names([owner], group_id, kin=kin) if owner else []
            if not owner_ids:
                continue
            if EX_PARTNER and _is_ex(word):
                ex = self._ex_partner(owner_ids, group_id, valid_at, known_at)
                if ex is not None:
                    out[alias_key(group_id, role)] = ex
                continue
            attrs = self._relation_attributes(word)
            for f in store.facts_of(owner_ids, group_id=group_id, valid_at=valid_at, known_at=known_at):
                if f.attribute in attrs and f.object_id:
                    out[alias_key(group_id, role)] = f.object_id
                    break
        return out

    def _ex_partner(self, owner_ids, group_id: str, valid_at, known_at) -> str | None:
        """The one the owner was last with, when that has ended by ``valid_at``:
        the entity of their latest partner, fiancé(e) or spouse belief that
        no longer holds (EX_PARTNER), or None."""
        reg = self.mem.registry
        attrs = {reg.key(a) for a in EX_OF}
        ended = [f for f in self.mem._store.facts_of(owner_ids, group_id=group_id, known_at=known_at)
                 if f.attribute in attrs and f.object_id and f.valid_to is not None and f.valid_to <= valid_at]
        return max(ended, key=lambda f: f.valid_to).object_id if ended else None

    def cased_question(self, query: str, group_id: str) -> str:
        """A question typed without capitals with the capital of each word
        that names a person the memory knows ("where does ling work?" ->
        "where does Ling work?"), so that the tagger reads it as a name and
        not as a verb ("ling" -> "le"); same length. QUESTION_NAMES."""
        if not QUESTION_NAMES or any(c.isupper() for c in query):
            return query
        from spacy.lang.en.stop_words import STOP_WORDS

        spots: dict[str, list[tuple[int, int]]] = {}
        for m in re.finditer(r"[a-zà-ÿ][\w'’-]*", query):
            base = re.sub(r"['’]s$", "", m.group(0))
            if len(base) > 1 and base not in STOP_WORDS:
                spots.setdefault(alias_key(group_id, base), []).append((m.start(), m.start() + len(base)))
        chars = list(query)
        known = self._known_persons(spots, group_id)
        if QUESTION_FIRST_NAMES:  # "where is priya moving?": a first name, known or not, is a name
            words = {k: query[a:b] for k, places_ in spots.items() for a, b in places_[:1]}
            known += [k for k, w in words.items() if k not in known and is_first_name(w) and w not in places()]
        for k in known:
            for start, end in spots[k]:
                # each part: "mei-ling" -> "Mei-Ling" (a lower-case part after a hyphen is tagged a noun)
                for j in [start, *(i + 1 for i in range(start, end - 1) if query[i] == "-")]:
                    chars[j] = chars[j].upper()
        return "".join(chars)

    def _known_persons(self, keys, group_id: str) -> list[str]:
        """The alias keys among ``keys`` (``alias_key``) that name a person the
        memory knows: a person entity, a speaker, or someone a people link
        names (docs/people.md)."""
        if not keys:
            return []
        store = self.mem._store
        found = store.lookup_names(keys)
        if not found:
            return []
        entities = {e.id: e for e in store.entities_by_id(sorted(set(found.values())))}
        speakers = self.index(group_id).speaker_keys
        people = linked(store, group_id)
        return [k for k, i in found.items() if i in entities and (
            entities[i].kind == "PERSON" or _first_name_mislabelled(entities[i])) or k in speakers or i in people]

    def known_people(self, info: QueryInfo, group_id: str) -> QueryInfo:
        """``info`` with the asked words that are the name of a person the
        memory knows made names of the question ("What is Emiko allergic
        to?": the tagger took Emiko for a noun; "where does teo work?"): a
        word written with a capital, or any word of a question written all
        in lower case, that names a person entity (docs/people.md)."""
        text = info.text
        lower = not any(c.isupper() for c in text[1:])
        cands = {}
        for w in re.findall(r"[A-Za-zÀ-ÿ][\w'’-]*", text):
            base = re.sub(r"['’]s$", "", w)
            if base.casefold() in info.terms and (base[:1].isupper() or lower) and len(base) > 1:
                cands[alias_key(group_id, base)] = base
        add = [cands[k] for k in self._known_persons(cands, group_id)]
        if not add:
            return info
        from dataclasses import replace

        labels = dict(info.labels)
        for n in add:
            labels.setdefault(n, "PERSON")
        drop = {n.casefold() for n in add}
        keep = lambda xs: tuple(x for x in xs if x not in drop)  # noqa: E731
        return replace(info, names=tuple(labels), labels=labels, terms=keep(info.terms), nouns=keep(info.nouns),
                       given=keep(info.given))

    def resolve_roles(self, info: QueryInfo, group_id: str) -> tuple[QueryInfo, list[str]]:
        """The people a question asks about by a role that the memory knows
        nobody as (docs/people.md): a kin or partner role asked about
        ("What does my sister do?") is returned, to abstain on (they are not
        their owner); a loose one ("Who is my doctor now?", "my coach") asks
        its owner instead (``_query.owner_instead``)."""
        unknown = [r for r in info.roles if not self.resolve_names([r], group_id)]
        loose = [r for r in unknown if info.roles[r][2]]
        if loose:
            from ._query import owner_instead

            info = owner_instead(info, loose)
        return info, [r for r in unknown if r not in loose]

    def _materialise(self, ordered, fused, ranks, extra, known_facts, valid_at, known_at, k, explicit_valid,
                     include_past, group_id, excerpts=None) -> list[Hit]:
        store = self.mem._store
        fact_ids = [i for kind, i in ordered if kind == "fact" and i not in known_facts]
        facts = dict(known_facts)
        if fact_ids:
            facts.update((f.id, f) for f in store.visible_by_id(
                fact_ids, valid_at=None if include_past else valid_at, known_at=known_at))
        ep_ids = [i for kind, i in ordered if kind == "episode"]
        source_ids = {f.episode_id for f in facts.values() if f.episode_id}
        episodes = {e.id: e for e in store.episodes_by_id(list(dict.fromkeys([*ep_ids, *source_ids])), group_id)}
        times = []
        for kind, i in ordered:
            if kind == "fact" and i in facts:
                times.append(facts[i].valid_from)
            elif kind == "episode" and i in episodes:
                times.append(episodes[i].reference_time)
        newest, oldest = (max(times), min(times)) if times else (None, None)
        span = (newest - oldest).total_seconds() if times and newest != oldest else 0.0
        hits = []
        for key in ordered:
            kind, i = key
            why = {r: ranks[r][key] for r in ranks if key in ranks[r]} | extra.get(key, {})
            if kind == "fact":
                f = facts.get(i)
                if f is None or f.group_id != group_id:
                    continue  # not visible at these times
                ep = episodes.get(f.episode_id) if f.episode_id else None
                time = f.valid_from
                text, fact, episode = f.text, f, None
                source, source_name = f.episode_id, ep.name if ep else None
            else:
                ep = episodes.get(i)
                if ep is None or ep.recorded_at > known_at or (explicit_valid and ep.reference_time > valid_at):
                    continue
                time, text, fact, episode = ep.reference_time, ep.content, None, ep
                source, source_name = ep.id, ep.name
                if excerpts and key in excerpts:  # a long episode: the passage that matched
                    j, a, b = excerpts[key]
                    text = ep.content[a:b]
                    why["passage"] = j + 1
            score = fused[key]
            if span:
                bonus = RECENCY_BONUS * (time - oldest).total_seconds() / span
                score += bonus
                why["recency"] = round(bonus, 5)
            if fact is not None and fact.importance:
                score += 0.001 * fact.importance
            why["fused"] = round(score, 5)
            hits.append(Hit(kind, i, text, score, fact, episode, source, source_name, time, why))
        hits.sort(key=lambda h: -h.score)
        return hits


#: A one-word name the small model labelled a place or an organisation
#: ("Marcus is on nights again": GPE) that is no place the place table knows
#: and no English word, or an entity of a kind other than a place named by a
#: first name that is no place (``casing.is_first_name``: "Lukas" tagged ORG), is taken for a
#: person's name when a question typed in lower case asks by it (``Recaller.cased_question``, ``known_people``).
MISLABELLED_NAMES = True
_MISLABEL_KINDS = frozenset({"GPE", "LOC", "ORG", "NORP", "FAC", "PRODUCT"})
_PLACE_KINDS = frozenset({"GPE", "LOC", "FAC"})


def _first_name_mislabelled(entity) -> bool:
    name = entity.name
    if not MISLABELLED_NAMES or entity.kind == "PERSON" or not name.isalpha() \
            or not name[:1].isupper() or not name[1:].islower() or len(name) < 3:
        return False
    if name.casefold() in places():  # "Hilliard" (tagged PRODUCT) is a town before it is a name
        return False
    return entity.kind not in _PLACE_KINDS and is_first_name(name) or (
        entity.kind in _MISLABEL_KINDS and name.casefold() not in _english())
