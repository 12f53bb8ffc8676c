// Arrive-wait barriers (mbarrier) and the asynchronous copies that complete on them, in hand-written
// PTX, in functional and timing mode: phases and parity, state tokens, arrive with a count,
// arrive_drop, .noComplete, expect_tx/complete_tx, pending_count, inval, a consumer warp spinning
// on try_wait for a producer warp, cp.async.mbarrier.arrive{.noinc}, the bulk copies, and the
// faults a wrong use raises. The object's encoding (func/ops/mbarrier_object.h) is pinned too:
// valid bit 62, parity bit 63, pending bits 0..19, expected 20..39, tx-count 40..60.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"

namespace lockstep {
namespace {

std::unique_ptr<Engine> make_engine(bool timing) {
  EngineOptions options;
  if (timing) options.timing = std::make_shared<const config::GpuConfig>(config::load_gpu_config("h100"));
  return std::make_unique<Engine>(options);
}

class Mbarrier : public ::testing::TestWithParam<bool> {
 protected:
  std::unique_ptr<Engine> engine_ = make_engine(GetParam());
};

constexpr uint64_t kValid = uint64_t{1} << 62;
constexpr uint64_t kParity = uint64_t{1} << 63;
constexpr uint64_t word(uint64_t pending, uint64_t expected, int64_t tx = 0) {
  return pending | expected << 20 | (static_cast<uint64_t>(tx) & 0x1fffff) << 40 | kValid;
}

// One thread walks a barrier through its phases and stores what it sees, in order, to out[0..]:
// raw object words, tokens' pending counts and wait results (1 = completed).
constexpr const char* kPhases = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry phases(.param .u64 out)
{
  .shared .align 8 .b64 bar;
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, bar;
  mbarrier.init.shared.b64 [%r1], 3;
  ld.shared.u64 %rd2, [bar];
  st.global.u64 [%rd1], %rd2;                                  // 0: fresh object
  mbarrier.arrive.shared.b64 %rd3, [%r1];
  mbarrier.pending_count.b64 %r2, %rd3;
  cvt.u64.u32 %rd4, %r2;
  st.global.u64 [%rd1+8], %rd4;                                // 1: 2 pending after one arrive
  mbarrier.test_wait.shared.b64 %p1, [%r1], %rd3;
  selp.u64 %rd4, 1, 0, %p1;
  st.global.u64 [%rd1+16], %rd4;                               // 2: phase 0 not complete
  mbarrier.arrive.release.cta.shared::cta.b64 %rd5, [%r1], 2;
  mbarrier.test_wait.shared.b64 %p1, [%r1], %rd3;
  selp.u64 %rd4, 1, 0, %p1;
  st.global.u64 [%rd1+24], %rd4;                               // 3: phase 0 complete (first token)
  mbarrier.test_wait.parity.shared.b64 %p1, [%r1], 0;
  selp.u64 %rd4, 1, 0, %p1;
  st.global.u64 [%rd1+32], %rd4;                               // 4: parity 0 completed
  mov.u32 %r3, 1;
  mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 %p1, [%r1], %r3;
  selp.u64 %rd4, 1, 0, %p1;
  st.global.u64 [%rd1+40], %rd4;                               // 5: parity 1 (phase 1) not yet
  ld.shared.u64 %rd2, [bar];
  st.global.u64 [%rd1+48], %rd2;                               // 6: phase 1, 3 pending
  mbarrier.arrive.noComplete.shared.b64 %rd6, [%r1], 2;
  mbarrier.pending_count.b64 %r2, %rd6;
  cvt.u64.u32 %rd4, %r2;
  st.global.u64 [%rd1+56], %rd4;                               // 7: 1 pending
  mbarrier.arrive_drop.shared.b64 _, [%r1];
  mbarrier.test_wait.parity.shared.b64 %p1, [%r1], %r3;
  selp.u64 %rd4, 1, 0, %p1;
  st.global.u64 [%rd1+64], %rd4;                               // 8: phase 1 (parity 1) complete
  ld.shared.u64 %rd2, [bar];
  st.global.u64 [%rd1+72], %rd2;                               // 9: phase 2, expected 2
  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 64;
  mbarrier.arrive.shared::cta.b64 %rd7, [%r1], 2;
  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;
  selp.u64 %rd4, 1, 0, %p1;
  st.global.u64 [%rd1+80], %rd4;                               // 10: arrivals done, 64 bytes owed
  mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 32;
  ld.shared.u64 %rd2, [bar];
  st.global.u64 [%rd1+88], %rd2;                               // 11: 0 pending, tx 32
  mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 32;
  mbarrier.try_wait.shared::cta.b64 %p1, [%r1], %rd7, 1000;
  selp.u64 %rd4, 1, 0, %p1;
  st.global.u64 [%rd1+96], %rd4;                               // 12: phase 2 complete
  mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 16;
  mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd8, [%r1], 16;
  ld.shared.u64 %rd2, [bar];
  st.global.u64 [%rd1+104], %rd2;                              // 13: tx settled early, 1 pending
  mbarrier.arrive.shared.b64 %rd9, [%r1];
  ld.shared.u64 %rd2, [bar];
  st.global.u64 [%rd1+112], %rd2;                              // 14: phase 4 (parity 0)
  mbarrier.inval.shared.b64 [%r1];
  ld.shared.u64 %rd2, [bar];
  st.global.u64 [%rd1+120], %rd2;                              // 15: invalidated
  ret;
}
)";

TEST_P(Mbarrier, PhasesTokensParityCountsAndTransactions) {
  const ModuleId m = engine_->load_ptx(kPhases, "phases.ptx");
  test::DeviceBuffer<uint64_t> out(*engine_, 16);
  test::launch_ok(*engine_, m, "phases", {1, 1, 1}, {1, 1, 1}, {out.arg()});
  const std::vector<uint64_t> expected = {
      word(3, 3),               //  0
      2,                        //  1
      0,                        //  2
      1,                        //  3
      1,                        //  4
      0,                        //  5
      word(3, 3) | kParity,     //  6
      1,                        //  7
      1,                        //  8
      word(2, 2),               //  9: arrive_drop completed phase 1 and dropped one expected
      0,                        // 10
      word(0, 2, 32),           // 11
      1,                        // 12
      word(1, 2) | kParity,     // 13: complete_tx 16 then expect_tx 16: tx back to 0
      word(2, 2),               // 14
      0,                        // 15
  };
  EXPECT_EQ(out.download(), expected);
}

// Two warps: warp 1 fills a shared array and arrives (32 arrivals); warp 0 spins on try_wait with
// the phase parity until it may read the array. Then the roles swap for the second phase, with
// split arrive/wait tokens.
constexpr const char* kHandoff = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry handoff(.param .u64 out)
{
  .shared .align 8 .b64 bar;
  .shared .align 4 .b32 data[64];
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;           // warp
  and.b32 %r3, %r1, 31;          // lane
  mov.u32 %r4, bar;
  mov.u32 %r5, data;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra INITED;
  mbarrier.init.shared.b64 [%r4], 32;
INITED:
  bar.sync 0;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra CONSUMER;
  // warp 1: produce data[lane] = lane * 7 + 1 after some work, then arrive
  mov.u32 %r6, 0;
  mov.u32 %r7, 0;
WORK:
  add.u32 %r7, %r7, %r3;
  add.u32 %r6, %r6, 1;
  setp.lt.u32 %p2, %r6, 100;
  @%p2 bra WORK;
  mad.lo.u32 %r8, %r3, 7, 1;
  shl.b32 %r9, %r3, 2;
  add.u32 %r10, %r5, %r9;
  st.shared.u32 [%r10], %r8;
  mbarrier.arrive.shared.b64 %rd2, [%r4];
  bra.uni PHASE1;
CONSUMER:
WAIT0:
  mbarrier.try_wait.parity.shared.b64 %p2, [%r4], 0;
  @!%p2 bra WAIT0;
  // warp 0: out[lane] = data[31 - lane]; then produce data[32 + lane] and arrive
  sub.u32 %r11, 31, %r3;
  shl.b32 %r9, %r11, 2;
  add.u32 %r10, %r5, %r9;
  ld.shared.u32 %r8, [%r10];
  mul.wide.u32 %rd3, %r3, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r8;
  shl.b32 %r12, %r3, 1;
  shl.b32 %r9, %r3, 2;
  add.u32 %r10, %r5, %r9;
  st.shared.u32 [%r10+128], %r12;
  mbarrier.arrive.shared.b64 %rd2, [%r4];
PHASE1:
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra DONE;
  // warp 1 waits for phase 1 with a token of its own: it arrives (first of the 32 needed for
  // phase 1 would be too many), so it tests with parity 1 instead
WAIT1:
  mbarrier.test_wait.parity.shared.b64 %p2, [%r4], 1;
  @!%p2 bra WAIT1;
  shl.b32 %r9, %r3, 2;
  add.u32 %r10, %r5, %r9;
  ld.shared.u32 %r8, [%r10+128];
  add.s64 %rd4, %rd1, 128;
  mul.wide.u32 %rd3, %r3, 4;
  add.s64 %rd4, %rd4, %rd3;
  st.global.u32 [%rd4], %r8;
DONE:
  ret;
}
)";

