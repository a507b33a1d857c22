"""(issue 19 cost figures, as run from the repo root in .venv-train; needs work-train/mpnet/ from train_nli --base mpnet.) Size and speed of an MPNet-base cross-encoder exported like the shipped model (weights untrained)."""
import sys, time, json
from pathlib import Path
import numpy as np, torch
from midas_graph.models import train_nli as t
torch.set_num_threads(2)
work = Path("work-train/mpnet-bench"); work.mkdir(parents=True, exist_ok=True)
class A: base = "mpnet"; work_dir = "work-train/nli-w"
d = t.mpnet_dir(Path(A.work_dir))
m = t.load_classifier(d).eval(); m.config.return_dict = False
tok = t.make_tokenizer(128, d / "tokenizer.json")
inp, att, typ = t.collate(t.encode(tok, [("A man is here.", "Someone is here."), ("x", "y")]), [0, 1], torch)
class W(torch.nn.Module):
    def __init__(s, m): super().__init__(); s.m = m
    def forward(s, input_ids, attention_mask): return s.m(input_ids=input_ids, attention_mask=attention_mask)[0]
fp32 = work / "fp32.onnx"; int8 = work / "int8.onnx"
torch.onnx.export(W(m), (inp, att), str(fp32), dynamo=False, opset_version=17,
                  input_names=["input_ids", "attention_mask"], output_names=["logits"],
                  dynamic_axes={"input_ids": {0: "b", 1: "s"}, "attention_mask": {0: "b", 1: "s"}, "logits": {0: "b"}})
from onnxruntime.quantization import quantize_dynamic, QuantType
quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True)
print(json.dumps({"fp32_MB": round(fp32.stat().st_size / 1e6, 1), "int8_MB": round(int8.stat().st_size / 1e6, 1)}))
