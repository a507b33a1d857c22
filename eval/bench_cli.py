"""Benchmark of a CLI call that needs no model: ``midas-graph as-of`` on a
10k-fact database, against importing the package, in the same run.

Prints one JSON document. Not a test: the targets (issue 21, item 7) are
checked by reading it: ``as-of`` at most 1.5x ``python -c "import
midas_graph"``, and at most 1 s on a quiet machine.

    python eval/bench_cli.py [--facts 10000] [--runs 9] [--engine ladybug] [--out eval/results/bench_cli.json]

Method. One database of ``--facts`` typed facts (1,000 subjects; a probe
subject with 20 versions of ``lives_in`` and a few other beliefs) is built
and closed first. Then each round runs, as fresh processes in turn (the
order rotating per round so that no command always runs after another one):

* ``python -c "pass"`` — the interpreter alone;
* ``python -c "import midas_graph"`` — the package as a user imports it
  (the baseline of the target);
* ``python -c "import midas_graph, midas_graph._context, midas_graph._timeline"``
  — what ``import midas_graph`` loaded before the ranking code and the plot
  were made lazy (for comparison with earlier figures);
* ``midas-graph --db DB as-of probe`` (the console script; its table output)
  and the same with ``--json``;
* ``midas-graph --db DB history probe``.

Each figure is the median wall time over ``--runs`` rounds (after one
warm-up round that is not counted), with p90 and the ratios to the baselines
of the same run. The machine's load average is recorded with the figures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UTC = dt.timezone.utc


def build(path: str, facts: int, engine: str | None) -> dict:
    from midas_graph import Memory

    t0 = dt.datetime(2015, 1, 1, tzinfo=UTC)
    rows = [{"subject": "probe", "attribute": "lives_in", "value": f"City {i}",
             "valid_from": t0 + dt.timedelta(days=90 * i)} for i in range(20)]
    rows += [{"subject": "probe", "attribute": a, "value": v, "valid_from": t0}
             for a, v in (("employer", "Initech"), ("likes", "tea"), ("likes", "chess"))]
    i = 0
    while len(rows) < facts:
        rows.append({"subject": f"subject-{i % 1000}", "attribute": ("lives_in", "employer", "likes", "age")[i % 4],
                     "value": f"value-{i % 97}", "valid_from": t0 + dt.timedelta(hours=i)})
        i += 1
    started = time.perf_counter()
    with Memory(path, engine=engine) as mem:
        mem.add_facts(rows, progress=False)
        stats = mem.stats()
    return {"build_s": round(time.perf_counter() - started, 2), **stats}


def timed(cmd: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    out = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=str(ROOT))
    took = time.perf_counter() - t0
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {out.returncode}: {out.stderr.decode()[-500:]}")
    return took


def run(facts: int = 10_000, runs: int = 9, engine: str | None = None) -> dict:
    py = sys.executable
    script = Path(py).with_name("midas-graph")
    cli = [str(script)] if script.exists() else [py, "-m", "midas_graph.cli"]
    env = dict(os.environ)
    if engine:
        env["MIDAS_GRAPH_ENGINE"] = engine
    with tempfile.TemporaryDirectory(prefix="bench_cli_") as tmp:
        db = os.path.join(tmp, "cli.db")
        built = build(db, facts, engine)
        commands = {
            "python": [py, "-c", "pass"],
            "import": [py, "-c", "import midas_graph"],
            "import_eager": [py, "-c", "import midas_graph, midas_graph._context, midas_graph._timeline"],
            "as_of": [*cli, "--db", db, "as-of", "probe"],
            "as_of_json": [*cli, "--db", db, "as-of", "probe", "--json"],
            "history": [*cli, "--db", db, "history", "probe"],
        }
        names = list(commands)
        times: dict[str, list[float]] = {n: [] for n in names}
        load = []
        for r in range(runs + 1):
            order = names[r % len(names):] + names[:r % len(names)]
            for n in order:
                took = timed(commands[n], env)
                if r:  # round 0 warms the caches
                    times[n].append(took)
            load.append(os.getloadavg()[0])

    def p(xs: list[float], q: float) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]

    med = {n: statistics.median(xs) for n, xs in times.items()}
    return {
        "facts": facts,
        "database": built,
        "engine": engine or os.environ.get("MIDAS_GRAPH_ENGINE", "ladybug"),
        "runs": runs,
        "wall_s": {n: {"p50": round(med[n], 3), "p90": round(p(xs, 0.9), 3), "min": round(min(xs), 3)}
                   for n, xs in times.items()},
        "ratio": {
            "as_of / import": round(med["as_of"] / med["import"], 2),
            "as_of / import_eager": round(med["as_of"] / med["import_eager"], 2),
            "as_of_json / import": round(med["as_of_json"] / med["import"], 2),
            "history / import": round(med["history"] / med["import"], 2),
        },
        "targets": {"as_of <= 1.5 x import": med["as_of"] <= 1.5 * med["import"],
                    "as_of <= 1 s": med["as_of"] <= 1.0},
        "load_average_1min": {"min": round(min(load), 2), "max": round(max(load), 2)},
        "cpu_count": os.cpu_count(),
        "python": sys.version.split()[0],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--facts", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--engine", default=None)
    ap.add_argument("--out", default=None, help="also write the JSON here (e.g. eval/results/bench_cli.json)")
    args = ap.parse_args(argv)
    report = run(args.facts, args.runs, args.engine)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
