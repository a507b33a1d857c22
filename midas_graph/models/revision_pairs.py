"""Generated memory-revision pairs for training and judging the NLI model.

SNLI describes one photo per pair, so it calls an *unrelated* hypothesis a
contradiction. Memory revision needs the opposite reading: two statements
about the same person that concern different things are neutral, a new value
for the same single-valued attribute is a contradiction, a paraphrase is an
entailment, and an addition to a multi-valued attribute ("I also speak
Spanish") is not a contradiction. This module writes such pairs from
templates with varied wording (subjects, pronouns, tenses, names, numbers,
dates, companies, cities, projects, metrics).

Every template belongs to one *family* (an attribute domain and its own
wording). Families are split in two: ``train`` families feed training (and,
with another seed, the validation split used to choose the threshold);
``heldout`` families are never seen in training and serve only to judge the
model. Held-out families also draw people's names from their own pool.

Labels follow the model's output order: 0 entailment, 1 neutral,
2 contradiction. ``kind`` says which relation produced the pair.

Usage::

    from midas_graph.models.revision_pairs import generate
    pairs = generate(30000, split="train", seed=1)

    python -m midas_graph.models.revision_pairs --split heldout -n 20 --seed 3
"""

from __future__ import annotations

import argparse
import json
import random
import re
from dataclasses import asdict, dataclass, field
from typing import Callable, Sequence

__all__ = [
    "LABELS",
    "CANONICAL_PAIRS",
    "Pair",
    "FAMILIES",
    "family_names",
    "generate",
]

LABELS = ("entailment", "neutral", "contradiction")
ENT, NEU, CON = 0, 1, 2


@dataclass(frozen=True)
class Pair:
    premise: str
    hypothesis: str
    label: int
    family: str
    kind: str

    def to_json(self) -> dict:
        d = asdict(self)
        d["label_name"] = LABELS[self.label]
        return d


# --------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------

_NAMES_F_TRAIN = """Alice Maria Sofia Emma Olivia Hannah Chloe Priya Aisha Yuki Elena Laura
Nina Sara Julia Lena Mei Fatima Grace Zoe Ingrid Carmen Amara Leila Rosa Ana Keiko Ava
Isabel Noor""".split()
_NAMES_M_TRAIN = """Tom David Lucas Omar Ben Daniel Marco Raj Kenji Luis Jonas Felix
Ahmed Samuel Leo Noah Ivan Mateo Hugo Arjun Kwame Pablo Erik Yusuf Tariq Max Oscar Wei
Theo Adam""".split()
_NAMES_F_HELD = """Beatrice Harriet Dagny Solveig Marisol Ottilie Wren Imogen Paloma
Rukmini Tamsin Linnea""".split()
_NAMES_M_HELD = """Bartholomew Cedric Dmitri Fergus Horatio Ignatius Lorcan Piotr
Rupert Thaddeus Ulrich Wendell""".split()
_SURNAMES = """Chen Garcia Smith Müller Rossi Nakamura Okafor Patel Kowalski Dubois
Silva Novak Jensen Haddad Kim Ortiz Schmidt Brown Lopez Ivanova Tanaka Costa Weber
Nguyen Fischer Moreau Khan Larsen Russo Bauer""".split()

_CITIES = """Berlin Paris London Lisbon Porto Madrid Barcelona Rome Milan Vienna Prague
Warsaw Amsterdam Rotterdam Brussels Copenhagen Stockholm Oslo Helsinki Dublin Edinburgh
Manchester Munich Hamburg Zurich Geneva Budapest Athens Istanbul Cairo Nairobi Lagos
Toronto Montreal Vancouver Boston Chicago Seattle Denver Austin Portland Atlanta Miami
Tokyo Osaka Seoul Singapore Sydney Melbourne Auckland Mumbai Bangalore Delhi Dubai
Lima Bogota Santiago Kyoto Taipei Hanoi Bangkok Jakarta Manila Krakow Tallinn Riga
Vilnius Seville Valencia Lyon Marseille Bordeaux Leeds Bristol Glasgow Phoenix""".split() + [
    "Mexico City", "Buenos Aires", "Sao Paulo", "Cape Town", "New York", "San Francisco",
    "Los Angeles", "Hong Kong", "Tel Aviv", "Rio de Janeiro"]

_COMPANIES = """Google Microsoft Amazon Apple Meta Netflix Spotify Stripe Shopify Adobe
Oracle IBM Intel Siemens SAP Bosch Philips Nokia Ericsson Airbus Zalando Booking.com
Uber Lyft Airbnb Atlassian Salesforce Twilio Datadog Cloudflare GitLab GitHub Mozilla
Canva Klarna Revolut Monzo N26 Deliveroo Wise Figma Notion Slack Dropbox Snowflake
Databricks Accenture Deloitte McKinsey Unilever Nestle Toyota BMW Volkswagen Acme
Globex Initech Hooli""".split() + [
    "Red Hat", "Umbrella Corp", "Vandelay Industries", "Stark Industries",
    "Wayne Enterprises"]

_PROG_LANGS = """Python Rust Go Java Kotlin Scala C++ C# TypeScript JavaScript Ruby PHP Swift
Haskell Elixir Clojure Julia R Zig OCaml Dart Lua Perl F#""".split()
_SPOKEN = """English French Spanish German Italian Portuguese Dutch Swedish Norwegian
Danish Finnish Polish Czech Russian Ukrainian Greek Turkish Arabic Hebrew Hindi Bengali
Japanese Korean Mandarin Cantonese Vietnamese Thai Indonesian Swahili""".split()
_ROLES = ["software engineer", "data scientist", "product manager", "designer",
          "teacher", "nurse", "doctor", "lawyer", "accountant", "architect",
          "journalist", "chef", "pilot", "consultant", "sales manager",
          "engineering manager", "research scientist", "marketing lead",
          "site reliability engineer", "backend developer", "frontend developer",
          "ML engineer", "CTO", "support agent", "recruiter", "pharmacist",
          "civil engineer", "translator", "photographer", "project manager"]
_FOODS = ["pizza", "sushi", "ramen", "tacos", "pasta", "curry", "burgers", "pho",
          "dumplings", "paella", "falafel", "lasagna", "risotto", "kebab", "pad thai",
          "dim sum", "steak", "fish and chips", "biryani", "gnocchi", "burritos",
          "pancakes", "croissants", "ice cream", "chocolate", "cheesecake", "noodles",
          "salad", "bagels", "waffles", "hummus", "goulash"]
_HOBBIES = ["hiking", "running", "swimming", "cycling", "climbing", "chess", "painting",
            "photography", "knitting", "gardening", "yoga", "surfing", "skiing",
            "baking", "birdwatching", "fishing", "dancing", "woodworking", "pottery",
            "board games", "video games", "tennis", "football", "basketball",
            "volleyball", "sailing", "reading", "writing poetry", "camping", "boxing"]
_PETS = ["dog", "cat", "parrot", "rabbit", "hamster", "turtle", "goldfish", "guinea pig",
         "lizard", "snake", "ferret", "horse", "canary", "hedgehog"]
_PET_NAMES = ["Rex", "Luna", "Milo", "Bella", "Charlie", "Coco", "Max", "Nala", "Pepper",
              "Biscuit", "Ziggy", "Olive", "Mochi", "Simba", "Daisy"]
_COLORS = ["blue", "green", "red", "purple", "yellow", "orange", "black", "white",
           "teal", "pink", "grey", "navy", "turquoise", "burgundy", "beige", "gold"]
_PROJECTS = ["Apollo", "Artemis", "Hermes", "Phoenix", "Atlas", "Orion", "Zephyr",
             "Nebula", "Falcon", "Titan", "Mercury", "Gemini", "Polaris", "Aurora",
             "Helios", "Kepler", "Nova", "Pegasus", "Vega", "Lynx", "Comet", "Quasar",
             "Borealis", "Cobalt", "Ember", "Granite", "Harbor", "Juniper", "Maple",
             "Onyx", "Sierra", "Tundra"]
_SERVICES = ["the checkout service", "the search API", "the login endpoint",
             "the payments API", "the recommendation service", "the billing service",
             "the mobile backend", "the auth service", "the image pipeline",
             "the notification service", "the public API", "the data warehouse job",
             "the inventory service", "the order service", "the chat backend"]
_DBS = ["Postgres", "MySQL", "MongoDB", "SQLite", "Cassandra", "DynamoDB",
        "Redis", "Elasticsearch", "ClickHouse", "Snowflake", "BigQuery", "CockroachDB"]
_TOOLS = ["Jira", "Linear", "Trello", "Asana", "Notion", "Confluence", "Figma",
          "Slack", "Teams", "Zoom", "GitHub", "GitLab", "Jenkins", "Docker",
          "Kubernetes", "Terraform", "Excel", "Tableau", "Photoshop", "Blender"]
_EDITORS = ["Vim", "Emacs", "VS Code", "IntelliJ", "PyCharm", "Sublime Text",
            "Neovim", "Xcode", "Eclipse", "Zed", "Helix", "Atom"]
_OSES = ["Linux", "macOS", "Windows", "Ubuntu", "Fedora", "Arch Linux", "Debian"]
_CLOUDS = ["AWS", "Google Cloud", "Azure", "DigitalOcean", "Hetzner", "Heroku",
           "Fly.io", "Vercel", "OVH", "Linode", "our own servers", "Cloudflare"]
_UNIS = ["MIT", "Stanford", "Oxford", "Cambridge", "ETH Zurich", "TU Munich",
         "the University of Tokyo", "McGill", "UCL", "Imperial College", "Sorbonne",
         "the University of Toronto", "KTH", "Delft", "EPFL", "Harvard", "Berkeley",
         "the University of Lisbon", "Heidelberg", "Columbia"]
_INSTRUMENTS = ["piano", "guitar", "violin", "cello", "drums", "flute", "saxophone",
                "trumpet", "bass", "ukulele", "clarinet", "harp", "accordion", "banjo"]
_CARS = ["Toyota Corolla", "Honda Civic", "Tesla Model 3", "VW Golf", "Ford Focus",
         "BMW 3 Series", "Volvo XC60", "Fiat 500", "Mazda 3", "Kia Niro", "Renault Clio",
         "Subaru Outback", "Audi A4", "Nissan Leaf", "Skoda Octavia"]
_TZS = ["CET", "UTC", "Pacific time", "Eastern time", "GMT", "IST", "JST",
        "Central time", "AEST", "BST"]
_CHANNELS = ["email", "Slack", "phone calls", "text messages", "WhatsApp",
             "video calls", "Teams", "Signal"]
_SPORT_TEAMS = ["Arsenal", "Barcelona", "Bayern", "Juventus", "the Lakers", "the Yankees",
                "Ajax", "Celtic", "Benfica", "the Celtics", "Liverpool", "Real Madrid"]
_BOOKS_GENRES = ["sci-fi", "fantasy", "crime novels", "biographies", "poetry",
                 "history books", "thrillers", "romance novels", "comics", "philosophy"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]
