"""The project's own card art: one standalone SVG document per card, and the back.

Every picture is drawn here, programmatically, from simple shapes; nothing is copied.
All cards share one flat style on a 100 x 160 view box (CSS sizes them):

* a cream frame with a thin dark edge, around a panel tinted for the month;
* top left, the month number (1 to 12) in white on a pill of the month's ink colour,
  big enough to read on a card 50 px wide;
* the month's flower, drawn with its own palette and form: pine pads, red plum
  blossom, pink notched cherry blossom, hanging wisteria, violet iris with sword
  leaves, a pink peony, magenta bush clover, a dark hill of susuki grass, a yellow
  chrysanthemum, red and orange maple leaves, drooping willow, paulownia leaves with
  cones of purple bells. The plains of a month differ in layout (the second is the
  first mirrored, with an accent changed; the third paulownia has a gold ground) so
  no two cards are alike;
* the card's subject where it has one: the crane and the sun, the warbler, the
  curtain, the cuckoo and the moon, the plank bridge, the butterflies, the boar, the
  full moon, the geese, the sake cup, the deer, the rain man with his umbrella, the
  swallow, the lightning, the phoenix; red poem ribbons with ink strokes, plain red
  ribbons, blue ribbons;
* top right, a badge of the card's kind, told apart by shape as well as colour:

  ========  =====================================  =========================
  kind      badge                                  element
  ========  =====================================  =========================
  bright    gold disc with twelve pointed rays     ``<path>`` + ``<circle>``
  animal    green diamond (a square on its point)  ``<polygon>``
  ribbon    purple upright banner                  ``<rect>``
  plain     no badge                               (none)
  ========  =====================================  =========================

  The badge is ``<g class="badge badge-KIND">``.

Each document has ``role="img"``, ``class="card card-KIND month-M"``, ``data-card`` with
the slug and a ``<title>`` with the English name made from the slug ("Pine · Crane
(bright)"), which the client may replace with a translated label.
There are no ids, scripts, web fonts (the number uses the generic ``sans-serif``) or
external references, so many cards can be inlined into one page; each document is a
few kilobytes.
"""

from __future__ import annotations

import math
import re
from functools import cache

from koikoi.cards import CARDS, Card, Kind

__all__ = ["card_back_svg", "card_svg", "card_title"]

SVG_NS = "http://www.w3.org/2000/svg"

# (panel background, ink of the month number) per month.
_MONTH_COLOURS: dict[int, tuple[str, str]] = {
    1: ("#eef0da", "#24502f"),
    2: ("#f7e9e1", "#8a1f33"),
    3: ("#e6eef7", "#b8365f"),
    4: ("#f3efe1", "#5b3f8f"),
    5: ("#e3efe6", "#2a3f8f"),
    6: ("#fbf0e0", "#a8244f"),
    7: ("#f3ecdc", "#7d2a57"),
    8: ("#f4ead0", "#6e5420"),
    9: ("#eceee2", "#9a6400"),
    10: ("#f6ede0", "#a3301a"),
    11: ("#e2e8ec", "#34505f"),
    12: ("#f4eed9", "#5a3d7a"),
}

_SUBJECT_NAMES = {
    "poetry": "Poetry ribbon",
    "ribbon": "Red ribbon",
    "blue": "Blue ribbon",
    "sake": "Sake cup",
    "rainman": "Rain man",
}

_INK = "#2a211b"
_RED_RIBBON = "#cf2d2d"
_BLUE_RIBBON = "#27408f"


def _n(x: float) -> str:
    """A coordinate, to one decimal, without a trailing ``.0``."""
    text = f"{x:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def _el(tag: str, **attrs: str | float) -> str:
    """An empty element; ``stroke_width`` becomes ``stroke-width``."""
    parts = [tag]
    for key, value in attrs.items():
        name = key.rstrip("_").replace("_", "-")
        parts.append(f'{name}="{_n(value) if isinstance(value, float | int) else value}"')
    return "<" + " ".join(parts) + "/>"


def _g(children: str, **attrs: str | float) -> str:
    opening = _el("g", **attrs)[:-2]
    return f"{opening}>{children}</g>"


def _circle(cx: float, cy: float, r: float, fill: str = "", **attrs: str | float) -> str:
    if fill:
        attrs["fill"] = fill
    return _el("circle", cx=cx, cy=cy, r=r, **attrs)


def _path(d: str, fill: str = "none", **attrs: str | float) -> str:
    return _el("path", d=d, fill=fill, **attrs)


def _stroke(d: str, colour: str, width: float, **attrs: str | float) -> str:
    attrs.setdefault("stroke_linecap", "round")
    return _el("path", d=d, fill="none", stroke=colour, stroke_width=width, **attrs)


_TOKEN = re.compile(r"[MLCQZ]|-?(?:\d+\.?\d*|\.\d+)")


def _tf(
    d: str, x: float = 0, y: float = 0, s: float = 1, a: float = 0, mirror: bool = False
) -> str:
    """Path data (absolute M, L, C, Q, Z only) mirrored, scaled, rotated by ``a`` degrees
    and moved to ``(x, y)``."""
    ca, sa = math.cos(math.radians(a)), math.sin(math.radians(a))
    out: list[str] = []
    pending: list[float] = []
    after_number = False
    for token in _TOKEN.findall(d):
        if token.isalpha():
            out.append(token)
            after_number = False
            continue
        pending.append(float(token))
        if len(pending) == 2:
            px, py = pending[0] * s * (-1 if mirror else 1), pending[1] * s
            pending.clear()
            qx, qy = px * ca - py * sa + x, px * sa + py * ca + y
            out.append((" " if after_number else "") + f"{_n(qx)} {_n(qy)}")
            after_number = True
    return "".join(out)


def _ring(template: str, count: int, x: float, y: float, s: float, a: float = 0) -> str:
    """``count`` copies of a petal template around ``(x, y)``, as one path's data."""
    return "".join(_tf(template, x, y, s, a + i * 360 / count) for i in range(count))


def _mirrored(children: str) -> str:
    return _g(children, transform="matrix(-1 0 0 1 100 0)")


# ---------------------------------------------------------------------------------
# Ribbons


