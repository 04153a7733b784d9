"""One deal of Koi-Koi as an explicit state machine (docs/rules.md §2).

A :class:`Round` moves through phases: a hand card is played (``PLAY``), a field card
is chosen when two match it (``HAND_CHOICE``), the stock is drawn automatically and a
field card is chosen when two match the drawn card (``DRAW_CHOICE``), and the player
decides stop or koi-koi when a yaku triggers it (``DECISION``), until ``OVER``.

Actions are small integers, so legal moves are cheap lists and action masks are free
for learning code: :func:`play` and :func:`capture` build them, :data:`KOIKOI` and
:data:`STOP` are constants. Cards are ids and sets of cards are 48-bit ints
(:mod:`koikoi.cards`).

>>> from koikoi.rules import PRESETS
>>> game = Round.deal(PRESETS["classic"], seed=7, dealer=0)
>>> game.phase is Phase.PLAY, len(game.legal_actions())
(True, 8)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> game.result.winner in (0, 1, None)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import FrozenInstanceError, dataclass
from enum import Enum
from functools import lru_cache
from itertools import pairwise
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from koikoi.cards import (
    ALL_CARDS,
    CARD_COUNT,
    MONTH_MASK_OF,
    SLUGS,
    CardSet,
    UnknownCardError,
    card_from_slug,
    cards_from_slugs,
    ids,
    month_counts,
    slugs,
)
from koikoi.rules import BothHandYaku, Decision, Exhausted, RulesError, RuleSet
from koikoi.yaku import Scorer, capture_counts, hand_yaku, scorer_for

Action = int
"""An action: ``0..47`` plays a card, ``48..95`` captures a field card, then koi-koi, stop."""

CAPTURE_BASE = CARD_COUNT
KOIKOI: Action = 2 * CARD_COUNT
STOP: Action = KOIKOI + 1
ACTION_COUNT = STOP + 1

_BITS = [1 << card for card in range(CARD_COUNT)]
"""``_BITS[card]`` is ``1 << card``, looked up: a shift costs several times as much.
A list, not a tuple: ``map`` calls a list's ``__getitem__`` a third faster."""
_BIT_OF = _BITS.__getitem__

MAX_REDEALS = 1000
"""A seeded deal gives up after this many redeals in a row: such rules never deal."""


def play(card: int | str) -> Action:
    """The action of playing a hand card (an id or a slug)."""
    return card_from_slug(card) if isinstance(card, str) else card


def capture(card: int | str) -> Action:
    """The action of choosing a field card when two match."""
    return CAPTURE_BASE + (card_from_slug(card) if isinstance(card, str) else card)


def action_to_json(action: Action) -> dict[str, Any]:
    """An action in record form: ``{"play": slug}``, ``{"capture": slug}``, ``{"koikoi": true}``."""
    if 0 <= action < CAPTURE_BASE:
        return {"play": SLUGS[action]}
    if action < KOIKOI:
        return {"capture": SLUGS[action - CAPTURE_BASE]}
    if action == KOIKOI:
        return {"koikoi": True}
    if action == STOP:
        return {"stop": True}
    raise ValueError(f"not an action: {action!r}")


def action_from_json(data: Any) -> Action:
    """Parse a record action; anything else is an error naming it."""
    if isinstance(data, dict) and len(data) == 1:
        ((key, value),) = data.items()
        if key in ("play", "capture") and isinstance(value, str):
            try:
                return play(value) if key == "play" else capture(value)
            except UnknownCardError as error:
                raise ValueError(f"action {data!r}: {error}") from None
        if key in ("koikoi", "stop") and value is True:
            return KOIKOI if key == "koikoi" else STOP
    raise ValueError(
        f"not an action: {data!r}; actions are {{'play': slug}}, {{'capture': slug}}, "
        "{'koikoi': true} or {'stop': true}"
    )


def action_name(action: Action) -> str:
    """A short readable name: ``play pine-crane``, ``capture maple-deer``, ``koikoi``."""
    ((key, value),) = action_to_json(action).items()
    return key if value is True else f"{key} {value}"


class Phase(Enum):
    PLAY = "play"
    HAND_CHOICE = "hand-choice"
    DRAW_CHOICE = "draw-choice"
    DECISION = "decision"
    OVER = "over"


_PLAY, _HAND_CHOICE, _DRAW_CHOICE, _DECISION, _OVER = Phase  # fast names for the hot path

PLAYED = "play"
DRAWN = "draw"


class IllegalActionError(ValueError):
    """An action the round does not allow now; the round is left unchanged."""

    def __init__(self, action: object, legal: Sequence[Action]) -> None:
        self.action = action
        self.legal = tuple(legal)
        shown = (
            action_name(action)
            if isinstance(action, int) and 0 <= action < ACTION_COUNT
            else repr(action)
        )
        allowed = ", ".join(action_name(a) for a in legal) or "none (the round is over)"
        super().__init__(f"illegal action {shown}; legal now: {allowed}")


class DealError(ValueError):
    """A given deal that cannot stand: wrong sizes, unknown or repeated cards, a redeal."""


