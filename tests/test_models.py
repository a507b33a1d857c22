"""The local models, run for real: embedder, NLI, spaCy, token counting.

Fixtures (``embedder``, ``nli``, ``spacy_nlp``) are session-scoped and live
in the ``# --- models fixtures ---`` block of conftest.py.
"""

from __future__ import annotations

import re

import json
import shutil
import threading
from pathlib import Path

import numpy as np
import pytest

from midas_graph._errors import MidasError
from midas_graph.models import (
    EMBEDDING_DIM,
    NLI,
    NLI_CONTRADICTION_THRESHOLD,
    NLI_LABELS,
    Embedder,
    ModelError,
    ModelMissingError,
    OnnxEmbedder,
    OnnxNLI,
    count_tokens,
    count_tokens_batch,
    load_spacy,
    truncate_tokens,
)
from midas_graph.models._common import NLI_DIR, TOKENIZER_PATH, package_dir
from midas_graph.models.revision_pairs import (
    CANONICAL_PAIRS,
    FAMILIES,
    GENERIC_FAMILIES,
    family_names,
    generate,
)

DATA = Path(__file__).parent / "data"


# ---------------------------------------------------------------- embeddings

def test_embedder_shape_dtype_and_unit_norm(embedder):
    v = embedder.embed(["I live in Berlin.", "", "Response time is now 250ms."])
    assert v.shape == (3, EMBEDDING_DIM) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert isinstance(embedder, Embedder)


def test_embedder_empty_input(embedder):
    v = embedder.embed([])
    assert v.shape == (0, EMBEDDING_DIM) and v.dtype == np.float32


def test_embedder_rejects_a_bare_string(embedder):
    with pytest.raises(TypeError):
        embedder.embed("one string")


def test_embedder_matches_the_fp32_reference():
    """The int8 model + our tokenizer + mean pooling agree with fp32 torch vectors."""
    ref = json.loads((DATA / "minilm_fp32_reference.json").read_text())
    from midas_graph.models import default_embedder

    v = default_embedder().embed(ref["sentences"])
    cos = (v * np.asarray(ref["vectors"], dtype=np.float32)).sum(axis=1)
    assert cos.min() > 0.998, cos


def test_embedder_batching_keeps_order_and_values(embedder):
    texts = [f"Note {i}: " + "word " * (i % 17) + "Berlin" for i in range(70)]
    batched = embedder.embed(texts)            # sorted by length, 3 batches
    single = np.vstack([embedder.embed([t]) for t in texts[:10]])
    assert np.allclose(batched[:10], single, atol=2e-3)
    assert np.allclose((batched[:10] * single).sum(1), 1.0, atol=1e-4)


def test_embedder_similarity_is_meaningful(embedder):
    a, b, c = embedder.embed(["I moved to Paris last year.", "I now live in Paris.",
                              "The quarterly revenue target was missed."])
    assert float(a @ b) > float(a @ c) + 0.3


def test_embedder_long_text_is_truncated_not_failing(embedder):
    v = embedder.embed(["memory " * 2000])
    assert v.shape == (1, EMBEDDING_DIM) and np.isfinite(v).all()


def test_embedder_thread_safe():
    emb = OnnxEmbedder()   # a fresh instance: lazy loading races between threads
    texts = [f"sentence number {i} about Lisbon" for i in range(40)]
    expected = emb.embed(texts)
    results, errors = [None] * 6, []

    def work(k):
        try:
            results[k] = emb.embed(texts)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for r in results:
        assert np.allclose(r, expected, atol=1e-6)


# ------------------------------------------------------------------- tokens

def test_count_tokens():
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2
    assert count_tokens("Hello, World!") == 4           # uncased; punctuation splits
    long = "memory " * 500
    assert count_tokens(long) == 500                     # no 128-token truncation
    assert count_tokens_batch(["hello world", "", long]) == [2, 0, 500]


def test_truncate_tokens():
    text = "The deadline for Project Apollo slipped to June 1."
    assert truncate_tokens(text, 100) == text
    cut = truncate_tokens(text, 4)
    assert text.startswith(cut) and count_tokens(cut) == 4
    cut2 = truncate_tokens(text, 5, ellipsis="...")
    assert cut2.endswith("...") and count_tokens(cut2) <= 5
    assert truncate_tokens(text, 0) == ""


def test_one_tokenizer_ships_in_the_package():
    cfg = json.loads(TOKENIZER_PATH.read_text())
    assert cfg["model"]["type"] == "WordPiece"
    assert cfg["normalizer"]["lowercase"] is True
    assert len(cfg["model"]["vocab"]) == 30522


