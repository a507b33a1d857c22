"""Importance with no LLM: what an episode or a fact is worth keeping.

Computed at ingest from the spaCy parse the episode pipeline already made
(no second parse) and from what the episode did to the memory, and stored
on the episode (schema version 6). Forgetting ranks by it
(:func:`memory_value`, docs/forgetting.md).

* **Content score** (the words alone, :func:`content_signals`): content-word
  density, how many content words, numbers and dates, names; a backchannel
  ("ok", "haha, nice!") and a question score low.
* **Structural score** (what the turn did, :func:`structural_score`): it
  yielded claims, on single-valued (durable) attributes, it closed a
  belief, it answers the other speaker's question; a turn that only
  restated held facts earns less than one that said something new.
* **Importance** = ``STRUCTURAL_WEIGHT * structural + (1 - STRUCTURAL_WEIGHT)
  * content``, unless ``Memory(importance=callable)`` gives its own: the
  callable gets the :class:`~midas_graph.Episode` (scores filled in) and a
  dict of the signals, and returns a finite number >= 0.
* A fact added without an importance gets ``durability(attribute) x
  confidence`` (:func:`fact_importance`).

Repetition signals (novelty, reinforcement) are left out on purpose: the
design measured them as harmful for eviction.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

#: Weight of the structural score in an episode's importance (the rest is content).
#: The design's harness found structural importance the better eviction signal
#: (recall@k at keep-50%: 0.56 structural, 0.43 content).
STRUCTURAL_WEIGHT = 0.6
#: Durability of a fact's attribute: a single-valued one (lives_in, employer,
#: favorite_*) is a durable trait; a multi-valued one may be a passing mention.
DURABLE, PASSING = 1.0, 0.6
#: The importance forgetting assumes for an episode stored before schema 6 (unscored).
IMPORTANCE_UNSCORED = 0.5

_CONTENT_POS = frozenset(("NOUN", "PROPN", "VERB", "ADJ", "NUM"))
_NAME_LABELS = frozenset(("PERSON", "ORG", "GPE", "LOC", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART", "NORP", "LAW",
                          "LANGUAGE"))
_NUMBER_LABELS = frozenset(("DATE", "TIME", "CARDINAL", "MONEY", "QUANTITY", "PERCENT", "ORDINAL"))
#: Words a backchannel turn is made of ("ok", "haha, nice!", "thanks so much").
_BACKCHANNEL = frozenset("""
ok okay k kk yes yeah yep yup ya yea no nope nah sure right alright fine cool nice great awesome good wow
whoa oh ah aw aww ooh hmm hm mm mhm uh um huh lol lmao rofl haha hahaha hehe heh thanks thank thx ty you
so much very really totally true indeed exactly agreed same too lovely amazing sweet perfect gotcha bye
hi hello hey hiya see ya later night morning yay omg wow
""".split())
_WORD = re.compile(r"[a-z']+")


@dataclass(frozen=True, slots=True)
class ContentSignals:
    """What the words of one turn say about its worth (:func:`content_signals`)."""

    score: float
    is_question: bool
    parts: dict[str, float] = field(default_factory=dict)


def content_signals(doc: Any) -> ContentSignals:
    """The content score of a parsed turn (a spaCy ``Doc``), in [0, 1].

    density (content words / words) 0.35, amount (content words, up to 8)
    0.25, a number or date 0.15, a name 0.25; a backchannel turn (every
    word one of ``_BACKCHANNEL``) is scored 0.02; a turn that is all
    questions loses 0.25 (what it asks is usually said again in the answer).
    """
    words = [t for t in doc if not (t.is_punct or t.is_space)]
    if not words:
        return ContentSignals(0.0, False, {"words": 0.0})
    text = doc.text
    sents = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
    asked = sum(1 for s in sents if s.text.rstrip().endswith("?"))
    is_question = asked > 0 and asked == len(sents)
    if all(w in _BACKCHANNEL for w in _WORD.findall(text.casefold())) or not _WORD.search(text.casefold()):
        return ContentSignals(0.02, is_question, {"words": float(len(words)), "backchannel": 1.0})
    content = [t for t in words if t.pos_ in _CONTENT_POS and not t.is_stop]
    density = len(content) / len(words)
    amount = min(1.0, len(content) / 8.0)
    labels = {e.label_ for e in doc.ents}
    number = 1.0 if labels & _NUMBER_LABELS or any(t.like_num for t in words) else 0.0
    name = 1.0 if labels & _NAME_LABELS or any(t.pos_ == "PROPN" for t in words) else 0.0
    score = 0.35 * density + 0.25 * amount + 0.15 * number + 0.25 * name
    if is_question:
        score -= 0.25
    parts = {"words": float(len(words)), "density": round(density, 4), "amount": round(amount, 4),
             "number": number, "name": name, "question": float(is_question)}
    return ContentSignals(_clip(score), is_question, parts)


def structural_score(*, new_claims: int, restated: int, durable: int, closed: int,
                     answers: bool) -> tuple[float, dict[str, float]]:
    """The structural score of a turn from what ingest did with it, in [0, 1]:
    new claims 0.4 for the first, +0.1 each for two more; claims that only
    restated held facts 0.1 (when there is no new one); a claim on a
    single-valued attribute +0.2; it closed a belief (superseded, ended,
    corrected) +0.2; it answers the other speaker's question +0.15."""
    score = 0.0
    if new_claims:
        score += 0.4 + 0.1 * min(new_claims - 1, 2)
    elif restated:
        score += 0.1
    if durable:
        score += 0.2
    if closed:
        score += 0.2
    if answers:
        score += 0.15
    parts = {"new_claims": float(new_claims), "restated": float(restated), "durable": float(durable),
             "closed": float(closed), "answers": float(answers)}
    return _clip(score), parts


