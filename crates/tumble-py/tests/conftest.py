"""Shared scenes for the tests, and the repository's scripts as modules."""

import importlib.util
import pathlib

import pytest
import tumble

REPO = pathlib.Path(__file__).resolve().parents[3]


def load_script(path):
    """The Python script at ``path`` (relative to the repository's root)
    as a module, its name the file's stem."""
    path = REPO / path
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_ground(world, half_width=50.0):
    """A static box whose top face is y = 0."""
    ground = world.create_body("static", position=(0, -1))
    ground.add_box(2 * half_width, 2)
    return ground


def pyramid_positions(rows):
    """The centers of a pyramid of 1 m boxes 5 cm apart, bottom row first
    (the Rust scenes' layout)."""
    out = []
    for r in range(rows):
        count = rows - r
        for i in range(count):
            out.append(((i - 0.5 * (count - 1)) * 1.05, 0.5 + r))
    return out


@pytest.fixture
def world():
    """An empty world at the default gravity."""
    return tumble.World()


@pytest.fixture
def scene():
    """A world with ground, a few boxes and circles, a hinge and a sensor,
    stepped until things touch: something of every kind to save."""
    w = tumble.World()
    ground = make_ground(w)
    bodies = []
    for i in range(4):
        b = w.create_body(position=(i * 1.2 - 2, 0.5 + 0.01 * i), user_data={"i": i})
        b.add_box(1, 1, friction=0.5)
        bodies.append(b)
    ball = w.create_body(position=(0, 3))
    ball.add_circle(0.3, restitution=0.2)
    arm = w.create_body(position=(4, 3))
    arm.add_capsule((-0.5, 0), (0.5, 0), 0.1)
    w.add_joint(ground, arm, tumble.RevoluteJoint(), anchor=(3.5, 3))
    zone = w.create_body("static", position=(-4, 1))
    zone.add_circle(1.0, sensor=True)
    for _ in range(30):
        w.step(1 / 60)
    return w
