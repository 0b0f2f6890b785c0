//! [`Stopwatch`]: the clock the step times its stages with.

/// A clock that reads milliseconds since it was started, or zero where
/// there is no clock.
pub(crate) struct Stopwatch {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    start: std::time::Instant,
}

impl Stopwatch {
    /// Starts now.
    #[inline]
    pub(crate) fn start() -> Stopwatch {
        Stopwatch {
            #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
            start: std::time::Instant::now(),
        }
    }

    /// Milliseconds since the last lap (or the start), and restarts.
    #[inline]
    pub(crate) fn lap(&mut self) -> f32 {
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        {
            let now = std::time::Instant::now();
            let ms = (now - self.start).as_secs_f32() * 1e3;
            self.start = now;
            ms
        }
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        {
            0.0
        }
    }
}

impl Stopwatch {
    /// Runs `stage` and adds the milliseconds since the last lap (so the
    /// stage's own time, when the laps follow one another) to `ms`: one
    /// clock read a stage.
    #[inline(always)]
    pub(crate) fn time<R>(&mut self, ms: &mut f32, stage: impl FnOnce() -> R) -> R {
        let out = stage();
        *ms += self.lap();
        out
    }
}
