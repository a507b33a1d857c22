"""Resolve English time expressions against a reference time (standard library only).

``resolve("last week", ref)`` -> :class:`TimeRef` covering the calendar week
(Monday to Monday) before the reference week. Every result is a half-open
interval ``[start, end)`` of aware UTC datetimes at a *grain* (``day``,
``week``, ``month``, ``season``, ``year``); :meth:`TimeRef.iso` renders it at
that grain (``2024-05-03``, ``2024-W19``, ``2024-05``, ``2024-summer``,
``2024``).

Conventions (documented because English is ambiguous):

- Dates are computed in UTC on the reference time's UTC calendar day.
- Weeks start on Monday. ``this Friday`` is the Friday of the reference week,
  ``next Friday`` the Friday of the following week, ``last Friday`` the most
  recent Friday strictly before the reference day.
- A bare weekday, month or ``May 3`` without a year is placed by
  ``direction``: ``-1`` the most recent one at or before the reference (past
  tense: "I moved in March"), ``+1`` the next one at or after it (plans,
  deadlines: "the launch is on May 3"), ``0`` whichever is nearest. A bare
  weekday is never the reference day itself (past: the previous one, future:
  the next one).
- ``N days/weeks ago`` and ``in N days/weeks`` are day-grained;
  ``N months/years ago`` shift the calendar date (day clamped to the month).
- Seasons are meteorological (northern hemisphere): spring Mar-May, summer
  Jun-Aug, fall/autumn Sep-Nov, winter Dec-Feb (named by the year it starts).
- Phrases with no fixed point ("recently", "lately", "now", "every day",
  "the other day") resolve to ``None``.
- Holidays with a fixed or computed date are days placed like ``May 3``:
  New Year's (Day, Eve), Valentine's Day, Halloween, Christmas (Eve, Day),
  Boxing Day, the Fourth of July, US Thanksgiving (fourth Thursday of
  November) and Easter (Sunday, Gregorian). "New Year's" alone is 1 January.

Durations ("for three years", "two weeks") are parsed by :func:`parse_duration`.

:func:`find` finds the time expressions of running text ("I went there last
night", "we moved in March") and resolves each; recall uses it for the time
an episode tells of (docs/time.md).
"""

from __future__ import annotations

import calendar
import datetime as _dt
import re
from dataclasses import dataclass

__all__ = ["TimeRef", "resolve", "find", "parse_duration", "shift", "word_number"]

UTC = _dt.timezone.utc

_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3,
    "april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7,
    "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}
_WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4,
    "saturday": 5, "sat": 5, "sunday": 6, "sun": 6,
}
_SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    "a couple of": 2, "a couple": 2, "couple of": 2, "a few": 3, "few": 3, "several": 3,
    "a dozen": 12, "dozen": 12, "half a": 0.5,
}

_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAY_RE = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
_SEASON_RE = "|".join(_SEASONS)
_NUM_RE = r"\d+(?:\.\d+)?|" + "|".join(sorted((re.escape(k) for k in _NUMBER_WORDS), key=len, reverse=True))
_UNIT_RE = r"days?|weeks?|months?|years?|decades?"
_ORD = r"(?:st|nd|rd|th)?"


def word_number(text: str) -> float | None:
    """``"two"`` -> 2, ``"12"`` -> 12, ``"a couple of"`` -> 2; ``None`` if not a number."""
    t = text.strip().lower().replace(",", "")
    if t in _NUMBER_WORDS:
        return _NUMBER_WORDS[t]
    try:
        return float(t) if "." in t else int(t)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class TimeRef:
    """A resolved time expression: the half-open interval ``[start, end)``."""

    start: _dt.datetime
    end: _dt.datetime
    grain: str  # day | week | month | season | year

    def iso(self) -> str:
        s = self.start
        if self.grain == "day":
            return s.date().isoformat()
        if self.grain == "week":
            y, w, _ = s.isocalendar()
            return f"{y}-W{w:02d}"
        if self.grain == "month":
            return f"{s.year:04d}-{s.month:02d}"
        if self.grain == "season":
            name = {3: "spring", 6: "summer", 9: "fall", 12: "winter"}[s.month]
            return f"{s.year:04d}-{name}"
        return f"{s.year:04d}"

    def last_day(self) -> TimeRef:
        """The last day of the interval (for "end of March")."""
        d = self.end - _dt.timedelta(days=1)
        return _day(d.date())

    def first_day(self) -> TimeRef:
        return _day(self.start.date())


