#pragma once
// Binders of the warp-level family, registered by register_warp_ops (warp_ops.cpp).
#include <optional>

#include "func/bind.h"

namespace lockstep::func::warp_ops {

std::optional<ExecInst> bind_shfl(const ir::Instruction& inst, BindContext& ctx);        // warp_shfl.cpp
std::optional<ExecInst> bind_vote(const ir::Instruction& inst, BindContext& ctx);        // warp_vote.cpp
std::optional<ExecInst> bind_activemask(const ir::Instruction& inst, BindContext& ctx);  // warp_vote.cpp
std::optional<ExecInst> bind_bar_warp(const ir::Instruction& inst, BindContext& ctx);    // warp_vote.cpp
std::optional<ExecInst> bind_elect(const ir::Instruction& inst, BindContext& ctx);       // warp_vote.cpp
std::optional<ExecInst> bind_match(const ir::Instruction& inst, BindContext& ctx);       // warp_match.cpp
std::optional<ExecInst> bind_redux(const ir::Instruction& inst, BindContext& ctx);       // warp_redux.cpp

}  // namespace lockstep::func::warp_ops
