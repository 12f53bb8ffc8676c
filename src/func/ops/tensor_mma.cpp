// mma.sync.aligned with the fragment layouts documented in the PTX ISA ("Matrix Fragments for
// mma.m16n8k16 with floating point type", "... for mma.m16n8k8", "... m16n8k4", the integer
// m16n8k16 / m16n8k32 sections and m8n8k4 .f64). Programs build these fragments by hand
// (ldmatrix, shuffles, direct loads), so the mapping below is exactly the hardware's. With
// groupID g = laneid >> 2 and threadID_in_group t = laneid % 4, element i of a lane is:
//
//   m16n8k16 .f16/.bf16  A: row g + 8*((i>>1)&1), col 2t + (i&1) + 8*(i>=4)
//                        B: row 2t + (i&1) + 8*(i>=2), col g
//   m16n8k8  .f16/.bf16  A: row g + 8*(i>=2), col 2t + (i&1)      B: row 2t + i, col g
//   m16n8k8  .tf32       A: row g + 8*(i&1), col t + 4*(i>=2)     B: row t + 4i, col g
//   m16n8k4  .tf32       A: row g + 8i, col t                     B: row t, col g
//   m16n8k16 .s8/.u8     A: row g + 8*(i>=4), col 4t + (i&3)      B: row 4t + i, col g
//   m16n8k32 .s8/.u8     A: row g + 8*((i>>2)&1), col 4t + (i&3) + 16*(i>=8)
//                        B: row 4t + (i&3) + 16*(i>=4), col g
//   m8n8k4   .f64        A: row g, col t    B: row t, col g    C/D: row g, col 2t + i
//   C/D of every m16n8kK: row g + 8*(i>=2), col 2t + (i&1)
//
// Supported type combinations (.dtype.atype.btype.ctype): f16 multiplicands with f16 or f32
// C and D (m16n8k16, m16n8k8), f32.bf16.bf16.f32 (m16n8k16, m16n8k8), f32.tf32.tf32.f32
// (m16n8k8, m16n8k4), s32.{s8,u8}.{s8,u8}.s32{.satfinite} (m16n8k16, m16n8k32) and
// f64.f64.f64.f64 (m8n8k4, .rn). Not supported (rejected at load time): m8n8k4 with f16 (its
// quad-pair layouts), sparse mma.sp, fp8/fp6/fp4, sub-byte and .b1 forms, .kind/block-scale.
// Arithmetic: see tensor_multiply.h.
#include <cstdio>

#include "func/ops/tensor_binders.h"
#include "func/ops/tensor_common.h"
#include "func/ops/tensor_multiply.h"