# --- constructors -----------------------------------------------------------

def _midnight(d: _dt.date) -> _dt.datetime:
    return _dt.datetime(d.year, d.month, d.day, tzinfo=UTC)


def _day(d: _dt.date) -> TimeRef:
    return TimeRef(_midnight(d), _midnight(d + _dt.timedelta(days=1)), "day")


def _week(d: _dt.date) -> TimeRef:
    monday = d - _dt.timedelta(days=d.weekday())
    return TimeRef(_midnight(monday), _midnight(monday + _dt.timedelta(days=7)), "week")


def _month(year: int, month: int) -> TimeRef:
    start = _dt.date(year, month, 1)
    end = _dt.date(year + (month == 12), month % 12 + 1, 1)
    return TimeRef(_midnight(start), _midnight(end), "month")


def _year(year: int) -> TimeRef:
    return TimeRef(_midnight(_dt.date(year, 1, 1)), _midnight(_dt.date(year + 1, 1, 1)), "year")


def _season(year: int, first_month: int) -> TimeRef:
    start = _dt.date(year, first_month, 1)
    m = first_month + 3
    end = _dt.date(year + (m > 12), (m - 1) % 12 + 1, 1)
    return TimeRef(_midnight(start), _midnight(end), "season")


def shift(d: _dt.date, *, years: int = 0, months: int = 0, days: float = 0) -> _dt.date:
    """Calendar shift with the day clamped to the target month."""
    if years or months:
        total = d.year * 12 + (d.month - 1) + years * 12 + months
        y, m = divmod(total, 12)
        m += 1
        d = _dt.date(y, m, min(d.day, calendar.monthrange(y, m)[1]))
    if days:
        d = d + _dt.timedelta(days=round(days))
    return d


def _delta(n: float, unit: str) -> dict:
    unit = unit.rstrip("s")
    if unit == "day":
        return {"days": n}
    if unit == "week":
        return {"days": 7 * n}
    if unit == "month":
        if n != int(n):
            return {"days": 30 * n}
        return {"months": int(n)}
    if unit == "year":
        if n != int(n):
            return {"months": int(round(12 * n))}
        return {"years": int(n)}
    if unit == "decade":
        return {"years": int(10 * n)}
    return {}


def parse_duration(text: str) -> dict | None:
    """``"three years"`` -> ``{"years": 3}``; ``"a couple of weeks"`` -> ``{"days": 14}``."""
    t = _clean(text)
    t = re.sub(r"^(?:for|about|around|almost|nearly|over|roughly|the (?:last|past))\s+", "", t)
    m = re.fullmatch(rf"({_NUM_RE})\s+(?:more\s+)?({_UNIT_RE})", t)
    if not m:
        m2 = re.fullmatch(rf"({_UNIT_RE})", t)
        if m2 and not t.endswith("s"):
            return _delta(1, t)
        return None
    n = word_number(m.group(1))
    if n is None:
        return None
    return _delta(n, m.group(2))


# --- placing partial dates ----------------------------------------------------

def _place(candidates: list[TimeRef], ref_day: _dt.date, direction: int) -> TimeRef | None:
    """Pick among yearly candidates (sorted) by direction."""
    ref0 = _midnight(ref_day)
    if direction < 0:
        past = [c for c in candidates if c.start <= ref0]
        return past[-1] if past else None
    if direction > 0:
        fut = [c for c in candidates if c.end > ref0]
        return fut[0] if fut else None
    return min(candidates, key=lambda c: (abs((c.start - ref0).total_seconds()), c.start < ref0))


