#!/usr/bin/env bash
# Smoke test of the real testbed window: the `tumble` binary under Xvfb on
# Mesa's software GL, driven with a few real key presses and a mouse drag,
# photographed from the X server, and the photographs checked for content.
#
# Usage: bash .ci/testbed-smoke.sh   (as root on Debian; installs what it needs)
# The screenshots are left in target/testbed-smoke/ (or $SMOKE_OUT).
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(xvfb xdotool libgl1-mesa-dri libegl1 libgl1 libxkbcommon-x11-0 libxcursor1 libxi6 x11-apps imagemagick)
DISPLAY_NUM="${SMOKE_DISPLAY:-99}"
TARGET="${CARGO_TARGET_DIR:-target}"
OUT="${SMOKE_OUT:-$TARGET/testbed-smoke}"
# The release profile by default: the README's test command (which CI has
# just run) built this binary, with the same features, so nothing is
# compiled again. SMOKE_PROFILE=debug uses the test profile's instead.
PROFILE="${SMOKE_PROFILE:-release}"
BIN="$TARGET/$PROFILE/tumble"

echo "== testbed smoke: packages"
missing=()
for p in "${PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "== testbed smoke: $PROFILE build"
if [[ "$PROFILE" == release ]]; then
    cargo build --release -p tumble-testbed --features tumble/serde --quiet
else
    # The test profile: `cargo test` has just built this binary with it
    # (into target/debug), so nothing is compiled again.
    cargo build --profile test -p tumble-testbed --bin tumble --quiet
fi

mkdir -p "$OUT"
rm -f "$OUT"/*.png

XVFB_PID=""
APP_PID=""
cleanup() {
    # `wait` on a killed process returns 143; under `set -e` that would
    # become the script's exit status, so each line ends in `|| true`.
    [[ -n "$APP_PID" ]] && kill "$APP_PID" 2>/dev/null && wait "$APP_PID" 2>/dev/null || true
    [[ -n "$XVFB_PID" ]] && kill "$XVFB_PID" 2>/dev/null && wait "$XVFB_PID" 2>/dev/null || true
    return 0
}
trap cleanup EXIT

fail() {
    echo "testbed smoke: FAILED: $*" >&2
    [[ -s "$OUT/app.log" ]] && { echo "--- app output:" >&2; cat "$OUT/app.log" >&2; }
    exit 1
}

echo "== testbed smoke: Xvfb :$DISPLAY_NUM"
# -noreset: by default the server resets when its last client leaves, and a
# window opened during the reset cannot connect; between two windows here
# no client may be connected.
Xvfb ":$DISPLAY_NUM" -screen 0 1280x800x24 -nolisten tcp -noreset >"$OUT/xvfb.log" 2>&1 &
XVFB_PID=$!
export DISPLAY=":$DISPLAY_NUM"
unset WAYLAND_DISPLAY
# Up to 30 s: on a loaded machine the server can take a while to start.
# Both sockets: Xlib (xdotool) may connect through the abstract one before
# the server has made the file one that the window's X library opens.
for _ in $(seq 300); do
    [[ -S "/tmp/.X11-unix/X$DISPLAY_NUM" ]] && xdotool getdisplaygeometry >/dev/null 2>&1 && break
    kill -0 "$XVFB_PID" 2>/dev/null || fail "Xvfb exited (see $OUT/xvfb.log)"
    sleep 0.1
done
xdotool getdisplaygeometry >/dev/null 2>&1 || fail "Xvfb did not come up"

# Starts the testbed with arguments "$@", waits for its window to be mapped
# (software GL can take a few seconds) and places it: sets APP_PID and WID.
# No window manager runs: input goes through XTEST like a real keyboard and
# mouse.
open_window() {
    "$BIN" "$@" >"$OUT/app.log" 2>&1 &
    APP_PID=$!
    WID=""
    for _ in $(seq 150); do
        kill -0 "$APP_PID" 2>/dev/null || fail "the testbed exited early ($*)"
        WID=$(xdotool search --onlyvisible --name "Tumble testbed" 2>/dev/null | head -n1 || true)
        [[ -n "$WID" ]] && break
        sleep 0.2
    done
    [[ -n "$WID" ]] || fail "no 'Tumble testbed' window appeared ($*)"
    xdotool windowmove "$WID" 0 0 2>/dev/null || true
    xdotool windowsize "$WID" 1280 800 2>/dev/null || true
}

echo "== testbed smoke: start $BIN"
open_window
echo "window $WID"
xdotool mousemove 800 400
xdotool windowfocus "$WID" 2>/dev/null || true
sleep 3

count_colors() { convert "$1" -format %k info:; }

echo "== testbed smoke: screenshot of the pyramid"
import -window root "$OUT/pyramid.png"
kill -0 "$APP_PID" 2>/dev/null || fail "the testbed died while running"
colors=$(count_colors "$OUT/pyramid.png")
echo "pyramid.png: $colors colors"
((colors >= 64)) || fail "the window looks blank ($colors colors)"

echo "== testbed smoke: keys and a sling"
# Warm starting off, two fewer iterations, contacts on; then sling a shape
# from empty space to the left of the pyramid, rightwards.
xdotool key w Down Down d
xdotool mousemove 420 260 mousedown 1
for x in 440 470 500 530 560; do
    xdotool mousemove "$x" 240
    sleep 0.05
done
xdotool mouseup 1
sleep 1.5
import -window root "$OUT/after-input.png"
kill -0 "$APP_PID" 2>/dev/null || fail "the testbed died after input"
colors=$(count_colors "$OUT/after-input.png")
echo "after-input.png: $colors colors"
((colors >= 64)) || fail "the window looks blank after input ($colors colors)"
# The view must have changed: the amber bar went dark, contacts appeared,
# a shape was thrown.
changed=$(compare -metric AE "$OUT/pyramid.png" "$OUT/after-input.png" null: 2>&1 >/dev/null | cut -d' ' -f1 || true)
echo "pixels changed by the input: $changed"
[[ "$changed" =~ ^[0-9.e+]+$ ]] || fail "could not compare the screenshots: $changed"
awk -v c="$changed" 'BEGIN { exit !(c + 0 > 500) }' || fail "the window did not react to input"

# The largest scene and the ramp, each in a window of its own, after a few
# seconds of running: they must draw (the panel shows their frame rate).
kill "$APP_PID" 2>/dev/null && wait "$APP_PID" 2>/dev/null || true
APP_PID=""
shoot_scene() {
    local scene="$1" seconds="$2"
    echo "== testbed smoke: $scene"
    open_window --scene "$scene"
    sleep "$seconds"
    import -window root "$OUT/$scene.png"
    kill -0 "$APP_PID" 2>/dev/null || fail "the testbed died running $scene"
    local colors
    colors=$(count_colors "$OUT/$scene.png")
    echo "$scene.png: $colors colors"
    ((colors >= 64)) || fail "the $scene window looks blank ($colors colors)"
    kill "$APP_PID" 2>/dev/null && wait "$APP_PID" 2>/dev/null || true
    APP_PID=""
}
shoot_scene pyramid-large 10
shoot_scene ramp 4

echo "testbed smoke: ok (screenshots in $OUT)"
