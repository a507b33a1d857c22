"""Generated (question, turn) pairs for training the answerability model.

A user asks an assistant about themself ("where do I live now?"), about
someone by role ("what does my wife do?") or by name ("where does Tom
work?"); the turn that answers may share no word with the question ("hes in
boston", "shes a nurse at mercy", or "Denver. been here two years" after the
assistant's "Where are you based?"). This module writes such pairs from
templates, in chat spelling and in full sentences, with four kinds of turn
that do not answer: the same person on another subject, the same subject of
another person (the user's own, or another relative's), the asked words
without an answer ("he hates his job lately"), and small talk.

Written here, from no corpus, so that the model it trains carries no one
else's licence; LoCoMo and the personas judge it (``eval/answers_eval.py``).

Every subject belongs to a *family*; families are split into ``train`` and
``heldout`` (the latter never reach training and judge how the model carries
to subjects it never saw). Labels: 0 answers, 1 does not.

    python eval/answerability/pairs.py -n 20 --seed 3
"""

from __future__ import annotations

import argparse
import json
import random
import re
from dataclasses import asdict, dataclass

from model import answer_text

__all__ = ["QPair", "FAMILIES", "generate"]

ANSWERS, OTHER = 0, 1


@dataclass(frozen=True)
class QPair:
    question: str
    text: str
    label: int
    family: str
    kind: str


_CITIES = "Boston Denver Austin Leeds Porto Lyon Osaka Toronto Dublin Minneapolis Seattle Bristol Pune Accra Krakow".split()
_HOODS = "Brooklyn Clifton Williamsburg Hackney Queens Kreuzberg Fremont Roxbury".split()
_COMPANIES = "Stripe Deloitte Figma Arup Google Mercy Hospital Target Nike Siemens Accenture Lidl Shopify".split()
_JOBS = ["a nurse", "an accountant", "a pharmacist", "a teacher", "a civil engineer", "a paralegal", "a chef",
         "a firefighter", "a data analyst", "a dental hygienist", "an electrician", "a social worker",
         "a product manager", "a line cook", "a bus driver", "a physio"]
_PETS = [("dog", "Biscuit"), ("cat", "Miso"), ("rabbit", "Pip"), ("dog", "Rex"), ("cat", "Luna"), ("parrot", "Kiwi")]
_FOODS = "sushi ramen tacos lasagna pho curry dumplings pizza paella falafel".split()
_HOBBIES = ["bouldering", "pottery", "running", "chess", "knitting", "salsa", "birdwatching", "woodworking",
            "swimming", "photography"]
_CARS = ["a honda civic", "a 2012 corolla", "a tesla", "an old subaru", "a vw golf", "a ford f-150"]
_SCHOOLS = ["nursing", "law", "computer science", "architecture", "history", "an MBA", "accounting"]
_UNIS = ["Pitt", "UCLA", "Leeds", "McGill", "UT", "Trinity", "NYU"]
_ALLERGIES = ["peanuts", "shellfish", "bee stings", "penicillin", "kiwi", "cats"]
_TEAMS = ["the Steelers", "Arsenal", "the Cubs", "Celtic", "the Lakers", "Porto"]
_DRINKS = ["coffee", "alcohol", "soda", "wine"]
_INSTR = ["piano", "guitar", "cello", "drums", "violin"]
_MONTHS = "January February March April May June July August September October November December".split()
_NAMES_F = "Sarah Keisha Lucia Mei Priya Anjali Holly Nia Orla Tanvi Emiko Rosa".split()
_NAMES_M = "Tom Nico Jun Marcus Kenta Dario Javi Ray Chidi Kevin Omar Liam".split()
_ROLES_F = ["wife", "sister", "mom", "daughter", "girlfriend", "grandma", "aunt", "best friend", "boss", "roommate",
            "cousin", "coworker", "mother-in-law", "niece", "fiancee"]
_ROLES_M = ["husband", "brother", "dad", "son", "boyfriend", "grandpa", "uncle", "best friend", "boss", "roommate",
            "cousin", "coworker", "father-in-law", "nephew", "fiance"]
