"""Tumble, pymunk and pybox2d from Python, on the same four scenes.

    python benchmarks/python/bench.py            # a readable table
    python benchmarks/python/bench.py --json     # the same figures as data

Every scene is built once as engine-neutral data (bodies, shapes, hinges)
and handed to each engine, so all three simulate the same bodies from the
same places:

- ``pyramid-21``: the reference pyramid of docs/SCENES.md, 6 rows of 1 m
  boxes (21) on the ground, starting exactly at rest.
- ``pyramid-210``: the same layout with 20 rows (210 boxes).
- ``pile-1000``: 1000 boxes and circles, 0.3 to 0.6 m across, dropped from
  a lattice into the 30 m wide container of the Rust benchmark's ``pile``,
  from its seeded generator (boxes and circles only: the shapes all three
  engines have).
- ``chain-100``: 100 links of 1 m hinged end to end and to a static anchor,
  released level (the Rust ball-and-chain's layout, without the ball).

Each engine runs each scene at its own defaults and at matched settings
(see ``SETTINGS``), 600 steps of 1/60 s. The engines take turns 10 steps
at a time in one process, so a slower moment of a shared machine falls on
all of them; the whole is repeated three times and each figure is the
median of the three. Per step and engine two things are timed: the step
alone (``ms_per_step``) and reading every body's position once
(``read_ms_per_step``): Tumble's one numpy call, a loop over the bodies for
the peers. Each row also carries a quality figure, computed outside the
timing, after every step: for the pyramids ``worst_moved``, the largest
distance any box's center got from where it started, over the run (a
pyramid stands while that is under ``STANDING``); for the chain
``joint_gap_max_m``, the largest distance between the two anchors of any
hinge over the run, each engine's anchors from its own bodies. The other
rows have ``None`` there.
"""

import argparse
import gc
import json
import math
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

DT = 1 / 60
STEPS = 600
REPEATS = 3
# Steps an engine takes before the next engine's turn.
TURN = 10
GRAVITY = (0.0, -10.0)
FRICTION = 0.6
DENSITY = 1.0
# The ground of docs/SCENES.md: a static box whose top face is y = 0.
GROUND_HALF = (400.0, 1.0)
# A pyramid stands while no box has moved a quarter of a box from where it
# started (the tolerance of SCENES.md's "standing").
STANDING = 0.25

SCENES = ("pyramid-21", "pyramid-210", "pile-1000", "chain-100")
ENGINES = ("tumble", "pymunk", "pybox2d")
# What each engine runs at. "defaults": what a new world and its step do
# untouched (pybox2d's step has no default; 8 velocity and 3 position
# iterations are what Box2D's manual and pybox2d's examples use).
# "matched": 60 Hz, 8 velocity iterations each (Tumble's 8 are spread over
# its 4 substeps), sleeping off, and pymunk's collision slop at Box2D's and
# Tumble's 5 mm (its default, 0.1, is meant for pixels: 10 cm in metres).
SETTINGS = ("defaults", "matched")
SETTINGS_TEXT = {
    "defaults": {
        "tumble": "sleeping on, 8 iterations over 4 substeps",
        "pymunk": "10 iterations, no sleeping, collision slop 0.1",
        "pybox2d": "sleeping on, 8 velocity + 3 position iterations",
    },
    "matched": {
        "tumble": "sleeping off, 8 iterations over 4 substeps",
        "pymunk": "8 iterations, no sleeping, collision slop 0.005",
        "pybox2d": "sleeping off, 8 velocity + 3 position iterations",
    },
}

# The keys of every row, in order.
ROW_KEYS = (
    "scene",
    "engine",
    "settings",
    "ms_per_step",
    "read_ms_per_step",
    "worst_moved",
    "joint_gap_max_m",
)

# The Rust benchmark's pile (crates/tumble-scenes/src/bench.rs): container,
# lattice and seed.
PILE_HALF_WIDTH = 15.0
PILE_WALL_HALF_HEIGHT = 40.0
PILE_PER_ROW = 28
PILE_PITCH = 1.0
PILE_SEED = 0x00B0C5ED