def _ribbon(x: float, y: float, a: float, colour: str, poem: bool = False) -> str:
    """A tanzaku ribbon centred on ``(x, y)``, tilted by ``a`` degrees."""
    body = _path(
        _tf("M-7 -40L7 -40L7 38L-7 44Z", x, y, 1, a), colour, stroke=_INK, stroke_width=0.8
    )
    fold = _path(_tf("M-7 -40L7 -40L7 -33L-7 -36Z", x, y, 1, a), "#000", opacity=0.25)
    cord = _stroke(_tf("M0 -40L0 -47", x, y, 1, a), _INK, 1)
    if poem:
        strokes = (
            "M-3 -29C-1 -28 1 -29 3 -31M0 -31C-1 -27 1 -24 -1 -21"
            "M-3 -14C0 -17 3 -14 1 -11C-1 -9 -2 -7 2 -6"
            "M-2 0C-3 3 -2 6 -1 8M2 -1C3 2 3 5 1 9"
            "M-3 16C-1 15 1 15 3 14M1 12C0 16 -2 19 0 22C1 24 2 25 3 28"
        )
        marks = _stroke(_tf(strokes, x, y, 1, a), _INK, 1.6, stroke_linejoin="round")
        return body + fold + cord + marks
    line = _stroke(_tf("M-4 -30L-4 36M4 -30L4 34", x, y, 1, a), "#fff", 0.7, opacity=0.55)
    return body + fold + cord + line


def _rot_point(px: float, py: float, x: float, y: float, a: float) -> tuple[float, float]:
    ca, sa = math.cos(math.radians(a)), math.sin(math.radians(a))
    return px * ca - py * sa + x, px * sa + py * ca + y


# ---------------------------------------------------------------------------------
# The twelve flowers. Each takes the card's index in its month (docs/rules.md §1 order).


def _pine_pad(cx: float, cy: float, w: float, h: float) -> str:
    x0, x1 = cx - w / 2, cx + w / 2
    pad = f"M{_n(x0)} {_n(cy)}Q{_n(cx)} {_n(cy - 2 * h)} {_n(x1)} {_n(cy)}"
    pad += f"Q{_n(cx)} {_n(cy + h * 0.4)} {_n(x0)} {_n(cy)}Z"
    needles = []
    base_y = cy + h * 0.15
    for i in range(1, 8):
        t = i / 8
        px = (1 - t) ** 2 * x0 + 2 * t * (1 - t) * cx + t * t * x1
        py = (1 - t) ** 2 * cy + 2 * t * (1 - t) * (cy - 2 * h) + t * t * cy
        needles.append(f"M{_n(cx)} {_n(base_y)}L{_n(cx + (px - cx) * 0.9)} {_n(py + 1)}")
    return _path(pad, "#2d6138") + _stroke("".join(needles), "#7fb26a", 0.8)


def _pine(index: int) -> str:
    trunk_colour = "#5b3b22"
    if index == 0:
        trunk = _stroke("M16 158C20 138 10 122 20 104", trunk_colour, 5)
        pads = _pine_pad(20, 102, 28, 10) + _pine_pad(22, 130, 30, 10) + _pine_pad(14, 80, 18, 7)
        return trunk + pads
    trunk = _stroke("M38 158C42 134 26 120 34 100C42 82 58 84 60 60", trunk_colour, 6)
    branches = _stroke("M35 104C48 104 60 110 74 104M57 72C46 66 36 66 26 58", trunk_colour, 2.6)
    pads = (
        _pine_pad(62, 58, 40, 12)
        + _pine_pad(26, 58, 28, 10)
        + _pine_pad(74, 104, 34, 11)
        + _pine_pad(28, 102, 30, 10)
        + _pine_pad(52, 134, 28, 9)
    )
    art = trunk + branches + pads
    if index == 3:
        art += _g(
            _el("ellipse", cx=80, cy=112, rx=3, ry=4)
            + _el("ellipse", cx=68, cy=114, rx=2.6, ry=3.5),
            fill="#8a5a2b",
        )
    return art


def _plum_blossom(cx: float, cy: float, r: float) -> str:
    petals = "".join(
        _circle(cx + r * math.sin(i * 1.2566), cy - r * math.cos(i * 1.2566), r * 0.78)
        for i in range(5)
    )
    return _g(petals, fill="#d0304a") + _circle(cx, cy, r * 0.45, "#f7d778")


def _plum(index: int) -> str:
    branch = _stroke(
        "M6 150L28 122L24 98L44 72L42 50L62 32", "#3d2b20", 4.5, stroke_linejoin="round"
    ) + _stroke("M28 122L52 114L70 120M44 72L68 68L84 56M24 98L10 84M52 114L60 100", "#3d2b20", 2.2)
    spots = [(62, 32), (44, 50), (84, 56), (68, 68), (24, 98), (10, 84), (70, 120), (60, 100)]
    if index == 0:
        spots = [(62, 32), (44, 50), (24, 98), (10, 84), (70, 120), (42, 130)]
    sizes = [4.2, 3.6, 4, 3.4, 4.2, 3.2, 3.8, 3.2]
    if index == 3:
        sizes = sizes[::-1]
    flowers = "".join(_plum_blossom(x, y, r) for (x, y), r in zip(spots, sizes, strict=False))
    buds = _g(_circle(32, 116, 1.8) + _circle(50, 62, 1.6) + _circle(78, 62, 1.6), fill="#a3203a")
    return branch + flowers + buds


_SAKURA_PETAL = "M0 0C-5 -2 -6 -8 -3 -10L0 -8.6L3 -10C6 -8 5 -2 0 0Z"


def _sakura(spots: list[tuple[float, float, float, float]]) -> str:
    """Cherry blossoms at ``(x, y, radius, angle)``, all petals in one path."""
    petals = "".join(_ring(_SAKURA_PETAL, 5, x, y, r / 10, a) for x, y, r, a in spots)
    centres = "".join(_circle(x, y, r * 0.22) for x, y, r, _ in spots)
    return _path(petals, "#f6b9cb", stroke="#d56f8f", stroke_width=0.6) + _g(
        centres, fill="#d8456f"
    )


def _cherry(index: int) -> str:
    branch = _stroke("M4 40C24 44 40 36 60 44C70 48 84 44 96 50", "#4a3426", 3.5)
    branch += _stroke("M30 40C36 52 34 60 40 68M60 44C58 56 66 62 64 74", "#4a3426", 2)
    spots: list[tuple[float, float, float, float]] = [
        (14, 46, 7, 0),
        (28, 36, 6, 20),
        (40, 68, 7, 10),
        (52, 40, 7.5, 30),
        (64, 74, 6.5, 5),
        (76, 46, 7, 15),
        (90, 56, 6, 40),
        (24, 60, 5.5, 50),
    ]
    art = branch + _sakura(spots)
    if index != 0:
        mist = _path(
            "M4 112C20 104 40 110 52 104C66 98 84 106 96 100L96 124L4 124Z", "#fff", opacity=0.7
        )
        low: list[tuple[float, float, float, float]] = [(20, 138, 6, 10), (50, 146, 5, 25)]
        low.append((80, 134, 6.5, 0) if index == 2 else (76, 140, 6, 35))
        art += mist + _sakura(low)
    return art


