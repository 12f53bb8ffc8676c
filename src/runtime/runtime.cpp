#include "runtime/runtime.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string_view>
#include <utility>

#include "config/config_error.h"
#include "fmt/format.h"
#include "func/interrupt.h"
#include "runtime/cuda_errors.h"
#include "runtime/device_attributes.h"
#include "runtime/interrupt_handler.h"

namespace lockstep::runtime {

RuntimeOptions runtime_options(config::GpuConfig gpu) {
  RuntimeOptions o;
  o.warp_size = gpu.sm.warp_size;
  o.preset = device_preset(gpu);
  o.gpu = std::move(gpu);
  return o;
}

RuntimeOptions options_from_environment() {
  const char* preset = std::getenv("LOCKSTEP_GPU");
  std::vector<std::string> overrides;
  if (const char* w = std::getenv("LOCKSTEP_WARP_SIZE")) overrides.push_back(std::string("sm.warp_size=") + w);
  if (const char* set = std::getenv("LOCKSTEP_SET")) {
    const std::string_view lines = set;
    for (size_t start = 0; start < lines.size();) {
      const size_t end = std::min(lines.find('\n', start), lines.size());
      if (end > start) overrides.emplace_back(lines.substr(start, end - start));
      start = end + 1;
    }
  }
  RuntimeOptions o;
  try {
    o = runtime_options(config::load_gpu_config(preset != nullptr && *preset != '\0' ? preset : "h100", overrides));
  } catch (const config::ConfigError& e) {
    std::fprintf(stderr, "lockstep: %s\n", e.what());
    std::exit(1);
  }
  if (const char* mode = std::getenv("LOCKSTEP_MODE"); mode != nullptr && *mode != '\0') {
    const std::string_view m = mode;
    if (m != "functional" && m != "timing") {
      std::fprintf(stderr, "lockstep: bad value '%s' for LOCKSTEP_MODE: expected one of functional, timing\n", mode);
      std::exit(1);
    }
    o.timing = m == "timing";
  }
  if (const char* threads = std::getenv("LOCKSTEP_THREADS"); threads != nullptr && *threads != '\0') {
    const std::optional<uint32_t> n = parse_sim_threads(threads);
    if (!n) {
      std::fprintf(stderr, "lockstep: bad value '%s' for LOCKSTEP_THREADS: expected a whole number from 1 to %u\n",
                   threads, kMaxSimThreads);
      std::exit(1);
    }
    o.threads = *n;
  }
  if (const char* s = std::getenv("LOCKSTEP_SUMMARY")) o.summary = std::string_view(s) == "1";
  if (const char* s = std::getenv("LOCKSTEP_MEMCHECK")) o.memcheck = std::string_view(s) == "1";
  read_report_options(o);
  return o;
}

namespace {

EngineOptions engine_options(const RuntimeOptions& o) {
  EngineOptions e;
  e.warp_size = o.warp_size;
  e.divergence = o.gpu.sm.divergence;
  e.yield_after = o.gpu.sm.yield_after;
  e.large_warp_size = o.gpu.sm.large_warp_size;
  e.watchdog = o.gpu.run;
  if (o.timing) e.timing = std::make_shared<const config::GpuConfig>(o.gpu);
  e.sim_threads = o.threads;
  e.memcheck = o.memcheck;
  e.device_info.runtime_version = kCudaVersion;
  e.device_info.error_name = cuda_error_name;
  e.device_info.error_string = cuda_error_string;
  e.device_info.attributes.resize(kLastDeviceAttribute + 1);
  for (int attr = 1; attr <= kLastDeviceAttribute; ++attr)
    e.device_info.attributes[attr] = device_attribute(o.preset, o.warp_size, attr);
  return e;
}

// The CUDA error a device fault of this kind produces on a GPU.
cudaError_t fault_error(const std::string& kind) {
  if (kind == "out-of-bounds access") return cudaErrorIllegalAddress;
  if (kind == "misaligned access") return cudaErrorMisalignedAddress;
  if (kind == "assertion failed") return cudaErrorAssert;
  return cudaErrorLaunchFailure;  // trap, stack overflow, deadlock, unsupported operation
}

}  // namespace

Runtime::Runtime(RuntimeOptions options, std::FILE* out, std::FILE* err)
    : options_(options), out_(out), err_(err), engine_(engine_options(options)), modules_(options.preset.sm) {
  if (options_.progress) {
    progress_.emplace(err_);
    engine_.set_progress([this](const LaunchProgress& p) { progress_->update(p); });
  }
  install_interrupt_handler();
}

Runtime::~Runtime() { write_reports(); }

void Runtime::print(const std::string& message) const {
  std::fflush(out_);  // keep the order the user sees when both streams go to one terminal
  fmt::print(err_, "lockstep: {}\n", message);
  std::fflush(err_);
}

bool Runtime::pop_config(LaunchConfig& c) {
  auto it = configs_.find(current_host_thread());
  if (it == configs_.end() || it->second.empty()) return false;
  c = it->second.back();
  it->second.pop_back();
  return true;
}

std::optional<ModuleId> Runtime::module_of(uint32_t fatbin) {
  bool first_failure = false;
  ModuleLookup m = modules_.load(fatbin, engine_, first_failure);
  if (!m.module) {
    if (first_failure) print(m.error);
    return std::nullopt;
  }
  if (!m.note.empty()) print("note: " + m.note);
  // Module variables are device memory too (cudaMemcpyDefault tells them from host memory).
  for (const auto& [host, v] : modules_.variables()) {
    if (v.fatbin != fatbin) continue;
    try {
      device_ranges_.emplace(engine_.symbol_address(*m.module, v.name), v.size);
    } catch (const std::exception&) {
      // A registered variable the PTX does not define: reported when it is used.
    }
  }
  return m.module;
}

cudaError_t Runtime::launch(const void* host_fun, Dim3 grid, Dim3 block, void** args, size_t shared) {
  if (sticky_ != cudaSuccess) return sticky_;
  const KernelRecord* k = modules_.kernel(host_fun);
  if (k == nullptr) return record(cudaErrorInvalidDeviceFunction);
  std::optional<ModuleId> module = module_of(k->fatbin);
  if (!module) return record(cudaErrorNoKernelImageForDevice);
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0 ||
      uint64_t{block.x} * block.y * block.z > 1024 || block.z > 64 || grid.y > 65535 || grid.z > 65535)
    return record(cudaErrorInvalidConfiguration);
  return run_launch(*k, *module, grid, block, args, shared);
}

