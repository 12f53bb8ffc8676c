// Determinism and instruction accounting: the same launch in two fresh engines gives the same
// memory, counts and printf text; warp and thread instruction counts of a small kernel are
// exactly what hand counting gives.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr const char* kHeader = ".version 9.0\n.target sm_80\n.address_size 64\n";

// Threads bump one of four global counters and record the old value; thread 0 of each warp
// prints its old value. Old values depend on the interleaving, so only a deterministic engine
// reproduces them.
constexpr const char* kRace = R"(
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 1 .b8 fmt[12] = {111, 108, 100, 32, 37, 117, 32, 37, 117, 10, 0, 0};

.visible .entry race(.param .u64 counters, .param .u64 olds)
{
  .local .align 8 .b8 __local_depot0[8];
  .reg .pred %p<3>;
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  ld.param.u64 %rd1, [counters];
  ld.param.u64 %rd2, [olds];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.lo.u32 %r5, %r4, 7;
  shr.u32 %r5, %r5, 3;
  and.b32 %r5, %r5, 3;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  atom.global.add.u32 %r6, [%rd4], %r4;
  mul.wide.u32 %rd5, %r4, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r6;
  and.b32 %r7, %r1, 31;
  setp.eq.u32 %p1, %r7, 0;
  @!%p1 bra DONE;
  st.local.u32 [%SPL], %r4;
  st.local.u32 [%SPL+4], %r6;
  mov.u64 %rd7, fmt;
  cvta.global.u64 %rd8, %rd7;
  {
    .param .b64 param0;
    st.param.b64 [param0], %rd8;
    .param .b64 param1;
    st.param.b64 [param1], %SP;
    .param .b32 retval0;
    call.uni (retval0), vprintf, (param0, param1);
    ld.param.b32 %r8, [retval0];
  }
DONE:
  ret;
}
)";

struct RaceRun {
  std::vector<uint32_t> counters, olds;
  LaunchResult result;
};

RaceRun run_race(uint32_t width) {
  EngineOptions options;
  options.warp_size = width;
  options.time_slice = 7;  // interleave warps mid-kernel
  Engine engine(options);
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kRace, "race.ptx");
  test::DeviceBuffer<uint32_t> counters(engine, 4);
  test::DeviceBuffer<uint32_t> olds(engine, 3 * 96);
  RaceRun run;
  run.result = test::launch_ok(engine, m, "race", {3, 1, 1}, {96, 1, 1}, {counters.arg(), olds.arg()});
  run.counters = counters.download();
  run.olds = olds.download();
  return run;
}

TEST(CoreDeterminism, FreshEnginesReproduceALaunchExactly) {
  for (uint32_t width : {8u, 32u}) {
    const RaceRun a = run_race(width);
    const RaceRun b = run_race(width);
    EXPECT_EQ(a.counters, b.counters);
    EXPECT_EQ(a.olds, b.olds);
    EXPECT_EQ(a.result.warp_instructions, b.result.warp_instructions);
    EXPECT_EQ(a.result.thread_instructions, b.result.thread_instructions);
    EXPECT_EQ(a.result.printf_output, b.result.printf_output);
    // The totals themselves do not depend on the order: sum of ids per counter.
    std::vector<uint32_t> sums(4, 0);
    for (uint32_t i = 0; i < 288; ++i) sums[(i * 7 >> 3) & 3] += i;
    EXPECT_EQ(a.counters, sums) << "warp size " << width;
    // One line per thread 0 of every 32, in block then warp order.
    size_t lines = 0;
    for (char c : a.result.printf_output) lines += c == '\n';
    EXPECT_EQ(lines, 9u) << "warp size " << width;
    EXPECT_EQ(a.result.printf_output.rfind("old 0 ", 0), 0u) << a.result.printf_output;
  }
}

// Ten instructions per warp, the synthetic function exit included: ld.param, mov, setp, mov,
// @%p1 add (5 lanes true: tid < 5), mul.wide, add, st, ret, $exit.
constexpr const char* kStraight = R"(
.visible .entry straight(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 5;
  mov.u32 %r2, 7;
  @%p1 add.u32 %r2, %r1, 100;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

TEST(CoreDeterminism, InstructionCountsMatchAHandCount) {
  // 2 blocks of 40 threads. Thread instructions per block: 9 unguarded instructions x 40
  // threads + 5 threads for the guarded add = 365, whatever the warp size.
  struct Case {
    uint32_t width;
    uint64_t warps_per_block;
  };
  for (const Case c : {Case{32, 2}, Case{8, 5}, Case{64, 1}}) {
    EngineOptions options;
    options.warp_size = c.width;
    Engine engine(options);
    const ModuleId m = engine.load_ptx(std::string(kHeader) + kStraight, "straight.ptx");
    test::DeviceBuffer<uint32_t> out(engine, 80);
    const LaunchResult r = test::launch_ok(engine, m, "straight", {2, 1, 1}, {40, 1, 1}, {out.arg()});
    EXPECT_EQ(r.warp_instructions, 10 * c.warps_per_block * 2) << "warp size " << c.width;
    EXPECT_EQ(r.thread_instructions, 2u * 365u) << "warp size " << c.width;
    std::vector<uint32_t> expected(80);
    for (uint32_t i = 0; i < 80; ++i) expected[i] = (i % 40) < 5 ? (i % 40) + 100 : 7;
    // Both blocks write out[tid]: only the first 40 elements are touched.
    std::vector<uint32_t> got = out.download();
    for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(got[i], expected[i]) << "element " << i;
  }
}

// A divergent branch: both paths and the join count once per warp each time they issue.
constexpr const char* kBranchCount = R"(
.visible .entry branch_count()
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 3;
  @%p1 bra LOW;
  add.u32 %r2, %r1, 1;
  bra JOIN;
LOW:
  add.u32 %r2, %r1, 2;
JOIN:
  ret;
}
)";

TEST(CoreDeterminism, DivergentPathsCountOncePerIssue) {
  EngineOptions options;
  options.warp_size = 8;
  Engine engine(options);
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kBranchCount, "bc.ptx");
  const LaunchResult r = test::launch_ok(engine, m, "branch_count", {1, 1, 1}, {8, 1, 1}, {});
  // mov, setp, bra (8 lanes, 3 guard-true), add (5), bra (5), add (3), ret (8), $exit (8).
  EXPECT_EQ(r.warp_instructions, 8u);
  EXPECT_EQ(r.thread_instructions, 8u + 8 + 3 + 5 + 5 + 3 + 8 + 8);
}

}  // namespace
}  // namespace lockstep
