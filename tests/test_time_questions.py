"""Questions that name a time, and the times episodes tell of (issue 17, items 3 and 6).

The resolver and the question analysis run on their own; the rest on a
memory of one person's own sentences, with the real spaCy pipeline, NLI and
embedding models, on the engine under test.
"""

from __future__ import annotations

import contextlib
import datetime as dt

import pytest
from conftest import ENGINE

from midas_graph import Memory
from midas_graph._query import analyze
from midas_graph._timeexpr import find, resolve

UTC = dt.timezone.utc


def _t(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s).replace(tzinfo=UTC)


def _found(text: str, said: str) -> list[tuple[str, str]]:
    return [(text[a:b], r.iso()) for a, b, r in find(text, _t(said))]


# --- the times a text tells of ------------------------------------------------------------

@pytest.mark.parametrize("text, said, expected", [
    ("The fireworks last night were unreal.", "2024-01-01T11:00", [("last night", "2023-12-31")]),
    ("We moved here in March, still unpacking.", "2024-06-02T10:00", [("in March", "2024-03")]),
    # no tense marker: the nearest March 8 (ahead), not last year's
    ("my cousin lands on march 8, cant wait", "2024-01-17T10:00", [("march 8", "2024-03-08")]),
    ("Three weeks ago we adopted a kitten.", "2024-01-22T09:00", [("Three weeks ago", "2024-01-01")]),
    ("I've been off sugar since New Year's.", "2024-02-10T09:00", [("since New Year's", "2024-01-01")]),
    ("Before last Christmas I still lived in Oslo.", "2024-06-01T09:00", [("Before last Christmas", "2023-12-25")]),
    ("He visited the week before August 3, 2023.", "2024-01-01T09:00", [("the week before August 3, 2023", "2023-W30")]),
    ("Renting a van since mid-June.", "2024-07-20T09:00", [("since mid-June", "2024-06")]),
    ("I'm cooking tonight, today was long.", "2024-03-01T18:00", []),   # the day it was said
    ("My new year's resolution is to read more.", "2024-01-03T09:00", []),  # a resolution, not a date
])
def test_find_places_the_times_a_text_tells_of(text, said, expected):
    assert _found(text, said) == expected


def test_holidays_are_days():
    ref = _t("2024-06-01T00:00")
    assert resolve("Easter", ref, -1).iso() == "2024-03-31"
    assert resolve("Thanksgiving", ref, -1).iso() == "2023-11-23"
    assert resolve("valentine's day", ref, 1).iso() == "2025-02-14"
    assert resolve("last Christmas", ref, 0).iso() == "2023-12-25"
    assert resolve("the day after Thanksgiving", ref, -1).iso() == "2023-11-24"
    assert resolve("two weeks before August 11, 2023", ref, 0).iso() == "2023-07-28"


# --- what a question says about time --------------------------------------------------------

NOW = _t("2024-10-30T20:00")


@pytest.mark.parametrize("question, order", [
    ("Where did I use to live?", "earlier"),
    ("what did she do previously", "earlier"),
    ("Where did we live before?", "earlier"),
    ("When was the recital originally planned?", "first"),
    ("What was the venue at first?", "first"),
    ("When was the launch first scheduled?", "first"),
    ("Who was the first person at the party?", None),
    ("Where do I live?", None),
])
def test_question_order(spacy_nlp, question, order):
    info = analyze(question, spacy_nlp, speaker="me", now=NOW)
    assert info.order == order
    assert info.about_past == (order is not None)
    assert "use" not in info.terms


@pytest.mark.parametrize("question, relation, text, names, subject", [
    ("What did I eat before I moved to Leeds?", "before", "I moved to Leeds", ("Leeds",), "speaker"),
    ("where did Priti teach before Leeds?", "before", "Leeds", ("Leeds",), None),
    ("What was my role when I worked at Initech?", "during", "I worked at Initech", ("Initech",), "speaker"),
    ("when we lived in Leeds, who was our dentist?", "during", "we lived in Leeds", ("Leeds",), "speaker"),
    ("What did Priti study before she joined the conservatory?", "before", "she joined the conservatory", (), "other"),
])
def test_question_names_a_time_by_an_event(spacy_nlp, question, relation, text, names, subject):
    info = analyze(question, spacy_nlp, speaker="me", now=NOW)
    [anchor] = info.anchors
    assert (anchor.relation, anchor.text, anchor.names, anchor.subject) == (relation, text, names, subject)


