// Issue 5 acceptance: bitmap and rid-table give identical results and cycles when the table never
// fills, and a one-entry rid-table is slower (seed 001 §3.5, fig 3-32).
#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

// Four independent loads in flight at once, then their sum: a warp has four pending writes.
std::string four_loads() {
  return micro_kernel(R"(  ld.param.u64 %rd1, [out];
  ld.global.f32 %f2, [%rd1];
  ld.global.f32 %f3, [%rd1+4];
  ld.global.f32 %f4, [%rd1+8];
  ld.global.f32 %f5, [%rd1+12];
  add.f32 %f1, %f2, %f3;
  add.f32 %f1, %f1, %f4;
  add.f32 %f1, %f1, %f5;
)");
}

sim::KernelTiming run_with(const std::vector<std::string>& overrides, const std::string& ptx,
                           std::vector<float>& out, uint32_t blocks = 4, uint32_t threads = 64) {
  std::vector<std::string> all = {"icache.miss_latency=1"};
  all.insert(all.end(), overrides.begin(), overrides.end());
  auto engine = timing_engine(timing_gpu("teaching", all));
  return run_timed(*engine, ptx, blocks, threads, &out);
}

TEST(ScoreboardPolicy, BitmapAndRidTableAgreeWhileTheTableNeverFills) {
  std::vector<float> bitmap_out, rid_out;
  const sim::KernelTiming bitmap = run_with({"timing.scoreboard=bitmap"}, four_loads(), bitmap_out);
  const sim::KernelTiming rid = run_with({"timing.scoreboard=rid-table", "timing.rid_entries=6"}, four_loads(), rid_out);
  EXPECT_EQ(bitmap_out, rid_out);
  EXPECT_EQ(bitmap.cycles, rid.cycles);
  EXPECT_EQ(bitmap.warp_stalls, rid.warp_stalls);
  EXPECT_EQ(rid.warp_stalls[static_cast<size_t>(sim::StallReason::kScoreboardFull)], 0u);
}

TEST(ScoreboardPolicy, AOneEntryRidTableSerialisesTheLoads) {
  std::vector<float> bitmap_out, rid_out;
  const sim::KernelTiming bitmap = run_with({"timing.scoreboard=bitmap"}, four_loads(), bitmap_out);
  const sim::KernelTiming rid = run_with({"timing.scoreboard=rid-table", "timing.rid_entries=1"}, four_loads(), rid_out);
  EXPECT_EQ(bitmap_out, rid_out);
  EXPECT_GT(rid.cycles, 2 * bitmap.cycles);  // the loads of each warp no longer overlap
  EXPECT_GT(rid.warp_stalls[static_cast<size_t>(sim::StallReason::kScoreboardFull)], 0u);
  EXPECT_EQ(bitmap.warp_stalls[static_cast<size_t>(sim::StallReason::kScoreboardFull)], 0u);
}

// The first six issues of one warp ("cycle:PTX line"): ld.param at 2, then the four loads. With
// the bitmap they issue 2 cycles apart (the LD/ST unit's interval) and their 400 cycles
// overlap; with one entry each load waits for the one before it to write back.
TEST(ScoreboardPolicy, OneEntryLoadIssueCycles) {
  auto first_issues = [](const std::string& trace) {
    size_t end = 0;
    for (int i = 0; i < 5; ++i) end = trace.find(' ', end) + 1;
    return trace.substr(0, end);
  };
  for (const auto& [scoreboard, expected] :
       {std::pair<std::string, std::string>{"bitmap", "2:10 6:11 8:12 10:13 12:14 "},
        {"rid-table", "2:10 6:11 406:12 806:13 1206:14 "}}) {
    SCOPED_TRACE(scoreboard);
    auto engine = timing_engine(timing_gpu(
        "teaching", {"icache.miss_latency=1", "timing.scoreboard=" + scoreboard, "timing.rid_entries=1"}));
    EXPECT_EQ(first_issues(issue_trace(*engine, four_loads(), 1, 8)), expected);
  }
}

}  // namespace
}  // namespace lockstep::test

namespace lockstep::test {
namespace {

// timing.writeback_ports: the last load (issued at 12) and the first add (issued at 408) both
// complete at 412. With four ports both write; the second add issues at 412. With one port per
// partition the older completion, the load, writes first and the add's %f1 waits until 413, so
// the second add issues at 413. Later the index arithmetic meets more such collisions (its
// results arrive together): the mad issues at 425 instead of 423.
TEST(WritebackPorts, OneResultPerCycleDelaysTheSecond) {
  auto trace = [](int ports) {
    auto engine = timing_engine(
        timing_gpu("teaching", {"icache.miss_latency=1", fmt::format("timing.writeback_ports={}", ports)}));
    return issue_trace(*engine, four_loads(), 1, 8);
  };
  EXPECT_EQ(trace(4), "2:10 6:11 8:12 10:13 12:14 408:15 412:16 416:17 417:19 418:20 419:21 423:22 424:23 427:24 "
                      "431:25 435:26 436:27 437:27 ");
  EXPECT_EQ(trace(1), "2:10 6:11 8:12 10:13 12:14 408:15 413:16 417:17 418:19 419:20 420:21 425:22 426:23 429:24 "
                      "433:25 437:26 438:27 439:27 ");
}

}  // namespace
}  // namespace lockstep::test
