//! The step allocates nothing once a scene has settled: every buffer is
//! reused (DESIGN.md: no allocation in the steady-state step).
//!
//! A counting global allocator wraps the system one for this test binary,
//! counting per thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use tumble::{BodyDef, Polygon, ShapeDef, Vec2, World, WorldSettings};

struct Counting;

thread_local! {
    /// Allocations made by this thread: each test counts its own, whatever
    /// the tests running beside it on other threads do. (A `const` thread
    /// local with no destructor: reading it never allocates.)
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// Allocations this thread has made so far.
fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// Allocations made by every thread of the process (the step's worker
/// threads included).
static ALL_THREADS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Held by the test that counts [`ALL_THREADS`], so that no other test of
/// this binary allocates meanwhile.
static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn count_one() {
    ALLOCATIONS.with(|c| c.set(c.get() + 1));
    ALL_THREADS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// wrapper only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: the caller's contract for `realloc` is passed on as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A 10-row pyramid of boxes on the ground.
fn pyramid(sleeping: bool) -> World {
    pyramid_of(
        10,
        WorldSettings {
            sleeping,
            ..WorldSettings::default()
        },
    )
}

/// A pyramid of `rows` rows of boxes on the ground.
fn pyramid_of(rows: usize, settings: WorldSettings) -> World {
    let mut world = World::new(settings);
    let ground = world
        .create_body(&BodyDef::static_body().at(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_shape(ground, Polygon::new_box(50.0, 1.0).unwrap(), &ShapeDef::default())
        .unwrap();
    for r in 0..rows {
        for i in 0..rows - r {
            let x = (i as f32 - 0.5 * (rows - r - 1) as f32) * 1.05;
            let b = world
                .create_body(&BodyDef::dynamic().at(Vec2::new(x, 0.5 + r as f32)))
                .unwrap();
            world
                .create_shape(b, Polygon::new_box(0.5, 0.5).unwrap(), &ShapeDef::default())
                .unwrap();
        }
    }
    world
}

#[test]
fn a_settled_pyramid_steps_without_allocating() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let mut world = pyramid(false);
    for _ in 0..120 {
        world.step(1.0 / 60.0);
    }
    let before = allocations();
    for _ in 0..60 {
        world.step(1.0 / 60.0);
    }
    let during = allocations() - before;
    assert_eq!(during, 0, "{during} allocations in 60 settled steps");
}

#[test]
fn a_swinging_chain_and_a_welded_beam_step_without_allocating() {
    use tumble::{Circle, DistanceJoint, JointDef, RevoluteJoint, WeldJoint};
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let mut world = pyramid(false);
    let anchor = world.create_body(&BodyDef::static_body()).unwrap();
    let mut prev = anchor;
    for k in 0..20 {
        let at = Vec2::new(10.0 + k as f32 * 0.5, 15.0);
        let link = world.create_body(&BodyDef::dynamic().at(at)).unwrap();
        let ball = Circle::new(Vec2::ZERO, 0.2).unwrap();
        world.create_shape(link, ball, &ShapeDef::default()).unwrap();
        let kind = if k % 2 == 0 {
            tumble::JointKind::from(RevoluteJoint::default().with_limits(-1.0, 1.0))
        } else {
            WeldJoint::soft(3.0, 0.5).into()
        };
        let def = JointDef::new(prev, link, kind)
            .at(&world, at - Vec2::new(0.25, 0.0))
            .unwrap();
        world.create_joint(&def).unwrap();
        prev = link;
    }
    let def = JointDef::new(anchor, prev, DistanceJoint::rope(12.0));
    world.create_joint(&def).unwrap();
    // A heavy ball on the end: its hinge's tree gets the exact solve.
    let end = world.position(prev).unwrap();
    let ball = world
        .create_body(&BodyDef::dynamic().at(end + Vec2::new(0.7, 0.0)))
        .unwrap();
    let heavy = ShapeDef {
        density: 50.0,
        ..ShapeDef::default()
    };
    world
        .create_shape(ball, Circle::new(Vec2::ZERO, 0.5).unwrap(), &heavy)
        .unwrap();
    let def = JointDef::new(prev, ball, RevoluteJoint::default())
        .at(&world, end)
        .unwrap();
    world.create_joint(&def).unwrap();
    for _ in 0..240 {
        world.step(1.0 / 60.0);
    }
    // Still swinging (new contacts come and go): the joint buffers are
    // kept too. A swing may still reach a new high-water mark (more
    // contacts at once than ever before, a new color), and a buffer then
    // grows; but a step that allocates must have grown what the world
    // holds: none frees and allocates again.
    for k in 0..60 {
        let (before, held) = (allocations(), world.memory_usage().total());
        world.step(1.0 / 60.0);
        let (made, now) = (allocations() - before, world.memory_usage().total());
        assert!(
            made == 0 || now > held,
            "step {k}: {made} allocations, but the world holds {now} bytes against {held} before"
        );
    }
}

#[test]
fn falling_asleep_and_waking_up_again_allocates_nothing() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let mut world = pyramid(true);
    let top = world.bodies().last().unwrap();
    // One cycle to grow the buffers: settle and sleep, kicked awake, asleep
    // again.
    let cycle = |world: &mut World| {
        world
            .apply_linear_impulse_to_center(top, Vec2::new(0.0, 2.0))
            .unwrap();
        let mut steps = 0;
        while world.awake_body_count() > 0 {
            world.step(1.0 / 60.0);
            steps += 1;
            assert!(steps < 600, "the pyramid never fell asleep");
        }
        steps
    };
    cycle(&mut world);
    let before = allocations();
    let steps = cycle(&mut world);
    let during = allocations() - before;
    assert_eq!(
        during, 0,
        "{during} allocations waking and sleeping over {steps} steps"
    );
}

#[test]
fn two_workers_step_a_settled_pyramid_allocating_only_rayons_queue_blocks() {
    use tumble::{Coloring, SolverSettings};
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    // Forty rows: enough constraints and bodies for every parallel loop to
    // split between the workers. The soft step, in which forty rows come
    // to rest (no contact begins or ends once settled).
    let settings = WorldSettings {
        sleeping: false,
        workers: 2,
        solver: SolverSettings {
            coloring: Coloring::Bounded,
            position_correction: tumble::PositionCorrection::SoftStep,
            ..SolverSettings::default()
        },
        ..WorldSettings::default()
    };
    let mut world = pyramid_of(40, settings);
    for _ in 0..300 {
        world.step(1.0 / 60.0);
    }
    let before = ALL_THREADS.load(std::sync::atomic::Ordering::Relaxed);
    let steps = 126;
    for _ in 0..steps {
        world.step(1.0 / 60.0);
    }
    let during = ALL_THREADS.load(std::sync::atomic::Ordering::Relaxed) - before;
    // The one allocation left is rayon's, not the step's: handing the
    // step to the pool queues one job, and the pool's queue takes a new
    // block of 63 slots (1.5 KB) every 63 jobs.
    let queue_blocks = steps / 63 + 1;
    assert!(
        during <= queue_blocks,
        "{during} allocations in {steps} settled steps on two workers"
    );
}
