// Issue 5 acceptance, on the teaching preset (2 schedulers, 8-lane warps): enough independent
// warps reach one issue per scheduler per cycle; an SFU-bound kernel runs at the SFU's rate; a
// bank-conflicting operand pattern is slower than a conflict-free one.
#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

std::shared_ptr<const config::GpuConfig> fast_fetch_teaching() {
  return timing_gpu("teaching", {"icache.miss_latency=1"});
}

// k copies of `line` after the movs that give %f1..%f12 a value.
std::string repeated(const std::string& line, int k) {
  std::string body;
  for (int r = 1; r <= 12; ++r) body += fmt::format("  mov.f32 %f{}, 0f3F800000;\n", r);
  for (int i = 0; i < k; ++i) body += "  " + line + "\n";
  return micro_kernel(body);
}

TEST(Throughput, EnoughWarpsIssueOncePerSchedulerPerCycle) {
  // One block of 16 warps: 8 per scheduler, more than the FP32 latency of 4, so each warp's
  // dependent chain never stalls its scheduler: 16 more FFMAs per warp cost 16 x 8 cycles.
  auto engine = timing_engine(fast_fetch_teaching());
  const std::string fma = "fma.rn.f32 %f1, %f1, %f2, %f3;";
  const sim::KernelTiming a = run_timed(*engine, repeated(fma, 16), 1, 128);
  const sim::KernelTiming b = run_timed(*engine, repeated(fma, 32), 1, 128);
  EXPECT_EQ(b.cycles - a.cycles, 16u * 8);
  // With one warp per scheduler the same chain is latency-bound: 16 x 4 cycles.
  const sim::KernelTiming c = run_timed(*engine, repeated(fma, 16), 1, 16);
  const sim::KernelTiming d = run_timed(*engine, repeated(fma, 32), 1, 16);
  EXPECT_EQ(d.cycles - c.cycles, 16u * 4);
}

TEST(Throughput, SfuBoundKernelRunsAtTheSfuRate) {
  // The teaching SFU takes 2 lanes per cycle and one warp instruction every 4 cycles: an
  // 8-lane warp holds it for 4 cycles. 8 warps per scheduler: 16 more sin per warp cost
  // 16 x 8 x 4 cycles, and the warps wait on the busy pipe, not on each other.
  auto engine = timing_engine(fast_fetch_teaching());
  const std::string sin = "sin.approx.f32 %f1, %f1;";
  const sim::KernelTiming a = run_timed(*engine, repeated(sin, 8), 1, 128);
  const sim::KernelTiming b = run_timed(*engine, repeated(sin, 24), 1, 128);
  EXPECT_EQ(b.cycles - a.cycles, 16u * 8 * 4);
  const size_t sfu = static_cast<size_t>(sim::UnitKind::kSfu);
  EXPECT_EQ(b.units[sfu].warp_instructions - a.units[sfu].warp_instructions, 16u * 16);
  EXPECT_EQ(b.units[sfu].busy_cycles - a.units[sfu].busy_cycles, 16u * 16 * 4);
  // Each of the 256 more warp instructions: a round of 8 warps x 4 cycles = 32 warp-cycles:
  // issued 1, waiting 19 for its own result (latency 20), then ready for 12 while the SFU serves
  // the others: picked-over in the 3 cycles the SFU frees for another warp, pipeline-busy in 9.
  auto grew = [&](sim::StallReason r) {
    return b.warp_stalls[static_cast<size_t>(r)] - a.warp_stalls[static_cast<size_t>(r)];
  };
  EXPECT_EQ(grew(sim::StallReason::kIssued), 256u);
  EXPECT_EQ(grew(sim::StallReason::kExecutionDependency), 256u * 19);
  EXPECT_EQ(grew(sim::StallReason::kNotSelected), 256u * 3);
  EXPECT_EQ(grew(sim::StallReason::kPipelineBusy), 256u * 9);
}

