//! Joints: the parameter classes (one per kind, as the engine's structs),
//! `World.add_joint` and the `Joint` handle with its readouts.

use crate::errors::Check;
use crate::handles::{handle, Handle};
use crate::keys::key;
use crate::objects::Body;
use crate::objects::{body_obj, joint_obj, own_body, read, write, Joint, World};
use crate::settings::py_bool;
use crate::vec::{Vec2, V2};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use tumble::{JointDef, JointKind, Transform};

/// A value Python prints as it reads it back.
trait Show {
    fn show(&self) -> String;
}

impl Show for f32 {
    fn show(&self) -> String {
        format!("{self:?}")
    }
}

impl Show for bool {
    fn show(&self) -> String {
        py_bool(*self).to_string()
    }
}

impl Show for V2 {
    fn show(&self) -> String {
        format!("({:?}, {:?})", self.0.x, self.0.y)
    }
}

/// The engine's field as the Python class holds it.
trait Field<T> {
    fn to_py(self) -> T;
    fn from_py(t: T) -> Self;
}

impl<T> Field<T> for T {
    fn to_py(self) -> T {
        self
    }
    fn from_py(t: T) -> T {
        t
    }
}

impl Field<V2> for tumble::Vec2 {
    fn to_py(self) -> V2 {
        V2(self)
    }
    fn from_py(t: V2) -> tumble::Vec2 {
        t.0
    }
}