@pytest.mark.parametrize("question", [
    "When did I move to Leeds?",                        # asks when
    "When Priti lost her job?",                         # the clause is the whole question
    "What did I do the week before August 3, 2023?",    # a date, read as one
    "Where was I before May 2020?",
])
def test_no_event_where_there_is_none(spacy_nlp, question):
    assert analyze(question, spacy_nlp, speaker="me", now=NOW).anchors == ()


@pytest.mark.parametrize("question, span, bound", [
    ("Where was Elise on 31 Dec 2023?", ("2023-12-31", "2024-01-01"), None),
    ("where was I working last autumn?", ("2023-09-01", "2023-12-01"), None),
    ("What car did we have in the spring?", ("2024-03-01", "2024-06-01"), None),
    ("What did I do the week before August 3, 2023?", ("2023-07-27", "2023-08-03"), None),
    ("What did Ana do on Valentine's Day?", ("2024-02-14", "2024-02-15"), None),
    ("Where did I live before May 2020?", ("2020-05-01", "2020-06-01"), "before"),
    ("When will I fly out in December?", ("2024-12-01", "2025-01-01"), None),  # ahead: a future question
])
def test_question_dates(spacy_nlp, question, span, bound):
    info = analyze(question, spacy_nlp, speaker="me", now=NOW)
    assert [(a.date().isoformat(), b.date().isoformat()) for a, b in info.dates] == [span]
    assert info.date_bounds == (bound,)
    # the words of the date are the time asked about, not what is asked
    assert not {"autumn", "spring", "valentine", "day"} & set(info.terms)


# --- a memory of one person ---------------------------------------------------------------------

_TURNS = [
    ("2023-03-01T09:00:00Z", "Tomasz", "I live in Gdansk and I work at Baltic Freight as a dispatcher."),
    ("2023-03-01T09:00:30Z", "assistant", "Noted: Gdansk, Baltic Freight, dispatcher."),
    ("2023-06-10T18:00:00Z", "Tomasz", "My sister Ola visited for the weekend, we walked the old town."),
    ("2023-09-15T20:00:00Z", "Tomasz", "Big news: I moved to Krakow last week."),
    ("2024-01-01T11:00:00Z", "Tomasz", "The fireworks last night were unreal, we watched them from the castle hill."),
    ("2024-01-10T08:00:00Z", "Tomasz", "I joined Wawel Games as a producer."),
    ("2024-01-22T19:00:00Z", "Tomasz", "Three weeks ago Ola gave me a chess set, I play every evening now."),
    ("2024-03-05T19:00:00Z", "Tomasz", "Rainy week, I mostly stayed in and read."),
]


class _Clock:
    def __init__(self) -> None:
        self.t = _t("2023-01-01T00:00")

    def __call__(self) -> dt.datetime:
        return self.t


@pytest.fixture(scope="module")
def tomasz():
    from midas_graph.models import default_embedder, default_nli

    clock = _Clock()
    mem = Memory(engine=ENGINE, embedder=default_embedder(), nli=default_nli(), clock=clock)
    for when, speaker, text in _TURNS:
        clock.t = dt.datetime.fromisoformat(when.replace("Z", "+00:00"))
        mem.add_episode(text, speaker=speaker, reference_time=when)
    clock.t = _t("2024-06-01T12:00")
    yield mem
    mem.close()


def _lines(ctx, attribute: str) -> list[str]:
    return [i.text for i in ctx.items if i.fact is not None and i.fact.attribute == attribute]


def _ask(mem, question, **kw):
    return mem.context(question, speaker="Tomasz", budget_tokens=400, **kw)


@contextlib.contextmanager
def _told(turns: list[tuple[str, str]], asked_at: str):
    """A memory of Tomasz's ``turns`` ((time, text), each recorded when
    said), its clock then standing at ``asked_at``."""
    from midas_graph.models import default_embedder, default_nli

    clock = _Clock()
    with Memory(engine=ENGINE, embedder=default_embedder(), nli=default_nli(), clock=clock) as mem:
        for when, text in turns:
            clock.t = _t(when[:16])
            mem.add_episode(text, speaker="Tomasz", reference_time=when)
        clock.t = _t(asked_at)
        yield mem


def test_the_current_question_is_unchanged(tomasz):
    ctx = _ask(tomasz, "Where do I live?")
    assert not ctx.abstain and "Asked about" not in ctx.text
    lines = _lines(ctx, "lives_in")
    assert lines and all("Krakow" in line and line.startswith("- [fact]") for line in lines)