def _month_day(month: int, day: int, ref_day: _dt.date, direction: int) -> TimeRef | None:
    cands = []
    for y in (ref_day.year - 1, ref_day.year, ref_day.year + 1):
        if day <= calendar.monthrange(y, month)[1]:
            cands.append(_day(_dt.date(y, month, day)))
    return _place(cands, ref_day, direction)


def _weekday(wd: int, ref_day: _dt.date, direction: int) -> TimeRef:
    diff = wd - ref_day.weekday()
    if direction < 0:
        back = (-diff) % 7 or 7
        return _day(ref_day - _dt.timedelta(days=back))
    fwd = diff % 7 or 7
    if direction > 0:
        return _day(ref_day + _dt.timedelta(days=fwd))
    back = (-diff) % 7 or 7
    return _day(ref_day + _dt.timedelta(days=fwd)) if fwd <= back else _day(ref_day - _dt.timedelta(days=back))


def _clean(text: str) -> str:
    t = text.lower().replace("\u2019", "'")
    t = re.sub(r"[!?;\"()]", " ", t)
    t = re.sub(r"\s+", " ", t).strip(" .,")
    return t


_LEADING = re.compile(
    r"^(?:(?:on|in|at|by|since|from|until|till|til|through|during|around|about|as of|"
    r"starting|beginning|back in|back on|sometime in|some time in|effective|before|after)\s+)+")

_PARTS = {"morning", "afternoon", "evening", "night"}


def resolve(text: str, ref: _dt.datetime, direction: int = 0) -> TimeRef | None:
    """Resolve one time expression against ``ref`` (aware; converted to UTC).

    ``direction``: -1 past, +1 future, 0 nearest (see the module docstring).
    Returns ``None`` when the text is not a placeable time expression, and
    when it would fall outside the calendar (years 1 to 9999: "next year"
    said in 9999).
    """
    try:
        return _resolve_at(text, ref, direction)
    except (OverflowError, ValueError):  # before year 1 or after 9999
        return None


def _resolve_at(text: str, ref: _dt.datetime, direction: int) -> TimeRef | None:
    if ref.tzinfo is None:
        ref = ref.replace(tzinfo=UTC)
    ref_day = ref.astimezone(UTC).date()
    t = _clean(text)
    m = re.fullmatch(rf"(?:in|within)\s+(?:the next\s+)?({_NUM_RE})\s+({_UNIT_RE})(?:\s+time)?", t)
    if m:
        n = word_number(m.group(1))
        return None if n is None else _day(shift(ref_day, **_delta(n, m.group(2))))
    t = _LEADING.sub("", t)
    # a time of day does not move the day: "10am tomorrow", "Friday at 3pm", "noon on May 3"
    t = re.sub(r"(?:^|\s)(?:at\s+)?(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|noon|midnight)(?=\s|$)", " ", t).strip(" ,")
    t = _LEADING.sub("", t)
    t = re.sub(r"^the\s+(?=(?:day|week|month|year|end|beginning|start|middle|weekend)\b)", "the ", t)
    if not t or len(t) > 60:
        return None
    return _resolve(t, ref_day, direction)


