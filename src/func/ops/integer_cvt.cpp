// cvt between integer types (u8..u64, s8..s64, with .sat) and cvt.pack.sat. Conversions with a
// float type on either side belong to the float family.
//
// cvt.dtype.atype: the source is read as atype (a wider register is truncated), extended by
// atype's signedness, then truncated to dtype (or clamped to dtype's range with .sat). A
// destination register wider than dtype receives the value sign-extended for .sN and
// zero-extended for .uN/.bN, as the ISA's relaxed type rules for cvt specify.
#include <algorithm>
#include <limits>

#include "func/ops/integer_common.h"
#include "func/ops/integer_ops.h"

namespace lockstep::func::integer {
namespace {

template <class D, class S, bool Sat>
void cvt_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t reg_mask = in.aux;
  each_lane(w, [&](uint32_t l) {
    const S v = get<S>(a[l]);
    D r;
    if constexpr (Sat) {
      const Int128 x = v;
      const Int128 lo = std::numeric_limits<D>::min(), hi = std::numeric_limits<D>::max();
      r = static_cast<D>(x < lo ? lo : (x > hi ? hi : x));
    } else {
      r = static_cast<D>(v);  // modular: keeps the low bits
    }
    const uint64_t extended = std::is_signed_v<D> ? static_cast<uint64_t>(static_cast<int64_t>(r))
                                                  : static_cast<uint64_t>(r);
    d[l] = extended & reg_mask;
  });
}

template <class S, bool Sat>
Handler pick_dst(const IntType& dst) {
  return dispatch_int8(dst, []<class D>(std::type_identity<D>) { return &cvt_h<D, S, Sat>; });
}

template <bool Sat>
Handler pick(const IntType& dst, const IntType& src) {
  return dispatch_int8(src, [&]<class S>(std::type_identity<S>) { return pick_dst<S, Sat>(dst); });
}

uint32_t type_bits(ptx::Type t) {
  switch (t) {
    case ptx::Type::B8:
    case ptx::Type::U8:
    case ptx::Type::S8:
      return 8;
    case ptx::Type::B16:
    case ptx::Type::U16:
    case ptx::Type::S16:
    case ptx::Type::F16:
    case ptx::Type::BF16:
      return 16;
    case ptx::Type::B32:
    case ptx::Type::U32:
    case ptx::Type::S32:
    case ptx::Type::F32:
    case ptx::Type::F16x2:
    case ptx::Type::BF16x2:
    case ptx::Type::TF32:
      return 32;
    case ptx::Type::B64:
    case ptx::Type::U64:
    case ptx::Type::S64:
    case ptx::Type::F64:
      return 64;
    default:
      return 0;
  }
}

// ---- cvt.pack --------------------------------------------------------------------------

// aux: element width in bits (2, 4, 8 or 16); aux2: 1 when the element type is signed.
// Low element = sat(b), next = sat(a), the remaining high bits from c (when present).
void cvt_pack_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = in.ns == 3 ? w.r(in.s[2]) : nullptr;
  const auto size = static_cast<uint32_t>(in.aux);
  const bool is_signed = in.aux2 != 0;
  const int64_t lo = is_signed ? -(int64_t{1} << (size - 1)) : 0;
  const int64_t hi = is_signed ? (int64_t{1} << (size - 1)) - 1 : (int64_t{1} << size) - 1;
  const uint32_t mask = static_cast<uint32_t>(low_bits(size));
  each_lane(w, [&](uint32_t l) {
    const auto sat = [&](uint64_t x) {
      const int64_t v = get<int32_t>(x);
      return static_cast<uint32_t>(v < lo ? lo : (v > hi ? hi : v)) & mask;
    };
    uint32_t r = sat(b[l]) | (sat(a[l]) << size);
    if (c && 2 * size < 32) r |= get<uint32_t>(c[l]) << (2 * size);
    d[l] = r;
  });
}

BindResult bind_cvt_pack(const ir::Instruction& inst, BindContext& ctx) {
  const auto& m = inst.modifiers;
  // cvt.pack.sat.{u16,s16}.s32 d, a, b  /  cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c
  if (m.size() < 4 || m[1] != "sat" || m[3] != "s32") ctx.unsupported(inst);
  const std::string& conv = m[2];
  const bool is_signed = conv[0] == 's';
  uint32_t size = 0;
  if ((conv[0] == 's' || conv[0] == 'u') && conv.size() >= 2) {
    const std::string_view width = std::string_view(conv).substr(1);
    size = width == "16" ? 16 : width == "8" ? 8 : width == "4" ? 4 : width == "2" ? 2 : 0;
  }
  const bool with_c = m.size() == 5 && m[4] == "b32";
  if (size == 0 || (size == 16 ? m.size() != 4 : !with_c)) ctx.unsupported(inst);
  ExecInst e = bind_regs(inst, ctx, &cvt_pack_h, 1, with_c ? 3 : 2);
  e.aux = size;
  e.aux2 = is_signed ? 1 : 0;
  return e;
}

}  // namespace

BindResult bind_cvt(const ir::Instruction& inst, BindContext& ctx) {
  if (!inst.modifiers.empty() && inst.modifiers[0] == "pack") return bind_cvt_pack(inst, ctx);
  const Form f = parse_form(inst);
  if (f.has_float() || f.types.size() != 2) return std::nullopt;
  const auto dst = int_type(f.types[0]);
  const auto src = int_type(f.types[1]);
  if (!dst || !src) return std::nullopt;
  if (!f.flags_within({"sat"})) ctx.unsupported(inst);
  const Handler h = f.has("sat") ? pick<true>(*dst, *src) : pick<false>(*dst, *src);
  ExecInst e = bind_regs(inst, ctx, h, 1, 1);
  const ir::Operand& out = inst.operands[0];
  const uint32_t reg_bits = out.kind == ir::Operand::Kind::Reg ? type_bits(out.reg_type) : 0;
  e.aux = low_bits(std::max<uint32_t>(dst->bits, reg_bits));
  return e;
}

}  // namespace lockstep::func::integer
