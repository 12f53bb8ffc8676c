#include "func/grid_progress.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string_view>

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
  constexpr size_t kMaxLines = 16;
  LaunchFault f;
  f.fault.kind = kind;
  f.fault.detail = std::move(detail);
  struct StuckWarp {
    std::string who;    // "block (x,y,z) warp w"
    std::string state;  // PC, mask, wait, divergence
  };
  std::vector<StuckWarp> stuck;
  for (size_t b = 0; b < blocks.size(); ++b) {
    for (const Warp& w : *blocks[b].warps) {
      if (w.status == Warp::Status::Exited) continue;
      const bool at_barrier = w.status == Warp::Status::AtBarrier;
      const ir::Pc pc = at_barrier ? w.barrier_pc : w.pc;
      if (stuck.empty()) {
        *located = b;
        f.warp = w.warp_id;
        f.pc = pc;
      }
      const uint32_t* id = blocks[b].cta->ctaid;
      stuck.push_back({fmt::format("block ({},{},{}) warp {}", id[0], id[1], id[2], w.warp_id),
                       at_barrier ? fmt::format("pc {} active {:#x} waiting at barrier {}", pc, w.active, w.barrier_id)
                                  : fmt::format("pc {} active {:#x} running{}", pc, w.active, waiting_paths(w))});
    }
  }
  if (stuck.size() <= kMaxLines) {
    for (const StuckWarp& s : stuck) f.warp_states.push_back(s.who + ": " + s.state);
    return f;
  }
  // Too many to list: one line per state, named by its first warp, the rarest states first. In a
  // hang of thousands of warps, the few that are somewhere else (the one that never arrives) are
  // what the user needs to see.
  struct State {
    const StuckWarp* first;
    size_t warps = 0;
  };
  std::vector<State> states;
  std::map<std::string_view, size_t> index;
  for (const StuckWarp& s : stuck) {
    const auto [it, added] = index.emplace(s.state, states.size());
    if (added) states.push_back({&s, 0});
    ++states[it->second].warps;
  }
  std::stable_sort(states.begin(), states.end(), [](const State& a, const State& b) { return a.warps < b.warps; });
  size_t unlisted = 0;
  for (size_t i = 0; i < states.size(); ++i) {
    const State& s = states[i];
    if (i >= kMaxLines) {
      unlisted += s.warps;
    } else if (s.warps == 1) {
      f.warp_states.push_back(s.first->who + ": " + s.first->state);
    } else {
      f.warp_states.push_back(
          fmt::format("{}: {} (and {} more warps alike)", s.first->who, s.first->state, s.warps - 1));
    }
  }
  if (states.size() > kMaxLines)
    f.warp_states.push_back(
        fmt::format("... and {} more warps in {} other states", unlisted, states.size() - kMaxLines));
  return f;
}

}  // namespace lockstep::func
