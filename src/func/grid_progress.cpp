#include "func/grid_progress.h"

#include <cstring>

#include "fmt/format.h"
#include "func/divergence/divergence_unit.h"

namespace lockstep::func {

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

bool StateHasher::add_memory(const DeviceMemory& memory, uint64_t limit) {
  if (memory.bytes_allocated() > limit) return false;
  for (const auto& [base, a] : memory.allocations()) {
    add(base);
    add_bytes(a.data(), a.mapped != 0 ? a.mapped : a.size);
  }
  return true;
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

namespace {

// What else the warp's divergence unit holds (paths waiting to reconverge, threads blocked or
// yielded): the lanes the running path keeps waiting.
std::string waiting_paths(const Warp& w) {
  if (w.divergence == nullptr || w.divergence->depth() <= 1) return {};
  std::string s = "; divergence:";
  for (const std::string& line : w.divergence->describe()) s += " [" + line + "]";
  return s;
}

}  // namespace

LaunchFault stuck_report(std::string detail, const std::vector<StuckBlock>& blocks, size_t* located, FaultKind kind) {
  constexpr size_t kMaxReportedWarps = 16;
  LaunchFault f;
  f.fault.kind = kind;
  f.fault.detail = std::move(detail);
  bool found = false;
  size_t stuck = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    for (const Warp& w : *blocks[b].warps) {
      if (w.status == Warp::Status::Exited) continue;
      const bool at_barrier = w.status == Warp::Status::AtBarrier;
      const ir::Pc pc = at_barrier ? w.barrier_pc : w.pc;
      if (!found) {
        *located = b;
        f.warp = w.warp_id;
        f.pc = pc;
        found = true;
      }
      if (++stuck > kMaxReportedWarps) continue;
      const uint32_t* id = blocks[b].cta->ctaid;
      f.warp_states.push_back(
          at_barrier ? fmt::format("block ({},{},{}) warp {}: pc {} active {:#x} waiting at barrier {}", id[0], id[1],
                                   id[2], w.warp_id, pc, w.active, w.barrier_id)
                     : fmt::format("block ({},{},{}) warp {}: pc {} active {:#x} running{}", id[0], id[1], id[2],
                                   w.warp_id, pc, w.active, waiting_paths(w)));
    }
  }
  if (stuck > kMaxReportedWarps)
    f.warp_states.push_back(fmt::format("... and {} more warps", stuck - kMaxReportedWarps));
  return f;
}

}  // namespace lockstep::func
