// The registry of divergence units: the one place that maps a name (sm.divergence) to a unit.
// Same shape as the other policy kinds (policy/policy_registry.h); the entries stay in this file
// rather than one per unit file because the units share their constructors (dwf runs branch
// barriers per home warp, tbc an IPDOM stack per block).
#include <array>
#include <stdexcept>

#include "func/divergence/divergence_unit.h"
#include "func/divergence/unit_factories.h"
#include "func/warp.h"

namespace lockstep::func {

void DivergenceUnit::set_aside(Warp& warp, LaneMask lanes, ir::Pc at) {
  branch(warp, lanes, at, warp.pc, warp.pc);
}

namespace {

// DivergenceOptions::yield_after, read by the units built on branch barriers.
constexpr policy::Param kYieldAfter[] = {
    {"sm.yield_after", 64, 1, 1 << 20,
     "branch-barrier: backward branches a thread group takes in a row before it yields to the warp's other "
     "threads (ipdom-stack ignores it)"},
};

std::unique_ptr<DivergenceUnit> ipdom_stack(const DivergenceOptions&) { return make_ipdom_stack(); }
std::unique_ptr<DivergenceUnit> branch_barrier(const DivergenceOptions& o) { return make_branch_barrier(o.yield_after); }
std::unique_ptr<DivergenceUnit> thread_frontier(const DivergenceOptions&) { return make_thread_frontier(); }

// DivergenceOptions::large_warp_size, read by large-warp.
constexpr policy::Param kLargeWarpSize[] = {
    {"sm.large_warp_size", 4, 1, 64,
     "large-warp: consecutive warps of a block that make one large warp, run by one SIMT stack and issued as "
     "sub-warps compacted by lane (the other units ignore it)"},
};

}  // namespace

std::span<const DivergenceUnitInfo> divergence_units() {
  // The block-level units form warps across a block's warps (func/divergence/warp_formation.h,
  // CtaRunner). dwf keeps each home warp's threads' PCs in branch barriers (a PC per thread, no
  // stack). Under tbc the CtaRunner gives its warps views of its block-wide stack instead
  // (block_stack.h); a warp on its own is a one-warp block, whose block stack is the IPDOM stack.
  // Built once from constant data, never changed.
  static const std::array<DivergenceUnitInfo, 8> kTable{{
      {"ipdom-stack", "the SIMT stack: divergent paths run in turn and reconverge at the immediate post-dominator",
       {}, ipdom_stack},
      {"branch-barrier", "branch barriers with yield: a PC per thread (independent thread scheduling, cc 7.0+)",
       kYieldAfter, branch_barrier},
      {"thread-frontier", "thread frontiers: a PC per thread, the lowest PC first, paths merge at the first PC they share",
       {}, thread_frontier},
      {"dwf", "dynamic warp formation: warps formed by PC across a block's warps (functional mode only)",
       kYieldAfter, branch_barrier},
      {"tbc", "thread block compaction: a block-wide stack, warps compacted at divergence (functional mode only)",
       {}, ipdom_stack},
      // large-warp is tbc with one stack per large warp instead of per block (fig 3-17); sbi and
      // swi run each warp on a one-warp block stack and co-issue its top's sibling path, swi
      // else another warp's (cta_co_issue.cpp).
      {"large-warp", "large warps of sm.large_warp_size warps, one SIMT stack each, compacted sub-warps (functional mode only)",
       kLargeWarpSize, ipdom_stack},
      {"sbi", "simultaneous branch interweaving: an if/else's two paths of one warp issued together (functional mode only)",
       {}, ipdom_stack},
      {"swi", "sbi, or else another warp's path at another PC on the idle lanes (functional mode only)",
       {}, ipdom_stack},
  }};
  return kTable;
}

const std::vector<std::string>& divergence_unit_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const DivergenceUnitInfo& unit : divergence_units()) out.emplace_back(unit.name);
    return out;
  }();
  return names;
}

std::unique_ptr<DivergenceUnit> make_divergence_unit(const DivergenceOptions& options) {
  if (const DivergenceUnitInfo* unit = policy::find(divergence_units(), options.name)) return unit->make(options);
  throw std::invalid_argument("unknown divergence unit '" + options.name + "'; known: " +
                              policy::accepted(divergence_units()));
}

}  // namespace lockstep::func
