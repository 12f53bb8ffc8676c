#!/usr/bin/env bash
# Builds lockstep and runs its built-in sample (saxpy) on the simulator.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh -DLOCKSTEP_TESTS=OFF -DLOCKSTEP_BENCH=OFF
build/tools/lockstep run
