#pragma once
// Runs the warps of one thread block to completion in the functional model: each warp runs
// for a time slice (or until it waits at a barrier or exits), then the next warp gets a turn,
// so warps that wait on each other through memory still make progress. A turn also ends after
// each access of shared or global memory (func/instruction_effects.h: shares_memory), so the
// warps reach memory in round-robin order as on a GPU. Detects barrier deadlocks.
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "func/bound_kernel.h"
#include "func/commit_plan.h"
#include "func/divergence/block_stack.h"
#include "func/divergence/divergence_unit.h"
#include "func/divergence/warp_formation.h"
#include "func/warp.h"

namespace lockstep::func {

struct RunOptions {
  uint32_t warp_size = 32;
  uint32_t time_slice = 4096;
  DivergenceOptions divergence;  // sm.divergence: how a warp handles divergent control flow
  std::array<uint32_t, 32> envreg{};  // %envreg0..31 (CUDA gives 0 outside cooperative launches)
  uint32_t sm_id = 0;     // %smid: the SM the block runs on (the timing model places blocks)
  uint32_t sm_count = 1;  // %nsmid
  // Cooperative launches: per PC, nonzero when the instruction may write global memory; the
  // grid runner counts those that run with at least one lane, to tell spinning from progress.
  // Null: not counted.
  const std::vector<uint8_t>* global_writes = nullptr;
  // Several blocks resident at once (WaveRunner): a warp that reaches an instruction that may
  // change what another block or the launch sees (func/instruction_effects.h:
  // changes_launch_state) parks there instead of running it; the caller runs the parked
  // instructions with commit_parked(), at a point where no other block runs.
  bool park_launch_effects = false;
  // With park_launch_effects: a warp that parks at a plain store also notes the bytes it will
  // write (func/commit_plan.h), for a caller that commits such stores on several threads. Costs
  // a pass over the lanes' addresses per parked store, so only a caller with threads asks.
  bool park_footprints = false;
};

struct RunCounters {
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t global_writes = 0;  // executed instructions flagged in RunOptions::global_writes
  DivergenceCounters divergence;  // the warps' divergence units', taken after each time slice
};

// A fault with the warp and PC where it happened.
struct LaunchFault {
  DeviceFault fault;
  uint32_t warp = 0;
  ir::Pc pc = 0;
  std::vector<std::string> warp_states;  // deadlock reports: every stuck warp
};

// One executed instruction as a trace hook sees it: a copy, so that the timing model can hand
// its SMs' records over at the end of the cycle, in SM order.
struct TraceRecord {
  uint32_t block = 0;   // linear block index
  uint32_t warp = 0;    // warp index in the block
  ir::Pc pc = 0;
  LaneMask exec = 0;    // lanes executing (after the guard)
  LaneMask active = 0;  // lanes on the current path (before the guard)
  uint64_t clock = 0;   // the issue cycle (timing), or the warp's instruction count (functional)
  // Block-level units (dwf, tbc): the formed warp these lanes of the warp issued in, numbered
  // from 1 per block in issue order; the records of one formed warp (one per home warp with
  // threads in it) share the number and come one after another. 0: the warp issued alone.
  uint64_t formed_warp = 0;
};

inline TraceRecord trace_record(const CtaState& cta, const Warp& w) {
  return {cta.linear_id, w.warp_id, w.pc, w.exec, w.active, w.clock, 0};
}

using TraceHook = std::function<void(const TraceRecord&)>;

// One issue of a block-level unit (dwf, tbc, large-warp; cta_formed_turn.cpp): the PC the block
// issues, the home warps whose current path is at it, and the formed warps they make. Functional
// mode runs the whole issue at once; the timing model (sim/sm_formation.cpp) issues the formed
// warps one per cycle and runs the instruction on the members with the first of them.
struct FormedIssue {
  static constexpr uint32_t kNoStack = UINT32_MAX;
  static constexpr uint32_t kNoWarp = UINT32_MAX;
  // sbi, swi (cta_co_issue.cpp): the path issued beside this one in the same issue, on lanes it
  // leaves idle; warp kNoWarp when none qualifies. sibling: the other path of the issuing warp's
  // divergent branch (sbi); else another warp's top path at another PC (swi).
  struct Secondary {
    uint32_t warp = kNoWarp;
    ir::Pc pc = ir::kNoPc;
    LaneMask active = 0;  // the path's lanes
    LaneMask exec = 0;    // those that run it (after the guard)
    bool sibling = false;
  };
  ir::Pc pc = ir::kNoPc;
  uint32_t stack = kNoStack;              // the block stack that issues (tbc, large-warp)
  std::vector<FormationMember> members;   // in warp order: each warp's path (its active lanes)
  std::vector<LaneMask> exec;             // per member: the lanes that run it (after the guard)
  std::vector<FormedWarp> formed;         // in issue order
  uint64_t first_number = 0;              // formed warp k is the block's number first_number + k + 1
  Secondary secondary;
};

class CtaRunner {
 public:
  CtaRunner(const BoundKernel& kernel, LaunchState& launch, RunOptions options, const TraceHook* trace);
  // Runs one CTA; throws LaunchFault.
  void run(CtaState& cta, RunCounters& counters);

