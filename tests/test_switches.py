"""Switches and standing relations (issue 19 item 3, issue 17 item 2): a held
value replaced by another the sentence names, and "I bank with Monzo", read
with the real spaCy pipeline; then end to end, where a switch acts only on a
value the speaker holds. Sentences written for these tests (not from any
evaluation set).
"""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import cur

from midas_graph._extract import extract

REF = dt.datetime(2024, 5, 10, 12, 0, tzinfo=dt.timezone.utc)


@pytest.fixture(scope="module")
def nlp(spacy_nlp):
    return spacy_nlp


def claims(nlp, text):
    ex = extract(text, speaker="Imke", reference_time=REF, listener="assistant", doc=nlp(text))
    return {(c.subject, c.attribute, c.value, c.replaces, c.change, c.correction) for c in ex.claims}


SWITCHES = [
    # (sentence, value, replaces): a claim with no attribute, marked as a change
    ("I moved all my savings from Barclays to Starling.", "Starling", "Barclays"),
    ("Our team migrated from Bitbucket to GitLab last spring.", "GitLab", "Bitbucket"),
    ("I changed my energy plan from Octopus to Ovo.", "Ovo", "Octopus"),
    ("I swapped Deezer for Qobuz.", "Qobuz", "Deezer"),
    ("We replaced Zoom with Meet.", "Meet", "Zoom"),
    ("I left Initech for Globex.", "Globex", "Initech"),
    ("I cancelled Netflix and got Mubi instead.", "Mubi", "Netflix"),
    ("I take my car to Kwik Fit instead of Halfords now.", "Kwik Fit", "Halfords"),
    ("Instead of Evernote I use Obsidian.", "Obsidian", "Evernote"),
    ("These days Marta walks our dog, not Kasia.", "Marta", "Kasia"),
    ("Traded in the Corolla for a Mazda.", "Mazda", "Corolla"),      # the particle read as a preposition
    ("I swapped out the Nespresso for a Moka pot.", "Moka pot", "Nespresso"),
    ("Finally out of Hull, we're in Whitby now.", "Whitby", "Hull"),  # a place left, the speaker in another
    ("We finally left Hull! We're in Whitby now.", "Whitby", "Hull"),
]


@pytest.mark.parametrize("text,value,old", SWITCHES)
def test_a_switch_names_the_new_value_and_the_one_it_replaces(nlp, text, value, old):
    got = claims(nlp, text)
    assert ("Imke", "", value, old, True, False) in got, got


def test_a_switch_kind_names_the_attribute(nlp):
    assert ("Imke", "physio", "Anouk", None, True, False) in claims(nlp, "I switched physios, I see Anouk now.")
    assert ("Imke", "recipe", "Mela", None, True, False) in claims(nlp, "I moved all my recipes to Mela.")
    assert ("Imke", "energy_supplier", "Ovo", None, True, False) in claims(nlp, "We switched energy supplier to Ovo.")


def test_a_thing_moved_is_no_move_of_home(nlp):
    assert not any(c[1] == "lives_in" for c in claims(nlp, "I moved my recipes to Mela.")), claims(nlp, "I moved my recipes to Mela.")
    assert ("Imke", "lives_in", "Leeds", None, False, False) in claims(nlp, "We moved the kids to Leeds.")


@pytest.mark.parametrize("text", [
    "I drove from Leeds to York.",                 # a trip, not a switch
    "I moved from Leeds to York.",                 # a move: the location family's
    "I went from the office to the gym.",          # a place to a place
    "I left my keys for the cleaner.",             # leave ... for: names only
    "Instead of worrying I went for a run.",       # no value replaced
    "Got out of Hull for the weekend, we're in Whitby now.",  # a trip
    "I left Initech, I'm in Whitby now.",          # a place is no employer
    "Out of Hull at last. Are we in Whitby now?",  # a question
])
def test_no_switch_where_nothing_is_replaced(nlp, text):
    assert not any(c[1] == "" and c[3] for c in claims(nlp, text)), claims(nlp, text)


