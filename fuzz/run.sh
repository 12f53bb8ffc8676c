#!/usr/bin/env bash
# Builds the PTX parser fuzzer with clang++-14 in its own build directory and runs it for
# $1 seconds (default 60), seeded with the committed PTX samples. Exits non-zero on any crash,
# leak or sanitizer report; the reproducer is left in $BUILD/artifacts/.
set -euo pipefail

seconds="${1:-60}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${LOCKSTEP_FUZZ_BUILD:-$root/build-fuzz}"

CC=clang-14 CXX=clang++-14 cmake -S "$root/fuzz" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target ptx_parser_fuzz -j2

corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
shopt -s nullglob
for seed in "$root"/tests/ptx/data/*.ptx "$root"/tests/kernels/ptx/*.ptx; do
  cp "$seed" "$corpus/"
done
mkdir -p "$build/artifacts"

echo "fuzzing ptx_parser_fuzz for ${seconds}s with $(ls "$corpus" | wc -l) seeds"
"$build/ptx_parser_fuzz" \
  -max_total_time="$seconds" \
  -timeout=10 \
  -rss_limit_mb=2048 \
  -max_len=16384 \
  -dict="$root/fuzz/ptx.dict" \
  -artifact_prefix="$build/artifacts/" \
  -print_final_stats=1 \
  "$corpus"
