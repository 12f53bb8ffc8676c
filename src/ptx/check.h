#pragma once
// Semantic checks over a parsed module that need no knowledge of instruction semantics:
// every register, label and symbol used is declared (in the enclosing scopes), nothing is
// declared twice in one scope, branch targets are labels. Throws ptx::Error with the location
// of the offending use or declaration.
#include "ptx/ast.h"

namespace lockstep::ptx {

void check(const Module& module);

}  // namespace lockstep::ptx
