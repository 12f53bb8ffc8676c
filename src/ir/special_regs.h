#pragma once
// Special register names (%tid.x, %lanemask_lt, %envreg3, ...) -> SpecialReg: every register of
// PTX ISA 9.0's list (ptx/special_registers.cpp accepts the same names).
#include <optional>
#include <string>

#include "ir/program.h"

namespace lockstep::ir {

struct SpecialOperand {
  SpecialReg reg;
  uint32_t index = 0;  // EnvReg, Pm, Pm64, ReservedSmemOffset: the register's number
};

// `base` is the register name with '%' ("%tid"), `component` the suffix ("x") or "".
std::optional<SpecialOperand> lookup_special(const std::string& base, const std::string& component);

}  // namespace lockstep::ir
