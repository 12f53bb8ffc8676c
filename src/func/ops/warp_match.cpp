// match.any.sync.{b32,b64} d, a, membermask and match.all.sync.{b32,b64} d[|p], a, membermask
// (the modifier order match.sync.any is accepted too). The threads compared are the executing
// lanes of membermask in the lane's 32-lane group (see warp_vote.cpp: under branch-barrier every
// non-exited lane of membermask, which execute() waits for; under the stack units the path's).
//   any: d = the lanes among them whose a equals this lane's a
//   all: d = all of them and p = true when every a is equal; else d = 0 and p = false
#include <bit>

#include "func/ops/warp_binders.h"
#include "func/ops/warp_common.h"
#include "func/warp.h"

namespace lockstep::func::warp_ops {

namespace {

template <class T, bool kAll, bool kHasPred>
void match_h(const ExecInst& in, Warp& w) {
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* member = w.r(in.s[1]);
  T value[64];
  for (uint32_t l = 0; l < w.width; ++l) value[l] = static_cast<T>(a[l]);
  uint64_t result[64];
  LaneMask all_equal = 0;
  for_each_lane(w.exec, [&](uint32_t lane) {
    const LaneMask voters = w.exec & group_mask(static_cast<uint32_t>(member[lane]), lane);
    if constexpr (kAll) {
      // Compared among the voters themselves, so a lane outside membermask (undefined in the
      // ISA) still sees the voters' verdict rather than a comparison with its own value.
      const T first = voters ? value[std::countr_zero(voters)] : value[lane];
      bool equal = true;
      for_each_lane(voters, [&](uint32_t other) { equal = equal && value[other] == first; });
      result[lane] = equal ? to_group(voters, lane) : 0;
      if (equal) all_equal |= LaneMask{1} << lane;
    } else {
      LaneMask same = 0;
      for_each_lane(voters, [&](uint32_t other) {
        if (value[other] == value[lane]) same |= LaneMask{1} << other;
      });
      result[lane] = to_group(same, lane);
    }
  });
  uint64_t* d = w.r(in.d[0]);
  for_each_lane(w.exec, [&](uint32_t lane) { d[lane] = result[lane]; });
  if constexpr (kHasPred) {
    LaneMask& p = w.p(in.d[1]);
    p = (p & ~w.exec) | all_equal;
  }
}

template <class T>
Handler pick(bool all, bool has_pred) {
  if (!all) return &match_h<T, false, false>;
  return has_pred ? &match_h<T, true, true> : &match_h<T, true, false>;
}

}  // namespace

std::optional<ExecInst> bind_match(const ir::Instruction& inst, BindContext& ctx) {
  const auto& m = inst.modifiers;
  if (m.size() != 3) ctx.unsupported(inst);
  std::string mode;
  if (m[0] == "sync") {
    mode = m[1];
  } else if (m[1] == "sync") {
    mode = m[0];
  } else {
    ctx.unsupported(inst);
  }
  const std::string& type = m[2];
  if ((mode != "any" && mode != "all") || (type != "b32" && type != "b64")) ctx.unsupported(inst);
  const bool all = mode == "all";
  ctx.expect_operands(inst, 3);
  const PairDest dest = split_pair(inst, inst.operands[0], ctx);
  const bool has_pred = dest.pred != nullptr;
  if (has_pred && !all)
    ctx.error(inst.operands[0], "'" + inst.form() + "' has no predicate destination");
  ExecInst e = make_exec(inst, type == "b32" ? pick<uint32_t>(all, has_pred)
                                             : pick<uint64_t>(all, has_pred));
  e.d[0] = ctx.slot(*dest.value);
  if (has_pred) e.d[1] = ctx.pred(*dest.pred);
  e.nd = has_pred ? 2 : 1;
  e.s[0] = value_slot(inst, 1, ctx);
  e.s[1] = value_slot(inst, 2, ctx);
  e.ns = 2;
  make_synced(e, WarpSyncKind::Collective, 1);
  return e;
}

}  // namespace lockstep::func::warp_ops
