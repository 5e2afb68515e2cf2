#!/usr/bin/env python3
"""Checks that a JSON launch plan (docs/launch-plan.md) says what the text
manifest beside it (docs/manifest.md) says: the same arguments, values,
buffers, output sizes and launches, in the same order. Prints a summary
line, or the first difference and exits 1.

Usage: plan_matches_manifest.py PLAN.json MANIFEST"""
import json
import sys


def fail(message):
    print("mismatch: " + message)
    sys.exit(1)


plan = json.load(open(sys.argv[1]))
lines = [line.split() for line in open(sys.argv[2]).read().splitlines()]
if plan.get("format") != "arvrc-launch-plan" or plan.get("version") != 1:
    fail("format or version")
text = lambda v: str(v)  # noqa: E731 - operands: numbers or references

args, values, buffers, sizes, launches = [], [], [], [], []
for words in lines:
    kind = words[0]
    if kind == "kernel" and words[1] != plan["kernel"]:
        fail("kernel")
    elif kind in ("ptx", "cubin") and (plan["binary"]["kind"], plan["binary"]["file"]) != (kind, words[1]):
        fail("binary")
    elif kind == "index-bits" and int(words[1]) != plan["indexBits"]:
        fail("index bits")
    elif kind in ("param", "output"):
        args.append(words)
    elif kind == "value":
        values.append(words)
    elif kind == "buffer":
        buffers.append(words)
    elif kind == "output-size":
        sizes.append(words)
    elif kind == "launch":
        launches.append(words)
if (plan["batch"] == "grid-z") != (["batch", "grid-z"] in lines):
    fail("batch")

if len(args) != len(plan["arguments"]):
    fail("argument count")
for words, arg in zip(args, plan["arguments"]):
    role = "output" if words[0] == "output" else "input"
    expect = [arg["id"], arg["name"], arg["kind"], arg["type"]]
    if arg["kind"] == "image":
        expect.append("?" if arg["channels"] is None else str(arg["channels"]))
    if role != arg["role"] or words[1:] != expect:
        fail("argument %s" % arg["id"])

if len(values) != len(plan["values"]):
    fail("value count")
for words, value in zip(values, plan["values"]):
    f32 = value.get("type") == "f32"
    expect = [value["id"], "f32" if f32 else str(value["bits"]), value["op"]]
    if "predicate" in value:
        expect.append(value["predicate"])
    if value["op"] == "const" and f32:
        # The manifest writes an f32 in decimal: the same number.
        if len(words) < 5 or float(words[4]) != value["value"]:
            fail("value %s: f32 %s" % (value["id"], value["value"]))
        expect.append(words[4])
    elif value["op"] == "const":
        expect.append(str(value["value"]))
    expect += [text(o) for o in value["operands"]]
    if value["op"] == "dim":
        expect.append(str(value["dim"]))
    if words[1:] != expect:
        fail("value %s: %s against %s" % (value["id"], words[1:], expect))

if len(buffers) != len(plan["buffers"]):
    fail("buffer count")
for words, buffer in zip(buffers, plan["buffers"]):
    if words[1:] != [buffer["id"], str(buffer["elementBytes"])] + [text(s) for s in buffer["size"]]:
        fail("buffer %s" % buffer["id"])

if [w[1:] for w in sizes] != [[s["output"]] + [text(v) for v in s["size"]] for s in plan["outputSizes"]]:
    fail("output sizes")

if len(launches) != len(plan["launches"]):
    fail("launch count")
for words, launch in zip(launches, plan["launches"]):
    expect = [launch["entry"], "grid"] + [text(v) for v in launch["grid"]]
    expect += ["block"] + [text(v) for v in launch["block"]]
    expect += ["shared", text(launch["sharedBytes"])]
    expect += (["reusable"] if launch.get("reusable") else []) + ["args"]
    expect += [text(a) for a in launch["args"]]
    if words[1:] != expect:
        fail("launch %s" % launch["entry"])

print("plan matches manifest: %d arguments, %d values, %d buffers, %d launches"
      % (len(args), len(values), len(buffers), len(launches)))
