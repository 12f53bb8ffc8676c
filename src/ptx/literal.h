#pragma once
// Classification and value of PTX numeric literals, as the lexer delivers them.
#include <cstdint>
#include <optional>
#include <string_view>

namespace lockstep::ptx {

struct NumberLiteral {
  enum class Kind : uint8_t {
    Integer,  // 42, 0x2A, 052, 0b101010, 42U (bits = the value, wrapped to 64 bits)
    F32Bits,  // 0f3F800000 (bits = the f32 bit pattern)
    F64Bits,  // 0d3FF0000000000000 (bits = the f64 bit pattern)
    Decimal,  // 1.5, 2.0e-3: PTX gives decimal floats f64 precision (bits = f64 pattern)
  };
  Kind kind = Kind::Integer;
  uint64_t bits = 0;
  bool is_unsigned = false;  // U suffix
};

// nullopt when `text` is not a well-formed literal (including integers above 2^64-1).
std::optional<NumberLiteral> parse_number(std::string_view text);

// f32 <-> f64 bit-pattern conversions for initializers whose literal width differs from the
// variable's type (round to nearest even, as C++ conversion does).
uint64_t f64_bits_to_f32_bits(uint64_t f64_bits);
uint64_t f32_bits_to_f64_bits(uint64_t f32_bits);

}  // namespace lockstep::ptx
