// The memory hierarchy in the whole model (memory.model = hierarchy): pointer chases timed with
// clock64 against the published latencies of hardware.md §2b, the cache-sensitive case of seed 001
// §3.4.3 (greedy-then-oldest keeps a working set that round robin thrashes), and bit-identical
// figures for any number of SM-stepping threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

std::string kernels_ptx() { return std::string(LOCKSTEP_TEST_DATA) + "/timing/kernels/memory_kernels.ptx"; }

// Cycles per step of a chase over `lines` distinct 128-byte lines of a `footprint`-byte buffer.
uint64_t chase_cycles(Engine& engine, ModuleId m, uint64_t footprint, uint64_t lines, int steps, int warm) {
  const uint64_t buffer = engine.malloc(footprint);
  const uint64_t result = engine.malloc(32);
  std::mt19937_64 rng(42);
  std::vector<uint64_t> order;
  std::vector<bool> used(footprint / 128);
  while (order.size() < lines) {
    const uint64_t l = rng() % used.size();
    if (!used[l]) used[l] = true, order.push_back(l);
  }
  for (uint64_t i = 0; i < lines; ++i) {
    const uint64_t next = buffer + order[(i + 1) % lines] * 128;
    engine.copy_to_device(buffer + order[i] * 128, &next, sizeof next);
  }
  const uint64_t start = buffer + order[0] * 128;
  const LaunchResult r = engine.launch(m, "chase", {1, 1, 1}, {1, 1, 1}, 0,
                                       {KernelArg::of(start), KernelArg::of(steps), KernelArg::of(warm),
                                        KernelArg::of(result), KernelArg::of(result + 8)});
  EXPECT_FALSE(r.fault.has_value());
  uint64_t cycles = 0;
  engine.copy_to_host(&cycles, result, sizeof cycles);
  engine.free(buffer);
  engine.free(result);
  return cycles;
}

struct Published {
  const char* gpu;
  double l1_lo, l1_hi, l2_lo, l2_hi, dram_lo, dram_hi;  // hardware.md §2b, cycles
};

class PointerChase : public ::testing::TestWithParam<Published> {};

// Within 10% of the published range: L1 (16 KiB), L2 (512 KiB, past every L1) and DRAM (cold
// lines of a 128 MiB buffer).
TEST_P(PointerChase, LatenciesWithinTenPercentOfPublished) {
  const Published p = GetParam();
  auto engine = timing_engine(timing_gpu(p.gpu, {"gpu.sm_count=2"}));
  const ModuleId m = engine->load_ptx_file(kernels_ptx());
  const double l1 = static_cast<double>(chase_cycles(*engine, m, 16 << 10, 128, 256, 128));
  const double l2 = static_cast<double>(chase_cycles(*engine, m, 512 << 10, 4096, 256, 4096));
  const double dram = static_cast<double>(chase_cycles(*engine, m, 128 << 20, 256, 256, 0));
  EXPECT_GE(l1, p.l1_lo * 0.9);
  EXPECT_LE(l1, p.l1_hi * 1.1);
  EXPECT_GE(l2, p.l2_lo * 0.9);
  EXPECT_LE(l2, p.l2_hi * 1.1);
  EXPECT_GE(dram, p.dram_lo * 0.9);
  EXPECT_LE(dram, p.dram_hi * 1.1);
  EXPECT_LT(l1, l2);
  EXPECT_LT(l2, dram);
  std::printf("%s: L1 %.0f, L2 %.0f, DRAM %.0f cycles\n", p.gpu, l1, l2, dram);
}

INSTANTIATE_TEST_SUITE_P(Presets, PointerChase,
                         ::testing::Values(Published{"h100", 32, 40, 260, 291, 570, 700},
                                           Published{"a100", 33, 39, 200, 210, 518, 552},
                                           Published{"v100", 28, 36, 193, 221, 425, 460}),
                         [](const auto& param_info) { return std::string(param_info.param.gpu); });

