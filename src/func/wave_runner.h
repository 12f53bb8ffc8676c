#pragma once
// Runs the blocks of a launch in the functional model on several host threads, with results
// that do not depend on how many. A cooperative launch (WaveRunOptions::cooperative) is one
// with every block resident from the start, so blocks that wait for each other through global
// memory (grid.sync()) make progress.
//
// Up to `resident` blocks are resident at once, started in linear block order as a GPU starts
// them. The launch advances in epochs:
//  1. Every resident block runs on its own (its warps in turns, as CtaRunner runs them) until
//     each of its warps has exited, waits at a barrier, or has reached an instruction that may
//     change what another block sees: a store, atomic or reduction outside shared and local
//     memory, a copy, malloc/free, a device-side launch (func/instruction_effects.h:
//     changes_launch_state). Such a warp parks there. A block that keeps running without
//     parking (a spin on a flag) stops after a turn that reaches `epoch_instructions`. Blocks
//     only read memory in this phase, so they run on the worker threads side by side.
//  2. The parked instructions run, block by block in slot order and, within a block, in the
//     order its warps parked; or so it looks: stores whose bytes no other parked instruction
//     touches commit side by side on the worker threads first (func/commit_plan.h). Blocks
//     that exited leave; the next blocks in linear order take their slots.
// Which thread runs which block in phase 1 changes nothing a block can see, so results, printf
// text, instruction counts and fault reports are bit-identical for any thread count. Each
// block's printf text is kept apart and joined in linear block order, as a serial run writes
// it. A fault in phase 1 is reported for the lowest-numbered block that faulted; one in phase 2
// at the first parked instruction that faulted.
//
// When one block is left resident it runs without parking: nothing else runs that could see its
// writes early or late.
//
// A launch that can never finish is reported as a deadlock: an epoch in which no block exited
// and no instruction that may write global memory ran is quiet; after every `hash_interval` warp instructions of a run of
// quiet epochs the state of every resident block is hashed, and a hash seen before in the same
// run means the launch repeats itself forever (a spin on a flag that nobody will set). A spin
// whose state never repeats (it counts its iterations) is reported the same way once the resident
// blocks have run `instruction_limit` warp instructions since a block last finished. A Ctrl-C
// (func/interrupt.h), polled after every epoch, fails the launch with the same report.
#include <cstdint>
#include <functional>
#include <map>
#include <unordered_set>
#include <memory>
#include <string>
#include <vector>

#include "func/commit_plan.h"
#include "func/cta_runner.h"
#include "func/worker_pool.h"

namespace lockstep::func {

struct WaveRunOptions {
  RunOptions run;
  uint32_t shared_size = 0;  // bytes of shared memory per block
  uint32_t resident = 1;     // blocks resident at once, fewer for large blocks or a small grid
  uint32_t threads = 1;      // host threads, the caller's included
  // Per block and epoch, checked after each turn: what a block that does not park (a spin on
  // another block's flag, or on a sibling warp that parked) runs before the parked instructions
  // run. Small, so a spin costs little; a turn is never cut short, so long computations are not.
  uint64_t epoch_instructions = 512;
  // The same when one block is left: only how often the deadlock check looks.
  uint64_t alone_epoch_instructions = 1u << 20;
  uint64_t hash_interval = 1u << 20;  // quiet warp instructions between two state hashes
  // Phase 2 on several threads: parked stores whose bytes no other parked instruction touches
  // commit side by side (func/commit_plan.h), the rest in serial order. Off: all in serial
  // order. The results are the same; off is there to compare the two.
  bool parallel_commit = true;
  // Epochs that wrote global memory but finished no block: after every `busy_hash_interval`
  // warp instructions of such a run, the state is hashed with every byte of device memory (when
  // no more than `busy_memory_limit` bytes are allocated); a repeat is a spin that only looks
  // busy (atomics that change nothing, as the intra-warp lock under ipdom-stack runs).
  uint64_t busy_hash_interval = 1u << 20;
  uint64_t busy_memory_limit = uint64_t{64} << 20;
  // run.watchdog_limit_instructions: warp instructions the resident blocks run, since the launch
  // started or a block last finished, before the launch is reported as a deadlock (0: no limit).
  // Checked after each epoch, so the report comes at most an epoch's instructions later.
  uint64_t instruction_limit = 0;
  // A cooperative launch: every block is resident from the start, whatever memory they hold
  // (`resident` is ignored; the engine refused grids no GPU could hold at once), so blocks that wait for each other
  // through global memory (a grid barrier) make progress; the deadlock reports name the
  // cooperative launch, and `instruction_budget` (0: none) bounds the whole launch's warp
  // instructions, as LaunchOptions::instruction_budget asks.
  bool cooperative = false;
  uint64_t instruction_budget = 0;
};

// A fault in one block; `cta` is the state of the block it happened in.
struct WaveFault {
  LaunchFault fault;
  const CtaState* cta = nullptr;
};

class WaveRunner {
 public:
  // `launch.printf_out` receives the launch's printf text.
  WaveRunner(const BoundKernel& kernel, const LaunchState& launch, WaveRunOptions options, const TraceHook* trace);
  ~WaveRunner();
  // Runs the whole grid; throws WaveFault. `on_cta_exit(blocks_done)` is called each time a
  // block finishes (may be empty).
  void run(RunCounters& counters, const std::function<void(uint64_t)>& on_cta_exit);

