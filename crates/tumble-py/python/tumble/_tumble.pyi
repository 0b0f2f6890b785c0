"""Type stubs of the native module ``tumble._tumble`` (re-exported by
``tumble``). The docstrings at run time (``help(tumble.World)``) are the
full documentation; these give the types."""

from collections.abc import Iterator, Sequence
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt
from typing_extensions import TypeAlias

VecLike: TypeAlias = Union[Vec2, Tuple[float, float], Sequence[float], npt.NDArray[Any]]
Frame: TypeAlias = Tuple[Vec2, float]
Geometry: TypeAlias = Union[Circle, Capsule, Polygon, Segment, ChainSegment]
JointParams: TypeAlias = Union[
    RevoluteJoint,
    PrismaticJoint,
    DistanceJoint,
    WeldJoint,
    WheelJoint,
    MotorJoint,
    FilterJoint,
]
BodiesArg: TypeAlias = Union[npt.NDArray[np.uint64], Sequence[Union[Body, int]], None]
Color: TypeAlias = Tuple[int, int, int, int]
Point: TypeAlias = Tuple[float, float]

ALL_BITS: int

class TumbleError(Exception): ...
class InvalidValueError(TumbleError, ValueError): ...
class StaleHandleError(TumbleError, KeyError): ...

class Vec2:
    x: float
    y: float
    def __init__(self, x: float = 0.0, y: float = 0.0) -> None: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> float: ...
    def __iter__(self) -> Iterator[float]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __add__(self, other: VecLike) -> Vec2: ...
    def __radd__(self, other: VecLike) -> Vec2: ...
    def __sub__(self, other: VecLike) -> Vec2: ...
    def __rsub__(self, other: VecLike) -> Vec2: ...
    def __mul__(self, k: float) -> Vec2: ...
    def __rmul__(self, k: float) -> Vec2: ...
    def __truediv__(self, k: float) -> Vec2: ...
    def __neg__(self) -> Vec2: ...
    def __abs__(self) -> float: ...
    def __bool__(self) -> bool: ...
    @property
    def length(self) -> float: ...
    def dot(self, other: VecLike) -> float: ...
    def cross(self, other: VecLike) -> float: ...
    def normalized(self) -> Vec2: ...
    def rotated(self, angle: float) -> Vec2: ...
    def perpendicular(self) -> Vec2: ...

class SolverSettings:
    iterations: int
    substeps: int
    warm_starting: bool
    position_correction: str
    coloring: str
    sweep: str
    baumgarte: float
    restitution_threshold: float
    contact_recycling: bool
    contact_hertz: float
    contact_damping_ratio: float
    joint_hertz: float
    joint_damping_ratio: float
    min_shared_color: int
    lane_width: str
    def __init__(self, **fields: Any) -> None: ...

class MotionLocks:
    x: bool
    y: bool
    rotation: bool
    def __init__(self, *, x: bool = False, y: bool = False, rotation: bool = False) -> None: ...

class Filter:
    category: int
    mask: int
    group: int
    def __init__(
        self, category: Optional[int] = None, mask: Optional[int] = None, group: int = 0
    ) -> None: ...
    def should_collide(self, other: Filter) -> bool: ...

class QueryFilter:
    ALL: QueryFilter
    category: int
    mask: int
    def __init__(self, category: Optional[int] = None, mask: Optional[int] = None) -> None: ...

class Circle:
    radius: float
    center: Vec2
    def __init__(self, radius: float, center: VecLike = (0, 0)) -> None: ...

class Capsule:
    center1: Vec2
    center2: Vec2
    radius: float
    def __init__(self, center1: VecLike, center2: VecLike, radius: float) -> None: ...

class Polygon:
    vertices: List[Vec2]
    radius: float
    centroid: Vec2
    def __init__(self, points: Sequence[VecLike], radius: float = 0.0) -> None: ...
    @staticmethod
    def box(
        width: float, height: float, center: VecLike = (0, 0), angle: float = 0.0
    ) -> Polygon: ...

