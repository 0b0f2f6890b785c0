"""Reinforcement-learning environments on Tumble, registered with
gymnasium on import: ``gymnasium.make("tumble/LunarLander-v3")`` and
``"tumble/BipedalWalker-v3"`` (faithful ports of gymnasium's Box2D
environments, their step wholly in Rust), and ``make_vec`` (or
``gymnasium.make_vec``) for many of them stepped together over threads.

    >>> import gymnasium, tumble.envs
    >>> envs = tumble.envs.make_vec("LunarLander-v3", num_envs=4, workers=2)
    >>> obs, info = envs.reset(seed=0)
    >>> obs.shape
    (4, 8)
"""

from __future__ import annotations

import gymnasium

from .bipedal_walker import BipedalWalker
from .lunar_lander import LunarLander
from .vector import VectorEnv, make_vec

__all__ = ["BipedalWalker", "LunarLander", "VectorEnv", "make_vec"]


def _vector_entry(env_id: str):
    """The vector entry point gymnasium.make_vec calls for ``env_id``."""

    def make(num_envs: int = 1, workers: int = 1, **kwargs):
        return VectorEnv(env_id, num_envs, workers, **kwargs)

    return make


def _register(env_id: str, entry_point: str, max_episode_steps: int, **kwargs) -> None:
    gymnasium.register(
        id=f"tumble/{env_id}",
        entry_point=entry_point,
        vector_entry_point=_vector_entry(env_id),
        max_episode_steps=max_episode_steps,
        reward_threshold=kwargs.pop("reward_threshold"),
        kwargs=kwargs,
    )


if "tumble/LunarLander-v3" not in gymnasium.registry:
    _register("LunarLander-v3", "tumble.envs.lunar_lander:LunarLander", 1000, reward_threshold=200)
    gymnasium.register(
        id="tumble/LunarLanderContinuous-v3",
        entry_point="tumble.envs.lunar_lander:LunarLander",
        vector_entry_point=_vector_entry("LunarLander-v3"),
        max_episode_steps=1000,
        reward_threshold=200,
        kwargs={"continuous": True},
    )
    _register(
        "BipedalWalker-v3", "tumble.envs.bipedal_walker:BipedalWalker", 1600, reward_threshold=300
    )
    gymnasium.register(
        id="tumble/BipedalWalkerHardcore-v3",
        entry_point="tumble.envs.bipedal_walker:BipedalWalker",
        vector_entry_point=_vector_entry("BipedalWalkerHardcore-v3"),
        max_episode_steps=2000,
        reward_threshold=300,
        kwargs={"hardcore": True},
    )
