#pragma once
// Helpers for the PTX front-end tests: build small modules and capture diagnostics.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "ptx/check.h"
#include "ptx/parser.h"

namespace lockstep::ptx::test {

// Module header on lines 1-3; kernel() puts `.entry k` on line 4, '{' on line 5, and the body
// from line 6 on, so a body's first line is line 6 in diagnostics.
inline constexpr std::string_view kHeader = ".version 9.0\n.target sm_80\n.address_size 64\n";

inline std::string kernel(std::string_view body) {
  return std::string(kHeader) + ".visible .entry k()\n{\n" + std::string(body) + "\n}\n";
}

inline Module parse_ok(std::string_view text) { return parse(text, "t.ptx"); }

// The full "file:line:col: message" of the error parse() (and, if that succeeds, check())
// throws; "" when both succeed.
inline std::string error_of(std::string_view text) {
  try {
    Module module = parse(text, "t.ptx");
    check(module);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

// The statements of the (only) kernel body.
inline const std::vector<Statement>& body_of(const Module& module) {
  return module.functions.at(0).body.statements;
}

template <typename T>
const T& node(const Statement& statement) {
  const T* value = std::get_if<T>(&statement.node);
  if (value == nullptr) throw std::runtime_error("statement holds another kind of node");
  return *value;
}

// The instructions of a kernel body in order, skipping declarations, labels and scopes.
inline std::vector<Instruction> instructions_of(const Module& module) {
  std::vector<Instruction> out;
  for (const auto& statement : body_of(module)) {
    if (const auto* inst = std::get_if<Instruction>(&statement.node)) out.push_back(*inst);
  }
  return out;
}

}  // namespace lockstep::ptx::test
