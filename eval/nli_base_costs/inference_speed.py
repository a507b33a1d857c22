"""Issue 19 cost figure: NLI ms/pair of the shipped MiniLM int8 against an MPNet-base int8 export
(work-train/mpnet-bench/nli: model.onnx from mpnet_export.py, MPNet tokenizer.json, config.json). Run
from the repo root in .venv."""
import time, json, statistics, sys
sys.path.insert(0, "eval")
from midas_graph.models import OnnxNLI, default_nli
from midas_graph.models.revision_pairs import generate
pairs = [(p.premise, p.hypothesis) for p in generate(320, split="heldout", seed=5)]
mini = default_nli().load(); mp = OnnxNLI("work-train/mpnet-bench/nli", threads=2).load()
mini.threads = 2
res = {}
for name, m in (("minilm_int8", mini), ("mpnet_int8", mp)):
    m.scores(pairs[:64])
for rep in range(3):
    for name, m in (("minilm_int8", mini), ("mpnet_int8", mp)):
        t = time.perf_counter(); m.scores(pairs); dt = time.perf_counter() - t
        res.setdefault(name, []).append(dt / len(pairs) * 1000)
out = {k: round(statistics.median(v), 2) for k, v in res.items()}
out["ratio"] = round(out["mpnet_int8"] / out["minilm_int8"], 2)
import os; out["loadavg"] = os.getloadavg()[0]
print(json.dumps(out))
