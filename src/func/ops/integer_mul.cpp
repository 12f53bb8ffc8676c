// Integer multiplication: mul and mad (.lo .hi .wide, mad.hi.sat.s32) for 16/32/64-bit signed
// and unsigned types, and the 24-bit forms mul24/mad24 (.lo .hi, mad24.hi.sat.s32).
#include <algorithm>

#include "func/ops/integer_common.h"
#include "func/ops/integer_ops.h"

namespace lockstep::func::integer {
namespace {

// Low half of the product: multiply as unsigned 64-bit (no signed overflow, no int promotion).
template <class T>
T mul_lo(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(static_cast<Unsigned<T>>(a)) *
                        static_cast<uint64_t>(static_cast<Unsigned<T>>(b)));
}
// High half: the exact double-width product, shifted (arithmetic shift for signed types).
template <class T>
T mul_hi(T a, T b) {
  using W = Wide<T>;
  return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> (8 * sizeof(T)));
}

struct MulLoOp {
  template <class T>
  static T apply(T a, T b) {
    return mul_lo(a, b);
  }
};
struct MulHiOp {
  template <class T>
  static T apply(T a, T b) {
    return mul_hi(a, b);
  }
};
struct MadLoOp {
  template <class T>
  static T apply(T a, T b, T c) {
    return static_cast<T>(static_cast<Unsigned<T>>(mul_lo(a, b)) + static_cast<Unsigned<T>>(c));
  }
};
struct MadHiOp {
  template <class T>
  static T apply(T a, T b, T c) {
    return static_cast<T>(static_cast<Unsigned<T>>(mul_hi(a, b)) + static_cast<Unsigned<T>>(c));
  }
};
// mad.hi.sat.s32: the high word plus c, clamped to the s32 range.
struct MadHiSatOp {
  static int32_t apply(int32_t a, int32_t b, int32_t c) {
    const int64_t r = int64_t{mul_hi(a, b)} + int64_t{c};
    return static_cast<int32_t>(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX));
  }
};

// mul.wide / mad.wide: n-bit sources, 2n-bit product (and 2n-bit addend).
template <class T>
void mul_wide_h(const ExecInst& in, Warp& w) {
  using W = Wide<T>;
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  each_lane(w, [&](uint32_t l) {
    d[l] = put<W>(static_cast<W>(static_cast<W>(get<T>(a[l])) * static_cast<W>(get<T>(b[l]))));
  });
}
template <class T>
void mad_wide_h(const ExecInst& in, Warp& w) {
  using W = Wide<T>;
  using UW = std::make_unsigned_t<W>;
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  each_lane(w, [&](uint32_t l) {
    const W p = static_cast<W>(static_cast<W>(get<T>(a[l])) * static_cast<W>(get<T>(b[l])));
    d[l] = put<W>(static_cast<W>(static_cast<UW>(p) + static_cast<UW>(get<W>(c[l]))));
  });
}

// mul24/mad24: the operands' low 24 bits (sign-extended from bit 23 for .s32) give a 48-bit
// product; .lo is bits 31..0, .hi bits 47..16.
template <bool Signed>
int64_t product24(uint32_t a, uint32_t b) {
  if constexpr (Signed) {
    const int64_t sa = static_cast<int32_t>(a << 8) >> 8;
    const int64_t sb = static_cast<int32_t>(b << 8) >> 8;
    return sa * sb;
  } else {
    return static_cast<int64_t>(a & 0xffffffu) * static_cast<int64_t>(b & 0xffffffu);
  }
}
template <bool Signed, bool Hi>
uint32_t part24(uint32_t a, uint32_t b) {
  const auto p = static_cast<uint64_t>(product24<Signed>(a, b));
  return static_cast<uint32_t>(Hi ? p >> 16 : p);
}
template <bool Signed, bool Hi>
struct Mul24Op {
  static uint32_t apply(uint32_t a, uint32_t b) { return part24<Signed, Hi>(a, b); }
};
template <bool Signed, bool Hi>
struct Mad24Op {
  static uint32_t apply(uint32_t a, uint32_t b, uint32_t c) { return part24<Signed, Hi>(a, b) + c; }
};
struct Mad24HiSatOp {
  static uint32_t apply(uint32_t a, uint32_t b, uint32_t c) {
    const int64_t r =
        int64_t{static_cast<int32_t>(part24<true, true>(a, b))} + int64_t{static_cast<int32_t>(c)};
    return static_cast<uint32_t>(
        static_cast<int32_t>(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX)));
  }
};

