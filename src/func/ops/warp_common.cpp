#include "func/ops/warp_common.h"

#include "func/divergence/divergence_unit.h"
#include "func/step.h"
#include "func/warp.h"

namespace lockstep::func::warp_ops {

namespace {
std::string operand_name(const ir::Instruction& inst, size_t index) {
  return "operand " + std::to_string(index) + " of '" + inst.form() + "'";
}
}  // namespace

PairDest split_pair(const ir::Instruction& inst, const ir::Operand& op, BindContext& ctx) {
  using K = ir::Operand::Kind;
  PairDest out;
  if (op.kind == K::Reg || op.kind == K::Sink) {
    out.value = &op;
    return out;
  }
  if (op.kind == K::Vector && op.is_pair && op.elements.size() == 2) {
    const ir::Operand& v = op.elements[0];
    const ir::Operand& p = op.elements[1];
    if (v.kind != K::Reg && v.kind != K::Sink)
      ctx.error(v, "the first part of the destination of '" + inst.form() +
                       "' must be a register or _");
    if (p.kind != K::Pred && p.kind != K::Sink)
      ctx.error(p, "the second part of the destination of '" + inst.form() +
                       "' must be a predicate or _");
    out.value = &v;
    out.pred = &p;
    return out;
  }
  ctx.error(op, "the destination of '" + inst.form() + "' must be a register or d|p");
}

uint32_t value_slot(const ir::Instruction& inst, size_t index, BindContext& ctx) {
  using K = ir::Operand::Kind;
  const ir::Operand& op = inst.operands[index];
  if (op.kind != K::Reg && op.kind != K::Imm && op.kind != K::Special)
    ctx.error(op, operand_name(inst, index) + " must be a register or immediate");
  return ctx.slot(op);
}

uint32_t dest_slot(const ir::Instruction& inst, size_t index, BindContext& ctx) {
  using K = ir::Operand::Kind;
  const ir::Operand& op = inst.operands[index];
  if (op.kind != K::Reg && op.kind != K::Sink)
    ctx.error(op, operand_name(inst, index) + " must be a register");
  return ctx.slot(op);
}

uint32_t pred_operand(const ir::Instruction& inst, size_t index, BindContext& ctx,
                      bool allow_negated, bool* negated) {
  const ir::Operand& op = inst.operands[index];
  if (op.kind != ir::Operand::Kind::Pred && op.kind != ir::Operand::Kind::Sink)
    ctx.error(op, operand_name(inst, index) + " must be a predicate");
  if (op.negated && !allow_negated)
    ctx.error(op, operand_name(inst, index) + " cannot be negated");
  if (negated != nullptr) *negated = op.negated;
  return ctx.pred(op);
}

}  // namespace lockstep::func::warp_ops

namespace lockstep::func {

// The members: the union of the executing lanes' membermasks, each in its lane's 32-lane group,
// live lanes only.
bool gather_members(const ExecInst& in, Warp& w) {
  const uint64_t* member = w.r(in.s[in.sync_member]);
  LaneMask members = 0;
  for_each_lane(w.exec, [&](uint32_t lane) {
    members |= warp_ops::group_mask(static_cast<uint32_t>(member[lane]), lane);
  });
  return w.divergence->sync_warp(w, members & w.live, in.warp_sync);
}

}  // namespace lockstep::func
