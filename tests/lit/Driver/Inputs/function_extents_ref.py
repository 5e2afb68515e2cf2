"""The float64 reference of kernel `chain` of function-extents.arvr, in
plain Python (no numpy): writes a small PGM test image, or checks the
kernel's two PGM outputs against the reference.

  function_extents_ref.py make IMAGE.pgm
  function_extents_ref.py check IMAGE.pgm LEVEL.pgm EDGE.pgm
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgm import read_pgm as read_pgm_bytes, write_pgm  # noqa: E402

W, H = 13, 9


def read_pgm(path):
    w, h, pixels = read_pgm_bytes(path)
    return w, h, [list(pixels[y * w:(y + 1) * w]) for y in range(h)]


def mirror(i, n):
    # Reflect-101: dcb|abcd|cba, periodic far outside.
    if n == 1:
        return 0
    period = 2 * n - 2
    i %= period
    return period - i if i >= n else i


def u8_sat(v):
    # Round half to even, clamp to 0..255.
    return min(255, max(0, round(v)))


def main():
    if sys.argv[1] == "make":
        write_pgm(sys.argv[2], W, H,
                  lambda x, y: (x * 37 + y * 101 + x * y * 13) % 256)
        return
    w, h, src = read_pgm(sys.argv[2])
    hw, hh = (w + 1) // 2, (h + 1) // 2

    def g(x, y):
        return src[mirror(y, h)][mirror(x, w)] * 3

    def half(x, y):
        x, y = mirror(x, hw), mirror(y, hh)
        return sum(g(2 * x + i, 2 * y + j)
                   for i in (-1, 0, 1) for j in (-1, 0, 1))

    def ramp(x):
        return 40 * min(max(x, 0), 3)

    def trunc_div(a, b):
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b > 0) else -q

    level = [[u8_sat(half(x, y) / 27.0) for x in range(hw)] for y in range(hh)]
    edge = [[u8_sat(float(trunc_div(half(trunc_div(x, 2) - 1,
                                          trunc_div(y, 2) + 1), 27)
                          + ramp(x - 2)))
             for x in range(w)] for y in range(h)]
    bad = 0
    for name, want, path in (("level", level, sys.argv[3]),
                             ("edge", edge, sys.argv[4])):
        gw, gh, got = read_pgm(path)
        assert (gw, gh) == (len(want[0]), len(want)), (name, gw, gh)
        for y in range(gh):
            for x in range(gw):
                if got[y][x] != want[y][x]:
                    bad += 1
                    if bad <= 5:
                        print("%s(%d, %d): %d, expected %d"
                              % (name, x, y, got[y][x], want[y][x]))
    print("mismatches: %d" % bad)
    sys.exit(1 if bad else 0)


main()
