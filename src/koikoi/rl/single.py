"""A Gymnasium environment: one learning agent plays a whole match against a koikoi player.

Registered as ``koikoi/KoiKoi-v0`` when :mod:`koikoi.rl` is imported::

    gymnasium.make("koikoi/KoiKoi-v0", opponent="normal", rules="classic")

The agent acts only on its own turns: the opponent's moves are played inside
:meth:`KoiKoiEnv.step` (and inside ``reset`` when the opponent moves first). The
observation is ``{"observation": array, "action_mask": int8 array}``
(:mod:`koikoi.rl.observations`), and ``info["action_mask"]`` holds the same mask for
code that keeps masks out of observations.

An illegal action (outside the mask, or not an integer) is refused: with
``illegal_action="penalty"`` (the default) the step costs ``illegal_penalty``, changes
nothing and reports ``info["illegal_action"] = True``; with ``"raise"`` it raises
:class:`~koikoi.round.IllegalActionError`.

Rewards are those of :class:`~koikoi.rl.observations.Rewards` from the agent's seat:
the rounds that end during a step (the agent's move and the opponent's replies) and,
at the match's end, the win bonus. Rounds that end before the agent's first move are
paid with its first step.

Seeding: ``reset(seed=s)`` plays ``Match(rules, seed=s)`` and seeds ``np_random``,
from which the agent's seat (unless ``seat`` is fixed), the opponent's seed (for an
opponent given by name) and the match seeds of later resets without a seed are drawn.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from koikoi.match import Match
from koikoi.players import Player, make_player
from koikoi.rl.matches import SEED_BOUND, render_table, start_match
from koikoi.rl.observations import (
    ACTION_COUNT,
    Rewards,
    action_mask,
    encode_observation,
    observation_space,
    rules_from,
)
from koikoi.round import Action, IllegalActionError
from koikoi.rules import RuleSet

ENV_ID = "koikoi/KoiKoi-v0"

Observation = dict[str, Any]
"""``{"observation": float32 array, "action_mask": int8 array}`` (Gymnasium's Dict type)."""


class KoiKoiEnv(gymnasium.Env[Observation, np.int64]):
    """One agent against ``opponent`` (a name of :data:`koikoi.players.PLAYERS` or a player).

    ``seat`` fixes the agent's seat; None (the default) draws it for each match.
    ``opponent_options`` go to the opponent's factory (``budget_ms`` for the expert).
    """

    # Text frames have no rate of their own; Gymnasium's checker asks for one all the same.
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        opponent: str | Player = "normal",
        rules: str | RuleSet | Mapping[str, Any] = "classic",
        *,
        seat: int | None = None,
        render_mode: str | None = None,
        rewards: Rewards | None = None,
        illegal_action: Literal["penalty", "raise"] = "penalty",
        illegal_penalty: float = 0.1,
        opponent_options: Mapping[str, Any] | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if seat not in (None, 0, 1):
            raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
        if illegal_action not in ("penalty", "raise"):
            raise ValueError(f"illegal_action must be 'penalty' or 'raise', not {illegal_action!r}")
        if isinstance(opponent, str):
            make_player(opponent, seed=0, **(opponent_options or {}))  # a bad name fails now
        self.rules = rules_from(rules)
        self.render_mode = render_mode
        self.payout = rewards or Rewards()
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.observation_space = observation_space(self.rules)
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self._opponent_spec = opponent
        self._opponent_options = dict(opponent_options or {})
        self._fixed_seat = seat
        self._booked = 0
        self.seat = 0 if seat is None else seat
        self.opponent: Player | None = None
        self.match: Match | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        self.seat = int(rng.integers(2)) if self._fixed_seat is None else self._fixed_seat
        spec = self._opponent_spec
        self.opponent = (
            make_player(spec, seed=int(rng.integers(SEED_BOUND)), **self._opponent_options)
            if isinstance(spec, str)
            else spec
        )
        # The agent must have a move: a match the opponent decides before it (possible
        # only under house rules) is replaced like one decided at the deal.
        match = start_match(self.rules, seed, rng)
        self._reply(match)
        while match.is_over:
            match = start_match(self.rules, None, rng)
            self._reply(match)
        self.match = match
        self._booked = 0
        return self._observe(match)

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        match = self._live_match()
        move = _as_action(action)
        legal = match.legal_actions() if match.turn == self.seat else []
        if move is None or move not in legal:
            if self.illegal_action == "raise":
                raise IllegalActionError(action, legal)
            observation, info = self._observe(match)
            return observation, -self.illegal_penalty, False, False, info | {"illegal_action": True}
        match.apply(move)
        self._reply(match)
        finished = match.results[self._booked :]
        self._booked = len(match.results)
        reward = self.payout.for_rounds(finished, self.seat)
        if match.is_over:
            reward += self.payout.for_end(match, self.seat)
        observation, info = self._observe(match)
        return observation, reward, match.is_over, False, info

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi'")
            return None
        return render_table(self._live_match())

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The current mask (the method name that masking libraries look for)."""
        return action_mask(self._live_match().observation(self.seat))

    def _reply(self, match: Match) -> None:
        """The opponent moves until it is the agent's turn or the match is over."""
        assert self.opponent is not None
        other = 1 - self.seat
        while not match.is_over and match.turn == other:
            match.apply(self.opponent.choose(match.observation(other)))

    def _observe(self, match: Match) -> tuple[Observation, dict[str, Any]]:
        seen = match.observation(self.seat)
        mask = action_mask(seen)
        observation: Observation = {"observation": encode_observation(seen), "action_mask": mask}
        return observation, {"action_mask": mask.copy(), "seat": self.seat}

    def _live_match(self) -> Match:
        if self.match is None:
            raise RuntimeError("reset() the environment before using it")
        return self.match


def _as_action(action: Any) -> Action | None:
    """An integer action (NumPy's too), or None for anything that is not an integer."""
    try:
        return operator.index(action)
    except TypeError:
        return None
