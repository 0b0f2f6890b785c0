//! The joint API: create, remove, read and change joints.
//!
//! A joint between two non-static bodies links their islands, so the two
//! sleep and wake together; creating one wakes a sleeping body if the
//! other is awake, and removing one wakes both. Unless
//! [`JointDef::collide_connected`] is set, the two bodies stop colliding:
//! their contacts are destroyed when the joint is made, and found again by
//! the next step once it is removed.

use super::checks::{check_frames, finite_frame};
use super::{BodyId, JointId, World};
use crate::body::edges;
use crate::body::BodyType;
use crate::error::JointError;
use crate::island;
use crate::joint::{body_joints, DistanceJoint, Joint, JointKind, PrismaticJoint, RevoluteJoint};
use crate::math::{Transform, Vec2};

/// Everything needed to create a joint: the two bodies, a frame on each
/// (in that body's own coordinates, about its origin) and what the joint
/// holds between them.
///
/// ```
/// # use tumble::{BodyDef, JointDef, RevoluteJoint, Vec2, World};
/// let mut world = World::default();
/// let ground = world.create_body(&BodyDef::static_body()).unwrap();
/// let bob = world.create_body(&BodyDef::dynamic().at(Vec2::new(1.0, 0.0))).unwrap();
/// // A hinge where the two meet now: at the origin.
/// let def = JointDef::new(ground, bob, RevoluteJoint::default())
///     .at(&world, Vec2::ZERO)
///     .unwrap();
/// world.create_joint(&def).unwrap();
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointDef {
    /// Body A.
    pub body_a: BodyId,
    /// Body B.
    pub body_b: BodyId,
    /// The joint frame on body A, in A's coordinates.
    pub frame_a: Transform,
    /// The joint frame on body B, in B's coordinates.
    pub frame_b: Transform,
    /// What the joint holds.
    pub kind: JointKind,
    /// Whether the two bodies still collide with each other (off by
    /// default: a hinged limb does not catch on its neighbour).
    pub collide_connected: bool,
    /// A value of the user's, returned by [`World::joint_user_data`].
    pub user_data: u64,
}

impl JointDef {
    /// A joint of `kind` between `body_a` and `body_b` with both frames at
    /// the bodies' origins; place them with [`JointDef::at`] or set them.
    pub fn new(body_a: BodyId, body_b: BodyId, kind: impl Into<JointKind>) -> JointDef {
        JointDef {
            body_a,
            body_b,
            frame_a: Transform::IDENTITY,
            frame_b: Transform::IDENTITY,
            kind: kind.into(),
            collide_connected: false,
            user_data: 0,
        }
    }

    /// The same joint with both frames at `anchor` (world coordinates)
    /// where the bodies are now, their x axes along the world's.
    pub fn at(self, world: &World, anchor: Vec2) -> Result<JointDef, JointError> {
        self.at_frame(world, Transform::new(anchor, 0.0))
    }

    /// The same joint with both frames at `frame` (world coordinates)
    /// where the bodies are now: the frame's x axis is a slider's or a
    /// wheel's axis.
    pub fn at_frame(self, world: &World, frame: Transform) -> Result<JointDef, JointError> {
        Ok(JointDef {
            frame_a: world.frame_on(self.body_a, frame)?,
            frame_b: world.frame_on(self.body_b, frame)?,
            ..self
        })
    }