# The chain's links: 1 m long and 0.25 m thick, as the Rust ball-and-chain's
# (boxes here, since pybox2d has no capsule; no link touches anything, so
# only their mass matters). Its anchor is 6 m higher than the chain is
# long, so the hanging chain clears the ground.
LINK_HALF = (0.5, 0.125)


# --- The scenes, engine-neutral ---------------------------------------------


@dataclass
class BodySpec:
    """One body of one shape: ``("box", hx, hy)`` or ``("circle", r)``."""

    dynamic: bool
    position: Tuple[float, float]
    shape: Tuple
    angle: float = 0.0
    # Shapes sharing a non-zero group never collide with each other.
    group: int = 0


@dataclass
class Scene:
    """A scene: its bodies, its hinges ``(a, b, world anchor)`` and which
    bodies the quality figure follows."""

    name: str
    bodies: List[BodySpec]
    joints: List[Tuple[int, int, Tuple[float, float]]] = field(default_factory=list)
    # Indices of the bodies whose displacement is measured (pyramids).
    tracked: List[int] = field(default_factory=list)


class Rng:
    """xorshift64*, as crates/tumble-scenes/src/rng.rs: the same seed gives
    the same numbers as the Rust scenes' generator."""

    MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = seed or 0x9E3779B97F4A7C15

    def next_u64(self) -> int:
        """The next 64 random bits."""
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & self.MASK
        x ^= x >> 27
        self.state = x
        return (x * 0x2545F4914F6CDD1D) & self.MASK

    def range(self, lo: float, hi: float) -> float:
        """Uniform in ``[lo, hi)``."""
        return lo + (hi - lo) * ((self.next_u64() >> 40) / (1 << 24))

    def below(self, n: int) -> int:
        """Uniform integer in ``0..n``."""
        return ((self.next_u64() >> 32) * n) >> 32


def ground() -> BodySpec:
    """The ground of docs/SCENES.md."""
    return BodySpec(False, (0.0, -GROUND_HALF[1]), ("box", *GROUND_HALF))


def pyramid_positions(rows: int) -> List[Tuple[float, float]]:
    """Box centers of a pyramid of ``rows`` rows of 1 m boxes: row r (0 at
    the bottom) at y = 0.5 + r, x spacing 1.05 m, each row centered on x = 0
    (``pyramid_positions`` of crates/tumble-scenes)."""
    out = []
    for r in range(rows):
        count = rows - r
        for i in range(count):
            out.append(((i - 0.5 * (count - 1)) * 1.05, 0.5 + r))
    return out


def pyramid(name: str, rows: int) -> Scene:
    """A pyramid of ``rows`` rows of 1 m boxes on the ground."""
    bodies = [ground()] + [
        BodySpec(True, p, ("box", 0.5, 0.5)) for p in pyramid_positions(rows)
    ]
    return Scene(name, bodies, tracked=list(range(1, len(bodies))))


def pile(name: str, count: int) -> Scene:
    """``count`` boxes and circles dropped from the Rust pile's lattice
    into its container, from its seeded generator."""
    bodies = [ground()]
    for side in (-1.0, 1.0):
        at = (side * (PILE_HALF_WIDTH + 0.5), PILE_WALL_HALF_HEIGHT)
        bodies.append(BodySpec(False, at, ("box", 0.5, PILE_WALL_HALF_HEIGHT)))
    rng = Rng(PILE_SEED)
    for k in range(count):
        row, col = divmod(k, PILE_PER_ROW)
        x = (col - 0.5 * (PILE_PER_ROW - 1)) * PILE_PITCH + rng.range(-0.05, 0.05)
        y = 1.0 + row * PILE_PITCH
        angle = rng.range(0.0, math.pi)
        size = rng.range(0.15, 0.3)
        if rng.below(2) == 0:
            shape = ("box", size, rng.range(0.15, 0.3))
        else:
            shape = ("circle", size)
        bodies.append(BodySpec(True, (x, y), shape, angle))
    return Scene(name, bodies)