  // The pieces of run() for a caller that interleaves CTAs (WaveRunner): start() sets up the
  // CTA's warps; each turn() gives every running warp one time slice and says how the CTA
  // stands. A CTA whose warps all wait at barriers can never continue: turn() throws the
  // deadlock report then, as run() does.
  // Parked: no warp can run before commit_parked() (each waits there or at a barrier).
  enum class TurnResult { Exited, Ran, Parked };
  void start(CtaState& cta);
  TurnResult turn(CtaState& cta, RunCounters& counters);
  // Runs the instructions the warps parked at (RunOptions::park_launch_effects), in the order
  // they parked, and lets those warps run on; throws LaunchFault at the first that faults.
  void commit_parked();
  bool has_parked() const { return !parked_.empty(); }
  // The footprints of the parked instructions, in park order, appended to `out` (unknown ones
  // unless RunOptions::park_footprints).
  void append_footprints(std::vector<ParkedFootprint>& out) const;
  // Runs each parked instruction i (in park order) with independent[i] != 0 and lets its warp
  // run on; the others stay parked for commit_parked(), which skips these. The caller
  // guarantees that no other parked instruction of any block touches their bytes
  // (CommitPlanner), so they may run while other blocks commit theirs. Throws LaunchFault as
  // commit_parked() does (a known footprint cannot fault, so it does not happen).
  void commit_independent(const uint8_t* independent);
  // Whether warps park (from RunOptions::park_launch_effects; only a runner built with it can
  // park). A block left alone stops parking: nothing else runs that could see the difference.
  void set_parking(bool on) { parking_ = on && options_.park_launch_effects; }
  bool parking() const { return parking_; }
  const std::vector<Warp>& warps() const { return warps_; }
  std::vector<Warp>& warps() { return warps_; }
  // For a caller that steps warps itself (the timing model): throws the deadlock report when
  // no live warp can run any more (every one waits at a barrier that cannot complete).
  void check_deadlock(const CtaState& cta);

  // Block-level units, for a caller that issues formed warps itself (the timing model):
  // plan_formed() picks the block's next issue as formed_turn() does (the scheduler's or the
  // stacks' choice) and counts it (thread instructions and formed warps; not warp instructions,
  // which the caller counts as it issues them); false when no warp can issue now. The caller
  // then runs the instruction on each member warp with its exec lanes (execute, or defer its
  // handler after advance_past), then calls finish_formed(). trace_formed() hands the trace
  // records of formed warp k (before its members run it) to `hook`, with `clock` as the issue
  // cycle (none: each warp's instruction count, as functional mode's records have).
  bool forms_warps() const { return forms_warps_; }
  bool plan_formed(FormedIssue& issue, RunCounters& counters);
  // A warp asleep (the timing model's nanosleep) joins no formed issue, primary or secondary,
  // until the caller wakes it: a plan that held the block for it would starve the warp it waits for.
  void set_asleep(uint32_t warp, bool asleep) { warp_asleep_[warp] = asleep ? 1 : 0; }
  void finish_formed(const FormedIssue& issue);
  void trace_formed(const CtaState& cta, const FormedIssue& issue, size_t k, std::optional<uint64_t> clock,
                    const TraceHook& hook) const;
  // The block stacks' counters since the last call (tbc, large-warp; zero for dwf).
  DivergenceCounters take_stack_counters();
  // sbi, swi: plan_formed() also picks the issue's secondary path (FormedIssue::secondary) and
  // counts it (its threads, the pair as a formed warp). The caller runs it with run_secondary()
  // before the primary's members run the instruction and before finish_formed() (the sibling
  // path is the stack entry below the top, which finish_formed() may pop); trace_secondary()
  // hands its trace record to `hook`, after the primary's. run_secondary() throws
  // FaultException.
  void run_secondary(const FormedIssue& issue);
  void trace_secondary(const CtaState& cta, const FormedIssue& issue, std::optional<uint64_t> clock,
                       const TraceHook& hook) const;

