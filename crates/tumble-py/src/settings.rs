//! `SolverSettings`: the solver's options, as a copy the game changes and
//! assigns back to `World.solver` (which checks them).

use crate::errors::invalid;
use pyo3::prelude::*;
use tumble::{Coloring, LaneWidth, PositionCorrection, Sweep};

/// The solver's options. ``World.solver`` returns a copy; change its
/// fields and assign it back, and the engine checks them then
/// (:class:`InvalidValueError` names the first one out of range).
#[pyclass(module = "tumble", eq)]
#[derive(Clone, PartialEq)]
pub struct SolverSettings {
    /// Velocity iterations per step, 1 to 16, shared over the substeps.
    /// Under the soft step each substep pushes overlap out in the first
    /// half of its iterations and relaxes in the rest: give it at least
    /// two, or what its contacts push out stays in the bodies as speed.
    #[pyo3(get, set)]
    pub iterations: u32,
    /// Substeps per step, 1 to 8 (no more than ``iterations``).
    #[pyo3(get, set)]
    pub substeps: u32,
    /// Start each step from the impulses the contacts needed last step.
    #[pyo3(get, set)]
    pub warm_starting: bool,
    /// How overlap is removed: ``"soft_step"`` (the default),
    /// ``"split_impulse"``, ``"baumgarte"`` or ``"none"``.
    #[pyo3(get)]
    pub position_correction: String,
    /// How constraints are grouped to be solved together: ``"bounded"``
    /// (the default), ``"ordered"`` or ``"off"``.
    #[pyo3(get)]
    pub coloring: String,
    /// The order of the velocity iterations: ``"forward"`` (the default)
    /// or ``"alternating"``.
    #[pyo3(get)]
    pub sweep: String,
    /// Fraction of the overlap removed a step (split impulses and
    /// Baumgarte), 0 to 1.
    #[pyo3(get, set)]
    pub baumgarte: f32,
    /// Restitution applies only above this approach speed, m/s.
    #[pyo3(get, set)]
    pub restitution_threshold: f32,
    /// Keep a resting contact's manifold instead of colliding it again.
    #[pyo3(get, set)]
    pub contact_recycling: bool,
    /// The soft step's contact stiffness, Hz.
    #[pyo3(get, set)]
    pub contact_hertz: f32,
    /// The soft step's contact damping ratio.
    #[pyo3(get, set)]
    pub contact_damping_ratio: f32,
    /// How stiffly joints pull back together, Hz.
    #[pyo3(get, set)]
    pub joint_hertz: f32,
    /// The damping ratio of that pull.
    #[pyo3(get, set)]
    pub joint_damping_ratio: f32,
    /// With several workers, the smallest graph color they share (speed
    /// only, never the results).
    #[pyo3(get, set)]
    pub min_shared_color: u32,
    /// How many constraints the lane kernels solve at once: ``"widest"``
    /// (the default: eight where the processor has AVX2, else four) or
    /// ``"four"`` (speed only, never the results).
    #[pyo3(get)]
    pub lane_width: String,
}

const CORRECTIONS: [(&str, PositionCorrection); 4] = [
    ("soft_step", PositionCorrection::SoftStep),
    ("split_impulse", PositionCorrection::SplitImpulse),
    ("baumgarte", PositionCorrection::Baumgarte),
    ("none", PositionCorrection::None),
];
const COLORINGS: [(&str, Coloring); 3] = [
    ("bounded", Coloring::Bounded),
    ("ordered", Coloring::Ordered),
    ("off", Coloring::Off),
];
const SWEEPS: [(&str, Sweep); 2] = [("forward", Sweep::Forward), ("alternating", Sweep::Alternating)];
const LANE_WIDTHS: [(&str, LaneWidth); 2] = [("widest", LaneWidth::Widest), ("four", LaneWidth::Four)];

