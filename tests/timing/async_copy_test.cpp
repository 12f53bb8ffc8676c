// Asynchronous copies take their time in timing mode (docs/timing-model.md, "Asynchronous
// copies"; sim/async_copies.h): cp.async.wait_all / wait_group hold their warp until the copies
// they wait for complete, and mbarrier.try_wait is held while a bulk copy is pending on its
// mbarrier. The teaching preset's fixed latencies make the cycles exact: a copy's global read
// completes global_latency (400) cycles after it issues (its operands are read in its issue
// cycle), and the wait issues in the cycle it completes (writeback before issue). Functional
// results are unchanged: every kernel's output is checked against functional mode's.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

struct Issue {
  uint64_t cycle = 0;
  uint32_t line = 0;
};

// The 1-based line of the first line of `ptx` holding `text`.
uint32_t line_of(const std::string& ptx, const std::string& text) {
  const size_t at = ptx.find(text);
  EXPECT_NE(at, std::string::npos) << text;
  return 1 + static_cast<uint32_t>(std::count(ptx.begin(), ptx.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

// Warp 0 of block 0's issues (every warp's with `all_warps`), in order, of kernel `name`
// launched with one block of `threads` threads and `out` (zeroed, `threads` floats) as its
// parameters; `result` gets out afterwards.
std::vector<Issue> run_traced(Engine& engine, const std::string& ptx, const std::string& name, uint32_t threads,
                              std::vector<float>& result, bool all_warps = false) {
  std::vector<Issue> issues;
  engine.set_trace([&](const TraceEvent& e) {
    if (e.block == 0 && (all_warps || e.warp == 0)) issues.push_back({e.cycle, e.ptx_line});
  });
  const ModuleId m = engine.load_ptx(ptx, "async.ptx");
  const uint64_t out = engine.malloc(threads * sizeof(float));
  std::vector<float> zeros(threads, 0.0f);
  engine.copy_to_device(out, zeros.data(), threads * sizeof(float));
  const LaunchResult r = engine.launch(m, name, {1, 1, 1}, {threads, 1, 1}, 0, {KernelArg::of(out)});
  EXPECT_FALSE(r.fault.has_value()) << (r.fault ? r.fault->message : "");
  result.resize(threads);
  engine.copy_to_host(result.data(), out, threads * sizeof(float));
  engine.free(out);
  engine.set_trace(nullptr);
  return issues;
}

// What functional mode computes for the same kernel.
std::vector<float> run_functional(const std::string& ptx, const std::string& name, uint32_t threads) {
  Engine engine{EngineOptions{}};
  std::vector<float> result;
  run_traced(engine, ptx, name, threads, result);
  return result;
}

std::vector<uint64_t> cycles_at(const std::vector<Issue>& issues, uint32_t line) {
  std::vector<uint64_t> cycles;
  for (const Issue& i : issues)
    if (i.line == line) cycles.push_back(i.cycle);
  return cycles;
}

// Each thread stores tid to out[tid], copies it into shared memory with cp.async, waits, and
// reads it back plus one: out[tid] = tid + 1.
const std::string kWaitAll = micro_kernel(R"(  .shared .align 16 .b8 buf[512];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f2, %r1;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f2;
  mov.u32 %r2, buf;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  cp.async.ca.shared.global [%r4], [%rd3], 4;
  cp.async.wait_all;
  ld.shared.f32 %f1, [%r4];
  add.f32 %f1, %f1, 0f3F800000;
)");

TEST(AsyncCopies, WaitAllIssuesWhenTheCopysGlobalReadCompletes) {
  auto gpu = timing_gpu("teaching");
  ASSERT_EQ(gpu->memory.global_latency, 400u);
  auto engine = timing_engine(gpu);
  std::vector<float> out;
  const std::vector<Issue> issues = run_traced(*engine, kWaitAll, "k", 32, out);
  const std::vector<uint64_t> copy = cycles_at(issues, line_of(kWaitAll, "cp.async.ca"));
  const std::vector<uint64_t> wait = cycles_at(issues, line_of(kWaitAll, "cp.async.wait_all"));
  const std::vector<uint64_t> load = cycles_at(issues, line_of(kWaitAll, "ld.shared"));
  ASSERT_EQ(copy.size(), 1u);
  ASSERT_EQ(wait.size(), 1u);
  ASSERT_EQ(load.size(), 1u);
  // Without the hold it issued with the LD/ST pipe's initiation interval, at copy + 4 (426 for
  // the copy at 422); now the copy's 400 cycles later (822).
  EXPECT_EQ(wait[0], copy[0] + 400);
  EXPECT_GT(load[0], wait[0]);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(out[i], static_cast<float>(i) + 1.0f) << i;
  EXPECT_EQ(out, run_functional(kWaitAll, "k", 32));
}

// Under the designs that form warps from several warps' threads (dwf, tbc, large-warp) the
// copies and waits issue as formed warps: each member's copy joins its own warp's group, and the
// formed wait is held until every member's copies have completed, as a warp alone would be. The
// teaching preset's 8-lane warps make the block's copy four formed warps, issued two cycles
// apart in pairs (436, 436, 438, 438 with tbc); the copies complete with the last of them, 400
// cycles on (without the hold the wait issued at 440).
class FormedAsyncCopies : public ::testing::TestWithParam<std::string> {};

TEST_P(FormedAsyncCopies, WaitAllIsHeldUntilEveryMembersCopyCompletes) {
  auto gpu = timing_gpu("teaching", {"sm.divergence=" + GetParam()});
  ASSERT_EQ(gpu->sm.warp_size, 8u);
  auto engine = timing_engine(gpu);
  std::vector<float> out;
  const std::vector<Issue> issues = run_traced(*engine, kWaitAll, "k", 32, out, /*all_warps=*/true);
  const std::vector<uint64_t> copy = cycles_at(issues, line_of(kWaitAll, "cp.async.ca"));
  const std::vector<uint64_t> wait = cycles_at(issues, line_of(kWaitAll, "cp.async.wait_all"));
  ASSERT_EQ(copy.size(), 4u);
  ASSERT_FALSE(wait.empty());
  EXPECT_EQ(copy.back(), copy.front() + 2);
  EXPECT_EQ(wait.front(), copy.back() + 400) << "copies at " << copy.front() << ".." << copy.back();
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(out[i], static_cast<float>(i) + 1.0f) << i;
}

INSTANTIATE_TEST_SUITE_P(Designs, FormedAsyncCopies, ::testing::Values("dwf", "tbc", "large-warp"),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// Two groups of one copy each: wait_group 1 waits for the first group only (its copy's 400
// cycles), wait_group 0 for the second, which issued 8 cycles later (the copy, commit and copy
// one LD/ST initiation interval of 4 apart) and completes that much later. The copies issue at
// 422 and 430, the waits at 822 and 830 (without the hold: 438 and 446). The waits, loads and
// copies sit in one I-cache line, so no fetch miss hides the waits. out[tid] = 2 tid + 1.
const std::string kWaitGroup = micro_kernel(R"(  .shared .align 16 .b8 buf[512];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f2, %r1;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f2;
  mov.u32 %r2, buf;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  cp.async.ca.shared.global [%r4], [%rd3], 4;
  cp.async.commit_group;
  cp.async.ca.shared.global [%r4+256], [%rd3], 4;
  cp.async.commit_group;
  cp.async.wait_group 1;
  ld.shared.f32 %f1, [%r4];
  cp.async.wait_group 0;
  ld.shared.f32 %f3, [%r4+256];
  add.f32 %f1, %f1, %f3;
  add.f32 %f1, %f1, 0f3F800000;
)");

TEST(AsyncCopies, WaitGroupOneWaitsOnlyForTheOlderGroup) {
  auto engine = timing_engine(timing_gpu("teaching"));
  std::vector<float> out;
  const std::vector<Issue> issues = run_traced(*engine, kWaitGroup, "k", 32, out);
  const std::vector<uint64_t> first = cycles_at(issues, line_of(kWaitGroup, "cp.async.ca.shared.global [%r4]"));
  const std::vector<uint64_t> second = cycles_at(issues, line_of(kWaitGroup, "cp.async.ca.shared.global [%r4+256]"));
  const std::vector<uint64_t> wait1 = cycles_at(issues, line_of(kWaitGroup, "cp.async.wait_group 1"));
  const std::vector<uint64_t> wait0 = cycles_at(issues, line_of(kWaitGroup, "cp.async.wait_group 0"));
  ASSERT_EQ(first.size(), 1u);
  ASSERT_EQ(second.size(), 1u);
  ASSERT_EQ(wait1.size(), 1u);
  ASSERT_EQ(wait0.size(), 1u);
  ASSERT_EQ(second[0], first[0] + 8);
  EXPECT_EQ(wait1[0], first[0] + 400);   // not second[0] + 400: the newest group may still run
  EXPECT_EQ(wait0[0], second[0] + 400);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(out[i], 2.0f * static_cast<float>(i) + 1.0f) << i;
  EXPECT_EQ(out, run_functional(kWaitGroup, "k", 32));
}

// Lane 0 bulk-copies 128 bytes of out into a shared tile, completing on an mbarrier that
// expects the 32 threads' arrivals and the 128 bytes; every thread spins on try_wait, then reads
// its word of the tile plus one. The copy's global read takes 400 cycles: try_wait is held at
// issue until then, and then finds the phase complete at once (one try_wait per warp): the copy
// issues at 426, try_wait at 826 (without the hold: 454). The copy's sources (%r3, %rd1, %r4)
// sit in three register banks, so it reads them in its issue cycle.
const std::string kBulk = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry bulk(.param .u64 out) {
  .shared .align 8 .b64 bar;
  .shared .align 128 .b32 tile[32];
  .reg .pred %p<4>;
  .reg .f32 %f<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  cvt.rn.f32.u32 %f1, %r1;
  st.global.f32 [%rd3], %f1;
  mov.u32 %r4, bar;
  mov.u32 %r3, tile;
  setp.ne.u32 %p1, %r1, 0;
  @!%p1 mbarrier.init.shared::cta.b64 [%r4], 32;
  bar.sync 0;
  @!%p1 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd1], 128, [%r4];
  @!%p1 mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r4], 128;
  mbarrier.arrive.shared::cta.b64 %rd4, [%r4];
WAIT:
  mbarrier.try_wait.shared::cta.b64 %p2, [%r4], %rd4;
  @!%p2 bra WAIT;
  shl.b32 %r6, %r1, 2;
  add.u32 %r7, %r3, %r6;
  ld.shared.f32 %f2, [%r7];
  add.f32 %f2, %f2, 0f3F800000;
  st.global.f32 [%rd3], %f2;
  ret;
}
)";

TEST(AsyncCopies, TryWaitIssuesOnlyOnceTheBulkCopyOnItsBarrierCompletes) {
  auto engine = timing_engine(timing_gpu("teaching"));
  std::vector<float> out;
  const std::vector<Issue> issues = run_traced(*engine, kBulk, "bulk", 32, out);
  const std::vector<uint64_t> copy = cycles_at(issues, line_of(kBulk, "cp.async.bulk"));
  const std::vector<uint64_t> wait = cycles_at(issues, line_of(kBulk, "mbarrier.try_wait"));
  ASSERT_EQ(copy.size(), 1u);
  ASSERT_EQ(wait.size(), 1u);  // held until the phase could complete: no spinning
  EXPECT_EQ(wait[0], copy[0] + 400);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(out[i], static_cast<float>(i) + 1.0f) << i;
  EXPECT_EQ(out, run_functional(kBulk, "bulk", 32));
}

// The phase still lacks arrivals when the copy completes: the second warp (8-lane warps on
// teaching) arrives only after two dependent global loads (800 cycles). Warp 0's first try_wait
// is held until the copy completes (copy + 400), returns false as in functional mode, and the
// loop spins until the other warp arrives: no deadlock, same results.
const std::string kLate = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry late(.param .u64 out) {
  .shared .align 8 .b64 bar;
  .shared .align 128 .b32 tile[16];
  .reg .pred %p<4>;
  .reg .f32 %f<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  cvt.rn.f32.u32 %f1, %r1;
  st.global.f32 [%rd3], %f1;
  mov.u32 %r4, bar;
  mov.u32 %r3, tile;
  setp.ne.u32 %p1, %r1, 0;
  @!%p1 mbarrier.init.shared::cta.b64 [%r4], 16;
  bar.sync 0;
  @!%p1 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd1], 64, [%r4];
  @!%p1 mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r4], 64;
  setp.lt.u32 %p3, %r1, 8;
  @%p3 bra ARRIVE;
  ld.global.u32 %r8, [%rd3];
  and.b32 %r8, %r8, 0;
  cvt.u64.u32 %rd5, %r8;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.u32 %r9, [%rd6];
  and.b32 %r10, %r9, 0;
  add.u32 %r4, %r4, %r10;
