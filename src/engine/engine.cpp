#include "engine/engine.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "engine/engine_options.h"
#include "fmt/format.h"
#include "func/cta_runner.h"
#include "func/device_heap.h"
#include "func/device_launches.h"
#include "func/device_memory.h"
#include "func/interrupt.h"
#include "func/kernel_binder.h"
#include "func/shared_layout.h"
#include "func/wave_runner.h"
#include "ir/lower.h"
#include "ptx/check.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "sim/gpu.h"
#include "sim/occupancy.h"
#include "sim/timing_launch.h"

namespace lockstep {

namespace {

struct LoadedModule {
  ir::ModuleProgram program;
  std::map<uint32_t, std::string> files;      // .file index -> CUDA source path
  std::vector<uint64_t> global_addresses;     // per ModuleProgram::globals
  std::vector<func::BoundKernel> kernels;     // parallel to program.kernels
  std::vector<std::string> kernel_errors;     // parallel to program.kernels; "" when bound
};

}  // namespace

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

  // A launch on the cycle-level model (EngineOptions::timing).
  void run_timing(LaunchResult& result, const LoadedModule* m, const ir::KernelProgram& k,
                  const func::BoundKernel& bound, func::LaunchState& launch, const func::RunOptions& run,
                  const func::TraceHook* hook, uint32_t shared_size, const LaunchOptions& options,
                  LaunchProgress& progress_state);

  // A launch from the host or from device code, then the grids its device code launched.
  LaunchResult launch_grid(const LoadedModule* m, uint32_t index, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                           std::vector<uint8_t>& params, const LaunchOptions& launch_options,
                           func::DeviceLaunches& device_launches, uint32_t depth);
  // One grid, functional or timed.
  LaunchResult run_grid(const LoadedModule* m, uint32_t index, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                        std::vector<uint8_t>& params, const LaunchOptions& launch_options,
                        func::DeviceLaunches& device_launches, uint64_t grid_id);

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

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>()) {
  options = checked_engine_options(std::move(options));
  impl_->options = options;
  impl_->memory.set_strict_bounds(options.memcheck);
}

Engine::~Engine() = default;

const EngineOptions& Engine::options() const { return impl_->options; }

ModuleId Engine::load_ptx(std::string_view text, std::string_view filename, LoadOptions load) {
  return load_module(ptx::parse(text, filename), load);
}

ModuleId Engine::load_linked_ptx(const std::vector<PtxSource>& units, std::string_view filename, LoadOptions load) {
  std::vector<ptx::Module> parsed;
  parsed.reserve(units.size());
  for (const PtxSource& unit : units) {
    parsed.push_back(ptx::parse(unit.text, unit.filename));
    ptx::check(parsed.back());  // a unit's own mistakes are reported against its own text
  }
  return load_module(ptx::link(std::move(parsed), std::string(filename)), load);
}

ModuleId Engine::load_module(ptx::Module parsed, const LoadOptions& load) {
  ptx::check(parsed);
  auto loaded = std::make_unique<LoadedModule>();
  loaded->files = parsed.files;
  loaded->program = ir::lower(parsed);
  ir::ModuleProgram& program = loaded->program;

  // Place module variables in device memory, then resolve address initializers (variables and
  // functions: virtual tables hold function addresses).
  const uint64_t function_base = func::kFunctionWindow + (uint64_t{impl_->modules.size()} << 32);
  std::map<std::string, uint64_t> address_of;
  for (size_t i = 0; i < program.function_names.size(); ++i)
    address_of[program.function_names[i]] = function_base + 16 * i;
  for (const ir::GlobalVar& g : program.globals) {
    const auto placed = load.placed_variables.find(g.name);
    if (placed != load.placed_variables.end() && impl_->memory.translate(placed->second, g.size) == nullptr)
      throw std::invalid_argument(
          fmt::format("module variable '{}' ({} bytes) was placed outside device memory", g.name, g.size));
    const uint64_t addr = placed != load.placed_variables.end()
                              ? placed->second
                              : impl_->memory.allocate(std::max<uint64_t>(g.size, 1), g.align);
    loaded->global_addresses.push_back(addr);
    address_of[g.name] = addr;
    if (!g.init.empty()) copy_to_device(addr, g.init.data(), g.init.size());
  }
  for (size_t i = 0; i < program.globals.size(); ++i) {
    const ir::GlobalVar& g = program.globals[i];
    for (const ir::GlobalVar::Reloc& r : g.relocs) {
      auto it = address_of.find(r.symbol);
      if (it == address_of.end())
        throw ptx::Error(program.file, {}, "initializer of '" + g.name + "' refers to '" + r.symbol +
                                               "', which is not a module variable or function");
      const uint64_t value = it->second + static_cast<uint64_t>(r.addend);
      const uint64_t element = g.size - r.offset >= 8 ? 8 : 4;
      copy_to_device(loaded->global_addresses[i] + r.offset, &value, element);
    }
  }
  const func::OpTable& table = func::default_op_table();
  for (const ir::KernelProgram& k : program.kernels) {
    const LoadedModule* m = loaded.get();
    auto bind = [&] {
      return func::bind_kernel(k, table, [m](uint32_t g) { return m->global_addresses.at(g); }, function_base,
                               program.function_names.size());
    };
    if (!load.defer_kernel_errors) {
      loaded->kernels.push_back(bind());
      loaded->kernel_errors.emplace_back();
      continue;
    }
    try {
      loaded->kernels.push_back(bind());
      loaded->kernel_errors.emplace_back();
    } catch (const ptx::Error& e) {
      loaded->kernels.emplace_back();
      loaded->kernel_errors.emplace_back(e.what());
    }
  }
  impl_->modules.push_back(std::move(loaded));
  return ModuleId{static_cast<uint32_t>(impl_->modules.size() - 1)};
}

