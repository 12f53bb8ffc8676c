#pragma once
// Shared pieces of the integer opcode family (integer_*.cpp): splitting an instruction's
// modifiers into types and flags, mapping a PTX integer type to the C++ type a handler template
// is instantiated with, binding plain register/immediate operands, and the lane loop.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "func/bind.h"
#include "func/exec_inst.h"
#include "func/lanes.h"
#include "func/warp.h"
#include "ir/program.h"

namespace lockstep::func::integer {

// ---- modifiers ---------------------------------------------------------------------------

// A PTX fundamental integer type as written: .u32 -> {Unsigned, 32}.
struct IntType {
  enum class Kind : uint8_t { Unsigned, Signed, Bits };
  Kind kind = Kind::Unsigned;
  uint8_t bits = 0;
  bool is_signed() const { return kind == Kind::Signed; }
};

// u8..u64, s8..s64, b8..b64 (not b128, not pred, not the packed x2 forms).
std::optional<IntType> int_type(std::string_view modifier);
// f16, f16x2, bf16, bf16x2, tf32, f32, f64 and the fp8/fp6/fp4 formats: the float family's.
bool is_float_type(std::string_view modifier);

// An instruction's modifiers split into type names (in order) and everything else (flags).
struct Form {
  std::vector<std::string> types;  // "s32", "u16x2", "pred", "f32", ...
  std::vector<std::string> flags;  // "lo", "sat", "cc", "eq", ...
  bool has(std::string_view flag) const;
  bool has_float() const;
  // True when every flag is one of `allowed`.
  bool flags_within(std::initializer_list<std::string_view> allowed) const;
  // The one flag out of `choices` present (first found), or "" when none is.
  std::string_view pick(std::initializer_list<std::string_view> choices) const;
};
Form parse_form(const ir::Instruction& inst);

// ---- type dispatch -----------------------------------------------------------------------

// Calls fn(std::type_identity<T>{}) with the C++ type of a 16/32/64-bit integer type
// (bN and uN map to the unsigned type) and returns its result; nullptr when `t` is none of them.
template <class Fn>
Handler dispatch_int(const IntType& t, Fn&& fn) {
  const bool s = t.is_signed();
  switch (t.bits) {
    case 16:
      return s ? fn(std::type_identity<int16_t>{}) : fn(std::type_identity<uint16_t>{});
    case 32:
      return s ? fn(std::type_identity<int32_t>{}) : fn(std::type_identity<uint32_t>{});
    case 64:
      return s ? fn(std::type_identity<int64_t>{}) : fn(std::type_identity<uint64_t>{});
    default:
      return nullptr;
  }
}

// The same with 8-bit types included (cvt).
template <class Fn>
Handler dispatch_int8(const IntType& t, Fn&& fn) {
  if (t.bits == 8) {
    return t.is_signed() ? fn(std::type_identity<int8_t>{}) : fn(std::type_identity<uint8_t>{});
  }
  return dispatch_int(t, fn);
}

// 128-bit integers for 64-bit products and carries (__extension__ keeps -Wpedantic quiet).
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

// Unsigned type of the same width (128-bit included: std::make_unsigned does not know
// __int128 in strict C++20), and the type of twice the width (128 for 64-bit).
template <class T>
struct ToUnsigned {
  using type = std::make_unsigned_t<T>;
};
template <>
struct ToUnsigned<Int128> {
  using type = UInt128;
};
template <>
struct ToUnsigned<UInt128> {
  using type = UInt128;
};
template <class T>
using Unsigned = typename ToUnsigned<T>::type;
template <class T>
using Wide = std::conditional_t<
    sizeof(T) == 1, std::conditional_t<std::is_signed_v<T>, int16_t, uint16_t>,
    std::conditional_t<
        sizeof(T) == 2, std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>,
        std::conditional_t<sizeof(T) == 4,
                           std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>,
                           std::conditional_t<std::is_signed_v<T>, Int128, UInt128>>>>;

// ---- operand binding ---------------------------------------------------------------------

// Slot of operand i as a destination register (a sink `_` gets the scratch slot).
uint32_t dest_slot(const ir::Instruction& inst, BindContext& ctx, size_t i);
// Slot of operand i as a source value: register, immediate or special register.
uint32_t source_slot(const ir::Instruction& inst, BindContext& ctx, size_t i);
// Predicate index of operand i, which must be a predicate (or a sink for destinations).
uint32_t pred_index(const ir::Instruction& inst, BindContext& ctx, size_t i);

// The common shape "d0..d(nd-1), s0..s(ns-1)": checks the count and kinds, fills d[] and s[].
ExecInst bind_regs(const ir::Instruction& inst, BindContext& ctx, Handler fn, size_t nd, size_t ns);

// The carry flag (CC.CF) of add.cc/addc/sub.cc/subc/mad.cc/madc: one value (0 or 1) per lane,
// kept in the kernel's scratch slot, which lives as long as the warp.
uint32_t carry_slot(BindContext& ctx);

// ---- handler helpers ---------------------------------------------------------------------

// Calls f(lane) for every lane in w.exec; a straight loop when every lane runs.
template <class F>
inline void each_lane(const Warp& w, F&& f) {
  if (w.exec == full_mask(w.width)) {
    for (uint32_t l = 0; l < w.width; ++l) f(l);
  } else {
    for_each_lane(w.exec, f);
  }
}

// Writes `value` into predicate `p` for the lanes in `exec` only.
inline void write_pred(LaneMask& p, LaneMask value, LaneMask exec) {
  p = (p & ~exec) | (value & exec);
}

// Mask of the low `bits` bits of a 64-bit slot.
inline uint64_t low_bits(uint32_t bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

// Handler shapes: d = Op::apply(a [, b [, c]]) with every operand of type T.
template <class T, class Op>
void unary_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  each_lane(w, [&](uint32_t l) { d[l] = put<T>(Op::apply(get<T>(a[l]))); });
}

template <class T, class Op>
void binary_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  each_lane(w, [&](uint32_t l) { d[l] = put<T>(Op::apply(get<T>(a[l]), get<T>(b[l]))); });
}

template <class T, class Op>
void ternary_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  each_lane(
      w, [&](uint32_t l) { d[l] = put<T>(Op::apply(get<T>(a[l]), get<T>(b[l]), get<T>(c[l]))); });
}

}  // namespace lockstep::func::integer
