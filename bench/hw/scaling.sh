#!/usr/bin/env bash
# How lockstep's speed scales with host threads, on a machine with idle cores (the device
# machine has 16): timing mode (saxpy 4M on h100) on 1, 2, 4, 8 and 16 threads with the new
# build, then functional mode (lockstep_bench: one thread, then N) with both builds alternately.
#
#   bash bench/hw/scaling.sh FOLDER   # FOLDER holds new_bench (lockstep_timing_bench),
#                                     # base_func and new_func (lockstep_bench), libfmt.so.*
set -uo pipefail
dir="$1"
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "# timing scaling, new build, saxpy 4M on h100"
for t in 1 2 4 8 16; do
  echo "## --threads $t"
  "$dir/new_bench" --only saxpy --threads "$t" | sed -n 2p
done
echo "# functional scaling (lockstep_bench --threads N: 1 thread, then N)"
for t in 2 4 16; do
  for build in base new; do
    echo "## $build --threads $t"
    "$dir/${build}_func" --threads "$t"
  done
done
