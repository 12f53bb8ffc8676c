#include "func/grid_progress.h"

#include <cstring>
#include <string_view>

#include "func/divergence/divergence_unit.h"

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

bool may_write_global(const ir::Instruction& inst) {
  const std::string& op = inst.opcode;
  if (op == "st" || op == "atom" || op == "red")
    return !has_modifier_starting(inst, "shared") && !has_modifier(inst, "local") && !has_modifier(inst, "param");
  if (op == "wmma") return has_modifier(inst, "store");
  return op == "cp" || op == "multimem" || op == "sust" || op == "sured" || op == "suatom" || op == "tensormap";
}

}  // namespace

std::vector<uint8_t> global_write_flags(const BoundKernel& kernel) {
  std::vector<uint8_t> flags(kernel.code.size(), 0);
  for (size_t pc = 0; pc < flags.size(); ++pc) flags[pc] = may_write_global(kernel.program->code[pc]) ? 1 : 0;
  return flags;
}

void StateHasher::add_bytes(const uint8_t* bytes, size_t size) {
  add(size);
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t word = 0;
    std::memcpy(&word, bytes + i, 8);
    add(word);
  }
  if (i == size) return;
  uint64_t tail = 0;
  std::memcpy(&tail, bytes + i, size - i);
  add(tail);
}

void StateHasher::add_warp(const Warp& w, const BoundKernel& kernel) {
  add(static_cast<uint64_t>(w.status));
  if (w.status == Warp::Status::Exited) return;
  add(w.pc);
  add(w.active);
  add(w.live);
  add(w.reconverge_at);
  add(w.barrier_id);
  add(w.function);
  add(w.frame_base_);
  add(static_cast<uint64_t>(w.pending_reduction));
  add(w.reduction_dst);
  add(w.reduction_lanes);
  for (const CallFrame& c : w.calls) {
    add(c.return_pc);
    add(c.function);
    add(c.frame_base);
    add(c.saved_regs_at);
  }
  for (uint64_t v : w.saved_regs) add(v);
  for (const std::string& path : w.divergence->describe())
    add_bytes(reinterpret_cast<const uint8_t*>(path.data()), path.size());
  const size_t registers = static_cast<size_t>(kernel.slot_count) * w.width;
  for (size_t i = 0; i < registers; ++i) add(w.regs[i]);
  for (uint32_t i = 0; i < kernel.pred_count; ++i) add(w.preds[i]);
  add_bytes(w.local_memory.data(), w.local_memory.size());
}

void StateHasher::add_cta(const CtaState& cta) {
  add(cta.live_warps);
  for (const BarrierState& b : cta.barriers.state()) {
    add(b.arrived);
    add(b.expected);
    add(b.popc);
    add(b.all ? 1 : 0);
    add(b.any ? 1 : 0);
  }
  add_bytes(cta.shared.data(), cta.shared.size());
}

}  // namespace lockstep::func
