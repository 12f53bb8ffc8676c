// Integer arithmetic: add, sub (plain and .sat.s32), abs, neg, min, max (.relu), div, rem, sad.
// Multiplication forms live in integer_mul.cpp, carry chains in integer_carry.cpp and packed
// 16x2 forms in integer_simd.cpp.
#include <algorithm>
#include <limits>

#include "func/ops/integer_common.h"
#include "func/ops/integer_ops.h"

namespace lockstep::func::integer {
namespace {

// Wrapping arithmetic is done on the unsigned type so that signed overflow is well defined.
struct AddOp {
  template <class T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<Unsigned<T>>(a) + static_cast<Unsigned<T>>(b));
  }
};
struct SubOp {
  template <class T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<Unsigned<T>>(a) - static_cast<Unsigned<T>>(b));
  }
};
// add.sat.s32 / sub.sat.s32: clamp to [INT_MIN, INT_MAX].
struct AddSatOp {
  static int32_t apply(int32_t a, int32_t b) {
    const int64_t r = int64_t{a} + int64_t{b};
    return static_cast<int32_t>(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX));
  }
};
struct SubSatOp {
  static int32_t apply(int32_t a, int32_t b) {
    const int64_t r = int64_t{a} - int64_t{b};
    return static_cast<int32_t>(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX));
  }
};
struct MinOp {
  template <class T>
  static T apply(T a, T b) {
    return a < b ? a : b;
  }
};
struct MaxOp {
  template <class T>
  static T apply(T a, T b) {
    return a > b ? a : b;
  }
};
// .relu: a negative result becomes 0.
struct MinReluOp {
  static int32_t apply(int32_t a, int32_t b) { return std::max(std::min(a, b), 0); }
};
struct MaxReluOp {
  static int32_t apply(int32_t a, int32_t b) { return std::max(std::max(a, b), 0); }
};
// abs/neg of the most negative value is that value (two's complement wrap), as on hardware.
struct AbsOp {
  template <class T>
  static T apply(T a) {
    const auto u = static_cast<Unsigned<T>>(a);
    return a < 0 ? static_cast<T>(Unsigned<T>(0) - u) : a;
  }
};
struct NegOp {
  template <class T>
  static T apply(T a) {
    return static_cast<T>(Unsigned<T>(0) - static_cast<Unsigned<T>>(a));
  }
};

// Division by zero and overflow, defined as the hardware's division sequence behaves:
//   x / 0 = all ones (unsigned: UINT_MAX; signed: -1), for every width;
//   x % 0 = x;
//   INT_MIN / -1 = INT_MIN and INT_MIN % -1 = 0 (signed types only).
struct DivOp {
  template <class T>
  static T apply(T a, T b) {
    if (b == 0) return static_cast<T>(~Unsigned<T>(0));
    if constexpr (std::is_signed_v<T>) {
      if (a == std::numeric_limits<T>::min() && b == -1) return a;
    }
    return static_cast<T>(a / b);
  }
};
struct RemOp {
  template <class T>
  static T apply(T a, T b) {
    if (b == 0) return a;
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return 0;
    }
    return static_cast<T>(a % b);
  }
};
// sad: d = c + |a - b|, the difference taken in the type's signedness and wrapped.
struct SadOp {
  template <class T>
  static T apply(T a, T b, T c) {
    using U = Unsigned<T>;
    const U diff = a < b ? static_cast<U>(static_cast<U>(b) - static_cast<U>(a))
                         : static_cast<U>(static_cast<U>(a) - static_cast<U>(b));
    return static_cast<T>(static_cast<U>(static_cast<U>(c) + diff));
  }
};

// The one integer type of a plain arithmetic form, or nullopt.
std::optional<IntType> single_int_type(const Form& f) {
  if (f.types.size() != 1) return std::nullopt;
  return int_type(f.types[0]);
}

template <class Op>
Handler binary_any(const IntType& t) {
  return dispatch_int(t, []<class T>(std::type_identity<T>) { return &binary_h<T, Op>; });
}

