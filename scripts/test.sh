#!/usr/bin/env bash
# The full test job (what CI runs): release build + every test, the unit tests again under
# AddressSanitizer and UndefinedBehaviorSanitizer (except the host-program tests: an unmodified
# CUDA program cannot load a sanitized libcudart), the timing model's tests under ThreadSanitizer,
# and a bounded libFuzzer run over the parser. FUZZ_SECONDS (default 60) bounds the fuzzer;
# SKIP_SANITIZE=1 / SKIP_TSAN=1 / SKIP_FUZZ=1 skip stages.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# Explicit: scripts/demo.sh configures the same build directory with the tests off.
bash scripts/build.sh -DLOCKSTEP_TESTS=ON -DLOCKSTEP_BENCH=ON
ctest --test-dir build --output-on-failure -j"$jobs"

if [ "${SKIP_SANITIZE:-0}" != 1 ]; then
  # Debug (assertions on) at -O1, as the sanitizers' authors advise: at -O0 the kernel matrix
  # took most of CI's time; -O1 keeps every check and the stack traces.
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
        -DLOCKSTEP_SANITIZE=ON -DLOCKSTEP_BENCH=OFF -DLOCKSTEP_EXAMPLES=OFF -DLOCKSTEP_HOST_TESTS=OFF > /dev/null
  cmake --build build-asan -j"$jobs"
  # The kernel matrix (tests/kernels) in a bounded form: the release stage above ran all of it.
  # Here the older architectures run at warp size 32 only (8 and 64 lanes on sm_90 stay), and
  # the divergence units other than the default run on 8-lane warps, where more warps split
  # (the 32-lane functional cases of those units are left out). In timing mode every unit runs
  # on h100; on the teaching preset's 8-lane warps one unit of each family does (tbc for the
  # formed warps of dwf, tbc and large-warp; sbi for the paired paths of sbi and swi).
  asan_skip='^Arch/.*/(sm75|sm80)_warp(8|64) |^Arch/.*/sm90_warp32_(thread_frontier|dwf|tbc|large_warp|sbi|swi) '
  asan_skip+='|^Arch/.*/sm90_warp8_timing_teaching_(dwf|large_warp|swi) '
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE "slow|host" -E "$asan_skip"
fi

if [ "${SKIP_TSAN:-0}" != 1 ]; then
  # ThreadSanitizer over launches run on several threads (func/worker_pool.h): the timing
  # tests, every tests/kernels program in both modes (two threads step the SMs or run the
  # resident blocks) and the functional-threads tests; and over the runtime's C entry points
  # called from 8 host threads at once (test_cudart).
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOCKSTEP_TSAN=ON \
        -DLOCKSTEP_BENCH=OFF -DLOCKSTEP_EXAMPLES=OFF -DLOCKSTEP_HOST_TESTS=OFF > /dev/null
  cmake --build build-tsan -j"$jobs" --target test_timing test_kernels test_engine test_cudart
  # Without address-space randomisation: some kernels randomise mmap more than older TSan
  # runtimes accept ("unexpected memory mapping").
  norandom=()
  if command -v setarch > /dev/null; then norandom=(setarch "$(uname -m)" -R); fi
  export TSAN_OPTIONS=halt_on_error=1
  "${norandom[@]}" build-tsan/tests/test_timing --gtest_brief=1
  # The kernel matrix in the ASan stage's bounded form (see there): the same 1,343 of 2,322.
  matrix_bound='-Arch/*/sm75_warp8*:Arch/*/sm75_warp64*:Arch/*/sm80_warp8*:Arch/*/sm80_warp64*'
  matrix_bound+=':Arch/*/sm90_warp32_thread_frontier:Arch/*/sm90_warp32_dwf:Arch/*/sm90_warp32_tbc'
  matrix_bound+=':Arch/*/sm90_warp32_large_warp:Arch/*/sm90_warp32_sbi:Arch/*/sm90_warp32_swi'
  matrix_bound+=':Arch/*/sm90_warp8_timing_teaching_dwf:Arch/*/sm90_warp8_timing_teaching_large_warp'
  matrix_bound+=':Arch/*/sm90_warp8_timing_teaching_swi'
  "${norandom[@]}" build-tsan/tests/test_kernels --gtest_brief=1 --gtest_filter="$matrix_bound"
  "${norandom[@]}" build-tsan/tests/test_engine --gtest_brief=1 --gtest_filter='FunctionalThreads.*'
  "${norandom[@]}" build-tsan/tests/test_cudart --gtest_brief=1
  unset TSAN_OPTIONS
fi

if [ "${SKIP_FUZZ:-0}" != 1 ]; then
  bash fuzz/run.sh "${FUZZ_SECONDS:-60}"
fi
echo "all tests passed"
