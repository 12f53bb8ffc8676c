#!/usr/bin/env bash
# Regenerates the committed PTX of this folder (needs nvcc).
set -euo pipefail
cd "$(dirname "$0")"
nvcc -ptx -O3 -arch=compute_80 memory_kernels.cu -o memory_kernels.ptx
nvcc -ptx -O3 -rdc=true -arch=compute_80 child_grids.cu -o child_grids.ptx
