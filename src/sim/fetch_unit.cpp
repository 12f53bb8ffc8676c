#include "sim/fetch_unit.h"

#include <algorithm>

namespace lockstep::sim {

FetchUnit::FetchUnit(const FetchUnitOptions& options, const InstructionCacheOptions& icache,
                     InstructionBuffer& ibuffer, Scoreboard& scoreboard)
    : options_(options),
      code_size_(static_cast<uint32_t>(options.next_pc->size())),
      icache_(icache),
      ibuffer_(ibuffer),
      scoreboard_(scoreboard),
      warps_(options.warp_slots) {
  const uint32_t locals = options.warp_slots / options.partitions;
  partitions_.reserve(options.partitions);
  for (uint32_t p = 0; p < options.partitions; ++p) partitions_.emplace_back(locals);
  touched_.reserve(options.partitions);  // at most one warp per partition and tick
}

void FetchUnit::add_warp(uint32_t slot, uint32_t pc, uint64_t ready) {
  warps_[slot] = WarpFetch{true, false, pc, ready, false};
  note_ready(ready);
  wake(slot);
}

void FetchUnit::remove_warp(uint32_t slot) {
  warps_[slot].resident = false;
  partitions_[partition_of(slot)].candidates.reset(local_of(slot));
}

void FetchUnit::stop(uint32_t slot) { warps_[slot].stopped = true; }

void FetchUnit::on_room(uint32_t slot) { wake(slot); }

void FetchUnit::redirect(const FetchRedirect& r) {
  WarpFetch& w = warps_[r.slot];
  w.pc = r.pc;
  if (w.waiting) w.ready = 0;  // the fill goes on in the cache; this warp no longer waits for it
  w.waiting = false;
  wake(r.slot);
}

bool FetchUnit::fill(uint64_t address, uint64_t now) {
  if (address < options_.code_base) return false;  // a launch before this one asked for it
  const uint64_t pc_address = address - options_.code_base;
  icache_.fill(pc_address, now);
  const uint32_t line_bytes = icache_.options().line_bytes;
  for (uint32_t slot = 0; slot < warps_.size(); ++slot) {
    WarpFetch& w = warps_[slot];
    if (w.resident && w.waiting && w.ready == InstructionCache::kPending &&
        uint64_t{w.pc} * kInstructionBytes / line_bytes == pc_address / line_bytes) {
      w.ready = now;
      note_ready(now);
      wake(slot);
    }
  }
  return true;
}

bool FetchUnit::tick(uint64_t now) {
  touched_.clear();
  bool changed = false;
  for (uint32_t p = 0; p < options_.partitions; ++p) changed |= fetch(p, now);
  return changed;
}

bool FetchUnit::fetch(uint32_t p, uint64_t now) {
  Partition& part = partitions_[p];
  if (!part.dirty && now < part.valid_until) return false;
  const uint32_t locals = part.candidates.capacity();
  const uint32_t line_bytes = icache_.options().line_bytes;
  uint64_t valid_until = UINT64_MAX;  // the first cycle a warp skipped here may fetch
  // The candidates in round-robin order from `next`: those at or after it, then the rest.
  for (uint32_t pass = 0; pass < 2; ++pass) {
    const uint32_t from = pass == 0 ? part.next : 0, to = pass == 0 ? locals : part.next;
    for (uint32_t local = part.candidates.next(from); local < to; local = part.candidates.next(local + 1)) {
      const uint32_t slot = local * options_.partitions + p;
      WarpFetch& w = warps_[slot];
      if (w.stopped || !ibuffer_.has_room(slot) || w.pc >= code_size_) {
        part.candidates.reset(local);  // until its I-buffer frees an entry or it is redirected
        continue;
      }
      if (w.ready > now) {
        valid_until = std::min(valid_until, w.ready);
        continue;
      }
      // No room for a miss: fetch next cycle. (The memory system drains the queue between
      // cycles without telling the SM, so this is never held.)
      if (options_.next_level != nullptr && !options_.next_level->can_send()) return false;
      part.next = (local + 1) % locals;
      touched_.push_back(slot);
      const uint64_t address = uint64_t{w.pc} * kInstructionBytes;
      const FetchResult r = icache_.access(address, now);
      if (r.outcome != FetchOutcome::kHit) {
        if (r.outcome == FetchOutcome::kMiss && options_.next_level != nullptr)
          options_.next_level->send_instruction_miss(options_.code_base + address / line_bytes * line_bytes,
                                                     line_bytes, now);
        // A full set whose fills the hierarchy has not answered yet: try again next cycle.
        const bool retry = r.outcome == FetchOutcome::kSetFull && r.ready_cycle == InstructionCache::kPending;
        w.ready = retry ? now + 1 : r.ready_cycle;
        note_ready(w.ready);
        w.waiting = true;
        part.dirty = true;
        return true;
      }
      w.waiting = false;
      part.dirty = true;
      const uint64_t line = address / line_bytes;
      for (uint32_t n = 0; n < options_.fetch_width && ibuffer_.has_room(slot) && w.pc < code_size_; ++n) {
        if (uint64_t{w.pc} * kInstructionBytes / line_bytes != line) break;
        const ScoreboardToken token = scoreboard_.on_decode(slot, (*options_.timing)[w.pc].operands);
        ibuffer_.push(slot, w.pc, token);
        w.pc = (*options_.next_pc)[w.pc];
      }
      return true;
    }
  }
  part.dirty = false;
  part.valid_until = valid_until;
  return false;
}

uint64_t FetchUnit::next_event(uint64_t now) const {
  uint64_t next = UINT64_MAX;
  if (latest_ready_ <= now) return next;  // no warp is held past now: nothing to scan for
  for (const WarpFetch& w : warps_)
    if (w.resident && w.ready > now) next = std::min(next, w.ready);
  return next;
}

}  // namespace lockstep::sim
