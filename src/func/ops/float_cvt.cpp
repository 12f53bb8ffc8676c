// cvt between float types, and the cvt binder of the float family.
// Widening (f16/bf16 -> f32/f64, f32 -> f64) is exact; narrowing rounds once in the requested
// mode (.rn .rz .rm .rp, .rna for tf32) with .ftz, .sat, .relu (negative -> +0) and .satfinite
// (infinities and overflow -> the largest finite value, NaN stays NaN). NaN results are the
// canonical NaN of the destination (f32 0x7fffffff, f16/bf16 0x7fff, fp8 0x7f).
// Same-type cvt with .rni/.rzi/.rmi/.rpi rounds to an integral value (keeping -0.0).
// Packing forms: cvt.frnd.f16x2.f32 d, a, b puts cvt(a) in the upper half and cvt(b) in the
// lower half; likewise bf16x2 and the fp8 pairs e4m3x2/e5m2x2 (upper byte from a, or from the
// upper half of an f16x2 source).
// tf32 results are f32 bit patterns with the low 13 mantissa bits zero; a NaN gives 0x7fffffff.
#include <cmath>
#include <optional>

#include "func/ops/float_cvt.h"
#include "func/ops/float_element.h"
#include "func/ops/float_family.h"
#include "func/ops/float_fenv.h"
#include "func/ops/float_lanes.h"

