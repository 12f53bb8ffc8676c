// Reconvergence points: per function, basic blocks over the flat code, the CFG with the
// function's synthetic exit as the virtual exit node, and the immediate post-dominator of each
// conditional branch's block.
#include <algorithm>

#include "ir/kernel_lowering.h"
#include "ir/postdom.h"

namespace lockstep::ir {

namespace {

bool is_branch(const Instruction& inst) {
  return inst.decoded.opcode == Opcode::Bra || inst.decoded.opcode == Opcode::Ret;
}
bool ends_thread(const Instruction& inst) {
  return inst.decoded.opcode == Opcode::Exit || inst.decoded.opcode == Opcode::Trap;
}

void function_reconvergence(KernelProgram& program, const Function& f) {
  const Pc first = f.entry, last = f.exit;  // last is the synthetic exit
  std::vector<uint8_t> leader(last - first + 1, 0);
  leader[0] = 1;
  leader[last - first] = 1;
  for (Pc pc = first; pc < last; ++pc) {
    const Instruction& inst = program.code[pc];
    if (is_branch(inst) || ends_thread(inst)) {
      if (inst.target != kNoPc && inst.target >= first && inst.target <= last)
        leader[inst.target - first] = 1;
      leader[pc + 1 - first] = 1;
    }
  }
  std::vector<uint32_t> block_of(last - first + 1);
  std::vector<Pc> block_start;
  for (Pc pc = first; pc <= last; ++pc) {
    if (leader[pc - first]) block_start.push_back(pc);
    block_of[pc - first] = static_cast<uint32_t>(block_start.size() - 1);
  }
  const auto blocks = static_cast<uint32_t>(block_start.size());
  Cfg cfg;
  cfg.successors.resize(blocks);
  cfg.exit_node = blocks - 1;  // the synthetic exit is alone in the last block
  for (uint32_t b = 0; b + 1 < blocks; ++b) {
    const Pc end = block_start[b + 1] - 1;  // last instruction of the block
    const Instruction& inst = program.code[end];
    auto& succ = cfg.successors[b];
    const bool conditional = inst.has_guard;
    if (is_branch(inst)) {
      if (inst.target != kNoPc) succ.push_back(block_of[inst.target - first]);
      if (conditional) succ.push_back(b + 1);
    } else if (ends_thread(inst)) {
      succ.push_back(cfg.exit_node);
      if (conditional) succ.push_back(b + 1);
    } else {
      succ.push_back(b + 1);
    }
    std::sort(succ.begin(), succ.end());
    succ.erase(std::unique(succ.begin(), succ.end()), succ.end());
  }
  const std::vector<uint32_t> ipdom = immediate_post_dominators(cfg);
  for (uint32_t b = 0; b + 1 < blocks; ++b) {
    const Pc end = block_start[b + 1] - 1;
    Instruction& inst = program.code[end];
    if (!is_branch(inst) || !inst.has_guard) continue;
    // A block that cannot reach the exit (an endless loop) reconverges at the exit.
    inst.reconverge = ipdom[b] == kNoNode ? last : block_start[ipdom[b]];
  }
}

}  // namespace

void compute_reconvergence(KernelProgram& program) {
  for (const Function& f : program.functions)
    if (!f.is_extern) function_reconvergence(program, f);
}

}  // namespace lockstep::ir
