#pragma once
// Constructors of the divergence units, for the entries of this folder (one file per unit name,
// listed by registry.cpp): the block-level units (dwf, tbc, large-warp, sbi, swi) are built from
// these per-warp units (the CtaRunner adds what they do across a block's warps).
#include <cstdint>
#include <memory>

#include "func/divergence/divergence_unit.h"

namespace lockstep::func {

std::unique_ptr<DivergenceUnit> make_ipdom_stack();
std::unique_ptr<DivergenceUnit> make_branch_barrier(uint32_t yield_after);
std::unique_ptr<DivergenceUnit> make_thread_frontier();

// The declaration of sm.yield_after (branch_barrier.cpp), shared by the units that run branch
// barriers so that the key is declared once.
extern const policy::Param kYieldAfterParams[1];

}  // namespace lockstep::func
