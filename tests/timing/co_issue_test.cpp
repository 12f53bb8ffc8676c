// The secondary issue path (sim/sm_co_issue.cpp): seed 001 figs 3-19 (sbi) and 3-21 (swi) on
// the teaching preset with 4-lane warps, one block of W0 = T0..T3 and W1 = T4..T7 (the kernels
// of tests/engine/interweaving_kernels.h). The trace lists every issue as "cycle:W<warp><inst>",
// inst being the figure's block and the instruction's index in it (I1.3: I1's fourth); a
// co-issued pair is one entry, "primary+secondary".
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "engine/interweaving_kernels.h"
#include "sim/scoreboard_operands.h"
#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

struct CoIssueRun {
  std::string trace;
  uint64_t cycles = 0;
  LaunchResult result;
};

// Runs `kernel` of `ptx` as one block of expected.size() threads, with out and `args`; checks out.
// `overrides`: more preset settings.
CoIssueRun run_figure(const char* ptx, const char* kernel, const std::string& unit,
                      const std::vector<KernelArg>& args, const std::vector<uint32_t>& expected,
                      const std::vector<std::string>& overrides = {}) {
  std::vector<std::string> settings{"sm.warp_size=4", "sm.divergence=" + unit,
                                    "icache.miss_latency=1"};
  settings.insert(settings.end(), overrides.begin(), overrides.end());
  auto engine = timing_engine(timing_gpu("teaching", settings));
  const ModuleId m = engine->load_ptx(ptx, "figure.ptx");
  const KernelInfo info = engine->kernel_info(m, kernel);
  std::map<uint32_t, std::string> block_at;
  for (const auto& [label, pc] : info.labels) block_at[pc] = label;
  auto inst = [&](uint32_t pc) {
    const auto block = std::prev(block_at.upper_bound(pc));
    return block->second + (pc == block->first ? "" : "." + std::to_string(pc - block->first));
  };
  std::vector<std::pair<uint64_t, std::string>> issued;  // (formed warp number, entry)
  engine->set_trace([&](const TraceEvent& e) {
    const std::string part = "W" + std::to_string(e.warp) + inst(e.pc);
    if (!issued.empty() && e.formed_warp != 0 && issued.back().first == e.formed_warp) {
      issued.back().second += "+" + part;
    } else {
      issued.push_back({e.formed_warp, std::to_string(e.cycle) + ":" + part});
    }
  });
  const uint32_t threads = static_cast<uint32_t>(expected.size());
  const uint64_t buffer = engine->malloc(threads * sizeof(uint32_t));
  std::vector<KernelArg> all{KernelArg::of(buffer)};
  all.insert(all.end(), args.begin(), args.end());
  CoIssueRun r;
  r.result = engine->launch(m, kernel, {1, 1, 1}, {threads, 1, 1}, 0, all);
  EXPECT_FALSE(r.result.fault.has_value()) << (r.result.fault ? r.result.fault->message : "");
  std::vector<uint32_t> out(threads);
  engine->copy_to_host(out.data(), buffer, out.size() * sizeof(uint32_t));
  EXPECT_EQ(out, expected);
  for (const auto& [formed, entry] : issued) r.trace += entry + " ";
  r.cycles = r.result.timing ? r.result.timing->cycles : 0;
  return r;
}

constexpr uint32_t kSbiIfThreads = 1u << 0 | 1u << 3 | 1u << 5 | 1u << 6 | 1u << 7;

CoIssueRun run_sbi(const std::string& unit, const std::vector<std::string>& overrides = {}) {
  return run_figure(kFigure3_19, "sbi", unit, {KernelArg::of<uint32_t>(kSbiIfThreads)},
                    {107, 148, 148, 107, 148, 107, 107, 107}, overrides);
}

constexpr uint32_t kSwiIfThreads = 1u << 0 | 1u << 3 | 1u << 5 | 1u << 6;

CoIssueRun run_swi(const std::string& unit, const std::vector<std::string>& overrides = {}) {
  return run_figure(kIfWithoutElse, "swi", unit, {KernelArg::of<uint32_t>(kSwiIfThreads)},
                    {107, 100, 100, 107, 100, 107, 107, 100}, overrides);
}

