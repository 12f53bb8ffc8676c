#include "func/wave_runner.h"

#include <algorithm>
#include <optional>

#include "fmt/format.h"
#include "func/grid_progress.h"
#include "func/interrupt.h"

namespace lockstep::func {

// A resident block with everything it uses while it runs beside others: its own view of device
// memory (the view caches a translation), its own launch state and printf text.
struct WaveRunner::Slot {
  LaunchState launch;
  MemoryView view;
  std::string text;
  std::unique_ptr<CtaRunner> runner;
  CtaState cta;
  RunCounters counters;                 // since the slot's counts were last taken
  std::optional<LaunchFault> fault;     // phase 1's
  bool exited = false;
  // Decided between epochs, in slot order; done by the thread that advances the slot next.
  std::optional<uint64_t> start_next;   // the block that takes the slot (linear)
  bool alone = false;                   // the last block left: it runs without parking

  Slot(const LaunchState& shared, const MemoryView& memory) : launch(shared), view(memory) {
    launch.memory = &view;
    launch.printf_out = shared.printf_out != nullptr ? &text : nullptr;
  }
};

namespace {

void add(RunCounters& to, RunCounters& from) {
  to.warp_instructions += from.warp_instructions;
  to.thread_instructions += from.thread_instructions;
  to.global_writes += from.global_writes;
  to.divergence += from.divergence;
  from = {};
}

// Blocks resident at once: `wanted`, fewer when that many would hold more than 1 GiB of
// registers, local and shared memory (a block of 1024 threads with deep call stacks holds tens
// of MiB). Depends on the launch only, never on the host.
uint64_t resident_blocks(uint32_t wanted, const BoundKernel& kernel, const LaunchState& launch, uint32_t shared_size,
                         uint32_t warp_size) {
  constexpr uint64_t kResidentBytes = uint64_t{1} << 30;
  const uint64_t threads = uint64_t{launch.block[0]} * launch.block[1] * launch.block[2];
  const uint64_t warps = (threads + warp_size - 1) / warp_size;
  const uint64_t per_warp = (uint64_t{kernel.slot_count} * 8 + launch.stack_size) * warp_size + kernel.pred_count * 8;
  const uint64_t per_block = std::max<uint64_t>(1, warps * per_warp + shared_size);
  return std::clamp<uint64_t>(kResidentBytes / per_block, 1, std::clamp<uint32_t>(wanted, 1, WorkerPool::kMaxTasks));
}

}  // namespace

WaveRunner::WaveRunner(const BoundKernel& kernel, const LaunchState& launch, WaveRunOptions options,
                       const TraceHook* trace)
    : kernel_(kernel), launch_(launch), options_(std::move(options)), trace_(trace) {
  options_.run.park_launch_effects = true;
  options_.run.global_writes = &kernel.launch_effects;  // counted, to tell quiet epochs
  total_blocks_ = uint64_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
  // A cooperative grid is resident whole whatever it holds (the engine refused grids larger
  // than a pool's tasks).
  const auto resident = static_cast<uint32_t>(
      options_.cooperative
          ? std::clamp<uint64_t>(total_blocks_, 1, WorkerPool::kMaxTasks)
          : std::clamp<uint64_t>(total_blocks_, 1,
                                 resident_blocks(options_.resident, kernel, launch, options_.shared_size,
                                                 options_.run.warp_size)));
  slots_.resize(resident);
  // A trace hook sees instructions as they run: one thread keeps its order the serial one.
  const uint32_t threads = trace_ != nullptr ? 1 : options_.threads;
  pool_ = std::make_unique<WorkerPool>(threads, resident);
  advance_one_ = [this](uint32_t i) { advance(*occupied_[i]); };
  // On one thread the plan would only cost time.
  plan_commits_ = options_.parallel_commit && pool_->threads() > 1;
  options_.run.park_footprints = plan_commits_;
  commit_one_ = [this](uint32_t i) {
    Slot& slot = *occupied_[i];
    try {
      slot.runner->commit_independent(independent_.data() + first_parked_[i]);
    } catch (LaunchFault& f) {
      slot.fault = std::move(f);
    }
  };
}

WaveRunner::~WaveRunner() = default;

void WaveRunner::start(Slot& slot, uint64_t linear) {
  const uint64_t gx = launch_.grid[0], gy = launch_.grid[1];
  slot.cta.ctaid[0] = static_cast<uint32_t>(linear % gx);
  slot.cta.ctaid[1] = static_cast<uint32_t>(linear / gx % gy);
  slot.cta.ctaid[2] = static_cast<uint32_t>(linear / (gx * gy));
  slot.cta.linear_id = static_cast<uint32_t>(linear);
  slot.cta.shared_size = options_.shared_size;
  slot.cta.shared.assign(options_.shared_size, 0);
  slot.exited = false;
  slot.runner->start(slot.cta);
}

void WaveRunner::advance(Slot& slot) {
  try {
    if (slot.start_next) {
      start(slot, *slot.start_next);
      slot.start_next.reset();
    }
    slot.runner->set_parking(!slot.alone);
    const uint64_t budget_end =
        slot.counters.warp_instructions +
        (slot.runner->parking() ? options_.epoch_instructions : options_.alone_epoch_instructions);
    while (true) {
      const CtaRunner::TurnResult r = slot.runner->turn(slot.cta, slot.counters);
      if (r == CtaRunner::TurnResult::Exited) {
        slot.exited = true;
        return;
      }
      if (r == CtaRunner::TurnResult::Parked || slot.counters.warp_instructions >= budget_end) return;
    }
  } catch (LaunchFault& f) {
    slot.fault = std::move(f);
  }
}

void WaveRunner::retire(Slot& slot) {
  finished_text_.emplace(slot.cta.linear_id, std::move(slot.text));
  slot.text.clear();
  flush_printf(false);
}

void WaveRunner::flush_printf(bool everything) {
  if (launch_.printf_out == nullptr) return;
  if (everything) {
    // A fault stops the launch: what the resident blocks printed goes out too, in block order.
    for (Slot* s : occupied_) finished_text_.emplace(s->cta.linear_id, std::move(s->text));
    for (auto& [linear, text] : finished_text_) launch_.printf_out->append(text);
    finished_text_.clear();
    return;
  }
  for (auto it = finished_text_.begin(); it != finished_text_.end() && it->first == next_text_;
       it = finished_text_.erase(it), ++next_text_)
    launch_.printf_out->append(it->second);
}

uint64_t WaveRunner::fingerprint() const {
  StateHasher h;
  for (const Slot* s : occupied_) {
    h.add(s->cta.linear_id);
    h.add_cta(s->cta);
    for (const Warp& w : s->runner->warps()) h.add_warp(w, kernel_);
  }
  return h.value();
}

void WaveRunner::report_stuck(std::string why, FaultKind kind) {
  std::vector<StuckBlock> blocks;
  for (const Slot* s : occupied_) blocks.push_back({&s->cta, &s->runner->warps()});
  size_t located = 0;
  LaunchFault f = stuck_report(std::move(why), blocks, &located, kind);
  fail(*occupied_[located], std::move(f));
}

void WaveRunner::fail(Slot& slot, LaunchFault fault) {
  flush_printf(true);
  throw WaveFault{std::move(fault), &slot.cta};
}

void WaveRunner::take_counts(RunCounters& counters) {
  for (const auto& slot : slots_)
    if (slot) add(counters, slot->counters);
}

uint64_t WaveRunner::sum_of(uint64_t RunCounters::*field) const {
  uint64_t sum = 0;
  for (const Slot* s : occupied_) sum += s->counters.*field;
  return sum;
}

void WaveRunner::run_epoch(RunCounters& counters) {
  if (occupied_.size() == 1 && next_block_ == total_blocks_) occupied_[0]->alone = true;
  const uint64_t writes_before = sum_of(&RunCounters::global_writes);
  const uint64_t instructions_before = sum_of(&RunCounters::warp_instructions);
  pool_->run(static_cast<uint32_t>(occupied_.size()), advance_one_);

  // Phase 1 faults, as a serial run in block order would have met the first.
  Slot* faulted = nullptr;
  for (Slot* s : occupied_)
    if (s->fault && (faulted == nullptr || s->cta.linear_id < faulted->cta.linear_id)) faulted = s;
  if (faulted != nullptr) {
    take_counts(counters);
    fail(*faulted, std::move(*faulted->fault));
  }
  commit(counters);

  // A Ctrl-C, whether or not blocks finish.
  if (interrupt_requested()) {
    take_counts(counters);
    report_stuck(interrupted_detail(interrupt_signal()), FaultKind::Interrupted);
  }
  if (options_.instruction_budget != 0) {
    const uint64_t ran = counters.warp_instructions + sum_of(&RunCounters::warp_instructions);
    if (ran > options_.instruction_budget) {
      take_counts(counters);
      report_stuck(fmt::format("the cooperative launch ran {} warp instructions, more than its budget of {}, "
                               "without finishing",
                               ran, options_.instruction_budget));
    }
  }
  bool quiet = sum_of(&RunCounters::global_writes) == writes_before;
  bool exited = false;
  for (const Slot* s : occupied_) exited |= s->exited;
  if (exited) {
    busy_states_.clear();
    busy_instructions_ = 0;
    busy_interval_ = options_.busy_hash_interval;
    since_exit_instructions_ = 0;
  } else {
    // The hard limit, for a spin whose state never repeats.
    since_exit_instructions_ += sum_of(&RunCounters::warp_instructions) - instructions_before;
    if (options_.instruction_limit != 0 && since_exit_instructions_ > options_.instruction_limit) {
      take_counts(counters);
      report_stuck(fmt::format("no thread block of the launch finished within {} warp instructions "
                               "(run.watchdog_limit_instructions): a spin that never ends, or raise the limit",
                               options_.instruction_limit));
    }
  }
  if (!quiet || exited) {
    quiet_states_.clear();
    quiet_instructions_ = 0;
    if (!exited) watch_busy(sum_of(&RunCounters::warp_instructions) - instructions_before, counters);
    return;
  }
  quiet_instructions_ += sum_of(&RunCounters::warp_instructions) - instructions_before;
  if (quiet_instructions_ < options_.hash_interval) return;
  quiet_instructions_ = 0;
  if (!quiet_states_.insert(fingerprint()).second) {
    take_counts(counters);
    report_stuck(options_.cooperative
                     ? "no thread block of the cooperative launch can make progress: a round of every block "
                       "wrote no global memory and returned the grid to an earlier state"
                     : "no thread block of the launch can make progress: the resident blocks wrote no global "
                       "memory and returned to an earlier state");
  }
}

void WaveRunner::commit(RunCounters& counters) {
  if (plan_commits_ && occupied_.size() > 1) {
    footprints_.clear();
    first_parked_.clear();
    for (const Slot* s : occupied_) {
      first_parked_.push_back(footprints_.size());
      s->runner->append_footprints(footprints_);
    }
    if (planner_.plan(footprints_, independent_) != 0) {
      pool_->run(static_cast<uint32_t>(occupied_.size()), commit_one_);
      // Independent stores cannot fault (their footprints are known); were one to, the first
      // block in slot order reports it.
      for (Slot* s : occupied_) {
        if (!s->fault) continue;
        take_counts(counters);
        fail(*s, std::move(*s->fault));
      }
    }
  }
  for (Slot* s : occupied_) {
    try {
      s->runner->commit_parked();
    } catch (LaunchFault& f) {
      take_counts(counters);
      fail(*s, std::move(f));
    }
  }
}

void WaveRunner::watch_busy(uint64_t instructions, RunCounters& counters) {
  busy_instructions_ += instructions;
  if (busy_interval_ == 0) busy_interval_ = options_.busy_hash_interval;
  if (busy_instructions_ < busy_interval_) return;
  busy_instructions_ = 0;
  busy_interval_ = std::min(busy_interval_ * 2, options_.busy_hash_interval * 64);
  StateHasher h;
  h.add(fingerprint());
  if (launch_.memory == nullptr || !h.add_memory(launch_.memory->memory(), options_.busy_memory_limit)) return;
  if (!busy_states_.insert(h.value()).second) {
    take_counts(counters);
    report_stuck(
        "no thread block of the launch can make progress: the resident blocks returned to an earlier state, "
        "device memory included (a spin that never ends, such as a lock whose holder never runs again)");
  }
}

void WaveRunner::retire_exited(RunCounters& counters, const std::function<void(uint64_t)>& on_cta_exit) {
  std::vector<Slot*>& still = next_occupied_;
  still.clear();
  for (Slot* s : occupied_) {
    if (!s->exited) {
      still.push_back(s);
      continue;
    }
    add(counters, s->counters);
    retire(*s);
    ++blocks_done_;
    if (on_cta_exit) on_cta_exit(blocks_done_);
    if (next_block_ < total_blocks_) {
      s->start_next = next_block_++;
      still.push_back(s);
    }
  }
  occupied_.swap(still);
}

void WaveRunner::run(RunCounters& counters, const std::function<void(uint64_t)>& on_cta_exit) {
  for (auto& slot : slots_) {
    if (next_block_ == total_blocks_) break;
    slot = std::make_unique<Slot>(launch_, *launch_.memory);
    slot->runner = std::make_unique<CtaRunner>(kernel_, slot->launch, options_.run, trace_);
    slot->start_next = next_block_++;
    occupied_.push_back(slot.get());
  }
  while (!occupied_.empty()) {
    run_epoch(counters);
    retire_exited(counters, on_cta_exit);
  }
  take_counts(counters);
  flush_printf(true);
}

}  // namespace lockstep::func
