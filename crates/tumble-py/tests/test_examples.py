"""The Python examples run headless (SDL's dummy video driver) for a few
seconds of simulation and do what they say."""

import os
import subprocess
import sys

import pygame
import pytest
from conftest import REPO, load_script

EXAMPLES = REPO / "examples" / "python"
HEADLESS = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")


def load(name):
    """The example ``name`` as a module."""
    return load_script(f"examples/python/{name}.py")


def run_example(script, *args, timeout=120):
    """Runs example ``script`` headless with ``args``; asserts it exits 0
    and returns what it printed."""
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        env=HEADLESS,
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert out.returncode == 0, out.stderr
    return out


def test_hello_runs_and_the_box_comes_to_rest():
    out = run_example("hello.py", "--frames", "180")
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("the box rests at y = ")
    assert abs(float(last.split("=")[1].split()[0]) - 0.5) < 0.01


def test_tumbling_crates_runs_from_the_command_line():
    out = run_example("tumbling_crates.py", "--frames", "120")
    assert "Simulated" in out.stdout and "with 4 crates" in out.stdout


def test_tumbling_crates_click_reset_and_debug(monkeypatch):
    for k, v in HEADLESS.items():
        monkeypatch.setenv(k, v)
    crates = load("tumbling_crates")
    click = [pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(450, 100))]
    # Drop three crates, let them fall for three seconds.
    world = crates.main(frames=200, script={10: click, 20: click, 30: click})
    assert crates.crate_count(world) == 7
    dynamic = [b for b in world.bodies if b.type == "dynamic"]
    # Everything fell onto the floor or the ramp: above the floor's top
    # (0.4 m), below the drop height, and not through the right wall.
    for b in dynamic:
        assert 0.4 < b.position.y < 6.0 and b.position.x < 9.0, b
    # R makes the scene anew with four crates; D is only drawing.
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, mod=0, unicode="r", scancode=0)
    d = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0, unicode="d", scancode=0)
    world = crates.main(frames=40, script={5: click, 10: [key], 15: [d]})
    assert crates.crate_count(world) == 4


def test_ray_rollouts_collect_episodes_on_a_local_cluster():
    # A local Ray cluster of two CPUs: the heuristic lands, random play
    # crashes, and every episode asked for comes back.
    out = run_example(
        "ray_rollouts.py", "--tasks", "2", "--episodes", "3", "--num-cpus", "2", timeout=300
    )
    lines = {ln.split(":")[0].strip(): ln for ln in out.stdout.splitlines() if ":" in ln}
    mean = {
        p: float(lines[p].split("mean return")[1].split(",")[0]) for p in ("heuristic", "random")
    }
    assert "6 episodes" in lines["heuristic"] and "6 episodes" in lines["random"]
    assert mean["heuristic"] >= 100 > mean["random"], mean


def test_train_lander_parses_its_command_line():
    # Training needs torch (too large for CI): only the options are checked,
    # where stable-baselines3 is installed. Loading the script imports
    # neither it nor torch.
    pytest.importorskip("stable_baselines3")
    out = run_example("train_lander.py", "--help")
    assert "--engine" in out.stdout and "--timesteps" in out.stdout
    lander = load("train_lander")
    args = lander.parse_args(["--engine", "gymnasium", "--timesteps", "5000"])
    assert (args.engine, args.timesteps, args.n_envs, args.eval_episodes) == (
        "gymnasium",
        5000,
        16,
        20,
    )
    assert lander.parse_args([]).engine == "tumble"
    assert lander.PPO_SETTINGS == {
        "n_steps": 1024,
        "batch_size": 64,
        "n_epochs": 4,
        "gamma": 0.999,
        "gae_lambda": 0.98,
        "ent_coef": 0.01,
    }
    for bad in (["--engine", "bullet"], ["--timesteps", "0"]):
        with pytest.raises(SystemExit):
            lander.parse_args(bad)
