"""Scoring captured cards under a rule set (docs/rules.md §3 and the scoring fields of §6).

A :class:`Scorer` is compiled once per rule set (masks and points looked up in
advance), so scoring a pile is a handful of ``&`` and ``bit_count()`` calls: the round
engine scores after every turn.

>>> from koikoi.cards import cards_from_slugs
>>> from koikoi.rules import PRESETS
>>> pile = cards_from_slugs(["pine-crane", "cherry-curtain", "susuki-moon"])
>>> scorer_for(PRESETS["classic"]).score(pile)
{'sanko': 5}
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from koikoi.cards import (
    ANIMALS,
    BLUE_RIBBONS,
    BRIGHTS,
    CARD_COUNT,
    CARDS,
    CHERRY_CURTAIN,
    GRASS_RIBBONS,
    INOSHIKACHO,
    LIGHTNING,
    MONTH_COUNT,
    MONTH_MASKS,
    PLAINS,
    POETRY_RIBBONS,
    RAINMAN,
    RIBBONS,
    SAKE_CUP,
    SUSUKI_MOON,
    CardSet,
    Kind,
    ids,
    month_counts,
    slugs,
)
from koikoi.rules import (
    BestPerCategory,
    Multiplier,
    RuleSet,
    SakeCup,
    TsukifudaMonth,
    Viewing,
    ViewingCanceller,
)

GOKO = "goko"
SHIKO = "shiko"
AME_SHIKO = "ame-shiko"
SANKO = "sanko"
INOSHIKACHO_KEY = "inoshikacho"
TANE = "tane"
AKATAN = "akatan"
AOTAN = "aotan"
AKATAN_AOTAN = "akatan-aotan"
KUSATAN = "kusatan"
TSUKIFUDA = "tsukifuda"
TAN = "tan"
KASU = "kasu"
TSUKIMI = "tsukimi"
HANAMI = "hanami"
TESHI = "teshi"
KUTTSUKI = "kuttsuki"

YAKU_KEYS: tuple[str, ...] = (
    GOKO, SHIKO, AME_SHIKO, SANKO, INOSHIKACHO_KEY, TANE, AKATAN, AOTAN, AKATAN_AOTAN,
    KUSATAN, TSUKIFUDA, TAN, KASU, TSUKIMI, HANAMI, TESHI, KUTTSUKI,
)  # fmt: skip
"""Every yaku key, in the order of docs/rules.md §3 (the order yaku are listed in)."""


_CANCELLER_MASKS = {
    ViewingCanceller.RAINMAN: RAINMAN,
    ViewingCanceller.LIGHTNING: LIGHTNING,
    ViewingCanceller.WILLOW: MONTH_MASKS[11],
    ViewingCanceller.PAULOWNIA: MONTH_MASKS[12],
}
_ALL_POETRY_AND_BLUE = POETRY_RIBBONS | BLUE_RIBBONS
_RIBBON_SETS = {AKATAN, AOTAN, AKATAN_AOTAN, KUSATAN}
_TSUKIMI = SUSUKI_MOON | SAKE_CUP
_HANAMI = CHERRY_CURTAIN | SAKE_CUP


class Scorer:
    """The yaku scoring of one rule set, with its masks and points looked up once."""

    __slots__ = (
        "_akatan",
        "_akatan_aotan",
        "_ame_shiko",
        "_animal_floor",
        "_animals",
        "_aotan",
        "_best_animals",
        "_best_ribbons",
        "_brights_exclusive",
        "_card_counts",
        "_doubled_from",
        "_goko",
        "_hanami",
        "_hanami_called",
        "_inoshikacho",
        "_inoshikacho_extra",
        "_kasu",
        "_kasu_extra",
        "_kasu_min",
        "_kusatan",
        "_multiplier",
        "_plains",
        "_replaces",
        "_ribbon_extra",
        "_sanko",
        "_shiko",
        "_tan",
        "_tan_extra",
        "_tan_min",
        "_tane",
        "_tane_extra",
        "_tane_min",
        "_tsukifuda",
        "_tsukifuda_any",
        "_tsukimi",
        "_tsukimi_called",
        "_viewing",
        "_viewing_cancel",
        "_viewing_needs_other",
        "_viewing_season",
        "count_bias",
        "count_flags",
        "rules",
    )  # fmt: skip

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._goko, self._shiko = rules.goko, rules.shiko
        self._ame_shiko, self._sanko = rules.ame_shiko, rules.sanko
        self._brights_exclusive = rules.brights_exclusive
        self._animals = ANIMALS & ~SAKE_CUP if rules.sake_cup is SakeCup.PLAIN else ANIMALS
        plains = PLAINS if rules.lightning_is_kasu else PLAINS & ~LIGHTNING
        self._plains = plains | SAKE_CUP if rules.sake_cup is not SakeCup.ANIMAL else plains
        self._inoshikacho, self._inoshikacho_extra = rules.inoshikacho, rules.inoshikacho_extra
        self._tane, self._tane_min, self._tane_extra = rules.tane, rules.tane_min, rules.tane_extra
        # Fewer animals than this can score no animal yaku: most piles stop here.
        self._animal_floor = min(3, rules.tane_min) if rules.tane else 3
        self._tan, self._tan_min, self._tan_extra = rules.tan, rules.tan_min, rules.tan_extra
        self._kasu, self._kasu_min, self._kasu_extra = rules.kasu, rules.kasu_min, rules.kasu_extra
        self._akatan, self._aotan = rules.akatan, rules.aotan
        self._ribbon_extra = rules.ribbon_set_extra
        self._akatan_aotan, self._replaces = rules.akatan_aotan, rules.akatan_aotan_replaces
        self._kusatan = rules.kusatan
        self._viewing = rules.viewing is not Viewing.OFF and bool(rules.tsukimi or rules.hanami)
        self._viewing_needs_other = rules.viewing is Viewing.WITH_OTHER_YAKU
        self._tsukimi, self._hanami = rules.tsukimi, rules.hanami
        # After the holder's own koi-koi a viewing yaku may be worth more; one that is
        # switched off stays off.
        raised = rules.viewing_after_koikoi
        self._tsukimi_called = raised if raised and rules.tsukimi else rules.tsukimi
        self._hanami_called = raised if raised and rules.hanami else rules.hanami
        self._viewing_season = rules.viewing_in_season
        self._viewing_cancel = 0
        for canceller in rules.viewing_cancelled_by:
            self._viewing_cancel |= _CANCELLER_MASKS[canceller]
        self._tsukifuda = rules.tsukifuda
        self._tsukifuda_any = rules.tsukifuda_month is TsukifudaMonth.ANY
        best = rules.best_per_category
        self._best_animals = best in (BestPerCategory.ANIMALS, BestPerCategory.BOTH)
        self._best_ribbons = best in (BestPerCategory.RIBBONS, BestPerCategory.BOTH)
        self._multiplier = rules.multiplier
        # The lowest total that double_at doubles (0 turns it off: no total reaches this).
        self._doubled_from = rules.double_at or math.inf
        self._set_up_counts()

    # -- the quick no-yaku test --------------------------------------------------------
    #
    # Most piles a round scores make no yaku, and telling so by counting each kind of
    # card costs as much as scoring: six operations on 48-bit ints, each several times
    # the cost of one on a small int. So a round also keeps, for each pile, how many of
    # the cards of each yaku switched on it holds, packed in one small int (a field a
    # yaku), adds what each capture takes (capture_counts), and tests them all at once:
    # each field of ``count_bias`` carries into the field's top bit (a bit of
    # ``count_flags``) exactly when the count reaches the least that its yaku needs.

    def _set_up_counts(self) -> None:
        viewing = self._viewing
        # Each yaku's cards and the least of them it needs, for the yaku switched on.
        needs = [
            (BRIGHTS, 3, bool(self._goko or self._shiko or self._ame_shiko or self._sanko)),
            (INOSHIKACHO, 3, bool(self._inoshikacho)),
            (self._animals, self._tane_min, bool(self._tane)),
            (POETRY_RIBBONS, 3, bool(self._akatan or self._akatan_aotan)),
            (BLUE_RIBBONS, 3, bool(self._aotan or self._akatan_aotan)),
            (GRASS_RIBBONS, 3, bool(self._kusatan)),
            (RIBBONS, self._tan_min, bool(self._tan)),
            (self._plains, self._kasu_min, bool(self._kasu)),
            (_TSUKIMI, 2, viewing and bool(self._tsukimi)),
            (_HANAMI, 2, viewing and bool(self._hanami)),
            # Four of a month may be any cards: with tsukifuda, every pile may score.
            (0, 0, bool(self._tsukifuda)),
        ]
        weights = [0] * CARD_COUNT
        bias = flags = offset = 0
        for mask, least, on in needs:
            most = mask.bit_count()
            if not on or least > most:
                continue  # this yaku never scores
            # The narrowest field whose top bit the biased count reaches exactly at
            # ``least`` and never carries out of: kept narrow, the packed counts of
            # the usual rule sets stay below 2**30, the cheapest ints.
            width = 1
            while (1 << (width - 1)) < max(least, most - least + 1):
                width += 1
            for card in ids(mask):
                weights[card] += 1 << offset
            top = 1 << (width - 1)
            bias += (top - least) << offset
            flags |= top << offset
            offset += width
        self._card_counts = tuple(weights)
        self.count_bias, self.count_flags = bias, flags

    def counts(self, cards: CardSet) -> int:
        """The packed counts of a pile (see above); a round adds them up capture by capture."""
        weights = self._card_counts
        return sum(weights[card] for card in ids(cards))

    def may_score(self, counts: int) -> bool:
        """False when a pile with these packed counts makes no yaku (True: it may)."""
        return bool((counts + self.count_bias) & self.count_flags)

    def score(self, cards: CardSet, month: int = 0, called: bool = False) -> dict[str, int]:
        """The yaku a pile of captured cards makes, with their points.

        ``month`` is the round's month for ``tsukifuda_month = round`` and
        ``viewing_in_season`` (0: unknown, so those yaku never score); ``called``
        says whether the pile's holder has called koi-koi this round (for
        ``viewing_after_koikoi``). Hand yaku are not scored here.
        """
        yaku: dict[str, int] = {}
        brights = (cards & BRIGHTS).bit_count()
        if brights >= 3:
            rainman = 1 if cards & RAINMAN else 0
            others = brights - rainman
            if not self._brights_exclusive:
                self._every_bright(yaku, brights, rainman, others)
            # The first enabled level that applies scores alone.
            elif self._goko and brights == 5:
                yaku[GOKO] = self._goko
            elif self._shiko and others >= 4:
                yaku[SHIKO] = self._shiko
            elif self._ame_shiko and rainman and brights >= 4:
                yaku[AME_SHIKO] = self._ame_shiko
            elif self._sanko and others >= 3:
                yaku[SANKO] = self._sanko

        animals = (cards & self._animals).bit_count()
        if animals >= self._animal_floor:
            inoshikacho = self._inoshikacho and cards & INOSHIKACHO == INOSHIKACHO
            if inoshikacho:
                extra = animals - 3 if self._inoshikacho_extra else 0
                yaku[INOSHIKACHO_KEY] = self._inoshikacho + extra
            if (
                self._tane
                and animals >= self._tane_min
                and not (inoshikacho and self._best_animals)
            ):
                yaku[TANE] = self._tane + self._tane_extra * (animals - self._tane_min)

        ribbons = (cards & RIBBONS).bit_count()
        ribbon_sets = 0
        if ribbons >= 3:  # every ribbon set has three
            ribbon_sets = len(yaku)
            extra = ribbons - 3 if self._ribbon_extra else 0
            poetry = cards & POETRY_RIBBONS == POETRY_RIBBONS
            blue = cards & BLUE_RIBBONS == BLUE_RIBBONS
            if self._akatan_aotan and self._replaces and poetry and blue:
                six_extra = ribbons - 6 if self._ribbon_extra else 0
                yaku[AKATAN_AOTAN] = self._akatan_aotan + six_extra
            else:
                if self._akatan and poetry:
                    yaku[AKATAN] = self._akatan + extra
                if self._aotan and blue:
                    yaku[AOTAN] = self._aotan + extra
                if self._akatan_aotan and poetry and blue:
                    yaku[AKATAN_AOTAN] = self._akatan_aotan
            if self._kusatan and cards & GRASS_RIBBONS == GRASS_RIBBONS:
                yaku[KUSATAN] = self._kusatan + extra
            ribbon_sets = len(yaku) - ribbon_sets

        if self._tsukifuda:
            if self._tsukifuda_any:
                months = sum(
                    1 for m in range(1, MONTH_COUNT + 1) if cards & MONTH_MASKS[m] == MONTH_MASKS[m]
                )
                if months:
                    yaku[TSUKIFUDA] = self._tsukifuda * months
            elif 1 <= month <= MONTH_COUNT and cards & MONTH_MASKS[month] == MONTH_MASKS[month]:
                yaku[TSUKIFUDA] = self._tsukifuda

        if self._tan and ribbons >= self._tan_min and not (ribbon_sets and self._best_ribbons):
            yaku[TAN] = self._tan + self._tan_extra * (ribbons - self._tan_min)
        plains = (cards & self._plains).bit_count()
        if self._kasu and plains >= self._kasu_min:
            yaku[KASU] = self._kasu + self._kasu_extra * (plains - self._kasu_min)

        if (
            self._viewing
            and cards & SAKE_CUP
            and not cards & self._viewing_cancel
            and (yaku or not self._viewing_needs_other)
        ):
            in_season = not self._viewing_season
            if self._tsukimi and cards & _TSUKIMI == _TSUKIMI and (in_season or month == 8):
                yaku[TSUKIMI] = self._tsukimi_called if called else self._tsukimi
            if self._hanami and cards & _HANAMI == _HANAMI and (in_season or month == 3):
                yaku[HANAMI] = self._hanami_called if called else self._hanami
        return yaku

    def _every_bright(self, yaku: dict[str, int], brights: int, rainman: int, others: int) -> None:
        """``brights_exclusive = false``: each bright yaku whose cards are there scores."""
        if self._goko and brights == 5:
            yaku[GOKO] = self._goko
        if self._shiko and others >= 4:
            yaku[SHIKO] = self._shiko
        if self._ame_shiko and rainman and brights >= 4:
            yaku[AME_SHIKO] = self._ame_shiko
        if self._sanko and others >= 3:
            yaku[SANKO] = self._sanko

    def total(self, cards: CardSet, month: int = 0, called: bool = False) -> int:
        return sum(self.score(cards, month, called).values())

    def final(self, total: int, own_calls: int = 0, opponent_calls: int = 0) -> int:
        """The stopper's round score: ``double_at``, then the koi-koi multiplier, then
        the additive bonus."""
        # Not through factors(): every stop of every rollout comes here.
        kind = self._multiplier
        score = total * multiplier(kind, own_calls, opponent_calls)
        if total >= self._doubled_from:
            score *= 2
        return score + koikoi_bonus(kind, own_calls)

    def factors(self, total: int, own_calls: int = 0, opponent_calls: int = 0) -> tuple[bool, int]:
        """Whether ``double_at`` doubles this total, and the koi-koi multiplier."""
        return total >= self._doubled_from, multiplier(self._multiplier, own_calls, opponent_calls)


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a pile is from a yaku it has not made: ``missing`` more cards, all of
    ``kind`` when they share one, or exactly ``cards`` when the yaku needs particular
    ones."""

    yaku: str
    missing: int
    points: int
    kind: Kind | None
    cards: CardSet | None

    def to_json(self) -> dict[str, object]:
        return {
            "yaku": self.yaku,
            "missing": self.missing,
            "points": self.points,
            "kind": None if self.kind is None else self.kind.value,
            "cards": None if self.cards is None else slugs(self.cards),
        }