def _wisteria_cluster(x: float, y: float, length: int) -> str:
    dark: list[str] = []
    light: list[str] = []
    for i in range(length):
        r = 4.2 - 2.6 * i / length
        cx = x + (2.4 if i % 2 else -2.4) * (1 - i / (length + 2))
        (dark if i % 3 == 0 else light).append(_circle(cx, y + i * 5, r))
    return _g("".join(dark), fill="#5d3f96") + _g("".join(light), fill="#9a7cd0")


def _wisteria(index: int) -> str:
    vine = _stroke("M4 22C30 34 60 14 96 28", "#5a4030", 3)
    leaves = _path(
        _tf("M0 0C3 -4 10 -4 14 0C10 4 3 4 0 0Z", 26, 28, 1, 30)
        + _tf("M0 0C3 -4 10 -4 14 0C10 4 3 4 0 0Z", 54, 24, 1, 150)
        + _tf("M0 0C3 -4 10 -4 14 0C10 4 3 4 0 0Z", 70, 22, 1, 20),
        "#4f7a35",
    )
    clusters = {
        0: [(18, 30, 10), (40, 30, 12), (62, 24, 9), (84, 28, 8)],
        1: [(14, 30, 16), (36, 32, 13), (66, 24, 15), (88, 30, 18)],
        2: [(18, 30, 22), (40, 30, 25), (62, 24, 19), (84, 28, 23)],
        3: [(18, 30, 24), (40, 30, 18), (62, 24, 25), (84, 28, 17)],
    }[index]
    return vine + "".join(_wisteria_cluster(x, y, n) for x, y, n in clusters) + leaves


_IRIS_LEAF = "M0 0C-3 -30 -1 -60 5 -92C2 -60 4 -30 7 0Z"
_IRIS_FALLS = (
    "M0 0C-8 1 -15 7 -13 14C-6 14 -2 8 0 0Z"
    "M0 0C-4 6 -4 14 0 17C4 14 4 6 0 0Z"
    "M0 0C8 1 15 7 13 14C6 14 2 8 0 0Z"
)
_IRIS_STANDARDS = (
    "M0 0C-5 -6 -4 -14 0 -17C4 -14 5 -6 0 0Z"
    "M0 0C-6 -2 -12 -8 -12 -13C-6 -12 -2 -6 0 0Z"
    "M0 0C6 -2 12 -8 12 -13C6 -12 2 -6 0 0Z"
)


def _iris_flower(x: float, y: float, s: float) -> str:
    return (
        _path(_tf(_IRIS_STANDARDS, x, y, s), "#6d72d6")
        + _path(_tf(_IRIS_FALLS, x, y, s), "#343a9c")
        + _stroke(_tf("M0 2L-6 7M0 3L0 9M0 2L6 7", x, y, s), "#f4d35e", 1.4)
    )


def _iris(index: int) -> str:
    leaves = [(10, 158, -8), (22, 160, -2), (40, 160, 4), (58, 160, -4), (76, 160, 3), (90, 158, 8)]
    if index == 0:
        leaves = [(10, 112, -8), (28, 114, -2), (70, 112, 3), (88, 110, 8)]
    art = _path(
        "".join(_tf(_IRIS_LEAF, x, y, 1 if index else 0.7, a) for x, y, a in leaves), "#2f7a4b"
    )
    flowers = [(30, 58, 1.3), (68, 44, 1.4), (52, 86, 1.2)]
    if index == 0:
        flowers = [(26, 50, 1.2), (70, 46, 1.3)]
    elif index == 3:
        flowers = [(30, 46, 1.4), (70, 62, 1.3), (40, 92, 1.1)]
    stems = "".join(f"M{_n(x)} {_n(y)}L{_n(x + 2)} {_n(y + 50)}" for x, y, _ in flowers)
    art += _stroke(stems, "#2f7a4b", 2)
    return art + "".join(_iris_flower(x, y, s) for x, y, s in flowers)


_PEONY_PETAL = "M0 0C-10 -3 -12 -18 -2 -21C1 -22 4 -21 6 -19C12 -14 10 -3 0 0Z"
_LEAF = "M0 0C4 -6 12 -8 18 -6C14 0 6 4 0 0Z"


def _peony_flower(x: float, y: float, s: float) -> str:
    return (
        _path(_ring(_PEONY_PETAL, 7, x, y, s), "#ec6f93", stroke="#b8325f", stroke_width=0.6)
        + _path(_ring(_PEONY_PETAL, 5, x, y, s * 0.62, 20), "#d63a6b")
        + _circle(x, y, 3.5 * s, "#f4c842")
    )


def _peony(index: int) -> str:
    leaves = [(30, 120, 200), (70, 122, -20), (44, 134, 250), (58, 134, -70), (26, 100, 160)]
    leaf_d = "".join(_tf(_LEAF, x, y, 1.3, a) for x, y, a in leaves)
    art = _path(leaf_d, "#3e7a3a") + _stroke("M50 150L50 118", "#3e7a3a", 2.5)
    if index == 0:
        return art + _peony_flower(50, 100, 1.1)
    flowers = [(50, 76, 1.3), (80, 110, 0.7)]
    if index == 3:
        flowers = [(46, 80, 1.2), (22, 118, 0.75)]
    return art + "".join(_peony_flower(x, y, s) for x, y, s in flowers)


_Point = tuple[float, float]
_HAGI_STEMS: tuple[tuple[_Point, _Point, _Point, _Point], ...] = (
    ((10, 154), (16, 110), (40, 70), (88, 44)),
    ((6, 124), (12, 92), (24, 62), (48, 34)),
    ((26, 156), (36, 122), (60, 98), (94, 92)),
    ((44, 158), (54, 140), (70, 128), (94, 130)),
)


