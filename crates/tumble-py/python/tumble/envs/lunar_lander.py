"""gymnasium's ``LunarLander-v3`` on Tumble, its step wholly in Rust.

The same lander, legs, terrain, engines (with their dispersion), wind,
observation, reward, landing bonus and time limit as gymnasium 1.4's, and
the same random draws: ``reset(seed=s)`` gives gymnasium's terrain and
initial push for seed ``s``.

    >>> import gymnasium, tumble.envs
    >>> env = gymnasium.make("tumble/LunarLander-v3")
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape
    (8,)
"""

from __future__ import annotations

import math
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .._tumble import EnvCore, lander_heuristic
from ._core import CoreEnv

FPS = 50


class LunarLander(CoreEnv):
    """Land on the pad between the flags. Actions: 0 nothing, 1 left
    engine, 2 main engine, 3 right engine; or, with ``continuous=True``,
    two throttles in [-1, 1] (main: off below 0, 50% to 100% above;
    side: off within 0.5 of 0, left below, right above).

    Observation: x, y relative to the pad, their speeds, the angle, its
    speed, and whether each leg touches. Reward: gymnasium's shaping, -0.3
    a frame of main engine and -0.03 of side engine, -100 for a crash or
    leaving the screen, +100 for coming to rest (the lander falls asleep).
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": FPS}

    def __init__(
        self,
        render_mode: str | None = None,
        continuous: bool = False,
        gravity: float = -10.0,
        enable_wind: bool = False,
        wind_power: float = 15.0,
        turbulence_power: float = 1.5,
    ) -> None:
        if not (-12.0 < gravity < 0.0):
            raise ValueError(f"gravity (current value: {gravity}) must be between -12 and 0")
        if not 0.0 <= wind_power <= 20.0:
            gym.logger.warn(
                "wind_power value is recommended to be between 0.0 and 20.0, "
                f"(current value: {wind_power})"
            )
        if not 0.0 <= turbulence_power <= 2.0:
            gym.logger.warn(
                "turbulence_power value is recommended to be between 0.0 and 2.0, "
                f"(current value: {turbulence_power})"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.continuous = continuous
        self.gravity = gravity
        self.enable_wind = enable_wind
        self.wind_power = wind_power
        self.turbulence_power = turbulence_power
        self._core = EnvCore(
            "LunarLander-v3",
            continuous=continuous,
            gravity=gravity,
            enable_wind=enable_wind,
            wind_power=wind_power,
            turbulence_power=turbulence_power,
            render=render_mode is not None,
        )
        self.observation_space = observation_space()
        self.action_space = action_space(continuous)


def observation_space() -> spaces.Box:
    """gymnasium's observation bounds for the lander."""
    low = np.array([-2.5, -2.5, -10.0, -10.0, -2 * math.pi, -10.0, -0.0, -0.0], dtype=np.float32)
    high = np.array([2.5, 2.5, 10.0, 10.0, 2 * math.pi, 10.0, 1.0, 1.0], dtype=np.float32)
    return spaces.Box(low, high)


def action_space(continuous: bool) -> spaces.Space:
    """Four discrete actions, or two throttles in [-1, 1]."""
    if continuous:
        return spaces.Box(-1, +1, (2,), dtype=np.float32)
    return spaces.Discrete(4)


def heuristic(env: Any, s: Any) -> Any:
    """gymnasium's heuristic pilot: the action for observation ``s`` of
    ``env`` (a lander, wrapped or not, or a vector of landers and one
    row of its observations): an int, or two throttles for a continuous
    lander. It lands gymnasium's lander, and this one, from nearly every
    start."""
    inner = env.unwrapped
    continuous = getattr(inner, "continuous", None)
    if continuous is None:
        continuous = bool(getattr(inner, "env_kwargs", {}).get("continuous", False))
    return lander_heuristic(np.asarray(s, dtype=np.float32), continuous)