TEST_P(Mbarrier, ConsumerWarpSpinningOnTryWaitSeesTheProducersData) {
  const ModuleId m = engine_->load_ptx(kHandoff, "handoff.ptx");
  test::DeviceBuffer<uint32_t> out(*engine_, 64);
  const LaunchResult r = test::launch_ok(*engine_, m, "handoff", {2, 1, 1}, {64, 1, 1}, {out.arg()});
  std::vector<uint32_t> expected(64);
  for (uint32_t l = 0; l < 32; ++l) {
    expected[l] = (31 - l) * 7 + 1;
    expected[32 + l] = 2 * l;
  }
  EXPECT_EQ(out.download(), expected);
  if (!GetParam()) {
    // Every mbarrier operation ends the warp's turn, and a block whose other warp waits for a
    // parked store stops after a short epoch (func/wave_runner.h): the spinning warps run a few
    // hundred iterations, not whole slices of thousands of instructions.
    EXPECT_LT(r.warp_instructions, 2u * 1000u);
  }
}

// cp.async with cp.async.mbarrier.arrive: .noinc counts the arrive as one of the 32 expected;
// without .noinc the pending count is raised first, so each thread also arrives itself.
constexpr const char* kCpAsync = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry copies(.param .u64 src, .param .u64 out, .param .u32 noinc)
{
  .shared .align 8 .b64 bar;
  .shared .align 16 .b32 tile[32];
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r13, [noinc];
  mov.u32 %r1, %tid.x;
  mov.u32 %r4, bar;
  mov.u32 %r5, tile;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra INITED;
  mbarrier.init.shared.b64 [%r4], 32;
INITED:
  bar.sync 0;
  shl.b32 %r2, %r1, 2;
  add.u32 %r3, %r5, %r2;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  cp.async.ca.shared.global [%r3], [%rd4], 4;
  setp.ne.u32 %p1, %r13, 0;
  @%p1 bra NOINC;
  cp.async.mbarrier.arrive.shared.b64 [%r4];
  mbarrier.arrive.shared.b64 %rd5, [%r4];
  bra.uni WAIT;
NOINC:
  cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r4];