    /// The same joint with both frames at `anchor` (world coordinates)
    /// where the bodies are now, their x axes along `axis`: a slider's
    /// travel, or a wheel's suspension (pointing up from the wheel
    /// towards the chassis, say). Errors with [`JointError::OutOfRange`]
    /// for an axis of zero length or not finite.
    ///
    /// ```
    /// # use tumble::{BodyDef, Circle, JointDef, Polygon, ShapeDef, Vec2, WheelJoint, World};
    /// let mut world = World::default();
    /// let chassis = world.create_body(&BodyDef::dynamic().at(Vec2::new(0.0, 1.0))).unwrap();
    /// world.create_shape(chassis, Polygon::new_box(1.0, 0.25).unwrap(), &ShapeDef::default()).unwrap();
    /// let wheel = world.create_body(&BodyDef::dynamic().at(Vec2::new(0.8, 0.5))).unwrap();
    /// world.create_shape(wheel, Circle::new(Vec2::ZERO, 0.3).unwrap(), &ShapeDef::default()).unwrap();
    /// // A suspension along the world's y, the wheel driven clockwise: forward, towards +x.
    /// let drive = WheelJoint::default().with_motor(-10.0, 50.0);
    /// let def = JointDef::new(chassis, wheel, drive)
    ///     .along(&world, Vec2::new(0.8, 0.5), Vec2::Y)
    ///     .unwrap();
    /// world.create_joint(&def).unwrap();
    /// ```
    pub fn along(self, world: &World, anchor: Vec2, axis: Vec2) -> Result<JointDef, JointError> {
        let length = axis.length();
        if !(length.is_finite() && length > 0.0) {
            return Err(JointError::OutOfRange("axis (finite, not zero)"));
        }
        self.at_frame(world, Transform::new(anchor, axis.y.atan2(axis.x)))
    }

    /// The same joint with frame A at `anchor_a` and frame B at `anchor_b`
    /// (world coordinates, where the bodies are now), their x axes along
    /// the world's: the two ends of a distance joint.
    pub fn with_world_anchors(
        self,
        world: &World,
        anchor_a: Vec2,
        anchor_b: Vec2,
    ) -> Result<JointDef, JointError> {
        Ok(JointDef {
            frame_a: world.frame_on(self.body_a, Transform::new(anchor_a, 0.0))?,
            frame_b: world.frame_on(self.body_b, Transform::new(anchor_b, 0.0))?,
            ..self
        })
    }

    /// The same joint with frames at `anchor_a` on body A and `anchor_b`
    /// on body B (each in its body's coordinates), unturned.
    pub fn with_local_anchors(self, anchor_a: Vec2, anchor_b: Vec2) -> JointDef {
        JointDef {
            frame_a: Transform::new(anchor_a, 0.0),
            frame_b: Transform::new(anchor_b, 0.0),
            ..self
        }
    }

    /// The same joint with the two bodies still colliding.
    pub fn colliding(self) -> JointDef {
        JointDef {
            collide_connected: true,
            ..self
        }
    }

    /// Checks the numbers: the frames finite, the kind's parameters
    /// ([`JointKind::validate`]).
    pub fn validate(&self) -> Result<(), JointError> {
        check_frames(self.frame_a, self.frame_b)?;
        self.kind.validate()
    }
}

impl World {
    fn joint_index(&self, id: JointId) -> Result<u32, JointError> {
        if self.joints.is_current(id.index, id.generation) {
            Ok(id.index)
        } else {
            Err(JointError::StaleHandle)
        }
    }

    fn joint_body(&self, id: BodyId) -> Result<u32, JointError> {
        self.body_index(id).map_err(|_| JointError::StaleBody)
    }

    /// The frame on body `id`, in its coordinates, that is at world frame
    /// `frame` now.
    fn frame_on(&self, id: BodyId, frame: Transform) -> Result<Transform, JointError> {
        let bi = self.joint_body(id)?;
        if !finite_frame(&frame) {
            return Err(JointError::NonFinite("anchor"));
        }
        Ok(self.bodies[bi].xf.inv_mul(frame))
    }

