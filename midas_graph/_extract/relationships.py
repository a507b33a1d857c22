"""Couples: "dario and i are done", "me and javi are official", "I'm dating
Javi", "I broke up with Dario", "Dario dumped me", "we split up"; and
engagements, of anyone: "Terrence proposed to Keisha", "terrence & keisha
got engaged" (:func:`engaged`).

A relation word makes a partner ("my bf Dario": people.toml); these are said
of the pair instead, and chat says them that way. One sentence pattern reads
them (the small parser mangles "X and I are done" typed in lower case), with
its phrases in ``schema/extract/relationships.toml``: a couple that begins
gives the speaker's ``partner`` X; one that ends closes it (X's, or with
"we", whoever is the partner now). A phrase must end its clause: "we're done
with the report" and "me and Sam split the bill" say nothing of a couple.
"""

from __future__ import annotations

import re

from .lexicon import _RELATIONS, LEX
from .subjects import Subj
from .tokens import _is_name

_WORD = r"[^\W\d_][\w'’-]*"
_NAME = rf"(?P<x>{_WORD})"
_ME = r"(?:i|me)"
_BE = r"(?:\s+(?:are|r|'re|’re|is))?"
_SOFT = r"(?:\s+(?:now|finally|officially|just|so|totally|like|literally|really|kinda|actually))*"


def _alt(key: str) -> str:
    return "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in sorted(LEX.ordered(key), key=len, reverse=True))


def _patterns() -> list[tuple[re.Pattern, str]]:
    """(pattern, what it says: "begin" or "end")."""
    tail = r"(?=\s*(?:$|[^\w\s]|(?:" + _alt("relationships.clause_tails") + r")\b))"
    pair = rf"(?:\b{_NAME}\s+and\s+{_ME}|\b{_ME}\s+and\s+(?P<y>{_WORD}))"
    return [
        (re.compile(rf"{pair}{_BE}{_SOFT}\s+(?:{_alt('relationships.together')}){tail}", re.I), "begin"),
        (re.compile(rf"{pair}{_SOFT}\s+(?:{_alt('relationships.began')}){tail}", re.I), "begin"),
        (re.compile(rf"{pair}{_BE}{_SOFT}\s+(?:{_alt('relationships.apart')}){tail}", re.I), "end"),
        (re.compile(rf"{pair}{_SOFT}\s+(?:{_alt('relationships.ended')}){tail}", re.I), "end"),
        (re.compile(rf"\bi(?:'m|’m|\s+am|'ve|’ve|\s+have)?{_SOFT}\s+(?:{_alt('relationships.start_with')})\s+{_NAME}\b",
                    re.I), "begin"),
        (re.compile(rf"\bi{_SOFT}\s+(?:{_alt('relationships.end_with')})\s+{_NAME}\b", re.I), "end"),
        (re.compile(rf"\b{_NAME}{_SOFT}\s+(?:{_alt('relationships.ended_me')})\s+me{tail}", re.I), "end"),
        (re.compile(rf"\bwe(?:'ve|’ve|\s+have)?{_SOFT}\s+(?:{_alt('relationships.ended')}){tail}", re.I), "end_we"),
    ]


_PATTERNS = _patterns()
_ENGAGED = [
    re.compile(rf"\b(?P<a>{_WORD})\s+(?:and|&|n)\s+(?P<b>{_WORD}){_SOFT}\s+(?:{_alt('relationships.engaged_pair')})\b",
               re.I),
    re.compile(rf"\b(?P<a>{_WORD}){_SOFT}\s+(?:{_alt('relationships.engaged_to')})\s+(?P<b>{_WORD})\b", re.I),
    # "Marco proposed last night!": to the speaker (the group "b" left out)
    re.compile(rf"\b(?P<a>{_WORD}){_SOFT}\s+(?:{_alt('relationships.proposed_to_me')})"
               r"(?=\s*(?:$|[^\w\s]|(?:" + _alt("relationships.proposal_tails") + r")\b))(?P<b>)", re.I),
]


def _person(w, tok) -> bool:
    """Whether ``tok`` can name the other half of a couple: a known name, a
    name to the parser, or a word it knows as no English word in any case
    ("javi", "Keisha"; not "work", "someone", "you")."""
    from .casing import _english, _stop_words

    low = tok.lower_
    if not tok.is_alpha or low in _stop_words() or low == w.ctx.speaker.casefold():
        return False
    return low in w.ctx.names or _is_name(tok, w.ctx) or low not in _english()


