//! Handles: small `Copy` values naming a body, shape or joint of a
//! [`World`](crate::World). Each is a slot index plus the slot's
//! generation, so a handle to a removed object is detected (a stale-handle
//! error) even after its slot is reused, never taken for another object.

use crate::store::Key;

/// A handle to a body: a slot index plus the slot's generation, so a handle
/// to a removed body is detected ([`BodyError::StaleHandle`](crate::BodyError::StaleHandle)) even after its
/// slot is reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl BodyId {
    /// The slot index (stable while the body lives; reused after removal).
    pub fn index(self) -> u32 {
        self.index
    }
}

impl From<Key> for BodyId {
    fn from(k: Key) -> BodyId {
        BodyId {
            index: k.index,
            generation: k.generation,
        }
    }
}

/// A handle to a shape, like [`BodyId`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl ShapeId {
    /// The slot index.
    pub fn index(self) -> u32 {
        self.index
    }
}

impl From<Key> for ShapeId {
    fn from(k: Key) -> ShapeId {
        ShapeId {
            index: k.index,
            generation: k.generation,
        }
    }
}

/// A handle to a joint, like [`BodyId`]: a handle to a removed joint is
/// detected ([`JointError::StaleHandle`](crate::JointError::StaleHandle)) even after its slot is reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl JointId {
    /// The slot index (stable while the joint lives; reused after removal).
    pub fn index(self) -> u32 {
        self.index
    }
}

impl From<Key> for JointId {
    fn from(k: Key) -> JointId {
        JointId {
            index: k.index,
            generation: k.generation,
        }
    }
}