_SMALL = ["lol ok", "haha yes", "thanks!!", "long day today", "ugh mondays", "good morning!", "how are you?",
          "that's so nice of you", "ok cool", "omg yes", "not much tbh", "sounds good", "brb", "sure thing",
          "Thank you, that's helpful.", "I'll think about it.", "we had a nice weekend", "so tired rn"]

# Each family: question templates, answering turns, turns that use the asked
# words and do not answer, and the question the assistant asks that a short
# answer follows. In a template, {Q} is the asked person as the question names
# them ("do I" / "does my brother" / "does Tom"), {S} the turn's subject ("I" /
# "he" / "Tom"), {V} picks a verb form by person: {V:live|lives}; {P} the
# possessive (my / his / her / Tom's); {v} the value; {be} am/is; {'s} 'm/'s.
FAMILIES: dict[str, dict] = {
    "lives_in": dict(
        q=["where {Q} live?", "where {Q} live now", "what city {Q} live in?", "where {is_q} based these days?",
           "where {is_q} living"],
        a=["{S} {V:live|lives} in {v} now", "{S}{'s} in {v}", "{S} moved to {v} last month", "{v}. been there since 2021",
           "{S} finally moved, {S}{'s} in {v} now", "{S} just signed a lease in {v}!!", "{P} new place in {v} is tiny lol"],
        d=["{S} {V:want|wants} to live somewhere warmer someday", "{S} {V:love|loves} living alone honestly",
           "{P} place is such a mess lol", "{S} {V:hate|hates} the commute from home"],
        ask="Where are you based?", v=lambda r: r.choice(_CITIES + _HOODS)),
    "job": dict(
        q=["what {Q} do for work?", "what {Q} do for a living", "what's {P_q} job?", "what {is_q} working as now?",
           "what {Q} do"],
        a=["{S}{'s} {v}", "{S} {V:work|works} as {v}", "{S} got hired as {v}!", "{S} just started as {v}",
           "{v} now, finally", "{S} {V:have|has} been {v} for 6 yrs"],
        d=["{S} {V:hate|hates} {P} job lately", "work has been so busy for {O}", "{S} {V:work|works} too much honestly",
           "{P} job is stressing {O} out"],
        ask="What do you do for work?", v=lambda r: r.choice(_JOBS)),
    "employer": dict(
        q=["where {Q} work?", "who {Q} work for now", "which company {is_q} at?", "where {is_q} working these days"],
        a=["{S}{'s} at {v}", "{S} {V:work|works} at {v}", "{S} joined {v} in march", "{S} got the offer from {v}!!",
           "{v}. started monday", "{S} just started at {v}"],
        d=["{S} {V:work|works} from home on fridays", "{P} work schedule is insane", "{S} {V:want|wants} a new job",
           "{S} worked late again"],
        ask="Where are you working now?", v=lambda r: r.choice(_COMPANIES)),
    "pet": dict(
        q=["what pet {Q} have?", "what's the name of {P_q} dog?", "{does_q} have any pets?", "what's {P_q} cat called"],
        a=["{S} adopted a {t} named {v}", "{v} the {t} says hi", "{S} got a {t}!! {P} name is {v}", "{P} {t} {v} is so cute",
           "{S} {V:have|has} a {t}, {v}"],
        d=["{S} {V:want|wants} a pet someday", "{S}{'s} allergic to fur lol", "pets aren't allowed in {P} building"],
        ask="Do you have any pets?", v=lambda r: r.choice(_PETS)),
    "food": dict(
        q=["what's {P_q} favorite food?", "what {Q} like to eat?", "what food {Q} love?", "what's {P_q} go-to dinner"],
        a=["{S} {V:love|loves} {v} more than anything", "{v}, always {v}", "{S} could eat {v} every day",
           "{P} favorite is {v}", "{S}{'s} obsessed with {v}"],
        d=["{S} {V:eat|eats} so late lately", "{S} skipped lunch again", "{S} {V:cook|cooks} on sundays",
           "{S}{'s} trying to eat healthier"],
        ask="What's your favorite food?", v=lambda r: r.choice(_FOODS)),
    "hobby": dict(
        q=["what {Q} do for fun?", "what's {P_q} hobby", "what {Q} do on weekends?", "what sport {Q} do"],
        a=["{S}{'s} really into {v} now", "{S} started {v} last month", "{v} every saturday", "{S} {V:do|does} {v} twice a week",
           "{S} picked up {v}"],
        d=["{S} never {V:have|has} free time", "weekends are so short", "{S} {V:need|needs} a new hobby honestly"],
        ask="What do you do for fun?", v=lambda r: r.choice(_HOBBIES)),
    "car": dict(
        q=["what car {Q} drive?", "what {Q} drive", "what kind of car {Q} have?"],
        a=["{S} {V:drive|drives} {v}", "{S} just bought {v}", "{P} car is {v}", "{v}, it's ancient lol",
           "{S} got {v} last week"],
        d=["{S} {V:hate|hates} driving in the snow", "the car wash was closed", "{S} drove to work today",
           "traffic was awful for {O}"],
        ask="What do you drive?", v=lambda r: r.choice(_CARS)),
    "study": dict(
        q=["what {is_q} studying?", "what {Q} study?", "where {Q} go to school?", "what's {P_q} major"],
        a=["{S}{'s} doing {v} at {u}", "{S} got into {u} for {v}!!", "{v} at {u}", "{S} {V:study|studies} {v}",
           "{S} started {v} in the fall"],
        d=["{S} {V:have|has} exams next week", "school is so stressful", "{S} stayed up studying all night"],
        ask="What are you studying?", v=lambda r: r.choice(_SCHOOLS), u=lambda r: r.choice(_UNIS)),
    "allergy": dict(
        q=["what {is_q} allergic to?", "{does_q} have any allergies?", "what allergies {Q} have"],
        a=["{S}{'s} allergic to {v}", "{v}. badly", "{S} can't have {v}, {S} react badly", "turns out {S}{'s} allergic to {v}"],
        d=["{S} sneezed all day", "{S} went to the doctor for a checkup", "{S} felt sick after lunch"],
        ask="Any allergies I should note?", v=lambda r: r.choice(_ALLERGIES)),
    "birthday": dict(
        q=["when's {P_q} birthday?", "when {is_q} born?", "what's {P_q} birthday"],
        a=["{P} birthday is {m} {d}", "{S} turn 30 on {m} {d}", "{m} {d}!", "born {m} {d}, 1990",
           "{S}{'s} a {m} baby, the {d}th"],
        d=["{S} {V:hate|hates} birthday parties", "we had cake at work today", "{S} forgot to call on time"],
        ask="When's your birthday?", v=lambda r: ""),
    "team": dict(
        q=["what team {Q} support?", "who {Q} root for?", "what's {P_q} team"],
        a=["{S}{'s} a huge {v} fan", "{v} till {S} die", "{S} {V:watch|watches} every {v} game", "{S} {V:support|supports} {v}"],
        d=["{S} {V:hate|hates} watching sports", "the game was on at the bar", "{S} missed the match"],
        ask="Which team do you support?", v=lambda r: r.choice(_TEAMS)),
    "partner": dict(
        q=["who {is_q} dating?", "what's {P_q} partner's name?", "{is_q} seeing anyone?", "who {is_q} married to"],
        a=["{S}{'s} dating {v}", "{S} and {v} are official!", "{S} married {v} last year", "{v} and {S} got engaged",
           "{S}{'s} been with {v} for two years"],
        d=["{S} went to a wedding saturday", "dating apps are exhausting", "{S} {V:want|wants} to settle down someday"],
        ask="Are you seeing anyone?", v=lambda r: r.choice(_NAMES_F + _NAMES_M)),
    # held-out families: never in training
    "drinks": dict(
        heldout=True,
        q=["{does_q} drink {v}?", "{is_q} still drinking {v}", "{does_q} still have {v}?"],
        a=["{S} quit {v} in january", "no {v} for {O} anymore", "{S} stopped drinking {v}", "{S} {V:don't|doesn't} drink {v} now",
           "{S}{'s} off {v} since new year's"],
        d=["{S} had a long night", "the bar was packed", "{S} {V:need|needs} more water"],
        ask="Still off the {v}?", v=lambda r: r.choice(_DRINKS)),
    "instrument": dict(
        heldout=True,
        q=["what instrument {Q} play?", "{does_q} play anything?", "what {Q} play"],
        a=["{S} {V:play|plays} the {v}", "{S} started {v} lessons", "{v}, badly lol", "{S}{'s} learning {v}"],
        d=["{S} went to a concert", "music is {P} whole life", "{S} {V:listen|listens} to jazz at work"],
        ask="Do you play an instrument?", v=lambda r: r.choice(_INSTR)),
    "hometown": dict(
        heldout=True,
        q=["where {is_q} from?", "where {Q} grow up?", "what's {P_q} hometown"],
        a=["{S} grew up in {v}", "{S}{'s} from {v} originally", "{v}, born and raised", "{S} spent {P} childhood in {v}"],
        d=["{S} miss home sometimes", "{S} went home for the holidays", "{S} {V:call|calls} home every sunday"],
        ask="Where are you from originally?", v=lambda r: r.choice(_CITIES)),
}