def test_now_not_is_a_change_and_without_a_cue_a_correction(nlp):
    """ "I live in Lisbon now, not Porto": Porto held until now (a change, no
    retraction); "I live in Lisbon, not Porto" takes Porto back."""
    changed = claims(nlp, "I live in Lisbon now, not Porto.")
    assert ("Imke", "lives_in", "Lisbon", None, False, False) in changed
    assert ("Imke", "", "Lisbon", "Porto", True, False) in changed
    corrected = claims(nlp, "I live in Lisbon, not Porto.")
    assert ("Imke", "lives_in", "Lisbon", "Porto", False, True) in corrected
    strong = claims(nlp, "Sorry, I meant I live in Lisbon now, not Porto.")
    assert all(not c[4] for c in strong) and any(c[5] for c in strong)


def test_a_join_read_as_an_employer_is_left_to_the_switch(nlp):
    got = claims(nlp, "I cancelled PureFit and joined Anytime Fitness instead.")
    assert ("Imke", "", "Anytime Fitness", "PureFit", True, False) in got
    assert not any(c[1] == "employer" for c in got)


STANDING = [
    ("I bank with Starling.", "bank_with", "Starling"),
    ("We shop at Lidl on Saturdays.", "shop_at", "Lidl"),
    ("I see Dr. Okoro for my back.", "see", "Dr. Okoro"),
    ("My daughter goes to Hillside Primary.", "go_to", "Hillside Primary"),
    ("I work out at Iron Forge.", "work_out_at", "Iron Forge"),
    ("I see a physio called Anouk for my shoulder.", "physio", "Anouk"),
    ("We do our weekly shop at Lidl.", "shop", "Lidl"),
    ("I keep my recipes in Paprika.", "recipe", "Paprika"),
    ("I have cello lessons with Mrs. Brandt.", "cello_lesson", "Mrs. Brandt"),
    # a thing of mine with a name: the thing is the attribute
    ("All my recipes are in Paprika.", "recipe", "Paprika"),
    ("Our car insurance is through Direct Line.", "car_insurance", "Direct Line"),
    ("My photos are all backed up on Backblaze.", "photo", "Backblaze"),
]


@pytest.mark.parametrize("text,attribute,value", STANDING)
def test_a_standing_relation_to_a_name(nlp, text, attribute, value):
    assert any(c[1] == attribute and c[2] == value for c in claims(nlp, text)), claims(nlp, text)


@pytest.mark.parametrize("text", [
    "I met Tomasz at the station.",        # an event, past
    "I miss Ana so much.",                 # an attitude
    "I might bank with Monzo.",            # a modal
    "I don't shop at Lidl.",               # negated
    "I go to the park a lot.",             # not a name
    "If I moved I'd bank with Monzo.",     # hypothetical
    "I take my car to Kwik Fit.",          # car is the registry's (what one drives): no car: Kwik Fit
    "I take my kids to Oakwood.",          # people, not a thing of mine
    "I'd love to move to Paris.",          # a wish
])
def test_no_standing_relation(nlp, text):
    assert claims(nlp, text) == set(), claims(nlp, text)


def test_commute_takes_a_measure(nlp):
    assert ("Imke", "commute", "40 min", None, False, False) in claims(nlp, "My commute takes 40 minutes.")
    # a taken offer is still a job
    assert any(c[1] == "employer" and c[2] == "Nokia" for c in claims(nlp, "Youssef accepted the Nokia offer."))


# -- end to end ------------------------------------------------------------


@pytest.mark.engine
def test_a_switch_ends_the_held_value_under_its_own_attribute(models_mem):
    mem = models_mem
    mem.add_episode("I bank with Starling.", speaker="Imke", reference_time="2024-03-01")
    mem.add_episode("My gym is PureFit.", speaker="Imke", reference_time="2024-03-01")
    r = mem.add_episode("I moved all my money from Starling to Monzo.", speaker="Imke", reference_time="2024-05-01")
    assert cur(mem, "Imke", "bank_with") == ["Monzo"]
    assert [f.value for f in r.superseded] == ["Starling"]
    r = mem.add_episode("I cancelled PureFit and joined Anytime Fitness instead.", speaker="Imke",
                        reference_time="2024-05-02")
    assert cur(mem, "Imke", "gym") == ["Anytime Fitness"]
    assert cur(mem, "Imke", "employer") == []
    # the old value was true until the switch: as of April it is still the bank
    april = sorted(str(f.value) for f in mem.as_of("Imke", "bank_with", valid_at="2024-04-01"))
    assert april == ["Starling"]


