// Logic: and, or, xor, not, cnot on .b16/.b32/.b64, and/or/xor/not on .pred (lane masks), and
// lop3.b32 (with the optional .and/.or predicate output).
#include "func/ops/integer_common.h"
#include "func/ops/integer_ops.h"

namespace lockstep::func::integer {
namespace {

struct AndOp {
  template <class U>
  static U apply(U a, U b) {
    return static_cast<U>(a & b);
  }
};
struct OrOp {
  template <class U>
  static U apply(U a, U b) {
    return static_cast<U>(a | b);
  }
};
struct XorOp {
  template <class U>
  static U apply(U a, U b) {
    return static_cast<U>(a ^ b);
  }
};
struct NotOp {
  template <class U>
  static U apply(U a) {
    return static_cast<U>(~a);
  }
};
struct CnotOp {
  template <class U>
  static U apply(U a) {
    return a == 0 ? U(1) : U(0);
  }
};

// Predicate logic on whole lane masks. aux bit i (source i = 0, 1): the source is negated (!p);
// bit 2 + i: it is an immediate (nvcc writes `xor.pred %p2, %p1, -1` for a negation), whose
// value is bit 4 + i: nonzero is true in every lane.
LaneMask pred_source(const ExecInst& in, Warp& w, uint32_t i) {
  if ((in.aux & (uint64_t{4} << i)) != 0) return (in.aux & (uint64_t{16} << i)) != 0 ? ~LaneMask{0} : LaneMask{0};
  const LaneMask p = w.p(in.s[i]);
  return (in.aux & (uint64_t{1} << i)) != 0 ? ~p : p;
}

template <class Op>
void pred_binary_h(const ExecInst& in, Warp& w) {
  write_pred(w.p(in.d[0]), Op::apply(pred_source(in, w, 0), pred_source(in, w, 1)), w.exec);
}
void pred_not_h(const ExecInst& in, Warp& w) { write_pred(w.p(in.d[0]), ~pred_source(in, w, 0), w.exec); }

ExecInst bind_pred_op(const ir::Instruction& inst, BindContext& ctx, Handler h, size_t ns) {
  ctx.expect_operands(inst, 1 + ns);
  ExecInst e = make_exec(inst, h);
  e.d[0] = pred_index(inst, ctx, 0);
  for (size_t i = 0; i < ns; ++i) {
    const ir::Operand& op = inst.operands[1 + i];
    if (op.kind == ir::Operand::Kind::Imm) {
      e.aux |= (uint64_t{4} << i) | (op.imm != 0 ? uint64_t{16} << i : 0);
      continue;
    }
    e.s[i] = pred_index(inst, ctx, 1 + i);
    if (op.negated) e.aux |= uint64_t{1} << i;
  }
  e.nd = 1;
  e.ns = static_cast<uint8_t>(ns);
  return e;
}

// The width of a logic form's type: .b16/.b32/.b64 (u/s of those widths are the same bits).
std::optional<IntType> logic_type(const Form& f) {
  if (f.types.size() != 1 || !f.flags.empty()) return std::nullopt;
  const auto t = int_type(f.types[0]);
  if (!t || t->bits < 16) return std::nullopt;
  return IntType{IntType::Kind::Unsigned, t->bits};
}

template <class Op>
BindResult bind_logic2(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.types == std::vector<std::string>{"pred"} && f.flags.empty())
    return bind_pred_op(inst, ctx, &pred_binary_h<Op>, 2);
  const auto t = logic_type(f);
  if (!t) ctx.unsupported(inst);
  return bind_regs(
      inst, ctx, dispatch_int(*t, []<class U>(std::type_identity<U>) { return &binary_h<U, Op>; }),
      1, 2);
}

template <class Op>
BindResult bind_logic1(const ir::Instruction& inst, BindContext& ctx) {
  const auto t = logic_type(parse_form(inst));
  if (!t) ctx.unsupported(inst);
  return bind_regs(inst, ctx,
                   dispatch_int(*t, []<class U>(std::type_identity<U>) { return &unary_h<U, Op>; }),
                   1, 1);
}

// lop3: bit k of immLut is the result for inputs (a, b, c) = (k >> 2 & 1, k >> 1 & 1, k & 1).
inline uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t r = 0;
  for (uint32_t k = 0; k < 8; ++k) {
    if (!((lut >> k) & 1)) continue;
    r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
  }
  return r;
}

