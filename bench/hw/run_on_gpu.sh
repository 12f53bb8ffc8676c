#!/usr/bin/env bash
# Measures, on a machine with an NVIDIA GPU, what bench/ models: builds bench/hw/measure.cu with
# nvcc for the GPU present and runs it (latencies by clock64 in the kernel, copy bandwidths and
# the speed-benchmark kernels' times). The output, committed in bench/hw/results/, is the
# hardware column beside the model's figures.
#
#   bash bench/hw/run_on_gpu.sh [OUTPUT_FILE]
set -euo pipefail
cd "$(dirname "$0")"
out="${1:-/dev/stdout}"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
nvcc -O3 -std=c++17 -arch="sm_${arch}" measure.cu -o /tmp/lockstep_measure
{
  echo "# bench/hw/run_on_gpu.sh, $(date -u +%Y-%m-%d)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
  /tmp/lockstep_measure
  nvidia-smi --query-gpu=clocks.sm,clocks.max.sm --format=csv
} > "$out" 2>&1
