// Operands: registers, special registers, immediates, floats, symbols, addresses, vectors,
// pairs, sink and negated predicates.
#include <gtest/gtest.h>

#include "ptx_test_util.h"

namespace lockstep::ptx {
namespace {

using test::instructions_of;
using test::kernel;
using test::parse_ok;

// The operands of `mov.b32 ...;`-like single instructions, parsed in a kernel that declares
// nothing (parse only; check is not run).
std::vector<Operand> operands_of(std::string_view inst) {
  return instructions_of(parse_ok(kernel(inst))).at(0).operands;
}

Operand operand_of(std::string_view inst, size_t index) { return operands_of(inst).at(index); }

TEST(ParseOperand, RegistersAndSpecialRegisterComponents) {
  auto ops = operands_of("mov.u32 %r1, %tid.x;");
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].kind, Operand::Kind::Register);
  EXPECT_EQ(ops[0].name, "%r1");
  EXPECT_EQ(ops[0].component, "");
  EXPECT_EQ(ops[0].loc.line, 6u);
  EXPECT_EQ(ops[0].loc.col, 9u);
  EXPECT_EQ(ops[1].name, "%tid");
  EXPECT_EQ(ops[1].component, "x");
  EXPECT_EQ(operand_of("mov.u64 %rd1, %envreg1;", 1).name, "%envreg1");
  EXPECT_EQ(operand_of("mov.u32 %r1, %lanemask_lt;", 1).name, "%lanemask_lt");
  EXPECT_EQ(operand_of("mov.u64 %rd1, %clock64;", 1).name, "%clock64");
  EXPECT_EQ(operand_of("mov.u32 %r1, %cluster_ctaid.z;", 1).component, "z");
}

TEST(ParseOperand, IntegerImmediates) {
  auto value = [](std::string_view text) {
    Operand op = operand_of("add.s32 %r1, %r1, " + std::string(text) + ";", 2);
    EXPECT_EQ(op.kind, Operand::Kind::Immediate) << text;
    return op.int_value;
  };
  EXPECT_EQ(value("42"), 42);
  EXPECT_EQ(value("-1"), -1);
  EXPECT_EQ(value("0x7fffffff"), 0x7fffffff);
  EXPECT_EQ(value("0xFFFFFFFFFFFFFFFF"), -1);
  EXPECT_EQ(value("017"), 15);
  EXPECT_EQ(value("0b1010"), 10);
  EXPECT_EQ(value("4294967295U"), 4294967295);
  EXPECT_EQ(value("-0x10"), -16);
  EXPECT_EQ(value("0"), 0);
  // Read like a special register: its value is the simulated warp width.
  EXPECT_EQ(operand_of("mov.u32 %r1, WARP_SZ;", 1).kind, Operand::Kind::Register);
  EXPECT_EQ(operand_of("mov.u32 %r1, WARP_SZ;", 1).name, "WARP_SZ");
}

TEST(ParseOperand, NegativeImmediateLocationIsTheMinus) {
  Operand op = operand_of("add.s32 %r1, %r1, -4;", 2);
  EXPECT_EQ(op.loc.col, 19u);
}

TEST(ParseOperand, FloatImmediates) {
  Operand f = operand_of("mov.f32 %f1, 0f3F800000;", 1);
  EXPECT_EQ(f.kind, Operand::Kind::FloatImmediate);
  EXPECT_FALSE(f.is_f64);
  EXPECT_EQ(f.bits, 0x3F800000u);
  Operand upper = operand_of("mov.f32 %f1, 0FBF800000;", 1);
  EXPECT_EQ(upper.bits, 0xBF800000u);
  Operand d = operand_of("mov.f64 %fd1, 0d3FF0000000000000;", 1);
  EXPECT_TRUE(d.is_f64);
  EXPECT_EQ(d.bits, 0x3FF0000000000000u);
  EXPECT_EQ(operand_of("mov.f64 %fd1, 0D4000000000000000;", 1).bits, 0x4000000000000000u);
  Operand decimal = operand_of("mov.f32 %f1, 1.5;", 1);
  EXPECT_TRUE(decimal.is_f64);
  EXPECT_EQ(decimal.bits, 0x3FF8000000000000u);
  EXPECT_EQ(operand_of("mov.f32 %f1, -0f3F800000;", 1).bits, 0xBF800000u);
}

