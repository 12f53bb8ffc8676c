#pragma once
// The interconnect between the SMs and the memory partitions: a crossbar of `inputs` ports and
// `outputs` ports, one direction (requests and responses are two instances). A packet is a
// MemRequest, the output it goes to and its size on the wire (a read request is a small header;
// a write, or a read's response, carries its data).
//
// Timing, per cycle `now` (tick(now)):
//  - Each input port holds a bounded FIFO (input_queue packets) and offers only its head; it
//    sends at most one packet a cycle. A packet pushed at `now` may go in tick(now) (producers
//    run before the crossbar in a cycle) — its head successor from tick(now + 1).
//  - Each output port accepts at most one packet per cycle, and only when it is not busy and its
//    queue (output_queue packets, counting those still travelling) has room. Among the inputs
//    whose head targets it, it takes the first in round-robin order, starting after the input it
//    last accepted from. It is then busy for ceil(bytes / flit_bytes) cycles (at least 1).
//  - A packet accepted at t is in its output queue, ready to pop, at t + latency.
//  - A head whose output is busy or full waits where it is, blocking its input (back-pressure;
//    head-of-line blocking is what a real input-queued crossbar does).
// Nothing allocates after construction: every queue is a fixed ring.
#include <atomic>
#include <cstdint>
#include <vector>

#include "mem/mem_request.h"
#include "mem/ring.h"

namespace lockstep::mem {

struct CrossbarOptions {
  uint32_t inputs = 1;        // input ports, >= 1
  uint32_t outputs = 1;       // output ports, >= 1
  uint32_t latency = 1;       // cycles from acceptance to arrival in the output queue, >= 1
  uint32_t input_queue = 4;   // packets each input port holds, >= 1
  uint32_t output_queue = 4;  // packets each output port holds (in flight or arrived), >= 1
  uint32_t flit_bytes = 32;   // bytes an output port accepts per cycle, >= 1
};

struct CrossbarStats {
  uint64_t packets = 0;           // packets accepted by an output port
  uint64_t bytes = 0;             // their bytes
  uint64_t wait_cycles = 0;       // cycles heads waited on a busy or full output (or lost arbitration)
  uint64_t traversal_cycles = 0;  // sum of (arrival - push); average = traversal_cycles / packets
};

class Crossbar {
 public:
  // Throws std::invalid_argument naming the first option below 1.
  explicit Crossbar(const CrossbarOptions& options);

  // Whether input port `input` has room for one more packet.
  bool can_push(uint32_t input) const { return !inputs_[input].queue.full(); }
  // Queues a packet of `bytes` for output port `output` at input port `input` in cycle `now`.
  // The caller checked can_push(input); a full queue or a bad port index throws
  // std::logic_error (a wiring bug, never a dropped packet). `now` never decreases.
  void push(uint32_t input, uint32_t output, uint32_t bytes, const MemRequest& request, uint64_t now);

  // Moves packets from inputs to outputs in cycle `now`; true if any packet moved.
  bool tick(uint64_t now);

  // The consumer's side of output port `output`: can_pop says whether a packet has arrived by
  // `now`; front and pop only when it has.
  bool can_pop(uint32_t output, uint64_t now) const;
  const MemRequest& front(uint32_t output) const { return outputs_[output].queue.front().request; }
  uint32_t front_bytes(uint32_t output) const { return outputs_[output].queue.front().bytes; }
  void pop(uint32_t output) { outputs_[output].queue.pop(); }

  // The first cycle after `now` at which tick could move a packet or a packet arrives at the
  // front of an output queue; UINT64_MAX when neither can happen without a consumer popping
  // (nothing queued, or every head waits on a full output whose front has arrived). Called after
  // tick(now).
  uint64_t next_event(uint64_t now) const;

  const CrossbarStats& stats() const { return stats_; }
  const CrossbarOptions& options() const { return options_; }

 private:
  struct Packet {
    MemRequest request;
    uint32_t output = 0;
    uint32_t bytes = 0;
    uint64_t pushed = 0;   // cycle it entered its input queue
    uint64_t arrives = 0;  // cycle it reaches its output queue (set when accepted)
  };
  struct Input {
    RingBuffer<Packet> queue;
    uint64_t ready_at = 0;  // the first cycle the current head may go
  };
  struct Output {
    RingBuffer<Packet> queue;  // in flight (arrives > now) then arrived, in acceptance order
    uint64_t free_at = 0;      // the first cycle it accepts again
    uint32_t next_input = 0;   // where its round-robin scan starts
  };

  static constexpr uint32_t kNoInput = UINT32_MAX;

  CrossbarOptions options_;
  std::vector<Input> inputs_;
  std::vector<Output> outputs_;
  // Packets waiting in input queues. Atomic: the memory system's partitions push into their
  // own input ports of one crossbar from several threads (memory_system.h).
  std::atomic<uint32_t> queued_{0};
  std::vector<uint32_t> best_;      // tick's scratch, per output: its chosen input, or kNoInput
  std::vector<uint32_t> touched_;   // tick's scratch: the outputs with a chosen input
  CrossbarStats stats_;
};

}  // namespace lockstep::mem
