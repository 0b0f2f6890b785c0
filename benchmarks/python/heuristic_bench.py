"""gymnasium's heuristic pilots on gymnasium's environments (Box2D 2.3
through SWIG) and on Tumble's ports (``tumble.envs``), seed for seed.

The lander's heuristic flies ``LunarLander-v3`` (discrete and continuous
actions), the walker's walks ``BipedalWalker-v3``, one episode a seed over
seeds ``0..--seeds``. Both engines draw the same terrain and push from a
seed, but the flights part within a few steps (two physics engines never
agree to the bit) and a landing is chaotic: whether one seed crashes is
luck, so the figures are reported over the first 50 seeds (gymnasium's
usual check) and over all of them.

    python benchmarks/python/heuristic_bench.py             # a table
    python benchmarks/python/heuristic_bench.py --json      # rows as JSON
    python benchmarks/python/heuristic_bench.py --fresh     # a new env a seed

One environment flies every seed in turn, as a training loop resets
one, unless ``--fresh`` makes a new one for each. gymnasium's walker
keeps its Box2D world across resets, so there an episode depends on the
episodes before it and the two ways give other figures; its lander
builds a new world at each reset, and Tumble's environments start every
episode from the seed alone, so theirs agree.

Rows: ``{"env", "engine", "seeds", "mean_return", "at_least_200",
"came_to_rest", "crashed", "fell", "reached_end", "mean_steps",
"fresh"}`` (the
lander's rows leave ``fell`` and ``reached_end`` null, the walker's
``at_least_200``, ``came_to_rest`` and ``crashed``). gymnasium's own
environments need its Box2D binding (``box2d``); without it only
Tumble's rows are made.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Callable

import gymnasium as gym
import numpy as np

import tumble.envs
from tumble.envs import bipedal_walker, lunar_lander

ENVS = ["LunarLander-v3", "LunarLanderContinuous-v3", "BipedalWalker-v3"]
ENGINES = ["gymnasium", "tumble"]


def engines() -> list[str]:
    """The engines this machine can run: gymnasium's needs ``box2d``."""
    try:
        import Box2D  # noqa: F401
    except ImportError:
        return ["tumble"]
    return list(ENGINES)


def _episode_lander(env: Any, pilot: Callable, seed: int) -> dict:
    """One lander episode: its return, length and last reward."""
    s, _ = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        s, r, terminated, truncated, _ = env.step(pilot(env.unwrapped, s))
        total += float(r)
        steps += 1
        if terminated or truncated:
            return {"return": total, "steps": steps, "last": float(r)}


def _episode_walker(env: Any, make_pilot: Callable, seed: int) -> dict:
    """One walker episode: its return, length, and how it ended."""
    s, _ = env.reset(seed=seed)
    pilot = make_pilot()
    total, steps = 0.0, 0
    while True:
        s, r, terminated, truncated, _ = env.step(pilot.step_heuristic(s))
        total += float(r)
        steps += 1
        if terminated or truncated:
            fell = bool(terminated and r == -100)
            return {
                "return": total,
                "steps": steps,
                "fell": fell,
                "end": bool(terminated and not fell),
            }


def episodes(env_name: str, engine: str, seeds: int, fresh: bool = False) -> list[dict]:
    """The heuristic's episodes of ``env_name`` on ``engine``, seed by seed,
    in one environment or (``fresh``) a new one for each."""
    continuous = env_name == "LunarLanderContinuous-v3"
    base = "LunarLander-v3" if continuous else env_name
    kwargs = {"continuous": True} if continuous else {}
    env_id = base if engine == "gymnasium" else f"tumble/{base}"
    shared = gym.make(env_id, **kwargs)

    def env() -> Any:
        return gym.make(env_id, **kwargs) if fresh else shared

    if base == "LunarLander-v3":
        if engine == "gymnasium":
            from gymnasium.envs.box2d.lunar_lander import heuristic
        else:
            heuristic = lunar_lander.heuristic
        return [_episode_lander(env(), heuristic, seed) for seed in range(seeds)]
    if engine == "gymnasium":
        from gymnasium.envs.box2d.bipedal_walker import BipedalWalkerHeuristics
    else:
        BipedalWalkerHeuristics = bipedal_walker.BipedalWalkerHeuristics
    return [_episode_walker(env(), BipedalWalkerHeuristics, s) for s in range(seeds)]


def summary(env_name: str, engine: str, runs: list[dict], fresh: bool = False) -> dict:
    """One row: the episodes' figures."""
    returns = np.array([r["return"] for r in runs])
    lander = env_name.startswith("LunarLander")
    row: dict[str, Any] = {
        "env": env_name,
        "engine": engine,
        "seeds": len(runs),
        "mean_return": float(returns.mean()),
        "at_least_200": None,
        "came_to_rest": None,
        "crashed": None,
        "fell": None,
        "reached_end": None,
        "mean_steps": float(np.mean([r["steps"] for r in runs])),
        "fresh": fresh,
    }
    if lander:
        row["at_least_200"] = int((returns >= 200).sum())
        row["came_to_rest"] = sum(1 for r in runs if r["last"] == 100)
        row["crashed"] = sum(1 for r in runs if r["last"] == -100)
    else:
        row["fell"] = sum(1 for r in runs if r["fell"])
        row["reached_end"] = sum(1 for r in runs if r["end"])
    return row


def _cell(value: Any) -> str:
    """A table cell: the count, or ``-`` where the row has none."""
    return "-" if value is None else str(value)


def run(envs: list[str], seeds: int, fresh: bool = False) -> list[dict]:
    """The rows of ``envs`` over seeds ``0..seeds``: per engine, the
    first 50 seeds' and all of them (one row when ``seeds`` <= 50)."""
    rows = []
    for env_name in envs:
        for engine in engines():
            runs = episodes(env_name, engine, seeds, fresh)
            for count in sorted({min(50, seeds), seeds}):
                rows.append(summary(env_name, engine, runs[:count], fresh))
    return rows


def main() -> None:
    """Runs the heuristics and prints the table (or JSON rows)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--seeds", type=int, default=200, help="seeds 0..N")
    parser.add_argument("--envs", default=",".join(ENVS), help="comma-separated")
    parser.add_argument(
        "--fresh", action="store_true", help="a new environment for each seed's episode"
    )
    args = parser.parse_args()
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")
    envs = [e for e in args.envs.split(",") if e]
    unknown = [e for e in envs if e not in ENVS]
    if unknown:
        parser.error(f"unknown envs {unknown}; the envs are {', '.join(ENVS)}")
    rows = run(envs, args.seeds, args.fresh)
    if args.json:
        print(json.dumps({"rows": rows}, indent=1))
        return
    print(
        f"{'env':<26} {'engine':<10} {'seeds':>5} {'mean':>7} {'>=200':>6} "
        f"{'rest':>5} {'crash':>5} {'fell':>5} {'end':>4} {'steps':>6}"
    )
    for r in rows:
        print(
            f"{r['env']:<26} {r['engine']:<10} {r['seeds']:>5} "
            f"{r['mean_return']:>7.1f} {_cell(r['at_least_200']):>6} "
            f"{_cell(r['came_to_rest']):>5} {_cell(r['crashed']):>5} "
            f"{_cell(r['fell']):>5} {_cell(r['reached_end']):>4} "
            f"{r['mean_steps']:>6.0f}"
        )


if __name__ == "__main__":
    main()