TEST(ParseOperand, SymbolsSinkAndNegatedPredicate) {
  Operand sym = operand_of("mov.u64 %rd1, __local_depot0;", 1);
  EXPECT_EQ(sym.kind, Operand::Kind::Symbol);
  EXPECT_EQ(sym.name, "__local_depot0");
  EXPECT_EQ(operand_of("mov.u64 %rd1, $str$1;", 1).name, "$str$1");
  Operand sink = operand_of("shfl.sync.down.b32 _|%p1, %r1, 1, 31, -1;", 0).elements.at(0);
  EXPECT_EQ(sink.kind, Operand::Kind::Sink);
  Operand negated = operand_of("selp.b32 %r1, 1, 0, !%p1;", 3);
  EXPECT_EQ(negated.kind, Operand::Kind::Register);
  EXPECT_TRUE(negated.negated);
  EXPECT_EQ(negated.name, "%p1");
  EXPECT_EQ(negated.loc.col, 21u);  // the '!'
}

TEST(ParseOperand, Pairs) {
  Operand pair = operand_of("shfl.sync.bfly.b32 %r12|%p4, %r1, 16, 31, -1;", 0);
  EXPECT_EQ(pair.kind, Operand::Kind::Pair);
  ASSERT_EQ(pair.elements.size(), 2u);
  EXPECT_EQ(pair.elements[0].name, "%r12");
  EXPECT_EQ(pair.elements[1].name, "%p4");
  EXPECT_EQ(pair.loc.col, 20u);
}

TEST(ParseOperand, Addresses) {
  Operand reg = operand_of("ld.global.f32 %f1, [%rd1];", 1);
  EXPECT_EQ(reg.kind, Operand::Kind::Address);
  EXPECT_EQ(reg.name, "%rd1");
  EXPECT_EQ(reg.int_value, 0);
  EXPECT_EQ(reg.loc.col, 20u);
  EXPECT_EQ(operand_of("ld.global.f32 %f1, [%rd1+16];", 1).int_value, 16);
  EXPECT_EQ(operand_of("ld.global.f32 %f1, [%rd1+-4];", 1).int_value, -4);
  EXPECT_EQ(operand_of("ld.global.f32 %f1, [%rd1-8];", 1).int_value, -8);
  EXPECT_EQ(operand_of("ld.global.f32 %f1, [%rd1+0x10];", 1).int_value, 16);
  Operand sym = operand_of("ld.shared.f32 %f1, [smem+8];", 1);
  EXPECT_EQ(sym.name, "smem");
  EXPECT_EQ(sym.int_value, 8);
  EXPECT_EQ(operand_of("ld.param.u64 %rd1, [k_param_0];", 1).name, "k_param_0");
  Operand absolute = operand_of("ld.global.u32 %r1, [100];", 1);
  EXPECT_EQ(absolute.name, "");
  EXPECT_EQ(absolute.int_value, 100);
  EXPECT_TRUE(absolute.elements.empty());
}

TEST(ParseOperand, TextureAndSurfaceAddresses) {
  Operand tex = operand_of("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];", 1);
  EXPECT_EQ(tex.kind, Operand::Kind::Address);
  EXPECT_EQ(tex.name, "");
  ASSERT_EQ(tex.elements.size(), 2u);
  EXPECT_EQ(tex.elements[0].kind, Operand::Kind::Register);
  EXPECT_EQ(tex.elements[0].name, "%rd1");
  EXPECT_EQ(tex.elements[1].kind, Operand::Kind::Vector);
  EXPECT_EQ(tex.elements[1].elements.size(), 2u);
  Operand sampled = operand_of("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tref, samp, {%f5, %f6}];", 1);
  ASSERT_EQ(sampled.elements.size(), 3u);
  EXPECT_EQ(sampled.elements[1].kind, Operand::Kind::Symbol);
  EXPECT_EQ(sampled.elements[1].name, "samp");
}

TEST(ParseOperand, Vectors) {
  Operand vec = operand_of("st.global.v4.f32 [%rd1], {%f1, %f2, _, %f4};", 1);
  EXPECT_EQ(vec.kind, Operand::Kind::Vector);
  ASSERT_EQ(vec.elements.size(), 4u);
  EXPECT_EQ(vec.elements[2].kind, Operand::Kind::Sink);
  EXPECT_EQ(vec.elements[3].name, "%f4");
  EXPECT_EQ(vec.loc.col, 26u);
  Operand compact = operand_of("mov.b64 {%r32,%r33}, %fd40;", 0);
  EXPECT_EQ(compact.elements.size(), 2u);
}

}  // namespace
}  // namespace lockstep::ptx