// The integer type of a mul/mad form (bN types are not accepted by the ISA here).
std::optional<IntType> arith_type(const Form& f) {
  if (f.types.size() != 1) return std::nullopt;
  auto t = int_type(f.types[0]);
  if (!t || t->kind == IntType::Kind::Bits || t->bits == 8) return std::nullopt;
  return t;
}

}  // namespace

BindResult bind_mul(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float()) return std::nullopt;
  if (f.types.size() != 1 || !int_type(f.types[0])) return std::nullopt;
  const auto t = arith_type(f);
  Handler h = nullptr;
  if (t && f.flags.size() == 1) {
    const std::string& mode = f.flags[0];
    if (mode == "lo") {
      h = dispatch_int(*t, []<class T>(std::type_identity<T>) { return &binary_h<T, MulLoOp>; });
    } else if (mode == "hi") {
      h = dispatch_int(*t, []<class T>(std::type_identity<T>) { return &binary_h<T, MulHiOp>; });
    } else if (mode == "wide" && t->bits <= 32) {
      h = dispatch_int(*t, []<class T>(std::type_identity<T>) -> Handler {
        if constexpr (sizeof(T) <= 4)
          return &mul_wide_h<T>;
        else
          return nullptr;
      });
    }
  }
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 2);
}

BindResult bind_mad(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float() || f.has("cc")) return std::nullopt;
  if (f.types.size() != 1 || !int_type(f.types[0])) return std::nullopt;
  const auto t = arith_type(f);
  Handler h = nullptr;
  if (t && f.flags.size() == 1) {
    const std::string& mode = f.flags[0];
    if (mode == "lo") {
      h = dispatch_int(*t, []<class T>(std::type_identity<T>) { return &ternary_h<T, MadLoOp>; });
    } else if (mode == "hi") {
      h = dispatch_int(*t, []<class T>(std::type_identity<T>) { return &ternary_h<T, MadHiOp>; });
    } else if (mode == "wide" && t->bits <= 32) {
      h = dispatch_int(*t, []<class T>(std::type_identity<T>) -> Handler {
        if constexpr (sizeof(T) <= 4)
          return &mad_wide_h<T>;
        else
          return nullptr;
      });
    }
  } else if (t && f.flags.size() == 2 && f.has("hi") && f.has("sat") && t->bits == 32 &&
             t->is_signed()) {
    h = &ternary_h<int32_t, MadHiSatOp>;
  }
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 3);
}

namespace {
// mul24/mad24 types: .u32 and .s32 only.
std::optional<bool> signed24(const Form& f) {
  if (f.types.size() != 1) return std::nullopt;
  if (f.types[0] == "s32") return true;
  if (f.types[0] == "u32") return false;
  return std::nullopt;
}
}  // namespace

BindResult bind_mul24(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float()) return std::nullopt;
  const auto s = signed24(f);
  Handler h = nullptr;
  if (s && f.flags.size() == 1) {
    const bool hi = f.flags[0] == "hi";
    if (hi || f.flags[0] == "lo") {
      if (*s)
        h = hi ? &binary_h<uint32_t, Mul24Op<true, true>>
               : &binary_h<uint32_t, Mul24Op<true, false>>;
      else
        h = hi ? &binary_h<uint32_t, Mul24Op<false, true>>
               : &binary_h<uint32_t, Mul24Op<false, false>>;
    }
  }
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 2);
}

BindResult bind_mad24(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float()) return std::nullopt;
  const auto s = signed24(f);
  Handler h = nullptr;
  if (s && f.flags.size() == 1) {
    const bool hi = f.flags[0] == "hi";
    if (hi || f.flags[0] == "lo") {
      if (*s)
        h = hi ? &ternary_h<uint32_t, Mad24Op<true, true>>
               : &ternary_h<uint32_t, Mad24Op<true, false>>;
      else
        h = hi ? &ternary_h<uint32_t, Mad24Op<false, true>>
               : &ternary_h<uint32_t, Mad24Op<false, false>>;
    }
  } else if (s && *s && f.flags.size() == 2 && f.has("hi") && f.has("sat")) {
    h = &ternary_h<uint32_t, Mad24HiSatOp>;
  }
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 3);
}

}  // namespace lockstep::func::integer
