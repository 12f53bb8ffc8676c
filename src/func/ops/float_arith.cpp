// add, sub, mul, fma and mad on f32, f64, f16, f16x2, bf16 and bf16x2, with every rounding
// mode and the .ftz/.sat/.relu result modifiers PTX allows. f32 and the half formats are
// exact in every mode through round-to-odd doubles (float_exact.h); f64 uses the host FPU,
// switching its rounding mode for directed modes (float_fenv.h). NaN results are the
// canonical NaN for f32/f16/bf16; f64 NaNs follow the host (input NaN propagated, quieted).
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

enum class Op : uint8_t { Add, Sub, Mul, Fma };

// ---- f32 ---------------------------------------------------------------------------------
template <Op O>
uint64_t f32_fast(uint64_t a, uint64_t b, uint64_t c, uint64_t) {
  const float x = fp::f32_of(static_cast<uint32_t>(a));
  const float y = fp::f32_of(static_cast<uint32_t>(b));
  if constexpr (O == Op::Add) return fp::f32_plain(x + y);
  if constexpr (O == Op::Sub) return fp::f32_plain(x - y);
  if constexpr (O == Op::Mul) return fp::f32_plain(x * y);
  if constexpr (O == Op::Fma) return fp::f32_plain(std::fma(x, y, fp::f32_of(static_cast<uint32_t>(c))));
}

template <Op O>
uint64_t f32_general(uint64_t a, uint64_t b, uint64_t c, uint64_t aux) {
  const Mode m = fp::unpack(aux);
  if (m.round == Round::Nearest) {  // the host's own rounding is the right one
    const float fx = fp::f32_in(a, m.ftz), fy = fp::f32_in(b, m.ftz);
    float r;
    if constexpr (O == Op::Add) r = fx + fy;
    if constexpr (O == Op::Sub) r = fx - fy;
    if constexpr (O == Op::Mul) r = fx * fy;
    if constexpr (O == Op::Fma) r = std::fma(fx, fy, fp::f32_in(c, m.ftz));
    return fp::f32_out(r, m);
  }
  const double x = fp::f32_in(a, m.ftz);
  double y = fp::f32_in(b, m.ftz);
  if constexpr (O == Op::Sub) y = -y;
  double v;
  if constexpr (O == Op::Mul) {
    v = x * y;  // exact
  } else if constexpr (O == Op::Fma) {
    v = fp::sum_for_mode(x * y, fp::f32_in(c, m.ftz), m.round);
  } else {
    v = fp::sum_for_mode(x, y, m.round);
  }
  return fp::f32_out(fp::f32_of(fp::encode(v, fp::kF32, m.round)), m);
}

// ---- f64 ---------------------------------------------------------------------------------
template <Op O>
uint64_t f64_fast(uint64_t a, uint64_t b, uint64_t c, uint64_t) {
  const double x = fp::f64_of(a), y = fp::f64_of(b);
  if constexpr (O == Op::Add) return fp::bits_of(x + y);
  if constexpr (O == Op::Sub) return fp::bits_of(x - y);
  if constexpr (O == Op::Mul) return fp::bits_of(x * y);
  if constexpr (O == Op::Fma) return fp::bits_of(std::fma(x, y, fp::f64_of(c)));
}

template <Op O>
uint64_t f64_directed(uint64_t a, uint64_t b, uint64_t c, uint64_t aux) {
  const Round r = fp::unpack(aux).round;
  const double x = fp::f64_of(a), y = fp::f64_of(b);
  if constexpr (O == Op::Add) return fp::bits_of(fp::add_f64(x, y, r));
  if constexpr (O == Op::Sub) return fp::bits_of(fp::add_f64(x, -y, r));
  if constexpr (O == Op::Mul) return fp::bits_of(fp::mul_f64(x, y, r));
  if constexpr (O == Op::Fma) return fp::bits_of(fp::fma_f64(x, y, fp::f64_of(c), r));
}

// ---- f16 / bf16 --------------------------------------------------------------------------
template <Op O, bool Bf16>
uint64_t half_arith(uint64_t a, uint64_t b, uint64_t c, uint64_t aux) {
  const Mode m = fp::unpack(aux);
  const double x = fp::half_in<Bf16>(a, m.ftz);
  double y = fp::half_in<Bf16>(b, m.ftz);
  if constexpr (O == Op::Sub) y = -y;
  double v;
  if constexpr (O == Op::Mul) {
    v = x * y;
  } else if constexpr (O == Op::Fma) {
    v = fp::sum_for_mode(x * y, fp::half_in<Bf16>(c, m.ftz), m.round);
  } else {
    v = fp::sum_for_mode(x, y, m.round);
  }
  return fp::half_out<Bf16>(v, m);
}

