// abs, neg, min, max, copysign and testp on the float types.
// abs/neg of f32 and the half formats return the canonical NaN for a NaN input (the compiler
// implements them with the FADD datapath, which canonicalises); f64 abs/neg and copysign are
// pure sign-bit operations. min/max follow IEEE 754-2008 minNum/maxNum: a NaN operand yields
// the other operand, two NaNs the canonical NaN, and -0.0 orders below +0.0; .NaN returns the
// canonical NaN if either operand is NaN; .xorsign.abs compares magnitudes and gives the
// result the XOR of the operand signs. The three-input f32 form (min/max d, a, b, c with
// optional .abs) applies the two-input rule twice.
#include <cmath>
#include <optional>

#include "func/bind.h"
#include "func/ops/float_element.h"
#include "func/ops/float_family.h"
#include "func/ops/float_lanes.h"

namespace lockstep::func {
namespace {

using fp::Format;
using fp::Kind;
using fp::Mode;

inline constexpr uint64_t kF64CanonicalNaN = 0x7fffffffffffffffull;

// ---- abs / neg ---------------------------------------------------------------------------
template <bool Neg>
uint64_t sign_f32(uint64_t a, uint64_t aux) {
  uint32_t b = static_cast<uint32_t>(a);
  if (fp::is_nan(b, fp::kF32)) return fp::kF32CanonicalNaN;
  if (fp::unpack(aux).ftz) b = fp::flush_subnormal(b, fp::kF32);
  return Neg ? b ^ 0x80000000u : b & 0x7fffffffu;
}
template <bool Neg>
uint64_t sign_f64(uint64_t a, uint64_t) {
  return Neg ? a ^ 0x8000000000000000ull : a & 0x7fffffffffffffffull;
}
template <bool Neg, bool Bf16>
uint64_t sign_half(uint64_t a, uint64_t aux) {
  constexpr Format f = fp::half_format<Bf16>();
  uint32_t h = static_cast<uint32_t>(a & 0xffff);
  if (fp::is_nan(h, f)) return fp::kHalfCanonicalNaN;
  if (fp::unpack(aux).ftz) h = fp::flush_subnormal(h, f);
  return Neg ? h ^ 0x8000u : h & 0x7fffu;
}
template <bool Neg, bool Bf16>
uint64_t sign_half2(uint64_t a, uint64_t aux) {
  return fp::pairwise1<sign_half<Neg, Bf16>>(a, aux);
}

// ---- min / max ---------------------------------------------------------------------------
// True if x orders before y, with -0.0 before +0.0 (neither is NaN).
inline bool less(double x, double y) {
  return x < y || (x == y && std::signbit(x) && !std::signbit(y));
}

// The shared rule on decoded values; returns false with `nan_result` set when the result is
// the canonical NaN, else true with `pick_a` saying which operand is the result.
inline bool choose(double x, double y, bool is_max, const Mode& m, bool& pick_a) {
  const bool xn = std::isnan(x), yn = std::isnan(y);
  if ((xn && yn) || (m.nan && (xn || yn))) return false;
  if (xn || yn) {
    pick_a = yn;
    return true;
  }
  if (m.xorsign) {
    x = std::fabs(x);
    y = std::fabs(y);
  }
  pick_a = is_max ? less(y, x) || (x == y && !less(x, y)) : less(x, y) || (x == y && !less(y, x));
  return true;
}

template <bool Max>
uint64_t minmax_f32(uint64_t a, uint64_t b, uint64_t aux) {
  const Mode m = fp::unpack(aux);
  uint32_t x = static_cast<uint32_t>(a), y = static_cast<uint32_t>(b);
  if (m.ftz) {
    x = fp::flush_subnormal(x, fp::kF32);
    y = fp::flush_subnormal(y, fp::kF32);
  }
  bool pick_a = false;
  if (!choose(fp::f32_of(x), fp::f32_of(y), Max, m, pick_a)) return fp::kF32CanonicalNaN;
  uint32_t r = pick_a ? x : y;
  if (m.xorsign) r = (r & 0x7fffffffu) | ((x ^ y) & 0x80000000u);
  return r;
}

// The three-input f32 form: min(min(a, b), c) under the same rules, .abs on every input.
template <bool Max>
uint64_t minmax3_f32(uint64_t a, uint64_t b, uint64_t c, uint64_t aux) {
  const bool abs = fp::unpack(aux).xorsign;  // the three-input form carries .abs in this bit
  const uint64_t mask = abs ? 0x7fffffffu : 0xffffffffu;
  Mode two = fp::unpack(aux);
  two.xorsign = false;
  const uint64_t ab = minmax_f32<Max>(a & mask, b & mask, fp::pack(two));
  return minmax_f32<Max>(ab, c & mask, fp::pack(two));
}

template <bool Max>
uint64_t minmax_f64(uint64_t a, uint64_t b, uint64_t aux) {
  bool pick_a = false;
  if (!choose(fp::f64_of(a), fp::f64_of(b), Max, fp::unpack(aux), pick_a)) return kF64CanonicalNaN;
  return pick_a ? a : b;
}

template <bool Max, bool Bf16>
uint64_t minmax_half(uint64_t a, uint64_t b, uint64_t aux) {
  constexpr Format f = fp::half_format<Bf16>();
  const Mode m = fp::unpack(aux);
  uint32_t x = static_cast<uint32_t>(a & 0xffff), y = static_cast<uint32_t>(b & 0xffff);
  if (m.ftz) {
    x = fp::flush_subnormal(x, f);
    y = fp::flush_subnormal(y, f);
  }
  bool pick_a = false;
  if (!choose(fp::decode(x, f), fp::decode(y, f), Max, m, pick_a)) return fp::kHalfCanonicalNaN;
  uint32_t r = pick_a ? x : y;
  if (m.xorsign) r = (r & 0x7fffu) | ((x ^ y) & 0x8000u);
  return r;
}
template <bool Max, bool Bf16>
uint64_t minmax_half2(uint64_t a, uint64_t b, uint64_t aux) {
  return fp::pairwise2<minmax_half<Max, Bf16>>(a, b, aux);
}

// copysign d, a, b: the magnitude of b with the sign of a.
uint64_t copysign_f32(uint64_t a, uint64_t b, uint64_t) {
  return (b & 0x7fffffffu) | (a & 0x80000000u);
}
uint64_t copysign_f64(uint64_t a, uint64_t b, uint64_t) {
  return (b & 0x7fffffffffffffffull) | (a & 0x8000000000000000ull);
}

// ---- testp -------------------------------------------------------------------------------
enum class Test : uint8_t { Finite, Infinite, Number, NotANumber, Normal, Subnormal };

template <class T>
bool test_value(T v, Test t) {
  switch (t) {
    case Test::Finite: return std::isfinite(v);
    case Test::Infinite: return std::isinf(v);
    case Test::Number: return !std::isnan(v);
    case Test::NotANumber: return std::isnan(v);
    case Test::Normal: return std::fpclassify(v) == FP_NORMAL;
    case Test::Subnormal: return std::fpclassify(v) == FP_SUBNORMAL;
  }
  return false;
}

template <class T>
void testp_h(const ExecInst& in, Warp& w) {
  const uint64_t* a = w.r(in.s[0]);
  const Test t = static_cast<Test>(in.aux);
  LaneMask result = 0;
  for_each_lane(w.exec, [&](uint32_t l) {
    if (test_value(get<T>(a[l]), t)) result |= LaneMask{1} << l;
  });
  LaneMask& p = w.p(in.d[0]);
  p = (p & ~w.exec) | result;
}

// ---- binding -----------------------------------------------------------------------------
bool only(const fp::FloatForm& f, bool allow_ftz, bool allow_nan, bool allow_xorsign) {
  return f.unknown.empty() && !f.round && !f.int_round && !f.sat && !f.satfinite && !f.relu &&
         !f.approx && !f.full && f.compare.empty() && f.combine.empty() && f.test.empty() &&
         (allow_ftz || !f.ftz) && (allow_nan || !f.nan) &&
         (allow_xorsign ? f.xorsign == f.abs : !f.xorsign && !f.abs);
}

ExecInst simple(const ir::Instruction& inst, BindContext& ctx, Handler h, Kind k,
                const fp::FloatForm& f, size_t sources) {
  ctx.expect_operands(inst, sources + 1);
  ExecInst e = make_exec(inst, h);
  e.d[0] = fp::dest_slot(ctx, inst, 0);
  e.nd = 1;
  for (size_t i = 0; i < sources; ++i) e.s[i] = fp::source_slot(ctx, inst, i + 1, k);
  e.ns = static_cast<uint8_t>(sources);
  e.aux = fp::pack(fp::mode_of(f));
  return e;
}

template <bool Neg>
std::optional<ExecInst> bind_sign(const ir::Instruction& inst, BindContext& ctx) {
  const fp::FloatForm f = fp::read_form(inst);
  if (!f.any_float()) return std::nullopt;
  if (f.types.size() != 1 || !only(f, true, false, false)) ctx.unsupported(inst);
  const Kind k = f.types[0];
  const bool bf = k == Kind::BF16 || k == Kind::BF16x2;
  Handler h = nullptr;
  switch (k) {
    case Kind::F32: h = &fp::unary_h<sign_f32<Neg>>; break;
    case Kind::F64: h = f.ftz ? nullptr : &fp::unary_h<sign_f64<Neg>>; break;
    case Kind::F16: h = &fp::unary_h<sign_half<Neg, false>>; break;
    case Kind::F16x2: h = &fp::unary_h<sign_half2<Neg, false>>; break;
    case Kind::BF16: h = &fp::unary_h<sign_half<Neg, true>>; break;
    case Kind::BF16x2: h = &fp::unary_h<sign_half2<Neg, true>>; break;
    default: break;
  }
  if (h == nullptr || (bf && f.ftz)) ctx.unsupported(inst);
  return simple(inst, ctx, h, k, f, 1);
}

template <bool Max>
std::optional<ExecInst> bind_minmax(const ir::Instruction& inst, BindContext& ctx) {
  const fp::FloatForm f = fp::read_form(inst);
  if (!f.any_float()) return std::nullopt;
  if (inst.operands.size() == 4 && f.types.size() == 1 && f.types[0] == Kind::F32) {
    // min{.ftz}{.NaN}{.abs}.f32 d, a, b, c (no .xorsign with three inputs).
    fp::FloatForm two = f;
    two.abs = false;
    if (f.xorsign || !only(two, true, true, false)) ctx.unsupported(inst);
    ExecInst e = simple(inst, ctx, &fp::ternary_h<minmax3_f32<Max>>, Kind::F32, f, 3);
    Mode m = fp::mode_of(f);
    m.xorsign = f.abs;
    e.aux = fp::pack(m);
    return e;
  }
  if (f.types.size() != 1 || !only(f, true, true, true)) ctx.unsupported(inst);
  const Kind k = f.types[0];
  Handler h = nullptr;
  switch (k) {
    case Kind::F32: h = &fp::binary_h<minmax_f32<Max>>; break;
    case Kind::F64:
      h = (f.ftz || f.nan || f.xorsign) ? nullptr : &fp::binary_h<minmax_f64<Max>>;
      break;
    case Kind::F16: h = &fp::binary_h<minmax_half<Max, false>>; break;
    case Kind::F16x2: h = &fp::binary_h<minmax_half2<Max, false>>; break;
    case Kind::BF16: h = f.ftz ? nullptr : &fp::binary_h<minmax_half<Max, true>>; break;
    case Kind::BF16x2: h = f.ftz ? nullptr : &fp::binary_h<minmax_half2<Max, true>>; break;
    default: break;
  }
  if (h == nullptr) ctx.unsupported(inst);
  return simple(inst, ctx, h, k, f, 2);
}

std::optional<ExecInst> bind_copysign(const ir::Instruction& inst, BindContext& ctx) {
  const fp::FloatForm f = fp::read_form(inst);
  if (f.types.size() != 1 || !only(f, false, false, false)) ctx.unsupported(inst);
  if (f.types[0] == Kind::F32) return simple(inst, ctx, &fp::binary_h<copysign_f32>, Kind::F32, f, 2);
  if (f.types[0] == Kind::F64) return simple(inst, ctx, &fp::binary_h<copysign_f64>, Kind::F64, f, 2);
  ctx.unsupported(inst);
}

std::optional<ExecInst> bind_testp(const ir::Instruction& inst, BindContext& ctx) {
  const fp::FloatForm f = fp::read_form(inst);
  if (f.types.size() != 1 || f.test.size() != 1 || !f.unknown.empty() || f.ftz) ctx.unsupported(inst);
  const Kind k = f.types[0];
  if (k != Kind::F32 && k != Kind::F64) ctx.unsupported(inst);
  static constexpr const char* kNames[] = {"finite", "infinite", "number", "notanumber", "normal",
                                           "subnormal"};
  uint64_t test = 0;
  while (f.test[0] != kNames[test]) ++test;
  ctx.expect_operands(inst, 2);
  ExecInst e = make_exec(inst, k == Kind::F32 ? &testp_h<float> : &testp_h<double>);
  e.d[0] = fp::dest_pred(ctx, inst, 0);
  e.nd = 1;
  e.s[0] = fp::source_slot(ctx, inst, 1, k);
  e.ns = 1;
  e.aux = test;
  return e;
}

}  // namespace

void register_float_sign_ops(OpTable& t) {
  t.add("abs", bind_sign<false>);
  t.add("neg", bind_sign<true>);
  t.add("min", bind_minmax<false>);
  t.add("max", bind_minmax<true>);
  t.add("copysign", bind_copysign);
  t.add("testp", bind_testp);
}

}  // namespace lockstep::func
