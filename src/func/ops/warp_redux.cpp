// redux.sync.{add,min,max}.{u32,s32}, redux.sync.{and,or,xor}.b32 and
// redux.sync.{min,max}{.abs}{.NaN}.f32 (sm_100a): d = the reduction of a over the executing
// lanes of membermask in the lane's 32-lane group (see warp_vote.cpp). .add wraps to 32 bits.
// f32 follows the ISA: +0.0 > -0.0; .abs reduces |a|; without .NaN only non-NaN inputs count
// and the result is the canonical NaN (0x7fffffff) when all are NaN; with .NaN any NaN input
// gives the canonical NaN.
#include <bit>
#include <cmath>

#include "func/ops/warp_binders.h"
#include "func/ops/warp_common.h"
#include "func/warp.h"

namespace lockstep::func::warp_ops {

namespace {

enum class ReduxOp : uint8_t { Add, Min, Max, And, Or, Xor };

template <ReduxOp Op, class T>
struct IntReduce {
  static uint32_t run(const uint64_t* a, LaneMask voters) {
    T acc{};
    bool first = true;
    for_each_lane(voters, [&](uint32_t l) {
      const T v = static_cast<T>(static_cast<uint32_t>(a[l]));
      if (first) {
        acc = v;
        first = false;
        return;
      }
      if constexpr (Op == ReduxOp::Add) acc = static_cast<T>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(v));
      if constexpr (Op == ReduxOp::Min) acc = v < acc ? v : acc;
      if constexpr (Op == ReduxOp::Max) acc = v > acc ? v : acc;
      if constexpr (Op == ReduxOp::And) acc = acc & v;
      if constexpr (Op == ReduxOp::Or) acc = acc | v;
      if constexpr (Op == ReduxOp::Xor) acc = acc ^ v;
    });
    return static_cast<uint32_t>(acc);
  }
};

constexpr uint32_t kCanonicalNaN = 0x7fffffffu;

// Orders f32 values with -0.0 below +0.0 (ordinary < treats them as equal).
inline bool less_f32(float x, float y) {
  if (x == y) return std::signbit(x) && !std::signbit(y);
  return x < y;
}

template <bool kMax, bool kAbs, bool kNaN>
struct FloatReduce {
  static uint32_t run(const uint64_t* a, LaneMask voters) {
    bool have = false;
    bool saw_nan = false;
    float acc = 0.0f;
    for_each_lane(voters, [&](uint32_t l) {
      uint32_t bits = static_cast<uint32_t>(a[l]);
      if (kAbs) bits &= 0x7fffffffu;
      const float v = std::bit_cast<float>(bits);
      if (std::isnan(v)) {
        saw_nan = true;
        return;
      }
      if (!have || (kMax ? less_f32(acc, v) : less_f32(v, acc))) acc = v;
      have = true;
    });
    if (!have || (kNaN && saw_nan)) return kCanonicalNaN;
    return std::bit_cast<uint32_t>(acc);
  }
};

template <class Reduce>
void redux_h(const ExecInst& in, Warp& w) {
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* member = w.r(in.s[1]);
  uint64_t result[64];
  // Lanes usually share one membermask: reuse the last reduction for the same voters.
  LaneMask last_voters = 0;
  uint32_t last = 0;
  bool cached = false;
  for_each_lane(w.exec, [&](uint32_t lane) {
    const LaneMask voters = w.exec & group_mask(static_cast<uint32_t>(member[lane]), lane);
    if (!cached || voters != last_voters) {
      last = Reduce::run(a, voters);
      last_voters = voters;
      cached = true;
    }
    result[lane] = last;
  });
  uint64_t* d = w.r(in.d[0]);
  for_each_lane(w.exec, [&](uint32_t lane) { d[lane] = result[lane]; });
}

Handler integer_handler(const std::string& op, const std::string& type) {
  if (type == "u32") {
    if (op == "add") return &redux_h<IntReduce<ReduxOp::Add, uint32_t>>;
    if (op == "min") return &redux_h<IntReduce<ReduxOp::Min, uint32_t>>;
    if (op == "max") return &redux_h<IntReduce<ReduxOp::Max, uint32_t>>;
  } else if (type == "s32") {
    if (op == "add") return &redux_h<IntReduce<ReduxOp::Add, int32_t>>;
    if (op == "min") return &redux_h<IntReduce<ReduxOp::Min, int32_t>>;
    if (op == "max") return &redux_h<IntReduce<ReduxOp::Max, int32_t>>;
  } else if (type == "b32") {
    if (op == "and") return &redux_h<IntReduce<ReduxOp::And, uint32_t>>;
    if (op == "or") return &redux_h<IntReduce<ReduxOp::Or, uint32_t>>;
    if (op == "xor") return &redux_h<IntReduce<ReduxOp::Xor, uint32_t>>;
  }
  return nullptr;
}

template <bool kMax>
Handler float_handler(bool abs, bool nan) {
  if (abs) return nan ? &redux_h<FloatReduce<kMax, true, true>> : &redux_h<FloatReduce<kMax, true, false>>;
  return nan ? &redux_h<FloatReduce<kMax, false, true>> : &redux_h<FloatReduce<kMax, false, false>>;
}

}  // namespace

std::optional<ExecInst> bind_redux(const ir::Instruction& inst, BindContext& ctx) {
  // redux.sync.op.type, or redux.sync.op{.abs}{.NaN}.f32
  const auto& m = inst.modifiers;
  if (m.size() < 3 || m[0] != "sync") ctx.unsupported(inst);
  const std::string& op = m[1];
  const std::string& type = m.back();
  Handler fn = nullptr;
  if (type == "f32") {
    bool abs = false, nan = false, bad = false;
    for (size_t i = 2; i + 1 < m.size(); ++i) {
      if (m[i] == "abs" && !abs && !nan) {
        abs = true;
      } else if (m[i] == "NaN" && !nan) {
        nan = true;
      } else {
        bad = true;
      }
    }
    if (!bad && op == "min") fn = float_handler<false>(abs, nan);
    if (!bad && op == "max") fn = float_handler<true>(abs, nan);
  } else if (m.size() == 3) {
    fn = integer_handler(op, type);
  }
  if (fn == nullptr) ctx.unsupported(inst);
  ctx.expect_operands(inst, 3);
  ExecInst e = make_exec(inst, fn);
  e.d[0] = dest_slot(inst, 0, ctx);
  e.nd = 1;
  e.s[0] = value_slot(inst, 1, ctx);
  e.s[1] = value_slot(inst, 2, ctx);
  e.ns = 2;
  make_synced(e, WarpSyncKind::Collective, 1);
  return e;
}

}  // namespace lockstep::func::warp_ops
