"""The 48 Hanafuda cards and sets of them as 48-bit integers.

Card ``i`` is bit ``i`` of a set: ``(month - 1) * 4 + index``, the index in the order
of docs/rules.md §1. Set operations are ``|``, ``&`` and ``~``; sizes are
``int.bit_count()``. Named masks make yaku checks a few instructions.

>>> card_from_slug("susuki-moon")
28
>>> slugs(BRIGHTS)
['pine-crane', 'cherry-curtain', 'susuki-moon', 'willow-rainman', 'paulownia-phoenix']
>>> (MONTH_MASKS[11] & PLAINS).bit_count()
1
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

CARD_COUNT = 48
MONTH_COUNT = 12

CardSet = int
"""A set of cards: bit ``i`` set when card id ``i`` is in it."""

ALL_CARDS: CardSet = (1 << CARD_COUNT) - 1


class Kind(Enum):
    BRIGHT = "bright"
    ANIMAL = "animal"
    RIBBON = "ribbon"
    PLAIN = "plain"

    @property
    def value_points(self) -> int:
        """The traditional card value (bright 20, animal 10, ribbon 5, plain 1)."""
        return _KIND_VALUES[self]


_KIND_VALUES = {Kind.BRIGHT: 20, Kind.ANIMAL: 10, Kind.RIBBON: 5, Kind.PLAIN: 1}

FLOWERS = (
    "pine",
    "plum",
    "cherry",
    "wisteria",
    "iris",
    "peony",
    "clover",
    "susuki",
    "chrysanthemum",
    "maple",
    "willow",
    "paulownia",
)

B, A, R, P = Kind.BRIGHT, Kind.ANIMAL, Kind.RIBBON, Kind.PLAIN

# (name suffix, kind) for the four cards of each month, in canonical order.
_MONTH_CARDS: tuple[tuple[tuple[str, Kind], ...], ...] = (
    (("crane", B), ("poetry", R), ("plain-1", P), ("plain-2", P)),
    (("warbler", A), ("poetry", R), ("plain-1", P), ("plain-2", P)),
    (("curtain", B), ("poetry", R), ("plain-1", P), ("plain-2", P)),
    (("cuckoo", A), ("ribbon", R), ("plain-1", P), ("plain-2", P)),
    (("bridge", A), ("ribbon", R), ("plain-1", P), ("plain-2", P)),
    (("butterflies", A), ("blue", R), ("plain-1", P), ("plain-2", P)),
    (("boar", A), ("ribbon", R), ("plain-1", P), ("plain-2", P)),
    (("moon", B), ("geese", A), ("plain-1", P), ("plain-2", P)),
    (("sake", A), ("blue", R), ("plain-1", P), ("plain-2", P)),
    (("deer", A), ("blue", R), ("plain-1", P), ("plain-2", P)),
    (("rainman", B), ("swallow", A), ("ribbon", R), ("lightning", P)),
    (("phoenix", B), ("plain-1", P), ("plain-2", P), ("plain-3", P)),
)
del B, A, R, P


@dataclass(frozen=True, slots=True)
class Card:
    """What is printed on a card: its id, month, flower, kind and slug."""

    id: int
    month: int
    flower: str
    kind: Kind
    slug: str

    @property
    def mask(self) -> CardSet:
        return 1 << self.id


CARDS: tuple[Card, ...] = tuple(
    Card(
        id=(month - 1) * 4 + index,
        month=month,
        flower=FLOWERS[month - 1],
        kind=kind,
        slug=f"{FLOWERS[month - 1]}-{suffix}",
    )
    for month, cards in enumerate(_MONTH_CARDS, start=1)
    for index, (suffix, kind) in enumerate(cards)
)
SLUGS: tuple[str, ...] = tuple(card.slug for card in CARDS)
_ID_BY_SLUG = {slug: card_id for card_id, slug in enumerate(SLUGS)}

CARD_VALUES: tuple[int, ...] = tuple(card.kind.value_points for card in CARDS)
"""``CARD_VALUES[card_id]``: the traditional value of the card (20, 10, 5 or 1)."""

MONTH_OF: tuple[int, ...] = tuple(card.month for card in CARDS)
"""``MONTH_OF[card_id]``: the card's month, 1 to 12."""

MONTH_MASKS: tuple[CardSet, ...] = (0, *(0b1111 << (m - 1) * 4 for m in range(1, MONTH_COUNT + 1)))
"""``MONTH_MASKS[m]``: the four cards of month ``m`` (index 0 is the empty set)."""