ModuleId Engine::load_ptx_file(const std::string& path, LoadOptions load) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return load_ptx(ss.str(), path, load);
}

std::vector<std::string> Engine::kernels(ModuleId module) const {
  std::vector<std::string> names;
  for (const ir::KernelProgram& k : impl_->module(module).program.kernels) names.push_back(k.name);
  return names;
}

KernelInfo Engine::kernel_info(ModuleId module, std::string_view kernel) const {
  auto [m, index] = impl_->kernel(module, kernel);
  const ir::KernelProgram& k = m->program.kernels[index];
  KernelInfo info;
  info.name = k.name;
  for (const ir::ParamSlot& p : k.params) info.params.push_back({p.name, p.offset, p.size, p.align});
  info.static_shared_bytes = k.static_shared_size;
  info.registers = k.slot_count + k.pred_count;
  info.labels = k.labels;
  return info;
}

std::string Engine::kernel_error(ModuleId module, std::string_view kernel) const {
  auto [m, index] = impl_->kernel(module, kernel);
  return m->kernel_errors[index];
}

uint64_t Engine::malloc(uint64_t bytes) { return impl_->memory.allocate(bytes); }

void Engine::free(uint64_t address) {
  if (!impl_->memory.release(address))
    throw std::invalid_argument(fmt::format("free of {:#x}, which is not an allocation", address));
}

uint64_t Engine::reserve(uint64_t bytes) { return impl_->memory.reserve(bytes); }

void Engine::malloc_at(uint64_t address, uint64_t bytes) {
  if (!impl_->memory.allocate_at(address, bytes))
    throw std::invalid_argument(fmt::format("allocation of {} bytes at {:#x} overlaps device memory", bytes, address));
}

void Engine::map_host_memory(void* host, uint64_t bytes) {
  const uint64_t address = reinterpret_cast<uint64_t>(host);
  if (!impl_->memory.adopt(address, bytes, static_cast<uint8_t*>(host)))
    throw std::invalid_argument(
        fmt::format("host memory at {:#x} ({} bytes) overlaps device memory", address, bytes));
}

void Engine::copy_to_device(uint64_t dst, const void* src, uint64_t bytes) {
  if (bytes == 0) return;
  uint8_t* p = impl_->memory.translate(dst, bytes);
  if (p == nullptr)
    throw std::out_of_range(fmt::format("copy of {} bytes to {:#x} is outside device allocations", bytes, dst));
  std::memcpy(p, src, bytes);
}

void Engine::copy_to_host(void* dst, uint64_t src, uint64_t bytes) {
  if (bytes == 0) return;
  const uint8_t* p = impl_->memory.translate(src, bytes);
  if (p == nullptr)
    throw std::out_of_range(fmt::format("copy of {} bytes from {:#x} is outside device allocations", bytes, src));
  std::memcpy(dst, p, bytes);
}

