#pragma once
// One L2 slice of a memory partition: a write-back, write-allocate SectorCache plus the timing
// around it. Requests arrive through a bounded input queue (accept), one is processed per cycle
// (tick), responses leave through a bounded output queue, and misses and write-backs go to the
// partition's DRAM channel through a bounded to-DRAM queue.
//
// Timing (exact): a request accepted in cycle t can be processed by tick(t). Processed in cycle
// n, a read or write hit's response is ready at n + latency; an atomic's (a read-modify-write
// done here, which needs its sectors present and leaves them dirty) at n + latency +
// atomic_latency. A read or atomic that misses sends one DRAM read for the sectors not already
// requested and waits on the MSHR; dram_fill(line, sectors, f) makes the waiters whose sectors
// have all arrived ready at f + latency (+ atomic_latency). The output queue is in order: a
// response leaves only after the ones before it, even if its own ready cycle is earlier.
//
// Back-pressure: when the head request cannot be processed (no MSHR entry or merge slot, no room
// in the to-DRAM queue for the fetch or the write-back it may cause, no room in the output queue
// for its response) it stays at the head, the matching stall counter counts the cycle, and tick
// returns false. Nothing is dropped and no queue grows.
//
// DRAM requests carry source 0, token 0 and issued = the cycle they were made; the partition
// matches a DRAM read's return by line and sectors (dram_fill), and a DRAM write (kind kWrite)
// needs no return.
//
// Near and far (the two L2 partitions of A100 and H100, memory_system.h): with
// victims_to_far, a slice is the near L2 of its side's SMs and the victim store of the other
// side. A line this slice replaces while serving its own side (a fill, an allocating write) goes
// out through the to-far queue, clean or dirty, instead of being written back or dropped; the
// partition inserts it into the paired slice of the other side (insert_victim), and what that
// replaces is written back if dirty, else dropped, so lines never bounce back and forth.
#include <cstdint>
#include <vector>

#include "mem/mem_request.h"
#include "mem/ring.h"
#include "mem/sector_cache.h"

namespace lockstep::mem {

struct L2SliceOptions {
  SectorCacheOptions cache{.sets = 64, .ways = 16, .write = WritePolicy::kWriteBackAllocate};
  uint32_t latency = 1;         // tag + data access cycles, >= 1
  uint32_t atomic_latency = 0;  // extra cycles of an atomic's read-modify-write
  uint32_t input_queue = 8;     // requests waiting to be processed, >= 1
  uint32_t output_queue = 8;    // responses waiting to leave, >= cache.mshr_max_merge
  uint32_t dram_queue = 8;      // requests waiting to go to DRAM, >= 1
  bool victims_to_far = false;  // replaced lines go to the far partition (see above)
};

// A line on its way to the far partition's slice.
struct Victim {
  uint64_t line = 0;
  uint32_t sectors = 0;  // valid
  uint32_t dirty = 0;    // a subset of sectors
};

struct L2SliceStats {
  uint64_t reads = 0;  // requests processed, by kind
  uint64_t writes = 0;
  uint64_t atomics = 0;
  uint64_t dram_reads = 0;  // requests put into the to-DRAM queue, by kind
  uint64_t dram_writes = 0;
  uint64_t reservation_stalls = 0;   // cycles the head waited for an MSHR entry or merge slot
  uint64_t dram_queue_stalls = 0;    // cycles the head waited for room in the to-DRAM queue
  uint64_t output_queue_stalls = 0;  // cycles the head waited for room in the output queue
  uint64_t victims_out = 0;  // lines sent to the far partition
  uint64_t victims_in = 0;   // lines kept for the far partition
};

class L2Slice {
 public:
  // Throws std::invalid_argument for a write-through cache, a zero latency or queue, an output
  // queue smaller than cache.mshr_max_merge, or whatever the SectorCache rejects.
  explicit L2Slice(const L2SliceOptions& options);

  bool can_accept() const { return !input_.full(); }
  // Caller: can_accept(); `now` non-decreasing across calls.
  void accept(const MemRequest& request, uint64_t now);

  // Processes at most one request, the head of the input queue. True when it did.
  bool tick(uint64_t now);

  bool has_dram_request() const { return !to_dram_.empty(); }
  const MemRequest& dram_front() const { return to_dram_.front(); }
  void dram_pop();

  // True when dram_fill may be called now for `line`: room for every response it can release
  // and, if the line is absent, for the write-back of the victim it may evict.
  bool can_fill(uint64_t line) const;
  // Data for `sectors` of `line` came back from DRAM in cycle `now`. Caller: can_fill(line).
  void dram_fill(uint64_t line, uint32_t sectors, uint64_t now);

  bool has_victim() const { return !to_far_.empty(); }
  const Victim& victim_front() const { return to_far_.front(); }
  void victim_pop();
  // True when insert_victim may be called now: room for the write-back it may cause.
  bool can_insert_victim() const { return !to_dram_.full(); }
  // Keeps a line the other side's slice replaced (see above). Caller: can_insert_victim().
  void insert_victim(const Victim& victim, uint64_t now);

  bool has_response(uint64_t now) const;
  const MemRequest& response_front() const { return output_.front().request; }
  void response_pop();

  // The earliest cycle >= now at which a call could make progress: a processable head, a
  // to-DRAM request, a response becoming ready. UINT64_MAX when only an outside event (a pop, a
  // fill, an accept) can change anything.
  uint64_t next_event(uint64_t now) const;

  const L2SliceStats& stats() const { return stats_; }
  const SectorCacheStats& cache_stats() const { return cache_.stats(); }
  const SectorCache& cache() const { return cache_; }

 private:
  // Why the head last stalled: only the matching outside event (a fill frees an MSHR, a DRAM pop
  // or a response pop frees a slot) can unblock it, so next_event need not retry before that.
  enum class Blocked : uint8_t { kNo, kMshr, kDramQueue, kFarQueue, kOutputQueue };

  struct Arrival {
    MemRequest request;
    uint64_t accepted = 0;
  };
  struct Response {
    MemRequest request;
    uint64_t ready = 0;
  };

  bool process_read(const MemRequest& request, uint64_t now);  // reads and atomics
  bool process_write(const MemRequest& request, uint64_t now);
  void respond(const MemRequest& request,
               uint64_t now);  // adds the kind's latency; marks atomics dirty
  void send_dram(uint64_t line, uint32_t sectors, AccessKind kind, uint64_t now);
  // Where a line replaced while serving this side goes: the far partition, or DRAM if dirty.
  void send_replaced(const Eviction& evicted, uint64_t now);
  // True when the queue a replaced line would go to is full.
  bool replaced_queue_full() const { return options_.victims_to_far ? to_far_.full() : to_dram_.full(); }
  // The head could not be processed for `reason`: counts the cycle; returns false.
  bool stall(uint64_t& counter, Blocked reason);

  L2SliceOptions options_;
  SectorCache cache_;
  RingBuffer<Arrival> input_;
  RingBuffer<Response> output_;
  RingBuffer<MemRequest> to_dram_;
  RingBuffer<Victim> to_far_;  // empty unless victims_to_far
  std::vector<MemRequest> waiting_;     // requests parked on the MSHRs; the cache's token = index
  std::vector<uint32_t> free_waiting_;  // free indices of waiting_ (a stack)
  std::vector<uint64_t> ready_;         // scratch for SectorCache::fill, mshr_max_merge reserved
  Blocked blocked_ = Blocked::kNo;
  L2SliceStats stats_;
};

}  // namespace lockstep::mem
