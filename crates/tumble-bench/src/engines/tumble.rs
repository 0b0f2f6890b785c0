//! Tumble at its default solver settings, with sleeping off except in the
//! `sleep` scene (the spec says), as in the two peers.

use super::{Engine, Memory};
use crate::spec::{build_world, BenchWorld, Spec, DT, V2};
use std::sync::OnceLock;
use tumble::{BodyId, BodyType, JointId, LaneWidth, SolverSettings, World};

/// The lane width Tumble runs with in this process (`--lanes`): the
/// default's, the widest the processor runs, unless set.
static LANE_WIDTH: OnceLock<LaneWidth> = OnceLock::new();

/// Makes Tumble run `width` lanes wide in every scene this process builds
/// (once, before the first).
pub fn set_lane_width(width: LaneWidth) {
    let _ = LANE_WIDTH.set(width);
}

/// The lane width Tumble runs with.
fn lane_width() -> LaneWidth {
    *LANE_WIDTH.get_or_init(LaneWidth::default)
}

/// What the output says about how Tumble runs.
pub fn settings(threads: usize) -> String {
    let s = SolverSettings::default();
    format!(
        "Tumble defaults: {} velocity iterations over {} substeps, {} graph coloring ({} lanes), warm starting {}, \
         {:?} position correction, {:?} sweep, contact recycling {}, {threads} worker thread(s), \
         sleeping off (on in the sleep scene)",
        s.iterations,
        s.substeps,
        s.coloring.name(),
        lane_width().lanes(),
        if s.warm_starting { "on" } else { "off" },
        s.position_correction,
        s.sweep,
        if s.contact_recycling { "on" } else { "off" }
    )
}

/// A scene in a Tumble world.
pub struct TumbleScene {
    world: World,
    bodies: Vec<BodyId>,
    joints: Vec<JointId>,
}

impl TumbleScene {
    /// Builds the spec in a new Tumble world (the same builder the testbed
    /// uses for these scenes).
    pub fn new(spec: &Spec, threads: usize) -> TumbleScene {
        let BenchWorld {
            mut world,
            bodies,
            joints,
        } = build_world(spec);
        world
            .set_workers(threads)
            .expect("a worker count the bench accepts");
        let solver = SolverSettings {
            lane_width: lane_width(),
            ..*world.solver_settings()
        };
        world
            .set_solver_settings(solver)
            .expect("the scene's settings with a lane width");
        TumbleScene {
            world,
            bodies,
            joints,
        }
    }
}

impl Engine for TumbleScene {
    fn name(&self) -> &'static str {
        "Tumble"
    }

    fn step(&mut self) {
        self.world.step(DT);
    }

    fn body_count(&self) -> usize {
        self.world.body_count()
    }

    fn joint_count(&self) -> usize {
        self.world.joint_count()
    }

    fn contact_count(&self) -> usize {
        self.world.contact_count()
    }

    /// Tumble's joint length: the distance between the two frames'
    /// origins, each body's transform applied to its frame.
    fn joint_gaps(&mut self) -> Vec<f32> {
        self.joints
            .iter()
            .map(|&id| self.world.joint_length(id).expect("a live joint"))
            .collect()
    }

    fn centers(&mut self) -> Vec<V2> {
        self.bodies
            .iter()
            .map(|&id| {
                let dynamic = self.world.body_type(id) == Ok(BodyType::Dynamic);
                let p = if dynamic {
                    self.world.center_of_mass(id)
                } else {
                    self.world.position(id)
                }
                .expect("a live body");
                V2::new(p.x, p.y)
            })
            .collect()
    }

    fn angles(&mut self) -> Vec<f32> {
        self.bodies
            .iter()
            .map(|&id| self.world.angle(id).expect("a live body"))
            .collect()
    }

    fn velocity(&mut self, body: usize) -> V2 {
        let v = self
            .world
            .linear_velocity(self.bodies[body])
            .expect("a live body");
        V2::new(v.x, v.y)
    }

    fn dynamic_mass(&mut self) -> f32 {
        self.bodies
            .iter()
            .filter(|&&id| self.world.body_type(id) == Ok(BodyType::Dynamic))
            .map(|&id| self.world.mass_data(id).expect("a live body").mass)
            .sum()
    }

    fn memory(&self) -> Option<Memory> {
        Some(Memory::Estimated(crate::memory::footprint(&self.world)))
    }

    fn awake_count(&mut self) -> usize {
        self.world.awake_body_count()
    }

    fn wake_all(&mut self) {
        for &id in &self.bodies {
            self.world.wake(id).expect("a live body");
        }
    }

    fn stages(&self) -> Vec<(&'static str, f64)> {
        let p = self.world.profile();
        crate::timing::in_ms(&[
            ("update pairs", p.update_pairs),
            ("collide", p.collide),
            ("contact changes", p.contact_changes),
            ("solve", p.solve),
            ("solve: setup", p.solve_setup),
            ("solve: color", p.solve_color),
            ("solve: substeps", p.solve_substeps),
            ("solve: store", p.solve_store),
            ("finalize", p.finalize),
            ("continuous", p.continuous),
            ("sensors", p.sensors),
            ("update broadphase", p.update_broadphase),
            ("(beside: rebuild tree)", p.rebuild_tree),
            ("sleep", p.sleep),
            ("step", p.total),
        ])
    }
}
