"""Reference embeddings for the parity check (bench/embeddingParity.ts): the same ONNX file run by
onnxruntime's Python package, tokenized by Hugging Face's own `tokenizers` library (the Rust
implementation), mean-pooled and normalised as sentence-transformers does for all-MiniLM-L6-v2.

    python3 bench/embedding/reference.py <model dir> < texts.json > vectors.json
"""
import json
import sys

import numpy as np
import onnxruntime
from tokenizers import Tokenizer

model_dir = sys.argv[1]
texts = json.load(sys.stdin)
tokenizer = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
tokenizer.no_padding()
tokenizer.enable_truncation(max_length=256)
session = onnxruntime.InferenceSession(f"{model_dir}/model.onnx", providers=["CPUExecutionProvider"])
vectors = []
for text in texts:
    encoding = tokenizer.encode(text)
    ids = np.array([encoding.ids], dtype=np.int64)
    mask = np.array([encoding.attention_mask], dtype=np.int64)
    hidden = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
    pooled = (hidden * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
    vectors.append((pooled / np.linalg.norm(pooled, axis=1, keepdims=True))[0].tolist())
json.dump({"onnxruntime": onnxruntime.__version__, "vectors": vectors}, sys.stdout)
