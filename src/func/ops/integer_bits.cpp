// Bit manipulation: popc, clz, brev, bfind{.shiftamt}, bfe, bfi, szext, bmsk.
#include <bit>

#include "func/ops/integer_common.h"
#include "func/ops/integer_ops.h"

namespace lockstep::func::integer {
namespace {

// popc/clz: .b32/.b64 source, .u32 result.
template <class U>
void popc_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  each_lane(w, [&](uint32_t l) { d[l] = static_cast<uint32_t>(std::popcount(get<U>(a[l]))); });
}
template <class U>
void clz_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  each_lane(w, [&](uint32_t l) { d[l] = static_cast<uint32_t>(std::countl_zero(get<U>(a[l]))); });
}

struct BrevOp {
  template <class U>
  static U apply(U a) {
    U r = 0;
    for (unsigned i = 0; i < 8 * sizeof(U); ++i) r = static_cast<U>((r << 1) | ((a >> i) & 1));
    return r;
  }
};

// bfind: position of the most significant non-sign bit (0xffffffff when there is none); with
// .shiftamt, the left shift that brings that bit to the top.
template <class T, bool ShiftAmt>
void bfind_h(const ExecInst& in, Warp& w) {
  using U = Unsigned<T>;
  constexpr uint32_t kMsb = 8 * sizeof(T) - 1;
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  each_lane(w, [&](uint32_t l) {
    const T v = get<T>(a[l]);
    const U u = v < 0 ? static_cast<U>(~static_cast<U>(v)) : static_cast<U>(v);
    uint32_t r = 0xffffffffu;
    if (u != 0) {
      const uint32_t pos = kMsb - static_cast<uint32_t>(std::countl_zero(u));
      r = ShiftAmt ? kMsb - pos : pos;
    }
    d[l] = r;
  });
}

// bfe d, a, pos, len: pos = b & 0xff, len = c & 0xff. Bits past the msb of a and, for signed
// types, bits past the field are filled with the field's top bit (a[min(pos+len-1, msb)]).
template <class T>
void bfe_h(const ExecInst& in, Warp& w) {
  using U = Unsigned<T>;
  constexpr uint32_t kBits = 8 * sizeof(T);
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  each_lane(w, [&](uint32_t l) {
    const auto v = static_cast<U>(get<T>(a[l]));
    const uint32_t pos = get<uint32_t>(b[l]) & 0xff;
    const uint32_t len = get<uint32_t>(c[l]) & 0xff;
    U r = 0;
    if (len != 0 && pos < kBits) {
      const uint32_t avail = kBits - pos;  // bits of a at or above pos
      const uint32_t take = len < avail ? len : avail;
      const U field = static_cast<U>(v >> pos);
      r = take >= kBits ? field : static_cast<U>(field & ((U(1) << take) - 1));
      if constexpr (std::is_signed_v<T>) {
        if ((field >> (take - 1)) & 1)
          r = take >= kBits ? r : static_cast<U>(r | ~((U(1) << take) - 1));
      }
    } else if constexpr (std::is_signed_v<T>) {
      // pos beyond the msb: the sign bit is a[msb] (len != 0); len == 0 gives 0.
      if (len != 0 && ((v >> (kBits - 1)) & 1)) r = static_cast<U>(~U(0));
    }
    d[l] = put<U>(r);
  });
}

// bfi f, a, b, pos, len: b with len bits of a inserted at pos (pos/len & 0xff; clipped at msb).
template <class U>
void bfi_h(const ExecInst& in, Warp& w) {
  constexpr uint32_t kBits = 8 * sizeof(U);
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  const uint64_t* e = w.r(in.s[3]);
  each_lane(w, [&](uint32_t l) {
    const U insert = get<U>(a[l]);
    U r = get<U>(b[l]);
    const uint32_t pos = get<uint32_t>(c[l]) & 0xff;
    const uint32_t len = get<uint32_t>(e[l]) & 0xff;
    if (len != 0 && pos < kBits) {
      const uint32_t take = len < kBits - pos ? len : kBits - pos;
      const U mask =
          static_cast<U>((take >= kBits ? ~U(0) : static_cast<U>((U(1) << take) - 1)) << pos);
      r = static_cast<U>((r & ~mask) | (static_cast<U>(insert << pos) & mask));
    }
    d[l] = put<U>(r);
  });
}

// szext.mode.type d, a, n: sign- (.s32) or zero-extend (.u32) the low n bits of a.
template <bool Signed, bool Clamp>
struct SzextOp {
  static uint32_t apply(uint32_t a, uint32_t b) {
    const uint32_t n = b & 0x1f;
    const bool too_large = Clamp && b >= 32;
    const uint32_t mask = too_large ? 0u : (~0u << n);
    const bool sign = Signed && n != 0 && !too_large && ((a >> ((n - 1) & 0x1f)) & 1);
    return (a & ~mask) | (sign ? mask : 0u);
  }
};

