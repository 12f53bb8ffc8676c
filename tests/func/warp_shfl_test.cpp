// shfl.sync in every mode against CUDA's documented __shfl_*_sync(mask, v, x, width) results
// (which pass c = ((32 - width) << 8) | clamp), with partial member masks, divergence, the
// legacy form, other warp widths, and the load-time errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/harness.h"
#include "engine/engine.h"
#include "ptx/error.h"

namespace lockstep::test {
namespace {

std::string header() { return ".version 9.0\n.target sm_80\n.address_size 64\n"; }

// out[tid] = {d, p} of shfl.sync.<mode>.b32 d|p, 100 + 10*tid, b, c, mask.
std::string shfl_kernel(const std::string& mode) {
  return R"(
.visible .entry k_)" + mode + R"((.param .u64 out, .param .u32 b, .param .u32 c, .param .u32 mask) {
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [b];
  ld.param.u32 %r2, [c];
  ld.param.u32 %r3, [mask];
  mov.u32 %r4, %tid.x;
  mad.lo.u32 %r5, %r4, 10, 100;
  shfl.sync.)" + mode + R"(.b32 %r6|%p1, %r5, %r1, %r2, %r3;
  selp.u32 %r7, 1, 0, %p1;
  mul.wide.u32 %rd2, %r4, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
  st.global.u32 [%rd3+4], %r7;
  ret;
}
)";
}

std::string all_modes() {
  return header() + shfl_kernel("up") + shfl_kernel("down") + shfl_kernel("bfly") +
         shfl_kernel("idx");
}

struct Result {
  uint32_t value;
  uint32_t in_range;
};

std::vector<Result> run(Engine& e, ModuleId m, const std::string& mode, uint32_t b, uint32_t c,
                        uint32_t mask, uint32_t threads = 32) {
  DeviceBuffer<uint32_t> out(e, threads * 2);
  launch_ok(e, m, "k_" + mode, {1, 1, 1}, {threads, 1, 1},
            {out.arg(), arg(b), arg(c), arg(mask)});
  const std::vector<uint32_t> raw = out.download();
  std::vector<Result> r(threads);
  for (uint32_t i = 0; i < threads; ++i) r[i] = {raw[2 * i], raw[2 * i + 1]};
  return r;
}

uint32_t value_of(uint32_t lane) { return 100 + 10 * lane; }

// CUDA's documented results (CUDA C++ Programming Guide, warp shuffle functions).
Result cuda_up(uint32_t lane, uint32_t delta, uint32_t width) {
  if (lane % width >= delta) return {value_of(lane - delta), 1};
  return {value_of(lane), 0};
}
Result cuda_down(uint32_t lane, uint32_t delta, uint32_t width) {
  if (lane % width + delta < width) return {value_of(lane + delta), 1};
  return {value_of(lane), 0};
}
Result cuda_xor(uint32_t lane, uint32_t lane_mask, uint32_t width) {
  const uint32_t src = lane ^ lane_mask;
  // Lanes may read earlier groups but get their own value for later ones.
  if (src / width <= lane / width) return {value_of(src), 1};
  return {value_of(lane), 0};
}
Result cuda_idx(uint32_t lane, uint32_t src, uint32_t width) {
  return {value_of(lane / width * width + src % width), 1};
}

uint32_t c_for(uint32_t width, bool up) { return ((32 - width) << 8) | (up ? 0 : 0x1f); }

void expect_all(const std::vector<Result>& got, Result (*ref)(uint32_t, uint32_t, uint32_t),
                uint32_t x, uint32_t width) {
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const Result want = ref(lane, x, width);
    EXPECT_EQ(got[lane].value, want.value) << "lane " << lane << " x " << x << " width " << width;
    EXPECT_EQ(got[lane].in_range, want.in_range) << "lane " << lane << " x " << x << " width " << width;
  }
}