def _resolve(t: str, ref_day: _dt.date, direction: int) -> TimeRef | None:
    # qualifiers of a period: end of / beginning of / early / mid / late
    m = re.fullmatch(r"(?:the\s+)?(end|beginning|start|middle|early|mid|late)(?:\s+of\s+|-\s*|\s+)(?:the\s+)?(.+)", t)
    if m:
        which, rest = m.group(1), m.group(2)
        if rest in ("month", "week", "year"):
            rest = "this " + rest
        base = _resolve(rest, ref_day, direction)
        if base is None:
            return None
        if which in ("end", "late"):
            return base.last_day() if which == "end" else base
        if which in ("beginning", "start"):
            return base.first_day()
        return base

    # a period before or after a date: "the week before August 3, 2023", "two days after May 5",
    # "the Monday before July 24", "last weekend before April 10"
    m = re.fullmatch(rf"(?:the\s+)?(?:last\s+)?(day|night|week|weekend|month|year|{_WEEKDAY_RE}|"
                     rf"(?:{_NUM_RE})\s+(?:{_UNIT_RE}))\s+(before|after|prior to|following)\s+(.+)", t)
    if m:
        base = _resolve(_LEADING.sub("", m.group(3)), ref_day, direction)
        if base is None:
            return None
        unit, after = m.group(1), m.group(2) in ("after", "following")
        anchor = base.end.date() if after else base.start.date()
        if unit in ("day", "night"):
            return _day(anchor if after else anchor - _dt.timedelta(days=1))
        if unit == "week":
            return (TimeRef(_midnight(anchor), _midnight(anchor + _dt.timedelta(days=7)), "week") if after
                    else TimeRef(_midnight(anchor - _dt.timedelta(days=7)), _midnight(anchor), "week"))
        if unit == "weekend":
            return _weekday(5, anchor - _dt.timedelta(days=1) if after else anchor, 1 if after else -1)
        if unit in _WEEKDAYS:
            return _weekday(_WEEKDAYS[unit], anchor - _dt.timedelta(days=1) if after else anchor, 1 if after else -1)
        if unit == "month":
            d = shift(anchor.replace(day=1), months=1 if after else -1)
            return _month(d.year, d.month)
        if unit == "year":
            return _year(anchor.year + (1 if after else -1))
        n_unit = re.fullmatch(rf"({_NUM_RE})\s+({_UNIT_RE})", unit)
        n = word_number(n_unit.group(1)) if n_unit else None
        if n is None:
            return None
        delta = _delta(n, n_unit.group(2))  # type: ignore[union-attr]
        return _day(shift(anchor, **({k: v for k, v in delta.items()} if after
                                     else {k: -v for k, v in delta.items()})))

    # relative days
    simple = {
        "today": 0, "tonight": 0, "this morning": 0, "this afternoon": 0, "this evening": 0,
        "earlier today": 0, "later today": 0, "yesterday": -1, "last night": -1,
        "the day before yesterday": -2, "day before yesterday": -2, "tomorrow": 1,
        "the day after tomorrow": 2, "day after tomorrow": 2,
    }
    for part in _PARTS:
        simple[f"yesterday {part}"] = -1
        simple[f"tomorrow {part}"] = 1
    if t in simple:
        return _day(ref_day + _dt.timedelta(days=simple[t]))

    # N units ago / N units from now ("in N units" is handled in resolve())
    m = re.fullmatch(rf"({_NUM_RE})\s+({_UNIT_RE})\s+(ago|back|earlier|before|from now|later)", t)
    if m:
        n = word_number(m.group(1))
        if n is None:
            return None
        sign = -1 if m.group(3) in ("ago", "back", "earlier", "before") else 1
        d = _delta(n, m.group(2))
        return _day(shift(ref_day, **{k: sign * v for k, v in d.items()}))
    m = re.fullmatch(rf"(?:a|one|1)\s+({_UNIT_RE})\s+from\s+(today|now|tomorrow)", t)
    if m:
        base = ref_day + _dt.timedelta(days=1 if m.group(2) == "tomorrow" else 0)
        return _day(shift(base, **_delta(1, m.group(1))))

    # last / this / next X
    m = re.fullmatch(rf"(last|past|previous|this|next|coming|this coming|this past)\s+(.+)", t)
    if m:
        rel, unit = m.group(1), m.group(2)
        step = {"last": -1, "past": -1, "previous": -1, "this past": -1,
                "this": 0, "next": 1, "coming": 1, "this coming": 1}[rel]
        if unit == "week":
            return _week(ref_day + _dt.timedelta(days=7 * step))
        if unit == "weekend":
            sat = _week(ref_day + _dt.timedelta(days=7 * step)).start.date() + _dt.timedelta(days=5)
            if step < 0 and sat >= ref_day:
                sat -= _dt.timedelta(days=7)
            return _day(sat)
        if unit == "month":
            d = shift(ref_day.replace(day=1), months=step)
            return _month(d.year, d.month)
        if unit == "year":
            return _year(ref_day.year + step)
        if unit in _WEEKDAYS:
            wd = _WEEKDAYS[unit]
            if rel in ("last", "past", "previous", "this past"):
                return _weekday(wd, ref_day, -1)
            if rel in ("coming", "this coming"):
                return _weekday(wd, ref_day, +1)
            monday = ref_day - _dt.timedelta(days=ref_day.weekday())
            return _day(monday + _dt.timedelta(days=7 * step + wd))
        if unit in _MONTHS:
            mo = _MONTHS[unit]
            if step == 0:
                return _month(ref_day.year, mo)
            cands = [_month(y, mo) for y in (ref_day.year - 1, ref_day.year, ref_day.year + 1)]
            ref0 = _midnight(ref_day)
            if step < 0:
                past = [c for c in cands if c.end <= ref0]
                return past[-1]
            return [c for c in cands if c.start > ref0][0]
        if unit in _SEASONS:
            return _season_rel(unit, ref_day, step)
        if unit in _HOLIDAY_NAMES:  # "last Christmas": the latest before today; "next", "this": the coming one
            days = [_day(d) for y in range(ref_day.year - 1, ref_day.year + 2)
                    if (d := _holiday(_HOLIDAY_NAMES[unit], y)) is not None]
            if step < 0:
                past = [c for c in days if c.start < _midnight(ref_day)]
                return past[-1] if past else None
            return _place(days, ref_day, 1)
        return None

    # ISO and numeric dates
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:t[\d:.]+z?)?", t)
    if m:
        return _safe_day(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = re.fullmatch(r"(\d{4})/(\d{1,2})/(\d{1,2})", t)
    if m:
        return _safe_day(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})", t)
    if m:  # US month/day/year
        y = int(m.group(3))
        y = y + 2000 if y < 100 else y
        return _safe_day(y, int(m.group(1)), int(m.group(2)))
    m = re.fullmatch(r"(\d{4})-(\d{2})", t)
    if m and 1 <= int(m.group(2)) <= 12:
        return _month(int(m.group(1)), int(m.group(2)))

    # weekday prefix: "friday, may 3"
    t = re.sub(rf"^(?:{_WEEKDAY_RE}),?\s+(?=\S)", "", t) if re.match(rf"^(?:{_WEEKDAY_RE}),?\s+\S", t) else t

    # month day [year] / day month [year]
    m = re.fullmatch(rf"({_MONTH_RE})\.?\s+(?:the\s+)?(\d{{1,2}}){_ORD},?(?:\s+(\d{{4}}))?", t)
    if m:
        mo, day = _MONTHS[m.group(1)], int(m.group(2))
        if m.group(3):
            return _safe_day(int(m.group(3)), mo, day)
        return _month_day(mo, day, ref_day, direction) if 1 <= day <= 31 else None
    m = re.fullmatch(rf"(?:the\s+)?(\d{{1,2}}){_ORD}\s+(?:of\s+)?({_MONTH_RE})\.?,?(?:\s+(\d{{4}}))?", t)
    if m:
        mo, day = _MONTHS[m.group(2)], int(m.group(1))
        if m.group(3):
            return _safe_day(int(m.group(3)), mo, day)
        return _month_day(mo, day, ref_day, direction) if 1 <= day <= 31 else None
    # month [of] year
    m = re.fullmatch(rf"({_MONTH_RE})\.?,?\s+(?:of\s+)?(\d{{4}})", t)
    if m:
        return _month(int(m.group(2)), _MONTHS[m.group(1)])
    # season [of] year
    m = re.fullmatch(rf"(?:the\s+)?({_SEASON_RE})\s+(?:of\s+)?(\d{{4}})", t)
    if m:
        return _season(int(m.group(2)), _SEASONS[m.group(1)])
    # year
    m = re.fullmatch(r"(?:the year\s+)?((?:19|20)\d{2})", t)
    if m:
        return _year(int(m.group(1)))
    # holidays
    h = _HOLIDAY_NAMES.get(t)
    if h is not None:
        cands = [d for y in (ref_day.year - 1, ref_day.year, ref_day.year + 1) if (d := _holiday(h, y)) is not None]
        return _place([_day(d) for d in cands], ref_day, direction)
    # bare month
    if t in _MONTHS and t not in ("may", "mar", "sat", "sun", "jan", "jun", "jul", "aug", "oct", "nov", "dec", "sep", "sept", "apr", "feb"):
        mo = _MONTHS[t]
        return _place([_month(y, mo) for y in (ref_day.year - 1, ref_day.year, ref_day.year + 1)], ref_day, direction)
    if t == "may":  # only when the caller already knows it's a date
        return _place([_month(y, 5) for y in (ref_day.year - 1, ref_day.year, ref_day.year + 1)], ref_day, direction)
    # bare weekday
    if t in _WEEKDAYS and len(t) > 3:
        return _weekday(_WEEKDAYS[t], ref_day, direction if direction else 1)
    if t in ("the weekend", "weekend"):
        return _resolve("last weekend" if direction < 0 else "this weekend", ref_day, direction)
    # bare season
    if t in _SEASONS or t.startswith("the ") and t[4:] in _SEASONS:
        name = t[4:] if t.startswith("the ") else t
        cands = [_season(y, _SEASONS[name]) for y in (ref_day.year - 2, ref_day.year - 1, ref_day.year, ref_day.year + 1)]
        return _place(cands, ref_day, direction)
    # "the 14th"
    m = re.fullmatch(r"the\s+(\d{1,2})(?:st|nd|rd|th)", t)
    if m:
        day = int(m.group(1))
        cands = []
        for k in (-1, 0, 1):
            d = shift(ref_day.replace(day=1), months=k)
            if 1 <= day <= calendar.monthrange(d.year, d.month)[1]:
                cands.append(_day(d.replace(day=day)))
        return _place(cands, ref_day, direction) if cands else None
    return None


