"""Binary PGM (P5, 8-bit) files for the tests' Python references."""


def write_pgm(path, width, height, at):
    """Writes a width x height image whose pixel (x, y) is at(x, y)."""
    with open(path, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (width, height))
        f.write(bytes(at(x, y) for y in range(height) for x in range(width)))


def read_pgm(path):
    """(width, height, pixels as bytes, row after row). The header's four
    fields are each followed by one whitespace byte; the pixels may begin
    with bytes that look like whitespace."""
    with open(path, "rb") as f:
        data = f.read()
    fields, at = [], 0
    while len(fields) < 4:
        while data[at:at + 1].isspace():
            at += 1
        start = at
        while not data[at:at + 1].isspace():
            at += 1
        fields.append(data[start:at])
        at += 1
    assert fields[0] == b"P5" and fields[3] == b"255", path
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[at:at + width * height]
