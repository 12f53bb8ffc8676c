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

#include "config/gpu_config.h"
#include "engine/engine.h"
#include "runtime/device_preset.h"
#include "runtime/graph_memory.h"
#include "runtime/graph_table.h"
#include "runtime/host_thread.h"
#include "runtime/managed_advice.h"
#include "runtime/managed_mappings.h"
#include "runtime/mem_pools.h"
#include "runtime/module_table.h"
#include "runtime/progress_line.h"
#include "runtime/stream_capture.h"
#include "sim/occupancy.h"
#include "stats/run_stats.h"
#include "runtime/texture_objects.h"
#include "runtime/user_objects.h"

namespace lockstep::runtime {

// --- the modelled GPU (config room): begin ---
// `gpu` is the configuration; warp_size and preset are derived from it (runtime_options fills
// all three consistently).
struct RuntimeOptions {
  config::GpuConfig gpu = config::load_gpu_config("h100");
  uint32_t warp_size = gpu.sm.warp_size;
  bool summary = false;        // print the per-kernel summary to stderr at destruction
  std::string stats_json;      // write the stats JSON document here at destruction ("" = nowhere)
  bool progress = false;       // a progress line on stderr during long launches
  bool timing = false;         // run kernels on the cycle-level model of `gpu` (--mode timing)
  uint32_t threads = 1;        // timing mode: threads that step the modelled SMs (--threads)
  bool memcheck = false;       // strict bounds for kernels' accesses (--memcheck, LOCKSTEP_MEMCHECK=1)
  DevicePreset preset = device_preset(gpu);
};

// Options for the modelled GPU `gpu`, with the derived fields filled in.
RuntimeOptions runtime_options(config::GpuConfig gpu);

// LOCKSTEP_GPU (a preset name, default h100), LOCKSTEP_WARP_SIZE (the same as an override
// sm.warp_size=N), LOCKSTEP_SET (overrides key=value, one per line, applied after it),
// LOCKSTEP_MODE (functional or timing), LOCKSTEP_THREADS (1 to 256) and LOCKSTEP_SUMMARY=1, as
// `lockstep run` sets them. `lockstep run` has checked them; a bad value set by other means
// prints "lockstep: <error>" and exits with status 1.
// --- the modelled GPU (config room): end ---
RuntimeOptions options_from_environment();
// LOCKSTEP_STATS_JSON (a file name) and LOCKSTEP_PROGRESS (1: always, 0: never; unset: when
// stderr is a terminal).
void read_report_options(RuntimeOptions& options);

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
  void push_config(const LaunchConfig& c) { configs_[current_host_thread()].push_back(c); }
  bool pop_config(LaunchConfig& c);

  // Runs the kernel whose host stub is `host_fun` to completion. `args` holds one pointer
  // per kernel parameter. A device fault becomes the sticky error; the call itself returns
  // cudaSuccess then (the fault shows up at the next synchronizing call, as on a GPU).
  cudaError_t launch(const void* host_fun, Dim3 grid, Dim3 block, void** args, size_t shared);
  // ---- cooperative launches (runtime_cooperative.cpp) ----
  // cudaLaunchCooperativeKernel: launch()'s checks, then cudaErrorCooperativeLaunchTooLarge
  // when the grid has more blocks than can be resident at once (occupancy() blocks per SM
  // times the multiprocessors); runs every block resident, so grid.sync() works.
  cudaError_t launch_cooperative(const void* host_fun, Dim3 grid, Dim3 block, void** args, size_t shared);
  // ---- end cooperative launches ----
  bool knows_kernel(const void* host_fun) const { return modules_.kernel(host_fun) != nullptr; }
  cudaError_t kernel_attributes(const void* host_fun, cudaFuncAttributes& attributes);
  // cudaFuncGetParamInfo: where parameter `index` of the kernel lies in its parameter buffer.
  cudaError_t kernel_parameter(const void* host_fun, size_t index, size_t& offset, size_t& size);
  // cudaFuncSetAttribute: the dynamic shared memory limit (checked at launch) and the carve-out.
  cudaError_t set_kernel_attribute(const void* host_fun, cudaFuncAttribute attribute, int value);
  // Resident blocks per SM for this kernel, block size and dynamic shared memory, from the
  // preset's limits (threads, blocks, registers, shared memory per SM).
  cudaError_t occupancy(int& blocks, const void* host_fun, int block_size, size_t dynamic_shared);
  // cudaOccupancyAvailableDynamicSMemPerBlock (sim::available_dynamic_shared): the most dynamic
  // shared memory a block of `block_size` threads may use with `blocks` blocks per SM;
  // cudaErrorInvalidValue when that many do not fit even without any.
  cudaError_t available_dynamic_shared(size_t& bytes, const void* host_fun, int blocks, int block_size);

