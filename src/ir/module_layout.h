#pragma once
// Module-scope variables: .global/.const become GlobalVars (placed in device memory by the
// engine); sizes, alignment and initial bytes are computed here.
#include <vector>

#include "ir/program.h"
#include "ptx/ast.h"

namespace lockstep::ir {

uint64_t variable_size(const ptx::VariableDecl& decl);
uint32_t variable_align(const ptx::VariableDecl& decl);

// Throws ptx::Error for initializers that do not fit the variable.
GlobalVar make_global(const ptx::VariableDecl& decl, const std::string& file);

}  // namespace lockstep::ir
