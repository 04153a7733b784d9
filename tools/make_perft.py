"""Write docs/perft.jsonl: perft vectors, counted by the Python engine (docs/perft.md).

Each vector is a position (a given-deal record whose actions lead to it), a depth and
the number of action sequences of that depth from the position. The positions are
found, not written by hand. For each situation below, the search deals seeded deals in
turn (each situation its own), plays seeded random actions (koi-koi at every decision)
from the deal to where the situation starts, and takes the first position whose perft
tree reaches every situation it claims (koikoi.perftvectors.coverage_depths) with a count in
bounds: at the smallest depth that does it, deepened while the count stays under
TARGET. A vector's name says its rules and what its tree reaches.

The seed and depth each search found are pinned in PINNED, so writing the file (and
checking it) counts each vector once instead of searching again; a pin that no longer
holds is searched for afresh, and the new pin is printed.

    .venv/bin/python tools/make_perft.py            # write docs/perft.jsonl
    .venv/bin/python tools/make_perft.py --check    # exit 1 if the file is stale
    .venv/bin/python tools/make_perft.py --search   # search every pin again, print them
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from koikoi.cards import MONTH_MASKS
from koikoi.perft import position
from koikoi.perftvectors import Vector, coverage, coverage_depths, rules_label
from koikoi.record import Record
from koikoi.round import KOIKOI, Phase, Round, action_to_json
from koikoi.rules import PRESETS, RuleSet

OUT = Path(__file__).resolve().parents[1] / "docs" / "perft.jsonl"

LOW, HIGH = 1_000, 200_000
"""A vector's count lies between these (but where a situation allows no other count,
such as a round over at the deal)."""

TARGET = 60_000
"""A vector is deepened while its count stays under this."""

SEARCH = 400
"""Seeds tried before a situation is given up."""

Reach = Callable[[Round], bool]


def at_deal(game: Round) -> bool:
    return True


def at_decision(game: Round) -> bool:
    return game.phase is Phase.DECISION


def after_a_call(game: Round) -> bool:
    """A turn begins after someone has called koi-koi."""
    return game.phase is Phase.PLAY and any(game.calls)


def cards_left(cards: int) -> Reach:
    """A turn begins with at most ``cards`` hand cards left in both hands together."""

    def reach(game: Round) -> bool:
        held = len(game.hand_cards[0]) + len(game.hand_cards[1])
        return game.phase is Phase.PLAY and held <= cards

    return reach


def stock_left(cards: int) -> Reach:
    """A turn begins with at most ``cards`` left in the stock."""

    def reach(game: Round) -> bool:
        return game.phase is Phase.PLAY and len(game.stock_left) <= cards

    return reach


def three_on_field(where: str) -> Reach:
    """A turn begins with three cards of a month on the field and the fourth in the
    mover's hand (``where`` "hand") or in the top four cards of the stock ("stock")."""

    def reach(game: Round) -> bool:
        if game.phase is not Phase.PLAY:
            return False
        if where == "hand":
            fourths = game.hands[game.turn]
        else:
            fourths = sum(1 << card for card in game.stock_left[:4])
        return any((game.field & mask).bit_count() == 3 and fourths & mask for mask in MONTH_MASKS)

    return reach


@dataclass(frozen=True)
class Situation:
    """What a vector is for: rules, where it starts, what its tree must reach."""

    label: str  # a preset's name, or "house"
    name: str
    rules: RuleSet
    tags: tuple[str, ...]
    reach: Reach
    depths: range
    bounds: tuple[int, int] = (LOW, HIGH)

    @property
    def key(self) -> str:
        return f"{self.label}/{self.name}"

    @property
    def title(self) -> str:
        return f"{self.key}: {', '.join(self.tags)}"

    @property
    def pin(self) -> tuple[int, int] | None:
        """The seed and depth the search found last time."""
        return PINNED.get(self.key)


PINNED: dict[str, tuple[int, int]] = {
    "classic/opening": (0, 6),
    "classic/decision": (10, 15),
    "classic/endgame": (2, 11),
    "ten-card/opening": (1, 6),
    "ten-card/decision": (0, 12),
    "ten-card/endgame": (1, 13),
    "single-deal/opening": (0, 6),
    "single-deal/decision": (14, 11),
    "single-deal/endgame": (0, 14),
    "traditional/opening": (2, 6),
    "traditional/decision": (56, 14),
    "traditional/endgame": (0, 16),
    "nintendo/opening": (2, 6),
    "nintendo/decision": (0, 8),
    "nintendo/endgame": (7, 14),
    "koikoi-japan/opening": (0, 6),
    "koikoi-japan/decision": (2, 10),
    "koikoi-japan/endgame": (2, 14),
    "classic/three-of-a-month-played": (10, 6),
    "koikoi-japan/three-of-a-month-drawn": (56, 10),
    "nintendo/after-a-call": (10, 7),
    "single-deal/hand-yaku": (108, 3),
    "house/no-koikoi-after-opponent": (14, 11),
    "house/max-koikoi-2": (7, 13),
    "house/whole-round": (12, 40),
    "house/short-stock": (0, 7),
}
"""The seed and depth each situation's search found (``--search`` prints them anew)."""


