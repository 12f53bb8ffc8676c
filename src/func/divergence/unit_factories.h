#pragma once
// Constructors of the divergence units, for the registry (divergence_units.cpp) alone.
#include <cstdint>
#include <memory>

#include "func/divergence/divergence_unit.h"

namespace lockstep::func {

std::unique_ptr<DivergenceUnit> make_ipdom_stack();
std::unique_ptr<DivergenceUnit> make_branch_barrier(uint32_t yield_after);
std::unique_ptr<DivergenceUnit> make_thread_frontier();

}  // namespace lockstep::func
