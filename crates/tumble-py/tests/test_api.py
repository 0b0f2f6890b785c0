"""Round trips through the Python API: what is set reads back, for every
kind of object."""

import math

import numpy as np
import pygame
import pytest
import tumble
from conftest import make_ground


def test_vec2_takes_any_pair_and_behaves_as_a_tuple(world):
    b = world.create_body()
    for value in [(1.5, -2), [1.5, -2], np.array([1.5, -2.0]), pygame.Vector2(1.5, -2)]:
        b.position = value
        assert b.position == (1.5, -2.0)
    v = tumble.Vec2(3, 4)
    x, y = v
    assert (x, y) == (3.0, 4.0) and v[0] == 3 and v[-1] == 4 and len(v) == 2
    assert v == [3, 4] and hash(v) == hash((3.0, 4.0))
    assert v + (1, 1) == (4, 5) and (1, 1) + v == (4, 5) and v - (1, 1) == (2, 3)
    assert 2 * v == (6, 8) and v / 2 == (1.5, 2) and -v == (-3, -4)
    assert abs(v) == 5 and v.length == 5 and v.dot((1, 0)) == 3 and v.cross((1, 0)) == -4
    assert v.normalized() == (0.6, 0.8) and v.perpendicular() == (-4, 3)
    assert np.allclose(np.array(v), [3, 4])
    with pytest.raises(AttributeError):
        v.x = 1  # immutable


def test_world_settings_round_trip():
    w = tumble.World(
        gravity=(1, -5),
        sleeping=False,
        workers=2,
        length_units_per_meter=2.0,
        hit_event_threshold=3.0,
        max_linear_speed=50.0,
        max_step=0.1,
        max_step_splits=4,
        solver=tumble.SolverSettings(iterations=6, substeps=3, sweep="alternating"),
    )
    assert w.gravity == (1, -5) and not w.sleeping and w.workers == 2
    assert w.length_units_per_meter == 2 and w.hit_event_threshold == 3
    assert w.max_linear_speed == 50 and w.max_step_splits == 4
    assert math.isclose(w.max_step, 0.1, rel_tol=1e-6)
    s = w.solver
    assert (s.iterations, s.substeps, s.sweep) == (6, 3, "alternating")
    s.position_correction = "split_impulse"
    s.coloring = "ordered"
    s.warm_starting = False
    w.solver = s
    assert w.solver == s
    w.gravity, w.sleeping, w.workers = (0, -10), True, 1
    w.max_linear_speed, w.max_step, w.max_step_splits = 100.0, 0.05, 8
    assert (w.gravity, w.sleeping, w.workers, w.max_step_splits) == ((0, -10), True, 1, 8)
    assert w.worker_threads >= 1
    with pytest.raises(TypeError):
        tumble.SolverSettings(nonsense=1)


def test_every_lane_width_steps_a_pile_to_the_same_bits():
    def pile(lane_width):
        w = tumble.World(solver=tumble.SolverSettings(lane_width=lane_width))
        make_ground(w)
        # Enough boxes for the step to run wider than four lanes where it can.
        for i in range(100):
            w.create_body(position=(0.6 * (i % 10) - 3.0, 0.6 + 0.55 * i)).add_box(0.5, 0.5)
        for _ in range(120):
            w.step(1 / 60)
        return w.get_positions().tobytes()

    assert tumble.SolverSettings().lane_width == "widest"
    assert tumble.SolverSettings(lane_width="four").lane_width == "four"
    assert pile("four") == pile("widest")
    s = tumble.SolverSettings()
    with pytest.raises(ValueError, match="lane_width"):
        s.lane_width = "sixteen"
    assert s.lane_width == "widest"


def test_the_profile_times_the_stages_only_while_profiling():
    def column(profiling):
        w = tumble.World(profiling=profiling)
        make_ground(w)
        for i in range(5):
            w.create_body(position=(0, 0.6 + 1.1 * i)).add_box(1, 1)
        return w

    timed, untimed = column(True), column(False)
    assert timed.profiling and not untimed.profiling
    for _ in range(30):
        timed.step(1 / 60)
        untimed.step(1 / 60)
    assert timed.profile["total"] > 0
    assert set(untimed.profile) == set(timed.profile)
    assert all(v == 0 for v in untimed.profile.values())
    # Timing changes nothing else.
    assert np.array_equal(timed.get_positions(), untimed.get_positions())
    timed.profiling, untimed.profiling = False, True
    assert all(v == 0 for v in timed.profile.values())
    untimed.step(1 / 60)
    assert untimed.profile["total"] > 0


