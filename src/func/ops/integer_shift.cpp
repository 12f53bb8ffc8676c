// Shifts and byte permutes: shl, shr (logical for .b/.u, arithmetic for .s), shf.l/.r with
// .clamp/.wrap, and prmt.b32 in every mode (default, .f4e .b4e .rc8 .ecl .ecr .rc16).
#include <array>

#include "func/ops/integer_common.h"
#include "func/ops/integer_ops.h"

namespace lockstep::func::integer {
namespace {

// The shift amount is an unsigned 32-bit operand; amounts of the width or more are clamped to
// the width, so shl/shr.u give 0 and shr.s gives the sign in every bit.
template <class T, bool Left>
void shift_h(const ExecInst& in, Warp& w) {
  using U = Unsigned<T>;
  constexpr uint32_t kBits = 8 * sizeof(T);
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  each_lane(w, [&](uint32_t l) {
    const T v = get<T>(a[l]);
    const uint32_t n = get<uint32_t>(b[l]);
    T r;
    if constexpr (Left) {
      r = n >= kBits ? T(0) : static_cast<T>(static_cast<U>(static_cast<U>(v) << n));
    } else if constexpr (std::is_signed_v<T>) {
      r = n >= kBits ? static_cast<T>(v < 0 ? -1 : 0) : static_cast<T>(v >> n);
    } else {
      r = n >= kBits ? T(0) : static_cast<T>(v >> n);
    }
    d[l] = put<T>(r);
  });
}

// shf: shift the 64-bit {b, a} by n (clamped to 32 or wrapped mod 32); .l keeps the high word,
// .r the low word.
template <bool Left, bool Clamp>
struct ShfOp {
  static uint32_t apply(uint32_t a, uint32_t b, uint32_t c) {
    const uint32_t n = Clamp ? (c < 32 ? c : 32) : (c & 31);
    const uint64_t both = (uint64_t{b} << 32) | a;
    return Left ? static_cast<uint32_t>((both << n) >> 32) : static_cast<uint32_t>(both >> n);
  }
};

// ---- prmt ------------------------------------------------------------------------------

enum class PrmtMode : uint8_t { Generic, F4e, B4e, Rc8, Ecl, Ecr, Rc16 };

// Source byte index (0..7 of {b, a}) for destination byte i under a mode, selector s = c & 3.
constexpr uint32_t mode_byte(PrmtMode m, uint32_t s, uint32_t i) {
  switch (m) {
    case PrmtMode::F4e:
      return (s + i) & 7;  // 3210, 4321, 5432, 6543
    case PrmtMode::B4e:
      return (s + 8 - i) & 7;  // 5670, 6701, 7012, 0123
    case PrmtMode::Rc8:
      return s;  // 0000, 1111, 2222, 3333
    case PrmtMode::Ecl:
      return i > s ? i : s;  // 3210, 3211, 3222, 3333
    case PrmtMode::Ecr:
      return i < s ? i : s;  // 0000, 1110, 2210, 3210
    case PrmtMode::Rc16:
      return 2 * (s & 1) + (i & 1);  // 1010, 3232, 1010, 3232
    default:
      return i;
  }
}

template <PrmtMode Mode>
struct PrmtOp {
  static uint32_t apply(uint32_t a, uint32_t b, uint32_t c) {
    const uint64_t src = (uint64_t{b} << 32) | a;
    uint32_t d = 0;
    for (uint32_t i = 0; i < 4; ++i) {
      uint32_t byte;
      if constexpr (Mode == PrmtMode::Generic) {
        const uint32_t sel = (c >> (4 * i)) & 0xf;
        byte = static_cast<uint32_t>(src >> (8 * (sel & 7))) & 0xff;
        if (sel & 8) byte = (byte & 0x80) ? 0xff : 0x00;  // replicate the byte's sign
      } else {
        byte = static_cast<uint32_t>(src >> (8 * mode_byte(Mode, c & 3, i))) & 0xff;
      }
      d |= byte << (8 * i);
    }
    return d;
  }
};

}  // namespace

BindResult bind_shl(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  const auto t = f.types.size() == 1 ? int_type(f.types[0]) : std::nullopt;
  Handler h = nullptr;
  // shl takes .b16 .b32 .b64 in the ISA; .u/.s are the same bits and are accepted too.
  if (t && t->bits >= 16 && f.flags.empty())
    h = dispatch_int(IntType{IntType::Kind::Unsigned, t->bits},
                     []<class T>(std::type_identity<T>) { return &shift_h<T, true>; });
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 2);
}

BindResult bind_shr(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  const auto t = f.types.size() == 1 ? int_type(f.types[0]) : std::nullopt;
  Handler h = nullptr;
  if (t && t->bits >= 16 && f.flags.empty())
    h = dispatch_int(*t, []<class T>(std::type_identity<T>) { return &shift_h<T, false>; });
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 2);
}

BindResult bind_shf(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  const std::string_view dir = f.pick({"l", "r"});
  const std::string_view mode = f.pick({"clamp", "wrap"});
  Handler h = nullptr;
  if (f.types == std::vector<std::string>{"b32"} && f.flags.size() == 2 && !dir.empty() &&
      !mode.empty()) {
    const bool left = dir == "l", clamp = mode == "clamp";
    if (left)
      h = clamp ? &ternary_h<uint32_t, ShfOp<true, true>>
                : &ternary_h<uint32_t, ShfOp<true, false>>;
    else
      h = clamp ? &ternary_h<uint32_t, ShfOp<false, true>>
                : &ternary_h<uint32_t, ShfOp<false, false>>;
  }
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 3);
}

BindResult bind_prmt(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  Handler h = nullptr;
  if (f.types == std::vector<std::string>{"b32"} && f.flags.size() <= 1) {
    const std::string_view mode =
        f.flags.empty() ? std::string_view("") : std::string_view(f.flags[0]);
    if (mode.empty())
      h = &ternary_h<uint32_t, PrmtOp<PrmtMode::Generic>>;
    else if (mode == "f4e")
      h = &ternary_h<uint32_t, PrmtOp<PrmtMode::F4e>>;
    else if (mode == "b4e")
      h = &ternary_h<uint32_t, PrmtOp<PrmtMode::B4e>>;
    else if (mode == "rc8")
      h = &ternary_h<uint32_t, PrmtOp<PrmtMode::Rc8>>;
    else if (mode == "ecl")
      h = &ternary_h<uint32_t, PrmtOp<PrmtMode::Ecl>>;
    else if (mode == "ecr")
      h = &ternary_h<uint32_t, PrmtOp<PrmtMode::Ecr>>;
    else if (mode == "rc16")
      h = &ternary_h<uint32_t, PrmtOp<PrmtMode::Rc16>>;
  }
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 3);
}

}  // namespace lockstep::func::integer
