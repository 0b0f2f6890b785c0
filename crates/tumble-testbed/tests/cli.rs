//! The `tumble` binary as a user runs it.

use std::process::Command;

fn tumble() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tumble"))
}

#[test]
fn without_a_display_it_says_so_in_one_line_and_does_not_panic() {
    let out = tumble()
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(out.status.code(), Some(1), "a clean exit, not a crash: {stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains("no display"), "{stderr}");
    assert!(
        stderr.contains("tumble measure") && stderr.contains("tumble screenshot"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn screenshot_writes_a_png_file() {
    let path = std::env::temp_dir().join(format!("tumble-cli-{}.png", std::process::id()));
    let out = tumble()
        .args([
            "screenshot",
            "--scene",
            "tower",
            "--frames",
            "30",
            "--width",
            "320",
            "--height",
            "200",
            "--out",
        ])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(&bytes[1..4], b"PNG");
    assert!(String::from_utf8_lossy(&out.stdout).contains("tower"));
}

#[test]
fn screenshot_rejects_bad_arguments_with_a_message() {
    for args in [
        &["screenshot", "--scene", "nope"][..],
        &["screenshot", "--frames", "many"][..],
        &["screenshot", "--out"][..],
        &["screenshot", "--bogus"][..],
    ] {
        let out = tumble().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("tumble screenshot:"),
            "{args:?}"
        );
    }
}

#[test]
fn a_display_that_cannot_be_opened_is_one_line_too() {
    // No X server listens on this display number: eframe returns an error,
    // which the binary reports instead of panicking.
    let out = tumble()
        .env("DISPLAY", ":59999")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains("could not open the window"), "{stderr}");
    assert!(stderr.contains("tumble measure"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn every_command_answers_help_with_its_usage() {
    for args in [
        &["--help"][..],
        &["-h"][..],
        &["measure", "--help"][..],
        &["screenshot", "--help"][..],
        &["screenshot", "--scene", "tower", "-h"][..],
    ] {
        let out = tumble().args(args).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("tumble measure") && stdout.contains("tumble screenshot"),
            "{args:?} printed {stdout}"
        );
    }
    // An unknown option still fails, and says which.
    let out = tumble().args(["measure", "--bogus"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--bogus"));
}