def _season_rel(name: str, ref_day: _dt.date, step: int) -> TimeRef | None:
    first = _SEASONS[name]
    cands = [_season(y, first) for y in range(ref_day.year - 2, ref_day.year + 2)]
    ref0 = _midnight(ref_day)
    current = [c for c in cands if c.start <= ref0 < c.end]
    if step == 0:
        if current:
            return current[0]
        fut = [c for c in cands if c.start > ref0]
        past = [c for c in cands if c.end <= ref0]
        # "this summer" said in spring -> the coming one; said in autumn -> the one just gone
        if fut and (not past or (fut[0].start - ref0) <= (ref0 - past[-1].end)):
            return fut[0]
        return past[-1] if past else None
    if step < 0:
        past = [c for c in cands if c.end <= ref0]
        return past[-1] if past else None
    fut = [c for c in cands if c.start > ref0]
    return fut[0] if fut else None


def _safe_day(y: int, mo: int, d: int) -> TimeRef | None:
    try:
        return _day(_dt.date(y, mo, d))
    except ValueError:
        return None


# --- holidays -------------------------------------------------------------------

#: Spellings of the holidays :func:`resolve` places (after ``_clean``: lower
#: case, curly apostrophes straightened), each to its key in ``_holiday``.
_HOLIDAY_NAMES = {
    **dict.fromkeys(("new year's", "new years", "new year's day", "new years day", "new year"), "new_year"),
    **dict.fromkeys(("new year's eve", "new years eve", "nye"), "new_year_eve"),
    **dict.fromkeys(("valentine's day", "valentines day", "valentine's", "valentines"), "valentine"),
    **dict.fromkeys(("halloween",), "halloween"),
    **dict.fromkeys(("christmas", "christmas day", "xmas", "xmas day"), "christmas"),
    **dict.fromkeys(("christmas eve", "xmas eve"), "christmas_eve"),
    **dict.fromkeys(("boxing day",), "boxing_day"),
    **dict.fromkeys(("the fourth of july", "fourth of july", "the 4th of july", "4th of july",
                     "independence day"), "july_4"),
    **dict.fromkeys(("thanksgiving", "thanksgiving day"), "thanksgiving"),
    **dict.fromkeys(("easter", "easter sunday"), "easter"),
}
_FIXED_HOLIDAYS = {"new_year": (1, 1), "new_year_eve": (12, 31), "valentine": (2, 14), "halloween": (10, 31),
                   "christmas": (12, 25), "christmas_eve": (12, 24), "boxing_day": (12, 26), "july_4": (7, 4)}