_MONTHS_ABBR = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                "Nov", "Dec"]
_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
_TIMES = ["8:30", "9:00", "9:30", "10:00", "10:30", "11:00", "1:00 pm", "2:00 pm",
          "2:30 pm", "3:00 pm", "4:00 pm", "4:30 pm"]
_FILLERS = ["", "", "", "", "", "", "Just so you know, ", "FYI, ", "Update: ",
            "Quick note: ", "By the way, ", "Heads up: ", "Note that ", "For the record, "]


# --------------------------------------------------------------------------
# Subjects
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Subj:
    """A way of referring to a subject inside a sentence."""

    nom: str          # I / she / Alice / Project Apollo
    poss: str         # my / her / Alice's / Project Apollo's
    obj: str          # me / her / Alice
    third: bool       # third person singular verb forms
    key: str          # identity: two Subj with the same key are the same entity
    plural: bool = False


def _person_forms(name: str, female: bool) -> list[Subj]:
    pro = ("she", "her", "her") if female else ("he", "his", "him")
    return [
        Subj(name, name + "'s", name, True, name),
        Subj(pro[0], pro[1], pro[2], True, name),
    ]


def _first_person() -> Subj:
    return Subj("I", "my", "me", False, "I")


def _pick_person(rng: random.Random, held: bool, *, avoid: set[str] = frozenset(),
                 allow_first: bool = True) -> tuple[Subj, list[Subj]]:
    """(how it is first named, other ways to refer to the same person)."""
    r = rng.random()
    if allow_first and "I" not in avoid and r < 0.45:
        s = _first_person()
        return s, [s]
    if allow_first and "we" not in avoid and r < 0.50:
        s = Subj("we", "our", "us", False, "we", plural=True)
        return s, [s]
    if r < 0.60:
        rel = rng.choice(["sister", "brother", "mother", "father", "boss", "colleague",
                          "neighbour", "roommate", "cousin", "friend", "manager",
                          "daughter", "son", "wife", "husband", "partner"])
        owner = rng.choice(["my", "my", "our"])
        key = f"{owner} {rel}"
        if key in avoid:
            rel = "aunt" if rel != "aunt" else "uncle"
            key = f"{owner} {rel}"
        female = rel in {"sister", "mother", "daughter", "wife"} or (
            rel not in {"brother", "father", "son", "husband"} and rng.random() < 0.5)
        s = Subj(key, key + "'s", key, True, key)
        pro = ("she", "her", "her") if female else ("he", "his", "him")
        return s, [s, Subj(pro[0], pro[1], pro[2], True, key)]
    female = rng.random() < 0.5
    pool = (_NAMES_F_HELD if female else _NAMES_M_HELD) if held else (
        _NAMES_F_TRAIN if female else _NAMES_M_TRAIN)
    for _ in range(20):
        name = rng.choice(pool)
        if rng.random() < 0.25:
            name = f"{name} {rng.choice(_SURNAMES)}"
        if name not in avoid:
            break
    forms = _person_forms(name, female)
    if " " in name:
        first = name.split()[0]
        forms.append(Subj(first, first + "'s", first, True, name))
    return forms[0], forms


def _pick_project(rng: random.Random, *, avoid: set[str] = frozenset()) -> tuple[Subj, list[Subj]]:
    for _ in range(20):
        n = rng.choice(_PROJECTS)
        if n not in avoid:
            break
    forms = [
        Subj(n, n + "'s", n, True, n),
        Subj(f"Project {n}", f"Project {n}'s", f"Project {n}", True, n),
        Subj(f"the {n} project", f"the {n} project's", f"the {n} project", True, n),
        Subj(f"the {n} release", f"the {n} release's", f"the {n} release", True, n),
    ]
    first = rng.choice(forms[:3])
    return first, forms


def _pick_service(rng: random.Random, *, avoid: set[str] = frozenset()) -> tuple[Subj, list[Subj]]:
    for _ in range(20):
        n = rng.choice(_SERVICES)
        if n not in avoid:
            break
    s = Subj(n, n + "'s", n, True, n)
    return s, [s, Subj("it", "its", "it", True, n)]


def _pick_company(rng: random.Random, *, avoid: set[str] = frozenset()) -> tuple[Subj, list[Subj]]:
    for _ in range(20):
        n = rng.choice(_COMPANIES)
        if n not in avoid:
            break
    s = Subj(n, n + "'s", n, True, n)
    return s, [s]


_SUBJECT_PICKERS: dict[str, Callable[..., tuple[Subj, list[Subj]]]] = {
    "person": lambda rng, held, avoid=frozenset(): _pick_person(rng, held, avoid=avoid),
    "project": lambda rng, held, avoid=frozenset(): _pick_project(rng, avoid=avoid),
    "service": lambda rng, held, avoid=frozenset(): _pick_service(rng, avoid=avoid),
    "company": lambda rng, held, avoid=frozenset(): _pick_company(rng, avoid=avoid),
}


# --------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------

_ALT = re.compile(r"\{([^{}|]*)\|([^{}|]*)\}")


def _render(tpl: str, s: Subj, slots: dict[str, str], rng: random.Random) -> str:
    """Fill a template. ``{a|b}``: ``a`` for I/we, ``b`` for third person."""

    def alt(m: re.Match) -> str:
        return m.group(2) if s.third else m.group(1)

    text = _ALT.sub(alt, tpl)
    be = "is" if s.third else ("are" if s.plural else "am")
    was = "was" if (s.third or not s.plural) else "were"
    have = "has" if s.third else "have"
    do = "does" if s.third else "do"
    rep = {"S": s.nom, "P": s.poss, "O": s.obj, "BE": be, "WAS": was, "HAVE": have,
           "DO": do}
    rep.update(slots)

    def sub(m: re.Match) -> str:
        k = m.group(1)
        return rep[k] if k in rep else m.group(0)

    text = re.sub(r"\{([A-Z0-9_]+)\}", sub, text)
    # contractions, sometimes
    if rng.random() < 0.3:
        text = (text.replace("I am ", "I'm ").replace("do not ", "don't ")
                .replace("does not ", "doesn't ").replace("is not ", "isn't ")
                .replace("have not ", "haven't ").replace("has not ", "hasn't "))
    text = re.sub(r"\b([Tt]he) the\b", r"\1", text.strip())    # "the {S} team", S = "the X project"
    return re.sub(r"\ba ([aeiouAEIOU])", r"an \1", text)


def _finish(text: str, rng: random.Random, filler: bool = True) -> str:
    """Optional lead-in, capitalisation and final punctuation.

    ``text`` comes from :func:`_render` uncapitalised, so a lead-in keeps
    "my"/"the" in lower case and names as they are.
    """
    f = rng.choice(_FILLERS) if filler else ""
    text = f + text if f else text[0].upper() + text[1:]
    r = rng.random()
    if r < 0.75:
        text += "."
    elif r < 0.8:
        text += "!"
    if rng.random() < 0.04:
        text = text.lower()
    return text


# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------

def _date(rng: random.Random) -> tuple[str, tuple[int, int]]:
    m = rng.randrange(12)
    d = rng.randint(1, 28)
    style = rng.random()
    if style < 0.4:
        txt = f"{_MONTHS[m]} {d}"
    elif style < 0.6:
        txt = f"{d} {_MONTHS[m]}"
    elif style < 0.75:
        txt = f"{_MONTHS_ABBR[m]} {d}"
    elif style < 0.9:
        txt = f"{_MONTHS[m]} {d}, {rng.choice([2024, 2025, 2026, 2027])}"
    else:
        txt = f"{rng.choice([2024, 2025, 2026])}-{m + 1:02d}-{d:02d}"
    return txt, (m, d)


class _Val:
    """Draws distinct values for one family."""

    def __init__(self, draw: Callable[[random.Random], str]):
        self.draw = draw

    def two(self, rng: random.Random) -> tuple[str, str]:
        a = self.draw(rng)
        for _ in range(50):
            b = self.draw(rng)
            if b.lower() != a.lower():
                return a, b
        raise RuntimeError("value pool too small")


def _choice(pool: Sequence[str]) -> _Val:
    return _Val(lambda rng: rng.choice(pool))


def _num(lo: int, hi: int, fmt: str = "{}") -> _Val:
    return _Val(lambda rng: fmt.format(rng.randint(lo, hi)))


def _dates() -> _Val:
    return _Val(lambda rng: _date(rng)[0])


# --------------------------------------------------------------------------
# Families
# --------------------------------------------------------------------------

@dataclass
class Family:
    """One attribute domain with its own wording.

    Templates use ``{S}``/``{P}``/``{O}`` (subject, possessive, object),
    ``{BE}``/``{WAS}``/``{HAVE}``/``{DO}``, ``{a|b}`` for verb agreement,
    ``{V}`` for the value and ``{OLD}`` for the previous value.
    """

    name: str
    subject: str                       # person | project | service | company
    values: _Val
    state: list[str]                   # S has value V (plain statement)
    change: list[str] = field(default_factory=list)   # S now has V (new value)
    stop: list[str] = field(default_factory=list)     # S no longer has V
    add: list[str] = field(default_factory=list)      # multi-valued addition of V
    related: list[str] = field(default_factory=list)  # same domain, compatible
    single: bool = True
    split: str = "train"


def _fam(*a, **k) -> Family:
    return Family(*a, **k)


