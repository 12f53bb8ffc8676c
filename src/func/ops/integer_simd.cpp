// Packed integer forms: add/sub/min/max on .u16x2/.s16x2 (min/max .relu on .s16x2), the dot
// products dp4a/dp2a, and the SIMD video instructions vadd4 vsub4 vavrg4 vabsdiff4 vmin4 vmax4
// (and their two-way vop2 forms) with the default selectors: a's elements against b's, every
// element in the mask. Operand selectors (.b3210 on an operand) are not represented in the IR.
#include <algorithm>

#include "func/ops/integer_common.h"
#include "func/ops/integer_ops.h"

namespace lockstep::func::integer {
namespace {

// ---- 16x2 ------------------------------------------------------------------------------

enum class X2Op : uint8_t { Add, Sub, Min, Max, MinRelu, MaxRelu };

template <class H, X2Op Op>
uint32_t half_op(uint32_t a, uint32_t b) {
  uint32_t d = 0;
  for (unsigned i = 0; i < 2; ++i) {
    const auto x = static_cast<H>(a >> (16 * i));
    const auto y = static_cast<H>(b >> (16 * i));
    int32_t r = 0;
    if constexpr (Op == X2Op::Add)
      r = int32_t{x} + int32_t{y};
    else if constexpr (Op == X2Op::Sub)
      r = int32_t{x} - int32_t{y};
    else if constexpr (Op == X2Op::Min || Op == X2Op::MinRelu)
      r = std::min<int32_t>(x, y);
    else
      r = std::max<int32_t>(x, y);
    if constexpr (Op == X2Op::MinRelu || Op == X2Op::MaxRelu) r = std::max(r, 0);
    d |= (static_cast<uint32_t>(r) & 0xffffu) << (16 * i);
  }
  return d;
}

template <class H, X2Op Op>
struct HalfOp {
  static uint32_t apply(uint32_t a, uint32_t b) { return half_op<H, Op>(a, b); }
};

template <X2Op Op, X2Op ReluOp>
BindResult bind_x2(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.types.size() != 1 || (f.types[0] != "u16x2" && f.types[0] != "s16x2")) return std::nullopt;
  const bool is_signed = f.types[0] == "s16x2";
  Handler h = nullptr;
  if (f.flags.empty()) {
    h = is_signed ? &binary_h<uint32_t, HalfOp<int16_t, Op>>
                  : &binary_h<uint32_t, HalfOp<uint16_t, Op>>;
  } else if (ReluOp != Op && is_signed && f.flags == std::vector<std::string>{"relu"}) {
    h = &binary_h<uint32_t, HalfOp<int16_t, ReluOp>>;
  }
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 2);
}

// ---- dot products ----------------------------------------------------------------------

template <unsigned Bits>
int32_t element(uint32_t x, unsigned i, bool is_signed) {
  const uint32_t mask = (1u << Bits) - 1;
  const uint32_t v = (x >> (Bits * i)) & mask;
  if (is_signed && (v >> (Bits - 1)) != 0) return static_cast<int32_t>(v | ~mask);
  return static_cast<int32_t>(v);
}

// aux bit 0: a signed, bit 1: b signed, bit 2: dp2a .hi.
void dp4a_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  const bool as = in.aux & 1, bs = in.aux & 2;
  each_lane(w, [&](uint32_t l) {
    const auto x = get<uint32_t>(a[l]), y = get<uint32_t>(b[l]);
    uint32_t sum = get<uint32_t>(c[l]);
    for (unsigned i = 0; i < 4; ++i)
      sum += static_cast<uint32_t>(element<8>(x, i, as) * element<8>(y, i, bs));
    d[l] = sum;
  });
}

void dp2a_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  const bool as = in.aux & 1, bs = in.aux & 2;
  const unsigned first = (in.aux & 4) ? 2 : 0;
  each_lane(w, [&](uint32_t l) {
    const auto x = get<uint32_t>(a[l]), y = get<uint32_t>(b[l]);
    uint32_t sum = get<uint32_t>(c[l]);
    for (unsigned i = 0; i < 2; ++i)
      sum += static_cast<uint32_t>(element<16>(x, i, as) * element<8>(y, first + i, bs));
    d[l] = sum;
  });
}

// .u32/.s32 -> signedness, for the type list of dp4a/dp2a/video forms.
std::optional<bool> signed32(const std::string& t) {
  if (t == "s32") return true;
  if (t == "u32") return false;
  return std::nullopt;
}

// ---- video SIMD ------------------------------------------------------------------------