class Segment:
    point1: Vec2
    point2: Vec2
    def __init__(self, point1: VecLike, point2: VecLike) -> None: ...

class ChainSegment:
    point1: Vec2
    point2: Vec2
    ghost1: Vec2
    ghost2: Vec2

class Body:
    @property
    def key(self) -> int: ...
    @property
    def world(self) -> World: ...
    @property
    def alive(self) -> bool: ...
    type: str
    position: Vec2
    angle: float
    linear_velocity: Vec2
    angular_velocity: float
    enabled: bool
    awake: bool
    user_data: Any
    motion_locks: MotionLocks
    @property
    def world_center(self) -> Vec2: ...
    @property
    def local_center(self) -> Vec2: ...
    @property
    def mass(self) -> float: ...
    @property
    def inertia(self) -> float: ...
    @property
    def shapes(self) -> List[Shape]: ...
    @property
    def joints(self) -> List[Joint]: ...
    def contacts(self) -> List[Contact]: ...
    def set_transform(self, position: VecLike, angle: float) -> None: ...
    def wake(self) -> None: ...
    def set_damping(self, linear: float, angular: float) -> None: ...
    def set_gravity_scale(self, scale: float) -> None: ...
    def set_mass_data(
        self, mass: float, inertia: float, center: Optional[VecLike] = None
    ) -> None: ...
    def reset_mass_data(self) -> None: ...
    def apply_force(self, force: VecLike, point: Optional[VecLike] = None) -> None: ...
    def apply_torque(self, torque: float) -> None: ...
    def apply_impulse(self, impulse: VecLike, point: Optional[VecLike] = None) -> None: ...
    def apply_angular_impulse(self, impulse: float) -> None: ...
    def velocity_at_point(self, point: VecLike) -> Vec2: ...
    def world_point(self, local: VecLike) -> Vec2: ...
    def local_point(self, point: VecLike) -> Vec2: ...
    def world_vector(self, local: VecLike) -> Vec2: ...
    def remove(self) -> None: ...
    def add_shape(self, geometry: Geometry, **options: Any) -> Shape: ...
    def add_circle(self, radius: float, center: VecLike = (0, 0), **options: Any) -> Shape: ...
    def add_capsule(
        self, center1: VecLike, center2: VecLike, radius: float, **options: Any
    ) -> Shape: ...
    def add_box(
        self,
        width: float,
        height: float,
        center: VecLike = (0, 0),
        angle: float = 0.0,
        **options: Any,
    ) -> Shape: ...
    def add_polygon(
        self, points: Sequence[VecLike], radius: float = 0.0, **options: Any
    ) -> Shape: ...
    def add_segment(self, point1: VecLike, point2: VecLike, **options: Any) -> Shape: ...
    def add_chain(
        self, points: Sequence[VecLike], closed: bool = False, **options: Any
    ) -> List[Shape]: ...
    def add_concave(self, outline: Sequence[VecLike], **options: Any) -> List[Shape]: ...

class Shape:
    @property
    def key(self) -> int: ...
    @property
    def body(self) -> Body: ...
    @property
    def alive(self) -> bool: ...
    def contacts(self) -> List[Contact]: ...
    @property
    def type(self) -> str: ...
    @property
    def geometry(self) -> Geometry: ...
    @property
    def density(self) -> float: ...
    friction: float
    restitution: float
    tangent_speed: float
    @property
    def rolling_resistance(self) -> float: ...
    filter: Filter
    @property
    def seam_edges(self) -> List[int]: ...
    @property
    def sensor(self) -> bool: ...
    @property
    def sensor_events(self) -> bool: ...
    contact_events: bool
    hit_events: bool
    pre_solve: bool
    @property
    def custom_filter(self) -> bool: ...
    user_data: Any
    def aabb(self) -> Tuple[Vec2, Vec2]: ...
    def contains_point(self, point: VecLike) -> bool: ...
    def overlaps(self) -> List[Shape]: ...
    def remove(self) -> None: ...

