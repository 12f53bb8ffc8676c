// Cooperative launches: every block of the grid resident at once and run in epochs, a grid
// workspace in %envreg1:%envreg2 as the cooperative-groups headers expect, a grid barrier
// written by hand the way nvcc compiles cg::this_grid().sync(), deterministic interleaving,
// and the deadlock reports of grids that can never finish.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr const char* kHeader = ".version 9.0\n.target sm_80\n.address_size 64\n";

// grid_sync(): the sequence nvcc emits for cg::this_grid().sync() on sm_70+. Thread 0 of each
// block adds 1 to the workspace's barrier word (block 0 adds 0x80000000 - (blocks - 1), so the
// top bit flips when the last block arrives) and spins until the top bit differs from what
// its own add returned.
// exchange(data, out), thread 0 of each block b of n blocks:
//   data[b] = 10b + 1;  sync;  out[b] = data[(b + 1) % n];  sync;
//   out[n + b] = out[(b + n - 1) % n];  out[2n + b] = workspace size word.
// Without a working grid barrier block 0 would read data[1] before block 1 wrote it.
constexpr const char* kExchange = R"(
.func grid_sync()
{
  .reg .pred %q<3>;
  .reg .b32 %s<12>;
  .reg .b64 %sd<4>;
  bar.sync 0;
  mov.u32 %s1, %tid.x;
  setp.ne.u32 %q1, %s1, 0;
  @%q1 bra SYNC_DONE;
  mov.u32 %s2, %envreg1;
  mov.u32 %s3, %envreg2;
  cvt.u64.u32 %sd1, %s2;
  cvt.u64.u32 %sd2, %s3;
  shl.b64 %sd1, %sd1, 32;
  or.b64 %sd3, %sd1, %sd2;
  mov.u32 %s4, %ctaid.x;
  mov.u32 %s5, %nctaid.x;
  setp.eq.u32 %q2, %s4, 0;
  mov.u32 %s6, -2147483647;
  sub.s32 %s6, %s6, %s5;
  selp.b32 %s7, %s6, 1, %q2;
  atom.add.release.gpu.u32 %s8, [%sd3+4], %s7;
SPIN:
  ld.acquire.gpu.u32 %s9, [%sd3+4];
  xor.b32 %s10, %s9, %s8;
  setp.gt.s32 %q1, %s10, -1;
  @%q1 bra SPIN;
SYNC_DONE:
  bar.sync 0;
  ret;
}

.visible .entry exchange(.param .u64 data, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [data];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %nctaid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra PHASE2;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  mad.lo.u32 %r4, %r2, 10, 1;
  st.global.u32 [%rd4], %r4;
PHASE2:
  call.uni grid_sync, ();
  @%p1 bra PHASE3;
  add.u32 %r5, %r2, 1;
  rem.u32 %r5, %r5, %r3;
  mul.wide.u32 %rd5, %r5, 4;
  add.s64 %rd6, %rd1, %rd5;
  ld.global.u32 %r6, [%rd6];
  mul.wide.u32 %rd7, %r2, 4;
  add.s64 %rd8, %rd2, %rd7;
  st.global.u32 [%rd8], %r6;
PHASE3:
  call.uni grid_sync, ();
  @%p1 bra END;
  add.u32 %r7, %r2, %r3;
  sub.u32 %r7, %r7, 1;
  rem.u32 %r7, %r7, %r3;
  mul.wide.u32 %rd9, %r7, 4;
  add.s64 %rd10, %rd2, %rd9;
  ld.global.u32 %r8, [%rd10];
  add.u32 %r9, %r2, %r3;
  mul.wide.u32 %rd11, %r9, 4;
  add.s64 %rd12, %rd2, %rd11;
  st.global.u32 [%rd12], %r8;
  mov.u32 %r10, %envreg1;
  mov.u32 %r11, %envreg2;
  cvt.u64.u32 %rd13, %r10;
  cvt.u64.u32 %rd14, %r11;
  shl.b64 %rd13, %rd13, 32;
  or.b64 %rd13, %rd13, %rd14;
  ld.global.u32 %r12, [%rd13];
  add.u32 %r13, %r9, %r3;
  mul.wide.u32 %rd15, %r13, 4;
  add.s64 %rd15, %rd2, %rd15;
  st.global.u32 [%rd15], %r12;
END:
  ret;
}
)";

