#!/usr/bin/env python3
"""Runs Trafilatura over a folder of pages for the extraction benchmark's comparison.

Usage: trafilatura_run.py PAGES.json OUT.json [--favor-precision]
PAGES.json maps page ids to HTML; OUT.json gets {"version", "output"} (the shape the
benchmark's evaluate.py reads) and OUT.json.timing gets the extraction time in seconds, wall and CPU (this process).
"""
import json
import sys
import time

import trafilatura

pages_path, out_path = sys.argv[1], sys.argv[2]
favor_precision = '--favor-precision' in sys.argv[3:]
with open(pages_path, encoding='utf8') as f:
    pages = json.load(f)
output = {}
started = time.perf_counter()
cpu_started = time.process_time()
for key, html in pages.items():
    text = trafilatura.extract(html, favor_precision=favor_precision, include_comments=False)
    output[key] = {'articleBody': text or ''}
seconds = time.perf_counter() - started
cpu_seconds = time.process_time() - cpu_started
with open(out_path, 'w', encoding='utf8') as f:
    json.dump({'version': trafilatura.__version__, 'output': output}, f, ensure_ascii=False)
with open(out_path + '.timing', 'w', encoding='utf8') as f:
    json.dump({'seconds': seconds, 'cpu_seconds': cpu_seconds, 'pages': len(pages)}, f)
