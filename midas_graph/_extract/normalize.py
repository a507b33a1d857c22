"""Chat text as the parser reads it: shouting and emoji, same length.

Real chats shout ("GOT PROMOTED 🥹 senior content strategist from 1 July")
and end sentences with an emoji instead of a full stop. The small spaCy
model reads an all-capital word as a proper noun and runs a sentence on
through an emoji, so nothing is extracted from either. :func:`for_parsing`
lowers shouted words and puts a sentence break where an emoji ends one,
changing no length: every character offset into the result is one into the
original, so quotes are taken back from the original (:func:`original`).
"""

from __future__ import annotations

import re
import unicodedata

#: A shouted word: all capitals, five letters or more ("PROMOTED", "STILL"),
#: or three or more beside another such word ("BIG NEWS", "GOT PROMOTED").
#: Shorter capitals alone are left as acronyms (UPMC, NHS, GP).
_LONG_CAPS = re.compile(r"\b[A-Z]{5,}\b")
_CAPS_RUN = re.compile(r"\b[A-Z]{3,}(?:[ \t]+[A-Z]{3,})+\b")
_LETTER_AFTER = re.compile(r"\s*[A-Za-z]")
_STOP_AFTER = re.compile(r"\s*[.!?]")


def _is_emoji(ch: str) -> bool:
    return unicodedata.category(ch) == "So" or ch in "\u200d\ufe0f"


#: "Ankeny not Ames": a contrast between two names, read as "Ankeny,not Ames"
#: (the parser then makes Ames the rejected alternative, as after a comma)
_NAME_NOT_NAME = re.compile(r"\b(?!(?:I|Do|Does|Did|Can|Could|Will|Would|Should|Shall|Must|May|Might|Is|Are|Was|"
                            r"Were|Have|Has|Had|Please|Why|Whether|Or|And|But)\b)([A-Z][\w'’-]*) not (?=[A-Z])")


def for_parsing(text: str) -> str:
    """``text`` with shouted words in lower case, an emoji that ends a
    sentence read as "!", and "X not Y" between two names read as "X,not Y";
    the same length as ``text``."""
    if not text:
        return text
    out = _CAPS_RUN.sub(lambda m: m.group(0).lower(), text)
    out = _LONG_CAPS.sub(lambda m: m.group(0).lower(), out)
    out = _NAME_NOT_NAME.sub(lambda m: f"{m.group(1)},not ", out)
    if out.isascii():  # no emoji to read
        return out
    chars = list(out)
    i = 0
    while i < len(chars):
        if not _is_emoji(chars[i]):
            i += 1
            continue
        j = i
        while j < len(chars) and _is_emoji(chars[j]):
            j += 1
        before = out[:i].rstrip()
        # the run ends a sentence when text follows it and no stop comes before it
        if before and before[-1] not in ".!?;:,(-—" and _LETTER_AFTER.match(out, j):
            chars[i] = "!"
            for k in range(i + 1, j):
                chars[k] = " "
        elif _STOP_AFTER.match(out, j):  # "promoted 🥹. senior": the stop ends it, the emoji is noise
            for k in range(i, j):
                chars[k] = " "
        i = j
    return "".join(chars)


def fold(text: str) -> str:
    """Case and accents folded, whitespace collapsed ("Fiancée" -> "fiancee")."""
    if text.isascii():  # nothing to decompose (about 40 calls per ingested turn)
        return " ".join(text.casefold().split())
    text = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in text if not unicodedata.combining(c)).casefold().split())


def original(parsed: str, original_text: str, piece: str) -> str:
    """``piece`` (a sentence of ``parsed``) as ``original_text`` wrote it."""
    if parsed is original_text or parsed == original_text:
        return piece
    at = parsed.find(piece)
    return original_text[at:at + len(piece)] if at >= 0 else piece


_BE_AFTER = {"s": ("he", "she", "it", "that", "there", "what", "who", "where", "here"),
             "m": ("i",), "re": ("we", "you", "they", "who", "what")}