# ---------------------------------------------------------------------- NLI

def test_nli_scores_are_probabilities_in_fixed_order(nli):
    s = nli.scores([("I live in Berlin.", "I live in Berlin."),
                    ("A man is sleeping.", "A man is running a marathon."),
                    ("I live in Berlin.", "I moved to Madrid.")])
    assert s.shape == (3, 3) and s.dtype == np.float32
    assert np.allclose(s.sum(axis=1), 1.0, atol=1e-5)
    assert NLI_LABELS == ("entailment", "neutral", "contradiction")
    assert s[0].argmax() == 0          # identical sentences: entailment
    assert s[2].argmax() == 2          # a new city: contradiction
    assert isinstance(nli, NLI)


def test_nli_empty_and_single(nli):
    assert nli.scores([]).shape == (0, 3)
    p = nli.contradiction("My main language is Python.", "I switched to Rust.")
    assert isinstance(p, float) and 0.0 <= p <= 1.0
    with pytest.raises(TypeError):
        nli.scores(("premise", "hypothesis"))


def test_nli_batching_matches_single_calls(nli):
    """Rows come back in input order and agree with one-at-a-time calls.

    Not to the last digit: dynamic int8 quantisation scales activations per
    batch tensor, so a pair's probabilities move a little with its batch
    (a known limitation, docs/models.md).
    """
    pairs = [(p.premise, p.hypothesis) for p in generate(40, split="heldout", seed=5)]
    batched = nli.scores(pairs)
    single = np.vstack([nli.scores([pr]) for pr in pairs])
    assert (batched.argmax(1) == single.argmax(1)).mean() >= 0.9
    assert np.abs(batched - single).mean() < 0.05
    shuffled = nli.scores(pairs[::-1])[::-1]
    assert (shuffled.argmax(1) == batched.argmax(1)).mean() >= 0.9


@pytest.mark.parametrize("case,premise,hypothesis,expect", CANONICAL_PAIRS,
                         ids=[c[0] for c in CANONICAL_PAIRS])
def test_nli_canonical_pairs(nli, case, premise, hypothesis, expect):
    s = nli.scores([(premise, hypothesis)])[0]
    con = s[2] > nli.threshold
    if expect == "contradiction":
        assert con, (case, s)
    else:
        assert not con, (case, s)
        if expect in NLI_LABELS:
            assert NLI_LABELS[int(s.argmax())] == expect, (case, s)


def test_nli_threshold_constant_matches_the_shipped_model(nli):
    cfg = json.loads((NLI_DIR / "config.json").read_text())
    assert cfg["contradiction_threshold"] == pytest.approx(NLI_CONTRADICTION_THRESHOLD)
    assert nli.threshold == pytest.approx(NLI_CONTRADICTION_THRESHOLD)
    assert 0.5 <= NLI_CONTRADICTION_THRESHOLD < 1.0


def test_shipped_model_files():
    import hashlib

    cfg = json.loads((NLI_DIR / "config.json").read_text())
    model = NLI_DIR / "model.onnx"
    assert hashlib.sha256(model.read_bytes()).hexdigest() == cfg["model_sha256"]
    total = sum(f.stat().st_size for f in NLI_DIR.parent.rglob("*") if f.is_file())
    assert total < 40e6, total
    assert (NLI_DIR / "MODEL_CARD.md").is_file() and (NLI_DIR / "NOTICE").is_file()
    assert "Apache" in (NLI_DIR / "NOTICE").read_text()


def _held_out_sample(nli):
    pairs = generate(300, split="heldout", seed=123)
    s = nli.scores([(p.premise, p.hypothesis) for p in pairs])
    y = np.array([p.label for p in pairs])
    pred = s[:, 2] > nli.threshold
    tp = int((pred & (y == 2)).sum())
    return tp / max(1, int(pred.sum())), tp / max(1, int((y == 2).sum()))


def test_nli_held_out_sample_precision(nli):
    """A quick held-out check of what matters most (eval/nli_eval.py measures
    the full targets): a contradiction it finds in an unseen family is real."""
    precision, recall = _held_out_sample(nli)
    assert precision >= 0.9 and recall >= 0.3, (precision, recall)


@pytest.mark.xfail(strict=True, reason=(
    "issue 3 target missed by the shipped model (14,000 steps): held-out contradiction "
    "recall is ~0.57 at the 0.92 threshold; see eval/results/nli_eval.json. "
    "strict: this starts failing (XPASS) once a better model ships; then drop the mark."))