std::vector<uint32_t> expected_exchange(uint32_t n) {
  std::vector<uint32_t> out(3 * n);
  for (uint32_t b = 0; b < n; ++b) {
    out[b] = ((b + 1) % n) * 10 + 1;
    out[n + b] = b * 10 + 1;
    out[2 * n + b] = 8;  // sizeof(struct {u32 size; u32 barrier;})
  }
  return out;
}

LaunchOptions cooperative() {
  LaunchOptions o;
  o.cooperative = true;
  return o;
}

struct ExchangeRun {
  std::vector<uint32_t> out;
  LaunchResult result;
};

ExchangeRun run_exchange(uint32_t blocks, uint32_t threads, EngineOptions engine_options = {}) {
  Engine engine(engine_options);
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kExchange, "exchange.ptx");
  test::DeviceBuffer<uint32_t> data(engine, std::vector<uint32_t>(blocks, 0));
  test::DeviceBuffer<uint32_t> out(engine, std::vector<uint32_t>(3 * blocks, 0xdeadbeefu));
  ExchangeRun run;
  run.result = engine.launch(m, "exchange", {blocks, 1, 1}, {threads, 1, 1}, 0, {data.arg(), out.arg()}, cooperative());
  EXPECT_FALSE(run.result.fault.has_value()) << (run.result.fault ? run.result.fault->message : "");
  run.out = out.download();
  return run;
}

TEST(CooperativeGrid, HandWrittenGridBarrierOrdersBlocks) {
  for (uint32_t blocks : {1u, 2u, 5u, 16u}) {
    for (uint32_t threads : {32u, 96u}) {
      EXPECT_EQ(run_exchange(blocks, threads).out, expected_exchange(blocks))
          << blocks << " blocks of " << threads << " threads";
    }
  }
}

TEST(CooperativeGrid, WorksAtOtherWarpSizesAndShortTimeSlices) {
  for (uint32_t width : {8u, 64u}) {
    EngineOptions o;
    o.warp_size = width;
    o.time_slice = 3;
    EXPECT_EQ(run_exchange(6, 64, o).out, expected_exchange(6)) << "warp size " << width;
  }
}

// Blocks run in epochs whose parked instructions commit in block order, so instruction counts
// repeat exactly: here 4 blocks of two warps.
TEST(CooperativeGrid, InterleavingIsDeterministic) {
  const ExchangeRun first = run_exchange(4, 64);
  const ExchangeRun second = run_exchange(4, 64);
  EXPECT_EQ(first.result.warp_instructions, second.result.warp_instructions);
  EXPECT_EQ(first.result.thread_instructions, second.result.thread_instructions);
  // The count the former round-robin runner gave too: a block's arrival at the grid barrier
  // parks, and the epoch that commits the last arrival leaves each waiting block one load.
  EXPECT_EQ(first.result.warp_instructions, 484u);
  EXPECT_EQ(first.result.thread_instructions, 7152u);
}

// %envreg0..31 read what the launch options say; CUDA gives 0 outside cooperative launches.
constexpr const char* kEnvRegs = R"(
.visible .entry envregs(.param .u64 out)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %envreg0;
  mov.u32 %r2, %envreg1;
  mov.u32 %r3, %envreg2;
  mov.u32 %r4, %envreg31;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  ret;
}
)";

TEST(CooperativeGrid, EnvRegsAreZeroInOrdinaryLaunchesAndSettable) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kEnvRegs, "envregs.ptx");
  test::DeviceBuffer<uint32_t> out(engine, std::vector<uint32_t>(4, 0xdeadbeefu));
  test::launch_ok(engine, m, "envregs", {1, 1, 1}, {1, 1, 1}, {out.arg()});
  EXPECT_EQ(out.download(), (std::vector<uint32_t>{0, 0, 0, 0}));

  LaunchOptions o;
  o.envreg[0] = 7;
  o.envreg[2] = 9;
  o.envreg[31] = 0xabcdu;
  const LaunchResult r = engine.launch(m, "envregs", {1, 1, 1}, {1, 1, 1}, 0, {out.arg()}, o);
  EXPECT_FALSE(r.fault.has_value());
  EXPECT_EQ(out.download(), (std::vector<uint32_t>{7, 0, 9, 0xabcdu}));

  // A cooperative launch puts the workspace address there instead (a global allocation).
  const LaunchResult c = engine.launch(m, "envregs", {1, 1, 1}, {1, 1, 1}, 0, {out.arg()}, cooperative());
  EXPECT_FALSE(c.fault.has_value());
  const std::vector<uint32_t> v = out.download();
  const uint64_t workspace = (uint64_t{v[1]} << 32) | v[2];
  EXPECT_EQ(v[0], 0u);
  EXPECT_GE(workspace, 0x0000'7000'0000'0000ull);
  EXPECT_EQ(v[3], 0u);
}

