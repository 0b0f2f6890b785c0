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
"$py" -m pip install --quiet --force-reinstall --no-deps ./crates/tumble-py

cargo test --workspace --release --features tumble/serde

# No window: pygame draws into memory.
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$py" -m pytest crates/tumble-py/tests
