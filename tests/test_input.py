"""Bad input is refused with a clear error naming the field, and nothing is
written; hostile but valid strings are stored and returned verbatim."""

from __future__ import annotations

import pytest

from midas_graph import InvalidInputError, MidasError, NotFoundError

pytestmark = pytest.mark.engine


def nothing_written(mem):
    return mem.stats() == {"Entity": 0, "Fact": 0, "Episode": 0}


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(subject="", attribute="a", value="v"), "subject"),
        (dict(subject="   ", attribute="a", value="v"), "subject"),
        (dict(subject="s", attribute="", value="v"), "attribute"),
        (dict(subject="s", attribute="?!", value="v"), "attribute"),
        (dict(subject="s", attribute="a", value=""), "value"),
        (dict(subject="s", attribute="a", value=None), "value"),
        (dict(subject=123, attribute="a", value="v"), "subject"),
        (dict(subject="s", attribute=["a"], value="v"), "attribute"),
        (dict(subject="s", attribute="a", value=["v"]), "value"),
        (dict(subject="s", attribute="a", value=float("nan")), "value"),
        (dict(subject="s", attribute="a", value="v", valid_from="yesterday-ish"), "valid_from"),
        (dict(subject="s", attribute="a", value="v", valid_to=12), "valid_to"),
        (dict(subject="s", attribute="a", value="v", valid_from="2024-02-01", valid_to="2024-01-01"), "valid_to"),
        (dict(subject="s", attribute="a", value="v", valid_from="2024-02-01", valid_to="2024-02-01"), "valid_to"),
        (dict(subject="s", attribute="a", value="v", valid_to="1999-01-01"), "valid_to"),  # before now
        (dict(subject="s", attribute="a", value="v", provenance="rumour"), "provenance"),
        (dict(subject="s", attribute="a", value="v", confidence=1.5), "confidence"),
        (dict(subject="s", attribute="a", value="v", confidence="high"), "confidence"),
        (dict(subject="s", attribute="a", value="v", group_id=""), "group_id"),
        (dict(subject="s", attribute="a", value="v", text=""), "text"),
    ],
)
def test_add_fact_rejects_bad_input(mem, kwargs, field):
    with pytest.raises(InvalidInputError) as info:
        mem.add_fact(**kwargs)
    err = info.value
    assert isinstance(err, ValueError) and isinstance(err, MidasError)
    assert err.field == field and str(err).startswith(field)
    assert nothing_written(mem)


def test_bulk_with_one_bad_row_writes_nothing(mem):
    rows = [("a", "lives_in", "x"), {"subject": "b", "attribute": "age", "value": 3},
            {"subject": "c", "attribute": "age", "value": 4, "valid_from": "not a date"}]
    with pytest.raises(InvalidInputError, match=r"rows\[2\]\.valid_from"):
        mem.add_facts(rows)
    with pytest.raises(InvalidInputError, match=r"rows\[0\]\.colour"):
        mem.add_facts([{"subject": "a", "attribute": "b", "value": "c", "colour": "red"}])
    with pytest.raises(InvalidInputError, match="rows"):
        mem.add_facts({"subject": "a", "attribute": "b", "value": "c"})
    assert nothing_written(mem)


def test_unknown_ids_and_names(mem):
    with pytest.raises(NotFoundError) as info:
        mem.retract("f-404")
    assert isinstance(info.value, KeyError) and "f-404" in str(info.value)
    with pytest.raises(KeyError):
        mem.versions("f-404")
    with pytest.raises(KeyError):
        mem.add_alias("Nobody", "Nobody Else")
    assert mem.current("Nobody") == []
    assert mem.history("Nobody") == []


def test_alias_conflicts_are_refused(mem):
    mem.add_fact("Alice", "age", 30)
    mem.add_fact("Bob", "age", 40)
    mem.add_alias("Alice", "Al")
    with pytest.raises(InvalidInputError, match="already names another entity"):
        mem.add_alias("Bob", "al")
    assert mem.entity("AL").name == "Alice"
    assert mem.entity("alice").aliases == ("Al",)


HOSTILE = [
    "O'Brien \"the\" `quoted`",
    "x}) MATCH (n) DETACH DELETE n //",
    "$param {id: 1}; DROP TABLE Fact;",
    "Zoë 🚀🧠 — naïve café",
    "line one\nline two\ttab \\ backslash",
    "é" * 5000 + "z" * 5000,  # 10 kB
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_strings_round_trip_verbatim(mem, text):
    f = mem.add_fact(text, "note", text, text=text, source=text)
    got = mem.current(text)
    assert len(got) == 1
    g = got[0]
    assert (g.subject, g.value, g.text, g.source) == (text, text, text, text)
    assert g.id == f.id
    assert mem.stats()["Fact"] == 1  # nothing else was touched
