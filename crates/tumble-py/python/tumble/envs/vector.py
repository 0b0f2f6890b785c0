"""Many environments stepped together in one Rust call over worker
threads, as a gymnasium ``VectorEnv`` with gymnasium 1.x's autoreset."""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .._tumble import VecCore
from ._core import numpy_state
from . import bipedal_walker, lunar_lander

#: Each environment's spaces, by its gymnasium id.
SPECS: dict[str, Any] = {
    "LunarLander-v3": lunar_lander,
    "BipedalWalker-v3": bipedal_walker,
    "BipedalWalkerHardcore-v3": bipedal_walker,
}


class VectorEnv(gym.vector.VectorEnv):
    """``num_envs`` copies of ``env_id`` (``"LunarLander-v3"`` or
    ``"BipedalWalker-v3"``, with that environment's keyword arguments),
    stepped by ``workers`` threads with the GIL released.

    Autoreset is gymnasium's default (``NEXT_STEP``): the step on which an
    episode ends returns its last observation with ``terminated`` or
    ``truncated`` set, and the next step ignores that environment's action
    and returns the new episode's first observation (reward 0). With
    ``autoreset_mode=AutoresetMode.SAME_STEP`` (or ``"same_step"``) the
    step on which an episode ends returns the new episode's first
    observation, the ended episode's last one in ``info["final_obs"]``
    (masked by ``info["_final_obs"]``), as gymnasium's own do. Episodes
    are truncated after ``max_episode_steps`` (gymnasium's limit for the
    environment by default). ``reset(seed=s)`` seeds environment ``i`` with
    ``s + i``, as gymnasium's own vector environments do, so environment
    ``i`` runs the episode a single environment reset with seed ``s + i``
    runs.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["rgb_array"]}

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        workers: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **kwargs: Any,
    ) -> None:
        name = env_id.split("/")[-1]
        if name not in SPECS:
            raise ValueError(f"no environment {env_id!r} (one of {sorted(SPECS)})")
        if render_mode is not None and render_mode != "rgb_array":
            raise ValueError('a vector environment renders only "rgb_array"')
        module = SPECS[name]
        if isinstance(autoreset_mode, str) and autoreset_mode.upper() in AutoresetMode.__members__:
            autoreset_mode = AutoresetMode[autoreset_mode.upper()]
        mode = AutoresetMode(autoreset_mode)
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"autoreset_mode {mode} is not supported (NEXT_STEP or SAME_STEP)")
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self._same_step = mode == AutoresetMode.SAME_STEP
        self.render_mode = render_mode
        self._core = VecCore(
            name,
            num_envs,
            workers,
            max_episode_steps=max_episode_steps,
            autoreset_mode="same_step" if mode == AutoresetMode.SAME_STEP else "next_step",
            render=render_mode is not None,
            **kwargs,
        )
        self.num_envs = num_envs
        self.workers = workers
        #: The environment's own keyword arguments (``continuous=True``, ...).
        self.env_kwargs = dict(kwargs)
        self.single_observation_space = module.observation_space()
        if "continuous" in kwargs:
            self.single_action_space = module.action_space(kwargs["continuous"])
        else:
            self.single_action_space = module.action_space(False)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._started = False

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict | None = None,
    ) -> tuple[np.ndarray, dict]:
        """Starts a new episode in every environment; returns the
        observations (``(num_envs, obs_len)``) and ``{}``."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        elif isinstance(seed, (str, bytes)) or not hasattr(seed, "__len__"):
            raise TypeError(
                f"seed is an int, a sequence of ints (or None) one per environment, "
                f"or None, not {type(seed).__name__}"
            )
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(
                    f"reset needs {self.num_envs} seeds, one per environment, not {len(seeds)}"
                )
        # An environment without a seed goes on with its own stream, or
        # draws a fresh one from the operating system the first time.
        states = [
            None if s is None and self._started else numpy_state(np.random.default_rng(s))
            for s in seeds
        ]
        obs = self._core.reset(states)
        self._started = True
        return obs, {}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Steps every environment with its action: observations, rewards,
        terminated, truncated (numpy arrays) and ``{}``."""
        obs, rewards, terminated, truncated = self._core.step(actions)
        if not self._same_step:
            return obs, rewards, terminated, truncated, {}
        info: dict = {}
        ended, last = self._core.final_observations()
        if ended.any():
            final = np.empty(self.num_envs, dtype=object)
            for i in range(self.num_envs):
                final[i] = last[i] if ended[i] else None
            info = {
                "final_obs": final,
                "_final_obs": ended,
                "final_info": {},
                "_final_info": ended,
            }
        return obs, rewards, terminated, truncated, info

    def render(self) -> tuple[np.ndarray, ...] | None:
        """Every environment's frame (``rgb_array`` mode)."""
        if self.render_mode is None:
            gym.logger.warn('render() needs render_mode="rgb_array"')
            return None
        return tuple(self._core.render(i) for i in range(self.num_envs))

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to close: the threads stop with the core."""


def make_vec(env_id: str, num_envs: int = 1, workers: int = 1, **kwargs: Any) -> VectorEnv:
    """``num_envs`` environments ``env_id`` (``"LunarLander-v3"``,
    ``"BipedalWalker-v3"``, with or without the ``tumble/`` prefix) stepped
    together by ``workers`` threads; ``kwargs`` are the environment's own
    (``continuous=True``, ``hardcore=True``, ...)."""
    return VectorEnv(env_id, num_envs, workers, **kwargs)
