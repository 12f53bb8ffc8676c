#pragma once
// Binders of the texture and surface family, registered by register_texture_ops
// (texture_ops.cpp).
#include <optional>

#include "func/bind.h"

namespace lockstep::func::texture {

std::optional<ExecInst> bind_tex(const ir::Instruction& inst, BindContext& ctx);   // texture_sample.cpp
std::optional<ExecInst> bind_tld4(const ir::Instruction& inst, BindContext& ctx);  // texture_sample.cpp
std::optional<ExecInst> bind_txq(const ir::Instruction& inst, BindContext& ctx);   // texture_query.cpp
std::optional<ExecInst> bind_suq(const ir::Instruction& inst, BindContext& ctx);   // texture_query.cpp
std::optional<ExecInst> bind_suld(const ir::Instruction& inst, BindContext& ctx);  // texture_surface.cpp
std::optional<ExecInst> bind_sust(const ir::Instruction& inst, BindContext& ctx);  // texture_surface.cpp

}  // namespace lockstep::func::texture
