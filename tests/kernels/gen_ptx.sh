#!/usr/bin/env bash
# Regenerates the committed PTX of every tests/kernels program:
#   src/NAME.cu  ->  ptx/NAME.sm_XX.ptx   for XX in 75 80 90
# A program opts out of architectures with a line such as `// lockstep-archs: 80 90`
# (only the listed archs are generated). nvcc runs from tests/kernels with relative paths so
# the .file lines in the PTX stay relative and the output is identical on every machine.
# Usage: tests/kernels/gen_ptx.sh [NAME.cu ...]   (default: every src/*.cu)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
NVCC="${NVCC:-nvcc}"
here="$(pwd -P)"
ALL_ARCHS="75 80 90"

if [[ $# -gt 0 ]]; then
  sources=()
  for s in "$@"; do sources+=("src/$(basename "$s")"); done
else
  sources=(src/*.cu)
fi

mkdir -p ptx
for src in "${sources[@]}"; do
  name="$(basename "$src" .cu)"
  archs="$ALL_ARCHS"
  optin="$(sed -n 's@^[[:space:]]*//[[:space:]]*lockstep-archs:[[:space:]]*@@p' "$src" | head -n1)"
  if [[ -n "$optin" ]]; then archs="$optin"; fi
  for arch in $ALL_ARCHS; do
    out="ptx/$name.sm_$arch.ptx"
    if [[ " $archs " != *" $arch "* ]]; then
      echo "skip  $name sm_$arch (lockstep-archs: $archs)"
      rm -f "$out"
      continue
    fi
    "$NVCC" -ptx -O3 -lineinfo -arch="compute_$arch" "$src" -o "$out"
    # nvcc records the absolute source path in .file; keep it relative to tests/kernels.
    sed -i "s@\"$here/@\"@" "$out"
    echo "wrote $out"
  done
done
