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
#include <cstdint>
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
};

struct MemorySystemStats {
  uint64_t requests = 0;          // sent by the SMs
  uint64_t responses = 0;         // delivered to the SMs
  uint64_t dram_reads = 0, dram_writes = 0;
  uint64_t dram_stalls = 0;       // cycles a slice's DRAM request waited for its channel's queue
  uint64_t fill_stalls = 0;       // cycles DRAM data waited for its slice to take it
  uint64_t response_stalls = 0;   // cycles a slice's response waited for the response crossbar
};

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

  // One cycle of every unit; true when anything moved.
  bool tick(uint64_t now);
  // The first cycle after `now` at which tick could move something (UINT64_MAX: nothing in
  // flight anywhere).
  uint64_t next_event(uint64_t now) const;

  uint32_t slice_of(uint64_t line) const;
  uint32_t channel_of(uint64_t line) const;

  const MemorySystemStats& stats() const { return stats_; }
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

  uint32_t payload_bytes(const MemRequest& r) const;
  bool move_requests_to_slices(uint64_t now);
  bool move_slices_to_dram(uint64_t now);
  bool tick_channels(uint64_t now);
  bool fill_slices(uint64_t now);
  bool move_responses(uint64_t now);

  MemorySystemOptions options_;
  Crossbar requests_;   // inputs: SMs, outputs: slices
  Crossbar responses_;  // inputs: slices, outputs: SMs
  std::vector<L2Slice> slices_;
  std::vector<std::unique_ptr<DramChannel>> channels_;  // not movable: held by pointer
  std::vector<RingBuffer<Returning>> returning_;  // per channel: DRAM data in the controller's pipeline
  std::vector<uint64_t> channel_wake_;            // per channel: the first cycle its tick can do anything
  std::vector<DramRequest> completed_;            // scratch for DramChannel::tick
  MemorySystemStats stats_;
};

}  // namespace lockstep::mem