def chain(name: str, links: int) -> Scene:
    """``links`` links hinged end to end from a hinge on the ground body
    at (0, y), held out level along +x; the links never collide."""
    hx, hy = LINK_HALF
    y = 2.0 * links * hx + 6.0
    bodies = [ground()]
    joints = []
    for i in range(links):
        x = (1.0 + 2.0 * i) * hx
        bodies.append(BodySpec(True, (x, y), ("box", hx, hy), group=-1))
        joints.append((len(bodies) - 2, len(bodies) - 1, (x - hx, y)))
    return Scene(name, bodies, joints)


def build_scene(name: str) -> Scene:
    """The scene called ``name`` (one of ``SCENES``)."""
    builders = {
        "pyramid-21": lambda: pyramid(name, 6),
        "pyramid-210": lambda: pyramid(name, 20),
        "pile-1000": lambda: pile(name, 1000),
        "chain-100": lambda: chain(name, 100),
    }
    if name not in builders:
        raise ValueError(f"no scene {name!r}; the scenes are {', '.join(SCENES)}")
    return builders[name]()


# --- The engines --------------------------------------------------------------


class TumbleWorld:
    """The scene in Tumble."""

    def __init__(self, scene: Scene, settings: str) -> None:
        import tumble

        self.world = tumble.World(gravity=GRAVITY, sleeping=settings == "defaults")
        bodies = []
        for spec in scene.bodies:
            kind = "dynamic" if spec.dynamic else "static"
            body = self.world.create_body(
                kind, position=spec.position, angle=spec.angle
            )
            options = dict(density=DENSITY, friction=FRICTION)
            if spec.group:
                options["filter"] = tumble.Filter(group=spec.group)
            if spec.shape[0] == "box":
                body.add_box(2 * spec.shape[1], 2 * spec.shape[2], **options)
            else:
                body.add_circle(spec.shape[1], **options)
            bodies.append(body)
        # The batch calls read the bodies in slot order: in a new world,
        # the order they were made, which the scene's indices follow.
        assert list(self.world.body_ids()) == [b.key for b in bodies]
        self.joints = [
            self.world.add_joint(
                bodies[a], bodies[b], tumble.RevoluteJoint(), anchor=at
            )
            for a, b, at in scene.joints
        ]

    def step(self) -> None:
        """One step of 1/60 s."""
        self.world.step(DT)

    def read(self):
        """Every body's position: one numpy call."""
        return self.world.get_positions()

    @staticmethod
    def positions(read) -> np.ndarray:
        """What :meth:`read` returned, as an ``(n, 2)`` array."""
        return read

    def joint_gap(self) -> float:
        """The largest distance between a hinge's two anchors, each from
        its own body's transform (the engine's joint frames)."""
        return max(j.length for j in self.joints)


class PymunkWorld:
    """The scene in pymunk."""

    def __init__(self, scene: Scene, settings: str) -> None:
        import pymunk

        self.space = pymunk.Space()
        self.space.gravity = GRAVITY
        if settings == "matched":
            self.space.iterations = 8
            self.space.collision_slop = 0.005
        self.bodies = []
        for spec in scene.bodies:
            if spec.dynamic:
                body = pymunk.Body()
            else:
                body = pymunk.Body(body_type=pymunk.Body.STATIC)
            body.position = spec.position
            body.angle = spec.angle
            if spec.shape[0] == "box":
                hx, hy = spec.shape[1], spec.shape[2]
                shape = pymunk.Poly(body, [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)])
            else:
                shape = pymunk.Circle(body, spec.shape[1])
            shape.density = DENSITY
            # pymunk multiplies the two shapes' frictions (the others take
            # the geometric mean): sqrt(0.6) each makes a contact's 0.6.
            shape.friction = math.sqrt(FRICTION)
            if spec.group:
                shape.filter = pymunk.ShapeFilter(group=1)
            self.space.add(body, shape)
            self.bodies.append(body)
        self.joints = []
        for a, b, at in scene.joints:
            ba, bb = self.bodies[a], self.bodies[b]
            joint = pymunk.PivotJoint(
                ba, bb, ba.world_to_local(at), bb.world_to_local(at)
            )
            self.space.add(joint)
            self.joints.append(joint)

    def step(self) -> None:
        """One step of 1/60 s."""
        self.space.step(DT)

    def read(self):
        """Every body's position: a loop over the bodies (a ``Vec2d`` is an
        immutable ``(x, y)`` tuple)."""
        return [b.position for b in self.bodies]

    @staticmethod
    def positions(read) -> np.ndarray:
        """What :meth:`read` returned, as an ``(n, 2)`` array."""
        return np.array(read)

    def joint_gap(self) -> float:
        """The largest distance between a pivot's two anchors in world
        coordinates."""
        return max(
            (j.a.local_to_world(j.anchor_a) - j.b.local_to_world(j.anchor_b)).length
            for j in self.joints
        )


