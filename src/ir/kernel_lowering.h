#pragma once
// Lowers one kernel and every function it can reach into a KernelProgram.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/program.h"
#include "ptx/ast.h"

namespace lockstep::ir {

struct ModuleSymbols {
  const ptx::Module* module = nullptr;
  std::map<std::string, uint32_t, std::less<>> globals;  // .global/.const -> ModuleProgram index
  std::map<std::string, const ptx::VariableDecl*, std::less<>> shared;  // module-scope .shared
  std::map<std::string, const ptx::Function*, std::less<>> functions;   // definitions win
  std::map<std::string, uint32_t, std::less<>> function_ordinals;       // -> function_names index
};

// A construct the kernel cannot be lowered with (one lockstep cannot run) does not throw: the
// result holds only the kernel's signature and KernelProgram::lowering_error, so the module's
// other kernels still load.
KernelProgram lower_kernel(const ModuleSymbols& symbols, const ptx::Function& kernel);

// Fills Instruction::reconverge for every conditional branch of every function (reconvergence.cpp).
void compute_reconvergence(KernelProgram& program);

// Fills KernelProgram::recursive and max_frame_depth_bytes (frame_depth.cpp).
void compute_frame_depth(KernelProgram& program);

}  // namespace lockstep::ir