@dataclass(frozen=True)
class _Who:
    q_subj: str    # "I" / "my brother" / "Tom"
    self: bool
    pron: str      # turn subject pronoun: I / he / she
    name: str


def _person(rng: random.Random) -> _Who:
    """The asked person: the user themself, someone by role, or by name."""
    roll = rng.random()
    female = rng.random() < 0.5
    name = rng.choice(_NAMES_F if female else _NAMES_M)
    if roll < 0.3:
        return _Who("I", True, "I", name)
    if roll < 0.75:
        return _Who(f"my {rng.choice(_ROLES_F if female else _ROLES_M)}", False, "she" if female else "he", name)
    return _Who(name, False, "she" if female else "he", name)


def _question(tpl: str, who: _Who, slots: dict) -> str:
    if who.self:
        q = {"Q": "do I", "is_q": "am I", "does_q": "do I", "P_q": "my"}
    else:
        q = {"Q": f"does {who.q_subj}", "is_q": f"is {who.q_subj}", "does_q": f"does {who.q_subj}",
             "P_q": f"{who.q_subj}'s"}
    return tpl.format(**q, **slots)


_VERB = re.compile(r"\{V:([^|}]*)\|([^}]*)\}")


def _turn(tpl: str, pron: str, subj: str, slots: dict) -> str:
    """A turn about the person whose pronoun is ``pron`` ("I", "he", "she"),
    whose subject word is ``subj`` ("I", "he", "Tom")."""
    first = pron == "I"
    t = _VERB.sub(lambda m: m.group(1) if first else m.group(2), tpl)
    poss = {"I": "my", "he": "his", "she": "her"}[pron] if subj in ("I", "he", "she") else f"{subj}'s"
    obj = {"I": "me", "he": "him", "she": "her"}[pron]
    t = t.replace("{S}{'s}", "{S}'m" if first else "{S}'s")
    t = t.replace("{be}", "am" if first else "is")
    t = t.format(S=subj, P=poss, O=obj, **slots)
    return t[0].upper() + t[1:] if t else t