/// A joint kind's parameter class: the engine struct's fields as read and
/// write properties, a keyword constructor whose unset fields take the
/// engine's defaults, and the conversions.
macro_rules! joint_params {
    (
        $(#[$doc:meta])*
        $py:ident($rust:ident, $name:literal) { $( $(#[$fdoc:meta])* $field:ident : $t:ty ),* $(,)? }
    ) => {
        $(#[$doc])*
        #[pyclass(module = "tumble", eq)]
        #[derive(Clone, PartialEq)]
        pub struct $py {
            $( $(#[$fdoc])* #[pyo3(get, set)] pub $field: $t, )*
        }

        impl From<tumble::$rust> for $py {
            fn from(j: tumble::$rust) -> $py {
                $py { $( $field: Field::to_py(j.$field), )* }
            }
        }

        impl From<&$py> for tumble::$rust {
            fn from(j: &$py) -> tumble::$rust {
                tumble::$rust { $( $field: Field::from_py(j.$field.clone()), )* }
            }
        }

        #[pymethods]
        impl $py {
            #[new]
            #[pyo3(signature = (*, $($field = None),*))]
            fn new($($field: Option<$t>),*) -> $py {
                let mut j = $py::from(tumble::$rust::default());
                $( if let Some(v) = $field { j.$field = v; } )*
                j
            }

            fn __repr__(&self) -> String {
                let fields: Vec<String> = vec![$( format!("{}={}", stringify!($field), self.$field.show()) ),*];
                format!("{}({})", stringify!($py), fields.join(", "))
            }

            /// The kind's name.
            #[classattr]
            fn kind() -> &'static str {
                $name
            }
        }
    };
}

joint_params! {
    /// A hinge: the two frames' origins held together, the bodies free to
    /// turn about them, with an optional angle limit, motor and spring.
    RevoluteJoint(RevoluteJoint, "revolute") {
        /// Hold the angle within ``lower_angle..upper_angle``.
        enable_limit: bool,
        /// The lowest angle, radians, in -pi..pi.
        lower_angle: f32,
        /// The highest angle, radians, in ``lower_angle``..pi.
        upper_angle: f32,
        /// Drive the relative spin towards ``motor_speed``.
        enable_motor: bool,
        /// The motor's target speed, rad/s.
        motor_speed: f32,
        /// The largest torque the motor applies, N m.
        max_motor_torque: f32,
        /// Pull the angle towards ``target_angle`` with a damped spring.
        enable_spring: bool,
        /// The spring's stiffness as a frequency, Hz.
        hertz: f32,
        /// The spring's damping ratio (1 is critical).
        damping_ratio: f32,
        /// The angle the spring pulls towards, radians.
        target_angle: f32,
    }
}

joint_params! {
    /// A slider: frame B moves along frame A's x axis only, with an
    /// optional translation limit, motor and spring.
    PrismaticJoint(PrismaticJoint, "prismatic") {
        /// Hold the translation within ``lower_translation..upper_translation``.
        enable_limit: bool,
        /// The lowest translation, m.
        lower_translation: f32,
        /// The highest translation, m.
        upper_translation: f32,
        /// Drive the sliding speed towards ``motor_speed``.
        enable_motor: bool,
        /// The motor's target speed, m/s.
        motor_speed: f32,
        /// The largest force the motor applies, N.
        max_motor_force: f32,
        /// Pull the translation towards ``target_translation``.
        enable_spring: bool,
        /// The spring's stiffness, Hz.
        hertz: f32,
        /// The spring's damping ratio.
        damping_ratio: f32,
        /// The translation the spring pulls towards, m.
        target_translation: f32,
    }
}

joint_params! {
    /// A rod, spring or rope: the distance between the frames' origins
    /// held at ``length`` (softly with a spring), or within limits.
    DistanceJoint(DistanceJoint, "distance") {
        /// The rest length, m (positive).
        length: f32,
        /// Make the length soft: a spring of ``hertz`` and ``damping_ratio``.
        enable_spring: bool,
        /// The spring's stiffness, Hz.
        hertz: f32,
        /// The spring's damping ratio.
        damping_ratio: f32,
        /// Hold the length within ``min_length..max_length``.
        enable_limit: bool,
        /// The shortest length, m.
        min_length: f32,
        /// The longest length, m.
        max_length: f32,
        /// Drive the length's rate of change towards ``motor_speed``.
        enable_motor: bool,
        /// The motor's target speed, m/s (positive lengthens).
        motor_speed: f32,
        /// The largest force the motor applies, N.
        max_motor_force: f32,
    }
}

joint_params! {
    /// A weld: the frames held together in position and angle, rigidly
    /// (hertz 0) or softly.
    WeldJoint(WeldJoint, "weld") {
        /// Stiffness of the position hold, Hz (0: rigid).
        linear_hertz: f32,
        /// Damping ratio of the position hold.
        linear_damping_ratio: f32,
        /// Stiffness of the angle hold, Hz (0: rigid).
        angular_hertz: f32,
        /// Damping ratio of the angle hold.
        angular_damping_ratio: f32,
    }
}

joint_params! {
    /// A wheel: frame B slides along frame A's x axis on a spring (the
    /// suspension) and turns freely, or driven by a motor.
    WheelJoint(WheelJoint, "wheel") {
        /// Spring the suspension (off, it slides freely).
        enable_spring: bool,
        /// The suspension's stiffness, Hz.
        hertz: f32,
        /// The suspension's damping ratio.
        damping_ratio: f32,
        /// Hold the travel within ``lower_translation..upper_translation``.
        enable_limit: bool,
        /// The lowest travel, m.
        lower_translation: f32,
        /// The highest travel, m.
        upper_translation: f32,
        /// Drive the wheel's spin towards ``motor_speed``.
        enable_motor: bool,
        /// The motor's target speed, rad/s.
        motor_speed: f32,
        /// The largest torque the motor applies, N m.
        max_motor_torque: f32,
    }
}

joint_params! {
    /// A drive towards a pose: frame B driven towards frame A at the
    /// target velocities, with limited force and torque and optional
    /// springs towards A's position and angle.
    MotorJoint(MotorJoint, "motor") {
        /// The velocity of frame B relative to frame A to drive towards, m/s.
        linear_velocity: V2,
        /// The angular velocity of B relative to A to drive towards, rad/s.
        angular_velocity: f32,
        /// The largest force, N.
        max_force: f32,
        /// The largest torque, N m.
        max_torque: f32,
        /// The pull towards the target position, Hz (0: none).
        linear_hertz: f32,
        /// Its damping ratio.
        linear_damping_ratio: f32,
        /// The pull towards the target angle, Hz (0: none).
        angular_hertz: f32,
        /// Its damping ratio.
        angular_damping_ratio: f32,
    }
}

/// A joint that holds nothing: its two bodies only stop colliding.
#[pyclass(module = "tumble", eq)]
#[derive(Clone, PartialEq)]
pub struct FilterJoint;

#[pymethods]
impl FilterJoint {
    #[new]
    fn new() -> FilterJoint {
        FilterJoint
    }

    fn __repr__(&self) -> String {
        "FilterJoint()".into()
    }

    /// The kind's name.
    #[classattr]
    fn kind() -> &'static str {
        "filter"
    }
}

/// The engine's joint kind of a parameter object.
pub fn kind_from_py(obj: &Bound<'_, PyAny>) -> PyResult<JointKind> {
    if let Ok(j) = obj.cast::<RevoluteJoint>() {
        return Ok(JointKind::Revolute((&*j.borrow()).into()));
    }
    if let Ok(j) = obj.cast::<PrismaticJoint>() {
        return Ok(JointKind::Prismatic((&*j.borrow()).into()));
    }
    if let Ok(j) = obj.cast::<DistanceJoint>() {
        return Ok(JointKind::Distance((&*j.borrow()).into()));
    }
    if let Ok(j) = obj.cast::<WeldJoint>() {
        return Ok(JointKind::Weld((&*j.borrow()).into()));
    }
    if let Ok(j) = obj.cast::<WheelJoint>() {
        return Ok(JointKind::Wheel((&*j.borrow()).into()));
    }
    if let Ok(j) = obj.cast::<MotorJoint>() {
        return Ok(JointKind::Motor((&*j.borrow()).into()));
    }
    if obj.cast::<FilterJoint>().is_ok() {
        return Ok(JointKind::Filter);
    }
    Err(PyTypeError::new_err(
        "expected joint parameters: tumble.RevoluteJoint, PrismaticJoint, DistanceJoint, \
         WeldJoint, WheelJoint, MotorJoint or FilterJoint",
    ))
}

/// The parameter object of an engine joint kind.
pub fn kind_to_py<'py>(py: Python<'py>, kind: &JointKind) -> PyResult<Bound<'py, PyAny>> {
    Ok(match *kind {
        JointKind::Revolute(j) => Bound::new(py, RevoluteJoint::from(j))?.into_any(),
        JointKind::Prismatic(j) => Bound::new(py, PrismaticJoint::from(j))?.into_any(),
        JointKind::Distance(j) => Bound::new(py, DistanceJoint::from(j))?.into_any(),
        JointKind::Weld(j) => Bound::new(py, WeldJoint::from(j))?.into_any(),
        JointKind::Wheel(j) => Bound::new(py, WheelJoint::from(j))?.into_any(),
        JointKind::Motor(j) => Bound::new(py, MotorJoint::from(j))?.into_any(),
        JointKind::Filter => Bound::new(py, FilterJoint)?.into_any(),
    })
}

/// A frame as Python sees it: ``(position, angle)``.
fn frame_to_py(xf: Transform) -> (Vec2, f32) {
    (xf.p.into(), xf.q.angle())
}

#[pymethods]
impl World {
    /// Joins ``body_a`` and ``body_b`` by a joint whose kind and
    /// parameters are ``params`` (a :class:`RevoluteJoint`,
    /// :class:`PrismaticJoint`, :class:`DistanceJoint`, :class:`WeldJoint`,
    /// :class:`WheelJoint`, :class:`MotorJoint` or :class:`FilterJoint`)
    /// and returns it.
    ///
    /// Where it acts: with ``anchor`` (world coordinates, where the bodies
    /// are now) both frames sit there, their x axes at ``angle``, or along
    /// ``axis`` when given (a slider's travel or a wheel's suspension; a
    /// wheel's motor turns it counter-clockwise for a positive speed, so a
    /// car facing +x drives forward with a negative one); with
    /// ``anchor_b`` as well, frame A sits
    /// at ``anchor`` and frame B at ``anchor_b`` (a distance joint's two
    /// ends); with neither, both frames sit at the bodies' origins. At
    /// least one body must be dynamic. The bodies stop colliding with each
    /// other unless ``collide_connected``.
    #[pyo3(signature = (body_a, body_b, params, *, anchor = None, anchor_b = None, angle = 0.0, axis = None, collide_connected = false, user_data = None))]
    fn add_joint(
        slf: &Bound<'_, Self>,
        body_a: PyRef<'_, Body>,
        body_b: PyRef<'_, Body>,
        params: &Bound<'_, PyAny>,
        anchor: Option<V2>,
        anchor_b: Option<V2>,
        angle: f32,
        axis: Option<V2>,
        collide_connected: bool,
        user_data: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Joint> {
        let kind = kind_from_py(params)?;
        let mut w = write(slf)?;
        let (a, b) = (own_body(slf, &w, &body_a)?, own_body(slf, &w, &body_b)?);
        let mut def = JointDef::new(a, b, kind);
        def.collide_connected = collide_connected;
        def = match (anchor, anchor_b) {
            (Some(a), Some(b)) => def.with_world_anchors(&w.inner, a.0, b.0).check()?,
            (Some(a), None) => match axis {
                Some(axis) => def.along(&w.inner, a.0, axis.0).check()?,
                None => def.at_frame(&w.inner, Transform::new(a.0, angle)).check()?,
            },
            (None, Some(_)) => return Err(PyTypeError::new_err("anchor_b needs anchor (the end on body A)")),
            (None, None) if axis.is_some() => {
                return Err(PyTypeError::new_err("axis needs anchor (where the axis passes)"))
            }
            (None, None) => def,
        };
        let id = w.inner.create_joint(&def).check()?;
        let joint = joint_obj(slf, &w, id);
        if let Some(data) = user_data.filter(|d| !d.is_none()) {
            w.data.joints.bind(slf.py()).set_item(key(id), data)?;
        }
        Ok(joint)
    }
}

handle!(Joint, "joint", |w, id| w.joint_kind(id));

#[pymethods]
impl Joint {
    /// The joint's key (see :attr:`Body.key`).
    #[getter]
    fn key(&self) -> u64 {
        key(self.id)
    }

    /// Whether the joint still exists.
    #[getter]
    fn alive(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.world(py)?.inner.contains_joint(self.id))
    }

    /// The kind's name: ``"revolute"``, ``"prismatic"``, ``"distance"``,
    /// ``"weld"``, ``"wheel"``, ``"motor"`` or ``"filter"``.
    #[getter]
    fn kind(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(self.world(py)?.inner.joint_kind(self.id).check()?.name())
    }

    /// The joint's parameters, a copy: change it and assign it back (the
    /// kind must stay the same).
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let kind = self.world(py)?.inner.joint_kind(self.id).check()?;
        kind_to_py(py, &kind)
    }

    #[setter]
    fn set_params(&self, py: Python<'_>, params: &Bound<'_, PyAny>) -> PyResult<()> {
        let kind = kind_from_py(params)?;
        self.world_mut(py)?.inner.set_joint_kind(self.id, kind).check()
    }

    /// Sets the motor's target speed (the motor must be on).
    fn set_motor_speed(&self, py: Python<'_>, speed: f32) -> PyResult<()> {
        self.world_mut(py)?.inner.set_motor_speed(self.id, speed).check()
    }

    /// The two bodies, A then B.
    #[getter]
    fn bodies(&self, py: Python<'_>) -> PyResult<(Body, Body)> {
        let world = self.world.bind(py);
        let w = read(world)?;
        let (a, b) = w.inner.joint_bodies(self.id).check()?;
        Ok((body_obj(world, &w, a), body_obj(world, &w, b)))
    }

    /// Body A.
    #[getter]
    fn body_a(&self, py: Python<'_>) -> PyResult<Body> {
        Ok(self.bodies(py)?.0)
    }

    /// Body B.
    #[getter]
    fn body_b(&self, py: Python<'_>) -> PyResult<Body> {
        Ok(self.bodies(py)?.1)
    }

    /// The frames on A and on B, each ``(position, angle)`` in its body's
    /// coordinates. Setting them moves where the joint acts (a motor
    /// joint's target, say).
    #[getter]
    fn frames(&self, py: Python<'_>) -> PyResult<((Vec2, f32), (Vec2, f32))> {
        let (a, b) = self.world(py)?.inner.joint_frames(self.id).check()?;
        Ok((frame_to_py(a), frame_to_py(b)))
    }

    #[setter]
    fn set_frames(&self, py: Python<'_>, frames: ((V2, f32), (V2, f32))) -> PyResult<()> {
        let ((pa, aa), (pb, ab)) = frames;
        self.world_mut(py)?
            .inner
            .set_joint_frames(self.id, Transform::new(pa.0, aa), Transform::new(pb.0, ab))
            .check()
    }

    /// The two frames in world coordinates now, ``(position, angle)``
    /// each.
    #[getter]
    fn world_frames(&self, py: Python<'_>) -> PyResult<((Vec2, f32), (Vec2, f32))> {
        let (a, b) = self.world(py)?.inner.joint_world_frames(self.id).check()?;
        Ok((frame_to_py(a), frame_to_py(b)))
    }

    /// Frame B's angle less frame A's, radians in -pi..pi (a hinge's
    /// angle).
    #[getter]
    fn angle(&self, py: Python<'_>) -> PyResult<f32> {
        self.world(py)?.inner.joint_angle(self.id).check()
    }

    /// How far frame B is along frame A's x axis (a slider's or wheel's
    /// travel).
    #[getter]
    fn translation(&self, py: Python<'_>) -> PyResult<f32> {
        self.world(py)?.inner.joint_translation(self.id).check()
    }

    /// The distance between the frames' origins (a distance joint's
    /// length; a hinge's gap).
    #[getter]
    fn length(&self, py: Python<'_>) -> PyResult<f32> {
        self.world(py)?.inner.joint_length(self.id).check()
    }

    /// The force (N, world axes) the joint applied to body B over the last
    /// step (A got the opposite).
    #[getter]
    fn reaction_force(&self, py: Python<'_>) -> PyResult<Vec2> {
        Ok(self.world(py)?.inner.joint_reaction(self.id).check()?.0.into())
    }

    /// The torque (N m) the joint applied to body B over the last step.
    #[getter]
    fn reaction_torque(&self, py: Python<'_>) -> PyResult<f32> {
        Ok(self.world(py)?.inner.joint_reaction(self.id).check()?.1)
    }

    /// The impulse the motor applied over the last step.
    #[getter]
    fn motor_impulse(&self, py: Python<'_>) -> PyResult<f32> {
        self.world(py)?.inner.joint_motor_impulse(self.id).check()
    }

    /// Whether the two bodies still collide with each other.
    #[getter]
    fn collide_connected(&self, py: Python<'_>) -> PyResult<bool> {
        self.world(py)?.inner.joint_collide_connected(self.id).check()
    }

    /// Removes the joint; its bodies wake and collide again.
    fn remove(&self, py: Python<'_>) -> PyResult<()> {
        let mut w = self.world_mut(py)?;
        w.inner.remove_joint(self.id).check()?;
        let _ = w.data.joints.bind(py).del_item(key(self.id));
        Ok(())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let k = key(self.id);
        match self
            .world(py)
            .map(|w| w.inner.joint_kind(self.id).map(|j| j.name()))
        {
            Ok(Ok(kind)) => format!("<tumble.Joint {k} {kind}>"),
            Ok(Err(_)) => format!("<tumble.Joint {k} (removed)>"),
            Err(_) => format!("<tumble.Joint {k}>"),
        }
    }
}