@lru_cache(maxsize=4096)
def progress(
    own: CardSet, theirs: CardSet, rules: RuleSet, month: int = 0, most: int = 3
) -> tuple[Progress, ...]:
    """The ``most`` yaku nearest to a pile ``own``, nearest first (then the richest):
    only yaku it has not made and can still make, since a card in the opponent's
    pile ``theirs`` is a card it will never capture.

    Built from what both seats see (the two piles), so it tells nothing hidden; and
    kept for the next asker, since both seats' views show both piles' progress and
    most moves change neither pile.

    >>> from koikoi.cards import cards_from_slugs
    >>> from koikoi.rules import PRESETS
    >>> pile = cards_from_slugs(["pine-crane", "cherry-curtain", "plum-poetry", "pine-poetry"])
    >>> [(p.yaku, p.missing) for p in progress(pile, 0, PRESETS["classic"])]
    [('sanko', 1), ('akatan', 1), ('hanami', 1)]
    """
    scorer = scorer_for(rules)
    made = scorer.score(own, month)
    brights = _bright_reach(scorer, own, theirs, month)
    found = [
        _progress_toward(key, points, required, group, needed, own, theirs)
        for key, points, required, group, needed in _goals(rules, scorer, own, made, month)
        if points and key not in made and (key not in _BRIGHT_LADDER or key in brights)
    ]
    near = [entry for entry in found if entry is not None]
    near.sort(key=lambda entry: (entry.missing, -entry.points, YAKU_KEYS.index(entry.yaku)))
    # Tsukifuda of any month is a goal per month: the nearest one stands for them all.
    nearest = {entry.yaku: entry for entry in reversed(near)}
    return tuple(sorted(nearest.values(), key=near.index)[:most])