ARRIVE:
  mbarrier.arrive.shared::cta.b64 %rd4, [%r4];
WAIT:
  mbarrier.try_wait.shared::cta.b64 %p2, [%r4], %rd4;
  @!%p2 bra WAIT;
  shl.b32 %r6, %r1, 2;
  add.u32 %r7, %r3, %r6;
  ld.shared.f32 %f2, [%r7];
  add.f32 %f2, %f2, 0f3F800000;
  st.global.f32 [%rd3], %f2;
  ret;
}
)";

TEST(AsyncCopies, TryWaitOnAnIncompletePhaseStillSpinsAfterTheCopy) {
  auto gpu = timing_gpu("teaching");
  ASSERT_EQ(gpu->sm.warp_size, 8u);
  auto engine = timing_engine(gpu);
  std::vector<float> out;
  const std::vector<Issue> issues = run_traced(*engine, kLate, "late", 16, out);
  const std::vector<uint64_t> copy = cycles_at(issues, line_of(kLate, "cp.async.bulk"));
  const std::vector<uint64_t> wait = cycles_at(issues, line_of(kLate, "mbarrier.try_wait"));
  ASSERT_EQ(copy.size(), 1u);
  ASSERT_GT(wait.size(), 1u);
  EXPECT_EQ(wait[0], copy[0] + 400);
  EXPECT_GT(wait.back(), copy[0] + 800);  // the other warp's two loads came first
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(out[i], static_cast<float>(i) + 1.0f) << i;
  EXPECT_EQ(out, run_functional(kLate, "late", 16));
}

