#!/usr/bin/env bash
# Regenerates the PTX of the built-in sample (needs nvcc; the result is committed).
set -euo pipefail
cd "$(dirname "$0")"
nvcc -ptx -O3 -lineinfo -arch=compute_75 saxpy.cu -o saxpy.ptx