def test_nli_held_out_sample_recall(nli):
    precision, recall = _held_out_sample(nli)
    assert precision >= 0.9 and recall >= 0.8, (precision, recall)


@pytest.mark.parametrize("premise, hypothesis", [
    ("My son is Max.", "My younger son is Leo."),
    ("My sister is Ana.", "My older sister is Eva."),
    ("I have a dog called Rex.", "My other dog Luna is visiting."),
])
def test_nli_a_qualified_relative_is_another_one_not_a_new_value(nli, premise, hypothesis):
    """Revision case mv-010: "my younger son" is a second son, not a new value of "my son"
    (a model trained on the generic families without these pairs scored it 0.99)."""
    assert not nli.contradicts(premise, hypothesis), nli.scores([(premise, hypothesis)])


# ------------------------------------------------------ plugging in a model

def _user_model_dir(tmp_path: Path, config: dict | None) -> Path:
    d = tmp_path / "user-nli"
    d.mkdir()
    (d / "model.onnx").symlink_to(NLI_DIR / "model.onnx")
    shutil.copyfile(TOKENIZER_PATH, d / "tokenizer.json")
    if config is not None:
        (d / "config.json").write_text(json.dumps(config))
    return d


PAIRS = [("I live in Berlin.", "I moved to Madrid."), ("I work at Google.", "My employer is Google.")]


def test_onnx_nli_with_hf_id2label(tmp_path, nli):
    d = _user_model_dir(tmp_path, {"id2label": {"0": "ENTAILMENT", "1": "NEUTRAL",
                                                "2": "CONTRADICTION"}, "max_length": 128})
    user = OnnxNLI(d)
    assert np.allclose(user.scores(PAIRS), nli.scores(PAIRS), atol=1e-6)
    assert user.threshold == NLI_CONTRADICTION_THRESHOLD   # none in config: the default


def test_onnx_nli_reorders_columns_by_label_mapping(tmp_path, nli):
    # Pretend the model's outputs are (contradiction, entailment, neutral), as in
    # the sentence-transformers NLI cross-encoders: columns must be reordered.
    d = _user_model_dir(tmp_path, None)
    user = OnnxNLI(d, labels=["contradiction", "entailment", "neutral"], threshold=0.7)
    raw = nli.scores(PAIRS)                      # bundled: (e, n, c) = raw cols (0, 1, 2)
    got = user.scores(PAIRS)                     # user: e = col 1, n = col 2, c = col 0
    assert np.allclose(got, raw[:, [1, 2, 0]], atol=1e-6)
    assert user.threshold == 0.7


def test_memory_uses_the_nli_models_own_threshold(tmp_path):
    """A user's model comes with the threshold chosen for it (its config's
    ``contradiction_threshold``); ``Memory(nli_threshold=)`` overrides it."""
    from midas_graph import Memory

    d = _user_model_dir(tmp_path, {"id2label": {"0": "entailment", "1": "neutral",
                                                "2": "contradiction"},
                                   "contradiction_threshold": 0.97})
    user = OnnxNLI(d)
    with Memory(nli=user) as mem:
        assert mem.nli_threshold == 0.97
    with Memory(nli=user, nli_threshold=0.6) as mem:
        assert mem.nli_threshold == 0.6
    with Memory() as mem:
        assert mem.nli_threshold == NLI_CONTRADICTION_THRESHOLD


def test_onnx_nli_errors(tmp_path):
    with pytest.raises(ModelMissingError):
        OnnxNLI(tmp_path / "nowhere")
    d = _user_model_dir(tmp_path, None)
    with pytest.raises(ModelError, match="label"):
        OnnxNLI(d)                                # no label mapping anywhere
    with pytest.raises(ModelError):
        OnnxNLI(d, labels=["yes", "no", "maybe"])
    assert issubclass(ModelMissingError, MidasError) and issubclass(ModelError, MidasError)


def test_missing_model_package_names_the_pip_command():
    with pytest.raises(ModelMissingError, match="pip install no-such-model==1.0"):
        package_dir("no_such_model_pkg_xyz", "no-such-model==1.0", "The test model")
    with pytest.raises(ModelMissingError, match="pip install"):
        load_spacy("en_core_web_no_such_pipeline")


# -------------------------------------------------------------------- spaCy

