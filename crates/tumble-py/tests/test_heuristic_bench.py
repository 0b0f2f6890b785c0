"""The heuristic benchmark (benchmarks/python/heuristic_bench.py) flies
gymnasium's pilots on Tumble's environments (and on gymnasium's where
its Box2D binding is installed) and gives rows of the documented shape.
No figure is checked against gymnasium's."""

import json

import pytest
from conftest import load_script

KEYS = (
    "env",
    "engine",
    "seeds",
    "mean_return",
    "at_least_200",
    "came_to_rest",
    "crashed",
    "fell",
    "reached_end",
    "mean_steps",
    "fresh",
)


bench = load_script("benchmarks/python/heuristic_bench.py")


def test_rows_count_each_engines_episodes():
    rows = bench.run(["LunarLander-v3", "BipedalWalker-v3"], 2)
    engines = bench.engines()
    assert "tumble" in engines
    assert len(rows) == 2 * len(engines)
    for row in rows:
        assert tuple(row) == KEYS
        assert row["seeds"] == 2 and row["mean_steps"] >= 1
        if row["env"] == "LunarLander-v3":
            # Every episode ends one way or another within the limit.
            assert 0 <= row["at_least_200"] <= 2
            assert row["came_to_rest"] + row["crashed"] <= 2
            assert row["fell"] is None and row["reached_end"] is None
        else:
            assert row["fell"] + row["reached_end"] <= 2
            assert row["at_least_200"] is None
    json.dumps(rows)


def test_the_first_fifty_seeds_are_a_row_of_their_own():
    runs = [{"return": float(r), "steps": 10, "last": 100.0} for r in range(60)]
    first = bench.summary("LunarLander-v3", "tumble", runs[:50])
    assert first["seeds"] == 50 and first["mean_return"] == pytest.approx(24.5)
    assert first["came_to_rest"] == 50 and first["crashed"] == 0


def test_tumbles_episodes_do_not_depend_on_the_ones_before():
    # One environment flying seeds 0..2 in turn, or a new one a seed: the
    # same episodes, since a Tumble episode starts from its seed alone.
    for env_name in ("LunarLander-v3", "BipedalWalker-v3"):
        shared = bench.episodes(env_name, "tumble", 3)
        fresh = bench.episodes(env_name, "tumble", 3, fresh=True)
        assert shared == fresh
