// check(): scope-aware name resolution and duplicate detection, with pinned diagnostics.
// Bodies built by kernel() start on line 6.
#include <gtest/gtest.h>

#include "ptx_test_util.h"

namespace lockstep::ptx {
namespace {

using test::error_of;
using test::kernel;
using test::kHeader;

TEST(Check, RangeDeclaresNamesZeroToCountMinusOne) {
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<12>;\nmov.u32 %r0, %r11;")), "");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<12>;\nmov.u32 %r0, %r12;")), "t.ptx:7:14: undefined register '%r12'");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<12>;\nmov.u32 %r01, %r1;")), "t.ptx:7:9: undefined register '%r01'");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<12>;\n  add.s32 %r1, %r2, %r99;")), "t.ptx:7:21: undefined register '%r99'");
}

TEST(Check, UndefinedRegisterInEveryOperandPosition) {
  std::string decls = ".reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n.reg .pred %p<2>;\n";
  EXPECT_EQ(error_of(kernel(decls + "ld.global.u32 %r1, [%rd7];")), "t.ptx:9:20: undefined register '%rd7'");
  EXPECT_EQ(error_of(kernel(decls + "mov.b64 %rd1, {%r1, %r5};")), "t.ptx:9:21: undefined register '%r5'");
  EXPECT_EQ(error_of(kernel(decls + "shfl.sync.down.b32 %r1|%p3, %r1, 1, 31, -1;")),
            "t.ptx:9:24: undefined register '%p3'");
  EXPECT_EQ(error_of(kernel(decls + "selp.b32 %r1, 1, 0, !%q;")), "t.ptx:9:21: undefined register '%q'");
  EXPECT_EQ(error_of(kernel(decls + "@%p5 ret;")), "t.ptx:9:6: undefined register '%p5'");
}

TEST(Check, SpecialRegistersAreAlwaysDefined) {
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
                            "mov.u32 %r1, %tid.x;\nmov.u32 %r1, %nctaid.y;\nmov.u32 %r1, %laneid;\n"
                            "mov.u32 %r1, %lanemask_ge;\nmov.u64 %rd1, %clock64;\nmov.u64 %rd1, %envreg31;\n"
                            "mov.u32 %r1, %dynamic_smem_size;\nmov.u32 %r1, %cluster_ctarank;\n"
                            "mov.u32 %r1, %pm7;\nmov.u64 %rd1, %globaltimer;\nmov.u32 %r1, %is_explicit_cluster;")),
            "");
  EXPECT_EQ(error_of(kernel(".reg .b64 %rd<2>;\nmov.u64 %rd1, %envreg32;")),
            "t.ptx:7:15: undefined register '%envreg32'");
}

TEST(Check, UndefinedLabel) {
  EXPECT_EQ(error_of(kernel("bra.uni $L__BB0_9;")), "t.ptx:6:9: undefined label '$L__BB0_9'");
  EXPECT_EQ(error_of(kernel("bra.uni done;\n{\ndone:\nret;\n}")), "");  // labels are function-wide
}

TEST(Check, UndefinedSymbol) {
  EXPECT_EQ(error_of(kernel(".reg .b64 %rd<2>;\nmov.u64 %rd1, foo;")), "t.ptx:7:15: undefined symbol 'foo'");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<2>;\nld.shared.u32 %r1, [tile+4];")), "t.ptx:7:20: undefined symbol 'tile'");
  EXPECT_EQ(error_of(kernel("call.uni nowhere, ();")), "t.ptx:6:10: undefined symbol 'nowhere'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".global .u64 p = missing+4;\n"),
            "t.ptx:4:18: undefined symbol 'missing'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".global .u64 p[1] = {generic(gone)};\n"),
            "t.ptx:4:30: undefined symbol 'gone'");
}

TEST(Check, SymbolsResolveToModuleVariablesFunctionsParamsAndBodyVariables) {
  std::string text = std::string(kHeader) +
                     ".global .align 4 .b8 table[16];\n.extern .shared .align 16 .b8 sf[];\n"
                     ".func f() { ret; }\n.global .u64 fp = f;\n"
                     ".entry k(.param .u64 k_param_0)\n{\n.reg .b64 %rd<4>;\n.local .align 8 .b8 __local_depot0[8];\n"
                     "ld.param.u64 %rd1, [k_param_0];\nmov.u64 %rd2, table;\nmov.u64 %rd3, sf;\n"
                     "mov.u64 %rd3, __local_depot0;\nld.global.u64 %rd3, [table+8];\ncall.uni f, ();\nret;\n}\n";
  EXPECT_EQ(error_of(text), "");
}