// bmsk.mode.b32 d, pos, width: a mask of `width` ones starting at bit `pos`.
template <bool Clamp>
struct BmskOp {
  static uint32_t apply(uint32_t a, uint32_t b) {
    const uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1;
    uint32_t mask1 = sum >= 32 ? 0u : (~0u << sum);
    bool overflow = sum >= 32;
    if (Clamp) {
      if (a >= 32) {
        mask0 = 0;
        overflow = true;
      }
      if (b >= 32) overflow = true;
    }
    if (overflow)
      mask1 = 0;
    else if (b1 == 0)
      mask1 = ~0u;
    return mask0 & ~mask1;
  }
};

// A single .b32 / .b64 type (what popc, clz, brev and bfi take).
std::optional<uint8_t> bit_width_of(const Form& f) {
  if (f.types.size() != 1 || !f.flags.empty()) return std::nullopt;
  if (f.types[0] == "b32") return 32;
  if (f.types[0] == "b64") return 64;
  return std::nullopt;
}

BindResult bind_b32_b64(const ir::Instruction& inst, BindContext& ctx, Handler h32, Handler h64,
                        size_t ns) {
  const auto width = bit_width_of(parse_form(inst));
  if (!width) ctx.unsupported(inst);
  return bind_regs(inst, ctx, *width == 32 ? h32 : h64, 1, ns);
}

}  // namespace

BindResult bind_popc(const ir::Instruction& inst, BindContext& ctx) {
  return bind_b32_b64(inst, ctx, &popc_h<uint32_t>, &popc_h<uint64_t>, 1);
}
BindResult bind_clz(const ir::Instruction& inst, BindContext& ctx) {
  return bind_b32_b64(inst, ctx, &clz_h<uint32_t>, &clz_h<uint64_t>, 1);
}
BindResult bind_bfi(const ir::Instruction& inst, BindContext& ctx) {
  return bind_b32_b64(inst, ctx, &bfi_h<uint32_t>, &bfi_h<uint64_t>, 4);
}
BindResult bind_brev(const ir::Instruction& inst, BindContext& ctx) {
  return bind_b32_b64(inst, ctx, &unary_h<uint32_t, BrevOp>, &unary_h<uint64_t, BrevOp>, 1);
}

BindResult bind_bfind(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  const auto t = f.types.size() == 1 ? int_type(f.types[0]) : std::nullopt;
  const bool shiftamt = f.has("shiftamt");
  Handler h = nullptr;
  if (t && t->kind != IntType::Kind::Bits && (t->bits == 32 || t->bits == 64) &&
      f.flags_within({"shiftamt"})) {
    h = shiftamt
            ? dispatch_int(*t, []<class T>(std::type_identity<T>) { return &bfind_h<T, true>; })
            : dispatch_int(*t, []<class T>(std::type_identity<T>) { return &bfind_h<T, false>; });
  }
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 1);
}

BindResult bind_bfe(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  const auto t = f.types.size() == 1 ? int_type(f.types[0]) : std::nullopt;
  Handler h = nullptr;
  if (t && t->kind != IntType::Kind::Bits && (t->bits == 32 || t->bits == 64) && f.flags.empty())
    h = dispatch_int(*t, []<class T>(std::type_identity<T>) { return &bfe_h<T>; });
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 3);
}

BindResult bind_szext(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  const std::string_view mode = f.pick({"clamp", "wrap"});
  Handler h = nullptr;
  if (f.types.size() == 1 && f.flags.size() == 1 && !mode.empty()) {
    const bool clamp = mode == "clamp";
    if (f.types[0] == "s32")
      h = clamp ? &binary_h<uint32_t, SzextOp<true, true>>
                : &binary_h<uint32_t, SzextOp<true, false>>;
    if (f.types[0] == "u32")
      h = clamp ? &binary_h<uint32_t, SzextOp<false, true>>
                : &binary_h<uint32_t, SzextOp<false, false>>;
  }
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 2);
}

BindResult bind_bmsk(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  const std::string_view mode = f.pick({"clamp", "wrap"});
  Handler h = nullptr;
  if (f.types == std::vector<std::string>{"b32"} && f.flags.size() == 1 && !mode.empty())
    h = mode == "clamp" ? &binary_h<uint32_t, BmskOp<true>> : &binary_h<uint32_t, BmskOp<false>>;
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 2);
}

}  // namespace lockstep::func::integer