// add/sub: .s16 .u16 .s32 .u32 .s64 .u64 (bN accepted as uN), and .sat.s32.
template <class Op, class SatOp>
std::optional<ExecInst> bind_add_like(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float() || f.has("cc")) return std::nullopt;
  const auto t = single_int_type(f);
  if (!t) return std::nullopt;
  Handler h = nullptr;
  if (f.flags.empty())
    h = binary_any<Op>(*t);
  else if (f.flags == std::vector<std::string>{"sat"} && t->bits == 32 && t->is_signed())
    h = &binary_h<int32_t, SatOp>;
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 2);
}

std::optional<ExecInst> bind_minmax_common(const ir::Instruction& inst, BindContext& ctx,
                                           Handler (*plain)(const IntType&), Handler relu) {
  const Form f = parse_form(inst);
  if (f.has_float()) return std::nullopt;
  const auto t = single_int_type(f);
  if (!t) return std::nullopt;
  Handler h = nullptr;
  if (t->kind != IntType::Kind::Bits) {
    if (f.flags.empty())
      h = plain(*t);
    else if (f.flags == std::vector<std::string>{"relu"} && t->bits == 32 && t->is_signed())
      h = relu;
  }
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 2);
}

}  // namespace

std::optional<ExecInst> bind_add(const ir::Instruction& inst, BindContext& ctx) {
  return bind_add_like<AddOp, AddSatOp>(inst, ctx);
}

std::optional<ExecInst> bind_sub(const ir::Instruction& inst, BindContext& ctx) {
  return bind_add_like<SubOp, SubSatOp>(inst, ctx);
}

std::optional<ExecInst> bind_min(const ir::Instruction& inst, BindContext& ctx) {
  return bind_minmax_common(inst, ctx, &binary_any<MinOp>, &binary_h<int32_t, MinReluOp>);
}

std::optional<ExecInst> bind_max(const ir::Instruction& inst, BindContext& ctx) {
  return bind_minmax_common(inst, ctx, &binary_any<MaxOp>, &binary_h<int32_t, MaxReluOp>);
}

std::optional<ExecInst> bind_div(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float()) return std::nullopt;
  const auto t = single_int_type(f);
  if (!t) return std::nullopt;
  Handler h = f.flags.empty() && t->kind != IntType::Kind::Bits ? binary_any<DivOp>(*t) : nullptr;
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 2);
}

std::optional<ExecInst> bind_rem(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float()) return std::nullopt;
  const auto t = single_int_type(f);
  if (!t) return std::nullopt;
  Handler h = f.flags.empty() && t->kind != IntType::Kind::Bits ? binary_any<RemOp>(*t) : nullptr;
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 2);
}

// abs and neg: one signed source, no modifiers besides the type.
template <class Op>
std::optional<ExecInst> bind_signed_unary(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float()) return std::nullopt;
  const auto t = single_int_type(f);
  if (!t) return std::nullopt;
  Handler h = nullptr;
  if (f.flags.empty() && t->is_signed())
    h = dispatch_int(*t, []<class T>(std::type_identity<T>) { return &unary_h<T, Op>; });
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 1);
}

std::optional<ExecInst> bind_abs(const ir::Instruction& inst, BindContext& ctx) {
  return bind_signed_unary<AbsOp>(inst, ctx);
}

std::optional<ExecInst> bind_neg(const ir::Instruction& inst, BindContext& ctx) {
  return bind_signed_unary<NegOp>(inst, ctx);
}

std::optional<ExecInst> bind_sad(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.has_float()) return std::nullopt;
  const auto t = single_int_type(f);
  if (!t) return std::nullopt;
  Handler h = nullptr;
  if (f.flags.empty() && t->kind != IntType::Kind::Bits)
    h = dispatch_int(*t, []<class T>(std::type_identity<T>) { return &ternary_h<T, SadOp>; });
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 3);
}

}  // namespace lockstep::func::integer
