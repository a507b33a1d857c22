"""Build eval/data/nli_public_templates.jsonl: a held-out NLI set from public templates.

Issue 19 asks for held-out pairs "written from public relation templates, not
from the training templates". No sentence frame here comes from this
project's generators (``midas_graph/models/revision_pairs.py``,
``contrast_pairs.py``); the words and frames come from:

- **ParaRel** (Elazar et al., 2021, "Measuring and Improving Consistency in
  Pretrained Language Models"; MIT licence), English patterns as republished
  in mParaRel (``coastalcph/mpararel``, ``data/mpararel_reviewed/patterns/en``):
  several crowd-checked paraphrases per Wikidata relation, e.g. P19
  "[X] was born in [Y]" / "[X] is originally from [Y]". Only full-clause
  patterns are used (fragments like "[X], who works for [Y]" are left out),
  and none that a training template also says (P108 "[X] works for [Y]",
  P159 "[X] is based in [Y]", P127 "[X] is owned by [Y]", ... were dropped
  for that; ``tests/test_models.py`` checks it); the negated forms are those
  clauses with "not" inserted, nothing else. P279 "[X] is a subclass of
  [Y]" comes from the original ParaRel repository (``yanaiela/pararel``,
  ``data/pattern_data/graphs_json/P279.jsonl``, MIT).
  Subjects and objects are T-REx labels from the same release's tuples
  (Wikidata, CC0), a sample of them.
- **WordNet 3.0** direct adjective antonyms (Princeton University, WordNet
  licence), as listed in ``nlp-compromise/wordnet.js``
  ``build/antonyms/antonym_list.js``: open/shut, cheap/expensive, ...
- **Wikidata property labels** (CC0) for numbers and dates: "date of
  birth" (P569), "population" (P1082), ... in the frames "[X]'s [label] is
  [Y]" and "the [label] of [X] is [Y]".

Kinds and labels (this project's convention: a new value of a single-valued
relation, or its negation, contradicts; another subject or another relation
is neutral; the same fact in other words is entailment):

| kind | label |
|---|---|
| new_value: same subject and relation, another object | contradiction |
| paraphrase: same triple, another pattern | entailment |
| negation (either position): the triple and its negated clause | contradiction |
| negation_other_value: "X is not employed by A" / "X works for B" | neutral |
| negation_other_subject | neutral |
| antonym: same subject, WordNet antonym | contradiction |
| antonym_other_subject | neutral |
| role_swap of an antisymmetric relation (part of, owned by) | contradiction |
| role_swap of a symmetric relation (shares border with) | entailment |
| other_subject: same relation, another subject (and object) | neutral |
| other_relation: same subject, another relation | neutral |
| multi_valued_addition: languages used, instruments, memberships | neutral |
| number_date_new_value | contradiction |
| number_date_same_value: the same number or date written differently | entailment |
| number_date_other_subject | neutral |

    python eval/make_nli_public_set.py          # rewrites the JSONL (deterministic)
    python eval/make_nli_public_set.py --check  # exits 1 if the file differs
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent))
from jsonl_file import write_or_check  # noqa: E402

OUT = Path(__file__).resolve().parent / "data" / "nli_public_templates.jsonl"
SEED = 19

# ---------------------------------------------------------------- ParaRel
# relation: (patterns as (positive, negated) clauses, functional?)
REL = {
    "P19": ([("[X] was born in [Y]", "[X] was not born in [Y]"),
             ("[X] is originally from [Y]", "[X] is not originally from [Y]"),
             ("[X] is native to [Y]", "[X] is not native to [Y]"),
             ("[X] originates from [Y]", "[X] does not originate from [Y]"),
             ("[X] was originally from [Y]", "[X] was not originally from [Y]")], True),
    "P20": ([("[X] died in [Y]", "[X] did not die in [Y]"),
             ("[X] passed away in [Y]", "[X] did not pass away in [Y]"),
             ("[X]'s life ended in [Y]", "[X]'s life did not end in [Y]")], True),
    "P103": ([("the native language of [X] is [Y]", "the native language of [X] is not [Y]"),
              ("the mother tongue of [X] is [Y]", "the mother tongue of [X] is not [Y]"),
              ("[Y] is [X]'s mother tongue", "[Y] is not [X]'s mother tongue"),
              ("[Y] is [X]'s native language", "[Y] is not [X]'s native language")], True),
    "P159": ([("[X]'s headquarters are in [Y]", "[X]'s headquarters are not in [Y]"),
              ("the headquarters of [X] is in [Y]", "the headquarters of [X] is not in [Y]"),
              ("the headquarter of [X] is located in [Y]",
               "the headquarter of [X] is not located in [Y]")], True),
    "P36": ([("the capital of [X] is [Y]", "the capital of [X] is not [Y]"),
             ("[X]'s capital city is [Y]", "[X]'s capital city is not [Y]"),
             ("[Y] is the capital of [X]", "[Y] is not the capital of [X]"),
             ("the capital city of [X] is [Y]", "the capital city of [X] is not [Y]")], True),
    "P264": ([("[X]'s record label is [Y]", "[X]'s record label is not [Y]"),
              ("[X] is represented by music label [Y]", "[X] is not represented by music label [Y]"),
              ("[X]'s music label is [Y]", "[X]'s music label is not [Y]")], True),
    "P740": ([("[X] was founded in [Y]", "[X] was not founded in [Y]"),
              ("[X] was formed in [Y]", "[X] was not formed in [Y]"),
              ("[X] was created in [Y]", "[X] was not created in [Y]")], True),
    "P1303": ([("[X] plays [Y]", "[X] does not play [Y]"),
               ("[X] plays the [Y]", "[X] does not play the [Y]"),
               ("[X] is a [Y] player", "[X] is not a [Y] player")], False),
    "P1412": ([("[X] communicated in [Y]", "[X] did not communicate in [Y]"),
               ("[X] used [Y] to communicate", "[X] did not use [Y] to communicate")], False),
    "P463": ([("[X] is affiliated with [Y]", "[X] is not affiliated with [Y]"),
              ("[X] belongs to the organization of [Y]",
               "[X] does not belong to the organization of [Y]")], False),
    "P361": ([("[X] is a part of [Y]", "[X] is not a part of [Y]")], True),
    "P279": ([("[X] is a subclass of [Y]", "[X] is not a subclass of [Y]")], True),
    "P47": ([("[X] shares its border with [Y]", "[X] does not share its border with [Y]"),
             ("[X] shares a common border with [Y]", "[X] does not share a common border with [Y]"),
             ("[X] borders with [Y]", "[X] does not border with [Y]")], False),
}

# ------------------------------------------------- T-REx labels (a sample)
PEOPLE = ["Steve Wozniak", "Satya Nadella", "Jeremy Paxman", "Grady Booch", "Marissa Mayer",
          "Brian Krzanich", "Satoru Iwata", "Gwen Ifill", "Keith Olbermann", "Chris Bangle",
          "Allan Peiper", "Anthony Barber", "Moe Koffman", "Kurt Schwertsik", "Claude Arrieu",
          "Henry Heras", "Yeung Sum", "Sajjad Ali", "Brian Boyd", "Guy Deghy", "John Brumby",
          "Masako Natsume", "Henry Mayhew", "Natalie Lowe", "Ilari Sahamies", "Nam June Paik",
          "Elise Broach", "Catherine Tasca", "Ludwig Marcuse", "Jam Hsiao", "Kjell Olofsson",
          "Rita Montaner", "Claudio Coello", "Wade Cunningham", "Dick Bruna", "Yvonne Blake",
          "Catherine Day", "Marta Abba", "Carlos Baute", "Joan Dickson", "Heikki Siren",
          "Amol Palekar", "Carsten Dahl", "Nikolaus Dumba", "Christina Rossetti"]
CITIES = ["Vienna", "Paris", "Toronto", "Barcelona", "Rome", "Lahore", "Florence", "Belfast",
          "Budapest", "Odessa", "Melbourne", "Lyon", "Tokyo", "London", "Montreal", "Sydney",
          "Helsinki", "Seoul", "Detroit", "Bangkok", "Madrid", "Bristol", "Glasgow", "Houston",
          "Milan", "Tehran", "Atlanta", "Shanghai", "Berlin", "Taipei", "Gothenburg", "Boston",
          "Havana", "Verona", "Auckland", "Chicago", "Denver", "Utrecht", "Granada",
          "Strasbourg", "Copenhagen", "Amsterdam", "Naples", "Beirut", "Manchester", "Dublin",
          "Warsaw", "Seattle", "Karachi", "Stockholm", "Mumbai", "Edinburgh", "Caracas"]
ORGS = ["Chandos Records", "Stelco", "OMERS", "Infogrames", "Peroni Brewery", "Cineflix",
        "Redpath Sugar", "Overkill Software", "Edipresse", "Jimdo", "Irish Ferries",
        "SBS Transit", "DNB Bank", "Dynegy", "Day Software", "Kemira", "Beacon Press", "Kroger",
        "Halliburton", "Belavia", "Dangote Cement", "Zotac", "Acne Studios", "Getlink",
        "Baker McKenzie", "Jisc", "Deutsche Post AG", "Asprey", "Palfinger", "Cambridge United F.C."]
MUSICIANS = ["Kenny G", "Walter Parazaider", "Scott Klopfenstein", "Stuart Duncan",
             "Frederick Grinke", "Nigel Pulsford", "Maurice Vieux", "Bobby Militello",
             "Don Grolnick", "Herbie Nichols", "Toots Thielemans", "Bill Pearce", "Carla Bley",
             "Joe Pass", "Maud Powell", "Nita Strauss", "Emanuel Ax", "Emmanuel Pahud",
             "Isaac Stern", "Leonard Rose", "Otis Spann", "Ralph Stanley", "Tabea Zimmermann",
             "Victor Salvi", "Susan Milan", "Pete Fountain", "Manu Dibango", "Andy Statman"]
INSTRUMENTS = ["saxophone", "trumpet", "fiddle", "violin", "guitar", "viola", "piano",
               "trombone", "clarinet", "harp", "flute", "harmonica", "cello", "banjo",
               "synthesizer", "mandolin"]
LABELS_REC = ["Columbia Records", "Blue Note", "Decca", "EMI", "Motown", "Atlantic Records",
              "Deutsche Grammophon", "Verve Records", "Island Records", "Sub Pop"]
LANGS = ["French", "English", "Spanish", "German", "Italian", "Russian", "Dutch", "Swedish",
         "Polish", "Portuguese", "Japanese", "Arabic", "Hindi", "Greek", "Turkish", "Finnish"]
COUNTRIES_CAP = [("Peru", "Lima"), ("Kenya", "Nairobi"), ("Norway", "Oslo"),
                 ("Hungary", "Budapest"), ("Chile", "Santiago"), ("Portugal", "Lisbon"),
                 ("Austria", "Vienna"), ("Ireland", "Dublin"), ("Finland", "Helsinki"),
                 ("Egypt", "Cairo"), ("Greece", "Athens"), ("Poland", "Warsaw"),
                 ("Cuba", "Havana"), ("Lebanon", "Beirut"), ("Denmark", "Copenhagen")]
PART_OF = [("South Asia", "Asia"), ("arithmetic", "mathematics"), ("zoology", "biology"),
           ("Asia", "Earth"), ("Central Asia", "Asia"), ("the New Testament", "the Bible"),
           ("Honshu", "Japan"), ("Leviticus", "the Torah"), ("topology", "mathematics"),
           ("number theory", "mathematics"), ("ecology", "biology"), ("Germany", "Europe"),
           ("the runway", "the airport"), ("biochemistry", "chemistry"),
           ("Western Europe", "Europe"), ("horticulture", "agriculture"), ("Mount Etna", "Sicily"),
           ("the Nile Delta", "the Nile"), ("syntax", "linguistics"), ("Xbox", "Microsoft"),
           ("the Linux kernel", "Linux"), ("Tunisia", "Africa"), ("Iran", "Asia"),
           ("organic chemistry", "chemistry"), ("Denmark", "Scandinavia")]
SUBCLASS = [("sonnet", "poem"), ("oak", "tree"), ("espresso", "coffee"), ("sedan", "car"),
            ("violin", "string instrument"), ("haiku", "poem"), ("sparrow", "bird"),
            ("granite", "rock"), ("tango", "dance"), ("cello", "string instrument"),
            ("salmon", "fish"), ("polka", "dance")]
BORDERS = [("France", "Spain"), ("Germany", "Poland"), ("Canada", "the United States"),
           ("Peru", "Chile"), ("Kenya", "Uganda"), ("Norway", "Sweden"), ("Portugal", "Spain"),
           ("India", "Nepal"), ("Austria", "Hungary"), ("Chile", "Argentina"),
           ("Belgium", "the Netherlands"), ("Finland", "Russia")]
GROUPS = ["the Royal Society", "the European Broadcasting Union", "NATO", "the African Union",
          "the Académie française", "FIFA", "the Hanseatic League", "the United Nations",
          "the Commonwealth of Nations", "the Council of Europe"]

# ---------------------------------------------------------------- WordNet
# (adjective, its WordNet antonym, subjects it fits)
ANTONYMS_WN = [
    ("open", "shut", ["the museum", "the border crossing", "the bakery", "the shop"]),
    ("expensive", "cheap", ["the hotel", "the ticket", "the restaurant", "the flat"]),
    ("tidy", "untidy", ["the office", "the garden", "the kitchen"]),
    ("optimistic", "pessimistic", ["the minister", "the coach", "the investor"]),
    ("indoor", "outdoor", ["the pool", "the market", "the concert"]),
    ("clean", "dirty", ["the river", "the beach", "the water"]),
    ("effective", "ineffective", ["the treatment", "the vaccine", "the campaign"]),
    ("curable", "incurable", ["the disease", "the infection"]),
    ("on-line", "off-line", ["the server", "the archive", "the database"]),
    ("scheduled", "unscheduled", ["the stop", "the maintenance", "the flight"]),
    ("solved", "unsolved", ["the case", "the puzzle", "the problem"]),
    ("expired", "unexpired", ["the passport", "the licence", "the warranty"]),
    ("furnished", "unfurnished", ["the flat", "the apartment", "the house"]),
    ("contaminated", "uncontaminated", ["the well", "the sample", "the soil"]),
    ("malignant", "benign", ["the tumour", "the growth"]),
    ("lucky", "unlucky", ["the goalkeeper", "the driver", "the team"]),
    ("accurate", "inaccurate", ["the map", "the forecast", "the report"]),
    ("predictable", "unpredictable", ["the weather", "the outcome", "the market"]),
    ("toxic", "nontoxic", ["the paint", "the mushroom", "the glue"]),
    ("valuable", "worthless", ["the painting", "the coin", "the stamp"]),
    ("handmade", "machine-made", ["the rug", "the shoes", "the violin"]),
    ("high-rise", "low-rise", ["the building", "the tower block"]),
    ("exact", "inexact", ["the figure", "the estimate"]),
    ("loving", "unloving", ["the father", "the mother"]),
    ("meaningful", "meaningless", ["the result", "the gesture"]),
]

# ------------------------------------------------------- Wikidata labels
NUMBER_PROPS = [  # (label, subjects, value maker)
    ("date of birth", "person"), ("date of death", "person"),
    ("inception", "org"), ("population", "city"), ("number of employees", "org"),
    ("elevation above sea level", "city"), ("total revenue", "org"), ("height", "person"),
]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def _date(rng):
    y, m, d = rng.randint(1890, 1995), rng.randrange(12), rng.randint(1, 28)
    return (y, m, d)


def _date_txt(v, style):
    y, m, d = v
    return [f"{d} {MONTHS[m]} {y}", f"{MONTHS[m]} {d}, {y}", f"{y}-{m + 1:02d}-{d:02d}"][style]


def _num_value(label, rng):
    if label in ("date of birth", "date of death", "inception"):
        return ("date", _date(rng))
    if label == "population":
        return ("int", rng.randint(20, 900) * 1000 + rng.randint(0, 999))
    if label == "number of employees":
        return ("int", rng.randint(120, 90000))
    if label == "elevation above sea level":
        return ("m", rng.randint(2, 2400))
    if label == "total revenue":
        return ("usd", rng.randint(12, 950))
    return ("cm", rng.randint(150, 200))


def _num_txt(v, style):
    kind, x = v
    if kind == "date":
        return _date_txt(x, style % 3)
    if kind == "int":
        return [f"{x:,}", f"{x}", f"{x:,}"][style % 3]
    if kind == "m":
        return [f"{x} metres", f"{x} m", f"{x} meters"][style % 3]
    if kind == "usd":
        return [f"{x} million US dollars", f"${x} million", f"US${x} million"][style % 3]
    return [f"{x} cm", f"{x / 100:.2f} m", f"{x} centimetres"][style % 3]


def _num_sentence(label, subj, val, rng, style):
    frame = rng.choice(["[X]'s [P] is [Y]", "the [P] of [X] is [Y]"])
    return frame.replace("[X]", subj).replace("[P]", label).replace("[Y]", _num_txt(val, style))


# ---------------------------------------------------------------- helpers

def _fill(p, x, y):
    return p.replace("[X]", x).replace("[Y]", y)


def _sent(s):
    s = s[0].upper() + s[1:]
    return s if s.endswith(".") else s + "."


def _pool(rel):
    """(subjects, objects) for a relation."""
    return {
        "P19": (PEOPLE, CITIES), "P20": (PEOPLE, CITIES),
        "P103": (PEOPLE, LANGS), "P159": (ORGS, CITIES),
        "P36": ([c for c, _ in COUNTRIES_CAP], [k for _, k in COUNTRIES_CAP]),
        "P264": (MUSICIANS, LABELS_REC), "P740": (ORGS, CITIES), "P1303": (MUSICIANS, INSTRUMENTS),
        "P1412": (PEOPLE, LANGS), "P463": (PEOPLE, GROUPS),
    }[rel]


def _triple(rel, rng):
    subs, objs = _pool(rel)
    return rng.choice(subs), rng.choice(objs)


def build() -> list[dict]:
    rng = random.Random(SEED)
    out: list[dict] = []
    seen: set[tuple[str, str]] = set()

    def add(p, h, label, kind, rel):
        p, h = _sent(p), _sent(h)
        if (p.lower(), h.lower()) in seen or p.lower() == h.lower():
            return False
        seen.add((p.lower(), h.lower()))
        out.append({"premise": p, "hypothesis": h, "label_name": label, "kind": kind,
                    "relation": rel})
        return True

    functional = ["P19", "P20", "P103", "P159", "P36", "P264", "P740"]
    multi = ["P1303", "P1412", "P463"]

    def n_of(kind, n, fn):
        got, tries = 0, 0
        while got < n and tries < n * 40:
            tries += 1
            got += bool(fn())

    def new_value():
        rel = rng.choice(functional)
        pats = REL[rel][0]
        x, y1 = _triple(rel, rng)
        y2 = rng.choice([o for o in _pool(rel)[1] if o != y1])
        if rel == "P36":
            x, y1 = rng.choice(COUNTRIES_CAP)
            y2 = rng.choice([k for _, k in COUNTRIES_CAP if k != y1])
        (p1, _), (p2, _) = rng.choice(pats), rng.choice(pats)
        return add(_fill(p1, x, y1), _fill(p2, x, y2), "contradiction", "new_value", rel)

    def paraphrase():
        rel = rng.choice(functional + multi)
        pats = REL[rel][0]
        if len(pats) < 2:
            return False
        x, y = _triple(rel, rng)
        if rel == "P36":
            x, y = rng.choice(COUNTRIES_CAP)
        (p1, _), (p2, _) = rng.sample(pats, 2)
        return add(_fill(p1, x, y), _fill(p2, x, y), "entailment", "paraphrase", rel)

    def negation():
        rel = rng.choice(functional + multi)
        x, y = _triple(rel, rng)
        if rel == "P36":
            x, y = rng.choice(COUNTRIES_CAP)
        pos, neg = rng.choice(REL[rel][0])
        a, b = _fill(pos, x, y), _fill(neg, x, y)
        if rng.random() < 0.5:
            return add(b, a, "contradiction", "negation_in_premise", rel)
        return add(a, b, "contradiction", "negation_in_hypothesis", rel)

    def negation_other_value():
        rel = rng.choice(functional)
        if rel == "P36":
            return False
        x, y1 = _triple(rel, rng)
        y2 = rng.choice([o for o in _pool(rel)[1] if o != y1])
        (_, neg), (pos, _) = rng.choice(REL[rel][0]), rng.choice(REL[rel][0])
        a, b = _fill(neg, x, y1), _fill(pos, x, y2)
        if rng.random() < 0.5:
            a, b = b, a
        return add(a, b, "neutral", "negation_other_value", rel)

    def negation_other_subject():
        rel = rng.choice(functional + multi)
        if rel == "P36":
            return False
        subs, objs = _pool(rel)
        x1, x2 = rng.sample(subs, 2)
        y = rng.choice(objs)
        (pos, _), (_, neg) = rng.choice(REL[rel][0]), rng.choice(REL[rel][0])
        a, b = _fill(pos, x1, y), _fill(neg, x2, y)
        if rng.random() < 0.5:
            a, b = b, a
        return add(a, b, "neutral", "negation_other_subject", rel)

    def antonym():
        a1, a2, subs = rng.choice(ANTONYMS_WN)
        s = rng.choice(subs)
        if rng.random() < 0.5:
            a1, a2 = a2, a1
        return add(f"{s} is {a1}", f"{s} is {a2}", "contradiction", "antonym", "wordnet")

    def antonym_other():
        a1, a2, subs = rng.choice(ANTONYMS_WN)
        if len(subs) < 2:
            return False
        s1, s2 = rng.sample(subs, 2)
        return add(f"{s1} is {a1}", f"{s2} is {a2}", "neutral", "antonym_other_subject", "wordnet")

    def role_swap():
        r = rng.random()
        if r < 0.4:
            x, y = rng.choice(PART_OF)
            p1, p2 = rng.choice(REL["P361"][0])[0], rng.choice(REL["P361"][0])[0]
            return add(_fill(p1, x, y), _fill(p2, y, x), "contradiction", "role_swap_antisymmetric",
                       "P361")
        if r < 0.6:
            x, y = rng.choice(SUBCLASS)
            p1 = REL["P279"][0][0][0]
            return add(_fill(p1, x, y), _fill(p1, y, x), "contradiction",
                       "role_swap_antisymmetric", "P279")
        x, y = rng.choice(BORDERS)
        p1, p2 = rng.choice(REL["P47"][0])[0], rng.choice(REL["P47"][0])[0]
        return add(_fill(p1, x, y), _fill(p2, y, x), "entailment", "role_swap_symmetric", "P47")

    def other_subject():
        rel = rng.choice(functional + multi)
        if rel == "P36":
            (x1, y1), (x2, y2) = rng.sample(COUNTRIES_CAP, 2)
        else:
            subs, objs = _pool(rel)
            x1, x2 = rng.sample(subs, 2)
            y1 = rng.choice(objs)
            y2 = y1 if rng.random() < 0.4 else rng.choice(objs)
        (p1, _), (p2, _) = rng.choice(REL[rel][0]), rng.choice(REL[rel][0])
        return add(_fill(p1, x1, y1), _fill(p2, x2, y2), "neutral", "other_subject", rel)

    def other_relation():
        person_rels = ["P19", "P20", "P103", "P1412", "P463"]
        r1, r2 = rng.sample(person_rels, 2)
        x = rng.choice(PEOPLE)
        y1, y2 = rng.choice(_pool(r1)[1]), rng.choice(_pool(r2)[1])
        if r1 in ("P19", "P20") and r2 in ("P19", "P20"):
            return False
        (p1, _), (p2, _) = rng.choice(REL[r1][0]), rng.choice(REL[r2][0])
        return add(_fill(p1, x, y1), _fill(p2, x, y2), "neutral", "other_relation", f"{r1}+{r2}")

    def addition():
        rel = rng.choice(multi)
        subs, objs = _pool(rel)
        x = rng.choice(subs)
        y1, y2 = rng.sample(objs, 2)
        (p1, _), (p2, _) = rng.choice(REL[rel][0]), rng.choice(REL[rel][0])
        return add(_fill(p1, x, y1), _fill(p2, x, y2), "neutral", "multi_valued_addition", rel)

    def _num_subj(label):
        kind = dict(NUMBER_PROPS)[label]
        return rng.choice({"person": PEOPLE, "org": ORGS, "city": CITIES}[kind])

    def num_new():
        label = rng.choice([l for l, _ in NUMBER_PROPS])
        x = _num_subj(label)
        v1, v2 = _num_value(label, rng), _num_value(label, rng)
        if v1 == v2:
            return False
        return add(_num_sentence(label, x, v1, rng, rng.randrange(3)),
                   _num_sentence(label, x, v2, rng, rng.randrange(3)),
                   "contradiction", "number_date_new_value", label)

    def num_same():
        label = rng.choice([l for l, _ in NUMBER_PROPS])
        x = _num_subj(label)
        v = _num_value(label, rng)
        s1, s2 = rng.sample(range(3), 2)
        if _num_txt(v, s1) == _num_txt(v, s2):
            return False
        return add(_num_sentence(label, x, v, rng, s1), _num_sentence(label, x, v, rng, s2),
                   "entailment", "number_date_same_value", label)

    def num_other():
        label = rng.choice([l for l, _ in NUMBER_PROPS])
        x1 = _num_subj(label)
        x2 = _num_subj(label)
        if x1 == x2:
            return False
        v1, v2 = _num_value(label, rng), _num_value(label, rng)
        return add(_num_sentence(label, x1, v1, rng, rng.randrange(3)),
                   _num_sentence(label, x2, v2, rng, rng.randrange(3)),
                   "neutral", "number_date_other_subject", label)

    for kind, n, fn in [("new_value", 200, new_value), ("paraphrase", 150, paraphrase),
                        ("negation", 160, negation), ("negation_other_value", 60, negation_other_value),
                        ("negation_other_subject", 60, negation_other_subject),
                        ("antonym", 100, antonym), ("antonym_other_subject", 50, antonym_other),
                        ("role_swap", 100, role_swap), ("other_subject", 150, other_subject),
                        ("other_relation", 150, other_relation), ("addition", 80, addition),
                        ("num_new", 100, num_new), ("num_same", 50, num_same),
                        ("num_other", 50, num_other)]:
        n_of(kind, n, fn)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the file is not up to date")
    a = ap.parse_args(argv)
    rows = build()
    if a.check:
        return write_or_check(OUT, rows, check=True)
    write_or_check(OUT, rows, check=False)
    from collections import Counter
    print(f"wrote {len(rows)} pairs to {OUT}")
    print(Counter(r["kind"] for r in rows))
    print(Counter(r["label_name"] for r in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
