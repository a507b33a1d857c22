"""The time a question asks about, placed on the memory's valid-time axis.

A question may name its time by a date ("in March 2024", "last spring",
"back in 2023": ``QueryInfo.dates``, resolved against the question's
reference time), by an event ("before we moved to Bristol", "when I worked
at Dell": ``QueryInfo.anchors``), or by an order ("used to", "originally":
``QueryInfo.order``). :func:`place` turns that into an :class:`AskedTime`:
an interval of valid time and how to order what held in it.

An event is placed through the memory's own beliefs, never through the
text of a turn: "before we moved to Bristol" is the start of the asked
entity's (or the speaker's) belief whose value is Bristol, as ``history()``
holds it at ``known_at``; "when I worked at Dell" is that belief's valid
interval. An event that no belief dates is not placed (context assembly
then answers as for any question about the past, and says so); one that
names something the memory has never heard of makes context abstain.

docs/time.md has the rules by example.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field

from . import _people
from ._extract.casing import places
from ._query import QueryInfo, TimeAnchor
from ._store import alias_key
from ._types import Fact

UTC = _dt.timezone.utc
#: The open ends of an asked interval.
EARLIEST = _dt.datetime(1, 1, 1, tzinfo=UTC)
LATEST = _dt.datetime(9999, 12, 31, tzinfo=UTC)
_WORD = re.compile(r"[a-z0-9]+")
#: Asked "when I joined X" / "when I first started at X", the asked time is
#: the first weeks of X, not all of it: "what was my title when I joined
#: Lumora?" is the title then, not the one held since a promotion.
START_SPAN = _dt.timedelta(days=30)
#: "before X", X a bare name no belief holds (a place said only in passing:
#: "still living at my moms in Alief"): the time before the group's turns
#: first named X. Nothing said before then speaks to the question -> abstain
#: (``_context.TIME_GAP_SAID``). Not for an event ("before I switched to
#: matcha"): the switch may be told long after the first matcha.
BEFORE_FIRST_SAID = True
#: Words of an event too common to name a belief by ("when I *was* at X").
_GENERIC = frozenset("be have do get go make start begin stop end time year month week day thing".split())


@dataclass(frozen=True)
class AskedTime:
    """The valid time a question asks about.

    ``start``/``end``: the interval (``EARLIEST``/``LATEST`` when open); both
    ``None`` when the question asks by order only ("used to": what held
    before the current value; "originally": the first value). ``order``:
    "earlier" | "first" | "latest-first" (what held just before an event,
    most recent first) | None. ``phrase`` is how the question says it,
    ``label`` how the context's header says it. ``unplaced`` says why an
    event could not be placed (the context is then not limited to a time);
    ``unknown`` that it names something the memory never heard of (abstain).
    """

    phrase: str
    label: str
    start: _dt.datetime | None = None
    end: _dt.datetime | None = None
    order: str | None = None
    anchor: Fact | None = None
    drop_names: tuple[str, ...] = ()
    unplaced: str | None = None
    unknown: bool = False
    #: the anchor's beliefs (one belief may have several values' worth of versions)
    anchor_facts: tuple[Fact, ...] = field(default=(), repr=False)
    #: "before X" placed at the first turn that named X (BEFORE_FIRST_SAID)
    first_said: bool = False

    @property
    def placed(self) -> bool:
        return self.unplaced is None and not self.unknown

    @property
    def has_span(self) -> bool:
        return self.start is not None and self.end is not None

    def held_then(self, f: Fact, at: _dt.datetime) -> bool:
        """Whether belief version ``f`` held during the asked time (for an
        order alone: "earlier", it ended by ``at``; "first", any version)."""
        if self.has_span:
            return f.valid_from < self.end and (f.valid_to is None or f.valid_to > self.start) \
                and (f.valid_to is None or f.valid_to > f.valid_from)
        if self.order == "earlier":
            return f.valid_to is not None and f.valid_to <= at and f.valid_to > f.valid_from
        return True

    def spans(self) -> list[tuple[_dt.datetime, _dt.datetime]]:
        return [(self.start, self.end)] if self.has_span else []


def _fold(text: str) -> str:
    return " ".join(_WORD.findall(str(text).casefold()))


def _when(t: _dt.datetime) -> str:
    return t.date().isoformat()


def _span_label(lo: _dt.datetime, hi: _dt.datetime) -> str:
    if lo <= EARLIEST:
        return f"before {_when(hi)}"
    if hi >= LATEST:
        return f"from {_when(lo)}"
    return f"{_when(lo)} to {_when(hi - _dt.timedelta(seconds=1))}"


def place(mem, info: QueryInfo, focus_ids: list[str], *, group_id: str, at: _dt.datetime,
          known_at: _dt.datetime) -> AskedTime | None:
    """The time ``info``'s question asks about (None: it names none)."""
    if info.anchors:
        return _place_anchor(mem, info, info.anchors[0], focus_ids, group_id=group_id, at=at, known_at=known_at)
    if info.dates:
        lo = min(a for a, _ in info.dates)
        hi = max(b for _, b in info.dates)
        bound = info.date_bounds[0] if len(info.dates) == 1 and info.date_bounds else None
        order = info.order
        if bound == "before":      # "before May 2020": up to its start, the latest first
            lo, hi, order = EARLIEST, lo, order or "latest-first"
        elif bound == "until":     # "until May 2020": up to its end
            lo, hi = EARLIEST, hi
        elif bound == "after":     # "after May 2020": from its end
            lo, hi, order = hi, LATEST, order or "first"
        elif bound == "since":     # "since May 2020": from its start
            lo, hi = lo, LATEST
        if bound in ("after", "since"):
            hi = max(hi, at)  # up to now, at least
        phrase = _date_phrase(info.text)
        return AskedTime(phrase, f"{_span_label(lo, hi)} (\"{phrase}\")" if phrase else _span_label(lo, hi),
                         lo, hi, order=order)
    if info.order == "earlier":
        return AskedTime("before now", "what held before the current value", order="earlier")
    if info.order == "first":
        return AskedTime("originally", "the first value known", order="first")
    return None