class RevoluteJoint:
    kind: str
    enable_limit: bool
    lower_angle: float
    upper_angle: float
    enable_motor: bool
    motor_speed: float
    max_motor_torque: float
    enable_spring: bool
    hertz: float
    damping_ratio: float
    target_angle: float
    def __init__(
        self,
        *,
        enable_limit: bool = ...,
        lower_angle: float = ...,
        upper_angle: float = ...,
        enable_motor: bool = ...,
        motor_speed: float = ...,
        max_motor_torque: float = ...,
        enable_spring: bool = ...,
        hertz: float = ...,
        damping_ratio: float = ...,
        target_angle: float = ...,
    ) -> None: ...

class PrismaticJoint:
    kind: str
    enable_limit: bool
    lower_translation: float
    upper_translation: float
    enable_motor: bool
    motor_speed: float
    max_motor_force: float
    enable_spring: bool
    hertz: float
    damping_ratio: float
    target_translation: float
    def __init__(
        self,
        *,
        enable_limit: bool = ...,
        lower_translation: float = ...,
        upper_translation: float = ...,
        enable_motor: bool = ...,
        motor_speed: float = ...,
        max_motor_force: float = ...,
        enable_spring: bool = ...,
        hertz: float = ...,
        damping_ratio: float = ...,
        target_translation: float = ...,
    ) -> None: ...

class DistanceJoint:
    kind: str
    length: float
    enable_spring: bool
    hertz: float
    damping_ratio: float
    enable_limit: bool
    min_length: float
    max_length: float
    enable_motor: bool
    motor_speed: float
    max_motor_force: float
    def __init__(
        self,
        *,
        length: float = ...,
        enable_spring: bool = ...,
        hertz: float = ...,
        damping_ratio: float = ...,
        enable_limit: bool = ...,
        min_length: float = ...,
        max_length: float = ...,
        enable_motor: bool = ...,
        motor_speed: float = ...,
        max_motor_force: float = ...,
    ) -> None: ...

class WeldJoint:
    kind: str
    linear_hertz: float
    linear_damping_ratio: float
    angular_hertz: float
    angular_damping_ratio: float
    def __init__(
        self,
        *,
        linear_hertz: float = ...,
        linear_damping_ratio: float = ...,
        angular_hertz: float = ...,
        angular_damping_ratio: float = ...,
    ) -> None: ...

class WheelJoint:
    kind: str
    enable_spring: bool
    hertz: float
    damping_ratio: float
    enable_limit: bool
    lower_translation: float
    upper_translation: float
    enable_motor: bool
    motor_speed: float
    max_motor_torque: float
    def __init__(
        self,
        *,
        enable_spring: bool = ...,
        hertz: float = ...,
        damping_ratio: float = ...,
        enable_limit: bool = ...,
        lower_translation: float = ...,
        upper_translation: float = ...,
        enable_motor: bool = ...,
        motor_speed: float = ...,
        max_motor_torque: float = ...,
    ) -> None: ...

class MotorJoint:
    kind: str
    linear_velocity: Vec2
    angular_velocity: float
    max_force: float
    max_torque: float
    linear_hertz: float
    linear_damping_ratio: float
    angular_hertz: float
    angular_damping_ratio: float
    def __init__(
        self,
        *,
        linear_velocity: VecLike = ...,
        angular_velocity: float = ...,
        max_force: float = ...,
        max_torque: float = ...,
        linear_hertz: float = ...,
        linear_damping_ratio: float = ...,
        angular_hertz: float = ...,
        angular_damping_ratio: float = ...,
    ) -> None: ...

class FilterJoint:
    kind: str
    def __init__(self) -> None: ...