def test_spacy_pipeline(spacy_nlp):
    assert load_spacy() is spacy_nlp                       # one per process
    doc = spacy_nlp("My sister moved to Lisbon in May 2024 and joined Google.")
    ents = {(e.text, e.label_) for e in doc.ents}
    assert ("Lisbon", "GPE") in ents and ("May 2024", "DATE") in ents
    assert [c.text for c in doc.noun_chunks][:1] == ["My sister"]
    assert [t.lemma_ for t in doc if t.text == "moved"] == ["move"]


# ------------------------------------------------------ generated pairs

def test_pair_generator_is_deterministic_and_clean():
    a = generate(500, split="train", seed=3)
    assert a == generate(500, split="train", seed=3)
    assert a != generate(500, split="train", seed=4)
    for p in a + generate(500, split="heldout", seed=3):
        assert p.premise and p.hypothesis and p.label in (0, 1, 2)
        assert "{" not in p.premise + p.hypothesis and "}" not in p.premise + p.hypothesis


def test_held_out_families_never_reach_training():
    train, held = set(family_names("train")), set(family_names("heldout"))
    assert train and held and not train & held
    train_tpl = {t for f in FAMILIES + GENERIC_FAMILIES if f.split == "train"
                 for t in f.state + f.change + f.stop + f.add + f.related}
    held_tpl = {t for f in FAMILIES if f.split == "heldout"
                for t in f.state + f.change + f.stop + f.add + f.related}
    assert not train_tpl & held_tpl
    fams = {p.family.split("+")[0] for p in generate(2000, split="train", seed=0)}
    assert fams <= train
    assert any(f.startswith("generic:") for f in fams)
    # the generic attributes never name what a held-out family is about
    held_words = {"editor", "host", "hosted", "cloud", "meeting", "standup", "sync",
                  "engineers", "headcount", "university", "degree", "executive", "ceo",
                  "instrument", "contact", "reach", "fan", "team", "budget", "funding"}
    for f in GENERIC_FAMILIES:
        assert not set(f.name.split(":")[1].lower().replace("_", " ").split()) & held_words, f.name
    # nor do the verb-phrase families use the held-out families' verbs
    held_verbs = {"prefer", "prefers", "support", "supports", "cheer", "cheers", "root", "roots",
                  "fan", "allegiance", "study", "studies", "student", "enrolled", "transferred",
                  "degree", "attend", "attends", "play", "plays", "player", "code", "codes",
                  "swear", "swears", "ditched", "hosted", "deploy", "rehosted", "meets",
                  "rescheduled", "shifted", "strong", "funded", "slashed", "instead",
                  "exclusively", "completely", "succeeded", "appointed", "helm", *held_words}
    verb_families = [f for f in GENERIC_FAMILIES if f.name.startswith("verb:")]
    assert len(verb_families) >= 30
    for f in verb_families:
        words = {w for t in f.state + f.change + f.stop + f.related
                 for w in re.findall(r"[a-z]+", t.lower())}
        assert not words & held_verbs, (f.name, words & held_verbs)


def test_generated_pairs_cover_every_relation():
    pairs = generate(3000, split="train", seed=1)
    kinds = {p.kind for p in pairs}
    assert {"new_value", "cessation", "paraphrase", "addition", "related_compatible",
            "other_subject", "other_attribute"} <= kinds
    labels = [p.label for p in pairs]
    for lab in (0, 1, 2):
        assert labels.count(lab) > 300


# ------------------------------------------- issue 19: contrast pairs, eval sets

EVAL = Path(__file__).resolve().parent.parent / "eval"