  // ---- code loaded at run time (runtime_libraries.cpp) ----
  // cudaLibraryLoadData: the code (read_loaded_code) is loaded at once, so a bad image fails
  // here (cudaErrorInvalidPtx, cudaErrorNoKernelImageForDevice, the reason printed). Each of
  // its kernels gets a handle of its own that works wherever a host stub does.
  cudaError_t load_library(const void* code, cudaLibrary_t& library);
  cudaError_t unload_library(cudaLibrary_t library);
  // By mangled name; cudaErrorSymbolNotFound for a name the library lacks.
  cudaError_t library_kernel(cudaLibrary_t library, const char* name, cudaKernel_t& kernel);
  cudaError_t library_kernels(cudaLibrary_t library, std::vector<cudaKernel_t>& kernels);
  cudaError_t library_global(cudaLibrary_t library, const char* name, void*& address, size_t& bytes);
  // ---- end code loaded at run time ----

  // Memory. Device pointers are lockstep device addresses.
  cudaError_t malloc(void** pointer, size_t bytes);
  cudaError_t free(void* pointer);
  // cudaMallocAsync / cudaMallocFromPoolAsync: device memory counted against `pool`
  // (mem_pools.h); cudaFree and cudaFreeAsync return it.
  cudaError_t malloc_from_pool(void** pointer, size_t bytes, cudaMemPool_t pool, void* stream);
  MemPools& mem_pools() { return mem_pools_; }
  cudaError_t memcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
  cudaError_t memset(void* dst, int value, size_t bytes);
  cudaError_t symbol(const void* host_var, uint64_t& address, uint64_t& size);
  // The device address of bytes [offset, offset + bytes) of the variable; cudaErrorInvalidValue
  // when the variable is smaller.
  cudaError_t symbol_range(const void* host_var, size_t offset, size_t bytes, uint64_t& address);
  cudaError_t copy_to_symbol(const void* host_var, const void* src, size_t bytes, size_t offset,
                             cudaMemcpyKind kind);
  cudaError_t copy_from_symbol(void* dst, const void* host_var, size_t bytes, size_t offset,
                               cudaMemcpyKind kind);
  void memory_info(size_t& free_bytes, size_t& total_bytes) const;
  // Page-locked host memory (cudaMallocHost/cudaHostAlloc, cudaHostRegister): host memory that
  // kernels reach at the same address (unified addressing, zero-copy), as on every GPU since
  // cc 2.0 with a 64-bit host; tracked so that cudaFreeHost, cudaHostGetFlags,
  // cudaHostGetDevicePointer and cudaPointerGetAttributes know it.
  cudaError_t malloc_host(void** pointer, size_t bytes, unsigned flags);
  cudaError_t free_host(void* pointer);
  cudaError_t host_flags(const void* pointer, unsigned& flags);
  cudaError_t host_register(void* pointer, size_t bytes, unsigned flags);
  cudaError_t host_unregister(void* pointer);
  cudaError_t host_device_pointer(void** device, void* host, unsigned flags);
  cudaError_t pointer_attributes(const void* pointer, cudaPointerAttributes& attributes) const;
  bool is_device_address(uint64_t address, uint64_t bytes = 1) const;

