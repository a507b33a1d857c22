"""plot_timeline and `midas-graph timeline`: a real Memory, a real matplotlib
figure; the checks read the artists the plot is made of (each carries a gid
naming the belief or version it draws)."""

from __future__ import annotations

import sys

import pytest
from conftest import ENGINE

pytest.importorskip("matplotlib")

from matplotlib.figure import Figure  # noqa: E402

from midas_graph import MidasError, NotFoundError, plot_timeline  # noqa: E402
from midas_graph.cli import main  # noqa: E402


def gids(ax, prefix: str) -> list[str]:
    found = [a.get_gid() for a in ax.get_children() if (a.get_gid() or "").startswith(prefix)]
    return sorted(found)


def arrows(ax) -> list:
    return [a for a in ax.texts if a.get_gid() == "successor" and getattr(a, "arrow_patch", None) is not None]


@pytest.fixture
def story(mem, clock):
    """Alice: Berlin -> Lisbon (supersession), Porto (retracted, re-opens Lisbon), two languages."""
    berlin = mem.add_fact("Alice", "lives_in", "Berlin", valid_from="2019-03-01")
    lisbon = mem.add_fact("Alice", "lives_in", "Lisbon", valid_from="2024-03-01")
    porto = mem.add_fact("Alice", "lives_in", "Porto", valid_from="2024-06-01")
    mem.retract(porto.id, reason="it was a trip, not a move")
    mem.add_fact("Alice", "speaks", "German", valid_from="2019-03-01")
    mem.add_fact("Alice", "speaks", "English", valid_from="2019-03-01")
    return berlin, lisbon, porto


def test_figure_draws_every_belief_and_version(mem, story):
    berlin, lisbon, porto = story
    fig = plot_timeline(mem, "alice")
    assert isinstance(fig, Figure)
    ax_v, ax_t = fig.axes
    # valid time: one bar per belief (Berlin, Lisbon, Porto, German, English)
    assert gids(ax_v, "belief:") == sorted(f"belief:{f.id}" for f in
                                           [berlin, lisbon, porto, *mem.history("Alice", "speaks")])
    # transaction time: one bar per stored version
    versions = mem.history("Alice")
    assert len(versions) == 8  # Berlin v1,v2; Lisbon v1,v2,v3; Porto v1; German; English
    assert gids(ax_t, "version:") == sorted(f"version:{v.vid}" for v in versions)
    # the retraction is marked on both axes, with its reason on the bar's label
    assert gids(ax_v, "retracted:") == [f"retracted:{porto.id}"]
    assert gids(ax_t, "retracted:") == [f"retracted:{porto.id}:1"]
    porto_label = [t for t in ax_v.texts if t.get_gid() == f"label:belief:{porto.id}"][0].get_text()
    assert "retracted" in porto_label and "it was a trip, not a move" in porto_label
    # Berlin is superseded by Lisbon: one arrow, from Berlin's end to Lisbon's start
    (arrow,) = arrows(ax_v)
    (x0, _), (x1, _) = arrow.xyann, arrow.xy
    assert x0 < x1
    assert "Beliefs about Alice" in fig._suptitle.get_text()
    assert fig.legends and "superseded" in [t.get_text() for t in fig.legends[0].get_texts()]


def test_attribute_filter_and_single_fact(mem):
    only = mem.add_fact("Bob", "employer", "Initech")
    fig = plot_timeline(mem, "Bob")
    ax_v, ax_t = fig.axes
    assert gids(ax_v, "belief:") == [f"belief:{only.id}"]
    assert gids(ax_t, "version:") == [f"version:{only.vid}"]
    assert arrows(ax_v) == [] and gids(ax_v, "retracted:") == []
    lo, hi = ax_v.get_xlim()
    assert hi > lo  # an instant still gets a real axis
    mem.add_fact("Bob", "lives_in", "Austin", valid_from="2020-01-01")
    fig = plot_timeline(mem, "bob", attribute="lives in")
    assert len(gids(fig.axes[0], "belief:")) == 1


