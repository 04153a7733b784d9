"""A PettingZoo AEC environment: two learning agents play one whole match per episode.

``player_0`` sits at seat 0 and ``player_1`` at seat 1. The agent to act is the seat
whose turn it is, so one agent often acts several times in a row (a play, then the
choice between two field cards, then stop or koi-koi). Each observation is
``{"observation": array, "action_mask": int8 array}`` (:mod:`koikoi.rl.observations`);
an agent not to act sees a mask of zeros. An action outside the mask raises
:class:`~koikoi.round.IllegalActionError` and changes nothing: the mask is always
there, so such an action is a bug in the caller, not a move to learn from.

Rewards (:class:`~koikoi.rl.observations.Rewards`) come at each round's end and at the
match's end; a round decided at the deal (a hand yaku) is paid with the next step, so
that rewards after ``reset`` are zero, as PettingZoo expects.

Seeding: ``reset(seed=s)`` plays ``Match(rules, seed=s)``, the match any koikoi tool
plays from that seed, and seeds the generator that the seeds of later resets without
a seed are drawn from; with no seed ever given, they are drawn from fresh entropy.

>>> game = env(rules="single-deal")
>>> game.reset(seed=3)
>>> game.agent_selection in game.possible_agents
True
>>> observation, reward, terminated, truncated, info = game.last()
>>> sorted(observation), reward, terminated
(['action_mask', 'observation'], 0.0, False)
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from koikoi.match import Match
from koikoi.rl.matches import render_table, start_match
from koikoi.rl.observations import (
    ACTION_COUNT,
    Rewards,
    action_mask,
    encode_observation,
    observation_space,
    rules_from,
)
from koikoi.rules import RuleSet

AGENTS = ("player_0", "player_1")
"""The agents, by seat."""

RENDER_MODES = ("ansi",)


def env(
    rules: str | RuleSet | Mapping[str, Any] = "classic",
    render_mode: str | None = None,
    rewards: Rewards | None = None,
) -> AECEnv:
    """The environment, wrapped as PettingZoo's own are (steps in order, after a reset)."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, render_mode, rewards))


class raw_env(AECEnv):  # PettingZoo's name for the unwrapped environment
    """The environment without PettingZoo's order-checking wrapper (see :func:`env`)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "koikoi_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | RuleSet | Mapping[str, Any] = "classic",
        render_mode: str | None = None,
        rewards: Rewards | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = rules_from(rules)
        self.render_mode = render_mode
        self.payout = rewards or Rewards()
        self.possible_agents = list(AGENTS)
        # One space object per agent: PettingZoo seeds each agent's spaces on their own.
        self.observation_spaces = {agent: observation_space(self.rules) for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(ACTION_COUNT) for agent in AGENTS}
        self._seeds = np.random.default_rng()
        self._booked = 0
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds, _ = seeding.np_random(seed)
        self.match = start_match(self.rules, seed, self._seeds)
        self._booked = 0
        self.agents = self.possible_agents.copy()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = AGENTS[self.match.turn]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        observation = self._live_match().observation(AGENTS.index(agent))
        return {
            "observation": encode_observation(observation),
            "action_mask": action_mask(observation),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self._live_match()
        match.apply(operator.index(action))  # an illegal action raises here, changing nothing
        self._cumulative_rewards[agent] = 0.0
        finished = match.results[self._booked :]
        self._booked = len(match.results)
        for seat, name in enumerate(AGENTS):
            self.rewards[name] = self.payout.for_rounds(finished, seat) + (
                self.payout.for_end(match, seat) if match.is_over else 0.0
            )
        if match.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = AGENTS[match.turn]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi'")
            return None
        return render_table(self._live_match())

    def close(self) -> None:
        """Nothing to release: the environment holds no window, file or process."""

    def _live_match(self) -> Match:
        if self.match is None:
            raise RuntimeError("reset() the environment before using it")
        return self.match
