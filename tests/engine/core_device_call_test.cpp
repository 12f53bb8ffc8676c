// Device-runtime calls bound by the engine core: __assertfail by some lanes of a warp.
// (vprintf has its own file, core_printf_test.cpp.)
#include <gtest/gtest.h>

#include <string>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr const char* kHeader = ".version 9.0\n.target sm_80\n.address_size 64\n";

// __assertfail by lane 2 only. Strings: m = "x", f = "a.cu", fn = "k".
constexpr const char* kAssert = R"(
.extern .func __assertfail(.param .b64 p0, .param .b64 p1, .param .b32 p2, .param .b64 p3, .param .b64 p4);
.global .align 1 .b8 msg[2] = {120, 0};
.global .align 1 .b8 file[5] = {97, 46, 99, 117, 0};
.global .align 1 .b8 fn[2] = {107, 0};
.visible .entry asserts()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 2;
  mov.u64 %rd1, msg;
  mov.u64 %rd2, file;
  mov.u64 %rd3, fn;
  {
    .param .b64 a0;
    .param .b64 a1;
    .param .b32 a2;
    .param .b64 a3;
    .param .b64 a4;
    st.param.b64 [a0], %rd1;
    st.param.b64 [a1], %rd2;
    st.param.b32 [a2], 42;
    st.param.b64 [a3], %rd3;
    st.param.b64 [a4], 1;
    @%p1 call.uni __assertfail, (a0, a1, a2, a3, a4);
  }
  ret;
}
)";

TEST(CoreCall, AssertFailReportsTheAssertingThread) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kAssert, "assert.ptx");
  const LaunchResult r = engine.launch(m, "asserts", {1, 1, 1}, {8, 1, 1}, 0, {});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "assertion failed");
  EXPECT_EQ(r.fault->thread.x, 2u);
  EXPECT_EQ(r.fault->detail, "a.cu:42: k: Assertion `x` failed.");
}

// A failed assert is reported at the __assertfail call.
TEST(CoreCall, AssertFailIsReportedAtTheCall) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kAssert, "assert.ptx");
  const LaunchResult r = engine.launch(m, "asserts", {1, 1, 1}, {8, 1, 1}, 0, {});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->ptx_location, "assert.ptx:30");
}

}  // namespace
}  // namespace lockstep