def _holiday(key: str, year: int) -> _dt.date | None:
    if not 1 <= year <= 9999:
        return None
    if key in _FIXED_HOLIDAYS:
        return _dt.date(year, *_FIXED_HOLIDAYS[key])
    if key == "thanksgiving":  # the fourth Thursday of November
        first = _dt.date(year, 11, 1)
        return first + _dt.timedelta(days=(3 - first.weekday()) % 7 + 21)
    # Easter Sunday (Gregorian; the anonymous algorithm, Meeus/Jones/Butcher)
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l_ = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l_) // 451
    month, day = divmod(h + l_ - 7 * m + 114, 31)
    return _dt.date(year, month, day + 1)


# --- time expressions in running text ----------------------------------------------

_NUM_WORDS_RE = r"\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of|a couple|couple of|a few|few|several"
_BARE_MONTH_RE = "|".join(sorted((m for m in _MONTHS if len(m) > 3 or m == "may"), key=len, reverse=True))
_HOLIDAY_RE = "|".join(sorted((re.escape(h).replace("'", "['’]?") for h in _HOLIDAY_NAMES if h != "nye"),
                              key=len, reverse=True))
_DAYNUM = r"\d{1,2}(?:st|nd|rd|th)?"
#: Candidate phrases, longest alternatives first; each match is handed to :func:`resolve`.
_FIND = re.compile(
    r"\b(?:"
    rf"(?:the )?day (?:before yesterday|after tomorrow)"
    rf"|(?:yesterday|tomorrow)(?: (?:morning|afternoon|evening|night))?"
    rf"|last night"
    rf"|(?:{_NUM_WORDS_RE}) (?:days?|weeks?|months?|years?) (?:ago|from now)"
    rf"|in (?:{_NUM_WORDS_RE}) (?:days?|weeks?|months?)"
    rf"|(?:this past|this coming|last|past|previous|next|coming) "
    rf"(?:week(?:end)?|month|year|{_WEEKDAY_RE}|{_BARE_MONTH_RE}|{_SEASON_RE})"
    rf"|(?:(?:{_WEEKDAY_RE}),? )?(?:{_MONTH_RE})\.? (?:the )?{_DAYNUM}(?:,? (?:19|20)\d\d)?"
    rf"|(?:the )?{_DAYNUM} (?:of )?(?:{_MONTH_RE})\.?(?:,? (?:19|20)\d\d)?"
    rf"|(?:{_MONTH_RE})\.?,? (?:of )?(?:19|20)\d\d"
    rf"|(?:{_SEASON_RE}) (?:of )?(?:19|20)\d\d"
    rf"|(?:19|20)\d\d-\d\d-\d\d"
    rf"|(?:in|since|during|back in|until|till|from|by|over|through|this) (?:the )?(?:early |mid-?|late )?(?:{_BARE_MONTH_RE}|{_SEASON_RE})(?!\.? ?\d)"
    rf"|(?:in|since|during|back in|until|till|from|of) (?:19|20)\d\d"
    rf"|(?:(?:on|at|since|for|over|until|till|by|before|after) )?(?:last |this past |this |next |this coming )?(?:{_HOLIDAY_RE})"
    rf"(?!['’]?s?\s+(?:resolutions?|part(?:y|ies)|dinners?|cards?|gifts?|presents?|trees?|lights|markets?|"
    rf"breaks?|shopping|sales?|specials?|plans?|movies?|songs?|costumes?|decorations?|cookies|menu)\b)"
    rf"|on (?:{_WEEKDAY_RE})"
    r")\b",
    re.I,
)
_FUTURE = re.compile(r"\b(will|'ll|shall|going to|gonna|plan(?:s|ning)? to|planned for|scheduled|"
                     r"upcoming|coming up|can'?t wait|looking forward|is on|are on|is set for)\b", re.I)
