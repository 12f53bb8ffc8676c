#include "config/gpu_config.h"

#include <algorithm>
#include <map>
#include <utility>

#include "config/config_error.h"
#include "config/presets.h"
#include "fmt/format.h"
#include "fmt/ranges.h"

namespace lockstep::config {

namespace {

uint32_t u32(const ConfigValues& v, std::string_view key) { return static_cast<uint32_t>(v.get_int(key)); }
uint64_t u64(const ConfigValues& v, std::string_view key) { return static_cast<uint64_t>(v.get_int(key)); }

UnitTiming unit(const ConfigValues& v, std::string_view name) {
  UnitTiming u;
  u.latency = u32(v, fmt::format("pipeline.{}.latency", name));
  u.initiation_interval = u32(v, fmt::format("pipeline.{}.initiation_interval", name));
  u.lanes = u32(v, fmt::format("pipeline.{}.lanes", name));
  return u;
}

// An opcode form as the [opcodes] table spells it: "name" or "name.modifier", each part a
// non-empty run of lowercase letters, digits and underscores (PTX's own spelling).
bool is_opcode_form(std::string_view form) {
  const auto is_part = [](std::string_view part) {
    return !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
  };
  const size_t dot = form.find('.');
  if (dot == std::string_view::npos) return is_part(form);
  return is_part(form.substr(0, dot)) && is_part(form.substr(dot + 1));
}

// The whitespace-separated forms of one opcodes.<unit> key, each checked for its spelling.
std::vector<std::string> opcode_forms(const ConfigValues& v, std::string_view key) {
  std::vector<std::string> forms;
  std::string_view rest = v.get_string(key);
  constexpr std::string_view kSpace = " \t\r\n";
  while (true) {
    const size_t begin = rest.find_first_not_of(kSpace);
    if (begin == std::string_view::npos) break;
    rest.remove_prefix(begin);
    const std::string_view form = rest.substr(0, rest.find_first_of(kSpace));
    if (!is_opcode_form(form))
      throw ConfigError(fmt::format("bad opcode '{}' in {}: expected an opcode or opcode.modifier of lowercase "
                                    "letters, digits and underscores, like sin or rcp.approx",
                                    form, key));
    forms.emplace_back(form);
    rest.remove_prefix(form.size());
  }
  return forms;
}

// Reads the [opcodes] table; a form may be listed once only, since it names one unit.
GpuConfig::Opcodes read_opcodes(const ConfigValues& v) {
  GpuConfig::Opcodes o;
  const std::pair<std::string_view, std::vector<std::string>*> lists[] = {
      {"opcodes.sfu", &o.sfu},   {"opcodes.tensor", &o.tensor}, {"opcodes.ldst", &o.ldst},
      {"opcodes.fp64", &o.fp64}, {"opcodes.fp32", &o.fp32},     {"opcodes.int", &o.integer}};
  std::map<std::string, std::string_view, std::less<>> listed_in;  // form -> the key that lists it
  for (const auto& [key, forms] : lists) {
    *forms = opcode_forms(v, key);
    for (const std::string& form : *forms) {
      const auto [it, fresh] = listed_in.emplace(form, key);
      if (fresh) continue;
      if (it->second == key) throw ConfigError(fmt::format("opcode '{}' is listed twice in {}", form, key));
      throw ConfigError(fmt::format("opcode '{}' is listed in both {} and {}", form, it->second, key));
    }
  }
  return o;
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

namespace {

// The L1, L2, crossbar and DRAM keys, and how they must fit together.
void read_memory_system(const ConfigValues& v, GpuConfig& g) {
  GpuConfig::L1& l1 = g.l1;
  l1.unified_kib = u32(v, "l1.unified_kib");
  l1.ways = u32(v, "l1.ways");
  l1.line_bytes = u32(v, "l1.line_bytes");
  l1.sector_bytes = u32(v, "l1.sector_bytes");
  l1.replacement = v.get_string("l1.replacement");
  l1.hit_latency = u32(v, "l1.hit_latency");
  l1.mshr_entries = u32(v, "l1.mshr_entries");
  l1.mshr_max_merge = u32(v, "l1.mshr_max_merge");
  l1.miss_queue = u32(v, "l1.miss_queue");
  l1.lsu_queue = u32(v, "l1.lsu_queue");
  if (l1.sector_bytes > l1.line_bytes)
    inconsistent(fmt::format("l1.sector_bytes ({}) exceeds l1.line_bytes ({})", l1.sector_bytes, l1.line_bytes));
  if (l1.unified_kib < g.sm.shared_kib)
    inconsistent(fmt::format("l1.unified_kib ({}) is smaller than sm.shared_kib ({}): shared memory is carved out of it",
                             l1.unified_kib, g.sm.shared_kib));

  GpuConfig::L2& l2 = g.l2;
  l2.slices = u32(v, "l2.slices");
  l2.ways = u32(v, "l2.ways");
  l2.replacement = v.get_string("l2.replacement");
  l2.hit_latency = u32(v, "l2.hit_latency");
  l2.atomic_latency = u32(v, "l2.atomic_latency");
  l2.mshr_entries = u32(v, "l2.mshr_entries");
  l2.mshr_max_merge = u32(v, "l2.mshr_max_merge");
  l2.queue = u32(v, "l2.queue");
  l2.xor_hash = v.get_string("l2.hash") == "xor";
  l2.sides = u32(v, "l2.sides");
  l2.far_latency = u32(v, "l2.far_latency");
  if (l2.slices % l2.sides != 0)
    inconsistent(fmt::format("l2.slices ({}) does not split evenly into l2.sides ({})", l2.slices, l2.sides));
  // Every slice holds whole sets: the L2's geometry is exact, never rounded.
  const uint64_t set_bytes = uint64_t{l1.line_bytes} * l2.ways;
  const uint64_t l2_bytes = uint64_t{g.gpu.l2_kib} * 1024;
  if (l2_bytes % l2.slices != 0 || l2_bytes / l2.slices % set_bytes != 0 || l2_bytes / l2.slices == 0)
    inconsistent(fmt::format("gpu.l2_kib ({}) over l2.slices ({}) does not split into whole sets of l2.ways ({}) "
                             "lines of l1.line_bytes ({})",
                             g.gpu.l2_kib, l2.slices, l2.ways, l1.line_bytes));
  if (l2.queue < l2.mshr_max_merge)
    inconsistent(fmt::format("l2.queue ({}) must hold at least l2.mshr_max_merge ({}) responses", l2.queue,
                             l2.mshr_max_merge));

  g.interconnect.latency = u32(v, "interconnect.latency");
  g.interconnect.flit_bytes = u32(v, "interconnect.flit_bytes");
  g.interconnect.queue = u32(v, "interconnect.queue");

  GpuConfig::Dram& d = g.dram;
  d.channels = u32(v, "dram.channels");
  d.bus_bytes = u32(v, "dram.bus_bytes");
  d.banks = u32(v, "dram.banks");
  d.row_bytes = u32(v, "dram.row_bytes");
  d.t_rcd = u32(v, "dram.t_rcd");
  d.t_rp = u32(v, "dram.t_rp");
  d.t_ras = u32(v, "dram.t_ras");
  d.t_cl = u32(v, "dram.t_cl");
  d.t_wl = u32(v, "dram.t_wl");
  d.t_ccd = u32(v, "dram.t_ccd");
  d.read_queue = u32(v, "dram.read_queue");
  d.write_queue = u32(v, "dram.write_queue");
  d.controller_latency = u32(v, "dram.controller_latency");
  d.scheduler = v.get_string("dram.scheduler");
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
  g.gpu.pci_device_id = u32(v, "gpu.pci_device_id");
  g.gpu.async_engines = u32(v, "gpu.async_engines");
  g.gpu.host_link_mb_s = u32(v, "gpu.host_link_mb_s");
  g.gpu.ecc_enabled = u32(v, "gpu.ecc_enabled") != 0;
  g.gpu.fp32_to_fp64_ratio = u32(v, "gpu.fp32_to_fp64_ratio");

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
  sm.divergence = v.get_string("sm.divergence");
  sm.yield_after = u32(v, "sm.yield_after");
  sm.large_warp_size = u32(v, "sm.large_warp_size");
  check_consistency(sm);

  g.pipeline.integer = unit(v, "int");
  g.pipeline.fp32 = unit(v, "fp32");
  g.pipeline.fp64 = unit(v, "fp64");
  g.pipeline.sfu = unit(v, "sfu");
  g.pipeline.tensor = unit(v, "tensor");
  g.pipeline.ldst = unit(v, "ldst");

  g.memory.hierarchy = v.get_string("memory.model") == "hierarchy";
  g.memory.shared_latency = u32(v, "memory.shared_latency");
  g.memory.global_latency = u32(v, "memory.global_latency");
  g.memory.local_latency = u32(v, "memory.local_latency");
  g.memory.constant_latency = u32(v, "memory.constant_latency");
  g.memory.texture_latency = u32(v, "memory.texture_latency");
  g.memory.constant_cache_kib = u32(v, "memory.constant_cache_kib");
  g.memory.constant_cache_ways = u32(v, "memory.constant_cache_ways");
  g.memory.coalescing = v.get_string("memory.coalescing");
  g.memory.shared_banks = u32(v, "memory.shared_banks");
  g.memory.shared_bank_bytes = u32(v, "memory.shared_bank_bytes");
  g.memory.shared_group_lanes = u32(v, "memory.shared_group_lanes");
  read_memory_system(v, g);

  g.icache.sets = u32(v, "icache.sets");
  g.icache.ways = u32(v, "icache.ways");
  g.icache.line_bytes = u32(v, "icache.line_bytes");
  g.icache.miss_latency = u32(v, "icache.miss_latency");
  g.icache.replacement = v.get_string("icache.replacement");

  g.opcodes = read_opcodes(v);

  GpuConfig::Timing& t = g.timing;
  t.warp_scheduler = v.get_string("timing.warp_scheduler");
  t.fetch_group_size = u32(v, "timing.fetch_group_size");
  t.scoreboard = v.get_string("timing.scoreboard");
  t.rid_entries = u32(v, "timing.rid_entries");
  t.ibuffer_entries = u32(v, "timing.ibuffer_entries");
  t.fetch_width = u32(v, "timing.fetch_width");
  t.collector_units = u32(v, "timing.collector_units");
  t.register_banks = u32(v, "timing.register_banks");
  t.bank_reads_per_cycle = u32(v, "timing.bank_reads_per_cycle");
  t.bank_by_warp = v.get_string("timing.bank_mapping") == "warp-offset";
  t.writeback_ports = u32(v, "timing.writeback_ports");
  t.simt_push_cycles = u32(v, "timing.simt_push_cycles");
  t.simt_pop_cycles = u32(v, "timing.simt_pop_cycles");
  t.cta_scheduler = v.get_string("timing.cta_scheduler");
  t.block_launch_cycles = u32(v, "timing.block_launch_cycles");
  t.fold_immediate_moves = v.get_string("timing.immediate_moves") == "fold";
  t.kernel_overlap = v.get_string("timing.kernel_overlap") == "tail";

  GpuConfig::Run& r = g.run;
  r.watchdog_interval_cycles = u64(v, "run.watchdog_interval_cycles");
  r.watchdog_limit_cycles = u64(v, "run.watchdog_limit_cycles");
  r.watchdog_interval_instructions = u64(v, "run.watchdog_interval_instructions");
  r.watchdog_limit_instructions = u64(v, "run.watchdog_limit_instructions");
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