FAMILIES: list[Family] = [
    # ---------------- person, single-valued ----------------
    _fam("residence", "person", _choice(_CITIES),
         state=["{S} {live|lives} in {V}", "{P} home is in {V}", "{S} {BE} based in {V}",
                "{S} {reside|resides} in {V}", "{S} {live|lives} in {V} these days",
                "{P} place is in {V}", "home for {O} is {V}", "{S} {BE} living in {V}",
                "{P} current city is {V}", "{S} {rent|rents} a flat in {V}"],
         change=["{S} moved to {V}", "{S} {have|has} relocated to {V}",
                 "{S} now {live|lives} in {V}", "these days {S} {live|lives} in {V}",
                 "{S} {BE} now based in {V}", "{S} recently moved to {V}",
                 "{S} just moved from {OLD} to {V}", "{S} left {OLD} and moved to {V}",
                 "{S} {have|has} been living in {V} since last month",
                 "{S} packed up and moved to {V}", "{P} new home is in {V}",
                 "{S} finally settled in {V}"],
         stop=["{S} no longer {live|lives} in {V}", "{S} moved out of {V}",
               "{S} {do|does} not live in {V} anymore", "{S} left {V} for good"],
         related=["{S} visited {V} last week", "{S} {have|has} a conference in {V}",
                  "{S} {BE} flying to {V} for the weekend", "{S} grew up in {V}",
                  "{S} used to live in {V}", "{S} would love to visit {V} someday",
                  "{S} spent a holiday in {V}", "{P} parents live in {V}"]),
    _fam("employer", "person", _choice(_COMPANIES),
         state=["{S} {work|works} at {V}", "{S} {work|works} for {V}", "{P} employer is {V}",
                "{S} {BE} employed by {V}", "{S} {BE} on the payroll at {V}",
                "{S} {have|has} a job at {V}", "{P} company is {V}"],
         change=["{S} joined {V}", "{S} just started a new job at {V}",
                 "{S} now {work|works} at {V}", "{S} switched jobs and {work|works} at {V} now",
                 "{S} left {OLD} for {V}", "{S} accepted an offer from {V} and started this week",
                 "{S} {BE} working for {V} now", "{P} new employer is {V}",
                 "{S} got hired by {V}", "{S} moved from {OLD} to {V}"],
         stop=["{S} quit {P} job at {V}", "{S} no longer {work|works} at {V}",
               "{S} left {V}", "{S} {do|does} not work for {V} anymore",
               "{S} got laid off from {V}", "{S} resigned from {V}"],
         related=["{S} had an interview at {V}", "{S} applied to {V}",
                  "{P} friend works at {V}", "{S} interned at {V} years ago",
                  "{S} {BE} meeting someone from {V} tomorrow", "{S} {use|uses} {V} products a lot",
                  "{S} bought some shares of {V}"]),
    _fam("main_language", "person", _choice(_PROG_LANGS),
         state=["{P} main language is {V}", "{S} mostly {code|codes} in {V}",
                "{P} go-to programming language is {V}", "{S} {write|writes} {V} at work",
                "{P} primary language is {V}", "{S} {do|does} most of {P} coding in {V}",
                "{P} favourite programming language is {V}"],
         change=["{S} switched to {V}", "{S} {have|has} moved from {OLD} to {V}",
                 "{S} now {write|writes} mostly {V}", "{P} main language is now {V}",
                 "{S} rewrote everything in {V} and {use|uses} it for everything now",
                 "{S} dropped {OLD} in favour of {V}", "these days {S} mostly {code|codes} in {V}",
                 "{S} migrated {P} work from {OLD} to {V}"],
         stop=["{S} stopped using {V}", "{S} {do|does} not write {V} anymore",
               "{S} gave up on {V}", "{S} no longer {code|codes} in {V}"],
         related=["{S} {BE} learning {V} on the side", "{S} read a book about {V}",
                  "{S} tried {V} once", "{S} went to a {V} meetup",
                  "{P} colleague loves {V}", "{S} {want|wants} to learn {V} next year"]),
    _fam("job_title", "person", _choice(_ROLES),
         state=["{S} {BE} a {V}", "{P} role is {V}", "{S} {work|works} as a {V}",
                "{P} job title is {V}", "{S} {have|has} the title {V}"],
         change=["{S} got promoted to {V}", "{S} {BE} now a {V}", "{P} new role is {V}",
                 "{S} changed careers and {BE} a {V} now", "{S} became a {V}",
                 "{S} took a new position as {V}", "{S} {BE} working as a {V} these days"],
         stop=["{S} {BE} no longer a {V}", "{S} stopped working as a {V}",
               "{S} quit being a {V}"],
         related=["{S} used to be a {V}", "{P} sister is a {V}", "{S} {BE} interviewing a {V}",
                  "{S} {want|wants} to become a {V} one day"]),
    _fam("age", "person", _num(18, 80),
         state=["{S} {BE} {V} years old", "{S} {BE} {V}", "{P} age is {V}",
                "{S} {BE} {V} years of age"],
         change=["{S} just turned {V}", "{S} {BE} {V} now", "{S} turned {V} last week",
                 "{S} celebrated turning {V}"],
         related=["{P} son is {V}", "{P} apartment is {V} years old",
                  "{S} started working at {V}"]),
    _fam("partner", "person", _choice(_NAMES_F_TRAIN + _NAMES_M_TRAIN),
         state=["{S} {BE} married to {V}", "{P} partner is {V}", "{S} {BE} dating {V}",
                "{P} spouse is {V}", "{S} and {V} are together"],
         change=["{S} {BE} now with {V}", "{P} new partner is {V}",
                 "{S} broke up with {OLD} and {BE} dating {V} now", "{S} married {V} last spring"],
         stop=["{S} {BE} no longer with {V}", "{S} broke up with {V}", "{S} divorced {V}",
               "{S} and {V} split up"],
         related=["{S} had lunch with {V}", "{P} best friend is {V}",
                  "{S} {BE} working with {V} on a project"]),
    _fam("manager", "person", _choice(_NAMES_F_TRAIN + _NAMES_M_TRAIN),
         state=["{P} manager is {V}", "{S} {report|reports} to {V}", "{P} boss is {V}",
                "{V} is {P} line manager"],
         change=["{V} is {P} new manager", "{S} now {report|reports} to {V}",
                 "{S} got a new boss, {V}", "{V} took over as {P} manager",
                 "after the reorg {S} {report|reports} to {V}"],
         stop=["{V} is no longer {P} manager", "{S} {do|does} not report to {V} anymore"],
         related=["{S} had a one-on-one with {V}", "{V} sits next to {O}",
                  "{V} is on {P} team"]),
    _fam("favorite_food", "person", _choice(_FOODS),
         state=["{P} favorite food is {V}", "{P} favourite dish is {V}",
                "{S} {love|loves} {V} more than anything", "nothing beats {V} for {O}",
                "{P} all-time favourite meal is {V}"],
         change=["{P} new favorite food is {V}", "these days {P} favourite dish is {V}",
                 "{P} favorite food is now {V}", "{S} {like|likes} {V} best now"],
         related=["{S} had {V} for dinner", "{S} cooked {V} yesterday",
                  "{S} {BE} trying to eat less {V}"]),
    _fam("phone", "person", _num(1000000, 9999999, "555-{}"),
         state=["{P} phone number is {V}", "{S} can be reached at {V}", "{P} number is {V}",
                "call {O} at {V}"],
         change=["{P} new number is {V}", "{S} changed {P} phone number to {V}",
                 "{P} phone number is now {V}", "{S} got a new phone number: {V}"],
         related=["{P} office line is {V}", "{S} called {V} earlier"]),
    _fam("car", "person", _choice(_CARS),
         state=["{S} {drive|drives} a {V}", "{P} car is a {V}"],
         change=["{S} now {drive|drives} a {V}", "{S} sold {P} {OLD} and bought a {V}",
                 "{P} new car is a {V}", "{S} traded in {P} {OLD} for a {V}"],
         stop=["{S} sold {P} {V}", "{S} no longer {have|has} a {V}",
               "{S} {do|does} not own a {V} anymore"],
         related=["{S} rented a {V} for the trip", "{S} test-drove a {V}",
                  "{P} neighbour drives a {V}"]),
    _fam("timezone", "person", _choice(_TZS),
         state=["{S} {BE} on {V}", "{P} time zone is {V}", "{S} {work|works} in {V}"],
         change=["{S} {BE} on {V} now", "{P} time zone changed to {V}",
                 "{S} switched to {V} after the move"],
         related=["{P} team is mostly on {V}", "the client is on {V}"]),
    # ---------------- person, habits and binary states ----------------
    _fam("habit", "person", single=False, values=_choice([
        "smoke|smokes|smoking", "drink coffee|drinks coffee|drinking coffee",
        "eat meat|eats meat|eating meat", "drink alcohol|drinks alcohol|drinking alcohol",
        "run every morning|runs every morning|running every morning",
        "bike to work|bikes to work|biking to work",
        "play video games|plays video games|playing video games",
        "go to the gym|goes to the gym|going to the gym",
        "eat sugar|eats sugar|eating sugar", "work from home|works from home|working from home",
        "take the bus|takes the bus|taking the bus",
        "use Twitter|uses Twitter|using Twitter"]),
         state=["{S} {V1|V3}", "{S} {V1|V3} every day", "{S} still {V1|V3}",
                "{S} regularly {V1|V3}"],
         stop=["{S} no longer {V1|V3}", "{S} quit {VING}", "{S} stopped {VING}",
               "{S} {do|does} not {V1|V1} anymore", "{S} gave up {VING}",
               "{S} {HAVE} stopped {VING} for good", "{S} {BE} done {VING}",
               "{S} {have|has} not been {VING} since January"],
         related=["{S} {BE} thinking about {VING} less", "{P} doctor mentioned {VING}",
                  "{S} read an article about {VING}"]),
    _fam("diet", "person", _choice(["vegetarian", "vegan", "pescatarian", "gluten-free"]),
         single=False,
         state=["{S} {BE} {V}", "{S} {have|has} been {V} for years", "{S} {eat|eats} a {V} diet",
                "{S} {follow|follows} a {V} diet"],
         stop=["{S} {BE} no longer {V}", "{S} stopped being {V}", "{S} gave up being {V}",
               "{S} {BE} not {V} anymore"],
         related=["{P} sister is {V}", "{S} cooked a {V} meal for friends",
                  "{S} found a good {V} restaurant"]),
    # ---------------- person, multi-valued ----------------
    _fam("languages_spoken", "person", _choice(_SPOKEN), single=False,
         state=["{S} {speak|speaks} {V}", "{S} {BE} fluent in {V}", "{S} can speak {V}",
                "{S} {speak|speaks} {V} at home"],
         add=["{S} also {speak|speaks} {V}", "{S} {speak|speaks} {V} too",
              "{S} {BE} learning {V}", "{S} can also get by in {V}",
              "{S} picked up some {V} as well", "{S} {BE} taking {V} lessons",
              "in addition, {S} {speak|speaks} {V}"],
         stop=["{S} {have|has} forgotten {P} {V}", "{S} can no longer speak {V}",
               "{S} {do|does} not speak {V} anymore"]),
    _fam("hobbies", "person", _choice(_HOBBIES), single=False,
         state=["{S} {enjoy|enjoys} {V}", "{S} {love|loves} {V}", "{P} hobby is {V}",
                "{S} {do|does} {V} on weekends", "{S} {BE} really into {V}"],
         add=["{S} also {enjoy|enjoys} {V}", "{S} took up {V}", "{S} {BE} into {V} too",
              "{S} started {V} recently", "another hobby of {P} is {V}",
              "{S} {like|likes} {V} as well"],
         stop=["{S} gave up {V}", "{S} {do|does} not do {V} anymore",
               "{S} {BE} no longer into {V}", "{S} quit {V}", "{S} lost interest in {V}"]),
    _fam("pets", "person", _choice(_PETS), single=False,
         state=["{S} {have|has} a {V}", "{S} {own|owns} a {V}", "{S} {live|lives} with a {V}",
                "{S} {have|has} a {V} called {PET}"],
         add=["{S} also {have|has} a {V}", "{S} just adopted a {V}", "{S} got a {V} too",
              "{S} brought home a {V} as well"],
         stop=["{S} no longer {have|has} a {V}", "{S} gave away {P} {V}",
               "{S} {do|does} not have a {V} anymore", "{S} rehomed {P} {V}"]),
    _fam("likes", "person", _choice(_FOODS + _BOOKS_GENRES), single=False,
         state=["{S} {like|likes} {V}", "{S} {enjoy|enjoys} {V}", "{S} {BE} a fan of {V}"],
         add=["{S} also {like|likes} {V}", "{S} {like|likes} {V} too",
              "{S} {enjoy|enjoys} {V} as well", "{S} {BE} also a fan of {V}"],
         stop=["{S} {do|does} not like {V} anymore", "{S} {hate|hates} {V}",
               "{S} can not stand {V}", "{S} went off {V}", "{S} {BE} sick of {V} now"]),
    _fam("tools", "person", _choice(_TOOLS), single=False,
         state=["{S} {use|uses} {V} at work", "{S} {work|works} with {V} every day",
                "{P} team relies on {V}"],
         add=["{S} also {use|uses} {V}", "{S} started using {V} as well",
              "{S} {use|uses} {V} for some things too"],
         stop=["{S} stopped using {V}", "{S} no longer {use|uses} {V}",
               "{S} dropped {V}"]),
    _fam("visited", "person", _choice(_CITIES), single=False,
         state=["{S} {have|has} been to {V}", "{S} visited {V} in {YEAR}",
                "{S} travelled to {V} once"],
         add=["{S} {have|has} also been to {V}", "{S} visited {V} as well",
              "{S} went to {V} too"]),
    # ---------------- projects ----------------
    _fam("deadline", "project", _dates(),
         state=["{P} deadline is {V}", "{S} is due on {V}", "{S} ships on {V}",
                "{S} is due {V}", "{S} has to be done by {V}", "the launch of {S} is on {V}",
                "{P} due date is {V}"],
         change=["{P} deadline slipped to {V}", "{P} deadline was moved to {V}",
                 "{S} is now due {V}", "{S} was pushed back to {V}",
                 "{S} got delayed until {V}", "{P} deadline has been brought forward to {V}",
                 "{P} new deadline is {V}", "the launch of {S} moved from {OLD} to {V}",
                 "{S} will now ship on {V}", "{P} deadline changed to {V}"],
         related=["{P} kickoff was on {V}", "the review for {S} is on {V}",
                  "{P} team has a retro on {V}", "{S} had a demo on {V}"]),
    _fam("project_lead", "project", _choice(_NAMES_F_TRAIN + _NAMES_M_TRAIN),
         state=["{V} leads {S}", "{P} tech lead is {V}", "{S} is led by {V}",
                "{V} is in charge of {S}", "{V} owns {S}"],
         change=["{V} took over {S}", "{V} is now in charge of {S}", "{P} new lead is {V}",
                 "{S} is now led by {V}", "{V} replaced {OLD} as the lead of {S}",
                 "{S} was handed over to {V}"],
         stop=["{V} stepped down as lead of {S}", "{V} no longer leads {S}",
               "{V} left {S}"],
         related=["{V} reviewed the design of {S}", "{V} joined {S} as a tester",
                  "{V} asked about {S}"]),
    _fam("project_status", "project", _choice([
        "in planning", "in development", "in beta", "live", "cancelled", "paused",
        "finished", "in private preview"]),
         state=["{S} is {V}", "{P} status is {V}", "{S} is currently {V}"],
         change=["{S} is now {V}", "{P} status changed to {V}", "{S} has become {V}",
                 "as of today {S} is {V}", "{S} went from {OLD} to {V}"],
         related=["{P} sister project is {V}", "the design doc of {S} was {V} last week"]),
    _fam("db", "project", _choice(_DBS),
         state=["{S} stores its data in {V}", "{P} database is {V}", "{S} runs on {V}"],
         change=["{S} migrated to {V}", "{S} moved its data from {OLD} to {V}",
                 "{P} database is now {V}", "{S} switched its storage to {V}"],
         add=["{S} also uses {V} for caching", "{S} added {V} for search"],
         stop=["{S} no longer uses {V}", "{S} dropped {V}"]),
    # ---------------- services and metrics ----------------
    _fam("latency", "service", _num(20, 900),
         state=["{P} response time is {V}ms", "{P} latency is {V} ms",
                "{S} responds in about {V} milliseconds", "{P} response time is {V} ms",
                "response time for {S} is {V}ms"],
         change=["response time for {S} is now {V}ms", "{P} latency dropped to {V} ms",
                 "{P} latency went up to {V}ms", "{S} now responds in {V} milliseconds",
                 "after the fix {P} response time is {V}ms",
                 "{P} latency improved from {OLD}ms to {V}ms"],
         related=["{P} timeout is set to {V}ms", "{P} target is under {V}ms",
                  "the database behind {S} answers in {V}ms"]),
    _fam("error_rate", "service", _Val(lambda r: f"{r.randint(1, 99) / 10:g}"),
         state=["{P} error rate is {V}%", "{S} fails {V}% of requests",
                "about {V}% of calls to {S} fail"],
         change=["{P} error rate is now {V}%", "{P} error rate jumped to {V}%",
                 "{P} error rate fell to {V}%", "{S} now fails {V}% of requests"],
         related=["{P} alert fires above {V}%", "{P} SLO allows {V}% errors"]),
    _fam("version", "service", _Val(lambda r: f"{r.randint(1, 9)}.{r.randint(0, 20)}"),
         state=["{S} runs version {V}", "{P} current version is {V}", "{S} is on v{V}",
                "the deployed version of {S} is {V}"],
         change=["{S} was upgraded to {V}", "{S} now runs {V}", "{S} is on v{V} now",
                 "we rolled {S} forward to {V}", "{S} was rolled back to {V}",
                 "{S} got bumped from {OLD} to {V}"],
         related=["{S} will need version {V} of the SDK", "the changelog for {V} mentions {S}"]),
    # ---------------- companies ----------------
    _fam("hq", "company", _choice(_CITIES),
         state=["{P} headquarters is in {V}", "{S} is headquartered in {V}",
                "{P} main office is in {V}"],
         change=["{S} moved its headquarters to {V}", "{S} relocated its HQ to {V}",
                 "{P} head office is now in {V}", "{S} is now headquartered in {V}"],
         add=["{S} opened a new office in {V}", "{S} also has an office in {V}"],
         related=["{S} is hiring in {V}", "{S} held its conference in {V}"]),
    _fam("price", "company", _num(5, 500, "${}"),
         state=["{P} basic plan costs {V} a month", "{S} charges {V} per seat",
                "the price of {P} subscription is {V}"],
         change=["{S} raised its price to {V}", "{P} basic plan now costs {V} a month",
                 "{S} cut the price to {V} per seat", "the subscription went up from {OLD} to {V}"],
         related=["{S} offers a {V} discount", "{P} competitor charges {V}"]),

    # ---------------- more training families ----------------
    _fam("birthday", "person", _dates(),
         state=["{P} birthday is {V}", "{S} {WAS} born on {V}", "{S} {celebrate|celebrates} {P} birthday on {V}"],
         change=["actually, {P} birthday is {V}", "correction: {S} {WAS} born on {V}"],
         related=["{P} wedding anniversary is {V}", "{S} {have|has} a dentist appointment on {V}",
                  "{S} {BE} flying home on {V}"]),
    _fam("email", "person", _Val(lambda r: f"{r.choice(['a', 'j', 'm', 's', 'k', 'team', 'hello', 'dev'])}"
                                          f"{r.randint(1, 999)}@{r.choice(['gmail.com', 'proton.me', 'acme.io', 'outlook.com', 'example.org'])}"),
         state=["{P} email is {V}", "{S} can be emailed at {V}", "{P} email address is {V}"],
         change=["{P} new email is {V}", "{S} changed {P} email to {V}", "{P} email address is now {V}",
                 "please use {V} for {O} from now on"],
         related=["{S} sent a message to {V}", "{P} assistant's address is {V}"]),
    _fam("address", "person", _Val(lambda r: f"{r.randint(1, 300)} {r.choice(['Elm', 'Oak', 'Maple', 'Church', 'High', 'Park', 'Mill', 'King', 'Station', 'River'])} "
                                             f"{r.choice(['Street', 'Road', 'Avenue', 'Lane', 'Way'])}"),
         state=["{S} {live|lives} at {V}", "{P} address is {V}", "{P} flat is at {V}"],
         change=["{P} new address is {V}", "{S} moved to {V}", "{S} {live|lives} at {V} now",
                 "send {P} mail to {V} from now on"],
         related=["{P} office is at {V}", "{S} parked at {V}", "{P} gym is on {V}"]),
    _fam("salary", "person", _Val(lambda r: f"${r.randint(40, 250)},000"),
         state=["{S} {earn|earns} {V} a year", "{P} salary is {V}", "{S} {make|makes} {V} annually"],
         change=["{S} got a raise to {V}", "{P} salary went up to {V}", "{S} now {earn|earns} {V}",
                 "{P} pay was cut to {V}"],
         related=["{P} bonus was {V}", "{S} {pay|pays} {V} a year in rent",
                  "{S} {BE} saving for a {V} house deposit"]),
    _fam("relationship", "person", _choice(["single", "married", "engaged", "divorced", "in a relationship", "widowed"]),
         state=["{S} {BE} {V}", "{P} relationship status is {V}"],
         change=["{S} {BE} {V} now", "{S} recently became {V}", "{S} {have|has} been {V} since spring"],
         related=["{P} brother is {V}", "{S} went to a wedding last weekend"]),
    _fam("favorite_color", "person", _choice(_COLORS),
         state=["{P} favorite color is {V}", "{P} favourite colour is {V}", "{S} {like|likes} {V} best of all colours"],
         change=["{P} favorite color is now {V}", "{P} new favourite colour is {V}", "{S} {prefer|prefers} {V} these days"],
         related=["{S} painted {P} kitchen {V}", "{S} bought a {V} jacket", "{P} car is {V}"]),
    _fam("height", "person", _num(150, 200, "{} cm"),
         state=["{S} {BE} {V} tall", "{P} height is {V}"],
         change=["{S} {BE} {V} tall now", "{S} grew to {V}"],
         related=["{P} desk is {V} wide", "{S} jumped {V} in the competition"]),
    _fam("kids", "person", _num(2, 6),
         state=["{S} {have|has} {V} kids", "{S} {have|has} {V} children", "{S} {BE} raising {V} kids"],
         change=["{S} now {have|has} {V} kids", "{S} {have|has} {V} children since the new baby"],
         related=["{P} sister has {V} kids", "{S} {have|has} {V} cousins", "{S} {own|owns} {V} bikes"]),
    _fam("commute", "person", _choice(["by bike", "by train", "by car", "on foot", "by bus", "by scooter", "by tram", "by ferry"]),
         state=["{S} {commute|commutes} {V}", "{S} {get|gets} to work {V}", "{S} usually {go|goes} to the office {V}"],
         change=["{S} {commute|commutes} {V} now", "these days {S} {get|gets} to work {V}",
                 "{S} switched to commuting {V}"],
         related=["{P} partner commutes {V}", "{S} went to the beach {V} on Sunday"]),
    _fam("nationality_team", "person", _choice(["the platform team", "the data team", "the mobile team",
                                               "the infra team", "the growth team", "the security team",
                                               "the payments team", "the search team", "the design team"]),
         state=["{S} {BE} on {V}", "{S} {work|works} in {V}", "{S} {BE} part of {V}"],
         change=["{S} moved to {V}", "{S} was reassigned to {V}", "{S} {BE} on {V} now", "{S} just joined {V}"],
         stop=["{S} left {V}", "{S} {BE} no longer on {V}"],
         related=["{S} helped {V} with an outage", "{S} had lunch with {V}", "{S} {BE} interviewing for {V}"]),
    _fam("ticket_status", "project", _choice(["open", "closed", "in progress", "resolved", "won't fix", "on hold"]),
         state=["the {S} ticket is {V}", "the bug in {S} is {V}", "the {S} issue is marked {V}"],
         change=["the {S} ticket is now {V}", "the bug in {S} was marked {V}", "someone set the {S} issue to {V}"],
         related=["a similar ticket about {S} is {V}", "the {S} epic has three {V} tickets"]),
    _fam("priority", "project", _choice(["P0", "P1", "P2", "P3", "top priority", "low priority"]),
         state=["{S} is {V}", "{P} priority is {V}", "{S} has been rated {V}"],
         change=["{S} was bumped to {V}", "{S} is now {V}", "{S} was downgraded to {V}", "{P} priority changed to {V}"],
         related=["a bug blocking {S} is {V}", "another project next to {S} is {V}"]),
    _fam("region", "service", _choice(["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2", "Frankfurt", "Dublin", "Virginia"]),
         state=["{S} runs in {V}", "{S} is deployed in {V}", "{P} primary region is {V}"],
         change=["{S} was moved to {V}", "{S} now runs in {V}", "{S} failed over to {V} permanently",
                 "{P} primary region is now {V}"],
         add=["{S} also has a replica in {V}", "{S} added a standby in {V}"],
         related=["{P} backups are stored in {V}", "the CDN for {S} has a node in {V}"]),
    _fam("rate_limit", "service", _Val(lambda r: f"{r.choice([10, 20, 50, 100, 200, 500, 1000, 2000])}"),
         state=["{P} rate limit is {V} requests per second", "{S} allows {V} requests per second",
                "{S} is capped at {V} requests a second"],
         change=["{P} rate limit was raised to {V} requests per second", "{S} now allows {V} requests per second",
                 "{P} rate limit was lowered to {V} requests per second"],
         related=["{S} got {V} requests per second at peak", "{P} load test used {V} requests per second"]),
    _fam("users", "service", _Val(lambda r: f"{r.randint(1, 900)},000"),
         state=["{S} has {V} monthly active users", "{V} people use {S} every month"],
         change=["{S} now has {V} monthly active users", "{S} grew to {V} monthly users",
                 "{S} dropped to {V} monthly active users"],
         related=["{S} handles {V} requests a day", "{S} sent {V} emails last week"]),
    _fam("employees", "company", _num(10, 5000),
         state=["{S} has {V} employees", "{S} employs {V} people", "{V} people work at {S}"],
         change=["{S} now has {V} employees", "{S} grew to {V} staff", "{S} shrank to {V} employees after layoffs"],
         related=["{S} hired {V} interns over the years", "{S} has {V} customers in Europe"]),

    # ================= HELD-OUT FAMILIES (never trained) =================
    _fam("editor", "person", _choice(_EDITORS), split="heldout",
         state=["{S} {code|codes} in {V} all day", "{V} is the editor {S} {use|uses}",
                "{P} editor of choice is {V}", "{S} {swear|swears} by {V}"],
         change=["{S} ditched {OLD} for {V}", "{S} {have|has} gone over to {V} completely",
                 "{S} {use|uses} {V} exclusively since the summer",
                 "{V} has replaced {OLD} as {P} editor"],
         stop=["{S} uninstalled {V} for good", "{S} {have|has} not touched {V} in months"],
         related=["{S} watched a talk about {V}", "{S} {BE} curious about {V}",
                  "someone on {P} team recommended {V}"]),
    _fam("cloud", "project", _choice(_CLOUDS), split="heldout",
         state=["{S} is hosted on {V}", "{S} lives on {V}", "we deploy {S} to {V}"],
         change=["{S} was moved off {OLD} onto {V}", "{S} got migrated over to {V}",
                 "we rehosted {S} on {V}", "{S} runs entirely on {V} after the migration"],
         add=["{S} keeps a backup copy on {V} too"],
         related=["{S} uses a library made by {V}", "the {S} team got credits from {V}"]),
    _fam("meeting", "project", _Val(lambda r: f"{r.choice(_WEEKDAYS)}s at {r.choice(_TIMES)}"),
         split="heldout",
         state=["the weekly sync for {S} happens on {V}", "{P} standup is on {V}",
                "the {S} team meets on {V}"],
         change=["the {S} team meets on {V} starting next week",
                 "{P} standup was rescheduled to {V}",
                 "the {S} sync has been shifted to {V}"],
         stop=["the {S} team cancelled its {V} meeting for good"],
         related=["the {S} team had a party on {V}",
                  "someone from {S} is out of office on {V}"]),
    _fam("team_size", "project", _num(2, 60), split="heldout",
         state=["{S} has {V} engineers", "{V} people work on {S}", "the {S} team is {V} strong"],
         change=["the {S} team grew to {V} people", "{S} is down to {V} engineers",
                 "after the layoffs only {V} people work on {S}",
                 "headcount on {S} went from {OLD} to {V}"],
         related=["{S} needs {V} more servers", "{S} has {V} open tickets"]),
    _fam("university", "person", _choice(_UNIS), split="heldout",
         state=["{S} {study|studies} at {V}", "{S} {BE} a student at {V}",
                "{S} {BE} enrolled at {V}"],
         change=["{S} transferred to {V}", "{S} {BE} finishing {P} degree at {V} instead",
                 "{S} changed universities and now {attend|attends} {V}"],
         stop=["{S} dropped out of {V}", "{S} {BE} not a student at {V} anymore"],
         related=["{S} gave a guest lecture at {V}", "{P} cousin studies at {V}",
                  "{S} got a rejection letter from {V}"]),
    _fam("ceo", "company", _choice(_NAMES_F_HELD + _NAMES_M_HELD), split="heldout",
         state=["{V} runs {S}", "{V} is the chief executive of {S}", "{S} is run by {V}"],
         change=["{V} succeeded {OLD} at the helm of {S}", "{S} appointed {V} as its new chief executive",
                 "{V} has been running {S} since the board ousted {OLD}"],
         stop=["{V} stepped down as chief executive of {S}"],
         related=["{V} gave a keynote about {S}", "{V} bought stock in {S}",
                  "{V} wrote a blog post criticising {S}"]),
    _fam("instruments", "person", _choice(_INSTRUMENTS), single=False, split="heldout",
         state=["{S} {play|plays} the {V}", "{S} {BE} a {V} player",
                "{S} {have|has} played the {V} since childhood"],
         add=["{S} {BE} picking up the {V} too", "{S} can play the {V} as well",
              "on top of that, {S} {play|plays} the {V}"],
         stop=["{S} sold {P} {V} and quit playing", "{S} {have|has} not played the {V} in years"]),
    _fam("contact_pref", "person", _choice(_CHANNELS), split="heldout",
         state=["{S} {prefer|prefers} {V}", "the best way to reach {O} is {V}",
                "{S} would rather be contacted via {V}"],
         change=["{S} {prefer|prefers} {V} now", "{S} asked to be reached via {V} from now on",
                 "{S} {have|has} come around to {V} instead"],
         related=["{S} complained about {V}", "{P} team uses {V} a lot"]),
    _fam("sports_team", "person", _choice(_SPORT_TEAMS), split="heldout",
         state=["{S} {support|supports} {V}", "{S} {BE} a lifelong {V} fan",
                "{S} {cheer|cheers} for {V}"],
         change=["{S} switched allegiance to {V}", "{S} {root|roots} for {V} now"],
         stop=["{S} gave up on {V} after the scandal",
               "{S} {have|has} stopped following {V}"],
         related=["{S} watched {V} lose on Sunday", "{S} bought a ticket to see {V}"]),
    _fam("budget", "project", _num(5, 900, "${}k"), split="heldout",
         state=["{S} has a budget of {V}", "the money set aside for {S} is {V}",
                "{S} is funded at {V}"],
         change=["the funding for {S} was slashed to {V}", "{S} now gets {V}",
                 "finance bumped {S} up from {OLD} to {V}"],
         related=["{S} spent {V} on cloud bills", "{S} saved {V} last quarter"]),
]