// The far L2 partition (l2.sides = 2): a chase over three quarters of the L2 finds its lines in
// the far half, at GH200's far plateau (hardware.md §2b, 480-512 cycles at 40-50 MB), where a
// single-sided L2 of the same size keeps them all near. The L2 is shrunk to 800 KiB (4 sets a
// slice) so that the chase is short; a chase from SM 0 uses side 0's 40 slices, 400 KiB.
TEST(MemoryHierarchy, AChaseBeyondTheNearHalfFindsItsLinesInTheFarHalf) {
  auto chase = [](const char* sides) {
    auto engine = timing_engine(timing_gpu("h100", {"gpu.sm_count=2", "gpu.l2_kib=800", sides}));
    const ModuleId m = engine->load_ptx_file(kernels_ptx());
    return static_cast<double>(chase_cycles(*engine, m, 600 << 10, 4800, 256, 4800));
  };
  const double far = chase("l2.sides=2"), one_side = chase("l2.sides=1");
  EXPECT_GE(far, 480 * 0.9);
  EXPECT_LE(far, 512 * 1.1);
  EXPECT_LE(one_side, 291 * 1.1);  // the near L2's figure: the whole L2 is near
  std::printf("far-L2 chase: %.0f cycles (one side: %.0f)\n", far, one_side);
}

// Seed 001 §3.4.3: 16 blocks of 8 warps, each warp walking its own 8 lines again and again with
// arithmetic between the loads; four blocks (32 warps) share an SM whose L1 keeps 28 KiB beside
// their shared memory: a few warps' lines, not all of them. Round robin interleaves every warp
// and thrashes the L1; greedy-then-oldest keeps running the warps whose lines are there.
sim::KernelTiming run_sweep(const std::string& scheduler, int lines, int rounds, int work) {
  auto engine = timing_engine(timing_gpu("h100", {"gpu.sm_count=1", "timing.warp_scheduler=" + scheduler}));
  const ModuleId m = engine->load_ptx_file(kernels_ptx());
  const int threads = 256, blocks = 16, warps = blocks * threads / 32;
  std::vector<int> chain(static_cast<size_t>(warps) * lines * 32);
  for (int w = 0; w < warps; ++w)
    for (int l = 0; l < lines; ++l)
      for (int lane = 0; lane < 32; ++lane) chain[(static_cast<size_t>(w) * lines + l) * 32 + lane] = (l + 1) % lines * 32 + lane;
  const uint64_t data = engine->malloc(chain.size() * 4);
  const uint64_t out = engine->malloc(uint64_t{blocks} * threads * 4);
  engine->copy_to_device(data, chain.data(), chain.size() * 4);
  // 50 KiB of shared memory a block: four blocks at once, the L1 gets 28 KiB.
  const LaunchResult r = engine->launch(m, "sweep", {blocks, 1, 1}, {threads, 1, 1}, 50 * 1024,
                                        {KernelArg::of(data), KernelArg::of(out), KernelArg::of(lines),
                                         KernelArg::of(rounds), KernelArg::of(work)});
  EXPECT_FALSE(r.fault.has_value()) << (r.fault ? r.fault->message : "");
  return *r.timing;
}

TEST(MemoryHierarchy, GtoKeepsACacheSensitiveWorkingSetThatLrrThrashes) {
  const int lines = 8, rounds = 8, work = 16;
  const sim::KernelTiming lrr = run_sweep("lrr", lines, rounds, work);
  const sim::KernelTiming gto = run_sweep("gto", lines, rounds, work);
  const uint64_t lrr_misses = lrr.memory.l1.misses + lrr.memory.l1.sector_misses;
  const uint64_t gto_misses = gto.memory.l1.misses + gto.memory.l1.sector_misses;
  std::printf("lrr: %llu cycles, L1 hit %.1f%%, %llu misses; gto: %llu cycles, L1 hit %.1f%%, %llu misses\n",
              static_cast<unsigned long long>(lrr.cycles), 100 * lrr.memory.l1.hit_rate(),
              static_cast<unsigned long long>(lrr_misses), static_cast<unsigned long long>(gto.cycles),
              100 * gto.memory.l1.hit_rate(), static_cast<unsigned long long>(gto_misses));
  EXPECT_EQ(lrr.warp_instructions, gto.warp_instructions);
  EXPECT_GT(lrr_misses, gto_misses * 2);
  EXPECT_GT(lrr.cycles, gto.cycles);
}