_DATE_PHRASE = re.compile(
    r"\b(?:(?:back in|in|on|during|last|this past|the|before|after|since|until|till|by) )*(?:(?:early|mid|late)[- ])?"
    r"(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?: \d{1,2}(?:st|nd|rd|th)?)?(?:,? \d{4})?|"
    r"\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*(?:,? \d{4})?|"
    r"spring|summer|fall|autumn|winter|week|weekend|month|year|(?:19|20)\d\d)(?: (?:of )?(?:19|20)\d\d)?\b", re.I)


def _date_phrase(text: str) -> str:
    m = _DATE_PHRASE.search(text)
    return m.group(0) if m else ""


def _anchor_words(anchor: TimeAnchor) -> list[str]:
    return [w for w in anchor.words if len(w) > 2 and w not in _GENERIC]


def _place_anchor(mem, info: QueryInfo, anchor: TimeAnchor, focus_ids: list[str], *, group_id: str,
                  at: _dt.datetime, known_at: _dt.datetime) -> AskedTime:
    store = mem._store
    phrase = f"{anchor.relation if anchor.relation != 'during' else 'when'} {anchor.text}"
    # the entities the event names ("Bristol"), exactly as the memory knows them
    named = store.lookup_names({alias_key(group_id, n): n for n in anchor.names}) if anchor.names else {}
    named_ids = set(named.values())
    subjects = [i for i in focus_ids if i not in named_ids]
    # the beliefs it may name: the asked entities' (and the speaker's, through
    # "I"), and any whose value is an entity the event names
    versions: dict[str, Fact] = {}
    for f in store.facts_of(subjects, group_id=group_id, known_at=known_at) if subjects else []:
        versions[f.vid] = f
    for f in store.facts_with_object(sorted(named_ids), known_at=known_at) if named_ids else []:
        if f.group_id == group_id:
            versions[f.vid] = f
    words = _anchor_words(anchor)
    stems = {_stem(w) for w in words}
    names = [_fold(n) for n in anchor.names]
    registry = mem.registry
    scored: list[tuple[float, Fact]] = []
    for f in versions.values():
        if f.valid_to is not None and f.valid_to <= f.valid_from:
            continue  # held at no valid time
        value = _fold(f.value)
        vwords = set(value.split())
        score = 0.0
        if (f.object_id and f.object_id in named_ids) or any(n and (n == value or f" {n} " in f" {value} ") for n in names):
            score = 3.0
        elif stems & {_stem(w) for w in vwords}:
            score = 2.0
        if not score:
            continue
        attr_words = {_stem(w) for w in _WORD.findall(" ".join([f.attribute.replace("_", " "),
                                                                *registry.question_words(f.attribute)]).lower())}
        if stems & attr_words:
            score += 1.0
        elif score == 3.0 and _people.role_class(f.attribute.replace("_", " ")) is not None:
            # "before Ola visited" and "my sister Ola": when the memory learned
            # who Ola is says nothing of when she visited
            continue
        if f.subject_id in subjects:
            score += 0.5
        scored.append((score, f))
    bare = any(_fold(anchor.text) == _fold(n) for n in (*anchor.names, " ".join(words)))
    if not scored and BEFORE_FIRST_SAID and anchor.relation == "before" and bare:
        first = _first_said(mem, group_id, anchor.names or tuple(words), proper=not anchor.names)
        if first is not None:
            # "where did I live before Alief?", Alief only ever said in passing
            return AskedTime(phrase, f"before {_when(first)} ({phrase}: first said of then)", EARLIEST, first,
                             order="latest-first", drop_names=tuple(anchor.names), first_said=True)
    if not scored:
        unknown = bool(anchor.names) and not named and not _heard_of(mem, group_id, anchor.names)
        why = (f"nothing in memory is called {', '.join(anchor.names)}" if unknown
               else "no stored belief says when that was")
        return AskedTime(phrase, phrase, unplaced=why, unknown=unknown)
    best = max(s for s, _ in scored)
    top = [f for s, f in scored if s == best]
    # one belief, or several versions and beliefs of the same value: their union
    key = min(top, key=lambda f: (f.valid_from, f.id))
    same = [f for f in top if (f.subject_id, f.attribute, _fold(f.value)) == (key.subject_id, key.attribute, _fold(key.value))]
    start = min(f.valid_from for f in same)
    ends = [f.valid_to for f in same]
    end = None if any(e is None for e in ends) else max(ends)  # type: ignore[type-var]
    what = f"{key.subject} · {key.attribute.replace('_', ' ')}: {key.value}"
    drop = tuple(anchor.names)
    if anchor.relation == "before":
        t = (end or at) if anchor.ending else start
        return AskedTime(phrase, f"before {_when(t)} ({phrase}: {what}, {_interval(start, end)})",
                         EARLIEST, t, order="latest-first", anchor=key, drop_names=drop, anchor_facts=tuple(same))
    if anchor.relation == "after":
        t = (end or at) if anchor.ending else start
        return AskedTime(phrase, f"from {_when(t)} ({phrase}: {what}, {_interval(start, end)})",
                         t, LATEST, order="first", anchor=key, drop_names=drop, anchor_facts=tuple(same))
    if START_SPAN and (anchor.starting or anchor.first):
        # "when I joined Lumora": the weeks it began, not all the time since
        until = start + START_SPAN if end is None else min(end, start + START_SPAN)
        return AskedTime(phrase, f"{_when(start)} to {_when(until)} ({phrase}: the start of {what})", start, until,
                         order="first", anchor=key, drop_names=drop, anchor_facts=tuple(same))
    return AskedTime(phrase, f"{_interval(start, end)} ({phrase}: {what})", start, end or LATEST,
                     order="first" if anchor.first else None, anchor=key, drop_names=drop, anchor_facts=tuple(same))