# --------------------------------------------------------------------------
# Generic attribute families (training only)
# --------------------------------------------------------------------------
# The hand-written families teach each domain its own wording; on families
# never seen in training the model then finds only a third of the new values
# (eval/results/nli_eval.json, heldout "new_value"). These families teach the
# pattern itself: the same subject's same named attribute with another value
# is a contradiction, another attribute is neutral. Their attribute nouns and
# change wordings avoid those of the held-out families (editor, hosting,
# meetings, team size, university, chief executive, instruments, contact
# channel, sports team, budget), so the held-out measure stays honest.

_DOCTORS = [f"Dr. {s}" for s in _SURNAMES]
_GENERIC_POOLS: dict[str, Sequence[str] | _Val] = {
    "person_name": _NAMES_F_TRAIN + _NAMES_M_TRAIN,
    "doctor": _DOCTORS,
    "gym": ["FitLife", "Anytime Fitness", "the YMCA", "Iron Works", "PureGym",
            "the climbing gym downtown", "Gold's Gym", "the pool on Elm Street"],
    "bank": ["Chase", "HSBC", "Barclays", "ING", "N26", "Revolut", "Wells Fargo", "Santander"],
    "carrier": ["Verizon", "T-Mobile", "Vodafone", "AT&T", "O2", "Orange", "Telekom"],
    "isp": ["Comcast", "Virgin Media", "BT", "Sky", "Spectrum", "Fastweb", "Free"],
    "movie": ["Inception", "Alien", "Amelie", "Up", "Heat", "Arrival", "Parasite",
              "Casablanca", "Jaws", "Spirited Away"],
    "band": ["Radiohead", "Coldplay", "ABBA", "Queen", "Daft Punk", "Metallica",
             "Arcade Fire", "the Beatles", "Bjork", "Massive Attack"],
    "book": ["Dune", "Emma", "Ulysses", "Beloved", "Middlemarch", "Neuromancer",
             "Stoner", "Dracula", "Persuasion"],
    "drink": ["tea", "coffee", "lemonade", "kombucha", "espresso", "green tea",
              "sparkling water", "hot chocolate", "orange juice"],
    "season": ["spring", "summer", "autumn", "winter"],
    "sport": ["tennis", "football", "basketball", "golf", "rugby", "cricket",
              "volleyball", "badminton", "squash"],
    "place": ["the taco place", "the corner deli", "Luigi's", "the canteen",
              "Wok Express", "the salad bar", "the noodle bar", "Cafe Central"],
    "shoe": _Val(lambda r: str(r.randint(36, 47))),
    "kg": _Val(lambda r: f"{r.randint(50, 110)} kg"),
    "rent": _Val(lambda r: f"${r.randint(6, 40)}00 a month"),
    "clock": ["9 pm", "9:30 pm", "10 pm", "10:30 pm", "11 pm", "midnight", "1 am"],
    "wake": ["5 am", "5:30 am", "6 am", "6:30 am", "7 am", "7:30 am", "8 am"],
    "pwm": ["1Password", "Bitwarden", "LastPass", "KeePass", "Dashlane"],
    "browser": ["Firefox", "Chrome", "Safari", "Brave", "Edge", "Opera", "Vivaldi"],
    "laptop": ["a MacBook Air", "a ThinkPad", "a Dell XPS", "a Surface Laptop",
               "a Framework laptop", "an HP Spectre"],
    "insurer": ["Allianz", "AXA", "Aviva", "Geico", "State Farm", "Zurich"],
    "shop": ["Tesco", "Aldi", "Lidl", "Whole Foods", "Trader Joe's", "Carrefour", "Rewe"],
    "handle": _Val(lambda r: "@" + r.choice(["sun", "moon", "pixel", "byte", "river",
                                             "fox", "owl"]) + str(r.randint(1, 999))),
    "license": ["MIT", "Apache-2.0", "GPL-3.0", "BSD-3-Clause", "MPL-2.0", "proprietary"],
    "ci": ["Jenkins", "GitHub Actions", "GitLab CI", "CircleCI", "Buildkite", "Travis"],
    "percent": _Val(lambda r: f"{r.randint(20, 99)}%"),
    "weeks": _Val(lambda r: f"{r.randint(1, 4)} weeks"),
    "cadence": ["weekly", "monthly", "every two weeks", "quarterly", "daily"],
    "branch": ["main", "master", "trunk", "develop", "stable"],
    "minutes": _Val(lambda r: f"{r.randint(2, 90)} minutes"),
    "seconds": _Val(lambda r: f"{r.randint(1, 120)} seconds"),
    "queue": ["Kafka", "RabbitMQ", "SQS", "NATS", "Pulsar", "Redis Streams"],
    "framework": ["Django", "Rails", "Spring", "Express", "FastAPI", "Laravel", "Phoenix"],
    "monitor": ["Datadog", "Grafana", "New Relic", "Prometheus", "Sentry", "Honeycomb"],
    "codename": ["Sparrow", "Tamarind", "Basalt", "Nimbus", "Quartz", "Saffron", "Wildcat"],
    "auditor": ["KPMG", "Deloitte", "EY", "PwC", "Grant Thornton", "BDO"],
    "month": _MONTHS,
    "company": _COMPANIES,
}

