"""numpy batch access equals the per-body getters, and the setters from
arrays act as the per-body calls do (all checked before any is applied)."""

import numpy as np
import pytest
import tumble


def test_arrays_equal_the_per_body_getters(scene):
    bodies = scene.bodies
    keys = scene.body_ids()
    assert keys.dtype == np.uint64
    assert list(keys) == [b.key for b in bodies]
    pos = scene.get_positions()
    assert pos.shape == (len(bodies), 2) and pos.dtype == np.float32
    for row, b in zip(pos, bodies):
        assert tuple(float(x) for x in row) == tuple(b.position)
    assert [float(a) for a in scene.get_angles()] == [b.angle for b in bodies]
    vel = scene.get_linear_velocities()
    assert [tuple(float(x) for x in r) for r in vel] == [tuple(b.linear_velocity) for b in bodies]
    assert [float(w) for w in scene.get_angular_velocities()] == [
        b.angular_velocity for b in bodies
    ]


def test_a_subset_by_keys_or_bodies(scene):
    bodies = scene.bodies[::2]
    by_keys = scene.get_positions(np.array([b.key for b in bodies], dtype=np.uint64))
    by_objects = scene.get_positions(bodies)
    assert np.array_equal(by_keys, by_objects)
    assert [tuple(float(x) for x in r) for r in by_objects] == [tuple(b.position) for b in bodies]


def test_setting_velocities_and_applying_impulses_from_arrays(scene):
    dynamic = [b for b in scene.bodies if b.type == "dynamic"]
    v = np.arange(2 * len(dynamic), dtype=np.float64).reshape(-1, 2)
    scene.set_linear_velocities(dynamic, v)
    assert [tuple(b.linear_velocity) for b in dynamic] == [tuple(float(x) for x in r) for r in v]
    scene.set_angular_velocities(dynamic, np.full(len(dynamic), 0.5))
    assert all(b.angular_velocity == 0.5 for b in dynamic)
    before = [b.linear_velocity for b in dynamic]
    scene.apply_impulses(dynamic, np.ones((len(dynamic), 2)))
    for b, v0 in zip(dynamic, before):
        expected = v0 + tumble.Vec2(1, 1) / b.mass
        assert abs(b.linear_velocity - expected) < 1e-5


def test_batch_errors_leave_the_world_unchanged(scene):
    dynamic = [b for b in scene.bodies if b.type == "dynamic"]
    gone = scene.create_body()
    keys = [b.key for b in dynamic] + [gone.key]
    gone.remove()
    before = scene.to_bytes()
    with pytest.raises(tumble.StaleHandleError):
        scene.set_linear_velocities(keys, np.zeros((len(keys), 2)))
    bad = np.zeros((len(dynamic), 2))
    bad[-1, 0] = np.nan
    with pytest.raises(tumble.InvalidValueError, match="NaN"):
        scene.set_linear_velocities(dynamic, bad)
    with pytest.raises(tumble.InvalidValueError, match="shape"):
        scene.apply_impulses(dynamic, np.zeros((len(dynamic) + 1, 2)))
    huge = np.zeros((len(dynamic), 2))
    huge[-1] = 3e38
    with pytest.raises(tumble.InvalidValueError, match="impulse"):
        scene.apply_impulses(dynamic + [dynamic[-1]], np.vstack([huge, [[3e38, 0]]]))
    assert scene.to_bytes() == before


def test_events_as_arrays_match_the_event_objects(world):
    from conftest import make_ground

    make_ground(world)
    ball = world.create_body(position=(0, 2))
    ball.add_circle(0.5, hit_events=True)
    zone = world.create_body("static", position=(0, 1))
    zone.add_box(4, 0.2, sensor=True)
    seen_begin = seen_hit = seen_sensor = False
    for _ in range(120):
        world.step(1 / 60)
        events = world.contact_events
        arrays = world.contact_event_arrays()
        assert arrays["begin_shapes"].shape == (len(events.begin), 2)
        assert [tuple(int(k) for k in r) for r in arrays["begin_shapes"]] == [
            (e.shape_a.key, e.shape_b.key) for e in events.begin
        ]
        assert [tuple(int(k) for k in r) for r in arrays["end_bodies"]] == [
            (e.body_a.key, e.body_b.key) for e in events.end
        ]
        assert [float(s) for s in arrays["hit_speeds"]] == [h.approach_speed for h in events.hit]
        sensors = world.sensor_events
        sensor_arrays = world.sensor_event_arrays()
        assert [tuple(int(k) for k in r) for r in sensor_arrays["begin"]] == [
            (o.sensor.key, o.sensor_body.key, o.visitor.key) for o in sensors.begin
        ]
        seen_begin |= len(events.begin) > 0
        seen_hit |= len(events.hit) > 0
        seen_sensor |= len(sensors.begin) > 0
    assert seen_begin and seen_hit and seen_sensor
