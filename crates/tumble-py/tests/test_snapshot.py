"""Snapshots: to_bytes / from_bytes, pickle and copy restore a world bit for
bit, and the restored world steps bit for bit as the original."""

import copy
import pickle

import pytest
import tumble


def state(world):
    """Every body's position, angle and velocities, as exact floats."""
    return [
        (tuple(b.position), b.angle, tuple(b.linear_velocity), b.angular_velocity)
        for b in world.bodies
    ]


def step(world, n):
    for _ in range(n):
        world.step(1 / 60)


@pytest.mark.parametrize(
    "restore",
    [
        lambda w: tumble.World.from_bytes(w.to_bytes()),
        lambda w: pickle.loads(pickle.dumps(w)),
        lambda w: pickle.loads(pickle.dumps(w, protocol=2)),
        copy.deepcopy,
        copy.copy,
    ],
    ids=["bytes", "pickle", "pickle-2", "deepcopy", "copy"],
)
def test_restored_world_is_identical_and_steps_identically(scene, restore):
    restored = restore(scene)
    assert restored is not scene
    assert restored.to_bytes() == scene.to_bytes()
    assert state(restored) == state(scene)
    step(scene, 90)
    step(restored, 90)
    assert state(restored) == state(scene)
    assert restored.to_bytes() == scene.to_bytes()
    # The scene moved in those steps: equal states are not two frozen ones.
    assert scene.step_count == restored.step_count == 120


def test_pickle_keeps_user_data_and_handles(scene):
    box = next(b for b in scene.bodies if b.user_data == {"i": 2})
    box.user_data = {"me": box, "list": [1, 2]}
    restored = pickle.loads(pickle.dumps(scene))
    again = restored.body(box.key)
    assert again.user_data["list"] == [1, 2]
    # The handle inside the user data names the restored world's body.
    assert again.user_data["me"] == again
    assert again.user_data["me"].world is restored


def test_deepcopy_copies_user_data_shallow_copy_shares_it(scene):
    box = next(b for b in scene.bodies if b.user_data == {"i": 1})
    deep = copy.deepcopy(scene)
    shallow = copy.copy(scene)
    deep.body(box.key).user_data["i"] = 99
    assert box.user_data["i"] == 1
    shallow.body(box.key).user_data["i"] = 7
    assert box.user_data["i"] == 7


def test_damaged_snapshot_is_refused_with_the_engines_message(scene):
    data = bytearray(scene.to_bytes())
    data[len(data) // 2] ^= 0x01
    with pytest.raises(tumble.InvalidValueError, match="damaged"):
        tumble.World.from_bytes(bytes(data))
    with pytest.raises(tumble.InvalidValueError):
        tumble.World.from_bytes(b"not a snapshot")
    with pytest.raises(tumble.InvalidValueError, match="damaged"):
        tumble.World.from_bytes(scene.to_bytes()[:-5])


def test_snapshot_of_another_version_is_refused_by_number(scene):
    data = bytearray(scene.to_bytes())
    # The version is the first varint of the postcard envelope.
    assert data[0] < 0x80
    data[0] += 1
    with pytest.raises(tumble.InvalidValueError, match="version"):
        tumble.World.from_bytes(bytes(data))
