// Calls, recursion, exits under divergence, CTA barriers and barrier deadlocks.
#include <gtest/gtest.h>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr const char* kHeader = ".version 9.0\n.target sm_80\n.address_size 64\n";

// fib(n) by a recursive .func; lanes recurse to different depths (divergent recursion).
constexpr const char* kFib = R"(
.func (.param .b32 ret) fib(.param .b32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  ld.param.b32 %r1, [n];
  setp.lt.s32 %p1, %r1, 2;
  @%p1 bra DONE;
  add.s32 %r2, %r1, -1;
  {
    .param .b32 a0;
    .param .b32 r0;
    st.param.b32 [a0], %r2;
    call.uni (r0), fib, (a0);
    ld.param.b32 %r3, [r0];
  }
  add.s32 %r4, %r1, -2;
  {
    .param .b32 a1;
    .param .b32 r1;
    st.param.b32 [a1], %r4;
    call.uni (r1), fib, (a1);
    ld.param.b32 %r5, [r1];
  }
  add.s32 %r1, %r3, %r5;
DONE:
  st.param.b32 [ret], %r1;
  ret;
}

.visible .entry fibs(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  {
    .param .b32 a;
    .param .b32 r;
    st.param.b32 [a], %r1;
    call.uni (r), fib, (a);
    ld.param.b32 %r2, [r];
  }
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

TEST(ControlFlow, DivergentRecursionComputesFibonacci) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kFib, "fib.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 20);
  test::launch_ok(engine, m, "fibs", {1, 1, 1}, {20, 1, 1}, {out.arg()});
  std::vector<uint32_t> expected(20);
  expected[0] = 0;
  expected[1] = 1;
  for (size_t i = 2; i < 20; ++i) expected[i] = expected[i - 1] + expected[i - 2];
  EXPECT_EQ(out.download(), expected);
}

// Each block reverses its 64 elements through shared memory across two warps.
constexpr const char* kReverse = R"(
.visible .entry reverse(.param .u64 data)
{
  .shared .align 4 .b8 tile[256];
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [data];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  shl.b32 %r3, %r2, 6;
  add.s32 %r3, %r3, %r1;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r4, [%rd3];
  shl.b32 %r5, %r1, 2;
  mov.u32 %r6, tile;
  add.s32 %r6, %r6, %r5;
  st.shared.u32 [%r6], %r4;
  bar.sync 0;
  sub.s32 %r5, 63, %r1;
  shl.b32 %r5, %r5, 2;
  mov.u32 %r6, tile;
  add.s32 %r6, %r6, %r5;
  ld.shared.u32 %r7, [%r6];
  st.global.u32 [%rd3], %r7;
  ret;
}
)";

TEST(ControlFlow, BarrierOrdersSharedMemoryAcrossWarps) {
  for (uint32_t width : {8u, 32u, 64u}) {
    EngineOptions options;
    options.warp_size = width;
    Engine engine(options);
    const ModuleId m = engine.load_ptx(std::string(kHeader) + kReverse, "reverse.ptx");
    std::vector<uint32_t> data(256);
    for (uint32_t i = 0; i < data.size(); ++i) data[i] = i * 7 + 1;
    test::DeviceBuffer<uint32_t> buf(engine, data);
    test::launch_ok(engine, m, "reverse", {4, 1, 1}, {64, 1, 1}, {buf.arg()});
    std::vector<uint32_t> expected(256);
    for (uint32_t b = 0; b < 4; ++b)
      for (uint32_t i = 0; i < 64; ++i) expected[b * 64 + i] = data[b * 64 + 63 - i];
    EXPECT_EQ(buf.download(), expected) << "warp size " << width;
  }
}

// Threads with odd ids exit early; the rest pass a barrier (exited warps and threads count as
// arrived) and write.
constexpr const char* kExitThenBarrier = R"(
.visible .entry partial(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.ne.s32 %p1, %r2, 0;
  @%p1 exit;
  bar.sync 0;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";

TEST(ControlFlow, ExitedThreadsDoNotBlockBarriers) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kExitThenBarrier, "partial.ptx");
  test::DeviceBuffer<uint32_t> out(engine, std::vector<uint32_t>(96, 0xffffffffu));
  test::launch_ok(engine, m, "partial", {1, 1, 1}, {96, 1, 1}, {out.arg()});
  std::vector<uint32_t> expected(96);
  for (uint32_t i = 0; i < 96; ++i) expected[i] = (i & 1) ? 0xffffffffu : i;
  EXPECT_EQ(out.download(), expected);
}

// Barrier 1 expects 64 threads but the block has only one warp: a deadlock, reported.
constexpr const char* kDeadlock = R"(
.visible .entry stuck()
{
  bar.sync 1, 64;
  ret;
}
)";

TEST(ControlFlow, BarrierDeadlockIsReported) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kDeadlock, "stuck.ptx");
  const LaunchResult r = engine.launch(m, "stuck", {1, 1, 1}, {32, 1, 1}, 0, {});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "deadlock");
  EXPECT_EQ(r.fault->message,
            "deadlock in kernel 'stuck', block (0,0,0), thread (0,0,0), pc 0 (stuck.ptx:7): every live "
            "warp waits at a barrier that can no longer complete\n"
            "  warp 0: pc 0 active 0xffffffff waiting at barrier 1 (1 of 1 warps arrived)");
}

constexpr const char* kOutOfBounds = R"(
.visible .entry oob(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";

TEST(ControlFlow, OutOfBoundsStoreIsReportedWithThreadAndAddress) {
  EngineOptions options;
  options.memcheck = true;  // the first byte past the end faults
  Engine engine(options);
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kOutOfBounds, "oob.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 40);  // 40 elements, 64 threads
  const LaunchResult r = engine.launch(m, "oob", {1, 1, 1}, {64, 1, 1}, 0, {out.arg()});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "out-of-bounds access");
  EXPECT_EQ(r.fault->thread.x, 40u);
  EXPECT_EQ(r.fault->address, out.address() + 160);
  EXPECT_EQ(r.fault->ptx_location, "oob.ptx:13");
}

TEST(ControlFlow, TwoEnginesDoNotShareState) {
  Engine a, b;
  const ModuleId ma = a.load_ptx(std::string(kHeader) + kFib, "fib.ptx");
  test::DeviceBuffer<uint32_t> out_a(a, 10);
  const uint64_t first_b = b.malloc(64);
  EXPECT_EQ(first_b, out_a.address());  // same address space layout, separate memories
  test::launch_ok(a, ma, "fibs", {1, 1, 1}, {10, 1, 1}, {out_a.arg()});
  std::vector<uint8_t> zero(64);
  std::vector<uint8_t> got(64, 1);
  b.copy_to_host(got.data(), first_b, 64);
  EXPECT_EQ(got, zero);
  EXPECT_THROW(b.kernels(ma), std::invalid_argument);
}

}  // namespace
}  // namespace lockstep