class Box2DWorld:
    """The scene in pybox2d (Box2D 2.3)."""

    def __init__(self, scene: Scene, settings: str) -> None:
        import Box2D

        sleeping = settings == "defaults"
        self.world = Box2D.b2World(gravity=GRAVITY, doSleep=sleeping)
        self.bodies = []
        for spec in scene.bodies:
            make = (
                self.world.CreateDynamicBody
                if spec.dynamic
                else self.world.CreateStaticBody
            )
            # The world's doSleep=False alone does not keep pybox2d 2.3.10's
            # bodies awake (a box resting on the ground still falls asleep
            # after half a second); each body's allowSleep=False does.
            body = make(position=spec.position, angle=spec.angle, allowSleep=sleeping)
            options = dict(density=DENSITY, friction=FRICTION, groupIndex=spec.group)
            if spec.shape[0] == "box":
                body.CreatePolygonFixture(box=(spec.shape[1], spec.shape[2]), **options)
            else:
                body.CreateCircleFixture(radius=spec.shape[1], **options)
            self.bodies.append(body)
        self.joints = [
            self.world.CreateRevoluteJoint(
                bodyA=self.bodies[a], bodyB=self.bodies[b], anchor=at
            )
            for a, b, at in scene.joints
        ]

    def step(self) -> None:
        """One step of 1/60 s, 8 velocity and 3 position iterations."""
        self.world.Step(DT, 8, 3)

    def read(self):
        """Every body's position: a loop over the bodies. ``body.position``
        is a view of the body's own vector, which the next step changes, so
        the numbers are copied out."""
        out = []
        for b in self.bodies:
            p = b.position
            out.append((p.x, p.y))
        return out

    @staticmethod
    def positions(read) -> np.ndarray:
        """What :meth:`read` returned, as an ``(n, 2)`` array."""
        return np.array(read)

    def joint_gap(self) -> float:
        """The largest distance between a revolute joint's ``anchorA`` and
        ``anchorB`` (world points)."""
        return max((j.anchorA - j.anchorB).length for j in self.joints)


ENGINE_WORLDS = {"tumble": TumbleWorld, "pymunk": PymunkWorld, "pybox2d": Box2DWorld}


# --- Running -----------------------------------------------------------------


@dataclass
class Tally:
    """One engine's run of one scene: time summed, quality so far."""

    world: object
    step_ns: int = 0
    read_ns: int = 0
    worst_moved: Optional[float] = None
    joint_gap: Optional[float] = None


