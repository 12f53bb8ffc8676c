// Device printf through vprintf: CUDA's argument buffer layout (each argument aligned to its
// size, floating values as doubles), the conversions and flags, and lanes printing in order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

// `.global .align 1 .b8 name[N] = {...};` holding text and its terminating NUL.
std::string global_string(const std::string& name, const std::string& text) {
  std::string s = ".global .align 1 .b8 " + name + "[" + std::to_string(text.size() + 1) + "] = {";
  for (unsigned char c : text) s += std::to_string(c) + ", ";
  return s + "0};\n";
}

constexpr const char* kFormat = "%5.2f|%-8d|%08x|%lld|%s|%c|%%|%p\n";

// Argument buffer: f64 at 0, s32 at 8, u32 at 12, s64 at 16, string pointer at 24, char (s32)
// at 32, pointer at 40. Per thread t: f = 1.5t + 0.25, d = t - 2, x = 0x1111t + 0xab,
// lld = t * 10^12 - 5, s = "lockstep", c = 'A' + t, p = &marker. Lane t prints when t != 2.
constexpr const char* kBody = R"(
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 8 .b8 marker[8];

.visible .entry prints()
{
  .local .align 8 .b8 __local_depot0[48];
  .reg .pred %p<2>;
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .b32 %r<10>;
  .reg .f64 %fd<3>;
  .reg .b64 %rd<12>;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  mov.u32 %r1, %tid.x;
  cvt.rn.f64.u32 %fd1, %r1;
  fma.rn.f64 %fd2, %fd1, 0d3FF8000000000000, 0d3FD0000000000000;
  st.local.f64 [%SPL], %fd2;
  add.u32 %r2, %r1, -2;
  st.local.u32 [%SPL+8], %r2;
  mad.lo.u32 %r3, %r1, 4369, 171;
  st.local.u32 [%SPL+12], %r3;
  cvt.u64.u32 %rd8, %r1;
  mul.lo.u64 %rd1, %rd8, 1000000000000;
  add.s64 %rd1, %rd1, -5;
  st.local.u64 [%SPL+16], %rd1;
  mov.u64 %rd2, word;
  cvta.global.u64 %rd3, %rd2;
  st.local.u64 [%SPL+24], %rd3;
  add.u32 %r4, %r1, 65;
  st.local.u32 [%SPL+32], %r4;
  mov.u64 %rd4, marker;
  cvta.global.u64 %rd5, %rd4;
  st.local.u64 [%SPL+40], %rd5;
  mov.u64 %rd6, fmt;
  cvta.global.u64 %rd7, %rd6;
  setp.ne.u32 %p1, %r1, 2;
  {
    .param .b64 param0;
    st.param.b64 [param0], %rd7;
    .param .b64 param1;
    st.param.b64 [param1], %SP;
    .param .b32 retval0;
    @%p1 call.uni (retval0), vprintf, (param0, param1);
    ld.param.b32 %r5, [retval0];
  }
  ret;
}
)";

TEST(CorePrintf, FormatsEveryConversionForEachLaneInOrder) {
  Engine engine;
  const std::string ptx = ".version 9.0\n.target sm_80\n.address_size 64\n" +
                          global_string("fmt", kFormat) + global_string("word", "lockstep") + kBody;
  const ModuleId m = engine.load_ptx(ptx, "prints.ptx");
  const LaunchResult r = test::launch_ok(engine, m, "prints", {1, 1, 1}, {4, 1, 1}, {});
  char hex[32];
  std::snprintf(hex, sizeof hex, "%" PRIx64, engine.symbol_address(m, "marker"));
  const std::string p = std::string("0x") + hex;
  const std::string expected = " 0.25|-2      |000000ab|-5|lockstep|A|%|" + p + "\n" +
                               " 1.75|-1      |000011bc|999999999995|lockstep|B|%|" + p + "\n" +
                               " 4.75|1       |000033de|2999999999995|lockstep|D|%|" + p + "\n";
  EXPECT_EQ(r.printf_output, expected);
}

TEST(CorePrintf, OutputBelongsToItsLaunch) {
  Engine engine;
  const std::string ptx = ".version 9.0\n.target sm_80\n.address_size 64\n" +
                          global_string("fmt", kFormat) + global_string("word", "lockstep") + kBody;
  const ModuleId m = engine.load_ptx(ptx, "prints.ptx");
  const LaunchResult first = test::launch_ok(engine, m, "prints", {1, 1, 1}, {1, 1, 1}, {});
  const LaunchResult second = test::launch_ok(engine, m, "prints", {1, 1, 1}, {1, 1, 1}, {});
  EXPECT_EQ(first.printf_output, second.printf_output);
  EXPECT_EQ(std::count(second.printf_output.begin(), second.printf_output.end(), '\n'), 1);
}

}  // namespace
}  // namespace lockstep
