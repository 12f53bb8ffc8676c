// div, rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh. The IEEE forms (.rn .rz .rm .rp, and
// div.full.f32) are correctly rounded. The .approx forms are computed in double and rounded
// once to the result format: deterministic, and well inside the PTX ISA's error bounds
// (rcp/sqrt 1 ulp, div.approx 2 ulp, ex2 2 ulp, lg2 2^-22.6 abs, sin/cos 2^-20.9 abs,
// rsqrt 2^-22.9 rel, tanh 2^-11 rel). div.approx.f32 follows the ISA's definition
// d = a * (1/b), including d = 0 (or NaN for an infinite a) when 2^126 < |b| < 2^128.
// rcp.approx.ftz.f64 follows the ISA's gross approximation: only the
// upper 32 bits of the operand are used and the low 32 bits of the result are zero.
#include <cmath>
#include <optional>

#include "func/bind.h"
#include "func/ops/float_element.h"
#include "func/ops/float_family.h"
#include "func/ops/float_fenv.h"
#include "func/ops/float_lanes.h"

namespace lockstep::func {
namespace {

using fp::Kind;
using fp::Mode;
using fp::Round;

// ---- division, reciprocal, square root (IEEE) --------------------------------------------
uint64_t div_f32(uint64_t a, uint64_t b, uint64_t aux) {
  const Mode m = fp::unpack(aux);
  const float x = fp::f32_in(a, m.ftz), y = fp::f32_in(b, m.ftz);
  return fp::f32_out(m.round == Round::Nearest ? x / y : fp::div_f32(x, y, m.round), m);
}
uint64_t div_f64(uint64_t a, uint64_t b, uint64_t aux) {
  const Round r = fp::unpack(aux).round;
  const double x = fp::f64_of(a), y = fp::f64_of(b);
  return fp::bits_of(r == Round::Nearest ? x / y : fp::div_f64(x, y, r));
}
uint64_t rcp_f32(uint64_t a, uint64_t aux) { return div_f32(fp::bits_of(1.0f), a, aux); }
uint64_t rcp_f64(uint64_t a, uint64_t aux) { return div_f64(fp::bits_of(1.0), a, aux); }
uint64_t sqrt_f32(uint64_t a, uint64_t aux) {
  const Mode m = fp::unpack(aux);
  const float x = fp::f32_in(a, m.ftz);
  return fp::f32_out(m.round == Round::Nearest ? std::sqrt(x) : fp::sqrt_f32(x, m.round), m);
}
uint64_t sqrt_f64(uint64_t a, uint64_t aux) {
  const Round r = fp::unpack(aux).round;
  const double x = fp::f64_of(a);
  return fp::bits_of(r == Round::Nearest ? std::sqrt(x) : fp::sqrt_f64(x, r));
}

// ---- approximations ----------------------------------------------------------------------
uint64_t div_approx_f32(uint64_t a, uint64_t b, uint64_t aux) {
  const Mode m = fp::unpack(aux);
  const float x = fp::f32_in(a, m.ftz), y = fp::f32_in(b, m.ftz);
  const float ay = std::fabs(y);
  if (ay > 0x1p126f && std::isfinite(ay)) {  // 1/b underflows in the hardware's reciprocal
    if (std::isinf(x)) return fp::kF32CanonicalNaN;
    return fp::f32_out(std::signbit(x) != std::signbit(y) ? -0.0f : 0.0f, m);
  }
  return fp::f32_out(x * (1.0f / y), m);
}

// f32 approximations computed in double: Fn gets the (flushed) operand as a double.
template <double (*Fn)(double)>
uint64_t approx_f32(uint64_t a, uint64_t aux) {
  const Mode m = fp::unpack(aux);
  return fp::f32_out(static_cast<float>(Fn(fp::f32_in(a, m.ftz))), m);
}

template <double (*Fn)(double), bool Bf16>
uint64_t approx_half(uint64_t a, uint64_t aux) {
  const Mode m = fp::unpack(aux);
  return fp::half_out<Bf16>(Fn(fp::half_in<Bf16>(a, m.ftz)), m);
}
template <double (*Fn)(double), bool Bf16>
uint64_t approx_half2(uint64_t a, uint64_t aux) {
  return fp::pairwise1<approx_half<Fn, Bf16>>(a, aux);
}

double recip(double x) { return 1.0 / x; }
double rsqrt(double x) { return 1.0 / std::sqrt(x); }
double exp2_(double x) { return std::exp2(x); }
double log2_(double x) { return std::log2(x); }
double sin_(double x) { return std::sin(x); }
double cos_(double x) { return std::cos(x); }
double tanh_(double x) { return std::tanh(x); }

// The 1.11.20 gross approximation of the f64 reciprocal / reciprocal square root: the
// operand's upper 32 bits (sign, exponent, 20 mantissa bits) in, the result's upper 32 bits
// out. Subnormal operands and results are flushed to sign-preserving zero.
template <double (*Fn)(double)>
uint64_t approx_ftz_f64(uint64_t a, uint64_t) {
  uint64_t bits = a & 0xffffffff00000000ull;
  if ((bits & 0x7ff0000000000000ull) == 0) bits &= 0x8000000000000000ull;  // flush subnormal
  const double r = Fn(fp::f64_of(bits));
  if (std::isnan(r)) return 0x7fffffff00000000ull;  // the ISA's canonical NaN for this form
  uint64_t out = fp::bits_of(r);
  if ((out & 0x7ff0000000000000ull) == 0) out &= 0x8000000000000000ull;
  return out & 0xffffffff00000000ull;
}

// rsqrt.approx{.ftz}.f64: the double reciprocal square root, subnormals flushed for .ftz.
uint64_t rsqrt_f64(uint64_t a, uint64_t aux) {
  const bool ftz = fp::unpack(aux).ftz;
  uint64_t bits = a;
  const bool subnormal = (bits & 0x7ff0000000000000ull) == 0;
  if (ftz && subnormal) bits &= 0x8000000000000000ull;
  return fp::bits_of(rsqrt(fp::f64_of(bits)));
}

// ---- binding -----------------------------------------------------------------------------
bool plain_modifiers(const fp::FloatForm& f) {
  return f.unknown.empty() && !f.sat && !f.satfinite && !f.relu && !f.nan && !f.xorsign &&
         !f.abs && !f.int_round && f.compare.empty() && f.combine.empty() && f.test.empty();
}

ExecInst finish(const ir::Instruction& inst, BindContext& ctx, Handler h, Kind k,
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

bool ieee_round(const fp::FloatForm& f) {
  return f.round && *f.round != Round::NearestAway && !f.approx && !f.full;
}

// div / rcp / sqrt: .rnd forms on f32 (.ftz allowed) and f64, plus .approx (and div.full) f32.
template <Handler Ieee32, Handler Ieee64, Handler Approx32, Handler Full32>
std::optional<ExecInst> bind_ieee_family(const ir::Instruction& inst, BindContext& ctx,
                                         size_t sources) {
  const fp::FloatForm f = fp::read_form(inst);
  if (!f.any_float()) return std::nullopt;
  if (f.types.size() != 1 || !plain_modifiers(f)) ctx.unsupported(inst);
  const Kind k = f.types[0];
  Handler h = nullptr;
  if (k == Kind::F32 && ieee_round(f)) h = Ieee32;
  else if (k == Kind::F64 && ieee_round(f) && !f.ftz) h = Ieee64;
  else if (k == Kind::F32 && f.approx && !f.round && !f.full) h = Approx32;
  else if (k == Kind::F32 && f.full && !f.round && !f.approx) h = Full32;
  if (h == nullptr) ctx.unsupported(inst);
  return finish(inst, ctx, h, k, f, sources);
}

std::optional<ExecInst> bind_div(const ir::Instruction& inst, BindContext& ctx) {
  return bind_ieee_family<&fp::binary_h<div_f32>, &fp::binary_h<div_f64>,
                          &fp::binary_h<div_approx_f32>, &fp::binary_h<div_f32>>(inst, ctx, 2);
}

std::optional<ExecInst> bind_rcp(const ir::Instruction& inst, BindContext& ctx) {
  const fp::FloatForm f = fp::read_form(inst);
  if (f.types.size() == 1 && f.types[0] == Kind::F64 && f.approx && f.ftz && !f.round &&
      plain_modifiers(f)) {
    return finish(inst, ctx, &fp::unary_h<approx_ftz_f64<recip>>, Kind::F64, f, 1);
  }
  // rcp.approx.f32 is within 1 ulp; the correctly rounded reciprocal satisfies that.
  return bind_ieee_family<&fp::unary_h<rcp_f32>, &fp::unary_h<rcp_f64>,
                          &fp::unary_h<approx_f32<recip>>, nullptr>(inst, ctx, 1);
}

std::optional<ExecInst> bind_sqrt(const ir::Instruction& inst, BindContext& ctx) {
  return bind_ieee_family<&fp::unary_h<sqrt_f32>, &fp::unary_h<sqrt_f64>,
                          &fp::unary_h<sqrt_f32>, nullptr>(inst, ctx, 1);
}

std::optional<ExecInst> bind_rsqrt(const ir::Instruction& inst, BindContext& ctx) {
  const fp::FloatForm f = fp::read_form(inst);
  if (f.types.size() != 1 || !f.approx || f.round || !plain_modifiers(f)) ctx.unsupported(inst);
  if (f.types[0] == Kind::F32) return finish(inst, ctx, &fp::unary_h<approx_f32<rsqrt>>, Kind::F32, f, 1);
  if (f.types[0] == Kind::F64) return finish(inst, ctx, &fp::unary_h<rsqrt_f64>, Kind::F64, f, 1);
  ctx.unsupported(inst);
}

// ex2 / tanh also exist on the half formats; lg2 / sin / cos only on f32.
template <double (*Fn)(double), bool Halves>
std::optional<ExecInst> bind_transcendental(const ir::Instruction& inst, BindContext& ctx) {
  const fp::FloatForm f = fp::read_form(inst);
  if (f.types.size() != 1 || !f.approx || f.round || !plain_modifiers(f)) ctx.unsupported(inst);
  const Kind k = f.types[0];
  Handler h = nullptr;
  switch (k) {
    case Kind::F32: h = &fp::unary_h<approx_f32<Fn>>; break;
    case Kind::F16: h = Halves ? &fp::unary_h<approx_half<Fn, false>> : nullptr; break;
    case Kind::F16x2: h = Halves ? &fp::unary_h<approx_half2<Fn, false>> : nullptr; break;
    case Kind::BF16: h = Halves ? &fp::unary_h<approx_half<Fn, true>> : nullptr; break;
    case Kind::BF16x2: h = Halves ? &fp::unary_h<approx_half2<Fn, true>> : nullptr; break;
    default: break;
  }
  if (h == nullptr) ctx.unsupported(inst);
  return finish(inst, ctx, h, k, f, 1);
}

}  // namespace

void register_float_math_ops(OpTable& t) {
  t.add("div", bind_div);
  t.add("rcp", bind_rcp);
  t.add("sqrt", bind_sqrt);
  t.add("rsqrt", bind_rsqrt);
  t.add("ex2", bind_transcendental<exp2_, true>);
  t.add("tanh", bind_transcendental<tanh_, true>);
  t.add("lg2", bind_transcendental<log2_, false>);
  t.add("sin", bind_transcendental<sin_, false>);
  t.add("cos", bind_transcendental<cos_, false>);
}

}  // namespace lockstep::func
