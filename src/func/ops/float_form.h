#pragma once
// Shared binding helpers of the floating-point family: the modifiers of an instruction read
// once into a FloatForm, the per-instruction mode packed into ExecInst::aux, and operand
// slots with immediates converted to the instruction's type.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "func/bind.h"
#include "func/ops/float_bits.h"

namespace lockstep::func::fp {

// Type modifiers a float-family instruction may carry.
enum class Kind : uint8_t {
  F16, F16x2, BF16, BF16x2, TF32, F32, F64, E4M3x2, E5M2x2,
  S8, S16, S32, S64, U8, U16, U32, U64, B16, B32, B64, Pred,
};
bool is_float(Kind k);
bool is_signed_int(Kind k);
int bit_width(Kind k);

struct FloatForm {
  std::vector<Kind> types;           // the type modifiers, in order
  std::optional<Round> round;        // .rn .rz .rm .rp .rna
  std::optional<Round> int_round;    // .rni .rzi .rmi .rpi (round to integral value)
  bool ftz = false, sat = false, satfinite = false, relu = false, approx = false,
       full = false, nan = false, xorsign = false, abs = false;
  std::string compare;               // setp/set: eq, ltu, num, ...
  std::string combine;               // setp/set: and, or, xor
  std::vector<std::string> test;     // testp: finite, normal, ...
  std::vector<std::string> unknown;  // modifiers nothing above understands

  bool any_float() const;
};

FloatForm read_form(const ir::Instruction& inst);

// Per-instruction options for the generic handlers, carried in ExecInst::aux.
struct Mode {
  Round round = Round::Nearest;
  bool ftz = false, sat = false, relu = false, nan = false, xorsign = false, satfinite = false;
};
uint64_t pack(const Mode& m);
Mode unpack(uint64_t aux);
Mode mode_of(const FloatForm& f);

// Slot of a source operand of type k: a register, or an immediate converted to k's bits
// (0f/0d literals and integer literals alike). `index` is 0-based
// (the destination is operand 0), as the error messages count.
uint32_t source_slot(BindContext& ctx, const ir::Instruction& inst, size_t index, Kind k);
// Slot of a destination register (or a scratch slot for the sink `_`).
uint32_t dest_slot(BindContext& ctx, const ir::Instruction& inst, size_t index);
// Predicate index of a predicate destination (or sink).
uint32_t dest_pred(BindContext& ctx, const ir::Instruction& inst, size_t index);

}  // namespace lockstep::func::fp
