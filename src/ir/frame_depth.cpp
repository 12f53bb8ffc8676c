// Per-thread stack needs: the frame bytes along the deepest call chain of a kernel, and whether
// any function can re-enter itself (then the depth is unbounded and a fixed stack is used).
#include <algorithm>

#include "ir/kernel_lowering.h"

namespace lockstep::ir {

void compute_frame_depth(KernelProgram& program) {
  std::vector<std::vector<uint32_t>> callees(program.functions.size());
  for (const Instruction& inst : program.code) {
    if (inst.decoded.opcode != Opcode::Call) continue;
    for (const Operand& op : inst.operands)
      if (op.kind == Operand::Kind::Symbol && op.symbol.space == SymbolSpace::Function)
        callees[inst.function].push_back(static_cast<uint32_t>(op.symbol.value));
  }
  std::vector<int> state(program.functions.size(), 0);  // 0 new, 1 on stack, 2 done
  std::vector<uint32_t> depth(program.functions.size(), 0);
  auto visit = [&](auto&& self, uint32_t f) -> uint32_t {
    if (state[f] == 1) {
      program.recursive = true;
      return 0;
    }
    if (state[f] == 2) return depth[f];
    state[f] = 1;
    uint32_t deepest = 0;
    for (uint32_t c : callees[f]) deepest = std::max(deepest, self(self, c));
    state[f] = 2;
    depth[f] = program.functions[f].frame_size + deepest;
    return depth[f];
  };
  program.max_frame_depth_bytes = visit(visit, 0);
  // Calls through registers can reach anything, themselves included: size the stack as for
  // recursion.
  if (program.indirect_calls) program.recursive = true;
}

}  // namespace lockstep::ir
