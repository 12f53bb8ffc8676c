// Calls under thread-frontier: the callee's PCs lie below the caller's (PTX functions come
// first), so PC order alone would run a waiting caller thread's code after the callee's. The
// unit's rule (func/divergence/thread_frontier.cpp): a call runs as a context of its own with
// the calling group, ahead of every thread outside it; inside, PC order applies. Threads 0-5 of
// an 8-lane warp call f (a guarded call: 6 and 7 wait at the return PC); in f thread 5 exits,
// the others split on bit 1 of their id and meet at OUT; back in the kernel the callers meet 6
// and 7, and the warp passes a CTA barrier whole. The results are the same under every unit.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/harness.h"
#include "func/divergence/divergence_unit.h"

namespace lockstep {
namespace {

constexpr const char* kGuardedDivergentCall = R"(
.version 9.0
.target sm_80
.address_size 64

.func (.param .b32 ret) f(.param .b32 x)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [x];
  setp.eq.u32 %p1, %r1, 5;
  @%p1 bra GONE;                  // thread 5 exits inside the callee
  and.b32 %r2, %r1, 2;
  setp.eq.u32 %p2, %r2, 0;
  @%p2 bra TWO;
  mul.lo.u32 %r3, %r1, 3;         // bit 1 set: 3x
  bra OUT;
TWO:
  add.u32 %r3, %r1, 100;          // bit 1 clear: x + 100
OUT:
  st.param.b32 [ret], %r3;
  ret;
GONE:
  exit;
}

.visible .entry guarded(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r5, 7;
  setp.lt.u32 %p1, %r1, 6;
  {
    .param .b32 a;
    .param .b32 r;
    st.param.b32 [a], %r1;
    @%p1 call (r), f, (a);
    @%p1 ld.param.b32 %r5, [r];
  }
  bar.sync 0;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

LaunchResult run_guarded(const std::string& divergence) {
  EngineOptions options;
  options.warp_size = 8;
  options.divergence = divergence;
  Engine engine(options);
  const ModuleId m = engine.load_ptx(kGuardedDivergentCall, "guarded_divergent_call.ptx");
  test::DeviceBuffer<uint32_t> out(engine, std::vector<uint32_t>(8, 0xdeadu));
  const LaunchResult r = test::launch_ok(engine, m, "guarded", {1, 1, 1}, {8, 1, 1}, {out.arg()});
  EXPECT_EQ(out.download(), (std::vector<uint32_t>{100, 101, 6, 9, 104, 0xdeadu, 7, 7})) << divergence;
  return r;
}

TEST(ThreadFrontierCalls, GuardedDivergentCallWithAnExitInside) {
  for (const std::string& unit : func::divergence_unit_names()) run_guarded(unit);
  // Splits: the guarded call (6 and 7 set aside), GONE (thread 5), TWO (0, 1, 4 against 2, 3).
  // Merges: the two sides of TWO at OUT, and the callers with 6 and 7 at the return PC. No
  // group waits at the barrier: the warp gets there whole.
  const LaunchResult frontier = run_guarded("thread-frontier");
  EXPECT_EQ(frontier.divergence, (func::DivergenceCounters{3, 2, 0, 0}));
  // 6 kernel instructions to the call; in f 3 (six threads), 3 (five), mul and bra OUT, the
  // add, st.param and ret, thread 5's exit, f's synthetic exit; back in the kernel ld.param,
  // bar.sync and 5 more: 26, every instruction once, as the stack runs this structured code.
  EXPECT_EQ(frontier.warp_instructions, 26u);
  EXPECT_EQ(run_guarded("ipdom-stack").warp_instructions, 26u);
}

}  // namespace
}  // namespace lockstep
