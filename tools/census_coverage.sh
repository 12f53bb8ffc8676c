#!/usr/bin/env bash
# Prints how many of the 390 census PTX forms (tests/data/census_forms.tsv) the engine loads,
# and the unsupported ones, by running the census coverage test of test_engine.
# Usage: tools/census_coverage.sh [build-dir]   (default: build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
if [[ ! -f "$build/build.ninja" && ! -f "$build/Makefile" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DLOCKSTEP_BENCH=OFF >/dev/null
fi
cmake --build "$build" --target test_engine -j2
"$build/tests/test_engine" --gtest_filter='CensusForms.EngineLoadsOrRejectsEveryFormAsUnsupported' \
  | sed -n '/census coverage/,/^\[/p' | sed '$d'
