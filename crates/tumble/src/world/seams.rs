//! Keeping every polygon's seams (see [`crate::shapes::seams`]) as shapes
//! come and go.
//!
//! Two polygons are welded when they never move relative to each other:
//! they are shapes of one body (of any type: a tile map, a wall of boxes,
//! a compound's parts, the convex parts of a concave outline), or shapes
//! of two static bodies (a level built of one body per tile). Sensors and
//! the shapes of disabled bodies weld to nothing: nothing collides with
//! them. Polygons weld only to polygons of the same rounding radius that
//! collide with the same shapes: the same [`Filter`](crate::Filter), and
//! both or neither asking for the pre-solve hook (a tile a body passes
//! through, or a one-way platform beside a wall, hides no edge of its
//! neighbour). What a custom [`ContactHooks::should_collide`](crate::ContactHooks::should_collide)
//! decides is not known here.
//!
//! A polygon's seams change only when a shape near it appears,
//! disappears or moves against it: a shape is created or removed or
//! changes its filter or pre-solve flag, a static body is moved, removed,
//! disabled or enabled, or a body becomes static or stops being static. Each of those finds again the seams of
//! the polygons near the shapes it changed (found through the
//! broadphase, so building a tile map of n tiles costs n small searches,
//! not n squared), and a polygon whose seams changed has its contacts
//! collided afresh at the next step, their bodies woken.

use super::{ShapeId, World};
use crate::body::{BodyType, NULL};
use crate::contact::ContactOptions;
use crate::error::BodyError;
use crate::math::Aabb;
use crate::settings::{LINEAR_SLOP, MAX_POLYGON_VERTICES};
use crate::shapes::seams::{seams_of, SeamSlots, Seams};
use crate::shapes::{Polygon, Shape};

/// Each shape slot's seams, if it is a polygon that has any.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(super) struct SeamTable(Vec<Option<Box<Seams>>>);

impl SeamTable {
    /// The seams of shape slot `si`, if it has any.
    #[inline]
    pub(super) fn of(&self, si: u32) -> Option<&Seams> {
        seams_of(&self.0, si)
    }

    /// Every slot's seams, for the collide stage.
    #[inline]
    pub(super) fn slots(&self) -> &SeamSlots {
        &self.0
    }

    /// Gives shape slot `si` the seams `seams`; whether they changed.
    fn set(&mut self, si: u32, seams: Option<Seams>) -> bool {
        if self.of(si) == seams.as_ref() {
            return false;
        }
        let si = si as usize;
        if self.0.len() <= si {
            self.0.resize(si + 1, None);
        }
        self.0[si] = seams.map(Box::new);
        true
    }

    /// Heap bytes held.
    pub(super) fn memory_bytes(&self) -> usize {
        self.0.capacity() * std::mem::size_of::<Option<Box<Seams>>>()
            + self.0.iter().flatten().count() * std::mem::size_of::<Seams>()
    }
}

impl World {
    /// Turns [`WorldSettings::smooth_seams`](crate::WorldSettings::smooth_seams)
    /// on or off: the seams of every polygon are found (on) or forgotten
    /// (off) at once, and the contacts of those that had or now have seams
    /// are collided afresh at the next step.
    pub fn set_smooth_seams(&mut self, on: bool) {
        if on == self.settings.smooth_seams {
            return;
        }
        self.settings.smooth_seams = on;
        let all: Vec<u32> = self.shapes.iter().map(|(si, _)| si).collect();
        if on {
            let regions: Vec<Aabb> = all.iter().filter_map(|&si| self.seam_region(si)).collect();
            self.reseam(&regions);
        } else {
            for si in all {
                if self.seams.set(si, None) {
                    self.refresh_contact_options(si, true);
                }
            }
        }
    }

    /// The edges of a shape that are seams (see
    /// [`WorldSettings::smooth_seams`](crate::WorldSettings::smooth_seams)):
    /// the indices `i` of the polygon's edges from vertex `i` to vertex
    /// `i + 1` that welded polygons cover along their whole length, in
    /// order. Empty for a shape that is not a polygon, has no such edge, or
    /// while smooth seams are off.
    ///
    /// ```
    /// # use tumble::{BodyDef, Polygon, ShapeDef, Vec2, World};
    /// let mut world = World::default();
    /// let floor = world.create_body(&BodyDef::static_body())?;
    /// let tile = |x: f32| Polygon::new_offset_box(0.5, 0.5, Vec2::new(x, 0.0), 0.0);
    /// let left = world.create_shape(floor, tile(0.0)?, &ShapeDef::default())?;
    /// let right = world.create_shape(floor, tile(1.0)?, &ShapeDef::default())?;
    /// // A box's edges run bottom, right, top, left.
    /// assert_eq!(world.seam_edges(left)?, [1]);
    /// assert_eq!(world.seam_edges(right)?, [3]);
    /// world.remove_shape(right)?;
    /// assert!(world.seam_edges(left)?.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`BodyError::StaleHandle`].
    pub fn seam_edges(&self, id: ShapeId) -> Result<Vec<usize>, BodyError> {
        let si = self.shape_index(id)?;
        Ok(match self.seams.of(si) {
            Some(seams) => (0..MAX_POLYGON_VERTICES).filter(|&e| seams.is_seam(e)).collect(),
            None => Vec::new(),
        })
    }

