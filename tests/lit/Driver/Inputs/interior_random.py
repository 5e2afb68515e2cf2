"""Randomised test of the interior versions' proofs (arvr-cpu-interior on the
CPU, arvr-specialize-interior on the GPU: one analysis, Utils/Ranges.h).

Writes kernels whose outputs each read `src` under a clamp at a random x
(built from x, the width, a byte of a second image and small constants with
+ - * / % min max clamp abs select, as check_bounds_random.py does), runs
them with `arvrc run` on images of several widths (1 to 300: runs of columns
inside and at the edges, tables wider than a byte) and bytes, and checks
every pixel against the clamped read computed here. A clamp an interior
version dropped where it was needed reads the wrong pixel (or outside the
image) and fails the test.

    interior_random.py ARVRC WORK_DIR [KERNELS [READS [SEED [TARGET]]]]

TARGET is cpu (the default) or cuda (scripts/gpu-tests.sh: the GPU's
arvr-specialize-interior, over blocks and threads).
"""
import os
import random
import subprocess
import sys

# The reads' grammar, text and values: those of the check-bounds test.
here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, "..", "..", "Frontend", "Inputs")]
from check_bounds_random import Gen, show, value  # noqa: E402
from pgm import read_pgm, write_pgm  # noqa: E402

WIDTHS = [1, 70, 300]
BYTES = [0, 255]
HEIGHT = 2


def pixel(x, y):
    return (x * 7 + y * 13 + 5) % 256


def main():
    arvrc, work = sys.argv[1], sys.argv[2]
    kernels = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    reads = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 2026)
    target = sys.argv[6] if len(sys.argv) > 6 else "cpu"
    gen = Gen(rng)
    os.makedirs(work, exist_ok=True)
    for w in WIDTHS:
        write_pgm("%s/src%d.pgm" % (work, w), w, HEIGHT, pixel)
    for p in BYTES:
        write_pgm("%s/lut%d.pgm" % (work, p), 1, 1, lambda x, y: p)
    checked = failed = 0
    for k in range(kernels):
        exprs = [gen.expr(3) for _ in range(reads)]
        names = ["o%d" % i for i in range(reads)]
        lines = ["kernel k(src: image<u8, 1> clamp, lut: image<u8, 1> clamp) "
                 "-> (%s) {" % ", ".join(
                     "%s: image<u8, 1>[src.width, src.height]" % n
                     for n in names)]
        for n, e in zip(names, exprs):
            lines.append("  func %s(x, y) = src(%s, y);" % (n, show(e)))
        lines.append("}")
        path = "%s/k%d.arvr" % (work, k)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        for w in WIDTHS:
            for p in BYTES:
                outs = ["%s/k%d_%s.pgm" % (work, k, n) for n in names]
                cmd = [arvrc, "run", path, "--target", target, "--no-cache",
                       "-i", "%s/src%d.pgm" % (work, w),
                       "%s/lut%d.pgm" % (work, p), "-o"] + outs
                result = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True)
                if result.returncode != 0:
                    print("FAIL: %s: %s" % (" ".join(cmd), result.stderr))
                    return 1
                for out, e in zip(outs, exprs):
                    ow, oh, data = read_pgm(out)
                    assert (ow, oh) == (w, HEIGHT), out
                    for y in range(HEIGHT):
                        for x in range(w):
                            v = min(max(value(e, x, w, p), 0), w - 1)
                            checked += 1
                            if data[y * w + x] != pixel(v, y):
                                failed += 1
                                if failed <= 10:
                                    print("WRONG: src(%s, y) at width %d, "
                                          "byte %d, (%d, %d): %d, not %d"
                                          % (show(e), w, p, x, y,
                                             data[y * w + x], pixel(v, y)))
    print("%d kernels of %d clamped reads, %d pixels: %d wrong"
          % (kernels, reads, checked, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