 private:
  struct Slot;
  // Both phases of an epoch, and the deadlock check.
  void run_epoch(RunCounters& counters);
  // Phase 2: the parked instructions, those that touch nothing else's bytes on the worker
  // threads, the rest serially in slot and park order; throws WaveFault.
  void commit(RunCounters& counters);
  // Blocks that exited leave; the next blocks in linear order take their slots.
  void retire_exited(RunCounters& counters, const std::function<void(uint64_t)>& on_cta_exit);
  void start(Slot& slot, uint64_t linear);
  void advance(Slot& slot);  // phase 1 of one block
  void retire(Slot& slot);
  void flush_printf(bool everything);
  void take_counts(RunCounters& counters);
  uint64_t sum_of(uint64_t RunCounters::*field) const;  // over the resident blocks
  uint64_t fingerprint() const;
  // Not quiet, but no block exited: the busy watchdog (WaveRunOptions::busy_hash_interval).
  void watch_busy(uint64_t instructions, RunCounters& counters);
  [[noreturn]] void report_stuck(std::string why, FaultKind kind = FaultKind::Deadlock);
  [[noreturn]] void fail(Slot& slot, LaunchFault fault);

  const BoundKernel& kernel_;
  const LaunchState& launch_;
  WaveRunOptions options_;
  const TraceHook* trace_;
  uint64_t total_blocks_ = 0;
  uint64_t next_block_ = 0;  // the next block to start, linear
  uint64_t blocks_done_ = 0;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Slot*> occupied_;  // this epoch's resident blocks, in slot order
  std::vector<Slot*> next_occupied_;  // the next epoch's, while it is worked out
  // printf text of finished blocks waiting for the blocks before them (linear index -> text)
  std::map<uint64_t, std::string> finished_text_;
  uint64_t next_text_ = 0;  // the block whose text goes out next
  std::unique_ptr<WorkerPool> pool_;
  std::function<void(uint32_t)> advance_one_;  // phase 1's task: advance(*occupied_[i])
  // Phase 2's plan, when stores may commit side by side: every parked instruction's footprint
  // in serial order, which of them are independent, where each resident block's start.
  bool plan_commits_ = false;
  CommitPlanner planner_;
  std::vector<ParkedFootprint> footprints_;
  std::vector<uint8_t> independent_;
  std::vector<size_t> first_parked_;
  std::function<void(uint32_t)> commit_one_;  // phase 2's task: the independent stores of one block
  // The deadlock check: hashes of the states seen in the current run of quiet epochs.
  std::unordered_set<uint64_t> quiet_states_;
  uint64_t quiet_instructions_ = 0;  // since the last hash
  std::unordered_set<uint64_t> busy_states_;
  uint64_t busy_instructions_ = 0;   // since the last busy hash
  // The busy hash's interval: busy_hash_interval, doubled after every hash that found no repeat
  // (up to 64 times), so that a long block that writes memory all the time pays a vanishing
  // share for the check; a block exiting starts it again.
  uint64_t busy_interval_ = 0;
  uint64_t since_exit_instructions_ = 0;  // since a block last finished, for instruction_limit
};

}  // namespace lockstep::func
