#pragma once
// How a warp handles divergent control flow. Instruction semantics never see this: only the
// control handlers (branches, calls, returns, exits) and the engine loop call it. The unit
// owns the warp's PC and active mask (Warp::pc, Warp::active) and the cached reconvergence
// PC (Warp::reconverge_at) that the engine compares against after every instruction.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "func/divergence/divergence_counters.h"
#include "func/divergence/warp_formation.h"
#include "func/divergence/warp_sync_kind.h"
#include "func/lanes.h"
#include "ir/program.h"
#include "policy/policy_registry.h"

namespace lockstep::func {

class Warp;

class DivergenceUnit {
 public:
  virtual ~DivergenceUnit() = default;

  // Starts the warp at `entry` with `lanes` active and nothing pending.
  virtual void reset(Warp& warp, LaneMask lanes, ir::Pc entry) = 0;
  // The current path branches: `taken` lanes (a subset of warp.active) go to `target`, the
  // others to `fallthrough`; both meet again at `reconverge` (kNoPc: never).
  virtual void branch(Warp& warp, LaneMask taken, ir::Pc target, ir::Pc fallthrough,
                      ir::Pc reconverge) = 0;
  // Called when warp.pc == warp.reconverge_at.
  virtual void reconverge(Warp& warp) = 0;
  // The current path calls a function; it resumes at `return_pc` after return_from_call().
  virtual void call(Warp& warp, ir::Pc entry, ir::Pc return_pc) = 0;
  // The current path leaves the function entered by the matching call().
  virtual void return_from_call(Warp& warp) = 0;
  // `lanes` finish for good (exit); afterwards warp.active may be empty only when the warp
  // has no live lane left.
  virtual void exit_lanes(Warp& warp, LaneMask lanes) = 0;
  // `lanes` (a subset of warp.active) leave the current path and wait at `at`, where the path
  // meets them again after the instruction that splits them (a guarded or indirect call: the
  // lanes left on the path call now). The stack treats it as a branch that reconverges at the
  // current PC; units with a PC per thread just park the lanes.
  virtual void set_aside(Warp& warp, LaneMask lanes, ir::Pc at);
  // The whole current path jumped back (target PC <= branch PC); warp.pc is the target. Units
  // that yield count these (seed 001 §3.3.3); the stack ignores them.
  virtual void backward_branch(Warp&) {}
  // The whole current path jumped forward (a uniform branch or ret; target PC > branch PC);
  // warp.pc is the target. A unit that runs its paths in PC order (thread-frontier) runs a path
  // waiting at a PC the jump skipped first; the others ignore it.
  virtual void forward_branch(Warp&) {}
  // The current path is at an instruction (warp.pc) that `lanes` of the warp must run together
  // (a CTA barrier: the block's barrier counts warps, so a warp arrives once, with all its
  // threads). True: run it now. False: the unit parked the path there to wait for the other
  // lanes and chose another path (warp.pc moved); the instruction runs again when they meet.
  // The stack keeps a warp's lanes together at such points by itself and always says true.
  virtual bool converge(Warp&, LaneMask) { return true; }
  // The running group is at a warp-synchronizing instruction (warp.pc) whose membermask names
  // `members` (live lanes). True: run it now (the running group holds every member the unit can
  // bring). False: the unit parked the group there until the members arrive and chose another
  // path (warp.pc moved); a Collective runs again when they meet, a Barrier's threads go on past
  // their own instruction. The stack units keep today's pre-Volta rule (the mask's threads must
  // execute it converged; otherwise undefined): they always say true and the instruction sees
  // the lanes that are executing.
  virtual bool sync_warp(Warp&, LaneMask /*members*/, WarpSyncKind) { return true; }
  // For deadlock reports: one line per pending path.
  virtual std::vector<std::string> describe() const = 0;
  // Entries the unit holds now (the timing model charges pushes and pops by its changes).
  virtual size_t depth() const = 0;

  // What the unit counted since the last take (reset() keeps counting: a unit serves one block
  // after another), handed over and cleared. The runner of each mode takes them after every
  // step or time slice of the warp and sums them into the launch's figures.
  DivergenceCounters take_counters() {
    const DivergenceCounters c = counters_;
    counters_ = {};
    return c;
  }

 protected:
  DivergenceCounters counters_;
};

// What a unit is built from (sm.divergence, sm.yield_after and sm.large_warp_size of the
// configuration).
struct DivergenceOptions {
  std::string name = "branch-barrier";
  // branch-barrier: backward branches a thread group takes in a row before it yields while
  // other threads of the warp wait (ready or blocked).
  uint32_t yield_after = 64;
  // large-warp: consecutive warps of a block that make one large warp (the CtaRunner reads it).
  uint32_t large_warp_size = 4;
};

// How a unit's warps issue, which the CtaRunner and the timing model need before any unit is
// built; each unit's file states it in its entry.
struct DivergenceTraits {
  // A block-level unit (dwf, tbc, large-warp, sbi, swi): the CtaRunner issues the paths of a
  // block's warps that wait at one PC as formed warps (warp_formation.h); otherwise each warp
  // issues its own path.
  bool block_level = false;
  // How a block-level unit groups those threads (read only when block_level).
  FormationRule formation = FormationRule::Compaction;
  // The warps that share one SIMT stack of a compacting block-level unit (read only then).
  enum class StackSharing : uint8_t {
    Block,      // tbc: one stack for the block
    LargeWarp,  // large-warp: one per sm.large_warp_size consecutive warps
    Warp,       // sbi, swi: one per warp
  };
  StackSharing stack_sharing = StackSharing::Block;
  // What the CtaRunner issues beside a stack's top path on its idle lanes (cta_co_issue.cpp; in
  // timing mode the SM's secondary issue path, sim/sm_co_issue.cpp).
  enum class CoIssue : uint8_t {
    None,
    SiblingPath,           // sbi: the same warp's other path of an if/else
    SiblingOrOtherWarp,    // swi: that, or else another warp's path at another PC
  };
  CoIssue co_issue = CoIssue::None;
};

using DivergenceUnitFactory = std::unique_ptr<DivergenceUnit> (*)(const DivergenceOptions& options);
using DivergenceUnitInfo = policy::Entry<DivergenceUnitFactory, DivergenceTraits>;

// The registered units, in the order error messages list them (an immutable table,
// func/divergence/registry.cpp; shape: policy/policy_registry.h).
std::span<const DivergenceUnitInfo> divergence_units();

// The names make_divergence_unit knows, in the order error messages list them.
const std::vector<std::string>& divergence_unit_names();

// The entry of the unit called `name`; throws std::invalid_argument listing the known names.
const DivergenceUnitInfo& divergence_unit(std::string_view name);

// Known units by name; throws std::invalid_argument listing the known names.
std::unique_ptr<DivergenceUnit> make_divergence_unit(const DivergenceOptions& options);

}  // namespace lockstep::func