class Joint:
    @property
    def key(self) -> int: ...
    @property
    def alive(self) -> bool: ...
    @property
    def kind(self) -> str: ...
    params: JointParams
    @property
    def bodies(self) -> Tuple[Body, Body]: ...
    @property
    def body_a(self) -> Body: ...
    @property
    def body_b(self) -> Body: ...
    frames: Tuple[Frame, Frame]
    @property
    def world_frames(self) -> Tuple[Frame, Frame]: ...
    @property
    def angle(self) -> float: ...
    @property
    def translation(self) -> float: ...
    @property
    def length(self) -> float: ...
    @property
    def reaction_force(self) -> Vec2: ...
    @property
    def reaction_torque(self) -> float: ...
    @property
    def motor_impulse(self) -> float: ...
    @property
    def collide_connected(self) -> bool: ...
    user_data: Any
    def set_motor_speed(self, speed: float) -> None: ...
    def remove(self) -> None: ...

class RayHit:
    shape: Shape
    body: Body
    point: Vec2
    normal: Vec2
    fraction: float

class ShapeCastHit:
    shape: Shape
    body: Body
    fraction: float
    point: Vec2
    normal: Vec2

class ContactTouch:
    shape_a: Shape
    shape_b: Shape
    body_a: Body
    body_b: Body

class ContactHit:
    shape_a: Shape
    shape_b: Shape
    body_a: Body
    body_b: Body
    point: Vec2
    normal: Vec2
    approach_speed: float

class ContactEvents:
    begin: List[ContactTouch]
    end: List[ContactTouch]
    hit: List[ContactHit]

class SensorOverlap:
    sensor: Shape
    sensor_body: Body
    visitor: Shape

class SensorEvents:
    begin: List[SensorOverlap]
    end: List[SensorOverlap]

class ContactPoint:
    point: Vec2
    separation: float
    normal_impulse: float
    tangent_impulse: float
    id: int
    persisted: bool

class Contact:
    shape_a: Shape
    shape_b: Shape
    body_a: Body
    body_b: Body
    normal: Vec2
    points: List[ContactPoint]

class CharacterController:
    up: Vec2
    skin: float
    max_slope: float
    step_height: float
    step_min_width: float
    snap_to_ground: float
    filter: QueryFilter
    max_slides: int
    one_way: int
    def __init__(
        self,
        *,
        up: Optional[VecLike] = None,
        skin: Optional[float] = None,
        max_slope: Optional[float] = None,
        step_height: Optional[float] = None,
        step_min_width: Optional[float] = None,
        snap_to_ground: Optional[float] = None,
        filter: Optional[QueryFilter] = None,
        max_slides: Optional[int] = None,
        one_way: Optional[int] = None,
    ) -> None: ...

class CharacterMove:
    translation: Vec2
    grounded: bool
    ground_normal: Vec2
    ground: Optional[Shape]
    ground_velocity: Vec2
    sliding: bool

class OneWayPlatforms:
    platforms: List[Shape]
    up: Vec2
    sink_tolerance: float
    def __init__(
        self,
        platforms: Sequence[Shape] = ...,
        up: Optional[VecLike] = None,
        sink_tolerance: Optional[float] = None,
    ) -> None: ...

class ShapePair:
    shape_a: Shape
    shape_b: Shape
    body_a: Body
    body_b: Body

class PreSolveContact:
    shape_a: Shape
    shape_b: Shape
    body_a: Body
    body_b: Body
    normal: Vec2
    points: List[Tuple[Vec2, float]]
    friction: float
    restitution: float
    tangent_speed: float

