"""Train, export and quantise the bundled answerability cross-encoder.

"Does this turn answer this question?" is a judgement the context needs
where the turn shares no word with the question ("where does my brother
live?" / "hes in boston"). This script fine-tunes the bundled NLI student
(MiniLM-L6, ``data/nli/``) as a two-way classifier (answers, does not) on
LoCoMo's evidence-labelled questions and exports it int8 to
``work-train/answers/model/``.

Research, not shipped (docs/assistant_eval.md, round 8). Run inside
``.venv-train`` (``make train-venv``: torch, transformers, bm25s)::

    .venv-train/bin/python eval/answerability/train.py       # train, then export
    .venv-train/bin/python eval/answerability/train.py --data locomo --work-dir work-train/answers-locomo

Data, split by conversation before any use:

* training: LoCoMo conversations 1-8 (categories 1-4; category 5 asks one
  person what the other said, which is a question of who, not of what).
  Positives: each evidence turn. Negatives: the conversation's turns that
  BM25 ranks highest for the question and are not evidence (they share its
  words and do not answer it), and random turns;
* validation: LoCoMo conversations 9-10, and the development personas of
  ``eval/data/assistant_sessions.jsonl`` (never the held-out ones): the
  threshold is chosen there.

A turn is paired as ``answer_text(turn, asked)``: when a short turn answers
the other speaker's question, that question comes first (as the context
reads it, ``_context._question_answered``).

Each epoch ends with a checkpoint (``--work-dir``); a run started again
resumes from the last finished epoch. Training takes minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from model import LABELS, answer_text  # noqa: E402

from midas_graph._context import _SENTENCE, ANSWER_WORDS  # noqa: E402
from midas_graph.models.train_nli import (  # noqa: E402
    PKG_DIR,
    REPO,
    TOKENIZER,
    base_model_dir,
    batches_for_epoch,
    collate,
    encode,
    load_classifier,
    log,
    lr_at,
    make_tokenizer,
    save_ckpt,
    sha256,
    state_dict_from_int8_onnx,
)

DEFAULT_OUT = REPO / "work-train" / "answers" / "model"
DEFAULT_WORK = REPO / "work-train" / "answers"
LOCOMO = REPO.parent / "shared" / "data" / "locomo" / "locomo10.json"
PERSONAS = REPO / "eval" / "data" / "assistant_sessions.jsonl"
TRAIN_CONVS = range(0, 8)
VAL_CONVS = range(8, 10)


def _asked_before(turns: list[tuple[str, str]], i: int) -> str:
    """The other speaker's question that the short turn ``i`` answers, or ""
    (as the context reads it: ``_context._question_answered``)."""
    if i == 0 or len(turns[i][1].split()) > ANSWER_WORDS or turns[i - 1][0] == turns[i][0]:
        return ""
    last = _SENTENCE.split(turns[i - 1][1].strip())[-1]
    return last if last.endswith("?") else ""


def _pairs(question: str, turns: list[tuple[str, str]], ids: list[str], evidence: set[str],
           rng: random.Random, hard: int, easy: int, bm25=None, voice=None) -> list[tuple[str, str, int]]:
    """(question, turn text, label) rows: 0 answers, 1 does not. ``voice``
    (training only): a function of (question, turns, {index: text}) that
    retells the question and the picked turns in another voice (:func:`_retell`)."""
    pos = [i for i, d in enumerate(ids) if d in evidence]
    neg: list[int] = []
    if bm25 is not None:
        import bm25s

        q = bm25s.tokenize([question], stopwords="en", show_progress=False)
        res, _ = bm25.retrieve(q, k=min(hard * 3, len(turns)), show_progress=False)
        neg = [int(i) for i in res[0] if ids[int(i)] not in evidence][:hard]
    others = [i for i in range(len(turns)) if ids[i] not in evidence and i not in neg]
    neg += rng.sample(others, min(easy, len(others)))
    texts = {i: answer_text(t, _asked_before(turns, i)) for i, (_, t) in enumerate(turns) if i in pos or i in neg}
    if voice is not None:
        question, texts = voice(question, turns, texts)
    return [(question, texts[i], 0) for i in pos if i in texts] + [(question, texts[i], 1) for i in neg if i in texts]


# --------------------------------------------------------------------------
# other voices: LoCoMo asks "What does Caroline do?" of "I'm a counselor";
# a user asks "what does my wife do?" of "shes a counselor", or "what do I do?"
# --------------------------------------------------------------------------

ROLES = {"she": ("wife", "sister", "mom", "daughter", "girlfriend", "grandma", "aunt", "best friend",
                 "boss", "manager", "roommate", "cousin", "friend", "coworker", "neighbor", "partner"),
         "he": ("husband", "brother", "dad", "son", "boyfriend", "grandpa", "uncle", "best friend",
                "boss", "manager", "roommate", "cousin", "friend", "coworker", "neighbor", "partner")}
_OBJ = {"he": "him", "she": "her"}
_POS = {"he": "his", "she": "her"}
_AUX_1ST = {"does": "do", "is": "am", "has": "have", "was": "was", "did": "did", "do": "do",
            "would": "would", "will": "will", "can": "can", "could": "could", "might": "might"}


def _first_person_q(q: str, name: str) -> str:
    """"What does Caroline do?" -> "What do I do?"; "Caroline's dog" -> "my dog"."""
    n = re.escape(name)
    q = re.sub(rf"\b{n}['’]s\b", "my", q)
    q = re.sub(rf"\b(does|is|has|was|did|do|would|will|can|could|might) {n}\b",
               lambda m: f"{_AUX_1ST[m.group(1).lower()]} I", q, flags=re.I)
    q = re.sub(rf"\b(to|with|for|about|from|of|at|by) {n}\b", r"\1 me", q)
    q = re.sub(rf"\b{n}\b", "I", q)
    return re.sub(r"\b(?:her|his)\b", "my", q)


def _third_person_q(q: str, name: str, role: str) -> str:
    n = re.escape(name)
    q = re.sub(rf"\b{n}['’]s\b", f"my {role}'s", q)
    return re.sub(rf"\b{n}\b", f"my {role}", q)


def _third_person_turn(t: str, p: str) -> str:
    """"I'm a counselor and I love my job" -> "she's a counselor and she love her job"."""
    subs = [(r"\bI['’]?m\b", f"{p}'s"), (r"\bI['’]ve\b", f"{p}'s"), (r"\bI['’]d\b", f"{p}'d"),
            (r"\bI['’]ll\b", f"{p}'ll"), (r"\bI am\b", f"{p} is"), (r"\bI have\b", f"{p} has"),
            (r"\bI do\b", f"{p} does"), (r"\bI don['’]?t\b", f"{p} doesn't"), (r"\bI\b", p),
            (r"\bmyself\b", "herself" if p == "she" else "himself"), (r"\bmine\b", "hers" if p == "she" else "his"),
            (r"\bmy\b", _POS[p]), (r"\bme\b", _OBJ[p])]
    for a, b in subs:
        t = re.sub(a, b, t, flags=re.I)
    return t


def _chat(text: str) -> str:
    """Typed as people type to an assistant: lower case, no final stop."""
    return text.lower().rstrip(".!")


def _retell(rng: random.Random, speakers: tuple[str, str]):
    """A voice for :func:`_pairs`: the asked speaker's turns as the user's own
    ("what do I do?"), or as told by someone else of a relative ("what does my
    wife do?" / "shes a counselor"), or as they were (LoCoMo's own voice)."""
    def voice(question: str, turns, texts: dict[int, str]):
        named = [s for s in speakers if re.search(rf"\b{re.escape(s)}\b", question)]
        if len(named) != 1:
            return question, texts
        name, roll = named[0], rng.random()
        if roll < 0.35:
            return question, texts
        if roll < 0.65:   # the user asks of themself: the other speaker's turns are not theirs
            q = _first_person_q(question, name)
            out = {i: t for i, t in texts.items() if turns[i][0] == name}
        else:             # the user asks of a relative the asked speaker now is; the user's own turns stay "I"
            p = rng.choice(("he", "she"))
            q = _third_person_q(question, name, rng.choice(ROLES[p]))
            out = {i: (_third_person_turn(t, p) if turns[i][0] == name else t) for i, t in texts.items()}
        if rng.random() < 0.5:
            q, out = _chat(q), {i: _chat(t) for i, t in out.items()}
        return q, out
    return voice


def _index(turns: list[tuple[str, str]]):
    import bm25s

    bm = bm25s.BM25()
    bm.index(bm25s.tokenize([t for _, t in turns], stopwords="en", show_progress=False),
             show_progress=False)
    return bm


def locomo_rows(convs, seed: int, hard: int, easy: int, voices: bool = False) -> list[tuple[str, str, int]]:
    """``voices``: retell each question and its turns in a voice drawn at random (training)."""
    data = json.loads(LOCOMO.read_text("utf-8"))
    rng = random.Random(seed)
    rows = []
    for ci in convs:
        conv = data[ci]["conversation"]
        turns, ids = [], []
        for k in sorted((k for k in conv if k.startswith("session_") and isinstance(conv[k], list)),
                        key=lambda k: int(k.split("_")[1])):
            for t in conv[k]:
                text = t["text"] + (f" [photo: {t['blip_caption']}]" if t.get("blip_caption") else "")
                turns.append((t["speaker"], text))
                ids.append(t["dia_id"])
        bm = _index(turns)
        for qa in data[ci]["qa"]:
            if qa.get("category") == 5 or not qa.get("evidence"):
                continue
            ev = {e.strip() for e in qa["evidence"] for e in e.split(";")}
            voice = _retell(rng, (conv["speaker_a"], conv["speaker_b"])) if voices else None
            rows += _pairs(qa["question"], turns, ids, ev, rng, hard, easy, bm, voice)
    return rows


#: The development personas split again: the earlier writers' (p1-p8) may
#: train, the later writers' (p17-p20) judge. Held-out personas are never read.
TRAIN_PERSONAS = tuple(f"p{i}-" for i in range(1, 9))
TRAIN_SESSIONS = REPO / "eval" / "data" / "answerability_train"


def persona_rows(split: str, seed: int, hard: int, easy: int, part: str = "all",
                 values: bool = False) -> list[tuple[str, str, int]]:
    """The development personas (``split`` "dev") or those written for
    training ("train"), never the held-out ones: every question,
    should-abstain ones with no positive. ``part`` (dev only): "train"
    (p1-p8), "val" (the others) or "all";
    ``values``: a turn that names the gold or a stale value answers too (the
    evidence lists one turn where several tell where someone lives)."""
    if split not in ("dev", "train"):
        raise SystemExit("only the development personas and those written for training may be read here")
    rng = random.Random(seed)
    rows = []
    lines = (PERSONAS.read_text("utf-8").splitlines() if split == "dev" else
             [ln for f in sorted(TRAIN_SESSIONS.glob("*.jsonl")) for ln in f.read_text("utf-8").splitlines()
              if ln.strip()])
    for line in lines:
        p = json.loads(line)
        if split == "dev" and (p["split"] != split or (
                part != "all" and p["id"].startswith(TRAIN_PERSONAS) != (part == "train"))):
            continue
        turns = [(m["speaker"], m["text"]) for m in p["messages"]]
        ids = [m["id"] for m in p["messages"]]
        indexes: dict[int, object] = {}  # BM25 over the turns said by then, one per prefix
        for q in p["questions"]:
            asked = [i for i, m in enumerate(p["messages"])
                     if m["time"] <= q["asked_at"]]
            if not asked:
                continue
            n = asked[-1] + 1
            # an abstain question's evidence names its trap turns: none of them answers it
            ev = set(q.get("evidence") or ()) if q["kind"] != "abstain" else set()
            if values and q["kind"] != "abstain":
                vals = [v.lower() for v in (q.get("gold") or []) + (q.get("stale") or []) if len(v) > 2]
                ev |= {ids[i] for i in range(n) if turns[i][0] != "assistant"
                       and any(v in turns[i][1].lower() for v in vals)}
            if n not in indexes:
                indexes[n] = _index(turns[:n])
            rows += _pairs(q["question"], turns[:n], ids[:n], ev, rng, hard, easy, indexes[n])
    return rows


def training_rows(args, epoch: int) -> list[tuple[str, str, int]]:
    """One epoch's pairs: generated ones (``pairs.py``, fresh each epoch) and personas,
    or, for research only, LoCoMo's (CC BY-NC 4.0: a model trained on them is
    not shipped)."""
    if args.data == "locomo":
        return locomo_rows(TRAIN_CONVS, args.seed * 1000 + epoch, args.hard, args.easy, voices=args.voices)
    from pairs import generate

    rows = [(p.question, p.text, p.label) for p in generate(args.pairs, "train", args.seed * 1000 + epoch)]
    if args.data == "generated+personas":
        for k in range(args.persona_repeats):
            rows += persona_rows("dev", args.seed * 1000 + epoch * 10 + k, args.hard, args.easy,
                                 part="train", values=True)
            if args.train_sessions:  # personas written for training (eval/data/answerability_train)
                rows += persona_rows("train", args.seed * 1000 + epoch * 10 + k, args.hard, args.easy,
                                     values=True)
    return rows


def load_model(args):
    import torch

    model = load_classifier(base_model_dir())
    model.load_state_dict(state_dict_from_int8_onnx(Path(args.init_from_onnx), model), strict=False)
    # entailment -> answers, neutral -> does not: the NLI head is the warm start
    head = torch.nn.Linear(model.classifier.in_features, 2)
    with torch.no_grad():
        head.weight.copy_(model.classifier.weight[:2])
        head.bias.copy_(model.classifier.bias[:2])
    model.classifier = head
    model.num_labels = 2
    model.config.num_labels = 2
    model.config.id2label = dict(enumerate(LABELS))
    model.config.label2id = {l: i for i, l in enumerate(LABELS)}
    return model


def scores_torch(model, tok, rows, torch, batch=64) -> list[float]:
    """P(answers) per row."""
    model.eval()
    enc = encode(tok, [(a, b) for a, b, _ in rows])
    out: list[float] = []
    with torch.no_grad():
        for i in range(0, len(rows), batch):
            ids = list(range(i, min(i + batch, len(rows))))
            inp, att, typ = collate(enc, ids, torch)
            lg = model(input_ids=inp, attention_mask=att, token_type_ids=typ).logits
            out.extend(torch.softmax(lg, -1)[:, 0].tolist())
    model.train()
    return out


def at(pos: list[float], neg: list[float], t: float) -> dict:
    """Precision and recall of "answers", and the share of non-answers scored, at or above ``t``."""
    tp, fp = sum(p >= t for p in pos), sum(n >= t for n in neg)
    return {"precision": round(tp / max(1, tp + fp), 4), "recall": round(tp / max(1, len(pos)), 4),
            "neg_above": round(fp / max(1, len(neg)), 4)}


def _auc(pos: list[float], neg: list[float]) -> float:
    """P(an answer outscores a non-answer), ties counting half (Mann-Whitney, by ranks)."""
    import numpy as np

    if not pos or not neg:
        return 0.0
    x = np.asarray(pos + neg, dtype=np.float64)
    order = np.argsort(x, kind="stable")
    ranks = np.empty(len(x))
    ranks[order] = np.arange(1, len(x) + 1)
    _, inv, counts = np.unique(x, return_inverse=True, return_counts=True)
    ranks = (np.bincount(inv, weights=ranks) / counts)[inv]  # tied scores share their mean rank
    return float((ranks[:len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def report(rows, probs) -> dict:
    """AUC, and precision / recall of "answers" at a few thresholds."""
    pos = [p for p, r in zip(probs, rows) if r[2] == 0]
    neg = [p for p, r in zip(probs, rows) if r[2] == 1]
    return {"n_pos": len(pos), "n_neg": len(neg), "auc": round(_auc(pos, neg), 4),
            "at": {str(t): at(pos, neg, t) for t in (0.3, 0.5, 0.7, 0.8, 0.9, 0.95)}}


def train(args) -> Path:
    import torch

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    work = Path(args.work_dir)
    work.mkdir(parents=True, exist_ok=True)
    final = work / "final"
    if (final / "model.safetensors").exists():
        log(f"training already finished: {final}")
        return final
    tok = make_tokenizer(args.max_len, TOKENIZER)
    model = load_model(args)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    state = {"epoch": 0, "global_step": 0, "history": []}
    ckpt = work / "checkpoint.pt"
    if ckpt.exists():
        blob = torch.load(ckpt, map_location="cpu", weights_only=False)
        model.load_state_dict(blob["model"])
        opt.load_state_dict(blob["opt"])
        state = blob["state"]
        log(f"resumed after epoch {state['epoch']}")
    val_l = locomo_rows(VAL_CONVS, 99, args.hard, args.easy)
    val_p = persona_rows("dev", 99, args.hard, args.easy, part="val")
    per_epoch = len(training_rows(args, 0))
    total = -(-per_epoch // args.batch_size) * args.epochs
    log(f"{per_epoch} training pairs per epoch, {total} steps; validation "
        f"{len(val_l)} LoCoMo, {len(val_p)} persona pairs")
    model.train()
    while state["epoch"] < args.epochs:
        ep = state["epoch"]
        rows = training_rows(args, ep)
        enc = encode(tok, [(a, b) for a, b, _ in rows])
        labels = torch.tensor([r[2] for r in rows])
        order = batches_for_epoch(len(rows), [len(e[0]) for e in enc], args.batch_size,
                                  args.seed * 7919 + ep)
        t0, run = time.time(), 0.0
        for bi, ids in enumerate(order):
            for g in opt.param_groups:
                g["lr"] = lr_at(state["global_step"], total, args)
            inp, att, typ = collate(enc, ids, torch)
            out = model(input_ids=inp, attention_mask=att, token_type_ids=typ, labels=labels[ids])
            out.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad(set_to_none=True)
            state["global_step"] += 1
            run += out.loss.item()
            if state["global_step"] % args.log_every == 0:
                log(f"step {state['global_step']}/{total} loss {run / args.log_every:.4f} "
                    f"{(time.time() - t0) / (bi + 1):.2f}s/step")
                run = 0.0
        h = {"epoch": ep, "global_step": state["global_step"],
             "locomo_val": report(val_l, scores_torch(model, tok, val_l, torch)),
             "persona_dev": report(val_p, scores_torch(model, tok, val_p, torch))}
        log(f"end of epoch {ep}: LoCoMo val AUC {h['locomo_val']['auc']}, "
            f"persona dev AUC {h['persona_dev']['auc']}")
        state["history"].append(h)
        state["epoch"] += 1
        save_ckpt(ckpt, model, opt, state, torch)
    tmp = work / "final.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(tmp, safe_serialization=True)
    facts = {"train": ("generated pairs (eval/answerability/pairs.py, train families)"
                       + (f", the development personas p1-p8"
                          + (" and the personas written for training (eval/data/answerability_train)"
                             if args.train_sessions else "")
                          + f" ({args.persona_repeats} draws of negatives per epoch)"
                          if args.data == "generated+personas" else "")
                       if args.data != "locomo" else
                       f"LoCoMo conversations {TRAIN_CONVS.start + 1}-{TRAIN_CONVS.stop} (categories 1-4)"),
             "data": args.data, "generated_pairs_per_epoch": args.pairs, "pairs_per_epoch": per_epoch, "hard_negatives": args.hard, "random_negatives": args.easy,
             "epochs": args.epochs, "steps": state["global_step"], "batch_size": args.batch_size,
             "lr": args.lr, "warmup": args.warmup, "max_len": args.max_len, "seed": args.seed,
             "init_from_onnx": f"{args.init_from_onnx} (sha256 {sha256(Path(args.init_from_onnx))})",
             "history": state["history"]}
    (tmp / "training.json").write_text(json.dumps(facts, indent=2))
    shutil.rmtree(final, ignore_errors=True)
    tmp.replace(final)
    log(f"saved {final}")
    return final


def export(final: Path, args) -> None:
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModelForSequenceClassification

    work, out = Path(args.work_dir), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    model = AutoModelForSequenceClassification.from_pretrained(str(final)).eval()
    model.config.return_dict = False

    class Wrap(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.m(input_ids=input_ids, attention_mask=attention_mask,
                          token_type_ids=token_type_ids)[0]

    tok = make_tokenizer(args.max_len, TOKENIZER)
    inp, att, typ = collate(encode(tok, [("where do you live?", "in Boston"), ("x", "y")]), [0, 1], torch)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    fp32, int8 = work / "model-fp32.onnx", work / "model-int8.onnx"
    torch.onnx.export(Wrap(model), (inp, att, typ), str(fp32), dynamo=False, opset_version=17,
                      input_names=names, output_names=["logits"],
                      dynamic_axes={n: {0: "batch", 1: "sequence"} for n in names} | {"logits": {0: "batch"}})
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True)
    shutil.copyfile(int8, out / "model.onnx")
    training = json.loads((final / "training.json").read_text())
    cfg_path = out / "config.json"
    old = json.loads(cfg_path.read_text()) if cfg_path.exists() else {}
    cfg = {"format": "midas-answers-onnx/1", "labels": list(LABELS), "max_length": args.max_len,
           "tokenizer": "../tokenizer.json", "inputs": names, "output": "logits",
           "model_sha256": sha256(out / "model.onnx"), "threshold": old.get("threshold"),
           "base_model": "the bundled NLI student (data/nli/), itself from "
                         "sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0)",
           "quantization": {"method": "onnxruntime quantize_dynamic", "weight_type": "QInt8",
                            "per_channel": True},
           "training": training, "metrics": old.get("metrics")}
    cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")
    log(f"wrote {out / 'model.onnx'} ({(out / 'model.onnx').stat().st_size / 1e6:.1f} MB)")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description="Train, export and quantise the answerability model.")
    ap.add_argument("--work-dir", default=str(DEFAULT_WORK))
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--init-from-onnx", default=str(PKG_DIR / "data" / "nli" / "model.onnx"))
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--hard", type=int, default=4, help="BM25 negatives per question")
    ap.add_argument("--easy", type=int, default=2, help="random negatives per question")
    ap.add_argument("--data", choices=["generated+personas", "generated", "locomo"], default="generated+personas",
                    help="generated pairs (shipped), or LoCoMo's (CC BY-NC: research only, never shipped)")
    ap.add_argument("--pairs", type=int, default=4000, help="generated pairs per epoch")
    ap.add_argument("--persona-repeats", type=int, default=4,
                    help="draws of negatives per epoch for the development personas p1-p8")
    ap.add_argument("--train-sessions", action=argparse.BooleanOptionalAction, default=True,
                    help="also the personas written for training, eval/data/answerability_train/*.jsonl")
    ap.add_argument("--voices", action=argparse.BooleanOptionalAction, default=True,
                    help="retell LoCoMo's questions in the user's voice and of relatives (default on)")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--warmup", type=float, default=0.06)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--log-every", type=int, default=50)
    ap.add_argument("--export-only", action="store_true")
    args = ap.parse_args(argv)
    final = Path(args.work_dir) / "final"
    if not args.export_only:
        final = train(args)
    export(final, args)


if __name__ == "__main__":
    sys.exit(main())
