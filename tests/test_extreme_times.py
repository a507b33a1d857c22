"""Times at the edges of the supported range (year 1 and year 9999, with
offsets up to ±23:59) are either accepted or refused with an
InvalidInputError naming the field: never an OverflowError from deep inside.

The oracle is independent of the code under test: a time is in range iff
its UTC instant, computed in plain seconds, falls in [0001-01-01T00:00Z,
FOREVER)."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import ENGINE, StepClock
from midas_graph import InvalidInputError, Memory
from midas_graph._time import FOREVER

pytestmark = pytest.mark.engine

UTC = dt.timezone.utc
_EPOCH = dt.datetime(1, 1, 1)
_TOP = FOREVER - _EPOCH
_serial = itertools.count()

offsets = st.one_of(
    st.none(),
    st.integers(-(24 * 60 - 1), 24 * 60 - 1).map(lambda m: dt.timezone(dt.timedelta(minutes=m))),
)
# within 14 hours of either end, so that an offset pushes about half of them out
wall = st.one_of(
    st.datetimes(min_value=dt.datetime(1, 1, 1), max_value=dt.datetime(1, 1, 1, 14)),
    st.datetimes(min_value=dt.datetime(9999, 12, 31, 10), max_value=dt.datetime(9999, 12, 31, 23, 59, 59, 999999)),
    st.sampled_from([dt.datetime(1, 1, 1), dt.datetime(9999, 12, 31, 23, 59, 58, 999999), FOREVER]),
)
forms = st.sampled_from(["datetime", "iso", "iso-z", "date"])


@st.composite
def extreme_times(draw):
    """(value as given, its UTC instant as a timedelta after 0001-01-01T00:00, which may be negative)."""
    naive, tz, form = draw(wall), draw(offsets), draw(forms)
    if form == "date":
        return naive.date(), dt.datetime.combine(naive.date(), dt.time()) - _EPOCH
    off = tz.utcoffset(None) if tz is not None else dt.timedelta(0)
    seconds = (naive - _EPOCH) - off
    if form == "datetime":
        value = naive.replace(tzinfo=tz)
    elif form == "iso-z" and tz is None:
        value = naive.isoformat() + "Z"
    else:
        value = naive.replace(tzinfo=tz).isoformat()
    return value, seconds


#: (value, seconds after the epoch) of a time every entry point accepts, and of
#: one every entry point refuses (an hour before 0001-01-01T00:00 UTC)
IN_RANGE = ("2024-03-08T12:00:00+00:00", dt.datetime(2024, 3, 8, 12) - _EPOCH)
OUT_OF_RANGE = ("0001-01-01T00:00:00+01:00", -dt.timedelta(hours=1))


def in_range(seconds: dt.timedelta) -> bool:
    return dt.timedelta(0) <= seconds < _TOP


def expect(call, field: str, seconds: dt.timedelta, seen: set[bool]):
    """Run ``call``: an in-range time must be accepted, an out-of-range one
    refused with an InvalidInputError that starts with ``field``. ``seen``
    collects which of the two happened (a test asserts it saw both)."""
    seen.add(in_range(seconds))
    if in_range(seconds):
        return call()
    with pytest.raises(InvalidInputError) as info:
        call()
    assert info.value.field == field and str(info.value).startswith(f"{field}: "), str(info.value)
    assert "supported range" in str(info.value)
    return None


@pytest.fixture(scope="module")
def store_mem():
    m = Memory(engine=ENGINE, clock=StepClock())
    m.add_fact("Kim", "lives_in", "Oslo", valid_from="2020-01-01")
    yield m
    m.close()


def test_store_entry_points_accept_or_name_the_field(store_mem):
    seen: set[bool] = set()
    check_store = given(t=extreme_times(),
                        field=st.sampled_from(["valid_from", "valid_to", "valid_at", "known_at", "before"]))(
        lambda t, field: _store_case(store_mem, t, field, seen))
    settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])(check_store)()
    assert seen == {True, False}


def _store_case(mem, t, field, seen):
    value, seconds = t
    subject = f"Edge {next(_serial)}"  # a new belief each time (a restatement would record nothing)
    if field == "valid_from":
        f = expect(lambda: mem.add_fact(subject, "note", "x", valid_from=value), field, seconds, seen)
        if f is not None:  # stored as the UTC instant given, and read back so
            assert f.valid_from == (_EPOCH + seconds).replace(tzinfo=UTC)
            assert [v.valid_from for v in mem.history(subject)] == [f.valid_from]
    elif field == "valid_to":
        if seconds == dt.timedelta(0):  # not after valid_from: refused, naming valid_to
            with pytest.raises(InvalidInputError, match="^valid_to: must be after valid_from"):
                mem.add_fact(subject, "span", "y", valid_from="0001-01-01", valid_to=value)
            return
        f = expect(lambda: mem.add_fact(subject, "span", "y", valid_from="0001-01-01", valid_to=value), field,
                   seconds, seen)
        if f is not None:
            assert f.valid_to == (_EPOCH + seconds).replace(tzinfo=UTC)
            assert [v.valid_to for v in mem.history(subject)] == [f.valid_to]
    elif field == "valid_at":
        expect(lambda: mem.as_of("Kim", valid_at=value), field, seconds, seen)
    elif field == "known_at":
        expect(lambda: mem.as_of("Kim", known_at=value), field, seconds, seen)
    else:
        expect(lambda: mem.episodes(before=value), field, seconds, seen)


def test_the_measured_cases(mem):
    """The two inputs the issue measured: a raw OverflowError before."""
    with pytest.raises(InvalidInputError, match=r"^valid_from: .*supported range"):
        mem.add_fact("A", "lives_in", "X", valid_from="0001-01-01T00:00+01:00")
    with pytest.raises(InvalidInputError, match=r"^valid_at: .*supported range"):
        mem.as_of("A", valid_at="9999-12-31T20:00-05:00")
    with pytest.raises(InvalidInputError, match=r"^valid_at: "):
        mem.as_of("A", valid_at=dt.datetime.min.replace(tzinfo=dt.timezone(dt.timedelta(hours=14))))
    # the edges themselves are fine
    f = mem.add_fact("A", "lives_in", "X", valid_from="0001-01-01T00:00Z", valid_to="9999-12-31T23:59:58Z")
    assert [x.id for x in mem.as_of("A", valid_at="0001-01-01")] == [f.id]


@pytest.fixture(scope="module")
def text_mem(models):
    m = Memory(engine=ENGINE, clock=StepClock(), embedder=models[0], nli=models[1])
    m.add_episode("I moved to Lisbon last week and I will start at Google next month.", speaker="Kim",
                  reference_time="2024-03-08")
    yield m
    m.close()


QUESTIONS = ["Where did Kim live last week?", "What happened yesterday?", "Where will Kim work next year?",
             "What did Kim say in May?", "When did Kim move?"]
TEXTS = ["I moved to Lisbon last week.", "Tomorrow I start at Google; I quit Meta three years ago.",
         "Next Friday is my deadline and last year I lived in Oslo.",
         "I have lived in Oslo for ten years and I will move to Rome in two years.",
         "From January to March I worked at Siemens; in the summer of next year I retire."]


def test_text_entry_points_accept_or_name_the_field(text_mem):
    seen: set[bool] = set()
    run = given(t=extreme_times(), field=st.sampled_from(["valid_at", "known_at", "reference_time"]),
                which=st.integers(0, 4), call=st.sampled_from(["recall", "context", "add_episode"]))(
        lambda t, field, which, call: _text_case(text_mem, t, field, which, call, seen))
    # one time in range and one out of it always run, whatever the random draws
    run = example(t=IN_RANGE, field="valid_at", which=0, call="context")(
        example(t=OUT_OF_RANGE, field="reference_time", which=0, call="add_episode")(run))
    settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])(run)()
    assert seen == {True, False}


def _text_case(text_mem, t, field, which, call, seen):
    """Relative times in the text ("last week", "next year") are resolved
    against these extreme times too: still no raw OverflowError."""
    mem = text_mem
    value, seconds = t
    if call == "add_episode" or field == "reference_time":
        expect(lambda: mem.add_episode(TEXTS[which], speaker="Kim", reference_time=value),
               "reference_time", seconds, seen)
    elif call == "recall":
        expect(lambda: mem.recall(QUESTIONS[which], k=5, **{field: value}), field, seconds, seen)
    else:
        expect(lambda: mem.context(QUESTIONS[which], **{field: value}), field, seconds, seen)


@pytest.fixture(scope="module")
def cli_db(tmp_path_factory):
    from midas_graph.cli import main

    path = str(tmp_path_factory.mktemp("cli") / "edge.db")
    assert main(["--db", path, "--engine", ENGINE, "add-fact", "Kim", "lives_in", "Oslo",
                 "--valid-from", "2020-01-01"]) == 0
    return path


def test_cli_exits_1_with_one_line_naming_the_field(cli_db, capsys):
    seen: set[bool] = set()
    run = given(t=extreme_times(),
                option=st.sampled_from(["--valid-from", "--valid-to", "--valid-at", "--known-at"]))(
        lambda t, option: _cli_case(cli_db, capsys, t, option, seen))
    run = example(t=IN_RANGE, option="--valid-at")(example(t=OUT_OF_RANGE, option="--valid-at")(run))
    settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])(run)()
    assert seen == {True, False}


def _cli_case(cli_db, capsys, t, option, seen):
    from midas_graph.cli import main

    value, seconds = t
    seen.add(in_range(seconds))
    text = value if isinstance(value, str) else value.isoformat()
    field = option[2:].replace("-", "_")
    if option in ("--valid-from", "--valid-to"):
        args = ["add-fact", f"Edge {next(_serial)}", "note", "x", option, text]
        if option == "--valid-to":
            args += ["--valid-from", "0001-01-01"]
    else:
        args = ["as-of", "Kim", option, text, "--json"]
    capsys.readouterr()
    code = main(["--db", cli_db, "--engine", ENGINE, *args])
    out, err = capsys.readouterr()
    if in_range(seconds) and not (option == "--valid-to" and seconds == dt.timedelta(0)):
        assert code == 0, err
        return
    assert code == 1, (out, err)
    assert err.count("\n") == 1 and err.startswith(f"error: {field}: "), err
    assert "Traceback" not in err and "Overflow" not in err


def test_cli_measured_cases(cli_db, capsys):
    """As measured in the issue, in a real process: exit 1, one line."""
    import subprocess
    import sys

    for args in (["add-fact", "A", "lives_in", "X", "--valid-from", "0001-01-01T00:00+01:00"],
                 ["as-of", "A", "--valid-at", "9999-12-31T20:00-05:00"]):
        r = subprocess.run([sys.executable, "-m", "midas_graph.cli", "--db", cli_db, "--engine", ENGINE, *args],
                           capture_output=True, text=True)
        assert r.returncode == 1, r.stderr
        assert r.stderr.count("\n") == 1 and "supported range" in r.stderr, r.stderr
        assert r.stderr.startswith(f"error: {args[-2][2:].replace('-', '_')}: ")
