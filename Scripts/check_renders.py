"""Independent check of `arvis render` output: every SVG parses as XML with a viewBox, every PNG has
valid chunks and CRCs, inflates with Python's zlib to exactly the expected scanlines, and every
scanline uses a legal filter type.

Usage: python3 Scripts/check_renders.py ARVIS_BINARY SPEC...
Prints one line per spec and format and ends with `N passed, N failed`.
"""
import os
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checking import Checks  # noqa: E402


def check_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "bad signature"
    position, idat, header = 8, b"", None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        (crc,) = struct.unpack(">I", data[position + 8 + length:position + 12 + length])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, f"bad CRC in {kind!r}"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    width, height, depth, colour = header[:4]
    channels = {2: 3, 6: 4}[colour]
    assert depth == 8
    rows = zlib.decompress(idat)
    stride = 1 + width * channels
    assert len(rows) == height * stride, f"{len(rows)} bytes of scanlines, expected {height * stride}"
    assert all(rows[row * stride] <= 4 for row in range(height)), "illegal filter type"
    return width, height


def check_svg(path):
    root = ElementTree.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
    assert len(root.get("viewBox", "").split()) == 4


def check_file(path):
    """The problem with one rendered file, or None."""
    name = os.path.basename(path)
    try:
        if name.endswith(".png"):
            check_png(path)
        elif name.endswith(".svg"):
            check_svg(path)
        elif name == "index.html":
            assert open(path, encoding="utf-8").read().startswith("<!DOCTYPE html>")
    except Exception as error:  # noqa: BLE001 - a file that does not parse fails its check
        return f"{name}: {type(error).__name__} {error}"
    return None


def main():
    check = Checks()
    binary, specs = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as folder:
        for index, spec in enumerate(specs):
            for fmt in ("svg", "png"):
                out = os.path.join(folder, f"{index}-{fmt}")
                result = subprocess.run([binary, "render", spec, "--format", fmt, "-o", out + "/"],
                                        capture_output=True, text=True)
                if not check(f"{spec} renders as {fmt}", result.returncode == 0, f"exit {result.returncode}: {result.stderr.strip()}"):
                    continue
                names = sorted(os.listdir(out))
                problems = [check_file(os.path.join(out, name)) for name in names]
                problems = [problem for problem in problems if problem]
                check(f"{spec} as {fmt}: {len(names)} files valid", not problems, "; ".join(problems))
    check.finish()


if __name__ == "__main__":
    main()
