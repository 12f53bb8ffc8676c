// Device-side malloc/free (and so new/delete): the heap's allocator, and kernels that allocate
// in one launch and free in another, as nvcc emits them.
#include <gtest/gtest.h>

#include <vector>

#include "common/harness.h"
#include "fmt/format.h"
#include "engine/engine.h"
#include "func/device_heap.h"

namespace lockstep {
namespace {

TEST(DeviceHeap, FirstFitAlignedAndCoalescing) {
  func::DeviceMemory memory;
  func::DeviceHeap heap(memory);
  ASSERT_TRUE(heap.set_size(256));
  const uint64_t a = heap.allocate(1);    // 16 bytes
  const uint64_t b = heap.allocate(100);  // 112 bytes
  const uint64_t c = heap.allocate(16);
  EXPECT_EQ(a % 16, 0u);
  EXPECT_EQ(b, a + 16);
  EXPECT_EQ(c, b + 112);
  EXPECT_FALSE(heap.set_size(1024)) << "the size is fixed once the heap is in use";
  EXPECT_EQ(heap.allocate(200), 0u) << "exhausted: malloc returns NULL";
  EXPECT_TRUE(heap.release(b));
  EXPECT_FALSE(heap.release(b)) << "double free";
  EXPECT_FALSE(heap.release(b + 16)) << "not a block start";
  EXPECT_EQ(heap.allocate(32), b) << "first fit reuses the hole";
  EXPECT_TRUE(heap.release(a));
  EXPECT_TRUE(heap.release(b));
  EXPECT_TRUE(heap.release(c));
  EXPECT_EQ(heap.allocate(256), a) << "all holes coalesced into one";
  EXPECT_TRUE(heap.release(0)) << "free(NULL) does nothing";
}

// nvcc 13's PTX for: k: p = malloc(n * 4); p[0] = tid; out[tid] = p.   f: free(out[tid]).
constexpr const char* kHeapKernels = R"(.version 9.0
.target sm_80
.address_size 64
.extern .func  (.param .b64 func_retval0) malloc
(
	.param .b64 malloc_param_0
)
;
.extern .func free
(
	.param .b64 free_param_0
)
;
.visible .entry _Z1kPPii(
	.param .u64 _Z1kPPii_param_0,
	.param .u32 _Z1kPPii_param_1
)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<7>;
	ld.param.u64 	%rd1, [_Z1kPPii_param_0];
	ld.param.u32 	%r1, [_Z1kPPii_param_1];
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r1, 4;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd3;
	.param .b64 retval0;
	call.uni (retval0),
	malloc,
	(
	param0
	);
	ld.param.b64 	%rd4, [retval0+0];
	} // callseq 0
	mov.u32 	%r2, %tid.x;
	st.u32 	[%rd4], %r2;
	mul.wide.u32 	%rd5, %r2, 8;
	add.s64 	%rd6, %rd2, %rd5;
	st.global.u64 	[%rd6], %rd4;
	ret;
}
.visible .entry _Z1fPPi(
	.param .u64 _Z1fPPi_param_0
)
{
	.reg .b32 	%r<2>;
	.reg .b64 	%rd<6>;
	ld.param.u64 	%rd1, [_Z1fPPi_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 8;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.u64 	%rd5, [%rd4];
	{ // callseq 1, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd5;
	call.uni
	free,
	(
	param0
	);
	} // callseq 1
	ret;
}
)";

TEST(DeviceMalloc, BlocksOutliveTheLaunchAndAreFreedByAnother) {
  Engine engine;
  const ModuleId m = engine.load_ptx(kHeapKernels, "heap.ptx");
  test::DeviceBuffer<uint64_t> pointers(engine, 4);
  test::launch_ok(engine, m, "_Z1kPPii", {1, 1, 1}, {4, 1, 1},
                  {KernelArg::of(pointers.address()), KernelArg::of(int32_t{5})});
  const std::vector<uint64_t> p = pointers.download();
  // 20 bytes round up to 32: lanes allocate in lane order.
  EXPECT_EQ(p[1], p[0] + 32);
  EXPECT_EQ(p[2], p[0] + 64);
  EXPECT_EQ(p[3], p[0] + 96);
  for (uint32_t i = 0; i < 4; ++i) {
    uint32_t first = 99;
    engine.copy_to_host(&first, p[i], 4);
    EXPECT_EQ(first, i);
  }
  test::launch_ok(engine, m, "_Z1fPPi", {1, 1, 1}, {4, 1, 1}, {KernelArg::of(pointers.address())});
  // Everything was freed: the next allocations start over at the same addresses.
  test::launch_ok(engine, m, "_Z1kPPii", {1, 1, 1}, {4, 1, 1},
                  {KernelArg::of(pointers.address()), KernelArg::of(int32_t{5})});
  EXPECT_EQ(pointers.download(), p);
  EXPECT_FALSE(engine.set_heap_size(1 << 20));
}

TEST(DeviceMalloc, ExhaustedHeapReturnsNullAndDoubleFreeFaults) {
  Engine engine;
  ASSERT_TRUE(engine.set_heap_size(64));
  EXPECT_EQ(engine.heap_size(), 64u);
  const ModuleId m = engine.load_ptx(kHeapKernels, "heap.ptx");
  test::DeviceBuffer<uint64_t> pointers(engine, 4);
  // Four lanes want 32 bytes each from a 64-byte heap: lanes 2 and 3 get NULL, so their store
  // through the pointer faults at address 0.
  LaunchResult r = engine.launch(m, "_Z1kPPii", {1, 1, 1}, {4, 1, 1}, 0,
                                 {KernelArg::of(pointers.address()), KernelArg::of(int32_t{5})});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->address, 0u);
  EXPECT_EQ(r.fault->thread.x, 2u);

  Engine fresh;
  const ModuleId m2 = fresh.load_ptx(kHeapKernels, "heap.ptx");
  test::DeviceBuffer<uint64_t> twice(fresh, std::vector<uint64_t>{0, 0});
  test::launch_ok(fresh, m2, "_Z1kPPii", {1, 1, 1}, {1, 1, 1},
                  {KernelArg::of(twice.address()), KernelArg::of(int32_t{1})});
  const uint64_t block = twice.download()[0];
  twice.upload({block, block});
  r = fresh.launch(m2, "_Z1fPPi", {1, 1, 1}, {2, 1, 1}, 0, {KernelArg::of(twice.address())});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->thread.x, 1u);
  EXPECT_EQ(r.fault->address, block);
  EXPECT_EQ(r.fault->message,
            fmt::format("invalid free in kernel '_Z1fPPi', block (0,0,0), thread (1,0,0), pc 7 (heap.ptx:60): "
                        "free({:#x}): not an address malloc returned, or already freed",
                        block));
}

}  // namespace
}  // namespace lockstep
