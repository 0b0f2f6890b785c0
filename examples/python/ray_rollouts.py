"""Lander episodes collected across a Ray cluster, one vectorised Tumble
environment per Ray worker.

Each Ray task makes ``tumble.envs.make_vec("LunarLander-v3", ...)`` (its
environments stepped together in Rust, the GIL released) and plays whole
episodes with a policy: gymnasium's heuristic pilot, ported, or random
actions. The driver gathers the returns.

Run on this machine (``ray.init()`` starts a local cluster)::

    python examples/python/ray_rollouts.py --tasks 4 --episodes 16

On a real cluster, start Ray on its machines (``ray start --head`` on
one, ``ray start --address=HEAD:6379`` on the others, each with
``pip install ./crates/tumble-py gymnasium``), then run this script on
any of them with ``--address auto`` (or set ``RAY_ADDRESS``): the tasks
spread over every machine's CPUs.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import ray


@ray.remote
def collect(seed: int, episodes: int, num_envs: int, policy: str) -> list[float]:
    """Plays ``episodes`` lander episodes on ``num_envs`` environments
    stepped together, seeded from ``seed``; returns their returns."""
    import tumble.envs
    from tumble.envs.lunar_lander import heuristic

    envs = tumble.envs.make_vec("LunarLander-v3", num_envs=num_envs, workers=1)
    rng = np.random.default_rng(seed)
    obs, _ = envs.reset(seed=seed)
    totals = np.zeros(num_envs)
    # With next-step autoreset, the step after an episode ends starts the
    # next one: its reward (0) belongs to no episode.
    starting = np.zeros(num_envs, dtype=bool)
    returns: list[float] = []
    while len(returns) < episodes:
        if policy == "heuristic":
            actions = np.array([heuristic(envs, o) for o in obs], dtype=np.int64)
        else:
            actions = rng.integers(0, 4, size=num_envs)
        obs, rewards, terminated, truncated, _ = envs.step(actions)
        totals += np.where(starting, 0.0, rewards)
        ended = (terminated | truncated) & ~starting
        returns.extend(totals[ended].tolist())
        totals[ended] = 0.0
        starting = ended
    return returns[:episodes]


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Collects episodes with each policy over ``--tasks`` Ray tasks and
    prints (and returns) the mean return and episodes per second."""
    parser = argparse.ArgumentParser(description="Lander rollouts on Ray.")
    parser.add_argument(
        "--address", default=None, help="a Ray cluster (default: local)"
    )
    parser.add_argument("--tasks", type=int, default=4)
    parser.add_argument("--episodes", type=int, default=16, help="episodes per task")
    parser.add_argument("--num-envs", type=int, default=8, help="environments per task")
    parser.add_argument(
        "--num-cpus", type=int, default=None, help="a local cluster's CPUs"
    )
    args = parser.parse_args(argv)

    ray.init(address=args.address, num_cpus=args.num_cpus, include_dashboard=False)
    summary = {}
    try:
        for policy in ("heuristic", "random"):
            start = time.perf_counter()
            futures = [
                collect.remote(1000 * k, args.episodes, args.num_envs, policy)
                for k in range(args.tasks)
            ]
            returns = np.concatenate([ray.get(f) for f in futures])
            elapsed = time.perf_counter() - start
            summary[policy] = float(returns.mean())
            print(
                f"{policy:9}: {len(returns)} episodes, mean return {returns.mean():7.1f}, "
                f"{len(returns) / elapsed:6.1f} episodes/s over {args.tasks} tasks"
            )
    finally:
        ray.shutdown()
    return summary


if __name__ == "__main__":
    main()
