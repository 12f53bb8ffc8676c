#include "func/ops/tensor_common.h"

namespace lockstep::func::tensor {

AddressOperand bind_address(const ir::Instruction& inst, size_t index, BindContext& ctx) {
  const ir::Operand& op = inst.operands[index];
  if (op.kind != ir::Operand::Kind::Address)
    ctx.error(op, "operand " + std::to_string(index) + " of '" + inst.form() +
                      "' must be an address");
  AddressOperand a;
  a.offset = op.offset;
  if (op.base_is_reg) {
    a.base = op.index;
  } else if (op.has_symbol) {
    if (op.symbol.space == ir::SymbolSpace::Global) {
      a.base = ctx.constant(ctx.global_address(op.symbol));
    } else if (op.symbol.space == ir::SymbolSpace::Shared) {
      a.base = ctx.constant(op.symbol.value);
    } else {
      ctx.error(op, "symbol '" + op.symbol.name + "' cannot be the address of '" + inst.form() +
                        "'");
    }
  } else {
    a.base = ctx.constant(0);
  }
  return a;
}

std::vector<uint32_t> vector_slots(const ir::Instruction& inst, size_t index, size_t count,
                                   const char* what, BindContext& ctx) {
  const ir::Operand& op = inst.operands[index];
  const std::string name = "operand " + std::to_string(index) + " of '" + inst.form() + "'";
  if (op.kind != ir::Operand::Kind::Vector || op.is_pair)
    ctx.error(op, name + " must be a vector of " + std::to_string(count) + " registers (" + what +
                      ")");
  if (op.elements.size() != count)
    ctx.error(op, name + " must have " + std::to_string(count) + " registers (" + what +
                      "), got " + std::to_string(op.elements.size()));
  std::vector<uint32_t> slots;
  for (const ir::Operand& e : op.elements) {
    if (e.kind != ir::Operand::Kind::Reg && e.kind != ir::Operand::Kind::Sink)
      ctx.error(e, name + " must hold registers only");
    slots.push_back(ctx.slot(e));
  }
  return slots;
}

void require_whole_warp(Warp& w, const char* what) {
  if (w.width != 32) {
    const uint32_t lane = w.exec ? static_cast<uint32_t>(std::countr_zero(w.exec)) : 0;
    w.fault(FaultKind::Unsupported, lane, 0, 0, "",
            std::string(what) + " needs a 32-lane warp; this engine runs " +
                std::to_string(w.width) + "-lane warps");
  }
  if (w.exec != full_mask(32)) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(~w.exec & full_mask(32)));
    w.fault(FaultKind::Unsupported, lane, 0, 0, "",
            std::string(what) +
                " must be executed by all 32 lanes of the warp together (.sync.aligned); lane " +
                std::to_string(lane) + " is not executing it");
  }
}

}  // namespace lockstep::func::tensor
