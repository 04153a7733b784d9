"""Skill ratings: one per player and rule set, moved by every ranked match.

A rating is a belief about a player's strength: ``mu`` on the Elo scale and its
uncertainty ``sigma``. Each ranked match is a game against a computer level whose
rating is fixed (:data:`COMPUTER_RATINGS`), so only the player's belief moves, by
openskill's Thurstone-Mosteller model (a Weng-Lin Bayesian rating, of the Glicko
family): a result the ratings expected moves it little, a surprise moves it much,
and an uncertain rating moves more than a settled one.

The computer's ratings come from ``koikoi tournament`` (``bench/players.py ladder``,
200 paired 12-round classic matches per pair, and 100 at the expert's full budget):
the ladder's Elo, shifted so that easy sits at 1500, where every new player starts.
``BETA`` sets the model's luck to the ladder's own Elo scale, so that the model
predicts the bots' measured scores against each other (expert over easy: 79% by
the model, 81-83% measured).
"""

from __future__ import annotations

from openskill.models import ThurstoneMostellerFull

START = 1500.0
START_SIGMA = 350.0
BETA = 209.0
"""The spread of one match's luck: a logistic Elo scale of 400 points per factor of
ten, as a normal curve (400 / ln 10 x 1.70 / sqrt 2)."""
TAU = 5.0
"""Uncertainty added before each match, so a rating keeps following a player who
changes."""
RATED_SIGMA = 180.0
"""A rating is settled enough to stand on a board at this uncertainty or below: after
7 or 8 ranked matches of mixed results, or 18 of a one-sided run (all lost to easy,
or all won), whose results say less about where the player stands."""

COMPUTER_RATINGS: dict[str, float] = {"easy": 1500.0, "normal": 1600.0, "expert": 1770.0}
"""Measured (closing notes of the first session): normal beat easy 64.0% (Elo +100);
the expert at its full budget beat normal 72.5% (+168) and easy 83.0% (+275)."""

_MODEL = ThurstoneMostellerFull(mu=START, sigma=START_SIGMA, beta=BETA, tau=TAU)
_FIXED_SIGMA = 1e-6  # the computer's strength is known; its rating never moves


def rated(mu: float, sigma: float, level: str, score: float) -> tuple[float, float]:
    """A player's rating after a match against ``level``: ``score`` 1 for a win, 0.5
    for a draw, 0 for a loss (a resignation, an abandoned match).

    >>> settled = rated(1740.0, 60.0, "easy", 1.0)[0] - 1740.0
    >>> surprise = rated(1740.0, 60.0, "expert", 1.0)[0] - 1740.0
    >>> 0 < settled < surprise / 2
    True
    """
    player = _MODEL.rating(mu=mu, sigma=sigma)
    computer = _MODEL.rating(mu=COMPUTER_RATINGS[level], sigma=_FIXED_SIGMA)
    ranks = {1.0: [1.0, 2.0], 0.5: [1.0, 1.0], 0.0: [2.0, 1.0]}[score]
    [[after], _] = _MODEL.rate([[player], [computer]], ranks=ranks)
    return after.mu, after.sigma


def rated_pair(
    first: tuple[float, float],
    second: tuple[float, float],
    score: float,
    weight: float = 1.0,
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Two players' ratings (mu, sigma) after a ranked match between them: ``score``
    is the first player's, 1 for a win, 0.5 for a draw, 0 for a loss. Both move, by
    ``weight`` of the model's move (mean and uncertainty alike: a result that counts
    less also says less about either player).

    >>> (winner, _), (loser, _) = rated_pair((1500.0, 350.0), (1500.0, 350.0), 1.0)
    >>> winner > 1500.0 > loser
    True
    >>> (tenth, _), _ = rated_pair((1500.0, 350.0), (1500.0, 350.0), 1.0, 0.1)
    >>> round(tenth - 1500.0, 6) == round((winner - 1500.0) / 10, 6)
    True
    """
    ranks = {1.0: [1.0, 2.0], 0.5: [1.0, 1.0], 0.0: [2.0, 1.0]}[score]
    [[a], [b]] = _MODEL.rate(
        [
            [_MODEL.rating(mu=first[0], sigma=first[1])],
            [_MODEL.rating(mu=second[0], sigma=second[1])],
        ],
        ranks=ranks,
    )
    return _toward(first, (a.mu, a.sigma), weight), _toward(second, (b.mu, b.sigma), weight)


def _toward(
    before: tuple[float, float], after: tuple[float, float], weight: float
) -> tuple[float, float]:
    return (
        before[0] + (after[0] - before[0]) * weight,
        before[1] + (after[1] - before[1]) * weight,
    )
