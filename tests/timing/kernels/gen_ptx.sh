#!/usr/bin/env bash
# Regenerates memory_kernels.ptx (needs nvcc; the result is committed).
set -euo pipefail
cd "$(dirname "$0")"
nvcc -ptx -O3 -arch=compute_80 memory_kernels.cu -o memory_kernels.ptx
