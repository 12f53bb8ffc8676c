// Modifier parsing and operand binding shared by the floating-point family.
#include "func/ops/float_form.h"

#include <array>
#include <cmath>
#include <string_view>
#include <utility>

namespace lockstep::func::fp {
namespace {

constexpr std::array<std::pair<std::string_view, Kind>, 21> kKinds{{
    {"f16", Kind::F16},   {"f16x2", Kind::F16x2}, {"bf16", Kind::BF16},   {"bf16x2", Kind::BF16x2},
    {"tf32", Kind::TF32}, {"f32", Kind::F32},     {"f64", Kind::F64},     {"e4m3x2", Kind::E4M3x2},
    {"e5m2x2", Kind::E5M2x2}, {"s8", Kind::S8},   {"s16", Kind::S16},     {"s32", Kind::S32},
    {"s64", Kind::S64},   {"u8", Kind::U8},       {"u16", Kind::U16},     {"u32", Kind::U32},
    {"u64", Kind::U64},   {"b16", Kind::B16},     {"b32", Kind::B32},     {"b64", Kind::B64},
    {"pred", Kind::Pred},
}};

constexpr std::array<std::string_view, 14> kCompares{
    "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
constexpr std::array<std::string_view, 6> kTests{"finite", "infinite", "number",
                                                 "notanumber", "normal", "subnormal"};

template <class A>
bool contains(const A& list, std::string_view s) {
  for (const auto& x : list) {
    if (x == s) return true;
  }
  return false;
}

}  // namespace

bool is_float(Kind k) { return k <= Kind::E5M2x2; }
bool is_signed_int(Kind k) { return k >= Kind::S8 && k <= Kind::S64; }

int bit_width(Kind k) {
  switch (k) {
    case Kind::S8: case Kind::U8: return 8;
    case Kind::F16: case Kind::BF16: case Kind::S16: case Kind::U16: case Kind::B16:
    case Kind::E4M3x2: case Kind::E5M2x2: return 16;
    case Kind::F16x2: case Kind::BF16x2: case Kind::TF32: case Kind::F32: case Kind::S32:
    case Kind::U32: case Kind::B32: return 32;
    case Kind::F64: case Kind::S64: case Kind::U64: case Kind::B64: return 64;
    case Kind::Pred: return 1;
  }
  return 0;
}

bool FloatForm::any_float() const {
  for (Kind k : types) {
    if (is_float(k)) return true;
  }
  return false;
}

FloatForm read_form(const ir::Instruction& inst) {
  FloatForm f;
  for (const std::string& m : inst.modifiers) {
    bool matched = false;
    for (const auto& [name, kind] : kKinds) {
      if (m == name) {
        f.types.push_back(kind);
        matched = true;
      }
    }
    if (matched) continue;
    if (m == "rn") f.round = Round::Nearest;
    else if (m == "rz") f.round = Round::Zero;
    else if (m == "rm") f.round = Round::Down;
    else if (m == "rp") f.round = Round::Up;
    else if (m == "rna") f.round = Round::NearestAway;
    else if (m == "rni") f.int_round = Round::Nearest;
    else if (m == "rzi") f.int_round = Round::Zero;
    else if (m == "rmi") f.int_round = Round::Down;
    else if (m == "rpi") f.int_round = Round::Up;
    else if (m == "ftz") f.ftz = true;
    else if (m == "sat") f.sat = true;
    else if (m == "satfinite") f.satfinite = true;
    else if (m == "relu") f.relu = true;
    else if (m == "approx") f.approx = true;
    else if (m == "full") f.full = true;
    else if (m == "NaN") f.nan = true;
    else if (m == "xorsign") f.xorsign = true;
    else if (m == "abs") f.abs = true;
    else if (m == "and" || m == "or" || m == "xor") f.combine = m;
    else if (contains(kCompares, m) && f.compare.empty()) f.compare = m;
    else if (contains(kTests, m)) f.test.push_back(m);
    else f.unknown.push_back(m);
  }
  return f;
}

uint64_t pack(const Mode& m) {
  return static_cast<uint64_t>(m.round) | uint64_t{m.ftz} << 8 | uint64_t{m.sat} << 9 |
         uint64_t{m.relu} << 10 | uint64_t{m.nan} << 11 | uint64_t{m.xorsign} << 12 |
         uint64_t{m.satfinite} << 13;
}

Mode unpack(uint64_t aux) {
  Mode m;
  m.round = static_cast<Round>(aux & 0xff);
  m.ftz = (aux >> 8 & 1) != 0;
  m.sat = (aux >> 9 & 1) != 0;
  m.relu = (aux >> 10 & 1) != 0;
  m.nan = (aux >> 11 & 1) != 0;
  m.xorsign = (aux >> 12 & 1) != 0;
  m.satfinite = (aux >> 13 & 1) != 0;
  return m;
}

Mode mode_of(const FloatForm& f) {
  Mode m;
  m.round = f.round.value_or(Round::Nearest);
  m.ftz = f.ftz;
  m.sat = f.sat;
  m.relu = f.relu;
  m.nan = f.nan;
  m.xorsign = f.xorsign;
  m.satfinite = f.satfinite;
  return m;
}

namespace {

// The bits of a literal of value v (a double) in format k.
uint64_t literal_bits(double v, Kind k) {
  switch (k) {
    case Kind::F64: return bits_of(v);
    case Kind::F32: return bits_of(static_cast<float>(v));
    case Kind::F16: return encode(v, kF16, Round::Nearest);
    case Kind::BF16: return encode(v, kBF16, Round::Nearest);
    default: return 0;
  }
}

}  // namespace

uint32_t source_slot(BindContext& ctx, const ir::Instruction& inst, size_t index, Kind k) {
  const ir::Operand& op = inst.operands.at(index);
  if (op.kind == ir::Operand::Kind::Reg || op.kind == ir::Operand::Kind::Special) return ctx.slot(op);
  if (op.kind == ir::Operand::Kind::Imm) {
    const bool as_written = (op.is_float && (op.is_f64 == (k == Kind::F64))) || !is_float(k) ||
                            k == Kind::F16x2 || k == Kind::BF16x2;
    if (as_written) return ctx.slot(op);
    double v;
    if (op.is_float) {
      v = op.is_f64 ? f64_of(op.imm) : static_cast<double>(f32_of(static_cast<uint32_t>(op.imm)));
    } else {
      v = static_cast<double>(static_cast<int64_t>(op.imm));
    }
    return ctx.constant(literal_bits(v, k));
  }
  ctx.error(op, "operand " + std::to_string(index) + " of '" + inst.form() +
                    "' must be a register or immediate");
}

uint32_t dest_slot(BindContext& ctx, const ir::Instruction& inst, size_t index) {
  const ir::Operand& op = inst.operands.at(index);
  if (op.kind == ir::Operand::Kind::Reg || op.kind == ir::Operand::Kind::Sink) return ctx.slot(op);
  ctx.error(op, "operand " + std::to_string(index) + " of '" + inst.form() +
                    "' must be a register");
}

uint32_t dest_pred(BindContext& ctx, const ir::Instruction& inst, size_t index) {
  const ir::Operand& op = inst.operands.at(index);
  if (op.kind == ir::Operand::Kind::Pred || op.kind == ir::Operand::Kind::Sink) return ctx.pred(op);
  ctx.error(op, "operand " + std::to_string(index) + " of '" + inst.form() +
                    "' must be a predicate");
}

}  // namespace lockstep::func::fp