// Block 1 waits for a flag that only block 0 could set, and block 0 never does: the grid
// repeats its state round after round with no global store, which is reported as a deadlock
// naming every warp that is still there.
constexpr const char* kWaitForever = R"(
.visible .entry wait_flag(.param .u64 flag)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [flag];
  mov.u32 %r1, %ctaid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u32 %r2, %tid.x;
  setp.ne.u32 %p2, %r2, 0;
  @%p2 bra WAIT;
SPIN:
  ld.volatile.global.u32 %r3, [%rd1];
  setp.eq.u32 %p1, %r3, 0;
  @%p1 bra SPIN;
WAIT:
  bar.sync 0;
DONE:
  ret;
}
)";

TEST(CooperativeGrid, SpinThatNobodyReleasesIsADeadlock) {
  // The SIMT stack: thread 0 spins on top of the stack while its warp's other lanes wait at the
  // reconvergence point (under branch-barrier it would yield to them after sm.yield_after spins).
  EngineOptions options;
  options.divergence = "ipdom-stack";
  Engine engine(options);
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kWaitForever, "wait_flag.ptx");
  test::DeviceBuffer<uint32_t> flag(engine, std::vector<uint32_t>{0});
  const LaunchResult r = engine.launch(m, "wait_flag", {2, 1, 1}, {64, 1, 1}, 0, {flag.arg()}, cooperative());
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "deadlock");
  EXPECT_EQ(r.fault->message,
            "deadlock in kernel 'wait_flag', block (1,0,0), thread (0,0,0), pc 8 (wait_flag.ptx:19): no thread "
            "block of the cooperative launch can make progress: a round of every block wrote no global memory and "
            "returned the grid to an earlier state\n"
            "  block (1,0,0) warp 0: pc 8 active 0x1 running; divergence: [pc 7 reconverge 10 mask 0x1] "
            "[pc 10 reconverge 10 mask 0xfffffffe] [pc 10 reconverge - mask 0xffffffff]\n"
            "  block (1,0,0) warp 1: pc 10 active 0xffffffff waiting at barrier 0");
  // The first epoch retires block 0; block 1, left alone, spins in epochs of 512 warp
  // instructions, and its state after the second repeats the first's.
  EXPECT_EQ(r.warp_instructions, 1552u);
}

TEST(CooperativeGrid, DeadlockReportOfManyWarpsListsEachStateOnce) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kWaitForever, "wait_flag.ptx");
  test::DeviceBuffer<uint32_t> flag(engine, std::vector<uint32_t>{0});
  const LaunchResult r = engine.launch(m, "wait_flag", {20, 1, 1}, {64, 1, 1}, 0, {flag.arg()}, cooperative());
  ASSERT_TRUE(r.fault.has_value());
  const std::string& text = r.fault->message;
  // Blocks 1-19, two warps each: thread 0 of each spins (the divergence unit's state is the same
  // in every block), the rest of its block waits at the barrier.
  const std::string spinning = "  block (1,0,0) warp 0: pc 8 active 0x1 running; divergence: ";
  const std::string waiting =
      "  block (1,0,0) warp 1: pc 10 active 0xffffffff waiting at barrier 0 (and 18 more warps alike)";
  const std::string lines = text.substr(text.find('\n') + 1);
  ASSERT_EQ(std::count(lines.begin(), lines.end(), '\n'), 1);
  const std::string first = lines.substr(0, lines.find('\n'));
  EXPECT_EQ(first.substr(0, spinning.size()), spinning);
  EXPECT_TRUE(first.ends_with("] (and 18 more warps alike)")) << first;
  EXPECT_EQ(lines.substr(lines.find('\n') + 1), waiting);
}

// A spin that counts its iterations never repeats a state; the instruction budget ends it.
constexpr const char* kCountForever = R"(
.visible .entry count_forever(.param .u64 flag)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [flag];
  mov.u32 %r2, 0;
SPIN:
  add.u32 %r2, %r2, 1;
  ld.volatile.global.u32 %r1, [%rd1];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra SPIN;
  ret;
}
)";

