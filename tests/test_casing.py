"""Names in turns typed without capitals get theirs back before parsing
(midas_graph/_extract/casing.py): from the group's own cased turns, and
places after a place word. Same length, lower-case turns only."""

from __future__ import annotations

from conftest import ENGINE, StepClock

from midas_graph import Memory
from midas_graph._extract.casing import Casing, places, uncased


def test_a_lower_case_turn_takes_the_capitals_the_conversation_showed():
    c = Casing()
    c.learn("Who is Tessa? Say hi to Aoife, and good luck in Ann Arbor.")
    out = c.restore("oh lol tessa, my girlfriend. aoife says hi from ann arbor")
    assert out == "oh lol Tessa, my girlfriend. Aoife says hi from Ann Arbor"


def test_a_word_also_written_small_in_a_cased_turn_keeps_its_case():
    c = Casing()
    c.learn("Will you call Will? I will.")  # "will" also written small: not a name to restore
    assert c.restore("will said hi") == "will said hi"


def test_a_cased_turn_is_parsed_as_typed():
    c = Casing()
    c.learn("How is Oakland?")
    assert not uncased("Moved to oakland last week.")
    assert c.restore("Moved to oakland last week.") == "Moved to oakland last week."
    assert uncased("moved to oakland") and uncased("Honestly i moved")


def test_places_after_a_place_word_and_not_ordinary_words():
    assert "pittsburgh" in places()
    c = Casing()
    assert c.restore("we moved to pittsburgh last week, i love it") == \
        "we moved to Pittsburgh last week, I love it"
    assert c.restore("going to surprise her") == "going to surprise her"  # a verb, not a town
    assert c.restore("i'm interested in reading") == "I'm interested in reading"
    assert c.restore("back to work tomorrow") == "back to work tomorrow"
    assert c.restore("pittsburgh is great") == "pittsburgh is great"  # no place word before it


def test_restoring_keeps_the_length():
    c = Casing()
    c.learn("Ask Mei-Ling about São Paulo.")
    for text in ["hi!! i'm mei-ling \U0001f64f moving to new york", "i\u2019ve been in toronto since 2018"]:
        assert len(c.restore(text)) == len(text)