# How a round ended, as stored in RoundResult.reason.
STOPPED = "stop"
FINAL_TURN = "final-turn"
NO_CALL_ALLOWED = "no-call-allowed"
HAND_YAKU = "hand-yaku"
EXHAUSTED = "exhausted"


class RoundResult(NamedTuple):
    """How a round ended: the winner (None: nobody), each player's points and yaku.

    A named tuple rather than a frozen dataclass: every round and every rollout of the
    expert ends in one, and a frozen dataclass costs two and a half times as much to
    build (8.8k instructions against 3.5k).
    """

    winner: int | None
    points: tuple[int, int]
    yaku: tuple[dict[str, int], dict[str, int]]
    calls: tuple[int, int]
    reason: str

    def to_json(self) -> dict[str, Any]:
        """The docs/rules.md §7 form of one round in ``koikoi replay --json``."""
        return {
            "winner": self.winner,
            "points": list(self.points),
            "yaku": [dict(self.yaku[0]), dict(self.yaku[1])],
            "calls": list(self.calls),
        }


class Event(NamedTuple):
    """A card that went down in a turn: played from the hand or drawn from the stock.

    The round keeps these as plain tuples (building a named tuple costs more than the
    rest of a move); views such as observations wrap them.
    """

    seat: int
    source: str  # PLAYED or DRAWN
    card: int
    captured: CardSet  # the cards taken with it; 0 when it stayed on the field


@dataclass(frozen=True, slots=True)
class MatchView:
    """The match around a round, as both players see it."""

    round_number: int  # 1-based
    rounds: int  # rounds in the match
    totals: tuple[int, int]
    target_score: int  # 0: none

    @property
    def rounds_left(self) -> int:
        """Rounds after this one."""
        return self.rounds - self.round_number


class _ObservationSlots:
    """The storage of an :class:`Observation`, writable only while one is being built.

    :meth:`Round.observation` fills a bare instance with plain slot stores and then
    makes it an ``Observation``: several times cheaper than the ``object.__setattr__`` per
    field that a frozen class needs, and an observation is built for every decision.
    """

    __slots__ = (
        "_events",
        "_history",
        "_scorer",
        "_yaku",
        "calls",
        "captured",
        "dealer",
        "decided",
        "field",
        "hand",
        "legal_actions",
        "match",
        "month",
        "opponent_hand_size",
        "pending_card",
        "phase",
        "result",
        "rules",
        "seat",
        "stock_size",
        "turn",
    )

    seat: int
    rules: RuleSet
    phase: Phase
    turn: int
    dealer: int
    month: int
    hand: CardSet
    opponent_hand_size: int
    field: CardSet
    captured: tuple[CardSet, CardSet]
    stock_size: int
    pending_card: int | None
    # Not lazy like yaku and history: every player reads it, and a property's first
    # read costs as much again as working it out.
    legal_actions: tuple[Action, ...]
    calls: tuple[int, int]
    decided: tuple[dict[str, int] | None, dict[str, int] | None]
    result: RoundResult | None
    match: MatchView | None
    # Public snapshots from which the lazy attributes are computed on first read (left
    # unset until then: most players never read most of them).
    _scorer: Scorer
    _events: tuple[tuple[int, str, int, CardSet], ...]
    _yaku: tuple[dict[str, int], dict[str, int]]
    _history: tuple[Event, ...]