# (attribute noun, value pool, subject kinds)
_GENERIC_ATTRS: list[tuple[str, str, str]] = [
    ("dentist", "doctor", "person"), ("family doctor", "doctor", "person"),
    ("gym", "gym", "person"), ("bank", "bank", "person"),
    ("mobile carrier", "carrier", "person"), ("internet provider", "isp", "person"),
    ("landlord", "person_name", "person"), ("personal trainer", "person_name", "person"),
    ("therapist", "person_name", "person"), ("best friend", "person_name", "person"),
    ("mentor", "person_name", "person"), ("favorite movie", "movie", "person"),
    ("favorite band", "band", "person"), ("favorite book", "book", "person"),
    ("favorite drink", "drink", "person"), ("favorite season", "season", "person"),
    ("favorite sport", "sport", "person"), ("usual lunch spot", "place", "person"),
    ("shoe size", "shoe", "person"), ("weight", "kg", "person"),
    ("rent", "rent", "person"), ("bedtime", "clock", "person"),
    ("wake-up time", "wake", "person"), ("password manager", "pwm", "person"),
    ("browser", "browser", "person"), ("laptop", "laptop", "person"),
    ("insurance company", "insurer", "person"), ("supermarket", "shop", "person"),
    ("username", "handle", "person"),
    ("license", "license", "project"), ("CI system", "ci", "project"),
    ("test coverage", "percent", "project"), ("sprint length", "weeks", "project"),
    ("release cadence", "cadence", "project"), ("default branch", "branch", "project"),
    ("build time", "minutes", "project"), ("codename", "codename", "project"),
    ("designer", "person_name", "project"), ("framework", "framework", "project"),
    ("timeout", "seconds", "service"), ("message queue", "queue", "service"),
    ("monitoring tool", "monitor", "service"), ("on-call engineer", "person_name", "service"),
    ("uptime", "percent", "service"),
    ("auditor", "auditor", "company"), ("fiscal year end", "month", "company"),
    ("biggest customer", "company", "company"), ("main supplier", "company", "company"),
]

