"""PPO from stable-baselines3 learns to land Tumble's lander, and the same
training on gymnasium's own lander for comparison.

``--engine tumble`` trains on ``tumble/LunarLander-v3`` (discrete actions,
its step in Rust), ``--engine gymnasium`` on gymnasium's ``LunarLander-v3``
(Box2D 2.3). Both use rl-baselines3-zoo's PPO settings for the lander: 16
environments, n_steps 1024, batch_size 64, n_epochs 4, gamma 0.999,
gae_lambda 0.98, ent_coef 0.01, the rest SB3's defaults (an MLP of two 64-unit
layers, learning rate 3e-4, clip range 0.2). Then the trained policy flies
``--eval-episodes`` episodes (seeds 1000, 1001, ...) with deterministic
actions, and the script prints the mean return, the wall and CPU time of
training and the environment steps per second of training (policy updates
included).

The 16 environments are SB3's ``DummyVecEnv`` (through ``make_vec_env``) over
``gymnasium.make`` instances, for both engines alike: no adapter. Tumble's own
vector environment (``tumble.envs.make_vec``) is not used here: it steps every
environment in one call with gymnasium 1.x's next-step autoreset, while an SB3
``VecEnv`` must return a finished environment's reset observation on the step
its episode ends (the last observation going in
``info["terminal_observation"]``). An adapter would need one more step of the
finished environment alone, but the batch steps all its environments together,
so it would either step the others with actions the policy never chose or
record a made-up transition. With 16 single environments the rollout is
exactly what SB3 expects, and each step of Tumble's still runs in Rust.

Torch runs on one thread by default (``--torch-threads``): for this small
network on a busy 2-core machine two threads ran training nine times slower.

Run::

    python examples/python/train_lander.py --engine tumble --timesteps 1000000
    python examples/python/train_lander.py --engine gymnasium --timesteps 1000000

PPO collects whole rollouts (16 x 1024 steps), so 1 000 000 asked for is 62
rollouts, 1 015 808 steps. Steps per second are of wall time, policy updates
included. Training is deterministic for a seed. The returns, times and steps
per second of both engines, and what they say, are in docs/guide/rl.md
(Training).

Needs ``pip install stable-baselines3 gymnasium box2d pygame ./crates/tumble-py``
(stable-baselines3 brings torch; ``box2d`` and ``pygame`` only for ``--engine
gymnasium``, whose Box2D environments import pygame).
"""

from __future__ import annotations

import argparse
import time

#: rl-baselines3-zoo's PPO hyperparameters for LunarLander (n_envs apart).
PPO_SETTINGS = {
    "n_steps": 1024,
    "batch_size": 64,
    "n_epochs": 4,
    "gamma": 0.999,
    "gae_lambda": 0.98,
    "ent_coef": 0.01,
}

#: The gymnasium id each engine's lander is registered under.
ENV_IDS = {"tumble": "tumble/LunarLander-v3", "gymnasium": "LunarLander-v3"}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line's options (``argv``, or ``sys.argv[1:]``)."""
    parser = argparse.ArgumentParser(
        description="Train PPO (stable-baselines3) on the lander, then evaluate it."
    )
    parser.add_argument(
        "--engine",
        choices=sorted(ENV_IDS),
        default="tumble",
        help="whose LunarLander-v3: Tumble's port or gymnasium's Box2D (default: tumble)",
    )
    parser.add_argument(
        "--timesteps",
        type=int,
        default=1_000_000,
        help="environment steps of training (default: 1000000)",
    )
    parser.add_argument(
        "--n-envs",
        type=int,
        default=16,
        help="environments stepped together (default: 16)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="training seed (default: 0)"
    )
    parser.add_argument(
        "--eval-episodes",
        type=int,
        default=20,
        help="evaluation episodes (default: 20)",
    )
    parser.add_argument(
        "--eval-seed",
        type=int,
        default=1000,
        help="first evaluation seed; episode k uses eval-seed + k (default: 1000)",
    )
    parser.add_argument(
        "--torch-threads",
        type=int,
        default=1,
        help="torch's threads (default: 1, the fastest for this small network)",
    )
    parser.add_argument(
        "--save", default=None, help="save the trained model to this path (.zip)"
    )
    parser.add_argument(
        "--verbose", type=int, default=0, help="SB3's verbosity: 0, 1 or 2 (default: 0)"
    )
    args = parser.parse_args(argv)
    if min(args.timesteps, args.n_envs, args.eval_episodes, args.torch_threads) < 1:
        parser.error(
            "--timesteps, --n-envs, --eval-episodes and --torch-threads must be positive"
        )
    return args


