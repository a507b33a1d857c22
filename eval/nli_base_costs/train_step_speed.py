"""(issue 19 cost figures, as run from the repo root in .venv-train; needs work-train/mpnet/ from train_nli --base mpnet.) Seconds per training step (batch 32, 2 threads) of MiniLM-L6 and MPNet-base, same conditions."""
import json, os, random, statistics, time
from pathlib import Path
import torch
from midas_graph.models import train_nli as t
from midas_graph.models.revision_pairs import generate
torch.set_num_threads(2)
rows = [(p.premise, p.hypothesis, p.label) for p in generate(32 * 6, split="train", seed=3)]
res = {}
for name in ("minilm", "mpnet", "minilm"):
    d = t.mpnet_dir(Path("work-train/nli-w")) if name == "mpnet" else t.base_dir_for(type("A", (), {"base": "minilm", "work_dir": "work-train/nli-w"})())
    m = t.load_classifier(d).train()
    tok = t.make_tokenizer(128, d / "tokenizer.json" if (d / "tokenizer.json").exists() else t.TOKENIZER)
    enc = t.encode(tok, [(a, b) for a, b, _ in rows]); y = torch.tensor([r[2] for r in rows])
    opt = torch.optim.AdamW(m.parameters(), lr=1e-5)
    ts = []
    for i in range(6):
        ids = list(range(i * 32, i * 32 + 32))
        inp, att, typ = t.collate(enc, ids, torch)
        s = time.perf_counter()
        out = m(**t.model_inputs(m, inp, att, typ), labels=y[ids]); out.loss.backward(); opt.step(); opt.zero_grad()
        ts.append(time.perf_counter() - s)
    res.setdefault(name, []).append(statistics.median(ts[1:]))
out = {k: round(statistics.median(v), 2) for k, v in res.items()}
out["ratio"] = round(out["mpnet"] / out["minilm"], 2); out["loadavg"] = round(os.getloadavg()[0], 1)
print(json.dumps(out))