MONTH_MASK_OF: tuple[CardSet, ...] = tuple(MONTH_MASKS[m] for m in MONTH_OF)
"""``MONTH_MASK_OF[card_id]``: the four cards of that card's month."""


def _mask_of_kind(kind: Kind) -> CardSet:
    return sum(card.mask for card in CARDS if card.kind is kind)


BRIGHTS = _mask_of_kind(Kind.BRIGHT)
ANIMALS = _mask_of_kind(Kind.ANIMAL)
RIBBONS = _mask_of_kind(Kind.RIBBON)
PLAINS = _mask_of_kind(Kind.PLAIN)
KIND_MASKS = {Kind.BRIGHT: BRIGHTS, Kind.ANIMAL: ANIMALS, Kind.RIBBON: RIBBONS, Kind.PLAIN: PLAINS}

PINE_CRANE = 1 << 0
CHERRY_CURTAIN = 1 << 8
PEONY_BUTTERFLIES = 1 << 20
CLOVER_BOAR = 1 << 24
SUSUKI_MOON = 1 << 28
CHRYSANTHEMUM_SAKE = 1 << 32
MAPLE_DEER = 1 << 36
WILLOW_RAINMAN = 1 << 40
WILLOW_LIGHTNING = 1 << 43
PAULOWNIA_PHOENIX = 1 << 44

SAKE_CUP = CHRYSANTHEMUM_SAKE
RAINMAN = WILLOW_RAINMAN
LIGHTNING = WILLOW_LIGHTNING
INOSHIKACHO = CLOVER_BOAR | MAPLE_DEER | PEONY_BUTTERFLIES
POETRY_RIBBONS = (1 << 1) | (1 << 5) | (1 << 9)
"""The red poem ribbons of pine, plum and cherry (akatan)."""
BLUE_RIBBONS = (1 << 21) | (1 << 33) | (1 << 37)
"""The blue ribbons of peony, chrysanthemum and maple (aotan)."""
GRASS_RIBBONS = (1 << 13) | (1 << 17) | (1 << 25)
"""The plain red ribbons of wisteria, iris and clover (kusatan)."""


class UnknownCardError(ValueError):
    """A card slug or id that names no card."""


def card_from_slug(slug: str) -> int:
    """The id of the card with this slug; a typo gets the nearest real slug suggested."""
    try:
        return _ID_BY_SLUG[slug]
    except (KeyError, TypeError):
        raise UnknownCardError(_unknown_slug_message(slug)) from None


def _unknown_slug_message(slug: object) -> str:
    message = f"unknown card {slug!r}"
    if isinstance(slug, str):
        close = difflib.get_close_matches(slug.lower(), SLUGS, n=1, cutoff=0.5)
        if close:
            return f"{message}; did you mean {close[0]!r}?"
    return f"{message}; card slugs look like 'pine-crane' or 'maple-plain-2'"


def cards_from_slugs(slugs: Iterable[str]) -> CardSet:
    """The set of the named cards; a slug named twice is an error."""
    cards = 0
    for slug in slugs:
        bit = 1 << card_from_slug(slug)
        if cards & bit:
            raise UnknownCardError(f"card {slug!r} is named twice")
        cards |= bit
    return cards


# The ids in each 12-bit slice of a set, looked up instead of looping over bits: the
# round engine lists hand and field cards on every move.
_SLICE_IDS = tuple(
    tuple(tuple(offset + i for i in range(12) if bits >> i & 1) for bits in range(4096))
    for offset in (0, 12, 24, 36)
)


def month_counts(cards: CardSet) -> list[int]:
    """How many cards of each month (January first) a set holds.

    >>> month_counts(MONTH_MASKS[1] | MONTH_MASKS[3])[:3]
    [4, 0, 4]
    """
    return [(cards & MONTH_MASKS[m]).bit_count() for m in range(1, MONTH_COUNT + 1)]


def ids(cards: CardSet) -> list[int]:
    """The card ids in a set, lowest first.

    >>> ids(MONTH_MASKS[3])
    [8, 9, 10, 11]
    """
    s0, s1, s2, s3 = _SLICE_IDS
    return [*s0[cards & 4095], *s1[cards >> 12 & 4095], *s2[cards >> 24 & 4095], *s3[cards >> 36]]


def slugs(cards: CardSet) -> list[str]:
    """The slugs of a set, in canonical order."""
    return [SLUGS[card_id] for card_id in ids(cards)]