OPENING = (
    "play-no-match",
    "play-one-match",
    "hand-choice",
    "draw-no-match",
    "draw-one-match",
    "draw-choice",
)
DECISION = ("decision", "stop", "decision-again")
ENDGAME = ("final-turn", "exhausted")


def house(base: str, **changes: object) -> RuleSet:
    """A preset with house rules (values as a rules file has them)."""
    return PRESETS[base].with_overrides(changes)


def situations() -> list[Situation]:
    presets = PRESETS
    out: list[Situation] = []
    for name, rules in presets.items():
        # Forced captures prune the tree: its endgame starts two turns earlier.
        forced = ("forced-capture",) if rules.forced_capture else ()
        endgame = cards_left(14 if forced else 10)
        # One call at most (nintendo): no second decision.
        decision = DECISION if rules.max_koikoi != 1 else ("decision", "stop")
        out += [
            Situation(name, "opening", rules, (*OPENING, *forced), at_deal, range(3, 7)),
            Situation(name, "decision", rules, decision, at_decision, range(2, 24)),
            Situation(name, "endgame", rules, (*ENDGAME, "stop", *forced), endgame, range(4, 40)),
        ]
    classic = presets["classic"]
    small = house(
        "classic",
        hand_size=5,
        field_size=6,
        tane_min=2,
        tan_min=2,
        kasu_min=4,
        decision="new-yaku",
        max_koikoi=2,
    )
    out += [
        Situation(
            "classic",
            "three-of-a-month-played",
            classic,
            ("play-three-of-a-month",),
            three_on_field("hand"),
            range(2, 12),
        ),
        Situation(
            "koikoi-japan",
            "three-of-a-month-drawn",
            presets["koikoi-japan"],
            ("draw-three-of-a-month",),
            three_on_field("stock"),
            range(2, 12),
        ),
        Situation(
            "nintendo",
            "after-a-call",
            presets["nintendo"],
            ("no-call-max-koikoi", "no-call-after-opponent"),
            after_a_call,
            range(2, 24),
        ),
        Situation(
            "single-deal",
            "hand-yaku",
            presets["single-deal"],
            ("over-at-deal",),
            at_deal,
            range(3, 4),
            bounds=(1, 1),
        ),
        Situation(
            "house",
            "no-koikoi-after-opponent",
            house("classic", koikoi_after_opponent=False),
            ("no-call-after-opponent", "decision"),
            after_a_call,
            range(2, 24),
        ),
        Situation(
            "house",
            "max-koikoi-2",
            house("ten-card", max_koikoi=2, forced_capture=True),
            ("no-call-max-koikoi", "decision-again", "forced-capture"),
            after_a_call,
            range(2, 24),
        ),
        Situation(
            "house",
            "whole-round",
            small,
            (*OPENING, *DECISION, "no-call-max-koikoi", *ENDGAME),
            at_deal,
            range(40, 41),
        ),
        Situation(
            "house",
            "short-stock",
            house("classic", hand_size=16),
            ("stock-runs-out", "exhausted"),
            stock_left(4),
            range(2, 12),
        ),
    ]
    return out


def start(situation: Situation, seed: int) -> tuple[Round, dict[str, Any]] | None:
    """The position a seed leads to, and its record; None where the round ends first.

    The seed is the situation's own (its key and the number), so each situation deals
    its own cards."""
    rules = situation.rules
    rng = random.Random(f"{situation.key}:{seed}")
    game = Round.deal(rules, rng, dealer=seed % 2)
    dealt = game.deal_json()
    actions = []
    while not situation.reach(game):
        if game.is_over:
            return None
        # Koi-koi at every decision keeps the round going to where the situation starts.
        legal = game.legal_actions()
        action = KOIKOI if game.phase is Phase.DECISION else rng.choice(legal)
        game.apply(action)
        actions.append(action_to_json(action))
    record = {"rules": rules.to_mapping(), **dealt, "actions": actions}
    check(situation, seed, game, record)
    return game, record


def pinned(situation: Situation, seed: int, depth: int) -> Vector | None:
    """The vector of a pin, or None where it no longer holds: a count out of bounds or
    a claim its tree misses."""
    found = start(situation, seed)
    if found is None:
        return None
    game, record = found
    low, high = situation.bounds
    total = bounded_perft(game, depth, high)
    if total is None or total < low:
        return None
    want = set(situation.tags)
    if not want <= coverage(game, depth, want):
        return None
    return Vector(situation.title, record, depth, total)


