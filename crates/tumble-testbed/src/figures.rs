//! The figures a scene is judged by, beside the stacking metrics that mean
//! nothing for it: the ramp's slide distances against Coulomb's law, the
//! bounce heights against `e^2 h`.

use tumble::Vec2;
use tumble_scenes::{
    ramp_analytic_distance, Scene, SceneName, BOUNCE_DROP_HEIGHT, BOUNCE_RADIUS, BOUNCE_RESTITUTIONS, DT,
    RAMP_ANGLE, RAMP_FRICTIONS,
};

/// A scene's own figures, followed step by step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SceneFigures {
    /// Per bounce circle: whether it has hit the ground, and the highest
    /// its lowest point rose after that first bounce.
    bounced: Vec<(bool, f32)>,
}

impl SceneFigures {
    /// Follows one more step of `scene`.
    pub fn record(&mut self, scene: &Scene) {
        if scene.name != SceneName::Bounce {
            return;
        }
        self.bounced.resize(scene.tracked.len(), (false, 0.0));
        for (state, &body) in self.bounced.iter_mut().zip(&scene.tracked) {
            let (Ok(p), Ok(v)) = (scene.world.position(body), scene.world.linear_velocity(body)) else {
                continue;
            };
            let height = p.y - BOUNCE_RADIUS;
            // Landed: low, and no longer falling (a circle that does not
            // bounce comes to rest, perhaps never rising at all).
            if !state.0 && height < 0.5 * BOUNCE_DROP_HEIGHT && v.y > -0.05 {
                state.0 = true;
            }
            if state.0 {
                state.1 = state.1.max(height);
            }
        }
    }

    /// The rows to show for `scene` after `steps` steps, `(label, value)`;
    /// empty for scenes the stacking metrics suit.
    pub fn rows(&self, scene: &Scene, steps: u64) -> Vec<(String, String)> {
        match scene.name {
            SceneName::Ramp => {
                let along = Vec2::new(RAMP_ANGLE.cos(), RAMP_ANGLE.sin());
                let t = steps as f32 * DT;
                scene
                    .tracked
                    .iter()
                    .zip(&scene.start)
                    .zip(RAMP_FRICTIONS)
                    .map(|((&body, &start), mu)| {
                        let slid = scene
                            .world
                            .center_of_mass(body)
                            .map_or(0.0, |p| -(p - start).dot(along));
                        let coulomb = ramp_analytic_distance(mu, t);
                        (
                            format!("slide, mu {mu}"),
                            format!("{slid:.3} m (Coulomb {coulomb:.3})"),
                        )
                    })
                    .collect()
            }
            SceneName::Bounce => BOUNCE_RESTITUTIONS
                .iter()
                .zip(&self.bounced)
                .map(|(&e, &(bounced, apex))| {
                    let ideal = e * e * BOUNCE_DROP_HEIGHT;
                    let got = if bounced {
                        format!("{apex:.3} m")
                    } else {
                        "-".to_string()
                    };
                    (format!("bounce, e {e}"), format!("{got} (e² h {ideal:.3})"))
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tumble_scenes::build;

    #[test]
    fn the_bounce_figures_follow_e_squared_h() {
        let mut scene = build(SceneName::Bounce, tumble::SolverSettings::default());
        let mut figures = SceneFigures::default();
        for _ in 0..150 {
            scene.world.step(DT);
            figures.record(&scene);
        }
        for (&e, &(bounced, apex)) in BOUNCE_RESTITUTIONS.iter().zip(&figures.bounced) {
            assert!(bounced, "every circle hit the ground");
            let ideal = e * e * BOUNCE_DROP_HEIGHT;
            assert!(
                (apex - ideal).abs() < 0.05 * BOUNCE_DROP_HEIGHT,
                "e {e}: {apex} against {ideal}"
            );
        }
        let rows = figures.rows(&scene, 150);
        assert_eq!(rows.len(), BOUNCE_RESTITUTIONS.len());
        assert!(
            rows[2].0.contains("0.5") && rows[2].1.contains("1.250"),
            "{rows:?}"
        );
    }

    #[test]
    fn the_ramp_figures_follow_coulomb() {
        let mut scene = build(SceneName::Ramp, tumble::SolverSettings::default());
        for _ in 0..60 {
            scene.world.step(DT);
        }
        let rows = SceneFigures::default().rows(&scene, 60);
        assert_eq!(rows.len(), RAMP_FRICTIONS.len());
        for ((label, value), mu) in rows.iter().zip(RAMP_FRICTIONS) {
            assert!(label.contains(&mu.to_string()));
            let slid: f32 = value.split(' ').next().unwrap().parse().unwrap();
            let coulomb = ramp_analytic_distance(mu, 1.0);
            assert!(
                (slid - coulomb).abs() < 0.05 + 0.03 * coulomb,
                "mu {mu}: {slid} against {coulomb}"
            );
        }
        assert!(SceneFigures::default()
            .rows(&build(SceneName::Pyramid, Default::default()), 0)
            .is_empty());
    }
}