namespace lockstep::func::tensor {

namespace {

struct MmaShape {
  uint32_t m = 0, n = 0, k = 0;
  bool is(uint32_t mm, uint32_t nn, uint32_t kk) const { return m == mm && n == nn && k == kk; }
};

// Row and column of element i of lane l's fragment of operand `which`, as row * cols + col.
uint32_t element_index(Operand which, const MmaShape& s, Elem type, uint32_t l, uint32_t i) {
  const uint32_t g = l >> 2, t = l & 3;
  uint32_t row = 0, col = 0;
  const bool f16ish = type == Elem::F16 || type == Elem::BF16;
  if (which == Operand::C) {
    if (s.is(8, 8, 4)) {
      row = g;
      col = 2 * t + i;
    } else {
      row = g + 8 * (i >= 2);
      col = 2 * t + (i & 1);
    }
    return row * s.n + col;
  }
  if (which == Operand::A) {
    if (s.is(16, 8, 16) && f16ish) {
      row = g + 8 * ((i >> 1) & 1);
      col = 2 * t + (i & 1) + 8 * (i >= 4);
    } else if (s.is(16, 8, 8) && f16ish) {
      row = g + 8 * (i >= 2);
      col = 2 * t + (i & 1);
    } else if (s.is(16, 8, 8)) {  // tf32
      row = g + 8 * (i & 1);
      col = t + 4 * (i >= 2);
    } else if (s.is(16, 8, 4)) {  // tf32
      row = g + 8 * i;
      col = t;
    } else if (s.is(16, 8, 16)) {  // s8/u8
      row = g + 8 * (i >= 4);
      col = 4 * t + (i & 3);
    } else if (s.is(16, 8, 32)) {  // s8/u8
      row = g + 8 * ((i >> 2) & 1);
      col = 4 * t + (i & 3) + 16 * (i >= 8);
    } else {  // m8n8k4 f64
      row = g;
      col = t;
    }
    return row * s.k + col;
  }
  // B: k rows, n columns.
  col = g;
  if (s.is(16, 8, 16) && f16ish) {
    row = 2 * t + (i & 1) + 8 * (i >= 2);
  } else if (s.is(16, 8, 8) && f16ish) {
    row = 2 * t + i;
  } else if (s.is(16, 8, 8)) {
    row = t + 4 * i;
  } else if (s.is(16, 8, 4)) {
    row = t;
  } else if (s.is(16, 8, 16)) {
    row = 4 * t + i;
  } else if (s.is(16, 8, 32)) {
    row = 4 * t + (i & 3) + 16 * (i >= 4);
  } else {
    row = t;
  }
  return row * s.n + col;
}

FragmentMap documented_map(Operand which, const MmaShape& s, Elem type, uint32_t per_lane) {
  FragmentMap map(32 * per_lane);
  for (uint32_t l = 0; l < 32; ++l)
    for (uint32_t i = 0; i < per_lane; ++i) map[l * per_lane + i] = element_index(which, s, type, l, i);
  return map;
}

// Whether (shape, a, b, c, d) is one of the supported combinations listed above.
bool supported(const MmaShape& s, Elem a, Elem b, Elem c, Elem d) {
  using E = Elem;
  const bool f32acc = c == E::F32 && d == E::F32;
  const bool int_ab = (a == E::S8 || a == E::U8) && (b == E::S8 || b == E::U8);
  if (a == E::F16 && b == E::F16)
    return (s.is(16, 8, 16) || s.is(16, 8, 8)) && (c == E::F16 || c == E::F32) &&
           (d == E::F16 || d == E::F32);
  if (a == E::BF16 && b == E::BF16) return f32acc && (s.is(16, 8, 16) || s.is(16, 8, 8));
  if (a == E::TF32 && b == E::TF32) return f32acc && (s.is(16, 8, 8) || s.is(16, 8, 4));
  if (int_ab) return c == E::S32 && d == E::S32 && (s.is(16, 8, 16) || s.is(16, 8, 32));
  if (a == E::F64) return b == E::F64 && c == E::F64 && d == E::F64 && s.is(8, 8, 4);
  return false;
}

}  // namespace

std::optional<ExecInst> bind_mma(const ir::Instruction& inst, BindContext& ctx) {
  MmaShape s;
  bool have_shape = false, satfinite = false, bad = false;
  std::vector<std::string> layouts;
  std::vector<Elem> types;
  for (const std::string& x : inst.modifiers) {
    unsigned m = 0, n = 0, k = 0;
    char tail = 0;
    if (x == "sync" || x == "aligned" || x == "rn") continue;
    if (x == "row" || x == "col") {
      layouts.push_back(x);
    } else if (auto t = elem_type(x)) {
      types.push_back(*t);
    } else if (x == "satfinite") {
      satfinite = true;
    } else if (!have_shape && std::sscanf(x.c_str(), "m%un%uk%u%c", &m, &n, &k, &tail) == 3) {
      s = {m, n, k};
      have_shape = true;
    } else {
      bad = true;  // sp, kind::*, block_scale, rz/rm/rp, ...
    }
  }
  const bool row_col = layouts.size() == 2 && layouts[0] == "row" && layouts[1] == "col";
  if (bad || !have_shape || !row_col || types.size() != 4) ctx.unsupported(inst);
  const Elem d = types[0], a = types[1], b = types[2], c = types[3];
  if (!supported(s, a, b, c, d) || (satfinite && !is_int(a))) ctx.unsupported(inst);
  const Handler fn = mma_handler(a, b, c, d);
  if (fn == nullptr) ctx.unsupported(inst);
  ctx.expect_operands(inst, 4);
  MmaDesc desc;
  desc.m = static_cast<uint8_t>(s.m);
  desc.n = static_cast<uint8_t>(s.n);
  desc.k = static_cast<uint8_t>(s.k);
  desc.regs_a = static_cast<uint8_t>(s.m * s.k / 32 / per_reg(a));
  desc.regs_b = static_cast<uint8_t>(s.k * s.n / 32 / per_reg(b));
  desc.regs_c = static_cast<uint8_t>(s.m * s.n / 32 / per_reg(c));
  desc.regs_d = static_cast<uint8_t>(s.m * s.n / 32 / per_reg(d));
  desc.satfinite = satfinite ? 1 : 0;
  const auto ds = vector_slots(inst, 0, desc.regs_d, "fragment d", ctx);
  const auto as = vector_slots(inst, 1, desc.regs_a, "fragment a", ctx);
  const auto bs = vector_slots(inst, 2, desc.regs_b, "fragment b", ctx);
  const auto cs = vector_slots(inst, 3, desc.regs_c, "fragment c", ctx);
  return bind_multiply(inst, ctx, fn, desc, ds, as, bs, cs,
                       documented_map(Operand::A, s, a, desc.regs_a * per_reg(a)),
                       documented_map(Operand::B, s, b, desc.regs_b * per_reg(b)),
                       documented_map(Operand::C, s, c, desc.regs_c * per_reg(c)), false);
}

}  // namespace lockstep::func::tensor
