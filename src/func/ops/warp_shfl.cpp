// shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask and the legacy shfl without .sync.
//
// Semantics follow the PTX ISA pseudo-code: with lane = laneid[4:0], bval = b[4:0],
// cval = c[4:0] (clamp) and segmask = c[12:8],
//   maxLane = (lane & segmask) | (cval & ~segmask),  minLane = lane & segmask
//   up:   j = lane - bval, in range iff j >= maxLane
//   down: j = lane + bval, in range iff j <= maxLane
//   bfly: j = lane ^ bval, in range iff j <= maxLane
//   idx:  j = minLane | (bval & ~segmask), in range iff j <= maxLane
// d = a of lane j when in range, else the thread's own a; p = in range. CUDA's
// __shfl_*_sync(mask, v, x, width) passes c = ((32 - width) << 8) | clamp (clamp 0 for up,
// width - 1 otherwise), which this general rule covers.
//
// Choices where the ISA says "unpredictable" or does not speak:
// - A source lane that is not executing the shfl (diverged, guarded off, or exited) supplies its
//   current register value; membermask never changes the data. It decides who executes: under
//   a unit with a PC per thread (branch-barrier) shfl.sync first brings membermask's threads
//   together (func/step.h, DivergenceUnit::sync_warp); under the stack units they are the
//   threads that happen to be on the path (the pre-Volta rule: the mask must be converged).
// - Warps of other widths use lane groups (warp_common.h). A computed source lane the warp does
//   not have (>= width) counts as out of range: d = own a, p = false.
#include "func/ops/warp_binders.h"
#include "func/ops/warp_common.h"
#include "func/warp.h"

namespace lockstep::func::warp_ops {

namespace {

enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };

template <ShflMode M, bool kHasPred>
void shfl_h(const ExecInst& in, Warp& w) {
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  // d may be the same register as a, b or c: read every lane's sources before writing.
  uint64_t source_value[64];
  uint32_t bval[64], cword[64];
  for (uint32_t l = 0; l < w.width; ++l) {
    source_value[l] = a[l] & 0xffffffffu;
    bval[l] = static_cast<uint32_t>(b[l]) & 31u;
    cword[l] = static_cast<uint32_t>(c[l]);
  }
  uint64_t* d = w.r(in.d[0]);
  LaneMask in_range = 0;
  for_each_lane(w.exec, [&](uint32_t lane) {
    const int32_t self = static_cast<int32_t>(lane & 31u);
    const int32_t clamp = static_cast<int32_t>(cword[lane] & 31u);
    const int32_t segmask = static_cast<int32_t>((cword[lane] >> 8) & 31u);
    const int32_t bv = static_cast<int32_t>(bval[lane]);
    const int32_t max_lane = (self & segmask) | (clamp & ~segmask);
    const int32_t min_lane = self & segmask;
    int32_t j = 0;
    bool ok = false;
    if constexpr (M == ShflMode::Up) {
      j = self - bv;
      ok = j >= max_lane;
    } else if constexpr (M == ShflMode::Down) {
      j = self + bv;
      ok = j <= max_lane;
    } else if constexpr (M == ShflMode::Bfly) {
      j = self ^ bv;
      ok = j <= max_lane;
    } else {
      j = min_lane | (bv & ~segmask);
      ok = j <= max_lane;
    }
    uint32_t source = lane;
    if (ok) {
      const uint32_t candidate = group_base(lane) + static_cast<uint32_t>(j);
      if (candidate < w.width) {
        source = candidate;
      } else {
        ok = false;
      }
    }
    d[lane] = source_value[source];
    if (ok) in_range |= LaneMask{1} << lane;
  });
  if constexpr (kHasPred) {
    LaneMask& p = w.p(in.d[1]);
    p = (p & ~w.exec) | in_range;
  }
}

template <ShflMode M>
Handler pick(bool has_pred) {
  return has_pred ? &shfl_h<M, true> : &shfl_h<M, false>;
}

}  // namespace

std::optional<ExecInst> bind_shfl(const ir::Instruction& inst, BindContext& ctx) {
  // shfl[.sync].mode.b32
  const auto& m = inst.modifiers;
  const bool sync = !m.empty() && m[0] == "sync";
  const size_t first = sync ? 1 : 0;
  if (m.size() != first + 2 || m[first + 1] != "b32") ctx.unsupported(inst);
  const std::string& mode = m[first];
  ctx.expect_operands(inst, sync ? 5 : 4);
  const PairDest dest = split_pair(inst, inst.operands[0], ctx);
  const bool has_pred = dest.pred != nullptr;
  Handler fn = nullptr;
  if (mode == "up") {
    fn = pick<ShflMode::Up>(has_pred);
  } else if (mode == "down") {
    fn = pick<ShflMode::Down>(has_pred);
  } else if (mode == "bfly") {
    fn = pick<ShflMode::Bfly>(has_pred);
  } else if (mode == "idx") {
    fn = pick<ShflMode::Idx>(has_pred);
  } else {
    ctx.unsupported(inst);
  }
  ExecInst e = make_exec(inst, fn);
  e.d[0] = ctx.slot(*dest.value);
  if (has_pred) e.d[1] = ctx.pred(*dest.pred);
  e.nd = has_pred ? 2 : 1;
  for (size_t i = 1; i < inst.operands.size(); ++i)
    e.s[i - 1] = value_slot(inst, i, ctx);  // a, b, c[, membermask]
  e.ns = static_cast<uint8_t>(inst.operands.size() - 1);
  if (sync) make_synced(e, WarpSyncKind::Collective, 3);
  return e;
}

}  // namespace lockstep::func::warp_ops
