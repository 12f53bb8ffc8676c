#pragma once
// What an instruction may change beyond its own warp and block: global memory, and the launch's
// shared services (the printf stream, the device heap). The cooperative grid runner counts the
// global writes to tell spinning from progress; the timing model runs every instruction that
// may change launch-wide state at the end of its cycle, in SM order, so that SMs stepped side
// by side share nothing while they step.
#include <cstdint>
#include <vector>

#include "func/bound_kernel.h"
#include "ir/program.h"

namespace lockstep::func {

// st, atom, red in the global or generic space; every cp form but cp.async.mbarrier.arrive;
// wmma.store, multimem, surface store and tensormap forms (ir::DecodedForm::may_write_global).
// Over-approximates: a generic store counts even when it hits shared memory.
bool may_write_global(const ir::Instruction& inst);

// A call of the device runtime's vprintf, malloc or free.
bool calls_launch_service(const ir::KernelProgram& program, const ir::Instruction& inst);

// may_write_global, or a call of malloc, free or the device runtime: what a block must not do
// while other blocks run beside it in the functional model (func/wave_runner.h). vprintf is not
// among them: each block's printf text is kept apart and joined in block order.
bool changes_launch_state(const ir::KernelProgram& program, const ir::Instruction& inst);

// Per PC of `kernel`: 1 when changes_launch_state, else 0.
std::vector<uint8_t> launch_effect_flags(const BoundKernel& kernel);

// Per PC of `kernel`: 1 when may_write_global, else 0.
std::vector<uint8_t> global_write_flags(const BoundKernel& kernel);

// Loads, stores, atomics and copies of shared, global or generic memory (not local, param in
// any of its spellings, or const; ir::DecodedForm::shares_memory): the accesses through which
// the warps of a block see each other's data. The functional model ends a warp's turn after
// each (CtaRunner), so warps of a block reach memory in round-robin order, as they do on a GPU,
// and a program whose phases lack a __syncthreads() still reads what the other warps wrote in
// the phase before.
bool shares_memory(const ir::Instruction& inst);

// Per PC of `kernel`: 1 when shares_memory, else 0.
std::vector<uint8_t> shared_memory_flags(const BoundKernel& kernel);

}  // namespace lockstep::func
