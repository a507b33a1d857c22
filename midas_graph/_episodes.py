"""Ingest of text episodes, zero LLM: store verbatim, extract, resolve, revise.

One write transaction per episode: the episode, its entities and mentions,
its facts and what they close land together or not at all. The CPU work
(spaCy, embeddings) runs before the transaction, batched over all episodes of
an ``add_episodes`` call.
"""

from __future__ import annotations

import datetime as _dt
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

import numpy as np

from . import _importance, _people
from ._entities import EntityIndex, roots
from ._errors import InvalidInputError, MidasError
from ._extract import Claim, Extraction, confirms, excludes, extract, extract_many, for_parsing
from ._extract.location import housing_places
from ._extract.normalize import repair_entities, repair_names
from ._extract.lexicon import _RELATIONS
from ._extract.switches import change_cue, one_at_a_time
from ._revise import (Judge, adds, candidates, cessation_targets, correction_target, corrected_value, current_of,
                      speaks_of)
from ._store import _SENTENCE_BREAK, alias_key, episode_document, fact_document, sentence_documents
from ._temporal import Working
from ._time import FOREVER_UTC, TimeLike, parse_time
from ._types import PROVENANCES, SAID, Entity, Episode, EpisodeResult, Fact, Link

#: Facts and mentions are extracted from an episode's first EXTRACT_CHARS
#: characters (cut back to a sentence break). An episode of any length is
#: stored verbatim and recall indexes all of it (by passages when it is long,
#: see ``_store.LONG_EPISODE_CHARS``); spaCy's parse is what does not scale:
#: 7 s and +380 MB for 100,000 characters of chat, 34 s and 2 GB for 500,000
#: (measured on the LoCoMo turns, one busy core), and a pasted document's "I"
#: is seldom the speaker. 100,000 was the longest episode accepted before.
EXTRACT_CHARS = 100_000
#: Characters parsed in one ``nlp.pipe`` call at most (a batch of 64 long
#: episodes would be parsed at once otherwise).
EXTRACT_BATCH_CHARS = 200_000
SOURCES = ("message", "text", "json", "fact")
#: A claim said as an addition asks NLI nothing (_revise.adds; eval/supersession_eval.py).
ADDITIVE = True
#: Speakers that are the agent itself (compared case-insensitively). What
#: the agent says ("Updated: you started at Duolingo") is stored verbatim
#: and recalled, but no fact is recorded from it: the agent is no witness of
#: the user's life. When the user's next turn confirms it ("yes", "correct",
#: "that's right"), its claims are recorded from the user's turn, with
#: provenance ``user_confirmation`` (docs/extraction.md).
AGENT_SPEAKERS = frozenset({"assistant", "ai", "agent", "bot", "chatbot", "system", "model"})


#: "switched from X to Y": the held value X ends and Y takes its attribute
#: (``_extract.switches``).
SWITCHES = True
#: A change of someone a person has one of at a time ("my new physio,
#: Rafael", "I switched dentists": ``switches.one_at_a_time``) also ends the
#: statements kept whole that speak of it (:func:`speaks_of`); a change of
#: another attribute does not ("moved the twins to Bright Path" ends no
#: sentence about the twins).
STATEMENTS_OF_KIND = True
#: A statement of an attribute the registry does not know, said with a change
#: cue ("Oakline Residential is our landlord now", "these days I shop at
#: Aldi") and no word of addition, replaces the attribute's other held values,
#: as a registered single-valued attribute would (switches.toml ``change_cues``).
CUE_CHANGES = True
#: how many of a group's stored turns teach a process that has not seen the
#: group yet (a reopened memory) the capitals its turns showed
#: (``_extract/casing.py``): a lower-case turn after a restart reads as it
#: would have before
CASING_SEED_TURNS = 500


#: A batch of at least this many episodes embeds its texts on a second
#: thread while it is parsed (:meth:`Ingest._embed_early`). All 10 LoCoMo
#: conversations, ``eval/bench_ingest_ab.py --runs 3``: 1.22x the turns/s at
#: 1.03x the CPU (per pair 1.32, 0.99, 1.22; eval/results/ingest_ab_overlap.json).
#: One episode alone gains nothing from it and pays for the thread.
OVERLAP_MIN = 2


def is_agent(speaker: str) -> bool:
    """Whether ``speaker`` is the agent (see :data:`AGENT_SPEAKERS`)."""
    return speaker.strip().casefold() in AGENT_SPEAKERS


def extraction_text(content: str) -> str:
    """The part of an episode facts are extracted from: all of it, or its
    first EXTRACT_CHARS characters cut back to the last sentence break (or
    space) in them."""
    if len(content) <= EXTRACT_CHARS:
        return content
    head = content[:EXTRACT_CHARS]
    cut = 0
    for m in _SENTENCE_BREAK.finditer(head):
        cut = m.start()
    if cut < EXTRACT_CHARS // 2:
        cut = max(cut, head.rfind(" "))
    return head[:cut] if cut > 0 else head


