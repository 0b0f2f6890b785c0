//! The character mover: `CharacterController` and `World.move_character`.

use crate::errors::Check;
use crate::geometry;
use crate::objects::Body;
use crate::objects::Shape;
use crate::objects::{own_body, read, shape_obj, World};
use crate::shape::QueryFilter;
use crate::vec::{Vec2, V2};
use pyo3::prelude::*;
use tumble::Transform;

/// How a character moves (:meth:`World.move_character`): which way is
/// ``up``, the ``skin`` gap it keeps, the steepest slope it walks up
/// (``max_slope``, radians, 0 to pi/2), the tallest step it climbs (``step_height``;
/// 0: none) and how deep a step must be (``step_min_width``), how far below
/// it keeps to the ground (``snap_to_ground``), which shapes it meets
/// (``filter``), how many slides a move takes (``max_slides``) and which
/// collision categories are one-way platforms (``one_way``). Unset
/// fields take the engine's defaults; bad numbers raise when it is made.
#[pyclass(module = "tumble")]
#[derive(Clone)]
pub struct CharacterController {
    /// Which way is up.
    #[pyo3(get, set)]
    pub up: V2,
    /// The gap kept between the character and what it touches.
    #[pyo3(get, set)]
    pub skin: f32,
    /// The steepest slope walked up, radians.
    #[pyo3(get, set)]
    pub max_slope: f32,
    /// The tallest step climbed (0: none).
    #[pyo3(get, set)]
    pub step_height: f32,
    /// How deep a step's top must be.
    #[pyo3(get, set)]
    pub step_min_width: f32,
    /// How far below it the character keeps to the ground (0: off).
    #[pyo3(get, set)]
    pub snap_to_ground: f32,
    /// Which shapes it meets (sensors never).
    pub filter: tumble::QueryFilter,
    /// The most slides a move takes.
    #[pyo3(get, set)]
    pub max_slides: u32,
    /// Collision categories of one-way platforms (met only from above:
    /// jumped up through, walked through from the side, stood on).
    #[pyo3(get, set)]
    pub one_way: u64,
}

impl From<&CharacterController> for tumble::CharacterController {
    fn from(c: &CharacterController) -> tumble::CharacterController {
        tumble::CharacterController {
            up: c.up.0,
            skin: c.skin,
            max_slope: c.max_slope,
            step_height: c.step_height,
            step_min_width: c.step_min_width,
            snap_to_ground: c.snap_to_ground,
            filter: c.filter,
            max_slides: c.max_slides,
            one_way: c.one_way,
        }
    }
}

#[pymethods]
impl CharacterController {
    #[new]
    #[pyo3(signature = (*, up = None, skin = None, max_slope = None, step_height = None, step_min_width = None, snap_to_ground = None, filter = None, max_slides = None, one_way = None))]
    fn new(
        up: Option<V2>,
        skin: Option<f32>,
        max_slope: Option<f32>,
        step_height: Option<f32>,
        step_min_width: Option<f32>,
        snap_to_ground: Option<f32>,
        filter: Option<PyRef<'_, QueryFilter>>,
        max_slides: Option<u32>,
        one_way: Option<u64>,
    ) -> PyResult<CharacterController> {
        let d = tumble::CharacterController::default();
        let c = CharacterController {
            up: up.unwrap_or(V2(d.up)),
            skin: skin.unwrap_or(d.skin),
            max_slope: max_slope.unwrap_or(d.max_slope),
            step_height: step_height.unwrap_or(d.step_height),
            step_min_width: step_min_width.unwrap_or(d.step_min_width),
            snap_to_ground: snap_to_ground.unwrap_or(d.snap_to_ground),
            filter: filter.map_or(d.filter, |f| f.0),
            max_slides: max_slides.unwrap_or(d.max_slides),
            one_way: one_way.unwrap_or(d.one_way),
        };
        // Bad numbers raise here, not at the first move.
        tumble::CharacterController::from(&c).validate().check()?;
        Ok(c)
    }