def run_once(
    scene: Scene, engines: Sequence[str], settings: str, steps: int
) -> Dict[str, Tally]:
    """Steps ``scene`` in every engine of ``engines``, taking turns
    ``TURN`` steps at a time, timing each step and each read."""
    tallies = {e: Tally(ENGINE_WORLDS[e](scene, settings)) for e in engines}
    start = np.array([b.position for b in scene.bodies])[scene.tracked]
    clock = time.perf_counter_ns
    # The collector would stop whichever engine happened to be running;
    # it runs between turns instead.
    gc.collect()
    gc.disable()
    try:
        for first in range(0, steps, TURN):
            for tally in tallies.values():
                world = tally.world
                for _ in range(min(TURN, steps - first)):
                    t0 = clock()
                    world.step()
                    t1 = clock()
                    read = world.read()
                    t2 = clock()
                    tally.step_ns += t1 - t0
                    tally.read_ns += t2 - t1
                    if scene.tracked:
                        moved = world.positions(read)[scene.tracked] - start
                        worst = float(np.max(np.hypot(moved[:, 0], moved[:, 1])))
                        tally.worst_moved = max(tally.worst_moved or 0.0, worst)
                    if scene.joints:
                        tally.joint_gap = max(
                            tally.joint_gap or 0.0, float(world.joint_gap())
                        )
            gc.collect()
    finally:
        gc.enable()
    return tallies


def run(
    scenes: Sequence[str] = SCENES,
    engines: Sequence[str] = ENGINES,
    settings: Sequence[str] = SETTINGS,
    steps: int = STEPS,
    repeats: int = REPEATS,
    progress=None,
) -> List[dict]:
    """Runs every scene in every engine at every settings ``repeats``
    times and returns one row per (scene, engine, settings), each figure
    the median over the repeats (keys ``ROW_KEYS``). ``progress``, if
    given, is called with a line of text as each run ends."""
    runs: Dict[Tuple[str, str, str], List[Tally]] = {}
    for rep in range(repeats):
        for name in scenes:
            scene = build_scene(name)
            for s in settings:
                for engine, tally in run_once(scene, engines, s, steps).items():
                    runs.setdefault((name, engine, s), []).append(tally)
                    tally.world = None
                if progress:
                    progress(f"run {rep + 1}/{repeats}: {name} {s}")
    rows = []
    for (name, engine, s), tallies in runs.items():

        def median(values):
            values = [v for v in values if v is not None]
            return statistics.median(values) if values else None

        rows.append(
            {
                "scene": name,
                "engine": engine,
                "settings": s,
                "ms_per_step": median(t.step_ns / steps / 1e6 for t in tallies),
                "read_ms_per_step": median(t.read_ns / steps / 1e6 for t in tallies),
                "worst_moved": median(t.worst_moved for t in tallies),
                "joint_gap_max_m": median(t.joint_gap for t in tallies),
            }
        )
    return rows


def ratios(rows: Sequence[dict]) -> List[dict]:
    """Tumble's step and read times over the faster peer's, per scene and
    settings (below 1, Tumble is faster). Empty without a peer."""
    by = {(r["scene"], r["settings"], r["engine"]): r for r in rows}
    out = []
    for r in rows:
        if r["engine"] != "tumble":
            continue
        peers = [
            by[(r["scene"], r["settings"], e)]
            for e in ENGINES
            if e != "tumble" and (r["scene"], r["settings"], e) in by
        ]
        if not peers:
            continue
        step_peer = min(peers, key=lambda p: p["ms_per_step"])
        read_peer = min(peers, key=lambda p: p["read_ms_per_step"])
        out.append(
            {
                "scene": r["scene"],
                "settings": r["settings"],
                "step_ratio": r["ms_per_step"] / step_peer["ms_per_step"],
                "step_faster_peer": step_peer["engine"],
                "read_ratio": r["read_ms_per_step"] / read_peer["read_ms_per_step"],
                "read_faster_peer": read_peer["engine"],
            }
        )
    return out


def versions(engines: Sequence[str]) -> Dict[str, str]:
    """The Python's and each engine's version."""
    out = {"python": platform.python_version()}
    for engine in engines:
        if engine == "tumble":
            from importlib.metadata import version

            out["tumble"] = version("tumble")
        elif engine == "pymunk":
            import pymunk

            out["pymunk"] = pymunk.version
        elif engine == "pybox2d":
            import Box2D

            out["pybox2d"] = Box2D.__version__
    return out


