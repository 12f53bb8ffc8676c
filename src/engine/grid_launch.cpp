#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "engine/engine_impl.h"
#include "engine/timed_children.h"
#include "fmt/format.h"
#include "func/interrupt.h"
#include "func/shared_layout.h"
#include "func/wave_runner.h"
#include "sim/occupancy.h"

namespace lockstep {

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

}  // namespace

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


void Engine::Impl::setup_grid(GridSetup& g, const LoadedModule* m, uint32_t index, Dim3 grid, Dim3 block,
                              uint32_t dynamic_shared, const LaunchOptions& launch_options,
                              func::DeviceLaunches& device_launches, uint64_t grid_id) {
  g.module = m;
  g.index = index;
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
  func::LaunchState& launch = g.launch;
  launch.memory = &g.memory_view;
  launch.kernel = &bound;
  launch.params = g.params.data();
  launch.param_size = static_cast<uint32_t>(g.params.size());
  launch.grid[0] = grid.x, launch.grid[1] = grid.y, launch.grid[2] = grid.z;
  launch.block[0] = block.x, launch.block[1] = block.y, launch.block[2] = block.z;
  launch.dynamic_shared = dynamic_shared;
  launch.grid_id = grid_id;
  launch.device_launches = &device_launches;
  launch.printf_out = &g.result.printf_output;
  launch.heap = &heap;
  launch.device_info = &options.device_info;
  if (options.timing && options.timing->gpu.core_clock_mhz != 0) launch.clock_mhz = options.timing->gpu.core_clock_mhz;
  // Kernels with call frames get at least the configured stack (cudaLimitStackSize), recursive
  // ones the recursion stack; kernels without frames need no local memory at all.
  uint32_t stack = k.max_frame_depth_bytes;
  if (stack != 0) stack = std::max(stack, options.stack_size);
  if (k.recursive) stack = std::max(stack, options.recursion_stack_size);
  launch.stack_size = (stack + 15) / 16 * 16;

  g.run.warp_size = options.warp_size;
  g.run.time_slice = options.time_slice;
  g.run.divergence = {options.divergence, options.yield_after, options.large_warp_size};
  g.run.envreg = launch_options.envreg;
  if (trace) {
    g.hook = [this, &k](const func::TraceRecord& r) {
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
  g.shared_size = func::shared_layout(bound, dynamic_shared).bytes();  // with the reserved region
}

sim::TimingLaunch Engine::Impl::timing_launch(const GridSetup& g, const LaunchOptions& launch_options) const {
  sim::TimingLaunch t;
  t.kernel = g.launch.kernel;
  t.launch = &g.launch;
  t.run = g.run;
  t.trace = g.trace();
  t.shared_size = g.shared_size;
  t.static_shared = g.kernel().static_shared_size;
  t.registers_per_thread = launch_options.registers_per_thread;
  t.registers_estimated = t.registers_per_thread == 0;
  if (t.registers_estimated) t.registers_per_thread = sim::kEstimatedRegistersPerThread;
  return t;
}

void Engine::Impl::run_timing(GridSetup& g, const LaunchOptions& launch_options,
                              func::DeviceLaunches& device_launches, uint32_t depth, LaunchProgress& progress_state) {
  sim::TimingLaunch t = timing_launch(g, launch_options);
  t.all_resident = launch_options.cooperative;
  t.watchdog = sim::watchdog_options(options.watchdog.watchdog_interval_cycles, options.watchdog.watchdog_limit_cycles);
  if (progress) {
    t.on_block_done = [&](uint64_t done) {
      progress_state.blocks_done = done;
      progress(progress_state);
    };
  }
  TimedChildren children(*this, device_launches, g.launch, depth);
  t.children = &children;
  if (!gpu) gpu = std::make_unique<sim::Gpu>(options.timing, options.sim_threads);
  LaunchResult& result = g.result;
  try {
    result.timing = gpu->run(std::move(t));
    result.warp_instructions = result.timing->warp_instructions;
    result.thread_instructions = result.timing->thread_instructions;
    result.divergence = result.timing->divergence;
  } catch (const sim::TimingFault& f) {
    const GridSetup* at = f.grid == nullptr || f.grid == &g.launch ? &g : children.grid_of(f.grid);
    result.fault = make_report(*at->module, at->kernel(), f.fault, f.cta, at->launch, options.warp_size);
    if (at != &g) children.faulted(at, result.fault->message);
    result.warp_instructions = f.warp_instructions;
    result.thread_instructions = f.thread_instructions;
    result.divergence = f.divergence;
    result.timing = f.partial;  // an interrupted launch's figures so far; none for a fault
  }
  children.report(result);
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
      run_grid(m, index, grid, block, dynamic_shared, params, launch_options, device_launches, grid_id, depth);
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
    device_launches.started(c);
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
                                    uint64_t grid_id, uint32_t depth) {
  GridSetup g(memory);
  g.params = params;
  setup_grid(g, m, index, grid, block, dynamic_shared, launch_options, device_launches, grid_id);
  LaunchResult& result = g.result;
  func::RunOptions& run_options = g.run;
  LaunchProgress shown{g.kernel().name, 0, uint64_t{grid.x} * grid.y * grid.z, 0};
  if (options.timing && !launch_options.cooperative) {
    run_timing(g, launch_options, device_launches, depth, shown);
    return std::move(result);
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
        run_timing(g, launch_options, device_launches, depth, shown);
      } catch (...) {
        memory.release(workspace);
        throw;
      }
      memory.release(workspace);
      return std::move(result);
    }
    try {
      func::WaveRunOptions wave{run_options, g.shared_size, options.resident_blocks, options.sim_threads};
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
      run_waves(g, wave, shown);
    } catch (...) {
      memory.release(workspace);
      throw;
    }
    memory.release(workspace);
    return std::move(result);
  }
  func::WaveRunOptions wave{run_options, g.shared_size, options.resident_blocks, options.sim_threads};
  wave.parallel_commit = options.parallel_commit;
  wave.hash_interval = options.watchdog.watchdog_interval_instructions;
  wave.busy_hash_interval = options.watchdog.watchdog_interval_instructions;
  wave.instruction_limit = options.watchdog.watchdog_limit_instructions;
  run_waves(g, wave, shown);
  return std::move(result);
}

void Engine::Impl::run_waves(GridSetup& g, const func::WaveRunOptions& wave, LaunchProgress& shown) {
  func::RunCounters counters;
  func::WaveRunner waves(g.module->kernels[g.index], g.launch, wave, g.trace());
  try {
    waves.run(counters, [&](uint64_t done) {
      if (!progress) return;
      shown.blocks_done = done;
      shown.thread_instructions = counters.thread_instructions;
      progress(shown);
    });
  } catch (const func::WaveFault& f) {
    g.result.fault = make_report(*g.module, g.kernel(), f.fault, *f.cta, g.launch, options.warp_size);
  }
  g.result.warp_instructions = counters.warp_instructions;
  g.result.thread_instructions = counters.thread_instructions;
  g.result.divergence = counters.divergence;
}

}  // namespace lockstep
