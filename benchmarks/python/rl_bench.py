"""Throughput of the reinforcement-learning environments: gymnasium's own
(Box2D 2.3 through SWIG), Tumble's (``tumble.envs``) and EnvPool's (C++),
side by side in one process, with random actions.

Modes: ``single`` steps one environment made by ``gymnasium.make`` (its
wrappers included) or EnvPool with one environment; ``vector`` steps
``--num-envs`` environments on ``--workers`` threads (Tumble's
``make_vec``, EnvPool's ``num_threads``; gymnasium's own ``SyncVectorEnv``
has one thread). Each environment is made once and warmed up by an
untimed run; then each figure is the median of ``--repeats`` short runs,
the engines taking turns run by run, so that a noisy machine slows all
alike.

    python benchmarks/python/rl_bench.py            # a table
    python benchmarks/python/rl_bench.py --json     # rows as JSON

Rows: ``{"env", "engine", "mode", "num_envs", "workers", "steps_per_s"}``.
EnvPool and gymnasium's Box2D environments (``box2d``) are measured when
installed.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import time
from typing import Any, Callable

import gymnasium as gym
import numpy as np

import tumble.envs

ENVS = ["LunarLander-v3", "LunarLanderContinuous-v3", "BipedalWalker-v3"]


def _kwargs(env_id: str) -> tuple[str, dict]:
    """The base id and keyword arguments of a benchmark row's env."""
    if env_id == "LunarLanderContinuous-v3":
        return "LunarLander-v3", {"continuous": True}
    return env_id, {}


def random_actions(
    space: gym.Space, count: int, seed: int, ints: Any = None
) -> list[Any]:
    """``count`` random actions drawn ahead of timing (integer actions as
    ``ints`` when given: EnvPool takes ``int32``)."""
    space.seed(seed)
    actions = [space.sample() for _ in range(count)]
    if ints is not None and np.issubdtype(np.asarray(actions[0]).dtype, np.integer):
        actions = [np.asarray(a, dtype=ints) for a in actions]
    return actions


class Runner:
    """An environment under random actions, timed a run at a time: it is
    made once and each run goes on where the last left off. ``actions``
    are taken in turn, round and round; ``per_step`` environment steps
    are counted for each call of ``step``."""

    def __init__(self, env: Any, actions: list[Any], per_step: int) -> None:
        self.env, self.actions, self.per_step = env, actions, per_step
        env.reset(seed=0)
        self.i = 0

    def run(self, steps: int) -> float:
        """Environment steps per second over the next ``steps`` steps."""
        start = time.perf_counter()
        self.advance(range(self.i, self.i + steps))
        elapsed = time.perf_counter() - start
        self.i += steps
        return steps * self.per_step / elapsed

    def advance(self, steps: range) -> None:
        """Takes the steps ``steps`` (indices into the actions)."""
        raise NotImplementedError

    def close(self) -> None:
        """Closes the environment."""
        self.env.close()


class Single(Runner):
    """One environment, reset as its episodes end."""

    def __init__(self, make: Callable[[], Any]) -> None:
        env = make()
        super().__init__(env, random_actions(env.action_space, 4096, 0), 1)

    def advance(self, steps: range) -> None:
        """Takes the steps ``steps``, resetting at each episode's end."""
        env, actions = self.env, self.actions
        for i in steps:
            _, _, terminated, truncated, _ = env.step(actions[i % len(actions)])
            if terminated or truncated:
                env.reset()


class Vector(Runner):
    """A vector environment (its environments reset themselves). EnvPool's
    ``action_space`` is one environment's (``per_env_space``): its actions
    are drawn once per environment, stacked, as ``int32`` when integer."""

    def __init__(self, make: Callable[[], Any], per_env_space: bool = False) -> None:
        env = make()
        if not per_env_space:
            actions = random_actions(env.action_space, 256, 0)
        else:
            rows = random_actions(
                env.action_space, 256 * env.num_envs, 0, ints=np.int32
            )
            actions = [
                np.stack(rows[k * env.num_envs : (k + 1) * env.num_envs])
                for k in range(256)
            ]
        super().__init__(env, actions, env.num_envs)

    def advance(self, steps: range) -> None:
        """Takes the steps ``steps`` of the whole vector."""
        env, actions = self.env, self.actions
        for i in steps:
            env.step(actions[i % len(actions)])


