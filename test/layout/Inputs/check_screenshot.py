"""Asserts that a Chromium screenshot shows a rendered layout picture.

Fails unless the PNG exists, is not one flat colour, and contains every
colour passed with --expect (the field boxes of the kinds the record holds).
"""
import argparse
import sys

from PIL import Image

parser = argparse.ArgumentParser()
parser.add_argument("png")
parser.add_argument("--expect", action="append", default=[], help="#rrggbb that must appear")
parser.add_argument("--min-ink", type=float, default=0.01, help="least fraction of non-white pixels")
args = parser.parse_args()

image = Image.open(args.png).convert("RGB")
pixels = list(image.getdata())
ink = sum(1 for p in pixels if p != (255, 255, 255)) / len(pixels)
present = set(pixels)
print("%s: %dx%d, %d colours, %.1f%% non-white" % (args.png, image.width, image.height, len(present), ink * 100))
failed = False
if ink < args.min_ink:
    print("blank: fewer than %.1f%% non-white pixels" % (args.min_ink * 100))
    failed = True
for colour in args.expect:
    rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    count = sum(1 for p in pixels if p == rgb)
    print("colour %s: %d pixels" % (colour, count))
    if count < 50:
        failed = True
sys.exit(1 if failed else 0)