def _clover(index: int) -> str:
    stems = _HAGI_STEMS if index else _HAGI_STEMS[:2]
    art = _stroke(
        "".join(
            "M{} {}C{} {} {} {} {} {}".format(*(_n(v) for p in stem for v in p)) for stem in stems
        ),
        "#7a3b2e",
        1.6,
    )
    leaves: list[str] = []
    flowers: list[str] = []
    for number, stem in enumerate(stems):
        for k in range(1, 10):
            bx, by = _cubic(*stem, k / 10)
            side = 1 if (k + number) % 2 else -1
            leaves.append(
                _tf("M0 0C2 -3 6 -3 8 0C6 3 2 3 0 0Z", bx, by, 1.3, -40 + side * 70 - number * 10)
            )
            if k >= 4 + (index == 3):
                flowers.append(_circle(bx + side * 3, by - 3.5, 2.2))
                flowers.append(_circle(bx - side * 2.5, by - 6, 1.7))
    art += _path("".join(leaves), "#34512a")
    return art + _g("".join(flowers), fill="#c8307a")


def _cubic(p0: _Point, p1: _Point, p2: _Point, p3: _Point, t: float) -> _Point:
    """The point at ``t`` on a cubic Bézier curve."""
    mt = 1 - t
    a, b, c, d = mt**3, 3 * mt * mt * t, 3 * mt * t * t, t**3
    return (
        a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
        a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1],
    )


_HILL: tuple[_Point, _Point, _Point, _Point] = ((4, 98), (22, 72), (56, 74), (96, 104))


def _susuki(index: int) -> str:
    hill = "M4 98C22 72 56 74 96 104L96 160L4 160Z"
    blades: list[str] = []
    for i in range(12):
        x, top = _cubic(*_HILL, (i + 0.5) / 12)
        blades.append(
            f"M{_n(x - 2)} 156C{_n(x + 2)} 130 {_n(x - 5)} {_n(top + 16)} {_n(x + 5)} {_n(top + 3)}"
        )
    art = _path(hill, "#2d3a2a") + _stroke("".join(blades), "#e6d9a8", 1.1)
    spots = {0: (0.2, 0.86), 1: (0.25, 0.75), 2: (0.22, 0.5, 0.8), 3: (0.18, 0.38, 0.62, 0.86)}
    for t in spots[index]:
        x, top = _cubic(*_HILL, t)
        y = top - 20
        art += _stroke(
            f"M{_n(x)} {_n(top + 6)}C{_n(x + 2)} {_n(y + 10)} {_n(x)} {_n(y)} "
            f"{_n(x - 8)} {_n(y - 10)}",
            "#8a6a34",
            1.3,
        )
        left = x > 30
        tuft = "".join(
            _tf(
                f"M0 0C-2 -{3 + k} -{5 + k} -{5 + k} -{8 + 2 * k} {k - 1}",
                x - 7 if left else x + 3,
                y - 9 if left else y - 12,
                1,
                (8 * k - 30) * (1 if left else -1),
                mirror=not left,
            )
            for k in range(5)
        )
        art += _stroke(tuft, "#c9a96a", 1.3)
    return art


_CHRYS_PETAL = "M0 0C-2.6 -4 -2.4 -11 0 -12C2.4 -11 2.6 -4 0 0Z"


def _chrysanthemum_flower(x: float, y: float, s: float, colour: str, inner: str) -> str:
    return (
        _path(_ring(_CHRYS_PETAL, 16, x, y, s), colour, stroke="#b07a10", stroke_width=0.5)
        + _path(_ring(_CHRYS_PETAL, 12, x, y, s * 0.62, 15), inner)
        + _circle(x, y, 2.2 * s, "#b8651a")
    )


_LOBED_LEAF = (
    "M0 0C-4 -3 -9 -4 -10 -9C-13 -9 -14 -14 -10 -16C-12 -20 -7 -24 -4 -21C-3 -26 3 -26 4 -21"
    "C7 -24 12 -20 10 -16C14 -14 13 -9 10 -9C9 -4 4 -3 0 0Z"
)


def _chrysanthemum(index: int) -> str:
    stems = _stroke("M50 156C48 130 54 110 50 80M50 132C40 122 30 118 28 108", "#3f6e35", 2.2)
    placed = ((50, 130, 1.1, 60), (50, 116, 1.1, -60), (50, 148, 1, -70), (40, 124, 0.9, -40))
    leaves = _path("".join(_tf(_LOBED_LEAF, *spot) for spot in placed), "#3f6e35")
    veins = _stroke("".join(_tf("M0 0L0 -18", *spot) for spot in placed), "#8cb86a", 0.8)
    art = stems + leaves + veins
    if index == 0:
        return art + _chrysanthemum_flower(50, 62, 2, "#f2b51c", "#f8d35a")
    art += _chrysanthemum_flower(50, 66, 2.2, "#f2b51c", "#f8d35a")
    if index == 3:
        return art + _chrysanthemum_flower(28, 104, 1.1, "#e8705a", "#f4a98c")
    return art + _chrysanthemum_flower(28, 104, 1.1, "#fbf4dc", "#f2b51c")


def _maple_leaf_d(x: float, y: float, r: float, a: float) -> str:
    lobes = [(-125, 0.5), (-80, 0.85), (-40, 0.95), (0, 1.0), (40, 0.95), (80, 0.85), (125, 0.5)]
    points: list[tuple[float, float]] = [(0.0, 0.22)]
    for i, (angle, length) in enumerate(lobes):
        prev = lobes[i - 1][0] if i else -160
        points.append(_polar((angle + prev) / 2, 0.32))
        points.append(_polar(angle - 9, 0.62 * length))
        points.append(_polar(angle, length))
        points.append(_polar(angle + 9, 0.62 * length))
    points.append(_polar(160, 0.32))
    moved = [_rot_point(px * r, py * r, x, y, a) for px, py in points]
    return "M" + "L".join(f"{_n(px)} {_n(py)}" for px, py in moved) + "Z"


def _polar(angle: float, length: float) -> tuple[float, float]:
    rad = math.radians(angle - 90)
    return length * math.cos(rad), length * math.sin(rad)


def _maple(index: int) -> str:
    twig = _stroke(
        "M96 30C70 40 50 36 30 52C22 58 12 58 6 64M54 38C50 50 56 58 52 66", "#4a2e1e", 2.4
    )
    leaves = [
        (30, 52, 12, -20, "#d63a1e"),
        (52, 68, 13, 10, "#e2702a"),
        (72, 40, 12, 30, "#d63a1e"),
        (14, 76, 10, -40, "#e9a630"),
        (86, 62, 10, 15, "#c72c22"),
    ]
    if index != 0:
        leaves += [
            (34, 108, 12, -15, "#e2702a"),
            (66, 118, 13, 20, "#d63a1e"),
            (44, 142, 9, 40, "#e9a630"),
        ]
    if index == 3:
        leaves = [(x, y, r, -a, c) for x, y, r, a, c in leaves[::-1]]
        leaves[1] = (*leaves[1][:4], "#e9a630")
    return twig + "".join(_path(_maple_leaf_d(x, y, r, a), c) for x, y, r, a, c in leaves)


