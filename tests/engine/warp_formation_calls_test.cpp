// Calls under the block-level units: a guarded call leaves W0's T0/T1 behind at the return PC,
// while T2..T7 call f; in f, T2 and T3 (all of W0's callers) exit. W0 unwinds its frame on its
// own (finish_exits) while W1's threads are still in f, and T0/T1 meet W1's threads again after
// the call. Every unit gives the same results: out = 7 for T0/T1, nothing for T2/T3 (0), tid+100
// for T4..T7.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr const char* kCalls = R"(
.version 9.0
.target sm_75
.address_size 64

.func (.param .b32 res) f(.param .b32 x)
{
  .reg .pred %q;
  .reg .b32 %a<3>;
  ld.param.u32 %a1, [x];
  setp.lt.u32 %q, %a1, 4;
  @%q exit;
  add.u32 %a2, %a1, 100;
  st.param.b32 [res], %a2;
  ret;
}

.visible .entry calls(.param .u64 out)
{
  .reg .pred %p;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 7;
  setp.ge.u32 %p, %r1, 2;
  {
    .param .b32 x;
    .param .b32 res;
    st.param.b32 [x], %r1;
    @%p call (res), f, (x);
    @%p ld.param.b32 %r2, [res];
  }
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

class WarpFormationCalls : public ::testing::TestWithParam<const char*> {};

TEST_P(WarpFormationCalls, ExitInACallUnwindsOneWarpWhileTheOtherRunsOn) {
  EngineOptions options;
  options.warp_size = 4;
  options.divergence = GetParam();
  Engine engine(options);
  const ModuleId m = engine.load_ptx(kCalls, "calls.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 8);
  const LaunchResult r = test::launch_ok(engine, m, "calls", {1, 1, 1}, {8, 1, 1}, {out.arg()});
  EXPECT_EQ(out.download(), (std::vector<uint32_t>{7, 7, 0, 0, 104, 105, 106, 107}));
  // tbc: the 6 instructions up to the call with both warps (2 formed warps each); f's first 3
  // (up to the exit) with the callers compacted: [T4 T5 T2 T3] and [- - T6 T7]; f's other 4
  // (with its synthetic exit) for W1 alone, whose threads make one warp again; the 6 after
  // the call with T0/T1 and W1's threads compacted: [T0 T1 T6 T7] and [T4 T5 - -].
  if (std::string(GetParam()) == "tbc") {
    EXPECT_EQ(r.warp_instructions, 6u * 2 + 3u * 2 + 4u * 1 + 6u * 2);
  }
}

INSTANTIATE_TEST_SUITE_P(Units, WarpFormationCalls,
                         ::testing::Values("ipdom-stack", "branch-barrier", "dwf", "tbc", "large-warp", "sbi", "swi"),
                         [](const ::testing::TestParamInfo<const char*>& p) {
                           std::string name = p.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace lockstep