TEST(Throughput, BankConflictsDelayDispatch) {
  // 4 banks, bank = (register + warp slot) % 4. %f4, %f8 and %f12 share a bank: their three
  // reads take 3 cycles, 2 more than %f4, %f5, %f6 (one bank each).
  // Compared by what 16 more FFMAs cost, so the prologue (which waits longer for %f12) cancels.
  auto engine = timing_engine(fast_fetch_teaching());
  auto extra = [&](const std::string& fma, auto field) {
    return field(run_timed(*engine, repeated(fma, 32), 1, 8)) - field(run_timed(*engine, repeated(fma, 16), 1, 8));
  };
  const auto cycles = [](const sim::KernelTiming& t) { return t.cycles; };
  const auto conflicts = [](const sim::KernelTiming& t) { return t.bank_conflicts; };
  const std::string free = "fma.rn.f32 %f4, %f4, %f5, %f6;", conflicting = "fma.rn.f32 %f4, %f4, %f8, %f12;";
  EXPECT_EQ(extra(free, cycles), 16u * 4);
  EXPECT_EQ(extra(conflicting, cycles), 16u * 6);
  EXPECT_EQ(extra(free, conflicts), 0u);
  EXPECT_EQ(extra(conflicting, conflicts), 16u * 2);
}

TEST(Throughput, WideBanksServeTwoReadsPerCycle) {
  // BankConflictsDelayDispatch with timing.bank_reads_per_cycle = 2 (a 64-bit-wide bank, as on
  // Volta and later): %f4, %f8 and %f12 in one bank read in 2 cycles instead of 3, so each FFMA
  // of the chain waits 4 + 1 cycles, and one of its reads is a conflict.
  auto engine = timing_engine(timing_gpu("teaching", {"icache.miss_latency=1", "timing.bank_reads_per_cycle=2"}));
  auto extra = [&](const std::string& fma, auto field) {
    return field(run_timed(*engine, repeated(fma, 32), 1, 8)) - field(run_timed(*engine, repeated(fma, 16), 1, 8));
  };
  const auto cycles = [](const sim::KernelTiming& t) { return t.cycles; };
  const auto conflicts = [](const sim::KernelTiming& t) { return t.bank_conflicts; };
  const std::string conflicting = "fma.rn.f32 %f4, %f4, %f8, %f12;";
  EXPECT_EQ(extra(conflicting, cycles), 16u * 5);
  EXPECT_EQ(extra(conflicting, conflicts), 16u * 1);
}

TEST(Throughput, BankMappingDecidesWhetherWarpsShareBanks) {
  // Each warp alternates an FFMA reading %f4, %f8, %f12 (slots 4, 8, 12: one bank, 3 cycles of
  // reads) with an integer add reading %r4, %r8 (slots 20, 24: the same bank) that another unit
  // takes while the FFMA still reads. With bank_mapping = "register" every warp's reads land in
  // that bank; with "warp-offset" the second warp of a scheduler (slot 1) reads the next bank.
  std::string body;
  for (int r = 1; r <= 12; ++r) body += fmt::format("  mov.f32 %f{}, 0f3F800000;\n  mov.u32 %r{}, {};\n", r, r, r);
  for (int i = 0; i < 16; ++i) body += "  fma.rn.f32 %f1, %f4, %f8, %f12;\n  add.s32 %r1, %r4, %r8;\n";
  const std::string ptx = micro_kernel(body);
  auto run = [&](const char* mapping, uint32_t threads) {
    auto engine = timing_engine(timing_gpu("teaching", {"icache.miss_latency=1", std::string("timing.bank_mapping=") + mapping}));
    return run_timed(*engine, ptx, 1, threads);
  };
  // One warp per scheduler (8-lane warps, 2 schedulers): every warp is in slot 0 of its
  // scheduler, where both mappings agree.
  EXPECT_EQ(run("register", 16), run("warp-offset", 16));
  // Two warps per scheduler: sharing the bank costs conflicts and cycles.
  const sim::KernelTiming shared = run("register", 32), offset = run("warp-offset", 32);
  EXPECT_GT(shared.bank_conflicts, offset.bank_conflicts);
  EXPECT_GT(shared.bank_conflict_cycles, offset.bank_conflict_cycles);
  EXPECT_GT(shared.cycles, offset.cycles);
  EXPECT_EQ(shared.warp_instructions, offset.warp_instructions);
}

}  // namespace
}  // namespace lockstep::test
