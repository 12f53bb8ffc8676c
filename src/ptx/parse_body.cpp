// Function bodies: scopes, labels, body-level declarations and directives, instructions.
#include "ptx/opcodes.h"
#include "ptx/parser_impl.h"

namespace lockstep::ptx {

// block := '{' { statement } '}'
void Parser::parse_block(Block& block, int depth) {
  Token open = cur_.expect(TokenKind::LBrace);
  if (depth >= kMaxNesting) fail(open, "scopes nested too deeply");
  block.loc = open.loc;
  while (!cur_.accept(TokenKind::RBrace)) {
    if (cur_.at(TokenKind::End)) cur_.fail_expected(cur_.peek(), "'}'");
    parse_statement(block, depth);
  }
}

// statement := block | label | body-directive | instruction
void Parser::parse_statement(Block& block, int depth) {
  const Token& next = cur_.peek();
  switch (next.kind) {
    case TokenKind::LBrace: {
      Block inner;
      parse_block(inner, depth + 1);
      block.statements.push_back(Statement{std::move(inner)});
      return;
    }
    case TokenKind::Directive:
      parse_body_directive(block);
      return;
    case TokenKind::Identifier:
      if (cur_.peek(1).kind == TokenKind::Colon) {
        parse_label(block);
        return;
      }
      break;
    case TokenKind::At:
      break;
    default:
      cur_.fail_expected(next, "an instruction");
  }
  block.statements.push_back(Statement{parse_instruction()});
}

// body-directive := variable-statement | '.pragma' string ';' | loc
void Parser::parse_body_directive(Block& block) {
  Token directive = cur_.take();
  std::string_view name = directive.text;
  if (name == ".reg" || name == ".local" || name == ".shared" || name == ".param" || name == ".const" ||
      name == ".global") {
    for (auto& decl : parse_variable_statement(directive, "")) {
      block.statements.push_back(Statement{std::move(decl)});
    }
  } else if (name == ".pragma") {
    Pragma pragma;
    pragma.loc = directive.loc;
    Token text = cur_.expect(TokenKind::String);
    pragma.text = std::string(text.text.substr(1, text.text.size() - 2));
    while (cur_.accept(TokenKind::Comma)) cur_.expect(TokenKind::String);
    cur_.expect(TokenKind::Semicolon);
    block.statements.push_back(Statement{std::move(pragma)});
  } else if (name == ".loc") {
    parse_loc(directive);
  } else {
    fail(directive, "unknown directive '" + std::string(name) + "'");
  }
}

// loc := '.loc' file line col { ',' loc-option }
// loc-option := 'function_name' name [ '+' N ] | 'inlined_at' file line col
// The instructions that follow record (file, line, col) until the next .loc.
void Parser::parse_loc(const Token&) {
  auto u32 = [this](std::string_view what) {
    Token token = cur_.peek();
    uint64_t value = parse_unsigned(what);
    if (value > UINT32_MAX) fail(token, "value out of range");
    return static_cast<uint32_t>(value);
  };
  DebugLoc loc;
  loc.file = u32("a file index");
  loc.line = u32("a line number");
  loc.col = u32("a column number");
  while (cur_.accept(TokenKind::Comma)) {
    Token option = cur_.expect_identifier("a .loc option");
    if (option.text == "function_name") {
      cur_.expect_identifier("a label");
      if (cur_.accept(TokenKind::Plus)) parse_unsigned("an integer");
    } else if (option.text == "inlined_at") {
      u32("a file index");
      u32("a line number");
      u32("a column number");
    } else {
      fail(option, "unknown .loc option '" + std::string(option.text) + "'");
    }
  }
  debug_ = loc;
}

// label := name ':' [ ( '.callprototype' | '.calltargets' | '.branchtargets' ) ... ';' ]
// The labelled directives are kept only as labels, so uses of their names resolve.
void Parser::parse_label(Block& block) {
  Token name = cur_.take();
  cur_.take();  // ':'
  block.statements.push_back(Statement{Label{name.loc, std::string(name.text)}});
  if (cur_.at_directive(".callprototype") || cur_.at_directive(".calltargets") ||
      cur_.at_directive(".branchtargets")) {
    while (!cur_.accept(TokenKind::Semicolon)) {
      if (cur_.at(TokenKind::End) || cur_.at(TokenKind::RBrace)) cur_.fail_expected(cur_.peek(), "';'");
      cur_.take();
    }
  }
}

// instruction := [ '@' ['!'] predicate ] opcode { '.' modifier } [ operand { ',' operand } ] ';'
Instruction Parser::parse_instruction() {
  Instruction inst;
  if (cur_.accept(TokenKind::At)) {
    inst.guard_negated = cur_.accept(TokenKind::Bang);
    inst.guard = std::string(cur_.expect_identifier("a predicate register").text);
  }
  Token opcode = cur_.expect_identifier("an opcode");
  if (!is_known_opcode(opcode.text)) fail(opcode, "unknown opcode '" + std::string(opcode.text) + "'");
  inst.loc = opcode.loc;
  inst.debug = debug_;
  inst.opcode = std::string(opcode.text);
  while (cur_.at(TokenKind::Directive) && cur_.peek().glued) {
    inst.modifiers.emplace_back(cur_.take().text.substr(1));
  }
  if (!cur_.at(TokenKind::Semicolon)) {
    do {
      inst.operands.push_back(parse_operand());
    } while (cur_.accept(TokenKind::Comma));
  }
  cur_.expect(TokenKind::Semicolon);
  return inst;
}

}  // namespace lockstep::ptx