namespace lockstep::func {
namespace {

using fp::Format;
using fp::Kind;
using fp::Mode;
using fp::Round;

inline constexpr Format kE5M2{5, 2};
inline constexpr Format kE4M3Shape{4, 3};  // e4m3 without its extended top binade

template <Kind S>
double read(uint64_t slot, bool ftz) {
  if constexpr (S == Kind::F16) return fp::half_in<false>(slot, ftz);
  if constexpr (S == Kind::BF16) return fp::half_in<true>(slot, ftz);
  if constexpr (S == Kind::F32) return fp::f32_in(slot, ftz);
  if constexpr (S == Kind::F64) return fp::f64_of(slot);
}

// .satfinite on a half-format result: an infinity becomes the largest finite value.
inline uint32_t saturate_finite(uint32_t bits, Format f) {
  return fp::is_inf(bits, f) ? (bits & f.sign_bit()) | f.max_finite() : bits;
}

template <bool Bf16>
uint64_t to_half(double v, const Mode& m) {
  uint32_t h = static_cast<uint32_t>(fp::half_out<Bf16>(v, m));
  if (m.satfinite) h = saturate_finite(h, fp::half_format<Bf16>());
  return h;
}

uint64_t to_tf32(double v, const Mode& m) {
  uint32_t t = fp::encode(v, fp::kTF32, m.round);
  if (fp::is_nan(t, fp::kTF32)) return fp::kF32CanonicalNaN;
  if (m.satfinite) t = saturate_finite(t, fp::kTF32);
  if (m.relu && (t & fp::kTF32.sign_bit()) != 0) t = 0;
  return uint64_t{t} << 13;
}

uint64_t to_f32_from_f64(double v, const Mode& m) {
  const float r = m.round == Round::Nearest ? static_cast<float>(v) : fp::f32_from_f64(v, m.round);
  return fp::f32_out(r, m);
}

// Scalar float -> float.
template <Kind D, Kind S>
uint64_t convert(uint64_t a, uint64_t aux) {
  const Mode m = fp::unpack(aux);
  const double v = read<S>(a, m.ftz);
  if constexpr (D == Kind::F64) {
    return fp::bits_of(m.sat ? (std::isnan(v) ? 0.0 : std::fmin(std::fmax(v, 0.0), 1.0)) : v);
  } else if constexpr (D == Kind::F32) {
    if constexpr (S == Kind::F64) return to_f32_from_f64(v, m);
    return fp::f32_out(static_cast<float>(v), m);  // exact: the source is narrower
  } else if constexpr (D == Kind::TF32) {
    return to_tf32(v, m);
  } else {
    return to_half<D == Kind::BF16>(v, m);
  }
}

// Same-type cvt: round to an integral value (.rni...), or only .ftz/.sat.
template <Kind T, bool Integral>
uint64_t same_type(uint64_t a, uint64_t aux) {
  const Mode m = fp::unpack(aux);
  double v = read<T>(a, m.ftz);
  if constexpr (Integral) {
    switch (m.round) {
      case Round::Zero: v = std::trunc(v); break;
      case Round::Down: v = std::floor(v); break;
      case Round::Up: v = std::ceil(v); break;
      default: v = std::nearbyint(v); break;
    }
  }
  if constexpr (T == Kind::F64) {
    if (m.sat) v = std::isnan(v) ? 0.0 : std::fmin(std::fmax(v, 0.0), 1.0);
    return fp::bits_of(v);
  } else if constexpr (T == Kind::F32) {
    return fp::f32_out(static_cast<float>(v), m);
  } else {
    Mode exact = m;
    exact.round = Round::Nearest;  // v is representable: no rounding happens here
    return to_half<T == Kind::BF16>(v, exact);
  }
}

// fp8: e4m3 has no infinities and uses its top binade up to 448; e5m2 is IEEE-like.
uint32_t encode_e4m3(double v, bool relu) {
  if (std::isnan(v)) return 0x7f;
  const uint32_t sign = std::signbit(v) && !relu ? 0x80 : 0;
  if (relu && std::signbit(v)) return 0;
  const double a = std::fabs(v);
  uint32_t m = a >= 256.0 ? fp::encode(a / 2, kE4M3Shape, Round::Nearest) + 0x08
                          : fp::encode(a, kE4M3Shape, Round::Nearest);
  if (m > 0x7e) m = 0x7e;  // satfinite: +-448
  return sign | m;
}
uint32_t encode_e5m2(double v, bool relu) {
  if (relu && std::signbit(v) && !std::isnan(v)) return 0;
  uint32_t b = fp::encode(v, kE5M2, Round::Nearest);
  if (fp::is_nan(b, kE5M2)) return 0x7f;
  return saturate_finite(b, kE5M2);
}
double decode_e4m3(uint32_t b) {
  if ((b & 0x7f) == 0x7f) return std::nan("");
  const double mag = (b & 0x78) == 0x78 ? 2 * fp::decode((b & 0x7f) - 0x08, kE4M3Shape)
                                         : fp::decode(b & 0x7f, kE4M3Shape);
  return (b & 0x80) ? -mag : mag;
}

// Packing: d = cvt(a) << width | cvt(b).
template <Kind D>
uint64_t pack_pair(uint64_t a, uint64_t b, uint64_t aux) {
  const Mode m = fp::unpack(aux);
  const double x = fp::f32_in(a, m.ftz), y = fp::f32_in(b, m.ftz);
  if constexpr (D == Kind::E4M3x2) return encode_e4m3(x, m.relu) << 8 | encode_e4m3(y, m.relu);
  if constexpr (D == Kind::E5M2x2) return encode_e5m2(x, m.relu) << 8 | encode_e5m2(y, m.relu);
  if constexpr (D == Kind::F16x2 || D == Kind::BF16x2) {
    constexpr bool bf = D == Kind::BF16x2;
    return to_half<bf>(x, m) << 16 | to_half<bf>(y, m);
  }
}

// cvt.rn.satfinite{.relu}.e4m3x2.f16x2 d, a: the upper half of a goes to the upper byte.
template <Kind D>
uint64_t narrow_f16x2(uint64_t a, uint64_t aux) {
  const Mode m = fp::unpack(aux);
  const auto one = [&](uint64_t half) -> uint64_t {
    const double v = fp::half_in<false>(half, false);
    return D == Kind::E4M3x2 ? encode_e4m3(v, m.relu) : encode_e5m2(v, m.relu);
  };
  return one(a >> 16 & 0xffff) << 8 | one(a & 0xffff);
}

// cvt.rn.f16x2.e4m3x2 / e5m2x2: widen both bytes exactly.
template <Kind S>
uint64_t unpack_fp8(uint64_t a, uint64_t) {
  const auto one = [](uint32_t byte) -> uint64_t {
    const double v = S == Kind::E4M3x2 ? decode_e4m3(byte) : fp::decode(byte, kE5M2);
    return fp::encode(v, fp::kF16, Round::Nearest);
  };
  return one(static_cast<uint32_t>(a >> 8 & 0xff)) << 16 | one(static_cast<uint32_t>(a & 0xff));
}

// ---- binding -----------------------------------------------------------------------------
template <Kind D>
Handler scalar_from(Kind s) {
  switch (s) {
    case Kind::F16: return &fp::unary_h<convert<D, Kind::F16>>;
    case Kind::BF16: return &fp::unary_h<convert<D, Kind::BF16>>;
    case Kind::F32: return &fp::unary_h<convert<D, Kind::F32>>;
    case Kind::F64: return &fp::unary_h<convert<D, Kind::F64>>;
    default: return nullptr;
  }
}

template <bool Integral>
Handler same_type_handler(Kind k) {
  switch (k) {
    case Kind::F16: return &fp::unary_h<same_type<Kind::F16, Integral>>;
    case Kind::BF16: return &fp::unary_h<same_type<Kind::BF16, Integral>>;
    case Kind::F32: return &fp::unary_h<same_type<Kind::F32, Integral>>;
    case Kind::F64: return &fp::unary_h<same_type<Kind::F64, Integral>>;
    default: return nullptr;
  }
}

int width_rank(Kind k) {
  switch (k) {
    case Kind::F16: case Kind::BF16: return 16;
    case Kind::TF32: return 19;
    case Kind::F32: return 32;
    case Kind::F64: return 64;
    default: return 0;
  }
}

// Returns the handler and the number of source operands, or nullptr for an unsupported form.
Handler float_float(const fp::FloatForm& f, size_t& sources) {
  const Kind d = f.types[0], s = f.types[1];
  sources = 1;
  if (d == s) {
    if (f.round || f.relu || f.satfinite) return nullptr;
    return f.int_round ? same_type_handler<true>(d) : same_type_handler<false>(d);
  }
  if (f.int_round) return nullptr;
  if (s == Kind::F32 && (d == Kind::E4M3x2 || d == Kind::E5M2x2)) {
    sources = 2;
    if (f.round != Round::Nearest || !f.satfinite || f.ftz || f.sat) return nullptr;
    return d == Kind::E4M3x2 ? &fp::binary_h<pack_pair<Kind::E4M3x2>> : &fp::binary_h<pack_pair<Kind::E5M2x2>>;
  }
  if (s == Kind::F16x2 && (d == Kind::E4M3x2 || d == Kind::E5M2x2)) {
    if (f.round != Round::Nearest || !f.satfinite || f.ftz || f.sat) return nullptr;
    return d == Kind::E4M3x2 ? &fp::unary_h<narrow_f16x2<Kind::E4M3x2>> : &fp::unary_h<narrow_f16x2<Kind::E5M2x2>>;
  }
  if (d == Kind::F16x2 && (s == Kind::E4M3x2 || s == Kind::E5M2x2)) {
    if (f.round != Round::Nearest || f.ftz || f.sat || f.satfinite) return nullptr;
    return s == Kind::E4M3x2 ? &fp::unary_h<unpack_fp8<Kind::E4M3x2>> : &fp::unary_h<unpack_fp8<Kind::E5M2x2>>;
  }
  if (s == Kind::F32 && (d == Kind::F16x2 || d == Kind::BF16x2)) {
    sources = 2;
    if (!f.round || f.round == Round::NearestAway) return nullptr;
    return d == Kind::F16x2 ? &fp::binary_h<pack_pair<Kind::F16x2>> : &fp::binary_h<pack_pair<Kind::BF16x2>>;
  }
  const int dw = width_rank(d), sw = width_rank(s);
  if (dw == 0 || sw == 0 || s == Kind::TF32) return nullptr;
  const bool narrowing = dw < sw || (dw == sw && d != s);  // f16 <-> bf16 rounds too
  if (narrowing) {
    // A rounding mode is required; .rna only for tf32; .relu/.satfinite only to 16/19 bits.
    if (!f.round || (f.round == Round::NearestAway && d != Kind::TF32)) return nullptr;
    if ((f.relu || f.satfinite) && dw > 19) return nullptr;
  } else if (f.round || f.relu || f.satfinite) {
    return nullptr;
  }
  switch (d) {
    case Kind::F16: return scalar_from<Kind::F16>(s);
    case Kind::BF16: return scalar_from<Kind::BF16>(s);
    case Kind::TF32: return s == Kind::F32 ? scalar_from<Kind::TF32>(s) : nullptr;
    case Kind::F32: return scalar_from<Kind::F32>(s);
    case Kind::F64: return scalar_from<Kind::F64>(s);
    default: return nullptr;
  }
}

std::optional<ExecInst> bind_cvt(const ir::Instruction& inst, BindContext& ctx) {
  const fp::FloatForm f = fp::read_form(inst);
  if (!f.any_float()) return std::nullopt;
  if (f.types.size() != 2 || !f.unknown.empty() || f.approx || f.full || f.nan || f.xorsign ||
      f.abs || !f.compare.empty() || !f.combine.empty() || !f.test.empty()) {
    ctx.unsupported(inst);
  }
  if (!fp::is_float(f.types[0]) || !fp::is_float(f.types[1])) return fp::bind_cvt_int(inst, ctx, f);
  size_t sources = 1;
  const Handler h = float_float(f, sources);
  if (h == nullptr) ctx.unsupported(inst);
  ctx.expect_operands(inst, sources + 1);
  ExecInst e = make_exec(inst, h);
  e.d[0] = fp::dest_slot(ctx, inst, 0);
  e.nd = 1;
  const Kind src_kind = f.types[1] == Kind::F64 ? Kind::F64 : Kind::F32;
  for (size_t i = 0; i < sources; ++i) {
    e.s[i] = fp::source_slot(ctx, inst, i + 1, fp::bit_width(f.types[1]) == 16 ? f.types[1] : src_kind);
  }
  e.ns = static_cast<uint8_t>(sources);
  Mode m = fp::mode_of(f);
  if (f.int_round) m.round = *f.int_round;
  e.aux = fp::pack(m);
  return e;
}

}  // namespace

void register_float_convert_ops(OpTable& t) { t.add("cvt", bind_cvt); }

}  // namespace lockstep::func