void Engine::memset(uint64_t dst, uint8_t value, uint64_t bytes) {
  if (bytes == 0) return;
  uint8_t* p = impl_->memory.translate(dst, bytes);
  if (p == nullptr)
    throw std::out_of_range(fmt::format("memset of {} bytes at {:#x} is outside device allocations", bytes, dst));
  std::memset(p, value, bytes);
}

uint64_t Engine::symbol_address(ModuleId module, std::string_view name) const {
  const LoadedModule& m = impl_->module(module);
  for (size_t i = 0; i < m.program.globals.size(); ++i)
    if (m.program.globals[i].name == name) return m.global_addresses[i];
  throw std::invalid_argument(fmt::format("no module variable named '{}'", name));
}

uint64_t Engine::symbol_size(ModuleId module, std::string_view name) const {
  const LoadedModule& m = impl_->module(module);
  for (const ir::GlobalVar& g : m.program.globals)
    if (g.name == name) return g.size;
  throw std::invalid_argument(fmt::format("no module variable named '{}'", name));
}

bool Engine::set_heap_size(uint64_t bytes) { return impl_->heap.set_size(bytes); }

uint64_t Engine::heap_size() const { return impl_->heap.size(); }

void Engine::set_stack_size(uint32_t bytes) { impl_->options.stack_size = bytes; }

void Engine::set_trace(std::function<void(const TraceEvent&)> hook) { impl_->trace = std::move(hook); }

void Engine::set_progress(std::function<void(const LaunchProgress&)> hook) { impl_->progress = std::move(hook); }

namespace {

Dim3 unflatten(uint32_t t, const uint32_t dims[3]) {
  return Dim3{t % dims[0], (t / dims[0]) % dims[1], t / (dims[0] * dims[1])};
}

std::string source_location(const LoadedModule& m, const ir::Instruction& inst) {
  if (inst.debug.file == 0 && inst.debug.line == 0) return "";
  auto it = m.files.find(inst.debug.file);
  const std::string file = it == m.files.end() ? "?" : it->second;
  return fmt::format("{}:{}", file, inst.debug.line);
}

FaultReport make_report(const LoadedModule& m, const ir::KernelProgram& k, const func::LaunchFault& f,
                        const func::CtaState& cta, const func::LaunchState& launch, uint32_t width) {
  FaultReport r;
  r.kind = func::to_string(f.fault.kind);
  r.kernel = k.name;
  r.block = Dim3{cta.ctaid[0], cta.ctaid[1], cta.ctaid[2]};
  r.thread = unflatten(f.warp * width + f.fault.lane, launch.block);
  r.pc = f.pc;
  const ir::Instruction& inst = k.code.at(std::min<size_t>(f.pc, k.code.size() - 1));
  r.ptx_location = fmt::format("{}:{}", k.file, inst.loc.line);
  r.cuda_location = source_location(m, inst);
  r.address = f.fault.address;
  r.size = f.fault.size;
  r.space = f.fault.space;
  r.detail = f.fault.detail;
  std::string where = r.ptx_location + (r.cuda_location.empty() ? "" : ", " + r.cuda_location);
  if (f.fault.kind == func::FaultKind::OutOfBounds || f.fault.kind == func::FaultKind::Misaligned) {
    r.message = fmt::format(
        "{} of {} bytes at {} address {:#x} in kernel '{}', block ({},{},{}), thread ({},{},{}), pc {} ({})",
        r.kind, r.size, r.space, r.address, r.kernel, r.block.x, r.block.y, r.block.z, r.thread.x,
        r.thread.y, r.thread.z, r.pc, where);
  } else {
    r.message = fmt::format("{} in kernel '{}', block ({},{},{}), thread ({},{},{}), pc {} ({}){}{}", r.kind,
                            r.kernel, r.block.x, r.block.y, r.block.z, r.thread.x, r.thread.y, r.thread.z,
                            r.pc, where, r.detail.empty() ? "" : ": ", r.detail);
  }
  for (const std::string& s : f.warp_states) r.message += "\n  " + s;
  return r;
}

}  // namespace

