"""``plot_timeline``: a picture of how the memory's beliefs about one entity
changed, on both time axes.

Top panel, **valid time**: each belief (the version the memory holds now, or
the retracted one) as a bar over ``[valid_from, valid_to)``, packed into one
lane per attribute (more lanes where values overlap: a multi-valued attribute,
a retracted value). Open ends run to "now" and fade out. Bottom panel,
**transaction time**: one row per belief, each of its versions as a segment
over ``[recorded_at, expired_at)``: when the memory held what.

matplotlib is optional (``pip install 'midas-graph[plot]'``) and imported only
here. The figure is built without pyplot (no global state, no GUI backend,
nothing leaks in a long-running process): save it with ``fig.savefig``; in
Jupyter it displays as a cell's value; to draw into a pyplot window, pass
``ax=`` axes from ``plt.subplots(2, 1)``.
"""

from __future__ import annotations

import datetime as _dt
import textwrap
from typing import TYPE_CHECKING, Any, Sequence

from ._errors import MidasError, NotFoundError
from ._types import Fact

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ._memory import Memory

__all__ = ["plot_timeline"]

_GREY = "#b9b9b9"
_GREY_EDGE = "#7a7a7a"
_RED = "#c62828"
_PALETTE = ("#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#bcbd22", "#0b3d91")
_BAR_H = 0.62
_REASON_CHARS = 70


def _mpl():
    try:
        import matplotlib  # noqa: F401
        from matplotlib import dates, patches
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.axes import Axes
        from matplotlib.lines import Line2D
    except ImportError:
        raise MidasError(
            "plot_timeline needs matplotlib, an optional dependency: pip install 'midas-graph[plot]'"
        ) from None
    return dates, patches, FigureCanvasAgg, Figure, Line2D, Axes


def plot_timeline(
    memory: Memory,
    subject: str,
    *,
    attribute: str | None = None,
    group_id: str = "default",
    ax: Axes | Sequence[Axes] | None = None,
) -> Figure:
    """Plot every belief about ``subject`` on valid time and transaction time.

    Returns the matplotlib ``Figure``. ``ax``: ``None`` (a new figure with
    both panels), a pair of axes ``(valid, transaction)``, or one axes (the
    valid-time panel only). Raises :class:`NotFoundError` when the memory
    holds nothing about ``subject`` (or that attribute of it), and
    :class:`MidasError` when matplotlib is not installed.
    """
    mdates, mpatches, FigureCanvasAgg, Figure, Line2D, Axes = _mpl()
    facts = memory.history(subject, attribute, group_id=group_id)
    if not facts:
        raise NotFoundError(_nothing_known(memory, subject, attribute, group_id))
    now = memory.now()
    beliefs = _beliefs(facts)
    colors = {a: _PALETTE[i % len(_PALETTE)] for i, a in enumerate(dict.fromkeys(f.attribute for f in facts))}

    lanes = _valid_lanes(beliefs)
    order = [b for group in lanes for lane in group for b in lane]
    n_valid = sum(len(group) for group in lanes)

    if ax is None:
        height = 1.9 + 0.34 * (n_valid + len(beliefs)) + 0.9
        fig = Figure(figsize=(11, max(4.2, height)), layout="constrained")
        FigureCanvasAgg(fig)
        ax_v, ax_t = fig.subplots(2, 1, height_ratios=[n_valid + 1.6, len(beliefs) + 1.6])
    elif isinstance(ax, Axes):
        ax_v, ax_t = ax, None
        fig = ax_v.figure
    else:
        pair = list(getattr(ax, "flat", ax))  # a list, a tuple or plt.subplots' array
        if len(pair) != 2 or not all(isinstance(a, Axes) for a in pair):
            raise MidasError("ax: expected one Axes or a pair of Axes (valid time, transaction time)")
        ax_v, ax_t = pair
        fig = ax_v.figure

    name = facts[0].subject
    painter = _Painter(mdates, mpatches, now, colors)
    painter.valid_panel(ax_v, lanes)
    if ax_t is not None:
        painter.transaction_panel(ax_t, order, beliefs)
    what = f" · {facts[0].attribute}" if attribute is not None else ""
    fig.suptitle(f"Beliefs about {name}{what}", fontsize=13, fontweight="bold")
    fig.legend(handles=painter.legend(Line2D, with_revised=ax_t is not None), loc="outside lower center",
               ncols=4, frameon=False, fontsize=8.5)
    painter.place_labels(fig)
    return fig


