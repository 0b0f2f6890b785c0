//! The checks a kind's `validate` runs on its parameters, each naming the
//! first number that fails it.

use crate::error::JointError;

/// Each number of `values` is finite, or the error names the first that
/// is not.
pub(super) fn check_finite(values: &[(f32, &'static str)]) -> Result<(), JointError> {
    match values.iter().find(|(v, _)| !v.is_finite()) {
        Some(&(_, what)) => Err(JointError::NonFinite(what)),
        None => Ok(()),
    }
}

/// `lower` is not above `upper`.
pub(super) fn check_limits(lower: f32, upper: f32, what: &'static str) -> Result<(), JointError> {
    if lower > upper {
        Err(JointError::InvertedLimits(what))
    } else {
        Ok(())
    }
}

/// `value` is not negative.
pub(super) fn check_non_negative(value: f32, what: &'static str) -> Result<(), JointError> {
    if value < 0.0 {
        Err(JointError::Negative(what))
    } else {
        Ok(())
    }
}

/// A spring's stiffness and damping ratio are not negative.
pub(super) fn check_spring(hertz: f32, damping_ratio: f32) -> Result<(), JointError> {
    check_non_negative(hertz, "spring hertz")?;
    check_non_negative(damping_ratio, "spring damping ratio")
}