def test_body_properties_round_trip(world):
    b = world.create_body(
        "dynamic",
        position=(1, 2),
        angle=0.5,
        linear_velocity=(3, 4),
        angular_velocity=1.5,
        gravity_scale=0.0,
        motion_locks=tumble.MotionLocks(rotation=True),
        user_data=[1, 2],
    )
    b.add_box(2, 1, density=3)
    assert b.type == "dynamic" and b.position == (1, 2)
    # The engine keeps a rotation (cosine, sine), so the angle reads back
    # to within the float's rounding.
    assert b.angle == pytest.approx(0.5, abs=1e-6)
    assert b.linear_velocity == (3, 4) and b.angular_velocity == 0  # rotation locked
    assert b.mass == pytest.approx(6) and b.user_data == [1, 2]
    assert b.motion_locks == tumble.MotionLocks(rotation=True)
    b.motion_locks = tumble.MotionLocks()
    b.angular_velocity = 2.0
    assert b.angular_velocity == 2.0 and b.inertia == pytest.approx(6 * (4 + 1) / 12)
    b.set_transform((5, 6), 1.0)
    assert b.position == (5, 6) and b.angle == pytest.approx(1.0)
    assert b.world_point((1, 0)) == pytest.approx((5 + math.cos(1), 6 + math.sin(1)))
    assert b.local_point(b.world_point((0.3, -0.2))) == pytest.approx((0.3, -0.2), abs=1e-6)
    assert b.world_center == pytest.approx(tuple(b.position))
    b.awake = False
    assert not b.awake
    b.wake()
    assert b.awake
    b.type = "kinematic"
    assert b.type == "kinematic" and b.mass == 0
    b.user_data = None
    assert b.user_data is None
    assert world.body(b.key) == b and hash(world.body(b.key)) == hash(b)
    assert b.world is world and b.alive and world.bodies == [b]


def test_forces_impulses_and_torques(world):
    b = world.create_body(gravity_scale=0)
    b.add_circle(1.0)
    m = b.mass
    b.apply_impulse((m, 0))
    assert b.linear_velocity == pytest.approx((1, 0))
    b.apply_angular_impulse(b.inertia)
    assert b.angular_velocity == pytest.approx(1)
    b.linear_velocity, b.angular_velocity = (0, 0), 0
    b.apply_force((0, 60 * m))
    b.apply_torque(0.0)
    world.step(1 / 60)
    assert b.linear_velocity.y == pytest.approx(1, rel=1e-4)
    assert b.velocity_at_point(b.position) == b.linear_velocity


