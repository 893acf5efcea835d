#!/usr/bin/env python3
"""Scores extractor outputs with the article-extraction benchmark's own evaluate.py.

Usage: score.py BENCHMARK_DIR WORK_DIR
WORK_DIR holds ground-truth.json and output/*.json. Prints JSON: per extractor the benchmark's
metrics (evaluate.evaluate, the function its CLI uses) and per-page precision, recall and F1
(from its string_shingle_matching, precision_score and recall_score).
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, sys.argv[1])
import evaluate  # noqa: E402  (the benchmark's module)

work = Path(sys.argv[2])
truth = evaluate.load_json(work / 'ground-truth.json')
result = {}
for path in sorted((work / 'output').glob('*.json')):
    prediction, version = evaluate.load_prediction(path)
    metrics = evaluate.evaluate(truth, prediction, 200)
    per_page = {}
    for key, (tp, fp, fn) in zip(truth.keys(), metrics.pop('tp_fp_fns')):
        p = evaluate.precision_score(tp, fp, fn)
        r = evaluate.recall_score(tp, fp, fn)
        per_page[key] = {'precision': p, 'recall': r, 'f1': 2 * p * r / (p + r) if p + r > 0 else 0.0}
    result[path.stem] = {'version': version, 'metrics': metrics, 'per_page': per_page}
print(json.dumps(result))
