#pragma once
// Binders of the tensor family, registered by register_tensor_ops (tensor_ops.cpp).
#include <optional>

#include "func/bind.h"

namespace lockstep::func::tensor {

std::optional<ExecInst> bind_wmma(const ir::Instruction& inst, BindContext& ctx);      // tensor_wmma.cpp
std::optional<ExecInst> bind_mma(const ir::Instruction& inst, BindContext& ctx);       // tensor_mma.cpp
std::optional<ExecInst> bind_ldmatrix(const ir::Instruction& inst, BindContext& ctx);  // tensor_ldmatrix.cpp
std::optional<ExecInst> bind_stmatrix(const ir::Instruction& inst, BindContext& ctx);  // tensor_ldmatrix.cpp

}  // namespace lockstep::func::tensor