def _willow_strands(xs: list[float], bottom: float) -> str:
    strands = "".join(
        f"M{_n(x)} 4C{_n(x + 10)} 30 {_n(x - 6)} {_n(bottom * 0.5)} {_n(x + 4)} {_n(bottom)}"
        for x in xs
    )
    return _stroke(strands, "#4f7a2c", 1.4) + _stroke(
        strands, "#7fae4a", 3.2, stroke_dasharray="4 3", stroke_linecap="butt"
    )


def _willow(index: int) -> str:
    if index == 3:
        return _willow_strands([14, 30, 70, 86], 150)
    if index == 0:
        return _willow_strands([58, 72, 86], 124)
    if index == 1:
        return _willow_strands([16, 34, 60, 80], 140)
    return _willow_strands([20, 38, 66, 84], 150)


_PAULOWNIA_LEAF = (
    "M0 0C-16 -4 -22 -22 -10 -30C-5 -33 -2 -30 0 -27C2 -30 5 -33 10 -30C22 -22 16 -4 0 0Z"
)


def _paulownia_spike(x: float, y: float, n: int) -> str:
    h = n * 6.0
    cone = f"M{_n(x)} {_n(y + 3)}C{_n(x - 13)} {_n(y + 1)} {_n(x - 9)} {_n(y - h * 0.6)} "
    cone += f"{_n(x)} {_n(y - h)}"
    cone += f"C{_n(x + 9)} {_n(y - h * 0.6)} {_n(x + 13)} {_n(y + 1)} {_n(x)} {_n(y + 3)}Z"
    bells: list[str] = []
    for i in range(n):
        cy = y - i * 6 + 1
        half = 5.5 * (1 - i / n)
        row = [x] if half < 2.5 else [x - half, x + half] if i % 2 else [x - half, x, x + half]
        bells.extend(_circle(cx, cy, 2.3 - 0.8 * i / n) for cx in row)
    stem = _stroke(f"M{_n(x)} {_n(y + 10)}L{_n(x)} {_n(y)}", "#5b7a3a", 1.6)
    return stem + _path(cone, "#c4aeea") + _g("".join(bells), fill="#6f42aa")


def _paulownia(index: int) -> str:
    leaves = _path(
        _tf(_PAULOWNIA_LEAF, 50, 116, 1.3, 180)
        + _tf(_PAULOWNIA_LEAF, 50, 118, 1.1, 125)
        + _tf(_PAULOWNIA_LEAF, 50, 118, 1.1, -125),
        "#3f6f34",
    )
    veins = _stroke("M50 118L50 150M50 118L24 132M50 118L76 132", "#8fbf6a", 1)
    art = leaves + veins
    if index == 0:
        return art + _paulownia_spike(16, 112, 5) + _paulownia_spike(84, 112, 5)
    spikes = [(25, 104, 7), (50, 96, 9), (75, 104, 7)]
    if index == 2:
        spikes = [(27, 106, 6), (50, 100, 10), (73, 106, 6)]
    art += "".join(_paulownia_spike(x, y, n) for x, y, n in spikes)
    if index == 3:
        art += _path("M4 140L96 140L96 160L4 160Z", "#e4b43a")
    return art


_FLOWERS = (
    _pine,
    _plum,
    _cherry,
    _wisteria,
    _iris,
    _peony,
    _clover,
    _susuki,
    _chrysanthemum,
    _maple,
    _willow,
    _paulownia,
)

# ---------------------------------------------------------------------------------
# Subjects, by slug suffix.


def _crane() -> str:
    sun = _circle(64, 52, 20, "#d8442f")
    legs = _stroke("M58 128L56 150M66 127L70 150", "#3a302a", 1.5)
    body = _path(
        "M40 112C46 96 74 94 84 110C78 124 54 130 40 112Z", "#fbfbf6", stroke=_INK, stroke_width=0.8
    )
    tail = _path("M76 104C86 106 92 114 90 124C84 122 78 116 74 112Z", "#2a2522")
    wing = _stroke("M50 108C58 102 68 102 76 108", "#9a9a94", 1)
    neck = _path(
        "M40 112C34 100 33 88 35 74L41 74C40 88 42 98 50 104Z",
        "#fbfbf6",
        stroke=_INK,
        stroke_width=0.8,
    ) + _path("M35 74L41 74C40.5 80 40.6 86 41.3 90L34.4 90C34 84 34.4 79 35 74Z", "#2a2522")
    head = (
        _circle(38, 72, 4, "#fbfbf6", stroke=_INK, stroke_width=0.6)
        + _circle(38.5, 69.4, 2.2, "#d8442f")
        + _path("M35 71.5L22 76.5L35 74.5Z", "#b7922e")
        + _circle(38.5, 72, 0.7, _INK)
    )
    return sun + legs + tail + neck + body + wing + head


def _warbler() -> str:
    x, y, s = 58, 92, 1.4
    parts = [
        _path(_tf("M-12 0C-10 -8 4 -10 12 -4L24 -3L22 2L12 2C6 8 -8 8 -12 0Z", x, y, s), "#8b9a3c"),
        _path(_tf("M-12 2C-6 6 2 6 8 3C2 1 -6 1 -12 2Z", x, y, s), "#d2d68a"),
        _path(_tf("M-4 -4C2 -7 10 -5 16 -1C8 1 0 1 -4 -4Z", x, y, s), "#66752a"),
        _circle(*_rot_point(-11 * s, -5 * s, x, y, 0), 6 * s, "#8b9a3c"),
        _path(_tf("M-16 -6L-22 -4.5L-16 -3Z", x, y, s), "#3a3020"),
        _circle(*_rot_point(-13 * s, -6.5 * s, x, y, 0), 1.3 * s, _INK),
        _stroke(_tf("M-4 6L-5 10M2 6L2 10", x, y, s), "#3a3020", 1.2),
    ]
    return "".join(parts)


