#pragma once
// The drop-in CUDA runtime's state and behaviour, as a plain C++ class: an Engine, the
// registration tables of the program's fat binaries, the error state with CUDA's semantics,
// streams and events (all in order: the engine runs every kernel to completion at launch),
// and per-kernel statistics. The extern "C" shim in cudart/ translates libcudart calls into
// calls on one Runtime.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <driver_types.h>

#include "engine/engine.h"
#include "runtime/device_preset.h"
#include "runtime/kernel_stats.h"
#include "runtime/module_table.h"

namespace lockstep::runtime {

struct RuntimeOptions {
  uint32_t warp_size = 32;
  bool summary = false;        // print the per-kernel summary to stderr at destruction
  DevicePreset preset;
};

// LOCKSTEP_WARP_SIZE (default 32) and LOCKSTEP_SUMMARY=1, as `lockstep run` sets them.
RuntimeOptions options_from_environment();

struct LaunchConfig {
  Dim3 grid, block;
  size_t shared = 0;
  void* stream = nullptr;
};

class Runtime {
 public:
  // Messages go to `err` (prefixed "lockstep: "), device printf output to `out`.
  explicit Runtime(RuntimeOptions options, std::FILE* out = stdout, std::FILE* err = stderr);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Registration (before main).
  void** register_fatbin(const void* wrapper) { return modules_.add_fatbin(wrapper); }
  void register_kernel(void** handle, const void* host_fun, const char* name) {
    modules_.add_kernel(handle, host_fun, name);
  }
  void register_variable(void** handle, const void* host_var, const char* name, uint64_t size, bool constant) {
    modules_.add_variable(handle, host_var, name, size, constant);
  }

  // <<<>>> configuration stack: pushed at the call site, popped by the host stub.
  void push_config(const LaunchConfig& c) { configs_.push_back(c); }
  bool pop_config(LaunchConfig& c);

  // Runs the kernel whose host stub is `host_fun` to completion. `args` holds one pointer
  // per kernel parameter. A device fault becomes the sticky error; the call itself returns
  // cudaSuccess then (the fault shows up at the next synchronizing call, as on a GPU).
  cudaError_t launch(const void* host_fun, Dim3 grid, Dim3 block, void** args, size_t shared);
  bool knows_kernel(const void* host_fun) const { return modules_.kernel(host_fun) != nullptr; }
  cudaError_t kernel_attributes(const void* host_fun, cudaFuncAttributes& attributes);
  // cudaFuncSetAttribute: the dynamic shared memory limit (checked at launch) and the carve-out.
  cudaError_t set_kernel_attribute(const void* host_fun, cudaFuncAttribute attribute, int value);
  // Resident blocks per SM for this kernel, block size and dynamic shared memory, from the
  // preset's limits (threads, blocks, registers, shared memory per SM).
  cudaError_t occupancy(int& blocks, const void* host_fun, int block_size, size_t dynamic_shared);

  // Memory. Device pointers are lockstep device addresses.
  cudaError_t malloc(void** pointer, size_t bytes);
  cudaError_t free(void* pointer);
  cudaError_t memcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
  cudaError_t memset(void* dst, int value, size_t bytes);
  cudaError_t symbol(const void* host_var, uint64_t& address, uint64_t& size);
  cudaError_t copy_to_symbol(const void* host_var, const void* src, size_t bytes, size_t offset,
                             cudaMemcpyKind kind);
  cudaError_t copy_from_symbol(void* dst, const void* host_var, size_t bytes, size_t offset,
                               cudaMemcpyKind kind);
  void memory_info(size_t& free_bytes, size_t& total_bytes) const;
  // Page-locked host memory (cudaMallocHost/cudaHostAlloc): plain host memory here, tracked so
  // that cudaFreeHost, cudaHostGetFlags and cudaPointerGetAttributes know it.
  cudaError_t malloc_host(void** pointer, size_t bytes, unsigned flags);
  cudaError_t free_host(void* pointer);
  cudaError_t host_flags(const void* pointer, unsigned& flags);
  cudaError_t pointer_attributes(const void* pointer, cudaPointerAttributes& attributes) const;
  bool is_device_address(uint64_t address, uint64_t bytes = 1) const;