def _eval_module(name: str):
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(f"_eval_{name}", EVAL / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def _train_skeletons() -> set[str]:
    """Every training template, rendered third person with X/Y slots, lower case."""
    out = set()
    for f in FAMILIES + GENERIC_FAMILIES:
        if f.split != "train":
            continue
        for t in f.state + f.change + f.stop + f.add + f.related:
            t = re.sub(r"\{([^{}|]*)\|([^{}|]*)\}", r"\2", t)
            t = re.sub(r"\{(S|P|O)\}", "x", t)
            t = re.sub(r"\{(V|OLD)\}", "y", t)
            for k, v in (("{BE}", "is"), ("{HAVE}", "has"), ("{DO}", "does"), ("{WAS}", "was")):
                t = t.replace(k, v)
            out.add(" ".join(t.lower().split()))
    return out


def test_contrast_pairs_are_deterministic_and_cover_every_kind():
    from midas_graph.models import contrast_pairs

    a = contrast_pairs.generate(3000, seed=2)
    assert a == contrast_pairs.generate(3000, seed=2)
    assert a != contrast_pairs.generate(3000, seed=3)
    kinds = {p.kind for p in a}
    assert {"negation", "negation_other_subject", "negation_paraphrase", "antonym",
            "antonym_other_subject", "synonym", "role_swap", "scene_other_subject",
            "scene_unrelated", "negation_other_value", "same_value_format"} <= kinds
    for lab in (0, 1, 2):
        assert sum(p.label == lab for p in a) > 300
    for p in a:
        assert "{" not in p.premise + p.hypothesis and p.premise != p.hypothesis
    # a negation and its statement contradict in either order; said of another
    # subject they are neutral
    neg = [p for p in a if p.kind == "negation"]
    assert any(" not " in p.premise or "n't" in p.premise or " never " in p.premise for p in neg)
    assert any(" not " in p.hypothesis or "n't" in p.hypothesis or " never " in p.hypothesis
               for p in neg)
    assert all(p.label == 1 for p in a if p.kind.endswith("other_subject"))


def test_public_template_set_is_held_out_from_training():
    """The public-template set (issue 19) shares no wording with what the model trains on."""
    from midas_graph.models import contrast_pairs

    pub = _eval_module("make_nli_public_set")
    train = _train_skeletons()
    for rel, (pats, _) in pub.REL.items():
        for clause in (c for pair in pats for c in pair):
            s = " ".join(clause.replace("[X]", "x").replace("[Y]", "y").lower().split())
            assert not any(s in t for t in train), (rel, clause)
    # nor does a contrast-pair frame say a public pattern ("was born in" is P19's)
    src = Path(contrast_pairs.__file__).read_text(encoding="utf-8").lower()
    for rel, (pats, _) in pub.REL.items():
        for clause in (c for pair in pats for c in pair):
            verb = clause.replace("[X]'s", "").replace("[X]", "").replace("[Y]", "").strip()
            assert verb.lower() not in src, (rel, clause)
    wordnet = {frozenset((a, b)) for a, b, _ in pub.ANTONYMS_WN}
    ours = {frozenset(p) for p in contrast_pairs.ANTONYMS}
    assert not wordnet & ours
    assert not {w for p in wordnet for w in p} & {w for p in ours for w in p}
    # the committed file is what the generator writes
    rows = pub.build()
    assert pub.OUT.read_text(encoding="utf-8") == _eval_module("jsonl_file").render(rows)
    kinds = {r["kind"] for r in rows}
    assert {"negation_in_premise", "negation_in_hypothesis", "antonym", "role_swap_antisymmetric",
            "role_swap_symmetric", "other_subject", "number_date_new_value",
            "number_date_same_value"} <= kinds


def test_supersession_cases_file_is_up_to_date():
    gen = _eval_module("make_supersession_cases")
    cases = gen.build()
    assert gen.OUT.read_text(encoding="utf-8") == _eval_module("jsonl_file").render(cases)
    cats = [c["category"] for c in cases]
    assert cats.count("multi_valued_addition") + cats.count("unrelated_same_subject") >= 200
    assert cats.count("contradiction_unregistered") >= 60
    assert len({c["id"] for c in cases}) == len(cases)


@pytest.mark.parametrize("name", ["make_supersession_dev2", "make_supersession_heldout"])
def test_the_other_supersession_sets_are_what_their_generators_write(name):
    """dev2 and the held-out set (issue 19) are data written by other hands:
    the committed files are exactly what their generators write."""
    gen = _eval_module(name)
    built = gen.build()
    rows = built[0] if isinstance(built, tuple) else built  # dev2's build() also returns its counts
    assert gen.OUT.read_text(encoding="utf-8") == _eval_module("jsonl_file").render(rows)
    assert len({r["id"] for r in rows}) == len(rows) > 400


def test_nli_both_orders_makes_contradiction_symmetric(nli):
    both = OnnxNLI(NLI_DIR, both_orders="mean")
    pairs = [("Tom does not have a car.", "Tom has a car."),
             ("I live in Berlin.", "I like pizza.")]
    s = both.scores(pairs)
    r = both.scores([(h, p) for p, h in pairs])
    assert s.shape == (2, 3) and np.allclose(s.sum(1), 1.0, atol=1e-5)
    assert np.allclose(s[:, 2], r[:, 2], atol=1e-5)
    one = nli.scores(pairs + [(h, p) for p, h in pairs])
    assert np.allclose(s[:, 2], (one[:2, 2] + one[2:, 2]) / 2, atol=0.02)
    with pytest.raises(ModelError):
        OnnxNLI(NLI_DIR, both_orders="sideways")