def env_id(engine: str) -> str:
    """The gymnasium id of ``engine``'s lander, registering Tumble's if needed."""
    if engine == "tumble":
        import tumble.envs  # noqa: F401  (registers tumble/LunarLander-v3)
    return ENV_IDS[engine]


def train(
    engine: str, timesteps: int, n_envs: int = 16, seed: int = 0, verbose: int = 0
):
    """Trains PPO on ``engine``'s lander for ``timesteps`` steps over
    ``n_envs`` environments; returns the model and the training's wall
    time and this process's CPU time, in seconds."""
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv

    envs = make_vec_env(
        env_id(engine), n_envs=n_envs, seed=seed, vec_env_cls=DummyVecEnv
    )
    model = PPO(
        "MlpPolicy", envs, seed=seed, device="cpu", verbose=verbose, **PPO_SETTINGS
    )
    start, cpu_start = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=timesteps)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    envs.close()
    return model, wall, cpu


def evaluate(
    model, engine: str, episodes: int = 20, first_seed: int = 1000
) -> list[float]:
    """The returns of ``episodes`` episodes of ``engine``'s lander flown by
    ``model`` with deterministic actions, episode ``k`` reset with seed
    ``first_seed + k``."""
    import gymnasium

    env = gymnasium.make(env_id(engine))
    returns = []
    for k in range(episodes):
        obs, _ = env.reset(seed=first_seed + k)
        total, done = 0.0, False
        while not done:
            action, _ = model.predict(obs, deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            total += float(reward)
            done = terminated or truncated
        returns.append(total)
    env.close()
    return returns


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Trains and evaluates as the command line says; prints (and returns)
    the mean evaluation return, its standard deviation, the training's
    wall and CPU time and its steps per second of wall time."""
    args = parse_args(argv)
    import numpy as np
    import torch

    torch.set_num_threads(args.torch_threads)

    print(
        f"engine {args.engine} ({ENV_IDS[args.engine]}): PPO, {args.timesteps} timesteps, "
        f"{args.n_envs} envs, seed {args.seed}, torch on {torch.get_num_threads()} threads",
        flush=True,
    )
    model, wall, cpu = train(
        args.engine, args.timesteps, args.n_envs, args.seed, args.verbose
    )
    # PPO collects whole rollouts: n_envs * n_steps steps at a time.
    steps = model.num_timesteps
    print(
        f"trained {steps} steps in {wall:.1f} s ({cpu:.1f} s of CPU): "
        f"{steps / wall:.0f} steps/s",
        flush=True,
    )
    if args.save:
        model.save(args.save)
        print(f"saved the model to {args.save}")
    returns = np.array(evaluate(model, args.engine, args.eval_episodes, args.eval_seed))
    summary = {
        "timesteps": float(steps),
        "wall_s": wall,
        "cpu_s": cpu,
        "steps_per_s": steps / wall,
        "mean_return": float(returns.mean()),
        "std_return": float(returns.std()),
        "scored_200": float((returns >= 200).sum()),
    }
    last = args.eval_seed + args.eval_episodes - 1
    print(
        f"evaluation: {args.eval_episodes} episodes (seeds {args.eval_seed}..{last}), "
        f"deterministic: mean return {summary['mean_return']:.1f} "
        f"± {summary['std_return']:.1f}, {int(summary['scored_200'])} of them >= 200"
    )
    return summary


if __name__ == "__main__":
    main()
