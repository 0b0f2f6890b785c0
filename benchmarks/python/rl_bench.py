"""Throughput of the reinforcement-learning environments: gymnasium's own
(Box2D 2.3 through SWIG), Tumble's (``tumble.envs``) and EnvPool's (C++),
side by side in one process, with random actions.

Modes: ``single`` steps one environment made by ``gymnasium.make`` (its
wrappers included) or EnvPool with one environment; ``vector`` steps
``--num-envs`` environments on ``--workers`` threads (Tumble's
``make_vec``, EnvPool's ``num_threads``; gymnasium's own ``SyncVectorEnv``
has one thread). Each figure is the median of ``--repeats`` runs, the
engines interleaved so that a noisy machine slows all alike.

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


def time_single(make: Callable[[], Any], steps: int) -> float:
    """Steps per second of one environment under random actions."""
    env = make()
    actions = random_actions(env.action_space, 4096, 0)
    env.reset(seed=0)
    start = time.perf_counter()
    for i in range(steps):
        _, _, terminated, truncated, _ = env.step(actions[i & 4095])
        if terminated or truncated:
            env.reset()
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed


def time_vector(
    make: Callable[[], Any], steps: int, per_env_space: bool = False
) -> float:
    """Environment steps per second of a vector environment. EnvPool's
    ``action_space`` is one environment's (``per_env_space``): its actions
    are drawn once per environment, stacked, as ``int32`` when integer."""
    env = make()
    if not per_env_space:
        actions = random_actions(env.action_space, 256, 0)
    else:
        rows = random_actions(env.action_space, 256 * env.num_envs, 0, ints=np.int32)
        actions = [
            np.stack(rows[k * env.num_envs : (k + 1) * env.num_envs])
            for k in range(256)
        ]
    env.reset(seed=0)
    start = time.perf_counter()
    for i in range(steps):
        env.step(actions[i & 255])
    elapsed = time.perf_counter() - start
    env.close()
    return steps * env.num_envs / elapsed


def makers(
    env_id: str, num_envs: int, workers: int
) -> list[tuple[str, str, int, int, Callable, Callable]]:
    """(engine, mode, num_envs, workers, timer, maker) for each measurable row."""
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
                time_single,
                lambda: gym.make(f"tumble/{base}", **kw),
            )
        )
        rows.append(
            (
                "tumble",
                "vector",
                num_envs,
                workers,
                time_vector,
                lambda: tumble.envs.make_vec(
                    base, num_envs=num_envs, workers=workers, **kw
                ),
            )
        )
    try:
        import Box2D  # noqa: F401

        rows.append(
            ("gymnasium", "single", 1, 1, time_single, lambda: gym.make(base, **kw))
        )
        rows.append(
            (
                "gymnasium",
                "vector",
                num_envs,
                1,
                time_vector,
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
                functools.partial(time_vector, per_env_space=True),
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
                functools.partial(time_vector, per_env_space=True),
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
        "--steps", type=int, default=20000, help="single-env steps a run"
    )
    parser.add_argument(
        "--vector-steps", type=int, default=1000, help="vector steps a run"
    )
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    results = []
    for env_id in args.envs.split(","):
        rows = makers(env_id, args.num_envs, args.workers)
        times: list[list[float]] = [[] for _ in rows]
        for _ in range(args.repeats):
            for k, (engine, mode, n, w, timer, make) in enumerate(rows):
                steps = args.steps if mode == "single" else args.vector_steps
                if engine == "gymnasium" and mode == "vector":
                    steps = max(1, steps // 10)
                times[k].append(timer(make, steps))
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
