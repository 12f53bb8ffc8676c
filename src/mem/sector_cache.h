#pragma once
// A sectored set-associative cache with MSHRs: the L1 data cache of an SM, the constant cache and
// the tag/data array of an L2 slice. Tags only (no data): the functional model owns the bytes.
//
// Addresses are line numbers (byte address / line_bytes) and sector masks (bit i = sector i of
// the line). Set = line % sets. A line is allocated on fill, like GPGPU-Sim's on-fill caches: a
// read miss reserves an MSHR entry, not a way; the way is chosen when the data arrives (fill).
//
// MSHRs: one entry per distinct line with outstanding sectors, holding the sectors requested
// below and the requests waiting on it (at most mshr_max_merge, in arrival order). Each waiting
// request needs the sectors that were missing when it arrived; sectors present at that moment
// count as delivered then (a hit under the miss), so a later eviction of the line cannot strand
// a waiter. Lines with an MSHR entry are kept out of victim choice while any way of the set is
// not pending; when every way is pending one of them goes (its fill re-installs it).
//
// Writes: kWriteThroughNoAllocate (the L1 of recent NVIDIA GPUs) updates the sectors of a present
// line that are present and installs nothing; the store itself goes below. kWriteBackAllocate
// (the L2) installs the line if absent and marks the written sectors valid and dirty without a
// fetch from below: dirty state is per sector, so a partly written sector counts as wholly
// written (a simplification: real L2s keep byte masks and merge on the fill).
//
// Nothing allocates after construction: the lines, MSHR entries and merge lists are fixed arrays.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mem/line_index.h"
#include "mem/replacement/replacement_policy.h"

namespace lockstep::mem {

enum class WritePolicy : uint8_t { kWriteThroughNoAllocate, kWriteBackAllocate };

struct SectorCacheOptions {
  uint32_t sets = 1;           // >= 1
  uint32_t ways = 1;           // 1 .. kMaxReplacementWays
  uint32_t line_bytes = 128;   // a multiple of sector_bytes
  uint32_t sector_bytes = 32;  // >= 1; line_bytes / sector_bytes is 1 .. 32
  std::string replacement = "lru";
  WritePolicy write = WritePolicy::kWriteThroughNoAllocate;
  uint32_t mshr_entries = 32;   // distinct lines with outstanding misses, >= 1
  uint32_t mshr_max_merge = 8;  // requests waiting on one entry (the first included), >= 1
};

enum class ReadOutcome : uint8_t {
  kHit,              // every sector present
  kHitReserved,      // every missing sector already requested: waits on the MSHR, nothing to send
  kMiss,             // line absent and without an MSHR entry: one allocated; send `fetch`
  kSectorMiss,       // line present or pending, some missing sectors not requested: send `fetch`
  kReservationFail,  // no MSHR entry free, or the line's merge list full: nothing changed; retry
};

struct ReadResult {
  ReadOutcome outcome = ReadOutcome::kHit;
  uint32_t fetch = 0;  // sectors to request from below (kMiss, kSectorMiss), else 0
  bool operator==(const ReadResult&) const = default;
};

// A line replaced to make room for another.
struct Eviction {
  bool evicted = false;  // a valid line was replaced
  uint64_t line = 0;
  uint32_t dirty_sectors = 0;  // to write below; 0 for a clean line
  uint32_t sectors = 0;        // the valid sectors it held (a victim store takes them)
  bool operator==(const Eviction&) const = default;
};

struct WriteResult {
  bool hit = false;  // the line was present
  Eviction evicted;  // write-back: installing the line replaced this one
  bool operator==(const WriteResult&) const = default;
};

struct SectorCacheStats {
  uint64_t accesses = 0;  // read() calls, retries after kReservationFail included
  uint64_t hits = 0;
  uint64_t hit_reserved = 0;
  uint64_t misses = 0;
  uint64_t sector_misses = 0;
  uint64_t reservation_fails = 0;
  // Reads that joined an existing MSHR entry (every hit_reserved, and sector misses on a line
  // already pending).
  uint64_t mshr_merges = 0;
  uint64_t fills = 0;      // fill() calls
  uint64_t evictions = 0;  // valid lines replaced, by fills and allocating writes
  uint64_t dirty_evictions = 0;
  uint64_t writes = 0;      // write() calls
  uint64_t write_hits = 0;  // of those, the ones whose line was present
};

class SectorCache {
 public:
  // Throws std::invalid_argument naming the first bad option, or for an unknown replacement name.
  explicit SectorCache(const SectorCacheOptions& options);