cudaError_t Runtime::run_launch(const KernelRecord& k, ModuleId module, Dim3 grid, Dim3 block, void** args,
                                size_t shared, const LaunchOptions& launch_options) {
  LaunchResult result;
  try {
    const KernelInfo info = engine_.kernel_info(module, k.name);
    if (shared > dynamic_shared_limit(k, info.static_shared_bytes)) return record(cudaErrorInvalidValue);
    std::vector<KernelArg> kernel_args(info.params.size());
    for (size_t i = 0; i < info.params.size(); ++i) {
      kernel_args[i].bytes.resize(info.params[i].size);
      if (args == nullptr || args[i] == nullptr) return record(cudaErrorInvalidValue);
      std::memcpy(kernel_args[i].bytes.data(), args[i], info.params[i].size);
    }
    ProgressScope shown(progress_ ? &*progress_ : nullptr);
    LaunchOptions options = launch_options;
    options.registers_per_thread = known_registers(k);
    options.pending_launch_limit = static_cast<uint32_t>(
        std::min<size_t>(limits_.at(cudaLimitDevRuntimePendingLaunchCount), UINT32_MAX));
    result = engine_.launch(module, k.name, grid, block, static_cast<uint32_t>(shared), kernel_args, options);
  } catch (const KernelUnavailable& e) {
    // Not sticky: like a launch of a kernel without an image for the device, the context survives.
    if (unavailable_reported_.insert(k.name).second) print(e.what());
    return record(cudaErrorNotSupported);
  } catch (const std::invalid_argument& e) {
    print(fmt::format("cannot launch kernel '{}': {}", k.name, e.what()));
    return record(cudaErrorInvalidValue);
  } catch (const std::exception& e) {
    print(fmt::format("kernel '{}' failed: {}", k.name, e.what()));
    sticky_ = cudaErrorLaunchFailure;
    return record(cudaErrorLaunchFailure);
  }
  if (result.timing) device_cycles_ = result.timing->end_cycle;
  for (const ChildGrid& c : result.child_grids)
    if (c.timing) device_cycles_ = std::max(device_cycles_, c.timing->end_cycle);
  if (!result.printf_output.empty()) {
    std::fwrite(result.printf_output.data(), 1, result.printf_output.size(), out_);
    std::fflush(out_);
  }
  stats_.add(stats::LaunchRecord{k.name, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z},
                                 static_cast<uint32_t>(shared), options_.warp_size, result.warp_instructions,
                                 result.thread_instructions, result.fault ? result.fault->message : "",
                                 result.timing, result.divergence});
  for (const ChildGrid& c : result.child_grids)
    stats_.add(stats::LaunchRecord{c.kernel, {c.grid.x, c.grid.y, c.grid.z}, {c.block.x, c.block.y, c.block.z},
                                   c.dynamic_shared, options_.warp_size, c.warp_instructions, c.thread_instructions,
                                   c.fault, c.timing, c.divergence});
  if (result.fault) {
    print(result.fault->message);
    if (result.fault->kind == "interrupted") {
      // Ctrl-C or SIGTERM: the report is out; what was measured up to here still goes to
      // --stats-json, and the program ends as the signal would have ended it (without its exit
      // handlers), with the shell's status for it.
      write_reports();
      std::fflush(nullptr);
      std::_Exit(interrupted_exit_status(func::interrupt_signal()));
    }
    sticky_ = fault_error(result.fault->kind);
    last_[current_host_thread()] = sticky_;
  }
  return cudaSuccess;
}

cudaError_t Runtime::record(cudaError_t e) {
  if (e != cudaSuccess) last_[current_host_thread()] = e;
  return e;
}

