//! Drops a 1 m box onto the ground and prints its height every 10 steps.
//! It comes to rest at y = 0.5 (its half-height) within 0.01 m.
//!
//! Run: `cargo run --release -p tumble --example hello`

use tumble::{BodyDef, Polygon, ShapeDef, Vec2, World};

fn main() -> Result<(), tumble::Error> {
    let mut world = World::default(); // gravity (0, -10)

    // The ground: a static box whose top face is y = 0.
    let ground = world.create_body(&BodyDef::static_body().at(Vec2::new(0.0, -1.0)))?;
    world.create_shape(ground, Polygon::new_box(50.0, 1.0)?, &ShapeDef::default())?;

    // A 1 m box dropped from 4 m.
    let body = world.create_body(&BodyDef::dynamic().at(Vec2::new(0.0, 4.0)))?;
    world.create_shape(body, Polygon::new_box(0.5, 0.5)?, &ShapeDef::default())?;

    for step in 0..=120 {
        if step % 10 == 0 {
            let y = world.position(body)?.y;
            println!("step {step:3}: y = {y:.4}");
        }
        world.step(1.0 / 60.0);
    }
    let y = world.position(body)?.y;
    println!("at rest: y = {y:.4} (expected 0.5)");
    Ok(())
}
