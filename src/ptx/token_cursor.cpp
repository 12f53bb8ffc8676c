#include "ptx/token_cursor.h"

namespace lockstep::ptx {

const Token& TokenCursor::peek(size_t k) {
  while (count_ <= k) {
    ring_[(head_ + count_) % kLookahead] = lexer_.next();
    ++count_;
  }
  return ring_[(head_ + k) % kLookahead];
}

Token TokenCursor::take() {
  Token token = peek();
  head_ = (head_ + 1) % kLookahead;
  --count_;
  return token;
}

bool TokenCursor::accept(TokenKind kind) {
  if (!at(kind)) return false;
  take();
  return true;
}

bool TokenCursor::accept_directive(std::string_view name) {
  if (!at_directive(name)) return false;
  take();
  return true;
}

Token TokenCursor::expect(TokenKind kind) {
  if (!at(kind)) fail_expected(peek(), describe(kind));
  return take();
}

Token TokenCursor::expect_identifier(std::string_view what) {
  if (!at(TokenKind::Identifier)) fail_expected(peek(), what);
  return take();
}

void TokenCursor::fail(const Token& at, std::string message) const {
  throw Error(filename(), at.loc, std::move(message));
}

void TokenCursor::fail_expected(const Token& at, std::string_view what) const {
  std::string message = at.kind == TokenKind::End ? "unexpected end of input, expected " : "expected ";
  message += what;
  fail(at, std::move(message));
}

}  // namespace lockstep::ptx