# -- data ------------------------------------------------------------------------

def _nothing_known(memory: Memory, subject: str, attribute: str | None, group_id: str) -> str:
    ent = memory.entity(subject, group_id=group_id)
    if ent is None:
        return f"subject: no entity called {subject!r} in group {group_id!r}"
    if attribute is not None:
        return f"attribute: no facts about {ent.name}.{memory.registry.key(attribute)} in group {group_id!r}"
    return f"subject: no facts about {ent.name} in group {group_id!r}"


def _beliefs(facts: list[Fact]) -> dict[str, list[Fact]]:
    """Fact id -> its versions, oldest first, in history order."""
    out: dict[str, list[Fact]] = {}
    for f in facts:
        out.setdefault(f.id, []).append(f)
    for versions in out.values():
        versions.sort(key=lambda f: f.version)
    return out


def _natural(text: str) -> list:
    """pref_2 before pref_10."""
    import re

    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


def _shown(versions: list[Fact]) -> Fact:
    """The version the valid-time panel draws: the one held now, else the last."""
    held = [v for v in versions if v.expired_at is None]
    return held[-1] if held else versions[-1]


def _valid_lanes(beliefs: dict[str, list[Fact]]) -> list[list[list[Fact]]]:
    """Per attribute, the shown versions packed into lanes that do not overlap
    in valid time; retracted beliefs are packed last so they never push a
    held one off the attribute's first lane."""
    by_attr: dict[str, list[Fact]] = {}
    for versions in beliefs.values():
        f = _shown(versions)
        by_attr.setdefault(f.attribute, []).append(f)
    groups = []
    for attr in sorted(by_attr, key=_natural):
        items = sorted(by_attr[attr], key=lambda f: (f.status == "retracted", f.valid_from, f.recorded_at, f.id))
        lanes: list[list[Fact]] = []
        ends: list[_dt.datetime | None] = []
        for f in items:
            for i, end in enumerate(ends):
                if end is not None and end <= f.valid_from and (f.status == "retracted") == (
                    lanes[i][0].status == "retracted"
                ):
                    lanes[i].append(f)
                    ends[i] = f.valid_to
                    break
            else:
                lanes.append([f])
                ends.append(f.valid_to)
        groups.append(lanes)
    return groups


# -- drawing ---------------------------------------------------------------------------

