#pragma once
// The engine's inside, shared by its files: engine.cpp (modules, memory), grid_launch.cpp
// (launching grids, functional or timed) and timed_children.cpp (grids device code launches
// while a timed launch runs). Not part of the engine's interface.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "fmt/format.h"
#include "func/cta_runner.h"
#include "func/device_heap.h"
#include "func/device_launches.h"
#include "func/device_memory.h"
#include "func/kernel_binder.h"
#include "func/wave_runner.h"
#include "ir/lower.h"
#include "sim/gpu.h"
#include "sim/timing_launch.h"

namespace lockstep {

struct LoadedModule {
  ir::ModuleProgram program;
  std::map<uint32_t, std::string> files;      // .file index -> CUDA source path
  std::vector<uint64_t> global_addresses;     // per ModuleProgram::globals
  std::vector<func::BoundKernel> kernels;     // parallel to program.kernels
  std::vector<std::string> kernel_errors;     // parallel to program.kernels; "" when bound
};

// One grid set up to run, from the host or from device code: its parameters, its launch state
// (which points into this object, so it never moves), run options, trace hook and shared
// memory, and the result its run fills (printf text included).
struct GridSetup {
  explicit GridSetup(func::DeviceMemory& memory) : memory_view(memory) {}
  GridSetup(const GridSetup&) = delete;
  GridSetup& operator=(const GridSetup&) = delete;

  const LoadedModule* module = nullptr;
  uint32_t index = 0;  // the kernel's, in module->program.kernels
  std::vector<uint8_t> params;
  func::MemoryView memory_view;
  func::LaunchState launch;
  func::RunOptions run;
  func::TraceHook hook;     // empty when no trace is set
  uint32_t shared_size = 0;  // per block, with the reserved region
  LaunchResult result;

  const ir::KernelProgram& kernel() const { return module->program.kernels[index]; }
  const func::TraceHook* trace() const { return hook ? &hook : nullptr; }
};

struct Engine::Impl {
  EngineOptions options;
  func::DeviceMemory memory;
  func::DeviceHeap heap{memory};
  std::vector<std::unique_ptr<LoadedModule>> modules;
  std::function<void(const TraceEvent&)> trace;
  std::function<void(const LaunchProgress&)> progress;
  uint64_t next_grid_id = 1;
  // Timing mode: the cycle-level GPU, built at the first timed launch and kept, so each launch
  // meets the clocks, SMs and warm L2 the launches before it left.
  std::unique_ptr<sim::Gpu> gpu;

  const LoadedModule& module(ModuleId id) const {
    if (id.index >= modules.size()) throw std::invalid_argument("unknown module");
    return *modules[id.index];
  }

  // Sets `g` up for kernel `index` of `m` with these dimensions; `g.params` already holds the
  // parameter buffer. Throws for a kernel that needs what lockstep does not run (clusters).
  void setup_grid(GridSetup& g, const LoadedModule* m, uint32_t index, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                  const LaunchOptions& launch_options, func::DeviceLaunches& device_launches, uint64_t grid_id);
  // The cycle-level model's description of a grid (EngineOptions::timing).
  sim::TimingLaunch timing_launch(const GridSetup& g, const LaunchOptions& launch_options) const;
  // A host launch on the cycle-level model; the grids its device code launches run beside it.
  void run_timing(GridSetup& g, const LaunchOptions& options, func::DeviceLaunches& device_launches,
                  uint32_t depth, LaunchProgress& progress_state);

  // Functional mode: runs the grid's blocks in waves (func/wave_runner.h); a fault is the result's.
  void run_waves(GridSetup& g, const func::WaveRunOptions& wave, LaunchProgress& shown);

  // A launch from the host or from device code, then the grids its device code launched.
  LaunchResult launch_grid(const LoadedModule* m, uint32_t index, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                           std::vector<uint8_t>& params, const LaunchOptions& launch_options,
                           func::DeviceLaunches& device_launches, uint32_t depth);
  // One grid, functional or timed.
  LaunchResult run_grid(const LoadedModule* m, uint32_t index, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                        std::vector<uint8_t>& params, const LaunchOptions& launch_options,
                        func::DeviceLaunches& device_launches, uint64_t grid_id, uint32_t depth);

  // The kernel at a function's device address (function_base + 16 * ordinal, Engine::load_module).
  std::optional<std::pair<const LoadedModule*, uint32_t>> kernel_at(uint64_t address) const {
    if (address < func::kFunctionWindow || (address - func::kFunctionWindow) % 16 != 0) return std::nullopt;
    const uint64_t module_index = (address - func::kFunctionWindow) >> 32;
    const uint64_t ordinal = ((address - func::kFunctionWindow) & 0xffffffffu) / 16;
    if (module_index >= modules.size()) return std::nullopt;
    const LoadedModule& m = *modules[module_index];
    if (ordinal >= m.program.function_names.size()) return std::nullopt;
    for (uint32_t i = 0; i < m.program.kernels.size(); ++i)
      if (m.program.kernels[i].name == m.program.function_names[ordinal]) return std::pair{&m, i};
    return std::nullopt;
  }
  std::optional<uint32_t> kernel_param_size(uint64_t address) const {
    const auto at = kernel_at(address);
    if (!at) return std::nullopt;
    return at->first->program.kernels[at->second].param_buffer_size;
  }

  std::pair<const LoadedModule*, uint32_t> kernel(ModuleId id, std::string_view name) const {
    const LoadedModule& m = module(id);
    for (uint32_t i = 0; i < m.program.kernels.size(); ++i)
      if (m.program.kernels[i].name == name) return {&m, i};
    throw std::invalid_argument(fmt::format("no kernel named '{}' in {}", name, m.program.file));
  }
};

// A fault as the engine reports it: kernel, block, thread, PC, where in the PTX and the CUDA source.
FaultReport make_report(const LoadedModule& m, const ir::KernelProgram& k, const func::LaunchFault& f,
                        const func::CtaState& cta, const func::LaunchState& launch, uint32_t width);

}  // namespace lockstep
