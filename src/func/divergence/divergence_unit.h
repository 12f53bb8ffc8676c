#pragma once
// How a warp handles divergent control flow. Instruction semantics never see this: only the
// control handlers (branches, calls, returns, exits) and the engine loop call it. The unit
// owns the warp's PC and active mask (Warp::pc, Warp::active) and the cached reconvergence
// PC (Warp::reconverge_at) that the engine compares against after every instruction.
#include <memory>
#include <string>
#include <vector>

#include "func/lanes.h"
#include "ir/program.h"

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
  // For deadlock reports: one line per pending path.
  virtual std::vector<std::string> describe() const = 0;
  // Entries the unit holds now (the timing model charges pushes and pops by its changes).
  virtual size_t depth() const = 0;
};

// Known units by name ("ipdom-stack"); throws std::invalid_argument listing the known names.
std::unique_ptr<DivergenceUnit> make_divergence_unit(const std::string& name);

}  // namespace lockstep::func