def _interval(start: _dt.datetime, end: _dt.datetime | None) -> str:
    return f"{_when(start)} to {_when(end)}" if end is not None else f"since {_when(start)}"


def _stem(word: str) -> str:
    from ._recall import _stemmer

    return _stemmer().stemWord(word)


def _first_said(mem, group_id: str, names: tuple[str, ...], *, proper: bool = False) -> _dt.datetime | None:
    """When the group's turns first named any of ``names`` (None: never).
    ``proper``: only where a turn wrote it with a capital (a question typed
    in lower case, "before alief", asks about the place "Alief", not about
    the first time a common word was said)."""
    if not _heard_of(mem, group_id, names):
        return None
    idx = mem._recaller().index(group_id)
    pats = [re.compile(r"\b" + re.escape(n) + r"\b", re.I) for n in names if n.strip()]
    found = [(idx.times[r], ms) for r, (kind, _) in enumerate(idx.keys) if kind == "episode"
             and (ms := [m.group(0) for p in pats for m in p.finditer(idx.texts[r])])]
    if not found or proper and not any(m[:1].isupper() for _, ms in found for m in ms) \
            and not any(_fold(n) in places() for n in names):
        return None  # a place name is one however typed ("this apt in hilliard")
    return _dt.datetime.fromtimestamp(min(t for t, _ in found), _dt.timezone.utc)


def _heard_of(mem, group_id: str, names: tuple[str, ...]) -> bool:
    """Whether any of ``names`` is a word of the group's texts (BM25 vocabulary)."""
    idx = mem._recaller().index(group_id)
    if idx.bm25 is None:
        return False
    from ._recall import _tokenize

    vocab = idx.bm25.vocab_dict
    return any(toks and all(t in vocab for t in toks) for toks in _tokenize(list(names)))
