#pragma once
// PTX text -> syntax tree. Throws ptx::Error (file:line:col: what was expected) on malformed
// input; never crashes on any byte sequence.
#include <string_view>

#include "ptx/ast.h"

namespace lockstep::ptx {

Module parse(std::string_view text, std::string_view filename);

}  // namespace lockstep::ptx
