"""Numbers and measures: "250ms" -> (250.0, "ms"), "$5,000" -> (5000.0, "USD"), "two" -> 2.

Units, currency symbols and scale words are in ``schema/extract/numbers.toml``.
"""

from __future__ import annotations

import re

from .._timeexpr import word_number
from .lexicon import _CURRENCY, _SCALE, _UNITS
from .tokens import _child

_NUM_UNIT_RE = re.compile(r"^([$€£]?)(\d+(?:[.,]\d+)*)\s*([a-z%]+)?$", re.I)


def _fmt_num(x: float) -> int | float:
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def _parse_number(t) -> tuple[float, str | None, list] | None:
    """A number (with unit) headed at or around token t: (number, unit, tokens)."""
    toks = [t]
    num = None
    unit = None
    cur = None
    m = _NUM_UNIT_RE.match(t.text.replace("\u00a0", ""))
    suffix = (m.group(3) or "").lower() if m else ""
    if m and (not suffix or suffix in _UNITS or suffix in _SCALE) and not t.ent_type_ == "DATE":
        raw = m.group(2).replace(",", "")
        try:
            num = float(raw)
        except ValueError:
            num = None
        if num is not None:
            if m.group(1):
                cur = _CURRENCY[m.group(1)]
            if suffix in _SCALE and (suffix != "m" or cur):
                num *= _SCALE[suffix]
            elif suffix:
                unit = _UNITS[suffix]
    if num is None and t.lower_ in _SCALE:
        n = next((c for c in t.children if c.dep_ in ("compound", "nummod", "quantmod") and (c.like_num or _NUM_UNIT_RE.match(c.text))), None)
        if n is not None:
            base = word_number(n.text) if n.like_num else None
            if base is None:
                mm = _NUM_UNIT_RE.match(n.text)
                base = float(mm.group(2).replace(",", "")) if mm else None
            if base is not None:
                num = float(base) * _SCALE[t.lower_]
                toks.append(n)
    if num is None and t.like_num:
        num = word_number(t.text)
    if num is None:
        # head is the unit: "180 ms", "5 kilos", "$5,000" (nummod child)
        n = _child(t, "nummod", "quantmod")
        if t.ent_type_ in ("DATE", "TIME") and t.lemma_.lower() in ("day", "week", "month", "year", "decade", "night", "morning"):
            return None
        if n is not None and n.like_num:
            num = word_number(n.text)
            if num is None:
                return None
            toks.append(n)
            u = t.lower_
            if u in _SCALE:
                num *= _SCALE[u]
            elif u in _UNITS:
                unit = _UNITS[u]
            else:
                unit = t.lemma_.lower()
        else:
            return None
    # currency symbol before, scale/unit after
    for c in t.children:
        if c.text in _CURRENCY:
            cur = _CURRENCY[c.text]
            toks.append(c)
        elif c.dep_ in ("compound", "nmod", "quantmod") and c.lower_ in _SCALE:
            num *= _SCALE[c.lower_]
    prev = t.doc[t.i - 1] if t.i > 0 else None
    if prev is not None and prev.text in _CURRENCY:
        cur = _CURRENCY[prev.text]
        toks.append(prev)
    nxt = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
    if unit is None and nxt is not None and nxt.sent == t.sent:
        nl = nxt.lower_
        if nl in _SCALE and nl not in ("m",):
            num *= _SCALE[nl]
            toks.append(nxt)
            nxt = t.doc[nxt.i + 1] if nxt.i + 1 < len(t.doc) else None
            nl = nxt.lower_ if nxt is not None else ""
        if nl in _UNITS and nl not in ("people", "users") and nxt is not None:
            unit = _UNITS[nl]
            toks.append(nxt)
    if cur and unit in (None, "USD", "EUR", "GBP"):
        unit = cur
    if unit == "lb" and cur == "GBP":
        unit = "GBP"
    return float(num), unit, toks


def _num_value(num: float, unit: str | None) -> str | int | float:
    n = _fmt_num(num)
    if unit is None:
        return n
    if unit == "%":
        return f"{n}%"
    return f"{n} {unit}"