class Observation(_ObservationSlots):
    """Everything one seat may know, and nothing it may not.

    Never the opponent's hand (only its size) nor the stock order (only its size), and
    no reference to the round: only copies of its public parts. ``decided`` holds each
    player's yaku at their last koi-koi (None before any): it decides when the
    stop-or-koi-koi choice reopens. ``legal_actions`` holds this seat's legal actions
    (none while the other seat is to move); ``yaku`` and ``history`` are computed when
    first read. Observations are read-only and compare by what they show.
    """

    __slots__ = ()

    def __init__(
        self,
        seat: int,
        rules: RuleSet,
        phase: Phase,
        turn: int,
        dealer: int,
        month: int,
        hand: CardSet,
        opponent_hand_size: int,
        field: CardSet,
        captured: tuple[CardSet, CardSet],
        stock_size: int,
        pending_card: int | None,
        legal_actions: tuple[Action, ...],
        calls: tuple[int, int],
        yaku: tuple[dict[str, int], dict[str, int]],
        decided: tuple[dict[str, int] | None, dict[str, int] | None],
        history: tuple[Event, ...],
        result: RoundResult | None,
        match: MatchView | None = None,
    ) -> None:
        """A view given in full (for tests and tools; rounds build theirs lazily)."""
        given = {
            "seat": seat,
            "rules": rules,
            "phase": phase,
            "turn": turn,
            "dealer": dealer,
            "month": month,
            "hand": hand,
            "opponent_hand_size": opponent_hand_size,
            "field": field,
            "captured": captured,
            "stock_size": stock_size,
            "pending_card": pending_card,
            "legal_actions": legal_actions,
            "calls": calls,
            "decided": decided,
            "result": result,
            "match": match,
            "_scorer": scorer_for(rules),
            "_events": history,
            "_yaku": yaku,
            "_history": history,
        }
        for name, value in given.items():
            object.__setattr__(self, name, value)

    @property
    def yaku(self) -> tuple[dict[str, int], dict[str, int]]:
        """Each seat's yaku from its captured cards (hand yaku not included)."""
        try:
            return self._yaku
        except AttributeError:  # the first read
            score, calls = self._scorer.score, self.calls
            yaku = (
                score(self.captured[0], self.month, calls[0] > 0),
                score(self.captured[1], self.month, calls[1] > 0),
            )
            object.__setattr__(self, "_yaku", yaku)
            return yaku

    @property
    def history(self) -> tuple[Event, ...]:
        """The cards that went down so far, in order."""
        try:
            return self._history
        except AttributeError:  # the first read
            history = tuple(map(Event._make, self._events))
            object.__setattr__(self, "_history", history)
            return history

    @property
    def unseen(self) -> CardSet:
        """The cards this seat cannot see: the opponent's hand and the stock."""
        seen = self.hand | self.field | self.captured[0] | self.captured[1]
        if self.pending_card is not None:
            seen |= 1 << self.pending_card
        return ALL_CARDS & ~seen

    @property
    def to_move(self) -> bool:
        return bool(self.legal_actions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return bool(_shown(self) == _shown(other))

    __hash__ = None  # type: ignore[assignment]  # yaku dicts are not hashable

    def __repr__(self) -> str:
        shown = zip(_SHOWN, _shown(self), strict=True)
        return f"Observation({', '.join(f'{name}={value!r}' for name, value in shown)})"

    def __reduce__(self) -> tuple[type[Observation], tuple[object, ...]]:
        return Observation, _shown(self)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


_SHOWN = (
    "seat",
    "rules",
    "phase",
    "turn",
    "dealer",
    "month",
    "hand",
    "opponent_hand_size",
    "field",
    "captured",
    "stock_size",
    "pending_card",
    "legal_actions",
    "calls",
    "yaku",
    "decided",
    "history",
    "result",
    "match",
)
"""The public attributes of an observation, in its constructor's order."""
_shown = attrgetter(*_SHOWN)


def _legal_moves(
    phase: Phase, rules: RuleSet, hand: list[int], field: CardSet, pending: int | None
) -> Sequence[Action]:
    """The mover's legal actions, from what the mover sees (shared by rounds and views):
    ``hand`` is the mover's hand cards, lowest first. It may be ``hand`` itself, so
    callers copy it."""
    if phase is _PLAY:
        if rules.forced_capture:
            matching = [c for c in hand if field & MONTH_MASK_OF[c]]
            if matching:
                return matching
        return hand
    if phase is _DECISION:
        return _DECISIONS
    if phase is _OVER:
        return ()
    assert pending is not None  # a choice phase: a card waits
    return [CAPTURE_BASE + c for c in ids(field & MONTH_MASK_OF[pending])]


_DECISIONS = (KOIKOI, STOP)


def _field_redeals(field: CardSet, rules: RuleSet) -> bool:
    if not (rules.redeal_four_of_month or rules.redeal_three_of_month or rules.redeal_four_pairs):
        return False
    counts = month_counts(field)
    return (
        (rules.redeal_four_of_month and 4 in counts)
        or (rules.redeal_three_of_month and max(counts) >= 3)
        or (rules.redeal_four_pairs and counts.count(2) >= 4)
    )


def _hand_redeals(hand: CardSet, rules: RuleSet) -> bool:
    """A dealt hand that holds teshi or kuttsuki where these rules redeal it instead."""
    if not (rules.redeal_hand_four_of_month or rules.redeal_hand_four_pairs):
        return False
    counts = month_counts(hand)
    return (rules.redeal_hand_four_of_month and 4 in counts) or (
        rules.redeal_hand_four_pairs and counts.count(2) >= 4
    )


class Round:
    """One deal between seats 0 and 1; ``dealer`` plays first.

    Build one with :meth:`deal` (shuffled from a seed), :meth:`from_deal` (given
    cards) or :meth:`from_observation` (a seat's view plus a guess of the hidden cards).
    """

    __slots__ = (
        "_baseline",
        "_capture_counts",
        "_counts",
        "_dealt",
        "_pending",
        "_pending_yaku",
        "_scorer",
        "_stock_pos",
        "_turn_start",
        "calls",
        "captured",
        "dealer",
        "field",
        "hand_cards",
        "hand_yaku",
        "hands",
        "history",
        "month",
        "phase",
        "result",
        "rules",
        "stock",
        "turn",
    )

    rules: RuleSet
    month: int
    dealer: int
    hands: list[CardSet]
    field: CardSet
    stock: tuple[int, ...]
    captured: list[CardSet]
    calls: tuple[int, int]
    turn: int
    phase: Phase
    history: list[tuple[int, str, int, CardSet]]
    hand_yaku: tuple[dict[str, int], dict[str, int]]
    result: RoundResult | None
    _scorer: Scorer
    _stock_pos: int
    _turn_start: CardSet
    _counts: list[int]
    """Each pile's packed counts for the scorer's quick no-yaku test (Scorer.counts),
    kept with ``captured``: added to capture by capture, from ``_capture_counts``."""
    _capture_counts: dict[CardSet, int]
    _pending: int | None  # the card waiting for a choice of capture; None: none
    _pending_yaku: dict[str, int] | None
    _baseline: tuple[dict[str, int] | None, dict[str, int] | None]
    _dealt: tuple[CardSet, CardSet, CardSet]
    hand_cards: list[list[int]]
    """Each hand's cards, lowest first, kept with ``hands`` (read them, never change
    them): what a seat may play, listed when dealt and then changed a card at a time
    (listing a set's cards costs more than the rest of a move)."""

    # -- building ----------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: RuleSet,
        seed: int | random.Random,
        dealer: int,
        month: int = 0,
    ) -> Round:
        """Shuffle and deal, redealing while the rules call for it.

        ``seed`` is an int or a ``random.Random`` that a match shares across rounds.
        ``month`` is the round's month (1-12) for ``tsukifuda``; 0 is unknown.
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        dealing = _dealing(rules)
        for _ in range(MAX_REDEALS):
            cards, hands, field, stock = _deal_from(shuffled_deck(rng), dealing, dealer)
            if dealing.redeals and (
                _field_redeals(field, rules)
                or _hand_redeals(hands[0], rules)
                or _hand_redeals(hands[1], rules)
            ):
                continue
            holders: list[dict[str, int]] = [{}, {}]
            if dealing.hand_yaku:
                holders = [hand_yaku(hands[0], rules), hand_yaku(hands[1], rules)]
                if holders[0] and holders[1] and rules.both_hand_yaku is BothHandYaku.REDEAL:
                    continue
            return cls._start(rules, dealing, dealer, hands, cards, field, stock, month, holders)
        raise RulesError([f"these rules redeal {MAX_REDEALS} times in a row; they cannot deal"])

    @classmethod
    def from_deal(
        cls,
        rules: RuleSet,
        dealer: int,
        hands: Sequence[Sequence[str]],
        field: Sequence[str],
        stock: Sequence[str],
        month: int = 0,
    ) -> Round:
        """A round from given cards (slugs; the stock top card first). The deal must stand."""
        if not isinstance(dealer, int) or isinstance(dealer, bool) or dealer not in (0, 1):
            raise DealError(f"dealer must be 0 or 1, not {dealer!r}")
        if len(hands) != 2:
            raise DealError(f"a deal has two hands, not {len(hands)}")
        try:
            hand_sets = [cards_from_slugs(hand) for hand in hands]
            field_set = cards_from_slugs(field)
            stock_ids = tuple(card_from_slug(slug) for slug in stock)
        except UnknownCardError as error:
            raise DealError(str(error)) from None
        for seat, hand in enumerate(hand_sets):
            if hand.bit_count() != rules.hand_size:
                raise DealError(
                    f"hand {seat} has {hand.bit_count()} cards; the rules deal {rules.hand_size}"
                )
        if field_set.bit_count() != rules.field_size:
            raise DealError(
                f"the field has {field_set.bit_count()} cards; the rules deal {rules.field_size}"
            )
        seen = 0
        for part in (hand_sets[0], hand_sets[1], field_set, *(1 << c for c in stock_ids)):
            if seen & part:
                raise DealError(f"card(s) {', '.join(slugs(seen & part))} dealt twice")
            seen |= part
        if seen != ALL_CARDS:
            raise DealError(f"card(s) missing from the deal: {', '.join(slugs(ALL_CARDS & ~seen))}")
        if _field_redeals(field_set, rules):
            raise DealError(
                "the field meets a redeal condition of these rules; it would be redealt"
            )
        for seat, hand in enumerate(hand_sets):
            if _hand_redeals(hand, rules):
                raise DealError(
                    f"hand {seat} meets a redeal condition of these rules; it would be redealt"
                )
        holders = [hand_yaku(hand, rules) for hand in hand_sets]
        if holders[0] and holders[1] and rules.both_hand_yaku is BothHandYaku.REDEAL:
            raise DealError("both hands hold a hand yaku; under these rules that deal is redealt")
        hand_cards = [ids(hand_sets[0]), ids(hand_sets[1])]
        return cls._start(
            rules,
            _dealing(rules),
            dealer,
            hand_sets,
            hand_cards,
            field_set,
            stock_ids,
            month,
            holders,
        )

    @classmethod
    def _start(
        cls,
        rules: RuleSet,
        dealing: _Dealing,
        dealer: int,
        hands: list[CardSet],
        hand_cards: list[list[int]],
        field: CardSet,
        stock: tuple[int, ...],
        month: int,
        holders: list[dict[str, int]],
    ) -> Round:
        game = object.__new__(cls)
        game.rules = rules
        game._scorer = dealing.scorer
        game.month = month
        game.dealer = dealer
        game.hands = hands
        game.hand_cards = hand_cards
        game.field = field
        game.stock = stock
        game._stock_pos = 0
        game._turn_start = 0
        game.captured = [0, 0]
        game._counts = [0, 0]
        game._capture_counts = dealing.capture_counts
        game.calls = (0, 0)
        game.turn = dealer
        game.phase = Phase.PLAY
        game.history = []
        game.hand_yaku = ({}, {})
        game.result = None
        game._pending = None
        game._pending_yaku = None
        game._baseline = (None, None)
        game._dealt = (hands[0], hands[1], field)
        both = holders[0] and holders[1]
        if (holders[0] or holders[1]) and not (
            both and rules.both_hand_yaku is BothHandYaku.IGNORE
        ):
            game._finish_hand_yaku(holders)
        return game

    def copy(self) -> Round:
        """An independent copy, cheap enough for search (the stock order is shared)."""
        other = object.__new__(Round)
        other.rules = self.rules
        other._scorer = self._scorer
        other.month = self.month
        other.dealer = self.dealer
        other.hands = self.hands.copy()
        other.hand_cards = [self.hand_cards[0].copy(), self.hand_cards[1].copy()]
        other.field = self.field
        other.stock = self.stock
        other._stock_pos = self._stock_pos
        other._turn_start = self._turn_start
        other.captured = self.captured.copy()
        other._counts = self._counts.copy()
        other._capture_counts = self._capture_counts
        other.calls = self.calls
        other.turn = self.turn
        other.phase = self.phase
        other.history = self.history.copy()
        other.hand_yaku = self.hand_yaku
        other.result = self.result
        other._pending = self._pending
        other._pending_yaku = self._pending_yaku
        other._baseline = self._baseline
        other._dealt = self._dealt
        return other

    # -- state -------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def stock_left(self) -> tuple[int, ...]:
        """The stock still face down, top card first (hidden from both players)."""
        return self.stock[self._stock_pos :]

    @property
    def pending_card(self) -> int | None:
        """The played or drawn card waiting for a choice between two field cards."""
        return self._pending

    def yaku(self, seat: int) -> dict[str, int]:
        """The yaku of a seat's captured cards (hand yaku not included)."""
        return self._scorer.score(self.captured[seat], self.month, self.calls[seat] > 0)

    def deal_json(self) -> dict[str, Any]:
        """The cards as dealt, in the given-deal form of a record (docs/rules.md §7)."""
        hand0, hand1, field = self._dealt
        return {
            "dealer": self.dealer,
            "hands": [slugs(hand0), slugs(hand1)],
            "field": slugs(field),
            "stock": [SLUGS[card] for card in self.stock],
        }

    def observation(self, seat: int, match: MatchView | None = None) -> Observation:
        """What ``seat`` may know now, and all it needs to decide (never hidden cards).

        Cheap: copies of the public state, with the rest computed if it is read.
        """
        obs = _ObservationSlots()  # a third cheaper than object.__new__(_ObservationSlots)
        obs.seat = seat
        obs.rules = self.rules
        obs.phase = phase = self.phase
        obs.turn = turn = self.turn
        obs.dealer = self.dealer
        obs.month = self.month
        obs.hand = self.hands[seat]
        obs.opponent_hand_size = self.hands[1 - seat].bit_count()
        obs.field = self.field
        obs.captured = (self.captured[0], self.captured[1])
        obs.stock_size = len(self.stock) - self._stock_pos
        obs.pending_card = self._pending
        if seat != turn:
            obs.legal_actions = ()
        elif phase is _PLAY and not self.rules.forced_capture:
            # Any hand card, as _legal_moves says: the commonest case, without its call.
            obs.legal_actions = tuple(self.hand_cards[seat])
        else:
            obs.legal_actions = tuple(
                _legal_moves(phase, self.rules, self.hand_cards[seat], self.field, self._pending)
            )
        obs.calls = self.calls
        obs.decided = self._baseline
        obs.result = self.result
        obs.match = match
        obs._scorer = self._scorer
        obs._events = tuple(self.history)
        obs.__class__ = Observation
        # Not typing.cast: a call that costs a twentieth of building the view.
        return obs  # type: ignore[return-value]

    @classmethod
    def from_observation(
        cls, observation: Observation, opponent_hand: CardSet, stock: Sequence[int]
    ) -> Round:
        """The round a seat sees, completed with a guess of the hidden cards.

        ``opponent_hand`` and ``stock`` (top card first) must together be exactly the
        cards the seat cannot see. Search uses this to play the guessed round out with
        the same engine.
        """
        obs = observation
        stock_set = sum(1 << card for card in stock)
        if (
            opponent_hand.bit_count() != obs.opponent_hand_size
            or len(stock) != obs.stock_size
            or stock_set.bit_count() != len(stock)
            or opponent_hand & stock_set
            or opponent_hand | stock_set != obs.unseen
        ):
            raise ValueError(
                f"the guess must split the {obs.unseen.bit_count()} unseen cards into a hand"
                f" of {obs.opponent_hand_size} and a stock of {obs.stock_size}"
            )
        dealing = _dealing(obs.rules)
        game = object.__new__(cls)
        game.rules = obs.rules
        game._scorer = dealing.scorer
        game.month = obs.month
        game.dealer = obs.dealer
        hands = [0, 0]
        hands[obs.seat] = obs.hand
        hands[1 - obs.seat] = opponent_hand
        game.hands = hands
        game.hand_cards = [ids(hands[0]), ids(hands[1])]
        game.field = obs.field
        game.stock = tuple(stock)
        game._stock_pos = 0
        game.captured = list(obs.captured)
        game._counts = [
            dealing.scorer.counts(obs.captured[0]),
            dealing.scorer.counts(obs.captured[1]),
        ]
        game._capture_counts = dealing.capture_counts
        game.calls = obs.calls
        game.turn = obs.turn
        game.phase = obs.phase
        game.history = list(obs._events)
        game.hand_yaku = ({}, {})
        game.result = obs.result
        game._pending = obs.pending_card
        game._pending_yaku = obs.yaku[obs.turn] if obs.phase is _DECISION else None
        game._baseline = obs.decided
        # Mid-turn, the pending choice is sure to capture, so the pile as it stands
        # serves as the turn's starting point.
        game._turn_start = obs.captured[obs.turn]
        game._dealt = (hands[0], hands[1], obs.field)  # unknown: what is known now
        return game

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase is _PLAY and not self.rules.forced_capture:
            # Any hand card, as _legal_moves says: the commonest case, without its call
            # (random players in simulations ask for this at every move).
            return self.hand_cards[self.turn][:]
        return list(
            _legal_moves(phase, self.rules, self.hand_cards[self.turn], self.field, self._pending)
        )

    # -- moves -------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply a legal action; an illegal one raises and changes nothing."""
        phase = self.phase
        seat = self.turn
        if phase is _PLAY:
            cards = self.hand_cards[seat]
            if type(action) is not int or (
                self.rules.forced_capture and not self._may_play(cards, action)
            ):
                raise IllegalActionError(action, self.legal_actions())
            try:
                cards.remove(action)  # also the check that the card is in the hand
            except ValueError:
                raise IllegalActionError(action, self.legal_actions()) from None
            bit = _BITS[action]
            self.hands[seat] ^= bit
            field = self.field
            matches = field & MONTH_MASK_OF[action]
            # Inlined _lay: this is the hottest line of every simulation.
            if matches:
                if matches.bit_count() == 2:
                    self.phase = _HAND_CHOICE
                    self._pending = action
                    return
                self.field = field ^ matches
                taken = matches | bit
                self.captured[seat] |= taken
                self._counts[seat] += self._capture_counts[taken]
            else:
                self.field = field | bit
            self.history.append((seat, PLAYED, action, matches))
        elif phase is _HAND_CHOICE or phase is _DRAW_CHOICE:
            pending = self._pending
            assert pending is not None  # the phase says that a card waits
            chosen = action - CAPTURE_BASE if type(action) is int else -1
            if not 0 <= chosen < CARD_COUNT or not (
                (self.field & MONTH_MASK_OF[pending]) >> chosen & 1
            ):
                raise IllegalActionError(action, self.legal_actions())
            self._pending = None
            self._lay(seat, pending, 1 << chosen, PLAYED if phase is _HAND_CHOICE else DRAWN)
        elif phase is _DECISION and action == KOIKOI and type(action) is int:
            calls = self.calls
            # A tuple, replaced rather than changed, so observations and copies share it.
            self.calls = (calls[0] + 1, calls[1]) if seat == 0 else (calls[0], calls[1] + 1)
            decided = self._pending_yaku
            if self.rules.viewing_after_koikoi:
                # The call itself may raise the viewing yaku: what the next decision
                # compares with is the pile as it now scores.
                decided = self.yaku(seat)
            baseline = self._baseline
            # A tuple, replaced rather than changed, so observations can share it.
            self._baseline = (decided, baseline[1]) if seat == 0 else (baseline[0], decided)
            self._pending_yaku = None
        elif phase is _DECISION and action == STOP and type(action) is int:
            yaku = self._pending_yaku
            assert yaku is not None
            self._finish_stop(seat, yaku, STOPPED)
            return
        else:
            raise IllegalActionError(action, self.legal_actions())
        # The rest of the turn is here rather than in methods of its own, whose calls
        # cost a fifth as much as the rest of a move.
        if phase is not _DECISION:
            if phase is not _DRAW_CHOICE:
                # The hand card is down: the stock's top card is drawn.
                pos = self._stock_pos
                if pos < len(self.stock):
                    card = self.stock[pos]
                    self._stock_pos = pos + 1
                    field = self.field
                    matches = field & MONTH_MASK_OF[card]
                    if matches:
                        if matches.bit_count() == 2:
                            self.phase = _DRAW_CHOICE
                            self._pending = card
                            return
                        self.field = field ^ matches
                        taken = matches | _BITS[card]
                        self.captured[seat] |= taken
                        self._counts[seat] += self._capture_counts[taken]
                    else:
                        self.field = field | _BITS[card]
                    self.history.append((seat, DRAWN, card, matches))
            captured = self.captured[seat]
            # Yaku only change with captures, and a yaku held at the start of the turn
            # has already had its decision. Most piles make none, which the quick test
            # (Scorer.may_score, inlined) tells at a fraction of the cost of scoring.
            scorer = self._scorer
            if (
                captured != self._turn_start
                and (self._counts[seat] + scorer.count_bias) & scorer.count_flags
            ):
                yaku = scorer.score(captured, self.month, self.calls[seat] > 0)
                if yaku and self._triggered(seat, yaku):
                    self._yaku_made(seat, yaku)
                    return
        # The turn is over (after a koi-koi call too): the other seat's, or the end.
        if (not self.hands[0] and not self.hands[1]) or self._stock_pos == len(self.stock):
            self._finish_exhausted()
        else:
            self.turn = 1 - seat
            self.phase = _PLAY
            self._turn_start = self.captured[1 - seat]

    def _may_play(self, hand: list[int], card: int) -> bool:
        """``forced_capture``: a hand card, which may match nothing only when no hand
        card matches."""
        if card not in hand:
            return False
        field = self.field
        return bool(field & MONTH_MASK_OF[card]) or not any(field & MONTH_MASK_OF[c] for c in hand)

    def _lay(self, seat: int, card: int, taken: CardSet, source: str) -> None:
        """A card goes down: it captures ``taken``, or stays on the field when that is 0."""
        if taken:
            self.field ^= taken
            pile_gains = taken | 1 << card
            self.captured[seat] |= pile_gains
            self._counts[seat] += self._capture_counts[pile_gains]
        else:
            self.field |= 1 << card
        self.history.append((seat, source, card, taken))

    def _yaku_made(self, seat: int, yaku: dict[str, int]) -> None:
        """A turn made new yaku: the round ends on the last turn or where no call is
        allowed; otherwise the seat decides."""
        if not self.hands[seat] or self._stock_pos == len(self.stock):
            self._finish_stop(seat, yaku, FINAL_TURN)
        elif not self._may_call(seat):
            self._finish_stop(seat, yaku, NO_CALL_ALLOWED)
        else:
            self.phase = _DECISION
            self._pending_yaku = yaku

    def _triggered(self, seat: int, yaku: dict[str, int]) -> bool:
        baseline = self._baseline[seat]
        if baseline is None:
            return True
        if self.rules.decision is Decision.NEW_YAKU:
            return not yaku.keys() <= baseline.keys()
        return sum(yaku.values()) > sum(baseline.values())

    def _may_call(self, seat: int) -> bool:
        rules = self.rules
        if rules.max_koikoi and self.calls[seat] >= rules.max_koikoi:
            return False
        return rules.koikoi_after_opponent or not self.calls[1 - seat]

    # -- endings -----------------------------------------------------------------------

    def _end(
        self,
        winner: int | None,
        points: tuple[int, int],
        reason: str,
        held: tuple[dict[str, int], dict[str, int]] | None = None,
    ) -> None:
        self.phase = _OVER
        self._pending_yaku = None
        if held is None:
            held = (self.yaku(0) | self.hand_yaku[0], self.yaku(1) | self.hand_yaku[1])
        self.result = RoundResult(winner, points, held, self.calls, reason)

    def _finish_stop(self, seat: int, yaku: dict[str, int], reason: str) -> None:
        score = self._scorer.final(sum(yaku.values()), self.calls[seat], self.calls[1 - seat])
        # A stop takes the round: the opponent's yaku (after a koi-koi) are forfeit.
        if seat == 0:
            self._end(0, (score, 0), reason, (yaku, {}))
        else:
            self._end(1, (0, score), reason, ({}, yaku))

    def _finish_exhausted(self) -> None:
        rules = self.rules
        if rules.exhausted is Exhausted.DEALER:
            points = rules.exhausted_points
            self._end(self.dealer, (points, 0) if self.dealer == 0 else (0, points), EXHAUSTED)
        else:
            self._end(None, (0, 0), EXHAUSTED)

    def _finish_hand_yaku(self, holders: list[dict[str, int]]) -> None:
        self.hand_yaku = (holders[0], holders[1])
        totals = (sum(holders[0].values()), sum(holders[1].values()))
        if holders[0] and holders[1]:
            if self.rules.both_hand_yaku is BothHandYaku.BOTH:
                self._end(None, totals, HAND_YAKU)
                return
            winner = self.dealer  # BothHandYaku.DEALER: the dealer scores theirs
        else:
            winner = 0 if holders[0] else 1
        self._end(winner, (totals[0], 0) if winner == 0 else (0, totals[1]), HAND_YAKU)


