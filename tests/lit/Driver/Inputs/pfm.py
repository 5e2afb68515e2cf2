"""PFM files for tests/lit/Driver/pfm.test, written and read here without
arvrc (and the PPM/PGM reader tests/lit/Driver/Inputs/check_three_outputs.py
uses).

    pfm.py make OUT.pfm W H C [big]   a test pattern: element (x, y, c) is
                                      (x + 10 y + 100 c) / 8 - 3 (exact in f32)
    pfm.py check-scaled IN.pfm OUT.pfm K   OUT == IN * K exactly
    pfm.py check-u8 IN.ppm OUT.pfm    OUT == IN / 255 within 1e-6
    pfm.py check-mean IN.pfm OUT.pfm  every element of OUT == the mean of IN
                                      (one channel), summed row by row in f32
"""
import struct
import sys


def write(path, width, height, channels, values, big=False):
    with open(path, "wb") as f:
        f.write(("PF" if channels == 3 else "Pf").encode() + b"\n")
        f.write(f"{width} {height}\n".encode())
        f.write(b"1.0\n" if big else b"-1.0\n")
        order = ">" if big else "<"
        for y in reversed(range(height)):
            row = values[y * width * channels:(y + 1) * width * channels]
            f.write(struct.pack(order + "f" * len(row), *row))


def header(data, count):
    """The first `count` white-space separated fields of a PNM/PFM header
    and the offset of the pixels (after one white space)."""
    fields, pos = [], 0
    while len(fields) < count:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    return fields, pos + 1


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = header(data, 4)
    channels = 3 if fields[0] == b"PF" else 1
    width, height, scale = int(fields[1]), int(fields[2]), float(fields[3])
    order = "<" if scale < 0 else ">"
    n = width * channels
    rows = []
    for y in range(height):
        start = pos + y * n * 4
        rows.append(struct.unpack(order + "f" * n, data[start:start + n * 4]))
    values = [v for row in reversed(rows) for v in row]
    return width, height, channels, values


def read_pnm(path):
    """Reads a binary PGM (P5) or PPM (P6): (width, height, channels, bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = header(data, 4)
    channels = {b"P5": 1, b"P6": 3}[fields[0]]
    width, height = int(fields[1]), int(fields[2])
    return width, height, channels, list(data[pos:pos + width * height * channels])


def main():
    command = sys.argv[1]
    if command == "make":
        path, w, h, c = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        values = [(x + 10 * y + 100 * ch) / 8 - 3
                  for y in range(h) for x in range(w) for ch in range(c)]
        write(path, w, h, c, values, big=len(sys.argv) > 6)
    elif command == "check-scaled":
        a, b, k = read(sys.argv[2]), read(sys.argv[3]), float(sys.argv[4])
        assert a[:3] == b[:3], f"sizes differ: {a[:3]} vs {b[:3]}"
        bad = [i for i, (x, y) in enumerate(zip(a[3], b[3])) if x * k != y]
        if bad:
            sys.exit(f"element {bad[0]}: {b[3][bad[0]]}, expected {a[3][bad[0]] * k}")
        print(f"{len(a[3])} values scaled by {k} exactly")
    elif command == "check-u8":
        a, b = read_pnm(sys.argv[2]), read(sys.argv[3])
        assert a[:3] == b[:3], f"sizes differ: {a[:3]} vs {b[:3]}"
        worst = max(abs(x / 255 - y) for x, y in zip(a[3], b[3]))
        if worst > 1e-6:
            sys.exit(f"largest difference {worst}")
        print(f"{len(a[3])} values are the bytes / 255")
    elif command == "check-mean":
        (w, h, c, v), out = read(sys.argv[2]), read(sys.argv[3])
        assert c == 1 and out[:3] == (w, h, 1), f"sizes: {(w, h, c)} vs {out[:3]}"

        def f32(x):
            return struct.unpack("<f", struct.pack("<f", x))[0]

        total = 0.0
        for y in range(h):
            row = 0.0
            for x in range(w):
                row = f32(row + v[y * w + x])
            total = f32(total + row)
        mean = f32(total / (w * h))
        bad = [i for i, x in enumerate(out[3]) if x != mean]
        if bad:
            sys.exit(f"element {bad[0]}: {out[3][bad[0]]}, expected {mean}")
        print(f"{len(out[3])} values are the mean, {mean}")


if __name__ == "__main__":
    main()
