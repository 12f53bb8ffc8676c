// CTA barriers of the engine core: named barriers with thread counts (bar.arrive / bar.sync
// producer-consumer), barrier.sync with register operands, and the bar.red reductions,
// each at several warp sizes. Warps run in index order, so the consumers are the low warps:
// without a working barrier they would read shared memory before the producers wrote it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr const char* kHeader = ".version 9.0\n.target sm_80\n.address_size 64\n";

// 128 threads. Threads 0-63 consume, 64-127 produce, in two phases over one buffer:
//   producers: buf[p] = 3p+1; bar.arrive 1,128; bar.sync 2,128; buf[p] = 5p+7; bar.arrive 1,128
//   consumers: bar.sync 1,128; v1 = buf[63-c]; bar.arrive 2,128; bar.sync 1,128; v2 = buf[63-c]
// out[c] = v1, out[64+c] = v2.
constexpr const char* kProducerConsumer = R"(
.visible .entry prodcons(.param .u64 out)
{
  .shared .align 4 .b8 buf[256];
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r10, buf;
  setp.lt.u32 %p1, %r1, 64;
  @%p1 bra CONSUME;
  sub.u32 %r2, %r1, 64;
  shl.b32 %r3, %r2, 2;
  add.u32 %r3, %r10, %r3;
  mad.lo.u32 %r4, %r2, 3, 1;
  st.shared.u32 [%r3], %r4;
  bar.arrive 1, 128;
  bar.sync 2, 128;
  mad.lo.u32 %r4, %r2, 5, 7;
  st.shared.u32 [%r3], %r4;
  bar.arrive 1, 128;
  bra DONE;
CONSUME:
  sub.u32 %r5, 63, %r1;
  shl.b32 %r5, %r5, 2;
  add.u32 %r5, %r10, %r5;
  bar.sync 1, 128;
  ld.shared.u32 %r6, [%r5];
  bar.arrive 2, 128;
  bar.sync 1, 128;
  ld.shared.u32 %r7, [%r5];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
  st.global.u32 [%rd3+256], %r7;
DONE:
  ret;
}
)";

TEST(CoreBarrier, NamedBarrierProducerConsumerAtEveryWarpSize) {
  for (uint32_t width : {4u, 16u, 32u, 64u}) {
    EngineOptions options;
    options.warp_size = width;
    Engine engine(options);
    const ModuleId m = engine.load_ptx(std::string(kHeader) + kProducerConsumer, "prodcons.ptx");
    test::DeviceBuffer<uint32_t> out(engine, std::vector<uint32_t>(128, 0xdeadbeefu));
    test::launch_ok(engine, m, "prodcons", {1, 1, 1}, {128, 1, 1}, {out.arg()});
    std::vector<uint32_t> expected(128);
    for (uint32_t c = 0; c < 64; ++c) {
      expected[c] = (63 - c) * 3 + 1;
      expected[64 + c] = (63 - c) * 5 + 7;
    }
    EXPECT_EQ(out.download(), expected) << "warp size " << width;
  }
}

