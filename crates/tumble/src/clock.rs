//! [`Stopwatch`]: the clock the step times its stages with.

/// A clock that reads milliseconds since it was started, or zero where
/// there is no clock or it was started off (then it reads no clock at
/// all).
pub(crate) struct Stopwatch {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    start: Option<std::time::Instant>,
}

impl Stopwatch {
    /// Starts now, if `on`.
    #[inline]
    pub(crate) fn start(on: bool) -> Stopwatch {
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        let _ = on;
        Stopwatch {
            #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
            start: on.then(std::time::Instant::now),
        }
    }

    /// Milliseconds since the last lap (or the start), and restarts.
    #[inline]
    pub(crate) fn lap(&mut self) -> f32 {
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        {
            let Some(start) = self.start else {
                return 0.0;
            };
            let now = std::time::Instant::now();
            self.start = Some(now);
            (now - start).as_secs_f32() * 1e3
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