WAIT:
  mbarrier.test_wait.parity.shared.b64 %p2, [%r4], 0;
  @!%p2 bra WAIT;
  sub.u32 %r6, 31, %r1;
  shl.b32 %r7, %r6, 2;
  add.u32 %r8, %r5, %r7;
  ld.shared.u32 %r9, [%r8];
  add.s64 %rd6, %rd2, %rd3;
  st.global.u32 [%rd6], %r9;
  ret;
}
)";

TEST_P(Mbarrier, CpAsyncArriveOnWithAndWithoutNoinc) {
  const ModuleId m = engine_->load_ptx(kCpAsync, "copies.ptx");
  std::vector<uint32_t> src(32), expected(32);
  for (uint32_t i = 0; i < 32; ++i) src[i] = i * i + 5;
  for (uint32_t i = 0; i < 32; ++i) expected[i] = src[31 - i];
  test::DeviceBuffer<uint32_t> in(*engine_, src);
  for (uint32_t noinc : {0u, 1u}) {
    SCOPED_TRACE(noinc);
    test::DeviceBuffer<uint32_t> out(*engine_, 32);
    test::launch_ok(*engine_, m, "copies", {1, 1, 1}, {32, 1, 1}, {in.arg(), out.arg(), test::arg(noinc)});
    EXPECT_EQ(out.download(), expected);
  }
}

