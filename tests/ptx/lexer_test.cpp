// Lexer: token kinds, texts, locations, the glued flag, trivia and lexical errors.
#include "ptx/lexer.h"

#include <gtest/gtest.h>

#include <vector>

namespace lockstep::ptx {
namespace {

std::vector<Token> lex_all(std::string_view text) {
  Lexer lexer(text, "t.ptx");
  std::vector<Token> tokens;
  while (true) {
    Token token = lexer.next();
    if (token.kind == TokenKind::End) break;
    tokens.push_back(token);
  }
  return tokens;
}

std::string lex_error(std::string_view text) {
  try {
    lex_all(text);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

TEST(Lexer, OpcodeAndModifiersAreGluedTokens) {
  auto tokens = lex_all("ld.global.v4.f32 %f1");
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[0].kind, TokenKind::Identifier);
  EXPECT_EQ(tokens[0].text, "ld");
  EXPECT_EQ(tokens[1].kind, TokenKind::Directive);
  EXPECT_EQ(tokens[1].text, ".global");
  EXPECT_TRUE(tokens[1].glued);
  EXPECT_EQ(tokens[3].text, ".f32");
  EXPECT_EQ(tokens[4].text, "%f1");
  EXPECT_FALSE(tokens[4].glued);
  EXPECT_EQ(tokens[4].loc.col, 18u);
}

TEST(Lexer, DirectiveWithDoubleColonSegments) {
  auto tokens = lex_all("cp.async.bulk.shared::cluster.mbarrier::complete_tx::bytes");
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[3].text, ".shared::cluster");
  EXPECT_EQ(tokens[4].text, ".mbarrier::complete_tx::bytes");
}

TEST(Lexer, IdentifierForms) {
  auto tokens = lex_all("$L__BB0_2 _Z3fibi $str$1 %SP _ __cudart_i2opi_f");
  ASSERT_EQ(tokens.size(), 6u);
  for (const auto& token : tokens) EXPECT_EQ(token.kind, TokenKind::Identifier);
  EXPECT_EQ(tokens[2].text, "$str$1");
  EXPECT_EQ(tokens[4].text, "_");
}

TEST(Lexer, NumbersKeepTheirWholeSpelling) {
  auto tokens = lex_all("0f3F800000 0d3FF0000000000000 0x1FU 9.0 1.5e-3 017");
  ASSERT_EQ(tokens.size(), 6u);
  for (const auto& token : tokens) EXPECT_EQ(token.kind, TokenKind::Number);
  EXPECT_EQ(tokens[0].text, "0f3F800000");
  EXPECT_EQ(tokens[2].text, "0x1FU");
  EXPECT_EQ(tokens[3].text, "9.0");
  EXPECT_EQ(tokens[4].text, "1.5e-3");
}

TEST(Lexer, PunctuationAndStrings) {
  auto tokens = lex_all("{}()[],;:@!|+-<>= \"a \\\" b\"");
  std::vector<TokenKind> kinds;
  for (const auto& token : tokens) kinds.push_back(token.kind);
  std::vector<TokenKind> expected = {
      TokenKind::LBrace, TokenKind::RBrace, TokenKind::LParen, TokenKind::RParen, TokenKind::LBracket,
      TokenKind::RBracket, TokenKind::Comma, TokenKind::Semicolon, TokenKind::Colon, TokenKind::At,
      TokenKind::Bang, TokenKind::Pipe, TokenKind::Plus, TokenKind::Minus, TokenKind::Less,
      TokenKind::Greater, TokenKind::Equals, TokenKind::String};
  EXPECT_EQ(kinds, expected);
  EXPECT_EQ(tokens.back().text, "\"a \\\" b\"");
}

TEST(Lexer, CommentsAreTriviaAndLinesAreCounted) {
  auto tokens = lex_all("// line comment\n  /* block\n comment */ add // tail\n\tret");
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].text, "add");
  EXPECT_EQ(tokens[0].loc.line, 3u);
  EXPECT_EQ(tokens[0].loc.col, 13u);
  EXPECT_EQ(tokens[1].loc.line, 4u);
  EXPECT_EQ(tokens[1].loc.col, 2u);
}

TEST(Lexer, BraceGluedToOpcode) {
  auto tokens = lex_all("{fma.rn.f16 %rs2,%rs1;");
  ASSERT_EQ(tokens.size(), 8u);
  EXPECT_EQ(tokens[0].kind, TokenKind::LBrace);
  EXPECT_EQ(tokens[1].text, "fma");
  EXPECT_TRUE(tokens[1].glued);
  EXPECT_EQ(tokens[5].text, ",");
  EXPECT_EQ(tokens[6].text, "%rs1");
}

TEST(Lexer, Errors) {
  EXPECT_EQ(lex_error("add\n  #x"), "t.ptx:2:3: unexpected character '#'");
  EXPECT_EQ(lex_error("a \x01"), "t.ptx:1:3: unexpected character '\\x01'");
  EXPECT_EQ(lex_error("x /* never closed"), "t.ptx:1:3: unterminated comment");
  EXPECT_EQ(lex_error(".pragma \"abc\n\";"), "t.ptx:1:9: unterminated string");
  EXPECT_EQ(lex_error("\"abc\\"), "t.ptx:1:1: unterminated string");
  EXPECT_EQ(lex_error("mov % 1"), "t.ptx:1:5: unexpected character '%'");
  EXPECT_EQ(lex_error("a . b"), "t.ptx:1:3: unexpected character '.'");
}

}  // namespace
}  // namespace lockstep::ptx
