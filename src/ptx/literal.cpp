#include "ptx/literal.h"

#include <bit>
#include <charconv>
#include <string>

namespace lockstep::ptx {
namespace {

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

// Digits of `text` in `base`; nullopt on an empty string, a bad digit or overflow past 64 bits.
std::optional<uint64_t> parse_digits(std::string_view text, unsigned base) {
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    auto d = static_cast<unsigned>(digit_value(c));
    if (d >= base) return std::nullopt;
    if (value > (UINT64_MAX - d) / base) return std::nullopt;
    value = value * base + d;
  }
  return value;
}

std::optional<NumberLiteral> parse_hex_float(std::string_view digits, size_t width, NumberLiteral::Kind kind) {
  if (digits.size() != width) return std::nullopt;
  auto bits = parse_digits(digits, 16);
  if (!bits) return std::nullopt;
  return NumberLiteral{kind, *bits, false};
}

std::optional<NumberLiteral> parse_decimal_float(std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return NumberLiteral{NumberLiteral::Kind::Decimal, std::bit_cast<uint64_t>(value), false};
}

}  // namespace

std::optional<NumberLiteral> parse_number(std::string_view text) {
  if (text.empty()) return std::nullopt;
  if (text.find('.') != std::string_view::npos) return parse_decimal_float(text);
  if (text.size() >= 2 && text[0] == '0') {
    char prefix = text[1];
    std::string_view rest = text.substr(2);
    if (prefix == 'f' || prefix == 'F') return parse_hex_float(rest, 8, NumberLiteral::Kind::F32Bits);
    if (prefix == 'd' || prefix == 'D') return parse_hex_float(rest, 16, NumberLiteral::Kind::F64Bits);
  }
  NumberLiteral literal;
  if (text.back() == 'U' || text.back() == 'u') {
    literal.is_unsigned = true;
    text.remove_suffix(1);
  }
  std::optional<uint64_t> value;
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    value = parse_digits(text.substr(2), 16);
  } else if (text.size() >= 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    value = parse_digits(text.substr(2), 2);
  } else if (text.size() >= 2 && text[0] == '0') {
    value = parse_digits(text.substr(1), 8);
  } else {
    value = parse_digits(text, 10);
  }
  if (!value) return std::nullopt;
  literal.bits = *value;
  return literal;
}

uint64_t f64_bits_to_f32_bits(uint64_t f64_bits) {
  auto narrow = static_cast<float>(std::bit_cast<double>(f64_bits));
  return std::bit_cast<uint32_t>(narrow);
}

uint64_t f32_bits_to_f64_bits(uint64_t f32_bits) {
  auto wide = static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(f32_bits)));
  return std::bit_cast<uint64_t>(wide);
}

}  // namespace lockstep::ptx
