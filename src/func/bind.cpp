#include "func/bind.h"

#include "ptx/error.h"

namespace lockstep::func {

uint32_t BindContext::constant(uint64_t value) {
  auto [it, inserted] = constant_slots_.emplace(value, kernel_.slot_count);
  if (inserted) {
    kernel_.constants.push_back({kernel_.slot_count, value});
    ++kernel_.slot_count;
  }
  return it->second;
}

uint32_t BindContext::scratch() {
  if (scratch_slot_ == ~0u) scratch_slot_ = kernel_.slot_count++;
  return scratch_slot_;
}

uint32_t BindContext::carry_slot() {
  if (carry_slot_ == ~0u) carry_slot_ = kernel_.slot_count++;
  return carry_slot_;
}

uint32_t BindContext::slot(const ir::Operand& op) {
  using K = ir::Operand::Kind;
  switch (op.kind) {
    case K::Reg:
      return op.index;
    case K::Imm:
      return constant(op.imm);
    case K::Sink:
      return scratch();
    case K::Special: {
      if (ir::is_dynamic(op.special))
        error(op, "special register cannot be used here; only mov reads clocks and timers");
      const auto key = std::make_pair(static_cast<int>(op.special), op.index);
      auto [it, inserted] = special_slots_.emplace(key, kernel_.slot_count);
      if (inserted) {
        kernel_.specials.push_back({kernel_.slot_count, op.special, op.index});
        ++kernel_.slot_count;
      }
      return it->second;
    }
    case K::Symbol:
      if (op.symbol.space == ir::SymbolSpace::Global) return constant(global_address(op.symbol));
      if (op.symbol.space == ir::SymbolSpace::Shared) return constant(op.symbol.value);
      // A kernel parameter's address in the param space is its offset in the launch's parameter
      // buffer: ld.param [reg] reads there, cvta.param maps it into kParamWindow.
      if (op.symbol.space == ir::SymbolSpace::KernelParam) return constant(op.symbol.value);
      if (op.symbol.space == ir::SymbolSpace::Function) {
        const ir::Function& f = program_.functions.at(op.symbol.value);
        return constant(kernel_.function_base + 16 * uint64_t{f.module_ordinal});
      }
      error(op, "symbol '" + op.symbol.name + "' cannot be used as a value here");
    default:
      error(op, "expected a register or immediate");
  }
}

uint32_t BindContext::pred(const ir::Operand& op) {
  if (op.kind == ir::Operand::Kind::Pred) return op.index;
  if (op.kind == ir::Operand::Kind::Sink) {
    // One scratch predicate after the program's own.
    if (kernel_.pred_count == program_.pred_count) ++kernel_.pred_count;
    return program_.pred_count;
  }
  error(op, "expected a predicate register");
}

uint32_t BindContext::table(std::vector<uint32_t> values) {
  kernel_.tables.push_back(std::move(values));
  return static_cast<uint32_t>(kernel_.tables.size() - 1);
}

void BindContext::error(const ir::Instruction& inst, const std::string& message) const {
  throw ptx::Error(program_.file, inst.loc, message);
}

void BindContext::error(const ir::Operand& op, const std::string& message) const {
  throw ptx::Error(program_.file, op.loc, message);
}

void BindContext::unsupported(const ir::Instruction& inst) const {
  throw ptx::Error(program_.file, inst.loc,
                   "unsupported PTX instruction '" + inst.form() + "' at " + program_.file + ":" +
                       std::to_string(inst.loc.line));
}

void BindContext::expect_operands(const ir::Instruction& inst, size_t n) const {
  if (inst.operands.size() != n)
    error(inst, "expected " + std::to_string(n) + " operand" + (n == 1 ? "" : "s") + " for '" +
                    inst.form() + "', got " + std::to_string(inst.operands.size()));
}

ExecInst make_exec(const ir::Instruction& inst, Handler fn) {
  ExecInst e;
  e.fn = fn;
  e.has_guard = inst.has_guard;
  e.guard = inst.guard;
  e.guard_negated = inst.guard_negated;
  e.target = inst.target;
  e.reconverge = inst.reconverge;
  return e;
}

ExecInst OpTable::bind(const ir::Instruction& inst, BindContext& ctx) const {
  auto it = binders_.find(inst.opcode);
  if (it != binders_.end()) {
    for (Binder b : it->second) {
      if (auto e = b(inst, ctx)) return *e;
    }
  }
  ctx.unsupported(inst);
}

const OpTable& default_op_table() {
  static const OpTable table = [] {
    OpTable t;
    register_cluster_ops(t);  // before control: it claims barrier.cluster.*
    register_control_ops(t);
    register_move_ops(t);
    register_integer_ops(t);
    register_float_ops(t);
    register_memory_ops(t);
    register_warp_ops(t);
    register_tensor_ops(t);
    register_texture_ops(t);
    return t;
  }();
  return table;
}

}  // namespace lockstep::func
