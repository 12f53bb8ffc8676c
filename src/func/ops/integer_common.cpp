// Modifier parsing and operand binding shared by the integer opcode family.
#include "func/ops/integer_common.h"

#include <algorithm>
#include <array>

namespace lockstep::func::integer {

std::optional<IntType> int_type(std::string_view m) {
  if (m.size() < 2) return std::nullopt;
  IntType t;
  switch (m[0]) {
    case 'u':
      t.kind = IntType::Kind::Unsigned;
      break;
    case 's':
      t.kind = IntType::Kind::Signed;
      break;
    case 'b':
      t.kind = IntType::Kind::Bits;
      break;
    default:
      return std::nullopt;
  }
  const std::string_view width = m.substr(1);
  if (width == "8")
    t.bits = 8;
  else if (width == "16")
    t.bits = 16;
  else if (width == "32")
    t.bits = 32;
  else if (width == "64")
    t.bits = 64;
  else
    return std::nullopt;
  return t;
}

bool is_float_type(std::string_view m) {
  static constexpr std::array<std::string_view, 17> kFloat = {
      "f16",    "f16x2",  "bf16",   "bf16x2", "tf32",   "f32",     "f64",    "e4m3",  "e5m2",
      "e4m3x2", "e5m2x2", "e2m1x2", "e2m3x2", "e3m2x2", "ue8m0x2", "e4m3x4", "e5m2x4"};
  return std::find(kFloat.begin(), kFloat.end(), m) != kFloat.end();
}

namespace {
bool is_type_name(std::string_view m) {
  return int_type(m).has_value() || is_float_type(m) || m == "pred" || m == "b128" ||
         m == "u16x2" || m == "s16x2";
}
}  // namespace

Form parse_form(const ir::Instruction& inst) {
  Form f;
  for (const auto& m : inst.modifiers) (is_type_name(m) ? f.types : f.flags).push_back(m);
  return f;
}

bool Form::has(std::string_view flag) const {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

bool Form::has_float() const {
  return std::any_of(types.begin(), types.end(),
                     [](const std::string& t) { return is_float_type(t); });
}

bool Form::flags_within(std::initializer_list<std::string_view> allowed) const {
  return std::all_of(flags.begin(), flags.end(), [&](const std::string& f) {
    return std::find(allowed.begin(), allowed.end(), f) != allowed.end();
  });
}

std::string_view Form::pick(std::initializer_list<std::string_view> choices) const {
  for (const auto& f : flags) {
    for (std::string_view c : choices) {
      if (f == c) return c;
    }
  }
  return {};
}

uint32_t dest_slot(const ir::Instruction& inst, BindContext& ctx, size_t i) {
  const ir::Operand& op = inst.operands[i];
  if (op.kind == ir::Operand::Kind::Reg || op.kind == ir::Operand::Kind::Sink) return ctx.slot(op);
  ctx.error(op, "operand " + std::to_string(i) + " of '" + inst.form() + "' must be a register");
}

uint32_t source_slot(const ir::Instruction& inst, BindContext& ctx, size_t i) {
  const ir::Operand& op = inst.operands[i];
  switch (op.kind) {
    case ir::Operand::Kind::Reg:
    case ir::Operand::Kind::Imm:
    case ir::Operand::Kind::Special:
    case ir::Operand::Kind::Symbol:  // a variable's address (global or shared)
      return ctx.slot(op);
    default:
      ctx.error(op, "operand " + std::to_string(i) + " of '" + inst.form() +
                        "' must be a register or immediate");
  }
}

uint32_t pred_index(const ir::Instruction& inst, BindContext& ctx, size_t i) {
  const ir::Operand& op = inst.operands[i];
  if (op.kind == ir::Operand::Kind::Pred || op.kind == ir::Operand::Kind::Sink) return ctx.pred(op);
  ctx.error(op, "operand " + std::to_string(i) + " of '" + inst.form() + "' must be a predicate");
}

ExecInst bind_regs(const ir::Instruction& inst, BindContext& ctx, Handler fn, size_t nd,
                   size_t ns) {
  ctx.expect_operands(inst, nd + ns);
  ExecInst e = make_exec(inst, fn);
  for (size_t i = 0; i < nd; ++i) e.d[i] = dest_slot(inst, ctx, i);
  for (size_t i = 0; i < ns; ++i) e.s[i] = source_slot(inst, ctx, nd + i);
  e.nd = static_cast<uint8_t>(nd);
  e.ns = static_cast<uint8_t>(ns);
  return e;
}

uint32_t carry_slot(BindContext& ctx) {
  return ctx.carry_slot();
}

}  // namespace lockstep::func::integer
