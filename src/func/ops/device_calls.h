#pragma once
// Calls to functions that the PTX declares .extern and the CUDA runtime provides on the device:
// vprintf (device printf), __assertfail (assert), malloc and free (also new and delete).
#include <optional>
#include <string>

#include "func/bind.h"

namespace lockstep::func {

// Binds a call to a runtime-provided function, or nullopt when `name` is not one.
std::optional<ExecInst> bind_device_call(const ir::Instruction& inst, BindContext& ctx,
                                         const std::string& name, const ir::Operand* results,
                                         const ir::Operand* args);

}  // namespace lockstep::func
