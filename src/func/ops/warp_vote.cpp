// vote (sync and legacy), activemask, bar.warp.sync and elect.sync.
//
// The threads taking part in a warp-wide vote are the lanes executing the instruction (w.exec:
// the current path AND the guard) that are in membermask, within the executing lane's 32-lane
// group (warp_common.h). The ISA asks every non-exited thread of membermask to execute the same
// .sync instruction. Under a unit with a PC per thread (branch-barrier, sm_70+ rules) execute()
// first waits for them (func/step.h, DivergenceUnit::sync_warp), so they are all executing; the
// stack units keep the pre-Volta rule (the mask must be converged, otherwise undefined), and
// lanes on another path simply do not contribute. Legacy forms without .sync use all executing
// lanes and wait for nobody.
#include <vector>
#include <bit>

#include "func/ops/warp_binders.h"
#include "func/ops/warp_common.h"
#include "func/warp.h"

namespace lockstep::func::warp_ops {

namespace {

enum class VoteMode : uint8_t { All, Any, Uni, Ballot };

// The lanes that vote together with `lane`: executing lanes of its group named in membermask.
inline LaneMask voters(const Warp& w, uint64_t member, uint32_t lane) {
  return w.exec & group_mask(static_cast<uint32_t>(member), lane);
}

// in.s[0]: source predicate index; in.aux: 1 when it is written !a; in.s[1]: membermask slot.
template <VoteMode M>
void vote_h(const ExecInst& in, Warp& w) {
  const LaneMask a = w.p(in.s[0]) ^ (in.aux ? ~LaneMask{0} : LaneMask{0});
  const uint64_t* member = w.r(in.s[1]);
  if constexpr (M == VoteMode::Ballot) {
    uint64_t* d = w.r(in.d[0]);
    for_each_lane(w.exec, [&](uint32_t lane) {
      d[lane] = to_group(a & voters(w, member[lane], lane), lane);
    });
  } else {
    LaneMask result = 0;
    for_each_lane(w.exec, [&](uint32_t lane) {
      const LaneMask v = voters(w, member[lane], lane);
      const LaneMask yes = a & v;
      bool r = false;
      if constexpr (M == VoteMode::All) r = yes == v;
      if constexpr (M == VoteMode::Any) r = yes != 0;
      if constexpr (M == VoteMode::Uni) r = yes == 0 || yes == v;
      if (r) result |= LaneMask{1} << lane;
    });
    LaneMask& d = w.p(in.d[0]);
    d = (d & ~w.exec) | result;
  }
}

void activemask_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  for_each_lane(w.exec, [&](uint32_t lane) { d[lane] = to_group(w.exec, lane); });
}

// bar.warp.sync: the waiting is execute()'s (WarpSyncKind::Barrier): under branch-barrier the
// group waits until every non-exited thread of membermask has executed a bar.warp.sync with
// that mask, at any PC. Once it goes on there is nothing left to do: memory ordering among the
// lanes of one warp is already program order. Under the stack units the lanes on the path go on
// at once (waiting for lanes on another path of the stack would deadlock).
void bar_warp_sync_h(const ExecInst&, Warp&) {}

// elect.sync d|p, membermask: the leader is the lowest executing lane of membermask in the
// lane's group; d = its laneid within the group, p = (this lane is the leader). A lane that
// is not itself in membermask (undefined in the ISA) gets the leader of the lanes that are, or
// p = false and d = 0 when none is.
template <bool kHasPred>
void elect_h(const ExecInst& in, Warp& w) {
  const uint64_t* member = w.r(in.s[0]);
  uint64_t leader_of[64];
  LaneMask leaders = 0;
  for_each_lane(w.exec, [&](uint32_t lane) {
    const LaneMask v = voters(w, member[lane], lane);
    if (v == 0) {
      leader_of[lane] = 0;
      return;
    }
    const uint32_t leader = static_cast<uint32_t>(std::countr_zero(v));
    leader_of[lane] = leader - group_base(lane);
    if (leader == lane) leaders |= LaneMask{1} << lane;
  });
  uint64_t* d = w.r(in.d[0]);
  for_each_lane(w.exec, [&](uint32_t lane) { d[lane] = leader_of[lane]; });
  if constexpr (kHasPred) {
    LaneMask& p = w.p(in.d[1]);
    p = (p & ~w.exec) | leaders;
  }
}

}  // namespace

