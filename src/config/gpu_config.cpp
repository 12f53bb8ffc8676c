#include "config/gpu_config.h"

#include "config/config_error.h"
#include "config/presets.h"
#include "fmt/format.h"
#include "fmt/ranges.h"

namespace lockstep::config {

namespace {

uint32_t u32(const ConfigValues& v, std::string_view key) { return static_cast<uint32_t>(v.get_int(key)); }

UnitTiming unit(const ConfigValues& v, std::string_view name) {
  UnitTiming u;
  u.latency = u32(v, fmt::format("pipeline.{}.latency", name));
  u.initiation_interval = u32(v, fmt::format("pipeline.{}.initiation_interval", name));
  u.lanes = u32(v, fmt::format("pipeline.{}.lanes", name));
  return u;
}

[[noreturn]] void inconsistent(const std::string& message) { throw ConfigError(message); }

// Cross-field rules: the values each make sense alone; these make sure they make one SM.
void check_consistency(const GpuConfig::Sm& sm) {
  if (uint64_t(sm.max_warps) * sm.warp_size < sm.max_threads)
    inconsistent(fmt::format("sm.max_warps ({}) times sm.warp_size ({}) is {} threads, fewer than sm.max_threads ({})",
                             sm.max_warps, sm.warp_size, uint64_t(sm.max_warps) * sm.warp_size, sm.max_threads));
  if (sm.max_threads_per_block > sm.max_threads)
    inconsistent(fmt::format("sm.max_threads_per_block ({}) exceeds sm.max_threads ({})", sm.max_threads_per_block,
                             sm.max_threads));
  if (sm.max_registers_per_block > sm.registers)
    inconsistent(fmt::format("sm.max_registers_per_block ({}) exceeds sm.registers ({})", sm.max_registers_per_block,
                             sm.registers));
  if (sm.registers % sm.schedulers != 0)
    inconsistent(fmt::format("sm.registers ({}) must split evenly among sm.schedulers ({})", sm.registers,
                             sm.schedulers));
  if (sm.register_alloc_unit > sm.registers / sm.schedulers)
    inconsistent(fmt::format("sm.register_alloc_unit ({}) exceeds one scheduler's registers "
                             "(sm.registers / sm.schedulers = {})",
                             sm.register_alloc_unit, sm.registers / sm.schedulers));
  if (sm.shared_per_block_kib > sm.shared_per_block_optin_kib)
    inconsistent(fmt::format("sm.shared_per_block_kib ({}) exceeds sm.shared_per_block_optin_kib ({})",
                             sm.shared_per_block_kib, sm.shared_per_block_optin_kib));
  if (sm.shared_per_block_optin_bytes() + sm.shared_reserved_per_block > sm.shared_bytes())
    inconsistent(fmt::format("sm.shared_per_block_optin_kib ({}) plus sm.shared_reserved_per_block ({} bytes) "
                             "exceeds sm.shared_kib ({})",
                             sm.shared_per_block_optin_kib, sm.shared_reserved_per_block, sm.shared_kib));
  const std::vector<uint32_t>& c = sm.shared_carveouts_kib;
  for (size_t i = 1; i < c.size(); ++i)
    if (c[i] <= c[i - 1]) inconsistent(fmt::format("sm.shared_carveouts_kib must rise: [{}]", fmt::join(c, ", ")));
  if (c.back() != sm.shared_kib)
    inconsistent(fmt::format("sm.shared_carveouts_kib must end at sm.shared_kib ({}); it ends at {}", sm.shared_kib,
                             c.back()));
}

}  // namespace

GpuConfig make_gpu_config(const ConfigValues& v, std::string_view preset) {
  GpuConfig g;
  g.preset = preset;
  g.gpu.name = v.get_string("gpu.name");
  g.gpu.compute_capability = u32(v, "gpu.compute_capability");
  g.gpu.sm_count = u32(v, "gpu.sm_count");
  g.gpu.core_clock_mhz = u32(v, "gpu.core_clock_mhz");
  g.gpu.memory_clock_mhz = u32(v, "gpu.memory_clock_mhz");
  g.gpu.memory_bus_bits = u32(v, "gpu.memory_bus_bits");
  g.gpu.global_memory_gib = v.get_float("gpu.global_memory_gib");
  g.gpu.l2_kib = u32(v, "gpu.l2_kib");

  GpuConfig::Sm& sm = g.sm;
  sm.warp_size = u32(v, "sm.warp_size");
  sm.max_threads = u32(v, "sm.max_threads");
  sm.max_warps = u32(v, "sm.max_warps");
  sm.max_blocks = u32(v, "sm.max_blocks");
  sm.registers = u32(v, "sm.registers");
  sm.register_alloc_unit = u32(v, "sm.register_alloc_unit");
  sm.max_registers_per_thread = u32(v, "sm.max_registers_per_thread");
  sm.max_registers_per_block = u32(v, "sm.max_registers_per_block");
  sm.shared_kib = u32(v, "sm.shared_kib");
  sm.shared_per_block_kib = u32(v, "sm.shared_per_block_kib");
  sm.shared_per_block_optin_kib = u32(v, "sm.shared_per_block_optin_kib");
  sm.shared_alloc_unit = u32(v, "sm.shared_alloc_unit");
  sm.shared_reserved_per_block = u32(v, "sm.shared_reserved_per_block");
  for (int64_t kib : v.get_list("sm.shared_carveouts_kib")) sm.shared_carveouts_kib.push_back(static_cast<uint32_t>(kib));
  sm.max_threads_per_block = u32(v, "sm.max_threads_per_block");
  sm.schedulers = u32(v, "sm.schedulers");
  sm.issue_width = u32(v, "sm.issue_width");
  check_consistency(sm);

  g.pipeline.integer = unit(v, "int");
  g.pipeline.fp32 = unit(v, "fp32");
  g.pipeline.fp64 = unit(v, "fp64");
  g.pipeline.sfu = unit(v, "sfu");
  g.pipeline.tensor = unit(v, "tensor");
  g.pipeline.ldst = unit(v, "ldst");

  g.memory.shared_latency = u32(v, "memory.shared_latency");
  g.memory.global_latency = u32(v, "memory.global_latency");
  g.memory.local_latency = u32(v, "memory.local_latency");
  g.memory.constant_latency = u32(v, "memory.constant_latency");
  g.memory.texture_latency = u32(v, "memory.texture_latency");

  g.icache.sets = u32(v, "icache.sets");
  g.icache.ways = u32(v, "icache.ways");
  g.icache.line_bytes = u32(v, "icache.line_bytes");
  g.icache.miss_latency = u32(v, "icache.miss_latency");
  return g;
}

ConfigValues effective_values(std::string_view preset, const std::vector<std::string>& overrides) {
  ConfigValues values = load_preset(preset);
  values.apply_overrides(overrides);
  make_gpu_config(values, preset);  // the consistency checks
  return values;
}

GpuConfig load_gpu_config(std::string_view preset, const std::vector<std::string>& overrides) {
  ConfigValues values = load_preset(preset);
  values.apply_overrides(overrides);
  return make_gpu_config(values, preset);
}

}  // namespace lockstep::config