class World:
    def __init__(
        self,
        gravity: VecLike = (0, -10),
        *,
        sleeping: bool = True,
        workers: int = 1,
        length_units_per_meter: float = 1.0,
        hit_event_threshold: Optional[float] = None,
        max_linear_speed: Optional[float] = None,
        max_step: Optional[float] = None,
        max_step_splits: Optional[int] = None,
        smooth_seams: bool = True,
        profiling: bool = True,
        solver: Optional[SolverSettings] = None,
    ) -> None: ...
    def step(self, dt: float, hooks: Optional[Any] = None) -> None: ...
    gravity: Vec2
    sleeping: bool
    smooth_seams: bool
    profiling: bool
    workers: int
    @property
    def worker_threads(self) -> int: ...
    max_linear_speed: float
    max_step: float
    max_step_splits: int
    @property
    def length_units_per_meter(self) -> float: ...
    @property
    def hit_event_threshold(self) -> float: ...
    solver: SolverSettings
    @property
    def step_count(self) -> int: ...
    @property
    def body_count(self) -> int: ...
    @property
    def shape_count(self) -> int: ...
    @property
    def joint_count(self) -> int: ...
    @property
    def contact_count(self) -> int: ...
    @property
    def awake_body_count(self) -> int: ...
    @property
    def bodies(self) -> List[Body]: ...
    @property
    def joints(self) -> List[Joint]: ...
    @property
    def frozen_bodies(self) -> List[Body]: ...
    @property
    def profile(self) -> Dict[str, float]: ...
    @property
    def memory_usage(self) -> Dict[str, int]: ...
    def body(self, key: int) -> Body: ...
    def shape(self, key: int) -> Shape: ...
    def joint(self, key: int) -> Joint: ...
    def create_body(
        self,
        type: str = "dynamic",
        position: VecLike = (0, 0),
        angle: float = 0.0,
        *,
        linear_velocity: VecLike = (0, 0),
        angular_velocity: float = 0.0,
        linear_damping: float = 0.0,
        angular_damping: float = 0.0,
        gravity_scale: float = 1.0,
        awake: bool = True,
        can_sleep: bool = True,
        sleep_threshold: Optional[float] = None,
        motion_locks: Optional[MotionLocks] = None,
        user_data: Any = None,
    ) -> Body: ...
    def add_joint(
        self,
        body_a: Body,
        body_b: Body,
        params: JointParams,
        *,
        anchor: Optional[VecLike] = None,
        anchor_b: Optional[VecLike] = None,
        angle: float = 0.0,
        axis: Optional[VecLike] = None,
        collide_connected: bool = False,
        user_data: Any = None,
    ) -> Joint: ...
    def ray_cast(
        self, origin: VecLike, translation: VecLike, filter: Optional[QueryFilter] = None
    ) -> Optional[RayHit]: ...
    def ray_cast_all(
        self, origin: VecLike, translation: VecLike, filter: Optional[QueryFilter] = None
    ) -> List[RayHit]: ...
    def shape_cast(
        self,
        geometry: Geometry,
        position: VecLike,
        translation: VecLike,
        angle: float = 0.0,
        filter: Optional[QueryFilter] = None,
    ) -> Optional[ShapeCastHit]: ...
    def overlap_point(
        self, point: VecLike, filter: Optional[QueryFilter] = None
    ) -> List[Shape]: ...
    def overlap_aabb(
        self, lower: VecLike, upper: VecLike, filter: Optional[QueryFilter] = None
    ) -> List[Shape]: ...
    def overlap_shape(
        self,
        geometry: Geometry,
        position: VecLike,
        angle: float = 0.0,
        filter: Optional[QueryFilter] = None,
    ) -> List[Shape]: ...
    def explode(
        self,
        center: VecLike,
        radius: float,
        impulse_per_length: float,
        falloff: float = 0.0,
        filter: Optional[QueryFilter] = None,
    ) -> None: ...
    @property
    def contact_events(self) -> ContactEvents: ...
    @property
    def sensor_events(self) -> SensorEvents: ...
    def contacts(self) -> List[Contact]: ...
    def move_character(
        self,
        controller: CharacterController,
        geometry: Geometry,
        position: VecLike,
        desired: VecLike,
        dt: float,
        angle: float = 0.0,
        ignore: Optional[Body] = None,
    ) -> CharacterMove: ...
    def debug_draw(
        self,
        *,
        shapes: bool = True,
        joints: bool = True,
        contacts: bool = False,
        normals: bool = False,
        aabbs: bool = False,
        normal_length: float = 0.3,
    ) -> List[Tuple[Any, ...]]: ...
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes) -> World: ...
    def body_ids(self) -> npt.NDArray[np.uint64]: ...
    def get_positions(self, bodies: BodiesArg = None) -> npt.NDArray[np.float32]: ...
    def get_angles(self, bodies: BodiesArg = None) -> npt.NDArray[np.float32]: ...
    def get_linear_velocities(self, bodies: BodiesArg = None) -> npt.NDArray[np.float32]: ...
    def get_angular_velocities(self, bodies: BodiesArg = None) -> npt.NDArray[np.float32]: ...
    def set_linear_velocities(self, bodies: BodiesArg, velocities: npt.ArrayLike) -> None: ...
    def set_angular_velocities(self, bodies: BodiesArg, velocities: npt.ArrayLike) -> None: ...
    def apply_impulses(self, bodies: BodiesArg, impulses: npt.ArrayLike) -> None: ...
    def contact_event_arrays(self) -> Dict[str, npt.NDArray[Any]]: ...
    def sensor_event_arrays(self) -> Dict[str, npt.NDArray[np.uint64]]: ...
    def contact_points(
        self,
    ) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32]]: ...

