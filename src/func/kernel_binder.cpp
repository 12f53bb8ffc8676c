#include "func/kernel_binder.h"

#include "func/instruction_effects.h"
#include "ptx/error.h"

namespace lockstep::func {

BoundKernel bind_kernel(const ir::KernelProgram& program, const OpTable& table,
                        std::function<uint64_t(uint32_t)> global_address, uint64_t function_base,
                        size_t module_functions) {
  if (const auto& e = program.lowering_error) throw ptx::Error(e->file, e->loc, e->message);
  BoundKernel kernel;
  kernel.program = &program;
  kernel.function_base = function_base;
  kernel.function_by_ordinal.assign(module_functions, ~0u);
  for (uint32_t i = 0; i < program.functions.size(); ++i)
    kernel.function_by_ordinal.at(program.functions[i].module_ordinal) = i;
  kernel.slot_count = program.slot_count;
  kernel.pred_count = program.pred_count;
  kernel.code.reserve(program.code.size());
  BindContext ctx(kernel, program, std::move(global_address));
  for (ir::Pc pc = 0; pc < program.code.size(); ++pc) {
    ExecInst e = table.bind(program.code[pc], ctx);
    e.pc = pc;
    kernel.code.push_back(e);
  }
  kernel.turn_ends = shared_memory_flags(kernel);
  kernel.launch_effects = launch_effect_flags(kernel);
  return kernel;
}

}  // namespace lockstep::func