// In the memory hierarchy (h100) a copy's wait costs what a load's dependant waits: the same
// global read through the L1 and the L2, whose finish releases the wait as it releases the
// load's register. kWaitAll against the same kernel with the copy done by hand (a load and a
// dependent shared store): the load's dependant issues 269 cycles after it, the wait 270 after
// the copy, whose shared write (logged first) takes the LD/ST unit's first cycle and sends its
// global read one cycle later.
TEST(AsyncCopies, OnH100TheWaitTakesWhatALoadOfTheSameWordTakes) {
  std::string by_hand = kWaitAll;
  const std::string copy_text = "  cp.async.ca.shared.global [%r4], [%rd3], 4;\n  cp.async.wait_all;\n";
  ASSERT_NE(by_hand.find(copy_text), std::string::npos);
  by_hand.replace(by_hand.find(copy_text), copy_text.size(),
                  "  ld.global.f32 %f3, [%rd3];\n  st.shared.f32 [%r4], %f3;\n");
  auto gpu = timing_gpu("h100", {"gpu.sm_count=1"});
  std::vector<float> out, out_by_hand;
  auto engine = timing_engine(gpu);
  const std::vector<Issue> issues = run_traced(*engine, kWaitAll, "k", 32, out);
  const std::vector<Issue> hand = run_traced(*engine, by_hand, "k", 32, out_by_hand);
  const std::vector<uint64_t> copy = cycles_at(issues, line_of(kWaitAll, "cp.async.ca"));
  const std::vector<uint64_t> wait = cycles_at(issues, line_of(kWaitAll, "cp.async.wait_all"));
  const std::vector<uint64_t> load = cycles_at(hand, line_of(by_hand, "ld.global.f32 %f3"));
  const std::vector<uint64_t> store = cycles_at(hand, line_of(by_hand, "st.shared.f32"));
  ASSERT_EQ(copy.size(), 1u);
  ASSERT_EQ(wait.size(), 1u);
  ASSERT_EQ(load.size(), 1u);
  ASSERT_EQ(store.size(), 1u);
  EXPECT_EQ(wait[0] - copy[0], store[0] - load[0] + 1);
  EXPECT_GT(wait[0] - copy[0], gpu->l2.hit_latency);  // served by the L2, not the L1
  EXPECT_EQ(out, out_by_hand);
  EXPECT_EQ(out, run_functional(kWaitAll, "k", 32));
}

// The copies' bookkeeping is per SM: figures and results are bit-identical for any number of
// simulator threads (h100, 4 SMs, 16 blocks of kWaitGroup; the blocks share out[0 .. 31] as
// their copies' source, which the commit order makes the same on every thread count).
TEST(AsyncCopies, FiguresAreBitIdenticalForAnyThreadCount) {
  std::vector<sim::KernelTiming> timings;
  std::vector<std::vector<float>> outs;
  for (uint32_t threads : {1u, 3u}) {
    auto engine = timing_engine(timing_gpu("h100", {"gpu.sm_count=4"}), threads);
    outs.emplace_back();
    timings.push_back(run_timed(*engine, kWaitGroup, 16, 32, &outs.back()));
  }
  EXPECT_GT(timings[0].warp_stalls[static_cast<size_t>(sim::StallReason::kSynchronization)], 0u);
  EXPECT_TRUE(timings[1] == timings[0]);
  EXPECT_EQ(outs[1], outs[0]);
}

}  // namespace
}  // namespace lockstep::test
