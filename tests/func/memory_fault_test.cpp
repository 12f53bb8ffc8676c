// Device faults raised by memory instructions: misaligned and out-of-bounds accesses in each
// space, reported with the kind, space, address, size and the thread that made them.
#include "func/memory_test_util.h"

namespace lockstep::test::memory {
namespace {

// One kernel per case: `line` runs in every thread with %rd1 = the buffer parameter,
// %r1 = %tid.x, %rd2 = 4 * %tid.x, %rd3 = %rd1 + %rd2, %r2 = tile + 4 * %tid.x (shared).
std::string faulting_kernel(const std::string& line) {
  return module(R"(
.visible .entry k(.param .u64 buf) {
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  .reg .b64 %SP, %SPL;
  .shared .align 16 .b8 tile[16];
  .local .align 8 .b8 __local_depot0[8];
  mov.u64 %SPL, __local_depot0;
  ld.param.u64 %rd1, [buf];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r3, tile;
  shl.b32 %r4, %r1, 2;
  add.s32 %r2, %r3, %r4;
  )" + line + R"(
  ret;
}
)");
}

struct FaultRun {
  LaunchResult result;
  uint64_t buffer = 0;
};

// Strict bounds (--memcheck), as a memory checker: every byte outside the allocation faults.
FaultRun run_case(const std::string& line, Dim3 grid, Dim3 block, uint32_t buffer_bytes = 40, bool memcheck = true) {
  EngineOptions options;
  options.memcheck = memcheck;
  Engine engine(options);
  ModuleId m = engine.load_ptx(faulting_kernel(line), "fault.ptx");
  const uint64_t buf = engine.malloc(buffer_bytes);
  FaultRun r;
  r.buffer = buf;
  r.result = engine.launch(m, "k", grid, block, 0, {arg(buf)});
  return r;
}

TEST(MemoryFault, MisalignedGlobalLoadNamesTheThread) {
  const FaultRun r =
      run_case("setp.eq.u32 %p1, %r1, 5;\n  @%p1 ld.global.u32 %r5, [%rd1+2];", {1}, {8});
  ASSERT_TRUE(r.result.fault.has_value());
  const FaultReport& f = *r.result.fault;
  EXPECT_EQ(f.kind, "misaligned access");
  EXPECT_EQ(f.space, "global");
  EXPECT_EQ(f.address, r.buffer + 2);
  EXPECT_EQ(f.size, 4u);
  EXPECT_EQ(f.thread.x, 5u);
  EXPECT_EQ(f.block.x, 0u);
}

TEST(MemoryFault, VectorAccessesMustBeAlignedToTheirWholeSize) {
  const FaultRun r = run_case("ld.global.v4.f32 {%f1, %f2, %f3, %f0}, [%rd1+8];", {1}, {1});
  ASSERT_TRUE(r.result.fault.has_value());
  EXPECT_EQ(r.result.fault->kind, "misaligned access");
  EXPECT_EQ(r.result.fault->address, r.buffer + 8);
  EXPECT_EQ(r.result.fault->size, 16u);
}

TEST(MemoryFault, OutOfBoundsGlobalStoreStopsAtTheFirstLaneOutside) {
  // 10 u32 fit; thread 10 is the first (lane order) to write past the end.
  const FaultRun r = run_case("st.global.u32 [%rd3], %r1;", {1}, {32});
  ASSERT_TRUE(r.result.fault.has_value());
  const FaultReport& f = *r.result.fault;
  EXPECT_EQ(f.kind, "out-of-bounds access");
  EXPECT_EQ(f.space, "global");
  EXPECT_EQ(f.address, r.buffer + 40);
  EXPECT_EQ(f.size, 4u);
  EXPECT_EQ(f.thread.x, 10u);
}

// Without --memcheck, a store a little past the end of an allocation lands in memory a GPU maps
// there too (the allocation's own slack, up to the next 256 bytes and the gap after them), as
// real programs rely on; one far past it still faults.
TEST(MemoryFault, JustPastTheEndIsMappedWithoutMemcheck) {
  const FaultRun near = run_case("st.global.u32 [%rd3], %r1;", {1}, {32}, 40, false);
  EXPECT_FALSE(near.result.fault.has_value()) << near.result.fault->message;
  const FaultRun far = run_case("st.global.u32 [%rd1+512], %r1;", {1}, {1}, 40, false);
  ASSERT_TRUE(far.result.fault.has_value());
  EXPECT_EQ(far.result.fault->address, far.buffer + 512);
}

TEST(MemoryFault, FaultInALaterBlock) {
  const FaultRun r = run_case(
      "mov.u32 %r6, %ctaid.x;\n  setp.eq.u32 %p1, %r6, 2;\n"
      "  @%p1 atom.global.add.u32 %r5, [%rd3+1], 1;",
      {3}, {4});
  ASSERT_TRUE(r.result.fault.has_value());
  EXPECT_EQ(r.result.fault->kind, "misaligned access");
  EXPECT_EQ(r.result.fault->block.x, 2u);
  EXPECT_EQ(r.result.fault->thread.x, 0u);
  EXPECT_EQ(r.result.fault->address, r.buffer + 1);
}

TEST(MemoryFault, SharedAccessPastTheCtaWindow) {
  const FaultRun r = run_case("ld.shared.u32 %r5, [%r2];", {1}, {8});
  ASSERT_TRUE(r.result.fault.has_value());
  EXPECT_EQ(r.result.fault->kind, "out-of-bounds access");
  EXPECT_EQ(r.result.fault->space, "shared");
  EXPECT_EQ(r.result.fault->address, 16u);
  EXPECT_EQ(r.result.fault->thread.x, 4u);
}

TEST(MemoryFault, MisalignedGenericSharedAccess) {
  const FaultRun r = run_case(
      "mov.u64 %rd5, tile;\n"
      "  cvta.shared.u64 %rd4, %rd5;\n  ld.u64 %rd6, [%rd4+4];",
      {1}, {1});
  ASSERT_TRUE(r.result.fault.has_value());
  EXPECT_EQ(r.result.fault->kind, "misaligned access");
  EXPECT_EQ(r.result.fault->space, "generic");
  EXPECT_EQ(r.result.fault->size, 8u);
}

TEST(MemoryFault, LocalAndParamAccessesOutsideTheirSpace) {
  const FaultRun local = run_case("ld.local.u32 %r5, [%SPL+1048576];", {1}, {1});
  ASSERT_TRUE(local.result.fault.has_value());
  EXPECT_EQ(local.result.fault->kind, "out-of-bounds access");
  EXPECT_EQ(local.result.fault->space, "local");

  const FaultRun param = run_case("ld.param.u32 %r5, [buf+64];", {1}, {1});
  ASSERT_TRUE(param.result.fault.has_value());
  EXPECT_EQ(param.result.fault->kind, "out-of-bounds access");
  EXPECT_EQ(param.result.fault->space, "param");
  EXPECT_EQ(param.result.fault->address, 64u);
}

TEST(MemoryFault, CpAsyncChecksBothSides) {
  const FaultRun r = run_case("cp.async.ca.shared.global [%r2], [%rd3], 4;", {1}, {16});
  ASSERT_TRUE(r.result.fault.has_value());
  EXPECT_EQ(r.result.fault->space, "shared");  // tile holds 4 u32: thread 4 writes past it
  EXPECT_EQ(r.result.fault->thread.x, 4u);
}

}  // namespace
}  // namespace lockstep::test::memory
