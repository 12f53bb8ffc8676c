// Parse diagnostics, pinned exactly: file:line:col and message. Bodies built by kernel()
// start on line 6.
#include <gtest/gtest.h>

#include "ptx_test_util.h"

namespace lockstep::ptx {
namespace {

using test::error_of;
using test::kernel;
using test::kHeader;

TEST(ParseError, ExpectedSemicolon) {
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<3>;\nadd.s32 %r1, %r2 %r0;")), "t.ptx:7:18: expected ';'");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<3>\nret;")), "t.ptx:7:1: expected ';'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".alias a, b\n"), "t.ptx:5:1: unexpected end of input, expected ';'");
}

TEST(ParseError, ExpectedClosingBracket) {
  EXPECT_EQ(error_of(kernel("ld.global.f32 %f1, [%rd1+4;")), "t.ptx:6:27: expected ']'");
  EXPECT_EQ(error_of(kernel("ld.global.f32 %f1, [%rd1 %rd2];")), "t.ptx:6:26: expected ']'");
}

TEST(ParseError, ExpectedAnOperand) {
  EXPECT_EQ(error_of(kernel("add.s32 %r1, , %r2;")), "t.ptx:6:14: expected an operand");
  EXPECT_EQ(error_of(kernel("add.s32 %r1, %r2,;")), "t.ptx:6:18: expected an operand");
  EXPECT_EQ(error_of(kernel("mov.b32 %r1, {};")), "t.ptx:6:15: expected an operand");
  EXPECT_EQ(error_of(kernel("mov.b32 %r1, {{%r1}};")), "t.ptx:6:15: expected an operand");
  EXPECT_EQ(error_of(kernel("shfl.sync.bfly.b32 %r1|, %r2;")), "t.ptx:6:24: expected an operand");
  EXPECT_EQ(error_of(kernel("sub.s32 %r1, -%r2;")), "t.ptx:6:15: expected an operand");
}

TEST(ParseError, UnexpectedEndOfInsideBody) {
  std::string text = std::string(kHeader) + ".entry k()\n{\n\tret;\n";
  EXPECT_EQ(error_of(text), "t.ptx:7:1: unexpected end of input, expected '}'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".entry k()\n{\n{\nret;\n}\n"),
            "t.ptx:9:1: unexpected end of input, expected '}'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".section .debug_str {\n.b8 1,2"),
            "t.ptx:5:8: unexpected end of input, expected '}'");
}

TEST(ParseError, UnknownDirective) {
  EXPECT_EQ(error_of(std::string(kHeader) + "\n  .foo 1;\n"), "t.ptx:5:3: unknown directive '.foo'");
  EXPECT_EQ(error_of(kernel("\t.foo;")), "t.ptx:6:2: unknown directive '.foo'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".entry k() .maxntidd 32 { ret; }\n"),
            "t.ptx:4:12: unknown directive '.maxntidd'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".visible .foo x;\n"), "t.ptx:4:10: unknown directive '.foo'");
}

TEST(ParseError, UnknownOpcode) {
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<3>;\n    foo.b32 %r1, %r2;")), "t.ptx:7:5: unknown opcode 'foo'");
  EXPECT_EQ(error_of(kernel("@%p1 frobnicate;")), "t.ptx:6:6: unknown opcode 'frobnicate'");
  EXPECT_EQ(error_of(kernel("{add2.s32 %r1, %r1, %r1;}")), "t.ptx:6:2: unknown opcode 'add2'");
}

TEST(ParseError, InvalidLiterals) {
  EXPECT_EQ(error_of(kernel("mov.u32 %r1, 0x;")), "t.ptx:6:14: invalid integer literal '0x'");
  EXPECT_EQ(error_of(kernel("mov.u32 %r1, -0b2;")), "t.ptx:6:15: invalid integer literal '0b2'");
  EXPECT_EQ(error_of(kernel("mov.u32 %r1, 99999999999999999999;")),
            "t.ptx:6:14: invalid integer literal '99999999999999999999'");
  EXPECT_EQ(error_of(kernel("mov.f32 %f1, 0f3F80;")), "t.ptx:6:14: invalid float literal '0f3F80'");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<0x>;")), "t.ptx:6:14: invalid integer literal '0x'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".global .u32 a = 12z;\n"), "t.ptx:4:18: invalid integer literal '12z'");
}

TEST(ParseError, Declarations) {
  EXPECT_EQ(error_of(kernel(".reg %r1;")), "t.ptx:6:6: expected a type");
  EXPECT_EQ(error_of(kernel(".reg .b32 ;")), "t.ptx:6:11: expected a variable name");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<0>;")), "t.ptx:6:14: invalid register count");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<4;")), "t.ptx:6:15: expected '>'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".shared .align 3 .b8 s[4];\n"),
            "t.ptx:4:16: alignment must be a power of two");
  EXPECT_EQ(error_of(std::string(kHeader) + ".global .u32 a[2] = {1, };\n"),
            "t.ptx:4:25: expected an initializer value");
  EXPECT_EQ(error_of(std::string(kHeader) + ".entry k(.local .u32 a) { ret; }\n"), "t.ptx:4:10: expected '.param'");
}

TEST(ParseError, ModuleLevel) {
  EXPECT_EQ(error_of("add.s32 %r1, %r2, %r3;"), "t.ptx:1:1: expected a directive");
  EXPECT_EQ(error_of(".version x\n"), "t.ptx:1:10: expected a version number");
  EXPECT_EQ(error_of(".address_size 48\n"), "t.ptx:1:15: address size must be 32 or 64");
  EXPECT_EQ(error_of(".target\n"), "t.ptx:2:1: unexpected end of input, expected a target name");
  EXPECT_EQ(error_of(std::string(kHeader) + ".entry k() ret;\n"), "t.ptx:4:12: expected '{'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".entry (.param .b32 r) k() { ret; }\n"),
            "t.ptx:4:8: expected a function name");
}

TEST(ParseError, BodyStatements) {
  EXPECT_EQ(error_of(kernel("42;")), "t.ptx:6:1: expected an instruction");
  EXPECT_EQ(error_of(kernel("@ ret;")), "t.ptx:6:6: expected an opcode");  // guard "ret"
  EXPECT_EQ(error_of(kernel("@%p1;")), "t.ptx:6:5: expected an opcode");
  EXPECT_EQ(error_of(kernel(".loc 1 2 3, colour 4")), "t.ptx:6:13: unknown .loc option 'colour'");
  EXPECT_EQ(error_of(kernel("p : .callprototype (.param .b32 _) _ (")),
            "t.ptx:7:1: expected ';'");
}

TEST(ParseError, NestingDepthIsBounded) {
  std::string deep(100000, '{');
  EXPECT_EQ(error_of(kernel(deep)), "t.ptx:6:200: scopes nested too deeply");
  std::string init = std::string(kHeader) + ".global .u32 a[1] = " + std::string(100000, '{') + "1;\n";
  EXPECT_EQ(error_of(init), "t.ptx:4:221: initializer nested too deeply");
}

}  // namespace
}  // namespace lockstep::ptx