  // ---- Managed memory (runtime_managed.cpp) and pitched memory (runtime_memory2d.cpp) ----
  // cudaMallocManaged: host memory that kernels reach at the same numeric address.
  cudaError_t malloc_managed(void** pointer, size_t bytes, unsigned flags);
  // __cudaRegisterManagedVar: places the variable in managed memory at once and stores its
  // address in the program's pointer, through which nvcc's host code reaches the variable.
  void register_managed_variable(void** handle, void** host_pointer, const char* name, uint64_t size);
  // __cudaInitModule (before the host's first use of a managed variable): loads the module so
  // that its managed variables hold their initial values. False when it cannot be loaded.
  bool init_module(void** handle);
  bool is_managed(const void* pointer) const { return managed_.find(reinterpret_cast<uint64_t>(pointer)) != nullptr; }
  // cudaMemPrefetchAsync, cudaMemAdvise: validated, and recorded for cudaMemRangeGetAttribute.
  cudaError_t prefetch(const void* pointer, size_t bytes, cudaMemLocation location, unsigned flags, void* stream);
  cudaError_t advise(const void* pointer, size_t bytes, cudaMemoryAdvise advice, cudaMemLocation location);
  cudaError_t range_attribute(void* data, size_t data_size, cudaMemRangeAttribute attribute, const void* pointer,
                              size_t bytes);
  // Pitched (2D and 3D) linear memory; pitches are multiples of kPitchAlignment.
  static constexpr size_t kPitchAlignment = 512;
  cudaError_t malloc_pitch(void** pointer, size_t* pitch, size_t width, size_t height);
  cudaError_t memcpy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                        cudaMemcpyKind kind);
  cudaError_t memset_2d(void* dst, size_t pitch, int value, size_t width, size_t height);
  cudaError_t malloc_3d(cudaPitchedPtr* pointer, cudaExtent extent);
  // cudaMemcpy3D: linear memory here; with srcArray or dstArray set, memcpy_3d_array.
  cudaError_t memcpy_3d(const cudaMemcpy3DParms& p);
  cudaError_t memset_3d(cudaPitchedPtr pointer, int value, cudaExtent extent);
  // ---- end managed and pitched memory ----

  // ---- CUDA arrays, texture and surface objects (runtime_textures.cpp) ----
  cudaError_t malloc_array(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                           unsigned flags);
  cudaError_t free_array(cudaArray_t array);
  cudaError_t array_info(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned* flags, cudaArray_t array);
  // cudaMemcpy2DToArray / cudaMemcpy2DFromArray: offsets and width in bytes.
  cudaError_t copy_to_array(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                            size_t width, size_t height, cudaMemcpyKind kind);
  cudaError_t copy_from_array(void* dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                              size_t width, size_t height, cudaMemcpyKind kind);
  // cudaMemcpy3D with a CUDA array on either side or both (runtime_memcpy3d_array.cpp): the
  // extent and an array's position in its elements, a pointer's x position in bytes.
  cudaError_t memcpy_3d_array(const cudaMemcpy3DParms& p);
  cudaError_t create_texture_object(cudaTextureObject_t* object, const cudaResourceDesc* resource,
                                    const cudaTextureDesc* texture, const cudaResourceViewDesc* view);
  cudaError_t destroy_texture_object(cudaTextureObject_t object);
  cudaError_t texture_object_resource(cudaResourceDesc* resource, cudaTextureObject_t object);
  cudaError_t texture_object_description(cudaTextureDesc* texture, cudaTextureObject_t object);
  cudaError_t create_surface_object(cudaSurfaceObject_t* object, const cudaResourceDesc* resource);
  cudaError_t destroy_surface_object(cudaSurfaceObject_t object);
  cudaError_t surface_object_resource(cudaResourceDesc* resource, cudaSurfaceObject_t object);
  // ---- end arrays, textures and surfaces ----

  // Errors, with CUDA semantics: a failing call sets the last error; a device fault is sticky
  // (every later call returns it) until reset().
  cudaError_t record(cudaError_t e);
  cudaError_t sticky() const { return sticky_; }
  cudaError_t take_last_error();
  cudaError_t peek_last_error() const;
  void reset();
  // Prints "lockstep: <function> is not supported yet" the first time per function.
  void report_unsupported(const char* function);
  // The driver API stand-in's unsupported entry points (libcuda.so.1): said once, by name; the
  // runtime's last error is not the driver's, so it stays.
  void note_unsupported(const char* function);

  // Streams and events. An event records how far the device got (device_ms): in timing mode the
  // modelled cycles of the kernels run so far at the preset's clock (kernels run back to back); in
  // functional mode the thread instructions run so far at the nominal rate below; in both, the
  // time the copies and memsets so far took.
  // Stream priorities as a Hopper-class GPU reports them: 0 (least) down to -5 (greatest).
  static constexpr int kLeastStreamPriority = 0;
  static constexpr int kGreatestStreamPriority = -5;
  // `priority` is clamped into the range, as CUDA does. Streams run in order at the call, so
  // flags and priority only have to be reported back.
  void* create_stream(unsigned flags = 0, int priority = 0);
  bool destroy_stream(void* stream);
  // The flags and priority a stream was created with; the special handles report 0 and 0.
  unsigned stream_flags(void* stream) const;
  int stream_priority(void* stream) const;
  // cudaStreamGetId: the default stream (0 and cudaStreamLegacy) is 0, cudaStreamPerThread 1,
  // created streams 2, 3, ... in creation order, never reused.
  uint64_t stream_id(void* stream) const;
  // The attributes a program set on a stream (cudaStreamSetAttribute; the priority is the
  // stream's own, above), by cudaStreamAttrID; null: never set. The special handles keep theirs
  // too. Streams run in order at the call, so attributes only have to be reported back.
  const cudaStreamAttrValue* stream_attribute(void* stream, int id) const;
  void set_stream_attribute(void* stream, int id, const cudaStreamAttrValue& value);
  void set_stream_priority(void* stream, int priority);  // clamped into the range
  // cudaStreamCopyAttributes: `to` takes `from`'s attributes and priority.
  void copy_stream_attributes(void* to, void* from);
  // The flags of cudaSetDeviceFlags, as cudaGetDeviceFlags reports them back.
  unsigned device_flags() const { return device_flags_; }
  void set_device_flags(unsigned flags) { device_flags_ = flags; }
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
  // The device's time so far, in ms: its kernels' (modelled cycles in timing mode, the nominal
  // throughput's estimate in functional mode) plus its copies' and memsets'.
  double device_ms() const;
  // Copies and memsets move the device's time on: bytes over the host link at its bandwidth per
  // direction; device-memory traffic (a device-to-device copy reads and writes each byte, a
  // memset writes it) at device memory's peak (memory clock x 2 transfers x bus width). No
  // per-copy latency is charged.
  void charge_host_link(uint64_t bytes);
  void charge_device_memory(uint64_t traffic_bytes);

  // cudaDeviceGetLimit / cudaDeviceSetLimit.
  cudaError_t limit(cudaLimit which, size_t& value) const;
  cudaError_t set_limit(cudaLimit which, size_t value);
  // The mangled name of the kernel whose host stub is `host_fun`, or nullptr (cudaFuncGetName).
  const char* kernel_name(const void* host_fun) const {
    const KernelRecord* k = modules_.kernel(host_fun);
    return k == nullptr ? nullptr : k->name.c_str();
  }

  const DevicePreset& preset() const { return options_.preset; }
  uint32_t warp_size() const { return options_.warp_size; }
  void print(const std::string& message) const;

 private:
  std::optional<ModuleId> module_of(uint32_t fatbin);
  cudaError_t run_launch(const KernelRecord& k, ModuleId module, Dim3 grid, Dim3 block, void** args,
                         size_t shared, const LaunchOptions& launch_options = {});
  cudaError_t copy_device(uint64_t dst, uint64_t src, uint64_t bytes);
  const KernelInfo* loaded_kernel(const void* host_fun, const KernelRecord*& record, ModuleId& module,
                                  cudaError_t& error);
  // Registers per thread from the kernel's cubin or ptxas; 0 when neither gave a figure.
  uint32_t known_registers(const KernelRecord& k) const;
  // The most dynamic shared memory a launch of `k` may ask for (cudaFuncSetAttribute raises it).
  uint64_t dynamic_shared_limit(const KernelRecord& k, uint32_t static_shared) const;
  sim::OccupancyRequest occupancy_request(const KernelRecord& k, const KernelInfo& info, int block_size,
                                          size_t dynamic_shared) const;

  RuntimeOptions options_;
  std::FILE* out_;
  std::FILE* err_;
  Engine engine_;
  uint64_t device_cycles_ = 0;  // timing mode: the device clock at the end of the last launch
  // The time copies and memsets took (charge_host_link, charge_device_memory).
  double transfer_ms_ = 0;
  ModuleTable modules_;
  // Per host thread (current_host_thread()), as CUDA keeps them: the <<<>>> configurations
  // pushed and not yet popped, and the last error (a sticky error is every thread's).
  std::map<uint64_t, std::vector<LaunchConfig>> configs_;
  std::map<uint64_t, uint64_t> device_ranges_;  // base -> bytes: allocations and module variables
  // A library loaded at run time: its image in the module table, and one handle per kernel (the
  // address of its key), in the module's order.
  struct CodeLibrary {
    void** image = nullptr;
    ModuleId module{};
    std::vector<std::unique_ptr<char>> kernel_keys;
    std::vector<std::string> kernel_names;
  };
  std::unordered_map<const void*, std::unique_ptr<CodeLibrary>> libraries_;  // by cudaLibrary_t
  std::vector<std::unique_ptr<CodeLibrary>> retired_libraries_;  // unloaded: their kernel keys stay valid
  std::map<uint64_t, uint64_t> allocations_;    // base -> bytes: cudaMalloc only
  uint64_t allocated_bytes_ = 0;
  MemPools mem_pools_;
  std::map<uint64_t, cudaError_t> last_;
  cudaError_t sticky_ = cudaSuccess;
  std::set<std::string> unsupported_reported_;
  std::set<std::string> unavailable_reported_;  // kernels that cannot run, reported once each
  struct StreamState {
    unsigned flags = 0;
    int priority = 0;
    uint64_t id = 0;
    std::map<int, cudaStreamAttrValue> attributes;
  };
  std::unordered_map<void*, std::unique_ptr<StreamState>> streams_;  // a stream is the address of its state
  // The special handles' state (0 and cudaStreamLegacy share one; cudaStreamPerThread, one for
  // every host thread): ids and attributes only, their flags and priority stay 0.
  StreamState legacy_stream_{0, 0, 0, {}};
  StreamState per_thread_stream_{0, 0, 1, {}};
  uint64_t next_stream_id_ = 2;
  unsigned device_flags_ = 0;
  StreamState* stream_state(void* stream);
  const StreamState* stream_state(void* stream) const;
  struct Event {
    bool recorded = false;
    double at_ms = 0;  // the device's time at the record (device_ms)
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
    bool registered = false;  // cudaHostRegister: the program's own memory, not ours to free
  };
  std::map<uint64_t, HostAllocation> host_allocations_;  // base -> allocation
  const HostAllocation* host_allocation(const void* pointer) const;  // any address inside one
  stats::RunStats stats_;
  // Limits kept only to be reported back (runtime_limits.cpp), at CUDA's defaults.
  std::map<cudaLimit, size_t> limits_ = {{cudaLimitPrintfFifoSize, size_t{1} << 20},
                                         {cudaLimitDevRuntimeSyncDepth, 2},
                                         {cudaLimitDevRuntimePendingLaunchCount, 2048},
                                         {cudaLimitMaxL2FetchGranularity, 64},
                                         {cudaLimitPersistingL2CacheSize, 0}};
  std::optional<ProgressLine> progress_;
  // At destruction: the summary on stderr and the stats JSON file, as the options ask.
  void write_reports();

  // ---- Managed memory state (runtime_managed.cpp) ----
  // Unmaps a managed allocation after engine_.free() forgot it; no-op for other addresses.
  void release_managed(uint64_t base);
  // Fills `a` for a managed pointer; false for any other pointer.
  bool managed_attributes(const void* pointer, cudaPointerAttributes& a) const;
  ManagedMappings managed_;
  ManagedMappings pinned_;  // cudaMallocHost/cudaHostAlloc memory, in the same window
  ManagedAdvice managed_advice_;  // what cudaMemAdvise and cudaMemPrefetchAsync recorded
  // ---- end managed memory state ----
  TextureObjects textures_;  // CUDA arrays, texture and surface objects (runtime_textures.cpp)

  // ---- CUDA graphs and stream capture (runtime_graphs.cpp) ----
 public:
  GraphTable& graph_table() { return graph_table_; }
  UserObjectTable& user_objects() { return user_objects_; }
  StreamCaptures& captures() { return captures_; }
  // The argument pointers of a launch given as a packed buffer (`extra`:
  // CU_LAUNCH_PARAM_BUFFER_POINTER and _SIZE), one per kernel parameter at its offset;
  // cudaErrorInvalidValue when the buffer is missing or too small.
  cudaError_t packed_arguments(const void* host_fun, void** extra, std::vector<void*>& args);
  // A kernel node's operation: the arguments copied now, one buffer per kernel parameter, from
  // `args` (kernelParams) or from the packed buffer `extra` names (packed_arguments).
  cudaError_t kernel_node(KernelNodeOp& op, const void* host_fun, Dim3 grid, Dim3 block, size_t shared, void** args,
                          void** extra);
  // Runs the graph's nodes in `order`, each doing what its stream operation does.
  cudaError_t run_graph(const Graph& graph, const std::vector<size_t>& order);
  // Whether operations issued to `stream` are recorded into a graph instead of run.
  bool capturing(void* stream) const { return captures_.capturing(stream); }
  // Records `op` as the stream's next captured node, after the stream's dependencies.
  cudaError_t capture(void* stream, NodeOp op);
  // Before a potentially unsafe call (`function`: synchronous copies, synchronization): while a
  // global-mode capture runs it is invalidated and the call fails with
  // cudaErrorStreamCaptureUnsupported, as on CUDA; cudaSuccess otherwise.
  cudaError_t check_capture_allows(const char* function);
  // cudaGraphConditionalHandleCreate: a handle is the device address of its 32-bit value, which
  // cudaGraphSetConditional in device code writes and the conditional node reads.
  cudaError_t create_conditional(cudaGraphConditionalHandle& handle, const Graph& graph, unsigned default_value,
                                 unsigned flags);
  bool is_conditional(cudaGraphConditionalHandle handle) const { return conditionals_.contains(handle); }
  // Before an executable graph runs: the handles of its graph and of its conditional bodies
  // created with cudaGraphCondAssignDefault take their default value.
  void assign_conditional_defaults(const GraphExec& exec);

 private:
  struct ConditionalHandle {
    const Graph* graph = nullptr;
    unsigned default_value = 0;
    unsigned flags = 0;
  };
  cudaError_t run_node(const GraphNode& node);
  cudaError_t run_memset(const cudaMemsetParams& params);
  cudaError_t run_conditional(const ConditionalNodeOp& op);
  cudaError_t run_mem_alloc(const MemAllocNodeOp& op);
  UserObjectTable user_objects_;  // the program's references (graphs hold theirs)
  GraphTable graph_table_;
  StreamCaptures captures_;
  std::map<cudaGraphConditionalHandle, ConditionalHandle> conditionals_;
  // ---- end CUDA graphs and stream capture ----

  // ---- graph memory nodes (runtime_graph_memory.cpp) ----
 public:
  // A memory-allocation node for `params` (cudaGraphAddMemAllocNode, cudaMallocAsync in a
  // capture): checks them, reserves the node's address for good and writes it to params.dptr.
  cudaError_t mem_alloc_node(MemAllocNodeOp& op, cudaMemAllocNodeParams& params);
  // A memory-free node of `graph` for `address`, which must come from an allocation node and
  // not be freed by another node of `graph` (cudaErrorInvalidValue otherwise).
  cudaError_t mem_free_node(MemFreeNodeOp& op, const Graph& graph, void* address);
  // cudaGraphLaunch outside a capture. An allocation of the graph still live from an earlier
  // launch fails it with cudaErrorInvalidValue, or is freed first when the graph was
  // instantiated with cudaGraphInstantiateFlagAutoFreeOnLaunch.
  cudaError_t launch_graph(const GraphExec& exec);
  // cudaMallocAsync / cudaMallocFromPoolAsync in a capturing stream: an allocation node of
  // `bytes` is captured, and *pointer is its address at once (as CUDA does).
  cudaError_t capture_malloc(void** pointer, size_t bytes, cudaMemPool_t pool, void* stream);
  // cudaFreeAsync in a capturing stream: a free node of a graph allocation is captured.
  cudaError_t capture_free(void* pointer, void* stream);
  GraphMemory& graph_memory() { return graph_memory_; }

 private:
  GraphMemory graph_memory_;
  // ---- end graph memory nodes ----
};

}  // namespace lockstep::runtime
