#pragma once
// Everything past the SMs' L1s (design.md, mem/): a crossbar carrying requests from the SMs to
// the L2 slices, the slices, the DRAM channels behind them with the memory controllers' pipeline,
// and a crossbar carrying responses back. Built once from its options and kept for the life of
// the simulated GPU, so the L2 stays warm from one launch to the next.
//
// It steps only in the launch's serial phase (after every SM has stepped and committed a cycle):
// the SMs' misses enter through send(), responses leave through has_response()/pop_response(),
// and tick() moves everything one cycle, units in a fixed order, so a run is deterministic for
// any number of threads stepping the SMs. Nothing allocates after construction.
//
// Near and far L2 (sides = 2, A100 and H100: NVIDIA's two L2 partitions, each the near L2 of
// half the GPCs): the SMs fall into two sides, and each side's requests go to its own half of
// the slices, so a line read from both sides is kept on both. A slice's miss first looks in the
// paired slice of the other side (the same index within its half), which holds what this side
// replaced (l2_slice.h, victims_to_far); found there, the sectors come back far_latency cycles
// later as a fill, else the miss goes to DRAM as it would with one side. The model thus gives
// one SM's data the whole L2 at two latencies: its near half, then the far half at about 1.75x
// the near hit (hardware.md §2b: the plateaus of a pointer chase between half the L2 and all
// of it). The look-up in the far slice is a tag check, not a request through its queues, and
// the victims' transfer takes no time; coherence between the two copies is not modelled (the
// functional model owns the bytes).
//
// Memory partitions: slices and channels fall into groups that never exchange a request (with
// the same hash for both, slice s and channel c meet only when s and c agree modulo the smaller
// count), so within a cycle, between the two crossbars, each group steps on its own. tick() may
// run the groups on several threads (ParallelFor); each writes only its own slices, channels,
// statistics and crossbar ports, so the result is the same for any number of threads.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "mem/crossbar.h"
#include "mem/dram/dram_channel.h"
#include "mem/l2_slice.h"
#include "mem/mem_request.h"
#include "mem/ring.h"

namespace lockstep::mem {

struct MemorySystemOptions {
  uint32_t sms = 1;
  uint32_t line_bytes = 128;
  uint32_t sector_bytes = 32;
  uint32_t slices = 1;
  L2SliceOptions slice;
  uint32_t channels = 1;
  DramOptions dram;
  uint32_t controller_latency = 0;  // cycles a DRAM read's data spends in controller and PHY
  CrossbarOptions network;          // latency, queues and flit size of both crossbars
  bool xor_hash = true;             // slice and channel by a hash of the line, else line modulo count
  uint32_t header_bytes = 8;        // a request or acknowledgement without data
  uint32_t sides = 1;               // 1, or 2: near and far L2 (see above); divides slices
  uint32_t far_latency = 0;         // cycles from a slice's miss to the far slice's data
};

struct MemorySystemStats {
  uint64_t requests = 0;          // sent by the SMs
  uint64_t responses = 0;         // delivered to the SMs
  uint64_t dram_reads = 0, dram_writes = 0;
  uint64_t dram_stalls = 0;       // cycles a slice's DRAM request waited for its channel's queue
  uint64_t fill_stalls = 0;       // cycles DRAM data waited for its slice to take it
  uint64_t response_stalls = 0;   // cycles a slice's response waited for the response crossbar
  uint64_t far_hits = 0;          // misses the far slice answered
  uint64_t victim_stalls = 0;     // cycles a replaced line waited for room in the far slice
};

// Runs task(i) for every i in [0, count), possibly on several threads, and returns when all
// are done (the SMs' worker pool, sim/sm_stepper.h).
using ParallelFor = std::function<void(uint32_t count, const std::function<void(uint32_t)>& task)>;

class MemorySystem {
 public:
  // Throws std::invalid_argument naming what a unit rejects.
  explicit MemorySystem(const MemorySystemOptions& options);

