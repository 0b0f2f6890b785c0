//! Sensors: shapes that push nothing and report which shapes enter and
//! leave them ([`ShapeDef::sensor`]).
//!
//! A sensor makes no contacts. Once per step, after the bodies have moved,
//! each sensor finds the shapes that overlap it and compares them with the
//! last step's (both lists sorted by handle), so the begin and end events
//! come in a deterministic order. A shape that crossed a sensor within one
//! step, overlapping it neither before nor after, is found by sweeping the
//! pair over the step, and reported as a begin and an end in the same step:
//! a bullet through a trigger zone is never missed.

use super::shapes::ShapeSlot;
use super::{ShapeId, World};
use crate::body::BodyType;
use crate::collision::{shape_distance, time_of_impact};
use crate::error::BodyError;
use crate::events::{SensorEvents, SensorOverlap};
use crate::math::Transform;
use crate::shapes::Shape;

/// A sensor's state: its shape and the shapes overlapping it at the end of
/// the last step, sorted.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(super) struct Sensor {
    /// The sensor's shape slot.
    pub shape: u32,
    /// The visitors, sorted by handle.
    pub overlaps: Vec<ShapeId>,
}

/// Buffers of the sensor stage, reused every step.
#[derive(Clone, Debug, Default)]
pub(super) struct SensorScratch {
    /// Shapes whose fat boxes overlap the sensor's swept box.
    candidates: Vec<u32>,
    /// Visitors overlapping the sensor now.
    found: Vec<ShapeId>,
    /// Visitors that crossed it within the step.
    crossed: Vec<ShapeId>,
}

impl SensorScratch {
    pub(super) fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        self.candidates.capacity() * size_of::<u32>()
            + (self.found.capacity() + self.crossed.capacity()) * size_of::<ShapeId>()
    }
}

impl World {
    /// The sensor events of the last step: which shapes began and stopped
    /// overlapping which sensors (first, the ends that removing a sensor or
    /// a visitor caused since the step before). Valid until the next step.
    pub fn sensor_events(&self) -> &SensorEvents {
        &self.sensor_events
    }

    /// The sensor events of the last step, moved out to the caller, so
    /// that a game can remove the coin it just picked up while it loops
    /// over them (the world then reports none until its next step; see
    /// [`World::take_contact_events`] for the allocation-free copy).
    ///
    /// ```
    /// # use tumble::{BodyDef, Circle, ShapeDef, Vec2, World};
    /// let mut world = World::default();
    /// let coin = world.create_body(&BodyDef::static_body()).unwrap();
    /// let sensor = ShapeDef { sensor: true, ..ShapeDef::default() };
    /// world.create_shape(coin, Circle::new(Vec2::ZERO, 0.5).unwrap(), &sensor).unwrap();
    /// let player = world.create_body(&BodyDef::dynamic().at(Vec2::new(0.0, 2.0))).unwrap();
    /// world.create_shape(player, Circle::new(Vec2::ZERO, 0.25).unwrap(), &ShapeDef::default()).unwrap();
    /// let mut picked = 0;
    /// for _ in 0..60 {
    ///     world.step(1.0 / 60.0);
    ///     for overlap in world.take_sensor_events().begin {
    ///         world.remove_body(overlap.sensor_body).unwrap();
    ///         picked += 1;
    ///     }
    /// }
    /// assert_eq!(picked, 1);
    /// assert!(!world.contains_body(coin));
    /// ```
    pub fn take_sensor_events(&mut self) -> SensorEvents {
        std::mem::take(&mut self.sensor_events)
    }

    /// The shapes overlapping sensor `sensor` at the end of the last step,
    /// sorted by handle. A shape removed since is still listed until the
    /// next step reports its end.
    pub fn sensor_overlaps(&self, sensor: ShapeId) -> Result<&[ShapeId], BodyError> {
        let si = self.shape_index(sensor)?;
        match self.shapes[si].sensor {
            crate::body::NULL => Err(BodyError::NotASensor),
            k => Ok(&self.sensors[k].overlaps),
        }
    }

    /// Registers shape `si`, just added with the sensor flag, as a sensor.
    pub(super) fn create_sensor(&mut self, si: u32) {
        let k = self.sensors.insert(Sensor {
            shape: si,
            overlaps: Vec::new(),
        });
        self.shapes[si].sensor = k.index;
    }

    /// Forgets sensor shape `si`, which is being removed: its visitors'
    /// ends are reported with the next step's events.
    pub(super) fn destroy_sensor(&mut self, si: u32) {
        let k = self.shapes[si].sensor;
        let sensor = self.shape_id(si);
        let sensor_body = self.body_id(self.shapes[si].body);
        for &visitor in &self.sensors[k].overlaps {
            self.pending_sensor_ends.push(SensorOverlap {
                sensor,
                sensor_body,
                visitor,
            });
        }
        self.sensors.remove(k);
    }

    /// The sensor stage: each sensor, in slot order, finds what overlaps
    /// it now and what crossed it during the step, and reports the change
    /// against the last step. Runs after the bodies moved and before the
    /// broadphase re-fattens their boxes, so the fat boxes still cover the
    /// step's motion as it was predicted.
    pub(super) fn update_sensors(&mut self) {
        if self.sensors.count() == 0 {
            return;
        }
        let mut scratch = std::mem::take(&mut self.scratch.sensors);
        for k in 0..self.sensors.slot_count() as u32 {
            if self.sensors.is_alive(k) {
                self.update_sensor(k, &mut scratch);
            }
        }
        self.scratch.sensors = scratch;
    }