// Common to both figures (sm_formation.cpp's rules for a block that forms warps): a block has one
// issue in progress, planned at the start of a cycle, so sbi's and swi's one-warp stacks take
// turns issue by issue, W0 then W1, even though W0 and W1 sit on the two schedulers; a planned
// issue that must wait holds the block. int latency 4, ld.param a constant load of latency 4,
// the LD/ST unit's initiation interval 2; the I-cache misses at 0 and fills at 1. I1 (8
// instructions) is the same in both:
//   2, 3    ld.param.u64 (W0, W1: the warps' turns)
//   4, 5    ld.param.u32; 6, 7 mov %r1, %tid.x; 8, 9 mov %r2, 0
//   10, 11  shr waits for %r1 (6 + 4; W1: 7 + 4); %r4 (ld.param at 4, + 4) is back at 8
//   14, 15  and waits for %r3 (10 + 4); 18, 19 setp waits for %r3 (14 + 4); 22, 23 the branch
//           waits for %p1 (18 + 4)
// Every instruction after I1 reads and writes %r2, so each waits for the one before it.

// Fig 3-19 (d) on the timing model. After each warp's branch its stack's top is the if path I2
// (W0's T0/T3, W1's T5..T7) and the sibling below it the else path I5 (W0's T1/T2, W1's T4):
//   24      W0: I2 with I5 beside it, one issue; both read and write %r2, on complementary
//           lanes: the pair's scoreboard check is for both (%r2 of mov at 8 is long back)
//   25      W1: its pair
//   28      W0: I3 with I5's second add: the pair waits for %r2, which the pair at 24 writes
//           (24 + 4); the sibling's instruction is read at its PC, not from the I-buffer, which
//           holds the if path
//   29      W1: its pair (25 + 4)
//   32, 33  I4's add alone: the sibling has reached I6 (PCrec) and waits there (fig 3-19 d);
//           %r2 of the pair at 28 (+ 4)
//   34, 35  I4's bra I6 (no operand to wait for: the warps' turns)
//   36, 37  I6's add, all four lanes reconverged: %r2 of I4's add at 32 (+ 4); the bra's
//           refetch of I6 (fetched at 34, in the I-buffer from 35) is not what holds it
//   38, 39  mul.wide (turns); 42, 43 add.s64 waits for %rd2 (38 + 4); 46, 47 st waits for
//           %rd3 (42 + 4); 48, 49 ret; 50, 51 the exit
//   448     the block ends when W1's store completes: 47 + global_latency 400 = 447
// Two pairs per warp save two issues per warp against the SIMT stack, whose run ends at 452.
TEST(CoIssue, SimultaneousBranchInterweavingFigure3_19) {
  const CoIssueRun r = run_sbi("sbi");
  EXPECT_EQ(
      r.trace,
      "2:W0I1 3:W1I1 4:W0I1.1 5:W1I1.1 6:W0I1.2 7:W1I1.2 8:W0I1.3 9:W1I1.3 10:W0I1.4 11:W1I1.4 "
      "14:W0I1.5 15:W1I1.5 18:W0I1.6 19:W1I1.6 22:W0I1.7 23:W1I1.7 24:W0I2+W0I5 25:W1I2+W1I5 "
      "28:W0I3+W0I5.1 29:W1I3+W1I5.1 32:W0I4 33:W1I4 34:W0I4.1 35:W1I4.1 36:W0I6 37:W1I6 "
      "38:W0I6.1 39:W1I6.1 42:W0I6.2 43:W1I6.2 46:W0I6.3 47:W1I6.3 48:W0I6.4 49:W1I6.4 "
      "50:W0I6.5 51:W1I6.5 ");
  EXPECT_EQ(r.cycles, 448u);
  EXPECT_EQ(r.result.warp_instructions, 2u * (8 + 1 + 1 + 2 + 6));
  EXPECT_EQ(r.result.divergence.formed_warps, 4u);
  EXPECT_EQ(run_sbi("ipdom-stack").cycles, 452u);
}