@pytest.mark.parametrize("question, then, header", [
    ("Where did I live last summer?", "Gdansk", "Asked about: 2023-06-01 to 2023-08-31"),
    ("Where did I live in July 2023?", "Gdansk", "Asked about: 2023-07-01 to 2023-07-31"),
    ("Where did I use to live?", "Gdansk", "Asked about: what held before the current value"),
    ("Where did I live before I moved to Krakow?", "Gdansk", "Asked about: before 2023-09-04"),
])
def test_the_value_that_held_then_comes_first_and_the_current_only_as_now(tomasz, question, then, header):
    ctx = _ask(tomasz, question)
    assert not ctx.abstain, ctx.reason
    assert header in ctx.text.splitlines()[1]
    lines = _lines(ctx, "lives_in")
    assert then in lines[0] and lines[0].startswith("- [past]")
    # the current value is there only as "now", after the one that held then
    assert all(line.startswith("- [now]") for line in lines if "Krakow" in line)
    assert ctx.items[0].fact is not None and then in str(ctx.items[0].fact.value)


def test_when_i_worked_there(tomasz):
    ctx = _ask(tomasz, "What was my job when I lived in Gdansk?")
    assert not ctx.abstain
    assert "when I lived in Gdansk: Tomasz · lives in: Gdansk" in ctx.text.splitlines()[1]
    [dispatcher] = [line for line in _lines(ctx, "job_title") if "dispatcher" in line]
    assert dispatcher.startswith("- [past]")
    assert all(line.startswith("- [now]") for line in _lines(ctx, "job_title") if "producer" in line)


def test_relative_to_an_explicit_valid_at(tomasz):
    # "last month" as of mid-August 2023 is July 2023: Gdansk, then and at that "now"
    ctx = _ask(tomasz, "Where did I live last month?", valid_at="2023-08-15")
    assert "Asked about: 2023-07-01 to 2023-07-31" in ctx.text
    lines = _lines(ctx, "lives_in")
    assert lines and all("Gdansk" in line and line.startswith("- [then and now]") for line in lines)


def test_a_time_before_anything_known_abstains_and_says_from_when(tomasz):
    ctx = _ask(tomasz, "Where did I live in 2010?")
    assert ctx.abstain and ctx.items == []
    assert "2010" in ctx.reason and "2023-03-01" in ctx.reason
    # a sentence, in the asker's words: no speaker id, no attribute key
    assert ctx.reason.startswith("Nothing is known of your home for ") and ctx.reason.endswith("."), ctx.reason
    assert not _ask(tomasz, "Where did I live in spring 2023?").abstain


def test_an_event_the_memory_never_heard_of_abstains(tomasz):
    ctx = _ask(tomasz, "Where did I live before I moved to Denver?")
    assert ctx.abstain and "cannot be placed" in ctx.reason and "Denver" in ctx.reason
    assert ctx.reason[0].isupper() and ctx.reason.endswith("."), ctx.reason  # a sentence


def test_an_event_no_belief_dates_is_said_and_not_abstained_on(tomasz):
    # the sister's visit is known, but no belief says when it was: answered, not limited to a time
    ctx = _ask(tomasz, "What did we do before Ola visited?")
    assert "not placed" in ctx.text.splitlines()[1]


def test_a_turn_counts_for_the_time_it_tells_of(tomasz, monkeypatch):
    import midas_graph._recall as recall_mod

    said = "The fireworks last night"
    ctx = _ask(tomasz, "Where was Tomasz on 31 Dec 2023?")
    [line] = [i.text for i in ctx.items if i.episode is not None and i.episode.content.startswith(said)]
    assert line.startswith("- [said by Tomasz, 2024-01-01 11:00; tells of 2023-12-31]")
    # three weeks before 22 January is 1 January: the chess set counts for New Year's Day,
    # beyond the week of slack a turn said after a date gets
    question = "What did Tomasz get on 1 January 2024?"
    [chess] = [h for h in tomasz.recall(question, k=10, speaker="Tomasz") if h.kind == "episode" and "chess set" in h.text]
    assert "date" in chess.why
    monkeypatch.setattr(recall_mod, "EVENT_TIMES", False)
    [chess] = [h for h in tomasz.recall(question, k=10, speaker="Tomasz") if h.kind == "episode" and "chess set" in h.text]
    assert "date" not in chess.why