_PAST = re.compile(r"\b(was|were|went|did|had|got|moved|left|started|began|finished|ended|since|ago|"
                   r"back in|back on|used to|last)\b", re.I)
#: A period named by its distance to a date, just before a found date.
_RELATIVE_TO = re.compile(
    rf"\b(?:the\s+|last\s+)?(?:day|night|week|weekend|month|year|{_WEEKDAY_RE}|(?:{_NUM_WORDS_RE})\s+(?:{_UNIT_RE}))"
    rf"\s+(?:before|after|prior to|following)\s+(?:on\s+|the\s+)?$", re.I)
_RELATIVE_TO_BARE = re.compile(
    rf"\b(?:the\s+|last\s+)?(?:day|night|week|weekend|month|year|{_WEEKDAY_RE}|(?:{_NUM_WORDS_RE})\s+(?:{_UNIT_RE}))"
    rf"\s+$", re.I)
#: Leading words of a found phrase that :func:`resolve` does not strip ("for Christmas").
_UNPLACED_LEAD = re.compile(r"^(?:for|over|before|after)\s+", re.I)
_CLAUSE = re.compile(r"[.!?;\n]")
#: The new time of a plan that moved ("moved the surgery again, to November
#: 7", "pushed back to Friday", "postponed until March"): the verb is past but
#: the time it names is the plan's, so it is placed at the nearest, not behind.
_RESCHEDULED_TO = re.compile(
    r"\b(?:moved|pushed|postponed|rescheduled|delayed|bumped|shifted|changed|put off|brought forward)\b"
    r"[^.!?;\n]{0,40}?\b(?:to|until|till|til|for|now)\s+(?:the\s+)?$", re.I)