    /// Creates a joint. Errors: a removed body ([`JointError::StaleBody`]),
    /// the same body at both ends, neither body dynamic
    /// ([`JointError::NoDynamicBody`]: a joint between static or
    /// kinematic bodies could move nothing, so asking for one is a
    /// mistake; Box2D accepts it and never solves it), a number that is NaN or infinite, limits
    /// in the wrong order, a negative stiffness, damping ratio, largest
    /// force or torque, or a length out of range; the world is then
    /// unchanged.
    ///
    /// A joint between two non-static bodies (other than a filter joint)
    /// links their islands, waking a sleeping one if the other is awake.
    /// Unless `collide_connected`, the contacts between the two bodies are
    /// destroyed (their ends reported with the next step's events).
    pub fn create_joint(&mut self, def: &JointDef) -> Result<JointId, JointError> {
        let (a, b) = (self.joint_body(def.body_a)?, self.joint_body(def.body_b)?);
        if a == b {
            return Err(JointError::SameBody);
        }
        if self.bodies[a].body_type != BodyType::Dynamic && self.bodies[b].body_type != BodyType::Dynamic {
            return Err(JointError::NoDynamicBody);
        }
        def.validate()?;
        let joint = Joint {
            body_a: a,
            body_b: b,
            frame_a: normalized(def.frame_a),
            frame_b: normalized(def.frame_b),
            kind: def.kind,
            collide_connected: def.collide_connected,
            user_data: def.user_data,
            ..Joint::default()
        };
        let ji = self.joints.insert(joint).index;
        edges::link(&mut self.joints, &mut self.bodies, ji);
        if !def.collide_connected {
            self.destroy_contacts_where(a, |c, _| c.body_a == b || c.body_b == b);
        }
        self.link_joint(ji);
        Ok(self.joints.key(ji).into())
    }

    /// Whether joint `ji` links its bodies' islands: it is solved and
    /// neither body is static.
    fn links_joint_islands(&self, ji: u32) -> bool {
        let j = &self.joints[ji];
        j.is_solved() && self.bodies[j.body_a].in_islands() && self.bodies[j.body_b].in_islands()
    }

    /// Merges the islands joint `ji` links (waking the sleeping side if the
    /// other is awake) and puts the joint in the awake set if a body of it
    /// is simulated.
    pub(super) fn link_joint(&mut self, ji: u32) {
        let (a, b) = (self.joints[ji].body_a, self.joints[ji].body_b);
        if self.links_joint_islands(ji) {
            if self.simulates(a) || self.simulates(b) {
                self.ensure_awake(a);
                self.ensure_awake(b);
            }
            let (ia, ib) = (self.bodies[a].island, self.bodies[b].island);
            if let Some(gone) = island::merge(&mut self.islands, &mut self.bodies, ia, ib) {
                self.awake.islands.remove(gone);
            }
        }
        self.refresh_awake_joint(ji);
    }

    /// Puts joint `ji` in the awake set if either body is simulated, or
    /// takes it out.
    pub(super) fn refresh_awake_joint(&mut self, ji: u32) {
        let j = &self.joints[ji];
        let idle = self.bodies[j.body_a].disabled || self.bodies[j.body_b].disabled;
        if !idle && (self.simulates(j.body_a) || self.simulates(j.body_b)) {
            self.awake.joints.insert(ji);
        } else {
            self.awake.joints.remove(ji);
        }
    }

    /// Counts joint `ji` as a removal in the island it linked, if any: the
    /// island may have come apart and is checked before it sleeps.
    pub(super) fn unlink_joint_from_island(&mut self, ji: u32) {
        if self.links_joint_islands(ji) {
            let island = self.bodies[self.joints[ji].body_a].island;
            self.islands[island].constraint_remove_count += 1;
        }
    }

    /// Removes a joint; both its bodies wake. Its handle becomes stale.
    /// Bodies it kept from colliding collide again from the next step.
    pub fn remove_joint(&mut self, id: JointId) -> Result<(), JointError> {
        let ji = self.joint_index(id)?;
        self.destroy_joint(ji);
        Ok(())
    }