def table(rows: Sequence[dict]) -> str:
    """The rows as two markdown tables: times (with Tumble's ratio to the
    faster peer) and quality."""
    engines = [e for e in ENGINES if any(r["engine"] == e for r in rows)]
    by = {(r["scene"], r["settings"], r["engine"]): r for r in rows}
    keys = list(dict.fromkeys((r["scene"], r["settings"]) for r in rows))
    rat = {(q["scene"], q["settings"]): q for q in ratios(rows)}

    def ms(v):
        return "" if v is None else f"{v:.3g}"

    head = ["scene", "settings"]
    head += [f"{e} ms" for e in engines] + (
        ["Tumble / faster"] if len(engines) > 1 else []
    )
    head += [f"{e} read ms" for e in engines] + (
        ["read: Tumble / faster"] if len(engines) > 1 else []
    )
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]
    for key in keys:
        cells = list(key)
        cells += [
            ms(by[key + (e,)]["ms_per_step"]) if key + (e,) in by else ""
            for e in engines
        ]
        if len(engines) > 1:
            cells.append(f"{rat[key]['step_ratio']:.2f}" if key in rat else "")
        cells += [
            ms(by[key + (e,)]["read_ms_per_step"]) if key + (e,) in by else ""
            for e in engines
        ]
        if len(engines) > 1:
            cells.append(f"{rat[key]['read_ratio']:.3f}" if key in rat else "")
        lines.append("| " + " | ".join(cells) + " |")

    def quality(r):
        if r["worst_moved"] is not None:
            stands = "stands" if r["worst_moved"] < STANDING else "moved"
            return f"{r['worst_moved']:.3f} ({stands})"
        if r["joint_gap_max_m"] is not None:
            return f"{r['joint_gap_max_m']:.4f}"
        return ""

    lines += ["", "| scene | settings | measure | " + " | ".join(engines) + " |"]
    lines.append("|---|---|---|" + "---:|" * len(engines))
    for key in keys:
        if key[0].startswith("pyramid"):
            what = "worst moved (m)"
        elif key[0].startswith("chain"):
            what = "largest joint gap (m)"
        else:
            continue
        cells = list(key) + [what]
        cells += [quality(by[key + (e,)]) if key + (e,) in by else "" for e in engines]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> None:
    """The command line: the table, or ``--json``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--steps", type=int, default=STEPS, help="steps a run (600)")
    parser.add_argument(
        "--repeats", type=int, default=REPEATS, help="runs to take the median of (3)"
    )
    parser.add_argument(
        "--scenes", default=",".join(SCENES), help="comma-separated scene names"
    )
    parser.add_argument(
        "--engines", default=",".join(ENGINES), help="comma-separated engines"
    )
    args = parser.parse_args(argv)
    scenes = [s for s in args.scenes.split(",") if s]
    engines = [e for e in args.engines.split(",") if e]
    for e in engines:
        if e not in ENGINE_WORLDS:
            parser.error(f"no engine {e!r}; the engines are {', '.join(ENGINES)}")
    for s in scenes:
        build_scene(s)

    def progress(line):
        print(line, file=sys.stderr, flush=True)

    rows = run(scenes, engines, SETTINGS, args.steps, args.repeats, progress)
    if args.json:
        meta = {
            "steps": args.steps,
            "repeats": args.repeats,
            "dt": DT,
            "machine": f"{platform.machine()}, {os.cpu_count()} cores",
            "versions": versions(engines),
            "settings": {
                s: {e: SETTINGS_TEXT[s][e] for e in engines} for s in SETTINGS
            },
        }
        print(
            json.dumps({"meta": meta, "rows": rows, "ratios": ratios(rows)}, indent=1)
        )
    else:
        print(table(rows))
        print(
            f"\nms per step: the mean over {args.steps} steps, the median of {args.repeats} runs."
        )
        print(f"A pyramid stands while no box moved {STANDING} m or more.")


if __name__ == "__main__":
    main()
