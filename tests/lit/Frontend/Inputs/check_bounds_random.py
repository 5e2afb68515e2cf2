"""Randomised soundness test of arvr-check-bounds.

Writes many one-line kernels that read `src` without a boundary mode at a
random x coordinate (built from x, the image width, a byte read from
another image and small constants with + - * / % min max clamp abs select)
into an output of a random width, asks arvrc which
reads it cannot prove in range (`arvrc build --emit=arvr`), and checks every
read it accepts by brute force: for every image width from 1 to 40, every
x of the output and bytes from 0 to 255 (a sample of them, its ends
included), the coordinate must lie in [0, width). A read proved in
range that leaves the image is a soundness bug and fails the test; reads
that stay inside but are not proved are only counted (the proof is
deliberately incomplete).

    check_bounds_random.py ARVRC WORK_DIR [COUNT [SEED [DEPTH]]]
"""
import random
import re
import subprocess
import sys

MAX_WIDTH = 40
# The byte values a read built from one is checked at.
BYTES = [0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 32, 63, 64, 100, 127, 128, 200, 254,
         255]


def floordiv(a, b):
    return a // b  # Python's // is floored, like the language's '/'.


class Gen:
    def __init__(self, rng):
        self.rng = rng

    def leaf(self):
        r = self.rng.random()
        if r < 0.4:
            return ("x",)
        if r < 0.62:
            return ("w",)
        if r < 0.7:
            return ("p",)
        return ("k", self.rng.randint(-3, 3))

    def expr(self, depth):
        if depth == 0 or self.rng.random() < 0.3:
            return self.leaf()
        op = self.rng.choice(["+", "-", "*", "/", "%", "min", "max", "clamp",
                              "abs", "select"])
        if op in ("*", "/", "%"):
            k = self.rng.randint(-2, 3) if op == "*" else self.rng.randint(1, 4)
            return (op, self.expr(depth - 1), ("k", k))
        if op == "abs":
            return (op, self.expr(depth - 1))
        if op == "select":
            # select(x < k, a, b)
            return (op, ("k", self.rng.randint(0, 3)), self.expr(depth - 1),
                    self.expr(depth - 1))
        if op == "clamp":
            return (op, self.expr(depth - 1), self.expr(depth - 1),
                    self.expr(depth - 1))
        return (op, self.expr(depth - 1), self.expr(depth - 1))


def show(e):
    kind = e[0]
    if kind == "x":
        return "x"
    if kind == "w":
        return "src.width"
    if kind == "p":
        return "i32(lut(0, 0))"
    if kind == "k":
        return str(e[1]) if e[1] >= 0 else "(%d)" % e[1]
    if kind == "abs":
        return "abs(%s)" % show(e[1])
    if kind == "select":
        return "select(x < %d, %s, %s)" % (e[1][1], show(e[2]), show(e[3]))
    if kind in ("min", "max", "clamp"):
        return "%s(%s)" % (kind, ", ".join(show(a) for a in e[1:]))
    return "(%s %s %s)" % (show(e[1]), kind, show(e[2]))


def value(e, x, w, p):
    kind = e[0]
    if kind == "x":
        return x
    if kind == "w":
        return w
    if kind == "p":
        return p
    if kind == "k":
        return e[1]
    args = [value(a, x, w, p) for a in e[1:]]
    if kind == "abs":
        return abs(args[0])
    if kind == "select":
        return args[1] if x < args[0] else args[2]
    if kind == "%":
        return args[0] - floordiv(args[0], args[1]) * args[1]
    if kind == "+":
        return args[0] + args[1]
    if kind == "-":
        return args[0] - args[1]
    if kind == "*":
        return args[0] * args[1]
    if kind == "/":
        return floordiv(args[0], args[1])
    if kind == "min":
        return min(args)
    if kind == "max":
        return max(args)
    return min(max(args[0], args[1]), args[2])  # clamp


OUTPUT_WIDTHS = [
    ("src.width", lambda w: w),
    ("src.width - 1", lambda w: w - 1),
    ("src.width - 2", lambda w: w - 2),
    ("src.width / 2", lambda w: w // 2),
    ("src.width / 3", lambda w: w // 3),
    ("max(src.width - 3, 1)", lambda w: max(w - 3, 1)),
    ("2 * src.width", lambda w: 2 * w),
    ("src.width + 1", lambda w: w + 1),
]


def uses_byte(e):
    return e[0] == "p" or any(isinstance(a, tuple) and uses_byte(a)
                              for a in e[1:])


def leaves_image(read, out_width):
    """The first (width, x, value) whose read leaves the image, or None."""
    for p in BYTES if uses_byte(read) else [0]:
        for w in range(1, MAX_WIDTH + 1):
            for x in range(out_width(w)):
                v = value(read, x, w, p)
                if v < 0 or v >= w:
                    return (w, x, v)
    return None


def main():
    arvrc, work = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 400
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 2026)
    depth = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    gen = Gen(rng)
    kernels = []
    lines = []
    for i in range(count):
        read = gen.expr(depth)
        size_text, size = rng.choice(OUTPUT_WIDTHS)
        lines.append("kernel k%d(src: image<u8, 1>, lut: image<u8, 1> clamp) "
                     "-> image<u8, 1>[%s, src.height] {" % (i, size_text))
        lines.append("  func out(x, y) = src(%s, y);" % show(read))
        lines.append("}")
        kernels.append((len(lines) - 1, read, size, size_text))
    path = work + "/random.arvr"
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    result = subprocess.run([arvrc, "build", "--emit=arvr", path],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    refused = set()
    for m in re.finditer(r"random\.arvr:(\d+):\d+: error: (.*)",
                         result.stderr):
        if "may fall outside" not in m.group(2):
            print("unexpected error: " + m.group(0))
            return 1
        refused.add(int(m.group(1)))
    proved = unsound = inside_unproved = 0
    for line, read, size, size_text in kernels:
        bad = leaves_image(read, size)
        if line in refused:
            if bad is None:
                inside_unproved += 1
            continue
        proved += 1
        if bad is not None:
            unsound += 1
            w, x, v = bad
            print("UNSOUND: line %d: src(%s) in an output [%s]: width %d, "
                  "x %d reads %d" % (line, show(read), size_text, w, x, v))
    print("%d reads: %d proved in range, %d refused (%d of them in range "
          "for widths 1 to %d but not proved), %d proved but leaving the "
          "image" % (count, proved, len(refused), inside_unproved, MAX_WIDTH,
                     unsound))
    return 1 if unsound or proved == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
