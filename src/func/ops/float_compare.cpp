// setp and set with float operands: ordered (eq ne lt le gt ge), unordered (equ neu ltu leu
// gtu geu), num and nan; .ftz; the .and/.or/.xor combination with a predicate c; the p|q
// destination pair (q gets the complement of the comparison, or the upper half of an x2
// comparison); and set's u32/s32 (all ones), f32 (1.0) and f16/bf16 (1.0 per half) results.
#include <cmath>
#include <optional>
#include <string_view>

#include "func/bind.h"
#include "func/ops/float_element.h"
#include "func/ops/float_family.h"
#include "func/ops/float_lanes.h"

namespace lockstep::func {
namespace {

using fp::Kind;

enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum class Src : uint8_t { F32, F64, F16, BF16, F16x2, BF16x2 };
enum class Combine : uint8_t { None, And, Or, Xor };

template <Cmp C>
bool compare(double x, double y) {
  const bool unordered = std::isnan(x) || std::isnan(y);
  switch (C) {
    case Cmp::Eq: return !unordered && x == y;
    case Cmp::Ne: return !unordered && x != y;
    case Cmp::Lt: return !unordered && x < y;
    case Cmp::Le: return !unordered && x <= y;
    case Cmp::Gt: return !unordered && x > y;
    case Cmp::Ge: return !unordered && x >= y;
    case Cmp::Equ: return unordered || x == y;
    case Cmp::Neu: return unordered || x != y;
    case Cmp::Ltu: return unordered || x < y;
    case Cmp::Leu: return unordered || x <= y;
    case Cmp::Gtu: return unordered || x > y;
    case Cmp::Geu: return unordered || x >= y;
    case Cmp::Num: return !unordered;
    case Cmp::Nan: return unordered;
  }
  return false;
}

// Element `half` (0 or 1; always 0 for scalar sources) of a slot as a double.
template <Src S>
double element(uint64_t slot, bool ftz, int half) {
  switch (S) {
    case Src::F32: return fp::f32_in(slot, ftz);
    case Src::F64: return fp::f64_of(slot);
    case Src::F16: case Src::F16x2: return fp::half_in<false>(slot >> (16 * half), ftz);
    case Src::BF16: case Src::BF16x2: return fp::half_in<true>(slot >> (16 * half), ftz);
  }
  return 0.0;
}

constexpr bool is_pair_source(Src s) { return s == Src::F16x2 || s == Src::BF16x2; }

// aux layout: bit 0 ftz, bits 1-2 Combine, bit 3 c negated, bit 4 has q (setp).
struct Flags {
  bool ftz;
  Combine combine;
  bool c_negated;
  bool has_q;
};
Flags flags_of(uint64_t aux) {
  return {(aux & 1) != 0, static_cast<Combine>(aux >> 1 & 3), (aux >> 3 & 1) != 0,
          (aux >> 4 & 1) != 0};
}

LaneMask combine(LaneMask r, LaneMask c, Combine op) {
  switch (op) {
    case Combine::None: return r;
    case Combine::And: return r & c;
    case Combine::Or: return r | c;
    case Combine::Xor: return r ^ c;
  }
  return r;
}

// The comparison results of every executing lane: lower (or only) element and upper element.
template <Cmp C, Src S>
void compare_lanes(const ExecInst& in, Warp& w, bool ftz, LaneMask& lo, LaneMask& hi) {
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  lo = hi = 0;
  for_each_lane(w.exec, [&](uint32_t l) {
    if (compare<C>(element<S>(a[l], ftz, 0), element<S>(b[l], ftz, 0))) lo |= LaneMask{1} << l;
    if constexpr (is_pair_source(S)) {
      if (compare<C>(element<S>(a[l], ftz, 1), element<S>(b[l], ftz, 1))) hi |= LaneMask{1} << l;
    }
  });
}

LaneMask c_mask(const ExecInst& in, Warp& w, const Flags& f) {
  if (f.combine == Combine::None) return 0;
  const LaneMask c = w.p(in.s[2]);
  return f.c_negated ? ~c : c;
}

template <Cmp C, Src S>
void setp_h(const ExecInst& in, Warp& w) {
  const Flags f = flags_of(in.aux);
  LaneMask lo, hi;
  compare_lanes<C, S>(in, w, f.ftz, lo, hi);
  const LaneMask c = c_mask(in, w, f);
  const LaneMask p = combine(lo, c, f.combine);
  const LaneMask q = combine(is_pair_source(S) ? hi : ~lo, c, f.combine);
  LaneMask& pd = w.p(in.d[0]);
  pd = (pd & ~w.exec) | (p & w.exec);
  if (f.has_q) {
    LaneMask& qd = w.p(in.d[1]);
    qd = (qd & ~w.exec) | (q & w.exec);
  }
}

// set: in.aux2 is the value written for true (per half for x2 sources).
template <Cmp C, Src S>
void set_h(const ExecInst& in, Warp& w) {
  const Flags f = flags_of(in.aux);
  LaneMask lo, hi;
  compare_lanes<C, S>(in, w, f.ftz, lo, hi);
  const LaneMask c = c_mask(in, w, f);
  lo = combine(lo, c, f.combine);
  hi = combine(hi, c, f.combine);
  uint64_t* d = w.r(in.d[0]);
  for_each_lane(w.exec, [&](uint32_t l) {
    uint64_t v = (lo >> l & 1) ? in.aux2 : 0;
    if constexpr (is_pair_source(S)) v |= ((hi >> l & 1) ? in.aux2 : 0) << 16;
    d[l] = v;
  });
}

// ---- binding -----------------------------------------------------------------------------
constexpr std::string_view kCmpNames[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                                          "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

template <template <Cmp, Src> class Pick, Src S>
Handler handler_for_cmp(Cmp c) {
  switch (c) {
    case Cmp::Eq: return Pick<Cmp::Eq, S>::value;
    case Cmp::Ne: return Pick<Cmp::Ne, S>::value;
    case Cmp::Lt: return Pick<Cmp::Lt, S>::value;
    case Cmp::Le: return Pick<Cmp::Le, S>::value;
    case Cmp::Gt: return Pick<Cmp::Gt, S>::value;
    case Cmp::Ge: return Pick<Cmp::Ge, S>::value;
    case Cmp::Equ: return Pick<Cmp::Equ, S>::value;
    case Cmp::Neu: return Pick<Cmp::Neu, S>::value;
    case Cmp::Ltu: return Pick<Cmp::Ltu, S>::value;
    case Cmp::Leu: return Pick<Cmp::Leu, S>::value;
    case Cmp::Gtu: return Pick<Cmp::Gtu, S>::value;
    case Cmp::Geu: return Pick<Cmp::Geu, S>::value;
    case Cmp::Num: return Pick<Cmp::Num, S>::value;
    case Cmp::Nan: return Pick<Cmp::Nan, S>::value;
  }
  return nullptr;
}

template <Cmp C, Src S>
struct SetpPick {
  static constexpr Handler value = &setp_h<C, S>;
};
template <Cmp C, Src S>
struct SetPick {
  static constexpr Handler value = &set_h<C, S>;
};

template <template <Cmp, Src> class Pick>
Handler handler_for(Cmp c, Src s) {
  switch (s) {
    case Src::F32: return handler_for_cmp<Pick, Src::F32>(c);
    case Src::F64: return handler_for_cmp<Pick, Src::F64>(c);
    case Src::F16: return handler_for_cmp<Pick, Src::F16>(c);
    case Src::BF16: return handler_for_cmp<Pick, Src::BF16>(c);
    case Src::F16x2: return handler_for_cmp<Pick, Src::F16x2>(c);
    case Src::BF16x2: return handler_for_cmp<Pick, Src::BF16x2>(c);
  }
  return nullptr;
}

std::optional<Src> source_of(Kind k) {
  switch (k) {
    case Kind::F32: return Src::F32;
    case Kind::F64: return Src::F64;
    case Kind::F16: return Src::F16;
    case Kind::BF16: return Src::BF16;
    case Kind::F16x2: return Src::F16x2;
    case Kind::BF16x2: return Src::BF16x2;
    default: return std::nullopt;
  }
}

bool compare_modifiers_only(const fp::FloatForm& f) {
  return f.unknown.empty() && !f.round && !f.int_round && !f.sat && !f.satfinite && !f.relu &&
         !f.approx && !f.full && !f.nan && !f.xorsign && !f.abs && f.test.empty() &&
         !f.compare.empty();
}

Cmp cmp_of(const std::string& name) {
  uint8_t i = 0;
  while (kCmpNames[i] != name) ++i;
  return static_cast<Cmp>(i);
}

Combine combine_of(const std::string& name) {
  if (name == "and") return Combine::And;
  if (name == "or") return Combine::Or;
  if (name == "xor") return Combine::Xor;
  return Combine::None;
}

// Fills sources a, b and the optional predicate c (operands 1, 2 and 3); returns the flags.
uint64_t bind_sources(const ir::Instruction& inst, BindContext& ctx, ExecInst& e, Kind k,
                      const fp::FloatForm& f) {
  const Combine comb = combine_of(f.combine);
  ctx.expect_operands(inst, comb == Combine::None ? 3 : 4);
  e.s[0] = fp::source_slot(ctx, inst, 1, k);
  e.s[1] = fp::source_slot(ctx, inst, 2, k);
  e.ns = 2;
  bool negated = false;
  if (comb != Combine::None) {
    const ir::Operand& c = inst.operands[3];
    if (c.kind != ir::Operand::Kind::Pred) {
      ctx.error(c, "operand 3 of '" + inst.form() + "' must be a predicate");
    }
    e.s[2] = ctx.pred(c);
    e.ns = 3;
    negated = c.negated;
  }
  return uint64_t{f.ftz} | static_cast<uint64_t>(comb) << 1 | uint64_t{negated} << 3;
}

std::optional<ExecInst> bind_setp(const ir::Instruction& inst, BindContext& ctx) {
  const fp::FloatForm f = fp::read_form(inst);
  if (!f.any_float()) return std::nullopt;
  if (f.types.size() != 1 || !compare_modifiers_only(f)) ctx.unsupported(inst);
  const Kind k = f.types[0];
  const std::optional<Src> s = source_of(k);
  if (!s) ctx.unsupported(inst);
  ExecInst e = make_exec(inst, handler_for<SetpPick>(cmp_of(f.compare), *s));
  if (inst.operands.empty()) ctx.expect_operands(inst, 3);
  const ir::Operand& d = inst.operands[0];
  bool has_q = false;
  if (d.kind == ir::Operand::Kind::Vector && d.is_pair && d.elements.size() == 2) {
    e.d[0] = ctx.pred(d.elements[0]);
    e.d[1] = ctx.pred(d.elements[1]);
    e.nd = 2;
    has_q = true;
  } else {
    if (is_pair_source(*s)) ctx.error(d, "operand 0 of '" + inst.form() + "' must be a predicate pair p|q");
    e.d[0] = fp::dest_pred(ctx, inst, 0);
    e.nd = 1;
  }
  e.aux = bind_sources(inst, ctx, e, k, f) | uint64_t{has_q} << 4;
  return e;
}

// The value set writes for true: all ones for integer results, 1.0 for float results; per
// 16-bit half for x2 sources.
std::optional<uint64_t> true_value(Kind dst, Kind src) {
  const bool pair = src == Kind::F16x2 || src == Kind::BF16x2;
  switch (dst) {
    case Kind::U32: case Kind::S32: return pair ? 0xffffu : 0xffffffffu;
    case Kind::F32: return pair ? std::nullopt : std::optional<uint64_t>{0x3f800000u};
    case Kind::F16: return src == Kind::F16 ? std::optional<uint64_t>{0x3c00u} : std::nullopt;
    case Kind::F16x2: return src == Kind::F16x2 ? std::optional<uint64_t>{0x3c00u} : std::nullopt;
    case Kind::BF16: return src == Kind::BF16 ? std::optional<uint64_t>{0x3f80u} : std::nullopt;
    case Kind::BF16x2:
      return src == Kind::BF16x2 ? std::optional<uint64_t>{0x3f80u} : std::nullopt;
    default: return std::nullopt;
  }
}

std::optional<ExecInst> bind_set(const ir::Instruction& inst, BindContext& ctx) {
  const fp::FloatForm f = fp::read_form(inst);
  if (f.types.size() != 2 || !fp::is_float(f.types[1])) return std::nullopt;
  if (!compare_modifiers_only(f)) ctx.unsupported(inst);
  const std::optional<Src> s = source_of(f.types[1]);
  const std::optional<uint64_t> tv = true_value(f.types[0], f.types[1]);
  if (!s || !tv) ctx.unsupported(inst);
  ExecInst e = make_exec(inst, handler_for<SetPick>(cmp_of(f.compare), *s));
  if (inst.operands.empty()) ctx.expect_operands(inst, 3);
  e.d[0] = fp::dest_slot(ctx, inst, 0);
  e.nd = 1;
  e.aux = bind_sources(inst, ctx, e, f.types[1], f);
  e.aux2 = *tv;
  return e;
}

}  // namespace

void register_float_compare_ops(OpTable& t) {
  t.add("setp", bind_setp);
  t.add("set", bind_set);
}

}  // namespace lockstep::func
