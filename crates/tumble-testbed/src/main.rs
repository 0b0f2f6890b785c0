//! `tumble`: the testbed window, `tumble measure` and `tumble screenshot`.

use std::process::ExitCode;
use tumble_testbed::measure::{self, MeasureOptions};
use tumble_testbed::screenshot::{self, ScreenshotOptions};
use tumble_testbed::ui::{self, WindowError};

const USAGE: &str = "usage:
  tumble [--scene NAME]           open the interactive testbed (on the pyramid)
  tumble measure [--json] [--scene NAME] [--frames N]
                                  print the stability report (SCENES.md)
  tumble screenshot [--scene NAME] [--frames N] [--out FILE.png]
                    [--width W] [--height H] [--contacts]
                                  draw a scene after N steps to a PNG, no window
  tumble [COMMAND] --help          this text
scenes: pyramid, tower, pyramid-large[:ROWS], stack[:N], card-house,
        mass-ratio[:RATIO], ramp, bounce, pile, sleepers, platformer,
        sensors, filtering, pendulum, chain, ball-and-chain, bridge, door,
        scissor-lift, soft-bodies, car, breakable, ragdolls, tile-floor,
        tile-bodies, impact, welded-beam, motor-arm, rope-bridge, ragdoll-box,
        ragdoll-stairs";

/// What to try instead when there is no window.
const NO_WINDOW_HINT: &str =
    "run `tumble measure` for the stability report or `tumble screenshot --scene pyramid --frames 120 --out pyramid.png` for a picture";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("measure") => run_measure(&args[1..]),
        Some("screenshot") => run_screenshot(&args[1..]),
        Some("-h") | Some("--help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("--scene") => match args.get(1).and_then(|s| tumble_scenes::SceneName::parse(s)) {
            Some(scene) if args.len() == 2 => open_window(scene),
            _ => {
                eprintln!("tumble: --scene needs one scene name\n{USAGE}");
                ExitCode::FAILURE
            }
        },
        Some(other) => {
            eprintln!("tumble: unknown command `{other}`\n{USAGE}");
            ExitCode::FAILURE
        }
        None => open_window(tumble_scenes::SceneName::Pyramid),
    }
}

/// Opens the testbed window on `scene`.
fn open_window(scene: tumble_scenes::SceneName) -> ExitCode {
    match ui::run_window(scene) {
        Ok(()) => ExitCode::SUCCESS,
        Err(WindowError::NoDisplay) => {
            eprintln!("tumble: no display to open the testbed window on (DISPLAY and WAYLAND_DISPLAY are unset); {NO_WINDOW_HINT}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("tumble: {e}; {NO_WINDOW_HINT}");
            ExitCode::FAILURE
        }
    }
}

fn run_screenshot(args: &[String]) -> ExitCode {
    let mut opts = ScreenshotOptions::default();
    let mut it = args.iter();
    let number = |v: Option<&String>, what: &str| -> Result<u32, String> {
        v.and_then(|s| s.parse::<u32>().ok())
            .ok_or_else(|| format!("tumble screenshot: {what} needs a whole number"))
    };
    while let Some(a) = it.next() {
        let parsed: Result<(), String> = match a.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "--scene" => match it.next() {
                Some(s) => match tumble_scenes::SceneName::parse(s) {
                    Some(name) => {
                        opts.scene = name;
                        Ok(())
                    }
                    None => Err(format!("tumble screenshot: unknown scene `{s}`")),
                },
                None => Err("tumble screenshot: --scene needs a name".into()),
            },
            "--frames" => number(it.next(), "--frames").map(|n| opts.frames = n),
            "--width" => number(it.next(), "--width").map(|n| opts.width = n),
            "--height" => number(it.next(), "--height").map(|n| opts.height = n),
            "--contacts" => {
                opts.contacts = true;
                Ok(())
            }
            "--out" => match it.next() {
                Some(path) => {
                    opts.out = path.into();
                    Ok(())
                }
                None => Err("tumble screenshot: --out needs a file name".into()),
            },
            other => Err(format!("tumble screenshot: unknown option `{other}`\n{USAGE}")),
        };
        if let Err(message) = parsed {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    }
    match screenshot::screenshot(&opts) {
        Ok(canvas) => {
            println!(
                "wrote {} ({}x{}, {} after {} steps)",
                opts.out.display(),
                canvas.width(),
                canvas.height(),
                opts.scene.name(),
                opts.frames
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tumble screenshot: could not write {}: {e}", opts.out.display());
            ExitCode::FAILURE
        }
    }
}

fn run_measure(args: &[String]) -> ExitCode {
    let mut opts = MeasureOptions::default();
    let mut json = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "--json" => json = true,
            "--scene" => match it.next() {
                Some(s) if tumble_scenes::SceneName::parse(s).is_some() || s == "stack" => {
                    opts.scene = Some(s.split(':').next().unwrap_or(s).to_string())
                }
                Some(s) => {
                    eprintln!("tumble measure: unknown scene `{s}`");
                    return ExitCode::FAILURE;
                }
                None => {
                    eprintln!("tumble measure: --scene needs a name");
                    return ExitCode::FAILURE;
                }
            },
            "--frames" => match it.next().and_then(|s| s.parse::<u32>().ok()) {
                Some(n) if n > 0 => opts.frames = Some(n),
                _ => {
                    eprintln!("tumble measure: --frames needs a positive whole number");
                    return ExitCode::FAILURE;
                }
            },
            other => {
                eprintln!("tumble measure: unknown option `{other}`\n{USAGE}");
                return ExitCode::FAILURE;
            }
        }
    }
    let rows = measure::all_studies(&opts);
    if json {
        println!("{}", measure::to_json(&rows));
    } else {
        print!("{}", measure::to_markdown(&rows));
    }
    ExitCode::SUCCESS
}
