// Instruction operands (ast.h Operand): registers, immediates, symbols, addresses, vectors,
// call lists and d|p pairs.
#include "ptx/literal.h"
#include "ptx/parser_impl.h"

namespace lockstep::ptx {
namespace {

bool starts_float_literal(std::string_view text) {
  if (text.find('.') != std::string_view::npos) return true;
  return text.size() >= 2 && text[0] == '0' &&
         (text[1] == 'f' || text[1] == 'F' || text[1] == 'd' || text[1] == 'D');
}

}  // namespace

// operand := primary [ '|' primary ]
// primary := '!' name | ['-'] number | name [ '.' component ] | '_' | address
//          | '{' element-list '}' | '(' [ element-list ] ')'
// element-list := primary-without-lists { ',' primary-without-lists }
Operand Parser::parse_operand() {
  Operand first = parse_primary_operand();
  if (!cur_.at(TokenKind::Pipe)) return first;
  cur_.take();  // '|'
  Operand pair;
  pair.kind = Operand::Kind::Pair;
  pair.loc = first.loc;
  pair.elements.push_back(std::move(first));
  if (cur_.at(TokenKind::Identifier)) {
    pair.elements.push_back(parse_name_operand());
  } else {
    cur_.fail_expected(cur_.peek(), "an operand");
  }
  return pair;
}

Operand Parser::parse_primary_operand() {
  const Token& next = cur_.peek();
  switch (next.kind) {
    case TokenKind::LBrace:
      return parse_operand_list(TokenKind::RBrace);
    case TokenKind::LParen:
      return parse_operand_list(TokenKind::RParen);
    case TokenKind::LBracket:
      return parse_address();
    default:
      break;
  }
  if (next.kind == TokenKind::Bang) {
    Token bang = cur_.take();
    if (!cur_.at(TokenKind::Identifier)) cur_.fail_expected(cur_.peek(), "a predicate register");
    Operand operand = parse_name_operand();
    operand.loc = bang.loc;
    operand.negated = true;
    return operand;
  }
  if (next.kind == TokenKind::Identifier) return parse_name_operand();
  if (next.kind == TokenKind::Minus) {
    Token minus = cur_.take();
    if (!cur_.at(TokenKind::Number)) cur_.fail_expected(cur_.peek(), "an operand");
    return parse_number_operand(minus);
  }
  if (next.kind == TokenKind::Number) return parse_number_operand(Token{});
  cur_.fail_expected(next, "an operand");
}

// name := register | symbol | '_' | 'WARP_SZ'; a '%' name may carry a component (%tid.x).
// Bare names are Symbols here; mark_bare_registers() turns the declared .reg ones into Registers.
Operand Parser::parse_name_operand() {
  Token name = cur_.take();
  Operand operand;
  operand.loc = name.loc;
  if (name.text == "_") {
    operand.kind = Operand::Kind::Sink;
    return operand;
  }
  if (name.text == "WARP_SZ") {
    // The one predefined constant of PTX (what CUDA's warpSize compiles to). Its value is the
    // warp width of the machine that runs the program, which lockstep lets the user choose, so
    // it is read like a special register rather than folded to 32 here.
    operand.kind = Operand::Kind::Register;
    operand.name = "WARP_SZ";
    return operand;
  }
  operand.name = std::string(name.text);
  if (name.text.front() == '%') {
    operand.kind = Operand::Kind::Register;
    if (cur_.at(TokenKind::Directive) && cur_.peek().glued) {
      operand.component = std::string(cur_.take().text.substr(1));
    }
  } else {
    operand.kind = Operand::Kind::Symbol;
  }
  return operand;
}

// number := integer-literal | 0f hex8 | 0d hex16 | decimal-float; `minus` is the '-' before
// it (kind End if none).
Operand Parser::parse_number_operand(const Token& minus) {
  Token number = cur_.take();
  Operand operand;
  operand.loc = minus.kind == TokenKind::Minus ? minus.loc : number.loc;
  auto literal = parse_number(number.text);
  if (!literal) {
    const char* what = starts_float_literal(number.text) ? "invalid float literal '" : "invalid integer literal '";
    fail(number, what + std::string(number.text) + "'");
  }
  bool negative = minus.kind == TokenKind::Minus;
  switch (literal->kind) {
    case NumberLiteral::Kind::Integer:
      operand.kind = Operand::Kind::Immediate;
      operand.int_value = static_cast<int64_t>(negative ? 0 - literal->bits : literal->bits);
      break;
    case NumberLiteral::Kind::F32Bits:
      operand.kind = Operand::Kind::FloatImmediate;
      operand.bits = negative ? literal->bits ^ (1ULL << 31) : literal->bits;
      break;
    case NumberLiteral::Kind::F64Bits:
    case NumberLiteral::Kind::Decimal:
      operand.kind = Operand::Kind::FloatImmediate;
      operand.is_f64 = true;
      operand.bits = negative ? literal->bits ^ (1ULL << 63) : literal->bits;
      break;
  }
  return operand;
}

// address := '[' ( ['-'] number | name [ ('+' | '-') signed-offset ] ) { ',' primary } ']'
// With commas (texture/surface forms, [tex, {x, y}]) all parts go to `elements`.
Operand Parser::parse_address() {
  Token open = cur_.expect(TokenKind::LBracket);
  Operand address;
  address.kind = Operand::Kind::Address;
  address.loc = open.loc;
  const Token& first = cur_.peek();
  if (first.kind == TokenKind::Identifier) {
    Operand base = parse_name_operand();
    if (base.kind == Operand::Kind::Sink) fail(open, "expected an address");
    address.name = base.name;
    if (cur_.accept(TokenKind::Plus)) {
      address.int_value = parse_signed_offset();
    } else if (cur_.accept(TokenKind::Minus)) {
      address.int_value = static_cast<int64_t>(0 - static_cast<uint64_t>(parse_signed_offset()));
    }
    if (cur_.at(TokenKind::Comma)) {
      address.name.clear();
      address.elements.push_back(std::move(base));
      while (cur_.accept(TokenKind::Comma)) address.elements.push_back(parse_primary_operand());
    }
  } else if (first.kind == TokenKind::Number || first.kind == TokenKind::Minus) {
    Token minus = first.kind == TokenKind::Minus ? cur_.take() : Token{};
    if (!cur_.at(TokenKind::Number)) cur_.fail_expected(cur_.peek(), "an address");
    Operand offset = parse_number_operand(minus);
    if (offset.kind != Operand::Kind::Immediate) fail(open, "expected an address");
    address.int_value = offset.int_value;
  } else {
    cur_.fail_expected(first, "an address");
  }
  cur_.expect(TokenKind::RBracket);
  return address;
}

// '{' element-list '}' -> Vector; '(' [ element-list ] ')' -> Vector (call results/arguments).
Operand Parser::parse_operand_list(TokenKind close) {
  Token open = cur_.take();
  Operand list;
  list.kind = Operand::Kind::Vector;
  list.loc = open.loc;
  if (close == TokenKind::RParen && cur_.accept(close)) return list;
  do {
    const Token& next = cur_.peek();
    if (next.kind == TokenKind::LBrace || next.kind == TokenKind::LParen || next.kind == TokenKind::LBracket) {
      cur_.fail_expected(next, "an operand");
    }
    list.elements.push_back(parse_primary_operand());
  } while (cur_.accept(TokenKind::Comma));
  cur_.expect(close);
  return list;
}

}  // namespace lockstep::ptx