// Bulk copies: thread 0 copies 256 bytes global -> shared completing on the barrier (issued
// before its expect_tx, as nvcc orders them), every thread waits, doubles a word of the tile in
// place, then thread 0 copies the tile back to global with a bulk group.
constexpr const char* kBulk = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry bulk(.param .u64 src, .param .u64 out)
{
  .shared .align 8 .b64 bar;
  .shared .align 128 .b32 tile[64];
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r4, bar;
  mov.u32 %r5, tile;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra INITED;
  mbarrier.init.shared::cta.b64 [%r4], 64;
INITED:
  bar.sync 0;
  @%p1 bra ARRIVE;
  mov.u32 %r6, 256;
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r5], [%rd1], %r6, [%r4];
  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r4], %r6;
ARRIVE:
  mbarrier.arrive.shared::cta.b64 %rd3, [%r4];
WAIT:
  mbarrier.try_wait.shared::cta.b64 %p2, [%r4], %rd3;
  @!%p2 bra WAIT;
  shl.b32 %r7, %r1, 2;
  add.u32 %r8, %r5, %r7;
  ld.shared.u32 %r9, [%r8];
  shl.b32 %r9, %r9, 1;
  st.shared.u32 [%r8], %r9;
  fence.proxy.async.shared::cta;
  bar.sync 0;
  @%p1 bra DONE;
  cp.async.bulk.global.shared::cta.bulk_group [%rd2], [%r5], 256;
  cp.async.bulk.commit_group;
  cp.async.bulk.wait_group.read 0;
  cp.async.bulk.wait_group 0;
DONE:
  ret;
}
)";

TEST_P(Mbarrier, BulkCopiesCompleteTheirBytesOnTheBarrier) {
  const ModuleId m = engine_->load_ptx(kBulk, "bulk.ptx");
  std::vector<uint32_t> src(64), expected(64);
  for (uint32_t i = 0; i < 64; ++i) src[i] = 1000 + 3 * i;
  for (uint32_t i = 0; i < 64; ++i) expected[i] = 2 * src[i];
  test::DeviceBuffer<uint32_t> in(*engine_, src);
  test::DeviceBuffer<uint32_t> out(*engine_, 64);
  test::launch_ok(*engine_, m, "bulk", {1, 1, 1}, {64, 1, 1}, {in.arg(), out.arg()});
  EXPECT_EQ(out.download(), expected);
}

// ---- faults ---------------------------------------------------------------------------------------

// `body` runs in thread 3 of a one-warp block, with %r1 = the address of a shared .b64 `bar`.
std::string misuse_kernel(const std::string& body) {
  return R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry misuse()
{
  .shared .align 8 .b64 bar;
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, bar;
  mov.u32 %r2, %tid.x;
  setp.ne.u32 %p1, %r2, 3;
  @%p1 bra DONE;
)" + body + R"(
DONE:
  ret;
}
)";
}

struct Misuse {
  const char* name;
  const char* body;
  const char* detail;
};