std::optional<ExecInst> bind_vote(const ir::Instruction& inst, BindContext& ctx) {
  // vote[.sync].{all,any,uni}.pred d, {!}a[, membermask]; vote[.sync].ballot.b32 d, {!}a[, m].
  // ptxas also accepts .sync after the mode (vote.ballot.sync.b32, written by CUB's inline asm).
  std::vector<std::string> m = inst.modifiers;
  bool sync = false;
  for (auto it = m.begin(); it != m.end(); ++it) {
    if (*it == "sync" && it - m.begin() <= 1) {
      sync = true;
      m.erase(it);
      break;
    }
  }
  if (m.size() != 2) ctx.unsupported(inst);
  const std::string& mode = m[0];
  const std::string& type = m[1];
  Handler fn = nullptr;
  const bool ballot = mode == "ballot";
  if (ballot && type == "b32") {
    fn = &vote_h<VoteMode::Ballot>;
  } else if (type == "pred" && mode == "all") {
    fn = &vote_h<VoteMode::All>;
  } else if (type == "pred" && mode == "any") {
    fn = &vote_h<VoteMode::Any>;
  } else if (type == "pred" && mode == "uni") {
    fn = &vote_h<VoteMode::Uni>;
  } else {
    ctx.unsupported(inst);
  }
  ctx.expect_operands(inst, sync ? 3 : 2);
  ExecInst e = make_exec(inst, fn);
  e.d[0] = ballot ? dest_slot(inst, 0, ctx) : pred_operand(inst, 0, ctx, false, nullptr);
  e.nd = 1;
  bool negated = false;
  e.s[0] = pred_operand(inst, 1, ctx, true, &negated);
  e.aux = negated ? 1 : 0;
  e.s[1] = sync ? value_slot(inst, 2, ctx) : ctx.constant(0xffffffffu);
  e.ns = 2;
  if (sync) make_synced(e, WarpSyncKind::Collective, 1);
  return e;
}

std::optional<ExecInst> bind_activemask(const ir::Instruction& inst, BindContext& ctx) {
  if (inst.modifiers.size() != 1 || inst.modifiers[0] != "b32") ctx.unsupported(inst);
  ctx.expect_operands(inst, 1);
  ExecInst e = make_exec(inst, &activemask_h);
  e.d[0] = dest_slot(inst, 0, ctx);
  e.nd = 1;
  return e;
}

std::optional<ExecInst> bind_bar_warp(const ir::Instruction& inst, BindContext& ctx) {
  const auto& m = inst.modifiers;
  if (m.size() != 2 || m[0] != "warp" || m[1] != "sync") return std::nullopt;  // control's bar
  ctx.expect_operands(inst, 1);
  ExecInst e = make_exec(inst, &bar_warp_sync_h);
  e.s[0] = value_slot(inst, 0, ctx);  // membermask
  e.ns = 1;
  make_synced(e, WarpSyncKind::Barrier, 0);
  return e;
}

std::optional<ExecInst> bind_elect(const ir::Instruction& inst, BindContext& ctx) {
  if (inst.modifiers.size() != 1 || inst.modifiers[0] != "sync") ctx.unsupported(inst);
  ctx.expect_operands(inst, 2);
  const PairDest dest = split_pair(inst, inst.operands[0], ctx);
  const bool has_pred = dest.pred != nullptr;
  ExecInst e = make_exec(inst, has_pred ? &elect_h<true> : &elect_h<false>);
  e.d[0] = ctx.slot(*dest.value);
  if (has_pred) e.d[1] = ctx.pred(*dest.pred);
  e.nd = has_pred ? 2 : 1;
  e.s[0] = value_slot(inst, 1, ctx);
  e.ns = 1;
  make_synced(e, WarpSyncKind::Collective, 0);
  return e;
}

}  // namespace lockstep::func::warp_ops
