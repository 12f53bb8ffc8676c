#include "sim/launch_driver.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "fmt/format.h"
#include "sim/timing_launch.h"

namespace lockstep::sim {

LaunchDriver::LaunchDriver(std::vector<std::unique_ptr<Sm>>& sms, std::vector<std::unique_ptr<GridRun>>& grids,
                           const TimingLaunch& launch)
    : sms_(sms),
      grids_(grids),
      stepper_(sms, launch.threads, launch.memory != nullptr ? launch.memory->partition_count() : 0),
      launch_(launch),
      children_(launch.children),
      waiting_(sms.size()),
      free_(sms.size(), 0),
      wake_(sms.size(), 0),
      tenant_(sms.size(), kNoGrid),
      unheld_from_(sms.size(), 0),
      idle_(sms.size(), 1),
      has_outbound_(sms.size(), 0),
      touched_(sms.size(), 0),
      delivered_(sms.size(), 0),
      memory_(launch.memory),
      memory_clock_(launch.memory_clock),
      watchdog_(launch.launch != nullptr && launch.launch->memory != nullptr ? &launch.launch->memory->memory()
                                                                             : nullptr,
                launch.watchdog) {
  stepping_.reserve(sms.size());
  committing_.reserve(sms.size());
  delivered_to_.reserve(sms.size());
  for (size_t i = 0; i < sms.size(); ++i) free_[i] = unheld_from_[i] = available(i);
  if (stepper_.threads() > 1)
    parallel_ = [this](uint32_t count, const std::function<void(uint32_t)>& task) { stepper_.run(count, task); };
}

uint64_t LaunchDriver::available(size_t sm) const {
  return launch_.sm_available.empty() ? 0 : launch_.sm_available[sm];
}

void LaunchDriver::start() {
  GridRun& root = *grids_[0];
  const uint64_t resident_at_once = uint64_t{root.occupancy.blocks} * sms_.size();
  if (launch_.all_resident && root.total_blocks > resident_at_once)
    throw std::invalid_argument(fmt::format("cooperative launch of {} blocks exceeds the {} the {} preset holds at "
                                            "once",
                                            root.total_blocks, resident_at_once, launch_.gpu->preset));
  root.state = GridRun::State::kRunning;
  root.placed_any = true;  // its cycles count from 0, even where its first blocks wait for an SM
  for (const CtaPlacement& p : root.blocks->start_launch(root.total_blocks, root.occupancy.blocks)) place(0, p, 0);
}

void LaunchDriver::place(uint32_t grid, const CtaPlacement& p, uint64_t cycle) {
  tenant_[p.sm] = grid;
  if (available(p.sm) > cycle) {
    waiting_[p.sm].push_back(p.block);  // only grid 0's: a child never takes an SM that is not free
  } else {
    start_block(grid, p.sm, p.block, cycle);
  }
}

void LaunchDriver::start_block(uint32_t grid, uint32_t sm, uint64_t block, uint64_t cycle) {
  if (sms_[sm] == nullptr) {
    // The stretch no grid held the SM is the host-launched grid's to charge (no warp).
    Sm::add_unbuilt_stats(grids_[0]->figures, *launch_.gpu, unheld_from_[sm], cycle);
    sms_[sm] = std::make_unique<Sm>(sm, grids_[grid]->context, cycle);
  }
  assert(tenant_[sm] == grid);
  GridRun& g = *grids_[grid];
  if (!g.placed_any) g.start = cycle;  // a child's cycles count from its first block's placement
  g.placed_any = true;
  sms_[sm]->place_block(block, cycle);
  wake_[sm] = std::min(wake_[sm], cycle);
  touched_[sm] = 1;
  idle_[sm] = sms_[sm]->idle();
}

uint64_t LaunchDriver::run() {
  uint64_t& now = now_;
  while (true) {
    for (uint32_t i = 0; i < sms_.size(); ++i) {
      if (waiting_[i].empty() || available(i) > now) continue;
      for (uint64_t block : waiting_[i]) start_block(0, i, block, now);
      waiting_[i].clear();
    }
    stepping_.clear();
    for (uint32_t i = 0; i < sms_.size(); ++i) {
      assert(idle_[i] == (sms_[i] == nullptr || sms_[i]->idle()));
      if (idle_[i] || wake_[i] > now) continue;
      stepping_.push_back(i);
    }
    const bool changed = stepper_.step(now, stepping_);
    // The cycle's fixed point: what changes launch-wide state lands, SM by SM; then each SM's
    // stores and atomics enter its own LD/ST unit, SMs side by side.
    committing_.clear();
    for (uint32_t s : stepping_) {
      if (!stepper_.view(s).commits) continue;
      touched_[s] = 1;
      if (sms_[s]->commit()) committing_.push_back(s);
    }
    stepper_.commit_accesses(committing_);
    // Grids launched in the commits join before any block's end is counted, so a parent that
    // launched in its last cycle is not complete without them.
    if (children_ != nullptr && children_->has_launches()) take_child_launches(now);
    const bool memory_moved = exchange_memory(now);
    for (uint32_t s : stepping_) {  // the others' finished_blocks() are from an earlier cycle
      const SmStepper::StepView& view = stepper_.view(s);
      if (view.finished || touched_[s]) {
        Sm& sm = *sms_[s];
        GridRun& grid = *grids_[tenant_[s]];
        for (size_t i = 0; i < sm.finished_blocks().size(); ++i) {
          ++done_;
          ++grid.blocks_done;
          if (tenant_[s] == 0 && launch_.on_block_done) launch_.on_block_done(grid.blocks_done);
          if (auto next = grid.blocks->on_block_done(sm.id(), now)) place(tenant_[s], *next, now + 1);
          if (grid.blocks->done()) finished_grids_.push_back(tenant_[s]);
        }
      }
      // What the step saw holds unless the serial phase has changed the SM since: a commit or
      // a block placed on it (here, or by an SM before it in this loop) is read from the SM
      // again. Responses change it in a known way: its LD/ST unit is busy, and has work for
      // the next cycle (LdstUnit::next_event).
      const bool fresh = touched_[s] == 0;
      touched_[s] = 0;
      idle_[s] = fresh ? view.idle && !delivered_[s] : sms_[s]->idle();
      assert(idle_[s] == sms_[s]->idle());
      if (idle_[s]) free_[s] = now + 1;
      // An SM whose cycle changed nothing repeats it until its next change: it sleeps till
      // then, unless a response or a block wakes it first. The cycles it sleeps through are
      // charged the reasons its last scans found, when it scans again (Sm::charge_scan).
      if (!view.changed && !idle_[s]) {
        const uint64_t next = !fresh           ? sms_[s]->next_change(now)
                              : delivered_[s] ? std::min(view.next_change, now + 1)
                                              : view.next_change;
        assert(next == sms_[s]->next_change(now));
        wake_[s] = std::max(wake_[s], next);
      }
      if (idle_[s] && releasable(s)) release(s, now);
    }
    for (uint32_t s : delivered_to_) delivered_[s] = 0;
    delivered_to_.clear();
    if (!finished_grids_.empty()) {
      for (uint32_t g : finished_grids_) blocks_done(g, now);
      finished_grids_.clear();
      start_ready_grids(now);
    }
    if (grids_[0]->state == GridRun::State::kComplete) return now;
    watchdog_.check(now, done_, sms_);
    if (changed || memory_moved) {
      ++now;
      continue;
    }
    uint64_t next = UINT64_MAX;
    if (memory_ != nullptr) {
      const uint64_t m = memory_->next_event(memory_clock_ + now);
      if (m != UINT64_MAX) next = m - memory_clock_;
    }
    for (size_t i = 0; i < sms_.size(); ++i) {
      if (!idle_[i]) next = std::min(next, std::max(now + 1, wake_[i]));
      if (!waiting_[i].empty()) next = std::min(next, available(i));
    }
    if (next == UINT64_MAX) {
      uint64_t total = 0;
      for (const auto& g : grids_) total += g->total_blocks;
      throw std::logic_error(
          fmt::format("the timing model stalled at cycle {} with {} of {} blocks done", now, done_, total));
    }
    now = next;
  }
}

void LaunchDriver::take_child_launches(uint64_t now) {
  const auto first = static_cast<uint32_t>(grids_.size());
  for (const ChildGridLaunch& c : children_->take_launches(first)) {
    std::unique_ptr<GridRun> g = prepare_grid(*c.grid, launch_);
    g->parent = c.parent;
    g->after = c.after;
    g->tail = c.tail;
    GridRun& parent = *grids_[c.parent];
    ++parent.open_children;
    if (c.tail) {
      parent.tails.push_back(static_cast<uint32_t>(grids_.size()));
    } else {
      ++parent.open_ordinary;
    }
    waiting_grids_.push_back(static_cast<uint32_t>(grids_.size()));
    grids_.push_back(std::move(g));
  }
  start_ready_grids(now);
}

bool LaunchDriver::ready(uint32_t grid) const {
  const GridRun& g = *grids_[grid];
  if (g.after != kNoGrid && grids_[g.after]->state != GridRun::State::kComplete) return false;
  if (!g.tail) return true;
  // A tail launch runs once its parent's blocks are done and every other grid the parent
  // launched is complete, tail launches one after another in launch order. (By the time the
  // parent's blocks are done, it has launched all it will.)
  const GridRun& parent = *grids_[g.parent];
  if (parent.state == GridRun::State::kWaiting || parent.state == GridRun::State::kRunning) return false;
  return parent.open_ordinary == 0 && parent.tails.front() == grid;
}

void LaunchDriver::start_ready_grids(uint64_t now) {
  // Starting a grid can complete nothing (it has blocks), so one pass in launch order finds
  // every grid ready now.
  size_t kept = 0;
  for (uint32_t g : waiting_grids_) {
    if (ready(g)) {
      start_grid(g, now);
    } else {
      waiting_grids_[kept++] = g;
    }
  }
  waiting_grids_.resize(kept);
}

void LaunchDriver::start_grid(uint32_t grid, uint64_t now) {
  // SMs whose grid has left them are free for it, unless an earlier grid still places blocks.
  for (uint32_t s = 0; s < sms_.size(); ++s)
    if (tenant_[s] != kNoGrid && idle_[s] && releasable(s)) release(s, now);
  GridRun& g = *grids_[grid];
  g.state = GridRun::State::kRunning;
  // Its launch stops counting as pending now, though its blocks may wait for an SM: a GPU whose
  // SMs hold blocks of several grids would have begun it, and the model's simplification must
  // not make a program's launches fail.
  children_->started(grid);
  std::vector<uint8_t> usable(sms_.size(), 0);
  for (uint32_t s = 0; s < sms_.size(); ++s)
    usable[s] = tenant_[s] == kNoGrid && available(s) <= now + 1 && waiting_[s].empty();
  for (const CtaPlacement& p : g.blocks->start_launch(g.total_blocks, g.occupancy.blocks, usable))
    place(grid, p, now + 1);
}

void LaunchDriver::blocks_done(uint32_t grid, uint64_t now) {
  GridRun& g = *grids_[grid];
  g.state = GridRun::State::kBlocksDone;
  // Its tail launches now wait only for the other grids it launched, which the model may run
  // later than a GPU would (an SM holds one grid at a time): they stop counting as pending, so
  // that the pending-launch limit refuses what a GPU would refuse, not more.
  for (uint32_t tail : g.tails) children_->started(tail);
  complete_if_done(grid, now);
}

void LaunchDriver::complete_if_done(uint32_t grid, uint64_t now) {
  GridRun& g = *grids_[grid];
  if (g.state != GridRun::State::kBlocksDone || g.open_children != 0) return;
  g.state = GridRun::State::kComplete;
  g.end = now;
  if (grid != 0 && children_ != nullptr) children_->completed(grid);
  if (g.parent == kNoGrid) return;
  GridRun& parent = *grids_[g.parent];
  --parent.open_children;
  if (g.tail) {
    parent.tails.pop_front();  // tail launches complete in launch order: it is the first
  } else {
    --parent.open_ordinary;
  }
  complete_if_done(g.parent, now);
}

bool LaunchDriver::releasable(uint32_t sm) const {
  const uint32_t t = tenant_[sm];
  if (t == kNoGrid || grids_.size() == 1 || !waiting_[sm].empty()) return false;
  const GridRun& g = *grids_[t];
  return g.blocks->resident(sm) == 0 && (g.blocks->all_placed() || g.state != GridRun::State::kRunning);
}

void LaunchDriver::release(uint32_t sm, uint64_t now) {
  GridRun& tenant = *grids_[tenant_[sm]];
  if (sms_[sm] != nullptr) {
    sms_[sm]->charge_until(now + 1);
    sms_[sm]->add_stats(tenant.figures);
    sms_[sm].reset();
  }
  tenant_[sm] = kNoGrid;
  unheld_from_[sm] = now + 1;
  idle_[sm] = 1;
  has_outbound_[sm] = 0;
  // The earliest grid still placing blocks takes it.
  for (uint32_t g = 0; g < grids_.size(); ++g) {
    GridRun& other = *grids_[g];
    if (other.state != GridRun::State::kRunning || other.blocks->all_placed()) continue;
    const std::vector<CtaPlacement> placed = other.blocks->add_sm(sm);
    if (placed.empty()) continue;
    for (const CtaPlacement& p : placed) place(g, p, now + 1);
    return;
  }
}

bool LaunchDriver::exchange_memory(uint64_t now) {
  if (memory_ == nullptr) return false;
  const uint64_t clock = memory_clock_ + now;
  bool moved = false;
  for (uint32_t s : stepping_)
    if (stepper_.view(s).outbound) has_outbound_[s] = 1;
  for (uint32_t s = 0; s < sms_.size(); ++s) {
    if (!has_outbound_[s]) continue;  // also misses left by a full crossbar port before
    mem::RingBuffer<mem::MemRequest>& out = sms_[s]->ldst()->outbound();
    while (!out.empty() && memory_->can_send(s)) {
      memory_->send(s, out.front(), clock);
      out.pop();
      moved = true;
    }
    has_outbound_[s] = out.empty() ? 0 : 1;
  }
  moved |= memory_->tick(clock, parallel_ ? &parallel_ : nullptr);
  for (uint32_t s = 0; s < sms_.size(); ++s) {
    if (!memory_->has_response(s, clock)) continue;
    LdstUnit* unit = sms_[s]->ldst();
    bool delivered = false;
    while (memory_->has_response(s, clock) && unit->can_deliver()) {
      unit->deliver(memory_->response(s));
      memory_->pop_response(s);
      wake_[s] = std::min(wake_[s], now + 1);
      delivered = true;
    }
    if (delivered) {
      // Its LD/ST unit now holds responses: busy, so not idle (the rest: run()'s last loop).
      idle_[s] = 0;
      delivered_[s] = 1;
      delivered_to_.push_back(s);
      moved = true;
    }
  }
  return moved;
}

}  // namespace lockstep::sim