def _curtain() -> str:
    pole = _stroke("M6 88L94 88", "#6b4a2b", 3)
    curtain = _path(
        "M8 90L92 90L92 146C78 152 64 148 50 152C36 148 22 152 8 146Z",
        "#c9283e",
        stroke=_INK,
        stroke_width=0.8,
    )
    stripes = _path(
        "M25 90L42 90L42 150C36 149 30 149 25 150ZM58 90L75 90L75 150C69 149 63 149 58 150Z",
        "#f8f1e2",
    )
    crest = _circle(
        50, 118, 11, "#f8f1e2", stroke="#c9283e", stroke_width=1.5
    ) + _plum_blossom_crest(50, 118)
    knots = _g("".join(_circle(x, 88, 2.2) for x in (12, 31, 50, 69, 88)), fill="#e3b23c")
    return curtain + stripes + crest + pole + knots


def _plum_blossom_crest(x: float, y: float) -> str:
    return _path(_ring("M0 0C-4 -1 -4 -7 0 -7.5C4 -7 4 -1 0 0Z", 5, x, y, 1), "#c9283e") + _circle(
        x, y, 1.6, "#f8f1e2"
    )


def _cuckoo() -> str:
    moon = _path("M74 102A16 16 0 0 0 74 134A22 22 0 0 1 74 102Z", "#f1dc8a")
    bird = _path(
        _tf("M-18 2C-12 -4 -2 -4 4 -2L22 -14L14 0L26 4L8 6C0 10 -12 8 -18 2Z", 44, 96, 1.3, -10),
        "#3b4150",
    )
    belly = _path(_tf("M-14 3C-8 7 0 7 6 4C0 3 -8 2 -14 3Z", 44, 96, 1.3, -10), "#e9e4d8")
    head = _circle(*_rot_point(-16 * 1.3, 0, 44, 96, -10), 5, "#3b4150")
    beak = _path(_tf("M-20 -1L-27 1L-20 2Z", 44, 96, 1.3, -10), "#d8a63a")
    eye = _circle(*_rot_point(-17.5 * 1.3, -1.5, 44, 96, -10), 1, "#f4e7a8")
    return moon + bird + belly + head + beak + eye


def _bridge() -> str:
    planks = _path(
        "M4 118L62 100L66 108L4 130ZM58 104L96 122L96 134L54 112Z",
        "#9a6a38",
        stroke=_INK,
        stroke_width=0.8,
    )
    lines = _stroke(
        "M18 114L20 124M32 110L34 120M46 105L48 115M70 110L68 120M82 116L80 126", "#5e3d1e", 0.8
    )
    posts = _stroke("M10 128L10 146M40 120L40 138M62 110L62 130M88 130L88 150", "#5e3d1e", 2.2)
    water = _stroke("M8 150C16 146 24 154 32 150M56 146C64 142 72 150 80 146", "#5a8fb8", 1.2)
    return water + posts + planks + lines


def _butterfly(x: float, y: float, s: float, a: float, wing: str, spot: str) -> str:
    upper = "M0 0C-6 -12 -18 -14 -16 -4C-15 0 -8 2 0 0ZM0 0C6 -12 18 -14 16 -4C15 0 8 2 0 0Z"
    lower = "M0 0C-4 4 -12 10 -8 12C-4 13 -1 6 0 0ZM0 0C4 4 12 10 8 12C4 13 1 6 0 0Z"
    return (
        _path(_tf(upper + lower, x, y, s, a), wing, stroke=_INK, stroke_width=0.6)
        + _g(
            _circle(*_rot_point(-9 * s, -6 * s, x, y, a), 2.2 * s)
            + _circle(*_rot_point(9 * s, -6 * s, x, y, a), 2.2 * s),
            fill=spot,
        )
        + _stroke(_tf("M0 -5L0 8M0 -5L-3 -11M0 -5L3 -11", x, y, s, a), _INK, 1.2)
    )


def _butterflies() -> str:
    return _butterfly(32, 50, 1.1, -15, "#3d6fb8", "#f5d04a") + _butterfly(
        68, 66, 0.95, 20, "#f2c230", "#d0402f"
    )


def _boar() -> str:
    x, y, s = 52, 128, 1.3
    body = "M-20 0C-22 -10 -10 -16 4 -14C14 -13 22 -8 24 -2L30 0L30 4L24 4C18 10 -10 12 -20 0Z"
    return (
        _stroke(_tf("M-14 6L-16 16M-6 8L-6 17M12 8L14 17M18 6L22 15", x, y, s), "#4a2c18", 2.4)
        + _path(_tf(body, x, y, s), "#7a4a2a", stroke=_INK, stroke_width=0.6)
        + _stroke(_tf("M-14 -11L-12 -14L-9 -12L-6 -16L-3 -13L0 -16L3 -13", x, y, s), "#4a2c18", 1.2)
        + _path(_tf("M14 -12L17 -18L19 -11Z", x, y, s), "#4a2c18")
        + _path(_tf("M24 4C25 7 23 9 21 8", x, y, s), stroke="#fbf6e6", stroke_width=1.4)
        + _circle(*_rot_point(19 * s, -6 * s, x, y, 0), 1.1, "#fbf6e6")
        + _stroke(_tf("M-20 -2C-24 -4 -26 0 -24 4", x, y, s), "#4a2c18", 1.2)
    )


def _moon() -> str:
    return _path("M0 8Q0 0 8 0L92 0Q100 0 100 8L100 110L0 110Z", "#c7392c") + _circle(
        50, 58, 24, "#fbf2d0"
    )


def _geese() -> str:
    sky = _path("M0 8Q0 0 8 0L92 0Q100 0 100 8L100 110L0 110Z", "#f0c96e")
    goose = "M-10 2C-4 -6 0 -2 0 0C0 -2 4 -6 10 2C4 -2 2 0 0 3C-2 0 -4 -2 -10 2Z"
    birds = "".join(
        _tf(goose, x, y, s, -8) for x, y, s in ((34, 44, 1.4), (56, 56, 1.2), (74, 40, 1.3))
    )
    return sky + _path(birds, "#2e2a28")


def _sake() -> str:
    cup = _path("M24 116C28 134 72 134 76 116Z", "#c22a2a", stroke=_INK, stroke_width=0.8)
    rim = _el("ellipse", cx=50, cy=116, rx=26, ry=5, fill="#e24a3a", stroke=_INK, stroke_width=0.8)
    foot = _path("M40 130L36 140L64 140L60 130Z", "#9e1f22", stroke=_INK, stroke_width=0.8)
    crest = _path(_ring("M0 0C-2 -2 -2 -5 0 -6C2 -5 2 -2 0 0Z", 6, 50, 126, 0.9), "#f2c230")
    return foot + cup + rim + crest


