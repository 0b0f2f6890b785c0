"""The reinforcement-learning environments: gymnasium's checks, seeding,
the vectorised form against the single one, the heuristic, rendering and
errors."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tumble
import tumble.envs
from tumble.envs.lunar_lander import heuristic as lander_heuristic


@pytest.mark.parametrize("continuous", [False, True])
def test_the_lander_passes_gymnasiums_checker(continuous):
    env = gym.make("tumble/LunarLander-v3", continuous=continuous)
    check_env(env.unwrapped, skip_render_check=True)
    assert env.spec.max_episode_steps == 1000


def test_the_continuous_id_is_registered_as_gymnasiums():
    env = gym.make("tumble/LunarLanderContinuous-v3")
    assert env.action_space.shape == (2,) and env.spec.max_episode_steps == 1000
    vec = gym.make_vec("tumble/LunarLanderContinuous-v3", num_envs=2)
    assert vec.single_action_space.shape == (2,)
    vec.reset(seed=0)
    obs = vec.step(np.zeros((2, 2), dtype=np.float32))[0]
    assert obs.shape == (2, 8)


def test_numpy_draws_are_gymnasiums():
    # After reset, np_random stands where the core's draws left it: 12
    # terrain heights, 2 push components, 2 dispersions of the first step,
    # drawn from the seed's stream as gymnasium draws them.
    env = gym.make("tumble/LunarLander-v3").unwrapped
    env.reset(seed=42)
    g = np.random.default_rng(42)
    g.uniform(size=16)
    assert env.np_random.bit_generator.state == g.bit_generator.state


def test_the_first_observations_match_gymnasiums_lander():
    # The same seed gives the same terrain and push. The reset's step is
    # Box2D 2.3's (the legs held at the pose gymnasium places them in,
    # then pulled up to their hinges without speed), so the first
    # observation is gymnasium's, the lander's spin included; after 20
    # idle steps of free flight its tilt and spin still are, and where it
    # is differs by less than a centimetre.
    pytest.importorskip("Box2D")
    ours = gym.make("tumble/LunarLander-v3")
    theirs = gym.make("LunarLander-v3")
    for seed in range(10):
        a, b = ours.reset(seed=seed)[0], theirs.reset(seed=seed)[0]
        assert np.allclose(a, b, atol=1e-3), (seed, a, b)
        for _ in range(20):
            a = ours.step(0)[0]
            b = theirs.step(0)[0]
        assert np.allclose(a[4:6], b[4:6], atol=1e-3), (seed, a, b)
        assert np.allclose(a[:4], b[:4], atol=0.02), (seed, a, b)


def run(env, seed, actions):
    obs = [env.reset(seed=seed)[0]]
    for a in actions:
        o, r, te, tr, _ = env.step(a)
        obs.append(o)
        if te or tr:
            break
    return np.array(obs)


def test_a_seed_and_actions_give_the_same_episode_on_every_reset():
    env = gym.make("tumble/LunarLander-v3", continuous=True, enable_wind=True)
    actions = np.random.default_rng(0).uniform(-1, 1, size=(300, 2)).astype(np.float32)
    first = run(env, 7, actions)
    run(env, 8, actions)
    assert np.array_equal(first, run(env, 7, actions))


def test_the_vectorised_form_runs_the_single_episodes():
    n, seed = 4, 100
    vec = tumble.envs.make_vec("LunarLander-v3", num_envs=n, workers=2)
    obs, _ = vec.reset(seed=seed)
    singles = [gym.make("tumble/LunarLander-v3") for _ in range(n)]
    single_obs = [e.reset(seed=seed + i)[0] for i, e in enumerate(singles)]
    assert np.array_equal(obs, np.array(single_obs))
    rng = np.random.default_rng(1)
    done = np.zeros(n, dtype=bool)
    for _ in range(400):
        actions = rng.integers(0, 4, size=n)
        obs, rew, term, trunc, _ = vec.step(actions)
        for i, e in enumerate(singles):
            if done[i]:
                continue
            o, r, te, tr, _ = e.step(int(actions[i]))
            assert np.array_equal(obs[i], o) and rew[i] == r and term[i] == te
            done[i] = te or tr
    assert done.any(), "some episode of random play ended"


def test_vector_autoreset_is_next_step():
    vec = gym.make_vec("tumble/LunarLander-v3", num_envs=2, workers=1)
    assert isinstance(vec, tumble.envs.VectorEnv)
    vec.reset(seed=3)
    ended = None
    for _ in range(1000):
        obs, rew, term, trunc, _ = vec.step(np.array([1, 3]))
        if term[0] or trunc[0]:
            ended = obs[0]
            break
    assert ended is not None
    obs, rew, term, trunc, _ = vec.step(np.array([1, 3]))
    assert rew[0] == 0 and not term[0] and not trunc[0]
    fresh = gym.make("tumble/LunarLander-v3").unwrapped
    # The new episode continues the environment's own stream: not the
    # seed's first episode.
    assert not np.array_equal(obs[0], fresh.reset(seed=3)[0])


def test_vector_time_limit_truncates():
    vec = tumble.envs.make_vec("LunarLander-v3", num_envs=1, max_episode_steps=5)
    vec.reset(seed=0)
    flags = [vec.step(np.array([0]))[3][0] for _ in range(5)]
    assert flags == [False] * 4 + [True]


def test_the_heuristic_lands():
    for continuous in (False, True):
        env = gym.make("tumble/LunarLander-v3", continuous=continuous)
        returns = []
        for seed in range(10):
            s, _ = env.reset(seed=seed)
            total = 0.0
            while True:
                s, r, te, tr, _ = env.step(lander_heuristic(env, s))
                total += r
                if te or tr:
                    break
            returns.append(total)
        assert np.mean(returns) >= 200, (continuous, returns)


def test_rgb_array_frames_show_the_scene():
    env = gym.make("tumble/LunarLander-v3", render_mode="rgb_array")
    env.reset(seed=0)
    for _ in range(30):
        env.step(0)
    frame = env.render()
    assert frame.shape == (400, 600, 3) and frame.dtype == np.uint8
    colors = {tuple(c) for c in frame.reshape(-1, 3)[::7]}
    assert (0, 0, 0) in colors and (255, 255, 255) in colors
    assert (128, 102, 230) in colors, "the lander is drawn"
    vec = tumble.envs.make_vec("LunarLander-v3", num_envs=2, render_mode="rgb_array")
    vec.reset(seed=0)
    frames = vec.render()
    assert len(frames) == 2 and frames[0].shape == (400, 600, 3)


def test_human_rendering_opens_a_window():
    env = gym.make("tumble/LunarLander-v3", render_mode="human")
    env.reset(seed=0)
    env.step(2)
    env.close()


def test_bad_input_raises_and_steps_nothing():
    env = gym.make("tumble/LunarLander-v3").unwrapped
    obs, _ = env.reset(seed=1)
    state = env._core.rng_state()
    for bad in (4, -1, 2.5, float("nan")):
        with pytest.raises(ValueError):
            env.step(bad)
    with pytest.raises(ValueError, match="no action 1099511627776"):
        env.step(2**40)
    assert env._core.rng_state() == state
    with pytest.raises(tumble.InvalidValueError):
        gym.make("tumble/LunarLander-v3", continuous=True).unwrapped.step([0.0, 0.0])
    cont = gym.make("tumble/LunarLander-v3", continuous=True).unwrapped
    cont.reset(seed=0)
    with pytest.raises(ValueError, match="2 values, not 3"):
        cont.step([0.0, 0.0, 0.0])
    with pytest.raises(ValueError):
        gym.make("tumble/LunarLander-v3", gravity=-20.0)
    with pytest.raises(ValueError, match="at most 1e6"):
        gym.make("tumble/LunarLander-v3", enable_wind=True, wind_power=1e308)
    vec = tumble.envs.make_vec("LunarLander-v3", num_envs=3)
    vec.reset(seed=0)
    with pytest.raises(tumble.InvalidValueError, match=r"expected \(3, 1\) or \(3,\)"):
        vec.step(np.array([0, 1]))
    with pytest.raises(ValueError):
        tumble.envs.make_vec("Pong-v5", num_envs=1)


def test_complex_actions_are_refused_not_cut_to_their_real_part():
    cont = gym.make("tumble/LunarLander-v3", continuous=True).unwrapped
    cont.reset(seed=0)
    state = cont._core.rng_state()
    for bad in (
        np.array([0.5, 0.5j]),
        [0.5, 1j],
        [np.complex64(0.5), 0.0],
        (np.complex128(0.5), 0.0),
    ):
        with pytest.raises(tumble.InvalidValueError, match="complex"):
            cont.step(bad)
    assert cont._core.rng_state() == state
    discrete = gym.make("tumble/LunarLander-v3").unwrapped
    discrete.reset(seed=0)
    for bad in (np.complex128(2), 2 + 0j):
        with pytest.raises(tumble.InvalidValueError, match="complex"):
            discrete.step(bad)
    # Real arrays of any float width still pass.
    assert np.isfinite(cont.step(np.array([0.5, -0.5]))[0]).all()
    assert np.isfinite(cont.step(np.array([0.5, -0.5], np.float32))[0]).all()
    vec = tumble.envs.make_vec("LunarLander-v3", num_envs=2, continuous=True)
    vec.reset(seed=0)
    with pytest.raises(tumble.InvalidValueError, match="complex"):
        vec.step(np.zeros((2, 2), np.complex64))
    with pytest.raises(tumble.InvalidValueError, match="complex"):
        vec.step([[0.0, 1j], [0.0, 0.0]])


def test_a_vector_reset_names_what_a_seed_is():
    vec = tumble.envs.make_vec("LunarLander-v3", num_envs=3)
    for bad in ("s", 1.5, b"x"):
        with pytest.raises(TypeError, match="seed is an int"):
            vec.reset(seed=bad)


def test_vector_actions_of_another_shape_are_refused():
    # As many values in another shape (the transpose, one flat row, a
    # cube) would spread across the wrong environments.
    vec = tumble.envs.make_vec("BipedalWalker-v3", num_envs=2)
    vec.reset(seed=0)
    before = vec._core.step(np.zeros((2, 4), np.float32))[0]
    vec.reset(seed=0)
    for bad in (
        np.zeros((4, 2), np.float32),
        np.zeros(8, np.float32),
        np.zeros((2, 2, 2)),
        [[0.0] * 2] * 4,
        np.zeros(8, np.int64),
    ):
        with pytest.raises(tumble.InvalidValueError, match=r"expected \(2, 4\)"):
            vec.step(bad)
    for bad in (np.array([["0"] * 4] * 2), np.zeros((2, 4), "datetime64[s]")):
        with pytest.raises(tumble.InvalidValueError, match="must be numbers"):
            vec.step(bad)
    # Nothing stepped: the first step is the same as before.
    assert np.array_equal(vec._core.step(np.zeros((2, 4)))[0], before)
    lander = tumble.envs.make_vec("LunarLander-v3", num_envs=3)
    lander.reset(seed=0)
    lander.step(np.array([0, 1, 2]))
    lander.step(np.array([[0], [1], [2]]))
    lander.step([0, 1, 2])


def test_a_stream_set_in_place_is_drawn_from_as_gymnasiums_is():
    env = gym.make("tumble/BipedalWalker-v3").unwrapped
    first = env.reset(seed=5)[0]
    env.reset(seed=6)
    env.np_random.bit_generator.state = np.random.default_rng(5).bit_generator.state
    assert np.array_equal(env.reset()[0], first)


@pytest.mark.parametrize("env_id", ["LunarLander-v3", "BipedalWalker-v3"])
def test_a_generator_state_with_an_even_increment_is_refused(env_id):
    # PCG64 needs an odd increment; state 0 with increment 0 would draw
    # zeros for ever and the terrain's draws would never end.
    env = gym.make("tumble/" + env_id).unwrapped
    env.reset(seed=0)
    stuck = {
        "bit_generator": "PCG64",
        "state": {"state": 0, "inc": 0},
        "has_uint32": 0,
        "uinteger": 0,
    }
    env.np_random.bit_generator.state = stuck
    with pytest.raises(tumble.InvalidValueError, match="must be odd"):
        env.reset()
    core = tumble._tumble.EnvCore(env_id)
    with pytest.raises(tumble.InvalidValueError, match="must be odd"):
        core.reset((0, 0, False, 0))
    vec = tumble.envs.make_vec(env_id, num_envs=2)
    with pytest.raises(tumble.InvalidValueError, match="must be odd"):
        vec._core.reset([(1, 2, False, 0), None])


@pytest.mark.parametrize("env_id", ["tumble/BipedalWalker-v3", "tumble/BipedalWalkerHardcore-v3"])
def test_the_walker_passes_gymnasiums_checker(env_id):
    env = gym.make(env_id)
    check_env(env.unwrapped, skip_render_check=True)
    assert env.spec.max_episode_steps == (2000 if "Hardcore" in env_id else 1600)


def test_the_walker_starts_as_gymnasiums():
    # The same seed gives the same terrain: the first observation's hull
    # values and contacts are gymnasium's to within a hundredth, and the
    # lidar's readings (fractions of its 5.3 m) to within 3%. (The legs
    # are already in the crouch gymnasium's reach one step later: the
    # port settles both of Box2D's first two steps before its first.)
    pytest.importorskip("Box2D")
    ours, theirs = gym.make("tumble/BipedalWalker-v3"), gym.make("BipedalWalker-v3")
    for seed in range(3):
        a, b = ours.reset(seed=seed)[0], theirs.reset(seed=seed)[0]
        assert np.allclose(a[14:], b[14:], atol=0.03), (seed, a[14:], b[14:])
        hull_and_contacts = [0, 1, 2, 3, 8, 13]
        assert np.allclose(a[hull_and_contacts], b[hull_and_contacts], atol=0.01), (seed, a, b)


def test_the_heuristic_walker_walks_forward():
    from tumble.envs.bipedal_walker import BipedalWalkerHeuristics

    env = gym.make("tumble/BipedalWalker-v3")
    progress, lengths = [], []
    for seed in range(10):
        s, _ = env.reset(seed=seed)
        pilot = BipedalWalkerHeuristics()
        total, n = 0.0, 0
        while True:
            s, r, te, tr, _ = env.step(pilot.step_heuristic(s))
            n += 1
            # A fall's -100 is no step backwards: leave it out.
            total += 0.0 if r == -100 else r
            if te or tr:
                break
        progress.append(total)
        lengths.append(n)
    # Progress pays 130 for every 30 m walked. The heuristic falls on
    # some terrains (on gymnasium's own walker too), so the claim is that
    # every episode walks on for hundreds of steps and gets at least 9 m
    # forward first.
    assert min(lengths) > 300 and min(progress) > 40, (progress, lengths)


def test_the_vectorised_walker_runs_the_single_episodes():
    n, seed = 3, 7
    vec = tumble.envs.make_vec("BipedalWalker-v3", num_envs=n, workers=2)
    obs, _ = vec.reset(seed=seed)
    singles = [gym.make("tumble/BipedalWalker-v3") for _ in range(n)]
    assert np.array_equal(obs, np.array([e.reset(seed=seed + i)[0] for i, e in enumerate(singles)]))
    rng = np.random.default_rng(2)
    for _ in range(100):
        actions = rng.uniform(-1, 1, size=(n, 4)).astype(np.float32)
        obs, rew, term, trunc, _ = vec.step(actions)
        if term.any():
            break
        for i, e in enumerate(singles):
            o, r, te, tr, _ = e.step(actions[i])
            assert np.array_equal(obs[i], o) and rew[i] == r


def test_walker_frames_show_the_scene():
    env = gym.make("tumble/BipedalWalker-v3", render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (400, 600, 3) and frame.dtype == np.uint8
    assert len({tuple(c) for c in frame.reshape(-1, 3)[::11]}) > 5, "more than a blank sky"


def test_same_step_autoreset_matches_gymnasiums_own_vector_env():
    # gymnasium's SyncVectorEnv over Tumble's single landers, in
    # SAME_STEP mode, against Tumble's vector env in the same mode: the
    # same observations, rewards, flags and final observations.
    mode = gym.vector.AutoresetMode.SAME_STEP
    ours = tumble.envs.make_vec("LunarLander-v3", num_envs=3, workers=2, autoreset_mode=mode)
    assert ours.metadata["autoreset_mode"] == mode
    theirs = gym.vector.SyncVectorEnv(
        [lambda: gym.make("tumble/LunarLander-v3") for _ in range(3)], autoreset_mode=mode
    )
    a, _ = ours.reset(seed=5)
    b, _ = theirs.reset(seed=5)
    assert np.array_equal(a, b)
    ended = 0
    for _ in range(400):
        actions = np.array([1, 3, 0])
        a, ra, ta, ua, ia = ours.step(actions)
        b, rb, tb, ub, ib = theirs.step(actions)
        assert np.array_equal(a, b) and np.array_equal(ra, rb) and np.array_equal(ta, tb)
        if "_final_obs" in ib:
            assert np.array_equal(ia["_final_obs"], ib["_final_obs"])
            for i in np.flatnonzero(ib["_final_obs"]):
                assert np.array_equal(ia["final_obs"][i], ib["final_obs"][i])
                ended += 1
    assert ended >= 3


def test_threads_sharing_an_environment_take_turns():
    # A step holds its environment while it runs with the GIL released; a
    # second thread stepping the same environment must wait for it without
    # holding the GIL. Run in a child process so that a deadlock fails the
    # test instead of hanging the suite.
    code = """
import threading
import gymnasium as gym
import numpy as np
import tumble.envs

single = gym.make("tumble/BipedalWalker-v3").unwrapped
single.reset(seed=0)
vector = tumble.envs.make_vec("LunarLander-v3", num_envs=4, workers=2)
vector.reset(seed=0)
steps = []

def run():
    done = 0
    for _ in range(3000):
        _, _, terminated, _, _ = single.step(np.zeros(4, dtype=np.float32))
        if terminated:
            single.reset()
        vector.step(np.zeros(4, dtype=np.int64))
        done += 1
    steps.append(done)

threads = [threading.Thread(target=run) for _ in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sum(steps))
"""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["9000"]
