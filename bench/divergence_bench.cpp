// The divergence designs side by side (seed 001 §3.3): every workload of kernels/divergence.cu
// under every divergence unit lockstep knows (sm.divergence), on the cycle-level model of a
// preset (h100 unless --gpu names another). One row per workload and design: cycles, IPC, warp
// instructions, SIMT efficiency (active lanes per issued warp instruction over the warp width),
// what the divergence unit counted, the L1 hit rate, and whether the output equals the first
// design's. A design that timing mode refuses (sbi and swi: no second scheduler yet) runs in
// functional mode (no cycles); a launch that deadlocks says so.
//
//   build/bench/lockstep_divergence_bench [--quick] [--gpu NAME] [--set key=value]...
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/gpu_config.h"
#include "engine/engine.h"
#include "fmt/format.h"
#include "func/divergence/divergence_unit.h"

namespace {

using lockstep::Engine;
using lockstep::KernelArg;
using lockstep::LaunchResult;

struct Sizes {
  uint32_t n = 0;           // threads of the data-parallel workloads (a power of two)
  int iterations = 0;       // loop trips of nested_branches, short_circuit and switch_paths
  uint32_t lock_threads = 0;
};

// One launch's figures, and its output for the comparison across designs.
struct Outcome {
  std::optional<LaunchResult> result;
  std::string failure;  // the fault or refusal, when there is no usable result
  std::vector<int> output;
};

struct Workload {
  const char* name;
  // Runs the workload on `engine` (module `m`); fills the outcome.
  Outcome (*run)(Engine& engine, lockstep::ModuleId m, const Sizes& sizes);
};

std::vector<int> pseudo_random(uint32_t n, uint32_t seed) {
  std::vector<int> v(n);
  uint32_t x = seed;
  for (int& e : v) {
    x = x * 1664525u + 1013904223u;
    e = static_cast<int>(x >> 8);
  }
  return v;
}

uint64_t upload(Engine& engine, const std::vector<int>& v) {
  const uint64_t d = engine.malloc(v.size() * sizeof(int));
  engine.copy_to_device(d, v.data(), v.size() * sizeof(int));
  return d;
}

Outcome finish(Engine& engine, LaunchResult r, uint64_t out, size_t count) {
  Outcome o;
  if (r.fault) {
    o.failure = r.fault->kind;
    return o;
  }
  o.output.resize(count);
  engine.copy_to_host(o.output.data(), out, count * sizeof(int));
  o.result = std::move(r);
  return o;
}

// The data-parallel workloads take (a, [b,] out, n, iterations) in blocks of 256.
Outcome run_array_kernel(Engine& engine, lockstep::ModuleId m, const Sizes& s, const char* kernel, bool two_inputs) {
  const uint64_t a = upload(engine, pseudo_random(s.n, 1)), b = upload(engine, pseudo_random(s.n, 2));
  const uint64_t out = engine.malloc(s.n * sizeof(int));
  const int n = static_cast<int>(s.n);
  std::vector<KernelArg> args = {KernelArg::of(a)};
  if (two_inputs) args.push_back(KernelArg::of(b));
  args.insert(args.end(), {KernelArg::of(out), KernelArg::of(n), KernelArg::of(s.iterations)});
  return finish(engine, engine.launch(m, kernel, {s.n / 256, 1, 1}, {256, 1, 1}, 0, args), out, s.n);
}

const Workload kWorkloads[] = {
    {"nested_branches",
     [](Engine& e, lockstep::ModuleId m, const Sizes& s) { return run_array_kernel(e, m, s, "nested_branches", true); }},
    {"collatz_steps",
     [](Engine& e, lockstep::ModuleId m, const Sizes& s) {
       const uint64_t out = e.malloc(s.n * sizeof(int));
       const int n = static_cast<int>(s.n);
       const uint32_t base = 1000001;
       return finish(e,
                     e.launch(m, "collatz_steps", {s.n / 256, 1, 1}, {256, 1, 1}, 0,
                              {KernelArg::of(out), KernelArg::of(n), KernelArg::of(base)}),
                     out, s.n);
     }},
    {"short_circuit",
     [](Engine& e, lockstep::ModuleId m, const Sizes& s) { return run_array_kernel(e, m, s, "short_circuit", false); }},
    {"switch_paths",
     [](Engine& e, lockstep::ModuleId m, const Sizes& s) { return run_array_kernel(e, m, s, "switch_paths", false); }},
    {"intra_warp_lock",
     [](Engine& e, lockstep::ModuleId m, const Sizes& s) {
       const uint64_t words = e.malloc(2 * sizeof(int));  // the lock, then the count
       const int zero[2] = {0, 0};
       e.copy_to_device(words, zero, sizeof zero);
       return finish(e,
                     e.launch(m, "intra_warp_lock", {s.lock_threads / 32, 1, 1}, {32, 1, 1}, 0,
                              {KernelArg::of(words), KernelArg::of(words + sizeof(int))}),
                     words, 2);
     }},
};

// An engine for `design`: timing mode on `gpu`, or functional mode when timing refuses it (the
// refusal is returned in `refusal`).
std::unique_ptr<Engine> make_engine(const std::string& gpu, std::vector<std::string> overrides,
                                    const std::string& design, std::string& refusal) {
  overrides.push_back("sm.divergence=" + design);
  try {
    lockstep::EngineOptions options;
    options.timing =
        std::make_shared<const lockstep::config::GpuConfig>(lockstep::config::load_gpu_config(gpu, overrides));
    options.warp_size = options.timing->sm.warp_size;
    return std::make_unique<Engine>(options);
  } catch (const std::exception& e) {
    refusal = e.what();
  }
  lockstep::EngineOptions options;
  options.divergence = design;
  return std::make_unique<Engine>(options);
}

void print_row(const char* workload, const std::string& design, const Outcome& o, const std::vector<int>& reference) {
  if (!o.result) {
    fmt::print("{:<16} {:<15} {}\n", workload, design, o.failure);
    return;
  }
  const LaunchResult& r = *o.result;
  const double simt = r.warp_instructions ? double(r.thread_instructions) / (double(r.warp_instructions) * 32) : 0;
  const std::string cycles = r.timing ? fmt::format("{}", r.timing->cycles) : "-";
  const std::string ipc = r.timing ? fmt::format("{:.2f}", r.timing->ipc()) : "-";
  const std::string l1 = r.timing ? fmt::format("{:.1f}%", 100 * r.timing->memory.l1.hit_rate()) : "-";
  fmt::print("{:<16} {:<15} {:>10} {:>6} {:>11} {:>6.1f}% {:>9} {:>9} {:>7} {:>6} {}\n", workload, design, cycles, ipc,
             r.warp_instructions, 100 * simt, r.divergence.divergent_branches, r.divergence.reconvergences,
             r.divergence.yields, l1, reference.empty() || o.output == reference ? "same" : "DIFFERS");
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string gpu = "h100";
  std::vector<std::string> overrides;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    if (std::strcmp(argv[i], "--gpu") == 0 && i + 1 < argc) gpu = argv[++i];
    if (std::strcmp(argv[i], "--set") == 0 && i + 1 < argc) overrides.push_back(argv[++i]);
  }
  const Sizes sizes = quick ? Sizes{4096, 16, 64} : Sizes{32768, 64, 256};
  const std::vector<std::string>& designs = lockstep::func::divergence_unit_names();
  fmt::print("divergence designs on the {} preset: {} threads, {} iterations; the lock with {} threads\n", gpu,
             sizes.n, sizes.iterations, sizes.lock_threads);
  std::vector<std::string> refusals;
  fmt::print("{:<16} {:<15} {:>10} {:>6} {:>11} {:>7} {:>9} {:>9} {:>7} {:>6} {}\n", "workload", "design", "cycles",
             "IPC", "warp-inst", "SIMT", "branches", "reconv", "yields", "L1 hit", "output");
  for (const Workload& w : kWorkloads) {
    std::vector<int> reference;
    for (const std::string& design : designs) {
      std::string refusal;
      const std::unique_ptr<Engine> engine = make_engine(gpu, overrides, design, refusal);
      if (!refusal.empty() && &w == &kWorkloads[0]) refusals.push_back(design + ": " + refusal);
      Outcome o;
      try {
        o = w.run(*engine, engine->load_ptx_file(LOCKSTEP_DIVERGENCE_PTX), sizes);
      } catch (const std::exception& e) {
        o.failure = e.what();
      }
      print_row(w.name, design, o, reference);
      if (reference.empty() && o.result) reference = o.output;
    }
  }
  for (const std::string& r : refusals) fmt::print("functional mode only (timing refused it): {}\n", r);
  return 0;
}
