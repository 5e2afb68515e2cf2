#!/usr/bin/env python3
"""Where a kernel's instructions go, from the per-instruction counts that
scripts/gpu-profile.sh writes (Nsight Compute's source page as CSV, SASS).

  scripts/sass-summary.py KERNEL-sass.csv PIXELS [SHARE]

Prints, per kernel in the file, the warp instructions executed per output
pixel, then each run of consecutive instructions executed equally often (a
basic block, or several) that holds at least SHARE of them (default 0.5%),
with its share and its most frequent opcodes.
"""
import collections
import csv
import sys


def kernels(path):
    """{kernel name: [row dict, ...]} from the CSV (one table per kernel)."""
    rows = list(csv.reader(open(path, newline="")))
    found, name, header = collections.OrderedDict(), None, None
    i = 0
    while i < len(rows):
        row = rows[i]
        if row and row[0] == "Kernel Name":
            name, header = row[1], rows[i + 1]
            i += 2
            continue
        if row and name:
            entry = dict(zip(header, row))
            entry["n"] = int((entry.get("Instructions Executed") or "0").replace(",", "") or 0)
            found.setdefault(name, []).append(entry)
        i += 1
    return found


def opcode(source):
    words = source.split()
    return (words[1] if words and words[0].startswith("@") and len(words) > 1
            else words[0] if words else "?")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    pixels = float(sys.argv[2])
    share = float(sys.argv[3]) if len(sys.argv) > 3 else 0.005
    for name, rows in kernels(sys.argv[1]).items():
        total = sum(r["n"] for r in rows)
        print(f"{name}: {len(rows)} SASS instructions, {total} warp instructions "
              f"executed, {total / pixels:.2f} per pixel")
        runs = []
        for r in rows:
            if runs and runs[-1][0] == r["n"]:
                runs[-1][1].append(r)
            else:
                runs.append((r["n"], [r]))
        for count, run in runs:
            if total and count * len(run) >= share * total:
                ops = collections.Counter(opcode(r["Source"]) for r in run)
                top = ", ".join(f"{op} {k}" for op, k in ops.most_common(6))
                print(f"  {run[0]['Address']:>18} {len(run):4} instructions x {count:8}"
                      f" = {count * len(run) / total:6.1%}  {top}")


if __name__ == "__main__":
    main()
