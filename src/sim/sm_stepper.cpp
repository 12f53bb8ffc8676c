#include "sim/sm_stepper.h"

#include <algorithm>
#include <stdexcept>

#include "fmt/format.h"

namespace lockstep::sim {

namespace {

uint32_t checked_sm_count(size_t sms) {
  if (sms > func::WorkerPool::kMaxTasks)
    throw std::invalid_argument(fmt::format("{} SMs: at most {} can be stepped", sms, func::WorkerPool::kMaxTasks));
  return static_cast<uint32_t>(sms);
}

}  // namespace

SmStepper::SmStepper(std::vector<std::unique_ptr<Sm>>& sms, uint32_t threads, uint32_t other_tasks)
    : sms_(sms),
      views_(sms.size()),
      pool_(threads, std::max(checked_sm_count(sms.size()), checked_sm_count(other_tasks))),
      step_one_([this](uint32_t task) {
        const uint32_t i = (*which_)[task];
        Sm& sm = *sms_[i];
        StepView v;
        v.changed = sm.cycle(now_);
        v.commits = sm.has_commit_work();
        v.finished = !sm.finished_blocks().empty();
        v.idle = sm.idle();
        v.outbound = sm.ldst() != nullptr && !sm.ldst()->outbound().empty();
        if (!v.changed && !v.idle) v.next_change = sm.next_change(now_);
        views_[i] = v;
      }),
      commit_one_([this](uint32_t task) {
        const uint32_t i = (*which_)[task];
        Sm& sm = *sms_[i];
        sm.commit_accesses();
        views_[i].outbound = sm.ldst() != nullptr && !sm.ldst()->outbound().empty();
      }),
      starts_(pool_.threads(), 0) {}

std::span<const uint32_t> SmStepper::shares_of(const std::vector<uint32_t>& which) {
  const size_t threads = starts_.size(), sms = sms_.size();
  for (size_t k = 0; k < threads; ++k) {
    const auto first_sm = static_cast<uint32_t>(sms * k / threads);
    starts_[k] = static_cast<uint32_t>(std::lower_bound(which.begin(), which.end(), first_sm) - which.begin());
  }
  return starts_;
}

bool SmStepper::step(uint64_t now, const std::vector<uint32_t>& which) {
  which_ = &which;
  now_ = now;
  pool_.run(static_cast<uint32_t>(which.size()), step_one_, shares_of(which));
  bool changed = false;
  for (uint32_t i : which) changed |= views_[i].changed;
  return changed;
}

void SmStepper::commit_accesses(const std::vector<uint32_t>& which) {
  if (which.empty()) return;
  which_ = &which;
  pool_.run(static_cast<uint32_t>(which.size()), commit_one_, shares_of(which));
}

}  // namespace lockstep::sim