_BRIGHT_LADDER = frozenset({GOKO, SHIKO, AME_SHIKO, SANKO})


def _bright_reach(scorer: Scorer, own: CardSet, theirs: CardSet, month: int) -> set[str]:
    """The bright yaku that some pile grown from ``own`` would score. With brights
    exclusive only the first enabled level scores, so a level its cards pass over is
    out of reach: once the four brights besides the rain man are in, the rain man makes
    goko, never ame-shiko. At most 32 piles, as there are five brights.

    >>> from koikoi.cards import cards_from_slugs
    >>> from koikoi.rules import PRESETS
    >>> shiko = ["pine-crane", "cherry-curtain", "susuki-moon", "paulownia-phoenix"]
    >>> sorted(_bright_reach(scorer_for(PRESETS["classic"]), cards_from_slugs(shiko), 0, 0))
    ['goko', 'shiko']
    """
    have = own & BRIGHTS
    free = BRIGHTS & ~own & ~theirs
    reach: set[str] = set()
    extra = free
    while True:
        reach.update(scorer.score(have | extra, month).keys() & _BRIGHT_LADDER)
        if not extra:
            return reach
        extra = (extra - 1) & free


def _goals(
    rules: RuleSet, scorer: Scorer, own: CardSet, made: dict[str, int], month: int
) -> list[tuple[str, int, CardSet, CardSet, int]]:
    """Each yaku as cards it must hold (``required``) plus ``needed`` cards of
    ``group``, as the scorer counts them under ``rules``."""
    others = BRIGHTS & ~RAINMAN
    # Where akatan-aotan replaces them, the second set makes akatan-aotan instead.
    replaced = scorer._replaces and scorer._akatan_aotan
    akatan = 0 if replaced and BLUE_RIBBONS & ~own == 0 else rules.akatan
    aotan = 0 if replaced and POETRY_RIBBONS & ~own == 0 else rules.aotan
    goals = [
        (GOKO, rules.goko, BRIGHTS, 0, 0),
        (SHIKO, rules.shiko, 0, others, 4),
        (AME_SHIKO, rules.ame_shiko, RAINMAN, others, 3),
        (SANKO, rules.sanko, 0, others, 3),
        (INOSHIKACHO_KEY, rules.inoshikacho, INOSHIKACHO, 0, 0),
        # A set that suppresses its category's count (best_per_category) keeps it
        # out of reach once made.
        (
            TANE,
            0 if scorer._best_animals and INOSHIKACHO & ~own == 0 else rules.tane,
            0,
            scorer._animals,
            rules.tane_min,
        ),
        (AKATAN, akatan, POETRY_RIBBONS, 0, 0),
        (AOTAN, aotan, BLUE_RIBBONS, 0, 0),
        (AKATAN_AOTAN, rules.akatan_aotan, _ALL_POETRY_AND_BLUE, 0, 0),
        (KUSATAN, rules.kusatan, GRASS_RIBBONS, 0, 0),
        (
            TAN,
            0 if scorer._best_ribbons and made.keys() & _RIBBON_SETS else rules.tan,
            0,
            RIBBONS,
            rules.tan_min,
        ),
        (KASU, rules.kasu, 0, scorer._plains, rules.kasu_min),
    ]
    if scorer._tsukifuda:
        months = range(1, MONTH_COUNT + 1) if scorer._tsukifuda_any else [month] if month else []
        goals += [(TSUKIFUDA, rules.tsukifuda, MONTH_MASKS[m], 0, 0) for m in months]
    # A canceller already taken rules the viewing yaku out for good; under
    # with-other-yaku, their own cards are not enough until another yaku is made.
    alone = not scorer._viewing_needs_other or made.keys() - {TSUKIMI, HANAMI}
    if scorer._viewing and alone and not own & scorer._viewing_cancel:
        season = scorer._viewing_season
        if not season or month == 8:
            goals.append((TSUKIMI, rules.tsukimi, _TSUKIMI, 0, 0))
        if not season or month == 3:
            goals.append((HANAMI, rules.hanami, _HANAMI, 0, 0))
    return goals


