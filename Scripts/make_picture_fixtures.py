#!/usr/bin/env python3
"""Writes the picture fixtures of Tests/ARVisGraphicsTests/Pictures.

Each JPEG or PNG test picture comes with `<name>.expected.png`: its pixels as Pillow decodes them,
written as plain 8-bit RGBA. The Swift tests decode both and compare. Needs Pillow and pypng, and
djpeg (Debian's libjpeg-turbo-progs) for the damaged JPEGs.

    python3 Scripts/make_picture_fixtures.py Tests/ARVisGraphicsTests/Pictures
"""
import io
import math
import subprocess
import sys
from pathlib import Path

import png
from PIL import Image, ImageOps

WIDTH, HEIGHT = 37, 23


def pattern():
    """A test card: hue sweep, a grey ramp, hard edges and a diagonal, in sizes that are not
    multiples of 8 or 16 so partial blocks and MCUs are exercised."""
    image = Image.new("RGB", (WIDTH, HEIGHT))
    for y in range(HEIGHT):
        for x in range(WIDTH):
            if y < 8:
                angle = x / WIDTH * 2 * math.pi
                pixel = tuple(int(127.5 + 127.5 * math.cos(angle - k * 2.094)) for k in range(3))
            elif y < 14:
                grey = x * 255 // (WIDTH - 1)
                pixel = (grey, grey, grey)
            else:
                pixel = (230, 40, 40) if (x // 5 + y // 5) % 2 else (20, 60, 200)
                if abs(x - 2 * (y - 14)) < 2:
                    pixel = (250, 250, 250)
            image.putpixel((x, y), pixel)
    return image


def save_expected(folder, name, image):
    image.convert("RGBA").save(folder / f"{name}.expected.png")


def jpegs(folder):
    card = pattern()
    cases = {
        "baseline-420": dict(quality=90, subsampling=2),
        "baseline-422": dict(quality=90, subsampling=1),
        "baseline-444": dict(quality=95, subsampling=0),
        "progressive-420": dict(quality=90, subsampling=2, progressive=True),
        "progressive-444": dict(quality=92, subsampling=0, progressive=True),
        "restarts-420": dict(quality=85, subsampling=2, restart_marker_blocks=3),
        "optimized-420": dict(quality=75, subsampling=2, optimize=True),
    }
    for name, options in cases.items():
        path = folder / f"jpeg-{name}.jpg"
        card.save(path, "JPEG", **options)
        save_expected(folder, f"jpeg-{name}", Image.open(path))
    grey = card.convert("L")
    for name, options in {"grey": {}, "grey-progressive": dict(progressive=True)}.items():
        path = folder / f"jpeg-{name}.jpg"
        grey.save(path, "JPEG", quality=90, **options)
        save_expected(folder, f"jpeg-{name}", Image.open(path))
    cmyk = folder / "jpeg-cmyk.jpg"
    card.convert("CMYK").save(cmyk, "JPEG", quality=95)
    save_expected(folder, "jpeg-cmyk", Image.open(cmyk).convert("RGB"))
    # Orientation 6: stored turned a quarter left, shown upright.
    turned = folder / "jpeg-orientation6.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6
    card.transpose(Image.Transpose.ROTATE_90).save(turned, "JPEG", quality=95, subsampling=0, exif=exif.tobytes())
    save_expected(folder, "jpeg-orientation6", ImageOps.exif_transpose(Image.open(turned)))


def scan_data(data):
    """Where each scan's entropy-coded data starts: after its SOS segment."""
    starts, at = [], data.find(b"\xff\xda")
    while at >= 0:
        starts.append(at + 2 + int.from_bytes(data[at + 2:at + 4], "big"))
        at = data.find(b"\xff\xda", starts[-1])
    return starts


def save_as_libjpeg_decodes(folder, path):
    """The expected pixels of a damaged JPEG: libjpeg-turbo's own djpeg, which reads the end of the
    file as an end of image (Pillow gives no pixels at all for a cut progressive file)."""
    decoded = folder / f"{path.stem}.ppm"
    # djpeg ends with 2 when it warned (here, always: the data ends early).
    result = subprocess.run(["djpeg", "-outfile", str(decoded), str(path)], capture_output=True, text=True)
    if result.returncode not in (0, 2):
        sys.exit(f"djpeg could not decode {path.name}: {result.stderr}")
    save_expected(folder, path.stem, Image.open(decoded))
    decoded.unlink()


def damaged_jpegs(folder):
    """Photos whose data ends early, as libjpeg shows them: the block being read when the data ran
    out ends on zero bits, and every block after it, up to the next restart marker, is left as it
    is (grey). No progressive file is cut: libjpeg smooths the blocks of an unfinished progressive
    picture (jdcoefct.c, block smoothing), which ARVis does not."""
    # Cut in the middle of the scan.
    data = (folder / "jpeg-baseline-444.jpg").read_bytes()
    start = scan_data(data)[0]
    path = folder / "jpeg-baseline-444-cut.jpg"
    path.write_bytes(data[:(start + data.index(b"\xff\xd9", start)) // 2])
    save_as_libjpeg_decodes(folder, path)
    # The first restart interval loses the second half of its data: its restart marker comes early,
    # the rest of that interval is grey, and the interval after the marker decodes again.
    data = (folder / "jpeg-restarts-420.jpg").read_bytes()
    start = scan_data(data)[0]
    marker = data.index(b"\xff\xd0", start)
    path = folder / "jpeg-restarts-420-short-interval.jpg"
    path.write_bytes(data[:(start + marker) // 2] + data[marker:])
    save_as_libjpeg_decodes(folder, path)


def pngs(folder):
    card = pattern()
    rgba = [[0] * (WIDTH * 4) for _ in range(HEIGHT)]
    for y in range(HEIGHT):
        for x in range(WIDTH):
            r, g, b = card.getpixel((x, y))
            rgba[y][4 * x:4 * x + 4] = [r, g, b, (x * 7 + y * 11) % 256]

    def write(name, rows, expected, interlace=False, **info):
        path = folder / f"png-{name}{'-interlaced' if interlace else ''}.png"
        with open(path, "wb") as file:
            png.Writer(WIDTH, HEIGHT, interlace=interlace, **info).write(file, rows)
        save_expected(folder, path.stem, expected)

    def image(rows, mode):
        channels = {"L": 1, "LA": 2, "RGB": 3, "RGBA": 4}[mode]
        data = bytes(value for row in rows for value in row)
        return Image.frombytes(mode, (WIDTH, HEIGHT), data) if len(data) == WIDTH * HEIGHT * channels else None

    rgb_rows = [[v for x in range(WIDTH) for v in row[4 * x:4 * x + 3]] for row in rgba]
    grey_rows = [[(row[4 * x] * 3 + row[4 * x + 1] * 6 + row[4 * x + 2]) // 10 for x in range(WIDTH)] for row in rgba]
    for interlace in (False, True):
        write("rgba8", rgba, image(rgba, "RGBA"), interlace, greyscale=False, alpha=True, bitdepth=8)
        write("rgb8", rgb_rows, image(rgb_rows, "RGB"), interlace, greyscale=False, bitdepth=8)
        wide = [[v * 257 + (x % 3 if v < 250 else 0) for x, v in enumerate(row)] for row in rgba]
        write("rgba16", wide, image(rgba, "RGBA"), interlace, greyscale=False, alpha=True, bitdepth=16)
        grey_alpha = [[v for x in range(WIDTH) for v in (row[x], (x * 9) % 256)] for row in grey_rows]
        write("greyalpha8", grey_alpha, image(grey_alpha, "LA"), interlace, greyscale=True, alpha=True, bitdepth=8)
        for depth in (1, 2, 4, 8, 16):
            levels = (1 << depth) - 1
            rows = [[v * levels // 255 for v in row] for row in grey_rows]
            expected = [[v >> 8 if depth == 16 else v * 255 // levels for v in row] for row in rows]
            write(f"grey{depth}", rows, image(expected, "L"), interlace, greyscale=True, bitdepth=depth)
        for depth in (1, 2, 4, 8):
            count = 1 << depth
            palette = [((i * 97) % 256, (i * 57) % 256, (i * 181) % 256, 255 if i % 3 else 128) for i in range(count)]
            rows = [[(x + y) % count for x in range(WIDTH)] for y in range(HEIGHT)]
            expected = [[c for v in row for c in palette[v]] for row in rows]
            write(f"palette{depth}", rows, image(expected, "RGBA"), interlace, palette=palette, bitdepth=depth)
    # A grey key colour made transparent by tRNS.
    key_rows = [[(x * 16) % 256 for x in range(WIDTH)] for _ in range(HEIGHT)]
    expected = [[c for v in row for c in (v, v, v, 0 if v == 32 else 255)] for row in key_rows]
    write("grey8-key", key_rows, image(expected, "RGBA"), greyscale=True, bitdepth=8, transparent=32)


def main():
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "Tests/ARVisGraphicsTests/Pictures")
    folder.mkdir(parents=True, exist_ok=True)
    jpegs(folder)
    damaged_jpegs(folder)
    pngs(folder)


if __name__ == "__main__":
    main()
