"""Every kind of engine error raises its exception with the engine's
message, and the world is unchanged after it."""

import math

import numpy as np
import pytest
import tumble
from conftest import make_ground

NAN = math.nan
INF = math.inf


def unchanged(world, call, error, match=None):
    """Runs `call`, which must raise `error`, and checks that the world's
    snapshot did not change."""
    before = world.to_bytes()
    with pytest.raises(error, match=match):
        call()
    assert world.to_bytes() == before


def test_exception_hierarchy():
    assert issubclass(tumble.InvalidValueError, tumble.TumbleError)
    assert issubclass(tumble.InvalidValueError, ValueError)
    assert issubclass(tumble.StaleHandleError, tumble.TumbleError)
    assert issubclass(tumble.StaleHandleError, KeyError)


def test_bad_values_raise_invalid_value_error(scene):
    box = next(b for b in scene.bodies if b.type == "dynamic")
    shape = box.shapes[0]
    cases = [
        (lambda: box.apply_force((NAN, 0)), "force is NaN"),
        (lambda: box.apply_impulse((0, INF)), "impulse is NaN"),
        (lambda: box.apply_torque(NAN), "torque"),
        (lambda: setattr(box, "position", (1e9, 0)), "position is out of range"),
        (lambda: setattr(box, "linear_velocity", (NAN, 0)), "linear velocity"),
        (lambda: box.set_damping(-1, 0), "damping"),
        (lambda: setattr(shape, "friction", -1), "friction and restitution"),
        (lambda: box.add_circle(-1), "radius"),
        (lambda: box.add_box(0, 1), None),
        (lambda: box.add_polygon([(0, 0), (1, 0), (2, 0)]), None),
        (lambda: box.add_circle(1, density=0), "density"),
        (lambda: box.add_concave([(0, 0), (2, 2), (2, 0), (0, 2)]), None),
        (lambda: setattr(scene, "workers", 0), "workers"),
        (lambda: setattr(scene, "gravity", (NAN, 0)), "gravity"),
        (lambda: scene.ray_cast((NAN, 0), (1, 0)), "ray origin"),
        (lambda: scene.explode((0, 0), -1, 1), "out of range"),
        (lambda: scene.create_body(position=(0, 0), linear_damping=-1), "damping"),
        (lambda: scene.create_body("wobbly"), "body type"),
        (lambda: shape.overlaps(), "not a sensor"),
    ]
    for call, match in cases:
        unchanged(scene, call, tumble.InvalidValueError, match)


def test_solver_settings_are_checked_on_assignment(scene):
    s = scene.solver
    s.iterations = 99
    unchanged(scene, lambda: setattr(scene, "solver", s), tumble.InvalidValueError, "iterations")
    with pytest.raises(tumble.InvalidValueError, match="position_correction"):
        s.position_correction = "magic"


def test_joint_errors(world):
    ground = make_ground(world)
    a = world.create_body(position=(0, 2))
    a.add_box(1, 1)
    unchanged(
        world,
        lambda: world.add_joint(a, a, tumble.WeldJoint()),
        tumble.InvalidValueError,
        "two different",
    )
    unchanged(
        world,
        lambda: world.add_joint(
            ground, a, tumble.RevoluteJoint(enable_limit=True, lower_angle=1, upper_angle=0)
        ),
        tumble.InvalidValueError,
        "lower limit",
    )
    unchanged(
        world,
        lambda: world.add_joint(ground, a, tumble.DistanceJoint(length=-1)),
        tumble.InvalidValueError,
        "out of range",
    )
    static = world.create_body("static")
    unchanged(
        world,
        lambda: world.add_joint(ground, static, tumble.WeldJoint()),
        tumble.InvalidValueError,
        "dynamic",
    )
    hinge = world.add_joint(ground, a, tumble.RevoluteJoint(), anchor=(0, 2))
    unchanged(world, lambda: hinge.set_motor_speed(1.0), tumble.InvalidValueError, "motor is off")
    unchanged(
        world,
        lambda: setattr(hinge, "params", tumble.WeldJoint()),
        tumble.InvalidValueError,
        "kind",
    )


def test_stale_handles_raise_stale_handle_error(scene):
    box = next(b for b in scene.bodies if b.type == "dynamic")
    shape = box.shapes[0]
    hinge = scene.joints[0]
    key = box.key
    box.remove()
    hinge.remove()
    assert not box.alive and not shape.alive and not hinge.alive
    calls = [
        lambda: box.position,
        lambda: setattr(box, "angle", 1.0),
        lambda: box.apply_impulse((1, 0)),
        lambda: box.add_circle(1),
        lambda: box.user_data,
        lambda: shape.friction,
        lambda: shape.remove(),
        lambda: hinge.angle,
        lambda: scene.body(key),
        lambda: scene.get_positions([key]),
    ]
    for call in calls:
        unchanged(scene, call, tumble.StaleHandleError, "stale handle")
    # A KeyError prints its key quoted; this one prints the message.
    with pytest.raises(KeyError) as raised:
        _ = box.position
    assert str(raised.value) == "stale handle: the body or shape was removed"


def test_wrong_types_raise_type_error(world):
    b = world.create_body()
    for call in [
        lambda: b.add_circle("big"),
        lambda: b.apply_force("ab"),
        lambda: b.apply_force((1, 2, 3)),
        lambda: b.add_circle(1, color="red"),
        lambda: world.add_joint(b, b, "hinge"),
        lambda: world.shape_cast("circle", (0, 0), (1, 0)),
    ]:
        unchanged(world, call, TypeError)