  // A read of `sectors` (not zero, within the line) of `line`; `token` comes back from fill()
  // when the read had to wait. A read of a present line renews it in the replacement order.
  ReadResult read(uint64_t line, uint32_t sectors, uint64_t token);

  // A store to `sectors` of `line` (see the write policies above).
  WriteResult write(uint64_t line, uint32_t sectors);

  // Data for `sectors` of `line` arrived from below: installs the line if absent (a replaced line
  // is reported through `evicted` when not null; a write-back cache's caller must pass one),
  // marks the sectors valid, appends to `ready` the tokens whose sectors have now all arrived, in
  // arrival order (at most mshr_max_merge of them: reserve that and nothing allocates), and frees
  // the line's MSHR entry once nobody waits on it.
  void fill(uint64_t line, uint32_t sectors, std::vector<uint64_t>& ready, Eviction* evicted);

  // A line another cache evicted, kept here as a victim (the far L2 partition, l2_slice.h):
  // installs `line` if absent (a replaced line is reported through `evicted`), or merges into
  // the present one, and marks `sectors` valid and `dirty` (a subset) dirty. Waiters are not
  // touched: a victim is not the answer to a request of this cache.
  void insert(uint64_t line, uint32_t sectors, uint32_t dirty, Eviction& evicted);

  // True when `line` is present with every sector of `sectors` valid. No side effects.
  bool probe(uint64_t line, uint32_t sectors) const;
  // True when `line` holds a way (any sectors). No side effects.
  bool present(uint64_t line) const;
  // The sectors of `sectors` a read would send below now: neither present nor already requested.
  uint32_t unrequested(uint64_t line, uint32_t sectors) const;

  // Every line becomes invalid (dirty data is dropped: for the write-through L1 at a kernel
  // boundary). MSHR entries stay: their fills still arrive and re-install their lines.
  void invalidate_all();

  uint32_t sectors_per_line() const { return sectors_per_line_; }
  const SectorCacheOptions& options() const { return options_; }
  const SectorCacheStats& stats() const { return stats_; }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;

  struct Line {
    bool valid = false;
    bool pending = false;  // the line has an MSHR entry (kept out of victim choice)
    uint32_t sectors = 0;  // valid sectors
    uint32_t dirty = 0;    // dirty sectors (write-back only), a subset of `sectors`
    uint64_t line = 0;     // the line number it holds (tag and set together)
  };
  struct Waiter {
    uint64_t token = 0;
    uint32_t need = 0;  // sectors still to arrive
  };
  struct Mshr {
    uint64_t line = 0;
    uint32_t requested = 0;  // sectors requested below and not yet arrived
    uint32_t waiting = 0;    // waiters at waiters_[entry * mshr_max_merge ...]
  };

  uint32_t find_way(uint64_t line) const;   // index into lines_, or kNone
  uint32_t find_mshr(uint64_t line) const;  // position in mshr_order_, or kNone
  // Every lookup starts here: a mask when the set count is a power of two (L1s), else a division.
  uint32_t set_of(uint64_t line) const {
    return static_cast<uint32_t>(set_mask_ != 0 ? line & set_mask_ : line % options_.sets);
  }
  // Chooses a way of `line`'s set, evicts what it holds and installs `line` there, empty.
  uint32_t install(uint64_t line, Eviction& evicted);
  void check_sectors(uint32_t sectors) const;

  SectorCacheOptions options_;
  uint32_t sectors_per_line_;
  uint64_t set_mask_ = 0;  // sets - 1 when sets is a power of two above 1, else 0
  uint32_t all_sectors_;
  static constexpr uint64_t kNoTag = UINT64_MAX;  // no line number is this large
  std::vector<Line> lines_;  // sets * ways; index = set * ways + way
  std::vector<uint64_t> tags_;  // parallel to lines_: the line a valid way holds, else kNoTag
  std::unique_ptr<ReplacementPolicy> replacement_;
  std::vector<Mshr> mshrs_;
  std::vector<Waiter> waiters_;       // mshr_entries * mshr_max_merge
  std::vector<uint32_t> mshr_order_;  // entry indices: [0, mshr_used_) in use, the rest free
  std::vector<uint64_t> mshr_lines_;  // mshr_lines_[p]: the line of entry mshr_order_[p], p < mshr_used_
  LineIndex mshr_index_;              // line -> its position p, for the lines in use
  uint32_t mshr_used_ = 0;
  SectorCacheStats stats_;
};

}  // namespace lockstep::mem
