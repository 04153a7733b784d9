"""The deck of docs/rules.md §1: 48 cards, their ids, slugs, kinds and the named card sets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koikoi.cards import (
    ANIMALS,
    BLUE_RIBBONS,
    BRIGHTS,
    CARDS,
    CHERRY_CURTAIN,
    CHRYSANTHEMUM_SAKE,
    CLOVER_BOAR,
    GRASS_RIBBONS,
    INOSHIKACHO,
    LIGHTNING,
    MAPLE_DEER,
    MONTH_MASKS,
    PAULOWNIA_PHOENIX,
    PEONY_BUTTERFLIES,
    PINE_CRANE,
    PLAINS,
    POETRY_RIBBONS,
    RAINMAN,
    RIBBONS,
    SAKE_CUP,
    SLUGS,
    SUSUKI_MOON,
    WILLOW_LIGHTNING,
    WILLOW_RAINMAN,
    Kind,
    UnknownCardError,
    card_from_slug,
    cards_from_slugs,
    ids,
    slugs,
)

B, A, R, P = "bright", "animal", "ribbon", "plain"

# docs/rules.md §1, month by month, in the canonical index order: (slug, kind).
DECK: list[tuple[int, str, list[tuple[str, str]]]] = [
    (1, "pine", [("pine-crane", B), ("pine-poetry", R), ("pine-plain-1", P), ("pine-plain-2", P)]),
    (
        2,
        "plum",
        [("plum-warbler", A), ("plum-poetry", R), ("plum-plain-1", P), ("plum-plain-2", P)],
    ),
    (
        3,
        "cherry",
        [("cherry-curtain", B), ("cherry-poetry", R), ("cherry-plain-1", P), ("cherry-plain-2", P)],
    ),
    (
        4,
        "wisteria",
        [
            ("wisteria-cuckoo", A),
            ("wisteria-ribbon", R),
            ("wisteria-plain-1", P),
            ("wisteria-plain-2", P),
        ],
    ),
    (5, "iris", [("iris-bridge", A), ("iris-ribbon", R), ("iris-plain-1", P), ("iris-plain-2", P)]),
    (
        6,
        "peony",
        [("peony-butterflies", A), ("peony-blue", R), ("peony-plain-1", P), ("peony-plain-2", P)],
    ),
    (
        7,
        "clover",
        [("clover-boar", A), ("clover-ribbon", R), ("clover-plain-1", P), ("clover-plain-2", P)],
    ),
    (
        8,
        "susuki",
        [("susuki-moon", B), ("susuki-geese", A), ("susuki-plain-1", P), ("susuki-plain-2", P)],
    ),
    (
        9,
        "chrysanthemum",
        [
            ("chrysanthemum-sake", A),
            ("chrysanthemum-blue", R),
            ("chrysanthemum-plain-1", P),
            ("chrysanthemum-plain-2", P),
        ],
    ),
    (
        10,
        "maple",
        [("maple-deer", A), ("maple-blue", R), ("maple-plain-1", P), ("maple-plain-2", P)],
    ),
    (
        11,
        "willow",
        [
            ("willow-rainman", B),
            ("willow-swallow", A),
            ("willow-ribbon", R),
            ("willow-lightning", P),
        ],
    ),
    (
        12,
        "paulownia",
        [
            ("paulownia-phoenix", B),
            ("paulownia-plain-1", P),
            ("paulownia-plain-2", P),
            ("paulownia-plain-3", P),
        ],
    ),
]

TABLE: list[tuple[int, int, str, str, str]] = [
    ((month - 1) * 4 + index, month, flower, slug, kind)
    for month, flower, cards in DECK
    for index, (slug, kind) in enumerate(cards)
]


def mask_of(names: list[str]) -> int:
    """A set built from the §1 table alone (not through the slug lookup under test)."""
    by_slug = {slug: card_id for card_id, _, _, slug, _ in TABLE}
    return sum(1 << by_slug[name] for name in names)


def test_the_deck_has_48_cards_with_ids_in_canonical_order() -> None:
    assert len(CARDS) == 48
    assert len(SLUGS) == 48
    assert [card.id for card in CARDS] == list(range(48))
    assert len(set(SLUGS)) == 48


@pytest.mark.parametrize(("card_id", "month", "flower", "slug", "kind"), TABLE)
def test_every_card_matches_the_rules_table(
    card_id: int, month: int, flower: str, slug: str, kind: str
) -> None:
    card = CARDS[card_id]
    assert card.id == card_id == (month - 1) * 4 + (card_id % 4)
    assert card.month == month
    assert card.flower == flower
    assert card.slug == slug
    assert SLUGS[card_id] == slug
    assert card.kind is Kind(kind)
    assert card.mask == 1 << card_id
    assert card_from_slug(slug) == card_id


@pytest.mark.parametrize(
    ("kind", "count", "mask"),
    [
        (Kind.BRIGHT, 5, BRIGHTS),
        (Kind.ANIMAL, 9, ANIMALS),
        (Kind.RIBBON, 10, RIBBONS),
        (Kind.PLAIN, 24, PLAINS),
    ],
)
def test_kind_counts_and_kind_masks(kind: Kind, count: int, mask: int) -> None:
    assert sum(1 for card in CARDS if card.kind is kind) == count
    assert mask.bit_count() == count
    assert mask == mask_of([slug for _, _, _, slug, k in TABLE if k == kind.value])


def test_kind_masks_partition_the_deck() -> None:
    assert BRIGHTS | ANIMALS | RIBBONS | PLAINS == (1 << 48) - 1
    masks = [BRIGHTS, ANIMALS, RIBBONS, PLAINS]
    for i, first in enumerate(masks):
        for second in masks[i + 1 :]:
            assert first & second == 0


@pytest.mark.parametrize(
    ("kind", "points"), [(Kind.BRIGHT, 20), (Kind.ANIMAL, 10), (Kind.RIBBON, 5), (Kind.PLAIN, 1)]
)
def test_traditional_card_values(kind: Kind, points: int) -> None:
    assert kind.value_points == points


@pytest.mark.parametrize(("month", "flower", "cards"), DECK)
def test_month_masks_hold_the_four_cards_of_their_month(
    month: int, flower: str, cards: list[tuple[str, str]]
) -> None:
    assert MONTH_MASKS[month] == mask_of([slug for slug, _ in cards])
    assert slugs(MONTH_MASKS[month]) == [slug for slug, _ in cards]
    assert all(slug.startswith(flower + "-") for slug in slugs(MONTH_MASKS[month]))


def test_month_masks_index_zero_is_empty_and_months_partition_the_deck() -> None:
    assert len(MONTH_MASKS) == 13
    assert MONTH_MASKS[0] == 0
    union = 0
    for month in range(1, 13):
        assert MONTH_MASKS[month] & union == 0
        union |= MONTH_MASKS[month]
    assert union == (1 << 48) - 1


@pytest.mark.parametrize(
    ("mask", "names"),
    [
        (
            BRIGHTS,
            ["pine-crane", "cherry-curtain", "susuki-moon", "willow-rainman", "paulownia-phoenix"],
        ),
        (POETRY_RIBBONS, ["pine-poetry", "plum-poetry", "cherry-poetry"]),
        (BLUE_RIBBONS, ["peony-blue", "chrysanthemum-blue", "maple-blue"]),
        (GRASS_RIBBONS, ["wisteria-ribbon", "iris-ribbon", "clover-ribbon"]),
        (INOSHIKACHO, ["clover-boar", "maple-deer", "peony-butterflies"]),
        (PINE_CRANE, ["pine-crane"]),
        (CHERRY_CURTAIN, ["cherry-curtain"]),
        (SUSUKI_MOON, ["susuki-moon"]),
        (WILLOW_RAINMAN, ["willow-rainman"]),
        (RAINMAN, ["willow-rainman"]),
        (PAULOWNIA_PHOENIX, ["paulownia-phoenix"]),
        (CHRYSANTHEMUM_SAKE, ["chrysanthemum-sake"]),
        (SAKE_CUP, ["chrysanthemum-sake"]),
        (CLOVER_BOAR, ["clover-boar"]),
        (MAPLE_DEER, ["maple-deer"]),
        (PEONY_BUTTERFLIES, ["peony-butterflies"]),
        (WILLOW_LIGHTNING, ["willow-lightning"]),
        (LIGHTNING, ["willow-lightning"]),
    ],
)
def test_named_masks(mask: int, names: list[str]) -> None:
    assert mask == mask_of(names)


def test_named_sets_have_the_kinds_of_the_rules() -> None:
    # The ribbon sets are ribbons; inoshikacho and the sake cup are animals; lightning is plain.
    for ribbon_set in (POETRY_RIBBONS, BLUE_RIBBONS, GRASS_RIBBONS):
        assert ribbon_set & RIBBONS == ribbon_set
    assert INOSHIKACHO & ANIMALS == INOSHIKACHO
    assert SAKE_CUP & ANIMALS == SAKE_CUP
    assert LIGHTNING & PLAINS == LIGHTNING
    # The six poetry and blue ribbons plus the three grass ribbons plus willow's are all ten.
    assert POETRY_RIBBONS | BLUE_RIBBONS | GRASS_RIBBONS | mask_of(["willow-ribbon"]) == RIBBONS


def test_slug_and_set_conversions() -> None:
    pile = cards_from_slugs(["maple-deer", "pine-crane", "willow-lightning"])
    assert pile == mask_of(["pine-crane", "maple-deer", "willow-lightning"])
    assert slugs(pile) == ["pine-crane", "maple-deer", "willow-lightning"]
    assert list(ids(pile)) == [0, 36, 43]
    assert cards_from_slugs([]) == 0
    assert slugs(0) == []
    assert list(ids(0)) == []


@given(st.sets(st.integers(min_value=0, max_value=47)))
def test_slugs_round_trip_any_set(card_ids: set[int]) -> None:
    mask = sum(1 << card_id for card_id in card_ids)
    assert list(ids(mask)) == sorted(card_ids)
    assert slugs(mask) == [SLUGS[card_id] for card_id in sorted(card_ids)]
    assert cards_from_slugs(slugs(mask)) == mask
    assert cards_from_slugs(reversed(slugs(mask))) == mask


@pytest.mark.parametrize(
    ("typo", "nearest"),
    [
        ("pine-cran", "pine-crane"),
        ("susuki-mon", "susuki-moon"),
        ("willow-rainmen", "willow-rainman"),
        ("maple-deers", "maple-deer"),
        ("Pine-Crane", "pine-crane"),
    ],
)
def test_unknown_slug_is_named_and_the_nearest_real_one_suggested(typo: str, nearest: str) -> None:
    with pytest.raises(UnknownCardError) as caught:
        card_from_slug(typo)
    message = str(caught.value)
    assert typo in message
    assert nearest in message
    with pytest.raises(UnknownCardError, match=typo):
        cards_from_slugs(["pine-crane", typo])


def test_unknown_card_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="xyzzy"):
        card_from_slug("xyzzy")


def test_a_card_named_twice_is_an_error_naming_it() -> None:
    with pytest.raises(UnknownCardError, match="maple-deer"):
        cards_from_slugs(["maple-deer", "pine-crane", "maple-deer"])
