#!/usr/bin/env python3
"""Writes the synthetic RGB test images odd-WxH.png (sizes that are not
multiples of the GPU block), with a deterministic pattern, using only the
standard library (zlib PNG encoding)."""
import struct
import zlib


def png(path, width, height, pixel):
    rows = b"".join(
        b"\x00" + bytes(v for x in range(width) for v in pixel(x, y))
        for y in range(height))

    def chunk(kind, data):
        body = kind + data
        return (struct.pack(">I", len(data)) + body +
                struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
                chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def pattern(x, y):
    return ((x * 7 + y * 3) % 256, (x * y) % 256, (255 - x * 5 + y) % 256)


for w, h in [(1, 1), (7, 3), (641, 479)]:
    png(f"odd-{w}x{h}.png", w, h, pattern)
