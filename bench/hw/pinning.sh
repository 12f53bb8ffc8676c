#!/usr/bin/env bash
# One thread against two on the timing benchmark's memory-bound saxpy, alternately, unpinned and
# pinned with taskset to two vCPUs next to each other (0,1) and far apart (0,8): shows how much of
# the two-thread ratio the host's topology decides (on a virtual machine the vCPU numbers say
# little about which physical cores run them).
#
#   [ROUNDS=N] bash bench/hw/pinning.sh FOLDER   # FOLDER holds new_bench (lockstep_timing_bench), libfmt.so.*
set -uo pipefail
dir="$1"
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "# bench/hw/pinning.sh, $(date -u +%Y-%m-%d), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
for round in $(seq "${ROUNDS:-4}"); do
  echo "## 1 thread, cpu 0 (round $round)"; taskset -c 0 "$dir/new_bench" --only saxpy --threads 1 | sed -n 2p
  echo "## 1 thread, unpinned (round $round)"; "$dir/new_bench" --only saxpy --threads 1 | sed -n 2p
  echo "## 2 threads, unpinned (round $round)"; "$dir/new_bench" --only saxpy --threads 2 | sed -n 2p
  echo "## 2 threads, cpus 0,1 (round $round)"; taskset -c 0,1 "$dir/new_bench" --only saxpy --threads 2 | sed -n 2p
  echo "## 2 threads, cpus 0,8 (round $round)"; taskset -c 0,8 "$dir/new_bench" --only saxpy --threads 2 | sed -n 2p
done
