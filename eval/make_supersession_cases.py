"""Build eval/data/supersession_cases.jsonl: end-to-end false-supersession cases (issue 19 item 3).

The revision cases (``eval/data/revision_cases.jsonl``, 179) test every
kind of revision. These add three groups the engine sends to NLI, in the
same format, so that ``eval/supersession_eval.py`` can run them through the
real engine (``Memory.add_episode``) the way ``eval/revision_eval.py`` does:

- ``multi_valued_addition`` (expect no supersession): a second value of an
  attribute that holds several ("I also speak Spanish", "we got a second
  cat, Luna", "I joined the choir too");
- ``unrelated_same_subject`` (expect none): another attribute of the same
  person, often close in wording or embedding ("My dentist is Dr. Lee." /
  "My accountant is Ms. Park.", "My birthday is June 5." / "I'm 31.");
- ``contradiction_unregistered`` (expect the old value closed): a new value
  of an attribute that is *not* in the attribute registry, so that only NLI
  can close the old one ("My dentist is Dr. Lee." / "I switched dentists, I
  see Dr. Patel now.");
- ``value_kept_other_change`` (expect only the named old value closed, if
  any): a statement that names an old belief's own value while it changes
  something else ("I joined Acme as a junior analyst." / "I got promoted to
  senior analyst at Acme.": the title changes, the employer is Acme still).
  Written by hand, one per line of ``KEPT``, after a false supersession of
  exactly this shape (an employer closed by a promotion at that employer).

The sentences are written here for this purpose (wording not taken from the
NLI training generators). Deterministic:

    python eval/make_supersession_cases.py          # rewrites the JSONL
    python eval/make_supersession_cases.py --check  # exits 1 if it differs
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent))
from jsonl_file import write_or_check  # noqa: E402

OUT = Path(__file__).resolve().parent / "data" / "supersession_cases.jsonl"
NAMES = ["Dana", "Priya", "Marcus", "Ingrid", "Tomasz", "Keiko", "Rafael", "Amina", "Oskar",
         "Lucia", "Femi", "Hanna", "Jorge", "Mira", "Sven", "Talia", "Bruno", "Noor", "Elif",
         "Kofi", "Greta", "Ravi", "Ines", "Paulo", "Sasha", "Yara", "Henrik", "Leila"]

# (first turn, last turn) — multi-valued additions. {a}/{b}: two values.
ADDITIONS = [
    ("I speak {a}.", "I also speak {b}.", ["French", "German", "Spanish", "Italian", "Dutch", "Polish", "Greek"]),
    ("I speak {a} fluently.", "I'm getting pretty good at {b} as well.", ["Portuguese", "Japanese", "Arabic", "Korean", "Swedish"]),
    ("I play the {a}.", "I play the {b} too.", ["piano", "guitar", "violin", "cello", "drums", "flute"]),
    ("I play {a} on weekends.", "I also started playing {b}.", ["tennis", "chess", "golf", "squash", "badminton", "volleyball"]),
    ("I have a cat called {a}.", "We adopted a second cat, {b}.", ["Milo", "Luna", "Pepper", "Olive", "Simba", "Mochi"]),
    ("I have a dog named {a}.", "We also have a puppy named {b} now.", ["Rex", "Biscuit", "Nala", "Ziggy", "Daisy", "Coco"]),
    ("I like {a}.", "I like {b} too.", ["sushi", "tacos", "ramen", "curry", "pasta", "dumplings"]),
    ("I love {a} music.", "Lately I've been into {b} as well.", ["jazz", "techno", "folk", "classical", "hip hop", "reggae"]),
    ("I visited {a} in 2019.", "Last summer I visited {b}.", ["Rome", "Oslo", "Kyoto", "Lisbon", "Cairo", "Quito", "Hanoi"]),
    ("I know {a}.", "I'm learning {b} on the side.", ["Python", "Rust", "Go", "Kotlin", "Haskell", "Swift"]),
    ("I'm a member of the {a}.", "I joined the {b} too.", ["chess club", "hiking club", "choir", "book club", "rowing club", "film society"]),
    ("I have a sister in {a}.", "My other sister lives in {b}.", ["Leeds", "York", "Bristol", "Cardiff", "Derby", "Bath"]),
    ("My son goes to {a}.", "My daughter goes to {b}.", ["Oakwood Primary", "Hillcrest School", "St Mary's", "Riverside Academy"]),
    ("I drive a {a}.", "For weekends we also have a {b}.", ["Honda Civic", "Ford Focus", "Toyota Corolla", "VW Golf", "Mazda 3"]),
    ("I read {a}.", "I also read {b}.", ["The Guardian", "The Economist", "Le Monde", "The Atlantic", "Wired"]),
    ("I'm allergic to {a}.", "Turns out I'm allergic to {b} as well.", ["peanuts", "shellfish", "pollen", "cats", "penicillin"]),
    ("I collect {a}.", "I've started collecting {b} too.", ["stamps", "vinyl records", "old maps", "coins", "postcards"]),
    ("My friend {a} is a nurse.", "My friend {b} is a pilot.", ["Aisha", "Tobias", "Carmen", "Wendell", "Solveig", "Piotr"]),
]

# Unrelated statements about the same person: (first, last)
UNRELATED = [
    ("My dentist is Dr. {L}.", "My accountant is Ms. {L2}."),
    ("My gym is {G}.", "My yoga studio is {G2}."),
    ("My birthday is {D}.", "I'm {N}."),
    ("I was born in {C}.", "I work in {C2} these days."),
    ("I go running on {W}.", "I go swimming on {W2}."),
    ("My favourite colour is {col}.", "My favourite food is {food}."),
    ("My car is a {car}.", "My bike is a {bike}."),
    ("I have two kids.", "I have a sister and a brother."),
    ("I don't eat pork.", "I don't drink coffee after noon."),
    ("I'm vegetarian.", "I'm training for a marathon."),
    ("My manager is {P}.", "My mentor is {P2}."),
    ("My landlord is Mr. {L}.", "My neighbour is Mrs. {L2}."),
    ("I take the {T} to work.", "I work from home on {W}."),
    ("I studied {subj} at university.", "I teach {subj2} at night school."),
    ("My phone is an {phone}.", "My laptop is a {laptop}."),
    ("I wake up at {t1}.", "I go to bed around {t2}."),
    ("My sister is a doctor.", "My brother is a lawyer."),
    ("I'm afraid of heights.", "I'm afraid of spiders too."),
    ("My rent is {m1} euros a month.", "My salary went up to {m2} euros a month."),
    ("I've lived here for {y} years.", "I've had my dog for {y2} years."),
    ("I support {team}.", "My dad supports {team2}."),
    ("I don't have a car.", "I have a bike and a scooter."),
    ("My flat is on the {fl} floor.", "My office is on the {fl2} floor."),
    ("I drink tea in the morning.", "I drink wine at dinner."),
]

# Contradictions of attributes that are not in the registry: (first, last, stale)
CONTRA = [
    ("My dentist is Dr. {L}.", "I switched dentists, I see Dr. {L2} now.", "Dr. {L}"),
    ("My dentist is Dr. {L}.", "My new dentist is Dr. {L2}.", "Dr. {L}"),
    ("My gym is {G}.", "I cancelled {G} and joined {G2} instead.", "{G}"),
    ("My bank is {B}.", "I moved all my money from {B} to {B2}.", "{B}"),
    ("My doctor is Dr. {L}.", "Dr. {L2} is my doctor now.", "Dr. {L}"),
    ("My therapist is {P}.", "I stopped seeing {P}; my therapist is {P2} now.", "{P}"),
    ("My hairdresser is {P}.", "These days {P2} cuts my hair, not {P}.", "{P}"),
    ("Our team uses {tool} for tickets.", "Our team moved from {tool} to {tool2}.", "{tool}"),
    ("My mobile provider is {tel}.", "I switched my phone plan from {tel} to {tel2}.", "{tel}"),
    ("I'm vegetarian.", "I started eating meat again.", ""),
    ("I don't drink alcohol.", "I have a glass of wine most evenings now.", ""),
    ("I walk to work.", "I can't walk to work anymore since we moved; I drive.", ""),
    ("My commute takes {c1} minutes.", "My commute is down to {c2} minutes now.", "{c1} minutes"),
    ("Our office is on the {fl} floor.", "Our office moved up to the {fl2} floor.", "{fl}"),
    ("The book club meets on {W}.", "The book club meets on {W2} now, not {W}.", "{W}"),
    ("My coach is {P}.", "{P} isn't my coach anymore, {P2} took over.", "{P}"),
]

VALS = {
    "L": ["Lee", "Patel", "Klein", "Moreau", "Okafor", "Nguyen", "Fischer", "Costa"],
    "G": ["FitLife", "Iron Temple", "PureGym", "CrossBox", "Anytime Fitness", "Gold's"],
    "B": ["HSBC", "Monzo", "ING", "Barclays", "N26", "Santander"],
    "P": ["Dr. Ames", "Sarah", "Jonas", "Mr. Hale", "Beatriz", "Kwame", "Ottilie", "Rupert"],
    "tool": ["Jira", "Linear", "Trello", "Asana", "YouTrack"],
    "tel": ["Vodafone", "O2", "EE", "Three", "T-Mobile"],
    "D": ["June 5", "March 12", "October 30", "January 9", "August 21"],
    "N": ["31", "27", "45", "38", "52"],
    "C": ["Porto", "Lagos", "Dublin", "Krakow", "Osaka", "Quito"],
    "W": ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Saturdays"],
    "col": ["blue", "green", "orange", "purple"],
    "food": ["ramen", "paella", "pho", "lasagna"],
    "car": ["Skoda Octavia", "Kia Niro", "Fiat 500", "Volvo XC60"],
    "bike": ["Brompton", "Trek", "Cube", "Specialized"],
    "T": ["train", "bus", "tram", "ferry"],
    "subj": ["physics", "history", "economics", "biology"],
    "phone": ["iPhone", "Android phone"],
    "laptop": ["ThinkPad", "MacBook", "Dell XPS"],
    "t1": ["6 am", "7 am", "5:30"],
    "t2": ["11 pm", "midnight", "10 pm"],
    "m1": ["900", "1200", "750"],
    "m2": ["3100", "4200", "2800"],
    "y": ["three", "five", "ten"],
    "team": ["Arsenal", "Ajax", "Benfica", "Celtic"],
    "fl": ["5th", "2nd", "3rd", "7th"],
    "c1": ["40", "55", "25", "35"],
    "c2": ["15", "10", "20", "12"],
}


# (speaker, first turn, last turn, the old value the last turn replaces or None):
# the last turn names a value the first one stated, which stays held.
KEPT = [
    ("Priya", "I joined Acme as a junior analyst.", "I got promoted to senior analyst at Acme.", "junior analyst"),
    ("Tomasz", "I work at Google as a software engineer.", "I moved to the Maps team at Google last month.", None),
    ("Lucia", "I study biology at UCLA.", "I switched my major to chemistry, but I'm still at UCLA.", "biology"),
    ("Oskar", "I live in Toronto.", "We moved to a bigger apartment in Toronto.", None),
    ("Keiko", "I drive a Honda Civic.", "My Honda Civic just passed 200,000 km.", None),
    ("Hanna", "I'm a nurse at St. Mary's Hospital.", "I started working night shifts at St. Mary's Hospital.", None),
    ("Jorge", "I teach math at Lincoln High.", "This year I'm teaching physics at Lincoln High.", "math"),
    ("Amina", "I'm a manager at Deloitte.", "I got promoted to senior manager at Deloitte.", "manager"),
    ("Rafael", "I play bass in a band called The Lanterns.", "The Lanterns just signed with a small label.", None),
    ("Noor", "My dentist is Dr. Okafor.", "Dr. Okafor moved her practice to Elm Street.", None),
    ("Sven", "I'm a line cook at Nopa.", "I'm the sous chef at Nopa now.", "line cook"),
    ("Greta", "I work at Spotify in Stockholm.", "I transferred to Spotify's London office.", "Stockholm"),
]


def _fill(t: str, v: dict) -> str:
    for k, x in v.items():
        t = t.replace("{" + k + "}", x)
    return t


def _values(rng: random.Random) -> dict:
    v = {}
    for k, pool in VALS.items():
        a, b = rng.sample(pool, 2)
        v[k], v[k + "2"] = a, b
    v["subj2"] = v["subj2"] if "subj2" in v else rng.choice(VALS["subj"])
    return v


def build() -> list[dict]:
    rng = random.Random(1919)
    out, seen = [], set()

    def case(cat, name, first, last, stale, expect, n):
        key = (first, last)
        if key in seen:
            return
        seen.add(key)
        out.append({
            "id": f"{cat[:2]}-{n:03d}", "category": cat, "speaker": name,
            "turns": [
                {"speaker": name, "content": first, "reference_time": "2024-03-04T10:00:00Z"},
                {"speaker": name, "content": last, "reference_time": "2024-06-18T18:30:00Z"},
            ],
            "subject": name, "attribute": None, "stale": stale or None, "current": [],
            "expect_supersession": expect,
        })

    n = 0
    while sum(c["category"] == "multi_valued_addition" for c in out) < 120:
        f, l, pool = rng.choice(ADDITIONS)
        a, b = rng.sample(pool, 2)
        n += 1
        case("multi_valued_addition", rng.choice(NAMES), f.format(a=a), l.format(b=b), None, False, n)
    n = 0
    while sum(c["category"] == "unrelated_same_subject" for c in out) < 120:
        f, l = rng.choice(UNRELATED)
        v = _values(rng)
        n += 1
        case("unrelated_same_subject", rng.choice(NAMES), _fill(f, v), _fill(l, v), None, False, n)
    n = 0
    tries = 0
    while sum(c["category"] == "contradiction_unregistered" for c in out) < 90 and tries < 5000:
        tries += 1
        f, l, stale = rng.choice(CONTRA)
        v = _values(rng)
        n += 1
        case("contradiction_unregistered", rng.choice(NAMES), _fill(f, v), _fill(l, v),
             _fill(stale, v), True, n)
    for n, (name, first, last, stale) in enumerate(KEPT, 1):
        case("value_kept_other_change", name, first, last, stale, stale is not None, n)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    cases = build()
    if a.check:
        return write_or_check(OUT, cases, check=True)
    write_or_check(OUT, cases, check=False)
    print(f"wrote {len(cases)} cases to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
