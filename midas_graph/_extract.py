"""Text -> entity-attribute-value claims, with spaCy dependency patterns (no LLM).

:func:`extract` parses one message (or takes a parsed ``doc``) and returns the
:class:`Claim` s it states and the :class:`Mention` s of entities in it.
:func:`extract_many` does the same for many messages with ``nlp.pipe``.

What it reads (one clause at a time; the known gaps are listed at the end):

- copular and possessive: "my X is Y", "X's Y is Z", "Y is my X",
  "X is a <job>" (job_title), "X is the CEO of Y", "I'm 34", "I'm married",
  "X is one of my favorites" (likes);
- location: live in / move to / relocate to / settle in / be based in
  (lives_in); "moved out of X", "used to live in X" (cease);
- employment: work at/for, join, start at, get a job at, be hired by
  (employer); work as / be / become a <job>, be promoted to (job_title);
  leave / quit / resign from / be laid off (cease);
- preferences: love / like / enjoy / adore -> likes, hate / dislike /
  can't stand -> dislikes, prefer -> prefers, "be into / a fan of / keen
  on / obsessed with" -> likes, "my favo(u)rite X is Y" -> favorite_x;
- having: "I have a dog named Rex" -> has_dog = Rex, "I have two kids"
  -> num_kids = 2, "I have a car" -> has = car; speaks / eats / drinks /
  plays / drives / learning / studies;
- dates of plans and events: "the launch is on May 3", "the deadline moved
  to Friday", "we pushed the launch to June", "the report is due Friday";
- numbers: "response time is now 250ms", "latency dropped to 180 ms";
- negation ("I don't like X": negate), cessation ("I no longer ...",
  "... anymore", "I quit Y", "I stopped eating meat", a past-tense state
  without a date: cease), corrections ("sorry, I meant X", "actually it's
  X, not Y", "correction: ...", "X, not Y", "not Y but X").

Who: first person resolves to ``speaker`` (so does the dropped subject of a
chat fragment: "Moved to Lisbon last week!"), second person to ``listener``
(skipped when unknown), proper names to themselves, "my sister" to
"<speaker>'s sister", conjoined subjects to one claim each. Third-person
pronouns are not resolved (no coreference): their clauses yield nothing. A
plan, event date or metric with no owner in the sentence ("the deadline
moved to Friday") belongs to the speaker; a named owner ("the Apollo
deadline", "Apollo's budget") is the subject.

Values: names as written ("Lisbon", "St Mary's hospital"), common nouns in
lower case without determiners ("golden retriever"), dates as ISO strings at
their grain ("2024-05-03", "2024-06", "2024-W11"; a birthday without a year
"--05-03"), counts as ints, measures as "<number> <unit>" with the unit
normalised ("250 ms", "5000 USD", "99.5%"; also in ``number``/``unit``).
Attribute names go through the registry's aliases (latency ->
response_time, boss -> manager, launch_date -> release_date, love -> likes).

What it refuses (precision first): questions (but not a statement with a
tag: "I'm vegan, remember?"), hypotheticals ("if I moved to Paris", "I'd
love to", "I might", "once I finish school I'll ..."), wishes and plans
without a date ("I want to move", "I'm going to move"), hedged or reported
beliefs ("I think ...", "my brother thinks I should ..."), deictic objects
("I love that!", "I love your photos", "I love the idea"), past one-off
episodes ("I loved the concert"), vocatives the parser mistakes for
subjects ("Hey Nate, ...").

Time: time expressions that qualify a claim's clause become ``valid_from``
(and ``valid_to`` for a bounded past state: "I lived in Hamburg in 2019",
"from 2015 to 2018"), resolved against ``reference_time`` by
:mod:`midas_graph._timeexpr`; a clause without one takes the time of a
conjoined clause with the same subject. For a ``cease`` claim,
``valid_from`` is when the state ended. A plan with a future date ("I'm
moving to Rome next month") is kept with a future ``valid_from`` and lower
confidence.

Known gaps: no coreference (he/she/they/it), so a fact stated about an
earlier-named person in a later sentence is lost; events that are not
attribute changes ("I went to a support group yesterday") yield nothing;
NER labels of the small model are unreliable, so "left X" is read as a
place only when X is tagged GPE/LOC/FAC; nested possessors beyond one level
("my sister's husband's job") are not followed; values are surface forms,
so "NYC" and "New York" are two values until entity resolution merges them.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

from ._registry import AttributeRegistry
from ._timeexpr import TimeRef, parse_duration, resolve, shift, word_number

__all__ = ["Claim", "Mention", "Extraction", "extract", "extract_many"]

UTC = _dt.timezone.utc


# --- public types -------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Claim:
    """One entity-attribute-value statement read from text.

    ``polarity``: ``assert`` (it holds), ``negate`` (it does not hold: "I
    don't like coffee"), ``cease`` (it held and stopped: "I no longer live in
    Berlin", "I quit Acme", "I lived in Hamburg").

    ``attribute`` is ``""`` only for a bare correction whose attribute the
    sentence does not name ("sorry, I meant Lisbon, not Porto"): the
    belief to correct is the subject's current fact whose value is
    ``replaces`` (or, without ``replaces``, its most recent one). For a
    ``cease`` claim, ``value`` may be ``""`` ("I quit my job"): every
    current value of the attribute ends, and ``valid_from`` is when.

    Extensions: ``valid_to`` closes a stated past interval ("from 2015 to
    2018"); ``number``/``unit`` split a measure ("250 ms" -> 250.0, "ms");
    ``rule`` names the pattern that produced the claim (for ``history()``'s
    "why"). ``confidence`` is 1.0 for first person, 0.9 for a named third
    person, 0.8 for an owner the sentence leaves implicit or a relative
    ("my sister"), times 0.8 for a dated plan.
    """

    subject: str
    attribute: str
    value: str | int | float
    text: str
    valid_from: _dt.datetime | None = None
    polarity: str = "assert"
    correction: bool = False
    replaces: str | None = None
    subject_is_speaker: bool = False
    value_is_entity: bool = False
    confidence: float = 1.0
    # extensions
    valid_to: _dt.datetime | None = None
    unit: str | None = None
    number: float | None = None
    rule: str = ""


@dataclass(frozen=True, slots=True)
class Mention:
    name: str
    label: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Extraction:
    claims: list[Claim]
    mentions: list[Mention]


# --- lexicons -----------------------------------------------------------------

_FIRST = frozenset("i me my mine myself we us our ours ourselves".split())
_SECOND = frozenset("you your yours yourself yourselves u ur".split())
_OTHER_PRON = frozenset(
    "he him his she her hers they them their theirs it its this that these those there "
    "who whom whose what which someone somebody everyone everybody anyone anybody nobody "
    "one something everything nothing anything all both each either neither".split())
_NAME_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "PRODUCT",
                          "EVENT", "WORK_OF_ART", "LANGUAGE", "LAW"})
_MENTION_SKIP = frozenset({"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY"})
_PLACE_LABELS = frozenset({"GPE", "LOC", "FAC", "NORP"})
_MODALS = frozenset({"would", "could", "might", "should", "may", "must", "shall", "ought"})
_HYPO_MARKS = frozenset({"if", "unless", "whether", "suppose", "supposing", "though", "although",
                         "once", "until", "till", "before", "lest"})
_FACT_MARKS = frozenset({"after", "since", "because", "as", "when", "now", "so"})
_REPORT_HEADS = frozenset({"tell", "say", "share", "mention", "announce", "know", "realize", "realise",
                           "mean", "find", "let", "update", "inform", "confirm", "note", "notice",
                           "remember", "guess", "turn", "hear", "excite", "happy", "glad", "thrill",
                           "proud", "report", "add", "admit", "explain", "write", "forget"})
_DROP_ADJ = frozenset({"most", "many", "some", "all", "several", "various", "other", "more", "few", "certain","new", "current", "latest", "actual", "real", "official", "whole", "little",
                       "big", "huge", "great", "amazing", "awesome", "lovely", "beautiful", "nice",
                       "good", "cute", "wonderful", "fantastic", "incredible", "cool", "super",
                       "own", "first", "second", "third", "dear", "sweet", "adorable", "fun", "very",
                       "really", "so", "lil", "tiny", "gorgeous", "brand", "fancy", "favorite",
                       "favourite", "absolute", "total", "certain", "particular", "such"})
_PAST_MARKERS = frozenset({"old", "former", "previous", "ex", "prior", "past"})

_RELATIONS = {
    "mother": "mother", "mom": "mother", "mum": "mother", "mommy": "mother", "mama": "mother",
    "father": "father", "dad": "father", "daddy": "father", "papa": "father",
    "parent": "parent", "brother": "brother", "sister": "sister", "sibling": "sibling",
    "son": "son", "daughter": "daughter", "kid": "child", "child": "child", "children": "child",
    "baby": "child", "husband": "spouse", "wife": "spouse", "spouse": "spouse",
    "partner": "partner", "boyfriend": "partner", "girlfriend": "partner", "fiance": "fiance",
    "fiancé": "fiance", "fiancee": "fiance", "fiancée": "fiance",
    "grandmother": "grandmother", "grandma": "grandmother", "granny": "grandmother",
    "grandfather": "grandfather", "grandpa": "grandfather", "grandson": "grandchild",
    "granddaughter": "grandchild", "grandchild": "grandchild", "aunt": "aunt", "uncle": "uncle",
    "cousin": "cousin", "niece": "niece", "nephew": "nephew", "friend": "friend",
    "bestie": "best_friend", "roommate": "roommate", "flatmate": "roommate", "neighbor": "neighbor",
    "neighbour": "neighbor", "boss": "manager", "manager": "manager", "coworker": "coworker",
    "colleague": "coworker", "mentor": "mentor", "coach": "coach", "teacher": "teacher",
    "doctor": "doctor", "therapist": "therapist", "landlord": "landlord", "cofounder": "cofounder",
    "co-founder": "cofounder", "assistant": "assistant", "stepdad": "stepfather",
    "stepmom": "stepmother", "stepson": "stepson", "stepdaughter": "stepdaughter",
}
_PETS = frozenset({"dog", "cat", "puppy", "kitten", "pet", "bird", "parrot", "hamster", "rabbit",
                   "bunny", "fish", "goldfish", "turtle", "tortoise", "horse", "pony", "snake",
                   "lizard", "gecko", "ferret", "pig", "chicken", "goat", "budgie", "canary",
                   "iguana", "rat", "mouse", "cockatiel", "retriever", "labrador", "poodle",
                   "beagle", "terrier", "spaniel", "corgi", "husky", "bulldog", "dachshund",
                   "shepherd", "pug", "chihuahua", "tabby", "kitty", "pup", "doggo"})
_PET_CANON = {"puppy": "dog", "pup": "dog", "doggo": "dog", "kitten": "cat", "kitty": "cat",
              "tabby": "cat", "bunny": "rabbit", "retriever": "dog", "labrador": "dog",
              "poodle": "dog", "beagle": "dog", "terrier": "dog", "spaniel": "dog", "corgi": "dog",
              "husky": "dog", "bulldog": "dog", "dachshund": "dog", "shepherd": "dog", "pug": "dog",
              "chihuahua": "dog", "goldfish": "fish", "pony": "horse"}
_POSSESSIONS = _PETS | frozenset({
    "car", "truck", "bike", "bicycle", "motorcycle", "motorbike", "scooter", "van", "suv", "boat",
    "house", "home", "apartment", "flat", "condo", "cabin", "cottage", "farm", "garden", "yard",
    "piano", "guitar", "violin", "drum", "drums", "cello", "ukulele", "keyboard", "saxophone",
    "trumpet", "flute", "telescope", "camera", "laptop", "tesla", "pool", "garage", "business",
    "shop", "store", "restaurant", "bakery", "cafe", "startup", "company", "podcast", "blog",
    "channel", "allergy", "tattoo", "degree", "phd", "masters", "license", "licence", "passport",
    "kid", "child", "son", "daughter", "brother", "sister", "sibling", "grandchild", "twin",
    "twins", "baby", "husband", "wife", "partner", "boyfriend", "girlfriend", "roommate",
})
_JOBS = frozenset("""
accountant actor actress administrator analyst anesthesiologist animator announcer archaeologist
architect archivist artist astronaut astronomer athlete attorney auditor author baker banker barber
barista bartender biologist blogger bookkeeper botanist builder butcher buyer captain carpenter
cartographer cashier ceo cfo chef chemist chiropractor choreographer cleaner clerk coach columnist
comedian composer consultant contractor cook coordinator copywriter counselor counsellor courier
cto coo cmo cpo curator dancer dentist designer detective developer dietitian diplomat director
dj doctor driver economist editor educator electrician engineer entrepreneur executive farmer
firefighter fisherman founder cofounder co-founder gardener geologist graphic guard hairdresser
historian illustrator instructor intern interpreter investor janitor jeweler journalist judge
landscaper lawyer lecturer librarian lifeguard linguist locksmith lobbyist machinist manager
marketer mathematician mechanic mediator midwife miner model musician nanny navigator negotiator
neurologist neuroscientist novelist nurse nutritionist officer optician optometrist painter
paralegal paramedic pastor pediatrician pharmacist philosopher photographer physician physicist
physiotherapist pilot planner plumber poet police policeman policewoman politician postman priest
principal producer professor programmer psychiatrist psychologist publisher rabbi radiologist
realtor receptionist recruiter reporter researcher salesman salesperson saleswoman scientist
screenwriter sculptor secretary senator singer social soldier songwriter specialist statistician
steward stewardess stylist supervisor surgeon surveyor tailor teacher technician therapist trader
translator tutor veterinarian vet waiter waitress welder writer youtuber streamer influencer
volunteer student freelancer professor lead head vp president chair chairman intern apprentice
paramedic counselor advisor adviser strategist recruiter sommelier florist potter weaver
cardiologist dermatologist oncologist surgeon psychotherapist caregiver carer housekeeper
homemaker pm sre devops dba qa tester
""".split())
_JOB_SUFFIX_OK = ("engineer", "developer", "manager", "designer", "scientist", "analyst", "director",
                  "officer", "specialist", "consultant", "teacher", "nurse", "assistant", "lead",
                  "architect", "administrator", "coordinator", "representative", "technician",
                  "writer", "editor", "researcher", "therapist", "worker")
_IDENTITY = frozenset("""vegetarian vegan pescatarian introvert extrovert ambivert parent mom mum dad
mother father grandparent grandmother grandfather grandma grandpa retiree runner cyclist swimmer
climber hiker gamer reader christian muslim jew buddhist hindu atheist catholic protestant
democrat republican libertarian citizen immigrant native local expat newlywed widow widower
homeowner renter twin stepmom stepdad single bachelor""".split())
_EVALUATIVE = frozenset("""inspiring great amazing awesome good bad terrible wonderful talented fantastic brilliant
excellent incredible true real natural born total huge big such classic gem blast hit masterpiece must help lifesaver
legend star hero genius mess pro natural joy treat delight godsend rockstar champ nightmare disaster pain""".split())
_WORKPLACES = frozenset("""hospital clinic school university college startup company firm bank agency lab laboratory studio
store shop restaurant bakery cafe café library museum hotel nonprofit charity factory warehouse office practice newspaper
magazine publisher church nursery kindergarten daycare gym salon pharmacy airline airport station council ministry
department court prison farm winery brewery theater theatre orchestra band zoo""".split())
_GENERIC_MODS = frozenset({"product", "project", "team", "company", "official", "final", "big", "public", "main",
                           "actual", "new", "current", "next", "upcoming", "planned", "scheduled", "whole"})
_COMMON_SUBJECTS = frozenset("""everything nothing something anything life work school coffee tea food music art
painting pottery family love time weather traffic money health business dinner lunch breakfast water home
travel nature sleep stuff yoga running cooking sport sports chocolate wine beer reading writing dancing""".split())
_MARITAL = {"married": "married", "single": "single", "divorced": "divorced", "engaged": "engaged",
            "widowed": "widowed", "separated": "separated"}
_DIETS = {"vegetarian", "vegan", "pescatarian", "gluten-free", "keto", "lactose-intolerant", "kosher", "halal"}
_EMPLOYMENT = {"retired": "retired", "unemployed": "unemployed", "self-employed": "self-employed",
               "freelance": "freelance", "jobless": "unemployed"}
_EVENTS = frozenset("""launch release meeting wedding party trip flight appointment interview exam
test concert conference demo offsite surgery graduation move closing kickoff kick-off review
presentation recital game match race marathon ceremony vacation holiday retreat sprint go-live
golive rollout cutover migration class course workshop hackathon premiere opening exhibition show
gig tournament checkup visit reunion dinner lunch party shower funeral baptism christening
hearing trial deployment deploy ship shipment delivery pitch audit onboarding orientation
camp surgery operation procedure session call sync standup standup offsite summit festival
celebration ride drive hike cruise honeymoon""".split())
_DATE_ATTRS = {"deadline": "deadline", "due date": "deadline", "birthday": "birthday",
               "anniversary": "anniversary", "start date": "start_date", "end date": "end_date",
               "launch date": "launch_date", "release date": "release_date", "date": "date",
               "due": "deadline", "go-live date": "launch_date", "cutoff": "deadline",
               "cut-off": "deadline", "eta": "eta", "ship date": "ship_date", "move date": "move_date",
               "wedding date": "wedding_date", "birth date": "birthday", "date of birth": "birthday"}
_METRICS = frozenset("""latency response price cost budget salary rent fee rate weight height revenue
income score rating speed uptime throughput headcount size count temperature balance capacity limit
quota traffic mrr arr churn conversion accuracy p50 p90 p95 p99 runway burn valuation mortgage pay
wage commute distance bpm pace goal target bill payment premium deposit tuition loan debt savings
sales profit margin users customers subscribers followers downloads visitors employees staff
members attendance population usage storage memory load cpu retention nps ctr cac ltv
""".split())
_ATTR_NOUNS = frozenset("""name nickname email phone number address birthday age job title role position
occupation employer company hometown city country nationality major school university college
diet religion team department salary rent budget deadline hobby language tongue car height weight
handle username website instrument sport zodiac sign pronouns gender surname middle maiden
alma mater field specialty specialization degree manager boss lead office workplace neighborhood
neighbourhood street zip postcode timezone""".split())
_STOP_HEADS = frozenset("""day time week month year point problem thing question guess plan idea
stuff way part lot bit kind sort type moment feeling vibe situation issue news deal fact reason
goal dream life mind heart head luck chance turn fault pleasure honor honour favorite favourite
one something everything nothing anything job work""".split())
_BAD_OBJECTS = frozenset("""it this that these those them him her you me us everything anything
something nothing way idea thing things stuff lot lots one ones bit kind sort time times moment
moments feeling vibe vibes sound look fact part rest same pic pics picture pictures photo photos
question questions""".split())

_UNITS = {
    "ms": "ms", "msec": "ms", "millisecond": "ms", "milliseconds": "ms",
    "s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
    "min": "min", "mins": "min", "minute": "min", "minutes": "min",
    "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
    "%": "%", "percent": "%", "pct": "%",
    "kg": "kg", "kgs": "kg", "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg",
    "lb": "lb", "lbs": "lb", "pound": "lb", "pounds": "lb",
    "km": "km", "kilometer": "km", "kilometers": "km", "kilometre": "km", "kilometres": "km",
    "mi": "mi", "mile": "mi", "miles": "mi", "m": "m", "meter": "m", "meters": "m",
    "cm": "cm", "ft": "ft", "feet": "ft", "foot": "ft",
    "gb": "GB", "mb": "MB", "tb": "TB", "kb": "KB",
    "usd": "USD", "dollar": "USD", "dollars": "USD", "buck": "USD", "bucks": "USD",
    "eur": "EUR", "euro": "EUR", "euros": "EUR", "gbp": "GBP", "quid": "GBP",
    "rps": "rps", "qps": "qps", "rpm": "rpm", "bpm": "bpm", "mph": "mph", "kph": "kph",
    "users": "users", "people": "people", "k": "k",
}
_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
_SCALE = {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "million": 1_000_000, "mil": 1_000_000,
          "bn": 1_000_000_000, "billion": 1_000_000_000}
_NUM_UNIT_RE = re.compile(r"^([$€£]?)(\d+(?:[.,]\d+)*)\s*([a-z%]+)?$", re.I)

_CORR_STRONG = re.compile(
    r"\b(?:correction|i meant|i mean(?=[^,.!?]*\bnot\b)|i misspoke|scratch that|typo|my mistake|"
    r"my bad|i was wrong|(?:that|this)(?:'s| is| was) wrong|let me correct|to correct (?:my|that|myself)|"
    r"i got (?:that|it) wrong|i mixed (?:that|it|them) up)\b", re.I)

_WH = frozenset({"what", "who", "whom", "whose", "which", "where", "when", "why", "how"})
_QAUX = frozenset({"do", "does", "did", "are", "is", "was", "were", "can", "could", "would", "will",
                   "have", "has", "had", "should", "shall", "may", "might", "am", "are", "'re"})

_REG: AttributeRegistry | None = None


def _registry() -> AttributeRegistry:
    global _REG
    if _REG is None:
        _REG = AttributeRegistry.default()
    return _REG


def _attr(raw: str) -> str:
    raw = raw.lower().replace("colour", "color").replace("-", "_")
    raw = re.sub(r"^(?:fav|fave|favourite)_", "favorite_", raw)
    return _registry().key(raw)


# --- token helpers --------------------------------------------------------------

def _children(t, *deps: str) -> list:
    return [c for c in t.children if c.dep_ in deps]


def _child(t, *deps: str):
    for c in t.children:
        if c.dep_ in deps:
            return c
    return None


def _text(tokens: Iterable) -> str:
    toks = sorted(tokens, key=lambda t: t.i)
    out = []
    for k, t in enumerate(toks):
        out.append(t.text)
        if k + 1 < len(toks):
            nxt = toks[k + 1]
            if t.whitespace_ or nxt.i != t.i + 1:
                if nxt.text not in ("'s", "’s", "'", "-") and t.text != "-":
                    out.append(" ")
    return "".join(out).strip()


def _polarity(v, skip: frozenset | set = frozenset()) -> str:
    """assert | negate | cease from negation and "no longer" / "anymore" around a predicate.

    "I don't eat meat" -> negate; "I no longer eat meat", "I don't eat meat anymore",
    "I'm not married anymore" -> cease.
    """
    neg = False
    cease = False
    scope = list(v.children)
    for c in v.children:
        if c.dep_ in ("acomp", "attr", "dobj", "xcomp", "prep"):
            scope.extend(x for x in c.children if x.dep_ in ("advmod", "neg", "npadvmod"))
    for c in scope:
        if c.i in skip:
            continue  # the "not" of a contrast ("in Lisbon, not in Porto") negates no clause
        low = c.lower_
        kids = [x.lower_ for x in c.children]
        if c.dep_ == "neg" or low == "never":
            if low == "no" and (c.head.lower_ == "longer" or any(x.lower_ == "longer" for x in scope)):
                cease = True
            else:
                neg = True
        elif low in ("anymore", "longer") and (low == "anymore" or "no" in kids or any(x.lower_ == "no" for x in scope)):
            cease = True
        elif low == "more" and "any" in kids:
            cease = True
        elif low == "any" and ("more" in kids or "longer" in kids):
            cease = True
    if cease:
        return "cease"
    return "negate" if neg else "assert"


class _Ctx:
    __slots__ = ("speaker", "listener", "ref", "names", "claims", "mentions", "times", "sent_text",
                 "correction", "replaces_tok", "doc", "used_corr", "contrast_negs", "negated", "alt")

    def __init__(self, doc, speaker: str, listener: str | None, ref: _dt.datetime):
        self.doc = doc
        self.speaker = speaker
        self.listener = listener
        self.ref = ref
        names = {speaker.lower()}
        if listener:
            names.add(listener.lower())
        for n in list(names):
            names.add(n.split()[0])
        self.names = names
        self.claims: list[Claim] = []
        self.mentions: dict[tuple[int, int], Mention] = {}
        self.times: list[tuple[Any, Any]] = []  # (span tokens frozenset, root token, text)
        self.sent_text = ""
        self.correction = False
        self.replaces_tok = None
        self.used_corr = False
        self.contrast_negs: set[int] = set()  # "not" tokens that mark a contrast, not a negated clause
        self.negated: set[int] = set()  # tokens of the constituent a contrast rejects
        self.alt: dict[int, Any] = {}  # rejected constituent -> its replacement ("not on Monday but on Tuesday")


# --- entities / noun phrases ----------------------------------------------------

def _is_name(t, ctx: _Ctx) -> bool:
    low = t.lower_
    if low in ctx.names:
        return True
    if low in _FIRST or low in _SECOND or low in _OTHER_PRON:
        return False
    if t.ent_type_ in ("DATE", "TIME", "CARDINAL", "ORDINAL", "MONEY", "PERCENT", "QUANTITY"):
        return False
    det = _child(t, "det")
    if det is not None and (det.lower_ in ("a", "an", "another", "every", "each", "any", "some", "no")
                            and t.ent_type_ != "PRODUCT"
                            or det.lower_ == "the" and t.ent_type_ in ("PERSON", "")):
        return False
    if any(c.dep_ == "amod" and c.lower_ == "fellow" or c.dep_ == "compound" and c.pos_ == "NOUN" and c.text.islower()
           for c in t.children):
        return False
    if t.text.islower():
        return False
    if t.pos_ == "NOUN" and t.i == t.sent.start and t.tag_ == "NN" and t.is_alpha and t.text[0].isupper() \
            and t.text[1:].islower() and t.dep_ in ("nsubj", "nsubjpass") and det is None \
            and not any(c.dep_ in ("compound", "amod", "poss") for c in t.children) \
            and low not in _METRICS and low not in _ATTR_NOUNS and low not in _EVENTS and low not in _RELATIONS \
            and low not in _DATE_ATTRS and low not in _COMMON_SUBJECTS and not low.endswith(("ing", "ness", "tion", "ity", "ment")):
        # "Caroline lives in Boston": the small model tags a sentence-initial first name as a common noun
        return True
    if t.pos_ == "PROPN":
        # sentence-initial capitalised common words get tagged PROPN
        if t.i == t.sent.start and (low in _METRICS or low in _ATTR_NOUNS or low in _EVENTS
                                    or low in _RELATIONS or low in _DATE_ATTRS):
            return False
        return True
    return t.ent_type_ in _NAME_LABELS and t.text[:1].isupper()


def _ent_of(t):
    if t.ent_iob_ in ("B", "I") and t.ent_type_ not in _MENTION_SKIP:
        for e in t.doc.ents:
            if e.start <= t.i < e.end:
                return e
    return None


def _name_tokens(t) -> list:
    """The proper-name span headed by t: compounds, flat names, "of" names."""
    toks = [t]
    if t.dep_ != "poss":
        toks.extend(c for c in t.children if c.dep_ == "case" and c.i == t.i + 1)
    for c in t.children:
        if c.dep_ in ("compound", "flat", "nmod") and c.i < t.i and (c.pos_ in ("PROPN", "NUM") or c.text[:1].isupper()):
            toks.extend(x for x in c.subtree if x.dep_ not in ("det", "punct", "case") or x.dep_ == "case")
        elif c.dep_ == "poss" and c.pos_ == "PROPN" and c.i < t.i:
            toks.extend(c.subtree)
    for c in t.children:
        if c.dep_ == "prep" and c.lower_ == "of" and c.i > t.i:
            pobj = _child(c, "pobj")
            if pobj is not None and pobj.pos_ == "PROPN":
                toks.append(c)
                toks.extend(x for x in pobj.subtree if x.dep_ != "punct")
    ent = _ent_of(t)
    if ent is not None and len(ent) > 1:
        extra = [x for x in ent if x.lower_ not in ("the", "a", "an") and x.dep_ != "punct"]
        toks = list({x.i: x for x in toks + extra}.values())
    # keep the contiguous run around t
    toks.sort(key=lambda x: x.i)
    return [x for x in toks if x.lower_ not in ("the",)]


def _name_text(t) -> str:
    text = _text(_name_tokens(t))
    if t.dep_ != "poss" and any(c.dep_ == "case" and c.lower_ in ("'s", "’s") for c in t.children):
        return text.strip()  # "I'm the head chef at Luigi's"
    return re.sub(r"\s*'s$", "", text).strip()


def _np_tokens(t, *, keep_adj: bool = True) -> list:
    """A common noun phrase headed by t, without determiners and possessive pronouns."""
    toks = [t]

    def keep(x) -> bool:
        if x.dep_ == "advmod" and x.i + 1 < len(x.doc) and x.doc[x.i + 1].tag_ == "HYPH":
            return True  # "emotionally-driven"
        if x.dep_ in ("det", "predet", "advmod", "cc", "prep") and x.head.i != t.i:
            return False
        if x.is_punct and x.tag_ != "HYPH":
            return False
        if x.pos_ == "PRON" or x.lower_ in _DROP_ADJ:
            return False
        return True

    for c in t.children:
        if c.i > t.i:
            if c.dep_ == "prep" and c.lower_ == "of" and t.lower_ not in ("lot", "lots", "bunch", "kind", "sort", "type", "couple"):
                pobj = _child(c, "pobj")
                if pobj is not None and (pobj.pos_ in ("PROPN", "NOUN")) and len(list(pobj.subtree)) <= 4:
                    toks.append(c)
                    toks.extend(x for x in pobj.subtree if x.dep_ not in ("det", "punct") and x.pos_ != "PRON")
            continue
        if c.dep_ in ("det", "predet", "punct", "cc", "advmod", "nummod") or (c.dep_ == "poss" and c.pos_ == "PRON"):
            if c.tag_ == "HYPH":
                toks.append(c)
            continue
        if c.dep_ == "amod" and (not keep_adj or c.lower_ in _DROP_ADJ):
            continue
        if c.dep_ in ("compound", "amod", "nmod", "poss", "case", "quantmod", "npadvmod"):
            toks.extend(x for x in c.subtree if keep(x))
    return sorted({x.i: x for x in toks}.values(), key=lambda x: x.i)


def _np_text(t, *, keep_adj: bool = True) -> str:
    toks = _np_tokens(t, keep_adj=keep_adj)
    out = []
    for k, x in enumerate(toks):
        proper = x.pos_ == "PROPN" or x.ent_type_ in _NAME_LABELS or (x.text[:1].isupper() and x.i != x.sent.start)
        out.append(x.text if proper else x.text.lower())
        if k + 1 < len(toks):
            nxt = toks[k + 1]
            if (x.whitespace_ or nxt.i != x.i + 1) and nxt.tag_ != "HYPH" and x.tag_ != "HYPH" and nxt.text not in ("'s", "’s"):
                out.append(" ")
    return "".join(out).strip()


def _value_of(t, ctx: _Ctx) -> tuple[str, bool]:
    """(surface value, is_entity) for a value token."""
    if _is_name(t, ctx) and t.lower_ not in ctx.names:
        return _name_text(t), True
    if t.lower_ in ctx.names:
        return (ctx.speaker if t.lower_ in (ctx.speaker.lower(), ctx.speaker.lower().split()[0]) else ctx.listener or t.text), True
    return _np_text(t), False


def _conjuncts(t) -> list:
    out = [t]
    stack = [t]
    while stack:
        x = stack.pop()
        for c in x.children:
            if c.dep_ == "conj" and not any(n.dep_ == "neg" for n in c.children):
                out.append(c)
                stack.append(c)
            elif c.dep_ == "appos" and c.pos_ in ("NOUN", "PROPN") and x.pos_ in ("NOUN", "PROPN") and \
                    not any(n.dep_ == "neg" for n in c.children) and False:
                out.append(c)
    return out


# --- subjects -----------------------------------------------------------------

@dataclass(slots=True)
class _Subj:
    name: str
    is_speaker: bool
    conf: float
    person: bool  # a person (speaker, listener, relative) vs a thing
    token: Any = None


def _is_vocative(s) -> bool:
    """ "Hey Nate, my favorite ..." -- the parser makes the addressee a subject."""
    doc = s.doc
    nxt = doc[s.i + 1] if s.i + 1 < len(doc) else None
    if nxt is None or nxt.text != ",":
        return False
    prev = doc[s.i - 1] if s.i > s.sent.start else None
    return prev is None or prev.pos_ == "INTJ" or prev.lower_ in ("hey", "hi", "hello", "thanks", "yo", "oh", "wow", "dear", ",")


class _Implicit:
    """The dropped subject of a chat fragment ("Moved to Lisbon last week!"): the speaker."""

    lower_ = "i"
    text = "I"
    lemma_ = "I"
    pos_ = "PRON"
    tag_ = "PRP"
    dep_ = "nsubj"
    ent_type_ = ""
    ent_iob_ = "O"
    children = ()
    subtree = ()

    def __init__(self, v):
        self.i = v.i
        self.head = v
        self.doc = v.doc
        self.sent = v.sent
        self.idx = v.idx


def _dropped_subject(v) -> bool:
    """A past-tense fragment that starts the sentence: "Moved to Lisbon!", "Just started at Google!"."""
    if v.dep_ != "ROOT" or not (v.tag_ in ("VBD", "VBN") or v.lower_ in ("got", "quit")) or v.lemma_ == "be":
        return False
    if any(c.dep_ in ("auxpass", "aux", "expl", "csubj") for c in v.children):
        return False
    return all(t.pos_ in ("ADV", "INTJ", "PUNCT", "SPACE") for t in v.doc[v.sent.start:v.i])


def _subject_token(v):
    s = _child(v, "nsubj", "nsubjpass")
    if s is not None:
        if s.pos_ == "PROPN" and _is_vocative(s):
            return None
        return s
    for c in v.children:
        # "Tim works at Meta": the parser sometimes makes a sentence-initial name an npadvmod
        if c.dep_ == "npadvmod" and c.i < v.i and c.i == c.sent.start and c.pos_ == "PROPN" and c.ent_type_ == "PERSON":
            return c
    if _dropped_subject(v):
        return _Implicit(v)
    h = v
    for _ in range(4):
        if h.dep_ in ("conj", "xcomp") and h.head.i != h.i:
            h = h.head
            s = _child(h, "nsubj", "nsubjpass")
            if s is not None:
                return s
        else:
            break
    return None


def _resolve_subject(s, ctx: _Ctx) -> _Subj | None:
    if s is None:
        return None
    low = s.lower_
    if low in _FIRST:
        return _Subj(ctx.speaker, True, 1.0, True, s)
    if low in _SECOND:
        if ctx.listener:
            return _Subj(ctx.listener, False, 0.9, True, s)
        return None
    if low in _OTHER_PRON:
        return None
    # possessed relation: "my sister", "Melanie's daughter"
    rel = _relation_key(s)
    if rel is not None:
        owner = _poss_owner(s, ctx)
        if owner is not None:
            return _Subj(f"{owner.name}'s {s.lower_}", False,
                         0.8, s.lower_ not in _PETS, s)
        return None
    if _is_name(s, ctx):
        if low in ctx.names:
            name = ctx.speaker if low in (ctx.speaker.lower(), ctx.speaker.lower().split()[0]) else (ctx.listener or s.text)
            return _Subj(name, name == ctx.speaker, 1.0, True, s)
        ent = _ent_of(s)
        # The small model often calls a first name ORG or NORP ("Caroline is a nurse"): a one-word
        # name that is not all capitals counts as a person unless it is clearly a place or a thing.
        person = ent is None or ent.label_ == "PERSON" or (
            ent.label_ in ("ORG", "NORP") and len(ent) == 1 and not s.text.isupper())
        return _Subj(_name_text(s), False, 0.9, person, s)
    return None


def _relation_key(t) -> str | None:
    low = t.lower_
    lem = t.lemma_.lower()
    if low in _RELATIONS:
        return _RELATIONS[low]
    if lem in _RELATIONS:
        return _RELATIONS[lem]
    if lem in _PETS or low in _PETS:
        return "pet"
    return None


def _poss_owner(t, ctx: _Ctx) -> _Subj | None:
    p = _child(t, "poss")
    if p is None:
        return None
    low = p.lower_
    if low in ("my", "our", "mine"):
        return _Subj(ctx.speaker, True, 1.0, True, p)
    if low in ("your", "ur"):
        return _Subj(ctx.listener, False, 0.9, True, p) if ctx.listener else None
    if p.pos_ == "PRON":
        return None
    if p.pos_ == "NOUN" and _relation_key(p) is not None:
        # "my dog's name", "Melanie's daughter's school"
        o2 = _poss_owner(p, ctx)
        if o2 is not None:
            return _Subj(f"{o2.name}'s {p.lower_}", False, 0.8, p.lower_ not in _PETS, p)
        return None
    if _is_name(p, ctx):
        if p.lower_ in ctx.names:
            name = ctx.speaker if p.lower_ in (ctx.speaker.lower(), ctx.speaker.lower().split()[0]) else (ctx.listener or p.text)
            return _Subj(name, name == ctx.speaker, 1.0, True, p)
        return _Subj(_name_text(p), False, 0.9, True, p)
    return None


def _owner(h, ctx: _Ctx) -> tuple[_Subj | None, bool]:
    """Owner of an attribute/event noun: (subject, explicit?). None subject = a pronoun owner we skip."""
    p = _child(h, "poss")
    if p is not None:
        o = _poss_owner(h, ctx)
        if o is None and p.pos_ == "NOUN" and _relation_key(p) is None and p.lemma_.lower() not in _STOP_HEADS:
            det = _child(p, "det")
            if det is not None and det.lower_ in ("the", "our", "my"):
                # "the app's load time", "our company's headcount": the thing is the subject
                return _Subj(_np_text(p), False, 0.8, False, p), True
        return o, True
    for c in h.children:
        if c.dep_ == "compound" and c.i < h.i and not any(ch.isdigit() for ch in c.text) and \
                (_is_name(c, ctx) or c.text.isupper() and len(c.text) > 1 and c.is_alpha):
            return _Subj(_name_text(c), c.lower_ in ctx.names and c.lower_ == ctx.speaker.lower(), 0.9, False, c), True
    for c in h.children:
        if c.dep_ == "prep" and c.lower_ in ("of", "for") and c.i > h.i:
            pobj = _child(c, "pobj")
            if pobj is not None and _is_name(pobj, ctx):
                return _Subj(_name_text(pobj), False, 0.9, False, pobj), True
    return _Subj(ctx.speaker, True, 0.8, True, None), False


# --- numbers ----------------------------------------------------------------

def _fmt_num(x: float) -> int | float:
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def _parse_number(t) -> tuple[float, str | None, list] | None:
    """A number (with unit) headed at or around token t: (number, unit, tokens)."""
    toks = [t]
    num = None
    unit = None
    cur = None
    m = _NUM_UNIT_RE.match(t.text.replace("\u00a0", ""))
    suffix = (m.group(3) or "").lower() if m else ""
    if m and (not suffix or suffix in _UNITS or suffix in _SCALE) and not t.ent_type_ == "DATE":
        raw = m.group(2).replace(",", "")
        try:
            num = float(raw)
        except ValueError:
            num = None
        if num is not None:
            if m.group(1):
                cur = _CURRENCY[m.group(1)]
            if suffix in _SCALE and (suffix != "m" or cur):
                num *= _SCALE[suffix]
            elif suffix:
                unit = _UNITS[suffix]
    if num is None and t.lower_ in _SCALE:
        n = next((c for c in t.children if c.dep_ in ("compound", "nummod", "quantmod") and (c.like_num or _NUM_UNIT_RE.match(c.text))), None)
        if n is not None:
            base = word_number(n.text) if n.like_num else None
            if base is None:
                mm = _NUM_UNIT_RE.match(n.text)
                base = float(mm.group(2).replace(",", "")) if mm else None
            if base is not None:
                num = float(base) * _SCALE[t.lower_]
                toks.append(n)
    if num is None and t.like_num:
        num = word_number(t.text)
    if num is None:
        # head is the unit: "180 ms", "5 kilos", "$5,000" (nummod child)
        n = _child(t, "nummod", "quantmod")
        if t.ent_type_ in ("DATE", "TIME") and t.lemma_.lower() in ("day", "week", "month", "year", "decade", "night", "morning"):
            return None
        if n is not None and n.like_num:
            num = word_number(n.text)
            if num is None:
                return None
            toks.append(n)
            u = t.lower_
            if u in _SCALE:
                num *= _SCALE[u]
            elif u in _UNITS:
                unit = _UNITS[u]
            else:
                unit = t.lemma_.lower()
        else:
            return None
    # currency symbol before, scale/unit after
    for c in t.children:
        if c.text in _CURRENCY:
            cur = _CURRENCY[c.text]
            toks.append(c)
        elif c.dep_ in ("compound", "nmod", "quantmod") and c.lower_ in _SCALE:
            num *= _SCALE[c.lower_]
    prev = t.doc[t.i - 1] if t.i > 0 else None
    if prev is not None and prev.text in _CURRENCY:
        cur = _CURRENCY[prev.text]
        toks.append(prev)
    nxt = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
    if unit is None and nxt is not None and nxt.sent == t.sent:
        nl = nxt.lower_
        if nl in _SCALE and nl not in ("m",):
            num *= _SCALE[nl]
            toks.append(nxt)
            nxt = t.doc[nxt.i + 1] if nxt.i + 1 < len(t.doc) else None
            nl = nxt.lower_ if nxt is not None else ""
        if nl in _UNITS and nl not in ("people", "users") and nxt is not None:
            unit = _UNITS[nl]
            toks.append(nxt)
    if cur and unit in (None, "USD", "EUR", "GBP"):
        unit = cur
    if unit == "lb" and cur == "GBP":
        unit = "GBP"
    return float(num), unit, toks


def _num_value(num: float, unit: str | None) -> str | int | float:
    n = _fmt_num(num)
    if unit is None:
        return n
    if unit == "%":
        return f"{n}%"
    return f"{n} {unit}"


# --- the extractor ------------------------------------------------------------

_TAGS = frozenset({"remember", "right", "you know", "ok", "okay", "yeah", "no", "eh", "huh", "see", "lol", "haha",
                   "isn't it", "didn't i", "don't i", "wasn't it", "aren't i", "as you know", "you see", "innit"})


def _is_question(sent) -> bool:
    toks = [t for t in sent if not t.is_space]
    if not toks:
        return True
    if any(t.text == "?" for t in toks[-3:]) or toks[-1].text.endswith("?"):
        # a statement with a tag: "I'm a vegetarian, remember?"
        commas = [k for k, t in enumerate(toks) if t.text == ","]
        if commas:
            tail = " ".join(t.lower_ for t in toks[commas[-1] + 1:] if not t.is_punct)
            head = toks[:commas[-1]]
            if tail in _TAGS and head and head[0].lower_ not in _WH and not (head[0].pos_ == "AUX" and head[0].dep_ != "nsubj"):
                return False
        return True
    words = [t for t in toks if not t.is_punct]
    if not words:
        return True
    w0 = words[0]
    if w0.lower_ in _WH and len(words) > 1 and (words[1].pos_ == "AUX" or words[1].lower_ in _QAUX):
        return True
    if w0.lower_ in _QAUX and w0.pos_ == "AUX" and len(words) > 1 and words[1].dep_ in ("nsubj", "expl", "nsubjpass"):
        return True
    return False


def _verb_tense(v) -> str:
    """past | perfect | future | progressive | present."""
    auxes = [c for c in v.children if c.dep_ in ("aux", "auxpass")]
    if not auxes and v.dep_ == "conj" and v.tag_ in ("VBG", "VBN") and v.head.pos_ in ("VERB", "AUX") and v.head.i != v.i:
        return _verb_tense(v.head)  # "We're having dinner and enjoying lasagna"
    lows = {a.lower_ for a in auxes}
    lemmas = {a.lemma_.lower() for a in auxes}
    if "will" in lemmas or "'ll" in lows or "wo" in lows or "shall" in lemmas:
        return "future"
    if v.head.i != v.i and v.dep_ == "xcomp" and v.head.lemma_ == "go" and v.head.tag_ == "VBG":
        return "future"
    if v.lower_ in ("gonna",) or any(a.lower_ in ("gonna",) for a in auxes):
        return "future"
    if "have" in lemmas and v.tag_ == "VBN":
        if any(a.lower_ in ("had", "'d") and a.lemma_ == "have" for a in auxes):
            return "past"
        return "perfect"
    if any(a.tag_ == "VBD" for a in auxes):
        return "past"
    if v.tag_ == "VBD":
        return "past"
    if v.tag_ == "VBG" and any(a.lemma_ == "be" for a in auxes):
        return "progressive"
    return "present"


def _hypothetical(v) -> bool:
    for c in v.children:
        if c.dep_ == "aux" and (c.lemma_.lower() in _MODALS or c.lower_ in ("'d",) and c.lemma_ != "have"):
            return True
        if c.dep_ == "mark" and c.lower_ in _HYPO_MARKS:
            return True
        if c.dep_ == "aux" and c.lower_ in ("ca", "can") and v.lemma_ not in ("speak", "stand"):
            # "I can't wait", "I can move" -- ability/possibility, not a fact
            return True
    return False


_EPISTEMIC = frozenset({"think", "believe", "suppose", "hope", "wish", "want", "wonder", "doubt", "imagine", "feel",
                        "bet", "assume", "expect", "fear", "worry", "seem", "dream", "pretend", "plan", "consider",
                        "ask", "question", "guess", "hear", "pray", "reckon", "sound", "look", "appear", "would", "if",
                        "need", "try", "decide", "intend", "aim", "like", "love", "prefer", "hate", "afraid", "sure",
                        "unsure", "scared", "possible", "likely", "unlikely", "maybe", "whether"})
_TELL = frozenset({"tell", "let", "share", "say", "update", "mention", "announce", "inform", "know"})


def _clean_path(t) -> bool:
    """Whether a predicate states something, judged by its way up to the sentence root."""
    h = t
    for _ in range(8):
        mark = _child(h, "mark")
        if mark is not None and mark.lower_ in _HYPO_MARKS:
            return False
        if h.dep_ == "ROOT" or h.head.i == h.i:
            return True
        if h.dep_ in ("relcl", "csubj", "pcomp", "amod", "acl") and _child(h, "nsubj", "nsubjpass") is None:
            return False
        if h.dep_ == "relcl":
            return False
        head = h.head
        hl = head.lemma_.lower()
        if h.dep_ in ("ccomp", "xcomp", "advcl", "acl") and hl in _EPISTEMIC:
            if not (h.dep_ == "xcomp" and h.lemma_.lower() in _TELL and hl in ("want", "like", "love")):
                return False
        if h.dep_ == "advcl":
            if mark is not None and not (mark.lower_ in _FACT_MARKS and _verb_tense(h) in ("past", "perfect")):
                return False
        if any(c.dep_ == "aux" and c.lemma_.lower() in _MODALS for c in head.children) and h.dep_ in ("ccomp", "xcomp"):
            return False
        h = head
    return False


class _Extractor:
    def __init__(self, doc, speaker: str, listener: str | None, ref: _dt.datetime):
        self.doc = doc
        self.ctx = _Ctx(doc, speaker, listener, ref)

    # ---- driver
    def run(self) -> Extraction:
        ctx = self.ctx
        self._collect_times()
        self._collect_mentions()
        carry_correction = False
        for sent in self.doc.sents:
            if _is_question(sent):
                carry_correction = False
                continue
            ctx.sent_text = sent.text.strip()
            low = sent.text.lower()
            strong = bool(_CORR_STRONG.search(low))
            self._contrast_spans(sent)
            contrast = self._contrast(sent)
            ctx.correction = strong or carry_correction or (contrast is not None)
            ctx.replaces_tok = contrast
            ctx.used_corr = False
            n_before = len(ctx.claims)
            for v in self._predicates(sent):
                try:
                    self._predicate(v)
                except (IndexError, KeyError, ValueError):  # defensive: odd parses
                    continue
            if ctx.correction and len(ctx.claims) == n_before:
                self._bare_correction(sent)
            carry_correction = strong and len(ctx.claims) == n_before
        claims = self._dedupe(ctx.claims)
        mentions = sorted(ctx.mentions.values(), key=lambda m: (m.start, m.end))
        return Extraction(claims=claims, mentions=mentions)

    def _dedupe(self, claims: list[Claim]) -> list[Claim]:
        seen = set()
        out = []
        for c in claims:
            key = (c.subject.lower(), c.attribute, str(c.value).lower(), c.polarity)
            if key in seen or (c.value == "" and c.polarity == "assert"):
                continue
            seen.add(key)
            out.append(c)
        return out

    # ---- mentions
    def _collect_mentions(self) -> None:
        ctx = self.ctx
        for e in self.doc.ents:
            if e.label_ in _MENTION_SKIP:
                continue
            text = e.text
            start = e.start_char
            if e[0].lower_ == "the":
                start = e[1].idx if len(e) > 1 else start
                text = self.doc.text[start:e.end_char]
            text = re.sub(r"(?:'s|’s)$", "", text)
            ctx.mentions[(start, start + len(text))] = Mention(text, e.label_, start, start + len(text))
        for t in self.doc:
            low = t.lower_
            if low in _FIRST:
                ctx.mentions[(t.idx, t.idx + len(t))] = Mention(ctx.speaker, "PERSON_SPEAKER", t.idx, t.idx + len(t))
            elif low in _SECOND and ctx.listener and t.pos_ == "PRON":
                ctx.mentions[(t.idx, t.idx + len(t))] = Mention(ctx.listener, "PERSON_SPEAKER", t.idx, t.idx + len(t))

    def _mention_concept(self, toks: list, name: str) -> None:
        if not toks or not name:
            return
        start = min(t.idx for t in toks)
        end = max(t.idx + len(t) for t in toks)
        for (s, e) in self.ctx.mentions:
            if s < end and start < e:
                return
        self.ctx.mentions[(start, end)] = Mention(name, "CONCEPT", start, end)

    # ---- times
    def _collect_times(self) -> None:
        ctx = self.ctx
        covered = set()
        for e in self.doc.ents:
            if e.label_ in ("DATE", "TIME"):
                ctx.times.append((frozenset(t.i for t in e), e.root, e.text))
                covered.update(t.i for t in e)
        timeword = re.compile(
            r"^(?:yesterday|today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
            r"january|february|march|april|june|july|august|september|october|november|december|"
            r"(?:19|20)\d\d|\d{4}-\d\d-\d\d|weekend|summer|winter|spring|autumn|fall)$")
        for t in self.doc:
            if t.i in covered or not timeword.match(t.lower_):
                continue
            if t.lower_ == "march" and t.pos_ == "VERB":
                continue
            if t.lower_ in ("fall", "spring") and t.pos_ != "NOUN":
                continue
            toks = [t] + [c for c in t.children if c.dep_ in ("amod", "det", "nummod", "compound") and c.lower_ in
                          ("last", "next", "this", "past", "coming", "previous", "the") or c.like_num]
            ctx.times.append((frozenset(x.i for x in toks), t, _text(toks)))

    def _is_time_tok(self, t) -> bool:
        for toks, _, _ in self.ctx.times:
            if t.i in toks:
                return True
        return False

    def _time_of(self, t) -> tuple[Any, Any, str] | None:
        for entry in self.ctx.times:
            if t.i in entry[0]:
                return entry
        return None

    def _resolve_time_tok(self, t, direction: int, text: str | None = None) -> TimeRef | None:
        entry = self._time_of(t)
        if entry is None:
            return None
        toks, root, etext = entry
        if text is None:
            text = etext
        else:
            root = t
        prep = root.head if root.head.dep_ == "prep" or root.head.pos_ == "ADP" else None
        if prep is not None and prep.lower_ in ("in", "within") and re.match(r"^(?:\d|a |an |one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple)", text.lower()):
            text = prep.lower_ + " " + text
        return resolve(text, self.ctx.ref, direction)

    def _qualifiers(self, v, value_toks: set, *, share: bool = True) -> list[tuple[TimeRef | None, str, dict | None, str]]:
        """Time expressions qualifying predicate v: (root token, prep, duration, text).

        A predicate with no time of its own takes the one of a predicate it is
        conjoined with ("I left Deloitte and started at KPMG last month").
        """
        out = self._own_qualifiers(v, value_toks)
        if out or not share:
            return out
        partners = [c for c in v.children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX")]
        if v.dep_ == "conj" and v.head.pos_ in ("VERB", "AUX"):
            partners.append(v.head)
        for p in partners:
            if _child(p, "nsubj", "nsubjpass") is not None and _subject_token(p) is not None and \
                    _subject_token(v) is not None and _subject_token(p).lower_ != _subject_token(v).lower_:
                continue  # another subject: "I moved in May and she joined in June"
            got = self._own_qualifiers(p, value_toks)
            if got:
                return got
        return out

    def _own_qualifiers(self, v, value_toks: set) -> list[tuple[Any, str, dict | None, str]]:
        out = []
        for toks, root, text in self.ctx.times:
            if toks & self.ctx.negated:
                continue  # "not on Monday but on Tuesday"
            if toks & value_toks:
                rest = sorted(toks - value_toks)
                if not rest or rest[-1] - rest[0] + 1 != len(rest):
                    continue
                rtoks = [self.doc[i] for i in rest]
                root = next((x for x in rtoks if x.head.i not in toks - value_toks or x.head.i == x.i), None)
                if root is None:
                    continue
                text = _text(rtoks)
            h = root
            ok = False
            for _ in range(6):
                if h.i in value_toks:
                    break
                if h.i == v.i:
                    ok = True
                    break
                if h.pos_ in ("VERB", "AUX") and h.dep_ in ("ccomp", "conj", "advcl", "relcl", "parataxis", "ROOT"):
                    break  # the time belongs to another clause
                if h.head.i == h.i:
                    break
                h = h.head
            if not ok:
                # fronted time shared by conjoined predicates: "Last month I quit X and joined Y"
                if v.dep_ == "conj" and root.head.i == v.head.i and root.i < v.head.i:
                    ok = True
            if not ok:
                continue
            prep = ""
            p = root.head
            if p.i != root.i and (p.dep_ == "prep" or p.pos_ in ("ADP", "SCONJ")) and p.lower_ in (
                    "since", "from", "until", "till", "to", "through", "in", "on", "at", "by", "for", "during", "as", "after", "before",
                    "between"):
                prep = p.lower_
                if prep == "as" and any(c.lower_ == "of" for c in p.children):
                    prep = "since"
            dur = parse_duration(text) if prep == "for" or re.search(r"\b(?:years?|months?|weeks?|days?)$", text.lower()) and not re.search(r"\b(?:ago|last|next|this|past)\b", text.lower()) else None
            out.append((root, prep, dur, text))
        return out

    def _apply_time(self, v, value_toks: set, *, state: bool, polarity: str, eff_tense: str | None = None
                    ) -> tuple[_dt.datetime | None, _dt.datetime | None, str]:
        """(valid_from, valid_to, polarity) for predicate v.

        ``eff_tense``: the tense of the claim (a completed move is a present
        state); the verb's own tense still places bare dates.
        """
        tense = _verb_tense(v)
        bounded = state and (eff_tense or tense) == "past"
        quals = self._qualifiers(v, value_toks)
        if not quals:
            return None, None, polarity
        direction = -1 if tense in ("past", "perfect") else (1 if tense == "future" else -1 if state else 0)
        vf = vt = None
        start_ref = end_ref = None
        point = None
        for root, prep, dur, text in quals:
            if dur is not None and prep in ("for", ""):
                if tense in ("perfect", "present", "progressive") and not re.search(r"\bago\b", text.lower()):
                    try:
                        vf = _dt.datetime.combine(shift(self.ctx.ref.astimezone(UTC).date(), **{k: -v_ for k, v_ in dur.items()}),
                                                  _dt.time(), tzinfo=UTC)
                    except (OverflowError, ValueError):  # "for ten years" said in year 3: before the calendar
                        pass
                continue
            rng = re.fullmatch(r"(?:between\s+)?(.+?)\s+(?:to|until|till|through|thru|and|-|–)\s+(.+)", text.strip(), re.I)
            if rng is not None and prep in ("from", "between", ""):
                a = resolve(rng.group(1), self.ctx.ref, -1)
                b = resolve(rng.group(2), self.ctx.ref, -1)
                if a is not None and b is not None:
                    start_ref = a
                    end_ref = ("until" if re.search(r"\buntil|till\b", text) else "to", b)
                    continue
            tr = self._resolve_time_tok(root, -1 if prep in ("since", "from") else direction, text)
            if tr is None:
                continue
            if prep in ("since", "from"):
                start_ref = tr
            elif prep in ("until", "till"):
                end_ref = ("until", tr)
            elif prep in ("to", "through") and start_ref is not None:
                end_ref = ("to", tr)
            elif prep == "by" and state:
                start_ref = start_ref or tr
            else:
                point = tr
        if start_ref is not None:
            vf = start_ref.start
            if end_ref is not None:
                vt = end_ref[1].start if end_ref[0] == "until" else end_ref[1].end
        elif end_ref is not None:
            if bounded:
                # "I lived in Hamburg until 2019": the state ended then
                return end_ref[1].start, None, "cease"
        if point is not None and vf is None:
            vf = point.start
            if bounded and polarity != "cease" and point.grain in ("month", "season", "year"):
                vt = point.end
        if vf is not None and vt is not None and vt <= vf:
            vt = None
        return vf, vt, polarity

    # ---- predicates
    def _predicates(self, sent) -> list:
        root = sent.root
        out = []
        seen = set()

        def add(v):
            if v.i in seen:
                return
            seen.add(v.i)
            out.append(v)
            for c in v.children:
                if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX"):
                    add(c)
                elif c.dep_ == "parataxis" and c.pos_ in ("VERB", "AUX"):
                    add(c)
                elif c.dep_ in ("ccomp", "parataxis", "dep", "advcl") and v.pos_ == "INTJ" and c.pos_ in ("VERB", "AUX"):
                    add(c)  # "You work at Google, right." / "Yeah, I moved"
                elif c.dep_ == "ccomp" and c.i > v.i and c.pos_ in ("VERB", "AUX") and c.left_edge.i > 0 and \
                        c.doc[c.left_edge.i - 1].lower_ in ("and", "but", ";"):
                    add(c)  # "X is Friday and Y is Monday" parsed as a ccomp
                elif c.dep_ == "ccomp" and (v.lemma_.lower() in _REPORT_HEADS or
                                            (v.lemma_ == "be" and _child(v, "acomp") is not None and
                                             _child(v, "acomp").lemma_.lower() in _REPORT_HEADS)):
                    add(c)
                elif c.dep_ == "xcomp" and v.lemma_.lower() in ("want", "like", "love") and c.lemma_.lower() in ("tell", "let", "share", "say", "update", "mention", "announce", "inform"):
                    add(c)
                elif c.dep_ == "xcomp" and v.lemma_.lower() in _REPORT_HEADS and c.lemma_.lower() in ("tell", "let", "share", "say", "update", "mention", "announce", "inform", "know"):
                    add(c)
                elif c.dep_ == "advcl" and c.pos_ in ("VERB", "AUX"):
                    mark = _child(c, "mark")
                    if mark is not None and mark.lower_ in _FACT_MARKS and _verb_tense(c) in ("past", "perfect"):
                        add(c)
                    elif mark is None and c.i < v.i and v.lemma_.lower() not in _REPORT_HEADS and _child(c, "nsubj") is not None and c.tag_ == "VBD":
                        add(c)
                elif c.dep_ == "acomp" and c.lemma_.lower() in ("excited", "happy", "glad", "thrilled", "proud"):
                    for cc in c.children:
                        if cc.dep_ in ("xcomp", "ccomp") and cc.lemma_.lower() in ("say", "announce", "share", "report", "tell"):
                            add(cc)
                        elif cc.dep_ == "ccomp":
                            add(cc)
        add(root)
        # Clauses the walk above did not reach because the small parser hung them oddly
        # ("Correction: X is Y" -> acl of "Correction"; "I'm a fan of X - it's great" -> ccomp):
        # any predicate with its own subject whose way up to the root is not hedged.
        for t in sent:
            if t.i in seen or not (t.pos_ in ("VERB", "AUX") or t.lemma_ == "like" and t.dep_ == "ROOT"):
                continue
            if _child(t, "nsubj", "nsubjpass") is None or t.dep_ in ("relcl", "csubj", "pcomp", "amod", "xcomp", "aux", "auxpass"):
                continue
            if _clean_path(t):
                add(t)
        return out

    def _predicate(self, v) -> None:
        if v.pos_ not in ("VERB", "AUX") and not (v.lemma_ == "like" and _child(v, "nsubj") is not None):
            if v.pos_ in ("NOUN", "PROPN", "ADJ"):
                return
            return
        if _hypothetical(v):
            return
        # a predicate inside an "if" clause or under a hypothetical head
        h = v
        for _ in range(4):
            if h.dep_ in ("advcl", "ccomp", "conj") and _child(h, "mark") is not None and _child(h, "mark").lower_ in _HYPO_MARKS:
                return
            if h.head.i == h.i:
                break
            h = h.head
        lemma = v.lemma_.lower()
        # "used to live in X", "stopped eating meat", "started working at X", "ended up moving to"
        xc = _child(v, "xcomp")
        if xc is not None and xc.pos_ == "VERB":
            if lemma == "use" and v.tag_ == "VBD":
                self._clause(xc, force_polarity="cease", subj_tok=_subject_token(v))
                return
            if lemma in ("start", "begin", "continue", "keep", "end", "manage", "get", "finally", "decide") and lemma != "decide":
                if not (lemma == "get" and xc.lemma_ in ("know",)):
                    self._clause(xc, subj_tok=_subject_token(v), time_verb=v)
                    if lemma in ("start", "begin"):
                        return
            if lemma in ("stop", "quit") or (lemma == "give" and _child(v, "prt") is not None):
                self._clause(xc, force_polarity="cease", subj_tok=_subject_token(v), time_verb=v)
                return
        self._clause(v)

    # ---- one clause
    def _clause(self, v, *, force_polarity: str | None = None, subj_tok=None, time_verb=None) -> None:
        ctx = self.ctx
        if _hypothetical(v):
            return
        st = subj_tok if subj_tok is not None else _subject_token(v)
        lemma = v.lemma_.lower()
        pol = force_polarity or _polarity(v, ctx.contrast_negs)
        if time_verb is not None and force_polarity is None:
            p2 = _polarity(time_verb, ctx.contrast_negs)
            if p2 != "assert":
                pol = p2
        tense = _verb_tense(time_verb if time_verb is not None else v)
        if force_polarity == "cease":
            tense = "present"
        if lemma in ("become", "marry") and tense in ("past", "perfect"):
            tense = "present"  # a change of state that still holds
        if st is not None and subj_tok is None:
            others = [c for c in st.children if c.dep_ == "conj" and c.pos_ in ("PROPN", "PRON", "NOUN")
                      and not any(n.dep_ == "neg" for n in c.children)]
            for o in others:
                # "Tom and Anna got married", "My partner and I live in Oslo": one claim per subject
                self._dispatch(v, o, lemma, pol, tense, time_verb)
        self._dispatch(v, st, lemma, pol, tense, time_verb)

    def _dispatch(self, v, st, lemma: str, pol: str, tense: str, time_verb) -> None:
        ctx = self.ctx
        args = dict(v=v, st=st, pol=pol, tense=tense, tv=time_verb or v)
        if lemma == "be" or (lemma in ("become", "remain", "stay", "turn", "get") and _child(v, "attr", "acomp") is not None and lemma != "get") \
                or (lemma == "get" and _child(v, "acomp") is not None and _child(v, "acomp").lower_ in _MARITAL):
            self._copular(**args)
            return
        if st is not None and st.lower_ == "it" and lemma in ("mean",):
            return
        # "we pushed the launch to June", "we moved the launch to May 17"
        if st is not None and (st.lower_ in _FIRST or _is_name(st, ctx)) and lemma in _EVENT_VERBS:
            o = _child(v, "dobj")
            if o is not None and o.pos_ in ("NOUN", "PROPN") and self._event_change(**args, h=o):
                return
        handler = _VERB_HANDLERS.get(lemma)
        if handler is not None:
            getattr(self, handler)(**args)
            return
        # event and metric verbs with a noun subject
        if st is not None and not _is_name(st, ctx) and st.lower_ not in _FIRST | _SECOND:
            if self._event_change(**args):
                return
            if self._metric_change(**args):
                return
        elif st is not None and (st.lower_ in _FIRST or _is_name(st, ctx)):
            if self._metric_change(**args):
                return
        if st is not None and _is_name(st, ctx) and lemma in ("launch", "ship", "release", "open", "premiere", "start", "begin", "close", "end", "go"):
            self._named_event(**args)

    # ---- emit
    def _emit(self, subj: _Subj, attribute: str, value, *, v, pol: str, tense: str, tv=None, state: bool = True,
              value_toks: Iterable = (), is_entity: bool = False, conf: float = 1.0, rule: str = "",
              unit: str | None = None, number: float | None = None, past_means_cease: bool = True,
              valid_from=None) -> None:
        ctx = self.ctx
        if value is None or (isinstance(value, str) and not value.strip() and pol == "assert"):
            return
        if isinstance(value, str):
            value = value.strip().strip("\"'“”").strip()
            if value.lower() in _BAD_OBJECTS:
                return
        attribute = _attr(attribute) if attribute else ""
        if not attribute and not ctx.correction:
            return
        vt_set = {t.i for t in value_toks}
        if vt_set and ctx.negated and vt_set <= ctx.negated:
            return  # "in Lisbon, not in Porto": Porto is what is rejected
        vf, vt, pol = self._apply_time(tv or v, vt_set, state=state, polarity=pol, eff_tense=tense)
        if valid_from is not None:
            vf = valid_from
        if pol == "assert" and tense == "past" and state and past_means_cease and vt is None and vf is None:
            # "I lived in Hamburg" (simple past of a state): it no longer holds
            pol = "cease"
        if tense == "future" and vf is None and pol == "assert" and state:
            return  # a plan without a date is not a fact
        if tense == "future" and pol == "assert":
            conf *= 0.8
        correction = ctx.correction
        replaces = None
        if correction and ctx.replaces_tok is not None:
            replaces = self._replaces_text(ctx.replaces_tok, attribute)
            if replaces is not None and str(replaces).lower() == str(value).lower():
                replaces = None
        claim = Claim(
            subject=subj.name, attribute=attribute, value=value, text=ctx.sent_text,
            valid_from=vf, polarity=pol, correction=correction, replaces=replaces,
            subject_is_speaker=subj.is_speaker, value_is_entity=is_entity,
            confidence=round(min(subj.conf, 1.0) * conf, 3), valid_to=vt, unit=unit, number=number, rule=rule)
        ctx.claims.append(claim)
        if correction:
            ctx.used_corr = True
        if subj.token is not None and not subj.is_speaker and subj.token.lower_ not in _FIRST | _SECOND:
            self._mention_concept([subj.token], subj.name)
        if is_entity and value_toks:
            self._mention_concept(list(value_toks), str(value))

    def _replaces_text(self, r, attribute: str):
        if self._is_time_tok(r):
            tr = self._resolve_time_tok(r, 1)
            if tr is not None:
                return tr.iso()
        num = _parse_number(r)
        if num is not None and (num[1] is not None or r.like_num):
            return str(_num_value(num[0], num[1]))
        val, _ = _value_of(r, self.ctx)
        return val or None

    # ---- copular
    def _copular(self, v, st, pol, tense, tv) -> None:
        ctx = self.ctx
        attr = _child(v, "attr")
        acomp = _child(v, "acomp")
        preps = _children(v, "prep")
        if st is None:
            return
        # "It's Lisbon, not Porto" -- left to the bare-correction path
        if st.lower_ in ("it", "that", "this") and ctx.correction:
            return
        # "X is one of my favorites" / "One of my favorite dishes is lasagna" -> likes
        for one, other in ((attr, st), (st, attr)):
            if one is None or other is None or one.lower_ != "one":
                continue
            for p in _children(one, "prep"):
                po = _child(p, "pobj")
                if p.lower_ != "of" or po is None:
                    continue
                fav = po.lemma_.lower() in ("favorite", "favourite", "fave") or any(
                    c.dep_ == "amod" and c.lower_ in ("favorite", "favourite") for c in po.children)
                owner = _poss_owner(po, ctx) if fav else None
                if owner is None or other.pos_ == "PRON" or other.lower_ in _BAD_OBJECTS or \
                        any(c.dep_ in ("relcl", "acl") for c in other.children):
                    return
                if _is_name(other, ctx) and not (other.i == other.sent.start and other.ent_type_ not in _NAME_LABELS):
                    val, ent = _name_text(other), True
                else:
                    val, ent = _np_text(other), False
                    val = val.lower()
                self._emit(owner, "likes", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(other.subtree), is_entity=ent,
                           rule="one_of_favorites")
                return
        # inverted: "Blue is my favorite color", "Emma is my daughter", "Rex is my dog"
        if attr is not None and _child(attr, "poss") is not None and st.lower_ not in _FIRST | _SECOND:
            owner = _poss_owner(attr, ctx)
            if owner is not None:
                key = self._attr_key(attr)
                if key is not None and (key.startswith("favorite_") or _relation_key(attr) or attr.lower_ in _ATTR_NOUNS):
                    if _is_name(st, ctx) and not (key.startswith("favorite_") and st.ent_type_ not in _NAME_LABELS):
                        val, ent = _name_text(st), True
                    else:
                        val, ent = _np_text(st), False
                        if key.startswith("favorite_"):
                            val = val.lower()
                    if _relation_key(attr) == "pet":
                        key = f"has_{_PET_CANON.get(attr.lemma_.lower(), attr.lemma_.lower())}"
                    self._emit(owner, key, val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(st.subtree),
                               is_entity=ent, rule="copular_inverted")
                    return
        subj = _resolve_subject(st, ctx)
        if subj is not None and st.pos_ == "NOUN" and _relation_key(st) is not None and \
                ((attr is not None and _is_name(attr, ctx)) or (_relation_key(st) == "pet" and attr is not None and _child(attr, "det") is None)):
            # "Melanie's daughter is Emma", "my dog is Rex": the relation is the attribute
            self._copular_attribute(v, st, attr, acomp, preps, pol, tense, tv)
            return
        if subj is not None and (subj.person or _is_name(st, ctx)):
            self._copular_entity(subj, v, st, attr, acomp, preps, pol, tense, tv)
            return
        # the subject is an attribute/event/metric noun: "my favorite color is blue", "the launch is on May 3"
        if st.pos_ in ("NOUN", "PROPN") or st.lower_ in _METRICS:
            self._copular_attribute(v, st, attr, acomp, preps, pol, tense, tv)

    def _attr_key(self, h) -> str | None:
        """Attribute name of a noun phrase headed by h ("favorite color", "phone number", "p95 latency")."""
        mods = []
        fav = False
        for c in h.children:
            if c.i > h.i:
                continue
            low = c.lower_
            if c.dep_ == "amod" and low in ("favorite", "favourite", "fave", "fav"):
                fav = True
            elif c.dep_ == "amod" and low in ("least",):
                return None
            elif c.dep_ == "compound" and not any(ch.isdigit() for ch in c.text) and \
                    (c.pos_ == "PROPN" or c.ent_type_ in _NAME_LABELS or c.text.isupper() and len(c.text) > 1):
                continue  # "the Apollo deadline", "the API latency": the owner, not the attribute
            elif c.dep_ == "compound" and (c.pos_ == "NOUN" or not c.text[:1].isupper() or any(ch.isdigit() for ch in c.text)):
                mods.extend(x.lemma_.lower() for x in c.subtree if x.dep_ not in ("det", "punct"))
            elif c.dep_ == "amod" and low in ("native", "first", "maiden", "middle", "last", "full", "home", "mother", "due", "start", "end", "launch", "release"):
                mods.append(low)
            elif c.dep_ == "amod" and fav:
                mods.append(low)
        head = h.lemma_.lower() if h.pos_ == "NOUN" else h.lower_
        if h.lower_ in ("colours", "colors"):
            head = "color"
        if fav:
            # "favorite ice cream flavor": modifiers after favorite
            return "favorite_" + "_".join(mods + [head])
        rel = _RELATIONS.get(h.lower_) or _RELATIONS.get(head)
        if rel and not mods:
            return rel
        return "_".join(mods + [head])

    def _copular_entity(self, subj: _Subj, v, st, attr, acomp, preps, pol, tense, tv) -> None:
        """Copular clause about a person or named thing."""
        ctx = self.ctx
        if attr is not None and attr.i in ctx.alt:
            attr = ctx.alt[attr.i]  # "I'm not a nurse but a doctor"
        if attr is not None:
            a_low = attr.lower_
            a_lem = attr.lemma_.lower()
            det = _child(attr, "det")
            if det is not None and det.lower_ == "no" and pol == "assert":
                pol = "negate"  # "I'm no writer"
            num = _parse_number(attr) if attr.pos_ == "NUM" or attr.like_num else None
            # "I'm 34"
            if num is not None and subj.person and num[1] is None and 0 < num[0] < 125 and attr.text.isdigit() and tense != "past":
                self._emit(subj, "age", _fmt_num(num[0]), v=v, pol=pol, tense=tense, tv=tv, value_toks=[attr],
                           rule="copular_age", past_means_cease=False)
                return
            # "I'm a big fan of jazz" -> likes
            if a_lem in ("fan", "lover", "enthusiast", "nut", "buff", "addict") and not any(p.lower_ == "of" for p in _children(attr, "prep")):
                comp = [c for c in attr.children if c.dep_ == "compound" and c.i < attr.i]
                if comp and subj.person:
                    toks = sorted({x.i: x for c in comp for x in c.subtree if not x.is_punct or x.tag_ == "HYPH"}.values(), key=lambda x: x.i)
                    self._emit(subj, "likes", _text(toks) if any(x.pos_ == "PROPN" for x in toks) else _text(toks).lower(),
                               v=v, pol=pol, tense=tense, tv=tv, value_toks=toks, is_entity=any(x.pos_ == "PROPN" for x in toks),
                               rule="copular_fan")
                return
            if a_lem in ("fan", "lover", "enthusiast", "nut", "buff", "addict"):
                for p in _children(attr, "prep"):
                    if p.lower_ == "of" and _child(p, "pobj") is not None:
                        for val, ent, toks in self._pref_values(_child(p, "pobj")):
                            self._emit(subj, "likes", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=toks,
                                       is_entity=ent, rule="copular_fan")
                        return
                return
            # job titles: "I'm a nurse", "Caroline is a software engineer at Google", "Tim is the CEO of Apple"
            if self._is_job(attr) and not any(c.lower_ in _EVALUATIVE or c.lemma_.lower() in _EVALUATIVE
                                               for c in attr.children if c.dep_ in ("amod", "predet", "advmod")):
                title = self._job_title(attr)
                if title and subj.person or (title and _is_name(st, ctx) and (det is None or det.lower_ in ("a", "an", "the"))):
                    if _is_name(st, ctx) and not subj.person and (_ent_of(st) is not None and _ent_of(st).label_ in ("GPE", "LOC")):
                        return
                    emp_tok = self._employer_from(attr)
                    if a_lem == "student":
                        self._emit(subj, "job_title", title, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(attr.subtree), rule="copular_job")
                        if emp_tok is not None:
                            val, ent = _value_of(emp_tok, ctx)
                            self._emit(subj, "school", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(emp_tok.subtree), is_entity=ent, rule="copular_school")
                        return
                    self._emit(subj, "job_title", title, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(attr.subtree), rule="copular_job")
                    if emp_tok is not None:
                        val, ent = _value_of(emp_tok, ctx)
                        self._emit(subj, "employer", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(emp_tok.subtree),
                                   is_entity=ent, rule="copular_job_employer")
                        if a_lem in ("ceo", "cto", "cfo", "founder", "president", "chair", "chairman") and ent and pol == "assert":
                            org = _Subj(val, False, 0.9, False, emp_tok)
                            self._emit(org, "ceo" if a_lem == "ceo" else a_lem, subj.name, v=v, pol=pol, tense=tense, tv=tv,
                                       value_toks=list(st.subtree), is_entity=True, rule="copular_org_role")
                    return
            # identity: "I'm a vegetarian", "Rex is a golden retriever"
            if det is not None and det.lower_ in ("a", "an") and attr.pos_ == "NOUN":
                if a_lem in _DIETS or a_low in _DIETS:
                    self._emit(subj, "diet", a_lem, v=v, pol=pol, tense=tense, tv=tv, value_toks=[attr], rule="copular_diet")
                    return
                if subj.person and subj.is_speaker is False and not _is_name(st, ctx):
                    return
                if _is_name(st, ctx) and not subj.is_speaker and (a_lem in _PETS or a_low in _PETS):
                    self._emit(subj, "is_a", _np_text(attr), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(attr.subtree), rule="copular_is_a")
                    return
                if subj.person and (a_lem in _IDENTITY or a_low in _IDENTITY):
                    self._emit(subj, "is_a", _np_text(attr), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(attr.subtree), rule="copular_is_a")
                    return
                if not subj.person and _is_name(st, ctx) and attr.lemma_.lower() not in _STOP_HEADS \
                        and attr.lemma_.lower() not in _EVALUATIVE and _ent_of(st) is not None \
                        and _ent_of(st).label_ in ("ORG", "PRODUCT", "GPE", "FAC", "LOC") \
                        and not any(c.lower_ in _EVALUATIVE for c in attr.children):
                    self._emit(subj, "is_a", _np_text(attr), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(attr.subtree),
                               rule="copular_is_a", conf=0.8)
                    return
                return
            # "My name is Dana" handled by attribute path; "I'm Dana" -> name
            if subj.is_speaker and _is_name(attr, ctx) and st.lower_ == "i" and attr.lower_ not in ctx.names - {ctx.speaker.lower()}:
                if _ent_of(attr) is not None and _ent_of(attr).label_ == "PERSON":
                    self._emit(subj, "name", _name_text(attr), v=v, pol=pol, tense=tense, tv=tv, value_toks=[attr], is_entity=False,
                               rule="copular_name", past_means_cease=False)
                return
            # "Melanie's daughter is Emma" handled by the attribute path (st = daughter); nothing else here
            if attr.dep_ == "attr" and a_lem in _DIETS:
                self._emit(subj, "diet", a_lem, v=v, pol=pol, tense=tense, tv=tv, value_toks=[attr], rule="copular_diet")
            return
        if acomp is not None:
            a = acomp.lower_
            a_lem = acomp.lemma_.lower()
            if a in _MARITAL and subj.person:
                self._emit(subj, "marital_status", _MARITAL[a], v=v, pol=pol, tense=tense, tv=tv, value_toks=[acomp], rule="copular_marital")
                for p in _children(acomp, "prep"):
                    if p.lower_ in ("to",) and a in ("married", "engaged"):
                        o = _child(p, "pobj")
                        if o is not None and _is_name(o, ctx):
                            self._emit(subj, "spouse" if a == "married" else "fiance", _name_text(o), v=v, pol=pol, tense=tense, tv=tv,
                                       value_toks=list(o.subtree), is_entity=True, rule="copular_spouse")
                return
            if a in _DIETS and subj.person:
                self._emit(subj, "diet", a, v=v, pol=pol, tense=tense, tv=tv, value_toks=[acomp], rule="copular_diet")
                return
            if a in _EMPLOYMENT and subj.person:
                self._emit(subj, "employment_status", _EMPLOYMENT[a], v=v, pol=pol, tense=tense, tv=tv, value_toks=[acomp], rule="copular_employment")
                return
            # "I'm 34 years old"
            if a == "old" and subj.person:
                for c in acomp.children:
                    if c.dep_ == "npadvmod" and c.lemma_ == "year":
                        n = _child(c, "nummod")
                        if n is not None:
                            num = word_number(n.text)
                            if num is not None:
                                self._emit(subj, "age", _fmt_num(num), v=v, pol=pol, tense=tense, tv=tv, value_toks=[n, c, acomp],
                                           rule="copular_age", past_means_cease=False)
                                return
            if a == "allergic" and subj.person:
                for x in _children(acomp, "xcomp"):  # "allergic to shellfish" parsed as to-infinitive
                    if x.lower_ not in _BAD_OBJECTS:
                        self._emit(subj, "allergy", x.lower_, v=v, pol=pol, tense=tense, tv=tv, value_toks=[x], rule="copular_allergy")
                for p in _children(acomp, "prep"):
                    o = _child(p, "pobj")
                    if o is not None:
                        for o2 in _conjuncts(o):
                            val, ent = _value_of(o2, ctx)
                            self._emit(subj, "allergy", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o2.subtree), rule="copular_allergy")
                return
            if a in ("fluent", "native") and subj.person:
                for p in _children(acomp, "prep"):
                    o = _child(p, "pobj")
                    if o is not None:
                        for o2 in _conjuncts(o):
                            self._emit(subj, "speaks", o2.text, v=v, pol=pol, tense=tense, tv=tv, value_toks=[o2], is_entity=False, rule="copular_fluent")
                return
            if a_lem in ("passionate", "keen", "obsessed", "crazy", "mad", "nut") and subj.person:
                for p in _children(acomp, "prep"):
                    if p.lower_ in ("about", "on", "with"):
                        o = _child(p, "pobj") or _child(p, "pcomp")
                        if o is not None:
                            for val, ent, toks in self._pref_values(o):
                                self._emit(subj, "likes", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=toks,
                                           is_entity=ent, rule="copular_keen")
                return
            if a_lem in ("afraid", "scared", "terrified") and subj.person:
                for p in _children(acomp, "prep"):
                    o = _child(p, "pobj")
                    if p.lower_ == "of" and o is not None:
                        val, ent = _value_of(o, ctx)
                        self._emit(subj, "fears", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), rule="copular_fear")
                return
            if a_lem == "based":
                self._location_preps(subj, acomp, pol, tense, tv, v=v, rule="based_in")
                return
            if a_lem in ("from", "originally"):
                pass
            # "I'm from Sweden" sometimes lands as acomp? fall through to preps
        for p in preps:
            pl = p.lower_
            o = _child(p, "pobj")
            if o is None:
                continue
            if pl == "from" and subj.person and _is_name(o, ctx):
                self._emit(subj, "origin", _name_text(o), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), is_entity=True,
                           rule="copular_from", past_means_cease=False)
                return
            if pl == "into" and subj.person:
                for val, ent, toks in self._pref_values(o):
                    self._emit(subj, "likes", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=toks, is_entity=ent, rule="copular_into")
                return
            if pl == "at" and subj.person and _is_name(o, ctx) and _ent_of(o) is not None \
                    and _ent_of(o).label_ in ("ORG", "GPE", "PRODUCT", "NORP") and \
                    any(c.lower_ in ("now", "currently", "still") for c in v.children):
                self._emit(subj, "employer", _name_text(o), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), is_entity=True,
                           conf=0.8, rule="copular_at_org")
                return
        # ORG subject based in: "Acme is based in Berlin" handled via acomp 'based'

    def _is_job(self, t) -> bool:
        if t.pos_ not in ("NOUN", "PROPN") and not (t.dep_ in ("attr", "pobj") and _child(t, "det") is not None):
            return False  # "busy volunteering"; but "a paramedic" tagged ADJ is a noun
        lem = t.lemma_.lower()
        low = t.lower_
        if lem in _JOBS or low in _JOBS:
            return True
        if lem.endswith(_JOB_SUFFIX_OK):
            return True
        return False

    def _job_title(self, t) -> str:
        toks = [t]
        for c in t.children:
            if c.i < t.i and c.dep_ in ("compound", "amod", "nmod") and c.lower_ not in _DROP_ADJ:
                toks.extend(x for x in c.subtree if x.dep_ not in ("det", "punct", "advmod") and x.lower_ not in _DROP_ADJ)
        toks.sort(key=lambda x: x.i)
        text = _text(toks)
        if t.lower_ in ("ceo", "cto", "cfo", "coo", "cmo", "cpo", "vp", "pm", "sre", "qa", "dba", "dj"):
            return re.sub(r"\b(ceo|cto|cfo|coo|cmo|cpo|vp|pm|sre|qa|dba|dj)\b", lambda m: m.group(1).upper(), text.lower())
        return text.lower()

    def _employer_from(self, t):
        for p in _children(t, "prep"):
            if p.lower_ in ("at", "for", "with", "of", "in"):
                o = _child(p, "pobj")
                if o is None:
                    continue
                if p.lower_ == "in" and not (_is_name(o, self.ctx) and (_ent_of(o) is None or _ent_of(o).label_ == "ORG")):
                    continue
                if p.lower_ == "of" and not _is_name(o, self.ctx):
                    continue
                if o.lower_ in _BAD_OBJECTS or o.pos_ == "PRON":
                    continue
                if self._is_time_tok(o):
                    continue
                if not _is_name(o, self.ctx) and o.lemma_.lower() not in _WORKPLACES:
                    continue
                return o
        return None

    def _copular_attribute(self, v, st, attr, acomp, preps, pol, tense, tv) -> None:
        """Copular clause whose subject is an attribute/event/metric noun."""
        ctx = self.ctx
        h = st
        low = h.lower_
        lem = h.lemma_.lower()
        owner, explicit = _owner(h, ctx)
        if owner is None:
            return
        # "my old address was X" -- a past value
        past_marked = any(c.dep_ == "amod" and c.lower_ in _PAST_MARKERS for c in h.children)
        if past_marked:
            pol = "cease"
        key = self._attr_key(h)
        if key is None:
            return
        val_tok = attr if attr is not None else acomp
        if val_tok is None:
            for c in v.children:
                if c.i > v.i and c.dep_ in ("npadvmod", "dep", "oprd", "dobj", "appos") and c.pos_ in ("NUM", "PROPN", "NOUN"):
                    val_tok = c
                    break
        if key == "email":
            em = next((x for x in v.sent if x.like_email), None)
            if em is not None:
                self._emit(owner, "email", em.text, v=v, pol=pol, tense=tense, tv=tv, value_toks=[em], rule="copular_email",
                           past_means_cease=False)
            return
        if key in ("phone", "phone_number", "number") and val_tok is not None:
            if key == "number" and not any(c.lower_ in ("phone", "cell", "mobile") for c in h.children):
                return
            toks = [x for x in val_tok.subtree if not x.is_punct or x.text == "-"]
            self._emit(owner, "phone", _text(toks).replace(" ", ""), v=v, pol=pol, tense=tense, tv=tv, value_toks=toks,
                       rule="copular_phone", past_means_cease=False)
            return
        # date value: "the launch is on May 3", "the deadline is Friday", "my birthday is in June"
        date_tok = None
        if val_tok is not None and self._is_time_tok(val_tok):
            date_tok = val_tok
        else:
            for p in preps:
                p = ctx.alt.get(p.i, p)  # "not on Monday but on Tuesday"
                o = _child(p, "pobj")
                if o is not None and self._is_time_tok(o) and p.lower_ in ("on", "in", "at", "for", "by", "until"):
                    if date_tok is None or (self._resolve_time_tok(date_tok, 1) is None and self._resolve_time_tok(o, 1) is not None):
                        date_tok = o  # "at 6am on Friday": the day, not the hour
            if date_tok is None and val_tok is None:
                for c in v.children:
                    if c.dep_ in ("npadvmod", "attr", "dobj") and self._is_time_tok(c) and c.i > h.i:
                        date_tok = c
                        break
            if date_tok is None and acomp is not None and acomp.lower_ in ("due", "scheduled", "set", "planned", "slated", "booked"):
                for c in acomp.children:
                    if self._is_time_tok(c):
                        date_tok = c
                        break
                    if c.dep_ == "prep":
                        o = _child(c, "pobj")
                        if o is not None and self._is_time_tok(o):
                            date_tok = o
                            break
        akey = self._date_key(h, key, acomp) if date_tok is not None else None
        if date_tok is not None and akey is not None:
            direction = -1 if tense == "past" else 1
            tr = self._resolve_time_tok(date_tok, direction)
            entry = self._time_of(date_tok)
            val = tr.iso() if tr is not None else (entry[2] if entry else date_tok.text)
            if low == "birthday" or key == "birthday":
                if tr is not None and tr.grain == "day" and not re.search(r"\d{4}", entry[2] if entry else ""):
                    val = tr.start.strftime("--%m-%d")
            vt = entry[0] if entry else {date_tok.i}
            self._emit(owner, akey, val, v=v, pol=pol, tense=tense, tv=tv, state=False, value_toks=[ctx.doc[i] for i in vt],
                       rule="copular_date", conf=1.0)
            return
        # number value: "response time is now 250ms", "the budget is $5,000", "my age is 34"
        if val_tok is None:
            cands = list(preps)
            for c in v.children:
                if c.dep_ == "advmod" and c.lower_ in ("down", "up", "back"):
                    cands.extend(_children(c, "prep"))  # "the error rate is down to 0.5%"
            for p in cands:
                if p.lower_ in ("at", "around", "about", "to"):
                    po = _child(p, "pobj")
                    if po is not None and _parse_number(po) is not None:
                        val_tok = po
                        break
        if val_tok is not None:
            num = _parse_number(val_tok)
            if num is not None and (lem in _METRICS or low in _METRICS or key.split("_")[-1] in _METRICS or num[1] is not None
                                    or key in ("age", "height", "weight")):
                if lem in _STOP_HEADS and num[1] is None:
                    return
                n, unit, ntoks = num
                if tense == "past" and pol == "assert" and not self._qualifiers(tv, {x.i for x in ntoks + [val_tok]}):
                    return  # "our Q2 revenue was $1.2M": a past measurement; nothing says what it is now
                self._emit(owner, key, _num_value(n, unit), v=v, pol=pol, tense=tense, tv=tv, value_toks=ntoks + [val_tok],
                           unit=unit, number=n, rule="copular_number", conf=1.0)
                return
        if not explicit:
            return  # "the weather is nice", "the movie was great"
        if val_tok is None:
            return
        rel = _relation_key(h)
        if key.startswith("favorite_") or low in _ATTR_NOUNS or lem in _ATTR_NOUNS or rel is not None:
            pass
        elif not (_is_name(val_tok, ctx) and lem not in _STOP_HEADS):
            return
        if lem in _STOP_HEADS and not key.startswith("favorite_"):
            return
        if val_tok.pos_ == "ADJ" and not (key.startswith("favorite_") or "color" in key):
            return
        if val_tok.pos_ == "PRON" or val_tok.lower_ in _BAD_OBJECTS:
            return
        if rel == "pet":
            key = f"has_{_PET_CANON.get(lem, lem)}"
            if not _is_name(val_tok, ctx):
                return
        if key == "name" and owner.is_speaker is False and owner.token is not None and owner.token.dep_ == "poss" and _relation_key(owner.token):
            pass
        # "my dog's name is Rex" -> has_dog; "my sister's name is Ana" -> sister
        if key == "name":
            p = _child(h, "poss")
            if p is not None and p.pos_ != "PRON":
                prel = _relation_key(p)
                pown = _poss_owner(p, ctx)
                if prel is not None and pown is not None:
                    key = f"has_{_PET_CANON.get(p.lemma_.lower(), p.lemma_.lower())}" if prel == "pet" else prel
                    owner = pown
                    explicit = True
        values = _conjuncts(val_tok) if val_tok.dep_ == "attr" else [val_tok]
        for vt in values:
            if vt.like_num and key not in ("age",):
                num = _parse_number(vt)
                if num is not None:
                    n, unit, ntoks = num
                    self._emit(owner, key, _num_value(n, unit), v=v, pol=pol, tense=tense, tv=tv, value_toks=ntoks,
                               unit=unit, number=n, rule="copular_number")
                    continue
            if key in ("email",) or vt.like_email or vt.like_url:
                self._emit(owner, key, vt.text, v=v, pol=pol, tense=tense, tv=tv, value_toks=[vt], rule="copular_attribute")
                continue
            if key == "phone":
                toks = [x for x in vt.subtree if x.dep_ != "punct" or x.text == "-"]
                self._emit(owner, key, _text(toks).replace(" ", ""), v=v, pol=pol, tense=tense, tv=tv, value_toks=toks, rule="copular_attribute")
                continue
            val, ent = _value_of(vt, ctx)
            if key.startswith("favorite_") and not ent:
                val = val.lower()
            self._emit(owner, key, val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(vt.subtree), is_entity=ent,
                       rule="copular_attribute", past_means_cease=True)

    def _date_key(self, h, key: str, acomp) -> str | None:
        low = h.lower_
        lem = h.lemma_.lower()
        # "the product launch", "the project deadline": generic modifiers name no other date
        parts = key.split("_")
        while len(parts) > 1 and parts[0] in _GENERIC_MODS:
            parts = parts[1:]
        key = "_".join(parts)
        phrase = key.replace("_", " ")
        if phrase in _DATE_ATTRS:
            return _DATE_ATTRS[phrase]
        if "_" in key and key.endswith(("deadline", "_date", "birthday", "anniversary")):
            return key  # "the Q3 deadline", "the report deadline"
        if lem in _DATE_ATTRS:
            return _DATE_ATTRS[lem]
        if acomp is not None and acomp.lower_ == "due":
            return f"{key}_deadline"
        if lem in _EVENTS or low in _EVENTS or key.split("_")[-1] in _EVENTS:
            return f"{key}_date"
        if key.endswith(("deadline", "date")):
            return key
        return None

    # ---- verbs
    def _subject(self, st) -> _Subj | None:
        return _resolve_subject(st, self.ctx)

    def _location_preps(self, subj, head, pol, tense, tv, *, v, rule: str, cease_preps=("out", "away"),
                        allowed=("in", "to", "into", "near", "outside", "at")) -> bool:
        ctx = self.ctx
        done = False
        for p in _children(head, "prep"):
            pl = p.lower_
            if pl not in allowed and pl not in ("from",):
                continue
            o = _child(p, "pobj")
            if o is None or o.pos_ == "PRON" or self._is_time_tok(o):
                continue
            if pl == "from":
                continue
            if not _is_name(o, ctx):
                # "a small town near Lyon": keep the place only when it is anchored to a name
                near = next((c for c in o.children if c.dep_ == "prep" and c.lower_ in ("near", "outside", "in", "of", "by")
                             and _child(c, "pobj") is not None and _is_name(_child(c, "pobj"), ctx)), None)
                if near is None or o.lemma_.lower() not in ("city", "town", "village", "suburb", "neighborhood", "neighbourhood",
                                                              "area", "part", "outskirts", "countryside", "district"):
                    continue
                toks = [x for x in o.subtree if x.dep_ not in ("det",) and not x.is_punct and x.lower_ not in _DROP_ADJ]
                self._emit(subj, "lives_in", _text(toks), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree),
                           is_entity=False, conf=0.8, rule=rule)
                done = True
                continue
            if _ent_of(o) is not None and _ent_of(o).label_ in ("ORG",) and rule != "based_in" and head.lemma_ != "live":
                pass
            for o2 in _conjuncts(o):
                val, ent = _value_of(o2, ctx)
                self._emit(subj, "lives_in", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o2.subtree), is_entity=ent, rule=rule)
                done = True
            if head.lemma_ in ("move", "relocate") and pl == "to":
                break
        return done

    def _h_live(self, v, st, pol, tense, tv) -> None:
        subj = self._subject(st)
        if subj is None or not subj.person and not _is_name(st, self.ctx):
            return
        self._location_preps(subj, v, pol, tense, tv, v=v, rule="live_in", allowed=("in", "near", "outside", "at", "on"))

    def _h_move(self, v, st, pol, tense, tv) -> None:
        ctx = self.ctx
        subj = self._subject(st)
        if subj is None:
            # "the deadline moved to Friday"
            if st is not None:
                self._event_change(v, st, pol, tense, tv)
            return
        if not subj.person and not _is_name(st, ctx):
            return
        if pol != "assert" and pol != "cease":
            return
        if pol == "negate":
            return
        prt = _child(v, "prt")
        preps = _children(v, "prep")
        # "moved out of X" / "moved away from X"
        outp = prt if prt is not None and prt.lower_ in ("out", "away") else next(
            (p for p in preps if p.lower_ in ("out", "away")), None)
        if outp is not None:
            for p in preps + _children(outp, "prep"):
                if p.lower_ in ("of", "from"):
                    o = _child(p, "pobj")
                    if o is not None and _is_name(o, ctx):
                        self._emit(subj, "lives_in", _name_text(o), v=v, pol="cease", tense=tense, tv=tv, value_toks=list(o.subtree),
                                   is_entity=True, rule="move_out", past_means_cease=False)
            return
        if pol == "cease":
            return
        if prt is not None and prt.lower_ == "in" and not preps:
            return
        if tense == "past" or tense == "perfect":
            tense_eff = "present"  # a completed move starts a current state
        else:
            tense_eff = tense
        if tense == "present" and not any(c.lower_ in ("now", "finally", "officially") for c in v.children):
            # "I move to Paris" (habitual / narrative present) is rare; accept only with a date
            quals = self._qualifiers(v, set())
            if not quals:
                return
        if tense == "progressive":
            quals = self._qualifiers(v, set())
            if not quals:
                return
            tense_eff = "future"
        for c in v.children:
            if c.dep_ == "advmod" and c.lower_ in ("back", "home", "away", "over", "out"):
                preps = preps + _children(c, "prep")  # "moving back to Chicago"
        for p in preps:
            if p.lower_ in ("to", "into", "in"):
                o = _child(p, "pobj")
                if o is None or self._is_time_tok(o):
                    continue
                if not (_is_name(o, ctx) or o.lemma_.lower() in ("city", "town", "village", "suburb", "countryside", "country", "state")):
                    continue
                for o2 in _conjuncts(o):
                    val, ent = _value_of(o2, ctx)
                    self._emit(subj, "lives_in", val, v=v, pol="assert", tense=tense_eff, tv=tv, value_toks=list(o2.subtree),
                               is_entity=ent, rule="move_to", past_means_cease=False)
                break

    def _h_leave(self, v, st, pol, tense, tv) -> None:
        ctx = self.ctx
        subj = self._subject(st)
        if subj is None or not subj.person:
            return
        if pol == "negate" or tense == "future" and not self._qualifiers(v, set()):
            return
        o = _child(v, "dobj")
        if o is None:
            for p in _children(v, "prep"):
                if p.lower_ in ("from",):
                    o = _child(p, "pobj")
        if o is None or o.pos_ == "PRON":
            return
        lem = o.lemma_.lower()
        if _poss_owner(o, ctx) is not None and lem in ("job", "position", "role", "company", "work", "firm", "employer"):
            self._emit(subj, "employer", "", v=v, pol="cease", tense="present", tv=tv, value_toks=[o], rule="leave_job")
            return
        if not _is_name(o, ctx):
            return
        ent = _ent_of(o)
        attr = "lives_in" if ent is not None and ent.label_ in ("GPE", "LOC", "FAC") else "employer"
        if ent is not None and ent.label_ == "PERSON" and attr == "employer":
            # "I left Acme": the small model calls many company names PERSON; "left Tom" is rarer in memory talk
            if o.lower_ in ctx.names:
                return
        val = _name_text(o)
        self._emit(subj, attr, val, v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree), is_entity=True,
                   rule=f"leave_{attr}")
        # "I left Acme to join Globex"
        for c in v.children:
            if c.dep_ in ("xcomp", "advcl") and c.lemma_.lower() in ("join", "work", "start"):
                self._clause(c, subj_tok=st, time_verb=v)

    def _h_quit(self, v, st, pol, tense, tv) -> None:
        ctx = self.ctx
        subj = self._subject(st)
        if subj is None or not subj.person or pol == "negate":
            return
        o = _child(v, "dobj")
        if o is None:
            for p in _children(v, "prep"):
                if p.lower_ in ("from", "at"):
                    o = _child(p, "pobj")
        if o is None:
            if v.lemma_ in ("retire",):
                self._emit(subj, "employment_status", "retired", v=v, pol="assert", tense="present", tv=tv, rule="retire")
            return
        lem = o.lemma_.lower()
        if lem in ("job", "position", "role", "company", "work", "firm", "employer", "gig"):
            self._emit(subj, "employer", "", v=v, pol="cease", tense="present", tv=tv, value_toks=[o], rule="quit_job")
            return
        if o.tag_ == "VBG" or lem in ("smoking", "drinking", "alcohol", "coffee", "sugar", "meat", "caffeine", "gluten", "dairy", "vaping", "gambling"):
            self._emit(subj, "habit", o.lower_, v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree), rule="quit_habit")
            return
        if _is_name(o, ctx):
            ent = _ent_of(o)
            if ent is not None and ent.label_ in ("LOC", "FAC") and v.lemma_ == "quit":
                return
            self._emit(subj, "employer", _name_text(o), v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree),
                       is_entity=True, rule="quit_employer")
            if v.lemma_ == "retire":
                self._emit(subj, "employment_status", "retired", v=v, pol="assert", tense="present", tv=tv, rule="retire")
        elif lem in ("team", "club", "band", "choir", "gym", "league", "group", "class", "course"):
            self._emit(subj, "member_of", _np_text(o), v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree), rule="quit_group")

    def _h_work(self, v, st, pol, tense, tv) -> None:
        ctx = self.ctx
        subj = self._subject(st)
        if subj is None or not subj.person and not _is_name(st, ctx):
            return
        if tense == "future" or tense == "progressive" and any(c.lower_ in ("on",) for c in v.children):
            return
        for p in _children(v, "prep"):
            pl = p.lower_
            o = _child(p, "pobj")
            if o is None or o.pos_ == "PRON" or self._is_time_tok(o):
                continue
            if pl in ("at", "for") and o.lower_ not in ("home", "moment", "while", "least", "night"):
                if o.lower_ in _BAD_OBJECTS or o.lemma_.lower() in ("hour", "day", "week", "month", "year", "people", "myself", "free", "money"):
                    continue
                det = _child(o, "det")
                if not _is_name(o, ctx) and (det is None or det.lower_ not in ("a", "an")):
                    continue  # "I work at the shop": which shop is not said
                if _child(o, "poss") is not None and _child(o, "poss").lower_ in ("my", "our"):
                    continue  # "I work for my dad" -- skip
                val, ent = _value_of(o, ctx)
                self._emit(subj, "employer", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), is_entity=ent,
                           conf=1.0 if ent else 0.8, rule="work_at")
            elif pl == "as":
                if self._is_job(o) or _child(o, "det") is not None:
                    self._emit(subj, "job_title", self._job_title(o), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), rule="work_as")
                    emp = self._employer_from(o)
                    if emp is not None:
                        val, ent = _value_of(emp, ctx)
                        self._emit(subj, "employer", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(emp.subtree), is_entity=ent, rule="work_as_at")
            elif pl == "in" and _is_name(o, ctx) and (_ent_of(o) is None or _ent_of(o).label_ in _PLACE_LABELS):
                self._emit(subj, "work_location", _name_text(o), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), is_entity=True,
                           conf=0.8, rule="work_in")
            elif pl == "in" and o.lemma_.lower() in ("marketing", "sales", "finance", "healthcare", "education", "tech", "it", "hr", "retail",
                                                    "construction", "hospitality", "insurance", "law", "medicine", "research", "engineering",
                                                    "design", "advertising", "consulting", "banking", "publishing", "journalism", "government"):
                self._emit(subj, "industry", o.lower_, v=v, pol=pol, tense=tense, tv=tv, value_toks=[o], rule="work_in_field", conf=0.9)

    def _h_join(self, v, st, pol, tense, tv) -> None:
        ctx = self.ctx
        subj = self._subject(st)
        if subj is None or not subj.person and not _is_name(st, ctx) or pol == "negate":
            return
        if tense in ("future", "progressive") and not self._qualifiers(v, set()):
            return
        o = _child(v, "dobj")
        if o is None or o.pos_ == "PRON":
            return
        t_eff = "present" if tense in ("past", "perfect") else tense
        if _is_name(o, ctx):
            ent = _ent_of(o)
            if ent is not None and ent.label_ in ("LOC", "FAC"):
                return
            self._emit(subj, "employer", _name_text(o), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(o.subtree), is_entity=True,
                       rule="join_employer", past_means_cease=False)
            for p in _children(v, "prep"):
                if p.lower_ == "as":
                    jo = _child(p, "pobj")
                    if jo is not None:
                        self._emit(subj, "job_title", self._job_title(jo), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(jo.subtree),
                                   rule="join_as", past_means_cease=False)
            return
        lem = o.lemma_.lower()
        if lem in ("team", "club", "band", "choir", "gym", "league", "group", "class", "course", "community", "union", "orchestra", "society", "committee", "board", "church", "crew"):
            self._emit(subj, "member_of", _np_text(o), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(o.subtree), rule="join_group",
                       conf=0.8, past_means_cease=False)

    def _h_start(self, v, st, pol, tense, tv) -> None:
        """ "I started at Google", "I started a new job at Stripe", "the launch starts on May 3"."""
        ctx = self.ctx
        subj = self._subject(st)
        if subj is None:
            if st is not None:
                self._event_change(v, st, pol, tense, tv)
            return
        if _is_name(st, ctx) and not subj.person and st.lower_ not in ctx.names:
            self._named_event(v, st, pol, tense, tv)
            return
        if pol == "negate":
            return
        if tense in ("future", "progressive") and not self._qualifiers(v, set()):
            return
        t_eff = "present" if tense in ("past", "perfect") else tense
        o = _child(v, "dobj")
        if o is not None and o.lemma_.lower() in ("job", "position", "role", "gig", "career", "work", "internship", "residency"):
            self._job_noun(subj, o, v, pol, t_eff, tv, rule="start_job")
            return
        if o is not None and o.lemma_.lower() in ("business", "company", "startup", "podcast", "blog", "channel", "bakery", "shop", "band"):
            return
        if o is not None and o.lemma_.lower() in ("college", "school", "university", "uni", "grad", "kindergarten", "class", "course",
                                                  "degree", "phd", "masters", "program", "programme"):
            for p in _children(v, "prep") + _children(o, "prep"):
                po = _child(p, "pobj")
                if p.lower_ in ("at", "in") and po is not None and _is_name(po, ctx) and not self._is_time_tok(po):
                    self._emit(subj, "school", _name_text(po), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(po.subtree),
                               is_entity=True, rule="start_school", past_means_cease=False)
            return
        for p in _children(v, "prep"):
            if p.lower_ in ("at", "with"):
                po = _child(p, "pobj")
                if po is not None and _is_name(po, ctx):
                    self._emit(subj, "employer", _name_text(po), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(po.subtree),
                               is_entity=True, rule="start_at", past_means_cease=False)
                    return
            if p.lower_ == "as":
                po = _child(p, "pobj")
                if po is not None and self._is_job(po):
                    self._emit(subj, "job_title", self._job_title(po), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(po.subtree),
                               rule="start_as", past_means_cease=False)

    def _job_noun(self, subj, o, v, pol, tense, tv, *, rule: str) -> None:
        ctx = self.ctx
        for p in _children(o, "prep") + _children(v, "prep"):
            po = _child(p, "pobj")
            if po is None or self._is_time_tok(po):
                continue
            det = _child(po, "det")
            if p.lower_ in ("at", "with", "for") and (_is_name(po, ctx) or det is not None and det.lower_ in ("a", "an")) \
                    and po.lower_ not in _BAD_OBJECTS:
                val, ent = _value_of(po, ctx)
                self._emit(subj, "employer", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(po.subtree), is_entity=ent,
                           rule=rule, past_means_cease=False, conf=1.0 if ent else 0.8)
            elif p.lower_ == "as" and (self._is_job(po) or _child(po, "det") is not None):
                self._emit(subj, "job_title", self._job_title(po), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(po.subtree),
                           rule=rule, past_means_cease=False)

    def _h_get(self, v, st, pol, tense, tv) -> None:
        ctx = self.ctx
        subj = self._subject(st)
        if subj is None or not subj.person or pol == "negate":
            return
        o = _child(v, "dobj")
        prt = _child(v, "prt")
        # "I got married"
        ac = _child(v, "acomp")
        if ac is not None and ac.lower_ in _MARITAL:
            self._emit(subj, "marital_status", _MARITAL[ac.lower_], v=v, pol="assert", tense="present", tv=tv, rule="get_married")
            return
        if any(c.lemma_ == "have" and c.lower_ not in ("had", "'d") for c in v.children if c.dep_ == "aux") and o is not None:
            # "I've got two kids" == "I have two kids"
            self._h_have(v, st, pol, "present", tv)
            return
        if o is None:
            return
        if tense in ("future",) and not self._qualifiers(v, set()):
            return
        lem = o.lemma_.lower()
        t_eff = "present" if tense in ("past", "perfect") else tense
        if lem in ("job", "position", "role", "gig", "internship", "offer", "promotion"):
            if lem == "promotion":
                for p in _children(o, "prep") + _children(v, "prep"):
                    po = _child(p, "pobj")
                    if p.lower_ == "to" and po is not None:
                        self._emit(subj, "job_title", self._job_title(po), v=v, pol=pol, tense=t_eff, tv=tv, value_toks=list(po.subtree),
                                   rule="promotion", past_means_cease=False)
                return
            if lem == "offer":
                return
            self._job_noun(subj, o, v, pol, t_eff, tv, rule="get_job")
            return
        if prt is None and tense in ("past", "perfect"):
            self._acquire(subj, o, v, pol, t_eff, tv, rule="get_has")

    def _acquire(self, subj, o, v, pol, tense, tv, *, rule: str) -> None:
        """ "we adopted a cat named Luna", "I bought a car" -> has."""
        lem = o.lemma_.lower()
        named = self._named(o)
        if named is not None:
            key = _RELATIONS.get(lem) or (f"has_{_PET_CANON.get(lem, lem)}")
            if lem in _PETS:
                key = f"has_{_PET_CANON.get(lem, lem)}"
            self._emit(subj, key, _name_text(named), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(named.subtree), is_entity=True,
                       rule=rule + "_named", past_means_cease=False)
            return
        if lem in _PETS or lem in ("car", "house", "apartment", "flat", "condo", "bike", "motorcycle", "boat", "tesla", "piano", "guitar", "cabin"):
            if _child(o, "det") is None and not o.tag_ == "NNS" and _child(o, "nummod") is None:
                if not _is_name(o, self.ctx):
                    return
            self._emit(subj, "has", _np_text(o, keep_adj=True), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree),
                       rule=rule, past_means_cease=False, conf=0.9)

    def _named(self, o):
        """ "a dog named Rex" / "a dog called Rex" / "a dog, Rex" -> the name token."""
        for c in o.children:
            if c.dep_ == "acl" and c.lemma_.lower() in ("name", "call"):
                n = _child(c, "oprd", "dobj", "attr", "xcomp", "npadvmod")
                if n is not None:
                    return n
            if c.dep_ == "appos" and c.pos_ == "PROPN" and (o.lemma_.lower() in _PETS or o.lemma_.lower() in _RELATIONS) \
                    and c.i == o.i + 2 and o.doc[o.i + 1].text == ",":
                return c
        return None

    def _h_have(self, v, st, pol, tense, tv) -> None:
        ctx = self.ctx
        subj = self._subject(st)
        if subj is None or not (subj.person or _is_name(st, ctx)):
            return
        if tense == "future" or tense == "progressive":
            return
        if tense == "past":
            # "I had a dog named Rex" -- a past possession; "we had a baby" -- an event; keep only named pets/kids as cease
            pass
        if v.lemma_ == "have" and any(c.dep_ == "xcomp" for c in v.children):
            return  # "I have to go"
        o = _child(v, "dobj")
        if o is None:
            for c in _children(v, "ccomp"):
                if c.lemma_.lower() in ("call", "name"):
                    noun = next((x for x in c.children if x.dep_ in ("npadvmod", "nsubj", "nsubjpass", "dobj") and x.pos_ == "NOUN"), None)
                    name = _child(c, "oprd", "attr")
                    if noun is not None and name is not None and _is_name(name, ctx):
                        lem = noun.lemma_.lower()
                        key = f"has_{_PET_CANON.get(lem, lem)}" if lem in _PETS else _RELATIONS.get(lem, f"has_{lem}")
                        self._emit(subj, key, _name_text(name), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(name.subtree),
                                   is_entity=True, rule="have_named")
                        return
        if o is None or o.pos_ == "PRON":
            return
        if any(c.dep_ == "det" and c.lower_ == "no" for c in o.children):
            pol = "negate" if pol == "assert" else pol
        lem = o.lemma_.lower()
        low = o.lower_
        named = self._named(o)
        if named is not None:
            if lem in _PETS:
                key = f"has_{_PET_CANON.get(lem, lem)}"
            elif lem in _RELATIONS:
                key = _RELATIONS[lem]
            elif _child(o, "acl") is not None:
                key = f"has_{lem}"
            else:
                return
            for n in _conjuncts(named):
                self._emit(subj, key, _name_text(n), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(n.subtree), is_entity=True, rule="have_named")
            return
        nummod = _child(o, "nummod")
        if nummod is not None and o.tag_ in ("NNS", "NNPS") and (lem in _POSSESSIONS or low in _POSSESSIONS):
            n = word_number(nummod.text)
            if n is not None:
                plural = {"child": "kids", "kid": "kids", "children": "kids"}.get(lem, low)
                self._emit(subj, f"num_{plural}", _fmt_num(n), v=v, pol=pol, tense=tense, tv=tv, value_toks=[nummod, o],
                           number=float(n), rule="have_count")
                return
        if lem in _POSSESSIONS or low in _POSSESSIONS or (_is_name(o, ctx) and (_ent_of(o) is None or _ent_of(o).label_ in ("PRODUCT", "ORG"))):
            if lem in ("business", "company", "startup", "shop", "store", "restaurant") and not _child(o, "det"):
                return
            if pol == "assert" and tense == "past":
                return
            if lem in ("allergy",):
                for p in _children(o, "prep"):
                    po = _child(p, "pobj")
                    if po is not None:
                        self._emit(subj, "allergy", _np_text(po), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(po.subtree), rule="have_allergy")
                return
            if lem in ("degree", "phd", "masters", "license", "licence", "tattoo", "passport", "podcast", "blog", "channel"):
                self._emit(subj, "has", _np_text(o), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), rule="have", conf=0.8)
                return
            if o.tag_ in ("NNS",) and nummod is None and pol == "assert" and lem not in _RELATIONS:
                pass
            val = _np_text(o) if not _is_name(o, ctx) else _name_text(o)
            if lem in _RELATIONS and o.tag_ in ("NNS",) and nummod is None and pol == "assert":
                return  # "I have kids" without a count: vague
            self._emit(subj, "has", val, v=v, pol=pol, tense=tense, tv=tv, value_toks=list(o.subtree), rule="have",
                       is_entity=_is_name(o, ctx))

    def _h_own(self, v, st, pol, tense, tv) -> None:
        self._h_have(v, st, pol, tense, tv)

    def _h_adopt(self, v, st, pol, tense, tv) -> None:
        subj = self._subject(st)
        if subj is None or not subj.person or pol == "negate" or tense == "future":
            return
        o = _child(v, "dobj")
        if o is None:
            return
        self._acquire(subj, o, v, pol, "present" if tense in ("past", "perfect") else tense, tv, rule="adopt")

    def _h_sell(self, v, st, pol, tense, tv) -> None:
        subj = self._subject(st)
        if subj is None or not subj.person or pol != "assert" or tense not in ("past", "perfect"):
            return
        o = _child(v, "dobj")
        if o is None or _poss_owner(o, self.ctx) is None and _child(o, "det") is None:
            return
        lem = o.lemma_.lower()
        if lem in _POSSESSIONS:
            self._emit(subj, "has", _np_text(o), v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree), rule="sell", conf=0.9)

    def _pref_values(self, o) -> list[tuple[str, bool, list]]:
        """Values of a preference object and its conjuncts, skipping deictic and vague ones."""
        ctx = self.ctx
        out = []
        first = o
        det0 = _child(first, "det")
        if det0 is not None and det0.lower_ in ("the", "this", "that", "these", "those", "your", "which", "what") and not _is_name(first, ctx):
            return out
        for oc in _conjuncts(o):
            if oc.pos_ in ("PRON", "DET") or oc.lower_ in _BAD_OBJECTS or oc.lemma_.lower() in _STOP_HEADS:
                continue
            det = _child(oc, "det")
            if det is not None and det.lower_ in ("the", "this", "that", "these", "those", "your", "which", "what", "each", "every") \
                    and not _is_name(oc, ctx):
                continue
            poss = _child(oc, "poss")
            if poss is not None and (poss.pos_ == "PRON" or poss.lower_ in ("other", "each")) and not _is_name(oc, ctx):
                continue
            if any(c.dep_ in ("relcl", "acl", "ccomp") for c in oc.children) and oc.pos_ == "NOUN":
                continue
            if any(c.dep_ == "nummod" for c in oc.children):
                continue  # "I'm keen on two projects"
            if oc.pos_ in ("VERB", "AUX"):
                if oc.lemma_.lower() in ("be", "have", "do", "get", "make", "go", "take", "see", "know", "hear", "say", "think", "feel"):
                    continue
                toks = [x for x in oc.subtree if x.i >= oc.i and x.dep_ not in ("aux", "punct", "det", "cc", "advmod", "neg")
                        and not self._under_conj(x, oc)]
                if any(x.pos_ in ("PRON", "DET") or x.lower_ in _BAD_OBJECTS or x.lower_ in ("such", "so", "more") for x in toks):
                    continue
                if len(toks) > 4 or any(c.dep_ in ("ccomp", "advcl", "xcomp") for c in oc.children):
                    continue
                out.append((_text(toks).lower(), False, toks))
            else:
                val, ent = _value_of(oc, ctx)
                if not val or len(val.split()) > 4:
                    continue
                out.append((val, ent, list(oc.subtree)))
        return out

    def _preference(self, v, st, pol, tense, tv, *, attribute: str) -> None:
        subj = self._subject(st)
        if subj is None:
            return
        if tense == "past" and pol != "cease":
            if not any(c.lower_ in ("always",) for c in v.children):
                return  # "I loved the concert": an episode, not a standing preference
        if tense == "future":
            return
        if tense == "progressive" and v.lemma_ not in ("enjoy", "love"):
            return
        if tense == "progressive":
            # "I'm really enjoying my new job": a current mood, not a lasting preference
            return
        objs = []
        o = _child(v, "dobj")
        if o is not None:
            objs.append(o)
        xc = _child(v, "xcomp")
        if xc is not None and (xc.tag_ == "VBG" or xc.pos_ in ("NOUN", "PROPN") or
                               (xc.pos_ == "VERB" and _child(xc, "aux") is not None and _child(xc, "aux").lower_ == "to")):
            objs.append(xc)
        for o in objs:
            for val, ent, toks in self._pref_values(o):
                self._emit(subj, attribute, val, v=v, pol=pol, tense="present" if tense == "perfect" else tense, tv=tv, value_toks=toks,
                           is_entity=ent, rule=f"pref_{v.lemma_.lower()}")

    @staticmethod
    def _under_conj(x, top) -> bool:
        h = x
        while h.i != top.i and h.head.i != h.i:
            if h.dep_ == "conj":
                return True
            h = h.head
        return False

    def _h_like(self, v, st, pol, tense, tv) -> None:
        if v.pos_ not in ("VERB", "ADP") or v.pos_ == "ADP" and _child(v, "nsubj") is None:
            return
        self._preference(v, st, pol, tense, tv, attribute="likes")

    def _h_dislike(self, v, st, pol, tense, tv) -> None:
        self._preference(v, st, pol, tense, tv, attribute="dislikes")

    def _h_prefer(self, v, st, pol, tense, tv) -> None:
        self._preference(v, st, pol, tense, tv, attribute="prefers")

    def _h_stand(self, v, st, pol, tense, tv) -> None:
        # "I can't stand X" -> dislikes
        if pol == "negate" and any(c.lower_ in ("ca", "can", "could") for c in v.children):
            subj = self._subject(st)
            o = _child(v, "dobj")
            if o is None:  # "I can't stand cilantro" with the object tagged as an adverb
                o = next((c for c in v.children if c.i > v.i and c.dep_ in ("advmod", "npadvmod", "oprd", "dep", "attr")
                          and c.pos_ in ("NOUN", "PROPN", "ADJ") and c.lower_ not in ("anymore", "much", "long")), None)
            if subj is not None and o is not None and o.lower_ not in _BAD_OBJECTS and o.pos_ != "PRON":
                val, ent = _value_of(o, self.ctx)
                self._emit(subj, "dislikes", val, v=v, pol="assert", tense="present", tv=tv, value_toks=list(o.subtree), is_entity=ent, rule="cant_stand")

    def _h_speak(self, v, st, pol, tense, tv) -> None:
        subj = self._subject(st)
        if subj is None or not subj.person:
            return
        if tense not in ("present", "perfect") and not (tense == "past" and pol == "cease"):
            if tense == "past":
                pol = "cease"
            else:
                return
        o = _child(v, "dobj")
        if o is None:
            return
        for oc in _conjuncts(o):
            if oc.ent_type_ in ("LANGUAGE", "NORP") or oc.text[:1].isupper():
                self._emit(subj, "speaks", oc.text, v=v, pol=pol, tense="present", tv=tv, value_toks=[oc], rule="speak")

    def _habit(self, v, st, pol, tense, tv, *, attribute: str) -> None:
        ctx = self.ctx
        subj = self._subject(st)
        if subj is None or not subj.person:
            return
        if tense not in ("present", "perfect"):
            return
        if tense == "present" and v.tag_ not in ("VBP", "VBZ", "VB") and pol != "cease":
            return
        o = _child(v, "dobj")
        if o is None or o.pos_ == "PRON" or o.lower_ in _BAD_OBJECTS:
            return
        if _child(o, "det") is not None and _child(o, "det").lower_ in ("the", "this", "that", "a", "an") and not _is_name(o, ctx):
            if attribute not in ("plays", "drives"):
                return
        for oc in _conjuncts(o):
            val, ent = _value_of(oc, ctx)
            self._emit(subj, attribute, val, v=v, pol=pol, tense="present", tv=tv, value_toks=list(oc.subtree), is_entity=ent, rule=f"habit_{attribute}",
                       conf=0.9)

    def _h_eat(self, v, st, pol, tense, tv) -> None:
        self._habit(v, st, pol, tense, tv, attribute="eats")

    def _h_drink(self, v, st, pol, tense, tv) -> None:
        self._habit(v, st, pol, tense, tv, attribute="drinks")

    def _h_play(self, v, st, pol, tense, tv) -> None:
        self._habit(v, st, pol, tense, tv, attribute="plays")

    def _h_drive(self, v, st, pol, tense, tv) -> None:
        self._habit(v, st, pol, tense, tv, attribute="drives")

    def _h_learn(self, v, st, pol, tense, tv) -> None:
        if tense not in ("progressive",):
            return
        subj = self._subject(st)
        o = _child(v, "dobj")
        if subj is None or o is None or o.pos_ == "PRON" or o.lower_ in _BAD_OBJECTS:
            return
        if _child(o, "det") is not None:
            return
        val, ent = _value_of(o, self.ctx)
        self._emit(subj, "learning", val, v=v, pol=pol, tense="present", tv=tv, value_toks=list(o.subtree), is_entity=ent, rule="learning", conf=0.9)

    def _h_study(self, v, st, pol, tense, tv) -> None:
        subj = self._subject(st)
        if subj is None or not subj.person or tense in ("future", "past"):
            return
        o = _child(v, "dobj")
        if o is not None and o.pos_ != "PRON" and o.lower_ not in _BAD_OBJECTS and _child(o, "det") is None:
            val, ent = _value_of(o, self.ctx)
            self._emit(subj, "studies", val, v=v, pol=pol, tense="present", tv=tv, value_toks=list(o.subtree), is_entity=ent, rule="study", conf=0.9)
        for p in _children(v, "prep"):
            po = _child(p, "pobj")
            if p.lower_ == "at" and po is not None and _is_name(po, self.ctx):
                self._emit(subj, "school", _name_text(po), v=v, pol=pol, tense="present", tv=tv, value_toks=list(po.subtree), is_entity=True, rule="study_at")

    def _h_promote(self, v, st, pol, tense, tv) -> None:
        subj = self._subject(st)
        if subj is None or not subj.person or pol == "negate":
            return
        for p in _children(v, "prep"):
            po = _child(p, "pobj")
            if p.lower_ == "to" and po is not None:
                self._emit(subj, "job_title", self._job_title(po), v=v, pol="assert", tense="present", tv=tv, value_toks=list(po.subtree),
                           rule="promoted_to", past_means_cease=False)
                return
        for x in _children(v, "xcomp"):
            # "promoted to head of design" parsed as a to-infinitive
            toks = [y for y in x.subtree if y.dep_ != "aux" and not y.is_punct]
            if 0 < len(toks) <= 5:
                self._emit(subj, "job_title", _text(toks).lower(), v=v, pol="assert", tense="present", tv=tv, value_toks=toks,
                           rule="promoted_to", past_means_cease=False)

    def _h_become(self, v, st, pol, tense, tv) -> None:
        self._copular(v, st, pol, "present" if tense in ("past", "perfect") else tense, tv)

    def _h_hire(self, v, st, pol, tense, tv) -> None:
        ctx = self.ctx
        # passive: "I got hired by Google", "I was hired at Stripe as a designer"
        if _child(v, "nsubjpass") is None or pol == "negate":
            return
        subj = self._subject(st)
        if subj is None or not subj.person:
            return
        for c in v.children:
            if c.dep_ in ("agent", "prep") and c.lower_ in ("by", "at"):
                po = _child(c, "pobj")
                if po is not None and _is_name(po, ctx):
                    self._emit(subj, "employer", _name_text(po), v=v, pol="assert", tense="present", tv=tv, value_toks=list(po.subtree),
                               is_entity=True, rule="hired_by", past_means_cease=False)
            if c.dep_ == "prep" and c.lower_ == "as":
                po = _child(c, "pobj")
                if po is not None:
                    self._emit(subj, "job_title", self._job_title(po), v=v, pol="assert", tense="present", tv=tv, value_toks=list(po.subtree),
                               rule="hired_as", past_means_cease=False)

    def _h_fire(self, v, st, pol, tense, tv) -> None:
        # "I got laid off", "I was fired from Acme"
        if _child(v, "nsubjpass") is None or pol == "negate" or tense == "future":
            return
        if v.lemma_ == "lay" and not any(c.lower_ == "off" for c in v.children):
            return
        subj = self._subject(st)
        if subj is None or not subj.person:
            return
        val = ""
        toks = []
        for c in v.children:
            if c.dep_ == "prep" and c.lower_ in ("from", "at", "by"):
                po = _child(c, "pobj")
                if po is not None and _is_name(po, self.ctx):
                    val, toks = _name_text(po), list(po.subtree)
        self._emit(subj, "employer", val, v=v, pol="cease", tense="present", tv=tv, value_toks=toks, is_entity=bool(val), rule="laid_off")

    def _h_bear(self, v, st, pol, tense, tv) -> None:
        ctx = self.ctx
        if _child(v, "nsubjpass") is None:
            return
        subj = self._subject(st)
        if subj is None or not subj.person:
            return
        for p in _children(v, "prep"):
            po = _child(p, "pobj")
            if po is None:
                continue
            if self._is_time_tok(po):
                tr = self._resolve_time_tok(po, -1)
                if tr is not None:
                    key = "birthday" if tr.grain == "day" else "birth_year" if tr.grain == "year" else "birth_date"
                    val = tr.iso() if tr.grain != "year" else tr.start.year
                    e = self._time_of(po)
                    self._emit(subj, key, val, v=v, pol="assert", tense="present", tv=tv, value_toks=[ctx.doc[i] for i in e[0]],
                               state=False, rule="born_on", past_means_cease=False)
            elif p.lower_ in ("in", "at") and _is_name(po, ctx):
                self._emit(subj, "birthplace", _name_text(po), v=v, pol="assert", tense="present", tv=tv, value_toks=list(po.subtree),
                           is_entity=True, state=False, rule="born_in", past_means_cease=False, valid_from=None)

    def _h_grow(self, v, st, pol, tense, tv) -> None:
        ctx = self.ctx
        prt = _child(v, "prt")
        subj = self._subject(st)
        if prt is not None and prt.lower_ == "up" and subj is not None and subj.person:
            for p in _children(v, "prep"):
                po = _child(p, "pobj")
                if p.lower_ in ("in", "on") and po is not None and _is_name(po, ctx):
                    self._emit(subj, "grew_up_in", _name_text(po), v=v, pol="assert", tense="present", tv=tv, value_toks=list(po.subtree),
                               is_entity=True, state=False, rule="grew_up_in", past_means_cease=False)
            return
        if subj is None and st is not None:
            self._metric_change(v, st, pol, tense, tv)

    def _h_turn(self, v, st, pol, tense, tv) -> None:
        # "I turned 40 last week"
        subj = self._subject(st)
        if subj is None or not subj.person:
            return
        o = _child(v, "dobj", "attr", "oprd")
        if o is not None and o.like_num:
            n = word_number(o.text)
            if n is not None and 0 < n < 125:
                self._emit(subj, "age", _fmt_num(n), v=v, pol="assert", tense="present", tv=tv, value_toks=[o], rule="turned_age",
                           past_means_cease=False)

    def _h_base(self, v, st, pol, tense, tv) -> None:
        """ "I'm based in Berlin" -> lives_in; "Acme is based in Berlin" -> headquarters."""
        ctx = self.ctx
        subj = self._subject(st)
        if subj is None or pol == "negate":
            return
        ent = _ent_of(st) if st is not None else None
        if not subj.person and ent is not None and ent.label_ == "ORG" or (st is not None and st.lower_ not in _FIRST and not subj.person
                                                                       and ent is None):
            for p in _children(v, "prep"):
                po = _child(p, "pobj")
                if p.lower_ in ("in", "out") and po is not None and _is_name(po, ctx):
                    self._emit(subj, "headquarters", _name_text(po), v=v, pol=pol, tense=tense, tv=tv, value_toks=list(po.subtree),
                               is_entity=True, rule="based_in_org")
            return
        self._location_preps(subj, v, pol, tense, tv, v=v, rule="based_in")

    def _h_marry(self, v, st, pol, tense, tv) -> None:
        """ "We got married in June", "I married Tom", "I'm married to Tom"."""
        ctx = self.ctx
        subj = self._subject(st)
        if subj is None or not subj.person or pol == "negate" or tense == "future":
            return
        if _child(v, "nsubjpass") is None and _child(v, "dobj") is None:
            return
        self._emit(subj, "marital_status", "married", v=v, pol=pol, tense="present", tv=tv, rule="married")
        o = _child(v, "dobj")
        if o is None:
            for p in _children(v, "prep"):
                if p.lower_ == "to":
                    o = _child(p, "pobj")
        if o is not None and _is_name(o, ctx):
            self._emit(subj, "spouse", _name_text(o), v=v, pol=pol, tense="present", tv=tv, value_toks=list(o.subtree), is_entity=True,
                       rule="married_to")

    def _h_obsess(self, v, st, pol, tense, tv) -> None:
        """ "I'm obsessed with Taylor Swift" -> likes."""
        subj = self._subject(st)
        if subj is None or not subj.person or tense in ("past", "future"):
            return
        for p in _children(v, "prep"):
            o = _child(p, "pobj")
            if p.lower_ == "with" and o is not None:
                for val, ent, toks in self._pref_values(o):
                    self._emit(subj, "likes", val, v=v, pol=pol, tense="present", tv=tv, value_toks=toks, is_entity=ent, rule="obsessed_with")

    def _h_weigh(self, v, st, pol, tense, tv) -> None:
        subj = self._subject(st)
        o = _child(v, "dobj", "npadvmod", "attr")
        if subj is None or not subj.person or o is None or tense not in ("present", "perfect"):
            return
        num = _parse_number(o)
        if num is not None and num[1] in ("kg", "lb"):
            n, unit, ntoks = num
            self._emit(subj, "weight", _num_value(n, unit), v=v, pol=pol, tense="present", tv=tv, value_toks=ntoks + [o], unit=unit,
                       number=n, rule="weigh")

    def _h_give(self, v, st, pol, tense, tv) -> None:
        """ "I gave up sugar" -> habit ceases."""
        prt = _child(v, "prt")
        subj = self._subject(st)
        o = _child(v, "dobj")
        if prt is None or prt.lower_ != "up" or subj is None or not subj.person or o is None or pol != "assert":
            return
        if tense not in ("past", "perfect") or o.pos_ == "PRON" or o.lower_ in _BAD_OBJECTS or _child(o, "poss") is not None:
            return
        self._emit(subj, "habit", _np_text(o), v=v, pol="cease", tense="present", tv=tv, value_toks=list(o.subtree), rule="gave_up")

    def _h_mean(self, v, st, pol, tense, tv) -> None:
        # "I meant that I live in Lisbon" -> ccomp handled by _predicates; bare objects by _bare_correction
        return

    # ---- events and metrics with a noun subject
    def _event_change(self, v, st, pol, tense, tv, h=None) -> bool:
        """ "the deadline moved to Friday", "the launch slipped to June 12", "the Apollo launch was pushed to May"."""
        ctx = self.ctx
        lemma = v.lemma_.lower()
        if lemma not in _EVENT_VERBS:
            return False
        if h is None:
            h = st
        if h is None or h.pos_ not in ("NOUN", "PROPN"):
            return False
        key = self._attr_key(h)
        if key is None:
            return False
        akey = self._date_key(h, key, None)
        if akey is None:
            return False
        owner, explicit = _owner(h, ctx)
        if owner is None:
            return False
        date_tok = None
        for p in _children(v, "prep"):
            if p.lower_ in ("to", "until", "till", "for", "on", "in", "by", "at"):
                po = _child(p, "pobj")
                if po is not None and self._is_time_tok(po):
                    date_tok = po
                    if p.lower_ in ("to", "until", "till", "for"):
                        break
        if date_tok is None:
            for c in v.children:
                if c.dep_ == "npadvmod" and self._is_time_tok(c) and lemma in ("be", "happen"):
                    date_tok = c
        if date_tok is None:
            return False
        if lemma in ("end", "finish", "close"):
            akey = akey.replace("_date", "_end_date") if akey.endswith("_date") else akey
        tr = self._resolve_time_tok(date_tok, -1 if tense == "past" and lemma in ("happen", "be") else 1)
        entry = self._time_of(date_tok)
        val = tr.iso() if tr is not None else entry[2]
        self._emit(owner, akey, val, v=v, pol="assert" if pol != "negate" else pol, tense="present", tv=tv, state=False,
                   value_toks=[ctx.doc[i] for i in entry[0]], rule="event_change", conf=1.0)
        return True

    def _named_event(self, v, st, pol, tense, tv) -> None:
        """ "Project Apollo launches on May 3" -> Apollo.launch_date."""
        ctx = self.ctx
        lemma = v.lemma_.lower()
        key = {"launch": "launch_date", "ship": "ship_date", "release": "release_date", "open": "opening_date", "premiere": "premiere_date",
               "start": "start_date", "begin": "start_date", "close": "end_date", "end": "end_date", "go": "launch_date"}.get(lemma)
        if key is None:
            return
        if lemma == "go" and not any(c.lower_ == "live" for c in v.children):
            return
        subj = _resolve_subject(st, ctx)
        if subj is None:
            return
        for p in _children(v, "prep"):
            po = _child(p, "pobj")
            if po is not None and self._is_time_tok(po) and p.lower_ in ("on", "in", "at", "by"):
                tr = self._resolve_time_tok(po, -1 if tense == "past" else 1)
                entry = self._time_of(po)
                val = tr.iso() if tr is not None else entry[2]
                self._emit(subj, key, val, v=v, pol=pol, tense="present", tv=tv, state=False, value_toks=[ctx.doc[i] for i in entry[0]],
                           rule="named_event")
                return

    def _metric_change(self, v, st, pol, tense, tv) -> bool:
        """ "latency dropped to 180 ms", "the price went up to $30", "we cut the budget to $5k"."""
        ctx = self.ctx
        lemma = v.lemma_.lower()
        if lemma not in ("drop", "fall", "decrease", "decline", "rise", "increase", "grow", "jump", "climb", "improve", "reach", "hit",
                         "go", "come", "shrink", "spike", "settle", "stand", "sit", "plunge", "soar", "change", "bump", "cut", "reduce",
                         "raise", "lower", "lift", "bring", "get", "set", "double", "triple", "halve", "tank", "balloon", "creep", "dip",
                         "slow", "speed", "move", "hover", "average", "peak", "be", "stay", "remain"):
            return False
        if st is None:
            return False
        h = st
        transitive = False
        if st.lower_ in _FIRST or st.lower_ in _SECOND or _is_name(st, ctx) and st.lower_ not in _METRICS:
            # "we cut the budget to $5k"
            o = _child(v, "dobj")
            if o is None:
                return False
            h = o
            transitive = True
        if h.pos_ not in ("NOUN", "PROPN"):
            return False
        key = self._attr_key(h)
        if key is None:
            return False
        num_tok = None
        for p in _children(v, "prep"):
            if p.lower_ in ("to", "at", "around", "about"):
                po = _child(p, "pobj")
                if po is not None:
                    num_tok = po
                    break
        if num_tok is None and lemma in ("reach", "hit", "average", "be"):
            num_tok = _child(v, "dobj", "attr")
        if num_tok is None:
            # "rent went up to $2,000" (the parse hangs the number under "up")
            skip = {x.i for x in h.subtree} | {x.i for x in st.subtree}
            for c in v.children:
                if c.dep_ == "prep" and c.lower_ == "from":
                    skip |= {x.i for x in c.subtree}
            for x in v.subtree:
                if x.i in skip or x.i == v.i:
                    continue
                if (x.like_num or _NUM_UNIT_RE.match(x.text) or any(c.dep_ == "nummod" and c.like_num for c in x.children)) \
                        and x.dep_ in ("pobj", "dobj", "attr", "npadvmod", "appos"):
                    num_tok = x
                    break
        if num_tok is None:
            return False
        num = _parse_number(num_tok)
        if num is None:
            return False
        n, unit, ntoks = num
        lem = h.lemma_.lower()
        if not (lem in _METRICS or h.lower_ in _METRICS or key.split("_")[-1] in _METRICS
                or unit in _UNITS.values() or unit in _CURRENCY.values()):
            return False
        if st.pos_ == "PRON" and not transitive:
            return False
        owner, explicit = _owner(h, ctx)
        if owner is None:
            return False
        self._emit(owner, key, _num_value(n, unit), v=v, pol="assert" if pol != "negate" else pol, tense="present", tv=tv, state=False,
                   value_toks=ntoks + [num_tok], unit=unit, number=n, rule="metric_change", conf=1.0)
        return True

    # ---- corrections
    def _contrast_spans(self, sent) -> None:
        """Find "X, not Y" and "not Y but X": the "not" negates Y, not the clause."""
        ctx = self.ctx
        ctx.contrast_negs, ctx.negated, ctx.alt = set(), set(), {}
        doc = self.doc
        for t in sent:
            if t.lower_ != "not" or t.i + 1 >= sent.end:
                continue
            nxt = doc[t.i + 1]
            x = nxt.head if nxt.pos_ == "DET" else nxt
            if x.pos_ not in ("ADP", "NOUN", "PROPN", "NUM", "DET"):
                continue
            after_comma = t.i > sent.start and doc[t.i - 1].text == ","
            alt = next((c for c in x.children if c.dep_ == "conj" and c.pos_ not in ("VERB", "AUX")
                        and any(cc.dep_ == "cc" and cc.lower_ == "but" for cc in x.children)), None)
            if after_comma or alt is not None:
                ctx.contrast_negs.add(t.i)
                ctx.negated.update(y.i for y in x.subtree if alt is None or y.i not in {z.i for z in alt.subtree})
                if alt is not None:
                    ctx.alt[x.i] = alt

    def _contrast(self, sent):
        """The token Y in "X, not Y" / "not Y but X" (the corrected value), or None."""
        nouns = ("PROPN", "NOUN", "NUM", "ADJ")
        for xi in self.ctx.alt:
            x = self.doc[xi]
            return _child(x, "pobj") if x.pos_ == "ADP" and _child(x, "pobj") is not None else x
        for t in sent:
            if t.dep_ != "neg" or t.lower_ != "not":
                continue
            h = t.head
            if h.pos_ in nouns:
                for c in h.children:
                    if c.dep_ in ("appos", "conj", "npadvmod", "dep") and c.i > t.i and c.pos_ in nouns:
                        return c
                if h.dep_ in ("appos", "conj", "npadvmod", "dep") and h.i > t.i:
                    return h
                if h.i > t.i and h.dep_ in ("dobj", "attr", "pobj") and any(c.dep_ == "cc" and c.lower_ == "but" for c in h.children):
                    return h
            elif h.pos_ == "ADP" and h.i > t.i:
                po = _child(h, "pobj")
                if po is not None and h.dep_ in ("prep", "appos", "conj") and h.head.pos_ in nouns:
                    return po
            # word order when the parse is off: "..., not Y."
            doc = t.doc
            if t.i > sent.start and doc[t.i - 1].text == "," and t.i + 1 < sent.end:
                nxt = doc[t.i + 1]
                if nxt.pos_ == "ADP" and _child(nxt, "pobj") is not None:
                    return _child(nxt, "pobj")  # "in Lisbon, not in Porto"
                if nxt.pos_ in nouns or nxt.ent_type_ in _NAME_LABELS or nxt.text in _CURRENCY:
                    if nxt.text in _CURRENCY and t.i + 2 < sent.end:
                        nxt = doc[t.i + 2]
                    return nxt
        return None

    def _bare_correction(self, sent) -> None:
        """ "Sorry, I meant Lisbon, not Porto." / "Actually it's Lisbon, not Porto." / "Correction: Friday, not Thursday." """
        ctx = self.ctx
        root = sent.root
        val_tok = None
        if root.lemma_ == "mean" and root.tag_ != "VBD":
            return  # "I mean, ..." is a filler; "I meant X" corrects
        if root.lemma_ == "mean":
            val_tok = _child(root, "dobj", "attr", "oprd")
            if val_tok is None:
                # "I meant Spanish, not Portuguese." parsed without an object: the first content word after "meant"
                stop = ctx.replaces_tok.i if ctx.replaces_tok is not None else sent.end
                for x in self.doc[root.i + 1:stop]:
                    if x.lower_ == "not":
                        break
                    if x.pos_ in ("PROPN", "NOUN", "NUM", "ADJ") and not x.is_punct:
                        val_tok = x
                        break
        elif root.lemma_ == "be":
            st = _subject_token(root)
            if st is not None and st.lower_ in ("it", "that", "this"):
                val_tok = _child(root, "attr", "acomp")
                if val_tok is None:
                    for p in _children(root, "prep"):
                        po = _child(p, "pobj")
                        if po is not None:
                            val_tok = po
        elif root.pos_ in ("PROPN", "NOUN", "NUM") and root.dep_ == "ROOT" and _CORR_STRONG.search(sent.text.lower()):
            val_tok = root
            if root.lower_ in ("correction", "sorry", "typo", "oops"):
                cands = [c for c in root.children if c.dep_ in ("appos", "dep", "npadvmod", "conj") and c.pos_ in ("PROPN", "NOUN", "NUM")
                         and not any(n.dep_ == "neg" for n in c.children)]
                val_tok = cands[0] if cands else None
        if val_tok is None or val_tok.pos_ in ("PRON", "ADJ", "ADV", "VERB") and val_tok.ent_type_ not in _NAME_LABELS \
                or val_tok.lower_ in _BAD_OBJECTS or (ctx.replaces_tok is not None and val_tok.i == ctx.replaces_tok.i):
            return
        if self._is_time_tok(val_tok):
            tr = self._resolve_time_tok(val_tok, 1)
            val = tr.iso() if tr is not None else self._time_of(val_tok)[2]
            ent = False
        else:
            num = _parse_number(val_tok)
            if num is not None and (num[1] is not None or val_tok.like_num):
                val, ent = _num_value(num[0], num[1]), False
            else:
                val, ent = _value_of(val_tok, ctx)
        replaces = self._replaces_text(ctx.replaces_tok, "") if ctx.replaces_tok is not None else None
        subject, attribute, is_sp = ctx.speaker, "", True
        # resolve against a claim made earlier in this same message
        for c in reversed(ctx.claims):
            if replaces is not None and str(c.value).lower() == str(replaces).lower():
                subject, attribute, is_sp = c.subject, c.attribute, c.subject_is_speaker
                break
        ctx.claims.append(Claim(subject=subject, attribute=attribute, value=val, text=ctx.sent_text, correction=True,
                                replaces=replaces, subject_is_speaker=is_sp, value_is_entity=ent,
                                confidence=0.8 if not attribute else 0.9, rule="bare_correction"))


_EVENT_VERBS = frozenset({"move", "push", "slip", "postpone", "delay", "reschedule", "shift", "bump", "change", "get", "set",
                          "schedule", "plan", "slate", "book", "fix", "extend", "pull", "bring", "advance", "happen", "take",
                          "be", "slide", "land", "start", "begin", "end", "finish", "close", "open", "fall"})

_VERB_HANDLERS = {
    "live": "_h_live", "reside": "_h_live", "stay": "_h_live", "settle": "_h_live",
    "move": "_h_move", "relocate": "_h_move",
    "leave": "_h_leave",
    "quit": "_h_quit", "resign": "_h_quit", "retire": "_h_quit",
    "work": "_h_work",
    "join": "_h_join",
    "start": "_h_start", "begin": "_h_start",
    "get": "_h_get", "got": "_h_get",
    "have": "_h_have", "own": "_h_own",
    "adopt": "_h_adopt", "buy": "_h_adopt", "rescue": "_h_adopt",
    "sell": "_h_sell",
    "love": "_h_like", "like": "_h_like", "enjoy": "_h_like", "adore": "_h_like",
    "hate": "_h_dislike", "dislike": "_h_dislike", "detest": "_h_dislike", "loathe": "_h_dislike",
    "prefer": "_h_prefer",
    "stand": "_h_stand",
    "speak": "_h_speak",
    "eat": "_h_eat", "drink": "_h_drink", "play": "_h_play", "drive": "_h_drive",
    "learn": "_h_learn", "study": "_h_study",
    "promote": "_h_promote",
    "become": "_h_become",
    "hire": "_h_hire", "employ": "_h_hire",
    "fire": "_h_fire", "lay": "_h_fire", "sack": "_h_fire",
    "bear": "_h_bear",
    "grow": "_h_grow",
    "turn": "_h_turn",
    "mean": "_h_mean",
    "obsess": "_h_obsess", "weigh": "_h_weigh", "give": "_h_give",
    "base": "_h_base",
    "marry": "_h_marry", "wed": "_h_marry",
}


# --- entry points -------------------------------------------------------------

def _ref_utc(reference_time) -> _dt.datetime:
    if isinstance(reference_time, str):
        from ._time import parse_time
        t = parse_time(reference_time, "reference_time")
        assert t is not None
        return t
    if isinstance(reference_time, _dt.datetime):
        if reference_time.tzinfo is None:
            return reference_time.replace(tzinfo=UTC)
        return reference_time.astimezone(UTC)
    if isinstance(reference_time, _dt.date):
        return _dt.datetime(reference_time.year, reference_time.month, reference_time.day, tzinfo=UTC)
    raise TypeError(f"reference_time must be a datetime, got {type(reference_time).__name__}")


def _nlp():
    from .models import load_spacy
    return load_spacy()


def extract(text: str, *, speaker: str, reference_time: _dt.datetime, listener: str | None = None, doc=None) -> Extraction:
    """Claims and mentions of one message. ``doc``: an already parsed spaCy Doc of ``text``."""
    ref = _ref_utc(reference_time)
    if doc is None:
        if not text or not text.strip():
            return Extraction([], [])
        doc = _nlp()(text)
    return _Extractor(doc, speaker or "user", listener, ref).run()


def extract_many(items: Sequence[tuple[str, str, _dt.datetime, str | None]], *, batch_size: int = 64) -> list[Extraction]:
    """:func:`extract` over ``(text, speaker, reference_time, listener)`` tuples, parsing with ``nlp.pipe``."""
    items = list(items)
    if not items:
        return []
    nlp = _nlp()
    docs = nlp.pipe((it[0] or "" for it in items), batch_size=batch_size)
    out = []
    for (text, speaker, ref, listener), doc in zip(items, docs):
        out.append(extract(text, speaker=speaker, reference_time=ref, listener=listener, doc=doc))
    return out
