//! [`StepProfile`]: how long each stage of the last step took.

/// Wall-clock milliseconds each stage of the last [`World::step`](super::World::step)
/// took, in the order the stages run. On `wasm32-unknown-unknown`, which
/// has no clock, every figure is zero.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepProfile {
    /// Finding new pairs in the broadphase and making their contacts.
    pub update_pairs: f32,
    /// The narrowphase: colliding (or recycling) every awake contact.
    pub collide: f32,
    /// Destroying parted contacts, linking islands.
    pub contact_changes: f32,
    /// Gathering the awake bodies and solving the contacts: the four
    /// `solve_*` parts below, and the hit events.
    pub solve: f32,
    /// Part of `solve`: gathering the awake bodies and contacts into the
    /// solver's rows, and picking the joints. In a step whose contacts
    /// and joints are all as last step colored them (a scene at rest),
    /// the contacts' rows are built straight into the kept coloring's
    /// lane batches here, and `solve_color` has only the joints left.
    pub solve_setup: f32,
    /// Part of `solve`: sorting the constraints into graph colors,
    /// packing the contacts into lane batches and building the joints'
    /// rows in color order.
    pub solve_color: f32,
    /// Part of `solve`: the substeps (the solver's iterations and the
    /// bodies' integration).
    pub solve_substeps: f32,
    /// Part of `solve`: writing the impulses back for the next step's warm
    /// start, and restitution.
    pub solve_store: f32,
    /// Writing the bodies back, sleep timers.
    pub finalize: f32,
    /// Continuous collision: sweeping the bodies that moved far for their
    /// size against the static shapes.
    pub continuous: f32,
    /// The sensors: what overlaps each, and what crossed it.
    pub sensors: f32,
    /// Enlarging moved proxies, and on one thread rebuilding the part of
    /// the tree that loosened; with workers, waiting for that rebuild
    /// beside the substeps if it has not finished (see `rebuild_tree`).
    pub update_broadphase: f32,
    /// Not a stage of its own: with workers, rebuilding the part of the
    /// tree that the user's and the last step's moves loosened, on another
    /// worker beside the substeps and `finalize`, so not counted again in
    /// `total`. Zero on one thread (see `update_broadphase`).
    pub rebuild_tree: f32,
    /// Splitting an island and putting islands to sleep.
    pub sleep: f32,
    /// The whole step.
    pub total: f32,
}

impl StepProfile {
    /// Adds `other`'s times to these (the steps of one call, see
    /// [`World::step`](super::World::step)).
    pub(super) fn add(&mut self, other: &StepProfile) {
        for (x, y) in self.fields_mut().into_iter().zip(other.fields()) {
            *x += y;
        }
    }

    /// Sets the solve's parts from the solver's times.
    pub(super) fn set_solve_parts(&mut self, parts: crate::solver::SolveTimes) {
        self.solve_setup = parts.setup;
        self.solve_color = parts.color;
        self.solve_substeps = parts.substeps;
        self.solve_store = parts.store;
    }

    /// The sum of the stages' times (the parts of `solve` and the rebuild
    /// beside it are not stages of their own).
    pub(super) fn stages(&self) -> f32 {
        self.update_pairs
            + self.collide
            + self.contact_changes
            + self.solve
            + self.finalize
            + self.continuous
            + self.sensors
            + self.update_broadphase
            + self.sleep
    }

    /// Every time, in the order of the fields.
    fn fields(&self) -> [f32; 15] {
        let mut copy = *self;
        copy.fields_mut().map(|x| *x)
    }

    /// Every time, mutably, in the order of the fields (a test checks
    /// that the list covers every field).
    fn fields_mut(&mut self) -> [&mut f32; 15] {
        [
            &mut self.update_pairs,
            &mut self.collide,
            &mut self.contact_changes,
            &mut self.solve,
            &mut self.solve_setup,
            &mut self.solve_color,
            &mut self.solve_substeps,
            &mut self.solve_store,
            &mut self.finalize,
            &mut self.continuous,
            &mut self.sensors,
            &mut self.update_broadphase,
            &mut self.rebuild_tree,
            &mut self.sleep,
            &mut self.total,
        ]
    }

    /// The broadphase's share: finding pairs and updating the tree.
    pub fn broadphase(&self) -> f32 {
        self.update_pairs + self.update_broadphase
    }

    /// The narrowphase's share: colliding and applying what changed.
    pub fn narrowphase(&self) -> f32 {
        self.collide + self.contact_changes
    }

    /// The solver's share: the solve, the write-back and continuous
    /// collision.
    pub fn solver(&self) -> f32 {
        self.solve + self.finalize + self.continuous
    }
}

#[cfg(test)]
mod tests {
    use super::StepProfile;

    #[test]
    fn adding_profiles_adds_every_field() {
        // Every field is an f32 in the list `add` walks.
        assert_eq!(
            std::mem::size_of::<StepProfile>(),
            15 * std::mem::size_of::<f32>()
        );
        let mut a = StepProfile::default();
        let mut b = StepProfile::default();
        for (k, x) in b.fields_mut().into_iter().enumerate() {
            *x = k as f32 + 1.0;
        }
        a.add(&b);
        a.add(&b);
        assert_eq!(a.fields(), b.fields().map(|x| 2.0 * x));
    }
}