_G_STATE = ["{P} A is {V}", "{V} is {P} A", "{P} current A is {V}",
            "{P} A is {V} at the moment"]
_G_CHANGE = ["{P} A is now {V}", "{P} new A is {V}", "{P} A changed to {V}",
             "{P} A is {V} these days", "{P} A used to be {OLD} but now it is {V}",
             "{P} A has been {V} since last month", "{V} is {P} A now",
             "{P} A was updated to {V}", "as of this week, {P} A is {V}",
             "{P} A is no longer {OLD}; it is {V}", "{P} A was changed from {OLD} to {V}",
             "{P} A is {V} from now on", "{V} took over as {P} A",
             "{P} A is not {OLD} any more, it is {V}"]
_G_CHANGE_PERSON = ["{S} changed {P} A to {V}", "{S} swapped {OLD} for {V} as {P} A",
                    "{S} picked {V} as {P} new A", "{S} {have|has} a new A: {V}",
                    "{S} {BE} going with {V} as {P} A from now on"]
_G_STOP = ["{P} A is not {V} anymore", "{V} is no longer {P} A",
           "{V} stopped being {P} A", "{P} A is no longer {V}"]
_G_RELATED = ["{S} read an article about {V}", "{S} heard someone mention {V}",
              "{V} came up in a conversation with {O}", "{P} neighbour's A is {V}"]


def _values(pool: Sequence[str] | _Val) -> _Val:
    return pool if isinstance(pool, _Val) else _choice(pool)


def _generic_families() -> list[Family]:
    out = []
    for attr, pool, subject in _GENERIC_ATTRS:
        values = _values(_GENERIC_POOLS[pool])
        change = _G_CHANGE + (_G_CHANGE_PERSON if subject == "person" else [])
        related = _G_RELATED if subject == "person" else [
            t for t in _G_RELATED if "neighbour" not in t and "{O}" not in t]

        def fill(templates: list[str], attr: str = attr) -> list[str]:
            return [re.sub(r"\bA\b", attr, t) for t in templates]

        out.append(Family(f"generic:{attr}", subject, values, state=fill(_G_STATE),
                          change=fill(change), stop=fill(_G_STOP), related=fill(related)))
    return out


# Verb-phrase families (training only). The attribute families above all say
# "my A is V"; the held-out families that the model still misses say what
# someone *does* ("I study at MIT", "I support Arsenal"), each slot in
# several wordings, and the new value often comes in a wording other than
# the old one's. These families teach exactly that: two to four wordings of
# one slot (paraphrases of each other), and changes made by generic
# wrappers around any of them. Their verbs avoid the held-out families'
# (a test checks a list of them).

_VERB_POOLS: dict[str, Sequence[str] | _Val] = {
    "salon": ["Cuts & Co", "the barber on Main Street", "Studio Nine", "Hair by Rosa",
              "the salon near the station", "Clip Joint"],
    "paper": ["the Guardian", "the Times", "Le Monde", "the Financial Times",
              "the New York Times", "El Pais", "Die Zeit", "the Economist"],
    "music": ["Spotify", "Apple Music", "Tidal", "YouTube Music", "Deezer", "Amazon Music"],
    "airline": ["Lufthansa", "KLM", "Ryanair", "easyJet", "Delta", "Emirates",
                "British Airways", "Air France", "Iberia"],
    "hours": _Val(lambda r: str(r.randint(4, 10))),
    "km": _Val(lambda r: str(r.randint(5, 80))),
    "party": ["the Greens", "Labour", "the Liberals", "the Conservatives",
              "the Social Democrats", "the Pirate Party"],
    "notes": ["Obsidian", "Evernote", "OneNote", "Apple Notes", "a paper notebook",
              "Google Keep", "Bear"],
    "photos": ["iCloud", "Google Photos", "Dropbox", "OneDrive", "an external drive", "Flickr"],
    "search": ["Google", "DuckDuckGo", "Bing", "Kagi", "Ecosia", "Startpage"],
    "nick": ["Sasha", "Jay", "Bex", "Kit", "Alex", "Sam", "Robbie", "Liz", "Max", "Frankie"],
    "shift": ["morning", "night", "early", "late", "weekend", "evening"],
    "weekday": _WEEKDAYS,
    "street": ["Oak Street", "the High Street", "Elm Road", "Baker Street", "Mill Lane",
               "Station Road", "Park Avenue"],
    "coffee": ["black", "with oat milk", "with two sugars", "with a splash of milk",
               "with soy milk", "with cream"],
    "port": _Val(lambda r: str(r.choice([80, 443, 3000, 5000, 8000, 8080, 8443, 9000, 9090]))),
    "ttl": _Val(lambda r: f"{r.choice([5, 10, 30, 60, 120, 300, 600])} seconds"),
    "market": ["hospitals", "banks", "retailers", "schools", "startups", "farmers",
               "law firms", "city councils"],
    "courier": ["DHL", "UPS", "FedEx", "DPD", "Royal Mail", "GLS", "La Poste"],
    "lawfirm": ["Baker McKenzie", "Clifford Chance", "Linklaters", "Allen & Overy",
                "Freshfields", "Hogan Lovells"],
    "testrunner": ["pytest", "Jest", "JUnit", "Mocha", "Vitest", "RSpec"],
    "pager": ["PagerDuty", "Opsgenie", "the #alerts channel", "a shared inbox", "VictorOps"],
    "lang": _PROG_LANGS,
    "weekday_s": _WEEKDAYS,
}

