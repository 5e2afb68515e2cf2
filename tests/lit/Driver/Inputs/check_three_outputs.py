"""Checks the outputs of three-outputs.arvr (run with gain=1) against a
float64 reference computed here from its `frame` output (which is then the
input image): `grey` is the luma rounded, `preview` the mean of each 2x2
block of luma, the last row and column repeated. Exits 1 with a message if
any value is more than 1 away, or fewer than 99% are exact."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pfm import read_pnm  # noqa: E402


def round_half_even_u8(v):
    return max(0, min(255, round(v)))


def main():
    frame, grey, preview = sys.argv[1:4]
    w, h, c, rgb = read_pnm(frame)
    assert c == 3
    luma = [[0.299 * rgb[(y * w + x) * 3] + 0.587 * rgb[(y * w + x) * 3 + 1] +
             0.114 * rgb[(y * w + x) * 3 + 2] for x in range(w)]
            for y in range(h)]
    at = lambda x, y: luma[min(y, h - 1)][min(x, w - 1)]
    checks = []
    gw, gh, gc, g = read_pnm(grey)
    if (gw, gh, gc) != (w, h, 1):
        sys.exit(f"grey is {gw}x{gh}x{gc}, expected {w}x{h}x1")
    for y in range(h):
        for x in range(w):
            checks.append(("grey", x, y, g[y * w + x],
                           round_half_even_u8(luma[y][x])))
    pw, ph, pc, p = read_pnm(preview)
    if (pw, ph, pc) != ((w + 1) // 2, (h + 1) // 2, 1):
        sys.exit(f"preview is {pw}x{ph}x{pc}, expected "
                 f"{(w + 1) // 2}x{(h + 1) // 2}x1")
    for y in range(ph):
        for x in range(pw):
            mean = 0.25 * (at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) +
                           at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1))
            checks.append(("preview", x, y, p[y * pw + x],
                           round_half_even_u8(mean)))
    worst = max(checks, key=lambda t: abs(t[3] - t[4]))
    exact = sum(t[3] == t[4] for t in checks) / len(checks)
    print(f"checked {len(checks)} values: max difference "
          f"{abs(worst[3] - worst[4])}, {100 * exact:.2f}% exact")
    if abs(worst[3] - worst[4]) > 1 or exact < 0.99:
        sys.exit(f"{worst[0]} at ({worst[1]}, {worst[2]}): {worst[3]}, "
                 f"expected {worst[4]}")


main()
