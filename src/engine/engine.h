#pragma once
// The C++ API of the functional engine: load PTX modules, manage device memory, launch
// kernels and read results back. Every Engine is independent: two in one process never share
// state.
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

struct EngineOptions {
  uint32_t warp_size = 32;          // 4, 8, 16, 32 or 64
  uint32_t stack_size = 1024;       // per-thread local memory for call frames (cudaLimitStackSize)
  uint32_t recursion_stack_size = 16384;  // used instead when a kernel may recurse
  uint32_t time_slice = 4096;       // instructions a warp runs before the next warp gets a turn
};

// One executed instruction, for traces (off unless a hook is set).
struct TraceEvent {
  uint32_t block = 0;       // linear block index
  uint32_t warp = 0;        // warp index in the block
  uint32_t pc = 0;
  uint64_t active_mask = 0; // lanes executing (after the guard)
  uint64_t path_mask = 0;   // lanes on the current path (before the guard)
  uint32_t ptx_line = 0;
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

struct LaunchResult {
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  std::optional<FaultReport> fault;
  std::string printf_output;  // device printf text of this launch, in execution order
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
  ModuleId load_ptx(std::string_view text, std::string_view filename);
  ModuleId load_ptx_file(const std::string& path);
  std::vector<std::string> kernels(ModuleId module) const;
  KernelInfo kernel_info(ModuleId module, std::string_view kernel) const;

  uint64_t malloc(uint64_t bytes);
  void free(uint64_t address);   // throws std::invalid_argument for an unknown address
  void copy_to_device(uint64_t dst, const void* src, uint64_t bytes);
  void copy_to_host(void* dst, uint64_t src, uint64_t bytes);
  void memset(uint64_t dst, uint8_t value, uint64_t bytes);
  // Device address of a module-scope .global/.const variable.
  uint64_t symbol_address(ModuleId module, std::string_view name) const;
  uint64_t symbol_size(ModuleId module, std::string_view name) const;

  LaunchResult launch(ModuleId module, std::string_view kernel, Dim3 grid, Dim3 block,
                      uint32_t dynamic_shared, const std::vector<KernelArg>& args);

  void set_trace(std::function<void(const TraceEvent&)> hook);
  const EngineOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lockstep
