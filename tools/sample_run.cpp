#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "commands.h"
#include "engine/engine.h"
#include "fmt/format.h"
#include "sample_ptx.h"

namespace lockstep::tool {

int run_sample(const SampleOptions& options) {
  EngineOptions engine_options;
  engine_options.warp_size = options.warp_size;
  engine_options.timing = options.timing;
  engine_options.sim_threads = options.threads;
  engine_options.watchdog = options.watchdog;
  Engine engine(engine_options);
  const ModuleId module = engine.load_ptx(kSamplePtx, "saxpy.ptx");

  const uint32_t n = options.elements;
  const float a = 2.5f;
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000) * 0.5f;
    y[i] = static_cast<float>(i % 77);
  }
  const uint64_t dx = engine.malloc(n * sizeof(float));
  const uint64_t dy = engine.malloc(n * sizeof(float));
  engine.copy_to_device(dx, x.data(), n * sizeof(float));
  engine.copy_to_device(dy, y.data(), n * sizeof(float));

  const Dim3 block{256, 1, 1};
  const Dim3 grid{(n + block.x - 1) / block.x, 1, 1};
  const auto start = std::chrono::steady_clock::now();
  const LaunchResult r = engine.launch(module, "saxpy", grid, block, 0,
                                       {KernelArg::of(n), KernelArg::of(a), KernelArg::of(dx), KernelArg::of(dy)});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.fault) {
    fmt::print(stderr, "lockstep: {}\n", r.fault->message);
    return 1;
  }
  std::vector<float> result(n);
  engine.copy_to_host(result.data(), dy, n * sizeof(float));
  uint32_t wrong = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (result[i] != std::fma(a, x[i], y[i])) ++wrong;
  std::printf("saxpy over %u elements: %s\n", n, wrong == 0 ? "PASSED" : "FAILED");
  fmt::print(stderr,
             "lockstep: kernel saxpy  grid ({},1,1)  block (256,1,1)  warp size {}\n"
             "lockstep:   {} warp instructions, {} thread instructions, {:.1f} M thread-instructions/s "
             "({} mode)\n",
             grid.x, options.warp_size, r.warp_instructions, r.thread_instructions,
             static_cast<double>(r.thread_instructions) / seconds / 1e6, r.timing ? "timing" : "functional");
  if (r.timing) {
    fmt::print(stderr, "lockstep:   {} cycles, IPC {:.2f}, {:.0f} simulated cycles/s\n", r.timing->cycles,
               r.timing->ipc(), static_cast<double>(r.timing->cycles) / seconds);
  }
  return wrong == 0 ? 0 : 1;
}

}  // namespace lockstep::tool