    /// Destroys joint `ji`: off its bodies' lists, its island and the
    /// awake set; both bodies wake, and their shapes look for pairs again
    /// if the joint kept them apart.
    pub(super) fn destroy_joint(&mut self, ji: u32) {
        let (a, b) = (self.joints[ji].body_a, self.joints[ji].body_b);
        self.unlink_joint_from_island(ji);
        if !self.joints[ji].collide_connected {
            for bi in [a, b] {
                for k in 0..self.bodies[bi].shapes.len() {
                    let si = self.bodies[bi].shapes[k];
                    self.touch_shape(si);
                }
            }
        }
        edges::unlink(&mut self.joints, &mut self.bodies, ji);
        self.awake.joints.remove(ji);
        self.joints.remove(ji);
        self.wake_body(a);
        self.wake_body(b);
    }

    /// Destroys every joint of body `bi`, in slot order.
    pub(super) fn destroy_joints_of_body(&mut self, bi: u32) {
        let mut doomed = std::mem::take(&mut self.scratch.doomed);
        doomed.clear();
        doomed.extend(body_joints(&self.joints, &self.bodies[bi]).map(|(ji, _)| ji));
        doomed.sort_unstable();
        for &ji in &doomed {
            self.destroy_joint(ji);
        }
        doomed.clear();
        self.scratch.doomed = doomed;
    }

    /// True when the handle refers to a live joint.
    pub fn contains_joint(&self, id: JointId) -> bool {
        self.joint_index(id).is_ok()
    }

    /// Number of live joints: O(1).
    pub fn joint_count(&self) -> usize {
        self.joints.count()
    }

