"""The attribute registry: normalised attribute keys and their cardinality."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Literal, Mapping

from ._errors import InvalidInputError

Cardinality = Literal["one", "many"]
_NON_WORD = re.compile(r"[^0-9a-z]+")


def normalise_attribute(raw: str) -> str:
    """Lower snake case: ``"Lives In"`` -> ``"lives_in"``, ``"favourite-food"`` -> ``"favorite_food"``."""
    key = _NON_WORD.sub("_", raw.strip().lower()).strip("_")
    # One spelling of one word that matters for the registry's favorite_* rule.
    return re.sub(r"(^|_)favourite(?=_|$)", r"\1favorite", key)


@dataclass
class AttributeRegistry:
    """Which attributes are single-valued, and which spellings mean the same key."""

    cardinality: dict[str, Cardinality] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    prefixes: dict[str, Cardinality] = field(default_factory=dict)
    #: words a question may use for an attribute without naming it ("What do
    #: they do for a living?" asks job_title); used by context() grounding only
    asked_as: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: how a sentence names an attribute ("home" for lives_in), where its key would not read
    nouns: dict[str, str] = field(default_factory=dict)
    _keys: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def default(cls) -> AttributeRegistry:
        text = resources.files("midas_graph.schema").joinpath("attributes.toml").read_text("utf-8")
        return cls.from_toml(text)

    @classmethod
    def from_toml(cls, text: str) -> AttributeRegistry:
        reg = cls()
        for key, spec in tomllib.loads(text).get("attributes", {}).items():
            reg.register(key, spec.get("cardinality", "many"), spec.get("aliases", ()))
            if spec.get("asked_as"):
                reg.asked_as[normalise_attribute(key.rstrip("*"))] = tuple(spec["asked_as"])
            if spec.get("noun"):
                reg.nouns[normalise_attribute(key)] = str(spec["noun"])
        return reg

    def register(self, key: str, cardinality: str = "many", aliases=()) -> None:
        if cardinality not in ("one", "many"):
            raise InvalidInputError("attributes", f"cardinality of {key!r} must be 'one' or 'many'")
        if key.endswith("*"):
            self._keys.clear()
            self.prefixes[normalise_attribute(key[:-1]) + "_"] = cardinality  # type: ignore[assignment]
            return
        self._keys.clear()
        norm = normalise_attribute(key)
        if not norm:
            raise InvalidInputError("attributes", f"empty attribute name {key!r}")
        self.cardinality[norm] = cardinality  # type: ignore[assignment]
        self.aliases.pop(norm, None)
        for alias in aliases:
            self.aliases[normalise_attribute(alias)] = norm

    def extend(self, spec: Mapping[str, str]) -> AttributeRegistry:
        for key, card in spec.items():
            self.register(key, card)
        return self

    def key(self, raw: str) -> str:
        """The canonical key of an attribute as written by a user or extractor
        (``""`` when it has no letters or digits)."""
        key = self._keys.get(raw)
        if key is None:
            norm = normalise_attribute(raw)
            key = self.aliases.get(norm, norm)
            if len(self._keys) < 100_000:
                self._keys[raw] = key
        return key

    def spellings(self, key: str) -> list[str]:
        """The other spellings registered for a key (``employer`` -> works_at, company, ...)."""
        return [alias for alias, k in self.aliases.items() if k == key]

    def question_words(self, key: str) -> list[str]:
        """Spellings plus the words a question may use for ``key``."""
        words = list(self.asked_as.get(key, ()))
        for prefix in self.prefixes:
            if key.startswith(prefix):
                words += self.asked_as.get(prefix.rstrip("_"), ())
        return [*self.spellings(key), *words]

    def noun(self, key: str) -> str:
        """How a sentence names ``key``: its ``noun`` in the registry ("home" for
        lives_in), else its words ("job title"; has_dog: "dog")."""
        return self.nouns.get(key) or key.removeprefix("has_").replace("_", " ")

    def _cardinality(self, key: str) -> Cardinality | None:
        """What the registry says of ``key``: its own entry, else its first matching prefix's."""
        card = self.cardinality.get(key)
        if card is None:
            card = next((pcard for prefix, pcard in self.prefixes.items() if key.startswith(prefix)), None)
        return card

    def knows(self, key: str) -> bool:
        """Whether the registry says anything of ``key``'s cardinality."""
        return self._cardinality(key) is not None

    def is_single(self, key: str) -> bool:
        return self._cardinality(key) == "one"
