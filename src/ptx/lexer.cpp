#include "ptx/lexer.h"

#include <cstdio>

namespace lockstep::ptx {
namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
// PTX "followsym": the characters allowed after the first one of an identifier.
bool is_follow(char c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '$'; }

std::string printable(char c) {
  auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte < 0x7f) return std::string(1, c);
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", byte);
  return buf;
}

TokenKind punctuation(char c) {
  switch (c) {
    case '{': return TokenKind::LBrace;
    case '}': return TokenKind::RBrace;
    case '(': return TokenKind::LParen;
    case ')': return TokenKind::RParen;
    case '[': return TokenKind::LBracket;
    case ']': return TokenKind::RBracket;
    case ',': return TokenKind::Comma;
    case ';': return TokenKind::Semicolon;
    case ':': return TokenKind::Colon;
    case '@': return TokenKind::At;
    case '!': return TokenKind::Bang;
    case '|': return TokenKind::Pipe;
    case '+': return TokenKind::Plus;
    case '-': return TokenKind::Minus;
    case '<': return TokenKind::Less;
    case '>': return TokenKind::Greater;
    case '=': return TokenKind::Equals;
    default: return TokenKind::End;
  }
}

}  // namespace

std::string describe(TokenKind kind) {
  switch (kind) {
    case TokenKind::End: return "end of input";
    case TokenKind::Identifier: return "a name";
    case TokenKind::Directive: return "a directive";
    case TokenKind::Number: return "a number";
    case TokenKind::String: return "a string";
    case TokenKind::LBrace: return "'{'";
    case TokenKind::RBrace: return "'}'";
    case TokenKind::LParen: return "'('";
    case TokenKind::RParen: return "')'";
    case TokenKind::LBracket: return "'['";
    case TokenKind::RBracket: return "']'";
    case TokenKind::Comma: return "','";
    case TokenKind::Semicolon: return "';'";
    case TokenKind::Colon: return "':'";
    case TokenKind::At: return "'@'";
    case TokenKind::Bang: return "'!'";
    case TokenKind::Pipe: return "'|'";
    case TokenKind::Plus: return "'+'";
    case TokenKind::Minus: return "'-'";
    case TokenKind::Less: return "'<'";
    case TokenKind::Greater: return "'>'";
    case TokenKind::Equals: return "'='";
  }
  return "a token";
}

void Lexer::advance(size_t count) {
  for (size_t i = 0; i < count && pos_ < text_.size(); ++i, ++pos_) {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
  }
}

void Lexer::advance_in_line(size_t count) {
  pos_ += count;
  col_ += static_cast<uint32_t>(count);
}

void Lexer::fail(SourceLoc loc, std::string message) const { throw Error(filename_, loc, std::move(message)); }

bool Lexer::skip_trivia() {
  size_t start = pos_;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '\n') {
      advance(1);
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      advance_in_line(1);
    } else if (c == '/' && at(1) == '/') {
      size_t newline = text_.find('\n', pos_);
      advance_in_line((newline == std::string_view::npos ? text_.size() : newline) - pos_);
    } else if (c == '/' && at(1) == '*') {
      SourceLoc open{line_, col_};
      size_t close = text_.find("*/", pos_ + 2);
      if (close == std::string_view::npos) fail(open, "unterminated comment");
      advance(close + 2 - pos_);
    } else {
      break;
    }
  }
  return pos_ != start;
}

Token Lexer::next() {
  bool spaced = skip_trivia() || pos_ == 0;
  Token token;
  token.loc = {line_, col_};
  token.glued = !spaced;
  if (pos_ >= text_.size()) return token;  // End
  char c = text_[pos_];
  if (is_alpha(c) || c == '_' || c == '$' || c == '%') return lex_identifier(token);
  if (c == '.') return lex_directive(token);
  if (is_digit(c)) return lex_number(token);
  if (c == '"') return lex_string(token);
  token.kind = punctuation(c);
  if (token.kind == TokenKind::End) fail(token.loc, "unexpected character '" + printable(c) + "'");
  token.text = text_.substr(pos_, 1);
  advance_in_line(1);
  return token;
}

// identifier: [a-zA-Z]{followsym}* | [_$%]{followsym}*  ("_" alone is the sink operand)
Token Lexer::lex_identifier(Token token) {
  size_t len = 1;
  while (is_follow(at(len))) ++len;
  if (text_[pos_] == '%' && len == 1) fail(token.loc, "unexpected character '%'");
  token.kind = TokenKind::Identifier;
  token.text = text_.substr(pos_, len);
  advance_in_line(len);
  return token;
}

// directive or modifier: '.' {followsym}+ ('::' {followsym}+)*  (.shared::cta, .mbarrier::complete_tx::bytes)
Token Lexer::lex_directive(Token token) {
  size_t len = 1;
  while (true) {
    size_t seg = len;
    while (is_follow(at(len))) ++len;
    if (len == seg) fail(token.loc, "unexpected character '.'");
    if (at(len) == ':' && at(len + 1) == ':' && is_follow(at(len + 2))) {
      len += 2;
      continue;
    }
    break;
  }
  token.kind = TokenKind::Directive;
  token.text = text_.substr(pos_, len);
  advance_in_line(len);
  return token;
}

// number: digit {alnum|_}* ['.' digit+ [eE [+-] digit+]]. Classification (integer, hex float
// bits, decimal float) is left to literal.h so errors can quote the whole spelling.
Token Lexer::lex_number(Token token) {
  size_t len = 1;
  while (is_follow(at(len)) && at(len) != '$') ++len;
  bool all_digits = true;
  for (size_t i = 0; i < len; ++i) all_digits = all_digits && is_digit(text_[pos_ + i]);
  if (all_digits && at(len) == '.' && is_digit(at(len + 1))) {
    len += 1;
    while (is_digit(at(len))) ++len;
    if ((at(len) == 'e' || at(len) == 'E')) {
      size_t exp = len + 1;
      if (at(exp) == '+' || at(exp) == '-') ++exp;
      if (is_digit(at(exp))) {
        len = exp;
        while (is_digit(at(len))) ++len;
      }
    }
  }
  token.kind = TokenKind::Number;
  token.text = text_.substr(pos_, len);
  advance_in_line(len);
  return token;
}

Token Lexer::lex_string(Token token) {
  size_t len = 1;
  while (true) {
    char c = at(len);
    if (pos_ + len >= text_.size() || c == '\n') fail(token.loc, "unterminated string");
    if (c == '\\') {
      if (pos_ + len + 1 >= text_.size() || at(len + 1) == '\n') fail(token.loc, "unterminated string");
      len += 2;
      continue;
    }
    ++len;
    if (c == '"') break;
  }
  token.kind = TokenKind::String;
  token.text = text_.substr(pos_, len);
  advance_in_line(len);  // strings end at a newline (unterminated), so none is inside
  return token;
}

}  // namespace lockstep::ptx
