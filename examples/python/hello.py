"""Hello, Tumble: a box and a ball dropped on the ground, drawn with pygame.

    python examples/python/hello.py            # until the window closes
    python examples/python/hello.py --frames 120

Headless (no display): SDL_VIDEODRIVER=dummy. The box comes to rest on the
ground at y = 0.5 m; the program prints its height as it falls.
"""

import argparse
import os

import pygame
import tumble
from tumble.pygame_util import DrawOptions

WIDTH, HEIGHT = 800, 500
SCALE = 50  # pixels a metre


def make_world():
    """The ground (its top face at y = 0), a box and a ball above it."""
    world = tumble.World(gravity=(0, -10))
    ground = world.create_body("static", position=(0, -1))
    ground.add_box(40, 2)
    box = world.create_body("dynamic", position=(0, 4), angle=0.3)
    box.add_box(1, 1, friction=0.6)
    ball = world.create_body("dynamic", position=(1.5, 6))
    ball.add_circle(0.4, restitution=0.5)
    return world, box


def main(frames=None):
    """Runs the window for ``frames`` frames (until it is closed when
    ``None``); returns the box's final height."""
    pygame.init()
    screen = pygame.display.set_mode((WIDTH, HEIGHT))
    pygame.display.set_caption("Hello, Tumble")
    clock = pygame.time.Clock()
    world, box = make_world()
    draw = DrawOptions(screen, scale=SCALE, origin=(WIDTH / 2, HEIGHT - 50))
    frame = 0
    running = True
    while running and (frames is None or frame < frames):
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
        world.step(1 / 60)
        if frame % 20 == 0:
            print(f"t = {frame / 60:4.2f} s   box y = {box.position.y:.3f} m")
        screen.fill((24, 26, 34))
        draw.draw(world)
        pygame.display.flip()
        clock.tick(60)
        frame += 1
    pygame.quit()
    print(f"the box rests at y = {box.position.y:.3f} m")
    return box.position.y


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
