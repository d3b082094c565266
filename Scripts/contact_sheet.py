"""Builds a contact sheet (one PNG) from rendered PNGs, for looking at many renders at once.

Usage: python3 Scripts/contact_sheet.py OUT.png [--columns N] [--width W] PNG...
Needs Pillow (pip install pillow). A development aid, not part of the product.
"""
import argparse
import os

from PIL import Image, ImageDraw


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("output")
    parser.add_argument("images", nargs="+")
    parser.add_argument("--columns", type=int, default=4)
    parser.add_argument("--width", type=int, default=480)
    args = parser.parse_args()
    thumbs = []
    for path in args.images:
        image = Image.open(path).convert("RGBA")
        ratio = args.width / image.width
        image = image.resize((args.width, max(1, int(image.height * ratio))), Image.LANCZOS)
        thumbs.append((os.path.relpath(path), image))
    rows = [thumbs[i:i + args.columns] for i in range(0, len(thumbs), args.columns)]
    heights = [max(t[1].height for t in row) + 22 for row in rows]
    sheet = Image.new("RGB", (args.columns * (args.width + 12) + 12, sum(heights) + 12), (216, 220, 226))
    draw = ImageDraw.Draw(sheet)
    y = 12
    for row, height in zip(rows, heights):
        for index, (name, image) in enumerate(row):
            x = 12 + index * (args.width + 12)
            sheet.paste(image, (x, y + 18), image)
            draw.text((x, y + 2), name[-70:], fill=(30, 30, 30))
        y += height
    sheet.save(args.output)


if __name__ == "__main__":
    main()