    /// Handles of all live joints, in slot order.
    pub fn joints(&self) -> impl Iterator<Item = JointId> + '_ {
        self.joints.iter().map(|(i, _)| self.joints.key(i).into())
    }

    /// The joints on a body, most recent first.
    pub fn body_joints(&self, id: BodyId) -> Result<Vec<JointId>, JointError> {
        let bi = self.joint_body(id)?;
        Ok(body_joints(&self.joints, &self.bodies[bi])
            .map(|(ji, _)| self.joints.key(ji).into())
            .collect())
    }

    /// The joint's two bodies, A then B.
    pub fn joint_bodies(&self, id: JointId) -> Result<(BodyId, BodyId), JointError> {
        let j = &self.joints[self.joint_index(id)?];
        Ok((self.body_id(j.body_a), self.body_id(j.body_b)))
    }

    /// The joint's kind with its parameters.
    pub fn joint_kind(&self, id: JointId) -> Result<JointKind, JointError> {
        Ok(self.joints[self.joint_index(id)?].kind)
    }

    /// Replaces the joint's parameters (a motor's speed, a spring's
    /// stiffness, limits) with those of `kind`, which must be the same kind
    /// ([`JointError::WrongKind`] otherwise) and valid; the bodies wake.
    pub fn set_joint_kind(&mut self, id: JointId, kind: impl Into<JointKind>) -> Result<(), JointError> {
        let ji = self.joint_index(id)?;
        let kind = kind.into();
        if std::mem::discriminant(&kind) != std::mem::discriminant(&self.joints[ji].kind) {
            return Err(JointError::WrongKind("a joint's kind cannot change"));
        }
        kind.validate()?;
        self.joints[ji].kind = kind;
        let (a, b) = (self.joints[ji].body_a, self.joints[ji].body_b);
        self.wake_body(a);
        self.wake_body(b);
        Ok(())
    }

    /// Sets the target speed of the joint's motor (rad/s for a revolute or
    /// wheel joint, m/s for a prismatic or distance joint), waking the
    /// bodies. The joint must be of a kind that has a motor
    /// ([`JointError::WrongKind`]) and its motor must be on
    /// ([`JointError::MotorOff`]): a speed given to a motor that is off
    /// would do nothing, silently. To set the speed and turn the motor on
    /// at once, give [`World::set_joint_kind`] both. (Box2D stores the
    /// speed either way; the error here catches a motor forgotten off.)
    pub fn set_motor_speed(&mut self, id: JointId, speed: f32) -> Result<(), JointError> {
        let mut kind = self.joint_kind(id)?;
        kind.set_motor_speed(speed)?;
        self.set_joint_kind(id, kind)
    }

    /// The joint's frames on body A and body B, each in its body's
    /// coordinates.
    pub fn joint_frames(&self, id: JointId) -> Result<(Transform, Transform), JointError> {
        let j = &self.joints[self.joint_index(id)?];
        Ok((j.frame_a, j.frame_b))
    }

    /// Moves the joint's frames (each in its body's coordinates): a motor
    /// joint's target, say. The bodies wake; the warm start is kept.
    pub fn set_joint_frames(
        &mut self,
        id: JointId,
        frame_a: Transform,
        frame_b: Transform,
    ) -> Result<(), JointError> {
        let ji = self.joint_index(id)?;
        check_frames(frame_a, frame_b)?;
        let j = &mut self.joints[ji];
        j.frame_a = normalized(frame_a);
        j.frame_b = normalized(frame_b);
        let (a, b) = (j.body_a, j.body_b);
        self.wake_body(a);
        self.wake_body(b);
        Ok(())
    }

    /// The joint's frames in world coordinates now: A's, then B's.
    pub fn joint_world_frames(&self, id: JointId) -> Result<(Transform, Transform), JointError> {
        let j = &self.joints[self.joint_index(id)?];
        Ok((
            self.bodies[j.body_a].xf * j.frame_a,
            self.bodies[j.body_b].xf * j.frame_b,
        ))
    }

    /// Frame B's angle less frame A's now, radians in `-pi..=pi`: a
    /// revolute joint's angle.
    pub fn joint_angle(&self, id: JointId) -> Result<f32, JointError> {
        let (fa, fb) = self.joint_world_frames(id)?;
        Ok(RevoluteJoint::angle(fa, fb))
    }

    /// How far frame B's origin is along frame A's x axis from frame A's
    /// origin now: a prismatic or wheel joint's translation.
    pub fn joint_translation(&self, id: JointId) -> Result<f32, JointError> {
        let (fa, fb) = self.joint_world_frames(id)?;
        Ok(PrismaticJoint::translation(fa, fb))
    }

    /// The distance between the two frames' origins now: a distance
    /// joint's length (and a hinge's gap).
    pub fn joint_length(&self, id: JointId) -> Result<f32, JointError> {
        let (fa, fb) = self.joint_world_frames(id)?;
        Ok(DistanceJoint::length(fa, fb))
    }

    /// The force (N, world axes) the joint applied to body B over the last
    /// step it was solved in (body A got the opposite), with its torque
    /// (N m): what a breakable joint compares with its strength.
    pub fn joint_reaction(&self, id: JointId) -> Result<(Vec2, f32), JointError> {
        let j = &self.joints[self.joint_index(id)?];
        Ok((j.reaction_force, j.reaction_torque))
    }

    /// The impulse the joint's motor applied over the last step (N s, or
    /// N m s for a turning motor; zero without a motor).
    pub fn joint_motor_impulse(&self, id: JointId) -> Result<f32, JointError> {
        Ok(self.joints[self.joint_index(id)?].motor_impulse)
    }

    /// The user data of the joint's definition.
    pub fn joint_user_data(&self, id: JointId) -> Result<u64, JointError> {
        Ok(self.joints[self.joint_index(id)?].user_data)
    }

    /// Whether the joint's two bodies collide with each other.
    pub fn joint_collide_connected(&self, id: JointId) -> Result<bool, JointError> {
        Ok(self.joints[self.joint_index(id)?].collide_connected)
    }
}

/// `frame` with its rotation of unit length (a user's hand-built one may
/// be off).
fn normalized(frame: Transform) -> Transform {
    let (c, s) = (frame.q.c, frame.q.s);
    let mag = (c * c + s * s).sqrt();
    if mag > 0.0 {
        Transform {
            p: frame.p,
            q: crate::math::Rot {
                c: c / mag,
                s: s / mag,
            },
        }
    } else {
        Transform {
            p: frame.p,
            q: crate::math::Rot::IDENTITY,
        }
    }
}