TEST(WarpShfl, EveryModeMatchesCudaForWidths32_16_8) {
  Engine e;
  const ModuleId m = e.load_ptx(all_modes(), "shfl.ptx");
  for (uint32_t width : {32u, 16u, 8u}) {
    for (uint32_t delta : {0u, 1u, 3u, 7u, 16u}) {
      expect_all(run(e, m, "up", delta, c_for(width, true), 0xffffffffu), cuda_up, delta, width);
      expect_all(run(e, m, "down", delta, c_for(width, false), 0xffffffffu), cuda_down, delta, width);
    }
    for (uint32_t lane_mask : {1u, 2u, 5u, 8u, 16u, 31u})
      expect_all(run(e, m, "bfly", lane_mask, c_for(width, false), 0xffffffffu), cuda_xor, lane_mask, width);
    for (uint32_t src : {0u, 3u, 9u, 31u})
      expect_all(run(e, m, "idx", src, c_for(width, false), 0xffffffffu), cuda_idx, src, width);
  }
}

TEST(WarpShfl, ClampWithoutSegmentsFollowsTheIsaRule) {
  Engine e;
  const ModuleId m = e.load_ptx(all_modes(), "shfl.ptx");
  // down with clamp 20 (no segments): maxLane = 20, so lanes 18..31 keep their value.
  const auto down = run(e, m, "down", 3, 20, 0xffffffffu);
  EXPECT_EQ(down[17].value, value_of(20));
  EXPECT_EQ(down[17].in_range, 1u);
  EXPECT_EQ(down[18].value, value_of(18));
  EXPECT_EQ(down[18].in_range, 0u);
  // up with clamp 4: j = lane - 2 must be >= 4.
  const auto up = run(e, m, "up", 2, 4, 0xffffffffu);
  EXPECT_EQ(up[6].value, value_of(4));
  EXPECT_EQ(up[6].in_range, 1u);
  EXPECT_EQ(up[5].value, value_of(5));
  EXPECT_EQ(up[5].in_range, 0u);
  // idx beyond the clamp: lane 12 > clamp 10 -> own value, p = 0.
  const auto idx = run(e, m, "idx", 12, 10, 0xffffffffu);
  EXPECT_EQ(idx[3].value, value_of(3));
  EXPECT_EQ(idx[3].in_range, 0u);
  // an out-of-range b wraps to 5 bits: b = 33 is lane 1.
  const auto wrapped = run(e, m, "idx", 33, 31, 0xffffffffu);
  EXPECT_EQ(wrapped[7].value, value_of(1));
}

TEST(WarpShfl, PartialMemberMaskInAPartialBlock) {
  // 16 threads: only lanes 0..15 exist. membermask 0xffff; down by 1 makes lane 15 read lane 16,
  // which is in range by the ISA rule (maxLane 31) but not executing: it supplies its current
  // register value, here never written (0).
  Engine e;
  const ModuleId m = e.load_ptx(all_modes(), "shfl.ptx");
  const auto r = run(e, m, "down", 1, 0x1f, 0xffffu, 16);
  for (uint32_t lane = 0; lane < 15; ++lane) EXPECT_EQ(r[lane].value, value_of(lane + 1));
  EXPECT_EQ(r[15].in_range, 1u);
  const auto half = run(e, m, "bfly", 4, c_for(16, false), 0xffffu, 16);
  for (uint32_t lane = 0; lane < 16; ++lane) EXPECT_EQ(half[lane].value, value_of(lane ^ 4));
}