  // The SM side. send: caller checked can_send(sm); `now` never decreases.
  bool can_send(uint32_t sm) const { return requests_.can_push(sm); }
  void send(uint32_t sm, const MemRequest& request, uint64_t now);
  bool has_response(uint32_t sm, uint64_t now) const { return responses_.can_pop(sm, now); }
  const MemRequest& response(uint32_t sm) const { return responses_.front(sm); }
  void pop_response(uint32_t sm);

  // One cycle of every unit; true when anything moved. `parallel` (may be null) runs the memory
  // partitions' steps; the result does not depend on it.
  bool tick(uint64_t now, const ParallelFor* parallel = nullptr);
  // How many partitions tick() can step side by side.
  uint32_t partition_count() const { return static_cast<uint32_t>(partitions_.size()); }
  // The first cycle after `now` at which tick could move something (UINT64_MAX: nothing in
  // flight anywhere).
  uint64_t next_event(uint64_t now) const;

  // The slice that serves `sm`'s requests for `line` (its side's half of the slices).
  uint32_t slice_of(uint32_t sm, uint64_t line) const;
  uint32_t channel_of(uint64_t line) const;
  uint32_t side_of(uint32_t sm) const { return sm * options_.sides / options_.sms; }

  MemorySystemStats stats() const;
  const std::vector<L2Slice>& slices() const { return slices_; }
  uint32_t channel_count() const { return static_cast<uint32_t>(channels_.size()); }
  const DramChannel& channel(uint32_t c) const { return *channels_[c]; }
  const Crossbar& request_network() const { return requests_; }
  const Crossbar& response_network() const { return responses_; }
  const MemorySystemOptions& options() const { return options_; }

 private:
  struct Returning {
    MemRequest request;
    uint64_t ready = 0;
  };

  // Slices and channels that only ever exchange requests among themselves (see above), with
  // what their step counts and its scratch.
  struct Partition {
    std::vector<uint32_t> slices;
    std::vector<uint32_t> channels;
    MemorySystemStats stats;             // everything but requests and responses
    std::vector<DramRequest> completed;  // scratch for DramChannel::tick
  };

  uint32_t payload_bytes(const MemRequest& r) const;
  // One cycle of partition `p` between the crossbars, in the order of the data's flow.
  bool tick_partition(Partition& p, uint64_t now);
  bool move_requests_to_slice(uint32_t s, uint64_t now);
  bool move_slice_to_dram(uint32_t s, MemorySystemStats& stats, uint64_t now);
  bool tick_channel(uint32_t c, std::vector<DramRequest>& completed, uint64_t now);
  // Data that came back (from a DRAM channel's controller, or from a far slice) fills the slice
  // that asked for it (the request's source).
  bool fill_slices(RingBuffer<Returning>& pipe, MemorySystemStats& stats, uint64_t now);
  bool move_victims(uint32_t s, MemorySystemStats& stats, uint64_t now);
  // The slice of the other side with the same index within its half.
  uint32_t paired(uint32_t s) const { return (s + per_side_) % options_.slices; }
  bool move_responses(uint32_t s, MemorySystemStats& stats, uint64_t now);

  MemorySystemOptions options_;
  Crossbar requests_;   // inputs: SMs, outputs: slices
  Crossbar responses_;  // inputs: slices, outputs: SMs
  std::vector<L2Slice> slices_;
  std::vector<std::unique_ptr<DramChannel>> channels_;  // not movable: held by pointer
  std::vector<RingBuffer<Returning>> returning_;  // per channel: DRAM data in the controller's pipeline
  std::vector<uint64_t> channel_wake_;            // per channel: the first cycle its tick can do anything
  std::vector<RingBuffer<Returning>> far_returning_;  // per slice: sectors coming from its far slice
  uint32_t per_side_ = 1;                         // slices per side
  std::vector<Partition> partitions_;
  MemorySystemStats stats_;  // requests and responses (the SM side)
  // tick()'s task for a partitioned step, made once so that no cycle builds a function.
  uint64_t tick_now_ = 0;
  std::function<void(uint32_t)> tick_one_;
  // Per partition, whether this cycle's tick moved anything: packed apart from the partitions,
  // which their threads write, so that tick() reads a few cache lines rather than one from each.
  std::vector<uint8_t> partition_moved_;
};

}  // namespace lockstep::mem
