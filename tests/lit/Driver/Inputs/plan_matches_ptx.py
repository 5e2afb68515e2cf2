#!/usr/bin/env python3
"""Checks that each launch of a JSON launch plan (docs/launch-plan.md)
passes its PTX entry exactly the parameters the entry declares: the
launch's words (each image or buffer as a memref descriptor's 9, two
8-byte pointers then indexBits-wide fields; a scalar argument 4 bytes, an
i1 1; a value indexBits wide, an f32 value 4 bytes) against the entry's
`.param` list, in number and in width. Prints a summary line, or the
first difference and exits 1.

Usage: plan_matches_ptx.py PLAN.json PTX"""
import json
import re
import sys


def fail(message):
    print("mismatch: " + message)
    sys.exit(1)


plan = json.load(open(sys.argv[1]))
ptx = open(sys.argv[2]).read()
index = plan["indexBits"] // 8
arguments = {a["id"]: a for a in plan["arguments"]}
f32_values = {v["id"] for v in plan["values"] if v.get("type") == "f32"}
widths = {"u64": 8, "b64": 8, "s64": 8, "u32": 4, "b32": 4, "s32": 4,
          "f32": 4, "u16": 2, "b16": 2, "u8": 1, "b8": 1, "s8": 1}

entries = {}
for match in re.finditer(r"\.entry (\w+)\((.*?)\)", ptx, re.S):
    entries[match.group(1)] = [widths[t] for t in re.findall(r"\.param \.(\w+)", match.group(2))]

for launch in plan["launches"]:
    words = []
    for operand in launch["args"]:
        if operand.startswith("b") or (operand.startswith("a") and arguments[operand]["kind"] == "image"):
            words += [8, 8] + [index] * 7
        elif operand.startswith("a"):
            words.append(1 if arguments[operand]["type"] == "i1" else 4)
        else:
            words.append(4 if operand in f32_values else index)
    entry = entries.get(launch["entry"])
    if entry is None:
        fail("no entry %s in the PTX" % launch["entry"])
    if entry != words:
        fail("launch %s passes %s, its entry takes %s" % (launch["entry"], words, entry))

print("plan matches PTX: %d launches" % len(plan["launches"]))
