// Formed warps in the timing model (sim/sm_formation.cpp): seed 001 figs 3-14 (dwf) and 3-16
// (tbc), two 4-lane warps W0 = T0..T3, W1 = T4..T7 on the teaching preset, one block. T0, T6, T7
// run B, T1..T5 run C, all meet at D. The trace lists every issue as "cycle:line:warps", warps
// being the home warps with threads in the formed warp ("01": W0 and W1 merged), one entry per
// formed warp, in the order they were formed.
#include <map>
#include <string>
#include <vector>

#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

constexpr const char* kIfElse = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .pred %p<4>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  setp.eq.u32 %p1, %r1, 0;
  setp.ge.u32 %p2, %r1, 6;
  or.pred %p3, %p1, %p2;
  @!%p3 bra C;
  add.u32 %r2, %r2, 1;
  bra D;
C:
  add.u32 %r2, %r2, 10;
D:
  add.u32 %r2, %r2, 100;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

struct FormedRun {
  std::string trace;
  uint64_t cycles = 0;
};

FormedRun run_unit(const std::string& unit) {
  auto engine = timing_engine(timing_gpu("teaching", {"sm.warp_size=4", "sm.divergence=" + unit, "icache.miss_latency=1"}));
  // Per formed warp (numbered per block): its cycle, line and home warps.
  std::map<uint64_t, std::string> formed;
  engine->set_trace([&](const TraceEvent& e) {
    std::string& entry = formed[e.formed_warp];
    if (entry.empty()) entry = fmt::format("{}:{}:", e.cycle, e.ptx_line);
    entry += std::to_string(e.warp);
  });
  const ModuleId m = engine->load_ptx(kIfElse, "ifelse.ptx");
  const uint64_t buffer = engine->malloc(8 * sizeof(uint32_t));
  const LaunchResult r = engine->launch(m, "k", {1, 1, 1}, {8, 1, 1}, 0, {KernelArg::of(buffer)});
  EXPECT_FALSE(r.fault.has_value()) << (r.fault ? r.fault->message : "");
  std::vector<uint32_t> out(8);
  engine->copy_to_host(out.data(), buffer, out.size() * sizeof(uint32_t));
  EXPECT_EQ(out, (std::vector<uint32_t>{101, 110, 110, 110, 110, 110, 101, 101}));
  FormedRun result;
  for (const auto& [number, entry] : formed) result.trace += entry + " ";
  result.cycles = r.timing ? r.timing->cycles : 0;
  return result;
}

// The rules (sm_formation.cpp): a formed warp issues through its first part's home warp's
// scheduler (teaching: 2 schedulers, W0 on the first, W1 on the second), so two formed warps of
// one issue may go out in the same cycle; the first of an issue waits for every member's I-buffer
// and scoreboard; the writes complete when the issue's last formed warp does (int latency 4; a
// dependent instruction issues in the writeback's cycle). Cycle by cycle:
//   2-4     A's ld.param, mov, mov: both warps full, so dwf's LUT and tbc's compaction both make
//           two formed warps [T0..T3] and [T4..T7], issued together by the two schedulers
//           (fetch: the I-cache misses at 0, fills at 1, as under any unit)
//   7, 8    setp.eq and setp.ge wait for %r1 (mov at 3, + 4)
//   12, 16  or.pred waits for %p2 (8 + 4), the branch for %p3 (12 + 4)
//   17, 18  B's add and bra D: ONE formed warp [T0 - T6 T7] (warps "01"), the cycle after the
//           branch (both warps' I-buffers already hold the fall-through)
//   21      C's add: [T4 T1 T2 T3] (warps "01") and [- T5 - -] (W1) in the same cycle, through
//           W0's and W1's schedulers; 3 cycles after bra D moved both warps (refetch, as the
//           taken path after a branch under the SIMT stack: tests/timing/divergence_cost_test),
//           and %r2, which B's merged warp wrote in both warps' scoreboards, is back at 17 + 4
//   25      D's add waits for %r2 of C's add, whose last formed warp issued at 21 (+ 4); all
//           eight threads at D: two full warps again
//   26-36   mul.wide (26), add.s64 waits for %rd2 (30), st for %rd3 (34), ret (35), exit (36)
//   435     the block ends when the store completes: 34 + global_latency 400 = 434
// Both rules give this trace for the figure: fig 3-14 and fig 3-16 form the same warps.
constexpr const char* kFigureTrace =
    "2:8:0 2:8:1 3:9:0 3:9:1 4:10:0 4:10:1 7:11:0 7:11:1 8:12:0 8:12:1 12:13:0 12:13:1 16:14:0 16:14:1 "
    "17:15:01 18:16:01 21:18:01 21:18:1 25:20:0 25:20:1 26:21:0 26:21:1 30:22:0 30:22:1 34:23:0 34:23:1 "
    "35:24:0 35:24:1 36:24:0 36:24:1 ";