def test_a_car_traded_for_another_is_the_car_now(nlp):
    """A vehicle traded for another ends and the new one is the car, held
    or not before (the switch alone acts only on a held value)."""
    got = claims(nlp, "We traded the Civic in for a Tesla.")
    assert {("Imke", "car", "Tesla", None, False, False), ("Imke", "", "Tesla", "Civic", True, False)} <= got, got
    assert not any(c[1] == "car" for c in claims(nlp, "I swapped Deezer for Qobuz."))


@pytest.mark.engine
def test_a_home_left_for_another_place_moves_the_speaker(models_mem):
    mem = models_mem
    mem.add_episode("I live in Hull.", speaker="Imke", reference_time="2024-03-01")
    r = mem.add_episode("Finally out of Hull, we're in Whitby now.", speaker="Imke", reference_time="2024-05-01")
    assert cur(mem, "Imke", "lives_in") == ["Whitby"]
    assert [f.value for f in r.superseded] == ["Hull"]
    assert mem.check() == []


@pytest.mark.engine
def test_a_switch_of_a_value_not_held_records_nothing_and_says_so(models_mem):
    mem = models_mem
    mem.add_episode("I bank with Starling.", speaker="Imke", reference_time="2024-03-01")
    r = mem.add_episode("Our team moved from Jira to Linear.", speaker="Imke", reference_time="2024-05-01")
    assert r.superseded == [] and any("switch not applied" in n for n in r.notes)
    assert cur(mem, "Imke", "bank_with") == ["Starling"]


@pytest.mark.engine
def test_an_unregistered_attribute_said_with_a_change_cue_replaces_its_values(models_mem, monkeypatch):
    """"Oakline is our landlord now": landlord is not in the registry (it could hold
    several), but "now" says the new value replaces the old (CUE_CHANGES; without
    it, NLI alone keeps both); "also" keeps both."""
    import midas_graph._episodes as episodes_mod

    mem = models_mem
    monkeypatch.setattr(episodes_mod, "CUE_CHANGES", False)
    mem.add_episode("Our landlord is Gary Pruitt, he is pretty hands-off.", speaker="Imke", reference_time="2024-03-01")
    mem.add_episode("The building got sold, so Oakline Residential is our landlord now.", speaker="Imke",
                    reference_time="2024-05-01")
    assert cur(mem, "Imke", "landlord") == ["Gary Pruitt", "Oakline Residential"]
    monkeypatch.setattr(episodes_mod, "CUE_CHANGES", True)
    r = mem.add_episode("Harbour Lettings is our landlord now, the building was sold again.", speaker="Imke",
                        reference_time="2024-07-01")
    assert cur(mem, "Imke", "landlord") == ["Harbour Lettings"]
    assert sorted(f.value for f in r.superseded) == ["Gary Pruitt", "Oakline Residential"]
    mem.add_episode("My tutor is Anouk.", speaker="Imke", reference_time="2024-03-01")
    mem.add_episode("My tutor is also Bram now.", speaker="Imke", reference_time="2024-05-01")
    assert cur(mem, "Imke", "tutor") == ["Anouk", "Bram"]


NEW_KIND = [
    # (sentence, attribute, value): a new one of someone a person has one of at a time
    ("My new physio, Tariq, actually listens.", "physio", "Tariq"),
    ("New dog walker started this week, a lad called Ollie.", "dog_walker", "Ollie"),
    ("New piano teacher as of this month: Margit.", "piano_teacher", "Margit"),
    ("We've got a new cleaner, Bożena.", "cleaner", "Bożena"),
    ("Dr. Hale is my new GP.", "gp", "Dr. Hale"),
]


@pytest.mark.parametrize("text,attribute,value", NEW_KIND)
def test_a_new_one_of_someone_had_one_at_a_time_is_a_change(nlp, text, attribute, value):
    got = claims(nlp, text)
    assert ("Imke", attribute, value, None, True, False) in got, got


@pytest.mark.parametrize("text", ["I got a new puppy, Biscuit.", "My brother has a new boss, Carla.",
                                  "Her new physio is called Ben."])
def test_a_new_one_of_what_adds_up_or_of_someone_else_is_no_change_of_mine(nlp, text):
    assert not any(c[0] == "Imke" and c[4] for c in claims(nlp, text)), claims(nlp, text)
