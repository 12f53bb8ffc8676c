#pragma once
// The SM's LD/ST unit with its L1 data cache (seed 001 §3.2, seed 004 §2.5-2.6; docs/timing-model.md,
// "Memory"). A memory instruction's accesses, as the functional step resolved them lane by lane
// (func/access_log.h), become work for the unit:
//   - global and local accesses are coalesced into transactions (32-byte sectors of 128-byte
//     lines, or the older half-warp rules), each of which goes through the L1 in its own cycle:
//     a hit returns after l1.hit_latency; a miss takes an MSHR (merging with a miss to the same
//     sectors) and a place in the miss queue, which the memory system drains; stores update the L1
//     where present and always go on (write-through, no allocation); atomics go to the L2;
//   - shared accesses take as many passes through the banks as their worst bank needs, one pass a
//     cycle, and return after memory.shared_latency.
// An instruction finishes when all its transactions are served; the SM then writes its registers.
// When the unit's queue or the miss queue is full, or no MSHR is free, the unit stalls and the
// warps that want it are charged memory_throttle.
//
// The unit belongs to one SM: it steps in the SM's parallel phase. The memory system reaches it
// only in the serial phase, through outbound() and deliver().
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "func/access_log.h"
#include "func/device_memory.h"
#include "mem/coalescer.h"
#include "mem/mem_request.h"
#include "mem/ring.h"
#include "mem/sector_cache.h"
#include "mem/shared_banks.h"
#include "sim/pipeline_unit.h"

namespace lockstep::sim {

struct LdstUnitOptions {
  uint32_t sm = 0;
  uint32_t warp_size = 32;
  uint32_t local_bytes_per_thread = 0;  // the launch's per-thread local memory (stack)
  mem::CoalescerOptions coalescer;
  mem::SharedBanksOptions banks;
  mem::SectorCacheOptions l1;
  mem::SectorCacheOptions constant_cache;
  uint32_t l1_hit_latency = 1;
  uint32_t constant_latency = 1;  // a constant-cache hit (and every kernel-parameter load)
  uint32_t shared_latency = 1;
  uint32_t miss_queue = 1;
  uint32_t queue = 1;          // transactions waiting for the L1 before issue stalls
  uint32_t in_flight = 1;      // memory instructions in flight at once
  uint32_t inbound = 64;       // responses the unit buffers from the memory system
  // Device memory, whose stable_address() global accesses go by (host memory the OS placed);
  // null: the accesses' own addresses.
  const func::DeviceMemory* memory = nullptr;
};

struct LdstUnitStats {
  uint64_t global_accesses = 0;     // warp-level global or local accesses
  uint64_t transactions = 0;        // their transactions after coalescing
  uint64_t sectors = 0;             // sectors those transactions asked for
  uint64_t shared_accesses = 0;     // warp-level shared accesses
  uint64_t shared_passes = 0;       // bank passes they took (accesses + conflicts)
  std::array<uint64_t, 33> conflict_degree{};  // shared accesses by their worst bank's degree (32+: last)
  uint64_t throttle_cycles = 0;     // cycles the head transaction could not go (queue full, no MSHR)
  uint64_t load_latency_total = 0;  // issue to finish, summed over loads
  uint64_t loads = 0;
};

// What a memory instruction asks of the unit when it issues.
struct LdstRequest {
  mem::AccessKind kind = mem::AccessKind::kRead;
  bool bypass_l1 = false;    // a load the L1 neither serves nor keeps (ld.cg, ld.cv, volatile)
  bool constant = false;     // a load through the constant cache (ld.const, ld.param), ready no
                             // sooner than its hit latency
  uint32_t min_latency = 1;  // its result is ready no sooner than this after issue (the texture
                             // pipeline's)
};

// A memory instruction that finished: its id (from accept) and the cycle its result is ready.
struct FinishedAccess {
  uint32_t id = 0;
  uint64_t cycle = 0;
};

// A stage of the SM's issue path (pipeline_unit.h).
class LdstUnit {
 public:
  using Request = LdstRequest;
  explicit LdstUnit(const LdstUnitOptions& options);

  // Room for another instruction: its queue is below capacity and an id is free. The room does
  // not depend on the cycle (the form with `now` is the stage contract's).
  bool can_accept() const { return queue_.size() - head_ < options_.queue && !free_ids_.empty(); }
  bool can_accept(uint64_t /*now*/) const { return can_accept(); }
  // A memory instruction issued at `now`; returns its id. Its accesses follow with add(), then
  // close().
  uint32_t accept(uint64_t now, const LdstRequest& request);
  // Whether a constant load with these accesses would miss the constant cache (no side effects).
  bool constant_misses(const func::AccessLog& log) const;
  // The accesses one execution of the instruction made; `warp_slot` places local memory.
  void add(uint32_t id, const func::AccessLog& log, uint32_t warp_slot);
  // No more accesses: it finishes once what it queued is served.
  void close(uint32_t id);

