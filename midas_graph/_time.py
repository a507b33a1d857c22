"""Time handling for both axes.

Accepted on input: tz-aware datetimes, naive datetimes (taken as UTC), dates
(midnight UTC) and ISO-8601 strings (``2024-05-03``, ``2024-05-03T10:00``,
``...Z``, ``...+02:00``). Returned: tz-aware UTC datetimes. Open interval ends
are ``None`` in the API and :data:`FOREVER` in the database, so that the as-of
predicate is four plain comparisons with no null checks.
"""

from __future__ import annotations

import datetime as _dt
import threading
from typing import Callable, Union

from ._errors import InvalidInputError

UTC = _dt.timezone.utc
TimeLike = Union[_dt.datetime, _dt.date, str]
Clock = Callable[[], _dt.datetime]

#: The open end of an interval as stored (naive UTC, the engine's TIMESTAMP).
FOREVER = _dt.datetime(9999, 12, 31, 23, 59, 59)
FOREVER_UTC = FOREVER.replace(tzinfo=UTC)
#: The times accepted on input, in UTC: from the first instant of year 1 up
#: to, not including, :data:`FOREVER` (the stored open end).
RANGE_TEXT = "0001-01-01T00:00:00Z to 9999-12-31T23:59:58.999999Z"


def system_clock() -> _dt.datetime:
    return _dt.datetime.now(UTC)


def parse_time(value: TimeLike | None, field: str) -> _dt.datetime | None:
    """Normalise one user-supplied time to an aware UTC datetime (``None`` passes)."""
    if value is None:
        return None
    if isinstance(value, _dt.datetime):
        dt = value
    elif isinstance(value, _dt.date):
        dt = _dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        text = value.strip()
        if not text:
            raise InvalidInputError(field, "empty time string")
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            dt = _dt.datetime.fromisoformat(text)
        except ValueError:
            raise InvalidInputError(
                field, f"cannot parse {value!r} as an ISO-8601 date or datetime"
            ) from None
    else:
        raise InvalidInputError(
            field, f"expected a datetime, date or ISO-8601 string, got {type(value).__name__}"
        )
    try:
        offset = dt.utcoffset()
    except (ValueError, TypeError, OverflowError) as exc:  # a tzinfo that cannot say its offset
        raise InvalidInputError(field, f"{value!r} has an unusable time zone ({exc})") from None
    if offset is None:  # naive, or a tzinfo without an offset: UTC
        dt = dt.replace(tzinfo=UTC)
    try:
        dt = dt.astimezone(UTC)
    except OverflowError:  # 0001-01-01T00:00+01:00, 9999-12-31T20:00-05:00: before year 1 or after 9999 in UTC
        raise InvalidInputError(field, f"{value!r} is outside the supported range ({RANGE_TEXT})") from None
    if dt >= FOREVER_UTC:
        raise InvalidInputError(field, f"{value!r} is outside the supported range ({RANGE_TEXT})")
    # The engine stores microseconds; keep exactly what will round-trip.
    return dt


def to_db(dt: _dt.datetime | None) -> _dt.datetime:
    """Aware UTC (or None = open end) -> naive UTC for the engine."""
    if dt is None:
        return FOREVER
    if dt.tzinfo is not UTC:  # every time the library makes is already UTC
        dt = dt.astimezone(UTC)
    return dt.replace(tzinfo=None)


_FOREVER_TEXT = str(FOREVER)


def from_db(dt: _dt.datetime | str | None) -> _dt.datetime | None:
    """Naive UTC from the engine (a datetime, or its text) -> aware UTC, with FOREVER -> None."""
    if isinstance(dt, str):
        if dt.startswith(_FOREVER_TEXT):
            return None
        dt = _dt.datetime.fromisoformat(dt)
    if dt is None or dt >= FOREVER:
        return None
    return dt.replace(tzinfo=UTC)


class MonotonicClock:
    """Wraps a clock so that transaction time never runs backwards.

    Two writes may share an instant; a later write never gets an earlier
    ``recorded_at`` than one already stored, even if the wall clock steps back.
    """

    def __init__(self, clock: Clock | None = None) -> None:
        self._clock = clock or system_clock
        self._last: _dt.datetime | None = None
        self._lock = threading.Lock()

    def observe(self, dt: _dt.datetime | None) -> None:
        if dt is None:
            return
        with self._lock:
            if self._last is None or dt > self._last:
                self._last = dt

    def now(self) -> _dt.datetime:
        raw = self._clock()
        now = parse_time(raw, "clock()")
        assert now is not None
        with self._lock:
            if self._last is not None and now < self._last:
                now = self._last
            self._last = now
        return now

    def peek(self) -> _dt.datetime:
        """Current time without advancing the write floor (for reads)."""
        raw = parse_time(self._clock(), "clock()")
        assert raw is not None
        with self._lock:
            return max(raw, self._last) if self._last else raw
