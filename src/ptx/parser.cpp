#include "ptx/parser.h"

#include <array>

#include "ptx/literal.h"
#include "ptx/parser_impl.h"

namespace lockstep::ptx {

Module parse(std::string_view text, std::string_view filename) {
  Parser parser(text, filename);
  return parser.parse_module();
}

// module := { directive }
Module Parser::parse_module() {
  static constexpr std::array kModuleDirectives = std::to_array<DirectiveEntry>({
      {".version", &Parser::parse_version},
      {".target", &Parser::parse_target},
      {".address_size", &Parser::parse_address_size},
      {".file", &Parser::parse_file},
      {".section", &Parser::parse_section},
      {".visible", &Parser::parse_linkage},
      {".extern", &Parser::parse_linkage},
      {".weak", &Parser::parse_linkage},
      {".common", &Parser::parse_linkage},
      {".entry", &Parser::parse_function_directive},
      {".func", &Parser::parse_function_directive},
      {".global", &Parser::parse_module_variable},
      {".const", &Parser::parse_module_variable},
      {".shared", &Parser::parse_module_variable},
      {".local", &Parser::parse_module_variable},
      {".tex", &Parser::parse_module_variable},
      {".alias", &Parser::parse_alias},
      {".pragma", &Parser::parse_module_pragma},
  });
  while (!cur_.at(TokenKind::End)) {
    Token directive = cur_.take();
    if (directive.kind != TokenKind::Directive) fail(directive, "expected a directive");
    const DirectiveEntry* entry = nullptr;
    for (const auto& candidate : kModuleDirectives) {
      if (candidate.name == directive.text) entry = &candidate;
    }
    if (entry == nullptr) fail(directive, "unknown directive '" + std::string(directive.text) + "'");
    (this->*entry->handler)(directive);
  }
  return std::move(module_);
}

// version := '.version' major '.' minor   (lexed as one number, e.g. 9.0)
void Parser::parse_version(const Token&) {
  Token number = cur_.peek();
  auto dot = number.text.find('.');
  if (number.kind != TokenKind::Number || dot == std::string_view::npos) {
    cur_.fail_expected(number, "a version number");
  }
  auto major = parse_number(number.text.substr(0, dot));
  auto minor = parse_number(number.text.substr(dot + 1));
  if (!major || !minor || major->kind != NumberLiteral::Kind::Integer ||
      minor->kind != NumberLiteral::Kind::Integer || major->bits > 99 || minor->bits > 99) {
    fail(number, "invalid version '" + std::string(number.text) + "'");
  }
  cur_.take();
  module_.version_major = static_cast<uint32_t>(major->bits);
  module_.version_minor = static_cast<uint32_t>(minor->bits);
}

// target := '.target' name { ',' name }
void Parser::parse_target(const Token&) {
  module_.target.clear();
  do {
    module_.target.emplace_back(cur_.expect_identifier("a target name").text);
  } while (cur_.accept(TokenKind::Comma));
}

// address_size := '.address_size' ( 32 | 64 )
void Parser::parse_address_size(const Token&) {
  Token number = cur_.peek();
  uint64_t size = parse_unsigned("an address size");
  if (size != 32 && size != 64) fail(number, "address size must be 32 or 64");
  module_.address_size = static_cast<uint32_t>(size);
}

// file := '.file' index string [ ',' timestamp ',' size ]
void Parser::parse_file(const Token&) {
  Token index_token = cur_.peek();
  uint64_t index = parse_unsigned("a file index");
  if (index > UINT32_MAX) fail(index_token, "file index out of range");
  Token path = cur_.expect(TokenKind::String);
  std::string_view quoted = path.text.substr(1, path.text.size() - 2);
  module_.files[static_cast<uint32_t>(index)] = std::string(quoted);
  if (cur_.accept(TokenKind::Comma)) {
    parse_unsigned("a timestamp");
    cur_.expect(TokenKind::Comma);
    parse_unsigned("a file size");
  }
}

// section := '.section' name '{' anything-with-balanced-braces '}'   (DWARF data; skipped)
void Parser::parse_section(const Token&) {
  if (cur_.at(TokenKind::Directive) || cur_.at(TokenKind::Identifier)) {
    cur_.take();
  } else {
    cur_.fail_expected(cur_.peek(), "a section name");
  }
  skip_balanced_braces(cur_.expect(TokenKind::LBrace));
}

// Skips tokens up to and including the '}' that closes `open` (already consumed).
void Parser::skip_balanced_braces(const Token&) {
  size_t depth = 1;
  while (depth > 0) {
    Token token = cur_.take();
    if (token.kind == TokenKind::End) cur_.fail_expected(token, "'}'");
    if (token.kind == TokenKind::LBrace) ++depth;
    if (token.kind == TokenKind::RBrace) --depth;
  }
}

// linkage-declaration := ( '.visible' | '.extern' | '.weak' | '.common' ) declaration
void Parser::parse_linkage(const Token& directive) {
  std::string linkage(directive.text.substr(1));
  Token next = cur_.peek();
  if (next.kind != TokenKind::Directive) cur_.fail_expected(next, "a declaration");
  cur_.take();
  parse_declaration(next, linkage);
}

void Parser::parse_declaration(const Token& directive, const std::string& linkage) {
  if (directive.text == ".entry" || directive.text == ".func") {
    parse_function(directive, linkage);
    return;
  }
  static constexpr std::array kSpaces = std::to_array<std::string_view>(
      {".global", ".const", ".shared", ".local", ".tex"});
  for (auto space : kSpaces) {
    if (directive.text == space) {
      for (auto& decl : parse_variable_statement(directive, linkage)) {
        module_.globals.push_back(std::move(decl));
      }
      return;
    }
  }
  fail(directive, "unknown directive '" + std::string(directive.text) + "'");
}

void Parser::parse_module_variable(const Token& directive) { parse_declaration(directive, ""); }

void Parser::parse_function_directive(const Token& directive) { parse_function(directive, ""); }

// alias := '.alias' name ',' name ';'
void Parser::parse_alias(const Token&) {
  Token alias = cur_.expect_identifier("a function name");
  cur_.expect(TokenKind::Comma);
  Token aliasee = cur_.expect_identifier("a function name");
  cur_.expect(TokenKind::Semicolon);
  module_.aliases.push_back({alias.loc, std::string(alias.text), std::string(aliasee.text)});
}

// module-pragma := '.pragma' string { ',' string } ';'   (module-scope pragmas carry no meaning here)
void Parser::parse_module_pragma(const Token&) {
  do {
    cur_.expect(TokenKind::String);
  } while (cur_.accept(TokenKind::Comma));
  cur_.expect(TokenKind::Semicolon);
}

}  // namespace lockstep::ptx
