#include "sim/instruction_cache.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace lockstep::sim {

InstructionCache::InstructionCache(const InstructionCacheOptions& options) : options_(options) {
  if (options.sets == 0 || options.ways == 0 || options.line_bytes == 0 || options.miss_latency == 0)
    throw std::invalid_argument("an instruction cache needs sets, ways, line_bytes and miss_latency of at least 1");
  replacement_ = mem::make_replacement_policy(options.replacement, options.sets, options.ways);
  lines_.resize(static_cast<size_t>(options.sets) * options.ways);
}

FetchResult InstructionCache::access(uint64_t pc, uint64_t cycle) {
  const uint64_t line_address = pc / options_.line_bytes;
  const uint32_t set = static_cast<uint32_t>(line_address % options_.sets);
  const uint64_t tag = line_address / options_.sets;
  const uint32_t first = set * options_.ways;

  for (uint32_t line = first; line < first + options_.ways; ++line) {
    Line& l = lines_[line];
    if (!l.valid || l.tag != tag) continue;
    // A merged miss uses the line as a hit does: under lru it renews the line too.
    replacement_->on_hit(line);
    if (cycle >= l.ready_cycle) {
      ++stats_.hits;
      return {FetchOutcome::kHit, cycle};
    }
    ++stats_.misses, ++stats_.merged_misses;
    return {FetchOutcome::kMergedMiss, l.ready_cycle};
  }

  // Miss: an empty way first (lowest index), else the policy's choice among the ways whose fill
  // has completed; lines still filling stay, so a waiting warp's line is not lost.
  uint64_t candidates = 0;  // bit w: way w's fill has completed
  uint64_t earliest_fill = UINT64_MAX;
  uint32_t chosen = UINT32_MAX;
  for (uint32_t way = 0; way < options_.ways; ++way) {
    const Line& l = lines_[first + way];
    if (!l.valid) {
      chosen = first + way;
      break;
    }
    if (cycle >= l.ready_cycle) candidates |= uint64_t{1} << way;
    else earliest_fill = std::min(earliest_fill, l.ready_cycle);
  }
  if (chosen == UINT32_MAX) {
    if (candidates == 0) {
      ++stats_.set_full;
      return {FetchOutcome::kSetFull, earliest_fill};
    }
    chosen = first + replacement_->victim(set, candidates);
  }
  const uint64_t ready = options_.external_fills ? kPending : cycle + options_.miss_latency;
  lines_[chosen] = Line{true, tag, ready};
  replacement_->on_fill(chosen);
  ++stats_.misses;
  return {FetchOutcome::kMiss, ready};
}

void InstructionCache::fill(uint64_t pc, uint64_t cycle) {
  const uint64_t line_address = pc / options_.line_bytes;
  const uint32_t first = static_cast<uint32_t>(line_address % options_.sets) * options_.ways;
  const uint64_t tag = line_address / options_.sets;
  for (uint32_t line = first; line < first + options_.ways; ++line) {
    Line& l = lines_[line];
    if (l.valid && l.tag == tag && l.ready_cycle == kPending) l.ready_cycle = cycle;
  }
}

}  // namespace lockstep::sim
