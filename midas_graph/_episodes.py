"""Ingest of text episodes, zero LLM: store verbatim, extract, resolve, revise.

One write transaction per episode: the episode, its entities and mentions,
its facts and what they close land together or not at all. The CPU work
(spaCy, embeddings) runs before the transaction, batched over all episodes of
an ``add_episodes`` call.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

import numpy as np

from ._entities import EntityIndex
from ._errors import InvalidInputError, MidasError
from ._extract import Claim, Extraction, confirms, excludes, extract_many
from ._revise import Judge, candidates, cessation_targets, correction_target, corrected_value, current_of
from ._store import _SENTENCE_BREAK, alias_key, episode_document, fact_document, sentence_documents
from ._temporal import Working
from ._time import TimeLike, parse_time
from ._types import PROVENANCES, Entity, Episode, EpisodeResult, Fact

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
#: Speakers that are the agent itself (compared case-insensitively). What
#: the agent says ("Updated: you started at Duolingo") is stored verbatim
#: and recalled, but no fact is recorded from it: the agent is no witness of
#: the user's life. When the user's next turn confirms it ("yes", "correct",
#: "that's right"), its claims are recorded from the user's turn, with
#: provenance ``user_confirmation`` (docs/extraction.md).
AGENT_SPEAKERS = frozenset({"assistant", "ai", "agent", "bot", "chatbot", "system", "model"})


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

    def forget(self, group_id: str) -> None:
        """Drop what this process keeps about a group (after it was deleted):
        resolved entities and its last turn."""
        self.index.forget()
        self._last_turn.pop(group_id, None)
        self._agent_claims.pop(group_id, None)

    def run(self, items: Sequence[EpisodeIn], progress: bool | None = None) -> list[EpisodeResult]:
        from ._memory import _progress

        items = [self._with_listener(e) for e in items]
        now = self.mem.now()
        extractions = self._extract(items, now)
        extractions = self._confirmations(items, extractions, now)
        vectors = self._embed(items, extractions)
        results: list[EpisodeResult] = []
        bar = _progress(len(items), progress, "episodes", threshold=200)
        try:
            for i, (item, ex) in enumerate(zip(items, extractions)):
                try:
                    results.append(self._one(item, ex, vectors))
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

    def _confirmations(self, items: Sequence[EpisodeIn], extractions: list[Extraction],
                       now: _dt.datetime) -> list[Extraction]:
        """A user turn that confirms the agent's previous turn ("yes, that's
        right") takes that turn's claims, marked ``confirmed:``."""
        out = list(extractions)
        for i, (e, ex) in enumerate(zip(items, extractions)):
            if is_agent(e.speaker):
                self._agent_claims[e.group_id] = (e.content, list(ex.claims))
                continue
            if not (e.prompt and e.prompt_speaker and is_agent(e.prompt_speaker) and confirms(e.content, e.prompt)):
                continue
            cached = self._agent_claims.get(e.group_id)
            if i > 0 and items[i - 1].content == e.prompt and is_agent(items[i - 1].speaker):
                said = extractions[i - 1].claims
            elif cached is not None and cached[0] == e.prompt:
                said = cached[1]
            else:  # the agent's turn was stored by another process
                said = extract_many([(e.prompt, e.prompt_speaker, e.reference_time or now, e.speaker)])[0].claims
            took = [replace(c, rule=f"confirmed:{c.rule}", text=f"{c.text} ({e.speaker}: {e.content.strip()})")
                    for c in said if not c.correction]
            if took:  # the confirming sentence yielded claims now
                out[i] = replace(ex, claims=list(ex.claims) + took, unparsed=list(ex.unparsed[1:]))
        return out

    @staticmethod
    def _extract(items: Sequence[EpisodeIn], now: _dt.datetime) -> list[Extraction]:
        """Claims and mentions of each episode (of its :func:`extraction_text`),
        parsed in batches of at most EXTRACT_BATCH_CHARS characters."""
        out: list[Extraction] = []
        batch: list[tuple[str, str, _dt.datetime, str | None, str | None]] = []
        size = 0
        for e in items:
            text = extraction_text(e.content)
            if batch and size + len(text) > EXTRACT_BATCH_CHARS:
                out.extend(extract_many(batch))
                batch, size = [], 0
            batch.append((text, e.speaker, e.reference_time or now, e.listener,
                          e.prompt if e.prompt_speaker is not None else None))
            size += len(text)
        out.extend(extract_many(batch))
        return out

    def _embed(self, items: Sequence[EpisodeIn], extractions: Sequence[Extraction]) -> dict[str, np.ndarray]:
        """One batch for every text the episodes need a vector of: contents
        and their sentences (or passages), claim sentences, and names that
        may be new entities."""
        texts: dict[str, None] = {}
        for e, ex in zip(items, extractions):
            texts[episode_document(e.speaker, e.content)] = None
            texts.update(dict.fromkeys(sentence_documents(e.speaker, e.content)))
            texts[e.speaker] = None
            for c in ex.claims:
                texts[fact_document(c.subject, c.attribute, c.value, c.text)] = None
                texts[c.subject] = None
                if c.value_is_entity and isinstance(c.value, str) and c.value:
                    texts[c.value] = None
            for m in ex.mentions:
                texts[m.name] = None
        keys = list(texts)
        vecs = self.mem._embedder().embed(keys) if keys else np.zeros((0, 384), np.float32)
        return dict(zip(keys, vecs))

    # -- one episode, one transaction ------------------------------------------------
    def _one(self, item: EpisodeIn, ex: Extraction, vectors: dict[str, np.ndarray]) -> EpisodeResult:
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
            store.create_episode(ep, _bytes(vectors.get(episode_document(item.speaker, item.content))), sentences)
            names = self._surfaces(item, ex)
            ids, created = self._resolve(item.group_id, names, vectors, now)
            store.link_mentions(ep.id, [ids[n] for n in names], ep.group_id)
            claims: Sequence[Claim] = ex.claims
            notes: list[str] = []
            if is_agent(item.speaker) and claims:
                notes.append(f"{len(claims)} claim(s) of the agent's own turn not recorded (a user's confirmation records them)")
                claims = []
            facts, closed = self._revise(ep, claims, ids, vectors, now, notes)
            mem._store.set_meta("last_tx", now.isoformat())
        for ent, vec in created:  # committed: the similarity index may use them now
            self.index.note(ent.group_id, ent.id, ent.name, vec)
        entities = store.entities_by_id(list(dict.fromkeys(ids[n] for n in names)))
        return EpisodeResult(episode=ep, facts=facts, superseded=closed, entities=entities,
                             unparsed=list(ex.unparsed), notes=notes)

    @staticmethod
    def _surfaces(item: EpisodeIn, ex: Extraction) -> dict[str, str]:
        """Every name the episode refers to, with an entity kind (a hint only)."""
        names: dict[str, str] = {item.speaker: "PERSON"}
        labels = {m.name: m.label for m in ex.mentions}
        for c in ex.claims:
            names.setdefault(c.subject, "PERSON" if c.subject_is_speaker else labels.get(c.subject, "CONCEPT"))
            if c.value_is_entity and isinstance(c.value, str) and c.value:
                names.setdefault(c.value, labels.get(c.value, "CONCEPT"))
        for m in ex.mentions:
            names.setdefault(m.name, m.label)
        return names

    def _resolve(self, group: str, names: dict[str, str], vectors: dict[str, np.ndarray], now: _dt.datetime):
        store = self.mem._store
        keys = {alias_key(group, n): n for n in names}
        found = store.lookup_names(keys)
        ids = {n: found[k] for k, n in keys.items() if k in found}
        new: list[Entity] = []
        for n, kind in names.items():
            if n in ids:
                continue
            vec = vectors.get(n)
            hit = self.index.similar(group, n, vec) if vec is not None else None
            if hit is not None:
                ent = store.entity(hit[0])
                store.add_alias(ent, n)
                ids[n] = ent.id
                continue
            ent = Entity(id=_new_id(), group_id=group, name=n, kind=kind, created_at=now)
            new.append(ent)
            ids[n] = ent.id
        store.create_entities(new, {e.id: _bytes(vectors.get(e.name)) for e in new})
        return ids, [(e, vectors.get(e.name)) for e in new]

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
            close = judge.contradicted(candidates(current, draft.attribute, vec, fact_vecs, single=single),
                                       claim.text)
            if claim.change and not single:  # "I went vegan": no other diet holds now
                close = {**{f.id: f"changed: {claim.text}" for f in current
                            if f.attribute == draft.attribute and excludes(draft.attribute, draft.value, f.value)},
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


def _new_id() -> str:
    from ._memory import new_id

    return new_id()