def _handle(world: World, kind: str, key: int) -> Any: ...

NumpyState: TypeAlias = Tuple[int, int, bool, int]

class EnvCore:
    """One reinforcement-learning environment stepped in Rust (the core of
    ``tumble.envs.LunarLander`` and ``tumble.envs.BipedalWalker``)."""

    def __init__(
        self,
        env_id: str,
        *,
        continuous: bool = False,
        gravity: float = -10.0,
        enable_wind: bool = False,
        wind_power: float = 15.0,
        turbulence_power: float = 1.5,
        hardcore: bool = False,
        render: bool = False,
    ) -> None: ...
    @property
    def observation_len(self) -> int: ...
    @property
    def action_len(self) -> int: ...
    @property
    def max_episode_steps(self) -> int: ...
    def reset(self, rng: Optional[NumpyState] = None) -> npt.NDArray[np.float32]: ...
    def step(
        self, action: Any
    ) -> Tuple[npt.NDArray[np.float32], float, bool, bool, Dict[str, Any]]: ...
    def rng_state(self) -> NumpyState: ...
    def render(self) -> npt.NDArray[np.uint8]: ...

class VecCore:
    """Many environments stepped together over worker threads, with
    gymnasium's next-step autoreset (the core of ``tumble.envs.VectorEnv``)."""

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        workers: int = 1,
        *,
        max_episode_steps: Optional[int] = None,
        autoreset_mode: str = "next_step",
        continuous: bool = False,
        gravity: float = -10.0,
        enable_wind: bool = False,
        wind_power: float = 15.0,
        turbulence_power: float = 1.5,
        hardcore: bool = False,
        render: bool = False,
    ) -> None: ...
    @property
    def num_envs(self) -> int: ...
    def reset(self, rngs: Sequence[Optional[NumpyState]]) -> npt.NDArray[np.float32]: ...
    def step(
        self, actions: npt.ArrayLike
    ) -> Tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]: ...
    def final_observations(
        self,
    ) -> Tuple[npt.NDArray[np.bool_], npt.NDArray[np.float32]]: ...
    def render(self, index: int) -> npt.NDArray[np.uint8]: ...

def lander_heuristic(s: Sequence[float], continuous: bool) -> Any: ...

class WalkerHeuristic:
    """gymnasium's heuristic walker: a three-phase gait; one per episode."""

    def __init__(self) -> None: ...
    def step_heuristic(self, s: Sequence[float]) -> npt.NDArray[np.float32]: ...