def makers(
    env_id: str, num_envs: int, workers: int
) -> list[tuple[str, str, int, int, Callable, Callable]]:
    """(engine, mode, num_envs, workers, runner, maker) for each measurable
    row: ``runner(maker)`` is a :class:`Single` or a :class:`Vector`."""
    base, kw = _kwargs(env_id)
    rows: list[tuple[str, str, int, int, Callable, Callable]] = []
    tumble_has = base in tumble.envs.vector.SPECS
    if tumble_has:
        rows.append(
            (
                "tumble",
                "single",
                1,
                1,
                Single,
                lambda: gym.make(f"tumble/{base}", **kw),
            )
        )
        rows.append(
            (
                "tumble",
                "vector",
                num_envs,
                workers,
                Vector,
                lambda: tumble.envs.make_vec(
                    base, num_envs=num_envs, workers=workers, **kw
                ),
            )
        )
    try:
        import Box2D  # noqa: F401

        rows.append(("gymnasium", "single", 1, 1, Single, lambda: gym.make(base, **kw)))
        rows.append(
            (
                "gymnasium",
                "vector",
                num_envs,
                1,
                Vector,
                lambda: gym.make_vec(
                    base, num_envs=num_envs, vectorization_mode="sync", **kw
                ),
            )
        )
    except ImportError:
        pass
    try:
        import envpool

        rows.append(
            (
                "envpool",
                "single",
                1,
                1,
                functools.partial(Vector, per_env_space=True),
                lambda: envpool.make_gymnasium(
                    env_id, num_envs=1, num_threads=1, seed=0
                ),
            )
        )
        rows.append(
            (
                "envpool",
                "vector",
                num_envs,
                workers,
                functools.partial(Vector, per_env_space=True),
                lambda: envpool.make_gymnasium(
                    env_id, num_envs=num_envs, num_threads=workers, seed=0
                ),
            )
        )
    except ImportError:
        pass
    return rows


def main() -> None:
    """Runs the rows and prints a table, or JSON with ``--json``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument(
        "--envs", default=",".join(ENVS), help="comma-separated env ids"
    )
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--steps", type=int, default=4000, help="single-env steps a run"
    )
    parser.add_argument(
        "--vector-steps", type=int, default=200, help="vector steps a run"
    )
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()

    results = []
    for env_id in args.envs.split(","):
        rows = makers(env_id, args.num_envs, args.workers)
        runners = [runner(make) for (_, _, _, _, runner, make) in rows]

        def steps(row: tuple) -> int:
            engine, mode = row[0], row[1]
            n = args.steps if mode == "single" else args.vector_steps
            # (gymnasium's sync vector steps its 64 environments one by one.)
            return max(1, n // 10) if engine == "gymnasium" and mode == "vector" else n

        # A first run of each untimed: the first steps of a fresh
        # environment pay for its memory and its threads' start.
        for row, runner in zip(rows, runners):
            runner.run(max(1, steps(row) // 4))
        times: list[list[float]] = [[] for _ in rows]
        for _ in range(args.repeats):
            for k, (row, runner) in enumerate(zip(rows, runners)):
                times[k].append(runner.run(steps(row)))
        for runner in runners:
            runner.close()
        for (engine, mode, n, w, _, _), t in zip(rows, times):
            results.append(
                {
                    "env": env_id,
                    "engine": engine,
                    "mode": mode,
                    "num_envs": n,
                    "workers": w,
                    "steps_per_s": round(statistics.median(t)),
                }
            )
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(
        f"{'env':26} {'engine':10} {'mode':7} {'envs':>5} {'workers':>7} {'steps/s':>10}"
    )
    for r in results:
        print(
            f"{r['env']:26} {r['engine']:10} {r['mode']:7} {r['num_envs']:>5} "
            f"{r['workers']:>7} {r['steps_per_s']:>10}"
        )


if __name__ == "__main__":
    main()
