// Separate compilation: the PTX of two translation units, as nvcc -rdc=true emits it, linked
// into one module (ptx/link.h) and run in both modes. Unit A's kernel calls a function and
// reads a variable that unit B defines; both units have an internal function and a string of
// the same name (each keeps its own), a .weak template instance (one is kept) and a .common
// variable (merged at its larger size).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"
#include "ptx/error.h"
#include "ptx/link.h"
#include "ptx/parser.h"

namespace lockstep {
namespace {

constexpr const char* kUnitA = R"(.version 9.0
.target sm_80
.address_size 64
.extern .func (.param .b32 r) scale(.param .b32 x);
.extern .global .align 4 .u32 offset;
.global .align 1 .b8 $str[2] = {65, 0};
.common .global .align 4 .b32 shared_common[2];
.func (.param .b32 r) helper(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [x];
  add.u32 %r2, %r1, 1000;
  st.param.u32 [r], %r2;
  ret;
}
.weak .func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [x];
  shl.b32 %r2, %r1, 1;
  st.param.u32 [r], %r2;
  ret;
}
.visible .entry unit_a(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  { .param .b32 a; .param .b32 b; st.param.u32 [a], %r1; call.uni (b), scale, (a); ld.param.u32 %r2, [b]; }
  { .param .b32 a; .param .b32 b; st.param.u32 [a], %r1; call.uni (b), helper, (a); ld.param.u32 %r3, [b]; }
  { .param .b32 a; .param .b32 b; st.param.u32 [a], %r1; call.uni (b), twice, (a); ld.param.u32 %r4, [b]; }
  ld.global.u32 %r5, [offset];
  mov.u64 %rd2, $str;
  ld.global.u8 %r6, [%rd2];
  add.u32 %r7, %r2, %r3;
  add.u32 %r7, %r7, %r4;
  add.u32 %r7, %r7, %r5;
  add.u32 %r7, %r7, %r6;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r7;
  ret;
}
)";

constexpr const char* kUnitB = R"(.version 8.5
.target sm_80
.address_size 64
.visible .global .align 4 .u32 offset = 7;
.global .align 1 .b8 $str[2] = {90, 0};
.common .global .align 4 .b32 shared_common[4];
.func (.param .b32 r) helper(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [x];
  add.u32 %r2, %r1, 2000;
  st.param.u32 [r], %r2;
  ret;
}
.weak .func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [x];
  mul.lo.u32 %r2, %r1, 2;
  st.param.u32 [r], %r2;
  ret;
}
.visible .func (.param .b32 r) scale(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [x];
  mul.lo.u32 %r2, %r1, 3;
  st.param.u32 [r], %r2;
  ret;
}
.visible .entry unit_b(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  { .param .b32 a; .param .b32 b; st.param.u32 [a], %r1; call.uni (b), helper, (a); ld.param.u32 %r3, [b]; }
  mov.u64 %rd2, $str;
  ld.global.u8 %r6, [%rd2];
  add.u32 %r7, %r3, %r6;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r7;
  ret;
}
)";

std::vector<PtxSource> units() { return {{kUnitA, "a.ptx"}, {kUnitB, "b.ptx"}}; }

void check_linked(Engine& engine) {
  const ModuleId m = engine.load_linked_ptx(units(), "linked.ptx");
  test::DeviceBuffer<uint32_t> a(engine, 32), b(engine, 32);
  test::launch_ok(engine, m, "unit_a", {1, 1, 1}, {32, 1, 1}, {a.arg()});
  test::launch_ok(engine, m, "unit_b", {1, 1, 1}, {32, 1, 1}, {b.arg()});
  std::vector<uint32_t> expected_a, expected_b;
  for (uint32_t t = 0; t < 32; ++t) {
    expected_a.push_back(3 * t + (t + 1000) + 2 * t + 7 + 'A');  // unit A's helper and string
    expected_b.push_back(t + 2000 + 'Z');                         // unit B's own
  }
  EXPECT_EQ(a.download(), expected_a);
  EXPECT_EQ(b.download(), expected_b);
  EXPECT_EQ(engine.symbol_size(m, "shared_common"), 16u);  // the larger .common wins
}

TEST(LinkedPtx, UnitsCallAcrossAndKeepTheirInternalNamesInFunctionalMode) {
  Engine engine;
  check_linked(engine);
}

TEST(LinkedPtx, UnitsCallAcrossAndKeepTheirInternalNamesInTimingMode) {
  EngineOptions options;
  options.timing = std::make_shared<const config::GpuConfig>(config::load_gpu_config("h100"));
  Engine engine(options);
  check_linked(engine);
}

std::string link_error(const std::vector<std::pair<std::string, std::string>>& sources) {
  std::vector<ptx::Module> modules;
  for (const auto& [text, name] : sources) modules.push_back(ptx::parse(text, name));
  try {
    ptx::link(std::move(modules), "linked.ptx");
  } catch (const ptx::Error& e) {
    return e.what();
  }
  return "";
}

TEST(LinkedPtx, TwoStrongDefinitionsAreRefusedAsNvlinkRefusesThem) {
  const std::string header = ".version 9.0\n.target sm_80\n.address_size 64\n";
  const std::string f = header + ".visible .func f()\n{\n  ret;\n}\n";
  EXPECT_EQ(link_error({{f, "a.ptx"}, {f, "b.ptx"}}), "b.ptx:4:16: multiple definition of 'f' (also defined in a.ptx)");
  const std::string v = header + ".visible .global .u32 counter;\n";
  EXPECT_EQ(link_error({{v, "a.ptx"}, {v, "b.ptx"}}),
            "b.ptx:4:23: multiple definition of 'counter' (also defined in a.ptx)");
  // A weak definition gives way to a strong one, whichever comes first.
  const std::string weak = header + ".weak .func f()\n{\n  ret;\n}\n";
  EXPECT_EQ(link_error({{weak, "a.ptx"}, {f, "b.ptx"}, {weak, "c.ptx"}}), "");
}

TEST(LinkedPtx, FileIndicesOfEachUnitStayDistinct) {
  const std::string header = ".version 9.0\n.target sm_80\n.address_size 64\n";
  std::vector<ptx::Module> modules;
  modules.push_back(ptx::parse(header + ".file 1 \"a.cu\"\n.file 2 \"common.h\"\n", "a.ptx"));
  modules.push_back(ptx::parse(header + ".file 1 \"b.cu\"\n", "b.ptx"));
  const ptx::Module linked = ptx::link(std::move(modules), "linked.ptx");
  const std::map<uint32_t, std::string> expected = {{1, "a.cu"}, {2, "common.h"}, {3, "b.cu"}};
  EXPECT_EQ(linked.files, expected);
}

}  // namespace
}  // namespace lockstep