TEST(WarpShfl, DivergedSourceLaneSuppliesItsCurrentValue) {
  // Odd lanes branch around the shfl; even lanes (membermask 0x55555555) read lane 1 (idx)
  // and lane+1 (down). Lane 1's register holds the value it had before the branch.
  const std::string text = header() + R"(
.visible .entry diverge(.param .u64 out) {
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mad.lo.u32 %r2, %r1, 10, 100;
  mov.u32 %r3, 7;
  mov.u32 %r4, 7;
  and.b32 %r5, %r1, 1;
  setp.ne.u32 %p1, %r5, 0;
  @%p1 bra SKIP;
  shfl.sync.idx.b32 %r3|%p2, %r2, 1, 31, 0x55555555;
  shfl.sync.down.b32 %r4|%p3, %r2, 1, 31, 0x55555555;
SKIP:
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  st.global.u32 [%rd3+4], %r4;
  ret;
}
)";
  Engine e;
  const ModuleId m = e.load_ptx(text, "diverge.ptx");
  DeviceBuffer<uint32_t> out(e, 64);
  launch_ok(e, m, "diverge", {1, 1, 1}, {32, 1, 1}, {out.arg()});
  const auto r = out.download();
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if (lane % 2) {
      EXPECT_EQ(r[2 * lane], 7u);
      EXPECT_EQ(r[2 * lane + 1], 7u);
    } else {
      EXPECT_EQ(r[2 * lane], value_of(1)) << lane;
      EXPECT_EQ(r[2 * lane + 1], lane == 31 ? value_of(31) : value_of(lane + 1)) << lane;
    }
  }
}

TEST(WarpShfl, LegacyShflWithoutSync) {
  const std::string text = header() + R"(
.visible .entry legacy(.param .u64 out) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mad.lo.u32 %r2, %r1, 10, 100;
  shfl.bfly.b32 %r3, %r2, 1, 31;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";
  Engine e;
  const ModuleId m = e.load_ptx(text, "legacy.ptx");
  DeviceBuffer<uint32_t> out(e, 32);
  launch_ok(e, m, "legacy", {1, 1, 1}, {32, 1, 1}, {out.arg()});
  const auto r = out.download();
  for (uint32_t lane = 0; lane < 32; ++lane) EXPECT_EQ(r[lane], value_of(lane ^ 1));
}

TEST(WarpShfl, NarrowWarpTreatsMissingLanesAsOutOfRange) {
  // An 8-lane warp: bfly 4 stays inside the warp; bfly 16 names lanes the warp does not have.
  Engine e(warp_options(8));
  const ModuleId m = e.load_ptx(all_modes(), "shfl.ptx");
  const auto in = run(e, m, "bfly", 4, 0x1f, 0xffffffffu, 8);
  const auto out = run(e, m, "bfly", 16, 0x1f, 0xffffffffu, 8);
  for (uint32_t lane = 0; lane < 8; ++lane) {
    EXPECT_EQ(in[lane].value, value_of(lane ^ 4));
    EXPECT_EQ(in[lane].in_range, 1u);
    EXPECT_EQ(out[lane].value, value_of(lane));
    EXPECT_EQ(out[lane].in_range, 0u);
  }
}

TEST(WarpShfl, WideWarpShufflesWithinEach32LaneGroup) {
  Engine e(warp_options(64));
  const ModuleId m = e.load_ptx(all_modes(), "shfl.ptx");
  const auto r = run(e, m, "idx", 3, 0x1f, 0xffffffffu, 64);
  for (uint32_t lane = 0; lane < 64; ++lane) EXPECT_EQ(r[lane].value, value_of(lane / 32 * 32 + 3));
}

std::string load_error(const std::string& text) {
  Engine e;
  try {
    e.load_ptx(text, "bad.ptx");
  } catch (const ptx::Error& err) {
    return err.message();
  }
  return "";
}

std::string one_inst(const std::string& inst) {
  return header() + R"(
.visible .entry k() {
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .reg .pred %p<2>;
  )" + inst + R"(
  ret;
}
)";
}

TEST(WarpShfl, LoadTimeErrors) {
  EXPECT_EQ(load_error(one_inst("shfl.sync.idx.b16 %r1, %r2, 0, 31, -1;")),
            "unsupported PTX instruction 'shfl.sync.idx.b16' at bad.ptx:9");
  EXPECT_EQ(load_error(one_inst("shfl.sync.idx.b32 %r1, %r2, 0, 31;")),
            "expected 5 operands for 'shfl.sync.idx.b32', got 4");
}

}  // namespace
}  // namespace lockstep::test