def test_a_move_typed_without_capitals_is_stored():
    """"we moved to oakland last month" gives lives_in, named with its capital."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episodes([{"content": "we moved to oakland last month, the rent is insane", "speaker": "aj",
                           "reference_time": "2024-08-01T10:00"}])
        assert [f.value for f in mem.as_of("aj", "lives_in")] == ["Oakland"]


def test_short_capitals_come_back_but_not_chat_words():
    c = Casing()
    c.learn("Nice! How is SF treating you? I am OK with UHG.")
    assert c.restore("moved to sf last week. ok cool, uhg called") == "moved to SF last week. ok cool, UHG called"


def test_a_reopened_memory_reads_lower_case_turns_as_before(tmp_path):
    """The capitals a group showed are learnt again from its stored turns
    when the memory is reopened (``CASING_SEED_TURNS``): "marisol" after a
    restart is the Marisol the assistant named before it."""
    path = str(tmp_path / "m.db")
    clock = StepClock()
    with Memory(path, engine=ENGINE, clock=clock) as mem:
        mem.add_episodes([
            {"content": "Who is Marisol? You mentioned her twice.", "speaker": "assistant",
             "reference_time": "2024-08-01T10:00"},
            {"content": "My sister. She lives in Boise.", "speaker": "jo", "reference_time": "2024-08-01T10:01"},
        ])
    with Memory(path, engine=ENGINE, clock=clock) as mem:
        mem.add_episode("marisol moved to denver last week, so proud", speaker="jo",
                        reference_time="2024-09-20T10:00")
        assert [f.value for f in mem.as_of("Marisol", "lives_in")] == ["Denver"]
        assert "denver" not in {e.name for e in mem.entities()}  # one entity, named as the claim names it


def test_short_place_names_after_a_place_word():
    """"moved to sf" before anyone wrote "SF": the short names people type
    for places (``location.place_abbreviations``) get their capitals."""
    c = Casing()
    assert c.restore("moved to sf on valentine's day lol") == "moved to SF on valentine's day lol"
    assert c.restore("back in nyc next week") == "back in NYC next week"
    assert c.restore("sf is foggy") == "sf is foggy"  # no place word before it


def test_a_name_in_a_name_slot_takes_a_capital_and_the_group_remembers_it(monkeypatch):
    """"my new manager is anjali": a word after a possessed relation (or
    "named") that the parser knows as no English word is a name; the new
    manager is then stored and the old one closed. "my brother is home" and
    "my wife is pregnant" keep their words."""
    import midas_graph._extract.casing as casing_mod

    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episode("my manager derek says my memory is a sieve", speaker="Ling")
        mem.add_episode("reorg 🙃 my new manager is anjali, derek moved to the payments team", speaker="Ling")
        assert [f.value for f in mem.as_of("Ling", "manager")] == ["Anjali"]
    monkeypatch.setattr(casing_mod, "FIRST_NAMES", False)  # the slots alone ("derek" is cased as a first name)
    c = Casing()
    assert c.restore("reorg 🙃 my new manager is anjali, derek moved") == "reorg 🙃 my new manager is Anjali, derek moved"
    assert c.restore("anjali is great actually") == "Anjali is great actually"  # remembered
    assert c.restore("my boyfriend, jun, is in town") == "my boyfriend, Jun, is in town"
    assert c.restore("met a guy named javi lol") == "met a guy named Javi lol"
    for same in ("my brother is home", "my wife is pregnant", "my manager said no", "the manager. anjali",
                 "my manager. anjali said hi",  # a sentence ends between them
                 "my sister keeps texting me", "my mom says hi"):  # a verb's form is no name
        assert Casing().restore(same) == same
    monkeypatch.setattr(casing_mod, "NAME_SLOTS", False)
    assert Casing().restore("my new manager is anjali") == "my new manager is anjali"


def test_a_name_the_speaker_gives_themselves_takes_a_capital(monkeypatch):
    """"yo. i'm aarav, 5th yr phd": a word after "i'm" behind a greeting, or
    after "call me" / "my name is", that ends its clause and is no English
    word is the speaker's name; the speaker is then found by it. "hi i'm
    home", "ugh i'm hungover" (no greeting), "i'm gonna go" (the clause goes
    on) and "call me back" keep their words."""
    import midas_graph._extract.casing as casing_mod

    c = Casing()
    assert c.restore("yo. i'm aarav, 5th yr phd at umich") == "yo. I'm Aarav, 5th yr phd at umich"
    assert c.restore("hi!! i'm mei-ling but pls call me ling 🙏 designer") == \
        "hi!! I'm Mei-Ling but pls call me Ling 🙏 designer"
    assert c.restore("hello, my names tomasz btw") == "hello, my names Tomasz btw"
    for same in ("hi i'm home", "ugh i'm hungover", "hey i'm gonna go", "pls call me back", "call me tomorrow",
                 "lol i'm sooo done"):
        assert Casing().restore(same) == same.replace("i'm", "I'm")
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episode("yo. i'm aarav, 5th yr phd at umich (cs)", speaker="user", reference_time="2024-08-01T10:00")
        mem.add_episode("my passport expires in march 2025", speaker="user", reference_time="2024-08-02T10:00")
        ctx = mem.context("when does aarav's passport expire?", speaker="user")
        assert not ctx.abstain and "march 2025" in ctx.text
    monkeypatch.setattr(casing_mod, "SELF_NAMES", False)
    monkeypatch.setattr(casing_mod, "FIRST_NAMES", False)  # "aarav" is a first name too
    assert Casing().restore("yo. i'm aarav") == "yo. I'm aarav"


def test_a_first_name_takes_a_capital_wherever_it_stands(monkeypatch):
    """"kate's pregnant!!", "steph's off to perth": a word that a first-name
    list knows (faker's locales, the nicknames table) and that is no English
    word is a name in a lower-case turn, however it stands; accents are read
    whole ("tomás"). Kept small: English words and their plurals ("3 miles"),
    chat words ("back to uni"), months ("due april"), a noun-name after an
    article ("the robin's"), a name that is also a big city ("austin"), a
    word the group writes small in its cased turns."""
    import midas_graph._extract.casing as casing_mod

    c = Casing()
    assert c.restore("kate's pregnant!! due april. mum's beside herself") == \
        "Kate's pregnant!! due april. mum's beside herself"
    assert c.restore("steph's off to perth. ugh.") == "Steph's off to Perth. ugh."
    assert c.restore("ok so tomás (the guy from capoeira) asked me out") == \
        "ok so Tomás (the guy from capoeira) asked me out"
    assert c.restore("kids r mateo (8) and lucy (4)") == "kids r Mateo (8) and Lucy (4)"
    for same in ("ran 3 miles today, back to uni tmrw", "the robin's already found it", "a cup of tea after",
                 "austin. been here since 2019", "2-3 wks max", "zion already drew on a wall", "this lady at the mall"):
        assert Casing().restore(same) == same
    cased = Casing()
    cased.learn("Ask the marcus team.")  # the group writes it small
    assert cased.restore("marcus is on nights again") == "marcus is on nights again"
    monkeypatch.setattr(casing_mod, "FIRST_NAMES", False)
    assert Casing().restore("kate's pregnant!!") == "kate's pregnant!!"


def test_a_person_named_only_in_lower_case_is_known_and_asked_by():
    """A lower-case chat that never capitalises "steph": she becomes a person,
    a lower-case question finds her move, and a question of someone never
    mentioned still abstains."""
    with Memory(engine=ENGINE, clock=StepClock()) as mem:
        mem.add_episode("steph's moving to perth next month, ugh", speaker="dana", reference_time="2024-08-01T10:00")
        assert "Steph" in {e.name for e in mem.entities()}
        ctx = mem.context("where is steph moving?", speaker="dana")
        assert not ctx.abstain and "perth" in ctx.text.lower()
        assert mem.context("where is priya moving?", speaker="dana").abstain


def test_same_region_reads_geonames_first_level_regions():
    """A district and its city share a region (Neukölln, Berlin); two cities of
    different states or countries do not; an unknown name is in none."""
    from midas_graph._extract.casing import same_region

    assert same_region("Neukölln", "Berlin") and same_region("neukölln", "BERLIN")
    assert not same_region("Toronto", "Brooklyn") and not same_region("Ann Arbor", "Oakland")
    assert not same_region("Wakanda", "Berlin")
