// Selection: selp (every type: it moves bits, so floats are handled here too) and slct
// (d = c >= 0 ? a : b, with c .s32 or .f32).
#include <bit>

#include "func/ops/integer_common.h"
#include "func/ops/integer_ops.h"

namespace lockstep::func::integer {
namespace {

// aux bit 0: the predicate is negated.
template <class U>
void selp_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const LaneMask p = (in.aux & 1) ? ~w.p(in.s[2]) : w.p(in.s[2]);
  each_lane(w, [&](uint32_t l) { d[l] = put<U>(get<U>(((p >> l) & 1) ? a[l] : b[l])); });
}

// C is int32_t or float; FlushDenormals applies .ftz (a negative subnormal counts as -0).
template <class U, class C, bool FlushDenormals>
void slct_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  each_lane(w, [&](uint32_t l) {
    bool take_a;
    if constexpr (std::is_same_v<C, float>) {
      uint32_t bits = get<uint32_t>(c[l]);
      if (FlushDenormals && (bits & 0x7f800000u) == 0) bits &= 0x80000000u;
      take_a = std::bit_cast<float>(bits) >= 0.0f;  // false for NaN
    } else {
      take_a = get<int32_t>(c[l]) >= 0;
    }
    d[l] = put<U>(get<U>(take_a ? a[l] : b[l]));
  });
}

// Bit width of any selp/slct data type: integer, float or packed.
uint32_t data_width(std::string_view t) {
  if (auto it = int_type(t)) return it->bits;
  if (t == "f16" || t == "bf16") return 16;
  if (t == "f32" || t == "f16x2" || t == "bf16x2" || t == "u16x2" || t == "s16x2" || t == "tf32")
    return 32;
  if (t == "f64") return 64;
  return 0;
}

Handler selp_by_width(uint32_t bits) {
  switch (bits) {
    case 16:
      return &selp_h<uint16_t>;
    case 32:
      return &selp_h<uint32_t>;
    case 64:
      return &selp_h<uint64_t>;
    default:
      return nullptr;
  }
}

}  // namespace

BindResult bind_selp(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  const Handler h =
      f.types.size() == 1 && f.flags.empty() ? selp_by_width(data_width(f.types[0])) : nullptr;
  if (!h) ctx.unsupported(inst);
  ctx.expect_operands(inst, 4);
  ExecInst e = make_exec(inst, h);
  e.d[0] = dest_slot(inst, ctx, 0);
  e.s[0] = source_slot(inst, ctx, 1);
  e.s[1] = source_slot(inst, ctx, 2);
  e.s[2] = pred_index(inst, ctx, 3);
  e.aux = inst.operands[3].negated ? 1 : 0;
  e.nd = 1;
  e.ns = 3;
  return e;
}

// slct.dtype.s32 d, a, b, c  /  slct{.ftz}.dtype.f32 d, a, b, c
BindResult bind_slct(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  Handler h = nullptr;
  if (f.types.size() == 2 && f.flags_within({"ftz"})) {
    const uint32_t bits = data_width(f.types[0]);
    const bool ftz = f.has("ftz");
    if (f.types[1] == "s32" && !ftz) {
      if (bits == 16) h = &slct_h<uint16_t, int32_t, false>;
      if (bits == 32) h = &slct_h<uint32_t, int32_t, false>;
      if (bits == 64) h = &slct_h<uint64_t, int32_t, false>;
    } else if (f.types[1] == "f32") {
      if (bits == 16) h = ftz ? &slct_h<uint16_t, float, true> : &slct_h<uint16_t, float, false>;
      if (bits == 32) h = ftz ? &slct_h<uint32_t, float, true> : &slct_h<uint32_t, float, false>;
      if (bits == 64) h = ftz ? &slct_h<uint64_t, float, true> : &slct_h<uint64_t, float, false>;
    }
  }
  if (!h) ctx.unsupported(inst);
  return bind_regs(inst, ctx, h, 1, 3);
}

}  // namespace lockstep::func::integer