TEST(CooperativeGrid, InstructionBudgetEndsASpinThatNeverRepeats) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kCountForever, "count.ptx");
  test::DeviceBuffer<uint32_t> flag(engine, std::vector<uint32_t>{0});
  LaunchOptions o = cooperative();
  o.instruction_budget = 20000;
  const LaunchResult r = engine.launch(m, "count_forever", {2, 1, 1}, {32, 1, 1}, 0, {flag.arg()}, o);
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->message,
            "deadlock in kernel 'count_forever', block (0,0,0), thread (0,0,0), pc 4 (count.ptx:15): the "
            "cooperative launch ran 20480 warp instructions, more than its budget of 20000, without finishing\n"
            "  block (0,0,0) warp 0: pc 4 active 0xffffffff running\n"
            "  block (1,0,0) warp 0: pc 4 active 0xffffffff running");
  // Checked after each epoch: two blocks of 512 warp instructions each, 20 epochs.
  EXPECT_EQ(r.warp_instructions, 20480u);
}

// Cooperative launches run on the wave runner (func/wave_runner.h) with every block resident:
// what they compute, their counts and their deadlock reports are the same on any number of
// host threads.
TEST(CooperativeGrid, ResultsDoNotDependOnTheThreadCount) {
  struct Outcome {
    ExchangeRun exchange;
    LaunchResult stuck, budget;
  };
  auto outcome = [](uint32_t threads) {
    EngineOptions o;
    o.sim_threads = threads;
    Outcome out{run_exchange(16, 96, o), {}, {}};
    Engine engine(o);
    const ModuleId wait = engine.load_ptx(std::string(kHeader) + kWaitForever, "wait_flag.ptx");
    const ModuleId count = engine.load_ptx(std::string(kHeader) + kCountForever, "count.ptx");
    test::DeviceBuffer<uint32_t> flag(engine, std::vector<uint32_t>{0});
    out.stuck = engine.launch(wait, "wait_flag", {20, 1, 1}, {64, 1, 1}, 0, {flag.arg()}, cooperative());
    LaunchOptions budget = cooperative();
    budget.instruction_budget = 50000;
    out.budget = engine.launch(count, "count_forever", {8, 1, 1}, {64, 1, 1}, 0, {flag.arg()}, budget);
    return out;
  };
  const Outcome one = outcome(1);
  EXPECT_EQ(one.exchange.out, expected_exchange(16));
  ASSERT_TRUE(one.stuck.fault.has_value());
  ASSERT_TRUE(one.budget.fault.has_value());
  for (uint32_t threads : {2u, 8u}) {
    const Outcome other = outcome(threads);
    EXPECT_EQ(other.exchange.out, one.exchange.out) << threads << " threads";
    EXPECT_EQ(other.exchange.result.warp_instructions, one.exchange.result.warp_instructions) << threads;
    EXPECT_EQ(other.exchange.result.thread_instructions, one.exchange.result.thread_instructions) << threads;
    for (auto [a, b] : {std::pair{&one.stuck, &other.stuck}, std::pair{&one.budget, &other.budget}}) {
      ASSERT_TRUE(b->fault.has_value()) << threads;
      EXPECT_EQ(b->fault->message, a->fault->message) << threads;
      EXPECT_EQ(b->warp_instructions, a->warp_instructions) << threads;
    }
  }
}

// A CTA barrier that cannot complete inside one block of a cooperative grid is reported as in
// an ordinary launch, located in that block.
constexpr const char* kBlockBarrierStuck = R"(
.visible .entry block_stuck()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %ctaid.x;
  setp.ne.u32 %p1, %r1, 2;
  @%p1 bra DONE;
  bar.sync 1, 64;
DONE:
  ret;
}
)";

TEST(CooperativeGrid, BlockBarrierDeadlockIsLocatedInItsBlock) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kBlockBarrierStuck, "block_stuck.ptx");
  const LaunchResult r = engine.launch(m, "block_stuck", {3, 1, 1}, {32, 1, 1}, 0, {}, cooperative());
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->message,
            "deadlock in kernel 'block_stuck', block (2,0,0), thread (0,0,0), pc 3 (block_stuck.ptx:12): every live "
            "warp waits at a barrier that can no longer complete\n"
            "  warp 0: pc 3 active 0xffffffff waiting at barrier 1 (1 of 1 warps arrived)");
}

TEST(CooperativeGrid, GridsBeyondWhatStaysResidentAreRefused) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kBlockBarrierStuck, "block_stuck.ptx");
  try {
    engine.launch(m, "block_stuck", {65537, 1, 1}, {32, 1, 1}, 0, {}, cooperative());
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "cooperative launch of 65537 blocks exceeds the 65536 blocks lockstep keeps resident at once");
  }
}

}  // namespace
}  // namespace lockstep