 private:
  // Per PC: kEndsTurn when a warp's turn ends after the instruction (shares_memory), kParks
  // when a warp parks at it (park_launch_effects).
  static constexpr uint8_t kEndsTurn = 1, kParks = 2;
  // Block-level units: issues in a row a ready warp may be passed over before the scheduler
  // picks its PC (FormationScheduler): long enough for a join point to wait out an else
  // block, short enough that a warp spinning on a sibling's flag lets the sibling run.
  static constexpr uint32_t kFormationPatience = 1024;
  static std::vector<uint8_t> turn_flags(const BoundKernel& kernel, bool park);
  struct ParkedInstruction {
    uint32_t warp;
    ir::Pc pc;
    LaneMask lanes;
    ParkedFootprint footprint;
    bool done = false;  // run by commit_independent()
  };
  // Runs parked_[i]; throws LaunchFault, with the instructions parked after it dropped.
  void commit_one(size_t i);

  void init_registers(Warp& w, const CtaState& cta, uint32_t threads_in_block);
  template <bool kCountWrites>
  void run_warp(Warp& w, CtaState& cta, RunCounters& counters);
  // turn() under a block-level unit (cta_formed_turn.cpp): up to a time slice of formed-warp
  // issues, chosen across the block's warps.
  TurnResult formed_turn(CtaState& cta, RunCounters& counters);
  // sbi, swi (cta_co_issue.cpp): picks and counts the secondary path beside `issue`, whose
  // primary is `stack`'s top (fig 3-19 (d)'s rules: no_secondary_).
  void plan_secondary(FormedIssue& issue, BlockStack& stack, RunCounters& counters);
  [[noreturn]] void report_deadlock(const CtaState& cta);

  const BoundKernel& kernel_;
  LaunchState& launch_;
  RunOptions options_;
  const TraceHook* trace_;
  std::vector<uint8_t> turn_flags_;  // per PC: kEndsTurn | kParks
  // sbi, swi: per PC, 1 when a secondary may not issue it (cta_co_issue.cpp: control, turn-ending,
  // parking and memory instructions stay with the primary).
  std::vector<uint8_t> no_secondary_;
  std::vector<ParkedInstruction> parked_;  // in the order the warps parked
  std::vector<uint8_t> warp_parked_;        // per warp: 1 while it has a parked instruction
  std::vector<uint8_t> warp_asleep_;        // per warp: 1 while the caller holds it asleep
  // Per PC, with park_footprints: bytes per lane of a plain global store (0: not one).
  std::vector<uint32_t> store_bytes_;
  bool parking_ = false;
  std::vector<Warp> warps_;
  std::vector<std::vector<uint64_t>> registers_;
  std::vector<uint8_t> constants_set_;  // per warp: its register file holds the bound constants
  std::vector<std::vector<LaneMask>> predicates_;
  std::vector<std::unique_ptr<DivergenceUnit>> divergence_;
  // Block-level units (sm.divergence = dwf, tbc, large-warp, sbi, swi): the warps' units keep
  // each home warp's threads' PCs (dwf: branch barriers; the others: views of block_stacks_);
  // formed_turn() groups the paths of several warps at one PC into formed warps.
  bool forms_warps_ = false;
  FormationRule formation_rule_ = FormationRule::InPlaceLut;
  FormationScheduler scheduler_;
  // tbc: the block-wide stack, which the warps' units are views of; it picks the PC instead of
  // the scheduler. large-warp: one such stack per large warp (consecutive groups of
  // sm.large_warp_size warps), which issue in turn; sbi: one per warp.
  std::vector<std::unique_ptr<BlockStack>> block_stacks_;
  bool stacked_ = false;                   // tbc or large-warp: block_stacks_ pick the PCs
  DivergenceTraits::StackSharing stack_sharing_ = DivergenceTraits::StackSharing::Block;
  uint32_t stack_group_ = 0;               // warps per stack (tbc: the block's; sbi: 1)
  bool co_issues_ = false;                 // sbi, swi: plan_secondary() beside each top issue
  bool interweaves_warps_ = false;         // swi: else another warp's path (plan_secondary)
  uint32_t next_stack_ = 0;                // the large warp whose turn it is to issue
  uint64_t formed_count_ = 0;              // formed warps issued by the block so far (trace)
  std::vector<ir::Pc> ready_pcs_;          // plan_formed() scratch, per warp
  FormedIssue issue_;                      // formed_turn()'s issue in progress
};

}  // namespace lockstep::func
