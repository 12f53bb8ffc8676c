#pragma once
// The base opcode names of the PTX ISA (through 9.x). Parsing accepts any of them; whether an
// instruction form is implemented is the binder's decision, not the parser's.
#include <span>
#include <string_view>

namespace lockstep::ptx {

// True if `name` (the text before the first '.', e.g. "mma") is a PTX instruction name.
bool is_known_opcode(std::string_view name);

// Every instruction name, sorted: for checks that each one is handled (ir::Opcode).
std::span<const std::string_view> known_opcodes();

}  // namespace lockstep::ptx