void Engine::Impl::run_timing(LaunchResult& result, const LoadedModule* m, const ir::KernelProgram& k,
                              const func::BoundKernel& bound, func::LaunchState& launch, const func::RunOptions& run,
                              const func::TraceHook* hook, uint32_t shared_size, const LaunchOptions& launch_options,
                              LaunchProgress& progress_state) {
  sim::TimingLaunch t;
  t.kernel = &bound;
  t.launch = &launch;
  t.run = run;
  t.trace = hook;
  t.shared_size = shared_size;
  t.static_shared = k.static_shared_size;
  t.registers_per_thread = launch_options.registers_per_thread;
  t.registers_estimated = t.registers_per_thread == 0;
  t.all_resident = launch_options.cooperative;
  t.watchdog = sim::watchdog_options(options.watchdog.watchdog_interval_cycles, options.watchdog.watchdog_limit_cycles);
  if (t.registers_estimated) t.registers_per_thread = sim::kEstimatedRegistersPerThread;
  if (progress) {
    t.on_block_done = [&](uint64_t done) {
      progress_state.blocks_done = done;
      progress(progress_state);
    };
  }
  if (!gpu) gpu = std::make_unique<sim::Gpu>(options.timing, options.sim_threads);
  try {
    result.timing = gpu->run(std::move(t));
    result.warp_instructions = result.timing->warp_instructions;
    result.thread_instructions = result.timing->thread_instructions;
    result.divergence = result.timing->divergence;
  } catch (const sim::TimingFault& f) {
    result.fault = make_report(*m, k, f.fault, f.cta, launch, options.warp_size);
    result.warp_instructions = f.warp_instructions;
    result.thread_instructions = f.thread_instructions;
    result.divergence = f.divergence;
    result.timing = f.partial;  // an interrupted launch's figures so far; none for a fault
  }
}

LaunchResult Engine::launch(ModuleId module, std::string_view kernel_name, Dim3 grid, Dim3 block,
                            uint32_t dynamic_shared, const std::vector<KernelArg>& args) {
  return launch(module, kernel_name, grid, block, dynamic_shared, args, LaunchOptions{});
}

LaunchResult Engine::launch(ModuleId module, std::string_view kernel_name, Dim3 grid, Dim3 block,
                            uint32_t dynamic_shared, const std::vector<KernelArg>& args,
                            const LaunchOptions& options) {
  auto [m, index] = impl_->kernel(module, kernel_name);
  const ir::KernelProgram& k = m->program.kernels[index];
  if (!m->kernel_errors[index].empty())
    throw KernelUnavailable(fmt::format("kernel '{}' cannot run: {}", k.name, m->kernel_errors[index]));
  if (args.size() != k.params.size())
    throw std::invalid_argument(fmt::format("kernel '{}' takes {} argument{}, got {}", k.name,
                                            k.params.size(), k.params.size() == 1 ? "" : "s", args.size()));
  std::vector<uint8_t> params(k.param_buffer_size, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].bytes.size() != k.params[i].size)
      throw std::invalid_argument(fmt::format("argument {} of kernel '{}' has {} bytes; the parameter has {}",
                                              i, k.name, args[i].bytes.size(), k.params[i].size));
    std::memcpy(params.data() + k.params[i].offset, args[i].bytes.data(), args[i].bytes.size());
  }
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
    throw std::invalid_argument("grid and block dimensions must be at least 1");
  const uint64_t threads = uint64_t{block.x} * block.y * block.z;
  if (threads > 1024) throw std::invalid_argument(fmt::format("block of {} threads exceeds 1024", threads));
  const func::InterruptScope running;  // a Ctrl-C from here on stops this launch
  func::DeviceLaunches device_launches(options.pending_launch_limit, impl_->memory,
                                       [this](uint64_t function) { return impl_->kernel_param_size(function); });
  return impl_->launch_grid(m, index, grid, block, dynamic_shared, params, options, device_launches, 0);
}

