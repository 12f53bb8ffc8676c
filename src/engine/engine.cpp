#include "engine/engine.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "engine/engine_impl.h"
#include "engine/engine_options.h"
#include "fmt/format.h"
#include "func/kernel_binder.h"
#include "ptx/check.h"
#include "ptx/link.h"
#include "ptx/parser.h"

namespace lockstep {

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


}  // namespace lockstep
