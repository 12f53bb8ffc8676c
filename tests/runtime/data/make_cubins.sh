#!/usr/bin/env bash
# Regenerates the cubins that kernel_resources_test.cpp reads, from resources.cu (needs nvcc 13).
# The figures the test expects are what `nvcc -Xptxas -v` prints for these same builds.
set -euo pipefail
cd "$(dirname "$0")"
nvcc -cubin -arch=sm_80 -Xptxas -v -o resources_sm80.cubin resources.cu
nvcc -cubin -arch=sm_90 -Xptxas -v -o resources_sm90.cubin resources.cu