# (name, subject kind, value pool, state wordings, own change wordings)
_VERB_SLOTS: list[tuple[str, str, str, list[str], list[str]]] = [
    ("banking", "person", "bank",
     ["{S} {bank|banks} with {V}", "{S} {keep|keeps} {P} savings at {V}", "{P} account is with {V}"],
     ["{S} moved {P} account over to {V}", "{S} closed {P} account at {OLD} and opened one with {V}"]),
    ("groceries", "person", "shop",
     ["{S} {buy|buys} {P} groceries at {V}", "{S} {do|does} the weekly shop at {V}",
      "{S} {get|gets} {P} food shopping from {V}"], []),
    ("mobile_plan", "person", "carrier",
     ["{S} {get|gets} {P} mobile service from {V}", "{P} phone plan is with {V}",
      "{S} {BE} a {V} customer"], ["{S} took {P} number over to {V}"]),
    ("coffee_order", "person", "coffee",
     ["{S} {take|takes} {P} coffee {V}", "{S} {drink|drinks} {P} coffee {V}",
      "{S} always {order|orders} {P} coffee {V}"], []),
    ("training_place", "person", "gym",
     ["{S} {train|trains} at {V}", "{S} {exercise|exercises} at {V}",
      "{S} {have|has} a membership at {V}"], ["{S} cancelled {OLD} and signed up at {V}"]),
    ("haircut", "person", "salon",
     ["{S} {get|gets} {P} hair cut at {V}", "{V} is where {S} {get|gets} {P} haircuts"], []),
    ("newspaper", "person", "paper",
     ["{S} {read|reads} {V} every morning", "{S} {get|gets} {P} news from {V}",
      "{S} {subscribe|subscribes} to {V}"], ["{S} cancelled {OLD} and subscribed to {V}"]),
    ("music_app", "person", "music",
     ["{S} {stream|streams} music on {V}", "{S} {listen|listens} to music on {V}",
      "{S} {pay|pays} for {V} to listen to music"], []),
    ("airline", "person", "airline",
     ["{S} always {fly|flies} with {V}", "{S} {book|books} {P} flights with {V}",
      "{S} {collect|collects} air miles with {V}"], []),
    ("sleep", "person", "hours",
     ["{S} {sleep|sleeps} {V} hours a night", "{S} {get|gets} about {V} hours of sleep",
      "{S} {need|needs} {V} hours of sleep"], []),
    ("running", "person", "km",
     ["{S} {run|runs} {V} km a week", "{S} {cover|covers} {V} kilometres a week on foot",
      "{P} weekly mileage is {V} km"], []),
    ("checkups", "person", "doctor",
     ["{S} {see|sees} {V} for checkups", "{S} {go|goes} to {V} for {P} checkups",
      "{S} {BE} a patient of {V}"], ["{S} signed on with {V} as a patient"]),
    ("vote", "person", "party",
     ["{S} {vote|votes} for {V}", "{S} {BE} a member of {V}", "{S} {campaign|campaigns} for {V}"],
     ["{S} left {OLD} and joined {V}"]),
    ("notes", "person", "notes",
     ["{S} {keep|keeps} {P} notes in {V}", "{S} {write|writes} everything down in {V}",
      "{S} {jot|jots} things down in {V}"], []),
    ("photos", "person", "photos",
     ["{S} {keep|keeps} {P} photos on {V}", "{S} {store|stores} {P} pictures in {V}"],
     ["{S} moved all {P} photos to {V}"]),
    ("search", "person", "search",
     ["{S} {search|searches} the web with {V}", "{S} {look|looks} things up on {V}"], []),
    ("nickname", "person", "nick",
     ["{S} {go|goes} by {V}", "everyone calls {O} {V}", "{P} nickname is {V}"], []),
    ("shift", "person", "shift",
     ["{S} {work|works} the {V} shift", "{S} {BE} on the {V} shift", "{S} {do|does} {V} shifts"],
     ["{S} got moved to the {V} shift"]),
    ("day_off", "person", "weekday",
     ["{S} {take|takes} {V}s off", "{P} day off is {V}", "{S} {BE} off work on {V}s"], []),
    ("parking", "person", "street",
     ["{S} {park|parks} on {V}", "{P} parking spot is on {V}", "{S} {leave|leaves} {P} car on {V}"], []),
    ("lunch", "person", "place",
     ["{S} {eat|eats} lunch at {V}", "{S} {grab|grabs} lunch at {V} most days"], []),
    ("browser_habit", "person", "browser",
     ["{S} {browse|browses} the web in {V}", "{S} {surf|surfs} the internet with {V}"], []),
    ("release_day", "project", "weekday_s",
     ["{S} ships on {V}s", "{S} releases every {V}", "new versions of {S} go out on {V}s"],
     ["{S} moved its releases to {V}s"]),
    ("impl_language", "service", "lang",
     ["{S} is written in {V}", "{S} is built with {V}", "{S} is implemented in {V}"],
     ["{S} was rewritten in {V}", "{S} was ported from {OLD} to {V}"]),
    ("ownership", "service", "person_name",
     ["{S} is owned by {V}", "{S} belongs to {V}", "{V} looks after {S}"],
     ["{S} was handed over to {V}"]),
    ("port", "service", "port",
     ["{S} listens on port {V}", "{S} serves traffic on port {V}", "{S} answers on port {V}"], []),
    ("cache_ttl", "service", "ttl",
     ["{S} caches responses for {V}", "{P} cache expires after {V}",
      "{S} keeps cached results for {V}"], []),
    ("alerts", "service", "pager",
     ["alerts from {S} go to {V}", "{S} pages through {V} when it breaks",
      "{S} sends its alerts to {V}"], ["{S} now routes its alerts to {V}"]),
    ("test_runner", "project", "testrunner",
     ["{S} runs its tests with {V}", "the tests of {S} are written for {V}",
      "{S} is tested with {V}"], ["{S} replaced {OLD} with {V} for its tests"]),
    ("market", "company", "market",
     ["{S} sells mostly to {V}", "{P} main customers are {V}", "{S} makes its money from {V}"],
     ["{S} pivoted to selling to {V}"]),
    ("courier", "company", "courier",
     ["{S} ships its orders with {V}", "{S} sends its parcels through {V}",
      "{P} deliveries go out with {V}"], ["{S} signed a delivery contract with {V}"]),
    ("law_firm", "company", "lawfirm",
     ["{S} is represented by {V}", "{V} handles the legal work of {S}",
      "{P} lawyers are at {V}"], ["{S} hired {V} as its new lawyers"]),
    ("company_bank", "company", "bank",
     ["{S} banks with {V}", "{P} accounts are held at {V}"], []),
]

# Generic change and stop wrappers around a state wording ``t`` ("{S} ...").
_VC_WRAP = ["{t} now", "these days {t}", "{t} these days", "since last spring, {t}",
            "{t} from now on", "{t} now, not {OLD}", "after years with {OLD}, {t}",
            "{S} {old_negated}; {t}", "as of this month, {t}",
            "{t} since the start of the year"]
_V_RELATED_THING = ["someone suggested {V} for {S}", "{V} was discussed in a review of {S}",
                    "a blog post compared {S} with {V}"]


def _negated(rest: str, how: str) -> str | None:
    """``rest`` (a state wording after "{S} ") negated: ``how`` is
    "no longer" or "not ... anymore"; None if it does not start with a verb."""
    for be in ("{BE} ", "is ", "are "):
        if rest.startswith(be):
            tail = rest[len(be):]
            return f"{be}no longer {tail}" if how == "no longer" else f"{be}not {tail} anymore"
    if not rest.startswith("{"):
        return None
    if how == "no longer":
        return f"no longer {rest}"
    return "{DO} not " + _ALT.sub(lambda m: m.group(1), rest, count=1) + " anymore"


def _verb_families() -> list[Family]:
    out = []
    for name, subject, pool, states, own in _VERB_SLOTS:
        values = _values(_VERB_POOLS.get(pool) or _GENERIC_POOLS[pool])
        change, stop = list(own), []
        for t in states:
            rest = t[len("{S} "):] if t.startswith("{S} ") else None
            old_negated = rest and _negated(rest.replace("{V}", "{OLD}"), "no longer")
            for w in _VC_WRAP:
                if "{old_negated}" in w:
                    if not old_negated:
                        continue
                    w = w.replace("{old_negated}", old_negated)
                change.append(w.replace("{t}", t))
            for how in ("no longer", "not anymore"):
                neg = rest and _negated(rest, how)
                if neg:
                    stop.append("{S} " + neg)
        related = ([t for t in _G_RELATED if "neighbour" not in t] if subject == "person"
                   else _V_RELATED_THING)
        out.append(Family(f"verb:{name}", subject, values, state=states,
                          change=change, stop=stop, related=related))
    return out


#: Drawn in place of a hand-written family this often when generating the
#: training split (the held-out split never uses them).
GENERIC_SHARE = 0.45
GENERIC_FAMILIES: list[Family] = _generic_families() + _verb_families()

# People and pets of whom one has several: a qualified one ("my younger son")
# is another of them, not a new value of "my son" (the generic families had
# taught that "my new A" replaces "my A": "My son is Max." / "My younger son
# is Leo." scored 0.99 contradiction). The same qualified slot with another
# value is still a contradiction ("my eldest son" is one person).
_RELATIONS = [("son", "person_name"), ("daughter", "person_name"), ("brother", "person_name"),
              ("sister", "person_name"), ("cousin", "person_name"), ("friend", "person_name"),
              ("kid", "person_name"), ("grandchild", "person_name"), ("nephew", "person_name"),
              ("niece", "person_name"), ("dog", "pet"), ("cat", "pet")]
_QUALIFIERS = ["younger", "older", "other", "second", "little", "big", "twin", "eldest",
               "youngest", "middle", "third"]
_UNIQUE = ["eldest", "youngest", "middle"]
#: Share of the training split's generated pairs that are these.
QUALIFIED_SHARE = 0.06


def _pair_qualified(rng: random.Random) -> Pair:
    rel, pool = rng.choice(_RELATIONS)
    names = _PET_NAMES if pool == "pet" else _GENERIC_POOLS["person_name"]
    a, b = rng.sample(list(names), 2)
    s, forms = _pick_person(rng, False)
    p_tpl = rng.choice(["{P} R is {V}", "{V} is {P} R", "{S} {have|has} a R called {V}",
                        "{S} {have|has} a R named {V}", "{P} R {V} is great"])
    if rng.random() < 0.7:
        q = rng.choice(_QUALIFIERS)
        h_tpl = rng.choice([f"{{P}} {q} R is {{V}}", f"{{V}} is {{P}} {q} R",
                            f"{{S}} also {{have|has}} a {q} R, {{V}}", f"{{P}} {q} R {{V}} is visiting"])
        label, kind = NEU, "qualified_addition"
    else:
        q = rng.choice(_UNIQUE)
        p_tpl = f"{{P}} {q} R is {{V}}"
        h_tpl = rng.choice([f"{{P}} {q} R is {{V}}", f"{{V}} is {{P}} {q} R"])
        label, kind = CON, "qualified_same_slot"
    fam = Family(f"relation:{rel}", "person", _choice(names), state=[])
    p = _fill(p_tpl.replace("R", rel), fam, s, a, "", rng)
    h = _fill(h_tpl.replace("R", rel), fam, _same_ref(rng, forms, s), b, a, rng)
    return _mk(rng, p, h, label, fam.name, kind)

_FAMILY_BY_NAME = {f.name: f for f in FAMILIES}