def searched(situation: Situation, seed: int) -> Vector | None:
    """The vector a seed gives, or None where it misses a claim or the bounds: at the
    smallest depth of the situation's range whose tree reaches every claim with a
    count in bounds, deepened while the count stays under TARGET and still grows."""
    found = start(situation, seed)
    if found is None:
        return None
    game, record = found
    low, high = situation.bounds
    counts: dict[int, int] = {}  # the count at each depth of the range, while in bounds
    for depth in situation.depths:
        total = bounded_perft(game, depth, high)
        if total is None:
            break
        counts[depth] = total
    if not counts:
        return None
    needed = coverage_depths(game, max(counts))
    if not set(situation.tags) <= set(needed):
        return None
    least = max(needed[tag] for tag in situation.tags)
    fits = [d for d in counts if d >= least and counts[d] >= low]
    if not fits:
        return None
    depth = min(fits)
    while counts.get(depth + 1, TARGET + 1) <= TARGET and counts[depth + 1] > counts[depth]:
        depth += 1
    return Vector(situation.title, record, depth, counts[depth])


def find(situation: Situation, search: bool) -> tuple[Vector, tuple[int, int]]:
    """A situation's vector and its pin: the pinned one where it holds, else the first
    one the search finds (from the pinned seed on)."""
    pin = situation.pin
    if pin is not None and not search:
        vector = pinned(situation, *pin)
        if vector is not None:
            return vector, pin
        print(f"{situation.key}: the pin {pin} no longer holds; searching", file=sys.stderr)
    first = 0 if pin is None or search else pin[0]
    for seed in range(first, first + SEARCH):
        vector = searched(situation, seed)
        if vector is not None:
            found = (seed, vector.depth)
            if found != pin:
                print(f"    {situation.key!r}: {found},", file=sys.stderr)
            return vector, found
    raise SystemExit(f"no seed from {first} to {first + SEARCH - 1} gives {situation.title}")


def check(situation: Situation, seed: int, game: Round, record: dict[str, Any]) -> None:
    """The record says what was found: its replay stands where the search stood, under
    the rules the vector's name says."""
    replayed = position(Record.from_json(record))
    assert rules_label(Record.from_json(record)) == situation.label, situation.key
    same = ("history", "phase", "turn", "calls", "field", "hands", "captured", "stock_left")
    for name in same:
        assert getattr(replayed, name) == getattr(game, name), (situation.key, seed, name)


class _TooMany(Exception):
    pass


def bounded_perft(game: Round, depth: int, limit: int) -> int | None:
    """perft(game, depth), or None as soon as the count passes ``limit`` (a search
    need not count a tree to the end to know it is too large)."""
    total = 0

    def walk(node: Round, left: int) -> None:
        nonlocal total
        if left == 0 or node.is_over:
            total += 1
        elif left == 1:
            total += len(node.legal_actions())
        else:
            for action in node.legal_actions():
                child = node.copy()
                child.apply(action)
                walk(child, left - 1)
                if total > limit:
                    raise _TooMany
        if total > limit:
            raise _TooMany

    try:
        walk(game, depth)
    except _TooMany:
        return None
    return total


def vectors(search: bool = False) -> list[Vector]:
    return [find(situation, search)[0] for situation in situations()]


def text(found: list[Vector]) -> str:
    return "".join(vector.to_line() + "\n" for vector in found)


def stale_line(stored: str, made: str) -> int | None:
    """The first line (from 1) where a stored file differs from the one made; None
    where they are the same."""
    if stored == made:
        return None
    old, new = stored.splitlines(keepends=True), made.splitlines(keepends=True)
    differ = (n for n, (a, b) in enumerate(zip(old, new, strict=False), 1) if a != b)
    return next(differ, min(len(old), len(new)) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    parser.add_argument("--search", action="store_true", help="search every pin again")
    parser.add_argument("--out", type=Path, default=OUT, help=f"default: {OUT}")
    args = parser.parse_args()
    started = time.perf_counter()
    found = vectors(args.search)
    made = text(found)
    seconds = time.perf_counter() - started
    if args.check:
        try:
            stored = args.out.read_text()
        except OSError as error:
            raise SystemExit(f"cannot read {args.out}: {error.strerror}") from None
        line = stale_line(stored, made)
        if line is not None:
            raise SystemExit(
                f"{args.out} is stale from line {line} (python tools/make_perft.py writes it)"
            )
        print(f"{args.out}: {len(found)} vectors, up to date ({seconds:.1f} s)")
        return
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(made)
    nodes = sum(vector.count for vector in found)
    print(f"{args.out}: {len(found)} vectors, {nodes} sequences in all ({seconds:.1f} s)")


if __name__ == "__main__":
    main()
