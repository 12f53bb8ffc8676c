// Special registers as the engine core initialises and reads them: lane and warp ids, lane
// masks at two warp sizes, WARP_SZ, 3D thread/block ids, %clock64 and %dynamic_smem_size.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr const char* kHeader = ".version 9.0\n.target sm_80\n.address_size 64\n";

// out[3t..3t+2] = %laneid, %warpid, %nwarpid
constexpr const char* kIds = R"(
.visible .entry ids(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %laneid;
  mov.u32 %r3, %warpid;
  mov.u32 %r4, %nwarpid;
  mul.lo.u32 %r5, %r1, 12;
  cvt.u64.u32 %rd2, %r5;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  st.global.u32 [%rd3+4], %r3;
  st.global.u32 [%rd3+8], %r4;
  ret;
}
)";

TEST(CoreSpecialRegs, LaneIdWarpIdAndWarpIdCount) {
  for (uint32_t width : {8u, 32u}) {
    EngineOptions options;
    options.warp_size = width;
    Engine engine(options);
    const ModuleId m = engine.load_ptx(std::string(kHeader) + kIds, "ids.ptx");
    test::DeviceBuffer<uint32_t> out(engine, 3 * 70);
    test::launch_ok(engine, m, "ids", {1, 1, 1}, {70, 1, 1}, {out.arg()});
    std::vector<uint32_t> expected;
    for (uint32_t t = 0; t < 70; ++t) {
      expected.push_back(t % width);
      expected.push_back(t / width);
      expected.push_back(64);  // the engine's documented %nwarpid
    }
    EXPECT_EQ(out.download(), expected) << "warp size " << width;
  }
}

// out[t] = WARP_SZ (CUDA's warpSize) + WARP_SZ * 1000 through an arithmetic operand.
constexpr const char* kWarpSize = R"(
.visible .entry warp_size(.param .u64 out)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, WARP_SZ;
  mad.lo.u32 %r3, %r2, 1000, WARP_SZ;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

TEST(CoreSpecialRegs, WarpSzIsTheSimulatedWarpWidth) {
  for (uint32_t width : {8u, 32u, 64u}) {
    EngineOptions options;
    options.warp_size = width;
    Engine engine(options);
    const ModuleId m = engine.load_ptx(std::string(kHeader) + kWarpSize, "warp_size.ptx");
    test::DeviceBuffer<uint32_t> out(engine, 40);
    test::launch_ok(engine, m, "warp_size", {1, 1, 1}, {40, 1, 1}, {out.arg()});
    EXPECT_EQ(out.download(), std::vector<uint32_t>(40, width * 1001)) << "warp size " << width;
  }
}

// out[5t..5t+4] = %lanemask_lt, _le, _eq, _ge, _gt
constexpr const char* kLaneMasks = R"(
.visible .entry masks(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %lanemask_lt;
  mov.u32 %r3, %lanemask_le;
  mov.u32 %r4, %lanemask_eq;
  mov.u32 %r5, %lanemask_ge;
  mov.u32 %r6, %lanemask_gt;
  mul.lo.u32 %r7, %r1, 20;
  cvt.u64.u32 %rd2, %r7;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  st.global.u32 [%rd3+4], %r3;
  st.global.u32 [%rd3+8], %r4;
  st.global.u32 [%rd3+12], %r5;
  st.global.u32 [%rd3+16], %r6;
  ret;
}
)";

std::vector<uint32_t> run_masks(uint32_t width, uint32_t threads) {
  EngineOptions options;
  options.warp_size = width;
  Engine engine(options);
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kLaneMasks, "masks.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 5 * threads);
  test::launch_ok(engine, m, "masks", {1, 1, 1}, {threads, 1, 1}, {out.arg()});
  return out.download();
}

TEST(CoreSpecialRegs, LaneMasksAtWarpSize32) {
  const std::vector<uint32_t> got = run_masks(32, 64);
  std::vector<uint32_t> expected;
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t l = t % 32;
    const uint32_t eq = 1u << l;
    expected.push_back(eq - 1);                  // lt
    expected.push_back(eq | (eq - 1));           // le
    expected.push_back(eq);                      // eq
    expected.push_back(~(eq - 1));               // ge
    expected.push_back(~(eq | (eq - 1)));        // gt
  }
  EXPECT_EQ(got, expected);
}

TEST(CoreSpecialRegs, LaneMasksBelowTheLaneAtWarpSize8) {
  const std::vector<uint32_t> got = run_masks(8, 24);
  for (uint32_t t = 0; t < 24; ++t) {
    const uint32_t l = t % 8;
    EXPECT_EQ(got[5 * t + 0], (1u << l) - 1) << "lt, thread " << t;
    EXPECT_EQ(got[5 * t + 1], (2u << l) - 1) << "le, thread " << t;
    EXPECT_EQ(got[5 * t + 2], 1u << l) << "eq, thread " << t;
  }
}

