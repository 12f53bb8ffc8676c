#include "sim/instruction_cache.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>

namespace lockstep::sim {
namespace {

// Both policies of seed 001 §3.2 order lines by a stamp from one counter per cache (access
// order, so several accesses in one cycle still have an order); they differ in what renews it.
class StampedReplacement : public ICacheReplacement {
 public:
  explicit StampedReplacement(uint32_t lines) : stamps_(lines, 0) {}
  void on_fill(uint32_t line) override { stamps_[line] = ++clock_; }
  uint32_t victim(std::span<const uint32_t> candidates) const override {
    uint32_t oldest = candidates.front();
    for (uint32_t line : candidates)
      if (stamps_[line] < stamps_[oldest]) oldest = line;
    return oldest;
  }

 protected:
  void renew(uint32_t line) { stamps_[line] = ++clock_; }

 private:
  std::vector<uint64_t> stamps_;
  uint64_t clock_ = 0;
};

// lru: evicts the line used least recently; every use renews it.
class LruReplacement final : public StampedReplacement {
 public:
  using StampedReplacement::StampedReplacement;
  void on_access(uint32_t line) override { renew(line); }
};

// fifo: evicts the line filled first; uses do not matter.
class FifoReplacement final : public StampedReplacement {
 public:
  using StampedReplacement::StampedReplacement;
  void on_access(uint32_t) override {}
};

struct ReplacementEntry {
  std::string_view name;
  std::string_view description;
  std::unique_ptr<ICacheReplacement> (*make)(uint32_t lines);
};

constexpr std::array kReplacements{
    ReplacementEntry{"lru", "evict the least recently used line",
                     [](uint32_t lines) -> std::unique_ptr<ICacheReplacement> {
                       return std::make_unique<LruReplacement>(lines);
                     }},
    ReplacementEntry{"fifo", "evict the line filled first",
                     [](uint32_t lines) -> std::unique_ptr<ICacheReplacement> {
                       return std::make_unique<FifoReplacement>(lines);
                     }},
};

std::unique_ptr<ICacheReplacement> make_replacement(std::string_view name, uint32_t lines) {
  for (const ReplacementEntry& entry : kReplacements)
    if (entry.name == name) return entry.make(lines);
  std::string accepted;
  for (const ReplacementEntry& entry : kReplacements) {
    if (!accepted.empty()) accepted += ", ";
    accepted += entry.name;
  }
  throw std::invalid_argument("unknown I-cache replacement policy '" + std::string(name) + "' (accepted: " + accepted +
                              ")");
}

}  // namespace

std::vector<std::string_view> icache_replacement_names() {
  std::vector<std::string_view> names;
  for (const ReplacementEntry& entry : kReplacements) names.push_back(entry.name);
  return names;
}

InstructionCache::InstructionCache(const InstructionCacheOptions& options) : options_(options) {
  if (options.sets == 0 || options.ways == 0 || options.line_bytes == 0 || options.miss_latency == 0)
    throw std::invalid_argument("an instruction cache needs sets, ways, line_bytes and miss_latency of at least 1");
  const uint32_t line_count = options.sets * options.ways;
  replacement_ = make_replacement(options.replacement, line_count);
  lines_.resize(line_count);
  candidates_.reserve(options.ways);
}

FetchResult InstructionCache::access(uint64_t pc, uint64_t cycle) {
  const uint64_t line_address = pc / options_.line_bytes;
  const uint32_t set = static_cast<uint32_t>(line_address % options_.sets);
  const uint64_t tag = line_address / options_.sets;
  const uint32_t first = set * options_.ways;

  for (uint32_t line = first; line < first + options_.ways; ++line) {
    Line& l = lines_[line];
    if (!l.valid || l.tag != tag) continue;
    replacement_->on_access(line);
    if (cycle >= l.ready_cycle) {
      ++stats_.hits;
      return {FetchOutcome::kHit, cycle};
    }
    ++stats_.misses, ++stats_.merged_misses;
    return {FetchOutcome::kMergedMiss, l.ready_cycle};
  }

  // Miss: an empty way first (lowest index), else the policy's choice among the ways whose fill
  // has completed; lines still filling stay, so a waiting warp's line is not lost.
  candidates_.clear();
  uint64_t earliest_fill = UINT64_MAX;
  uint32_t chosen = UINT32_MAX;
  for (uint32_t line = first; line < first + options_.ways; ++line) {
    const Line& l = lines_[line];
    if (!l.valid) {
      chosen = line;
      break;
    }
    if (cycle >= l.ready_cycle) candidates_.push_back(line);
    else earliest_fill = std::min(earliest_fill, l.ready_cycle);
  }
  if (chosen == UINT32_MAX) {
    if (candidates_.empty()) {
      ++stats_.set_full;
      return {FetchOutcome::kSetFull, earliest_fill};
    }
    chosen = replacement_->victim(candidates_);
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
