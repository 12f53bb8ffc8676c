#pragma once
// Special register names (%tid.x, %lanemask_lt, %envreg3, ...) -> SpecialReg.
#include <optional>
#include <string>

#include "ir/program.h"

namespace lockstep::ir {

struct SpecialOperand {
  SpecialReg reg;
  uint32_t index = 0;  // EnvReg number
};

// `base` is the register name with '%' ("%tid"), `component` the suffix ("x") or "".
std::optional<SpecialOperand> lookup_special(const std::string& base, const std::string& component);

}  // namespace lockstep::ir