// 96 threads; the last 32 write shared memory, then everyone passes barrier.sync with the
// barrier id and thread count in registers (from parameters), then reads.
constexpr const char* kRegisterBarrier = R"(
.visible .entry regbar(.param .u64 out, .param .u32 id)
{
  .shared .align 4 .b8 buf[128];
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [id];
  mov.u32 %r8, %ntid.x;
  mov.u32 %r1, %tid.x;
  mov.u32 %r10, buf;
  and.b32 %r2, %r1, 31;
  shl.b32 %r3, %r2, 2;
  add.u32 %r3, %r10, %r3;
  setp.lt.u32 %p1, %r1, 64;
  @%p1 bra WAIT;
  mul.lo.u32 %r4, %r1, %r1;
  st.shared.u32 [%r3], %r4;
WAIT:
  barrier.sync %r9, %r8;
  ld.shared.u32 %r5, [%r3];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

TEST(CoreBarrier, BarrierSyncTakesIdAndCountFromRegisters) {
  for (uint32_t width : {4u, 16u, 32u}) {
    EngineOptions options;
    options.warp_size = width;
    Engine engine(options);
    const ModuleId m = engine.load_ptx(std::string(kHeader) + kRegisterBarrier, "regbar.ptx");
    test::DeviceBuffer<uint32_t> out(engine, 96);
    test::launch_ok(engine, m, "regbar", {1, 1, 1}, {96, 1, 1}, {out.arg(), test::arg<uint32_t>(5)});
    std::vector<uint32_t> expected(96);
    for (uint32_t t = 0; t < 96; ++t) expected[t] = (64 + t % 32) * (64 + t % 32);
    EXPECT_EQ(out.download(), expected) << "warp size " << width;
  }
}

// bar.red over a block of 150 threads (a partial last warp at every warp size):
//   popc(tid % 3 == 0) = 50, popc(!(tid % 3 == 0)) = 100,
//   and(tid < 200) = 1, and(!(tid % 3 == 0)) = 0, or(!(tid != 77)) = 1, or(tid > 500) = 0.
// Each thread writes popc | popc_neg << 8 | and1 << 16 | and2 << 17 | or1 << 18 | or2 << 19.
constexpr const char* kReductions = R"(
.visible .entry reds(.param .u64 out)
{
  .reg .pred %p<12>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  rem.u32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 0;
  setp.lt.u32 %p2, %r1, 200;
  setp.ne.u32 %p3, %r1, 77;
  setp.gt.u32 %p4, %r1, 500;
  bar.red.popc.u32 %r3, 0, %p1;
  bar.red.popc.u32 %r4, 2, !%p1;
  bar.red.and.pred %p5, 0, %p2;
  bar.red.and.pred %p6, 3, !%p1;
  bar.red.or.pred %p7, 0, !%p3;
  bar.red.or.pred %p8, 1, %p4;
  shl.b32 %r4, %r4, 8;
  or.b32 %r3, %r3, %r4;
  selp.u32 %r5, 65536, 0, %p5;
  or.b32 %r3, %r3, %r5;
  selp.u32 %r5, 131072, 0, %p6;
  or.b32 %r3, %r3, %r5;
  selp.u32 %r5, 262144, 0, %p7;
  or.b32 %r3, %r3, %r5;
  selp.u32 %r5, 524288, 0, %p8;
  or.b32 %r3, %r3, %r5;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

TEST(CoreBarrier, BarRedReductionsCountEveryThreadOfTheBlock) {
  for (uint32_t width : {4u, 16u, 32u, 64u}) {
    EngineOptions options;
    options.warp_size = width;
    Engine engine(options);
    const ModuleId m = engine.load_ptx(std::string(kHeader) + kReductions, "reds.ptx");
    test::DeviceBuffer<uint32_t> out(engine, std::vector<uint32_t>(150, 0xffffffffu));
    test::launch_ok(engine, m, "reds", {2, 1, 1}, {150, 1, 1}, {out.arg()});
    const uint32_t word = 50u | 100u << 8 | 1u << 16 | 0u << 17 | 1u << 18 | 0u << 19;
    EXPECT_EQ(out.download(), std::vector<uint32_t>(150, word)) << "warp size " << width;
  }
}

// An always-true predicate over 70 threads: the partial last warp's missing lanes must not
// count, so popc is the thread count, not warps x width.
constexpr const char* kPartialWarpReduction = R"(
.visible .entry partial_red(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p2, %r1, 0;
  mov.u32 %r3, 0;
  bar.red.popc.u32 %r3, 0, %p2;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

TEST(CoreBarrier, BarRedPopcOfAlwaysTrueIsTheBlockSize) {
  for (uint32_t width : {4u, 16u, 64u}) {
    EngineOptions options;
    options.warp_size = width;
    Engine engine(options);
    const ModuleId m = engine.load_ptx(std::string(kHeader) + kPartialWarpReduction, "pr.ptx");
    test::DeviceBuffer<uint32_t> out(engine, 70);
    test::launch_ok(engine, m, "partial_red", {1, 1, 1}, {70, 1, 1}, {out.arg()});
    EXPECT_EQ(out.download(), std::vector<uint32_t>(70, 70u)) << "warp size " << width;
  }
}

}  // namespace
}  // namespace lockstep