def _deer() -> str:
    x, y, s = 52, 120, 1.2
    body = "M-18 -4C-18 -12 14 -14 18 -6C22 2 14 6 8 6L-12 6C-18 6 -20 0 -18 -4Z"
    neck = "M12 -8C14 -16 16 -22 20 -26L26 -24C22 -18 20 -10 18 -4Z"
    head = "M18 -28C22 -32 30 -30 34 -26L32 -22C28 -22 24 -20 20 -22Z"
    antlers = "M22 -30L18 -40M19 -37L14 -40M18 -40L20 -46M26 -30L28 -40M28 -37L33 -40M28 -40L26 -46"
    return (
        _stroke(_tf("M-14 4L-16 22M-8 5L-7 22M10 5L9 22M15 4L18 21", x, y, s), "#6b4424", 2)
        + _path(_tf(body + neck + head, x, y, s), "#a0663a", stroke=_INK, stroke_width=0.6)
        + _stroke(_tf(antlers, x, y, s), "#6b4424", 1.3)
        + _g(
            "".join(
                _circle(*_rot_point(px * s, py * s, x, y, 0), 1.1)
                for px, py in ((-10, -6), (-4, -8), (2, -6), (8, -8), (-6, -2), (4, -2))
            ),
            fill="#f6ead0",
        )
        + _circle(*_rot_point(28 * s, -26.5 * s, x, y, 0), 1, _INK)
    )


def _rain() -> str:
    lines = "".join(f"M{_n(x)} {_n(yy)}l-4 10" for x in range(14, 96, 14) for yy in (20, 58, 96))
    return _stroke(lines, "#7c95a8", 0.8)


def _rainman() -> str:
    umbrella = _path("M8 74C12 56 44 50 58 66Z", "#e0a63a", stroke=_INK, stroke_width=0.8)
    ribs = _stroke("M33 60L20 70M33 60L33 68M33 60L46 66", "#9a6a1a", 0.8)
    handle = _stroke("M33 60L40 92", _INK, 1.4)
    robe = _path(
        "M36 84C46 80 54 84 56 92L60 128L32 128Z", "#2f3f7a", stroke=_INK, stroke_width=0.6
    )
    sash = _stroke("M36 104L58 102", "#c9283e", 2.2)
    head = _circle(46, 78, 5, "#f1d2ae", stroke=_INK, stroke_width=0.6)
    legs = _stroke("M40 128L38 142M52 128L56 142", _INK, 2)
    stream = _stroke(
        "M4 148C14 144 24 152 34 148C44 144 54 152 64 148C74 144 84 152 96 148", "#4d7fa8", 1.6
    )
    frog = _path("M78 140C78 134 88 134 88 140Z", "#5d9a3a") + _circle(81, 135, 1, _INK)
    return _rain() + stream + legs + robe + sash + head + umbrella + ribs + handle + frog


def _swallow() -> str:
    x, y, s = 50, 104, 1.4
    body = "M-16 -2C-10 -8 4 -6 10 -2L24 -16L16 0L28 8L10 4C2 8 -10 6 -16 -2Z"
    return (
        _rain()
        + _path(_tf(body, x, y, s, 15), "#1f2a4a")
        + _path(_tf("M-14 0C-8 4 0 4 6 2C0 0 -8 -1 -14 0Z", x, y, s, 15), "#f4efe4")
        + _circle(*_rot_point(-15 * s, -2 * s, x, y, 15), 4.4, "#1f2a4a")
        + _circle(*_rot_point(-17 * s, 0.5 * s, x, y, 15), 2, "#c9283e")
        + _path(_tf("M-19 -3L-24 -1L-19 -1Z", x, y, s, 15), _INK)
    )


def _lightning() -> str:
    sky = _path("M0 8Q0 0 8 0L92 0Q100 0 100 8L100 96L0 96Z", "#2b3140")
    cloud = _path("M8 40C6 28 20 24 26 30C30 20 46 22 48 32C56 28 66 34 62 42Z", "#15181f")
    bolt = _path(
        "M60 34L44 62L56 62L38 94L68 56L56 56L70 34Z", "#f3c94a", stroke="#d0402f", stroke_width=2
    )
    return sky + cloud + bolt


def _phoenix() -> str:
    tail = (
        _stroke("M60 64C74 74 86 90 88 112", "#2f8f6b", 4)
        + _stroke("M58 68C66 84 70 100 66 118", "#e0a020", 3.5)
        + _stroke("M56 66C56 82 50 96 40 108", "#c83a3a", 3.5)
    )
    eyes = _g(_circle(88, 112, 3.5) + _circle(66, 118, 3) + _circle(40, 108, 3), fill="#2f5fa8")
    wing = _path(
        "M46 56C50 34 66 24 88 28C80 36 80 42 72 48C68 54 58 58 46 56Z",
        "#2f8f6b",
        stroke=_INK,
        stroke_width=0.6,
    ) + _stroke("M54 50C62 42 70 38 80 34M58 54C66 48 72 46 78 42", "#f2c230", 1.2)
    body = _path(
        "M36 58C42 50 58 52 62 64C58 74 42 74 36 58Z", "#d9452f", stroke=_INK, stroke_width=0.6
    )
    neck = _stroke("M40 60C36 52 32 46 26 44", "#d9452f", 5)
    head = (
        _circle(26, 43, 4.5, "#d9452f")
        + _path("M22 42L14 45L22 46Z", "#e0a020")
        + _stroke("M27 39L24 31M29 39L30 31M25 40L20 33", "#e0a020", 1.2)
        + _circle(25, 42, 1, _INK)
    )
    return _g(tail + eyes + wing + body + neck + head, transform="matrix(1.2 0 0 1.2 -12 -16)")


_SUBJECTS = {
    "crane": _crane,
    "warbler": _warbler,
    "curtain": _curtain,
    "cuckoo": _cuckoo,
    "bridge": _bridge,
    "butterflies": _butterflies,
    "boar": _boar,
    "moon": _moon,
    "geese": _geese,
    "sake": _sake,
    "deer": _deer,
    "rainman": _rainman,
    "swallow": _swallow,
    "lightning": _lightning,
    "phoenix": _phoenix,
}

# Subjects drawn behind the flower (skies), the rest in front of it.
_BACKDROPS = {"moon", "geese", "lightning"}

_RIBBON_STYLE = {
    "poetry": (_RED_RIBBON, True),
    "ribbon": (_RED_RIBBON, False),
    "blue": (_BLUE_RIBBON, False),
}

