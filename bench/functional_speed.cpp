// Functional-engine speed: thread- and warp-instructions per second for a compute-bound kernel
// (an FMA loop) and a memory-bound one (saxpy over 16M elements), on one host thread and on N
// (the resident blocks run side by side, func/wave_runner.h), with the speed-up, and the
// slowdown against the same loops compiled natively for this CPU (one core). Run it on an
// otherwise idle machine.
//
//   build/bench/lockstep_bench [--quick] [--threads N] [--serial-commit]   (N: 2 unless given)
//
// --serial-commit runs phase 2 of each epoch (the parked stores) on one thread, as lockstep did
// before stores that touch nothing else committed side by side (func/commit_plan.h): the
// before and after of that change on the same machine.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_launches.h"
#include "engine/engine.h"
#include "fmt/format.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The loops as a CPU runs them natively. `Fma` selects fused multiply-add (the reference for
// checking results, exactly what the PTX computes) or a plain multiply and add (what gets timed:
// without hardware FMA in the baseline ISA, std::fma is a library call and would flatter us).
template <bool Fma>
float mul_add(float a, float b, float c) {
  if constexpr (Fma) return std::fma(a, b, c);
  return a * b + c;
}

template <bool Fma>
double native_fma_loop(uint32_t threads, int iterations, std::vector<float>& out) {
  const auto start = Clock::now();
  for (uint32_t i = 0; i < threads; ++i) {
    float a = static_cast<float>(i) * 0.001f, b = 1.0f - a, c = 0.5f * a, d = 0.25f;
    for (int it = 0; it < iterations; ++it) {
      a = mul_add<Fma>(a, 0.9999f, 0.0001f);
      b = mul_add<Fma>(b, 0.9999f, 0.0001f);
      c = mul_add<Fma>(c, 0.9999f, 0.0001f);
      d = mul_add<Fma>(d, 0.9999f, 0.0001f);
    }
    out[i] = a + b + c + d;
  }
  return seconds_since(start);
}

template <bool Fma>
double native_saxpy(std::vector<float>& y, const std::vector<float>& x, float a) {
  const auto start = Clock::now();
  for (size_t i = 0; i < y.size(); ++i) y[i] = mul_add<Fma>(a, x[i], y[i]);
  return seconds_since(start);
}

void report(const std::string& name, uint32_t threads, const lockstep::LaunchResult& r, double seconds,
            double native, double one_thread_seconds) {
  fmt::print("{:<28} {:>2} thread{} {:>8.1f} M thread-inst/s  {:>7.2f} M warp-inst/s  {:>7.3f} s  slowdown vs native "
             "{:>6.1f}x  speed-up {:>5.2f}x\n",
             name, threads, threads == 1 ? " " : "s", r.thread_instructions / seconds / 1e6,
             r.warp_instructions / seconds / 1e6, seconds, seconds / native, one_thread_seconds / seconds);
}

lockstep::Engine engine_on(uint32_t threads, bool serial_commit) {
  lockstep::EngineOptions options;
  options.sim_threads = threads;
  options.parallel_commit = !serial_commit;
  return lockstep::Engine(options);
}

// Runs both workloads on `threads` host threads; the seconds of each (fma, saxpy) go to
// `seconds`, and when `one_thread` is given the speed-up against it is printed.
int run_workloads(bool quick, bool serial_commit, uint32_t threads, std::vector<double>& seconds_out,
                  const std::vector<double>* one_thread) {
  lockstep::Engine engine = engine_on(threads, serial_commit);
  const lockstep::ModuleId m = engine.load_ptx_file(LOCKSTEP_BENCH_PTX);

  {  // compute-bound
    const uint32_t fma_threads = quick ? 8192 : 65536;
    const int iterations = 256;
    const uint64_t out = engine.malloc(fma_threads * sizeof(float));
    const auto start = Clock::now();
    const lockstep::LaunchResult r = lockstep::bench::launch_fma_loop(engine, m, fma_threads, iterations, out);
    const double seconds = seconds_since(start);
    std::vector<float> native_out(fma_threads), sim_out(fma_threads);
    const double native = native_fma_loop<false>(fma_threads, iterations, native_out);
    native_fma_loop<true>(fma_threads, iterations, native_out);
    engine.copy_to_host(sim_out.data(), out, fma_threads * sizeof(float));
    if (r.fault || std::memcmp(native_out.data(), sim_out.data(), fma_threads * sizeof(float)) != 0) {
      fmt::print(stderr, "fma_loop: results differ from the native loop\n");
      return 1;
    }
    report("fma_loop (compute-bound)", threads, r, seconds, native, one_thread ? (*one_thread)[0] : seconds);
    seconds_out.push_back(seconds);
  }
  {  // memory-bound
    const uint32_t n = quick ? (1u << 20) : (16u << 20);
    std::vector<float> x(n), y(n);
    for (uint32_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i % 1024);
      y[i] = static_cast<float>(i % 77);
    }
    const lockstep::bench::SaxpyBuffers buffers = lockstep::bench::upload_saxpy(engine, x, y);
    const float a = 2.0f;
    const auto start = Clock::now();
    const lockstep::LaunchResult r = lockstep::bench::launch_saxpy(engine, m, n, a, buffers);
    const double seconds = seconds_since(start);
    std::vector<float> timed = y;
    const double native = native_saxpy<false>(timed, x, a);
    native_saxpy<true>(y, x, a);
    std::vector<float> sim(n);
    engine.copy_to_host(sim.data(), buffers.y, n * sizeof(float));
    if (r.fault || std::memcmp(sim.data(), y.data(), n * sizeof(float)) != 0) {
      fmt::print(stderr, "saxpy: results differ from the native loop\n");
      return 1;
    }
    report("saxpy 16M (memory-bound)", threads, r, seconds, native, one_thread ? (*one_thread)[1] : seconds);
    seconds_out.push_back(seconds);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  bool serial_commit = false;
  uint32_t threads = 2;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--serial-commit") == 0) {
      serial_commit = true;
    } else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      threads = static_cast<uint32_t>(std::max(1L, std::strtol(argv[++i], nullptr, 10)));
    } else {
      fmt::print(stderr, "usage: lockstep_bench [--quick] [--threads N] [--serial-commit]\n");
      return 2;
    }
  }
  std::vector<double> one, many;
  if (int rc = run_workloads(quick, serial_commit, 1, one, nullptr); rc != 0) return rc;
  if (threads > 1) return run_workloads(quick, serial_commit, threads, many, &one);
  return 0;
}