def test_when_i_joined_is_the_start_not_all_the_time_since(monkeypatch):
    """"What was my title when I joined Acme?" after a promotion: the asked
    time is Acme's first weeks (START_SPAN), so the promoted title is not
    the one held "then"."""
    import midas_graph._asked as asked_mod

    with _told([("2024-01-08T09:00:00Z", "I joined Acme as a junior analyst."),
               ("2024-06-03T09:00:00Z", "I got promoted to senior analyst at Acme.")], "2024-09-01T12:00") as mem:
        ctx = _ask(mem, "What was my title when I joined Acme?")
        assert "the start of Tomasz · employer: Acme" in ctx.text
        lines = _lines(ctx, "job_title")
        assert any(line.startswith("- [past]") and "junior analyst" in line for line in lines), ctx.text
        assert all(line.startswith("- [now]") for line in lines if "senior analyst" in line), ctx.text
        monkeypatch.setattr(asked_mod, "START_SPAN", None)  # all the time since: the promotion held "then" too
        lines = _lines(_ask(mem, "What was my title when I joined Acme?"), "job_title")
        assert any(line.startswith("- [then and now]") and "senior analyst" in line for line in lines), lines


def test_before_a_place_only_named_in_passing_is_before_its_first_mention(monkeypatch):
    """"Where did I live before Alief?" when Alief was only named in passing,
    in the first turn about a home: the time asked is before that turn
    (BEFORE_FIRST_SAID) and nothing said then speaks of it, so the context
    abstains (TIME_GAP_SAID). An event ("before I switched to matcha") is
    not placed that way: the switch may be told long after the first matcha."""
    import midas_graph._asked as asked_mod

    with _told([("2024-02-01T10:00:00Z", "still living at my moms in Alief, its cheap"),
               ("2024-03-01T10:00:00Z", "Matcha every morning now, it's great."),
               ("2024-05-01T10:00:00Z", "I switched from Red Bull to matcha in March, btw."),
               ("2024-08-02T10:00:00Z", "we moved to Pearland last week")], "2024-12-01T12:00") as mem:
        ctx = _ask(mem, "where did i live before alief")
        assert "before 2024-02-01" in ctx.text and ctx.abstain and ctx.items == [], ctx.text
        assert "2024-02-01" in ctx.reason
        ctx = _ask(mem, "what did I drink before I switched to matcha?")
        assert not ctx.abstain and "Red Bull" in ctx.text, ctx.text
        import midas_graph._context as context_mod

        monkeypatch.setattr(context_mod, "TIME_GAP_SAID", False)  # placed, but not abstained on
        ctx = _ask(mem, "where did i live before alief")
        assert "before 2024-02-01" in ctx.text and not ctx.abstain
        monkeypatch.setattr(context_mod, "TIME_GAP_SAID", True)
        monkeypatch.setattr(asked_mod, "BEFORE_FIRST_SAID", False)
        assert not _ask(mem, "where did i live before alief").abstain


def test_a_place_named_then_speaks_to_where_i_lived(monkeypatch):
    """"Where was I living back in December?" when the only belief about
    where begins in February (a move to SF): a turn of the asker's said
    before that names a place ("stuck in ann arbor for the holidays") speaks
    to it (GAP_PLACES), so the context answers instead of abstaining on the
    gap. A year before anything was said still abstains."""
    import midas_graph._context as context_mod

    with _told([("2023-08-20T10:00:00Z", "deadlines mostly, my advisor wants the draft by oct 1"),
               ("2023-12-22T10:00:00Z", "stuck in ann arbor for the holidays, flights were $600"),
               ("2024-02-20T10:00:00Z", "I moved to SF last week for the new job")], "2024-06-01T12:00") as mem:
        ctx = _ask(mem, "where was i living back in december?")
        assert not ctx.abstain and "ann arbor" in ctx.text, ctx.text
        assert _ask(mem, "where did i live in 2015?").abstain
        monkeypatch.setattr(context_mod, "GAP_PLACES", False)
        assert _ask(mem, "where was i living back in december?").abstain