enum class VOp : uint8_t { Add, Sub, Avrg, AbsDiff, Min, Max };
// aux bits: 0 a signed, 1 b signed, 2 d signed, 3 .sat, 4 .add (accumulate)
template <unsigned N, VOp Op>
void video_h(const ExecInst& in, Warp& w) {
  constexpr unsigned kBits = 32 / N;
  constexpr uint32_t kMask = (1u << kBits) - 1;
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  const bool as = in.aux & 1, bs = in.aux & 2, ds = in.aux & 4, sat = in.aux & 8, acc = in.aux & 16;
  const int32_t lo = ds ? -(1 << (kBits - 1)) : 0;
  const int32_t hi = ds ? (1 << (kBits - 1)) - 1 : static_cast<int32_t>(kMask);
  each_lane(w, [&](uint32_t l) {
    const auto x = get<uint32_t>(a[l]), y = get<uint32_t>(b[l]), z = get<uint32_t>(c[l]);
    uint32_t result = acc ? z : 0;
    for (unsigned i = 0; i < N; ++i) {
      const int32_t va = element<kBits>(x, i, as), vb = element<kBits>(y, i, bs);
      int32_t t = 0;
      if constexpr (Op == VOp::Add)
        t = va + vb;
      else if constexpr (Op == VOp::Sub)
        t = va - vb;
      else if constexpr (Op == VOp::Avrg)
        t = (va + vb >= 0) ? (va + vb + 1) >> 1 : (va + vb) >> 1;
      else if constexpr (Op == VOp::AbsDiff)
        t = va > vb ? va - vb : vb - va;
      else if constexpr (Op == VOp::Min)
        t = std::min(va, vb);
      else
        t = std::max(va, vb);
      if (sat) t = std::clamp(t, lo, hi);
      if (acc)
        result += static_cast<uint32_t>(t);
      else
        result |= (static_cast<uint32_t>(t) & kMask) << (kBits * i);
    }
    d[l] = result;
  });
}

template <unsigned N>
Handler video_handler(std::string_view opcode) {
  const std::string_view base = opcode.substr(0, opcode.size() - 1);  // drop the 4 / 2
  if (base == "vadd") return &video_h<N, VOp::Add>;
  if (base == "vsub") return &video_h<N, VOp::Sub>;
  if (base == "vavrg") return &video_h<N, VOp::Avrg>;
  if (base == "vabsdiff") return &video_h<N, VOp::AbsDiff>;
  if (base == "vmin") return &video_h<N, VOp::Min>;
  if (base == "vmax") return &video_h<N, VOp::Max>;
  return nullptr;
}

template <unsigned N>
BindResult bind_video(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  Handler h = nullptr;
  uint64_t aux = 0;
  if (f.types.size() == 3 && f.flags_within({"sat", "add"}) && f.flags.size() <= 1) {
    const auto ds = signed32(f.types[0]), as = signed32(f.types[1]), bs = signed32(f.types[2]);
    if (ds && as && bs) {
      h = video_handler<N>(inst.opcode);
      aux = (*as ? 1 : 0) | (*bs ? 2 : 0) | (*ds ? 4 : 0) | (f.has("sat") ? 8 : 0) |
            (f.has("add") ? 16 : 0);
    }
  }
  if (!h) ctx.unsupported(inst);
  ExecInst e = bind_regs(inst, ctx, h, 1, 3);
  e.aux = aux;
  return e;
}

}  // namespace

BindResult bind_add_x2(const ir::Instruction& inst, BindContext& ctx) {
  return bind_x2<X2Op::Add, X2Op::Add>(inst, ctx);
}
BindResult bind_sub_x2(const ir::Instruction& inst, BindContext& ctx) {
  return bind_x2<X2Op::Sub, X2Op::Sub>(inst, ctx);
}
BindResult bind_min_x2(const ir::Instruction& inst, BindContext& ctx) {
  return bind_x2<X2Op::Min, X2Op::MinRelu>(inst, ctx);
}
BindResult bind_max_x2(const ir::Instruction& inst, BindContext& ctx) {
  return bind_x2<X2Op::Max, X2Op::MaxRelu>(inst, ctx);
}

// dp4a.atype.btype d, a, b, c
BindResult bind_dp4a(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.types.size() != 2 || !f.flags.empty()) ctx.unsupported(inst);
  const auto as = signed32(f.types[0]), bs = signed32(f.types[1]);
  if (!as || !bs) ctx.unsupported(inst);
  ExecInst e = bind_regs(inst, ctx, &dp4a_h, 1, 3);
  e.aux = (*as ? 1 : 0) | (*bs ? 2 : 0);
  return e;
}

// dp2a.mode.atype.btype d, a, b, c with .mode = .lo / .hi (which half of b's bytes)
BindResult bind_dp2a(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  const std::string_view mode = f.pick({"lo", "hi"});
  if (f.types.size() != 2 || f.flags.size() != 1 || mode.empty()) ctx.unsupported(inst);
  const auto as = signed32(f.types[0]), bs = signed32(f.types[1]);
  if (!as || !bs) ctx.unsupported(inst);
  ExecInst e = bind_regs(inst, ctx, &dp2a_h, 1, 3);
  e.aux = (*as ? 1 : 0) | (*bs ? 2 : 0) | (mode == "hi" ? 4 : 0);
  return e;
}

BindResult bind_video4(const ir::Instruction& inst, BindContext& ctx) {
  return bind_video<4>(inst, ctx);
}
BindResult bind_video2(const ir::Instruction& inst, BindContext& ctx) {
  return bind_video<2>(inst, ctx);
}

}  // namespace lockstep::func::integer