const Misuse kMisuses[] = {
    {"ArriveOnUninitialised", "mbarrier.arrive.shared.b64 %rd1, [%r1];",
     "mbarrier.arrive on an mbarrier object that is not initialised (or was invalidated) "
     "(object at shared address 0x0)"},
    {"ArriveAfterInval", "mbarrier.init.shared.b64 [%r1], 2;\n  mbarrier.inval.shared.b64 [%r1];\n"
                         "  mbarrier.arrive.shared.b64 %rd1, [%r1];",
     "mbarrier.arrive on an mbarrier object that is not initialised (or was invalidated) "
     "(object at shared address 0x0)"},
    {"PendingCountUnderflows", "mbarrier.init.shared.b64 [%r1], 1;\n  mbarrier.arrive.shared.b64 %rd1, [%r1], 2;",
     "mbarrier.arrive of 2 arrival(s) when only 1 of the current phase are pending (object at shared address 0x0)"},
    {"DropBelowZero", "mbarrier.init.shared.b64 [%r1], 2;\n  mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
                      "  mbarrier.arrive_drop.shared.b64 %rd1, [%r1], 2;",
     "mbarrier.arrive_drop of 2 arrival(s) when only 1 of the current phase are pending (object at shared "
     "address 0x0)"},
    {"NoCompleteCompletes", "mbarrier.init.shared.b64 [%r1], 2;\n  mbarrier.arrive.noComplete.shared.b64 %rd1, [%r1], 2;",
     "mbarrier.arrive.noComplete would complete the current phase (object at shared address 0x0)"},
    {"InitCountZero", "mbarrier.init.shared.b64 [%r1], 0;",
     "mbarrier.init with count 0, outside 1..1048575 (object at shared address 0x0)"},
    {"WaitOnUninitialised", "mbarrier.test_wait.parity.shared.b64 %p2, [%r1], 0;",
     "mbarrier wait (parity) on an mbarrier object that is not initialised (or was invalidated) (object at "
     "shared address 0x0)"},
    {"CpAsyncArriveOnUninitialised", "cp.async.mbarrier.arrive.noinc.shared.b64 [%r1];",
     "cp.async.mbarrier.arrive on an mbarrier object that is not initialised (or was invalidated) (object at "
     "shared address 0x0)"},
    {"TxCountOverflows", "mbarrier.init.shared.b64 [%r1], 1;\n  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 2000000;",
     "mbarrier.expect_tx takes the tx-count from 0 to 2000000, outside -1048575..1048575 (object at shared "
     "address 0x0)"},
};

TEST_P(Mbarrier, MisuseIsADeviceFaultNamingTheProblem) {
  for (const Misuse& c : kMisuses) {
    SCOPED_TRACE(c.name);
    const ModuleId m = engine_->load_ptx(misuse_kernel(c.body), std::string(c.name) + ".ptx");
    const LaunchResult r = engine_->launch(m, "misuse", {1, 1, 1}, {32, 1, 1}, 0, {});
    ASSERT_TRUE(r.fault.has_value());
    EXPECT_EQ(r.fault->kind, "invalid mbarrier operation");
    EXPECT_EQ(r.fault->thread.x, 3u);
    EXPECT_EQ(r.fault->detail, c.detail);
    EXPECT_NE(r.fault->message.find("invalid mbarrier operation in kernel 'misuse', block (0,0,0), thread (3,0,0)"),
              std::string::npos)
        << r.fault->message;
  }
}

TEST_P(Mbarrier, ObjectOutsideSharedMemoryFaults) {
  // A generic address of global memory: mbarrier objects live in shared memory only.
  const std::string ptx = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry global_bar(.param .u64 p)
{
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  mbarrier.init.b64 [%rd1], 1;
  ret;
}
)";
  const ModuleId m = engine_->load_ptx(ptx, "global_bar.ptx");
  test::DeviceBuffer<uint64_t> buf(*engine_, 1);
  const LaunchResult r = engine_->launch(m, "global_bar", {1, 1, 1}, {1, 1, 1}, 0, {buf.arg()});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "invalid mbarrier operation");
  char detail[96];
  std::snprintf(detail, sizeof(detail), "the mbarrier object at generic address %#llx is not in shared memory",
                static_cast<unsigned long long>(buf.address()));
  EXPECT_EQ(r.fault->detail, detail);
}

TEST_P(Mbarrier, TensorBulkCopiesAreRejectedByName) {
  const std::string ptx = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry tma(.param .u64 map)
{
  .shared .align 8 .b64 bar;
  .shared .align 128 .b32 tile[64];
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [map];
  mov.u32 %r1, bar;
  mov.u32 %r2, tile;
  mov.u32 %r3, 0;
  cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1, {%r3}], [%r1];
  ret;
}
)";
  LoadOptions options;
  options.defer_kernel_errors = true;
  const ModuleId m = engine_->load_ptx(ptx, "tma.ptx", options);
  EXPECT_EQ(engine_->kernel_error(m, "tma"),
            "tma.ptx:14:3: unsupported PTX instruction "
            "'cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes' at tma.ptx:14");
}

INSTANTIATE_TEST_SUITE_P(Modes, Mbarrier, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "Timing" : "Functional"; });

}  // namespace
}  // namespace lockstep