def _progress_toward(
    key: str,
    points: int,
    required: CardSet,
    group: CardSet,
    needed: int,
    own: CardSet,
    theirs: CardSet,
) -> Progress | None:
    if required & theirs or (group & ~theirs).bit_count() < needed:
        return None  # out of reach
    lacking = required & ~own
    short = max(0, needed - (own & group).bit_count())
    missing = lacking.bit_count() + short
    if not missing:
        return None
    kinds = {CARDS[card].kind for card in ids(lacking)} | (
        {CARDS[card].kind for card in ids(group)} if short else set()
    )
    kind = kinds.pop() if len(kinds) == 1 else None
    return Progress(key, missing, points, kind, None if group and short else lacking)


def multiplier(kind: Multiplier, own_calls: int, opponent_calls: int) -> int:
    """The factor koi-koi calls put on the stopper's score.

    >>> multiplier(Multiplier.PER_CALL, 1, 2), multiplier(Multiplier.OPPONENT_CALLED, 3, 0)
    (8, 1)
    """
    if kind is Multiplier.PER_CALL:
        return 1 << (own_calls + opponent_calls)
    if kind is Multiplier.ANY_CALLED:
        return 2 if own_calls or opponent_calls else 1
    if kind is Multiplier.OPPONENT_CALLED:
        return 2 if opponent_calls else 1
    if kind is Multiplier.PER_OPPONENT_CALL:
        return 1 << opponent_calls
    if kind is Multiplier.ADDITIVE:
        return own_calls - 2 if own_calls > _ADDITIVE_CALLS else 1
    return 1


