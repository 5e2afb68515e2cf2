#!/usr/bin/env python3
"""16-bit images for the tests (no numpy, no OpenCV), and checks of what
arvrc read from them and wrote.

  png16.py make OUT.png          a 5x3 16-bit RGB PNG (values across 0..65535)
  png16.py make-ppm OUT.ppm      the same values as a 16-bit PPM (maximum
                                 value 65535, big-endian samples)
  png16.py check IN.png OUT.ppm  OUT.ppm (8-bit, P6) holds the high byte of
                                 each of the values
  png16.py check16 OUT.ppm K     OUT.ppm (16-bit, P6) holds u16_sat(K v) for
                                 each value v (rounding half to even)
  png16.py check-widened IN.ppm OUT.ppm
                                 OUT.ppm (16-bit) holds each 8-bit value of
                                 IN.ppm times 257
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


def make_ppm(path):
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n65535\n" % (WIDTH, HEIGHT))
        f.write(b"".join(struct.pack(">H", value(x, y, c)) for y in range(HEIGHT)
                         for x in range(WIDTH) for c in range(3)))


def read_ppm16(path):
    fields = open(path, "rb").read().split(maxsplit=4)
    assert fields[0] == b"P6" and int(fields[3]) == 65535, fields[:4]
    width, height, pixels = int(fields[1]), int(fields[2]), fields[4]
    return width, height, [struct.unpack(">H", pixels[i:i + 2])[0]
                           for i in range(0, 2 * width * height * 3, 2)]


def check16(ppm, k):
    width, height, got = read_ppm16(ppm)
    assert (width, height) == (WIDTH, HEIGHT)
    want = [min(65535, round(value(x, y, c) * k)) for y in range(HEIGHT)
            for x in range(WIDTH) for c in range(3)]
    if got != want:
        sys.exit(f"{ppm}: {got[:6]}..., expected {want[:6]}...")
    print(f"{len(want)} values: u16_sat({k} v)")


def check_widened(eight, sixteen):
    fields = open(eight, "rb").read().split(maxsplit=4)
    assert fields[0] == b"P6" and int(fields[3]) == 255
    width, height, got = read_ppm16(sixteen)
    want = [b * 257 for b in fields[4][:width * height * 3]]
    if got != want:
        sys.exit(f"{sixteen}: not {eight}'s values times 257")
    print(f"{len(want)} values: the bytes times 257")


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
    elif sys.argv[1] == "make-ppm":
        make_ppm(sys.argv[2])
    elif sys.argv[1] == "check16":
        check16(sys.argv[2], float(sys.argv[3]))
    elif sys.argv[1] == "check-widened":
        check_widened(sys.argv[2], sys.argv[3])
    else:
        check(sys.argv[3])