// Global loads, stores and atomics through every level: the same outputs and the same figures,
// memory ones included, on 1, 2 and 8 SM-stepping threads.
TEST(MemoryHierarchy, FiguresAreBitIdenticalForAnyThreadCount) {
  const int n = 64 * 1024;
  std::vector<float> in(n);
  std::iota(in.begin(), in.end(), 0.5f);
  std::vector<sim::KernelTiming> timings;
  std::vector<std::vector<float>> outs;
  std::vector<std::vector<unsigned>> counts;
  for (uint32_t threads : {1u, 2u, 8u}) {
    auto engine = timing_engine(timing_gpu("h100", {"gpu.sm_count=16"}), threads);
    const ModuleId m = engine->load_ptx_file(kernels_ptx());
    const uint64_t d_in = engine->malloc(n * 4), d_out = engine->malloc(n * 4), d_counters = engine->malloc(16);
    engine->copy_to_device(d_in, in.data(), n * 4);
    engine->memset(d_counters, 0, 16);
    LaunchResult r;
    for (int launch = 0; launch < 2; ++launch)  // the second finds the L2 warm
      r = engine->launch(m, "mixed", {n / 256, 1, 1}, {256, 1, 1}, 0,
                         {KernelArg::of(d_in), KernelArg::of(d_out), KernelArg::of(d_counters), KernelArg::of(n)});
    timings.push_back(*r.timing);
    outs.emplace_back(n);
    engine->copy_to_host(outs.back().data(), d_out, n * 4);
    counts.emplace_back(4);
    engine->copy_to_host(counts.back().data(), d_counters, 16);
  }
  EXPECT_TRUE(timings[0].memory.modelled);
  EXPECT_GT(timings[0].memory.l2.accesses, 0u);
  EXPECT_EQ(counts[0], (std::vector<unsigned>{2 * n / 4, 2 * n / 4, 2 * n / 4, 2 * n / 4}));
  for (size_t i = 1; i < timings.size(); ++i) {
    EXPECT_TRUE(timings[i] == timings[0]) << "thread count #" << i;
    EXPECT_EQ(outs[i], outs[0]);
    EXPECT_EQ(counts[i], counts[0]);
  }
}

}  // namespace
}  // namespace lockstep::test

namespace lockstep::test {
namespace {

// Seed 004 §2.6 in the whole model: one warp's two shared loads at a stride of 1, 2 or 32 words
// take 1, 2 or 32 passes through the 32 banks each, one pass a cycle. The first load issues at t
// and makes its passes from t + 1; the second issues at t + 4 (the LD/ST pipe's initiation
// interval) and makes its passes after the first's, from t + 5 at the earliest; the add waits for
// the second. So its last pass is at t + 5 (stride 1), t + 6 (stride 2) and t + 64 (stride 32).
TEST(MemoryHierarchy, SharedBankConflictsSerialiseThePasses) {
  auto run = [](uint32_t stride_words) {
    auto engine = timing_engine(timing_gpu("h100", {"gpu.sm_count=1"}));
    const std::string body = fmt::format(R"(  .shared .align 4 .b32 buf[1024];
  mov.u32 %r1, %tid.x;
  mul.lo.u32 %r2, %r1, {};
  mov.u32 %r3, buf;
  add.u32 %r3, %r3, %r2;
  ld.shared.f32 %f1, [%r3];
  ld.shared.f32 %f2, [%r3];
  add.f32 %f1, %f1, %f2;
)",
                                         stride_words * 4);
    return run_timed(*engine, micro_kernel(body), 1, 32);
  };
  const sim::KernelTiming one = run(1), two = run(2), all = run(32);
  EXPECT_EQ(one.memory.shared_accesses, 2u);
  EXPECT_EQ(one.memory.shared_passes, 2u);
  EXPECT_EQ(one.memory.shared_conflict_degree[1], 2u);
  EXPECT_EQ(two.memory.shared_passes, 4u);
  EXPECT_EQ(two.memory.shared_conflict_degree[2], 2u);
  EXPECT_EQ(all.memory.shared_passes, 64u);
  EXPECT_EQ(all.memory.shared_conflict_degree[32], 2u);
  EXPECT_EQ(two.cycles - one.cycles, 1u);
  EXPECT_EQ(all.cycles - one.cycles, 59u);
}

}  // namespace
}  // namespace lockstep::test

