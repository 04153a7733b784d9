"""What a ranked match is, and what makes its result count.

A match can be ranked only under a preset as it stands (its own rules and length):
house rules or a shortened match would make ratings and points cheap. A ranked result
then counts only where it came from real play: a match between people given up (or
lost to the clock) before each player has made :data:`MIN_ACTIONS` actions is
*aborted* (no rating, no points, in no total), and repeated results between the same
two accounts move their ratings less and less (:func:`repeat_weight`). Against the
computer a resignation is a loss at once, from which nobody gains.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from koikoi.match import Match
from koikoi.round import action_from_json
from koikoi.rules import PRESETS, RuleSet
from koikoi.server.errors import Refused

HOUSE = "house"
"""The rule-set name of anything that is not exactly a preset."""
RANKED_PRESETS = ("classic", "ten-card", "single-deal", "traditional")
"""The rule sets a match can be ranked under, as they stand."""
POINTS_PRESETS = ("classic", "ten-card", "traditional")
"""The ranked rule sets whose won matches earn ranking points: a single-deal match is
one round by design, so it moves the rating only."""
RANKING_POINTS: dict[str, int] = {"easy": 10, "normal": 30, "expert": 100}
"""What beating the computer in a ranked match earns (docs/rules.md §5); a match between
people earns rating, not points."""

MIN_ACTIONS = 8
"""Actions each player must have made before a match between people that is given up
(resigned, or lost to the clock) counts. Eight is a whole hand of the classic deal
played out; a round can end after three cards each by a stop, so "a round over" would
let a pair of accounts trade results after a few seconds of play. The count comes from
the record alone, whoever (player or clock) made the actions."""
REPEAT_WINDOW = timedelta(days=1)
"""How far back a pair's earlier results make a new one between them count less."""


def rules_name(rules: RuleSet) -> str:
    """The preset the rules are, or ``house`` for a preset with changes.

    >>> rules_name(PRESETS["ten-card"]), rules_name(RuleSet.from_mapping({"tsukimi": 0}))
    ('ten-card', 'house')
    """
    return rules.preset if PRESETS.get(rules.preset) == rules else HOUSE


class NotRankableError(Refused):
    """A ranked match asked for where one cannot be."""

    status = 422


def check_rankable(name: str, signed_in: bool) -> None:
    """Refuse a ranked match for a guest (403) or under rules ``name`` that are no
    preset as it stands (422): one sentence for matches against the computer and
    tables alike."""
    if not signed_in:
        raise NotRankableError("sign in to play a ranked match", status=403)
    if name not in RANKED_PRESETS:
        raise NotRankableError(
            "only a preset as it stands can be ranked (house rules or another match"
            f" length make it friendly); these rules are {name!r}"
        )


def points_for(level: str, rules_name: str) -> int:
    """The ranking points a ranked win against ``level`` under ``rules_name`` earns."""
    return RANKING_POINTS[level] if rules_name in POINTS_PRESETS else 0


def seat_actions(rules: RuleSet, seed: int, actions: list[Any]) -> tuple[int, int]:
    """How many of a seeded match's ``actions`` (record form) each seat made.

    >>> seat_actions(PRESETS["classic"], 7, [])
    (0, 0)
    """
    match = Match(rules, seed)
    made = [0, 0]
    for data in actions:
        made[match.turn] += 1
        match.apply(action_from_json(data))
    return made[0], made[1]


def too_short(given_up: bool, actions: tuple[int, int]) -> bool:
    """Whether a match between people that ended with ``actions`` made by each seat is
    aborted: given up (not played to its end) before both had made MIN_ACTIONS.

    >>> too_short(True, (8, 7)), too_short(True, (8, 8)), too_short(False, (2, 1))
    (True, False, False)
    """
    return given_up and min(actions) < MIN_ACTIONS


def repeat_weight(earlier: int) -> float:
    """How far a ranked result between two accounts moves their ratings, as a share of
    the model's move, when ``earlier`` rated results between the same two came within
    REPEAT_WINDOW: 1, then 1/4, 1/9 ... 1/k² for the k-th. The tenth thus moves them a
    hundredth as far as the first: a pair that trades wins gains little, while
    players who meet again now and then are rated as ever.

    >>> [repeat_weight(n) for n in (0, 1, 9)]
    [1.0, 0.25, 0.01]
    """
    return 1.0 / (earlier + 1) ** 2