    /// The world box around shape `si` within which its seams may lie, if
    /// it can have seams at all: a polygon that is not a sensor, on an
    /// enabled body.
    pub(super) fn seam_region(&self, si: u32) -> Option<Aabb> {
        let slot = &self.shapes[si];
        let may = matches!(slot.shape, Shape::Polygon(_)) && !slot.def.sensor && slot.proxy != NULL;
        may.then(|| slot.shape.aabb(self.bodies[slot.body].xf))
    }

    /// Finds again the seams of shape `si` and of the polygons around it
    /// (see [`World::reseam`]), if it can have any.
    pub(super) fn reseam_shape(&mut self, si: u32) {
        if let Some(region) = self.seam_region(si) {
            self.reseam(&[region]);
        }
    }

    /// The regions of body `bi`'s shapes that can have seams.
    pub(super) fn seam_regions_of_body(&self, bi: u32) -> Vec<Aabb> {
        self.bodies[bi]
            .shapes
            .iter()
            .filter_map(|&si| self.seam_region(si))
            .collect()
    }

    /// [`World::seam_regions_of_body`] for a static body, whose polygons
    /// weld to other bodies' (none for any other).
    pub(super) fn static_seam_regions(&self, bi: u32) -> Vec<Aabb> {
        if self.bodies[bi].body_type == BodyType::Static {
            self.seam_regions_of_body(bi)
        } else {
            Vec::new()
        }
    }

    /// How far apart two edges may lie and still make a seam: the linear
    /// slop, the distance the engine counts as touching.
    fn seam_tolerance(&self) -> f32 {
        LINEAR_SLOP * self.settings.length_units_per_meter
    }

    /// Finds again the seams of every polygon whose box comes within the
    /// tolerance of one of `regions` (world boxes where shapes appeared,
    /// disappeared or moved), and collides afresh the contacts of those
    /// whose seams changed. Nothing while smooth seams are off.
    pub(super) fn reseam(&mut self, regions: &[Aabb]) {
        if !self.settings.smooth_seams || regions.is_empty() {
            return;
        }
        let tolerance = self.seam_tolerance();
        let mut near = Vec::new();
        for region in regions {
            self.broadphase.query(region.expanded(tolerance), |proxy| {
                near.push(self.broadphase.user_data(proxy));
                true
            });
        }
        near.sort_unstable();
        near.dedup();
        for si in near {
            if self.seam_region(si).is_none() {
                continue;
            }
            let found = self.find_seams(si);
            if self.seams.set(si, found) {
                self.refresh_contact_options(si, true);
            }
        }
    }

    /// The seams of polygon `si` among the polygons welded to it.
    fn find_seams(&self, si: u32) -> Option<Seams> {
        let slot = &self.shapes[si];
        let Shape::Polygon(polygon) = &slot.shape else {
            return None;
        };
        let tolerance = self.seam_tolerance();
        let xf = self.bodies[slot.body].xf;
        let fixed = |bi: u32| self.bodies[bi].body_type == BodyType::Static;
        let region = slot.shape.aabb(xf).expanded(tolerance);
        let mut welded = Vec::new();
        self.broadphase.query(region, |proxy| {
            let sj = self.broadphase.user_data(proxy);
            let other = &self.shapes[sj];
            let same_body = other.body == slot.body;
            let weld = sj != si
                && !other.def.sensor
                && other.def.filter == slot.def.filter
                && other.def.pre_solve == slot.def.pre_solve
                && (same_body || (fixed(slot.body) && fixed(other.body)))
                && matches!(&other.shape, Shape::Polygon(q) if (q.radius - polygon.radius).abs() <= tolerance);
            if weld {
                welded.push(sj);
            }
            true
        });
        // Slot order, whatever order the tree gave.
        welded.sort_unstable();
        let placed: Vec<Polygon> = welded
            .iter()
            .filter_map(|&sj| {
                let other = &self.shapes[sj];
                let Shape::Polygon(q) = &other.shape else {
                    return None;
                };
                // A shape of the same body is in the same frame already.
                Some(if other.body == slot.body {
                    *q
                } else {
                    q.transformed(xf.inv_mul(self.bodies[other.body].xf))
                })
            })
            .collect();
        Seams::find(polygon, &placed, tolerance)
    }

    /// The options of a contact between shapes `sa` and `sb`: their
    /// definitions', and whether either has seams.
    #[inline]
    pub(super) fn contact_options(&self, sa: u32, sb: u32) -> ContactOptions {
        let options = ContactOptions::of(&self.shapes[sa].def, &self.shapes[sb].def);
        let seamed = self.seams.of(sa).is_some() || self.seams.of(sb).is_some();
        options.switched(ContactOptions::SEAMS, seamed)
    }

    /// Forgets the seams of shape slot `si` (its shape is going).
    pub(super) fn forget_seams(&mut self, si: u32) {
        self.seams.set(si, None);
    }
}