class EpisodeError(MidasError):
    """Processing one episode of a batch failed; ``results`` holds the
    episodes stored before it (they stay stored)."""

    def __init__(self, index: int, cause: BaseException, results: list[EpisodeResult]) -> None:
        self.index, self.results = index, results
        super().__init__(f"episodes[{index}]: {cause}")


@dataclass(frozen=True)
class EpisodeIn:
    content: str
    speaker: str
    reference_time: _dt.datetime | None
    group_id: str
    source: str
    provenance: str
    name: str | None
    source_description: str
    listener: str | None = None
    episode_id: str | None = None
    #: the previous turn of the other speaker, when there is one: a question
    #: it asked gives a fragment answer its slot ("Where did you end up?" /
    #: "Minneapolis!!"), a statement of the agent's may be confirmed
    prompt: str | None = None
    prompt_speaker: str | None = None


#: Appended to the reason of a job title ended with its employer.
ROLE_WITH_EMPLOYER = " (the role went with the employer)"


def validate(
    content: Any, *, speaker: Any = "user", reference_time: TimeLike | None = None,
    group_id: Any = "default", source: Any = "message", provenance: Any = "observation",
    name: Any = None, source_description: Any = "", episode_id: Any = None,
) -> EpisodeIn:
    if not isinstance(content, str):
        raise InvalidInputError("content", f"expected a string, got {type(content).__name__}")
    if not content.strip():
        raise InvalidInputError("content", "must not be empty or whitespace")
    for field_name, v in (("speaker", speaker), ("group_id", group_id)):
        if not isinstance(v, str) or not v.strip():
            raise InvalidInputError(field_name, "must be a non-empty string")
    if source not in SOURCES:
        raise InvalidInputError("source", f"{source!r} is not one of {', '.join(SOURCES)}")
    if provenance not in PROVENANCES:
        raise InvalidInputError("provenance", f"{provenance!r} is not one of {', '.join(PROVENANCES)}")
    if name is not None and not isinstance(name, str):
        raise InvalidInputError("name", f"expected a string, got {type(name).__name__}")
    if not isinstance(source_description, str):
        raise InvalidInputError("source_description", "expected a string")
    if episode_id is not None and (not isinstance(episode_id, str) or not episode_id.strip()):
        raise InvalidInputError("episode_id", "must be a non-empty string")
    return EpisodeIn(content, speaker.strip(), parse_time(reference_time, "reference_time"),
                     group_id, source, provenance, name, source_description, episode_id=episode_id)


def _bytes(v: np.ndarray | None) -> bytes | None:
    return None if v is None else np.asarray(v, dtype=np.float32).tobytes()


