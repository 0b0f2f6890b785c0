"""Physics through Python, against closed forms."""

import math

import pytest
import tumble
from conftest import make_ground, pyramid_positions


def test_free_fall_matches_the_integrator_and_the_closed_form():
    world = tumble.World(gravity=(0, -10))
    ball = world.create_body(position=(0, 100))
    ball.add_circle(0.5)
    dt, steps = 1 / 60, 120
    substeps = world.solver.substeps
    for _ in range(steps):
        world.step(dt)
    t = steps * dt
    # Semi-implicit Euler over n substeps of h: y = y0 - g h^2 n (n + 1) / 2.
    n, h = steps * substeps, dt / substeps
    discrete = 100 - 10 * h * h * n * (n + 1) / 2
    assert abs(ball.position.y - discrete) < 1e-3
    # The closed form differs from it by g h t / 2, no more.
    closed = 100 - 0.5 * 10 * t * t
    assert abs(ball.position.y - closed) <= 0.5 * 10 * h * t + 1e-3
    assert abs(ball.linear_velocity.y - (-10 * t)) < 1e-3
    assert ball.position.x == 0.0


def test_the_21_box_pyramid_stands_still():
    world = tumble.World(sleeping=False)
    make_ground(world)
    boxes = []
    for x, y in pyramid_positions(6):
        b = world.create_body(position=(x, y))
        b.add_box(1, 1)
        boxes.append(b)
    assert len(boxes) == 21
    start = [b.position for b in boxes]
    for _ in range(600):
        world.step(1 / 60)
    moved = max(abs(b.position - p) for b, p in zip(boxes, start))
    speed = max(abs(b.linear_velocity) for b in boxes)
    assert moved < 0.02, f"a box moved {moved} m"
    assert speed < 0.01, f"a box still moves at {speed} m/s"
    assert max(abs(b.angle) for b in boxes) < 0.01


def test_small_swing_pendulum_period():
    length, g = 2.0, 10.0
    world = tumble.World(gravity=(0, -g))
    pivot = world.create_body("static", position=(0, 10))
    theta0 = 0.05
    bob = world.create_body(position=(length * math.sin(theta0), 10 - length * math.cos(theta0)))
    bob.add_circle(0.02, density=1000)
    world.add_joint(pivot, bob, tumble.RevoluteJoint(), anchor=(0, 10))
    dt = 1 / 240
    crossings, prev_x, t = [], bob.position.x, 0.0
    while len(crossings) < 7 and t < 20:
        world.step(dt)
        t += dt
        x = bob.position.x
        if prev_x > 0 >= x or prev_x < 0 <= x:
            # Linear interpolation of the time the bob crossed x = 0.
            crossings.append(t - dt * x / (x - prev_x))
        prev_x = x
    assert len(crossings) == 7
    period = (crossings[-1] - crossings[0]) / 3  # six half periods
    expected = 2 * math.pi * math.sqrt(length / g)
    assert abs(period - expected) / expected < 0.01, (period, expected)


def test_mass_data_set_by_hand_sets_how_a_torque_turns_the_body():
    world = tumble.World(gravity=(0, 0))
    plank = world.create_body()
    plank.add_box(2, 0.5)
    own = (plank.mass, plank.inertia)
    plank.set_mass_data(3.0, 2.5, center=(0.5, 0))
    assert (plank.mass, plank.inertia) == (3.0, 2.5)
    assert plank.local_center == tumble.Vec2(0.5, 0)
    dt, steps, torque = 1 / 60, 30, 4.0
    for _ in range(steps):
        plank.apply_torque(torque)
        world.step(dt)
    want = torque * steps * dt / 2.5
    assert abs(plank.angular_velocity - want) < 1e-4 * want
    plank.reset_mass_data()
    assert (plank.mass, plank.inertia) == own
    with pytest.raises(ValueError, match="mass is out of range"):
        plank.set_mass_data(0.0, 1.0)
    assert (plank.mass, plank.inertia) == own


def test_a_disabled_body_is_held_out_of_the_world_and_comes_back():
    world = tumble.World()
    make_ground(world)
    box = world.create_body(position=(0, 5))
    box.add_box(1, 1)
    box.enabled = False
    assert not box.enabled and not box.awake
    for _ in range(60):
        world.step(1 / 60)
    assert box.position == tumble.Vec2(0, 5)
    hit = world.ray_cast((0, 10), (0, -20))
    assert hit is not None and hit.body != box
    box.enabled = True
    for _ in range(120):
        world.step(1 / 60)
    assert box.position.y < 1.0


def test_a_belt_by_its_tangent_speed_carries_a_box_and_switches_at_once():
    world = tumble.World()
    belt = make_ground(world).shapes[0]
    belt.tangent_speed = 2.0
    box = world.create_body(position=(0, 0.5))
    box.add_box(1, 1)
    for _ in range(120):
        world.step(1 / 60)
    assert abs(box.linear_velocity.x - 2.0) < 0.01
    belt.tangent_speed = -1.0
    for _ in range(60):
        world.step(1 / 60)
    assert abs(box.linear_velocity.x + 1.0) < 0.01
    with pytest.raises(ValueError):
        belt.tangent_speed = float("nan")
    assert belt.tangent_speed == -1.0


def test_rolling_resistance_stops_a_rolling_disc_where_the_closed_form_says():
    # a = c g / (1 + 1/2) for a disc: from 5 m/s with c = 0.1, 18.75 m.
    world = tumble.World()
    make_ground(world)
    disc = world.create_body(position=(-45, 0.5), linear_velocity=(5, 0), angular_velocity=-10)
    disc.add_circle(0.5, rolling_resistance=0.1)
    assert abs(disc.shapes[0].rolling_resistance - 0.1) < 1e-7
    for _ in range(600):
        world.step(1 / 60)
    assert abs(disc.linear_velocity.x) < 1e-2
    assert abs(disc.position.x + 45 - 18.75) < 0.03 * 18.75


def test_a_box_slides_over_a_tile_map_as_over_one_box():
    # Forty 1 m tiles of one static body side by side are one flat floor
    # (smooth seams): a box slid over them without friction keeps its
    # speed and never rises. Without smooth seams it catches on the seams.
    def slide(smooth):
        world = tumble.World(sleeping=False, smooth_seams=smooth)
        floor = world.create_body("static")
        tiles = [floor.add_box(1, 1, center=(i + 0.5, -0.5), friction=0.0) for i in range(40)]
        box = world.create_body(position=(0.5, 0.5), linear_velocity=(8, 0))
        box.add_box(1, 1, friction=0.0)
        rise = 0.0
        for _ in range(240):
            world.step(1 / 60)
            rise = max(rise, abs(box.linear_velocity.y))
        return tiles, rise, box.position.x - 0.5

    tiles, rise, slid = slide(True)
    # A box's edges run bottom, right, top, left: the sides are seams.
    assert tiles[1].seam_edges == [1, 3] and tiles[0].seam_edges == [1]
    assert rise < 0.1 and slid == pytest.approx(8 * 4, rel=0.01)
    tiles, rise, slid = slide(False)
    assert tiles[1].seam_edges == []
    assert rise > 0.1 and slid < 0.5 * 8 * 4
