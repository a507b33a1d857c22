"""Where the time of a LoCoMo ingest goes, per turn, by stage (cProfile).

    python eval/profile_ingest.py [--limit 2] [--engine ladybug] [--top 25] [--out eval/results/profile_ingest.json]

Ingests the first ``--limit`` LoCoMo conversations with ``add_episodes`` (one
database and group each, as ``eval/locomo_ingest.py``) under cProfile, models
loaded before the profiler starts, and attributes the time to stages by the
cumulative time of the functions that enter them (a stage's figure includes
what it calls, so the stages overlap where one calls another: spaCy's parse is
called from the extraction step, NLI from revision):

* spaCy: ``Language.pipe`` / ``Language.__call__`` (tokenise, tag, parse, NER);
* embedding: the ONNX embedder's ``embed``; NLI: the cross-encoder's ``scores``;
* extraction: ``_extract.extract`` (clause patterns; no parse);
* people analysis: ``_people.analyze`` (no parse);
* store: the ``Store`` methods (every engine call) and the engine's own calls;
* importance, revision, entity resolution.

Prints one JSON document: ms per turn per stage, its share of the profiled
ingest, and the ``--top`` functions by their own (tottime) and cumulative time.
Times are CPU seconds of the process (``time.process_time``: every thread,
so onnxruntime's and the engine's threads count), not wall time: on a shared
machine the wall clock also counts the time other processes held the cores.
cProfile slows pure-Python code more than native code, so shares of Python
stages are upper bounds; ``--plain`` times the same ingest without it.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import locomo  # noqa: E402

#: stage -> (file fragment, function name) pairs whose cumulative time is the stage's
STAGES = {
    "spacy parse": [("spacy/language.py", "pipe"), ("spacy/language.py", "__call__")],
    "embedding (ONNX)": [("models/_embed.py", "embed")],
    "NLI (ONNX)": [("models/_nli.py", "scores")],
    "extraction (clause patterns)": [("midas_graph/_extract", "extract")],
    "people analysis": [("midas_graph/_people.py", "analyze")],
    "importance": [("midas_graph/_importance.py", "")],
    "revision": [("midas_graph/_revise.py", "")],
    "store (engine calls)": [("midas_graph/_store.py", "")],
    "entity resolution": [("midas_graph/_episodes.py", "_resolve")],
}


def stage_times(stats: pstats.Stats) -> dict[str, float]:
    """Seconds per stage: the cumulative time of its entry functions, not
    counting an entry function called (recursively or not) from another
    entry function of the same stage."""
    out = {}
    for stage, keys in STAGES.items():
        entries = {fn for fn in stats.stats
                   if any(frag in fn[0] and (not name or fn[2] == name) for frag, name in keys)}
        total = 0.0
        for fn in entries:
            cc, nc, tt, ct, callers = stats.stats[fn]
            # the part of its cumulative time that came from callers outside the stage
            inner = sum(v[3] for c, v in callers.items() if c in entries)
            total += max(0.0, ct - inner) if callers else ct
        out[stage] = total
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=int, default=2, help="first N LoCoMo conversations")
    ap.add_argument("--engine", default=None)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--plain", action="store_true", help="also time the same ingest without the profiler")
    ap.add_argument("--pstats", help="also write the raw profile here (for snakeviz, pstats)")
    ap.add_argument("--out")
    args = ap.parse_args()

    from midas_graph import Memory
    from midas_graph.models import default_embedder, default_nli, load_spacy

    load_spacy(), default_embedder().embed(["warm up"]), default_nli().scores([("a", "b")])
    convs = locomo.load()[: args.limit]
    tmp = tempfile.mkdtemp(prefix="profile-ingest-")

    def ingest(tag: str, embedder=None) -> tuple[int, float, float]:
        turns, t, c = 0, time.perf_counter(), time.process_time()
        for conv in convs:
            with Memory(f"{tmp}/{tag}-{conv.sample_id}.db", engine=args.engine, embedder=embedder) as mem:
                turns += len(mem.add_episodes(conv.episodes, group_id=conv.sample_id, progress=False))
        return turns, time.perf_counter() - t, time.process_time() - c

    plain = split = None
    if args.plain:
        # the same ingest unprofiled, its embedder's texts kept; then the parse and the embedding
        # of the same texts alone: an honest split of the CPU, without the profiler's distortion
        texts: list[str] = []
        base = default_embedder()

        class Keeping:
            def embed(self, batch):
                texts.extend(batch)
                return base.embed(batch)

        plain = ingest("plain", Keeping())
        nlp = load_spacy()
        c = time.process_time()
        for _ in nlp.pipe([e["content"] for conv in convs for e in conv.episodes], batch_size=64):
            pass
        parse_cpu = time.process_time() - c
        c = time.process_time()
        base.embed(texts)
        embed_cpu = time.process_time() - c
        n = plain[0]
        split = {"ingest_cpu_ms_per_turn": round(plain[2] / n * 1e3, 2),
                 "spacy_parse_alone_cpu_ms_per_turn": round(parse_cpu / n * 1e3, 2),
                 "embedding_alone_cpu_ms_per_turn": round(embed_cpu / n * 1e3, 2),
                 "embedded_texts_per_turn": round(len(texts) / n, 2),
                 "rest_cpu_ms_per_turn": round((plain[2] - parse_cpu - embed_cpu) / n * 1e3, 2)}
    # the timer is the process's CPU time (all its threads: onnxruntime's, the engine's), not the
    # wall clock: on a shared machine the wall clock counts the time other processes held the cores
    prof = cProfile.Profile(time.process_time)
    cpu0 = time.process_time()
    prof.enable()
    turns, wall, _ = ingest("prof")
    prof.disable()
    cpu = time.process_time() - cpu0
    if args.pstats:
        prof.dump_stats(args.pstats)
    stats = pstats.Stats(prof)
    total = sum(v[2] for v in stats.stats.values())  # all tottime: the profiled CPU
    stages = stage_times(stats)
    report = {
        "benchmark": "profile_ingest", "engine": args.engine or "ladybug",
        "conversations": [c.sample_id for c in convs], "turns": turns,
        "profiled_wall_ms_per_turn": round(wall / turns * 1e3, 2),
        "profiled_cpu_ms_per_turn": round(cpu / turns * 1e3, 2),
        "plain_wall_ms_per_turn": round(plain[1] / plain[0] * 1e3, 2) if plain else None,
        "plain_split": split,
        "stages_ms_per_turn": {k: round(v / turns * 1e3, 2) for k, v in stages.items()},
        "stages_share": {k: round(v / total, 3) for k, v in stages.items()},
    }

    def label(fn):
        file, line, name = fn
        for cut in ("site-packages/", "midas_graph/"):
            if cut in file:
                file = ("midas_graph/" if cut == "midas_graph/" else "") + file.split(cut, 1)[1]
        return f"{file}:{line}({name})"

    for key, col in (("top_tottime", 2), ("top_cumtime", 3)):
        rows = sorted(stats.stats.items(), key=lambda kv: kv[1][col], reverse=True)[: args.top]
        report[key] = [{"fn": label(fn), "calls": v[1], "tottime_ms_per_turn": round(v[2] / turns * 1e3, 3),
                        "cumtime_ms_per_turn": round(v[3] / turns * 1e3, 3)} for fn, v in rows]
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
