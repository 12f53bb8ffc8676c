#!/usr/bin/env bash
# Builds lockstep and the example CUDA programs (examples/, with nvcc), then runs an unmodified
# CUDA program, build/examples/vector_add, on the simulator through `lockstep run`: first on the
# functional engine, then on the cycle-level model of the default GPU (h100).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh -DLOCKSTEP_TESTS=OFF -DLOCKSTEP_BENCH=OFF -DLOCKSTEP_EXAMPLES=ON
if [[ ! -x build/examples/vector_add ]]; then
  echo "demo: build/examples/vector_add was not built (is nvcc on PATH?)" >&2
  exit 1
fi
echo "+ build/tools/lockstep run -- build/examples/vector_add"
build/tools/lockstep run -- build/examples/vector_add
echo
echo "+ build/tools/lockstep run --mode timing -- build/examples/vector_add"
build/tools/lockstep run --mode timing -- build/examples/vector_add
echo
echo "More examples: build/tools/lockstep run -- build/examples/{matrix_multiply,reduction,hello_printf}"