def test_every_shape_kind_round_trips(world):
    body = world.create_body("dynamic")
    f = tumble.Filter(category=2, mask=~4, group=-1)
    assert f.mask == (2**64 - 1) & ~4
    circle = body.add_circle(0.5, (1, 0), density=2, friction=0.3, restitution=0.4, filter=f)
    capsule = body.add_capsule((0, 0), (0, 1), 0.2)
    box = body.add_box(2, 1, center=(0, -2), angle=0.1, user_data="box")
    poly = body.add_polygon([(0, 0), (1, 0), (0, 1), (0.2, 0.2)], radius=0.05)
    segment = body.add_segment((-1, 0), (1, 0))
    chain = body.add_chain([(0, 0), (1, 0), (2, 1)], closed=False)
    concave = body.add_concave([(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (0, 1)])
    assert circle.type == "circle" and circle.geometry == tumble.Circle(0.5, (1, 0))
    assert capsule.geometry == tumble.Capsule((0, 0), (0, 1), 0.2)
    assert box.geometry == tumble.Polygon.box(2, 1, center=(0, -2), angle=0.1)
    assert box.user_data == "box" and box.body == body
    assert poly.type == "polygon" and len(poly.geometry.vertices) == 3  # the hull
    assert poly.geometry.radius == pytest.approx(0.05)
    assert segment.geometry == tumble.Segment((-1, 0), (1, 0))
    assert [s.type for s in chain] == ["chain_segment"] * 2
    assert chain[0].geometry.point2 == chain[1].geometry.point1 == (1, 0)
    assert len(concave) >= 2 and all(s.type == "polygon" for s in concave)
    assert (circle.density, circle.friction, circle.restitution) == pytest.approx((2, 0.3, 0.4))
    assert circle.filter == f and circle.filter.should_collide(tumble.Filter())
    circle.friction, circle.restitution = 0.9, 0.1
    circle.filter = tumble.Filter()
    circle.contact_events, circle.hit_events, circle.pre_solve = False, True, True
    assert (circle.friction, circle.restitution) == pytest.approx((0.9, 0.1))
    assert circle.filter == tumble.Filter()
    assert (circle.contact_events, circle.hit_events, circle.pre_solve) == (False, True, True)
    assert not circle.sensor and not circle.custom_filter and circle.sensor_events
    assert body.shapes[:3] == [circle, capsule, box]
    lower, upper = box.aabb()
    assert lower.y < -2 < upper.y and box.contains_point((0, -2))
    box.remove()
    assert not box.alive and box not in body.shapes


def test_sensors_report_what_enters_and_leaves(world):
    zone = world.create_body("static")
    sensor = zone.add_box(2, 2, sensor=True)
    ball = world.create_body(position=(0, 3))
    visitor = ball.add_circle(0.25)
    entered = left = False
    for _ in range(120):
        world.step(1 / 60)
        entered |= any(
            e.visitor == visitor and e.sensor == sensor for e in world.sensor_events.begin
        )
        left |= any(e.visitor == visitor for e in world.sensor_events.end)
        if entered and not left and world.sensor_events.begin:
            assert sensor.overlaps() == [visitor]
    assert entered and left


JOINTS = [
    tumble.RevoluteJoint(
        enable_limit=True,
        lower_angle=-1,
        upper_angle=1,
        enable_motor=True,
        motor_speed=2,
        max_motor_torque=50,
        enable_spring=True,
        hertz=2,
        damping_ratio=0.5,
        target_angle=0.25,
    ),
    tumble.PrismaticJoint(
        enable_limit=True, lower_translation=-1, upper_translation=1, enable_spring=True, hertz=1
    ),
    tumble.DistanceJoint(length=2, enable_spring=True, hertz=3, damping_ratio=0.2),
    tumble.WeldJoint(linear_hertz=5, angular_hertz=5),
    tumble.WheelJoint(enable_motor=True, motor_speed=1, max_motor_torque=10),
    tumble.MotorJoint(linear_velocity=(1, 0), max_force=100, max_torque=10),
    tumble.FilterJoint(),
]


@pytest.mark.parametrize("params", JOINTS, ids=lambda p: p.kind)
def test_every_joint_kind_round_trips_and_reads_out(world, params):
    ground = make_ground(world)
    body = world.create_body(position=(2, 3))
    body.add_box(1, 1)
    joint = world.add_joint(ground, body, params, anchor=(2, 3), user_data="j")
    assert joint.kind == params.kind and joint.params == params
    assert joint.bodies == (ground, body) and joint.body_a == ground and joint.user_data == "j"
    assert not joint.collide_connected and world.joints == [joint] and body.joints == [joint]
    (pa, aa), (pb, ab) = joint.frames
    assert pb == (0, 0) and pa == pytest.approx((2, 4)) and aa == ab == 0
    for _ in range(30):
        world.step(1 / 60)
    for readout in ("angle", "translation", "length", "reaction_torque", "motor_impulse"):
        assert math.isfinite(getattr(joint, readout))
    assert all(math.isfinite(c) for c in joint.reaction_force)
    if params.kind == "revolute":
        assert abs(joint.length) < 1e-2  # the hinge holds
        assert -1 - 1e-2 <= joint.angle <= 1 + 1e-2
        joint.set_motor_speed(-3)
        assert joint.params.motor_speed == -3
    if params.kind != "filter":
        changed = joint.params
        field = "max_force" if params.kind == "motor" else "hertz"
        if params.kind == "weld":
            field = "linear_hertz"
        setattr(changed, field, 7.0)
        joint.params = changed
        assert getattr(joint.params, field) == 7.0
    joint.frames = (((2, 4), 0.0), ((0, 0), 0.0))
    joint.remove()
    assert not joint.alive and world.joint_count == 0


def test_queries(world):
    make_ground(world)
    box = world.create_body("static", position=(5, 1))
    shape = box.add_box(2, 2)
    hit = world.ray_cast((0, 1), (10, 0))
    assert hit.shape == shape and hit.body == box
    assert hit.point == pytest.approx((4, 1)) and hit.normal == pytest.approx((-1, 0))
    assert hit.fraction == pytest.approx(0.4)
    assert world.ray_cast((0, 5), (1, 0)) is None
    hits = world.ray_cast_all((5, 10), (0, -20))
    assert [h.shape for h in hits][0] == shape and len(hits) == 2
    cast = world.shape_cast(tumble.Circle(0.5), (0, 1), (10, 0))
    assert cast.shape == shape and cast.fraction == pytest.approx(0.35, abs=1e-3)
    assert world.overlap_point((5, 1)) == [shape]
    assert world.overlap_aabb((4.5, 0.5), (4.6, 0.6)) == [shape]
    assert world.overlap_shape(tumble.Circle(0.2), (6, 1)) == [shape]
    only_two = tumble.QueryFilter(mask=2)
    assert world.overlap_point((5, 1), filter=only_two) == []
    assert world.overlap_point((5, 1), filter=tumble.QueryFilter.ALL) == [shape]


def test_explosion_pushes_bodies_away(world):
    left = world.create_body(position=(-1, 0), gravity_scale=0)
    left.add_circle(0.2)
    right = world.create_body(position=(1, 0), gravity_scale=0)
    right.add_circle(0.2)
    world.explode((0, 0), 2.0, 1.0)
    assert left.linear_velocity.x < 0 < right.linear_velocity.x


def test_contacts_and_contact_events(world):
    make_ground(world)
    box = world.create_body(position=(0, 1.5))
    shape = box.add_box(1, 1, hit_events=True)
    began = False
    for _ in range(60):
        world.step(1 / 60)
        began |= any(shape in (e.shape_a, e.shape_b) for e in world.contact_events.begin)
    assert began
    (contact,) = world.contacts()
    assert box in (contact.body_a, contact.body_b) and len(contact.points) == 2
    assert abs(contact.normal.y) == pytest.approx(1)
    assert sum(p.normal_impulse for p in contact.points) > 0
    points, normals, separations = world.contact_points()
    assert points.shape == (2, 2) and normals.shape == (2, 2) and separations.shape == (2,)


def test_character_mover_walks_on_the_ground(world):
    make_ground(world)
    capsule = tumble.Capsule((0, -0.5), (0, 0.5), 0.3)
    body = world.create_body("kinematic", position=(0, 2))
    body.add_shape(capsule)
    controller = tumble.CharacterController(skin=0.02)
    assert controller.skin == pytest.approx(0.02) and controller.up == (0, 1)
    dt, fall = 1 / 60, 0.0
    for _ in range(120):
        fall -= 10 * dt
        move = world.move_character(
            controller, capsule, body.position, (3 * dt, fall * dt), dt, ignore=body
        )
        if move.grounded:
            fall = 0.0
        body.linear_velocity = move.translation / dt
        world.step(dt)
    assert move.grounded and move.ground is not None
    assert body.position.y == pytest.approx(0.8, abs=0.03)
    assert body.position.x == pytest.approx(6, abs=0.3)


def test_python_hooks_and_one_way_platforms(world):
    make_ground(world)
    belt_body = world.create_body("static", position=(0, 0.25))
    belt = belt_body.add_box(6, 0.5, pre_solve=True)
    box = world.create_body(position=(0, 1.0))
    box.add_box(0.5, 0.5)
    asked = []

    class Conveyor:
        def pre_solve(self, contact):
            asked.append(contact)
            if belt in (contact.shape_a, contact.shape_b):
                contact.tangent_speed = 2.0
            return True

    for _ in range(90):
        world.step(1 / 60, hooks=Conveyor())
    assert asked and box.linear_velocity.x == pytest.approx(2.0, abs=0.1)
    with pytest.raises(tumble.InvalidValueError):
        asked[0].friction = -1

    # A one-way platform: a body below jumps up through it and lands on it.
    w = tumble.World()
    platform = w.create_body("static", position=(0, 2)).add_box(4, 0.2, pre_solve=True)
    ball = w.create_body(position=(0, 1), linear_velocity=(0, 9))
    ball.add_circle(0.25)
    hooks = tumble.OneWayPlatforms([platform])
    for _ in range(180):
        w.step(1 / 60, hooks=hooks)
    assert ball.position.y == pytest.approx(2.1 + 0.25, abs=0.05)


# A world of boxes all asking a Python pre_solve hook, stepped on four
# workers; the hook gives up the GIL (as a sleep, I/O or the interpreter's
# switch interval may) and, if asked, raises after a while. Run apart, so
# that a step that never returns fails the test instead of hanging it.
HOOKS_ON_WORKERS = """
import sys, time
import tumble

world = tumble.World(workers=4)
world.create_body("static", position=(0, -1)).add_box(200, 2, pre_solve=True)
for i in range(600):
    body = world.create_body(position=(i % 100 - 50, 0.45 + 0.9 * (i // 100)))
    body.add_box(0.9, 0.9, pre_solve=True)
raises = sys.argv[1] == "raise"
raised = 0


class Hooks:
    asked = 0

    def pre_solve(self, contact):
        Hooks.asked += 1
        time.sleep(0)
        if raises and Hooks.asked > 50:
            raise RuntimeError("from a worker's hook")
        return True


for _ in range(10):
    try:
        world.step(1 / 60, hooks=Hooks())
    except RuntimeError as e:
        assert raises and "worker" in str(e), e
        raised += 1
print("asked", Hooks.asked, "steps", world.step_count, "raised", raised)
"""


@pytest.mark.parametrize("mode", ["answer", "raise"])
def test_python_hooks_that_give_up_the_gil_on_worker_threads(tmp_path, mode):
    import subprocess
    import sys

    script = tmp_path / "hooks_on_workers.py"
    script.write_text(HOOKS_ON_WORKERS)
    done = subprocess.run(
        [sys.executable, str(script), mode], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    asked, steps, raised = map(int, done.stdout.split()[1::2])
    assert steps == 10
    if mode == "raise":
        # Each step raises its first hook's exception, once.
        assert raised == 10 and asked > 50
    else:
        assert raised == 0 and asked > 5000


def test_debug_draw_lists_primitives(world):
    ground = make_ground(world)
    ball = world.create_body(position=(0, 2))
    ball.add_circle(0.5)
    world.add_joint(ground, ball, tumble.DistanceJoint(length=2), anchor=(0, 4), anchor_b=(0, 2))
    world.step(1 / 60)
    kinds = [p[0] for p in world.debug_draw(contacts=True, normals=True)]
    assert "polygon" in kinds and "circle" in kinds and "segment" in kinds
    assert world.debug_draw(shapes=False, joints=False) == []


def test_pygame_draw_options(world):
    pygame.init()
    surface = pygame.Surface((200, 100))
    from tumble.pygame_util import DrawOptions

    make_ground(world)
    options = DrawOptions(surface, scale=10, origin=(100, 90), contacts=True, normals=True)
    assert options.to_screen((1, 2)) == (110, 70)
    assert options.to_world((110, 70)) == (1, 2)
    surface.fill((0, 0, 0))
    assert options.draw(world) > 0
    # The ground's top face is y = 0: the pixel row 90 and below is drawn.
    assert surface.get_at((100, 95))[:3] != (0, 0, 0)
    assert surface.get_at((100, 50))[:3] == (0, 0, 0)


def test_workers_give_the_same_bits(scene):
    import copy

    threaded = copy.deepcopy(scene)
    threaded.workers = 2
    for _ in range(60):
        scene.step(1 / 60)
        threaded.step(1 / 60)
    assert np.array_equal(scene.get_positions(), threaded.get_positions())


def test_bullets_on_tile_seams_give_the_same_bits_on_any_worker_count():
    """Steps that the workers share (over the threshold of awake contacts
    and joints: here filter joints) rebuild the broadphase's tree beside
    the solve, one-thread steps after their moves, so a one-thread step
    after a shared one searches a tree of another shape. Bullets striking
    1 m tiles, some exactly at their seams, must stop alike either way."""
    import random

    def run(workers):
        r = random.Random(57)
        world = tumble.World(workers=workers)
        ground = world.create_body("static")
        for i in range(-20, 20):
            ground.add_box(1.0, 1.0, center=(i + 0.5, -0.5))
        world.create_body("static").add_chain([(x * 0.5, 0.0) for x in range(40, -41, -1)])
        a = world.create_body(position=(0, 500), gravity_scale=0, can_sleep=False)
        b = world.create_body(position=(2, 500), gravity_scale=0, can_sleep=False)
        a.add_circle(0.1)
        b.add_circle(0.1)
        joints = [world.add_joint(a, b, tumble.FilterJoint()) for _ in range(1030)]
        for _ in range(60):
            x = r.choice([float(r.randint(-15, 15)), r.uniform(-15, 15)])
            body = world.create_body(
                position=(x, r.uniform(1, 20)),
                angle=r.choice([0.0, r.uniform(-3, 3)]),
                linear_velocity=(r.choice([0.0, r.uniform(-50, 50)]), -r.uniform(100, 400)),
            )
            kind = r.randrange(3)
            if kind == 0:
                body.add_circle(r.choice([0.05, 0.1, 0.25]))
            elif kind == 1:
                body.add_box(r.choice([0.1, 0.4]), r.choice([0.1, 0.4]))
            else:
                body.add_capsule((0, -0.2), (0, 0.2), 0.05)
        for _ in range(3):
            world.step(1 / 30)  # shared by the workers when there are two
        for j in joints:
            j.remove()
        world.step(1 / 30)  # on one thread either way
        return world

    one, two = run(1), run(2)
    assert np.array_equal(one.get_positions(), two.get_positions())
    assert np.array_equal(one.get_linear_velocities(), two.get_linear_velocities())


def test_step_releases_the_gil():
    import threading
    import time

    worlds = []
    for _ in range(2):
        w = tumble.World(sleeping=False)
        make_ground(w)
        for i in range(200):
            w.create_body(position=((i % 20) * 1.1 - 11, 1 + i // 20)).add_box(1, 1)
        worlds.append(w)
    ticks = []

    def count():
        end = time.perf_counter() + 0.3
        while time.perf_counter() < end:
            ticks.append(1)
            time.sleep(0)

    def run(w):
        for _ in range(30):
            w.step(1 / 60)

    counter = threading.Thread(target=count)
    counter.start()
    threads = [threading.Thread(target=run, args=(w,)) for w in worlds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    counter.join()
    # The counting thread ran while the worlds stepped.
    assert len(ticks) > 10
    assert worlds[0].to_bytes() == worlds[1].to_bytes()


def test_body_and_shape_contacts_are_the_worlds_contacts_naming_them():
    world = tumble.World()
    ground = world.create_body("static")
    ground.add_box(20, 1)
    boxes = []
    for k in range(4):
        b = world.create_body("dynamic", position=(k * 1.2 - 2, 1.0))
        b.add_box(1, 1)
        if k % 2:
            b.add_circle(0.2, center=(0, 0.7))
        boxes.append(b)
    for _ in range(60):
        world.step(1 / 60)

    def keys(contacts):
        return sorted((c.shape_a.key, c.shape_b.key) for c in contacts)

    all_contacts = world.contacts()
    for b in boxes + [ground]:
        want = [c for c in all_contacts if b in (c.body_a, c.body_b)]
        assert keys(b.contacts()) == keys(want)
        for s in b.shapes:
            want = [c for c in all_contacts if s in (c.shape_a, c.shape_b)]
            assert keys(s.contacts()) == keys(want)
    assert len(ground.contacts()) == 4


def test_a_joint_along_an_axis_slides_along_it():
    world = tumble.World(gravity=(0, 0))
    fixed = world.create_body("static")
    slider = world.create_body("dynamic")
    slider.add_box(1, 1)
    world.add_joint(fixed, slider, tumble.PrismaticJoint(), anchor=(0, 0), axis=(1, 1))
    slider.linear_velocity = (2, 0)
    for _ in range(30):
        world.step(1 / 60)
    x, y = slider.position
    assert x > 0.1 and abs(x - y) < 1e-3
    with pytest.raises(TypeError):
        world.add_joint(fixed, slider, tumble.PrismaticJoint(), axis=(1, 0))
    with pytest.raises(tumble.InvalidValueError):
        world.add_joint(fixed, slider, tumble.PrismaticJoint(), anchor=(0, 0), axis=(0, 0))