_ADDITIVE_CALLS = 3
"""``multiplier = additive``: the own calls that each add a point; from the next one
on, the score is multiplied by (calls - 2) instead."""


def koikoi_bonus(kind: Multiplier, own_calls: int) -> int:
    """The points koi-koi calls add to the stopper's score (``multiplier = additive``:
    one per own call, up to three calls).

    >>> [koikoi_bonus(Multiplier.ADDITIVE, calls) for calls in range(6)]
    [0, 1, 2, 3, 0, 0]
    """
    if kind is Multiplier.ADDITIVE and own_calls <= _ADDITIVE_CALLS:
        return own_calls
    return 0


def multipliers(kind: Multiplier, calls: tuple[int, int] | list[int]) -> tuple[int, int]:
    """The multiplier each seat would score with if it stopped, given both seats' calls.

    >>> multipliers(Multiplier.OPPONENT_CALLED, (1, 0))
    (1, 2)
    """
    return multiplier(kind, calls[0], calls[1]), multiplier(kind, calls[1], calls[0])


@lru_cache(maxsize=256)
def scorer_for(rules: RuleSet) -> Scorer:
    """The compiled scorer of a rule set (cached: rule sets are immutable)."""
    return Scorer(rules)


def capture_counts(scorer: Scorer) -> dict[CardSet, int]:
    """The packed counts (:meth:`Scorer.counts`) of what a capture adds to a pile: two
    or four cards of one month. Rounds add them up for each pile.

    Rounds hold this table, not the scorer: among its keys is every two-card set of a
    month, so it would hold the very int of a two-card hand, and nothing that an
    observation reaches (its scorer included) holds such an int.
    """
    gains = (
        sum(1 << card for card in cards)
        for month_mask in MONTH_MASKS[1:]
        for size in (2, 4)
        for cards in combinations(ids(month_mask), size)
    )
    return {gain: scorer.counts(gain) for gain in gains}


