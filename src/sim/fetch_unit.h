#pragma once
// The SM's front end (seed 001 §3.2, step 3 of the SM's cycle in sm.h): fetch and decode. Per
// scheduler partition, one warp a cycle reads through the instruction cache and decodes up to
// timing.fetch_width instructions of one I-cache line into its I-buffer entries (the scoreboard
// sees each decode). Warps take turns round robin from the one after the last that fetched; a
// warp fetches when its I-buffer has room, it has not exited, and no miss or block launch holds
// it. A miss holds only its own warp: for icache.miss_latency cycles, or, under the memory
// hierarchy, until the LD/ST unit brings the line back (fill).
//
// A stage unit (pipeline_unit.h) that produces rather than takes work: what it is handed
// (accept) is where a warp fetches from, a redirect: a block's warp starting, or a warp whose
// fetched path was wrong (a taken branch, a reconvergence) fetching again from its PC. Its
// output is the I-buffer, and in touched() the warps whose fetch state changed in the last tick
// (the SM classifies those again).
//
// Most cycles of a memory-bound kernel no warp can fetch: every I-buffer is full. So the unit
// keeps, per partition, the warps that may fetch (a superset: a warp leaves it when a scan finds
// it full or done, and joins it again when its I-buffer frees an entry, on_room), and a partition
// whose last scan found nothing to fetch is not scanned again until one of its warps changes or
// the clock reaches a warp's ready cycle.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "config/gpu_config.h"
#include "sim/instruction_buffer.h"
#include "sim/instruction_cache.h"
#include "sim/instruction_timing.h"
#include "sim/ldst_unit.h"
#include "sim/scoreboard/scoreboard.h"
#include "sim/warp_scheduler/warp_scheduler.h"

namespace lockstep::sim {

struct FetchUnitOptions {
  uint32_t partitions = 1;  // warp slot s belongs to partition s % partitions
  uint32_t warp_slots = 1;  // a whole number per partition
  uint32_t fetch_width = 1;
  // Per PC: the next PC fetch goes on to after it (past folded moves, which are no
  // instructions to fetch); its size is the kernel's code size.
  const std::vector<uint32_t>* next_pc = nullptr;
  const std::vector<InstTiming>* timing = nullptr;  // per PC: the operands decode hands the scoreboard
  // The memory hierarchy's LD/ST unit, which carries I-cache misses (null under fixed latencies,
  // where a miss takes icache.miss_latency), and where the kernel's code is in its address space.
  LdstUnit* next_level = nullptr;
  uint64_t code_base = 0;
};

// Where a warp fetches from next.
struct FetchRedirect {
  uint32_t slot = 0;
  uint32_t pc = 0;
};

class FetchUnit {
 public:
  using Request = FetchRedirect;
  static constexpr uint32_t kInstructionBytes = 16;  // the I-cache address of PC p is 16 p

  FetchUnit(const FetchUnitOptions& options, const InstructionCacheOptions& icache, InstructionBuffer& ibuffer,
            Scoreboard& scoreboard);
  FetchUnit(const FetchUnit&) = delete;
  FetchUnit& operator=(const FetchUnit&) = delete;

  // Redirects are never refused.
  bool can_accept(uint64_t) const { return true; }
  // The warp fetches from r.pc. A warp that was waiting for a miss no longer does (the fill goes
  // on in the cache); a block's launch still holds it. The caller has emptied its I-buffer.
  void accept(uint64_t, const FetchRedirect& r) { redirect(r); }
  void redirect(const FetchRedirect& r);
  // One fetch per partition; true when any warp fetched or missed.
  bool tick(uint64_t now);
  // The first cycle after `now` at which a held warp may fetch (UINT64_MAX: none).
  uint64_t next_event(uint64_t now) const;

  // A block's warp arrives in `slot` and fetches from `pc` from cycle `ready` on; it leaves when
  // its block ends. An exited warp stops fetching (stop).
  void add_warp(uint32_t slot, uint32_t pc, uint64_t ready);
  void remove_warp(uint32_t slot);
  void stop(uint32_t slot);
  // The warp's I-buffer freed an entry (an issue popped its head).
  void on_room(uint32_t slot);
  // Under the memory hierarchy: the line holding code address `address` (the hierarchy's
  // address space) arrived; it hits from now on and the warps waiting for it may fetch.
  // False when the line is not this kernel's (an earlier launch asked for it).
  bool fill(uint64_t address, uint64_t now);

  // The warps whose fetch state changed in the last tick, in the order they changed.
  const std::vector<uint32_t>& touched() const { return touched_; }
  uint32_t fetch_pc(uint32_t slot) const { return warps_[slot].pc; }
  // The cycle a held warp may fetch again (a miss, a block's launch); at or before `now`: not held.
  uint64_t ready_at(uint32_t slot) const { return warps_[slot].ready; }
  const InstructionCache& icache() const { return icache_; }

 private:
  struct WarpFetch {
    bool resident = false;
    bool stopped = false;
    uint32_t pc = 0;           // next PC to fetch
    uint64_t ready = 0;        // a miss (or the block's launch) holds fetch until then
    bool waiting = false;      // `ready` is a pending I-cache fill
  };
  struct Partition {
    explicit Partition(uint32_t locals) : candidates(locals) {}
    WarpSet candidates;          // local slots that may fetch (a superset, see above)
    uint32_t next = 0;           // round-robin pointer (local slot)
    bool dirty = true;
    uint64_t valid_until = 0;    // a scan that found nothing holds until then
  };
  uint32_t partition_of(uint32_t slot) const { return slot % options_.partitions; }
  uint32_t local_of(uint32_t slot) const { return slot / options_.partitions; }
  void wake(uint32_t slot) {
    Partition& part = partitions_[partition_of(slot)];
    part.candidates.set(local_of(slot));
    part.dirty = true;
  }
  bool fetch(uint32_t p, uint64_t now);
  // latest_ready_: no warp's ready cycle is later (a pending fill's aside, which is no cycle),
  // so next_event scans the warps only while one may still be held.
  void note_ready(uint64_t ready) {
    if (ready != InstructionCache::kPending) latest_ready_ = std::max(latest_ready_, ready);
  }

  FetchUnitOptions options_;
  uint32_t code_size_;
  InstructionCache icache_;
  InstructionBuffer& ibuffer_;
  Scoreboard& scoreboard_;
  std::vector<WarpFetch> warps_;
  std::vector<Partition> partitions_;
  std::vector<uint32_t> touched_;
  uint64_t latest_ready_ = 0;
};

static_assert(PipelineUnit<FetchUnit>);

}  // namespace lockstep::sim