class Ingest:
    """The episode pipeline of one :class:`~midas_graph.Memory`."""

    def __init__(self, mem) -> None:
        self.mem = mem
        self.index = EntityIndex(mem._store, mem._embedder)
        self._last_turn: dict[str, tuple[str, str]] = {}  # group -> (speaker, content) of its last episode
        self._agent_claims: dict[str, tuple[str, list[Claim]]] = {}  # group -> the agent's last turn, its claims
        self._people: dict[str, _people.Tracker] = {}  # group -> the people of its last turns
        self._turns = _importance.Turns()  # group -> who asked the last question

    def forget(self, group_id: str) -> None:
        """Drop what this process keeps about a group (after it was deleted):
        resolved entities, its last turn, the people of its last turns."""
        self.index.forget()
        self._last_turn.pop(group_id, None)
        self._agent_claims.pop(group_id, None)
        self._people.pop(group_id, None)
        self._turns.forget(group_id)

    def run(self, items: Sequence[EpisodeIn], progress: bool | None = None, *,
            vectors: Mapping[str, np.ndarray] | None = None, prime: int = 0) -> list[EpisodeResult]:
        """Ingest ``items`` in order. Two narrow hooks for a bulk backfill
        (``_backfill``, docs/scaling.md): ``vectors`` holds embeddings computed
        beforehand (text -> vector, as :meth:`_embed` keys them; only the
        missing ones are computed here); the first ``prime`` items were stored
        by an earlier run that stopped: they only rebuild what this process
        keeps of their group's last turns (listener, people, the agent's
        claims, the last question), as if it had ingested them, and are
        neither embedded nor stored again."""
        from ._memory import _progress

        items = [self._with_listener(e) for e in items]
        now = self.mem.now()
        content: list[_importance.ContentSignals] = []
        # The texts whose vectors do not depend on the parse are embedded on
        # a second thread while spaCy and the extractor run on this one: the
        # model's threads release the GIL, so the two overlap on two cores.
        # Only that thread calls the embedder until it is joined.
        early = self._embed_early(items[prime:], vectors) if len(items) - prime >= OVERLAP_MIN else None
        try:
            extractions = self._extract(items, now, content)
            extractions = self._confirmations(items, extractions, now)
        finally:
            given = early.result() if early is not None else {}
        for i in range(prime):
            self._turns.answers(items[i].group_id, items[i].speaker, content[i])
        items, extractions, content = items[prime:], extractions[prime:], content[prime:]
        vectors = self._embed(items, extractions, {**given, **(vectors or {})})
        results: list[EpisodeResult] = []
        bar = _progress(len(items), progress, "episodes", threshold=200)
        try:
            for i, (item, ex) in enumerate(zip(items, extractions)):
                try:
                    results.append(self._one(item, ex, vectors, content[i]))
                except InvalidInputError:
                    raise
                except Exception as exc:  # the others stay stored; say which one failed
                    if len(items) == 1:
                        raise
                    raise EpisodeError(i, exc, results) from exc
                if bar is not None:
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
        return results

    # -- before the transaction ------------------------------------------------------
    def _with_listener(self, e: EpisodeIn) -> EpisodeIn:
        """Second person means the other party: the last other speaker of the
        group; that speaker's turn is this one's ``prompt``."""
        last = self._last_turn.get(e.group_id)
        self._last_turn[e.group_id] = (e.speaker, e.content)
        if last is not None and last[0].casefold() != e.speaker.casefold():
            return replace(e, listener=e.listener if e.listener is not None else last[0],
                           prompt=last[1], prompt_speaker=last[0])
        return e

    def _confirmations(self, items: Sequence[EpisodeIn], extractions: list[tuple[Extraction, _people.People]],
                       now: _dt.datetime) -> list[tuple[Extraction, _people.People]]:
        """A user turn that confirms the agent's previous turn ("yes, that's
        right") takes that turn's claims, marked ``confirmed:``."""
        out = list(extractions)
        for i, (e, (ex, people)) in enumerate(zip(items, extractions)):
            if is_agent(e.speaker):
                self._agent_claims[e.group_id] = (e.content, list(ex.claims))
                continue
            if not (e.prompt and e.prompt_speaker and is_agent(e.prompt_speaker) and confirms(e.content, e.prompt)):
                continue
            cached = self._agent_claims.get(e.group_id)
            if i > 0 and items[i - 1].content == e.prompt and is_agent(items[i - 1].speaker):
                said = extractions[i - 1][0].claims
            elif cached is not None and cached[0] == e.prompt:
                said = cached[1]
            else:  # the agent's turn was stored by another process
                said = extract_many([(e.prompt, e.prompt_speaker, e.reference_time or now, e.speaker)])[0].claims
            took = [replace(c, rule=f"confirmed:{c.rule}", text=f"{c.text} ({e.speaker}: {e.content.strip()})")
                    for c in said if not c.correction]
            if took:  # the confirming sentence yielded claims now
                out[i] = (replace(ex, claims=list(ex.claims) + took, unparsed=list(ex.unparsed[1:]),
                                  statements=[c for c in ex.statements if c.text in ex.unparsed[1:]]), people)
        return out

    def _extract(self, items: Sequence[EpisodeIn], now: _dt.datetime,
                 content: list[_importance.ContentSignals]) -> list[tuple[Extraction, _people.People]]:
        """Claims, mentions and people of each episode (of its
        :func:`extraction_text`), parsed once, in batches of at most
        EXTRACT_BATCH_CHARS characters; the people of a turn are read from
        the same doc as its claims (``_people.analyze``), in order, each
        group's turns carrying on from its last ones."""
        from .models import load_spacy

        for g in dict.fromkeys(e.group_id for e in items):
            self._tracker(g)  # before parsing: the parser's input reads the store
        out: list[tuple[Extraction, _people.People]] = []
        batch: list[tuple[EpisodeIn, str]] = []
        size = 0

        def flush() -> None:
            if not batch:
                return
            docs = load_spacy().pipe((for_parsing(self._cased(e.group_id, text)) for e, text in batch),
                                     batch_size=64)
            for (e, text), doc in zip(batch, docs):
                tracker = self._tracker(e.group_id)
                repair_entities(doc)  # before the people read its names (extract reads the same doc)
                repair_names(doc, tracker.casing.first_named)
                people = _people.analyze(doc, e.speaker, e.listener, tracker, agent=is_agent(e.speaker))
                at = e.reference_time or now
                ex = extract(text, speaker=e.speaker, reference_time=at, listener=e.listener,
                             doc=doc, prompt=e.prompt if e.prompt_speaker is not None else None,
                             pronouns=people.pronouns, persons=frozenset(tracker.persons),
                             planned=tracker.planned(e.speaker, at))
                tracker.note_housing(e.speaker, at, housing_places(doc), ex.claims)
                out.append(_people_claims(e, ex, people))
                content.append(_importance.content_signals(doc))  # from the same doc (docs/forgetting.md)
            batch.clear()

        for e in items:
            text = extraction_text(e.content)
            if batch and size + len(text) > EXTRACT_BATCH_CHARS:
                flush()
                size = 0
            batch.append((e, text))
            size += len(text)
        flush()
        return out

    def _cased(self, group_id: str, text: str) -> str:
        """``text`` as parsed: a turn typed without capitals gets back those of
        the names the group has shown (``_extract/casing.py``); a turn that
        uses capitals teaches them. Called in turn order, as the parser reads."""
        casing = self._tracker(group_id).casing
        out = casing.restore(text)
        casing.learn(text)
        return out

    def _tracker(self, group_id: str) -> _people.Tracker:
        """The people of a group's last turns in this process. A group this
        process has not seen yet starts from the capitals of its last
        :data:`CASING_SEED_TURNS` stored turns, so that reopening a memory does
        not change how a lower-case turn is read."""
        tracker = self._people.get(group_id)
        if tracker is None:
            tracker = self._people[group_id] = _people.Tracker()
            for ep in reversed(self.mem._store.recent_episodes(group_id, FOREVER_UTC, CASING_SEED_TURNS)):
                tracker.casing.learn(ep.content)
        return tracker

    def _embed(self, items: Sequence[EpisodeIn], extractions: Sequence[tuple[Extraction, _people.People]],
               given: Mapping[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
        """One batch for every text the episodes need a vector of: contents
        and their sentences (or passages), claim sentences, and names that
        may be new entities; those in ``given`` are taken from it."""
        texts: dict[str, None] = {}
        for e, (ex, people) in zip(items, extractions):
            texts.update(dict.fromkeys(people.names()))
            texts[episode_document(e.speaker, e.content)] = None
            texts.update(dict.fromkeys(sentence_documents(e.speaker, e.content)))
            texts[e.speaker] = None
            for c in (*ex.claims, *ex.statements):
                texts[fact_document(c.subject, c.attribute, c.value, c.text)] = None
                texts[c.subject] = None
                if c.value_is_entity and isinstance(c.value, str) and c.value:
                    texts[c.value] = None
            for m in ex.mentions:
                texts[m.name] = None
        given = given or {}
        keys = [t for t in texts if t not in given]
        vecs = self.mem._embedder().embed(keys) if keys else np.zeros((0, 384), np.float32)
        out = {t: given[t] for t in texts if t in given}
        out.update(zip(keys, vecs))
        return out

    def _embed_early(self, items: Sequence[EpisodeIn],
                     given: Mapping[str, np.ndarray] | None) -> Future[dict[str, np.ndarray]]:
        """Start embedding the items' :meth:`content_texts` (those not in
        ``given``) on a worker thread; the future holds text -> vector."""
        given = given or {}
        keys = list(dict.fromkeys(t for e in items for t in self.content_texts(e.speaker, e.content)
                                  if t not in given))
        embedder = self.mem._embedder()

        def work() -> dict[str, np.ndarray]:
            return dict(zip(keys, embedder.embed(keys))) if keys else {}

        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="midas-embed")
        try:
            return pool.submit(work)
        finally:
            pool.shutdown(wait=False)

    @staticmethod
    def content_texts(speaker: str, content: str) -> list[str]:
        """The texts of an episode whose vectors do not depend on its
        extraction (its document, its sentences or passages, its speaker):
        what a backfill's pre-pass may embed before the shard parses it."""
        return [episode_document(speaker, content), *sentence_documents(speaker, content), speaker]

    # -- one episode, one transaction ------------------------------------------------
    def _one(self, item: EpisodeIn, extracted: tuple[Extraction, _people.People],
             vectors: dict[str, np.ndarray], content: _importance.ContentSignals) -> EpisodeResult:
        ex, people = extracted
        mem, store = self.mem, self.mem._store
        created: list[tuple[Entity, np.ndarray | None]] = []
        with store.transaction():
            now = mem._clock.now()
            if item.episode_id is not None and store.episode(item.episode_id, item.group_id) is not None:
                raise InvalidInputError("episode_id", f"an episode with id {item.episode_id!r} already exists")
            ep = Episode(
                id=item.episode_id or _new_id(), group_id=item.group_id, content=item.content, speaker=item.speaker,
                source=item.source, reference_time=item.reference_time or now, recorded_at=now,
                provenance=item.provenance, name=item.name, source_description=item.source_description,
            )
            sentences = np.asarray([vectors[d] for d in sentence_documents(item.speaker, item.content)],
                                   dtype=np.float32).tobytes()
            key = store.create_episode(ep, _bytes(vectors.get(episode_document(item.speaker, item.content))), sentences)
            names = self._surfaces(item, ex, people)
            ids, created = self._resolve(item, ep.id, names, vectors, now, people)
            store.link_mentions(ep.id, [ids[n] for n in names], ep.group_id)
            claims: Sequence[Claim] = ex.claims
            notes: list[str] = []
            if is_agent(item.speaker) and claims:
                notes.append(f"{len(claims)} claim(s) of the agent's own turn not recorded (a user's confirmation records them)")
                claims = []
            if not is_agent(item.speaker):
                claims = [*claims, *ex.statements]  # what was said, kept whole (_extract/statements.py)
            facts, closed = self._revise(ep, claims, ids, vectors, now, notes)
            # a statement kept whole is no claim the turn made: importance counts what was read
            ep = _importance.score(mem, ep, [f for f in facts if f.attribute != SAID], closed, content,
                                   self._turns.answers(item.group_id, item.speaker, content))
            store.set_importance(ep, key)
            mem._store.set_meta("last_tx", now.isoformat())
        for ent, vec in created:  # committed: the similarity index may use them now
            self.index.note(ent.group_id, ent.id, ent.name, vec)
        entities = store.entities_by_id(list(dict.fromkeys(ids[n] for n in names)))
        return EpisodeResult(episode=ep, facts=facts, superseded=closed, entities=entities,
                             unparsed=list(ex.unparsed), notes=notes)

    @staticmethod
    def _surfaces(item: EpisodeIn, ex: Extraction, people: _people.People) -> dict[str, str]:
        """Every name the episode refers to, with an entity kind (a hint only):
        its claims' subjects and entity values, its mentions, and the people
        it names (roles, names given to roles, what its pronouns stand for)."""
        names: dict[str, str] = {item.speaker: "PERSON"}
        if item.listener and people.listener_names:
            names[item.listener] = "PERSON"
        for n in people.names():
            if not n.strip():
                continue  # no entity without a name
            parts = _people.split_role(n)
            names.setdefault(n, "PERSON" if parts is None or _people.is_person_role(n) else "CONCEPT")
            if parts is not None:
                names.setdefault(parts[0], "PERSON")
        labels = {m.name: m.label for m in ex.mentions}
        for c in ex.claims:
            names.setdefault(c.subject, "PERSON" if c.subject_is_speaker else labels.get(c.subject, "CONCEPT"))
            if c.value_is_entity and isinstance(c.value, str) and c.value:
                names.setdefault(c.value, labels.get(c.value, "CONCEPT"))
        for m in ex.mentions:
            names.setdefault(m.name, m.label)
        return names

    def _resolve(self, item: EpisodeIn, episode_id: str, names: dict[str, str], vectors: dict[str, np.ndarray],
                 now: _dt.datetime, people: _people.People):
        """Entity id of every surface name: by name key (a role name also by
        its class spelling, ``_people.role_keys``), through the people links
        this episode makes (:meth:`_link`), then by name similarity, else a
        new entity. Every id is its cluster's root (``_entities.roots``)."""
        store = self.mem._store
        group = item.group_id
        keys: dict[str, list[str]] = {}  # one key may be several spellings: "aoife" and "Aoife"
        for n in names:
            for spelling in _people.role_keys(n, asked=True):
                keys.setdefault(alias_key(group, spelling), []).append(n)
        found = store.lookup_names(keys)
        root = roots(store, group)
        ids: dict[str, str] = {}
        for k, ns in keys.items():
            for n in ns:
                if k in found and n not in ids:
                    ids[n] = root.get(found[k], found[k])
        new: list[Entity] = []
        links = self._link(item, episode_id, names, ids, new, now, people)
        for n, kind in names.items():
            if n in ids:
                continue
            same = next((ids[m] for m in keys.get(alias_key(group, n), ()) if m in ids), None)
            if same is not None:  # "tessa" beside "Tessa", both new: one entity
                ids[n] = same
                continue
            vec = vectors.get(n)
            hit = self.index.similar(group, n, vec) if vec is not None else None
            if hit is not None:
                ent = store.entity(hit[0])
                store.add_alias(ent, n)
                ids[n] = root.get(ent.id, ent.id)
                continue
            ent = self._new_entity(group, n, kind, now, new)
            ids[n] = ent.id
        # a name names one entity: a new entity's extra names that are taken are left out
        taken = set(store.lookup_names([alias_key(group, a) for e in new for a in (e.name, *e.aliases)]))
        for k, e in enumerate(new):
            keep = []
            for a in e.aliases:
                key = alias_key(group, a)
                if key not in taken:
                    taken.add(key)
                    keep.append(a)
            taken.add(alias_key(group, e.name))
            new[k] = replace(e, aliases=tuple(keep))
        given = {(e.id, _people.fold(a)) for e in new for a in e.aliases}
        fresh = {e.id for e in new}
        links = [x for x in links if x.kind != "alias" or x.entity_id not in fresh
                 or (x.entity_id, _people.fold(x.name)) in given]
        store.create_entities(new, {e.id: _bytes(vectors.get(e.name)) for e in new})
        store.create_links(links)
        return ids, [(e, vectors.get(e.name)) for e in new]

    @staticmethod
    def _new_entity(group: str, name: str, kind: str, now: _dt.datetime, new: list[Entity]) -> Entity:
        """A new entity (to create with ``new``); a role gets its class spelling as an alias."""
        extra = tuple(_people.role_keys(name)[1:])
        ent = Entity(id=_new_id(), group_id=group, name=name, kind=kind, created_at=now, aliases=extra)
        new.append(ent)
        return ent

    def _link(self, item: EpisodeIn, episode_id: str, names: dict[str, str], ids: dict[str, str],
              new: list[Entity], now: _dt.datetime, people: _people.People) -> list[Link]:
        """Make one entity of the names this episode says are one person
        (docs/people.md): the speaker and the names it introduces itself
        by; the listener and the names it is called by (when supported); a
        role and its name. Each group of names lands on one entity: a new
        one when none is known, the known one, or, when several are known,
        their root (a "same" link from each other one, refused when two
        speakers or two different names for one role would be merged).
        Every name given or link made is a Link row naming the episode."""
        store = self.mem._store
        group = item.group_id
        tracker = self._people.get(group)
        speakers = tracker.speakers if tracker is not None else set()
        sets: list[tuple[list[str], str, str]] = []  # (names, the entity's own name, reason)
        for n, text in people.self_names:
            # "My name is Hiroshi Tanaka": Hiroshi too
            first = [n.split()[0]] if len(n.split()) > 1 and len(n.split()[0]) > 1 else []
            sets.append(([item.speaker, n, *first], item.speaker, f"self-introduction: {text}"))
        if item.listener:
            for n, text in people.listener_names:
                sets.append(([item.listener, n], item.listener, f"called so by {item.speaker}: {text}"))
        for n, nick, text in people.nicknames:  # "everyone calls him Lenny"
            sets.append(([n, nick], n, f"nickname: {text}"))
        for r in people.roles:
            sets.append(([r.name, r.role], r.name, f"{r.how}: {r.text}"))
        links: list[Link] = []
        n_self = len(people.self_names) + (len(people.listener_names) if item.listener else 0) + len(people.nicknames)
        for k, (group_names, own, reason) in enumerate(sets):
            known = list(dict.fromkeys(ids[n] for n in group_names if n in ids))
            if k >= n_self and len(known) == 1 and not self._may_name(known[0], group_names[0], speakers):
                continue  # "Fern, my sister" when my sister is Wren: two sisters, the role stays Wren's
            for n in group_names:
                names[n] = "PERSON" if _people.split_role(n) is None or _people.is_person_role(n) \
                    else names.get(n, "CONCEPT")
            if len(known) > 1:
                target = self._root_for(known, group_names, ids, speakers)
                if target is None:
                    continue  # refused: see _root_for
                for other in known:
                    if other != target:
                        links.append(Link(_new_id(), group, "same", other, target, "", episode_id, reason, now))
                for n, i in list(ids.items()):
                    if i in known:
                        ids[n] = target
            elif known:
                target = known[0]
            else:
                ent = self._new_entity(group, own, names.get(own, "PERSON"), now, new)
                target = ent.id
                ids[own] = target
            for n in group_names:
                if n in ids:
                    continue
                ids[n] = target
                for spelling in _people.role_keys(n):
                    links.append(Link(_new_id(), group, "alias", target, None, spelling, episode_id, reason, now))
        if not links:
            return []
        fresh = {e.id: k for k, e in enumerate(new)}
        stored: dict[str, Entity] = {}
        kept: list[Link] = []
        for x in links:
            if x.kind == "alias":
                if x.entity_id in fresh:  # a new entity: one more name to create with it
                    e = new[fresh[x.entity_id]]
                    if _people.fold(x.name) in {_people.fold(a) for a in (e.name, *e.aliases)}:
                        continue
                    new[fresh[x.entity_id]] = replace(e, aliases=(*e.aliases, x.name))
                else:
                    if store.lookup_names([alias_key(group, x.name)]):
                        continue  # the name already names an entity (first come, first served)
                    e = stored.get(x.entity_id) or store.entity(x.entity_id)
                    if e is None:
                        continue
                    store.add_alias(e, x.name)
                    stored[e.id] = replace(e, aliases=(*e.aliases, x.name))
            kept.append(x)
        return kept  # written by _resolve once the new entities' names are settled

    def _may_name(self, entity_id: str, name: str, speakers: set[str]) -> bool:
        """Whether a role's entity may take one more name: not when it is a
        speaker, nor when it already has a person's name that is not this
        one (nor a part of it: "Kim" of "Kim Lee")."""
        if name in ("",) or _people.split_role(name) is not None:
            return True
        e = self.mem._store.entity(entity_id)
        if e is None:
            return True
        if _people.fold(e.name) in speakers:
            return False
        have = {_people.fold(n) for n in (e.name, *e.aliases) if _people.split_role(n) is None}
        new = _people.fold(name)
        return not have or any(new in h or h in new for h in have)

    def _root_for(self, known: list[str], group_names: list[str], ids: dict[str, str],
                  speakers: set[str]) -> str | None:
        """The entity several known ones become one with, or None to refuse:
        never two of the group's speakers, never two entities that each
        already have a different person's name ("my brother Tom" when "my
        brother" is Sam). The speaker or listener's entity wins, else a named
        person's, else the oldest."""
        store = self.mem._store
        ents = {e.id: e for e in store.entities_by_id(known)}
        spoken = [i for i in known if i in ents and _people.fold(ents[i].name) in speakers]
        if len(spoken) > 1:
            return None
        proper = {i: {_people.fold(n) for n in (ents[i].name, *ents[i].aliases)
                      if _people.split_role(n) is None} for i in known if i in ents}
        named = [i for i in known if proper.get(i)]
        if len(named) > 1 and not spoken:
            a, b = proper[named[0]], proper[named[1]]
            if not any(x in y or y in x for x in a for y in b):
                return None
        if spoken:
            return spoken[0]
        if named:
            return named[0]
        return min(known, key=lambda i: (ents[i].created_at or _dt.datetime.max.replace(tzinfo=_dt.timezone.utc), i)
                   if i in ents else (_dt.datetime.max.replace(tzinfo=_dt.timezone.utc), i))

    def _revise(self, ep: Episode, claims: Sequence[Claim], ids: Mapping[str, str],
                vectors: dict[str, np.ndarray], now: _dt.datetime,
                notes: list[str]) -> tuple[list[Fact], list[Fact]]:
        mem, store = self.mem, self.mem._store
        if not claims:
            return [], []
        subject_ids = sorted({ids[c.subject] for c in claims})
        # A bare correction naming the value it takes back ("it's Cotham, not
        # Colston's") may be about anyone the episode mentions.
        mentioned: list[str] = []
        if any(c.correction and not c.attribute and c.replaces for c in claims):
            mentioned = sorted(set(ids.values()) - set(subject_ids))
            subject_ids = sorted(set(subject_ids) | set(mentioned))
        work = Working(store.held(subject_ids), mem.registry.is_single, episode_id=ep.id)
        fact_vecs = {
            fid: np.frombuffer(b, dtype=np.float32)
            for fid, b in store.vectors("FactVector", list(work.by_id)).items()
        }
        nli = mem._nli()
        judge = Judge(nli.scores, mem.nli_threshold)
        names = store.entity_names(subject_ids)
        facts: list[Fact] = []
        closed: list[Fact] = []
        new_vectors: dict[str, bytes] = {}
        for claim in claims:
            sid = ids[claim.subject]
            at = claim.valid_from or ep.reference_time
            attr = mem.registry.key(claim.attribute) if claim.attribute else ""
            current = current_of(work, sid, at)
            why = f"extracted ({claim.rule or 'pattern'}) from episode {ep.id}"
            value = claim.value
            provenance = "user_confirmation" if claim.rule.startswith("confirmed:") else ep.provenance
            if claim.correction:
                pool = current
                if not claim.attribute and claim.replaces and mentioned:
                    pool = current + [f for m in mentioned for f in current_of(work, m, at)]
                target, why_not = correction_target(pool, attr, claim.replaces, claim.value, claim.value_is_entity,
                                                    now=now)
                if target is not None:
                    closed.append(work.retract(target.id, now, f"correction: {claim.text}"))
                    attr = attr or target.attribute
                    sid = target.subject_id or sid
                    value = corrected_value(target, claim.value)
                    at = claim.valid_from or target.valid_from  # the corrected value held since then
                    current = current_of(work, sid, at)
                    why = f"correction of {target.id} in episode {ep.id}"
                elif not attr:
                    notes.append(f"correction not applied, {why_not}: {claim.text}")
                    continue
                if not attr or value in ("", None):
                    continue
            elif SWITCHES and not attr and claim.replaces and claim.change:
                # "switched from red bull to matcha": X ends in whatever attribute holds it
                held = current_of(work, sid, max(at, ep.reference_time))
                targets = [f for f in held if cessation_targets([f], f.attribute, claim.replaces)]
                attrs = {t.attribute for t in targets}
                if len(attrs) != 1:
                    notes.append(f"switch not applied, {'nothing held is' if not attrs else 'several beliefs are'}"
                                 f" {claim.replaces}: {claim.text}")
                    continue
                attr = attrs.pop()
                for t in targets:
                    closed.append(work.end(t.id, at, now, f"switch: {claim.text}"))
            elif claim.polarity in ("cease", "negate"):
                # "I quit in May" may be said of a belief recorded as starting later:
                # end what holds when it is said (Working.end never ends before a start).
                held = current_of(work, sid, max(at, ep.reference_time))
                targets = cessation_targets(held, attr, claim.value)
                for t in targets:
                    closed.append(work.end(t.id, at, now, f"{claim.polarity}: {claim.text}"))
                # Leaving an employer ends the role stated with it ("I'm the CTO
                # at Lumen" ... "I resigned from Lumen").
                left = {t.episode_id for t in targets if t.attribute == "employer" and t.episode_id}
                if claim.polarity == "cease" and left:
                    for f in held:
                        if f.attribute == "job_title" and f.episode_id in left:
                            closed.append(work.end(f.id, at, now, f"cease: {claim.text}{ROLE_WITH_EMPLOYER}"))
                if not targets and claim.polarity == "cease":
                    said = f" {claim.value}" if claim.value not in ("", None) else ""
                    notes.append(f"nothing held to end ({attr}{said}): {claim.text}")
                if targets or claim.polarity == "cease" or not attr:
                    continue
                attr = f"not_{attr}"  # "I don't eat meat", with nothing to end: keep it as a fact
            try:
                draft = mem._draft(
                    {"subject": names.get(sid, claim.subject), "attribute": attr, "value": value,
                     "text": claim.text, "valid_from": at, "valid_to": claim.valid_to,
                     "provenance": provenance, "source": ep.source_description or None,
                     "confidence": claim.confidence},
                    ep.group_id,
                )
            except InvalidInputError:
                continue  # an extraction the store would refuse (e.g. valid_to before valid_from)
            obj = ids.get(value) if isinstance(value, str) else None
            single = mem.registry.is_single(draft.attribute)
            doc = fact_document(draft.subject, draft.attribute, draft.value, claim.text)
            vec = vectors.get(doc)
            if vec is None:  # a correction learns its attribute here, from the belief it corrects
                vec = mem._embedder().embed([doc])[0]
            # a claim said as an addition ("... penicillin as well", "I also play chess") replaces
            # nothing: NLI is not asked (a single-valued attribute is still replaced by rule)
            # a turn does not contradict itself: NLI is not asked about a belief the same
            # episode stated ("she's now a principal at Lincoln High" closed its own title)
            close = {} if ADDITIVE and adds(claim.text) else judge.contradicted(
                [f for f in candidates(current, draft.attribute, vec, fact_vecs, single_of=mem.registry.is_single,
                                      text=claim.text, value=draft.value)
                 if f.episode_id != ep.id], claim.text, said=draft.attribute == SAID)
            change = claim.change or (CUE_CHANGES and not mem.registry.knows(draft.attribute)
                                      and claim.polarity == "assert" and not adds(claim.text)
                                      and change_cue(claim.text))
            if change and not single and draft.attribute != SAID:  # "I went vegan": no other diet holds now
                kind = STATEMENTS_OF_KIND and one_at_a_time(draft.attribute)
                close = {**{f.id: f"changed: {claim.text}" for f in current
                            if f.attribute == draft.attribute and excludes(draft.attribute, draft.value, f.value)
                            # and what was said of the last one ("Mr. Pell walks our dog" for dog_walker)
                            or kind and f.attribute == SAID and f.episode_id != ep.id
                            and speaks_of(f.text, draft.attribute)},
                         **(close or {})}
            fact = draft._replace(episode_id=ep.id, why=why).fact(
                sid, names.get(sid, claim.subject), obj, now, at)
            rec = work.assert_fact(fact, close=close)
            facts.append(rec)
            if rec.id == fact.id and vec is not None:
                fact_vecs[rec.id] = vec
                new_vectors[rec.id] = _bytes(vec)
            if rec.recorded_at == now:  # not a restatement, whose closings an earlier episode reported
                closed.extend(work.by_id[fid] for fid in rec.supersedes if fid in work.by_id)
        store.apply(work.finish())
        store.set_vectors("FactVector", new_vectors)
        facts = [work.by_id.get(f.id, f) for f in facts]
        return list({f.id: f for f in facts}.values()), list({f.id: f for f in closed}.values())


_RELATION_OF = {_people.fold(w): a for w, a in _RELATIONS.items()}


def _people_claims(e: EpisodeIn, ex: Extraction, people: _people.People) -> tuple[Extraction, _people.People]:
    """The relation facts a role and a name make ("my wife Sarah": <speaker>
    · wife: Sarah; "Churro (lucia's cat)": lucia · has_cat: Churro), and the
    role links a relation fact makes ("my sister's name is Ana")."""
    claims = list(ex.claims)
    seen = {(c.subject.casefold(), _people.fold(c.attribute), _people.fold(str(c.value))) for c in claims}
    for r in people.roles:
        parts = _people.split_role(r.role)
        if parts is None or not parts[0] or r.how == "kin name":  # "Dad's surgery": no fact that Dad is named Dad
            continue
        owner, word = parts
        cls = _people.role_class(word)
        if cls is None:
            continue
        # the relation the word names, as extraction spells it ("bf" -> partner, "mil" ->
        # mother_in_law; the registry spells wife and husband spouse); a pet: has_<kind>
        attr = _RELATION_OF.get(_people.fold(word), _people.fold(word)) if cls[2] else f"has_{cls[0]}"
        key = (owner.casefold(), _people.fold(attr), _people.fold(r.name))
        if key in seen:
            continue
        seen.add(key)
        claims.append(Claim(owner, attr, r.name, r.text, subject_is_speaker=owner == e.speaker,
                            value_is_entity=True, confidence=0.9, rule="people: a role and its name"))
    linked = {(_people.fold(r.role), _people.fold(r.name)) for r in people.roles}
    for c in ex.claims:
        cls = _people.role_class(c.attribute.replace("_", " ")) if c.value_is_entity and isinstance(c.value, str) else None
        if cls is not None and cls[2] and c.polarity == "assert" and not c.correction:
            role = _people.role_name(c.subject, c.attribute.replace("_", " "))
            if (_people.fold(role), _people.fold(c.value)) not in linked:
                people.roles.append(_people.RoleLink(role, c.value, c.text, "fact"))
    # a sentence the people analysis read a claim from ("my wife Sarah") is no longer unparsed
    said = [c.text.casefold() for c in claims[len(ex.claims):] if c.text]
    unparsed = [u for u in ex.unparsed if not any(t in u.casefold() or u.casefold() in t for t in said)]
    statements = [c for c in ex.statements if c.text in unparsed]
    return Extraction(claims, ex.mentions, unparsed, statements), people


def _new_id() -> str:
    from ._memory import new_id

    return new_id()
