// Timing-mode speed: simulated warp-instructions and simulated cycles per second of host time
// for the reference workloads (the FMA loop and saxpy of functional_speed.cpp) on the cycle-level
// model of a preset (h100 unless --gpu names another). One thread steps the SMs unless --threads
// says more; run on idle cores. Every figure but the speed is the same for any thread count.
//
//   build/bench/lockstep_timing_bench [--quick] [--gpu NAME] [--threads N] [--only fma|saxpy]
//                                     [--set key=value]...
//
// --set memory.model=fixed-latency compares with the fixed latency per memory space.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_launches.h"
#include "config/gpu_config.h"
#include "engine/engine.h"
#include "fmt/format.h"

namespace {

using Clock = std::chrono::steady_clock;

void report(const char* name, const lockstep::LaunchResult& r, double seconds) {
  const lockstep::sim::KernelTiming& t = *r.timing;
  fmt::print("{:<28} {:>7.2f} M warp-inst/s  {:>8.3f} M cycles/s  {:>10} cycles  IPC {:>6.2f}  {:>7.3f} s\n", name,
             t.warp_instructions / seconds / 1e6, t.cycles / seconds / 1e6, t.cycles, t.ipc(), seconds);
  uint64_t total = 0;
  for (uint64_t n : t.warp_stalls) total += n;
  std::string stalls;
  for (size_t i = 0; i < t.warp_stalls.size(); ++i) {
    if (t.warp_stalls[i] * 50 < total) continue;  // under 2%
    stalls += fmt::format(" {} {:.1f}%", lockstep::sim::stall_reason_name(static_cast<lockstep::sim::StallReason>(i)),
                          100.0 * t.warp_stalls[i] / total);
  }
  fmt::print("{:<28} warp-cycles:{}\n", "", stalls);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string gpu = "h100";
  uint32_t threads = 1;
  std::vector<std::string> overrides;
  std::string only;  // one workload (for a profile), or both
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
    if (std::strcmp(argv[i], "--set") == 0 && i + 1 < argc) overrides.push_back(argv[++i]);
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    if (std::strcmp(argv[i], "--gpu") == 0 && i + 1 < argc) gpu = argv[++i];
    if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = static_cast<uint32_t>(std::atoi(argv[++i]));
  }
  if (threads < 1 || threads > lockstep::kMaxSimThreads) {
    fmt::print(stderr, "--threads: expected a whole number from 1 to {}\n", lockstep::kMaxSimThreads);
    return 2;
  }
  lockstep::EngineOptions options;
  options.timing = std::make_shared<const lockstep::config::GpuConfig>(lockstep::config::load_gpu_config(gpu, overrides));
  options.warp_size = options.timing->sm.warp_size;
  options.sim_threads = threads;
  lockstep::Engine engine(options);
  const lockstep::ModuleId m = engine.load_ptx_file(LOCKSTEP_BENCH_PTX);
  fmt::print("timing mode on the {} preset ({} memory), SMs stepped on {} thread{}\n", gpu,
             options.timing->memory.hierarchy ? "hierarchy" : "fixed-latency", threads, threads == 1 ? "" : "s");

  if (!only.empty() && only != "fma" && only != "saxpy") {
    fmt::print(stderr, "--only: expected fma or saxpy, not '{}'\n", only);
    return 2;
  }
  if (only != "saxpy") {  // compute-bound: enough blocks to fill every SM
    const uint32_t n = quick ? 65536 : 270336;  // 256 / 1056 blocks of 256: 8 per SM, 2 / 1 rounds
    const int iterations = quick ? 64 : 256;
    const uint64_t out = engine.malloc(n * sizeof(float));
    const auto start = Clock::now();
    const lockstep::LaunchResult r = lockstep::bench::launch_fma_loop(engine, m, n, iterations, out);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (r.fault || !r.timing) return 1;
    report("fma_loop (compute-bound)", r, seconds);
  }
  if (only != "fma") {  // memory-bound
    const uint32_t n = quick ? (1u << 20) : (4u << 20);
    std::vector<float> x(n, 1.0f), y(n, 2.0f);
    const lockstep::bench::SaxpyBuffers buffers = lockstep::bench::upload_saxpy(engine, x, y);
    const auto start = Clock::now();
    const lockstep::LaunchResult r = lockstep::bench::launch_saxpy(engine, m, n, 2.0f, buffers);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (r.fault || !r.timing) return 1;
    report(quick ? "saxpy 1M (memory-bound)" : "saxpy 4M (memory-bound)", r, seconds);
  }
  return 0;
}