def find(text: str, ref: _dt.datetime, direction: int | None = None) -> list[tuple[int, int, TimeRef]]:
    """The time expressions of ``text`` that :func:`resolve` places against
    ``ref``, each as ``(start, end, TimeRef)`` in order, at most one per
    stretch of text. A phrase that places by tense ("in March", "on Friday",
    "May 3") reads the rest of its sentence: a future marker ("will",
    "going to", "can't wait") places it ahead, a past one ("was", "moved",
    "since") behind, neither at the nearest. "Today", "tonight" and "this
    morning" are not returned: they are the reference day itself.
    ``direction`` (-1, 0, +1) places every phrase that way instead."""
    if not text:
        return []
    out = []
    for m in _FIND.finditer(text):
        start = m.start()
        # "the week before | two days after | the Monday before" a date: the whole phrase
        rel = (_RELATIVE_TO_BARE if re.match(r"(?:before|after)\s", m.group(0), re.I)
               else _RELATIVE_TO).search(text, max(0, start - 40), start)
        phrase = text[rel.start():m.end()] if rel else m.group(0)
        start = rel.start() if rel else start
        lo = max((c.end() for c in _CLAUSE.finditer(text, 0, start)), default=0)
        stop = _CLAUSE.search(text, m.end())
        sentence = text[lo:stop.start() if stop else len(text)]
        way = direction if direction is not None else (
            1 if _FUTURE.search(sentence) else
            0 if _RESCHEDULED_TO.search(text, lo, start) else -1 if _PAST.search(sentence) else 0)
        ref_ = resolve(phrase if rel else _UNPLACED_LEAD.sub("", phrase), ref, way)
        if ref_ is not None:
            out.append((start, m.end(), ref_))
    # a phrase inside a longer one ("last weekend" of "last weekend before April 10") is part of it
    return [x for x in out if not any(y is not x and y[0] <= x[0] and y[1] >= x[1] for y in out)]
