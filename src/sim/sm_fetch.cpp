// The SM's front end (sm.h, step 3 of a cycle): fetch and decode through the I-cache into the
// I-buffer, and the I-cache fills the memory hierarchy brings back.
#include <algorithm>

#include "sim/sm.h"

namespace lockstep::sim {

void Sm::take_instruction_fills(uint64_t now) {
  const uint32_t line_bytes = ctx_.gpu->icache.line_bytes;
  for (uint64_t address : ldst_->instruction_fills()) {
    if (address < code_base_) continue;  // a launch before this one asked for it
    const uint64_t pc_address = address - code_base_;
    icache_.fill(pc_address, now);
    mark_dirty();
    for (WarpSlot& ws : warps_)
      if (ws.resident && ws.fetch_waiting && ws.fetch_ready == InstructionCache::kPending &&
          uint64_t{ws.fetch_pc} * kInstructionBytes / line_bytes == pc_address / line_bytes)
        ws.fetch_ready = now;
  }
}

bool Sm::fetch(uint32_t p, uint64_t now) {
  Partition& part = partitions_[p];
  const uint32_t locals = part.ready.capacity();
  const uint32_t code_size = static_cast<uint32_t>(ctx_.kernel->code.size());
  const uint32_t line_bytes = ctx_.gpu->icache.line_bytes;
  if (!part.fetch_dirty && now < part.fetch_valid_until) return false;
  uint64_t valid_until = UINT64_MAX;  // the first cycle a warp skipped here may fetch
  // The resident warps in round-robin order from fetch_next: those at or after it, then the rest.
  for (uint32_t pass = 0; pass < 2; ++pass) {
    const uint32_t from = pass == 0 ? part.fetch_next : 0,
                   to = pass == 0 ? locals : part.fetch_next;
    for (uint32_t local = part.resident.next(from); local < to;
         local = part.resident.next(local + 1)) {
      if (part.held[local] == StallReason::kExited) continue;
      const uint32_t slot = slot_of(p, local);
      WarpSlot& ws = warps_[slot];
      if (!ibuffer_.has_room(slot) || ws.fetch_pc >= code_size) continue;
      if (ws.fetch_ready > now) {
        valid_until = std::min(valid_until, ws.fetch_ready);
        continue;
      }
      // No room for a miss: fetch next cycle. (The memory system drains the queue between
      // cycles without telling the SM, so this is never held.)
      if (ldst_ != nullptr && !ldst_->can_send()) return false;
      part.fetch_next = (local + 1) % locals;
      const uint64_t address = uint64_t{ws.fetch_pc} * kInstructionBytes;
      const FetchResult r = icache_.access(address, now);
      if (r.outcome != FetchOutcome::kHit) {
        if (r.outcome == FetchOutcome::kMiss && ldst_ != nullptr)
          ldst_->send_instruction_miss(code_base_ + address / line_bytes * line_bytes, line_bytes,
                                       now);
        // A full set whose fills the hierarchy has not answered yet: try again next cycle.
        const bool retry =
            r.outcome == FetchOutcome::kSetFull && r.ready_cycle == InstructionCache::kPending;
        ws.fetch_ready = retry ? now + 1 : r.ready_cycle;
        ws.fetch_waiting = true;
        part.dirty = part.fetch_dirty = true;
        return true;
      }
      ws.fetch_waiting = false;
      part.dirty = part.fetch_dirty = true;
      if (ws.formed) mark_dirty();  // the formed warp it joins may issue through another partition
      const uint64_t line = address / line_bytes;
      for (uint32_t n = 0;
           n < ctx_.gpu->timing.fetch_width && !ibuffer_.full(slot) && ws.fetch_pc < code_size;
           ++n) {
        if (uint64_t{ws.fetch_pc} * kInstructionBytes / line_bytes != line) break;
        const ScoreboardToken token =
            scoreboard_->on_decode(slot, (*ctx_.timing)[ws.fetch_pc].operands);
        ibuffer_.push(slot, ws.fetch_pc, token);
        ws.fetch_pc = next_unfolded(ws.fetch_pc + 1);  // folded moves are no instructions to fetch
      }
      return true;
    }
  }
  part.fetch_dirty = false;
  part.fetch_valid_until = valid_until;
  return false;
}

}  // namespace lockstep::sim