void lop3_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  const auto lut = static_cast<uint32_t>(in.aux);
  each_lane(w, [&](uint32_t l) {
    d[l] = lop3(get<uint32_t>(a[l]), get<uint32_t>(b[l]), get<uint32_t>(c[l]), lut);
  });
}

// lop3.{and,or}.b32 d|p, a, b, c, immLut, q: p = (d != 0) BoolOp q. aux2: 1 = and, 2 = or;
// bit 2: q negated.
void lop3_pred_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  const auto lut = static_cast<uint32_t>(in.aux);
  LaneMask nonzero = 0;
  each_lane(w, [&](uint32_t l) {
    const uint32_t r = lop3(get<uint32_t>(a[l]), get<uint32_t>(b[l]), get<uint32_t>(c[l]), lut);
    d[l] = r;
    if (r != 0) nonzero |= LaneMask{1} << l;
  });
  const LaneMask q = (in.aux2 & 4) ? ~w.p(in.s[3]) : w.p(in.s[3]);
  write_pred(w.p(in.d[1]), (in.aux2 & 1) ? (nonzero & q) : (nonzero | q), w.exec);
}

}  // namespace

BindResult bind_and(const ir::Instruction& inst, BindContext& ctx) {
  return bind_logic2<AndOp>(inst, ctx);
}
BindResult bind_or(const ir::Instruction& inst, BindContext& ctx) {
  return bind_logic2<OrOp>(inst, ctx);
}
BindResult bind_xor(const ir::Instruction& inst, BindContext& ctx) {
  return bind_logic2<XorOp>(inst, ctx);
}
BindResult bind_cnot(const ir::Instruction& inst, BindContext& ctx) {
  return bind_logic1<CnotOp>(inst, ctx);
}

BindResult bind_not(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  if (f.types == std::vector<std::string>{"pred"} && f.flags.empty())
    return bind_pred_op(inst, ctx, &pred_not_h, 1);
  return bind_logic1<NotOp>(inst, ctx);
}

BindResult bind_lop3(const ir::Instruction& inst, BindContext& ctx) {
  const Form f = parse_form(inst);
  const std::string_view boolop = f.pick({"and", "or"});
  if (f.types != std::vector<std::string>{"b32"} || f.flags.size() != (boolop.empty() ? 0u : 1u))
    ctx.unsupported(inst);
  const size_t lut_index = 4;
  ctx.expect_operands(inst, boolop.empty() ? 5 : 6);
  const ir::Operand& lut = inst.operands[lut_index];
  if (lut.kind != ir::Operand::Kind::Imm || lut.imm > 255)
    ctx.error(lut, "operand 4 of '" + inst.form() + "' must be an immediate from 0 to 255");
  if (boolop.empty()) {
    ExecInst e = bind_regs(inst, ctx, &lop3_h, 1, 3 + 1);
    e.ns = 3;
    e.aux = lut.imm;
    return e;
  }
  const ir::Operand& pair = inst.operands[0];
  if (pair.kind != ir::Operand::Kind::Vector || !pair.is_pair || pair.elements.size() != 2)
    ctx.error(pair, "operand 0 of '" + inst.form() + "' must be a pair d|p");
  ExecInst e = make_exec(inst, &lop3_pred_h);
  e.d[0] =
      pair.elements[0].kind == ir::Operand::Kind::Sink ? ctx.scratch() : ctx.slot(pair.elements[0]);
  e.d[1] = ctx.pred(pair.elements[1]);
  for (size_t i = 0; i < 3; ++i) e.s[i] = source_slot(inst, ctx, 1 + i);
  e.s[3] = pred_index(inst, ctx, 5);
  e.nd = 2;
  e.ns = 4;
  e.aux = lut.imm;
  e.aux2 = (boolop == "and" ? 1 : 2) | (inst.operands[5].negated ? 4 : 0);
  return e;
}

}  // namespace lockstep::func::integer
