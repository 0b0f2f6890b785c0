#!/usr/bin/env bash
# Every test, Rust and Python: the README's test command. It makes the
# Python venv (.venv) the first time, installs what the Python tests need
# and the module itself (pip install ./crates/tumble-py, as a user would),
# then runs the Rust tests (the serde snapshot tests included) and pytest.
set -euo pipefail
cd "$(dirname "$0")"

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
py=.venv/bin/python
"$py" -m pip install --quiet --upgrade pip
"$py" -m pip install --quiet maturin pytest numpy pygame gymnasium ray
# The peers the comparison tests measure against (pymunk, and Box2D 2.3
# under gymnasium's own environments), where a wheel exists for this
# Python: they never build from source, and their tests skip without them.
"$py" -m pip install --quiet --only-binary=:all: pymunk box2d ||
    echo "no pymunk or box2d wheel for this Python: their comparison tests skip"
"$py" -m pip install --quiet --force-reinstall --no-deps ./crates/tumble-py

cargo test --workspace --release --features tumble/serde

# No window: pygame draws into memory.
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$py" -m pytest crates/tumble-py/tests
