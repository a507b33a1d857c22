"""Training pairs that teach this project's reading of a pair, and hard negatives.

SNLI reads a pair as two captions of one photo: a hypothesis about another
person or another action is a *contradiction*. Memory revision reads it as
two statements about the world: an unrelated statement, or the same
predicate said of a different subject, is *neutral*; only the same subject
and the same slot with an incompatible value (or its negation) contradicts.
A model trained on SNLI and the revision families alone also misses pairs
that differ by one small word (issue 19, measured on a public NLI set):

- negation ignored in the premise ("Tom does not have a car" / "Tom has a
  car" scored 0.68; one order called entailment);
- antonyms called entailment ("top" / "bottom", "adding" / "removing");
- role swaps called entailment ("the turtle follows the fish" / "the fish
  follows the turtle");
- a different subject with the same predicate called contradiction
  ("A woman is slicing tofu" / "A man is slicing butter", 0.996).

This module writes such pairs from its own small vocabularies. None of its
words or frames come from the held-out public-template set
(``eval/data/nli_public_templates.jsonl``, built by
``eval/make_nli_public_set.py``); ``tests/test_models.py`` checks that the
antonym pairs are disjoint from that set's and that no frame here says one
of its relation patterns' verb phrases.

Kinds (label):

- ``negation`` (contradiction): a statement and its negation, either order;
- ``negation_other_subject`` (neutral): the negation said of someone else;
- ``negation_paraphrase`` (entailment): two negations of the same thing;
- ``antonym`` (contradiction): the same subject with the opposite state;
- ``antonym_other_subject`` (neutral);
- ``synonym`` (entailment): the same state in other words;
- ``role_swap``: antisymmetric relation swapped (contradiction), symmetric
  one (entailment), any other relation (neutral);
- ``scene_other_subject`` (neutral): caption-style sentences, another
  subject doing the same or a similar thing;
- ``scene_unrelated`` (neutral): a named person's two unrelated activities;
- ``negation_other_value`` (neutral): "X does not live in A" / "X lives in B";
- ``same_value_format`` (entailment): one number or date written two ways.

    from midas_graph.models.contrast_pairs import generate
    pairs = generate(5000, seed=1)      # revision_pairs.Pair objects
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from .revision_pairs import CON, ENT, NEU, Pair

__all__ = ["ANTONYMS", "generate", "KINDS"]

_NAMES = """Alice Maria Sofia Emma Olivia Hannah Chloe Priya Aisha Yuki Elena Laura Nina
Sara Julia Lena Mei Fatima Grace Zoe Tom David Lucas Omar Ben Daniel Marco Raj Kenji
Luis Jonas Felix Ahmed Samuel Leo Noah Ivan Mateo Hugo Arjun""".split()
_RELS = ["my sister", "my brother", "my boss", "my neighbour", "my cousin", "my roommate",
         "our manager", "my friend", "my colleague", "my dad", "my mum"]
_SCENE_SUBJ = ["a man", "a woman", "a boy", "a girl", "a child", "an old man", "a young woman",
               "a dog", "a cat", "two men", "two women", "a group of kids", "a person",
               "a chef", "a musician", "a player", "a cyclist", "a teenager"]

# (state, opposite) predicates said with "is"; own list, kept apart from the
# WordNet pairs of the held-out public-template set.
ANTONYMS: list[tuple[str, str]] = [
    ("full", "empty"), ("alive", "dead"), ("wet", "dry"), ("young", "old"),
    ("rich", "poor"), ("awake", "asleep"), ("early", "late"), ("safe", "in danger"),
    ("busy", "free"), ("present", "absent"), ("fast", "slow"), ("strong", "weak"),
    ("healthy", "sick"), ("right", "wrong"), ("possible", "impossible"),
    ("complete", "incomplete"), ("locked", "unlocked"), ("married", "single"),
    ("employed", "unemployed"), ("visible", "hidden"), ("available", "unavailable"),
    ("on", "off"), ("up", "down"), ("hungry", "full"), ("guilty", "innocent"),
    ("legal", "illegal"), ("public", "private"), ("finished", "unfinished"),
    ("approved", "rejected"), ("allowed", "forbidden"), ("certain", "unsure"),
    ("upstairs", "downstairs"), ("at the top of the hill", "at the bottom of the hill"),
    ("inside the house", "outside the house"), ("ahead of schedule", "behind schedule"),
    ("in stock", "out of stock"), ("increasing", "decreasing"), ("rising", "falling"),
    ("winning", "losing"), ("happy", "unhappy"), ("warm", "cold"), ("loud", "quiet"),
    ("heavy", "light"), ("long", "short"), ("wide", "narrow"), ("deep", "shallow"),
    ("true", "false"), ("enabled", "disabled"), ("included", "excluded"),
]
# (verb phrase base, 3rd person, opposite base, opposite 3rd person)
_ANT_VERBS = [
    ("win the match", "wins the match", "lose the match", "loses the match"),
    ("pass the exam", "passes the exam", "fail the exam", "fails the exam"),
    ("accept the offer", "accepts the offer", "reject the offer", "rejects the offer"),
    ("agree with the plan", "agrees with the plan", "disagree with the plan",
     "disagrees with the plan"),
    ("love the new office", "loves the new office", "hate the new office",
     "hates the new office"),
    ("remember the password", "remembers the password", "forget the password",
     "forgets the password"),
    ("approve the plan", "approves the plan", "veto the plan", "vetoes the plan"),
    ("arrive on time", "arrives on time", "arrive late", "arrives late"),
]
_ANT_SCENE = [  # caption style, progressive
    ("adding salt to the soup", "removing salt from the soup"),
    ("going up the ladder", "going down the ladder"),
    ("entering the building", "leaving the building"),
    ("opening the window", "closing the window"),
    ("pushing the cart", "pulling the cart"),
    ("standing", "sitting"), ("laughing", "crying"), ("sleeping", "running around"),
    ("turning the lights on", "turning the lights off"),
    ("filling the bucket", "emptying the bucket"),
    ("winning the race", "losing the race"),
    ("putting on a coat", "taking off a coat"),
]
_SYNONYMS = [("sick", "ill"), ("happy", "glad"), ("busy", "occupied"), ("big", "large"),
             ("quiet", "silent"), ("finished", "done"), ("wrong", "incorrect"),
             ("scared", "afraid"), ("tired", "exhausted"), ("angry", "furious"),
             ("rich", "wealthy"), ("hidden", "concealed"), ("free", "available")]
_THINGS = ["the fridge", "the tank", "the car park", "the printer", "the server",
           "the meeting room", "the gym", "the bakery", "the library", "the bridge",
           "the report", "the door", "the build", "the patch", "the river", "the road",
           "the kitchen", "the garage", "the feature flag", "the museum"]

# Negatable predicates: (base, 3rd person, is-copular?)
_PREDS = [
    ("have a car", "has a car"), ("own a bike", "owns a bike"), ("eat meat", "eats meat"),
    ("smoke", "smokes"), ("drive to work", "drives to work"), ("speak German", "speaks German"),
    ("go sailing", "goes sailing"), ("like jazz", "likes jazz"), ("drink coffee", "drinks coffee"),
    ("work on weekends", "works on weekends"), ("live alone", "lives alone"),
    ("have a passport", "has a passport"), ("know Python", "knows Python"),
    ("watch the news", "watches the news"), ("need a visa", "needs a visa"),
    ("have kids", "has kids"), ("take the train", "takes the train"),
    ("use Linux at home", "uses Linux at home"), ("have a garden", "has a garden"),
    ("keep a diary", "keeps a diary"), ("go to the gym", "goes to the gym"),
    ("wear glasses", "wears glasses"), ("pay rent", "pays rent"),
]
_COPULAR = ["vegetarian", "married", "at home", "in the office", "a member of the club",
            "allergic to nuts", "on call this week", "a manager", "on holiday",
            "in Berlin", "left-handed", "a student", "retired", "online", "available today",
            "on the night shift", "afraid of dogs", "a night owl"]
_NEG_PARA = [  # two ways to say the same negative
    ("does not eat meat", "never eats meat"), ("does not smoke", "is a non-smoker"),
    ("does not drink", "never drinks alcohol"), ("does not have a car", "has no car"),
    ("does not have kids", "has no children"), ("is not married", "is unmarried"),
    ("does not work on weekends", "never works on weekends"),
    ("does not have a passport", "has no passport"),
]

# Relations between two people (or things): "{A} ... {B}"
_ANTISYM = ["{A} reports to {B}", "{A} is {B}'s boss", "{A} manages {B}", "{A} is older than {B}",
            "{A} is taller than {B}", "{A} beat {B} in the final", "{A} is {B}'s mentor",
            "{A} owes {B} money", "{A} is the parent of {B}", "{A} supervises {B}",
            "{A} hired {B}", "{A} earns more than {B}", "{A} is ahead of {B} in the ranking",
            "{A} lives upstairs from {B}", "{A} trained {B}"]
_SYM = ["{A} is married to {B}", "{A} is {B}'s neighbour", "{A} works with {B}",
        "{A} met {B} yesterday", "{A} is friends with {B}", "{A} and {B} are cousins",
        "{A} shares an office with {B}", "{A} played chess against {B}",
        "{A} is {B}'s flatmate", "{A} is engaged to {B}"]
_OTHER_REL = ["{A} called {B}", "{A} likes {B}", "{A} follows {B} online", "{A} emailed {B}",
              "{A} admires {B}", "{A} is waiting for {B}", "{A} sent flowers to {B}",
              "{A} trusts {B}", "{A} is looking for {B}", "{A} invited {B} to dinner",
              "{A} is chasing {B}", "{A} is watching {B}"]
_ANIMALS = ["the dog", "the cat", "the horse", "the goat", "the fox", "the rabbit",
            "the duck", "the parrot"]

_ACTIVITIES = ["slicing bread", "slicing tomatoes",                "riding a bike", "riding a horse", "flying a kite", "cooking pasta", "cooking rice",
               "reading a book", "reading a newspaper", "painting a fence", "painting a wall",
               "swimming in a lake", "swimming in a pool", "dancing", "singing",
               "walking a dog", "climbing a rock", "washing a car", "eating an apple",
               "eating a sandwich", "throwing a ball", "kicking a ball", "typing on a laptop",
               "cutting paper", "pouring water", "drawing a picture", "jumping over a fence"]


def _name(rng: random.Random, avoid: str = "") -> str:
    for _ in range(20):
        n = rng.choice(_NAMES) if rng.random() < 0.8 else rng.choice(_RELS)
        if n != avoid:
            return n
    return "Zoe" if avoid != "Zoe" else "Tom"


def _cap(s: str) -> str:
    return s[0].upper() + s[1:]


def _end(s: str, rng: random.Random) -> str:
    s = _cap(s)
    return s + ("." if rng.random() < 0.85 else "")


def _contract(s: str, rng: random.Random) -> str:
    if rng.random() < 0.4:
        s = s.replace("does not ", "doesn't ").replace("is not ", "isn't ").replace(
            "do not ", "don't ").replace("I am not ", "I'm not ")
    return s


def _neg(rng: random.Random) -> tuple[str, str]:
    """(positive, negative) of one predicate for one subject."""
    s = _name(rng)
    if rng.random() < 0.6:
        base, third = rng.choice(_PREDS)
        first = rng.random() < 0.3
        if first:
            pos, neg = f"I {base}", rng.choice([f"I do not {base}", f"I never {base}"])
        else:
            pos, neg = f"{s} {third}", rng.choice([f"{s} does not {base}", f"{s} never {third}"]
                                                   if "have" not in base else [f"{s} does not {base}"])
    else:
        c = rng.choice(_COPULAR)
        if rng.random() < 0.3:
            pos, neg = f"I am {c}", f"I am not {c}"
        else:
            pos, neg = f"{s} is {c}", f"{s} is not {c}"
    neg = _contract(neg, rng).replace("I'm not", "I'm not").replace("I 'm", "I'm")
    return pos, neg


def _k_negation(rng: random.Random) -> Pair:
    pos, neg = _neg(rng)
    a, b = (neg, pos) if rng.random() < 0.5 else (pos, neg)
    return Pair(_end(a, rng), _end(b, rng), CON, "contrast:negation", "negation")


def _k_negation_other(rng: random.Random) -> Pair:
    s1 = _name(rng)
    s2 = _name(rng, avoid=s1)
    if rng.random() < 0.6:
        base, third = rng.choice(_PREDS)
        pos, neg = f"{s1} {third}", _contract(f"{s2} does not {base}", rng)
    else:
        c = rng.choice(_COPULAR)
        pos, neg = f"{s1} is {c}", _contract(f"{s2} is not {c}", rng)
    a, b = (neg, pos) if rng.random() < 0.5 else (pos, neg)
    return Pair(_end(a, rng), _end(b, rng), NEU, "contrast:negation", "negation_other_subject")


def _k_negation_para(rng: random.Random) -> Pair:
    s = _name(rng)
    x, y = rng.choice(_NEG_PARA)
    a, b = (f"{s} {x}", f"{s} {y}") if rng.random() < 0.5 else (f"{s} {y}", f"{s} {x}")
    return Pair(_end(_contract(a, rng), rng), _end(_contract(b, rng), rng), ENT,
                "contrast:negation", "negation_paraphrase")


_PERSON_STATES = {"alive", "young", "rich", "awake", "early", "safe", "busy", "present", "fast",
                  "strong", "healthy", "right", "married", "employed", "available", "hungry",
                  "guilty", "certain", "upstairs", "at the top of the hill", "inside the house",
                  "winning", "happy", "warm", "quiet"}
_PERSON_OF = {y: x for x, y in ANTONYMS} | {x: x for x, _ in ANTONYMS}


def _ant_subject(rng: random.Random, state: str) -> str:
    """A person for states of people, else a thing (or, now and then, a person)."""
    if _PERSON_OF.get(state, state) in _PERSON_STATES:
        return _name(rng)
    return rng.choice(_THINGS) if rng.random() < 0.9 else _name(rng)


def _k_antonym(rng: random.Random) -> Pair:
    r = rng.random()
    if r < 0.55:
        x, y = rng.choice(ANTONYMS)
        if rng.random() < 0.5:
            x, y = y, x
        s = _ant_subject(rng, x)
        now = rng.choice(["", "", "now ", "still "]) if rng.random() < 0.3 else ""
        a, b = f"{s} is {x}", f"{s} is {now}{y}"
    elif r < 0.8:
        b1, t1, b2, t2 = rng.choice(_ANT_VERBS)
        s = _name(rng)
        if rng.random() < 0.5:
            b1, t1, b2, t2 = b2, t2, b1, t1
        tense = rng.random()
        if tense < 0.5:
            a, b = f"{s} {t1}", f"{s} {t2}"
        else:   # past
            past = {"win": "won", "lose": "lost", "pass": "passed", "fail": "failed",
                    "accept": "accepted", "reject": "rejected", "agree": "agreed",
                    "disagree": "disagreed", "love": "loved", "hate": "hated",
                    "remember": "remembered", "forget": "forgot", "support": "supported",
                    "oppose": "opposed", "arrive": "arrived",
                    "approve": "approved", "veto": "vetoed"}
            v1, rest1 = b1.split(" ", 1)
            v2, rest2 = b2.split(" ", 1)
            a, b = f"{s} {past[v1]} {rest1}", f"{s} {past[v2]} {rest2}"
    else:
        x, y = rng.choice(_ANT_SCENE)
        if rng.random() < 0.5:
            x, y = y, x
        s = rng.choice(_SCENE_SUBJ)
        be = "are" if s.startswith(("two", "a group")) and not s.startswith("a group") else "is"
        a, b = f"{s} {be} {x}", f"{s} {be} {y}"
        if rng.random() < 0.5:   # "the" on the second mention
            b = b.replace(s, "the " + s.split(" ", 1)[1], 1) if s.startswith(("a ", "an ")) else b
    return Pair(_end(a, rng), _end(b, rng), CON, "contrast:antonym", "antonym")


def _k_antonym_other(rng: random.Random) -> Pair:
    if rng.random() < 0.5:
        x, y = rng.choice(ANTONYMS)
        s1 = _ant_subject(rng, x)
        s2 = _ant_subject(rng, y)
        if s1 == s2:
            s2 = _name(rng, avoid=s1) if s1 in _NAMES else rng.choice([t for t in _THINGS if t != s1])
        a, b = f"{s1} is {x}", f"{s2} is {y}"
    else:
        x, y = rng.choice(_ANT_SCENE)
        s1, s2 = rng.sample(_SCENE_SUBJ, 2)
        be1 = "are" if s1.startswith("two") else "is"
        be2 = "are" if s2.startswith("two") else "is"
        a, b = f"{s1} {be1} {x}", f"{s2} {be2} {y}"
    if rng.random() < 0.5:
        a, b = b, a
    return Pair(_end(a, rng), _end(b, rng), NEU, "contrast:antonym", "antonym_other_subject")


def _k_synonym(rng: random.Random) -> Pair:
    x, y = rng.choice(_SYNONYMS)
    if rng.random() < 0.5:
        x, y = y, x
    s = _name(rng)
    return Pair(_end(f"{s} is {x}", rng), _end(f"{s} is {y}", rng), ENT, "contrast:antonym",
                "synonym")


def _k_role_swap(rng: random.Random) -> Pair:
    r = rng.random()
    a = _name(rng)
    b = _name(rng, avoid=a)
    if r < 0.45:
        t, label = rng.choice(_ANTISYM), CON
    elif r < 0.7:
        t, label = rng.choice(_SYM), ENT
    else:
        t, label = rng.choice(_OTHER_REL), NEU
        if "chasing" in t or "watching" in t or rng.random() < 0.2:
            a, b = rng.sample(_ANIMALS, 2)
            label = NEU
    p = t.format(A=a, B=b)
    h = t.format(A=b, B=a)
    if label == CON and "'s boss" in t and rng.random() < 0.5:
        h, label = f"{b} reports to {a}", ENT   # the same fact in other words
    return Pair(_end(p, rng), _end(h, rng), label, "contrast:role", "role_swap")


def _k_scene_other(rng: random.Random) -> Pair:
    s1, s2 = rng.sample(_SCENE_SUBJ, 2)
    act1 = rng.choice(_ACTIVITIES)
    verb = act1.split(" ")[0]
    same_verb = [x for x in _ACTIVITIES if x.split(" ")[0] == verb and x != act1]
    act2 = rng.choice(same_verb) if same_verb and rng.random() < 0.6 else act1
    be1 = "are" if s1.startswith("two") else "is"
    be2 = "are" if s2.startswith("two") else "is"
    if rng.random() < 0.3:   # named people, memory style
        n1 = _name(rng)
        n2 = _name(rng, avoid=n1)
        a, b = f"{n1} is {act1}", f"{n2} is {act2}"
    else:
        a, b = f"{s1} {be1} {act1}", f"{s2} {be2} {act2}"
    return Pair(_end(a, rng), _end(b, rng), NEU, "contrast:scene", "scene_other_subject")


def _k_scene_unrelated(rng: random.Random) -> Pair:
    n = _name(rng)
    a1, a2 = rng.sample(_ACTIVITIES, 2)
    when = rng.choice(["", "", " this morning", " on Sundays", " today", " every day"])
    a = f"{n} is {a1}" if rng.random() < 0.5 else f"{n} likes {a1}{when}"
    b = f"{n} is {a2}" if a.startswith(f"{n} likes") else f"{n} likes {a2}{when}"
    return Pair(_end(a, rng), _end(b, rng), NEU, "contrast:scene", "scene_unrelated")


# (negated slot, plain slot) with a value: "{S} does not live in A" / "{S} lives in B"
_SLOT_NEG = [
    ("does not live in {A}", "lives in {B}", "don't live in {A}", "live in {B}", "city"),
    ("does not study in {A}", "studies in {B}", "don't study in {A}", "study in {B}", "city"),
    ("is not from {A}", "is from {B}", "am not from {A}", "am from {B}", "city"),
    ("does not work at {A}", "works at {B}", "don't work at {A}", "work at {B}", "org"),
    ("is not a {A}", "is a {B}", "am not a {A}", "am a {B}", "job"),
    ("does not drive a {A}", "drives a {B}", "don't drive a {A}", "drive a {B}", "car"),
    ("is not in {A} this week", "is in {B} this week", "am not in {A} this week",
     "am in {B} this week", "city"),
]
_SLOT_VALS = {
    "city": ["Leipzig", "Graz", "Bergen", "Turku", "Ghent", "Malmo", "Bilbao", "Nantes", "Bari",
             "Poznan", "Brno", "Aarhus", "Cork", "Lille", "Basel", "Tartu"],
    "org": ["the bakery", "the town hall", "the museum", "the post office", "a start-up",
            "the hospital", "the library", "a law firm", "the zoo", "the airport"],
    "job": ["plumber", "florist", "surgeon", "librarian", "carpenter", "dentist", "baker",
            "paramedic", "tailor", "vet"],
    "car": ["van", "pickup", "hatchback", "convertible", "minivan", "station wagon"],
}


def _k_negation_other_value(rng: random.Random) -> Pair:
    """A negated value and another value of the same slot are compatible."""
    neg3, pos3, neg1, pos1, kind = rng.choice(_SLOT_NEG)
    a, b = rng.sample(_SLOT_VALS[kind], 2)
    if rng.random() < 0.3:
        x, y = f"I {neg1}", f"I {pos1}"
    else:
        s = _name(rng)
        x, y = f"{s} {neg3}", f"{s} {pos3}"
    x, y = _contract(x.format(A=a, B=b), rng), y.format(A=a, B=b)
    if rng.random() < 0.5:
        x, y = y, x
    return Pair(_end(x, rng), _end(y, rng), NEU, "contrast:negation", "negation_other_value")


_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]


def _k_same_value_format(rng: random.Random) -> Pair:
    """The same number or date written another way is the same fact."""
    s = _name(rng)
    r = rng.random()
    if r < 0.5:
        y, m, d = rng.randint(2019, 2027), rng.randrange(12), rng.randint(1, 28)
        forms = [f"{d} {_MONTHS[m]} {y}", f"{_MONTHS[m]} {d}, {y}", f"{y}-{m + 1:02d}-{d:02d}",
                 f"{_MONTHS[m][:3]} {d} {y}", f"{d:02d}/{m + 1:02d}/{y}"]
        what = rng.choice(["{S}'s flight is on {V}", "{S}'s appointment is on {V}",
                           "{S}'s contract ends on {V}", "{S} starts the new job on {V}",
                           "the wedding of {S} is on {V}"])
    elif r < 0.8:
        n = rng.randint(1200, 98000)
        forms = [f"{n:,}", f"{n}", f"{n:,}".replace(",", " ")]
        what = rng.choice(["{S}'s salary is {V} euros", "{S} paid {V} dollars for the car",
                           "{S}'s village has {V} inhabitants", "{S} walked {V} steps today"])
    else:
        n = rng.randint(2, 95)
        forms = [f"{n} km", f"{n} kilometres", f"{n} kilometers"]
        what = rng.choice(["{S} lives {V} from the office", "{S} cycles {V} every day"])
    f1, f2 = rng.sample(forms, 2)
    a, b = what.format(S=s, V=f1), what.format(S=s, V=f2)
    return Pair(_end(a, rng), _end(b, rng), ENT, "contrast:numbers", "same_value_format")


KINDS: list[tuple[Callable[[random.Random], Pair], float]] = [
    (_k_negation, 0.14), (_k_negation_other, 0.07), (_k_negation_para, 0.03),
    (_k_negation_other_value, 0.07), (_k_antonym, 0.16), (_k_antonym_other, 0.06),
    (_k_synonym, 0.03), (_k_role_swap, 0.15), (_k_scene_other, 0.15), (_k_scene_unrelated, 0.08),
    (_k_same_value_format, 0.06),
]


def generate(n: int, *, seed: int = 0) -> list[Pair]:
    """``n`` distinct contrast pairs; the same ``(n, seed)`` gives the same pairs."""
    rng = random.Random(f"contrast:{seed}")
    fns = [f for f, _ in KINDS]
    ws = [w for _, w in KINDS]
    out: list[Pair] = []
    seen: set[tuple[str, str]] = set()
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > n * 50:
            raise RuntimeError("could not generate enough distinct contrast pairs")
        p = rng.choices(fns, ws)[0](rng)
        key = (p.premise.lower(), p.hypothesis.lower())
        if key in seen or p.premise.lower() == p.hypothesis.lower():
            continue
        seen.add(key)
        out.append(p)
    return out


def _main(argv: Sequence[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    from .revision_pairs import LABELS
    for p in generate(a.n, seed=a.seed):
        print(f"[{LABELS[p.label][:4]}] {p.kind:<22} {p.premise}  ||  {p.hypothesis}")


if __name__ == "__main__":
    _main()
