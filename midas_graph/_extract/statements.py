"""Statements: what the speaker said, kept whole when no family reads it.

"Our gas and electric is with EDF." names no attribute a pattern knows, so
no belief would hold it, and a later "We've switched energy supplier to Ovo"
could never make it stale. A sentence of the speaker's that gave no claim,
states something (not a question, a request to the agent, an aside in
brackets, a sentence to or about the listener, a plan or a guess), names a
value (a name other than the conversation's parties, or a number: what a
later sentence could give another value of) and either stands in the
present ("My team is four people", "I've moved my passwords to Bitwarden")
or announces a change (``statements.update_cues``: "Upgraded to the Pixel 8
yesterday!") becomes a claim of the speaker's attribute ``said`` whose value
is the sentence. Revision then supersedes it as it does any belief of an
attribute the registry does not know: through NLI on the two sentences
(``_revise.candidates``). A past event told without a change ("I went to a
concert") is history, not a standing belief, and is not kept.

The sentence stays in ``EpisodeResult.unparsed``: it was stored, not
understood. Recall and context read it in its episode, not as a fact line.
"""

from __future__ import annotations

import re

from .._types import SAID
from .claims import Claim
from .clauses import _hypothetical, _verb_tense
from .lexicon import _FIRST, LEX

_UPDATE = LEX.phrases("statements.update_cues")
_CHANGE = LEX.phrases("statements.change_words")
_PAST_DATE = LEX.phrases("statements.past_dates")
#: the kinds of entity a capitalised word is a value of (a day or a time is one: "meets on Thursdays")
_VALUE_ENTS = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "PRODUCT", "WORK_OF_ART", "EVENT", "NORP",
                         "LANGUAGE", "DATE", "TIME"})
_NUMBER_ENTS = frozenset({"MONEY", "QUANTITY", "CARDINAL", "TIME", "PERCENT"})
_REQUEST = re.compile(r"^\W*(?:{})\b".format("|".join(map(re.escape, LEX.ordered("statements.request_openings")))),
                      re.I)
_YOU = frozenset({"you", "your", "yours", "yourself", "u", "ur"})
#: "you" in a phrase that only addresses the listener ("Just so you know, I left Three")
_YOU_KNOW = re.compile(r"\b(?:so )?you know\b", re.I)


def update_cue(text: str) -> bool:
    """Whether a sentence announces a change (``statements.update_cues``)."""
    return _UPDATE.search(text) is not None


def statement(w, sent) -> Claim | None:
    """The ``said`` claim of one sentence no family read, or None (module doc)."""
    ctx = w.ctx
    text = ctx.sent_text
    words = [t for t in sent if t.is_alpha]
    if len(words) < 3 or _REQUEST.search(text) or text.lstrip().startswith(("[", "(")):
        return None  # short, a request, or an aside ("[photo: a photo of a dog on a beach]")
    if not any(_a_value(t, ctx) for t in sent):
        return None  # nothing a later sentence could give another value of
    if any(_PAST_DATE.search(e.text) for e in sent.ents if e.label_ == "DATE") and not _CHANGE.search(text):
        return None  # a dated past event ("my son had an accident last Saturday"), not a standing belief
    cue = update_cue(text)
    # the main verb; the parser roots some chat fragments at a noun or a preposition
    # ("After the reorg my team's nine people.")
    root = sent.root if sent.root.pos_ in ("VERB", "AUX") else next(
        (t for t in sent if t.pos_ in ("VERB", "AUX")), None)
    if root is None:
        return _said(ctx, text) if cue else None  # "Switched browsers to Vivaldi." / "Great news!"
    subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass", "expl")]
    if subjects and not cue and not any(t.lower_ in _FIRST for t in sent) and not any(
            s.pos_ in ("NOUN", "PROPN") and not any(c.lower_ in ("your", "ur") for c in s.children) for s in subjects):
        return None  # about no one and nothing of the speaker's ("That's a great idea.", "it's raining")
    if not subjects and root.tag_ == "VB" and root.i == sent.start:
        return None  # an imperative ("Set a reminder for Friday.")
    if any(t.lower_ in _YOU for t in sent) and not _YOU_KNOW.search(text):
        return None  # about the listener ("I love how you use it to tell your stories")
    if _hypothetical(root):
        return None
    tense = _verb_tense(root)
    if tense == "future" or (tense == "past" and not cue):
        return None
    return _said(ctx, text)


def _a_value(t, ctx) -> bool:
    """A name (not one of the conversation's parties) or a number: what makes
    a sentence a statement of something that can change ("plot 52", "EDF"),
    where chat about feelings has none ("It's been a great way to work
    through stuff")."""
    if t.lower_ == "one":
        return False  # "here's one of my trophies"
    if any(c.isdigit() for c in t.text) or t.ent_type_ in _NUMBER_ENTS:
        return True
    if t.pos_ != "PROPN" or t.lower_ in ctx.names or t.lower_ in ctx.persons:
        return False
    # the tagger calls a capitalised interjection opening a sentence a name ("Gonna be awesome!")
    return t.ent_type_ in _VALUE_ENTS or (t.i > t.sent.start and t.text[:1].isupper())


def _said(ctx, text: str) -> Claim:
    return Claim(ctx.speaker, SAID, text, text, subject_is_speaker=True, confidence=0.5,
                 rule="statement: the sentence, kept whole")