TEST(FormedWarps, DynamicWarpFormationFigure3_14) {
  const FormedRun r = run_unit("dwf");
  EXPECT_EQ(r.trace, kFigureTrace);
  EXPECT_EQ(r.cycles, 435u);
}

TEST(FormedWarps, ThreadBlockCompactionFigure3_16) {
  const FormedRun r = run_unit("tbc");
  EXPECT_EQ(r.trace, kFigureTrace);
  EXPECT_EQ(r.cycles, 435u);
}


// Joined scoreboards: T5 alone (W1) loads %r3 from global memory (400 cycles); then T0 and T5
// add to %r3 in ONE formed warp [T0 T5 - -], led by W0, whose own scoreboard has no write
// pending. The formed warp still waits for W1's load: it issues in the cycle the load's result
// is written back (under the SIMT stack W0's T0 would not wait).
TEST(FormedWarps, FormedWarpWaitsForEveryMembersScoreboard) {
  constexpr const char* kJoined = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, 0;
  setp.ne.u32 %p1, %r1, 5;
  @%p1 bra SKIP;
  ld.global.u32 %r3, [%rd1];
SKIP:
  setp.eq.u32 %p2, %r1, 0;
  setp.eq.u32 %p3, %r1, 5;
  or.pred %p2, %p2, %p3;
  @!%p2 bra DONE;
  add.u32 %r3, %r3, 1;
DONE:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";
  for (const char* unit : {"dwf", "tbc"}) {
    SCOPED_TRACE(unit);
    auto engine =
        timing_engine(timing_gpu("teaching", {"sm.warp_size=4", std::string("sm.divergence=") + unit}));
    uint64_t load = 0, add = 0;
    std::string add_warps;
    engine->set_trace([&](const TraceEvent& e) {
      if (e.ptx_line == 13) load = e.cycle;
      if (e.ptx_line == 19) add = e.cycle, add_warps += std::to_string(e.warp);
    });
    const ModuleId m = engine->load_ptx(kJoined, "joined.ptx");
    const uint64_t buffer = engine->malloc(8 * sizeof(uint32_t));
    const std::vector<uint32_t> zeros(8, 0);
    engine->copy_to_device(buffer, zeros.data(), zeros.size() * sizeof(uint32_t));
    const LaunchResult r = engine->launch(m, "k", {1, 1, 1}, {8, 1, 1}, 0, {KernelArg::of(buffer)});
    EXPECT_FALSE(r.fault.has_value());
    std::vector<uint32_t> out(8);
    engine->copy_to_host(out.data(), buffer, out.size() * sizeof(uint32_t));
    EXPECT_EQ(out, (std::vector<uint32_t>{1, 0, 0, 0, 0, 1, 0, 0}));
    EXPECT_EQ(add_warps, "01");  // one formed warp with T0 (W0) and T5 (W1)
    // Exactly in the load's writeback cycle (global_latency 400; the I-cache's 200-cycle misses
    // put the load at 211).
    EXPECT_EQ(load, 211u);
    EXPECT_EQ(add, load + 400);
  }
}

}  // namespace
}  // namespace lockstep::test
