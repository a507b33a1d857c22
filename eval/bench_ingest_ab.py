"""Ingest speed of this checkout against an older commit, measured alternately in the same run.

    python eval/bench_ingest_ab.py [--baseline f8afc14] [--runs 3] [--limit 0] [--nice 10]
                                   [--out eval/results/ingest_ab.json]

The machine this project is measured on is shared, so an absolute turns/s says
little by itself. This runs this checkout's ``eval/locomo_ingest.py`` on the
current package and on the package of ``--baseline`` (checked out into a
temporary git worktree, removed at the end) one after the other, ``--runs`` times each (baseline, current,
baseline, current, ...), each in a fresh process with the same Python
environment, and records around every run:

* a fixed CPU-bound calibration (pure Python and a numpy matrix product, one
  thread, in its own process): its seconds rise with the load the run met;
* the load average (``/proc/loadavg``, sampled every 2 s during the run);
* the ingest's CPU time per turn (``time.process_time``, every thread of the
  process): the steadiest figure on a shared machine.

It prints (and with ``--out`` writes) one JSON document: per run turns/s,
the single ``add_episode`` p50, the calibration seconds and the load; the
medians per side; and the median over pairs of current / baseline turns/s,
the figure that corrects for load (both sides of a pair met about the same
machine). ``turns_per_s_x_calibration`` multiplies turns/s by the
calibration's seconds over its median of the whole run: a second, cruder
correction.

The baseline runs its own code and its own ``schema/`` (the package's
``midas_graph.schema`` is mapped to ``schema/`` by pyproject; an editable
install would map the old code to today's DDL, so the worktree gets a link
``midas_graph/schema -> ../schema`` and is put first on ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CALIBRATION = """
import time, numpy as np
t = time.perf_counter()
s = 0
for i in range(3_000_000):
    s += i * i % 7
a = np.random.default_rng(0).standard_normal((384, 384)).astype(np.float32)
for _ in range(400):
    a = np.tanh(a @ a.T / 384)
print(time.perf_counter() - t)
"""


def calibrate(nice: int) -> float:
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    out = subprocess.run(["nice", "-n", str(nice), sys.executable, "-c", CALIBRATION], env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def loadavg() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def checkout(rev: str, where: Path) -> Path:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), rev],
                   check=True, capture_output=True)
    link = where / "midas_graph" / "schema"
    if not link.exists():
        link.symlink_to("../schema")
    return where


def run_ingest(src: Path, args, label: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src))
    env.setdefault("MIDAS_LOCOMO", str(ROOT.parent / "shared" / "data" / "locomo"))
    # this checkout's locomo_ingest.py on either side's package (it uses the public API only), so
    # that both report the same figures (the CPU time per turn too)
    cmd = ["nice", "-n", str(args.nice), sys.executable, str(ROOT / "eval" / "locomo_ingest.py"),
           "--single", str(args.single)]
    if args.limit:
        cmd += ["--limit", str(args.limit)]
    if args.engine:
        cmd += ["--engine", args.engine]
    samples: list[float] = []
    done = threading.Event()

    def sample():
        while not done.is_set():
            samples.append(loadavg())
            done.wait(2.0)

    calib_before = calibrate(args.nice)
    th = threading.Thread(target=sample, daemon=True)
    th.start()
    t = time.perf_counter()
    out = subprocess.run(cmd, cwd=src, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    done.set()
    th.join()
    if out.returncode:
        raise SystemExit(f"{label}: locomo_ingest failed\n{out.stderr[-3000:]}")
    rep = json.loads(out.stdout)
    calib_after = calibrate(args.nice)
    row = {"side": label, "turns": rep["turns"], "turns_per_s": rep["bulk_turns_per_s"],
           "cpu_ms_per_turn": rep["bulk_cpu_ms_per_turn"],
           "single_p50_ms": rep["single_add_episode_ms"]["p50"], "facts_per_turn": rep["facts_per_turn"],
           "supersessions": rep["supersessions"], "wall_s": round(wall, 1),
           "calibration_s": round((calib_before + calib_after) / 2, 3),
           "loadavg": {"min": min(samples), "median": statistics.median(samples), "max": max(samples)}}
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default="f8afc14", help="git revision to compare against")
    ap.add_argument("--current", default=None, help="a source folder for 'current' (default: this checkout)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--limit", type=int, default=0, help="only the first N LoCoMo conversations (0 = all 10)")
    ap.add_argument("--single", type=int, default=300)
    ap.add_argument("--engine", default=None)
    ap.add_argument("--nice", type=int, default=10)
    ap.add_argument("--out")
    args = ap.parse_args()

    base_rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.baseline],
                              capture_output=True, text=True, check=True).stdout.strip()
    tmp = Path(tempfile.mkdtemp(prefix="ingest-ab-"))
    base = checkout(args.baseline, tmp / "baseline")
    current = Path(args.current) if args.current else ROOT
    head = subprocess.run(["git", "-C", str(current), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    rows: list[dict] = []
    try:
        for _ in range(args.runs):
            rows.append(run_ingest(base, args, "baseline"))
            rows.append(run_ingest(current, args, "current"))
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], capture_output=True)

    med_cal = statistics.median(r["calibration_s"] for r in rows)
    for r in rows:
        r["turns_per_s_x_calibration"] = round(r["turns_per_s"] * r["calibration_s"] / med_cal, 1)
    side = {s: [r for r in rows if r["side"] == s] for s in ("baseline", "current")}
    pairs = list(zip(side["baseline"], side["current"]))
    med = lambda xs: round(statistics.median(xs), 3)  # noqa: E731
    report = {
        "benchmark": "bench_ingest_ab",
        "command": "python eval/bench_ingest_ab.py " + " ".join(sys.argv[1:]),
        "current": head, "baseline": base_rev,
        "engine": args.engine or "ladybug", "runs": args.runs, "nice": args.nice, "cpus": os.cpu_count(),
        "median": {s: {"turns_per_s": med([r["turns_per_s"] for r in rs]),
                       "cpu_ms_per_turn": med([r["cpu_ms_per_turn"] for r in rs]),
                       "single_p50_ms": med([r["single_p50_ms"] for r in rs]),
                       "turns_per_s_x_calibration": med([r["turns_per_s_x_calibration"] for r in rs]),
                       "calibration_s": med([r["calibration_s"] for r in rs]),
                       "loadavg_median": med([r["loadavg"]["median"] for r in rs])}
                   for s, rs in side.items()},
        "current_over_baseline_turns_per_s": med([c["turns_per_s"] / b["turns_per_s"] for b, c in pairs]),
        "per_pair_ratio": [round(c["turns_per_s"] / b["turns_per_s"], 3) for b, c in pairs],
        # CPU per turn is the steadier figure on a shared machine: baseline / current is the speed ratio
        "baseline_over_current_cpu_per_turn": med([b["cpu_ms_per_turn"] / c["cpu_ms_per_turn"] for b, c in pairs]),
        "per_pair_cpu_ratio": [round(b["cpu_ms_per_turn"] / c["cpu_ms_per_turn"], 3) for b, c in pairs],
        "runs_in_order": rows,
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
