// Variable declarations: spaces, attributes, ranges, name lists, arrays, initializers.
#include <gtest/gtest.h>

#include "ptx_test_util.h"

namespace lockstep::ptx {
namespace {

using test::body_of;
using test::kernel;
using test::kHeader;
using test::node;
using test::parse_ok;

Module globals(std::string_view text) { return parse_ok(std::string(kHeader) + std::string(text)); }

// The first module-scope variable of `text` (after the standard header), by value.
VariableDecl first_global(std::string_view text) { return globals(text).globals.at(0); }

// variable-statement := space attributes type name-item {',' name-item} ';'
TEST(ParseDecl, RegisterRangesAndNameLists) {
  Module module = parse_ok(kernel(".reg .pred \t%p<4>;\n.reg .b32 f, C, nZ;\n.reg.b16 %rs<3>;\n.reg .v4 .f32 %v;"));
  const auto& body = body_of(module);
  ASSERT_EQ(body.size(), 6u);
  const auto& p = node<VariableDecl>(body[0]);
  EXPECT_EQ(p.space, StateSpace::Reg);
  EXPECT_EQ(p.type, Type::Pred);
  EXPECT_EQ(p.name, "%p");
  EXPECT_EQ(p.range, 4u);
  EXPECT_EQ(p.loc.line, 6u);
  EXPECT_EQ(p.loc.col, 13u);
  EXPECT_EQ(node<VariableDecl>(body[1]).name, "f");
  EXPECT_EQ(node<VariableDecl>(body[2]).name, "C");
  EXPECT_EQ(node<VariableDecl>(body[3]).name, "nZ");
  EXPECT_EQ(node<VariableDecl>(body[3]).loc.col, 17u);
  EXPECT_EQ(node<VariableDecl>(body[3]).range, 0u);
  EXPECT_EQ(node<VariableDecl>(body[4]).type, Type::B16);
  EXPECT_EQ(node<VariableDecl>(body[4]).range, 3u);
  EXPECT_EQ(node<VariableDecl>(body[5]).vector_width, 4u);
  EXPECT_EQ(node<VariableDecl>(body[5]).type, Type::F32);
}

TEST(ParseDecl, AllTypes) {
  const std::pair<const char*, Type> cases[] = {
      {".pred", Type::Pred}, {".b8", Type::B8}, {".b16", Type::B16}, {".b32", Type::B32}, {".b64", Type::B64},
      {".b128", Type::B128}, {".u8", Type::U8}, {".u16", Type::U16}, {".u32", Type::U32}, {".u64", Type::U64},
      {".s8", Type::S8}, {".s16", Type::S16}, {".s32", Type::S32}, {".s64", Type::S64}, {".f16", Type::F16},
      {".f16x2", Type::F16x2}, {".bf16", Type::BF16}, {".bf16x2", Type::BF16x2}, {".tf32", Type::TF32},
      {".f32", Type::F32}, {".f64", Type::F64}};
  for (const auto& [spelling, type] : cases) {
    Module module = parse_ok(kernel(std::string(".reg ") + spelling + " x;"));
    EXPECT_EQ(node<VariableDecl>(body_of(module)[0]).type, type) << spelling;
  }
  EXPECT_EQ(first_global((".global .texref t;")).type, Type::TexRef);
  EXPECT_EQ(first_global((".global .surfref s;")).type, Type::SurfRef);
}

TEST(ParseDecl, ExternSharedUnsizedArray) {
  const VariableDecl sf = first_global((".extern .shared .align 16 .b8 sf[];"));
  EXPECT_EQ(sf.space, StateSpace::Shared);
  EXPECT_EQ(sf.linkage, "extern");
  EXPECT_EQ(sf.align, 16u);
  EXPECT_EQ(sf.type, Type::B8);
  EXPECT_EQ(sf.dims, (std::vector<uint64_t>{0}));
  EXPECT_FALSE(sf.has_init);
}

TEST(ParseDecl, MultiDimensionalArrayWithNestedInitializerIsFlattened) {
  const VariableDecl m = first_global((".const .align 4 .u32 m[2][3] = {{1, 2, 3}, {0x10, -1, 010}};"));
  EXPECT_EQ(m.space, StateSpace::Const);
  EXPECT_EQ(m.dims, (std::vector<uint64_t>{2, 3}));
  ASSERT_TRUE(m.has_init);
  std::vector<uint64_t> bits;
  for (const auto& init : m.init) {
    EXPECT_EQ(init.kind, Initializer::Kind::Integer);
    bits.push_back(init.bits);
  }
  EXPECT_EQ(bits, (std::vector<uint64_t>{1, 2, 3, 16, UINT64_MAX, 8}));
  EXPECT_EQ(m.init[4].loc.col, 51u);  // the '-' of -1
}

TEST(ParseDecl, FloatInitializersTakeTheVariableWidth) {
  const VariableDecl f = first_global((".global .f32 f[3] = {0f3F800000, 0d3FF8000000000000, -0f40000000};"));
  ASSERT_EQ(f.init.size(), 3u);
  EXPECT_EQ(f.init[0].kind, Initializer::Kind::Float);
  EXPECT_EQ(f.init[0].bits, 0x3F800000u);
  EXPECT_EQ(f.init[1].bits, 0x3FC00000u);  // 1.5 narrowed to f32
  EXPECT_EQ(f.init[2].bits, 0xC0000000u);
  const VariableDecl d = first_global((".global .f64 d = 0f3FC00000;"));
  ASSERT_EQ(d.init.size(), 1u);
  EXPECT_EQ(d.init[0].bits, 0x3FF8000000000000u);
  const VariableDecl e = first_global((".global .f64 e = 1.5;"));
  EXPECT_EQ(e.init[0].bits, 0x3FF8000000000000u);
}

TEST(ParseDecl, SymbolAddressInitializers) {
  Module module = globals(".global .b32 a[4];\n.global .u64 p[4] = {a, a+8, generic(a), generic(a)+4};");
  const VariableDecl& p = module.globals.at(1);
  ASSERT_EQ(p.init.size(), 4u);
  EXPECT_EQ(p.init[0].kind, Initializer::Kind::SymbolAddress);
  EXPECT_EQ(p.init[0].symbol, "a");
  EXPECT_EQ(p.init[0].offset, 0);
  EXPECT_FALSE(p.init[0].generic);
  EXPECT_EQ(p.init[1].offset, 8);
  EXPECT_TRUE(p.init[2].generic);
  EXPECT_EQ(p.init[2].symbol, "a");
  EXPECT_EQ(p.init[3].offset, 4);
}

TEST(ParseDecl, BodyLevelSharedLocalAndParam) {
  Module module = parse_ok(kernel(".shared .align 4 .b8 _ZZ1kE4tile[1024];\n"
                                  ".local .align 16 .b8 __local_depot0[48];\n{\n.param .b64 param0;\n}"));
  const auto& body = body_of(module);
  EXPECT_EQ(node<VariableDecl>(body[0]).space, StateSpace::Shared);
  EXPECT_EQ(node<VariableDecl>(body[0]).dims, (std::vector<uint64_t>{1024}));
  EXPECT_EQ(node<VariableDecl>(body[1]).space, StateSpace::Local);
  EXPECT_EQ(node<VariableDecl>(node<Block>(body[2]).statements[0]).space, StateSpace::Param);
}

TEST(ParseDecl, AttributesAndLinkages) {
  Module module = globals(".visible .global .attribute(.managed) .align 8 .u64 m;\n"
                          ".common .global .u32 c;\n.weak .global .v2 .u32 w = {1, 2};");
  EXPECT_EQ(module.globals[0].linkage, "visible");
  EXPECT_EQ(module.globals[0].align, 8u);
  EXPECT_EQ(module.globals[1].linkage, "common");
  EXPECT_EQ(module.globals[2].vector_width, 2u);
  EXPECT_EQ(module.globals[2].init.size(), 2u);
}

}  // namespace
}  // namespace lockstep::ptx
