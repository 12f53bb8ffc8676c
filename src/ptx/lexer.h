#pragma once
// PTX text -> tokens. A single forward pass over a string_view with no allocation per token:
// token texts are views into the input, which must outlive the lexer and its tokens.
#include <cstdint>
#include <string>
#include <string_view>

#include "ptx/error.h"

namespace lockstep::ptx {

enum class TokenKind : uint8_t {
  End,         // end of input
  Identifier,  // add, %r1, $L__BB0_2, _Z3fooi, _ (opcode names and bare names alike)
  Directive,   // .reg, .b32, .global, .shared::cta (text includes the leading dot)
  Number,      // 42, 0x1F, 0f3F800000, 9.0 (classified by literal.h)
  String,      // "text" (text includes the quotes)
  LBrace, RBrace, LParen, RParen, LBracket, RBracket,
  Comma, Semicolon, Colon, At, Bang, Pipe, Plus, Minus, Less, Greater, Equals,
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  SourceLoc loc;
  bool glued = false;  // no whitespace or comment between this token and the previous one
};

// How a token is named in "expected X" diagnostics: ';' for punctuation, the text otherwise.
std::string describe(TokenKind kind);

class Lexer {
 public:
  Lexer(std::string_view text, std::string_view filename) : text_(text), filename_(filename) {}

  // The next token; TokenKind::End forever once the input is exhausted.
  // Throws ptx::Error on a character that cannot start a token, an unterminated string or
  // an unterminated block comment.
  Token next();

  const std::string& filename() const { return filename_; }

 private:
  // Skips whitespace and comments; returns true if anything was skipped.
  bool skip_trivia();
  char at(size_t offset) const { return pos_ + offset < text_.size() ? text_[pos_ + offset] : '\0'; }
  void advance(size_t count);          // may cross newlines
  void advance_in_line(size_t count);  // caller guarantees no newline in the span
  [[noreturn]] void fail(SourceLoc loc, std::string message) const;

  Token lex_identifier(Token token);
  Token lex_directive(Token token);
  Token lex_number(Token token);
  Token lex_string(Token token);

  std::string_view text_;
  std::string filename_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t col_ = 1;
};

}  // namespace lockstep::ptx
