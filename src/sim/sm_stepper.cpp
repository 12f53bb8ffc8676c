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
      changed_(sms.size(), 0),
      pool_(threads, std::max(checked_sm_count(sms.size()), checked_sm_count(other_tasks))),
      step_one_([this](uint32_t task) {
        const uint32_t i = (*which_)[task];
        changed_[i] = sms_[i]->cycle(now_) ? 1 : 0;
      }),
      commit_one_([this](uint32_t task) { sms_[(*which_)[task]]->commit_accesses(); }) {}

bool SmStepper::step(uint64_t now, const std::vector<uint32_t>& which) {
  for (uint32_t i : which) changed_[i] = 0;
  which_ = &which;
  now_ = now;
  pool_.run(static_cast<uint32_t>(which.size()), step_one_);
  bool changed = false;
  for (uint32_t i : which) changed |= changed_[i] != 0;
  return changed;
}

void SmStepper::commit_accesses(const std::vector<uint32_t>& which) {
  if (which.empty()) return;
  which_ = &which;
  pool_.run(static_cast<uint32_t>(which.size()), commit_one_);
}

}  // namespace lockstep::sim
