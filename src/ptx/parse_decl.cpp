// Variable declarations: state space, attributes, type, names, arrays and initializers.
#include <array>
#include <utility>

#include "ptx/literal.h"
#include "ptx/parser_impl.h"

namespace lockstep::ptx {
namespace {

constexpr auto kTypes = std::to_array<std::pair<std::string_view, Type>>({
    {".pred", Type::Pred},     {".b8", Type::B8},         {".b16", Type::B16},
    {".b32", Type::B32},       {".b64", Type::B64},       {".b128", Type::B128},
    {".u8", Type::U8},         {".u16", Type::U16},       {".u32", Type::U32},
    {".u64", Type::U64},       {".s8", Type::S8},         {".s16", Type::S16},
    {".s32", Type::S32},       {".s64", Type::S64},       {".f16", Type::F16},
    {".f16x2", Type::F16x2},   {".bf16", Type::BF16},     {".bf16x2", Type::BF16x2},
    {".tf32", Type::TF32},     {".f32", Type::F32},       {".f64", Type::F64},
    {".texref", Type::TexRef}, {".surfref", Type::SurfRef}, {".samplerref", Type::SamplerRef},
});

constexpr auto kSpaces = std::to_array<std::pair<std::string_view, StateSpace>>({
    {".reg", StateSpace::Reg},       {".const", StateSpace::Const},
    {".global", StateSpace::Global}, {".local", StateSpace::Local},
    {".param", StateSpace::Param},   {".shared", StateSpace::Shared},
    {".tex", StateSpace::Tex},
});

Type type_of(std::string_view text) {
  for (const auto& [name, type] : kTypes) {
    if (name == text) return type;
  }
  return Type::None;
}

StateSpace space_of(std::string_view text) {
  for (const auto& [name, space] : kSpaces) {
    if (name == text) return space;
  }
  return StateSpace::None;
}

uint64_t flip_sign(const NumberLiteral& literal) {
  uint64_t sign = literal.kind == NumberLiteral::Kind::F32Bits ? (1ULL << 31) : (1ULL << 63);
  return literal.bits ^ sign;
}

constexpr uint32_t kMaxRegisterRange = 1u << 24;

}  // namespace

// unsigned := integer-literal   (what: how the caller names the expected value)
uint64_t Parser::parse_unsigned(std::string_view what) {
  Token token = cur_.peek();
  if (token.kind != TokenKind::Number) cur_.fail_expected(token, what);
  auto literal = parse_number(token.text);
  if (!literal || literal->kind != NumberLiteral::Kind::Integer) {
    fail(token, "invalid integer literal '" + std::string(token.text) + "'");
  }
  cur_.take();
  return literal->bits;
}

// signed-offset := ['-'] integer-literal   (after a '+' or '-' that the caller consumed)
int64_t Parser::parse_signed_offset() {
  bool negative = cur_.accept(TokenKind::Minus);
  auto value = parse_unsigned("an integer");
  return static_cast<int64_t>(negative ? 0 - value : value);
}

// variable-statement := space attributes type name-item { ',' name-item } ';'
std::vector<VariableDecl> Parser::parse_variable_statement(const Token& space_directive, std::string linkage) {
  VariableDecl common;
  common.space = space_of(space_directive.text);
  common.linkage = std::move(linkage);
  parse_decl_attributes(common, false);
  std::vector<VariableDecl> decls;
  do {
    VariableDecl decl = common;
    parse_decl_name(decl);
    if (cur_.at(TokenKind::Equals)) parse_initializer(decl);
    decls.push_back(std::move(decl));
  } while (cur_.accept(TokenKind::Comma));
  cur_.expect(TokenKind::Semicolon);
  return decls;
}

// attributes := { '.align' N | '.v2' | '.v4' | '.v8' | '.attribute' '(' ... ')' | '.ptr' | space }
//               type { '.ptr' | '.align' N | space }
// A space after .ptr names the pointee's space (kernel params); it is accepted and ignored.
void Parser::parse_decl_attributes(VariableDecl& decl, bool allow_ptr) {
  while (cur_.at(TokenKind::Directive)) {
    Token token = cur_.peek();
    std::string_view text = token.text;
    if (text == ".align") {
      cur_.take();
      Token value_token = cur_.peek();
      uint64_t align = parse_unsigned("an alignment");
      if (align == 0 || (align & (align - 1)) != 0 || align > (1u << 30)) {
        fail(value_token, "alignment must be a power of two");
      }
      decl.align = static_cast<uint32_t>(align);
    } else if (text == ".v2" || text == ".v4" || text == ".v8") {
      cur_.take();
      decl.vector_width = static_cast<uint32_t>(text[2] - '0');
    } else if (text == ".attribute") {
      cur_.take();
      cur_.expect(TokenKind::LParen);
      for (size_t depth = 1; depth > 0;) {
        Token inner = cur_.take();
        if (inner.kind == TokenKind::End) cur_.fail_expected(inner, "')'");
        if (inner.kind == TokenKind::LParen) ++depth;
        if (inner.kind == TokenKind::RParen) --depth;
      }
    } else if (allow_ptr && text == ".ptr") {
      cur_.take();
      decl.ptr_attribute = true;
    } else if (decl.ptr_attribute && space_of(text) != StateSpace::None) {
      cur_.take();
    } else if (Type type = type_of(text); type != Type::None && decl.type == Type::None) {
      cur_.take();
      decl.type = type;
    } else {
      break;
    }
  }
  if (decl.type == Type::None) cur_.fail_expected(cur_.peek(), "a type");
}

// name-item := name [ '<' count '>' ] { '[' [size] ']' }
void Parser::parse_decl_name(VariableDecl& decl) {
  Token name = cur_.expect_identifier("a variable name");
  decl.loc = name.loc;
  decl.name = std::string(name.text);
  if (cur_.accept(TokenKind::Less)) {
    Token count_token = cur_.peek();
    uint64_t count = parse_unsigned("a register count");
    if (count == 0 || count > kMaxRegisterRange) fail(count_token, "invalid register count");
    decl.range = static_cast<uint32_t>(count);
    cur_.expect(TokenKind::Greater);
  }
  while (cur_.accept(TokenKind::LBracket)) {
    uint64_t size = 0;
    if (!cur_.at(TokenKind::RBracket)) size = parse_unsigned("an array size");
    decl.dims.push_back(size);
    cur_.expect(TokenKind::RBracket);
  }
}

// initializer := '=' ( '{' init-list '}' | init-value )
void Parser::parse_initializer(VariableDecl& decl) {
  cur_.expect(TokenKind::Equals);
  decl.has_init = true;
  if (decl.type == Type::SamplerRef && cur_.at(TokenKind::LBrace)) {
    // { addr_mode_0 = clamp_to_edge, filter_mode = linear }: sampler state is not modelled.
    skip_balanced_braces(cur_.take());
    return;
  }
  if (cur_.at(TokenKind::LBrace)) {
    parse_initializer_list(decl, 0);
  } else {
    parse_initializer_value(decl);
  }
}

// init-list := '{' init-elem { ',' init-elem } '}'   init-elem := init-list | init-value
// Nested lists (multi-dimensional arrays) are flattened in order.
void Parser::parse_initializer_list(VariableDecl& decl, int depth) {
  Token open = cur_.expect(TokenKind::LBrace);
  if (depth >= kMaxNesting) fail(open, "initializer nested too deeply");
  do {
    if (cur_.at(TokenKind::LBrace)) {
      parse_initializer_list(decl, depth + 1);
    } else {
      parse_initializer_value(decl);
    }
  } while (cur_.accept(TokenKind::Comma));
  cur_.expect(TokenKind::RBrace);
}

// init-value := ['-'] number | name [('+'|'-') offset] | 'generic' '(' name ')' [('+'|'-') offset]
void Parser::parse_initializer_value(VariableDecl& decl) {
  Initializer init;
  Token first = cur_.peek();
  init.loc = first.loc;
  if (first.kind == TokenKind::Identifier) {
    cur_.take();
    init.kind = Initializer::Kind::SymbolAddress;
    if (first.text == "generic" && cur_.accept(TokenKind::LParen)) {
      init.generic = true;
      Token symbol = cur_.expect_identifier("a symbol name");
      init.symbol = std::string(symbol.text);
      init.loc = symbol.loc;
      cur_.expect(TokenKind::RParen);
    } else {
      init.symbol = std::string(first.text);
    }
    if (cur_.accept(TokenKind::Plus)) {
      init.offset = parse_signed_offset();
    } else if (cur_.accept(TokenKind::Minus)) {
      init.offset = static_cast<int64_t>(0 - static_cast<uint64_t>(parse_signed_offset()));
    }
    decl.init.push_back(std::move(init));
    return;
  }
  bool negative = cur_.accept(TokenKind::Minus);
  Token number = cur_.peek();
  if (number.kind != TokenKind::Number) cur_.fail_expected(number, "an initializer value");
  auto literal = parse_number(number.text);
  if (!literal) fail(number, "invalid integer literal '" + std::string(number.text) + "'");
  cur_.take();
  if (literal->kind == NumberLiteral::Kind::Integer) {
    init.kind = Initializer::Kind::Integer;
    init.bits = negative ? 0 - literal->bits : literal->bits;
    decl.init.push_back(std::move(init));
    return;
  }
  if (negative) literal->bits = flip_sign(*literal);
  init.kind = Initializer::Kind::Float;
  bool literal_is_f32 = literal->kind == NumberLiteral::Kind::F32Bits;
  init.bits = literal->bits;
  if (decl.type == Type::F32 && !literal_is_f32) init.bits = f64_bits_to_f32_bits(literal->bits);
  if (decl.type == Type::F64 && literal_is_f32) init.bits = f32_bits_to_f64_bits(literal->bits);
  decl.init.push_back(std::move(init));
}

// param := ( '.param' | '.reg' ) attributes name-item
VariableDecl Parser::parse_param(bool allow_ptr) {
  Token space = cur_.peek();
  if (space.kind != TokenKind::Directive || (space.text != ".param" && space.text != ".reg")) {
    cur_.fail_expected(space, "'.param'");
  }
  cur_.take();
  VariableDecl decl;
  decl.space = space_of(space.text);
  parse_decl_attributes(decl, allow_ptr);
  parse_decl_name(decl);
  return decl;
}

}  // namespace lockstep::ptx