// Fig 3-21 on the timing model: an if without an else, W0's T0/T3 and W1's T5/T6 on I2..I4.
//   24      W0: I2 alone: W1 waits at I2 too, the same PC (dwf's to merge, not swi's)
//   28      W1: I2 with W0's I3 beside it, at another PC on lanes W1 leaves idle. The pair waits
//           for its slower half: W0's I3 reads %r2 of W0's I2 (24 + 4), though W1's I2 alone
//           could have gone at 25; W0's I3 issues from the head of W0's own I-buffer and
//           reserves in W0's scoreboard row
//   32      W0: I4 with W1's I3: %r2 of each warp's instruction at 28 (+ 4)
//   36      W1: I4 alone (W0 is at I5 with all four lanes: none left idle); %r2 of 32 (+ 4)
//   37      W0: I5's add (%r2 of W0's I4 at 32 is back at 36, W1's turn)
//   40      W1: I5's add waits for %r2 of its I4 (36 + 4), holding the block: W0's mul.wide,
//           ready since 38, waits its turn
//   41, 42  mul.wide; 45, 46 add.s64 waits for %rd2 (41 + 4; 42 + 4); 49, 50 st waits for
//           %rd3; 51, 52 ret; 53, 54 the exit
//   451     the block ends when W1's store completes: 50 + 400 = 450
// sbi finds no sibling in an if without an else: each warp runs its path alone and the block ends
// at 448, 3 cycles sooner. Two fewer issues do not pay here: the pair at 28 waited 3 cycles for
// W0's half, and W1's planned add at 38..40 held W0 back.
TEST(CoIssue, SimultaneousWarpInterweavingFigure3_21) {
  const CoIssueRun r = run_swi("swi");
  EXPECT_EQ(
      r.trace,
      "2:W0I1 3:W1I1 4:W0I1.1 5:W1I1.1 6:W0I1.2 7:W1I1.2 8:W0I1.3 9:W1I1.3 10:W0I1.4 11:W1I1.4 "
      "14:W0I1.5 15:W1I1.5 18:W0I1.6 19:W1I1.6 22:W0I1.7 23:W1I1.7 24:W0I2 28:W1I2+W0I3 "
      "32:W0I4+W1I3 36:W1I4 37:W0I5 40:W1I5 41:W0I5.1 42:W1I5.1 45:W0I5.2 46:W1I5.2 "
      "49:W0I5.3 50:W1I5.3 51:W0I5.4 52:W1I5.4 53:W0I5.5 54:W1I5.5 ");
  EXPECT_EQ(r.cycles, 451u);
  EXPECT_EQ(r.result.warp_instructions, 2u * (8 + 3 + 6) - 2);
  EXPECT_EQ(r.result.divergence.formed_warps, 2u);
  const CoIssueRun alone = run_swi("sbi");
  EXPECT_EQ(alone.trace.find('+'), std::string::npos);
  EXPECT_EQ(alone.cycles, 448u);
}

