"""gymnasium's ``BipedalWalker-v3`` (and its hardcore terrain) on Tumble,
its step wholly in Rust: the same hull, legs, hip and knee motors,
terrain (grass, and with ``hardcore=True`` stumps, stairs and pits),
lidar, observation, reward and time limit as gymnasium 1.4's, and the same
random draws: ``reset(seed=s)`` gives gymnasium's terrain for seed ``s``.

    >>> import gymnasium, tumble.envs
    >>> env = gymnasium.make("tumble/BipedalWalker-v3")
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape
    (24,)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from gymnasium import spaces

from .._tumble import EnvCore, WalkerHeuristic
from ._core import CoreEnv

FPS = 50


class BipedalWalker(CoreEnv):
    """Walk to the end of the terrain. Actions: four motor commands in
    [-1, 1] (hips and knees: the sign picks the direction, the size the
    torque). Observation: the hull's angle and speeds, each joint's angle
    and speed, each lower leg's ground contact, and ten lidar readings.
    Reward: forward progress, less the torque spent; -100 for a fall."""

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": FPS}

    def __init__(self, render_mode: str | None = None, hardcore: bool = False) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.hardcore = hardcore
        self._core = EnvCore("BipedalWalker-v3", hardcore=hardcore, render=render_mode is not None)
        self.observation_space = observation_space()
        self.action_space = action_space(True)


def observation_space() -> spaces.Box:
    """gymnasium's observation bounds for the walker."""
    joints = [-math.pi, -5.0, -math.pi, -5.0, -0.0]
    low = np.array([-math.pi, -5.0, -5.0, -5.0] + joints * 2 + [-1.0] * 10, dtype=np.float32)
    high = np.array(
        [math.pi, 5.0, 5.0, 5.0] + [math.pi, 5.0, math.pi, 5.0, 5.0] * 2 + [1.0] * 10,
        dtype=np.float32,
    )
    return spaces.Box(low, high)


def action_space(continuous: bool = True) -> spaces.Box:
    """Four motor commands in [-1, 1] (the walker has no discrete form)."""
    return spaces.Box(-1.0, 1.0, (4,), dtype=np.float32)


class BipedalWalkerHeuristics:
    """gymnasium's heuristic walker, ported: ``step_heuristic(s)`` returns
    the action for observation ``s`` and advances its gait. Use one per
    episode."""

    def __init__(self) -> None:
        self._pilot = WalkerHeuristic()

    def step_heuristic(self, s: Any) -> np.ndarray:
        """The four motor actions for observation ``s``."""
        return self._pilot.step_heuristic(np.asarray(s, dtype=np.float32))
