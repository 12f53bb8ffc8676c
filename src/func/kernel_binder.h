#pragma once
// Binds every instruction of a lowered kernel to its handler (once, at load time).
#include <functional>

#include "func/bind.h"
#include "func/bound_kernel.h"

namespace lockstep::func {

// global_address(i): device address of ModuleProgram::globals[i]. Throws ptx::Error.
BoundKernel bind_kernel(const ir::KernelProgram& program, const OpTable& table,
                        std::function<uint64_t(uint32_t)> global_address, uint64_t function_base,
                        size_t module_functions);

}  // namespace lockstep::func
