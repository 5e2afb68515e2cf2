#!/usr/bin/env python3
"""Writes every ```arvr block of a Markdown file to OUT_DIR/example-N.arvr,
so the language reference's examples are compiled by the tests.
Usage: extract_examples.py FILE.md OUT_DIR"""
import os
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
os.makedirs(sys.argv[2], exist_ok=True)
blocks = re.findall(r"^```arvr\n(.*?)^```", text, re.S | re.M)
if not blocks:
    sys.exit("no ```arvr examples in " + sys.argv[1])
for n, block in enumerate(blocks, 1):
    with open(os.path.join(sys.argv[2], f"example-{n}.arvr"), "w") as f:
        f.write(block)
print(f"{len(blocks)} examples")
