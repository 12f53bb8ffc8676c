#include "func/instruction_effects.h"

#include "func/ops/device_calls.h"

namespace lockstep::func {

// The effects are decoded once per instruction by the lowering (ir/decoded_form.h), where the
// timing model reads them too.
bool may_write_global(const ir::Instruction& inst) { return inst.decoded.may_write_global; }

namespace {

// The extern function `inst` calls, or null.
const ir::Function* extern_callee(const ir::KernelProgram& program, const ir::Instruction& inst) {
  if (inst.decoded.opcode != ir::Opcode::Call) return nullptr;
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

bool shares_memory(const ir::Instruction& inst) { return inst.decoded.shares_memory; }

std::vector<uint8_t> shared_memory_flags(const BoundKernel& kernel) {
  std::vector<uint8_t> flags(kernel.code.size(), 0);
  for (size_t pc = 0; pc < flags.size(); ++pc) flags[pc] = shares_memory(kernel.program->code[pc]) ? 1 : 0;
  return flags;
}

}  // namespace lockstep::func
