"""The Python benchmark (benchmarks/python/bench.py) builds its scenes,
runs them for a few steps and gives rows of the documented shape; the
peers' parts run only where pymunk and pybox2d are installed. No timing
is checked."""

import json

import pytest
from conftest import load_script

bench = load_script("benchmarks/python/bench.py")


def check_rows(rows, engines):
    """One row per scene, engine and settings, each with the documented
    keys and a quality figure where its scene has one."""
    assert len(rows) == len(bench.SCENES) * len(engines) * len(bench.SETTINGS)
    assert {(r["scene"], r["engine"], r["settings"]) for r in rows} == {
        (s, e, t) for s in bench.SCENES for e in engines for t in bench.SETTINGS
    }
    for row in rows:
        assert tuple(row) == bench.ROW_KEYS
        assert row["ms_per_step"] > 0 and row["read_ms_per_step"] > 0
        pyramid = row["scene"].startswith("pyramid")
        assert (row["worst_moved"] is not None) == pyramid
        assert (row["joint_gap_max_m"] is not None) == (row["scene"] == "chain-100")
    json.dumps(rows)


def test_the_scenes_are_the_sizes_their_names_say():
    sizes = {name: len(bench.build_scene(name).bodies) for name in bench.SCENES}
    # One static ground each, and the pile's two walls.
    assert sizes == {"pyramid-21": 22, "pyramid-210": 211, "pile-1000": 1003, "chain-100": 101}
    assert len(bench.build_scene("chain-100").joints) == 100
    shapes = {b.shape[0] for b in bench.build_scene("pile-1000").bodies[3:]}
    assert shapes == {"box", "circle"}
    with pytest.raises(ValueError):
        bench.build_scene("tower")


def test_tumble_rows_and_its_pyramids_stand():
    rows = bench.run(engines=("tumble",), steps=60, repeats=1)
    check_rows(rows, ("tumble",))
    for row in rows:
        if row["worst_moved"] is not None:
            assert row["worst_moved"] < bench.STANDING, row
        if row["joint_gap_max_m"] is not None:
            assert row["joint_gap_max_m"] < 0.05, row
    assert bench.ratios(rows) == []
    assert "| pyramid-21 | defaults |" in bench.table(rows)


def test_the_command_line_prints_json(capsys):
    bench.main(["--json", "--engines", "tumble", "--scenes", "pyramid-21", "--steps", "5"])
    out = json.loads(capsys.readouterr().out)
    assert [tuple(r) for r in out["rows"]] == [bench.ROW_KEYS] * len(bench.SETTINGS)
    assert out["meta"]["steps"] == 5 and "tumble" in out["meta"]["versions"]


@pytest.mark.parametrize("engine, module", [("pymunk", "pymunk"), ("pybox2d", "Box2D")])
def test_a_peer_runs_the_same_scenes(engine, module):
    pytest.importorskip(module)
    rows = bench.run(engines=("tumble", engine), steps=10, repeats=1)
    check_rows(rows, ("tumble", engine))
    ratios = bench.ratios(rows)
    assert len(ratios) == len(bench.SCENES) * len(bench.SETTINGS)
    assert all(r["step_faster_peer"] == engine for r in ratios)
    # A pyramid starts at rest: ten steps move no box far, in any engine.
    assert all(r["worst_moved"] < bench.STANDING for r in rows if r["worst_moved"] is not None)
