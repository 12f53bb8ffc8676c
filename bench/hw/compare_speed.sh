#!/usr/bin/env bash
# Timing-mode speed of two builds of lockstep_timing_bench, run alternately on the same machine
# (the device machine's 16 cores are quieter than a shared CI box): one and two threads on the
# memory-bound saxpy, twice each, then both workloads on 16 threads. The binaries and the shared
# libraries they need (libfmt) are carried in one folder.
#
#   [ROUNDS=N] bash bench/hw/compare_speed.sh FOLDER   # FOLDER holds base_bench, new_bench, libfmt.so.* (and base_wmma, new_wmma)
set -euo pipefail
dir="$1"
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "# bench/hw/compare_speed.sh, $(date -u +%Y-%m-%d), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
for round in $(seq "${ROUNDS:-2}"); do
  for threads in 1 2; do
    for build in base new; do
      echo "## $build, --threads $threads (round $round)"
      "$dir/${build}_bench" --only saxpy --threads "$threads"
    done
  done
done
for build in base new; do
  echo "## $build, --threads 16"
  "$dir/${build}_bench" --threads 16
done
# The functional engine's tensor-core speed, each type in its own process (FOLDER may also hold
# base_wmma and new_wmma: lockstep_wmma_bench of the two builds).
if [ -x "$dir/base_wmma" ] && [ -x "$dir/new_wmma" ]; then
  for round in 1 2; do
    for type in f16 bf16 tf32; do
      for build in base new; do
        echo "## $build wmma --type $type (round $round)"
        "$dir/${build}_wmma" --type "$type"
      done
    done
  done
fi
