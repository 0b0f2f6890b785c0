"""Drawing a :class:`tumble.World` on a pygame surface, the way pymunk's
``pygame_util`` does: one call draws every shape and joint (and, if asked,
the contact points and normals), with y pointing up.

    >>> import pygame, tumble
    >>> from tumble.pygame_util import DrawOptions
    >>> options = DrawOptions(screen, scale=30, origin=(450, 550))
    >>> options.draw(world)

The world's debug drawing (:meth:`tumble.World.debug_draw`) gives the
primitives in world coordinates; this module maps them to pixels and draws
them. It needs pygame, imported when a :class:`DrawOptions` is made.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Optional, Tuple

Point = Tuple[float, float]
Color = Tuple[int, int, int, int]


class DrawOptions:
    """How to draw a world on ``surface``: ``scale`` pixels a metre, the
    world's origin at the pixel ``origin`` (by default the bottom left
    corner of the surface), y up. ``shapes``, ``joints``, ``contacts``
    (points), ``normals`` and ``aabbs`` choose what is drawn;
    ``normal_length`` is in metres. ``outline`` draws a dark edge round each
    solid shape.
    """

    def __init__(
        self,
        surface,
        scale: float = 30.0,
        origin: Optional[Sequence[float]] = None,
        *,
        shapes: bool = True,
        joints: bool = True,
        contacts: bool = False,
        normals: bool = False,
        aabbs: bool = False,
        normal_length: float = 0.3,
        outline: bool = True,
    ) -> None:
        import pygame  # only needed to draw

        self._pygame = pygame
        self.surface = surface
        self.scale = float(scale)
        if origin is None:
            origin = (0, surface.get_height())
        self.origin = (float(origin[0]), float(origin[1]))
        self.shapes = shapes
        self.joints = joints
        self.contacts = contacts
        self.normals = normals
        self.aabbs = aabbs
        self.normal_length = normal_length
        self.outline = outline

    def to_screen(self, p: Sequence[float]) -> Tuple[int, int]:
        """The pixel of the world point ``p`` (y up in the world, down on
        the screen)."""
        return (
            round(self.origin[0] + p[0] * self.scale),
            round(self.origin[1] - p[1] * self.scale),
        )

    def to_world(self, pixel: Sequence[float]) -> Tuple[float, float]:
        """The world point under the pixel ``pixel`` (a mouse position)."""
        return (
            (pixel[0] - self.origin[0]) / self.scale,
            (self.origin[1] - pixel[1]) / self.scale,
        )

    def draw(self, world) -> int:
        """Draws ``world`` on the surface; returns how many primitives were
        drawn."""
        primitives = world.debug_draw(
            shapes=self.shapes,
            joints=self.joints,
            contacts=self.contacts,
            normals=self.normals,
            aabbs=self.aabbs,
            normal_length=self.normal_length,
        )
        for p in primitives:
            getattr(self, "_" + p[0])(*p[1:])
        return len(primitives)

    # One method a primitive kind, as World.debug_draw names them.

    def _polygon(self, vertices: Sequence[Point], radius: float, color: Color) -> None:
        pts = [self.to_screen(v) for v in vertices]
        draw = self._pygame.draw
        if radius > 0:
            # A rounded polygon: its core, thick edges and round corners.
            r = max(1, round(radius * self.scale))
            draw.polygon(self.surface, color[:3], pts)
            for a, b in zip(pts, pts[1:] + pts[:1]):
                draw.line(self.surface, color[:3], a, b, 2 * r)
            for a in pts:
                draw.circle(self.surface, color[:3], a, r)
            return
        if len(pts) >= 3:
            draw.polygon(self.surface, color[:3], pts)
            if self.outline:
                draw.polygon(self.surface, _dark(color), pts, 1)

    def _circle(self, center: Point, radius: float, axis: Point, color: Color) -> None:
        c = self.to_screen(center)
        r = max(1, round(radius * self.scale))
        draw = self._pygame.draw
        draw.circle(self.surface, color[:3], c, r)
        if self.outline:
            draw.circle(self.surface, _dark(color), c, r, 1)
        # A line from the center along the axis shows the circle turning.
        edge = self.to_screen((center[0] + axis[0] * radius, center[1] + axis[1] * radius))
        draw.line(self.surface, _dark(color), c, edge, 1)

    def _capsule(self, p1: Point, p2: Point, radius: float, color: Color) -> None:
        a, b = self.to_screen(p1), self.to_screen(p2)
        r = max(1, round(radius * self.scale))
        draw = self._pygame.draw
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length * r, dx / length * r
        side = [(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (b[0] - nx, b[1] - ny)]
        side.append((a[0] - nx, a[1] - ny))
        draw.polygon(self.surface, color[:3], side)
        draw.circle(self.surface, color[:3], a, r)
        draw.circle(self.surface, color[:3], b, r)

    def _segment(self, p1: Point, p2: Point, color: Color) -> None:
        self._pygame.draw.line(self.surface, color[:3], self.to_screen(p1), self.to_screen(p2), 2)

    def _point(self, p: Point, size: float, color: Color) -> None:
        self._pygame.draw.circle(
            self.surface, color[:3], self.to_screen(p), max(1, round(size / 2))
        )


def _dark(color: Color) -> Tuple[int, int, int]:
    """The color darkened, for outlines."""
    return (color[0] // 3, color[1] // 3, color[2] // 3)
