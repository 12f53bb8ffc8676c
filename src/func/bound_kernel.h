#pragma once
// A kernel ready to run: the IR program with a handler bound to every instruction, plus the
// per-warp register initialisation (constants and static special registers live in slots).
#include <cstdint>
#include <string>
#include <vector>

#include "func/exec_inst.h"
#include "ir/program.h"

namespace lockstep::func {

struct ConstantSlot {
  uint32_t slot;
  uint64_t value;  // broadcast to every lane
};

struct SpecialSlot {
  uint32_t slot;
  ir::SpecialReg reg;
  uint32_t index;  // EnvReg number
};

struct BoundKernel {
  const ir::KernelProgram* program = nullptr;
  std::vector<ExecInst> code;               // parallel to program->code
  uint32_t slot_count = 0;                  // program slots + constant/special/scratch slots
  uint32_t pred_count = 0;                  // program predicates + scratch predicate
  std::vector<ConstantSlot> constants;
  std::vector<SpecialSlot> specials;
  std::vector<std::vector<uint32_t>> tables;  // long operand lists (wmma fragments, ...)
  // Per PC, decided once at binding (func/instruction_effects.h): 1 where a functional warp's
  // turn ends (shares_memory), 1 where a warp parks while other blocks run (changes_launch_state).
  std::vector<uint8_t> turn_ends;
  std::vector<uint8_t> launch_effects;
  // Function pointers: function `ordinal` of the module lives at function_base + 16 * ordinal;
  // function_by_ordinal maps an ordinal to this kernel's function index (~0u: not included).
  uint64_t function_base = 0;
  std::vector<uint32_t> function_by_ordinal;
};

}  // namespace lockstep::func