def repair_lemmas(doc) -> None:
    """Contractions typed without the apostrophe ("hes a chef", "im a support
    engineer", "shes a nurse"): the tokenizer splits them as it splits "he's",
    but the lemma of "s" or "m" is left as written, so no copular rule sees
    "be". The lemma is set to "be" where such a piece is glued to its pronoun."""
    for t in doc[1:]:
        prev = doc[t.i - 1]
        if t.lower_ in _BE_AFTER and prev.lower_ in _BE_AFTER[t.lower_] and not prev.whitespace_ \
                and t.lemma_.lower() != "be" and t.pos_ in ("VERB", "AUX"):
            t.lemma_ = "be"


#: determiners a date opens with ("these days", "this week", "last year")
_DATE_OPENERS = frozenset({"these", "this", "last", "next", "that", "those"})


def repair_dates(doc) -> None:
    """A date the small model ran on from a name before it ("living in
    Manchester these days" is one DATE to it, so Manchester is no name): the
    name is split off, a place (``casing.places``) when it is one, and the
    date starts at its determiner."""
    from spacy.tokens import Span

    from .casing import places

    out, changed = [], False
    for e in doc.ents:
        k = 0
        while e.label_ == "DATE" and k < len(e) - 1 and e[k].pos_ == "PROPN":
            k += 1
        if k and e[k].lower_ in _DATE_OPENERS:
            if doc[e.start:e.start + k].text.lower() in places():
                out.append(Span(doc, e.start, e.start + k, label="GPE"))
            out.append(Span(doc, e.start + k, e.end, label="DATE"))
            changed = True
        else:
            out.append(e)
    if changed:
        doc.ents = out


def repair_entities(doc) -> None:
    """:func:`repair_dates` and :func:`trim_names`, once per doc: ingest repairs
    a turn's doc before the people analysis reads its names, and extraction
    then reads the same doc (both repairs would find nothing more to do)."""
    if doc.user_data.get("entities_repaired"):
        return
    repair_dates(doc)
    trim_names(doc)
    doc.user_data["entities_repaired"] = True


def repair_names(doc, names: set[str]) -> None:
    """Words a lower-case turn had cased as first names (``casing.Casing``)
    that the parser still read as common nouns ("Aoife says I need ..." at a
    sentence start: a noun, no entity) are proper nouns and people, so that
    the people and their pronouns are read as for any name."""
    if not names:
        return
    from spacy.tokens import Span

    added = []
    for t in doc:
        if t.ent_iob_ == "O" and t.text[:1].isupper() and t.lower_ in names and t.pos_ in ("NOUN", "PROPN", "X", "ADJ"):
            t.pos_ = "PROPN"
            added.append(Span(doc, t.i, t.i + 1, label="PERSON"))
    if added:
        doc.ents = sorted([*doc.ents, *added], key=lambda e: e.start)


#: lower-case words a name may open with ("de la Cruz", "van Gogh")
_NAME_PARTICLES = frozenset("de del della der di da das dos du la le van von ten ter bin al el st".split())


def trim_names(doc) -> None:
    """A name the small model ran on from the lower-case words before it
    ("dinner w Tessa" is one ORG to it, "mtg w/ Lennart"): the entity starts
    at its first capitalised word. Particles of a name stay ("de la Cruz")."""
    from spacy.tokens import Span

    out, changed = [], False
    for e in doc.ents:
        k = 0
        if e.label_ in ("PERSON", "ORG", "GPE", "NORP", "FAC", "LOC"):
            while k < len(e) - 1 and not any(c.isupper() for c in e[k].text) and e[k].lower_ not in _NAME_PARTICLES:
                k += 1
        if k and e[k].text[:1].isupper():
            out.append(Span(doc, e.start + k, e.end, label=e.label_))
            changed = True
        else:
            out.append(e)
    if changed:
        doc.ents = out