// A sibling on another unit, and the join waiting for both paths (sm_co_issue.cpp): one 4-lane
// warp, T1..T3 add on the FP32 unit (f1 = tid + 1), T0 takes ex2 on the SFU (2^0 = 1); the
// lanes meet at JOIN, whose cvt reads %f1. Cycle by cycle:
//   2       A's ld.param (I-cache fill at 1); 3 mov %r1, %tid.x
//   7, 8    cvt waits for %r1 (3 + 4); setp the cycle after (one issue per cycle)
//   12      the branch waits for %p1 (8 + 4)
//   13      IF's add.f32 with ELSE's ex2 beside it: another unit, whose issue slot is free, so
//           the pair goes out (%f1 of cvt at 7 is back at 11)
//   14      IF's bra JOIN alone: the sibling waits at JOIN (PCrec)
//   33      JOIN's cvt: the pair's writes (%f1, one register for both paths' lanes) are
//           released when the later path completes: the SFU's 20 cycles (13 + 20), not the
//           FP32 unit's 4
//   34      mul.wide; 38 add.s64 waits for %rd2 (34 + 4); 42 st waits for %rd3 (38 + 4); 43 ret;
//           44 the exit
//   444     the store's sources %rd3 and %r2 share a register bank (4 banks, one read a cycle:
//           the run's one bank conflict), so it dispatches at 43, + global_latency 400
// Under the SIMT stack ELSE's ex2 issues at 17 (the taken path after the bra at 14, refetched)
// and JOIN at 37 (17 + 20): four cycles later to the end.
TEST(CoIssue, SiblingOnAnotherUnitAndTheJoinWaitsForBoth) {
  constexpr const char* kUnits = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<4>;
A:
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra ELSE;
IF:
  add.f32 %f1, %f1, 0f3F800000;
  bra JOIN;
ELSE:
  ex2.approx.f32 %f1, %f1;
JOIN:
  cvt.rzi.u32.f32 %r2, %f1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";
  const CoIssueRun r = run_figure(kUnits, "k", "sbi", {}, {1, 2, 3, 4});
  EXPECT_EQ(r.trace,
            "2:W0A 3:W0A.1 7:W0A.2 8:W0A.3 12:W0A.4 13:W0IF+W0ELSE 14:W0IF.1 33:W0JOIN 34:W0JOIN.1 "
            "38:W0JOIN.2 42:W0JOIN.3 43:W0JOIN.4 44:W0JOIN.5 ");
  EXPECT_EQ(r.cycles, 444u);
  ASSERT_TRUE(r.result.timing.has_value());
  EXPECT_EQ(r.result.timing->bank_conflicts, 1u);
  const CoIssueRun stack = run_figure(kUnits, "k", "ipdom-stack", {}, {1, 2, 3, 4});
  EXPECT_EQ(
      stack.trace,
      "2:W0A 3:W0A.1 7:W0A.2 8:W0A.3 12:W0A.4 13:W0IF 14:W0IF.1 17:W0ELSE 37:W0JOIN 38:W0JOIN.1 "
      "42:W0JOIN.2 46:W0JOIN.3 47:W0JOIN.4 48:W0JOIN.5 ");
  EXPECT_EQ(stack.cycles, 448u);
}

// The rid-table scoreboard (seed 001 fig 3-32) runs the same pairs in the same cycles: an sbi
// pair is one more decoded instruction of its warp (its own token) and reserves one entry per
// destination range of the two paths together (the figures' pairs: %r2 once). With one entry
// per warp the writes of I1 queue behind each other (table full), but the pairs are the same.
TEST(CoIssue, RidTableScoreboardRunsTheSamePairs) {
  const std::vector<std::string> rid{"timing.scoreboard=rid-table"};
  EXPECT_EQ(run_sbi("sbi", rid).trace, run_sbi("sbi").trace);
  EXPECT_EQ(run_swi("swi", rid).trace, run_swi("swi").trace);
  const CoIssueRun one = run_sbi("sbi", {"timing.scoreboard=rid-table", "timing.rid_entries=1"});
  EXPECT_EQ(one.result.warp_instructions, 2u * (8 + 1 + 1 + 2 + 6));
  EXPECT_EQ(one.result.divergence.formed_warps, 4u);
  EXPECT_NE(one.trace.find("W0I3+W0I5.1"), std::string::npos);
}

// The scoreboard's view of an sbi pair (sm_co_issue.cpp): every register either instruction reads
// or writes, overlapping and touching ranges merged, the tail folded past the limits.
TEST(CoIssue, PairOperandsCoverBothPaths) {
  sim::InstOperands a, b;
  a.write(2).read(2).read(7, 2);
  b.write(2).write(3).read(2).read(9).read(20);
  const sim::InstOperands j = sim::joined_operands(a, b);
  ASSERT_EQ(j.dst_count, 1u);
  EXPECT_EQ(j.dst[0], (sim::RegRange{2, 2}));  // r2 (both) and r3 touch
  ASSERT_EQ(j.src_count, 3u);
  EXPECT_EQ(j.src[0], (sim::RegRange{2, 1}));
  EXPECT_EQ(j.src[1], (sim::RegRange{7, 3}));  // r7..r8 and r9
  EXPECT_EQ(j.src[2], (sim::RegRange{20, 1}));
  // A rid-table of 2 entries: three destination ranges fold into two, the last covering r8..r12.
  sim::InstOperands c, d;
  c.write(0).write(8);
  d.write(12);
  const sim::InstOperands f = sim::joined_operands(c, d, 2);
  ASSERT_EQ(f.dst_count, 2u);
  EXPECT_EQ(f.dst[0], (sim::RegRange{0, 1}));
  EXPECT_EQ(f.dst[1], (sim::RegRange{8, 5}));
}

}  // namespace
}  // namespace lockstep::test