def test_a_hook_cannot_call_its_world_and_its_error_is_raised(world):
    make_ground(world)
    box = world.create_body(position=(0, 0.5))
    box.add_box(1, 1, pre_solve=True)
    world.step(1 / 60)

    class Hooks:
        def pre_solve(self, contact):
            return contact.body_b.position  # the world is being stepped

    with pytest.raises(tumble.TumbleError, match="busy"):
        world.step(1 / 60, hooks=Hooks())
    # The step itself completed.
    assert world.step_count == 2

    # Every call on the world, its properties and setters included, says
    # so the same way (not with a bare RuntimeError), and a repr says it
    # is being stepped.
    calls = {
        "body_count": lambda: world.body_count,
        "gravity": lambda: world.gravity,
        "to_bytes": lambda: world.to_bytes(),
        "body_ids": lambda: world.body_ids(),
        "contact_event_arrays": lambda: world.contact_event_arrays(),
        "set gravity": lambda: setattr(world, "gravity", (0, 1)),
        "set workers": lambda: setattr(world, "workers", 2),
        "set sleeping": lambda: setattr(world, "sleeping", False),
        "contact_points": lambda: world.contact_points(),
        "debug_draw": lambda: world.debug_draw(),
        "explode": lambda: world.explode((0, 0), 1, 1),
        "__setstate__": lambda: world.__setstate__(state),
    }
    state = world.__reduce__()[2]
    seen = {}

    class Asks:
        def pre_solve(self, contact):
            for name, call in calls.items():
                try:
                    call()
                except Exception as e:  # noqa: BLE001 (the test reads them all)
                    seen[name] = e
            seen["repr"] = repr(world)
            return True

    world.step(1 / 60, hooks=Asks())
    assert seen.pop("repr") == "<tumble.World: being stepped>"
    assert set(seen) == set(calls)
    for name, e in seen.items():
        assert isinstance(e, tumble.TumbleError) and "busy" in str(e), (name, e)
    assert world.gravity == (0, -10) and world.workers == 1 and world.sleeping


def test_batch_setters_refuse_complex_values(world):
    bodies = [world.create_body(position=(i, 0)) for i in range(3)]
    before = world.to_bytes()
    with pytest.raises(tumble.InvalidValueError, match="complex"):
        world.set_linear_velocities(bodies, np.ones((3, 2)) * (1 + 2j))
    with pytest.raises(tumble.InvalidValueError, match="complex"):
        world.set_angular_velocities(bodies, [1, 2j, 3])
    with pytest.raises(tumble.InvalidValueError, match="numbers"):
        world.apply_impulses(bodies, [["a", "b"]] * 3)
    assert world.to_bytes() == before


def test_a_body_or_shape_of_another_world_is_refused_not_mistaken():
    # Handles of two worlds can share keys: a body of one must not stand
    # in for the body of the other with the same key.
    here, there = tumble.World(), tumble.World()
    mine = here.create_body(position=(1, 1))
    mine.add_circle(0.5)
    theirs = there.create_body(position=(7, 7))
    theirs.add_circle(0.5)
    assert mine.key == theirs.key
    before = here.to_bytes()
    for call in (
        lambda: here.get_positions([theirs]),
        lambda: here.set_linear_velocities([theirs], [[5, 0]]),
        lambda: here.apply_impulses([theirs], [[0, 3]]),
        lambda: here.add_joint(mine, theirs, tumble.FilterJoint()),
    ):
        with pytest.raises(tumble.InvalidValueError, match="another world"):
            call()
    assert here.to_bytes() == before
    # The mover's ignored body likewise, and a removed one is stale.
    controller = tumble.CharacterController()
    capsule = tumble.Capsule((0, -0.5), (0, 0.5), 0.3)
    with pytest.raises(tumble.InvalidValueError, match="another world"):
        here.move_character(controller, capsule, (3, 1), (1, 0), 1 / 60, ignore=theirs)
    gone = here.create_body(position=(3, 3))
    gone.remove()
    with pytest.raises(tumble.StaleHandleError):
        here.move_character(controller, capsule, (3, 1), (1, 0), 1 / 60, ignore=gone)
    # One-way platforms: shapes of this world, alive, a real direction.
    their_platform = there.create_body("static").add_box(4, 0.2, pre_solve=True)
    with pytest.raises(tumble.InvalidValueError, match="another world"):
        here.step(1 / 60, hooks=tumble.OneWayPlatforms([their_platform]))
    platform = here.create_body("static", position=(0, -2)).add_box(4, 0.2, pre_solve=True)
    hooks = tumble.OneWayPlatforms([platform])
    for bad in ((0, 0), (math.nan, 1)):
        with pytest.raises(tumble.InvalidValueError, match="up"):
            tumble.OneWayPlatforms([platform], up=bad)
        hooks.up = bad
        with pytest.raises(tumble.InvalidValueError, match="up"):
            here.step(1 / 60, hooks=hooks)
    with pytest.raises(tumble.InvalidValueError, match="sink_tolerance"):
        tumble.OneWayPlatforms([platform], sink_tolerance=math.nan)
    hooks.up = (0, 2)  # any length: the direction counts
    count = here.step_count
    here.step(1 / 60, hooks=hooks)
    platform.remove()
    with pytest.raises(tumble.StaleHandleError):
        here.step(1 / 60, hooks=hooks)
    assert here.step_count == count + 1


def test_a_character_controller_with_bad_numbers_is_refused_when_made():
    for bad in (
        {"skin": -1},
        {"up": (0, 0)},
        {"up": (math.nan, 1)},
        {"max_slope": -1},
        {"max_slope": 100},
        {"snap_to_ground": math.inf},
    ):
        with pytest.raises(tumble.InvalidValueError):
            tumble.CharacterController(**bad)
    assert tumble.CharacterController(max_slope=1.5).max_slope == pytest.approx(1.5)