// %lanemask_ge/_gt hold only bits of lanes that exist in the warp.
TEST(CoreSpecialRegs, LaneMasksAboveTheLaneStayInsideAWarpOf8) {
  const std::vector<uint32_t> got = run_masks(8, 24);
  for (uint32_t t = 0; t < 24; ++t) {
    const uint32_t l = t % 8;
    EXPECT_EQ(got[5 * t + 3], 0xffu & ~((1u << l) - 1)) << "ge, thread " << t;
    EXPECT_EQ(got[5 * t + 4], 0xffu & ~((2u << l) - 1)) << "gt, thread " << t;
  }
}

// Every thread writes its 12 id values at its global linear index.
constexpr const char* kDims = R"(
.visible .entry dims(.param .u64 out)
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %tid.z;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %ntid.y;
  mov.u32 %r6, %ntid.z;
  mov.u32 %r7, %ctaid.x;
  mov.u32 %r8, %ctaid.y;
  mov.u32 %r9, %ctaid.z;
  mov.u32 %r10, %nctaid.x;
  mov.u32 %r11, %nctaid.y;
  mov.u32 %r12, %nctaid.z;
  // block linear = (ctaid.z * nctaid.y + ctaid.y) * nctaid.x + ctaid.x
  mad.lo.u32 %r13, %r9, %r11, %r8;
  mad.lo.u32 %r13, %r13, %r10, %r7;
  // thread linear in block = (tid.z * ntid.y + tid.y) * ntid.x + tid.x
  mad.lo.u32 %r14, %r3, %r5, %r2;
  mad.lo.u32 %r14, %r14, %r4, %r1;
  mul.lo.u32 %r15, %r4, %r5;
  mul.lo.u32 %r15, %r15, %r6;
  mad.lo.u32 %r16, %r13, %r15, %r14;
  mul.wide.u32 %rd2, %r16, 48;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};
  st.global.v4.u32 [%rd3+32], {%r9, %r10, %r11, %r12};
  ret;
}
)";

TEST(CoreSpecialRegs, ThreadAndBlockIdsIn3D) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kDims, "dims.ptx");
  const Dim3 grid{2, 3, 2}, block{4, 2, 5};
  const uint32_t total = 2 * 3 * 2 * 4 * 2 * 5;
  test::DeviceBuffer<uint32_t> out(engine, 12 * total);
  test::launch_ok(engine, m, "dims", grid, block, {out.arg()});
  std::vector<uint32_t> expected;
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx)
        for (uint32_t tz = 0; tz < block.z; ++tz)
          for (uint32_t ty = 0; ty < block.y; ++ty)
            for (uint32_t tx = 0; tx < block.x; ++tx)
              expected.insert(expected.end(), {tx, ty, tz, block.x, block.y, block.z, bx, by, bz,
                                               grid.x, grid.y, grid.z});
  EXPECT_EQ(out.download(), expected);
}

// Three %clock64 reads with work between them; a 32-bit %clock read too.
constexpr const char* kClock = R"(
.visible .entry clocks(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, %clock64;
  add.u32 %r1, %r1, 1;
  mov.u64 %rd3, %clock64;
  mov.u32 %r2, 0;
LOOP:
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 10;
  @%p1 bra LOOP;
  mov.u64 %rd4, %clock64;
  mov.u32 %r3, %clock;
  mov.u32 %r4, %clock;
  st.global.u64 [%rd1], %rd2;
  st.global.u64 [%rd1+8], %rd3;
  st.global.u64 [%rd1+16], %rd4;
  cvt.u64.u32 %rd5, %r3;
  cvt.u64.u32 %rd6, %r4;
  st.global.u64 [%rd1+24], %rd5;
  st.global.u64 [%rd1+32], %rd6;
  ret;
}
)";

TEST(CoreSpecialRegs, Clock64IncreasesAcrossInstructions) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kClock, "clock.ptx");
  test::DeviceBuffer<uint64_t> out(engine, 5);
  test::launch_ok(engine, m, "clocks", {1, 1, 1}, {1, 1, 1}, {out.arg()});
  const std::vector<uint64_t> c = out.download();
  EXPECT_LT(c[0], c[1]);
  EXPECT_LT(c[1], c[2]);
  EXPECT_GE(c[2] - c[1], 30u);  // the 10-iteration loop of 3 instructions ran in between
  EXPECT_LT(c[3], c[4]);
}

constexpr const char* kDynamicSmem = R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry smem(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %dynamic_smem_size;
  mov.u32 %r2, dyn;
  st.shared.u32 [%r2+196], %r1;
  ld.shared.u32 %r3, [%r2+196];
  st.global.u32 [%rd1], %r1;
  st.global.u32 [%rd1+4], %r3;
  ret;
}
)";

TEST(CoreSpecialRegs, DynamicSharedSizeIsTheLaunchValue) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kDynamicSmem, "smem.ptx");
  for (uint32_t bytes : {200u, 1024u}) {
    test::DeviceBuffer<uint32_t> out(engine, 2);
    test::launch_ok(engine, m, "smem", {1, 1, 1}, {1, 1, 1}, {out.arg()}, bytes);
    EXPECT_EQ(out.download(), (std::vector<uint32_t>{bytes, bytes}));
  }
}

}  // namespace
}  // namespace lockstep