class _Painter:
    def __init__(self, mdates, mpatches, now: _dt.datetime, colors: dict[str, str]) -> None:
        self.mdates, self.mpatches = mdates, mpatches
        self.now = now
        self.colors = colors
        self.labels: list[tuple[Any, Any, Any]] = []  # (text, patch, axes): fitted after layout
        self.has = set()

    def num(self, t: _dt.datetime) -> float:
        return float(self.mdates.date2num(t))

    # x window: clip starts that lie far before everything else
    def window(self, starts: list[_dt.datetime], ends: list[_dt.datetime | None]) -> tuple[float, float, float, float | None]:
        """(left, right, now, clip): the x range, and where bars starting
        earlier are cut (``None``: nothing is cut). Starts that lie far before
        everything else (a birth date among last month's moves) are cut,
        never so far that a whole bar would fall off the axis."""
        now = self.num(self.now)
        points = sorted({self.num(t) for t in starts})
        closed = [self.num(t) for t in ends if t is not None]
        hi = max([now, *closed, *points])
        first_end = min([now, *closed])
        clip = None
        for a, b in zip(points, points[1:]):
            if b > first_end:
                break
            if b - a > 3 * (hi - b):  # the gap before b dwarfs everything after it
                clip = b
        lo = min(points) if clip is None else clip
        if points[-1] >= hi and points[-1] > now:  # something starts in the future: give it room to show
            hi += 0.12 * (hi - lo)
        span = hi - lo
        if span <= 0:
            span = 1 / 24  # one hour: a single instant still gets a readable axis
        pad = 0.05 * span
        left = lo - (0.14 * span if clip is not None else pad)
        return left, hi + 1.6 * pad, now, (left + 0.04 * span if clip is not None else None)

    def setup_axis(self, ax, left: float, right: float, now: float, title: str) -> None:
        locator = self.mdates.AutoDateLocator(minticks=4, maxticks=9, tz=_dt.timezone.utc)
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(self.mdates.ConciseDateFormatter(locator, tz=_dt.timezone.utc))
        ax.set_xlim(left, right)
        ax.axvline(now, color="#444444", linestyle=(0, (2, 2)), linewidth=0.9, zorder=1)
        ax.annotate("now", (now, 1.0), xycoords=("data", "axes fraction"), xytext=(0, 2),
                    textcoords="offset points", ha="center", va="bottom", fontsize=8, color="#444444")
        ax.set_title(title, loc="left", fontsize=10.5, color="#222222", pad=14)
        ax.grid(axis="x", color="#e6e6e6", linewidth=0.8, zorder=0)
        ax.set_axisbelow(True)
        for side in ("top", "right", "left"):
            ax.spines[side].set_visible(False)
        ax.tick_params(axis="y", length=0)

    def bar(self, ax, y: float, start: float, end: float | None, right: float, now: float, clip: float | None,
            *, face: str, edge: str, hatch: str | None = None, alpha: float = 1.0, gid: str,
            label: str = "", label_color: str = "white", weight: str = "normal", linestyle: str = "-"):
        """One interval; an open end runs to now and fades out towards the edge."""
        cut = clip is not None and start < clip
        x0 = clip if cut else start
        x1 = now if end is None else end
        if end is None and x0 >= now:  # an open belief that starts in the future
            x1 = x0 + 0.45 * (right - x0)
        x1 = max(x1, x0 + (right - x0) * 0.004)  # an empty interval still shows as a sliver
        rect = self.mpatches.Rectangle((x0, y - _BAR_H / 2), x1 - x0, _BAR_H, facecolor=face, edgecolor=edge,
                                       hatch=hatch, alpha=alpha, linewidth=1.0, linestyle=linestyle, zorder=3,
                                       gid=gid)
        ax.add_patch(rect)
        if end is None:  # fade: still true / still held
            tail = right - x1
            steps = 4
            for i in range(steps):
                seg = self.mpatches.Rectangle((x1 + tail * 0.7 * i / steps, y - _BAR_H / 2), tail * 0.7 / steps,
                                              _BAR_H, facecolor=face, edgecolor="none", hatch=hatch,
                                              hatchcolor=edge, linewidth=0, alpha=alpha * (0.55 - 0.13 * i),
                                              zorder=2, gid=f"fade:{gid}")
                ax.add_patch(seg)
            ax.plot([x1 + tail * 0.72], [y], marker=">", markersize=5, color=edge if face == "white" else face,
                    alpha=0.8, zorder=3, gid=f"open:{gid}")
        if cut:  # a break mark: this bar starts before the axis does
            ax.plot([x0], [y], marker=(2, 0, 70), markersize=13, color="#333333", mew=1.6, zorder=4,
                    gid=f"cut:{gid}")
        if label:
            txt = ax.text(x0, y, label, ha="left", va="center", fontsize=8.5, color=label_color,
                          fontweight=weight, zorder=5, clip_on=False, gid=f"label:{gid}")
            self.labels.append((txt, rect, ax))
        return rect

    def valid_panel(self, ax, lanes: list[list[list[Fact]]]) -> None:
        shown = [f for group in lanes for lane in group for f in lane]
        left, right, now, clip = self.window([f.valid_from for f in shown], [f.valid_to for f in shown])
        self.setup_axis(ax, left, right, now, "Valid time: when each belief was true in the world")
        y = 0
        yticks, ylabels = [], []
        rows: dict[str, tuple[float, float, float]] = {}  # fact id -> (y, start, end)
        for gi, group in enumerate(lanes):
            attr = group[0][0].attribute
            if gi % 2 == 0:
                ax.axhspan(y - 0.5, y + len(group) - 0.5, color="#f4f4f4", zorder=0, linewidth=0)
            for li, lane in enumerate(group):
                yticks.append(y)
                ylabels.append(attr if li == 0 else "")
                for f in lane:
                    start = self.num(f.valid_from)
                    end = None if f.valid_to is None else self.num(f.valid_to)
                    rows[f.id] = (y, start, end if end is not None else now)
                    self._belief_bar(ax, f, y, start, end, right, now, clip)
                y += 1
        for f in shown:  # successor arrows
            if f.superseded_by and f.status != "retracted" and f.superseded_by in rows and f.id in rows:
                y0, _, end0 = rows[f.id]
                y1, start1, _ = rows[f.superseded_by]
                self._arrow(ax, (end0, y0), (start1, y1), right - left)
        ax.set_yticks(yticks, ylabels, fontsize=9)
        ax.set_ylim(y - 0.45, -0.75)
        if clip is not None:
            ax.annotate("earlier starts cut", (clip, 1.0), xycoords=("data", "axes fraction"), xytext=(0, 2),
                        textcoords="offset points", ha="center", va="bottom", fontsize=7, color="#555555")

    def _belief_bar(self, ax, f: Fact, y, start, end, right, now, clip) -> None:
        color = self.colors[f.attribute]
        status = f.status
        value = _fmt_value(f.value)
        since = f"since {f.valid_from:%Y-%m-%d}: " if clip is not None and start < clip else ""
        if status == "retracted":
            self.has.add("retracted")
            why = (f.expire_reason or "retracted").removeprefix("retracted: ").removeprefix("retracted")
            why = textwrap.shorten(why, _REASON_CHARS, placeholder="…") if why.strip() else ""
            label = f"{since}{value}   ✗ retracted {f.expired_at:%Y-%m-%d}" + (f": {why}" if why else "")
            self.bar(ax, y, start, end, right, now, clip, face="white", edge=_RED, hatch="////", gid=f"belief:{f.id}",
                     label=label, label_color=_RED, alpha=0.9)
            ax.plot([max(start, clip or start)], [y], marker="X", markersize=9, color=_RED,
                    markeredgecolor="white", zorder=6, gid=f"retracted:{f.id}")
            return
        if status == "superseded":
            self.has.add("superseded")
            self.bar(ax, y, start, end, right, now, clip, face=_GREY, edge=_GREY_EDGE, gid=f"belief:{f.id}",
                     label=since + value, label_color="#333333")
        elif status == "ended":
            self.has.add("ended")
            self.bar(ax, y, start, end, right, now, clip, face=color, edge=color, alpha=0.38, gid=f"belief:{f.id}",
                     label=since + value, label_color="#222222")
        else:
            self.bar(ax, y, start, end, right, now, clip, face=color, edge=color, gid=f"belief:{f.id}",
                     label=since + value, weight="bold")

    def _arrow(self, ax, src, dst, span: float) -> None:
        """From the end of a superseded bar, over the lane, to its successor's start."""
        self.has.add("arrow")
        d = 0.012 * span
        same_row = src[1] == dst[1]
        top = _BAR_H / 2
        a = (src[0] - d, src[1] - top)
        b = (dst[0] + d, dst[1] - top if same_row else dst[1] + (top if dst[1] < src[1] else -top))
        ax.annotate("", xy=b, xytext=a, zorder=6, gid="successor",
                    arrowprops=dict(arrowstyle="-|>", color="#555555", lw=1.1, shrinkA=0, shrinkB=0,
                                    mutation_scale=9, connectionstyle="arc3,rad=-0.55" if same_row else "arc3,rad=0.2"))

    def transaction_panel(self, ax, order: list[Fact], beliefs: dict[str, list[Fact]]) -> None:
        versions = [v for f in order for v in beliefs[f.id]]
        left, right, now, clip = self.window([v.recorded_at for v in versions], [v.expired_at for v in versions])
        self.setup_axis(ax, left, right, now, "Transaction time: when the memory held each version")
        yticks, ylabels = [], []
        for y, f in enumerate(order):
            if y % 2 == 0:
                ax.axhspan(y - 0.5, y + 0.5, color="#f7f7f7", zorder=0, linewidth=0)
            yticks.append(y)
            ylabels.append(f"{f.attribute} = {textwrap.shorten(_fmt_value(f.value), 28, placeholder='…')}")
            color = self.colors[f.attribute]
            for v in beliefs[f.id]:
                start = self.num(v.recorded_at)
                end = None if v.expired_at is None else self.num(v.expired_at)
                status = v.status
                label = f"v{v.version}: valid {_short(v.valid_from)} → {_short(v.valid_to)}"
                if status == "retracted":
                    label += f"   ✗ retracted {v.expired_at:%Y-%m-%d}"
                kw: dict[str, Any]
                if status == "retracted":
                    self.has.add("retracted")
                    kw = dict(face="white", edge=_RED, hatch="////", label_color=_RED)
                elif status == "revised":
                    self.has.add("revised")
                    kw = dict(face="white", edge=color, label_color="#333333", linestyle="--")
                elif status == "superseded":
                    self.has.add("superseded")
                    kw = dict(face=_GREY, edge=_GREY_EDGE, label_color="#333333")
                elif status == "ended":
                    kw = dict(face=color, edge=color, alpha=0.38, label_color="#222222")
                else:
                    kw = dict(face=color, edge=color)
                self.bar(ax, y, start, end, right, now, clip, gid=f"version:{v.vid}", label=label,
                         **kw)
                if status == "retracted":
                    ax.plot([end], [y], marker="X", markersize=9, color=_RED, markeredgecolor="white", zorder=6,
                            gid=f"retracted:{v.vid}")
        ax.set_yticks(yticks, ylabels, fontsize=8.5)
        ax.set_ylim(len(order) - 0.45, -0.75)

    def legend(self, Line2D, *, with_revised: bool) -> list:
        P = self.mpatches.Patch
        handles = [P(facecolor=_PALETTE[0], edgecolor=_PALETTE[0], label="current (colour = attribute)")]
        if "superseded" in self.has:
            handles.append(P(facecolor=_GREY, edgecolor=_GREY_EDGE, label="superseded"))
        if "arrow" in self.has:
            handles.append(Line2D([], [], color="#555555", marker=">", markersize=5, label="→ its successor"))
        if "ended" in self.has:
            handles.append(P(facecolor=_PALETTE[0], alpha=0.38, label="ended (no successor)"))
        if "retracted" in self.has:
            handles.append(P(facecolor="white", edgecolor=_RED, hatch="////", label="retracted ✗ (was wrong)"))
        if with_revised and "revised" in self.has:
            handles.append(P(facecolor="white", edgecolor=_GREY_EDGE, linestyle="--",
                             label="revised (older version of a belief)"))
        handles.append(Line2D([], [], color=_GREY_EDGE, marker=">", linestyle="-", markersize=5,
                              label="open: still true / still held"))
        return handles

    def place_labels(self, fig) -> None:
        """Keep each label inside its bar if it fits; else put it beside the
        bar (right, or left near the edge); in the transaction panel, where
        labels are only details, drop what fits nowhere."""
        if not self.labels:
            return
        fig.draw_without_rendering()
        get = getattr(fig.canvas, "get_renderer", None)  # Agg's; other canvases: the figure's own
        renderer = get() if get is not None else fig._get_renderer()
        for txt, rect, ax in self.labels:
            gid = txt.get_gid() or ""
            detail = gid.startswith("label:version:")
            box = rect.get_window_extent(renderer)
            pad = 4
            txt.set_position((rect.get_x(), rect.get_y() + rect.get_height() / 2))
            txt.set_transform(ax.transData + _offset(fig, pad))
            width = txt.get_window_extent(renderer).width
            if width + 2 * pad <= box.width:
                continue
            if detail and "retracted" not in txt.get_text():
                txt.set_visible(False)
                continue
            axbox = ax.get_window_extent(renderer)
            color = txt.get_color()
            if color == "white":  # a coloured bar: the label becomes a tag of that colour
                txt.set_bbox(dict(boxstyle="round,pad=0.25", facecolor=rect.get_facecolor(), edgecolor="none"))
            else:
                txt.set_bbox(dict(boxstyle="round,pad=0.2", facecolor="white", edgecolor="none", alpha=0.85))
            if box.x1 + 2 * pad + width <= axbox.x1:
                txt.set_position((rect.get_x() + rect.get_width(), rect.get_y() + rect.get_height() / 2))
                txt.set_transform(ax.transData + _offset(fig, pad + 2))
            else:
                txt.set_position((rect.get_x(), rect.get_y() + rect.get_height() / 2))
                txt.set_ha("right")
                txt.set_transform(ax.transData + _offset(fig, -pad - 2))


def _offset(fig, points: float):
    from matplotlib.transforms import ScaledTranslation

    return ScaledTranslation(points / 72, 0, fig.dpi_scale_trans)


def _short(t: _dt.datetime | None) -> str:
    if t is None:
        return "…"
    if t.hour == t.minute == t.second == 0:
        return f"{t:%Y-%m-%d}"
    return f"{t:%Y-%m-%d %H:%M}"


def _fmt_value(value: Any) -> str:
    if isinstance(value, _dt.datetime):
        return _short(value)
    return str(value)