_DECK_ORDERS = math.factorial(CARD_COUNT)
_TAIL = 4
"""The last cards of a deck, which come from one lookup (of 4! orders)."""


def _digit_pairs(radix: int) -> tuple[tuple[int, int], ...]:
    """The two digits, low first, in radices ``radix`` and ``radix - 1``, of each number
    below their product."""
    return tuple((low, high) for high in range(radix - 1) for low in range(radix))


_RADIX_QUADS = tuple(
    (
        radix * (radix - 1) * (radix - 2) * (radix - 3),
        radix * (radix - 1),
        _digit_pairs(radix),
        _digit_pairs(radix - 2),
    )
    for radix in range(CARD_COUNT, _TAIL, -4)
)
"""The radices of a deck's code four at a time (48 to 45, down to 8 to 5): their
product, the product of the first two, and the digit pairs of each two."""


def _order(code: int, count: int) -> list[int]:
    """The order of ``count`` things that a code below ``count!`` stands for: its digits,
    lowest first, in radices ``count`` down to 1, each picking one of the things left."""
    remaining = list(range(count))
    order = []
    for radix in range(count, 0, -1):
        code, digit = divmod(code, radix)
        order.append(remaining.pop(digit))
    return order


_TAIL_ORDERS = tuple(itemgetter(*_order(code, _TAIL)) for code in range(math.factorial(_TAIL)))
"""What the tail's part of a code does to the cards left: puts them in its order."""