# ---------------------------------------------------------------------------------
# Frame, number and badge

_FRAME = (
    "M8 0H92A8 8 0 0 1 100 8V152A8 8 0 0 1 92 160H8A8 8 0 0 1 0 152V8A8 8 0 0 1 8 0Z"
    "M9 3.5A5.5 5.5 0 0 0 3.5 9V151A5.5 5.5 0 0 0 9 156.5H91A5.5 5.5 0 0 0 96.5 151"
    "V9A5.5 5.5 0 0 0 91 3.5Z"
)


def _outline() -> str:
    """The thin dark edge around every card, face or back."""
    return _el(
        "rect",
        x=0.6,
        y=0.6,
        width=98.8,
        height=158.8,
        rx=7.6,
        fill="none",
        stroke=_INK,
        stroke_width=1.2,
    )


def _frame() -> str:
    return _path(_FRAME, "#f8f3e6", fill_rule="evenodd") + _outline()


def _month_number(month: int, ink: str) -> str:
    width = 25 if month < 10 else 36
    pill = _el(
        "rect",
        x=4.5,
        y=4.5,
        width=width,
        height=27,
        rx=7,
        fill=ink,
        stroke="#fff",
        stroke_width=1.5,
    )
    text = (
        f'<text x="{_n(4.5 + width / 2)}" y="26" text-anchor="middle" font-family="sans-serif" '
        f'font-size="23" font-weight="700" fill="#fff">{month}</text>'
    )
    return _g(pill + text, class_="month")


def _rays(x: float, y: float, outer: float, inner: float, count: int) -> str:
    points = []
    for i in range(count * 2):
        r = outer if i % 2 == 0 else inner
        angle = math.pi * i / count
        points.append(f"{_n(x + r * math.sin(angle))} {_n(y - r * math.cos(angle))}")
    return "M" + "L".join(points) + "Z"


def _badge(kind: Kind) -> str:
    x, y = 83.0, 18.0
    if kind is Kind.BRIGHT:
        shape = _path(_rays(x, y, 13.5, 8.5, 12), "#f5c518", stroke=_INK, stroke_width=1) + _circle(
            x, y, 6.2, "#fbe27a", stroke=_INK, stroke_width=0.8
        )
    elif kind is Kind.ANIMAL:
        points = (
            f"{_n(x)} {_n(y - 13)} {_n(x + 10)} {_n(y)} {_n(x)} {_n(y + 13)} {_n(x - 10)} {_n(y)}"
        )
        shape = _el("polygon", points=points, fill="#22946a", stroke="#fff", stroke_width=1.5)
    elif kind is Kind.RIBBON:
        shape = _el(
            "rect",
            x=x - 6.5,
            y=y - 13,
            width=13,
            height=26,
            rx=1.5,
            fill="#8447b0",
            stroke="#fff",
            stroke_width=1.5,
        )
    else:
        return ""
    return _g(shape, class_=f"badge badge-{kind.value}")


# ---------------------------------------------------------------------------------
# Documents


def _card(card_id: int) -> Card:
    if not 0 <= card_id < len(CARDS):
        raise ValueError(f"no card {card_id!r}; card ids are 0 to {len(CARDS) - 1}")
    return CARDS[card_id]


def card_title(card_id: int) -> str:
    """The card's English name from its slug, e.g. ``Pine · Crane (bright)``.

    >>> card_title(43)
    'Willow · Lightning (plain)'
    """
    card = _card(card_id)
    flower, _, suffix = card.slug.partition("-")
    subject = _SUBJECT_NAMES.get(suffix) or suffix.replace("-", " ").capitalize()
    return f"{flower.capitalize()} · {subject} ({card.kind.value})"


def _document(label: str, body: str, **attrs: str) -> str:
    extra = "".join(
        f' {key.rstrip("_").replace("_", "-")}="{value}"' for key, value in attrs.items()
    )
    title = label.replace("·", "&#183;")
    return (
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 100 160" role="img"{extra}>'
        f"<title>{title}</title>{body}</svg>"
    )


def _art(card: Card) -> str:
    index = card.id % 4
    suffix = card.slug.partition("-")[2]
    flower = _FLOWERS[card.month - 1](index)
    if suffix == "plain-2":
        flower = _mirrored(flower)
    subject = _SUBJECTS.get(suffix)
    if subject is not None and suffix in _BACKDROPS:
        return subject() + flower
    if subject is not None:
        return flower + subject()
    if suffix in _RIBBON_STYLE:
        colour, poem = _RIBBON_STYLE[suffix]
        return flower + _ribbon(50, 84, -8, colour, poem)
    return flower


@cache
def card_svg(card_id: int) -> str:
    """The face of card ``card_id`` (0 to 47) as a standalone SVG document."""
    card = _card(card_id)
    background, ink = _MONTH_COLOURS[card.month]
    body = (
        _el("rect", width=100, height=160, rx=8, fill=background)
        + _art(card)
        + _frame()
        + _month_number(card.month, ink)
        + _badge(card.kind)
    )
    return _document(
        card_title(card_id),
        body,
        class_=f"card card-{card.kind.value} month-{card.month}",
        data_card=card.slug,
    )


@cache
def card_back_svg() -> str:
    """The back shared by all cards as a standalone SVG document."""
    diamonds = []
    for row in range(9):
        for col in range(6):
            cx = 10 + col * 16 + (8 if row % 2 else 0)
            cy = 12 + row * 17
            if cx > 92 or (cx - 50) ** 2 + (cy - 80) ** 2 < 28**2:
                continue
            diamonds.append(f"M{cx} {cy - 6}L{cx + 5} {cy}L{cx} {cy + 6}L{cx - 5} {cy}Z")
    body = (
        _el("rect", width=100, height=160, rx=8, fill="#6a1f1c")
        + _path("".join(diamonds), "none", stroke="#c9873f", stroke_width=1)
        + _circle(50, 80, 20, "#3f1210", stroke="#e3b23c", stroke_width=2)
        + _path(_ring(_SAKURA_PETAL, 5, 50, 80, 1.5), "#e3b23c")
        + _circle(50, 80, 3, "#6a1f1c")
        + _el(
            "rect",
            x=5,
            y=5,
            width=90,
            height=150,
            rx=5,
            fill="none",
            stroke="#e3b23c",
            stroke_width=1.2,
        )
        + _outline()
    )
    return _document("Card back", body, class_="card card-back")