def test_a_place_named_before_x_speaks_to_where_i_lived_before_it(monkeypatch):
    """"Where did I live before Brooklyn?" when the only belief about where
    begins with the move: a turn of the asker's said before it that names
    another place ("product designer at wealthsimple, toronto") speaks to it
    and comes first after the top line (GAP_PLACES_BEFORE, round 17); a turn
    naming only Brooklyn does not, and without any such turn it abstains."""
    import midas_graph._context as context_mod

    turns = [("2024-01-10T10:00:00Z", "hi! product designer at wealthsimple, toronto. been here since 2018"),
             ("2024-03-02T10:00:00Z", "ok so. figma offered me a design job in nyc. i said yes"),
             ("2024-04-02T10:00:00Z", "1:1s with derek moving to thursdays"),
             ("2024-05-02T10:00:00Z", "dim sum and sleeping all weekend"),
             ("2024-08-25T10:00:00Z", "we've been in brooklyn since mid-june and i finally bought a couch")]
    with _told(turns, "2024-12-01T12:00") as mem:
        ctx = _ask(mem, "where did i live before brooklyn?")
        assert not ctx.abstain and "toronto" in ctx.text, ctx.text
        monkeypatch.setattr(context_mod, "GAP_PLACES_BEFORE", False)
        assert _ask(mem, "where did i live before brooklyn?").abstain
    with _told(turns[2:], "2024-12-01T12:00") as mem:
        monkeypatch.setattr(context_mod, "GAP_PLACES_BEFORE", True)
        assert _ask(mem, "where did i live before brooklyn?").abstain
    # a place in the same region is no place before it (Berlin holds Neukölln), nor an
    # English word typed small ("normal")
    with _told([("2024-01-10T10:00:00Z", "founder of a small startup in Berlin, feeling normal about it"),
                ("2024-08-25T10:00:00Z", "I moved to Neukölln in June and finally bought a couch")],
               "2024-12-01T12:00") as mem:
        assert _ask(mem, "where did i live before Neukölln?").abstain


def test_a_role_asked_of_another_time_is_whoever_held_it_then(monkeypatch):
    """"Who was my manager back in February?" after a new manager in April:
    the owner's belief that named the asked person then answers (ROLES_AS_OF)."""
    import midas_graph._context as context_mod

    with _told([("2024-01-10T10:00:00Z", "My manager Derek says my memory is a sieve."),
               ("2024-04-08T10:00:00Z", "Reorg. My new manager is Anjali, Derek moved to payments.")], "2024-12-01T12:00") as mem:
        ctx = _ask(mem, "Who was my manager back in February?")
        assert not ctx.abstain and any(i.fact is not None and i.fact.value == "Derek" for i in ctx.items), ctx.text
        monkeypatch.setattr(context_mod, "ROLES_AS_OF", False)
        ctx = _ask(mem, "Who was my manager back in February?")
        assert not any(i.fact is not None and i.fact.value == "Derek" for i in ctx.items), ctx.text


def test_a_word_of_letters_and_digits_is_asked(spacy_nlp):
    """"What was my A1C?" asks about the A1C: a word of letters and digits is
    an asked word, a number with a suffix is not."""
    info = analyze("What was my A1C back in 2022? And my 401k on the 3rd?", spacy_nlp, speaker="u")
    assert "a1c" in info.terms and "401k" in info.terms and "3rd" not in info.terms


def test_a_dated_time_before_anything_said_of_it_abstains(models_mem):
    """"Where did I work in 2020?" when every turn about work was said in
    2024 and none tells of a stretch back: nothing is known of then
    (_context.DATED_GAP_SAID); "... for years" tells of then."""
    import midas_graph._context as context_mod

    mem = models_mem
    t0 = dt.datetime(2024, 3, 1, tzinfo=dt.timezone.utc)
    mem.add_episode("Night shifts at the hospital are killing me, three a fortnight.", speaker="dana",
                    reference_time=t0)
    mem.add_episode("Been doing night shifts at the hospital for years, they never get easier.", speaker="bob",
                    reference_time=t0)
    ctx = mem.context("where did i work in 2020?", speaker="dana")
    assert ctx.abstain and "2020" in ctx.reason, ctx.reason
    assert not mem.context("where did i work in 2020?", speaker="bob").abstain
    context_mod.DATED_GAP_SAID = False
    try:
        assert not mem.context("where did i work in 2020?", speaker="dana").abstain
    finally:
        context_mod.DATED_GAP_SAID = True


def test_before_a_place_only_ever_typed_in_lower_case(models_mem):
    """"where did we live before hilliard" when "hilliard" was only typed in
    lower case: a known place is a name however typed, so "before hilliard"
    is before it was first said (_asked._first_said), and nothing is known
    of then."""
    mem = models_mem
    t0 = dt.datetime(2024, 3, 1, tzinfo=dt.timezone.utc)
    mem.add_episode("lease is up in march and this apt in hilliard is way too small", speaker="renee",
                    reference_time=t0)
    mem.add_episode("we're looking at houses in westerville", speaker="renee", reference_time=t0 + dt.timedelta(days=9))
    ctx = mem.context("where did we live before hilliard", speaker="renee")
    assert ctx.abstain and "before" in ctx.reason, ctx.reason
