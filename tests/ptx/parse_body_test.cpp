// Function bodies: scopes, labels, guards, opcodes and modifiers, .loc, .pragma, calls,
// prototypes and inline-asm style compact scopes.
#include <gtest/gtest.h>

#include "ptx_test_util.h"

namespace lockstep::ptx {
namespace {

using test::body_of;
using test::instructions_of;
using test::kernel;
using test::node;
using test::parse_ok;

// instruction := [guard] opcode {'.' modifier} [operands] ';'
TEST(ParseBody, OpcodeModifiersAreSplitOnDots) {
  Module module = parse_ok(kernel(".reg .f32 %f<2>;\n.reg .b64 %rd<2>;\n"
                                  "ld.global.v4.f32 {%f1, %f1, %f1, %f1}, [%rd1];\n"
                                  "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1}, {%f1}, {%f1}, {%f1};\n"
                                  "cp.async.bulk.shared::cluster.global [%rd1], [%rd1], 16;\n"
                                  "tex.2d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1, %f1}];"));
  auto insts = instructions_of(module);
  ASSERT_EQ(insts.size(), 4u);
  EXPECT_EQ(insts[0].opcode, "ld");
  EXPECT_EQ(insts[0].modifiers, (std::vector<std::string>{"global", "v4", "f32"}));
  EXPECT_EQ(insts[1].form(), "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  EXPECT_EQ(insts[1].modifiers.size(), 9u);
  EXPECT_EQ(insts[2].modifiers, (std::vector<std::string>{"async", "bulk", "shared::cluster", "global"}));
  EXPECT_EQ(insts[3].modifiers, (std::vector<std::string>{"2d", "v4", "f32", "f32"}));
  EXPECT_EQ(insts[0].loc.line, 8u);
  EXPECT_EQ(insts[0].loc.col, 1u);
}

// guard := '@' ['!'] predicate
TEST(ParseBody, Guards) {
  Module module = parse_ok(kernel(".reg .pred %p<2>;\n$L__BB0_1:\n@%p1 bra $L__BB0_1;\n\t@!%p1 bra.uni $L__BB0_1;\nret;"));
  auto insts = instructions_of(module);
  ASSERT_EQ(insts.size(), 3u);
  EXPECT_EQ(insts[0].guard, "%p1");
  EXPECT_FALSE(insts[0].guard_negated);
  EXPECT_EQ(insts[0].loc.col, 6u);
  EXPECT_EQ(insts[1].guard, "%p1");
  EXPECT_TRUE(insts[1].guard_negated);
  EXPECT_EQ(insts[1].modifiers, (std::vector<std::string>{"uni"}));
  EXPECT_TRUE(insts[2].guard.empty());
  EXPECT_TRUE(insts[2].operands.empty());
}

// label := name ':'
TEST(ParseBody, Labels) {
  Module module = parse_ok(kernel("$L__BB0_2:\n\tret;\nloop: ret;"));
  const auto& body = body_of(module);
  ASSERT_EQ(body.size(), 4u);
  EXPECT_EQ(node<Label>(body[0]).name, "$L__BB0_2");
  EXPECT_EQ(node<Label>(body[0]).loc.line, 6u);
  EXPECT_EQ(node<Label>(body[0]).loc.col, 1u);
  EXPECT_EQ(node<Label>(body[2]).name, "loop");
}

// block := '{' {statement} '}' (callseq scopes, inline-asm scopes glued to the opcode)
TEST(ParseBody, NestedScopesAndCompactInlineAsm) {
  Module module = parse_ok(kernel(".reg .b16 %rs<6>;\n.reg .b32 %r<12>;\n"
                                  "{fma.rn.f16 %rs2,%rs1,%rs4,%rs5;\n}\n"
                                  "{\n.reg .f16 low, high;\nmov.b32 {low,high}, %r1;\nmov.b32 %r10, {low,low};\n}"));
  const auto& body = body_of(module);
  ASSERT_EQ(body.size(), 4u);
  const Block& first = node<Block>(body[2]);
  EXPECT_EQ(first.loc.line, 8u);
  EXPECT_EQ(first.loc.col, 1u);
  ASSERT_EQ(first.statements.size(), 1u);
  const auto& fma = node<Instruction>(first.statements[0]);
  EXPECT_EQ(fma.form(), "fma.rn.f16");
  EXPECT_EQ(fma.loc.col, 2u);
  ASSERT_EQ(fma.operands.size(), 4u);
  EXPECT_EQ(fma.operands[3].name, "%rs5");
  const Block& second = node<Block>(body[3]);
  ASSERT_EQ(second.statements.size(), 4u);
  const auto& unpack = node<Instruction>(second.statements[2]);
  ASSERT_EQ(unpack.operands[0].kind, Operand::Kind::Vector);
  EXPECT_EQ(unpack.operands[0].elements[0].kind, Operand::Kind::Register);  // declared bare .reg
  EXPECT_EQ(unpack.operands[0].elements[0].name, "low");
  EXPECT_EQ(unpack.operands[0].elements[1].name, "high");
  const auto& pack = node<Instruction>(second.statements[3]);
  EXPECT_EQ(pack.operands[1].elements[1].kind, Operand::Kind::Register);
}

TEST(ParseBody, BareNamesOutsideTheirScopeStaySymbols) {
  Module module = parse_ok(kernel(".reg .b32 %r1;\n{\n.reg .b32 t;\nmov.b32 t, %r1;\n}\nmov.u32 %r1, t;"));
  auto insts = instructions_of(module);
  ASSERT_EQ(insts.size(), 1u);
  EXPECT_EQ(insts[0].operands[1].kind, Operand::Kind::Symbol);
}

// loc := '.loc' file line col [',' 'function_name' label ',' 'inlined_at' file line col]
TEST(ParseBody, LocIsRecordedOnFollowingInstructions) {
  Module module = parse_ok(kernel("ret;\n.loc 1 19 5\nret;\n"
                                  ".loc\t2 21 7, function_name $L__info_string0, inlined_at 1 33 5\nret;\nret;"));
  auto insts = instructions_of(module);
  ASSERT_EQ(insts.size(), 4u);
  EXPECT_EQ(insts[0].debug.file, 0u);
  EXPECT_EQ(insts[1].debug.file, 1u);
  EXPECT_EQ(insts[1].debug.line, 19u);
  EXPECT_EQ(insts[1].debug.col, 5u);
  EXPECT_EQ(insts[2].debug.file, 2u);
  EXPECT_EQ(insts[2].debug.line, 21u);
  EXPECT_EQ(insts[2].debug.col, 7u);
  EXPECT_EQ(insts[3].debug.line, 21u);
}

TEST(ParseBody, LocDoesNotLeakIntoTheNextFunction) {
  Module module = parse_ok(std::string(test::kHeader) + ".func f() {\n.loc 1 5 2\nret;\n}\n.func g() {\nret;\n}\n");
  EXPECT_EQ(node<Instruction>(module.functions[0].body.statements[0]).debug.line, 5u);
  EXPECT_EQ(node<Instruction>(module.functions[1].body.statements[0]).debug.line, 0u);
}

TEST(ParseBody, PragmaStatement) {
  Module module = parse_ok(kernel("\t.pragma \"nounroll\";\nret;"));
  const auto& pragma = node<Pragma>(body_of(module)[0]);
  EXPECT_EQ(pragma.text, "nounroll");
  EXPECT_EQ(pragma.loc.line, 6u);
  EXPECT_EQ(pragma.loc.col, 2u);
}

// call := 'call' ['.uni'] [ '(' results ')' ','] callee [',' '(' args ')'] [',' prototype] ';'
TEST(ParseBody, CallSequence) {
  Module module = parse_ok(std::string(test::kHeader) +
                           ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
                           ".entry k()\n{\n.reg .b64 %rd<3>;\n"
                           "{ // callseq 0, 0\n.param .b64 param0;\nst.param.b64 [param0+0], %rd1;\n"
                           ".param .b64 param1;\n.param .b32 retval0;\ncall.uni (retval0), \nvprintf, \n(\nparam0, \nparam1\n);\n"
                           "} // callseq 0\nret;\n}\n");
  const Block& callseq = node<Block>(module.functions[1].body.statements[1]);
  const auto& call = node<Instruction>(callseq.statements[4]);
  EXPECT_EQ(call.form(), "call.uni");
  ASSERT_EQ(call.operands.size(), 3u);
  EXPECT_EQ(call.operands[0].kind, Operand::Kind::Vector);
  ASSERT_EQ(call.operands[0].elements.size(), 1u);
  EXPECT_EQ(call.operands[0].elements[0].name, "retval0");
  EXPECT_EQ(call.operands[1].kind, Operand::Kind::Symbol);
  EXPECT_EQ(call.operands[1].name, "vprintf");
  EXPECT_EQ(call.operands[2].elements.size(), 2u);
  EXPECT_EQ(call.operands[2].elements[1].name, "param1");
  EXPECT_NO_THROW(check(module));
}

TEST(ParseBody, IndirectCallWithPrototype) {
  Module module = parse_ok(kernel(".reg .b64 %rd<6>;\n{\n.param .b32 param0;\n.param .b32 retval0;\n"
                                  "prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                                  "call (retval0), %rd5, (param0), prototype_0;\n}"));
  const Block& scope = node<Block>(body_of(module)[1]);
  EXPECT_EQ(node<Label>(scope.statements[2]).name, "prototype_0");
  const auto& call = node<Instruction>(scope.statements[3]);
  ASSERT_EQ(call.operands.size(), 4u);
  EXPECT_EQ(call.operands[1].kind, Operand::Kind::Register);
  EXPECT_EQ(call.operands[1].name, "%rd5");
  EXPECT_EQ(call.operands[3].kind, Operand::Kind::Symbol);
  EXPECT_EQ(call.operands[3].name, "prototype_0");
  EXPECT_NO_THROW(check(module));
}

TEST(ParseBody, CallWithoutResultsOrArguments) {
  Module module = parse_ok(std::string(test::kHeader) + ".func f() { ret; }\n.entry k() { call.uni f, (); call f; ret; }\n");
  const auto& body = module.functions[1].body.statements;
  EXPECT_EQ(node<Instruction>(body[0]).operands.size(), 2u);
  EXPECT_TRUE(node<Instruction>(body[0]).operands[1].elements.empty());
  EXPECT_EQ(node<Instruction>(body[1]).operands.size(), 1u);
}

TEST(ParseBody, ValidButUnimplementedOpcodesParse) {
  Module module = parse_ok(kernel("wgmma.fence.sync.aligned;\ntcgen05.fence::before_thread_sync;\n"
                                  "griddepcontrol.wait;\nsetmaxnreg.inc.sync.aligned.u32 240;\nexit;\nbrkpt;"));
  auto insts = instructions_of(module);
  ASSERT_EQ(insts.size(), 6u);
  EXPECT_EQ(insts[1].modifiers, (std::vector<std::string>{"fence::before_thread_sync"}));
}

}  // namespace
}  // namespace lockstep::ptx
