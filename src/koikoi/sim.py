"""Playing games between players: the loop that simulations and tournaments share."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from koikoi.match import Match
from koikoi.players import PLAYERS, Player, make_player
from koikoi.round import Phase, Round
from koikoi.rules import RuleSet

_OVER = Phase.OVER


def play_out(match: Match, players: Sequence[Player]) -> Match:
    """Let the players move, each from its own seat's observation, until the match ends;
    then tell the players that keep a program running (``finish``) how it ended.

    A player that reads nothing but its legal actions (``choose_legal``, see
    :class:`~koikoi.players.LegalActionsPlayer`) is given those alone: building the
    observation it would not read cost a sixth of a random round's instructions.
    """
    choose = [player.choose for player in players]
    pick = [getattr(player, "choose_legal", None) for player in players]
    while not match.is_over:
        # Round by round: asking the match for its state before every move costs a
        # twentieth of a simulation. The view is the one ``match.observation`` gives,
        # shared until the round is booked.
        game = match.round
        view = match.view()
        # Match.apply's steps, unrolled: its call costs a twentieth of a random move.
        apply, observe, legal = game.apply, game.observation, game.legal_actions
        taken = match.actions.append
        while game.phase is not _OVER:
            seat = game.turn
            picker = pick[seat]
            action = choose[seat](observe(seat, view)) if picker is None else picker(legal())
            apply(action)
            taken(action)
        match.book_round()
    for player in players:
        finish = getattr(player, "finish", None)
        if finish is not None:
            finish(match)
    return match


def game_seeds(seed: int, count: int) -> list[int]:
    """Independent seeds for ``count`` games, all from one seed."""
    rng = random.Random(seed)
    return [rng.getrandbits(48) for _ in range(count)]


def simulate(
    rules: RuleSet,
    player_names: Sequence[str],
    *,
    seed: int,
    matches: int = 0,
    rounds: int = 0,
) -> Iterator[Match]:
    """Play ``matches`` whole matches, or ``rounds`` single deals, and yield each.

    Each match is repeatable from a seed of its own, which its record names. Single
    deals alternate the dealer and are played as given deals (month unknown), so each
    one's record stands alone; they come one after another from a generator seeded
    once, so a seed deals the same cards whichever players play them.
    """
    if rounds:
        # Two generators, seeded once: reseeding for every deal cost a fourteenth of a
        # random round. The players draw from their own, so they cannot change the deals.
        deals, choices = random.Random(seed), random.Random(seed + 1)
        seated = _seating(player_names, choices)
        for index in range(rounds):
            match = Match.single(Round.deal(rules, deals, dealer=index % 2))
            yield play_out(match, seated())
        return
    # One generator, reseeded for each match: the same streams as a new one per match,
    # and cheaper.
    rng = random.Random()
    # Both seats draw from the one generator: each seeding costs about a twentieth of
    # a random round.
    seated = _seating(player_names, rng)
    for game_seed in game_seeds(seed, matches):
        match = Match(rules, game_seed)
        rng.seed(game_seed + 1)  # not the stream the match deals from
        yield play_out(match, seated())


def _seating(player_names: Sequence[str], rng: random.Random) -> Callable[[], list[Player]]:
    """The players of each next game, drawing from ``rng``.

    The built-in players keep nothing between decisions but the generator they draw
    from, so one pair plays every game, as a new pair on the same generator would
    (making two players cost a fiftieth of a random round). A program (``cmd:``,
    ``js:``) is a new run for every game, with a seed of its own.
    """
    if all(name in PLAYERS for name in player_names):
        players = [make_player(name, rng) for name in player_names]
        return lambda: players
    return lambda: [make_player(name, rng) for name in player_names]


@dataclass
class Tally:
    """Running results of a simulation, seen from each seat."""

    games: int = 0
    rounds: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, match: Match) -> None:
        self.games += 1
        self.rounds += len(match.results)
        # Each property read once: a tally is kept for every simulated deal.
        winner = match.winner
        if winner is None:
            self.draws += 1
        else:
            self.wins[winner] += 1
        start, totals = match.starting_points, match.totals
        self.points[0] += totals[0] - start
        self.points[1] += totals[1] - start

    def points_per_round(self, seat: int) -> float:
        return self.points[seat] / self.rounds if self.rounds else 0.0