def blend(content: float, structural: float) -> float:
    """The default importance of an episode."""
    return round(STRUCTURAL_WEIGHT * structural + (1 - STRUCTURAL_WEIGHT) * content, 6)


def fact_importance(is_single: bool, confidence: float) -> float:
    """Importance of a fact given none: its attribute's durability x its confidence."""
    return round((DURABLE if is_single else PASSING) * max(0.0, min(1.0, confidence)), 6)


Scorer = Callable[[Any, Mapping[str, float]], float]


def custom(scorer: Scorer, episode: Any, signals: Mapping[str, float]) -> float:
    """Run a user's scorer; its answer must be a finite number >= 0."""
    from ._errors import InvalidInputError

    value = scorer(episode, signals)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise InvalidInputError("importance", f"the scorer returned {value!r}; expected a finite number >= 0")
    return float(value)


def check_scorer(scorer: Any) -> Scorer | None:
    from ._errors import InvalidInputError

    if scorer is not None and not callable(scorer):
        raise InvalidInputError("importance", "expected a callable (episode, signals) -> float, or None")
    return scorer


def _clip(x: float) -> float:
    return round(max(0.0, min(1.0, x)), 6)


def signals_of(content: ContentSignals, structural_parts: Mapping[str, float], structural: float
               ) -> dict[str, float]:
    """Every signal of one turn, flat, for a user's scorer."""
    out = {f"content.{k}": v for k, v in content.parts.items()}
    out.update({f"structural.{k}": v for k, v in structural_parts.items()})
    out["content"] = content.score
    out["structural"] = structural
    return out


def count_facts(facts: Sequence[Any], episode_id: str, is_single) -> tuple[int, int, int]:
    """(new, restated, durable) among the facts an episode's ingest returned:
    new ones were recorded from this episode, restated ones are held facts of
    earlier writes it stated again."""
    new = sum(1 for f in facts if f.episode_id == episode_id)
    restated = len(facts) - new
    durable = sum(1 for f in facts if f.episode_id == episode_id and is_single(f.attribute))
    return new, restated, durable


class Turns:
    """Per group, who asked the last question (this process): a turn by
    someone else right after it answers it."""

    def __init__(self) -> None:
        self._asker: dict[str, str] = {}

    def answers(self, group_id: str, speaker: str, content: ContentSignals) -> bool:
        who = speaker.casefold()
        asker = self._asker.pop(group_id, None)
        if content.is_question:
            self._asker[group_id] = who
        return asker is not None and asker != who and not content.is_question

    def forget(self, group_id: str) -> None:
        self._asker.pop(group_id, None)


def score(mem: Any, ep: Any, facts: Sequence[Any], closed: Sequence[Any], content: ContentSignals,
          answers: bool) -> Any:
    """``ep`` with its importance, content and structural scores, from what
    its ingest stored (``facts``: as returned, restatements included;
    ``closed``: what it closed) and its content signals."""
    from dataclasses import replace

    new, restated, durable = count_facts(facts, ep.id, mem.registry.is_single)
    structural, parts = structural_score(new_claims=new, restated=restated, durable=durable,
                                         closed=len({f.id for f in closed}), answers=answers)
    ep = replace(ep, content_score=content.score, structural_score=structural)
    scorer = getattr(mem, "_importance_scorer", None)
    value = (custom(scorer, ep, signals_of(content, parts, structural)) if scorer is not None
             else blend(content.score, structural))
    return replace(ep, importance=value)
