#pragma once
// Syntax tree -> ModuleProgram: builds each kernel's CFG, finds reconvergence points and
// flattens the kernel and every function it can call into one instruction array.
#include "ir/program.h"
#include "ptx/ast.h"

namespace lockstep::ir {

// Throws ptx::Error for anything it cannot resolve.
ModuleProgram lower(const ptx::Module& module);

}  // namespace lockstep::ir
