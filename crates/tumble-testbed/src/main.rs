//! `tumble`: the testbed window, `tumble measure` and `tumble screenshot`.

use std::process::ExitCode;
use tumble_testbed::measure::{self, MeasureOptions};

const USAGE: &str = "usage:
  tumble                          open the interactive testbed
  tumble measure [--json] [--scene NAME] [--frames N]
                                  print the stability report (SCENES.md)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("measure") => run_measure(&args[1..]),
        Some("-h") | Some("--help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("tumble: unknown command `{other}`\n{USAGE}");
            ExitCode::FAILURE
        }
        None => {
            eprintln!("tumble: the interactive window is not built yet; run `tumble measure`.");
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