fn name_of<T: PartialEq + Copy>(table: &[(&'static str, T)], value: T) -> String {
    table
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("?", |(n, _)| n)
        .to_string()
}

fn value_of<T: Copy>(table: &[(&'static str, T)], what: &str, name: &str) -> PyResult<T> {
    table
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<String> = table.iter().map(|(n, _)| format!("{n:?}")).collect();
            invalid(format!(
                "{what} must be one of {}, not {name:?}",
                names.join(", ")
            ))
        })
}

impl SolverSettings {
    pub fn from_rust(s: &tumble::SolverSettings) -> SolverSettings {
        SolverSettings {
            iterations: s.iterations,
            substeps: s.substeps,
            warm_starting: s.warm_starting,
            position_correction: name_of(&CORRECTIONS, s.position_correction),
            coloring: name_of(&COLORINGS, s.coloring),
            sweep: name_of(&SWEEPS, s.sweep),
            baumgarte: s.baumgarte,
            restitution_threshold: s.restitution_threshold,
            contact_recycling: s.contact_recycling,
            contact_hertz: s.contact_hertz,
            contact_damping_ratio: s.contact_damping_ratio,
            joint_hertz: s.joint_hertz,
            joint_damping_ratio: s.joint_damping_ratio,
            min_shared_color: s.min_shared_color,
            lane_width: name_of(&LANE_WIDTHS, s.lane_width),
        }
    }

    /// The engine's settings (the names were checked when set).
    pub fn to_rust(&self) -> tumble::SolverSettings {
        let d = tumble::SolverSettings::default();
        tumble::SolverSettings {
            iterations: self.iterations,
            substeps: self.substeps,
            warm_starting: self.warm_starting,
            position_correction: value_of(&CORRECTIONS, "", &self.position_correction)
                .unwrap_or(d.position_correction),
            coloring: value_of(&COLORINGS, "", &self.coloring).unwrap_or(d.coloring),
            sweep: value_of(&SWEEPS, "", &self.sweep).unwrap_or(d.sweep),
            baumgarte: self.baumgarte,
            restitution_threshold: self.restitution_threshold,
            contact_recycling: self.contact_recycling,
            contact_hertz: self.contact_hertz,
            contact_damping_ratio: self.contact_damping_ratio,
            joint_hertz: self.joint_hertz,
            joint_damping_ratio: self.joint_damping_ratio,
            min_shared_color: self.min_shared_color,
            lane_width: value_of(&LANE_WIDTHS, "", &self.lane_width).unwrap_or(d.lane_width),
        }
    }
}

#[pymethods]
impl SolverSettings {
    /// The engine's default settings, with the fields given changed:
    /// ``SolverSettings(iterations=4, sleeping=...)``.
    #[new]
    #[pyo3(signature = (**fields))]
    fn new(fields: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<SolverSettings> {
        let mut s = SolverSettings::from_rust(&tumble::SolverSettings::default());
        for (k, v) in fields.into_iter().flat_map(|f| f.iter()) {
            let name: String = k.extract()?;
            match name.as_str() {
                "iterations" => s.iterations = v.extract()?,
                "substeps" => s.substeps = v.extract()?,
                "warm_starting" => s.warm_starting = v.extract()?,
                "position_correction" => s.set_position_correction(v.extract()?)?,
                "coloring" => s.set_coloring(v.extract()?)?,
                "sweep" => s.set_sweep(v.extract()?)?,
                "baumgarte" => s.baumgarte = v.extract()?,
                "restitution_threshold" => s.restitution_threshold = v.extract()?,
                "contact_recycling" => s.contact_recycling = v.extract()?,
                "contact_hertz" => s.contact_hertz = v.extract()?,
                "contact_damping_ratio" => s.contact_damping_ratio = v.extract()?,
                "joint_hertz" => s.joint_hertz = v.extract()?,
                "joint_damping_ratio" => s.joint_damping_ratio = v.extract()?,
                "min_shared_color" => s.min_shared_color = v.extract()?,
                "lane_width" => s.set_lane_width(v.extract()?)?,
                _ => {
                    return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                        "SolverSettings has no field {name:?}"
                    )))
                }
            }
        }
        Ok(s)
    }

    #[setter]
    fn set_position_correction(&mut self, name: String) -> PyResult<()> {
        value_of(&CORRECTIONS, "position_correction", &name)?;
        self.position_correction = name;
        Ok(())
    }

    #[setter]
    fn set_coloring(&mut self, name: String) -> PyResult<()> {
        value_of(&COLORINGS, "coloring", &name)?;
        self.coloring = name;
        Ok(())
    }

    #[setter]
    fn set_sweep(&mut self, name: String) -> PyResult<()> {
        value_of(&SWEEPS, "sweep", &name)?;
        self.sweep = name;
        Ok(())
    }

    #[setter]
    fn set_lane_width(&mut self, name: String) -> PyResult<()> {
        value_of(&LANE_WIDTHS, "lane_width", &name)?;
        self.lane_width = name;
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!(
            "SolverSettings(iterations={}, substeps={}, warm_starting={}, position_correction={:?}, \
             coloring={:?}, sweep={:?}, baumgarte={}, restitution_threshold={}, \
             contact_recycling={}, contact_hertz={}, contact_damping_ratio={}, joint_hertz={}, \
             joint_damping_ratio={}, min_shared_color={}, lane_width={:?})",
            self.iterations,
            self.substeps,
            py_bool(self.warm_starting),
            self.position_correction,
            self.coloring,
            self.sweep,
            self.baumgarte,
            self.restitution_threshold,
            py_bool(self.contact_recycling),
            self.contact_hertz,
            self.contact_damping_ratio,
            self.joint_hertz,
            self.joint_damping_ratio,
            self.min_shared_color,
            self.lane_width
        )
    }
}

/// `True` or `False`, as Python prints them.
pub fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}
