#include "sim/occupancy.h"

#include <algorithm>
#include <vector>

namespace lockstep::sim {

namespace {

uint64_t divide_up(uint64_t x, uint64_t y) { return (x + y - 1) / y; }
uint64_t round_up(uint64_t x, uint64_t y) { return divide_up(x, y) * y; }
uint32_t clamp32(uint64_t v) { return static_cast<uint32_t>(std::min<uint64_t>(v, kNoLimit)); }

// The smallest legal L1/shared split holding `bytes`; nullopt when none does.
std::optional<uint64_t> carveout_at_least(const config::GpuConfig::Sm& sm, uint64_t bytes) {
  for (uint32_t kib : sm.shared_carveouts_kib)
    if (uint64_t(kib) * 1024 >= bytes) return uint64_t(kib) * 1024;
  return std::nullopt;
}

// The split a carve-out preference asks for (a percentage of the SM's shared memory, rounded up
// to a legal split; -1: no preference, all of it).
uint64_t preferred_split(const config::GpuConfig::Sm& sm, int carveout_percent) {
  const uint64_t bytes = carveout_percent < 0 ? sm.shared_bytes() : uint64_t(carveout_percent) * sm.shared_bytes() / 100;
  return carveout_at_least(sm, bytes).value_or(sm.shared_bytes());
}

// The kernel's dynamic shared memory limit: its own, else the default per-block limit less the
// static part.
uint64_t max_dynamic_of(const config::GpuConfig::Sm& sm, const OccupancyRequest& r) {
  const uint64_t default_limit = sm.shared_per_block_bytes();
  return r.max_dynamic_shared.value_or(default_limit > r.static_shared ? default_limit - r.static_shared : 0);
}

uint32_t warp_limit(const config::GpuConfig::Sm& sm, uint64_t warps_per_block, uint32_t block_size) {
  if (block_size > sm.max_threads_per_block) return 0;
  const uint64_t warp_slots = std::min<uint64_t>(sm.max_threads / sm.warp_size, sm.max_warps);
  return clamp32(warp_slots / warps_per_block);
}

// Registers go to warps in units of register_alloc_unit, inside one partition per scheduler.
// The per-block check rounds the warps up to a multiple of the partitions, as the hardware's does.
uint32_t register_limit(const config::GpuConfig::Sm& sm, uint64_t warps_per_block, uint32_t registers,
                        Occupancy& out) {
  const uint64_t per_warp = round_up(uint64_t(registers) * sm.warp_size, sm.register_alloc_unit);
  const uint64_t per_block = per_warp * warps_per_block;
  const uint64_t assumed_per_block = per_warp * round_up(warps_per_block, sm.schedulers);
  out.registers_per_block = clamp32(per_block);
  if (registers > sm.max_registers_per_thread || per_block > sm.max_registers_per_block ||
      assumed_per_block > sm.max_registers_per_block)
    return 0;
  if (per_warp == 0) return kNoLimit;
  const uint64_t warps_per_partition = (sm.registers / sm.schedulers) / per_warp;
  return clamp32(warps_per_partition * sm.schedulers / warps_per_block);
}

uint32_t shared_limit(const config::GpuConfig::Sm& sm, const OccupancyRequest& r, Occupancy& out) {
  const uint64_t static_part = r.static_shared + sm.shared_reserved_per_block;
  const uint64_t allocated = round_up(static_part + r.dynamic_shared, sm.shared_alloc_unit);
  out.shared_per_block = allocated;
  const uint64_t default_limit = sm.shared_per_block_bytes();
  const uint64_t max_dynamic = max_dynamic_of(sm, r);
  // A block whose static part plus its allowed dynamic part exceeds the default limit has opted in.
  const uint64_t per_block_cap =
      (static_part + max_dynamic > default_limit ? sm.shared_per_block_optin_bytes() : default_limit) +
      sm.shared_reserved_per_block;
  if (r.dynamic_shared > max_dynamic || allocated > per_block_cap) return 0;

  // The preferred split, unless one block needs more: then the smallest split that holds it.
  const uint64_t preferred = preferred_split(sm, r.carveout_percent);
  const uint64_t pool = preferred >= allocated ? preferred : carveout_at_least(sm, allocated).value_or(0);
  out.shared_per_sm = pool;
  if (allocated == 0) return kNoLimit;
  return clamp32(pool / allocated);
}

}  // namespace

Occupancy compute_occupancy(const config::GpuConfig& gpu, const OccupancyRequest& r) {
  const config::GpuConfig::Sm& sm = gpu.sm;
  Occupancy o;
  if (r.block_size == 0) {
    o.limited_by = kLimitWarps;
    return o;
  }
  const uint64_t warps_per_block = divide_up(r.block_size, sm.warp_size);
  o.by_warps = warp_limit(sm, warps_per_block, r.block_size);
  o.by_blocks = sm.max_blocks;
  o.by_registers = register_limit(sm, warps_per_block, r.registers_per_thread, o);
  o.by_shared = shared_limit(sm, r, o);
  o.blocks = std::min({o.by_warps, o.by_blocks, o.by_registers, o.by_shared});
  if (o.blocks == o.by_warps) o.limited_by |= kLimitWarps;
  if (o.blocks == o.by_registers) o.limited_by |= kLimitRegisters;
  if (o.blocks == o.by_shared) o.limited_by |= kLimitSharedMemory;
  if (o.blocks == o.by_blocks) o.limited_by |= kLimitBlocks;
  return o;
}

std::optional<uint64_t> available_dynamic_shared(const config::GpuConfig& gpu, const OccupancyRequest& request,
                                                 uint32_t blocks) {
  const config::GpuConfig::Sm& sm = gpu.sm;
  OccupancyRequest without = request;
  without.dynamic_shared = 0;
  if (blocks == 0 || compute_occupancy(gpu, without).blocks < blocks) return std::nullopt;
  // The runtime's kernels opt in: a block may have the opt-in limit when the SM has more than
  // the default limit, plus the system's reservation.
  const uint64_t per_block_cap =
      (sm.shared_bytes() > sm.shared_per_block_bytes() ? sm.shared_per_block_optin_bytes() : sm.shared_per_block_bytes()) +
      sm.shared_reserved_per_block;
  uint64_t per_sm = per_block_cap;
  if (blocks > 1) {
    per_sm = preferred_split(sm, request.carveout_percent);
    if (per_sm == 0) per_sm = carveout_at_least(sm, 1).value_or(sm.shared_bytes());  // no split has none
  }
  uint64_t available = std::min(per_sm / blocks / sm.shared_alloc_unit * sm.shared_alloc_unit, per_block_cap);
  available = available > request.static_shared ? available - request.static_shared : 0;
  return std::min(available, max_dynamic_of(sm, request));
}

std::string limit_names(uint32_t limited_by) {
  static constexpr std::pair<uint32_t, const char*> kNames[] = {
      {kLimitWarps, "warps"}, {kLimitRegisters, "registers"}, {kLimitSharedMemory, "shared memory"},
      {kLimitBlocks, "blocks"}};
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if ((limited_by & bit) == 0) continue;
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out.empty() ? "none" : out;
}

}  // namespace lockstep::sim