LaunchResult Engine::Impl::launch_grid(const LoadedModule* m, uint32_t index, Dim3 grid, Dim3 block,
                                       uint32_t dynamic_shared, std::vector<uint8_t>& params,
                                       const LaunchOptions& launch_options, func::DeviceLaunches& device_launches,
                                       uint32_t depth) {
  const uint64_t grid_id = next_grid_id++;
  device_launches.enter_grid(grid_id, depth);
  LaunchResult result =
      run_grid(m, index, grid, block, dynamic_shared, params, launch_options, device_launches, grid_id);
  for (const func::DeviceLaunch& c : device_launches.take_launches_of(grid_id)) {
    if (result.fault) {  // a grid that faulted launches nothing more
      device_launches.finished(c);
      continue;
    }
    const auto [cm, ci] = *kernel_at(c.function);  // get_parameter_buffer checked it is a kernel
    if (!cm->kernel_errors[ci].empty())
      throw KernelUnavailable(
          fmt::format("kernel '{}' cannot run: {}", cm->program.kernels[ci].name, cm->kernel_errors[ci]));
    std::vector<uint8_t> child_params(c.param_size);
    if (c.param_size != 0) std::memcpy(child_params.data(), memory.translate(c.params, c.param_size), c.param_size);
    const Dim3 child_grid{c.grid[0], c.grid[1], c.grid[2]}, child_block{c.block[0], c.block[1], c.block[2]};
    LaunchOptions child_options;
    child_options.pending_launch_limit = launch_options.pending_launch_limit;
    LaunchResult child = launch_grid(cm, ci, child_grid, child_block, c.dynamic_shared, child_params, child_options,
                                     device_launches, depth + 1);
    device_launches.finished(c);
    result.printf_output += child.printf_output;
    ChildGrid record{cm->program.kernels[ci].name, child_grid, child_block, c.dynamic_shared, child.warp_instructions,
                     child.thread_instructions, child.divergence, child.fault ? child.fault->message : "", child.timing};
    result.child_grids.push_back(std::move(record));
    for (ChildGrid& g : child.child_grids) result.child_grids.push_back(std::move(g));
    if (child.fault) result.fault = child.fault;
  }
  return result;
}

