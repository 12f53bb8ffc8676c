#pragma once
// The reference workloads of the speed benchmarks (kernels/bench.ptx), launched the same way by
// the functional and the timing-mode benchmark.
#include <cstdint>
#include <vector>

#include "engine/engine.h"

namespace lockstep::bench {

// fma_loop: `threads` threads in blocks of 256, each running `iterations` rounds of 4 FMAs.
inline LaunchResult launch_fma_loop(Engine& engine, ModuleId m, uint32_t threads, int iterations, uint64_t out) {
  return engine.launch(m, "fma_loop", {threads / 256, 1, 1}, {256, 1, 1}, 0,
                       {KernelArg::of(out), KernelArg::of(iterations)});
}

struct SaxpyBuffers {
  uint64_t x = 0, y = 0;
};

inline SaxpyBuffers upload_saxpy(Engine& engine, const std::vector<float>& x, const std::vector<float>& y) {
  SaxpyBuffers b{engine.malloc(x.size() * sizeof(float)), engine.malloc(y.size() * sizeof(float))};
  engine.copy_to_device(b.x, x.data(), x.size() * sizeof(float));
  engine.copy_to_device(b.y, y.data(), y.size() * sizeof(float));
  return b;
}

// saxpy: y = a * x + y over n elements, one thread each, in blocks of 256.
inline LaunchResult launch_saxpy(Engine& engine, ModuleId m, uint32_t n, float a, SaxpyBuffers b) {
  return engine.launch(m, "saxpy", {n / 256, 1, 1}, {256, 1, 1}, 0,
                       {KernelArg::of(n), KernelArg::of(a), KernelArg::of(b.x), KernelArg::of(b.y)});
}

}  // namespace lockstep::bench
