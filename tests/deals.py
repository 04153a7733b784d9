"""Deals for tests: name the cards that matter, the helper fills in the rest legally."""

from __future__ import annotations

from collections.abc import Sequence

from koikoi.cards import SLUGS
from koikoi.round import Round
from koikoi.rules import CLASSIC, RuleSet

# Fillers go out one card per month at a time (every month's first card, then every
# second card...), so filled hands rarely hold pairs or a whole month by accident.
FILL_ORDER = [SLUGS[card] for card in sorted(range(48), key=lambda card: (card % 4, card // 4))]

# Named deals the rules treat specially (hand yaku, redeals).
KUTTSUKI_HAND = [  # four months of exactly two cards
    "susuki-moon",
    "susuki-geese",
    "chrysanthemum-sake",
    "chrysanthemum-blue",
    "maple-deer",
    "maple-blue",
    "willow-rainman",
    "willow-swallow",
]
FOUR_PAIRS = [  # a field of four pairs: redealt under redeal_four_pairs
    "plum-warbler",
    "plum-poetry",
    "cherry-curtain",
    "cherry-poetry",
    "wisteria-cuckoo",
    "wisteria-ribbon",
    "iris-bridge",
    "iris-ribbon",
]


def build(
    rules: RuleSet = CLASSIC,
    *,
    hands: tuple[Sequence[str], Sequence[str]] = ((), ()),
    field: Sequence[str] = (),
    stock: Sequence[str] = (),
    dealer: int = 0,
    month: int = 0,
) -> Round:
    """A legal deal: the named cards where given, the rest in canonical order.

    Leftover cards (in :data:`FILL_ORDER`) fill hand 0, hand 1, the field, then the
    stock after ``stock`` (which lists the top cards, top first).
    """
    named = [*hands[0], *hands[1], *field, *stock]
    assert len(set(named)) == len(named), "a card is named twice in the test deal"
    rest = [slug for slug in FILL_ORDER if slug not in named]

    def fill(given: Sequence[str], size: int) -> list[str]:
        assert len(given) <= size, "more cards given than the rules deal"
        taken = [rest.pop(0) for _ in range(size - len(given))]
        return [*given, *taken]

    hand0 = fill(hands[0], rules.hand_size)
    hand1 = fill(hands[1], rules.hand_size)
    field_cards = fill(field, rules.field_size)
    return Round.from_deal(rules, dealer, [hand0, hand1], field_cards, [*stock, *rest], month=month)
