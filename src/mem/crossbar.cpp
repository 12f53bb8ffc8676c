#include "mem/crossbar.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace lockstep::mem {

Crossbar::Crossbar(const CrossbarOptions& options) : options_(options) {
  const auto require = [](uint32_t value, const char* field) {
    if (value == 0) throw std::invalid_argument(fmt::format("crossbar option {} must be at least 1", field));
  };
  require(options.inputs, "inputs");
  require(options.outputs, "outputs");
  require(options.latency, "latency");
  require(options.input_queue, "input_queue");
  require(options.output_queue, "output_queue");
  require(options.flit_bytes, "flit_bytes");
  inputs_.reserve(options.inputs);
  for (uint32_t i = 0; i < options.inputs; ++i) inputs_.push_back({RingBuffer<Packet>(options.input_queue)});
  outputs_.reserve(options.outputs);
  for (uint32_t o = 0; o < options.outputs; ++o) outputs_.push_back({RingBuffer<Packet>(options.output_queue)});
  best_.assign(options.outputs, kNoInput);
  touched_.reserve(options.outputs);
}

void Crossbar::push(uint32_t input, uint32_t output, uint32_t bytes, const MemRequest& request, uint64_t now) {
  if (input >= options_.inputs || output >= options_.outputs)
    throw std::logic_error(fmt::format("crossbar push from input {} to output {}: the crossbar has {} and {}", input,
                                       output, options_.inputs, options_.outputs));
  Input& in = inputs_[input];
  if (in.queue.full()) throw std::logic_error(fmt::format("crossbar push into full input {}", input));
  if (in.queue.empty()) in.ready_at = now;
  in.queue.push({request, output, bytes, now, 0});
  queued_.fetch_add(1, std::memory_order_relaxed);
}

bool Crossbar::tick(uint64_t now) {
  if (queued_.load(std::memory_order_relaxed) == 0) return false;
  const uint32_t inputs = options_.inputs;
  // An input's head names one output, so the outputs' choices are independent: one pass over
  // the inputs finds, for every output that can accept, the first eligible input in its
  // round-robin order (the smallest distance from its next_input).
  touched_.clear();
  for (uint32_t i = 0; i < inputs; ++i) {
    const Input& in = inputs_[i];
    if (in.queue.empty() || in.ready_at > now) continue;
    const uint32_t o = in.queue.front().output;
    const Output& out = outputs_[o];
    if (out.free_at > now || out.queue.full()) continue;
    const uint32_t distance = i >= out.next_input ? i - out.next_input : i + inputs - out.next_input;
    if (best_[o] == kNoInput) {
      touched_.push_back(o);
      best_[o] = i;
    } else {
      const uint32_t b = best_[o];
      const uint32_t best_distance = b >= out.next_input ? b - out.next_input : b + inputs - out.next_input;
      if (distance < best_distance) best_[o] = i;
    }
  }
  std::sort(touched_.begin(), touched_.end());  // outputs in index order, as statistics accumulate
  for (uint32_t o : touched_) {
    const uint32_t i = best_[o];
    best_[o] = kNoInput;
    Output& out = outputs_[o];
    Input& in = inputs_[i];
    Packet packet = in.queue.front();
    in.queue.pop();
    queued_.fetch_sub(1, std::memory_order_relaxed);
    stats_.wait_cycles += now - in.ready_at;
    in.ready_at = now + 1;  // one packet per input per cycle: its next head goes next cycle at the earliest
    packet.arrives = now + options_.latency;
    ++stats_.packets;
    stats_.bytes += packet.bytes;
    stats_.traversal_cycles += packet.arrives - packet.pushed;
    const uint32_t flits = std::max<uint32_t>(1, (packet.bytes + options_.flit_bytes - 1) / options_.flit_bytes);
    out.free_at = now + flits;
    out.next_input = i + 1 < inputs ? i + 1 : 0;
    out.queue.push(packet);
  }
  return !touched_.empty();
}

bool Crossbar::can_pop(uint32_t output, uint64_t now) const {
  const Output& out = outputs_[output];
  return !out.queue.empty() && out.queue.front().arrives <= now;
}

uint64_t Crossbar::next_event(uint64_t now) const {
  uint64_t next = UINT64_MAX;
  // Only the front matters to the consumer: a later packet's arrival is invisible until it pops.
  for (const Output& out : outputs_)
    if (!out.queue.empty() && out.queue.front().arrives > now) next = std::min(next, out.queue.front().arrives);
  // A head goes as soon as it may and its output is free, unless that output is full: then it
  // waits for the consumer's pop, which the consumer reports as its own progress.
  for (const Input& in : inputs_) {
    if (in.queue.empty()) continue;
    const Output& out = outputs_[in.queue.front().output];
    if (out.queue.full()) continue;
    next = std::min(next, std::max({now + 1, in.ready_at, out.free_at}));
  }
  return next;
}

}  // namespace lockstep::mem