  // One cycle: responses delivered since the last cycle fill the L1, then the head transaction
  // goes through the L1. True when anything changed; finished() lists the instructions that
  // finished in it, until the next tick.
  bool tick(uint64_t now);
  const std::vector<FinishedAccess>& finished() const { return finished_; }
  // The first cycle after `now` at which cycle() could change something on its own.
  uint64_t next_event(uint64_t now) const;
  bool busy() const { return head_ < queue_.size() || !inbound_.empty() || in_use_ != 0; }

  // Instruction-cache misses go through the same miss queue: room for one, and the request for
  // `bytes` of code at `address`; the lines that came back since the last cycle().
  bool can_send() const { return !outbound_.full(); }
  void send_instruction_miss(uint64_t address, uint32_t bytes, uint64_t now);
  const std::vector<uint64_t>& instruction_fills() const { return instruction_fills_; }

  // The memory system's side (serial phase only).
  mem::RingBuffer<mem::MemRequest>& outbound() { return outbound_; }
  bool can_deliver() const { return !inbound_.full(); }
  void deliver(const mem::MemRequest& response) { inbound_.push(response); }

  const LdstUnitStats& stats() const { return stats_; }
  const mem::SectorCacheStats& l1_stats() const { return l1_.stats(); }
  const mem::SectorCacheStats& constant_stats() const { return constant_.stats(); }

 private:
  enum class Work : uint8_t { kRead, kReadBypass, kWrite, kAtomic, kSharedPass, kConstant };
  struct Transaction {
    uint32_t id = 0;
    Work work = Work::kRead;
    uint64_t line = 0;
    uint32_t sectors = 0;
    uint64_t address = 0;  // kConstant: the address it serves (one distinct address a cycle)
  };
  struct Instruction {
    mem::AccessKind kind = mem::AccessKind::kRead;
    bool bypass_l1 = false;
    bool constant = false;
    uint32_t remaining = 0;  // transactions queued or waiting below
    bool closed = false;
    uint64_t ready = 0;      // the latest result cycle so far
    uint64_t issued = 0;
  };

  // One warp-wide access of instruction `id` (one element per lane at most); may_be_*: whether
  // it can hold shared-memory records and other records (a path that cannot is skipped).
  void add_round(uint32_t id, std::span<const func::AccessRecord> round, uint32_t warp_slot, bool may_be_shared,
                 bool may_be_other);
  void add_constant(uint32_t id, std::span<const func::AccessRecord> round);
  void served(uint32_t id, uint64_t ready);
  void finish_if_done(uint32_t id, uint64_t now, std::vector<FinishedAccess>& finished);
  bool fill(uint64_t now, std::vector<FinishedAccess>& finished);
  // A fill of `cache` from below: the loads it completes are ready at `ready`.
  void fill_cache(mem::SectorCache& cache, const mem::MemRequest& r, uint64_t ready, uint64_t now,
                  std::vector<FinishedAccess>& finished);
  // One transaction of instruction `id` served, its data ready at `ready`.
  void answer(uint32_t id, uint64_t ready, uint64_t now, std::vector<FinishedAccess>& finished);
  // The head transaction through the L1; false when it must wait.
  bool serve(const Transaction& t, uint64_t now);
  uint64_t local_address(uint32_t warp_slot, uint32_t lane, uint64_t offset) const;

  LdstUnitOptions options_;
  mem::Coalescer coalescer_;
  mem::SharedBanks banks_;
  mem::SectorCache l1_;
  mem::SectorCache constant_;
  std::vector<Instruction> instructions_;  // by id
  std::vector<uint32_t> free_ids_;
  uint32_t in_use_ = 0;
  std::vector<Transaction> queue_;  // [head_, size) waiting; emptied when drained (no per-cycle allocation)
  size_t head_ = 0;
  mem::RingBuffer<mem::MemRequest> outbound_;
  mem::RingBuffer<mem::MemRequest> inbound_;
  std::vector<uint32_t> closed_ids_;  // ids closed since the last cycle, to check for completion
  // Scratch for add(): one round of lane addresses per space, then its transactions.
  std::vector<std::vector<func::AccessRecord>> rounds_;
  std::vector<uint64_t> lane_addresses_;
  std::vector<mem::Transaction> transactions_;
  std::vector<uint64_t> ready_tokens_;
  std::vector<uint64_t> instruction_fills_;  // code addresses of the lines filled in this cycle
  std::vector<FinishedAccess> finished_;     // the instructions that finished in this cycle
  LdstUnitStats stats_;
};

static_assert(PipelineUnit<LdstUnit>);

}  // namespace lockstep::sim
