#pragma once
// The C++ API of the functional engine: load PTX modules, manage device memory, launch
// kernels and read results back. Every Engine is independent: two in one process never share
// state.
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "config/gpu_config.h"
#include "func/device_info.h"
#include "func/divergence/divergence_counters.h"
#include "sim/kernel_timing.h"

namespace lockstep::ptx {
struct Module;
}

namespace lockstep {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

// The most threads a run may use (EngineOptions::sim_threads).
inline constexpr uint32_t kMaxSimThreads = 256;
// `text` as a thread count: a whole number from 1 to kMaxSimThreads, else nothing.
std::optional<uint32_t> parse_sim_threads(std::string_view text);

struct EngineOptions {
  uint32_t warp_size = 32;          // 4, 8, 16, 32 or 64
  uint32_t stack_size = 1024;       // per-thread local memory for call frames (cudaLimitStackSize)
  uint32_t recursion_stack_size = 16384;  // used instead when a kernel may recurse
  uint32_t time_slice = 4096;       // instructions a warp runs before the next warp gets a turn
  // Set: launches run on the cycle-level model of this GPU (docs/timing-model.md) and report
  // its figures in LaunchResult::timing; results are those of the functional model. Unset:
  // functional mode. warp_size must equal timing->sm.warp_size.
  std::shared_ptr<const config::GpuConfig> timing;
  // Host threads a launch runs on (1: the caller's alone): timing mode steps the modelled SMs
  // on them, functional mode the resident blocks (func/wave_runner.h). Results, printf text,
  // statistics and fault reports are bit-identical for any number.
  uint32_t sim_threads = 1;
  // Functional mode: blocks of an ordinary launch resident at once (func/wave_runner.h). Part of
  // what a run computes when blocks communicate (the order of their atomics), so a fixed number,
  // never derived from the host's threads.
  uint32_t resident_blocks = 64;
  // Functional mode on several threads: parked stores that touch no other parked instruction's
  // bytes commit side by side (func/commit_plan.h). Off: every parked instruction commits on
  // one thread. The results are the same either way; off is there to measure the difference.
  bool parallel_commit = true;
  // Strict bounds (`--memcheck`): every access outside an allocation faults. Otherwise an access
  // a little past an allocation's end, into memory a GPU maps there too, does not
  // (func/device_memory.h).
  bool memcheck = false;
  // sm.divergence: how a warp runs divergent control flow, in both modes (timing mode takes
  // it, and yield_after, from `timing` when that sets them) ("branch-barrier":
  // independent thread scheduling, as on cc 7.0 and later; "ipdom-stack": the SIMT stack;
  // "thread-frontier": lowest PC first, reconvergence at thread frontiers; "dwf", "tbc",
  // "large-warp", "sbi", "swi": block-level units).
  std::string divergence = "branch-barrier";
  // sm.yield_after: backward branches in a row before a branch-barrier thread group yields.
  uint32_t yield_after = 64;
  // sm.large_warp_size: warps per large warp under "large-warp" (timing mode refuses the unit).
  uint32_t large_warp_size = 4;
  // run.watchdog_*: when a launch that finishes no block is reported as a deadlock (timing
  // mode takes them from `timing`, as it takes sm.divergence).
  config::GpuConfig::Run watchdog;
  // What device code's cudaDeviceGetAttribute, cudaRuntimeGetVersion and friends answer (the
  // runtime fills it from the preset; empty: they answer cudaErrorInvalidValue).
  func::DeviceInfo device_info;
};

// One executed instruction, for traces (off unless a hook is set).
struct TraceEvent {
  uint32_t block = 0;       // linear block index
  uint32_t warp = 0;        // warp index in the block
  uint32_t pc = 0;
  uint64_t active_mask = 0; // lanes executing (after the guard)
  uint64_t path_mask = 0;   // lanes on the current path (before the guard)
  uint32_t ptx_line = 0;
  // Timing mode: the cycle the instruction issued in. Functional mode: the warp's instruction
  // count before it (what %clock reads there).
  uint64_t cycle = 0;
  // Block-level units (dwf ... swi): the formed warp these lanes issued in, numbered from 1 per
  // block in issue order; the events of one formed warp (one per home warp with threads in it;
  // sbi, swi: then the secondary path's) share it, one after another. 0: the per-warp units.
  uint64_t formed_warp = 0;
};

// A device-side fault, reported like a memory checker does.
struct FaultReport {
  std::string kind;         // "out-of-bounds access", "misaligned access", "trap", ...
  std::string kernel;
  Dim3 block;               // block index
  Dim3 thread;              // thread index in the block
  uint32_t pc = 0;
  std::string ptx_location;   // file:line of the PTX instruction
  std::string cuda_location;  // file:line of the CUDA source, "" if unknown
  uint64_t address = 0;
  uint32_t size = 0;
  std::string space;
  std::string detail;
  std::string message;        // the full text printed for the user
};

// ---- cooperative launches (coop) ------------------------------------------------------------
// Per-launch options beyond geometry and arguments.
struct LaunchOptions {
  // cudaLaunchCooperativeKernel: every block of the grid is resident at once and blocks run
  // in epochs (func/wave_runner.h, on the --threads host threads), so blocks waiting for each
  // other through global memory (cooperative_groups::this_grid().sync()) make progress.
  // The engine allocates the grid workspace that the cooperative-groups headers read (struct
  // {u32 size; u32 barrier;}, zeroed) and passes its address in %envreg1 (high 32 bits) and
  // %envreg2 (low 32 bits), overriding `envreg` there. A grid that can never finish is
  // reported as a "deadlock" fault (see func/wave_runner.h for the rule).
  bool cooperative = false;
  // Values of %envreg0..%envreg31 in every thread. CUDA leaves them 0 for ordinary launches.
  std::array<uint32_t, 32> envreg{};
  // Cooperative launches: warp instructions after which a launch that has not finished is
  // reported as a deadlock (0: no limit; the repeated-state rule still applies), checked after
  // each epoch.
  uint64_t instruction_budget = uint64_t{1} << 34;
  // Timing mode: the kernel's registers per thread (from its cubin or ptxas), which the
  // occupancy the CTA scheduler places by depends on. 0: unknown; the engine uses an estimate
  // and the report says so.
  uint32_t registers_per_thread = 0;
  // Kernel launches from device code (dynamic parallelism) that may be pending at once, across
  // the whole tree of grids this launch starts (cudaLimitDevRuntimePendingLaunchCount).
  uint32_t pending_launch_limit = 2048;
};
// ---- end cooperative launches -------------------------------------------------------------

// A grid that device code launched (dynamic parallelism): functional mode runs it once its parent
// has finished, timing mode beside its parent (docs/timing-model.md, "Child grids").
struct ChildGrid {
  std::string kernel;
  Dim3 grid, block;
  uint32_t dynamic_shared = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  func::DivergenceCounters divergence;
  std::string fault;  // the fault's message, "" when the grid ran to completion
  std::optional<sim::KernelTiming> timing;
};

struct LaunchResult {
  // The host-launched grid's own figures; its children's are in child_grids.
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  // What the warps' divergence units did (func/divergence/divergence_counters.h), in either mode.
  func::DivergenceCounters divergence;
  std::optional<FaultReport> fault;
  std::string printf_output;  // device printf text of this launch, in execution order
  std::optional<sim::KernelTiming> timing;  // timing mode: what the cycle-level model measured
  // Every grid launched from device code, descendants included: in the order they ran
  // (functional mode), or were launched (timing mode). The fault above may be a child's;
  // printf_output holds the children's text, after the parent's (functional mode) or in the
  // order the grids printed it (timing mode).
  std::vector<ChildGrid> child_grids;
};

// A kernel argument: its bytes, laid out by the engine at the kernel's parameter offsets.
struct KernelArg {
  std::vector<uint8_t> bytes;
  template <class T>
  static KernelArg of(const T& value) {
    KernelArg a;
    a.bytes.resize(sizeof(T));
    std::memcpy(a.bytes.data(), &value, sizeof(T));
    return a;
  }
};

struct ModuleId {
  uint32_t index = 0;
};

// One translation unit's PTX text and the name its diagnostics carry.
struct PtxSource {
  std::string text;
  std::string filename;
};

struct LoadOptions {
  // false: an instruction no kernel can run (an unsupported form) fails the whole load, which is
  // what a PTX checker wants. true: the load succeeds and only kernels that reach such an
  // instruction are unavailable; launching one throws KernelUnavailable. A program's other
  // kernels still run, which is what a CUDA runtime wants.
  bool defer_kernel_errors = false;
  // Module variables the caller has already placed in device memory, by PTX name (managed
  // variables live in host-mapped memory: map_host_memory). The engine uses these addresses and
  // writes the initializers there instead of allocating.
  std::map<std::string, uint64_t> placed_variables;
};

// Thrown by Engine::launch for a kernel whose code could not be bound (LoadOptions above).
class KernelUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where a launch stands, for progress displays: called after every finished thread block.
struct LaunchProgress {
  std::string_view kernel;
  uint64_t blocks_done = 0;
  uint64_t blocks_total = 0;
  uint64_t thread_instructions = 0;  // so far in this launch
};

struct KernelParamInfo {
  std::string name;
  uint32_t offset = 0, size = 0, align = 1;
};

struct KernelInfo {
  std::string name;
  std::vector<KernelParamInfo> params;
  uint32_t static_shared_bytes = 0;
  uint32_t registers = 0;   // PTX virtual registers (a stand-in until ptxas figures exist)
  std::vector<std::pair<std::string, uint32_t>> labels;  // label -> PC
};

class Engine {
 public:
  explicit Engine(EngineOptions options = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Parses, checks, lowers and binds every kernel. Throws ptx::Error on bad input.
  ModuleId load_ptx(std::string_view text, std::string_view filename, LoadOptions load = {});
  ModuleId load_ptx_file(const std::string& path, LoadOptions load = {});
  // The PTX of several translation units built with separate compilation (-rdc=true), linked
  // into one module as nvlink links them (ptx/link.h), then loaded as load_ptx does.
  ModuleId load_linked_ptx(const std::vector<PtxSource>& units, std::string_view filename, LoadOptions load = {});
  std::vector<std::string> kernels(ModuleId module) const;
  KernelInfo kernel_info(ModuleId module, std::string_view kernel) const;
  // Why a kernel cannot run (deferred load errors), or "" when it can.
  std::string kernel_error(ModuleId module, std::string_view kernel) const;

  uint64_t malloc(uint64_t bytes);
  void free(uint64_t address);   // throws std::invalid_argument for an unknown address
  // An address range that malloc() never hands out, unmapped until malloc_at() (graph memory
  // nodes: their address is fixed when the node is made, the memory valid only while in use).
  uint64_t reserve(uint64_t bytes);
  // Zero-filled device memory at `address`, a reserve() result; throws std::invalid_argument
  // when the range is in use already.
  void malloc_at(uint64_t address, uint64_t bytes);
  // Makes [host, host + bytes) device memory at the same numeric address (managed memory):
  // kernels and copies reach the host bytes, which the caller keeps mapped until free(address).
  // Throws std::invalid_argument when the range overlaps device memory.
  void map_host_memory(void* host, uint64_t bytes);
  void copy_to_device(uint64_t dst, const void* src, uint64_t bytes);
  void copy_to_host(void* dst, uint64_t src, uint64_t bytes);
  void memset(uint64_t dst, uint8_t value, uint64_t bytes);
  // Device address of a module-scope .global/.const variable.
  uint64_t symbol_address(ModuleId module, std::string_view name) const;
  uint64_t symbol_size(ModuleId module, std::string_view name) const;

  LaunchResult launch(ModuleId module, std::string_view kernel, Dim3 grid, Dim3 block,
                      uint32_t dynamic_shared, const std::vector<KernelArg>& args);
  LaunchResult launch(ModuleId module, std::string_view kernel, Dim3 grid, Dim3 block,
                      uint32_t dynamic_shared, const std::vector<KernelArg>& args,
                      const LaunchOptions& options);

  // The device heap of malloc/new in kernels (cudaLimitMallocHeapSize): settable only until a
  // kernel first allocates from it; false after that.
  bool set_heap_size(uint64_t bytes);
  // Per-thread local memory for call frames of later launches (cudaLimitStackSize).
  void set_stack_size(uint32_t bytes);
  uint64_t heap_size() const;

  void set_trace(std::function<void(const TraceEvent&)> hook);
  void set_progress(std::function<void(const LaunchProgress&)> hook);
  const EngineOptions& options() const;

 private:
  // Checks, lowers, places the module's variables and binds every kernel.
  ModuleId load_module(ptx::Module parsed, const LoadOptions& load);

  // The engine's inside (engine_impl.h): public only so that the engine's own files can name it.
 public:
  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace lockstep
