#include "sim/async_copies.h"

#include <algorithm>
#include <bit>

#include "func/device_memory.h"
#include "func/step.h"

namespace lockstep::sim {

namespace {

// The shared-memory offset an mbarrier address names, whether the instruction spelled it in the
// shared space or as a generic address in the shared window: its low 32 bits either way, as
// shared addresses wrap (func/ops/memory_space.h, wrap32) and the window starts on a 4 GiB line.
static_assert((func::kSharedWindow & 0xffff'ffffull) == 0, "the shared window starts on a 4 GiB boundary");
uint64_t shared_offset(uint64_t address) { return address & 0xffff'ffffull; }

// The mbarrier address of `in` for `lane`, by the layouts of the binders in
// func/ops/memory_async.cpp and memory_mbarrier.cpp.
uint64_t barrier_offset(ir::AsyncOp role, const func::ExecInst& in, const func::Warp& w, uint32_t lane) {
  const auto reg = [&](uint32_t slot) { return w.regs[static_cast<size_t>(slot) * w.width + lane]; };
  if (role == ir::AsyncOp::BulkCopyBarrier) return shared_offset(reg(in.s[3]) + in.aux2);
  return shared_offset(reg(in.s[0]) + static_cast<uint64_t>(in.offset));
}

}  // namespace

void AsyncCopies::Groups::commit() {
  committed.push_back({open_id++, open});
  open = 0;
  // A commit with nothing outstanding (the common wait_all, or a loop's last empty group)
  // leaves nothing to wait for: keep the list short.
  if (std::all_of(committed.begin(), committed.end(), [](const Group& g) { return g.outstanding == 0; }))
    committed.clear();
}

bool AsyncCopies::Groups::done_but(uint32_t newest) const {
  if (committed.size() <= newest) return true;
  return std::all_of(committed.begin(), committed.end() - newest, [](const Group& g) { return g.outstanding == 0; });
}

void AsyncCopies::Groups::complete(uint64_t id) {
  if (id == open_id) {
    --open;
    return;
  }
  for (Group& g : committed)
    if (g.id == id) --g.outstanding;
  // The complete groups at the front can no longer hold any wait: every wait counts from the newest.
  size_t done = 0;
  while (done < committed.size() && committed[done].outstanding == 0) ++done;
  committed.erase(committed.begin(), committed.begin() + static_cast<std::ptrdiff_t>(done));
}

AsyncCopies::AsyncCopies(uint32_t warp_slots) : warps_(warp_slots) {
  for (WarpCopies& w : warps_) {
    w.copies.committed.reserve(8);
    w.bulk.committed.reserve(8);
  }
  copies_.reserve(64);
  free_copies_.reserve(64);
  barriers_.reserve(16);
}

bool AsyncCopies::holds(uint32_t slot, uint32_t cta_slot, const InstTiming& t, const func::ExecInst& in,
                        const func::Warp& w) const {
  const WarpCopies& mine = warps_[slot];
  switch (t.async) {
    case ir::AsyncOp::WaitGroup: return !mine.copies.done_but(t.async_groups);
    case ir::AsyncOp::WaitAll: return mine.copies.open != 0 || !mine.copies.done_but(0);
    case ir::AsyncOp::BulkWaitGroup: return !mine.bulk.done_but(t.async_groups);
    case ir::AsyncOp::BarrierWait: {
      if (barriers_.empty()) return false;
      func::LaneMask lanes = func::guarded_lanes(in, w);
      while (lanes != 0) {
        const uint32_t lane = static_cast<uint32_t>(std::countr_zero(lanes));
        lanes &= lanes - 1;
        if (find_barrier(cta_slot, barrier_offset(t.async, in, w, lane)) != kNoCopy) return true;
      }
      return false;
    }
    default: return false;
  }
}

uint32_t AsyncCopies::issue(uint32_t slot, uint32_t cta_slot, const InstTiming& t, const func::ExecInst& in,
                            const func::Warp& w, func::LaneMask lanes) {
  WarpCopies& mine = warps_[slot];
  switch (t.async) {
    case ir::AsyncOp::Copy:
      return lanes == 0 ? kNoCopy : new_copy(slot, false, true);
    case ir::AsyncOp::BulkCopyGroup:
      return lanes == 0 ? kNoCopy : new_copy(slot, true, true);
    case ir::AsyncOp::CommitGroup:
    case ir::AsyncOp::WaitAll:  // commit_group then wait_group 0 (it issued once all were done)
      mine.copies.commit();
      return kNoCopy;
    case ir::AsyncOp::BulkCommitGroup:
      mine.bulk.commit();
      return kNoCopy;
    case ir::AsyncOp::BulkCopyBarrier: {
      if (lanes == 0) return kNoCopy;
      // One copy engine transfer per instruction (normally one elected lane issues it): it
      // pends on the first lane's mbarrier.
      const uint32_t copy = new_copy(slot, true, false);
      pend_on(copy, cta_slot, barrier_offset(t.async, in, w, static_cast<uint32_t>(std::countr_zero(lanes))));
      return copy;
    }
    case ir::AsyncOp::CopyArrive: {
      if (lanes == 0) return kNoCopy;
      // The arrive-on happens when the warp's earlier copies complete: each of them not yet
      // tied to an mbarrier now pends on this one (a copy pends on one mbarrier at most).
      const uint64_t offset = barrier_offset(t.async, in, w, static_cast<uint32_t>(std::countr_zero(lanes)));
      for (uint32_t id = 0; id < copies_.size(); ++id) {
        const Copy& c = copies_[id];
        if (c.in_use && c.slot == slot && !c.bulk && c.barrier == kNoCopy) pend_on(id, cta_slot, offset);
      }
      return kNoCopy;
    }
    default: return kNoCopy;
  }
}

void AsyncCopies::completed(uint32_t copy) {
  Copy& c = copies_[copy];
  if (c.grouped) (c.bulk ? warps_[c.slot].bulk : warps_[c.slot].copies).complete(c.group);
  if (c.barrier != kNoCopy) --barriers_[c.barrier].pending;
  c.in_use = false;
  free_copies_.push_back(copy);
}

void AsyncCopies::clear_warp(uint32_t slot) {
  for (Groups* g : {&warps_[slot].copies, &warps_[slot].bulk}) {
    g->open_id = 0;
    g->open = 0;
    g->committed.clear();  // keeps its room: nothing on the per-cycle path allocates
  }
}

uint32_t AsyncCopies::new_copy(uint32_t slot, bool bulk, bool grouped) {
  uint32_t id;
  if (!free_copies_.empty()) {
    id = free_copies_.back();
    free_copies_.pop_back();
  } else {
    id = static_cast<uint32_t>(copies_.size());
    copies_.emplace_back();
  }
  Groups& groups = bulk ? warps_[slot].bulk : warps_[slot].copies;
  copies_[id] = Copy{true, slot, bulk, grouped, groups.open_id, kNoCopy};
  if (grouped) ++groups.open;
  return id;
}

void AsyncCopies::pend_on(uint32_t copy, uint32_t cta_slot, uint64_t offset) {
  uint32_t b = find_barrier(cta_slot, offset);
  if (b == kNoCopy) {
    const auto unused = std::find_if(barriers_.begin(), barriers_.end(), [](const Barrier& e) { return e.pending == 0; });
    b = static_cast<uint32_t>(unused - barriers_.begin());
    if (unused == barriers_.end()) barriers_.emplace_back();
    barriers_[b] = {cta_slot, offset, 0};
  }
  ++barriers_[b].pending;
  copies_[copy].barrier = b;
}

uint32_t AsyncCopies::find_barrier(uint32_t cta_slot, uint64_t offset) const {
  for (uint32_t b = 0; b < barriers_.size(); ++b) {
    const Barrier& e = barriers_[b];
    if (e.pending != 0 && e.cta_slot == cta_slot && e.offset == offset) return b;
  }
  return kNoCopy;
}

}  // namespace lockstep::sim
