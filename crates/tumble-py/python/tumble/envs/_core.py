"""What the environments share: the gymnasium ``Env`` around a Rust core,
numpy's random stream handed to it, and drawing."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from .._tumble import EnvCore


def numpy_state(rng: np.random.Generator) -> tuple[int, int, bool, int]:
    """numpy's PCG64 state of ``rng`` as the core takes it."""
    state = rng.bit_generator.state
    if state["bit_generator"] != "PCG64":
        raise ValueError(f"the environments draw from numpy's PCG64, not {state['bit_generator']}")
    return (
        int(state["state"]["state"]),
        int(state["state"]["inc"]),
        bool(state["has_uint32"]),
        int(state["uinteger"]),
    )


def set_numpy_state(rng: np.random.Generator, state: tuple[int, int, bool, int]) -> None:
    """Moves numpy's generator ``rng`` to the core's stream ``state``."""
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": state[0], "inc": state[1]},
        "has_uint32": int(state[2]),
        "uinteger": state[3],
    }


class CoreEnv(gym.Env):
    """A gymnasium environment whose step runs wholly in Rust.

    The random stream is numpy's ``self.np_random``: ``reset(seed=...)``
    seeds it as gymnasium does and hands its state to the core, which
    draws from it in gymnasium's order; a reset without a seed goes on
    from where the last episode's draws left off. After each reset
    ``self.np_random`` holds the stream as it then stands (the draws of
    the steps after it are the core's: ``self.np_random`` does not follow
    them). A stream replaced or set in place since the last reset
    (``self.np_random.bit_generator.state = ...``) is drawn from as it
    stands, as gymnasium's own environments draw from it.
    """

    _core: EnvCore
    _handed: tuple[np.random.Generator, tuple[int, int, bool, int]] | None = None
    _screen: Any = None
    _clock: Any = None

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[np.ndarray, dict]:
        """Starts an episode; returns the first observation and ``{}``."""
        super().reset(seed=seed, options=options)
        rng = self.np_random
        state = numpy_state(rng)
        if seed is None and self._handed == (rng, state):
            obs = self._core.reset(None)
        else:
            obs = self._core.reset(state)
        after = self._core.rng_state()
        set_numpy_state(rng, after)
        self._handed = (rng, after)
        if self.render_mode == "human":
            self.render()
        return obs, {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Steps with ``action``: observation, reward, terminated,
        truncated (always ``False``: the time limit is gymnasium's
        ``TimeLimit`` wrapper's) and ``{}``."""
        result = self._core.step(action)
        if self.render_mode == "human":
            self.render()
        return result

    def render(self) -> np.ndarray | None:
        """The frame as an ``(400, 600, 3)`` array (``rgb_array``), or
        shown in a pygame window (``human``)."""
        if self.render_mode is None:
            gym.logger.warn(
                "render() was called without a render_mode; make the environment "
                'with render_mode="rgb_array" or "human"'
            )
            return None
        frame = self._core.render()
        if self.render_mode == "rgb_array":
            return frame
        import pygame

        if self._screen is None:
            pygame.display.init()
            self._screen = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
            self._clock = pygame.time.Clock()
        surface = pygame.surfarray.make_surface(frame.swapaxes(0, 1))
        self._screen.blit(surface, (0, 0))
        pygame.event.pump()
        self._clock.tick(self.metadata["render_fps"])
        pygame.display.flip()
        return None

    def close(self) -> None:
        """Closes the window, if one was opened."""
        if self._screen is not None:
            import pygame

            pygame.display.quit()
            self._screen = None
