#pragma once
// The recursive-descent PTX parser behind parse() (parser.h). Internal to src/ptx: the
// productions are spread over parser.cpp (module level), parse_decl.cpp (variables, types,
// initializers), parse_function.cpp (.entry/.func headers), parse_body.cpp (statements,
// instructions) and parse_operand.cpp (operands). Each production's grammar is in its comment.
#include <string>
#include <string_view>
#include <vector>

#include "ptx/ast.h"
#include "ptx/token_cursor.h"

namespace lockstep::ptx {

class Parser {
 public:
  // Bounds the nesting of { } scopes and initializer braces, so hostile input cannot exhaust
  // the stack.
  static constexpr int kMaxNesting = 200;

  Parser(std::string_view text, std::string_view filename) : cur_(text, filename) {
    module_.filename = std::string(filename);
  }
  Module parse_module();

 private:
  using DirectiveHandler = void (Parser::*)(const Token& directive);
  struct DirectiveEntry {
    std::string_view name;
    DirectiveHandler handler;
  };

  // parser.cpp: module-level directives
  void parse_version(const Token& directive);
  void parse_target(const Token& directive);
  void parse_address_size(const Token& directive);
  void parse_file(const Token& directive);
  void parse_section(const Token& directive);
  void parse_linkage(const Token& directive);
  void parse_module_variable(const Token& directive);
  void parse_function_directive(const Token& directive);
  void parse_alias(const Token& directive);
  void parse_module_pragma(const Token& directive);
  void parse_declaration(const Token& directive, const std::string& linkage);
  void skip_balanced_braces(const Token& open);

  // parse_decl.cpp: variable declarations
  std::vector<VariableDecl> parse_variable_statement(const Token& space_directive, std::string linkage);
  void parse_decl_attributes(VariableDecl& decl, bool allow_ptr);
  void parse_decl_name(VariableDecl& decl);
  void parse_initializer(VariableDecl& decl);
  void parse_initializer_list(VariableDecl& decl, int depth);
  void parse_initializer_value(VariableDecl& decl);
  VariableDecl parse_param(bool allow_ptr);
  uint64_t parse_unsigned(std::string_view what);
  int64_t parse_signed_offset();

  // parse_function.cpp: .entry / .func
  void parse_function(const Token& kind, const std::string& linkage);
  void parse_param_list(std::vector<VariableDecl>& params, bool allow_ptr);
  bool parse_performance_directive(Function& function);
  std::vector<uint32_t> parse_dimension_list();

  // parse_body.cpp: statements and instructions
  void parse_block(Block& block, int depth);
  void parse_statement(Block& block, int depth);
  void parse_body_directive(Block& block);
  void parse_loc(const Token& directive);
  void parse_label(Block& block);
  Instruction parse_instruction();

  // parse_operand.cpp
  Operand parse_operand();
  Operand parse_primary_operand();
  Operand parse_name_operand();
  Operand parse_number_operand(const Token& minus);
  Operand parse_address();
  Operand parse_operand_list(TokenKind close);

  [[noreturn]] void fail(const Token& at, std::string message) const { cur_.fail(at, std::move(message)); }

  TokenCursor cur_;
  Module module_;
  DebugLoc debug_;  // most recent .loc in the current function
};

// Turns Symbol operands that name a .reg declared without '%' (inline-asm scopes: `.reg .f16
// low;`) into Register operands, scope-aware. Run on each function after its body is parsed.
void mark_bare_registers(Function& function);

}  // namespace lockstep::ptx
