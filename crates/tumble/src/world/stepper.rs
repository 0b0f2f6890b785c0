//! [`FixedStepper`]: a fixed physics rate under a variable frame rate.

use crate::error::BodyError;

/// Steps a world at a fixed rate from a variable frame rate: frame time
/// accumulates and whole steps are taken, at most `max_steps` per frame so a
/// long frame (a breakpoint, a dragged window) does not cause a spiral of
/// catch-up steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixedStepper {
    /// The fixed step, seconds.
    pub dt: f32,
    /// Most steps taken in one `advance`; extra time is dropped.
    pub max_steps: u32,
    accumulator: f32,
}

impl FixedStepper {
    /// A stepper at `hz` steps per second, at most `max_steps` per frame.
    ///
    /// A rate that gives no usable step (zero, negative, NaN, infinite, or
    /// so small that `1 / hz` overflows) falls back to 60 Hz, and
    /// `max_steps` of zero counts as one; [`FixedStepper::try_new`] reports
    /// the bad rate instead.
    pub fn new(hz: f32, max_steps: u32) -> FixedStepper {
        let usable = |dt: &f32| dt.is_finite() && *dt > 0.0;
        let dt = Some(1.0 / hz).filter(usable).unwrap_or(1.0 / 60.0);
        FixedStepper {
            dt,
            max_steps: max_steps.max(1),
            accumulator: 0.0,
        }
    }

    /// A stepper at `hz` steps per second, at most `max_steps` per frame;
    /// an error names a rate that is not a positive finite number with a
    /// finite step, or a `max_steps` of zero.
    pub fn try_new(hz: f32, max_steps: u32) -> Result<FixedStepper, BodyError> {
        if !hz.is_finite() || !(1.0 / hz).is_finite() {
            return Err(BodyError::NonFinite("step rate"));
        }
        if hz <= 0.0 {
            return Err(BodyError::OutOfRange("step rate"));
        }
        if max_steps == 0 {
            return Err(BodyError::OutOfRange("max steps"));
        }
        Ok(FixedStepper::new(hz, max_steps))
    }

    /// Adds `frame_time` seconds and takes as many whole steps as fit
    /// (calling `step` for each); returns the number of steps taken. If
    /// `dt` (a public field) was set to zero, a negative or a non-finite
    /// value, nothing is stepped.
    pub fn advance(&mut self, frame_time: f32, mut step: impl FnMut(f32)) -> u32 {
        if !(self.dt > 0.0 && self.dt.is_finite()) {
            return 0;
        }
        if frame_time.is_finite() && frame_time > 0.0 {
            self.accumulator += frame_time;
        }
        let mut steps = 0;
        while self.accumulator >= self.dt && steps < self.max_steps {
            step(self.dt);
            self.accumulator -= self.dt;
            steps += 1;
        }
        if steps == self.max_steps && self.accumulator >= self.dt {
            // Clamp: drop what could not be simulated in time.
            self.accumulator = 0.0;
        }
        steps
    }

    /// The fraction of a step left in the accumulator, for interpolating
    /// the drawing between two steps.
    pub fn alpha(&self) -> f32 {
        self.accumulator / self.dt
    }
}