def _slots(fam: dict, rng: random.Random) -> dict:
    v = fam["v"](rng)
    s = {"m": rng.choice(_MONTHS), "d": rng.randint(1, 28)}
    if isinstance(v, tuple):
        s["t"], s["v"] = v
    else:
        s["v"] = v
    if "u" in fam:
        s["u"] = fam["u"](rng)
    return s


def _chat(text: str, rng: random.Random) -> str:
    t = text.lower().rstrip(".!?") if rng.random() < 0.6 else text
    if rng.random() < 0.3:
        t = t.replace("'", "")
    return t


def _subject_of(who: _Who, rng: random.Random) -> tuple[str, str]:
    """(pronoun, subject word) of a turn about ``who``: the user says "I", or
    "he" / "she" / the name of someone else."""
    if who.self:
        return "I", "I"
    # asked by role, a turn says the role or a pronoun (that a name is the
    # role is the engine's business, not this model's)
    return who.pron, (who.q_subj if rng.random() < 0.35 else who.pron)


_TAILS = ["loves it", "can you believe it", "so proud", "finally", "long story", "lol", "anyway", "its been a week",
          "more later", "ugh", "wild", "we'll see"]
_HEADS = ["btw", "oh and", "update:", "ok so", "random but", "also", "news!", "fyi"]


