// Arrive-wait barriers and asynchronous copies through an unmodified program
// (tests/host/programs/async_barriers.cu), built for sm_80 (cp.async, mbarrier.test_wait) and
// sm_90 (cp.async.bulk with complete_tx, mbarrier.try_wait, expect_tx) and run through
// `lockstep run` in functional and timing mode: cuda::barrier (arrive_and_wait, split
// arrive/wait), cuda::memcpy_async with a barrier, cooperative_groups::memcpy_async + wait,
// cuda::pipeline with producer and consumer warps, and a cooperative launch whose kernel also
// uses a cuda::barrier, and a barrier whose waiters back off with nanosleep while one warp
// arrives late, each checked against a CPU reference. stdout and the exit code are exact.
#include <string>
#include <tuple>
#include <vector>

#include "host/run_lockstep.h"

#ifdef LOCKSTEP_HOST_PROGRAMS

namespace lockstep::test {
namespace {

class AsyncBarriers : public ::testing::TestWithParam<std::tuple<const char*, const char*>> {};

TEST_P(AsyncBarriers, EveryPartMatchesTheCpu) {
  const auto [arch, mode] = GetParam();
  const ProgramOutcome r =
      run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/async_barriers_" + arch, {"--mode", mode});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "barrier arrive_and_wait, split arrive/wait: ok\n"
            "memcpy_async with a barrier (block): ok\n"
            "memcpy_async with a barrier (per thread): ok\n"
            "cooperative_groups::memcpy_async + wait: ok\n"
            "pipeline, producer and consumer warps: ok\n"
            "cooperative launch with a block barrier: ok\n"
            "late arrival at a barrier whose wait sleeps: ok\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

INSTANTIATE_TEST_SUITE_P(Arches, AsyncBarriers,
                         ::testing::Combine(::testing::Values("sm80", "sm90"),
                                            ::testing::Values("functional", "timing")),
                         [](const auto& p) {
                           return std::string(std::get<0>(p.param)) + "_" + std::get<1>(p.param);
                         });

}  // namespace
}  // namespace lockstep::test

#endif  // LOCKSTEP_HOST_PROGRAMS