LaunchResult Engine::Impl::run_grid(const LoadedModule* m, uint32_t index, Dim3 grid, Dim3 block,
                                    uint32_t dynamic_shared, std::vector<uint8_t>& params,
                                    const LaunchOptions& launch_options, func::DeviceLaunches& device_launches,
                                    uint64_t grid_id) {
  const ir::KernelProgram& k = m->program.kernels[index];
  const func::BoundKernel& bound = m->kernels[index];
  if (k.hints.reqnctapercluster) {
    uint64_t cluster = 1;
    for (uint32_t d : *k.hints.reqnctapercluster) cluster *= d;
    if (cluster > 1)
      throw std::runtime_error(fmt::format(
          "kernel '{}' requires clusters of {} thread blocks; clusters of more than one block are not "
          "supported yet",
          k.name, cluster));
  }
  LaunchResult result;
  func::LaunchState launch;
  func::MemoryView memory_view(memory);
  launch.memory = &memory_view;
  launch.kernel = &bound;
  launch.params = params.data();
  launch.param_size = static_cast<uint32_t>(params.size());
  launch.grid[0] = grid.x, launch.grid[1] = grid.y, launch.grid[2] = grid.z;
  launch.block[0] = block.x, launch.block[1] = block.y, launch.block[2] = block.z;
  launch.dynamic_shared = dynamic_shared;
  launch.grid_id = grid_id;
  launch.device_launches = &device_launches;
  launch.printf_out = &result.printf_output;
  launch.heap = &heap;
  launch.device_info = &options.device_info;
  if (options.timing && options.timing->gpu.core_clock_mhz != 0) launch.clock_mhz = options.timing->gpu.core_clock_mhz;
  // Kernels with call frames get at least the configured stack (cudaLimitStackSize), recursive
  // ones the recursion stack; kernels without frames need no local memory at all.
  uint32_t stack = k.max_frame_depth_bytes;
  if (stack != 0) stack = std::max(stack, options.stack_size);
  if (k.recursive) stack = std::max(stack, options.recursion_stack_size);
  launch.stack_size = (stack + 15) / 16 * 16;

  func::RunOptions run_options;
  run_options.warp_size = options.warp_size;
  run_options.time_slice = options.time_slice;
  run_options.divergence = {options.divergence, options.yield_after, options.large_warp_size};
  run_options.envreg = launch_options.envreg;
  func::TraceHook hook;
  if (trace) {
    hook = [this, &k](const func::TraceRecord& r) {
      TraceEvent e;
      e.block = r.block;
      e.warp = r.warp;
      e.pc = r.pc;
      e.path_mask = r.active;
      e.active_mask = r.exec;
      e.ptx_line = k.code[r.pc].loc.line;
      e.cycle = r.clock;
      e.formed_warp = r.formed_warp;
      trace(e);
    };
  }
  func::CtaState cta;
  cta.shared_size = func::shared_layout(bound, dynamic_shared).bytes();  // with the reserved region
  cta.shared.assign(cta.shared_size, 0);
  func::RunCounters counters;
  LaunchProgress shown{k.name, 0, uint64_t{grid.x} * grid.y * grid.z, 0};
  if (options.timing && !launch_options.cooperative) {
    run_timing(result, m, k, bound, launch, run_options, hook ? &hook : nullptr, cta.shared_size, launch_options, shown);
    return result;
  }
  if (launch_options.cooperative) {
    // Every block resident at once needs memory per block: refuse grids no GPU could hold.
    constexpr uint64_t kMaxCooperativeBlocks = 65536;
    if (shown.blocks_total > kMaxCooperativeBlocks)
      throw std::invalid_argument(fmt::format("cooperative launch of {} blocks exceeds the {} blocks lockstep keeps "
                                              "resident at once",
                                              shown.blocks_total, kMaxCooperativeBlocks));
    // The grid workspace of the cooperative-groups ABI: {u32 size; u32 barrier;}, barrier 0.
    const uint32_t workspace_bytes = 8;
    const uint64_t workspace = memory.allocate(workspace_bytes);
    std::memcpy(memory.translate(workspace, sizeof workspace_bytes), &workspace_bytes, sizeof workspace_bytes);
    run_options.envreg[1] = static_cast<uint32_t>(workspace >> 32);
    run_options.envreg[2] = static_cast<uint32_t>(workspace);
    if (options.timing) {
      // The cycle-level model keeps every placed block resident and interleaves them cycle by
      // cycle; the runtime already refused grids larger than the GPU holds at once.
      try {
        run_timing(result, m, k, bound, launch, run_options, hook ? &hook : nullptr, cta.shared_size,
                          launch_options, shown);
      } catch (...) {
        memory.release(workspace);
        throw;
      }
      memory.release(workspace);
      return result;
    }
    try {
      func::WaveRunOptions wave{run_options, cta.shared_size, options.resident_blocks, options.sim_threads};
      wave.parallel_commit = options.parallel_commit;
      wave.cooperative = true;
      wave.instruction_budget = launch_options.instruction_budget;
      // Hashed after every quiet epoch rather than every 2^20 quiet instructions: a grid barrier
      // that nobody releases is found within a few epochs, as the round-robin runner cooperative
      // launches had before found it within a few rounds.
      wave.hash_interval = 0;
      wave.alone_epoch_instructions = wave.epoch_instructions;  // a last block spinning alone, too
      wave.busy_hash_interval = options.watchdog.watchdog_interval_instructions;
      wave.instruction_limit = options.watchdog.watchdog_limit_instructions;
      func::WaveRunner waves(bound, launch, wave, hook ? &hook : nullptr);
      try {
        waves.run(counters, [&](uint64_t done) {
          if (!progress) return;
          shown.blocks_done = done;
          shown.thread_instructions = counters.thread_instructions;
          progress(shown);
        });
      } catch (const func::WaveFault& f) {
        result.fault = make_report(*m, k, f.fault, *f.cta, launch, options.warp_size);
      }
    } catch (...) {
      memory.release(workspace);
      throw;
    }
    memory.release(workspace);
    result.warp_instructions = counters.warp_instructions;
    result.thread_instructions = counters.thread_instructions;
    result.divergence = counters.divergence;
    return result;
  }
  func::WaveRunOptions wave{run_options, cta.shared_size, options.resident_blocks, options.sim_threads};
  wave.parallel_commit = options.parallel_commit;
  wave.hash_interval = options.watchdog.watchdog_interval_instructions;
  wave.busy_hash_interval = options.watchdog.watchdog_interval_instructions;
  wave.instruction_limit = options.watchdog.watchdog_limit_instructions;
  func::WaveRunner waves(bound, launch, wave, hook ? &hook : nullptr);
  try {
    waves.run(counters, [&](uint64_t done) {
      if (!progress) return;
      shown.blocks_done = done;
      shown.thread_instructions = counters.thread_instructions;
      progress(shown);
    });
  } catch (const func::WaveFault& f) {
    result.fault = make_report(*m, k, f.fault, *f.cta, launch, options.warp_size);
  }
  result.warp_instructions = counters.warp_instructions;
  result.thread_instructions = counters.thread_instructions;
  result.divergence = counters.divergence;
  return result;
}

}  // namespace lockstep
