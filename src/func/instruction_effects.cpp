#include "func/instruction_effects.h"

#include <string_view>

#include "func/ops/device_calls.h"

namespace lockstep::func {

namespace {

bool has_modifier_starting(const ir::Instruction& inst, std::string_view prefix) {
  for (const std::string& m : inst.modifiers)
    if (std::string_view(m).starts_with(prefix)) return true;
  return false;
}

bool has_modifier(const ir::Instruction& inst, std::string_view name) {
  for (const std::string& m : inst.modifiers)
    if (m == name) return true;
  return false;
}

}  // namespace

bool may_write_global(const ir::Instruction& inst) {
  const std::string& op = inst.opcode;
  if (op == "st" || op == "atom" || op == "red")
    return !has_modifier_starting(inst, "shared") && !has_modifier(inst, "local") && !has_modifier(inst, "param");
  if (op == "wmma") return has_modifier(inst, "store");
  if (op == "cp") return !has_modifier(inst, "mbarrier");  // cp.async.mbarrier.arrive: shared only
  return op == "multimem" || op == "sust" || op == "sured" || op == "suatom" || op == "tensormap";
}

namespace {

// The extern function `inst` calls, or null.
const ir::Function* extern_callee(const ir::KernelProgram& program, const ir::Instruction& inst) {
  if (inst.opcode != "call") return nullptr;
  for (const ir::Operand& op : inst.operands) {
    if (op.kind != ir::Operand::Kind::Symbol || op.symbol.space != ir::SymbolSpace::Function) continue;
    if (op.symbol.value >= program.functions.size()) return nullptr;
    const ir::Function& callee = program.functions[op.symbol.value];
    return callee.is_extern ? &callee : nullptr;
  }
  return nullptr;
}

bool calls_shared_service(const ir::Function* callee) {
  return callee != nullptr &&
         (callee->name == "malloc" || callee->name == "free" || is_device_runtime_call(callee->name));
}

}  // namespace

bool calls_launch_service(const ir::KernelProgram& program, const ir::Instruction& inst) {
  const ir::Function* callee = extern_callee(program, inst);
  return calls_shared_service(callee) || (callee != nullptr && callee->name == "vprintf");
}

bool changes_launch_state(const ir::KernelProgram& program, const ir::Instruction& inst) {
  return may_write_global(inst) || calls_shared_service(extern_callee(program, inst));
}

std::vector<uint8_t> launch_effect_flags(const BoundKernel& kernel) {
  std::vector<uint8_t> flags(kernel.code.size(), 0);
  for (size_t pc = 0; pc < flags.size(); ++pc)
    flags[pc] = changes_launch_state(*kernel.program, kernel.program->code[pc]) ? 1 : 0;
  return flags;
}

std::vector<uint8_t> global_write_flags(const BoundKernel& kernel) {
  std::vector<uint8_t> flags(kernel.code.size(), 0);
  for (size_t pc = 0; pc < flags.size(); ++pc) flags[pc] = may_write_global(kernel.program->code[pc]) ? 1 : 0;
  return flags;
}

bool shares_memory(const ir::Instruction& inst) {
  const std::string& op = inst.opcode;
  const bool private_space = has_modifier(inst, "local") || has_modifier(inst, "param") ||
                             has_modifier_starting(inst, "const");
  if (op == "ld" || op == "ldu" || op == "st" || op == "atom" || op == "red") return !private_space;
  if (op == "wmma") return has_modifier(inst, "load") || has_modifier(inst, "store");
  return op == "cp" || op == "mbarrier" || op == "ldmatrix" || op == "stmatrix";
}

std::vector<uint8_t> shared_memory_flags(const BoundKernel& kernel) {
  std::vector<uint8_t> flags(kernel.code.size(), 0);
  for (size_t pc = 0; pc < flags.size(); ++pc) flags[pc] = shares_memory(kernel.program->code[pc]) ? 1 : 0;
  return flags;
}

}  // namespace lockstep::func
