#!/usr/bin/env bash
# Regenerates the benchmark PTX (needs nvcc; the result is committed).
set -euo pipefail
cd "$(dirname "$0")"
nvcc -ptx -O3 -arch=compute_80 bench.cu -o bench.ptx
nvcc -ptx -O3 -arch=compute_80 memory.cu -o memory.ptx
nvcc -ptx -O3 -arch=compute_80 wmma_gemm.cu -o wmma_gemm.ptx
nvcc -ptx -O3 -arch=compute_80 divergence.cu -o divergence.ptx
