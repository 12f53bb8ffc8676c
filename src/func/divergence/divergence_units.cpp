// The registry of divergence units: the one place that maps a name (sm.divergence) to a unit.
#include <stdexcept>

#include "func/divergence/divergence_unit.h"
#include "func/divergence/unit_factories.h"
#include "func/warp.h"

namespace lockstep::func {

void DivergenceUnit::set_aside(Warp& warp, LaneMask lanes, ir::Pc at) {
  branch(warp, lanes, at, warp.pc, warp.pc);
}

const std::vector<std::string>& divergence_unit_names() {
  static const std::vector<std::string> names = {"ipdom-stack", "branch-barrier", "thread-frontier", "dwf",
                                                 "tbc",         "large-warp",     "sbi",             "swi"};
  return names;
}

std::unique_ptr<DivergenceUnit> make_divergence_unit(const DivergenceOptions& options) {
  if (options.name == "ipdom-stack") return make_ipdom_stack();
  if (options.name == "branch-barrier") return make_branch_barrier(options.yield_after);
  if (options.name == "thread-frontier") return make_thread_frontier();
  // The block-level units form warps across a block's warps (func/divergence/warp_formation.h,
  // CtaRunner). dwf keeps each home warp's threads' PCs in branch barriers (a PC per thread, no
  // stack). Under tbc the CtaRunner gives its warps views of its block-wide stack instead
  // (block_stack.h); a warp on its own is a one-warp block, whose block stack is the IPDOM stack.
  if (options.name == "dwf") return make_branch_barrier(options.yield_after);
  if (options.name == "tbc") return make_ipdom_stack();
  // large-warp is tbc with one stack per large warp instead of per block (fig 3-17).
  if (options.name == "large-warp") return make_ipdom_stack();
  // sbi and swi run each warp on a one-warp block stack (the SIMT stack) and co-issue its top's
  // sibling path, swi else another warp's (cta_co_issue.cpp).
  if (options.name == "sbi" || options.name == "swi") return make_ipdom_stack();
  std::string known;
  for (const std::string& n : divergence_unit_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown divergence unit '" + options.name + "'; known: " + known);
}

}  // namespace lockstep::func
