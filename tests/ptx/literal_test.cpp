// Numeric literal classification and values.
#include "ptx/literal.h"

#include <gtest/gtest.h>

namespace lockstep::ptx {
namespace {

uint64_t integer(std::string_view text) {
  auto literal = parse_number(text);
  EXPECT_TRUE(literal.has_value()) << text;
  if (!literal) return 0;
  EXPECT_EQ(literal->kind, NumberLiteral::Kind::Integer) << text;
  return literal->bits;
}

TEST(Literal, IntegerBases) {
  EXPECT_EQ(integer("0"), 0u);
  EXPECT_EQ(integer("42"), 42u);
  EXPECT_EQ(integer("0x2A"), 42u);
  EXPECT_EQ(integer("0X2a"), 42u);
  EXPECT_EQ(integer("052"), 42u);
  EXPECT_EQ(integer("0b101010"), 42u);
  EXPECT_EQ(integer("0B1"), 1u);
  EXPECT_EQ(integer("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(integer("0xFFFFFFFFFFFFFFFF"), UINT64_MAX);
}

TEST(Literal, UnsignedSuffix) {
  auto literal = parse_number("42U");
  ASSERT_TRUE(literal);
  EXPECT_TRUE(literal->is_unsigned);
  EXPECT_EQ(literal->bits, 42u);
  EXPECT_EQ(integer("0x10U"), 16u);
  EXPECT_FALSE(parse_number("42")->is_unsigned);
}

TEST(Literal, HexFloatBits) {
  auto f32 = parse_number("0f3F800000");
  ASSERT_TRUE(f32);
  EXPECT_EQ(f32->kind, NumberLiteral::Kind::F32Bits);
  EXPECT_EQ(f32->bits, 0x3F800000u);
  auto f64 = parse_number("0D3FF0000000000000");
  ASSERT_TRUE(f64);
  EXPECT_EQ(f64->kind, NumberLiteral::Kind::F64Bits);
  EXPECT_EQ(f64->bits, 0x3FF0000000000000u);
  EXPECT_EQ(parse_number("0FBF800000")->bits, 0xBF800000u);
}

TEST(Literal, DecimalFloatIsDoublePrecision) {
  auto literal = parse_number("1.5");
  ASSERT_TRUE(literal);
  EXPECT_EQ(literal->kind, NumberLiteral::Kind::Decimal);
  EXPECT_EQ(literal->bits, 0x3FF8000000000000u);
  EXPECT_EQ(parse_number("2.5e-1")->bits, 0x3FD0000000000000u);
}

TEST(Literal, Malformed) {
  for (std::string_view bad : {"0x", "0b", "0b102", "09", "12a", "0f3F80", "0f3F8000000", "0d1",
                               "18446744073709551616", "0x10000000000000000", "1.5x", "U"}) {
    EXPECT_FALSE(parse_number(bad).has_value()) << bad;
  }
}

TEST(Literal, WidthConversions) {
  EXPECT_EQ(f64_bits_to_f32_bits(0x3FF8000000000000u), 0x3FC00000u);
  EXPECT_EQ(f32_bits_to_f64_bits(0x3FC00000u), 0x3FF8000000000000u);
  // 0.1 rounds to nearest even in f32.
  EXPECT_EQ(f64_bits_to_f32_bits(0x3FB999999999999Au), 0x3DCCCCCDu);
}

}  // namespace
}  // namespace lockstep::ptx
