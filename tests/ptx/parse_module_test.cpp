// Module-level productions: header directives, .file, .section, linkage, functions and their
// parameter lists, performance directives, .alias.
#include <gtest/gtest.h>

#include "ptx_test_util.h"

namespace lockstep::ptx {
namespace {

using test::kHeader;
using test::parse_ok;

// version := '.version' major.minor   target := '.target' name {',' name}   address_size := ...
TEST(ParseModule, Header) {
  Module module = parse_ok(".version 8.7\n.target sm_75, texmode_independent, debug\n.address_size 32\n");
  EXPECT_EQ(module.filename, "t.ptx");
  EXPECT_EQ(module.version_major, 8u);
  EXPECT_EQ(module.version_minor, 7u);
  EXPECT_EQ(module.target, (std::vector<std::string>{"sm_75", "texmode_independent", "debug"}));
  EXPECT_EQ(module.address_size, 32u);
  EXPECT_TRUE(module.functions.empty());
}

// file := '.file' index string [',' timestamp ',' size]
TEST(ParseModule, FileDirectives) {
  Module module = parse_ok(std::string(kHeader) +
                           ".file 1 \"/src/a.cu\"\n.file\t2 \"/usr/include/b.h\", 1700000000, 1234\n");
  ASSERT_EQ(module.files.size(), 2u);
  EXPECT_EQ(module.files.at(1), "/src/a.cu");
  EXPECT_EQ(module.files.at(2), "/usr/include/b.h");
}

// section := '.section' name '{' ... '}' -- skipped, including nested braces and odd tokens.
TEST(ParseModule, SectionsAreSkipped) {
  Module module = parse_ok(std::string(kHeader) +
                           ".section .debug_str\n{\n$L__info_string0:\n.b8 65,66,0\n}\n"
                           ".section .debug_info { .b32 12 { .b8 1 } .b64 $L__func_begin0+4 (x) }\n"
                           ".global .b32 after;\n");
  ASSERT_EQ(module.globals.size(), 1u);
  EXPECT_EQ(module.globals[0].name, "after");
}

// function := ('.entry'|'.func') ['(' results ')'] name ['(' params ')'] {perf} (body | ';')
TEST(ParseModule, ExternFuncDeclarationWithResult) {
  Module module = parse_ok(std::string(kHeader) +
                           ".extern .func  (.param .b32 func_retval0) vprintf\n(\n"
                           "\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;\n");
  ASSERT_EQ(module.functions.size(), 1u);
  const Function& f = module.functions[0];
  EXPECT_FALSE(f.is_entry);
  EXPECT_FALSE(f.has_body);
  EXPECT_EQ(f.linkage, "extern");
  EXPECT_EQ(f.name, "vprintf");
  EXPECT_EQ(f.loc.line, 4u);
  EXPECT_EQ(f.loc.col, 43u);
  ASSERT_EQ(f.results.size(), 1u);
  EXPECT_EQ(f.results[0].name, "func_retval0");
  EXPECT_EQ(f.results[0].space, StateSpace::Param);
  EXPECT_EQ(f.results[0].type, Type::B32);
  ASSERT_EQ(f.params.size(), 2u);
  EXPECT_EQ(f.params[1].name, "vprintf_param_1");
  EXPECT_EQ(f.params[1].type, Type::B64);
}

TEST(ParseModule, EntryParamsAlignedArraysAndPtr) {
  Module module = parse_ok(std::string(kHeader) +
                           ".visible .entry k(\n\t.param .align 8 .b8 k_param_0[16],\n"
                           "\t.param .u64 .ptr .global .align 16 k_param_1,\n\t.param .f64 k_param_2\n)\n{\n\tret;\n}\n");
  const Function& f = module.functions.at(0);
  EXPECT_TRUE(f.is_entry);
  EXPECT_TRUE(f.has_body);
  EXPECT_EQ(f.linkage, "visible");
  ASSERT_EQ(f.params.size(), 3u);
  EXPECT_EQ(f.params[0].align, 8u);
  EXPECT_EQ(f.params[0].type, Type::B8);
  EXPECT_EQ(f.params[0].dims, (std::vector<uint64_t>{16}));
  EXPECT_TRUE(f.params[1].ptr_attribute);
  EXPECT_EQ(f.params[1].type, Type::U64);
  EXPECT_EQ(f.params[1].align, 16u);
  EXPECT_FALSE(f.params[2].ptr_attribute);
  EXPECT_EQ(f.params[2].type, Type::F64);
}

TEST(ParseModule, FuncWithRegParamsAndWeakLinkage) {
  Module module = parse_ok(std::string(kHeader) + ".weak .func f(.reg .b32 a, .reg .pred p) { ret; }\n"
                                                  ".func g() ;\n.func h\n{\nret;\n}\n");
  ASSERT_EQ(module.functions.size(), 3u);
  EXPECT_EQ(module.functions[0].linkage, "weak");
  EXPECT_EQ(module.functions[0].params[0].space, StateSpace::Reg);
  EXPECT_EQ(module.functions[0].params[1].type, Type::Pred);
  EXPECT_FALSE(module.functions[1].has_body);
  EXPECT_TRUE(module.functions[1].params.empty());
  EXPECT_TRUE(module.functions[2].has_body);
}

// performance-directive := .maxntid | .reqntid | .minnctapersm | .maxnctapersm | .maxnreg
//                        | .explicitcluster | .reqnctapercluster | .pragma ... ;
TEST(ParseModule, PerformanceDirectives) {
  Module module = parse_ok(std::string(kHeader) +
                           ".entry a() .maxntid 256, 1, 1 .minnctapersm 2 .maxnreg 32 .pragma \"nounroll\"; { ret; }\n"
                           ".entry b() .reqntid 64 .maxnctapersm 4 .explicitcluster .reqnctapercluster 2, 1, 1\n"
                           ".maxclusterrank 8 .noreturn { ret; }\n");
  const PerformanceHints& a = module.functions.at(0).hints;
  EXPECT_EQ(a.maxntid, (std::vector<uint32_t>{256, 1, 1}));
  EXPECT_EQ(a.minnctapersm, 2u);
  EXPECT_EQ(a.maxnreg, 32u);
  EXPECT_EQ(a.pragmas, (std::vector<std::string>{"nounroll"}));
  EXPECT_FALSE(a.reqntid.has_value());
  EXPECT_FALSE(a.explicitcluster);
  const PerformanceHints& b = module.functions.at(1).hints;
  EXPECT_EQ(b.reqntid, (std::vector<uint32_t>{64}));
  EXPECT_EQ(b.maxnctapersm, 4u);
  EXPECT_TRUE(b.explicitcluster);
  EXPECT_EQ(b.reqnctapercluster, (std::vector<uint32_t>{2, 1, 1}));
  EXPECT_FALSE(b.maxnreg.has_value());
}

// alias := '.alias' name ',' name ';'
TEST(ParseModule, Alias) {
  Module module = parse_ok(std::string(kHeader) + ".func f() { ret; }\n.alias g, f;\n");
  ASSERT_EQ(module.aliases.size(), 1u);
  EXPECT_EQ(module.aliases[0].name, "g");
  EXPECT_EQ(module.aliases[0].aliasee, "f");
  EXPECT_EQ(module.aliases[0].loc.line, 5u);
  EXPECT_EQ(module.aliases[0].loc.col, 8u);
}

TEST(ParseModule, ModulePragmaAndComments) {
  Module module = parse_ok("// leading\n" + std::string(kHeader) + ".pragma \"nounroll\";\n/* c */\n");
  EXPECT_EQ(module.version_major, 9u);
}

}  // namespace
}  // namespace lockstep::ptx
