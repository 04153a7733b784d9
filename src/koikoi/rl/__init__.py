"""Environments for reinforcement learning (the ``koikoi[rl]`` extra).

- :func:`env` is a PettingZoo AEC environment: two learning agents, ``player_0`` and
  ``player_1``, play one whole match per episode (:mod:`koikoi.rl.aec`).
- Importing this package registers the Gymnasium environment ``koikoi/KoiKoi-v0``:
  one agent against any koikoi player (:mod:`koikoi.rl.single`).

Both observe ``{"observation": array, "action_mask": int8 array}``, with the layout,
actions and rewards of :mod:`koikoi.rl.observations`. :mod:`koikoi.rl.train` is a
small example that learns to beat the random player.

>>> import gymnasium
>>> game = gymnasium.make("koikoi/KoiKoi-v0", opponent="random", rules="single-deal")
>>> observation, info = game.reset(seed=1)
>>> observation["observation"].shape, info["action_mask"].shape
((307,), (98,))
"""

from __future__ import annotations

import gymnasium

from koikoi.rl.aec import env, raw_env
from koikoi.rl.observations import (
    ACTION_COUNT,
    LAYOUT,
    OBSERVATION_SIZE,
    Rewards,
    action_mask,
    encode_observation,
    observation_space,
)
from koikoi.rl.single import ENV_ID, KoiKoiEnv

__all__ = [
    "ACTION_COUNT",
    "ENV_ID",
    "LAYOUT",
    "OBSERVATION_SIZE",
    "KoiKoiEnv",
    "Rewards",
    "action_mask",
    "encode_observation",
    "env",
    "observation_space",
    "raw_env",
]

# Registering twice would warn; a module can be imported again (pytest's doctests do).
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="koikoi.rl.single:KoiKoiEnv")
