#pragma once
// Calls to functions that the PTX declares .extern and the CUDA runtime provides on the device:
// vprintf (device printf), __assertfail (assert), malloc and free (also new and delete), the
// device runtime of dynamic parallelism (__cudaCDP2*, func/ops/device_runtime.h) and
// cudaGraphSetConditional.
#include <optional>
#include <string>

#include "func/bind.h"

namespace lockstep::func {

// True for the device runtime's calls that launch kernels, read their errors or set a graph's
// conditional value: like malloc, they change state other SMs can see, so the timing model
// runs them at the commit point.
bool is_device_runtime_call(const std::string& name);

// Binds a call to a runtime-provided function, or nullopt when `name` is not one.
std::optional<ExecInst> bind_device_call(const ir::Instruction& inst, BindContext& ctx,
                                         const std::string& name, const ir::Operand* results,
                                         const ir::Operand* args);

}  // namespace lockstep::func