  // Errors, with CUDA semantics: a failing call sets the last error; a device fault is sticky
  // (every later call returns it) until reset().
  cudaError_t record(cudaError_t e);
  cudaError_t sticky() const { return sticky_; }
  cudaError_t take_last_error();
  cudaError_t peek_last_error() const { return last_; }
  void reset();
  // Prints "lockstep: <function> is not supported yet" the first time per function.
  void report_unsupported(const char* function);

  // Streams and events. An event records the number of thread instructions run so far;
  // elapsed time converts instructions at the nominal rate below.
  void* create_stream();
  bool destroy_stream(void* stream);
  // The default stream (0), the special handles cudaStreamLegacy (1) and cudaStreamPerThread (2),
  // or a stream created by cudaStreamCreate*.
  bool is_stream(void* stream) const {
    const auto handle = reinterpret_cast<uintptr_t>(stream);
    return handle <= 2 || streams_.count(stream) != 0;
  }
  void* create_event();
  bool destroy_event(void* event);
  bool record_event(void* event);
  // Milliseconds between two recorded events; false when either is unknown or unrecorded.
  bool elapsed_ms(void* start, void* stop, float& ms) const;
  // Nominal throughput: every SM retires 128 thread instructions per cycle at the preset clock.
  double thread_instructions_per_ms() const;

  const DevicePreset& preset() const { return options_.preset; }
  uint32_t warp_size() const { return options_.warp_size; }
  void print(const std::string& message) const;

 private:
  std::optional<ModuleId> module_of(uint32_t fatbin);
  cudaError_t run_launch(const KernelRecord& k, ModuleId module, Dim3 grid, Dim3 block, void** args,
                         size_t shared);
  cudaError_t copy_device(uint64_t dst, uint64_t src, uint64_t bytes);
  const KernelInfo* loaded_kernel(const void* host_fun, const KernelRecord*& record, ModuleId& module,
                                  cudaError_t& error);
  // The most dynamic shared memory a launch of `k` may ask for (cudaFuncSetAttribute raises it).
  uint64_t dynamic_shared_limit(const KernelRecord& k, uint32_t static_shared) const;

  RuntimeOptions options_;
  std::FILE* out_;
  std::FILE* err_;
  Engine engine_;
  ModuleTable modules_;
  std::vector<LaunchConfig> configs_;
  std::map<uint64_t, uint64_t> device_ranges_;  // base -> bytes: allocations and module variables
  std::map<uint64_t, uint64_t> allocations_;    // base -> bytes: cudaMalloc only
  uint64_t allocated_bytes_ = 0;
  cudaError_t last_ = cudaSuccess;
  cudaError_t sticky_ = cudaSuccess;
  std::set<std::string> unsupported_reported_;
  std::unordered_map<void*, std::unique_ptr<char>> streams_;  // a stream is the address of a token
  struct Event {
    bool recorded = false;
    uint64_t at = 0;  // thread instructions run before the record
  };
  std::unordered_map<void*, std::unique_ptr<Event>> events_;
  std::unordered_map<const void*, KernelInfo> kernel_infos_;  // by host stub, filled at first use
  struct KernelSettings {
    int max_dynamic_shared = -1;  // -1: the default (48 KiB less the static shared memory)
    int carveout = -1;
  };
  // Keyed by the ModuleTable's record, whose address is stable (node-based map).
  std::unordered_map<const KernelRecord*, KernelSettings> kernel_settings_;
  struct HostAllocation {
    size_t bytes = 0;
    unsigned flags = 0;
  };
  std::map<uint64_t, HostAllocation> host_allocations_;  // base -> allocation
  const HostAllocation* host_allocation(const void* pointer) const;  // any address inside one
  KernelStats stats_;
};

}  // namespace lockstep::runtime
