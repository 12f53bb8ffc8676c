// Extended-precision carry chains: add.cc, addc{.cc}, sub.cc, subc{.cc}, mad{.lo,.hi}.cc and
// madc{.lo,.hi}{.cc} on .u32 .s32 .u64 .s64.
//
// The condition-code carry flag CC.CF is one bit per thread; it is kept as 0/1 per lane in
// carry_slot(ctx). As the ISA defines it, sub.cc/subc treat CF as a borrow:
//   subc: d = a - (b + CF), CF_out = 1 when that subtraction borrows.
// Signedness does not change the bits of any of these results (two's complement), so every
// form runs on the unsigned type of its width; only mad's .hi product depends on the sign.
#include "func/ops/integer_common.h"
#include "func/ops/integer_ops.h"

namespace lockstep::func::integer {
namespace {

enum class CarryOp : uint8_t { Add, Sub, MadLo, MadHi };

// T: the signed or unsigned type as written; the arithmetic runs on U = Unsigned<T>.
template <class T, CarryOp Op, bool CarryIn, bool CarryOut>
void carry_h(const ExecInst& in, Warp& w) {
  using U = Unsigned<T>;
  using UW = std::conditional_t<sizeof(T) == 8, UInt128, uint64_t>;
  constexpr unsigned kBits = 8 * sizeof(T);
  uint64_t* d = w.r(in.d[0]);
  uint64_t* cf = w.r(static_cast<uint32_t>(in.aux));
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  [[maybe_unused]] const uint64_t* c =
      Op == CarryOp::MadLo || Op == CarryOp::MadHi ? w.r(in.s[2]) : nullptr;
  each_lane(w, [&](uint32_t l) {
    const UW carry_in = CarryIn ? UW(cf[l] & 1) : UW(0);
    UW result;
    bool carry_out;
    if constexpr (Op == CarryOp::Sub) {
      const UW subtrahend = UW(get<U>(b[l])) + carry_in;
      const UW minuend = UW(get<U>(a[l]));
      result = minuend - subtrahend;
      carry_out = minuend < subtrahend;  // borrow
    } else {
      UW x = UW(get<U>(a[l]));
      UW y = UW(get<U>(b[l]));
      if constexpr (Op == CarryOp::MadLo || Op == CarryOp::MadHi) {
        using W = Wide<T>;  // exact signed or unsigned double-width product
        const auto p =
            static_cast<Unsigned<W>>(static_cast<W>(get<T>(a[l])) * static_cast<W>(get<T>(b[l])));
        x = UW(static_cast<U>(Op == CarryOp::MadHi ? p >> kBits : p));
        y = UW(get<U>(c[l]));
      }
      result = x + y + carry_in;
      carry_out = (result >> kBits) != 0;
    }
    d[l] = put<U>(static_cast<U>(result));
    if constexpr (CarryOut) cf[l] = carry_out ? 1 : 0;
  });
}

template <CarryOp Op, bool CarryIn, bool CarryOut>
Handler pick(const IntType& t) {
  if (t.bits != 32 && t.bits != 64) return nullptr;
  return dispatch_int(
      t, []<class T>(std::type_identity<T>) { return &carry_h<T, Op, CarryIn, CarryOut>; });
}

std::optional<IntType> carry_type(const Form& f) {
  if (f.types.size() != 1) return std::nullopt;
  auto t = int_type(f.types[0]);
  if (!t || t->kind == IntType::Kind::Bits || (t->bits != 32 && t->bits != 64)) return std::nullopt;
  return t;
}

ExecInst finish(const ir::Instruction& inst, BindContext& ctx, Handler h, size_t ns) {
  ExecInst e = bind_regs(inst, ctx, h, 1, ns);
  e.aux = carry_slot(ctx);
  return e;
}

// add.cc / sub.cc (carry out only) and addc / subc (carry in, optional .cc carry out).
template <CarryOp Op, bool CarryIn>
BindResult bind_add_sub(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float()) return std::nullopt;
  if (!CarryIn && !f.has("cc")) return std::nullopt;  // plain add/sub: integer_arith.cpp
  const auto t = carry_type(f);
  Handler h = nullptr;
  if (t && f.flags_within({"cc"})) {
    if (!CarryIn)
      h = pick<Op, false, true>(*t);
    else
      h = f.has("cc") ? pick<Op, true, true>(*t) : pick<Op, true, false>(*t);
  }
  if (!h) ctx.unsupported(inst);
  return finish(inst, ctx, h, 2);
}

template <CarryOp Lo, CarryOp Hi, bool CarryIn, bool CarryOut>
Handler pick_mad(const Form& f, const IntType& t) {
  if (f.has("hi")) return pick<Hi, CarryIn, CarryOut>(t);
  return pick<Lo, CarryIn, CarryOut>(t);
}

}  // namespace

BindResult bind_add_cc(const ir::Instruction& inst, BindContext& ctx) {
  return bind_add_sub<CarryOp::Add, false>(inst, ctx);
}
BindResult bind_addc(const ir::Instruction& inst, BindContext& ctx) {
  return bind_add_sub<CarryOp::Add, true>(inst, ctx);
}
BindResult bind_sub_cc(const ir::Instruction& inst, BindContext& ctx) {
  return bind_add_sub<CarryOp::Sub, false>(inst, ctx);
}
BindResult bind_subc(const ir::Instruction& inst, BindContext& ctx) {
  return bind_add_sub<CarryOp::Sub, true>(inst, ctx);
}

// mad{.lo,.hi}.cc: carry out of the addition.
BindResult bind_mad_cc(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float() || !f.has("cc")) return std::nullopt;
  const auto t = carry_type(f);
  Handler h = nullptr;
  if (t && f.flags.size() == 2 && (f.has("lo") || f.has("hi")))
    h = pick_mad<CarryOp::MadLo, CarryOp::MadHi, false, true>(f, *t);
  if (!h) ctx.unsupported(inst);
  return finish(inst, ctx, h, 3);
}

// madc{.lo,.hi}{.cc}: carry in, optional carry out.
BindResult bind_madc(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float()) return std::nullopt;
  const auto t = carry_type(f);
  Handler h = nullptr;
  const size_t modes = f.has("lo") + f.has("hi");
  if (t && modes == 1 && f.flags.size() == 1u + (f.has("cc") ? 1u : 0u)) {
    h = f.has("cc") ? pick_mad<CarryOp::MadLo, CarryOp::MadHi, true, true>(f, *t)
                    : pick_mad<CarryOp::MadLo, CarryOp::MadHi, true, false>(f, *t);
  }
  if (!h) ctx.unsupported(inst);
  return finish(inst, ctx, h, 3);
}

}  // namespace lockstep::func::integer