cudaError_t Runtime::take_last_error() {
  cudaError_t& own = last_[current_host_thread()];
  const cudaError_t e = own != cudaSuccess ? own : sticky_;
  own = sticky_;  // a sticky error cannot be cleared
  return e;
}

cudaError_t Runtime::peek_last_error() const {
  auto it = last_.find(current_host_thread());
  return it != last_.end() && it->second != cudaSuccess ? it->second : sticky_;
}

void Runtime::reset() {
  last_.clear();
  sticky_ = cudaSuccess;
}

void Runtime::report_unsupported(const char* function) {
  note_unsupported(function);
  record(cudaErrorNotSupported);
}

void Runtime::note_unsupported(const char* function) {
  if (unsupported_reported_.insert(function).second) print(fmt::format("{} is not supported yet", function));
}

void* Runtime::create_stream(unsigned flags, int priority) {
  auto state = std::make_unique<StreamState>();
  state->flags = flags;
  state->priority = std::clamp(priority, kGreatestStreamPriority, kLeastStreamPriority);
  state->id = next_stream_id_++;
  void* stream = state.get();
  streams_.emplace(stream, std::move(state));
  return stream;
}

unsigned Runtime::stream_flags(void* stream) const {
  auto it = streams_.find(stream);
  return it == streams_.end() ? 0 : it->second->flags;
}

int Runtime::stream_priority(void* stream) const {
  auto it = streams_.find(stream);
  return it == streams_.end() ? 0 : it->second->priority;
}

bool Runtime::destroy_stream(void* stream) { return streams_.erase(stream) != 0; }

Runtime::StreamState* Runtime::stream_state(void* stream) {
  return const_cast<StreamState*>(std::as_const(*this).stream_state(stream));
}

const Runtime::StreamState* Runtime::stream_state(void* stream) const {
  if (stream == nullptr || stream == cudaStreamLegacy) return &legacy_stream_;
  if (stream == cudaStreamPerThread) return &per_thread_stream_;
  auto it = streams_.find(stream);
  return it == streams_.end() ? nullptr : it->second.get();
}

uint64_t Runtime::stream_id(void* stream) const {
  const StreamState* s = stream_state(stream);
  return s == nullptr ? 0 : s->id;
}

const cudaStreamAttrValue* Runtime::stream_attribute(void* stream, int id) const {
  const StreamState* s = stream_state(stream);
  if (s == nullptr) return nullptr;
  auto it = s->attributes.find(id);
  return it == s->attributes.end() ? nullptr : &it->second;
}

void Runtime::set_stream_attribute(void* stream, int id, const cudaStreamAttrValue& value) {
  if (StreamState* s = stream_state(stream)) s->attributes[id] = value;
}

void Runtime::set_stream_priority(void* stream, int priority) {
  StreamState* s = stream_state(stream);
  if (s != nullptr && s != &legacy_stream_ && s != &per_thread_stream_)
    s->priority = std::clamp(priority, kGreatestStreamPriority, kLeastStreamPriority);
}

void Runtime::copy_stream_attributes(void* to, void* from) {
  StreamState* t = stream_state(to);
  const StreamState* f = stream_state(from);
  if (t == nullptr || f == nullptr || t == f) return;
  t->attributes = f->attributes;
  set_stream_priority(to, f->priority);
}

void* Runtime::create_event() {
  auto e = std::make_unique<Event>();
  void* handle = e.get();
  events_.emplace(handle, std::move(e));
  return handle;
}

bool Runtime::destroy_event(void* event) { return events_.erase(event) != 0; }

bool Runtime::record_event(void* event) {
  auto it = events_.find(event);
  if (it == events_.end()) return false;
  it->second->recorded = true;
  it->second->at_ms = device_ms();
  return true;
}

double Runtime::device_ms() const {
  const double kernels = options_.timing ? double(device_cycles_) / double(options_.preset.clock_khz)
                                         : double(stats_.total_thread_instructions()) / thread_instructions_per_ms();
  return kernels + transfer_ms_;
}

void Runtime::charge_host_link(uint64_t bytes) {
  const double bytes_per_ms = double(options_.preset.host_link_mb_s) * 1000.0;
  if (bytes_per_ms > 0) transfer_ms_ += double(bytes) / bytes_per_ms;
}

void Runtime::charge_device_memory(uint64_t traffic_bytes) {
  const DevicePreset& p = options_.preset;
  const double bytes_per_ms = double(p.memory_clock_khz) * 2.0 * double(p.memory_bus_width) / 8.0;
  if (bytes_per_ms > 0) transfer_ms_ += double(traffic_bytes) / bytes_per_ms;
}

double Runtime::thread_instructions_per_ms() const {
  return double(options_.preset.multiprocessors) * 128.0 * double(options_.preset.clock_khz);
}

bool Runtime::elapsed_ms(void* start, void* stop, float& ms) const {
  auto a = events_.find(start), b = events_.find(stop);
  if (a == events_.end() || b == events_.end() || !a->second->recorded || !b->second->recorded) return false;
  ms = static_cast<float>(b->second->at_ms - a->second->at_ms);
  return true;
}

}  // namespace lockstep::runtime