#: The canonical memory-revision pairs (MODELS.md and issue 3): premise =
#: old memory, hypothesis = new one, and what the NLI model must say.
#: ``expect`` is ``"contradiction"`` (contradiction probability above the
#: threshold), ``"not_contradiction"`` (below it), or a label that must also
#: be the arg-max (``"neutral"``, ``"entailment"``; both imply below it).
CANONICAL_PAIRS: tuple[tuple[str, str, str, str], ...] = (
    ("unrelated statements about the same person",
     "I live in Berlin.", "I like pizza.", "neutral"),
    ("a new value for the same attribute",
     "My main language is Python.", "I switched to Rust.", "contradiction"),
    ("paraphrase",
     "I work at Google.", "My employer is Google.", "entailment"),
    ("addition to a multi-valued attribute",
     "I speak French.", "I also speak Spanish.", "not_contradiction"),
    ("cessation",
     "I drink coffee every morning.", "I no longer drink coffee.", "contradiction"),
    ("same attribute, another subject",
     "Apollo's deadline is May 3.", "Artemis's deadline is June 1.", "not_contradiction"),
)


def family_names(split: str) -> list[str]:
    """Names of the families of one split: ``train`` or ``heldout``."""
    generic = GENERIC_FAMILIES if split == "train" else []
    relations = [f"relation:{r}" for r, _ in _RELATIONS] if split == "train" else []
    return [f.name for f in FAMILIES + generic if f.split == split] + relations


# --------------------------------------------------------------------------
# Pair construction
# --------------------------------------------------------------------------

def _slots(fam: Family, v: str, old: str, rng: random.Random) -> dict[str, str]:
    slots = {"V": v, "OLD": old, "PET": rng.choice(_PET_NAMES),
             "YEAR": str(rng.randint(2005, 2024))}
    if "|" in v:        # habit values: base|third|gerund
        base, third, ing = v.split("|")
        slots.update({"VING": ing, "V": base})
    return slots


def _fill(tpl: str, fam: Family, s: Subj, v: str, old: str, rng: random.Random) -> str:
    slots = _slots(fam, v, old, rng)
    if "|" in v:
        base, third, _ = v.split("|")
        tpl = tpl.replace("{V1|V3}", "{" + base + "|" + third + "}").replace(
            "{V1|V1}", base)
    return _render(tpl, s, slots, rng)


def _same_ref(rng: random.Random, forms: list[Subj], first: Subj) -> Subj:
    """Another way to name the same subject (usually the same one)."""
    if len(forms) > 1 and rng.random() < 0.3:
        return rng.choice(forms)
    return first


def _mk(rng: random.Random, p: str, h: str, label: int, fam: str, kind: str) -> Pair:
    return Pair(_finish(p, rng), _finish(h, rng), label, fam, kind)


def _pair_new_value(fam: Family, rng: random.Random, held: bool) -> Pair | None:
    if not fam.single or not (fam.change or fam.state):
        return None
    s, forms = _SUBJECT_PICKERS[fam.subject](rng, held)
    old, new = fam.values.two(rng)
    ppool = fam.state
    if fam.change and rng.random() < 0.2:   # the old fact may itself be a change
        ppool = [t for t in fam.change if "{OLD}" not in t] or fam.state
    p = _fill(rng.choice(ppool), fam, s, old, "", rng)
    pool = fam.change if (fam.change and rng.random() < 0.7) else fam.state
    h = _fill(rng.choice(pool), fam, _same_ref(rng, forms, s), new, old, rng)
    return _mk(rng, p, h, CON, fam.name, "new_value")


def _pair_stop(fam: Family, rng: random.Random, held: bool) -> Pair | None:
    if not fam.stop:
        return None
    s, forms = _SUBJECT_PICKERS[fam.subject](rng, held)
    v = fam.values.draw(rng)
    a = _fill(rng.choice(fam.state), fam, s, v, "", rng)
    b = _fill(rng.choice(fam.stop), fam, _same_ref(rng, forms, s), v, "", rng)
    if rng.random() < 0.25:   # the other order: it stopped, then it started again
        a, b = b, a
    return _mk(rng, a, b, CON, fam.name, "cessation")


def _pair_paraphrase(fam: Family, rng: random.Random, held: bool) -> Pair | None:
    s, forms = _SUBJECT_PICKERS[fam.subject](rng, held)
    v = fam.values.draw(rng)
    r = rng.random()
    if r < 0.55 and len(fam.state) > 1:
        t1, t2 = rng.sample(fam.state, 2)
        p = _fill(t1, fam, s, v, "", rng)
        h = _fill(t2, fam, _same_ref(rng, forms, s), v, "", rng)
        return _mk(rng, p, h, ENT, fam.name, "paraphrase")
    if r < 0.85 and fam.change:
        # "I moved to Berlin" entails "I live in Berlin"; templates mentioning
        # {OLD} are skipped (the old value is not known here).
        ch = [t for t in fam.change if "{OLD}" not in t]
        if not ch:
            return None
        p = _fill(rng.choice(ch), fam, s, v, "", rng)
        h = _fill(rng.choice(fam.state), fam, _same_ref(rng, forms, s), v, "", rng)
        return _mk(rng, p, h, ENT, fam.name, "change_entails_state")
    t = rng.choice(fam.state)
    p = _fill(t, fam, s, v, "", rng)
    h = _fill(t, fam, s, v, "", rng)
    return _mk(rng, p, h, ENT, fam.name, "restatement")


def _pair_addition(fam: Family, rng: random.Random, held: bool) -> Pair | None:
    if fam.single and not fam.add:
        return None
    s, forms = _SUBJECT_PICKERS[fam.subject](rng, held)
    a, b = fam.values.two(rng)
    p = _fill(rng.choice(fam.state), fam, s, a, "", rng)
    if fam.add and (fam.single or rng.random() < 0.7):
        h = _fill(rng.choice(fam.add), fam, _same_ref(rng, forms, s), b, a, rng)
    else:   # multi-valued: another plain value is no contradiction either
        h = _fill(rng.choice(fam.state), fam, _same_ref(rng, forms, s), b, a, rng)
    return _mk(rng, p, h, NEU, fam.name, "addition")


def _pair_related(fam: Family, rng: random.Random, held: bool) -> Pair | None:
    if not fam.related:
        return None
    s, forms = _SUBJECT_PICKERS[fam.subject](rng, held)
    a, b = fam.values.two(rng)
    p = _fill(rng.choice(fam.state), fam, s, a, "", rng)
    h = _fill(rng.choice(fam.related), fam, _same_ref(rng, forms, s),
              b if rng.random() < 0.7 else a, a, rng)
    if rng.random() < 0.3:
        p, h = h, p
    return _mk(rng, p, h, NEU, fam.name, "related_compatible")


def _pair_other_subject(fam: Family, rng: random.Random, held: bool) -> Pair | None:
    pick = _SUBJECT_PICKERS[fam.subject]
    s1, _ = pick(rng, held)
    s2, _ = pick(rng, held, avoid={s1.key})
    if s2.key == s1.key or {s1.key, s2.key} == {"I", "we"}:
        return None
    # "she"/"he"/"it" would read as the same subject: name both explicitly
    if s2.nom in {"she", "he", "it"} or s1.nom in {"she", "he", "it"}:
        return None
    a, b = fam.values.two(rng)
    p = _fill(rng.choice(fam.state), fam, s1, a, "", rng)
    pool = fam.state + (fam.change if rng.random() < 0.5 else [])
    pool = [t for t in pool if "{OLD}" not in t]
    h = _fill(rng.choice(pool), fam, s2, b, "", rng)
    return _mk(rng, p, h, NEU, fam.name, "other_subject")


def _pair_other_attribute(fam: Family, rng: random.Random, held: bool,
                          fams: Sequence[Family]) -> Pair | None:
    others = [f for f in fams if f.subject == fam.subject and f.name != fam.name]
    if not others:
        return None
    fam2 = rng.choice(others)
    s, forms = _SUBJECT_PICKERS[fam.subject](rng, held)
    v1 = fam.values.draw(rng)
    v2 = fam2.values.draw(rng)
    p = _fill(rng.choice(fam.state), fam, s, v1, "", rng)
    pool2 = fam2.state + [t for t in fam2.change + fam2.add if "{OLD}" not in t]
    h = _fill(rng.choice(pool2), fam2, _same_ref(rng, forms, s), v2, "", rng)
    return _mk(rng, p, h, NEU, f"{fam.name}+{fam2.name}", "other_attribute")


_BUILDERS: dict[str, Callable[[Family, random.Random, bool], Pair | None]] = {
    "new_value": _pair_new_value, "cessation": _pair_stop, "paraphrase": _pair_paraphrase,
    "addition": _pair_addition, "related_compatible": _pair_related,
    "other_subject": _pair_other_subject,
}

# relation kind -> weight
_KINDS: list[tuple[str, float]] = [
    ("new_value", 0.26),
    ("cessation", 0.10),
    ("paraphrase", 0.14),
    ("addition", 0.10),
    ("related_compatible", 0.10),
    ("other_subject", 0.12),
    ("other_attribute", 0.18),
]


def generate(n: int, *, split: str = "train", seed: int = 0) -> list[Pair]:
    """``n`` pairs from the families of ``split`` (``train`` or ``heldout``).

    The same ``(n, split, seed)`` always gives the same pairs. Use different
    seeds for the training data and the validation split.
    """
    if split not in ("train", "heldout"):
        raise ValueError("split must be 'train' or 'heldout'")
    rng = random.Random(f"{split}:{seed}")
    fams = [f for f in FAMILIES if f.split == split]
    held = split == "heldout"
    generic = [] if held else GENERIC_FAMILIES
    kinds = [k for k, _ in _KINDS]
    weights = [w for _, w in _KINDS]
    out: list[Pair] = []
    seen: set[tuple[str, str]] = set()
    attempts = 0
    while len(out) < n:
        attempts += 1
        if attempts > n * 50:
            raise RuntimeError("could not generate enough distinct pairs")
        if generic and rng.random() < QUALIFIED_SHARE:
            pr = _pair_qualified(rng)
        else:
            fam = rng.choice(generic) if generic and rng.random() < GENERIC_SHARE else rng.choice(fams)
            pr = _pair_of_kind(rng.choices(kinds, weights)[0], fam, rng, held, fams + generic)
        if pr is None:
            continue
        key = (pr.premise.lower(), pr.hypothesis.lower())
        if key in seen or pr.premise.lower() == pr.hypothesis.lower() and pr.label != ENT:
            continue
        seen.add(key)
        out.append(pr)
    return out


def _pair_of_kind(kind: str, fam: Family, rng: random.Random, held: bool,
                  fams: Sequence[Family]) -> Pair | None:
    """One pair of relation ``kind`` from ``fam`` (``fams``: where another attribute comes from)."""
    if kind == "other_attribute":
        return _pair_other_attribute(fam, rng, held, fams)
    return _BUILDERS[kind](fam, rng, held)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20)
    ap.add_argument("--split", default="train", choices=["train", "heldout"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jsonl", action="store_true", help="one JSON object per line")
    a = ap.parse_args(argv)
    for p in generate(a.n, split=a.split, seed=a.seed):
        if a.jsonl:
            print(json.dumps(p.to_json(), ensure_ascii=False))
        else:
            print(f"[{LABELS[p.label][:4]}] {p.family:<28} {p.kind:<20} "
                  f"{p.premise}  ||  {p.hypothesis}")


if __name__ == "__main__":
    main()