def _party(w, sent, m, group: str) -> Subj | None:
    """The person a group of a pattern names: the speaker for "I"/"me", else
    a name (:func:`_person`), given a capital when typed without one."""
    doc = w.doc
    span = doc.char_span(sent.start_char + m.start(group), sent.start_char + m.end(group), alignment_mode="expand")
    if span is None or len(span) != 1:
        return None
    tok = span[0]
    if tok.lower_ in ("i", "me"):
        return Subj(w.ctx.speaker, True, 0.9, True, tok)
    if tok.lower_ in _PRONOUNS:  # "her and Josh are expecting": whom the pronoun stands for
        subj = w.subject(tok)
        return subj if subj is not None and subj.person and not subj.is_speaker and subj.name != tok.text else None
    if not _person(w, tok):
        return None
    return Subj(tok.text if not tok.text.islower() else tok.text.capitalize(), False, 0.9, True, tok)


_PARTNER_WORDS = frozenset(w for w, rel in _RELATIONS.items() if rel == "partner")


def _my_partner(w, sent, m) -> bool:
    """Whether a pair pattern's other half is "my <partner word>" ("my bf and I split up")."""
    group = "x" if m.group("x") else "y"
    start = sent.start_char + m.start(group)
    before = w.text[max(0, start - 4):start].lower()
    return m.group(group).lower() in _PARTNER_WORDS and before.rstrip().endswith(("my", "our"))


def _root(w, sent, m):
    """The token a pattern's whole match hangs on (its time and tense are read from it)."""
    span = w.doc.char_span(sent.start_char + m.start(), sent.start_char + m.end(), alignment_mode="expand")
    return span.root if span is not None else sent.root


#: "<X> and <Y> got married" / "are expecting": (pattern, the attribute each is of the other)
_PAIRS = [(re.compile(rf"\b(?P<a>{_WORD})\s+(?:and|&|n)\s+(?P<b>{_WORD}){_SOFT}\s+(?:{_alt(key)})\b", re.I), attribute)
          for key, attribute in (("relationships.married_pair", "spouse"), ("relationships.expecting_pair", "partner"))]
_PRONOUNS = frozenset({"he", "she", "him", "her"})


def engaged(w, sent) -> None:
    """ "Terrence proposed to Keisha", "terrence & keisha got engaged", "I got
    engaged to Sam": each is the other's ``fiance``; "Shelby and Josh got
    married": ``spouse``; "her and Josh are expecting": ``partner`` (a
    pronoun stands for the person it resolves to)."""
    text = sent.text  # a Span joins its tokens on every .text
    for pattern, attribute in [(p, "fiance") for p in _ENGAGED] + _PAIRS:
        for m in pattern.finditer(text):
            a = _party(w, sent, m, "a")
            b = _party(w, sent, m, "b") if m.group("b") else Subj(w.ctx.speaker, True, 0.9, True, None)
            if a is None or b is None or a.name == b.name or attribute != "fiance" and (a.is_speaker or b.is_speaker):
                continue  # "Josh and I got married" is the couple patterns'
            v = _root(w, sent, m)
            # a couple expecting holds now: "due in April" dates the baby, not them
            tv = v if attribute != "partner" else (a.token or v)
            for x, y in ((a, b), (b, a)):
                w.emit(x, attribute, y.name, v=v, pol="assert", tense="present", tv=tv,
                       value_toks=[y.token] if y.token is not None else [],
                       is_entity=True, conf=0.9, rule="engaged" if attribute == "fiance" else f"pair_{attribute}",
                       past_means_cease=False)


def couple(w, sent) -> None:
    """The sentence pattern (``verbs.sentence_patterns``)."""
    me = Subj(w.ctx.speaker, True, 0.9, True, None)
    text = sent.text
    for pattern, says in _PATTERNS:
        for m in pattern.finditer(text):
            v = _root(w, sent, m)
            if says == "end_we":
                w.emit(me, "partner", "", v=v, pol="cease", tense="present", tv=v, rule="couple_we_ended")
                continue
            if says == "end" and _my_partner(w, sent, m):
                # "my boyfriend and I broke up": whoever the partner is now, as "we split up" says
                w.emit(me, "partner", "", v=v, pol="cease", tense="present", tv=v, rule="couple_we_ended")
                continue
            other = _party(w, sent, m, "x" if m.group("x") else "y")
            if other is None or other.is_speaker:
                continue
            w.emit(me, "partner", other.name, v=v, pol="assert" if says == "begin" else "cease", tense="present",
                   tv=v, value_toks=[other.token], is_entity=True, conf=0.9, rule=f"couple_{says}",
                   past_means_cease=False)
