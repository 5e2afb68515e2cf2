#!/usr/bin/env python3
"""Writes synthetic NV12 frames, pattern_WxH.nv12 (a W x H plane of Y, then
a ceil(W/2) x ceil(H/2) plane of interleaved U, V), for the GPU tests,
including sizes that are not multiples of the GPU block or even."""

def frame(width, height):
    cw, ch = (width + 1) // 2, (height + 1) // 2
    luma = bytes((x * 3 + y * 2 + (x * y) // 7) % 220 + 16
                 for y in range(height) for x in range(width))
    chroma = bytes(value for y in range(ch) for x in range(cw)
                   for value in ((x * 5 + 60) % 200 + 28, (y * 7 + 90) % 200 + 28))
    with open(f"pattern_{width}x{height}.nv12", "wb") as f:
        f.write(luma + chroma)


for w, h in [(1, 1), (7, 3), (641, 479)]:
    frame(w, h)