    /// Which shapes it meets (a :class:`QueryFilter`).
    #[getter]
    fn filter(&self) -> QueryFilter {
        QueryFilter(self.filter)
    }

    #[setter]
    fn set_filter(&mut self, filter: PyRef<'_, QueryFilter>) {
        self.filter = filter.0;
    }

    fn __repr__(&self) -> String {
        format!(
            "CharacterController(up=({:?}, {:?}), skin={:?}, max_slope={:?}, step_height={:?}, \
             step_min_width={:?}, snap_to_ground={:?}, max_slides={:?}, one_way={:#x})",
            self.up.0.x,
            self.up.0.y,
            self.skin,
            self.max_slope,
            self.step_height,
            self.step_min_width,
            self.snap_to_ground,
            self.max_slides,
            self.one_way
        )
    }
}

/// What :meth:`World.move_character` found: the ``translation`` the
/// character may make, whether it ends ``grounded`` (on walkable ground,
/// ``ground``, whose normal is ``ground_normal`` and velocity
/// ``ground_velocity``), and whether it is ``sliding`` down a slope too
/// steep to stand on.
#[pyclass(module = "tumble", frozen, get_all)]
pub struct CharacterMove {
    /// Where the shape may go this frame, from where it is.
    pub translation: Py<Vec2>,
    /// Whether it ends on ground it can walk on.
    pub grounded: bool,
    /// The ground's normal (up when not grounded).
    pub ground_normal: Py<Vec2>,
    /// The ground shape, if grounded.
    pub ground: Option<Py<Shape>>,
    /// The ground's velocity where it stands.
    pub ground_velocity: Py<Vec2>,
    /// Whether it is on a slope too steep to stand on.
    pub sliding: bool,
}

#[pymethods]
impl CharacterMove {
    fn __repr__(&self) -> String {
        let t = self.translation.get();
        format!(
            "CharacterMove(translation=({:?}, {:?}), grounded={}, sliding={})",
            t.x,
            t.y,
            crate::settings::py_bool(self.grounded),
            crate::settings::py_bool(self.sliding)
        )
    }
}

#[pymethods]
impl World {
    /// Where a character of ``geometry`` (usually a :class:`Capsule`),
    /// placed at ``position`` turned by ``angle``, may move this frame
    /// when it wants to move by ``desired``, as ``controller`` says:
    /// sliding along what it meets, walking up slopes and steps, keeping
    /// to the ground, carried by what it stands on over ``dt``. The shapes
    /// of ``ignore`` (its own body) are not met. The world is not changed:
    /// move the body yourself (a kinematic body given the velocity
    /// ``translation / dt`` pushes what it walks into).
    #[pyo3(signature = (controller, geometry, position, desired, dt, angle = 0.0, ignore = None))]
    fn move_character(
        slf: &Bound<'_, Self>,
        controller: PyRef<'_, CharacterController>,
        geometry: &Bound<'_, PyAny>,
        position: V2,
        desired: V2,
        dt: f32,
        angle: f32,
        ignore: Option<PyRef<'_, Body>>,
    ) -> PyResult<CharacterMove> {
        let shape = geometry::from_py(geometry)?;
        let c: tumble::CharacterController = (&*controller).into();
        let w = read(slf)?;
        let ignore = ignore.map(|b| own_body(slf, &w, &b)).transpose()?;
        let m = w
            .inner
            .move_character(
                &c,
                &shape,
                Transform::new(position.0, angle),
                desired.0,
                dt,
                ignore,
            )
            .check()?;
        let py = slf.py();
        Ok(CharacterMove {
            translation: Py::new(py, Vec2::from(m.translation))?,
            grounded: m.grounded,
            ground_normal: Py::new(py, Vec2::from(m.ground_normal))?,
            ground: m.ground.map(|s| Py::new(py, shape_obj(slf, &w, s))).transpose()?,
            ground_velocity: Py::new(py, Vec2::from(m.ground_velocity))?,
            sliding: m.sliding,
        })
    }
}
