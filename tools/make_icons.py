"""Draw the app's icons (the web app manifest's and the home screen's) with Pillow.

Two hanafuda cards fanned on the table's felt: behind, a card's back (the app's red);
in front, the paper card of the brand mark, with its red sun over a hill. The PNGs are committed in
``src/koikoi/web/icons/``; run this again after changing the drawing:

    .venv/bin/python tools/make_icons.py

* ``icon-192.png``, ``icon-512.png``: purpose "any", a rounded tile (its corners clear);
* ``maskable-512.png``: purpose "maskable", full bleed, the cards inside the safe zone
  (the middle circle of 80% the launcher may cut to);
* ``apple-touch-icon.png`` (180 px): full bleed, iOS rounds the corners itself.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

FOLDER = Path(__file__).resolve().parents[1] / "src" / "koikoi" / "web" / "icons"
SCALE = 4  # drawn this many times larger, then shrunk: smooth edges

# The colours of style.css.
BG = (18, 27, 23)  # --bg
FELT = (32, 53, 43)  # --felt
PAPER = (246, 239, 220)  # --paper
ACCENT = (224, 83, 58)  # --accent
DEEP = (150, 38, 30)  # the back's darker red
GOLD = (233, 189, 85)  # --gold
INK = (42, 33, 26)  # --paper-ink


def card(width: int, height: int, face: bool) -> Image.Image:
    """One card, upright, on a clear ground (room around it to turn)."""
    side = int((width**2 + height**2) ** 0.5) + 4
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    left, top = (side - width) // 2, (side - height) // 2
    box = (left, top, left + width, top + height)
    radius = width // 9
    edge = max(1, width // 26)
    if face:
        draw.rounded_rectangle(box, radius, fill=PAPER, outline=INK, width=edge)
        inset = width // 9
        inner = (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset)
        draw.rounded_rectangle(inner, radius // 2, outline=ACCENT, width=edge * 2)
        r = width * 0.27
        cx, cy = left + width / 2, top + height * 0.42
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ACCENT)
        # A dark hill under the sun (the moon over the susuki field), kept inside the
        # red frame.
        hill = Image.new("RGBA", image.size, (0, 0, 0, 0))
        ImageDraw.Draw(hill).ellipse(
            (left - width * 0.25, top + height * 0.68, left + width * 1.25, top + height * 1.3),
            fill=INK,
        )
        inside = Image.new("L", image.size, 0)
        ImageDraw.Draw(inside).rounded_rectangle(inner, radius // 2, fill=255)
        inside.paste(0, mask=Image.eval(hill.getchannel("A"), lambda a: 255 - a))
        image.paste(hill, mask=inside)
        draw.rounded_rectangle(inner, radius // 2, outline=ACCENT, width=edge * 2)
    else:
        draw.rounded_rectangle(box, radius, fill=DEEP, outline=INK, width=edge)
        inset = width // 9
        inner = (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset)
        draw.rounded_rectangle(inner, radius // 2, fill=ACCENT, outline=GOLD, width=edge)
    return image


def icon(size: int, *, bleed: bool, motif: float) -> Image.Image:
    """The icon, ``size`` px square; the cards fill ``motif`` of its height."""
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if bleed:
        draw.rectangle((0, 0, big, big), fill=BG)
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), big // 5, fill=BG)
    r = big * (0.46 if bleed else 0.40)
    draw.ellipse((big / 2 - r, big / 2 - r, big / 2 + r, big / 2 + r), fill=FELT)
    height = int(big * motif * 0.86)
    width = height * 5 // 8  # a hanafuda card's proportions
    for face, angle, shift in ((False, 14, -0.11), (True, -8, 0.07)):
        drawn = card(width, height, face).rotate(angle, Image.Resampling.BICUBIC)
        x = int(big / 2 + shift * big - drawn.width / 2)
        y = int(big / 2 - drawn.height / 2)
        image.alpha_composite(drawn, (x, y))
    small = image.resize((size, size), Image.Resampling.LANCZOS)
    # A palette keeps the files small; the clear corners stay clear.
    return small.quantize(64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    made = {
        "icon-192.png": icon(192, bleed=False, motif=0.62),
        "icon-512.png": icon(512, bleed=False, motif=0.62),
        "maskable-512.png": icon(512, bleed=True, motif=0.5),
        "apple-touch-icon.png": icon(180, bleed=True, motif=0.62),
    }
    for name, image in made.items():
        image.save(FOLDER / name, optimize=True)
        print(f"{name}: {(FOLDER / name).stat().st_size} bytes")


if __name__ == "__main__":
    main()
