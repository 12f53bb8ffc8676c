// .entry / .func headers: results, parameters, performance directives, body or ';'.
#include <array>

#include "ptx/parser_impl.h"

namespace lockstep::ptx {

// function := ( '.entry' | '.func' ) [ '(' param-list ')' ] name [ '(' param-list ')' ]
//             { performance-directive } ( '{' body '}' | ';' )
// The first parenthesised list is the result list, and is only allowed for .func.
void Parser::parse_function(const Token& kind, const std::string& linkage) {
  Function function;
  function.is_entry = kind.text == ".entry";
  function.linkage = linkage;
  if (!function.is_entry && cur_.at(TokenKind::LParen)) {
    parse_param_list(function.results, false);
  }
  Token name = cur_.expect_identifier("a function name");
  function.loc = name.loc;
  function.name = std::string(name.text);
  if (cur_.at(TokenKind::LParen)) parse_param_list(function.params, function.is_entry);
  while (parse_performance_directive(function)) {
  }
  if (cur_.accept(TokenKind::Semicolon)) {
    module_.functions.push_back(std::move(function));
    return;
  }
  if (cur_.at(TokenKind::Directive)) {
    fail(cur_.peek(), "unknown directive '" + std::string(cur_.peek().text) + "'");
  }
  if (!cur_.at(TokenKind::LBrace)) cur_.fail_expected(cur_.peek(), "'{'");
  function.has_body = true;
  debug_ = {};
  function.body.loc = cur_.peek().loc;
  parse_block(function.body, 0);
  mark_bare_registers(function);
  module_.functions.push_back(std::move(function));
}

// param-list := '(' [ param { ',' param } ] ')'
void Parser::parse_param_list(std::vector<VariableDecl>& params, bool allow_ptr) {
  cur_.expect(TokenKind::LParen);
  if (cur_.accept(TokenKind::RParen)) return;
  do {
    params.push_back(parse_param(allow_ptr));
  } while (cur_.accept(TokenKind::Comma));
  cur_.expect(TokenKind::RParen);
}

// dimension-list := N [ ',' N [ ',' N ] ]
std::vector<uint32_t> Parser::parse_dimension_list() {
  std::vector<uint32_t> dims;
  do {
    Token token = cur_.peek();
    uint64_t value = parse_unsigned("an integer");
    if (value > UINT32_MAX) fail(token, "value out of range");
    if (dims.size() == 3) fail(token, "at most three dimensions");
    dims.push_back(static_cast<uint32_t>(value));
  } while (cur_.accept(TokenKind::Comma));
  return dims;
}

// performance-directive := '.maxntid' dims | '.reqntid' dims | '.reqnctapercluster' dims
//   | '.minnctapersm' N | '.maxnctapersm' N | '.maxnreg' N | '.maxclusterrank' N
//   | '.explicitcluster' | '.blocksareclusters' | '.noreturn' | '.pragma' string {',' string} ';'
//   | '.abi_preserve' N | '.abi_preserve_control' N
// Returns false (consuming nothing) when the next token is not one of them.
bool Parser::parse_performance_directive(Function& function) {
  if (!cur_.at(TokenKind::Directive)) return false;
  std::string_view name = cur_.peek().text;
  PerformanceHints& hints = function.hints;
  auto scalar = [this](std::string_view what) {
    Token token = cur_.peek();
    uint64_t value = parse_unsigned(what);
    if (value > UINT32_MAX) fail(token, "value out of range");
    return static_cast<uint32_t>(value);
  };
  if (name == ".maxntid") {
    cur_.take();
    hints.maxntid = parse_dimension_list();
  } else if (name == ".reqntid") {
    cur_.take();
    hints.reqntid = parse_dimension_list();
  } else if (name == ".reqnctapercluster") {
    cur_.take();
    hints.reqnctapercluster = parse_dimension_list();
  } else if (name == ".minnctapersm") {
    cur_.take();
    hints.minnctapersm = scalar("an integer");
  } else if (name == ".maxnctapersm") {
    cur_.take();
    hints.maxnctapersm = scalar("an integer");
  } else if (name == ".maxnreg") {
    cur_.take();
    hints.maxnreg = scalar("an integer");
  } else if (name == ".maxclusterrank" || name == ".abi_preserve" || name == ".abi_preserve_control") {
    cur_.take();
    scalar("an integer");  // not modelled
  } else if (name == ".explicitcluster") {
    cur_.take();
    hints.explicitcluster = true;
  } else if (name == ".noreturn" || name == ".blocksareclusters") {
    cur_.take();
  } else if (name == ".pragma") {
    cur_.take();
    do {
      Token text = cur_.expect(TokenKind::String);
      hints.pragmas.emplace_back(text.text.substr(1, text.text.size() - 2));
    } while (cur_.accept(TokenKind::Comma));
    cur_.expect(TokenKind::Semicolon);
  } else {
    return false;
  }
  return true;
}

}  // namespace lockstep::ptx
