#pragma once
// The SM's instruction cache (seed 001 §3.2: fetch reads through the I-cache; a miss stalls
// fetch for that warp only). Set-associative, with a replacement policy chosen by name from the
// caches' registry (mem/replacement/: icache.replacement accepts what l1.replacement and
// l2.replacement accept).
//
// Timing: a miss sends one request to the next level and installs the line's tag at once,
// marked as filling until cycle + miss_latency; from that cycle on the line hits. Another access
// to a line still filling waits for the same fill (no second request), like an MSHR merge.
// A line still filling is never evicted: when every way of a set is filling, the access cannot
// be served now and the caller retries (back-pressure, never a dropped request).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mem/replacement/replacement_policy.h"

namespace lockstep::sim {

struct InstructionCacheOptions {
  uint32_t sets = 1;          // >= 1
  uint32_t ways = 1;          // 1 to mem::kMaxReplacementWays
  uint32_t line_bytes = 128;  // >= 1
  uint32_t miss_latency = 1;  // cycles from a miss until its line is there, >= 1
  std::string replacement = "lru";
  // The memory hierarchy answers misses (memory.model = hierarchy): a miss's line stays pending
  // (ready_cycle kPending) until fill() is called, instead of arriving after miss_latency.
  bool external_fills = false;
};

enum class FetchOutcome {
  kHit,         // the line is there: ready_cycle is the access cycle
  kMiss,        // a request went to the next level: the line is there at ready_cycle
  kMergedMiss,  // the line was already being filled: it is there at ready_cycle, no new request
  kSetFull,     // every way of the set is filling: nothing changed; retry at ready_cycle
};

struct FetchResult {
  FetchOutcome outcome = FetchOutcome::kHit;
  uint64_t ready_cycle = 0;
  bool operator==(const FetchResult&) const = default;
};

struct InstructionCacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;         // every kMiss and kMergedMiss
  uint64_t merged_misses = 0;  // of those, the ones that sent no request (requests = misses - merged)
  uint64_t set_full = 0;       // accesses refused because their set had no way to replace
};

class InstructionCache {
 public:
  // Throws std::invalid_argument for a zero geometry or latency, and what
  // mem::make_replacement_policy throws (too many ways, an unknown name).
  explicit InstructionCache(const InstructionCacheOptions& options);

  static constexpr uint64_t kPending = UINT64_MAX;  // a fill whose cycle the hierarchy decides

  // Fetch of the instruction at byte address `pc` in `cycle`. Cycles passed are non-decreasing.
  FetchResult access(uint64_t pc, uint64_t cycle);
  // external_fills: the line holding byte address `pc` arrived in `cycle` (no-op when it is no
  // longer pending here).
  void fill(uint64_t pc, uint64_t cycle);

  const InstructionCacheStats& stats() const { return stats_; }
  const InstructionCacheOptions& options() const { return options_; }

 private:
  struct Line {
    bool valid = false;
    uint64_t tag = 0;
    uint64_t ready_cycle = 0;  // the fill completes here; the line hits from this cycle on
  };

  InstructionCacheOptions options_;
  std::vector<Line> lines_;  // sets * ways; line index = set * ways + way, as the policy counts
  std::unique_ptr<mem::ReplacementPolicy> replacement_;
  InstructionCacheStats stats_;
};

}  // namespace lockstep::sim
