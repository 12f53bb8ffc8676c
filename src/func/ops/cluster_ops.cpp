// Thread-block clusters. The functional engine runs clusters of exactly one CTA (a kernel that
// asks for larger clusters is refused at launch), so a cluster barrier is a barrier over the
// CTA and mapa maps an address to CTA rank 0, i.e. to itself.
#include "func/bind.h"
#include "func/warp.h"

namespace lockstep::func {

namespace {

// The cluster barrier uses its own slot after the 16 named CTA barriers.
constexpr uint32_t kClusterBarrier = 16;

// barrier.cluster.arrive is folded into the matching wait: waiting until every thread of the
// cluster reaches the wait is stricter than waiting for their arrivals, and equivalent for
// programs that arrive and then wait (the only pattern nvcc emits: cg::cluster_group::sync).
void cluster_arrive_h(const ExecInst& in, Warp& w) { w.pc = in.pc + 1; }

void cluster_wait_h(const ExecInst& in, Warp& w) {
  w.pc = in.pc + 1;
  if (w.exec == 0) return;
  w.barrier_pc = in.pc;
  w.cta->barriers.arrive(*w.cta->warps, w, kClusterBarrier, 0, true, BarrierReduction::None, 0);
}

std::optional<ExecInst> bind_cluster_barrier(const ir::Instruction& inst, BindContext& ctx) {
  if (inst.modifiers.empty() || inst.modifiers[0] != "cluster") return std::nullopt;
  Handler fn = nullptr;
  for (size_t i = 1; i < inst.modifiers.size(); ++i) {
    const std::string& m = inst.modifiers[i];
    if (m == "arrive") fn = cluster_arrive_h;
    else if (m == "wait") fn = cluster_wait_h;
    else if (m != "aligned" && m != "relaxed" && m != "release" && m != "acquire") ctx.unsupported(inst);
  }
  if (fn == nullptr) ctx.unsupported(inst);
  ctx.expect_operands(inst, 0);
  ExecInst e = make_exec(inst, fn);
  e.is_control = true;
  return e;
}

// mapa d, a, rank: the address of `a`'s variable in the CTA of the given rank.
void mapa_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* rank = w.r(in.s[1]);
  for_each_lane(w.exec, [&](uint32_t l) {
    if (static_cast<uint32_t>(rank[l]) != 0)
      w.fault(FaultKind::Unsupported, l, a[l], 0, "shared", "mapa to CTA rank " +
              std::to_string(static_cast<uint32_t>(rank[l])) + " of a one-CTA cluster");
    d[l] = in.width == 4 ? static_cast<uint32_t>(a[l]) : a[l];
  });
}

std::optional<ExecInst> bind_mapa(const ir::Instruction& inst, BindContext& ctx) {
  uint8_t bytes = 0;
  for (const std::string& m : inst.modifiers) {
    if (m == "u32") bytes = 4;
    else if (m == "u64") bytes = 8;
    else if (m != "shared::cluster") ctx.unsupported(inst);
  }
  if (bytes == 0) ctx.unsupported(inst);
  ctx.expect_operands(inst, 3);
  ExecInst e = make_exec(inst, mapa_h);
  e.d[0] = ctx.slot(inst.operands[0]);
  e.s[0] = ctx.slot(inst.operands[1]);
  e.s[1] = ctx.slot(inst.operands[2]);
  e.width = bytes;
  return e;
}

}  // namespace

void register_cluster_ops(OpTable& t) {
  t.add("barrier", bind_cluster_barrier);
  t.add("mapa", bind_mapa);
}

}  // namespace lockstep::func
