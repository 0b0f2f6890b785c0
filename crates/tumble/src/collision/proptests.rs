//! Property tests of the narrowphase.
