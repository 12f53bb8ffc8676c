#!/usr/bin/env bash
# Configures and builds lockstep in build/ (Release with debug info). Extra args go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" > /dev/null
cmake --build build -j"$(nproc)"
