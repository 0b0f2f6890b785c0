"""Tumbling Crates, on Tumble: the lesson's exercise with the engine doing
the physics.

Rotating crates fall onto a floor and a ramp. Click to drop a crate, R
resets, D shows the contact points and normals.

    python examples/python/tumbling_crates.py
    python examples/python/tumbling_crates.py --frames 300   # then exit

Headless (no display): SDL_VIDEODRIVER=dummy. The lesson wrote SAT, contact
points, impulses with friction and positional correction by hand; here one
``world.step`` does all of it, with warm starting and sleeping besides. The
scene keeps the lesson's pixel layout: 100 pixels a metre, so its gravity
of 980 px/s^2 is 9.8 m/s^2, and y points up in the world.
"""

import argparse
import math
import os
import random

import pygame
import tumble
from tumble.pygame_util import DrawOptions

WIDTH, HEIGHT = 900, 600
SCALE = 100  # pixels a metre
STEP = 1 / 120  # fixed physics step, seconds (used by the accumulator)
MAX_CRATES = 14
TEXT_COLOR = (230, 230, 230)
GREY = (90, 96, 110)


def world_point(px, py):
    """A point of the lesson's screen (pixels, y down) in the world (metres,
    y up)."""
    return (px / SCALE, (HEIGHT - py) / SCALE)


def make_scene(rng):
    """The floor, the ramp and the right wall (static), and four crates."""
    world = tumble.World(gravity=(0, -9.8))
    for center, size, angle in [
        ((WIDTH / 2, HEIGHT - 20), (WIDTH, 40), 0.0),  # floor
        ((230, 380), (420, 24), math.radians(22)),  # ramp
        ((WIDTH + 10, HEIGHT / 2), (30, HEIGHT), 0.0),  # right wall
    ]:
        # A clockwise turn on the y-down screen is a negative angle in y-up.
        body = world.create_body(
            "static", position=world_point(*center), angle=-angle, user_data=GREY
        )
        body.add_box(size[0] / SCALE, size[1] / SCALE, friction=0.6)
    for i in range(4):
        make_crate(world, rng, (150 + i * 180, 80 + 40 * i))
    return world


def make_crate(world, rng, pixel):
    """A crate of random size and color at a screen pixel, turned at
    random."""
    w, h = rng.randint(40, 90), rng.randint(30, 70)
    color = (rng.randint(170, 240), rng.randint(110, 170), rng.randint(60, 110))
    crate = world.create_body(
        "dynamic",
        position=world_point(*pixel),
        angle=rng.uniform(0, math.pi),
        user_data=color,
    )
    crate.add_box(w / SCALE, h / SCALE, friction=0.6, restitution=0.2)
    return crate


def crate_count(world):
    return sum(1 for b in world.bodies if b.type == "dynamic")


def draw_scene(screen, world, debug, options):
    """Each body's boxes in its own color, then (debug) the contacts."""
    for body in world.bodies:
        color = body.user_data or (200, 150, 90)
        for shape in body.shapes:
            points = [
                options.to_screen(body.world_point(v)) for v in shape.geometry.vertices
            ]
            pygame.draw.polygon(screen, color, points)
            pygame.draw.polygon(screen, (20, 20, 20), points, 2)
    if debug:
        points, normals, _ = world.contact_points()
        for p, n in zip(points, normals):
            a = options.to_screen(p)
            b = options.to_screen((p[0] + 0.2 * n[0], p[1] + 0.2 * n[1]))
            pygame.draw.circle(screen, (255, 80, 80), a, 4)
            pygame.draw.line(screen, (255, 80, 80), a, b, 2)
    return len(world.contact_points()[0])


def main(frames=None, script=None):
    """Runs the exercise for ``frames`` frames (until the window closes when
    ``None``). ``script`` maps a frame number to pygame events posted then
    (the tests click and press keys with it). Returns the world."""
    pygame.init()
    screen = pygame.display.set_mode((WIDTH, HEIGHT))
    pygame.display.set_caption("Tumbling Crates")
    clock = pygame.time.Clock()
    font = pygame.font.Font(None, 24)
    rng = random.Random(11)
    world = make_scene(rng)
    options = DrawOptions(screen, scale=SCALE, origin=(0, HEIGHT))
    debug = True
    accumulator = 0.0
    simulated = 0.0
    frame = 0
    running = True
    while running and (frames is None or frame < frames):
        for event in (script or {}).get(frame, []):
            pygame.event.post(event)
        # A fixed frame time when scripted, so a test runs the same steps.
        ms = clock.tick(60) if script is None else 1000 / 60
        dt = min(ms / 1000, 0.25)  # clamp long frames (a window drag)
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                if crate_count(world) < MAX_CRATES:
                    make_crate(world, rng, event.pos)
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_r:
                world = make_scene(rng)
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_d:
                debug = not debug

        accumulator += dt
        while accumulator >= STEP:
            world.step(STEP)
            accumulator -= STEP
            simulated += STEP

        screen.fill((24, 26, 34))
        contacts = draw_scene(screen, world, debug, options)
        hud = (
            f"crates {crate_count(world)} | contacts {contacts} | "
            "[click] drop crate  [R] reset  [D] debug"
        )
        screen.blit(font.render(hud, True, TEXT_COLOR), (10, 10))
        pygame.display.flip()
        frame += 1

    pygame.quit()
    moving = sum(
        1
        for b in world.bodies
        if b.type == "dynamic" and abs(b.linear_velocity) * SCALE > 30
    )
    print(
        f"Simulated {simulated:.1f} s with {crate_count(world)} crates; fast movers now: {moving}"
    )
    return world


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Tumbling Crates on Tumble")
    parser.add_argument(
        "--frames",
        type=int,
        default=int(os.environ["TUMBLE_FRAMES"])
        if "TUMBLE_FRAMES" in os.environ
        else None,
        help="stop after this many frames (default: when the window closes; "
        "or the TUMBLE_FRAMES environment variable)",
    )
    main(parser.parse_args().frames)
