"""Tumble: a 2D rigid-body physics engine, for Python.

One :class:`World` owns every body, shape and joint; you hold small handle
objects (:class:`Body`, :class:`Shape`, :class:`Joint`) that raise
:class:`StaleHandleError` once what they name is removed. Units are metres,
kilograms and seconds, y points up, angles are radians counter-clockwise.
Vectors go in as any pair of numbers and come back as :class:`Vec2`.

    >>> import tumble
    >>> world = tumble.World(gravity=(0, -10))
    >>> ground = world.create_body("static", position=(0, -1))
    >>> _ = ground.add_box(100, 2)
    >>> box = world.create_body("dynamic", position=(0, 4))
    >>> _ = box.add_box(1, 1)
    >>> for _ in range(120):
    ...     world.step(1 / 60)
    >>> round(box.position.y, 2)
    0.5

``tumble.pygame_util`` draws a world on a pygame surface.
"""

from ._tumble import (
    ALL_BITS,
    Body,
    Capsule,
    ChainSegment,
    CharacterController,
    CharacterMove,
    Circle,
    Contact,
    ContactEvents,
    ContactHit,
    ContactPoint,
    ContactTouch,
    DistanceJoint,
    Filter,
    FilterJoint,
    InvalidValueError,
    Joint,
    MotionLocks,
    MotorJoint,
    OneWayPlatforms,
    Polygon,
    PreSolveContact,
    PrismaticJoint,
    QueryFilter,
    RayHit,
    RevoluteJoint,
    Segment,
    SensorEvents,
    SensorOverlap,
    Shape,
    ShapeCastHit,
    ShapePair,
    SolverSettings,
    StaleHandleError,
    TumbleError,
    Vec2,
    WeldJoint,
    WheelJoint,
    World,
)

__version__ = "0.1.0"

__all__ = [
    "ALL_BITS",
    "Body",
    "Capsule",
    "ChainSegment",
    "CharacterController",
    "CharacterMove",
    "Circle",
    "Contact",
    "ContactEvents",
    "ContactHit",
    "ContactPoint",
    "ContactTouch",
    "DistanceJoint",
    "Filter",
    "FilterJoint",
    "InvalidValueError",
    "Joint",
    "MotionLocks",
    "MotorJoint",
    "OneWayPlatforms",
    "Polygon",
    "PreSolveContact",
    "PrismaticJoint",
    "QueryFilter",
    "RayHit",
    "RevoluteJoint",
    "Segment",
    "SensorEvents",
    "SensorOverlap",
    "Shape",
    "ShapeCastHit",
    "ShapePair",
    "SolverSettings",
    "StaleHandleError",
    "TumbleError",
    "Vec2",
    "WeldJoint",
    "WheelJoint",
    "World",
]
