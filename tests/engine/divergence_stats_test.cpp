// Divergence statistics (LaunchResult::divergence, func/divergence/divergence_counters.h): exact
// counts, derived by hand from each kernel, the same in functional and timing mode and for any
// number of host threads, under ipdom-stack, branch-barrier and thread-frontier.
#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"

namespace lockstep::func {
// Readable failure messages.
void PrintTo(const DivergenceCounters& c, std::ostream* os) {
  *os << "{divergent_branches " << c.divergent_branches << ", reconvergences " << c.reconvergences
      << ", barrier_waits " << c.barrier_waits << ", yields " << c.yields << "}";
}
}  // namespace lockstep::func

namespace lockstep {
namespace {

using func::DivergenceCounters;

// Odd lanes take the branch to ODD, even lanes fall through; both paths meet at JOIN.
// out[global thread index] = 10 for even threads, 20 for odd ones.
constexpr const char* kParity = R"(
.version 9.0
.target sm_75
.address_size 64

.visible .entry parity(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<7>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 1;
  @%p1 bra ODD;
  mov.u32 %r3, 10;
  bra JOIN;
ODD:
  mov.u32 %r3, 20;
JOIN:
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %ntid.x;
  mad.lo.u32 %r6, %r4, %r5, %r1;
  mul.wide.u32 %rd2, %r6, 4;
  add.s64 %rd2, %rd1, %rd2;
  st.global.u32 [%rd2], %r3;
  ret;
}
)";

// No branch at all: out[tid] = tid.
constexpr const char* kStraight = R"(
.version 9.0
.target sm_75
.address_size 64

.visible .entry straight(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";

struct Mode {
  std::string divergence;
  bool timing = false;
  uint32_t threads = 1;
  uint32_t yield_after = 0;  // 0: the preset's (64)
};

EngineOptions options_for(const Mode& m) {
  EngineOptions options;
  options.divergence = m.divergence;
  options.sim_threads = m.threads;
  std::vector<std::string> overrides = {"sm.divergence=" + m.divergence};
  if (m.yield_after != 0) {
    options.yield_after = m.yield_after;
    overrides.push_back("sm.yield_after=" + std::to_string(m.yield_after));
  }
  if (m.timing)
    options.timing =
        std::make_shared<const config::GpuConfig>(config::load_gpu_config("h100", overrides));
  return options;
}

LaunchResult run_parity(const Mode& m, uint32_t blocks, uint32_t threads_per_block) {
  Engine engine(options_for(m));
  const ModuleId module = engine.load_ptx(kParity, "parity.ptx");
  const uint32_t n = blocks * threads_per_block;
  test::DeviceBuffer<uint32_t> out(engine, n);
  LaunchResult r = test::launch_ok(engine, module, "parity", {blocks, 1, 1},
                                   {threads_per_block, 1, 1}, {out.arg()});
  std::vector<uint32_t> expected(n);
  for (uint32_t i = 0; i < n; ++i) expected[i] = i % threads_per_block % 2 == 0 ? 10 : 20;
  EXPECT_EQ(out.download(), expected);
  return r;
}

LaunchResult run_lock(const Mode& m, uint32_t blocks, uint32_t threads_per_block) {
  Engine engine(options_for(m));
  const ModuleId module = engine.load_ptx_file(test::data_path("engine/data/intra_warp_lock.ptx"));
  test::DeviceBuffer<int> mutex(engine, std::vector<int>{0});
  test::DeviceBuffer<int> counter(engine, std::vector<int>{0});
  LaunchResult r = engine.launch(module, "intra_warp_lock", {blocks, 1, 1},
                                 {threads_per_block, 1, 1}, 0, {mutex.arg(), counter.arg()});
  EXPECT_FALSE(r.fault.has_value()) << r.fault->message;
  EXPECT_EQ(counter.download(), (std::vector<int>{static_cast<int>(blocks * threads_per_block)}));
  return r;
}

std::string mode_name(const ::testing::TestParamInfo<Mode>& p) {
  std::string name = p.param.divergence + (p.param.timing ? "_timing" : "_functional");
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

class DivergenceStats : public ::testing::TestWithParam<Mode> {};

// Per warp of 32: the `@%p1 bra ODD` splits the warp (16 odd lanes taken, 16 even fall through):
// 1 divergent branch; the even path's `bra JOIN` is uniform. The paths meet at JOIN: 1
// reconvergence. Under branch-barrier the even path runs first and blocks at JOIN until the odd
// one arrives: 1 barrier wait (the stack has no barriers: 0). No loop: 0 yields.
// Two blocks of 64 threads: 4 warps. Each runs 4 instructions with 32 lanes (ld.param, mov,
// and, setp), the guarded bra with its 16 odd lanes, 2 with the 16 even lanes (mov, bra JOIN),
// 1 with the 16 odd ones (mov) and 8 more with 32 (mov, mov, mad, mul.wide, add, st, ret and the
// function's synthetic exit that every ret branches to): 16 warp instructions, 12 x 32 + 4 x 16
// = 448 thread instructions per warp (28 active lanes on average). Under thread-frontier the even
// path runs first (lower PC), its `bra JOIN` jumps over ODD, so the odd path runs and meets it at
// JOIN: the same counts, no barrier wait.
TEST_P(DivergenceStats, IfElseOnLaneParity) {
  const Mode m = GetParam();
  const LaunchResult r = run_parity(m, 2, 64);
  const bool barriers = m.divergence == "branch-barrier";
  EXPECT_EQ(r.divergence, (DivergenceCounters{4, 4, barriers ? 4u : 0u, 0}));
  EXPECT_EQ(r.warp_instructions, 4u * 16);
  EXPECT_EQ(r.thread_instructions, 4u * 448);
  if (m.timing) {
    ASSERT_TRUE(r.timing.has_value());
    EXPECT_EQ(r.timing->divergence, r.divergence);
  }
}

// No branch: nothing to count. A block of 48 threads: a full warp and one of 16 lanes, each
// running the 6 instructions and the synthetic exit: 14 warp instructions, 7 x 48 = 336 thread
// instructions (24 lanes on average).
TEST_P(DivergenceStats, StraightLineCodeCountsNothing) {
  const Mode m = GetParam();
  Engine engine(options_for(m));
  const ModuleId module = engine.load_ptx(kStraight, "straight.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 48);
  const LaunchResult r =
      test::launch_ok(engine, module, "straight", {1, 1, 1}, {48, 1, 1}, {out.arg()});
  EXPECT_EQ(r.divergence, DivergenceCounters{});
  EXPECT_EQ(r.warp_instructions, 14u);
  EXPECT_EQ(r.thread_instructions, 336u);
}

INSTANTIATE_TEST_SUITE_P(Units, DivergenceStats,
                         ::testing::Values(Mode{"ipdom-stack", false},
                                           Mode{"branch-barrier", false}, Mode{"ipdom-stack", true},
                                           Mode{"branch-barrier", true},
                                           Mode{"thread-frontier", false},
                                           Mode{"thread-frontier", true}),
                         mode_name);

// The intra-warp lock (data/intra_warp_lock.cu) under branch-barrier, per warp of 32 lanes:
// each round one lane wins the CAS and the others branch back, a divergent branch; the winner
// reaches the loop's reconvergence point at once and blocks there, a barrier wait; the losers
// spin until they yield (once per round: the winner then runs, releases the lock and exits, and
// the losers are woken). The barrier releases one lone winner each time, so nothing
// reconverges. The last lane left wins with nobody to split from, wait for or yield to: 31
// rounds count, whatever the other warps do to the lock meanwhile (a warp whose lanes all fail
// spins as one group and never yields).
constexpr DivergenceCounters kLockPerWarp{31, 0, 31, 31};

DivergenceCounters times(DivergenceCounters c, uint64_t n) {
  return {c.divergent_branches * n, c.reconvergences * n, c.barrier_waits * n, c.yields * n};
}

TEST(DivergenceStatsLock, OneWarpFunctionalAndTiming) {
  const LaunchResult functional = run_lock({"branch-barrier", false}, 1, 32);
  const LaunchResult timing = run_lock({"branch-barrier", true}, 1, 32);
  EXPECT_EQ(functional.divergence, kLockPerWarp);
  EXPECT_EQ(timing.divergence, kLockPerWarp);
}

// Three blocks of three warps; timing mode yields after 4 spins to keep the run short (the
// count of yields does not depend on it).
TEST(DivergenceStatsLock, NineWarpsFunctionalAndTiming) {
  EXPECT_EQ(run_lock({"branch-barrier", false}, 3, 96).divergence, times(kLockPerWarp, 9));
  EXPECT_EQ(run_lock({"branch-barrier", true, 1, 4}, 3, 96).divergence, times(kLockPerWarp, 9));
}

// Counts are summed per block runner (functional) or SM (timing) and added up in a fixed order:
// one and two host threads give the same figures. 40 blocks of 64 threads: 80 warps, each with
// the parity kernel's one divergent branch and reconvergence (and barrier wait under
// branch-barrier).
TEST(DivergenceStatsThreads, OneAndTwoHostThreadsCountTheSame) {
  for (const std::string divergence : {"ipdom-stack", "branch-barrier", "thread-frontier"}) {
    for (const bool timing : {false, true}) {
      SCOPED_TRACE(divergence + (timing ? " timing" : " functional"));
      const LaunchResult one = run_parity({divergence, timing, 1}, 40, 64);
      const LaunchResult two = run_parity({divergence, timing, 2}, 40, 64);
      EXPECT_EQ(one.divergence,
                (DivergenceCounters{80, 80, divergence == "branch-barrier" ? 80u : 0u, 0}));
      EXPECT_EQ(two.divergence, one.divergence);
    }
  }
  const Mode lock1{"branch-barrier", false, 1}, lock2{"branch-barrier", false, 2};
  EXPECT_EQ(run_lock(lock1, 3, 96).divergence, times(kLockPerWarp, 9));
  EXPECT_EQ(run_lock(lock2, 3, 96).divergence, times(kLockPerWarp, 9));
}

}  // namespace
}  // namespace lockstep