TEST(Check, NestedScopesHideAndShadow) {
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<2>;\n{\n.reg .b32 %t;\nmov.u32 %t, %r1;\n}\nmov.u32 %r1, %t;")),
            "t.ptx:11:14: undefined register '%t'");
  // An inner scope may redeclare an outer name.
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<2>;\n{\n.reg .b32 %r<4>;\nmov.u32 %r3, %r1;\n}")), "");
  // Shadowing is per name: %r<2> hides the outer %r0 and %r1 only, so %r5 still resolves.
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<8>;\n{\n.reg .b32 %r<2>;\nmov.u32 %r5, %r1;\n}")), "");
  // Bare inline-asm registers are scoped the same way.
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<2>;\n{\n.reg .pred p;\nsetp.ne.b32 p, %r1, 0;\n@p mov.u32 %r1, 1;\n}")), "");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<2>;\n{\n.reg .pred p;\n}\n@p mov.u32 %r1, 1;")),
            "t.ptx:10:4: undefined register 'p'");
}

TEST(Check, InnerNonRegisterShadowsOuterRegister) {
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<2>;\n.reg .b32 x;\n{\n.shared .b32 x;\nmov.u32 %r1, x;\n}")), "");
  Module module = test::parse_ok(kernel(".reg .b32 %r<2>;\n.reg .b32 x;\nmov.u32 %r1, x;\n{\n.shared .b32 x;\nmov.u32 %r1, x;\n}"));
  const auto& body = test::body_of(module);
  EXPECT_EQ(test::node<Instruction>(body[2]).operands[1].kind, Operand::Kind::Register);
  EXPECT_EQ(test::node<Instruction>(test::node<Block>(body[3]).statements[1]).operands[1].kind, Operand::Kind::Symbol);
}

TEST(Check, UseBeforeDeclarationIsFine) {
  EXPECT_EQ(error_of(kernel("mov.u32 %r1, 7;\n.reg .b32 %r<2>;")), "");
  EXPECT_EQ(error_of(kernel("{\nmov.u32 x, 7;\n.reg .b32 x;\n}")), "");
}

TEST(Check, DuplicateDeclaration) {
  EXPECT_EQ(error_of(kernel(".reg .b32 %r1;\n.reg .b32 %r1;")), "t.ptx:7:11: duplicate declaration of '%r1'");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<3>;\n.reg .b32 %r2;")), "t.ptx:7:11: duplicate declaration of '%r2'");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r2;\n.reg .b32 %r<3>;")), "t.ptx:7:11: duplicate declaration of '%r2'");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<3>;\n.reg .f32 %r<5>;")), "t.ptx:7:11: duplicate declaration of '%r0'");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<20>;\n.reg .b32 %r1<5>;")), "t.ptx:7:11: duplicate declaration of '%r10'");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r1<5>;\n.reg .b32 %r<20>;")), "t.ptx:7:11: duplicate declaration of '%r10'");
  EXPECT_EQ(error_of(kernel(".reg .b32 %r<10>;\n.reg .b32 %r1<5>;")), "");  // %r10.. vs %r0..%r9
  EXPECT_EQ(error_of(kernel(".reg .b32 a, b, a;")), "t.ptx:6:17: duplicate declaration of 'a'");
  EXPECT_EQ(error_of(kernel(".shared .b32 s;\n.reg .b32 s;")), "t.ptx:7:11: duplicate declaration of 's'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".entry k(.param .u32 a, .param .u32 a) { ret; }\n"),
            "t.ptx:4:37: duplicate declaration of 'a'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".entry k(.param .u32 a)\n{\n.reg .b32 a;\nret;\n}\n"),
            "t.ptx:6:11: duplicate declaration of 'a'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".global .u32 g;\n.const .u32 g;\n"),
            "t.ptx:5:13: duplicate declaration of 'g'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".global .u32 g;\n.func g() { ret; }\n"),
            "t.ptx:5:7: duplicate declaration of 'g'");
}

TEST(Check, ExternRedeclarationsAndPrototypesAreNotDuplicates) {
  EXPECT_EQ(error_of(std::string(kHeader) + ".extern .shared .align 16 .b8 sf[];\n.extern .shared .align 16 .b8 sf[];\n"
                                            ".func f(.param .b32 a);\n.func f(.param .b32 a) { ret; }\n"),
            "");
}

TEST(Check, DuplicateLabel) {
  EXPECT_EQ(error_of(kernel("$L__BB0_2:\nret;\n$L__BB0_2:\nret;")), "t.ptx:8:1: duplicate label '$L__BB0_2'");
  EXPECT_EQ(error_of(kernel("x:\n{\n  x:\n}")), "t.ptx:8:3: duplicate label 'x'");
  // Different functions may reuse label names.
  EXPECT_EQ(error_of(std::string(kHeader) + ".func f() { L: ret; }\n.func g() { L: ret; }\n"), "");
}

TEST(Check, DuplicateFunction) {
  EXPECT_EQ(error_of(std::string(kHeader) + ".func f() { ret; }\n.entry g() { ret; }\n.func   f() { ret; }\n"),
            "t.ptx:6:9: duplicate function 'f'");
}

TEST(Check, AliasAndCallPrototype) {
  EXPECT_EQ(error_of(std::string(kHeader) + ".func f() { ret; }\n.alias g, f;\n.entry k() { call.uni g, (); ret; }\n"), "");
  EXPECT_EQ(error_of(std::string(kHeader) + ".alias g, f;\n"), "t.ptx:4:8: undefined function 'f'");
}

}  // namespace
}  // namespace lockstep::ptx
