#pragma once
// A few tokens of lookahead over the lexer, plus the error helpers every parser production
// uses so that diagnostics read the same everywhere ("expected ';'" at the offending token).
#include <array>
#include <string>
#include <string_view>

#include "ptx/lexer.h"

namespace lockstep::ptx {

class TokenCursor {
 public:
  static constexpr size_t kLookahead = 4;

  TokenCursor(std::string_view text, std::string_view filename) : lexer_(text, filename) {}

  // The token `k` positions ahead (k < kLookahead) without consuming anything.
  const Token& peek(size_t k = 0);
  Token take();

  bool at(TokenKind kind) { return peek().kind == kind; }
  bool at_directive(std::string_view name) {
    return peek().kind == TokenKind::Directive && peek().text == name;
  }
  // Consumes the next token if it has `kind`.
  bool accept(TokenKind kind);
  bool accept_directive(std::string_view name);
  // Consumes a token of `kind` or fails with "expected ';'" (or "unexpected end of input,
  // expected ';'" at the end of the input).
  Token expect(TokenKind kind);
  Token expect_identifier(std::string_view what);

  [[noreturn]] void fail(const Token& at, std::string message) const;
  // "expected WHAT", or "unexpected end of input, expected WHAT" when `at` is the end.
  [[noreturn]] void fail_expected(const Token& at, std::string_view what) const;

  const std::string& filename() const { return lexer_.filename(); }

 private:
  Lexer lexer_;
  std::array<Token, kLookahead> ring_{};
  size_t head_ = 0;
  size_t count_ = 0;
};

}  // namespace lockstep::ptx
