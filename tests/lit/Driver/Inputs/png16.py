#!/usr/bin/env python3
"""A 16-bit RGB PNG for the tests, and a check of what arvrc read from it.

  png16.py make OUT.png          a 5x3 16-bit RGB PNG (values across 0..65535)
  png16.py check IN.png OUT.ppm  OUT.ppm (8-bit, P6) holds the high byte of
                                 each of IN.png's values
"""
import struct
import sys
import zlib

WIDTH, HEIGHT = 5, 3


def value(x, y, c):
    return (x * 13007 + y * 4099 + c * 21011 + 255) % 65536


def make(path):
    rows = b"".join(
        b"\x00" + b"".join(struct.pack(">H", value(x, y, c))
                           for x in range(WIDTH) for c in range(3))
        for y in range(HEIGHT))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 16, 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
                chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def check(ppm):
    data = open(ppm, "rb").read()
    fields = data.split(maxsplit=4)
    assert fields[0] == b"P6" and int(fields[1]) == WIDTH and \
        int(fields[2]) == HEIGHT and int(fields[3]) == 255, fields[:4]
    pixels = fields[4]
    want = bytes(value(x, y, c) >> 8 for y in range(HEIGHT)
                 for x in range(WIDTH) for c in range(3))
    if pixels != want:
        sys.exit(f"{ppm}: not the high bytes of the 16-bit values")
    print(f"{len(want)} values: the high bytes")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        check(sys.argv[3])