namespace lockstep::test {
namespace {

// The constant cache: a warp's ld.const of one address (broadcast) or of 32 distinct ones (a cycle
// each); the first load of a line misses to the L2 and its dependant waits on constant_miss, the
// second load of the same words hits.
sim::KernelTiming run_constant(uint32_t stride_words) {
  const std::string ptx = fmt::format(R"(.version 8.0
.target sm_80
.address_size 64
.const .align 4 .b32 table[1024];
.visible .entry k(.param .u64 out) {{
  .reg .f32 %f<4>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, {};
  mov.u64 %rd1, table;
  add.s64 %rd1, %rd1, %rd2;
  ld.const.f32 %f1, [%rd1];
  add.f32 %f1, %f1, 1.0;
  ld.const.f32 %f2, [%rd1];
  add.f32 %f1, %f1, %f2;
  ld.param.u64 %rd2, [out];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.f32 [%rd2], %f1;
  ret;
}}
)",
                                      stride_words * 4);
  auto engine = timing_engine(timing_gpu("h100", {"gpu.sm_count=1"}));
  const ModuleId m = engine->load_ptx(ptx, "constant.ptx");
  const uint64_t out = engine->malloc(32 * 4);
  const LaunchResult r = engine->launch(m, "k", {1, 1, 1}, {32, 1, 1}, 0, {KernelArg::of(out)});
  EXPECT_FALSE(r.fault.has_value()) << (r.fault ? r.fault->message : "");
  std::vector<float> result(32);
  engine->copy_to_host(result.data(), out, 32 * 4);
  for (float v : result) EXPECT_EQ(v, 1.0f);  // the table holds zeros
  return *r.timing;
}

TEST(MemoryHierarchy, ConstantCacheBroadcastsMissesToTheL2AndChargesConstantMiss) {
  const sim::KernelTiming broadcast = run_constant(0), distinct = run_constant(1);
  const auto constant_miss = static_cast<size_t>(sim::StallReason::kConstantMiss);
  // One address: one lookup per load; the first misses, the second hits.
  EXPECT_EQ(broadcast.memory.constant.accesses, 2u);
  EXPECT_EQ(broadcast.memory.constant.misses, 1u);
  EXPECT_EQ(broadcast.memory.constant.hits, 1u);
  EXPECT_GT(broadcast.warp_stalls[constant_miss], 0u);
  // 32 distinct words of one line: 32 lookups per load, one cycle each (lookups that found the
  // line's MSHR merge list full retried; accesses count the retries too).
  EXPECT_EQ(distinct.memory.constant.accesses - distinct.memory.constant.reservation_fails, 64u);
  EXPECT_EQ(distinct.memory.constant.misses, 1u);
  EXPECT_GT(distinct.cycles, broadcast.cycles + 31);
}

}  // namespace
}  // namespace lockstep::test

namespace lockstep::test {
namespace {

// Instruction-cache misses go through the hierarchy: a kernel's first launch finds its code in
// DRAM, the second finds it in the L2 (which outlives launches), so the same cold I-cache misses
// cost less the second time.
TEST(MemoryHierarchy, InstructionMissesAreServedByTheL2AndDram) {
  auto engine = timing_engine(timing_gpu("h100", {"gpu.sm_count=1"}));
  const ModuleId m = engine->load_ptx(micro_kernel("  mov.f32 %f1, 1.0;\n"), "code.ptx");
  const uint64_t out = engine->malloc(32 * 4);
  const LaunchResult first = engine->launch(m, "k", {1, 1, 1}, {32, 1, 1}, 0, {KernelArg::of(out)});
  const LaunchResult second = engine->launch(m, "k", {1, 1, 1}, {32, 1, 1}, 0, {KernelArg::of(out)});
  ASSERT_TRUE(first.timing && second.timing);
  EXPECT_EQ(first.timing->icache_misses, second.timing->icache_misses);
  EXPECT_GT(first.timing->icache_misses, 0u);
  EXPECT_GT(first.timing->memory.l2.misses, second.timing->memory.l2.misses);
  EXPECT_GT(first.timing->cycles, second.timing->cycles + 200);  // DRAM against L2, per cold line
}

}  // namespace
}  // namespace lockstep::test
