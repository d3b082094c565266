"""Renders every corpus and example spec at 2x and lays the renders out on one contact sheet, for
looking at all of them at once against the iARVis app's own views.

Usage: python3 Scripts/contact_sheet.py ARVIS OUT.png [--corpus DIR] [--examples DIR] [--keep DIR]

ARVIS is the `arvis` binary to render with (so an older build gives the "before" sheet). The
sheet's header lists the defect classes renders are judged by (issue 29); each render is labelled
with its file and widget. Needs Pillow (pip install pillow). A development aid, not part of the
product.
"""
import argparse
import os
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw

# The classes each render is looked at for, against iARVis's SwiftUI views.
CLASSES = [
    "1 content pinned top-leading, not centred",
    "2 tables: vertical = a row per title; horizontal = a bold title row, trailing values",
    "3 category labels never turned or cut mid-word: fitted, wrapped or ended with '...'",
    "4 annotations drawn as the spec says (no halo, outline or shadow)",
    "5 SF Symbols as our own vector shapes; colour emoji with modifiers and ZWJ sequences",
    "6 SPLOM: scatter in every cell, light 12 pt names left and below, ticks on outer cells",
    "7 audio card, YouTube thumbnail, no scroll bars at rest, whole edge markers, x labels apart",
    "8 type: the faces closest to SF Pro / SF Rounded, DejaVu as fallback",
]


def render_all(arvis, sources, folder):
    """Renders each spec to PNGs at 2x in `folder`; returns the PNG paths in order."""
    paths = []
    for source in sources:
        name = os.path.splitext(os.path.basename(source))[0]
        kind = os.path.basename(os.path.dirname(source))
        out = os.path.join(folder, f"{kind}-{name}")
        os.makedirs(out, exist_ok=True)
        result = subprocess.run(
            [arvis, "render", source, "--format", "png", "--scale", "2", "-o", out + "/"],
            capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            print(f"{source}: {result.stderr.strip()}", file=sys.stderr)
            continue
        paths += sorted(
            (os.path.join(out, f) for f in os.listdir(out) if f.endswith(".png")),
            key=lambda p: [int(t) if t.isdigit() else t for t in p.replace("-", ".").split(".")])
    return paths


def specs(folder):
    """Every JSON or YAML spec under `folder`, sorted."""
    found = []
    for root, _, files in os.walk(folder):
        found += [os.path.join(root, f) for f in files if f.endswith((".json", ".yaml", ".yml"))]
    return sorted(found)


def sheet(images, output, columns, width, title):
    thumbs = []
    for path in images:
        image = Image.open(path).convert("RGBA")
        ratio = width / image.width
        image = image.resize((width, max(1, int(image.height * ratio))), Image.LANCZOS)
        label = os.path.relpath(path, os.path.dirname(os.path.dirname(path)))
        thumbs.append((label, image))
    rows = [thumbs[i:i + columns] for i in range(0, len(thumbs), columns)]
    heights = [max(t[1].height for t in row) + 22 for row in rows]
    header = 24 + 14 * (len(CLASSES) + 1)
    result = Image.new("RGB", (columns * (width + 12) + 12, header + sum(heights) + 12), (216, 220, 226))
    draw = ImageDraw.Draw(result)
    draw.text((12, 8), f"{title}: {len(images)} renders at 2x. Judged by:", fill=(0, 0, 0))
    for index, line in enumerate(CLASSES):
        draw.text((24, 24 + 14 * index), line, fill=(30, 30, 30))
    y = header
    for row, height in zip(rows, heights):
        for index, (name, image) in enumerate(row):
            x = 12 + index * (width + 12)
            result.paste(image, (x, y + 18), image)
            draw.text((x, y + 2), name[-70:], fill=(30, 30, 30))
        y += height
    result.save(output)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("arvis", help="the arvis binary to render with")
    parser.add_argument("output")
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--corpus", default=os.path.join(here, "..", "shared", "corpus"))
    parser.add_argument("--examples", default=os.path.join(here, "Examples"))
    parser.add_argument("--keep", help="render into this folder and keep the PNGs")
    parser.add_argument("--columns", type=int, default=4)
    parser.add_argument("--width", type=int, default=600)
    parser.add_argument("--title", default="ARVis")
    args = parser.parse_args()
    if not os.path.isdir(args.corpus):
        print(f"skipping the corpus: {args.corpus} is absent", file=sys.stderr)
    sources = specs(args.corpus) + specs(args.examples) if os.path.isdir(args.corpus) else specs(args.examples)
    folder = args.keep or tempfile.mkdtemp(prefix="arvis-sheet-")
    os.makedirs(folder, exist_ok=True)
    images = render_all(os.path.abspath(args.arvis), sources, folder)
    sheet(images, args.output, args.columns, args.width, args.title)
    print(f"{len(images)} renders of {len(sources)} specs -> {args.output}")


if __name__ == "__main__":
    main()