def shuffled_deck(rng: random.Random) -> list[int]:
    """A uniformly random order of the 48 cards: the one that a draw below 48! stands for
    (:func:`_order`).

    Less than half the cost of ``random.shuffle``, and the same order for a seed on
    every platform. Dividing the 203-bit draw costs more than anything else here but
    the cards' moves, so its digits come four to a division and then from tables.
    """
    code = rng.randrange(_DECK_ORDERS)
    remaining = list(range(CARD_COUNT))
    pop = remaining.pop
    deck: list[int] = []
    for product, low_product, lows, highs in _RADIX_QUADS:
        code, rest = divmod(code, product)
        first, second = lows[rest % low_product]
        third, fourth = highs[rest // low_product]
        deck += (pop(first), pop(second), pop(third), pop(fourth))
    deck += _TAIL_ORDERS[code](remaining)
    return deck


_Picker = Callable[[Sequence[int]], Sequence[int]]


class _Dealing(NamedTuple):
    """How a rule set deals, worked out once rather than for every deal: pickers of
    the deck positions that go to the non-dealer, the field, the dealer and the stock,
    whether a dealt hand or field needs any check at all, the scorer and its
    capture_counts table."""

    to_other: _Picker
    to_field: _Picker
    to_dealer: _Picker
    to_stock: _Picker
    redeals: bool  # some redeal rule is on
    hand_yaku: bool  # teshi or kuttsuki scores
    scorer: Scorer
    capture_counts: dict[CardSet, int]


@lru_cache(maxsize=64)
def _dealing(rules: RuleSet) -> _Dealing:
    """Cards go in turn to the non-dealer, the field and the dealer, one at a time or
    two at a time (``deal_in_pairs``); a destination that is full is skipped. The rest
    is the stock, top card first."""
    plan: tuple[list[int], list[int], list[int]] = ([], [], [])
    sizes = (rules.hand_size, rules.field_size, rules.hand_size)
    step = 2 if rules.deal_in_pairs else 1
    pos = 0
    while pos < sum(sizes):
        for target, positions in enumerate(plan):
            take = min(step, sizes[target] - len(positions))
            positions.extend(range(pos, pos + take))
            pos += take
    to_other, to_field, to_dealer = plan
    scorer = scorer_for(rules)
    return _Dealing(
        to_other=_picker(to_other),
        to_field=_picker(to_field),
        to_dealer=_picker(to_dealer),
        to_stock=_picker(list(range(pos, CARD_COUNT))),
        redeals=(
            rules.redeal_four_of_month
            or rules.redeal_three_of_month
            or rules.redeal_four_pairs
            or rules.redeal_hand_four_of_month
            or rules.redeal_hand_four_pairs
        ),
        hand_yaku=bool(rules.teshi or rules.kuttsuki),
        scorer=scorer,
        capture_counts=capture_counts(scorer),
    )


def _picker(positions: list[int]) -> _Picker:
    """The cards at these deck positions, always as a sequence (itemgetter alone is not)."""
    if len(positions) == 1:
        (only,) = positions
        return lambda deck: (deck[only],)
    if not positions:
        return lambda deck: ()
    steps = {high - low for low, high in pairwise(positions)}
    if len(steps) == 1:
        # Evenly spaced (cards dealt one at a time): a slice, a fraction of the cost.
        (step,) = steps
        return itemgetter(slice(positions[0], positions[-1] + 1, step))
    return itemgetter(*positions)


def _deal_from(
    deck: Sequence[int], dealing: _Dealing, dealer: int
) -> tuple[list[list[int]], list[CardSet], CardSet, tuple[int, ...]]:
    """Hands (their cards, lowest first, and as sets), field and stock (top card first)
    from a shuffled deck."""
    own, other = sorted(dealing.to_dealer(deck)), sorted(dealing.to_other(deck))
    hands = [other, own] if dealer else [own, other]
    # Each set summed in C (map and sum), with no call of ours per set.
    sets = [sum(map(_BIT_OF, hands[0])), sum(map(_BIT_OF, hands[1]))]
    return hands, sets, sum(map(_BIT_OF, dealing.to_field(deck))), tuple(dealing.to_stock(deck))