def test_many_attributes_and_a_start_far_in_the_past(mem):
    mem.add_fact("Carol", "born_in", "Leeds", valid_from="1901-05-02")
    for i in range(12):
        mem.add_fact("Carol", f"pref_{i}", f"value {i}", valid_from=f"2024-0{1 + i % 9}-01")
    fig = plot_timeline(mem, "Carol")
    ax_v = fig.axes[0]
    assert len(gids(ax_v, "belief:")) == 13
    # the 1901 start is cut, not allowed to squeeze 2024 into a sliver
    lo, _ = ax_v.get_xlim()
    from matplotlib.dates import num2date

    assert num2date(lo).year >= 2023
    assert gids(ax_v, "cut:")
    assert any(t.get_text().startswith("since 1901-05-02") for t in ax_v.texts)


def test_draws_into_given_axes(mem, story):
    fig = Figure()
    one = fig.add_subplot()
    assert plot_timeline(mem, "Alice", ax=one) is fig and len(fig.axes) == 1
    assert len(gids(one, "belief:")) == 5
    fig2 = Figure()
    pair = fig2.subplots(2, 1)  # an array, as plt.subplots returns
    assert plot_timeline(mem, "Alice", ax=pair) is fig2
    assert len(gids(pair[1], "version:")) == 8


def test_unknown_subject_and_attribute(mem, story):
    with pytest.raises(NotFoundError, match="no entity called 'Zed'"):
        plot_timeline(mem, "Zed")
    with pytest.raises(NotFoundError, match=r"no facts about Alice\.employer"):
        plot_timeline(mem, "Alice", attribute="employer")
    with pytest.raises(NotFoundError):
        plot_timeline(mem, "Alice", group_id="other")


def test_missing_matplotlib_names_the_extra(mem, story, monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # what an absent package looks like to import
    with pytest.raises(MidasError, match=r"pip install 'midas-graph\[plot\]'"):
        plot_timeline(mem, "Alice")


@pytest.mark.engine
def test_cli_timeline_writes_a_png(db_path, tmp_path, capsys):
    run = lambda *a: main(["--db", db_path, "--engine", ENGINE, *a])  # noqa: E731
    assert run("add-fact", "Alice", "lives_in", "Berlin", "--valid-from", "2019-03-01") == 0
    assert run("add-fact", "Alice", "lives_in", "Lisbon", "--valid-from", "2024-03-01") == 0
    capsys.readouterr()
    out = tmp_path / "alice.png"
    assert run("timeline", "alice", "-o", str(out)) == 0
    assert str(out) in capsys.readouterr().err
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    svg = tmp_path / "alice.svg"
    assert run("timeline", "Alice", "--attribute", "lives in", "--group", "default", "-o", str(svg)) == 0
    assert b"<svg" in svg.read_bytes()[:500]
    capsys.readouterr()
    code = run("timeline", "Nobody", "-o", str(tmp_path / "x.png"))
    err = capsys.readouterr().err
    assert code == 1 and err == "error: subject: no entity called 'Nobody' in group 'default'\n"
    assert not (tmp_path / "x.png").exists()


def test_a_belief_starting_after_now_is_visible(mem, clock):
    mem.add_fact("Dan", "employer", "Initech", valid_from="2022-01-01")
    hooli = mem.add_fact("Dan", "employer", "Hooli", valid_from="2026-09-01")  # clock is in 2025
    ax = plot_timeline(mem, "Dan").axes[0]
    (bar,) = [p for p in ax.patches if p.get_gid() == f"belief:{hooli.id}"]
    lo, hi = ax.get_xlim()
    assert lo <= bar.get_x() and bar.get_x() + bar.get_width() <= hi
    assert bar.get_width() > 0.05 * (hi - lo)