def _among(text: str, rng: random.Random, pron: str, subj: str, fams: list[str]) -> str:
    """A turn says more than one thing: the clause among a greeting, a tail
    ("loves it"), or another sentence of the same person, in either order."""
    roll = rng.random()
    if roll < 0.35:
        return text
    if roll < 0.55:
        return f"{text}, {rng.choice(_TAILS)}"
    if roll < 0.7:
        return f"{rng.choice(_HEADS)} {text[0].lower() + text[1:]}"
    other = FAMILIES[rng.choice(fams)]
    more = _turn(rng.choice(other["d"] + other["a"]), pron, subj, _slots(other, rng)) if rng.random() < 0.6 \
        else rng.choice(_SMALL)
    return f"{text}. {more}" if rng.random() < 0.5 else f"{more}. {text}"


def generate(n: int, split: str = "train", seed: int = 0) -> list[QPair]:
    """``n`` pairs of the families of ``split`` ("train" or "heldout")."""
    if split not in ("train", "heldout"):
        raise ValueError("split is 'train' or 'heldout'")
    rng = random.Random(seed)
    fams = [k for k, f in FAMILIES.items() if bool(f.get("heldout")) == (split == "heldout")]
    out: list[QPair] = []
    while len(out) < n:
        fam_name = rng.choice(fams)
        fam = FAMILIES[fam_name]
        who = _person(rng)
        slots = _slots(fam, rng)
        q = _question(rng.choice(fam["q"]), who, slots)
        roll = rng.random()
        pron, subj = _subject_of(who, rng)
        if roll < 0.4:      # an answer, said of the asked person
            tpl = rng.choice(fam["a"])
            text, label, kind = _turn(tpl, pron, subj, slots), ANSWERS, "answer"
            if tpl.startswith("{v}") and rng.random() < 0.6:  # after the assistant's question
                text = answer_text(text, fam["ask"].format(**slots) if who.self else
                                   fam["ask"].replace("you", "they").format(**slots))
        elif roll < 0.55:   # the same person on another subject
            other = FAMILIES[rng.choice([k for k in fams if k != fam_name])]
            text = _turn(rng.choice(other["a"]), pron, subj, _slots(other, rng))
            label, kind = OTHER, "other_subject"
        elif roll < 0.75:   # the same subject of someone else
            if who.self:
                p2, s2 = "she", (rng.choice(_NAMES_F) if rng.random() < 0.5 else f"my {rng.choice(_ROLES_F)}")
            elif rng.random() < 0.6:
                p2, s2 = "I", "I"
            elif who.q_subj.startswith("my "):
                p2, s2 = "she", f"my {rng.choice([r for r in _ROLES_F if r != who.q_subj[3:]])}"
            else:
                p2, s2 = "she", rng.choice([x for x in _NAMES_F if x != who.name])
            tpl = rng.choice([a for a in fam["a"] if not a.startswith("{v}")] or fam["a"])
            text, label, kind = _turn(tpl, p2, s2, _slots(fam, rng)), OTHER, "other_person"
        elif roll < 0.92:   # the asked words, no answer
            text, label, kind = _turn(rng.choice(fam["d"]), pron, subj, slots), OTHER, "no_answer"
        else:
            text, label, kind = rng.choice(_SMALL), OTHER, "small_talk"
        text = _among(text, rng, pron, subj, [k for k in fams if k != fam_name])
        if rng.random() < 0.5:
            q, text = _chat(q, rng), _chat(text, rng)
        out.append(QPair(q, text, label, fam_name, kind))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description="Print generated answerability pairs as JSON lines.")
    ap.add_argument("-n", type=int, default=20)
    ap.add_argument("--split", default="train", choices=["train", "heldout"])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for p in generate(args.n, args.split, args.seed):
        print(json.dumps(asdict(p), ensure_ascii=False))


if __name__ == "__main__":
    main()