    /// Updates sensor `k`'s overlaps and reports the change.
    fn update_sensor(&mut self, k: u32, scratch: &mut SensorScratch) {
        let si = self.sensors[k].shape;
        let sensor = &self.shapes[si];
        if !sensor.def.sensor_events {
            return;
        }
        // A disabled sensor sees nothing: its visitors leave.
        let disabled = self.bodies[sensor.body].disabled;
        let sensor_sweep = self.sweep_of(sensor.body);
        let moved = |sweep: (Transform, Transform)| sweep.0 != sweep.1;
        let swept_box = sensor
            .shape
            .aabb(sensor_sweep.0)
            .union(sensor.shape.aabb(sensor_sweep.1));
        scratch.candidates.clear();
        if !disabled {
            self.broadphase.query(swept_box, |proxy| {
                scratch.candidates.push(self.broadphase.user_data(proxy));
                true
            });
        }
        scratch.found.clear();
        scratch.crossed.clear();
        let previous = &self.sensors[k].overlaps;
        for &vi in &scratch.candidates {
            let visitor = &self.shapes[vi];
            if !self.may_visit(sensor, visitor) {
                continue;
            }
            let id = self.shape_id(vi);
            let visitor_sweep = self.sweep_of(visitor.body);
            let end_distance =
                shape_distance(&sensor.shape, &sensor_sweep.1, &visitor.shape, &visitor_sweep.1).distance;
            if end_distance < 0.0 {
                scratch.found.push(id);
            } else if (moved(sensor_sweep) || moved(visitor_sweep))
                && previous.binary_search(&id).is_err()
                && crosses((&sensor.shape, sensor_sweep), (&visitor.shape, visitor_sweep))
            {
                // Outside before and after, inside in between.
                scratch.crossed.push(id);
            }
        }
        scratch.found.sort_unstable();
        scratch.crossed.sort_unstable();
        let sensor_id = self.shape_id(si);
        let sensor_body = self.body_id(sensor.body);
        let event = |visitor: ShapeId| SensorOverlap {
            sensor: sensor_id,
            sensor_body,
            visitor,
        };
        let events = &mut self.sensor_events;
        // Both lists sorted: one merge finds who left and who came.
        let (old, new) = (&self.sensors[k].overlaps, &scratch.found);
        let (mut i, mut j) = (0, 0);
        loop {
            match (old.get(i), new.get(j)) {
                (None, None) => break,
                (Some(a), Some(b)) if a == b => {
                    i += 1;
                    j += 1;
                }
                (Some(&a), Some(&b)) if a < b => {
                    events.end.push(event(a));
                    i += 1;
                }
                (Some(&a), None) => {
                    events.end.push(event(a));
                    i += 1;
                }
                (_, Some(&b)) => {
                    events.begin.push(event(b));
                    j += 1;
                }
            }
        }
        for &crossed in &scratch.crossed {
            events.begin.push(event(crossed));
            events.end.push(event(crossed));
        }
        let overlaps = &mut self.sensors[k].overlaps;
        overlaps.clear();
        overlaps.extend_from_slice(&scratch.found);
    }

    /// Whether shape `visitor` is one `sensor` reports: on another body,
    /// not a sensor itself, seen by sensors, passing the filters, and not
    /// static unless the sensor asks for static shapes.
    fn may_visit(&self, sensor: &ShapeSlot, visitor: &ShapeSlot) -> bool {
        visitor.body != sensor.body
            && !visitor.def.sensor
            && visitor.def.sensor_events
            && sensor.def.filter.should_collide(&visitor.def.filter)
            && (sensor.def.sensor_detects_static || self.bodies[visitor.body].body_type != BodyType::Static)
    }
}

/// Whether a visitor outside a sensor at both ends of a step overlapped
/// it in between: the sweep reaches touching, and if it starts touching
/// (the last step ended exactly face on face, and reported the end
/// then), it moves the two together, not apart. A sweep that starts
/// touching and leaves never overlaps, and counting it as a crossing
/// reported a box leaving a sensor twice. (The start's normal and the
/// centroids' travel decide it; a turn is neglected.)
fn crosses(
    (sensor, sensor_sweep): (&Shape, (Transform, Transform)),
    (visitor, visitor_sweep): (&Shape, (Transform, Transform)),
) -> bool {
    match time_of_impact(sensor, sensor_sweep, visitor, visitor_sweep, 0.0) {
        None => false,
        Some(t) if t > 0.0 => true,
        Some(_) => {
            let start = shape_distance(sensor, &sensor_sweep.0, visitor, &visitor_sweep.0);
            if start.distance < 0.0 {
                // Overlapping unreported at the start (placed there since
                // the last step), outside at the end: it was inside.
                return true;
            }
            let travel = |shape: &Shape, (from, to): (Transform, Transform)| {
                to.apply(shape.centroid()) - from.apply(shape.centroid())
            };
            let closing = (travel(visitor, visitor_sweep) - travel(sensor, sensor_sweep)).dot(start.normal);
            closing < 0.0
        }
    }
}