template <Op O, bool Bf16>
uint64_t half2_arith(uint64_t a, uint64_t b, uint64_t c, uint64_t aux) {
  return fp::pairwise3<half_arith<O, Bf16>>(a, b, c, aux);
}

// Ternary handlers serve the binary ops too: their third source slot is never read.
template <fp::Ternary Fn, Op O>
void arith_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  if constexpr (O == Op::Fma) {
    const uint64_t* c = w.r(in.s[2]);
    for_each_lane(w.exec, [&](uint32_t l) { d[l] = Fn(a[l], b[l], c[l], in.aux); });
  } else {
    for_each_lane(w.exec, [&](uint32_t l) { d[l] = Fn(a[l], b[l], 0, in.aux); });
  }
}

// Which modifiers each type accepts (PTX ISA 8.x/9.x).
bool form_allowed(const fp::FloatForm& f, Kind k, Op op, bool is_mad) {
  if (!f.unknown.empty() || f.approx || f.full || f.nan || f.xorsign || f.abs || f.satfinite ||
      f.int_round || !f.compare.empty() || !f.combine.empty() || !f.test.empty()) {
    return false;
  }
  if (f.round == Round::NearestAway) return false;
  switch (k) {
    case Kind::F32: return !f.relu;
    case Kind::F64: return !f.relu && !f.ftz && !f.sat;
    case Kind::F16: case Kind::F16x2:
      if (is_mad) return false;
      if (f.round && *f.round != Round::Nearest) return false;
      if (f.relu && (op != Op::Fma || f.sat)) return false;
      return true;
    case Kind::BF16: case Kind::BF16x2:
      if (is_mad || f.ftz || f.sat) return false;
      if (f.round && *f.round != Round::Nearest) return false;
      return !f.relu || op == Op::Fma;
    default: return false;
  }
}

template <Op O>
std::optional<ExecInst> bind_arith_impl(const ir::Instruction& inst, BindContext& ctx, bool is_mad) {
  const fp::FloatForm f = fp::read_form(inst);
  if (!f.any_float()) return std::nullopt;
  if (f.types.size() != 1 || !form_allowed(f, f.types[0], O, is_mad)) ctx.unsupported(inst);
  // fma needs an explicit rounding mode; add/sub/mul default to .rn (mad.f32 is legacy fma.rn).
  if (O == Op::Fma && !is_mad && !f.round) ctx.unsupported(inst);
  const Kind k = f.types[0];
  const size_t n = O == Op::Fma ? 4 : 3;
  ctx.expect_operands(inst, n);
  const Mode m = fp::mode_of(f);
  Handler h = nullptr;
  switch (k) {
    case Kind::F32:
      if (m.round == Round::Nearest && !m.ftz && !m.sat) h = &arith_h<f32_fast<O>, O>;
      else h = &arith_h<f32_general<O>, O>;
      break;
    case Kind::F64:
      if (m.round == Round::Nearest) h = &arith_h<f64_fast<O>, O>;
      else h = &arith_h<f64_directed<O>, O>;
      break;
    case Kind::F16: h = &arith_h<half_arith<O, false>, O>; break;
    case Kind::BF16: h = &arith_h<half_arith<O, true>, O>; break;
    case Kind::F16x2: h = &arith_h<half2_arith<O, false>, O>; break;
    case Kind::BF16x2: h = &arith_h<half2_arith<O, true>, O>; break;
    default: ctx.unsupported(inst);
  }
  ExecInst e = make_exec(inst, h);
  e.d[0] = fp::dest_slot(ctx, inst, 0);
  e.nd = 1;
  for (size_t i = 1; i < n; ++i) e.s[i - 1] = fp::source_slot(ctx, inst, i, k);
  e.ns = static_cast<uint8_t>(n - 1);
  e.aux = fp::pack(m);
  return e;
}

std::optional<ExecInst> bind_add(const ir::Instruction& i, BindContext& c) {
  return bind_arith_impl<Op::Add>(i, c, false);
}
std::optional<ExecInst> bind_sub(const ir::Instruction& i, BindContext& c) {
  return bind_arith_impl<Op::Sub>(i, c, false);
}
std::optional<ExecInst> bind_mul(const ir::Instruction& i, BindContext& c) {
  return bind_arith_impl<Op::Mul>(i, c, false);
}
std::optional<ExecInst> bind_fma(const ir::Instruction& i, BindContext& c) {
  return bind_arith_impl<Op::Fma>(i, c, false);
}
std::optional<ExecInst> bind_mad(const ir::Instruction& i, BindContext& c) {
  return bind_arith_impl<Op::Fma>(i, c, true);
}

}  // namespace

void register_float_arith_ops(OpTable& t) {
  t.add("add", bind_add);
  t.add("sub", bind_sub);
  t.add("mul", bind_mul);
  t.add("fma", bind_fma);
  t.add("mad", bind_mad);
}

}  // namespace lockstep::func