def hand_yaku(hand: CardSet, rules: RuleSet) -> dict[str, int]:
    """The hand yaku a dealt hand holds: teshi (four of a month) before kuttsuki (four pairs).

    >>> from koikoi.cards import MONTH_MASKS
    >>> from koikoi.rules import PRESETS
    >>> hand_yaku(MONTH_MASKS[1] | MONTH_MASKS[2], PRESETS["traditional"])
    {'teshi': 6}
    """
    if not (rules.teshi or rules.kuttsuki):
        return {}
    counts = month_counts(hand)
    if rules.teshi and 4 in counts:
        return {TESHI: rules.teshi}
    if rules.kuttsuki and counts.count(2) >= 4:
        return {KUTTSUKI: rules.kuttsuki}
    return {}


@dataclass(frozen=True, slots=True)
class PileScore:
    """A pile's yaku, their total, and the stopper's final score (docs/rules.md §7 shape)."""

    yaku: dict[str, int]
    total: int
    final: int

    def to_json(self) -> dict[str, object]:
        return {"yaku": self.yaku, "total": self.total, "final": self.final}


def score_pile(
    cards: CardSet, rules: RuleSet, *, month: int = 0, own_calls: int = 0, opponent_calls: int = 0
) -> PileScore:
    """Score captured cards as ``koikoi score`` does.

    >>> from koikoi.cards import cards_from_slugs
    >>> from koikoi.rules import PRESETS
    >>> pile = cards_from_slugs(["clover-boar", "maple-deer", "peony-butterflies"])
    >>> score_pile(pile, PRESETS["classic"], own_calls=1)
    PileScore(yaku={'inoshikacho': 5}, total=5, final=10)
    """
    scorer = scorer_for(rules)
    yaku = scorer.score(cards, month, called=own_calls > 0)
    total = sum(yaku.values())
    return PileScore(yaku, total, scorer.final(total, own_calls, opponent_calls))
