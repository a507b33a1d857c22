"""The extractor's vocabulary, read once from ``schema/extract/*.toml``.

Every word list the pattern families use lives in a TOML file under
``schema/extract/`` (shipped as ``midas_graph.schema``), one file per concern;
this module reads them once, at import, and names them. Adding a word (a job
title, a unit, a relation, a verb for an existing pattern) is a change to a
TOML file and a test, not to code.

Three shapes:

* a list is a set of words: ``words("work.jobs")``;
* a table maps a word to a value: ``table("numbers.scale")`` (``k = 1000``);
* an *inverted* table lists, under each value, the words that mean it,
  because that is how people add to it: ``inverse("people.relations")``
  reads ``spouse = ["husband", "wife", "spouse"]`` as
  ``{"husband": "spouse", "wife": "spouse", "spouse": "spouse"}`` (a word
  under two values is an error).

Keys are ``"<file stem>.<name>"``. A key the code asks for that no file
holds is an error at import; :func:`unused` names the keys no code asked
for (a test keeps it empty).
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from typing import Any


class Lexicon:
    """Parsed ``schema/extract/*.toml``, by file stem."""

    def __init__(self, files: dict[str, dict[str, Any]]) -> None:
        self._files = files
        self._read: set[str] = set()

    @classmethod
    def default(cls) -> Lexicon:
        folder = resources.files("midas_graph.schema").joinpath("extract")
        files = {}
        for entry in sorted(folder.iterdir(), key=lambda p: p.name):
            if entry.name.endswith(".toml"):
                files[entry.name[:-5]] = tomllib.loads(entry.read_text("utf-8"))
        return cls(files)

    def raw(self, key: str) -> Any:
        stem, _, name = key.partition(".")
        try:
            value = self._files[stem][name]
        except KeyError:
            raise KeyError(f"schema/extract/{stem}.toml has no {name!r}") from None
        self._read.add(key)
        return value

    def words(self, key: str) -> frozenset[str]:
        value = self.raw(key)
        if not isinstance(value, list):
            raise TypeError(f"{key} must be a list of words")
        return frozenset(value)

    def ordered(self, key: str) -> tuple[str, ...]:
        value = self.raw(key)
        if not isinstance(value, list):
            raise TypeError(f"{key} must be a list")
        return tuple(value)

    def phrases(self, key: str) -> re.Pattern:
        """A list of words and phrases as one case-blind regex that finds any
        of them as words of their own (after a start, space or punctuation;
        before an end, space or punctuation)."""
        words = "|".join(map(re.escape, self.ordered(key)))
        return re.compile(r"(?:^|(?<=[\s,.;:!(\"']))(?:" + words + r")(?=[\s,.;:!?)\"']|$)", re.I)

    def table(self, key: str) -> dict[str, Any]:
        value = self.raw(key)
        if not isinstance(value, dict):
            raise TypeError(f"{key} must be a table")
        return dict(value)

    def inverse(self, key: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for target, said in self.table(key).items():
            for word in said:
                if word in out and out[word] != target:
                    raise ValueError(f"{key}: {word!r} is listed under {out[word]!r} and {target!r}")
                out[word] = target
        return out

    def unused(self) -> list[str]:
        """Keys of the TOML files that no code has read."""
        return sorted(f"{stem}.{name}" for stem, data in self._files.items() for name in data
                      if f"{stem}.{name}" not in self._read)


LEX = Lexicon.default()

# -- the word classes, by the names the families use ---------------------------------
_FIRST = LEX.words("grammar.first")
_SECOND = LEX.words("grammar.second")
_OTHER_PRON = LEX.words("grammar.other_pronouns")
_NAME_LABELS = LEX.words("grammar.name_labels")
_MENTION_SKIP = LEX.words("grammar.mention_skip")
_PLACE_LABELS = LEX.words("grammar.place_labels")
_MODALS = LEX.words("grammar.modals")
_HYPO_MARKS = LEX.words("grammar.hypothetical_marks")
_FACT_MARKS = LEX.words("grammar.fact_marks")
_REPORT_HEADS = LEX.words("grammar.report_heads")
_EPISTEMIC = LEX.words("grammar.epistemic")
_TELL = LEX.words("grammar.tell")
_WH = LEX.words("grammar.wh")
_QAUX = LEX.words("grammar.question_aux")
_TAGS = LEX.words("grammar.question_tags")

_DROP_ADJ = LEX.words("words.drop_adjectives")
_PAST_MARKERS = LEX.words("words.past_markers")
_EVALUATIVE = LEX.words("words.evaluative")
_COMMON_SUBJECTS = LEX.words("words.common_subjects")
_ATTR_NOUNS = LEX.words("words.attribute_nouns")
_STOP_HEADS = LEX.words("words.stop_heads")
_BAD_OBJECTS = LEX.words("words.bad_objects")

_RELATIONS = LEX.inverse("people.relations")
_IDENTITY = LEX.words("people.identity")
_MARITAL = LEX.inverse("people.marital")
_DIETS = LEX.words("people.diets")
_EMPLOYMENT = LEX.inverse("people.employment")

_PETS = LEX.words("possessions.pets")
_PET_CANON = LEX.inverse("possessions.pet_canon")
_POSSESSIONS = _PETS | LEX.words("possessions.possessions")

_JOBS = LEX.words("work.jobs")
_JOB_SUFFIX_OK = LEX.ordered("work.job_suffixes")
_WORKPLACES = LEX.words("work.workplaces")

_EVENTS = LEX.words("events.events")
_GENERIC_MODS = LEX.words("events.generic_modifiers")
_EVENT_VERBS = LEX.words("events.event_verbs")
_MOVING_VERBS = LEX.words("events.moving_verbs")
_EVENT_PARTICLES = LEX.words("events.time_particles")
_DATE_ATTRS = LEX.inverse("events.date_attributes")
_DATE_HEADS = LEX.words("events.date_heads")

_READINGS = LEX.words("numbers.readings")
_METRICS = LEX.words("numbers.metrics") | _READINGS
_UNITS = LEX.inverse("numbers.units")
_CURRENCY = LEX.table("numbers.currency")
_SCALE = LEX.table("numbers.scale")

# -- phrase lists of single patterns
_LEAVE_JOB = LEX.words("cessation.leave_job_objects")
_QUIT_JOB = LEX.words("cessation.quit_job_objects")
_QUIT_HABITS = LEX.words("cessation.quit_habit_objects")
_QUIT_GROUPS = LEX.words("cessation.quit_group_objects")
_FAN_NOUNS = LEX.words("preferences.fan_nouns")
_ORG_ROLES = LEX.words("work.org_roles")
_KEEN_ADJECTIVES = LEX.words("preferences.keen_adjectives")
_FEAR_ADJECTIVES = LEX.words("preferences.fear_adjectives")
_SCHEDULED_ADJECTIVES = LEX.words("events.scheduled_adjectives")
_CORRECTION_HEADS = LEX.words("corrections.heads")
_PLACE_NOUNS = LEX.words("location.place_nouns")
_MOVE_ADVERBS = LEX.words("location.move_adverbs")
_MOVE_PLACE_NOUNS = LEX.words("location.move_place_nouns")
_METRIC_VERBS = LEX.words("numbers.metric_verbs")
_ACQUIRED = LEX.words("possessions.acquired")
_BUSINESSES = LEX.words("possessions.businesses")
_CREDENTIALS = LEX.words("possessions.credentials")
_GET_JOB = LEX.words("possessions.get_job_objects")
_LIGHT_VERBS = LEX.words("preferences.light_verbs")
_VOCATIVE_OPENERS = LEX.words("people.vocative_openers")
_QUANTITY_NOUNS = LEX.words("words.quantity_nouns")
_ATTR_ADJECTIVES = LEX.words("words.attribute_adjectives")
_FAVORITE = LEX.words("words.favorite")
_ANNOUNCE_VERBS = LEX.words("grammar.announce_verbs")
_REPORT_XCOMP = LEX.words("grammar.report_xcomp_verbs")
_GLAD_ADJECTIVES = LEX.words("grammar.glad_adjectives")
_SAY_VERBS = LEX.words("grammar.say_verbs")
_ASPECT_VERBS = LEX.words("grammar.aspect_verbs")
_PLAN_VERBS = LEX.words("grammar.plan_verbs")
_FRAGMENT_VERBS = LEX.words("grammar.fragment_verbs")
_NAMED_EVENT_VERBS = LEX.words("events.named_event_verbs")
_TITLE_ACRONYMS = LEX.words("work.title_acronyms")
_WORK_AT_NOT_EMPLOYER = LEX.words("work.work_at_not_employer")
_WORK_FOR_NOT_EMPLOYER = LEX.words("work.work_for_not_employer")
_INDUSTRIES = LEX.words("work.industries")
_GROUPS = LEX.words("work.groups")
_START_JOB = LEX.words("work.start_job_objects")
_START_OWN = LEX.words("work.start_own_objects")
_SCHOOLS = LEX.words("work.school_objects")
_TITLES_WITH_OF = LEX.words("work.titles_with_of")
_ACCEPT_JOB = LEX.words("work.accept_job_objects")
_VEHICLE_NOUNS = LEX.words("possessions.vehicle_nouns")
_VEHICLE_NAMES = LEX.words("possessions.vehicle_makes") | LEX.words("possessions.vehicle_models")
_ACTIVITIES = LEX.words("habits.activities")
_PRACTICE_VERBS = LEX.inverse("habits.practice_verbs")
_HABITUAL = LEX.words("habits.habitual")
_EXCLUSIVE_DIETS = LEX.words("habits.exclusive_diets")
_MADE_TITLES = LEX.words("work.made_titles")
