// The per-warp I-buffer of seed 001 fig 3-23: a fixed ring of entries per warp, in program order.
#include "sim/instruction_buffer.h"

#include <string>

namespace lockstep::sim {

InstructionBuffer::InstructionBuffer(const InstructionBufferOptions& options)
    : options_(options),
      slots_(size_t{options.warps} * options.entries_per_warp),
      head_(options.warps, 0),
      count_(options.warps, 0) {
  if (options.warps == 0) throw std::invalid_argument("instruction buffer: warps must be at least 1");
  if (options.entries_per_warp == 0)
    throw std::invalid_argument("instruction buffer: entries_per_warp must be at least 1");
}

void InstructionBuffer::check_warp(uint32_t warp) const {
  if (warp >= options_.warps)
    throw std::out_of_range("instruction buffer: warp " + std::to_string(warp) + " of " +
                            std::to_string(options_.warps));
}

uint32_t InstructionBuffer::size(uint32_t warp) const {
  check_warp(warp);
  return count_[warp];
}

size_t InstructionBuffer::index(uint32_t warp, uint32_t position) const {
  check_warp(warp);
  if (position >= options_.entries_per_warp)
    throw std::out_of_range("instruction buffer: position " + std::to_string(position) + " of " +
                            std::to_string(options_.entries_per_warp));
  return ring_index(warp, position);
}

const IBufferEntry& InstructionBuffer::entry(uint32_t warp, uint32_t position) const {
  return slots_[index(warp, position)];
}

IBufferEntry& InstructionBuffer::slot(uint32_t warp, uint32_t position) { return slots_[index(warp, position)]; }

void InstructionBuffer::push(uint32_t warp, uint32_t pc, ScoreboardToken token) {
  check_warp(warp);
  if (count_[warp] == options_.entries_per_warp)
    throw std::logic_error("instruction buffer: push to the full entries of warp " + std::to_string(warp));
  slots_[ring_index(warp, count_[warp])] = IBufferEntry{true, false, pc, token};
  ++count_[warp];
}

void InstructionBuffer::set_ready(uint32_t warp, uint32_t position, bool ready) {
  IBufferEntry& e = slot(warp, position);
  if (!e.valid) throw std::logic_error("instruction buffer: set_ready on an invalid entry");
  e.ready = ready;
}

IBufferEntry InstructionBuffer::pop(uint32_t warp) {
  check_warp(warp);
  IBufferEntry& e = slots_[ring_index(warp, 0)];
  if (!e.valid || !e.ready)
    throw std::logic_error("instruction buffer: issue of warp " + std::to_string(warp) + " whose head is not " +
                           (e.valid ? "ready" : "valid"));
  const IBufferEntry issued = e;
  e = IBufferEntry{};
  head_[warp] = head_[warp] + 1 == options_.entries_per_warp ? 0 : head_[warp] + 1;
  --count_[warp];
  return issued;
}

void InstructionBuffer::clear(uint32_t warp) {
  for (uint32_t p = 0; p < options_.entries_per_warp; ++p) slot(warp, p) = IBufferEntry{};
  head_[warp] = 0;
  count_[warp] = 0;
}

}  // namespace lockstep::sim
