// cp.async (zero fill, ignore-src, hints, group operations), isspacep, and the functional
// no-ops: prefetch, membar, fence.
#include "func/memory_test_util.h"

namespace lockstep::test::memory {
namespace {

constexpr char kAsyncCopy[] = R"(
.visible .entry async_copy(.param .u64 src, .param .u64 out, .param .u32 valid) {
  .reg .pred %p<2>;
  .reg .b32 %r<24>;
  .reg .b64 %rd<12>;
  .shared .align 16 .b8 tile[1024];
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r9, [valid];
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, tile;
  // fill the whole tile with 0xAB so that zero-filled bytes show
  shl.b32 %r10, %r1, 6;
  add.s32 %r11, %r3, %r10;
  mov.b32 %r12, 0xABABABAB;
  st.shared.v4.u32 [%r11], {%r12, %r12, %r12, %r12};
  st.shared.v4.u32 [%r11+16], {%r12, %r12, %r12, %r12};
  st.shared.v4.u32 [%r11+32], {%r12, %r12, %r12, %r12};
  st.shared.v4.u32 [%r11+48], {%r12, %r12, %r12, %r12};
  bar.sync 0;
  // 16-byte copies of the first `valid` bytes: src-size = clamp(valid - 16 t, 0, 16)
  shl.b32 %r2, %r1, 4;
  add.s32 %r4, %r3, %r2;
  mul.wide.u32 %rd3, %r2, 1;
  add.s64 %rd4, %rd1, %rd3;
  sub.s32 %r5, %r9, %r2;
  max.s32 %r5, %r5, 0;
  min.s32 %r5, %r5, 16;
  cp.async.cg.shared.global [%r4], [%rd4], 16, %r5;
  // 4-byte copies, then 4-byte copies that odd threads ignore (zero fill)
  shl.b32 %r6, %r1, 2;
  add.s32 %r7, %r3, %r6;
  mul.wide.u32 %rd5, %r6, 1;
  add.s64 %rd6, %rd1, %rd5;
  cp.async.ca.shared.global [%r7+512], [%rd6], 4;
  and.b32 %r13, %r1, 1;
  setp.ne.u32 %p1, %r13, 0;
  cp.async.ca.shared.global [%r7+576], [%rd6], 4, %p1;
  // 8-byte copies with both L2 hints and a cache policy operand
  shl.b32 %r14, %r1, 3;
  add.s32 %r15, %r3, %r14;
  mul.wide.u32 %rd7, %r14, 1;
  add.s64 %rd8, %rd1, %rd7;
  mov.u64 %rd9, 0;
  cp.async.ca.shared.global.L2::cache_hint.L2::128B [%r15+768], [%rd8], 8, %rd9;
  cp.async.commit_group;
  cp.async.wait_group 0;
  cp.async.wait_all;
  bar.sync 0;
  // write the tile out: 64 bytes per thread
  mul.wide.u32 %rd10, %r10, 1;
  add.s64 %rd11, %rd2, %rd10;
  ld.shared.v4.u32 {%r16, %r17, %r18, %r19}, [%r11];
  st.global.v4.u32 [%rd11], {%r16, %r17, %r18, %r19};
  ld.shared.v4.u32 {%r16, %r17, %r18, %r19}, [%r11+16];
  st.global.v4.u32 [%rd11+16], {%r16, %r17, %r18, %r19};
  ld.shared.v4.u32 {%r16, %r17, %r18, %r19}, [%r11+32];
  st.global.v4.u32 [%rd11+32], {%r16, %r17, %r18, %r19};
  ld.shared.v4.u32 {%r16, %r17, %r18, %r19}, [%r11+48];
  st.global.v4.u32 [%rd11+48], {%r16, %r17, %r18, %r19};
  ret;
}
)";

TEST(MemoryAsync, CopiesAtIssueAndZeroFillsTheRest) {
  Engine engine;
  ModuleId m = engine.load_ptx(module(kAsyncCopy), "async.ptx");
  const uint32_t valid = 200;  // threads 13..15 read nothing: their sources lie past the buffer
  std::vector<uint8_t> src(valid);
  for (uint32_t i = 0; i < valid; ++i) src[i] = static_cast<uint8_t>(i + 1);
  DeviceBuffer<uint8_t> in(engine, src);
  DeviceBuffer<uint8_t> out(engine, 1024);
  launch_ok(engine, m, "async_copy", {1}, {16}, {in.arg(), out.arg(), arg(valid)});
  std::vector<uint8_t> expected(1024, 0xAB);
  for (uint32_t i = 0; i < 256; ++i) expected[i] = i < valid ? src[i] : 0;
  for (uint32_t t = 0; t < 16; ++t) {
    for (uint32_t b = 0; b < 4; ++b) {
      expected[512 + 4 * t + b] = src[4 * t + b];
      expected[576 + 4 * t + b] = t % 2 ? 0 : src[4 * t + b];
    }
    for (uint32_t b = 0; b < 8; ++b) expected[768 + 8 * t + b] = src[8 * t + b];
  }
  EXPECT_EQ(out.download(), expected);
}

TEST(MemoryAsync, RejectsBulkFormsAndBadSizes) {
  auto kernel = [](const std::string& line) {
    return module(
        ".visible .entry k(.param .u64 p) {\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [p];\n  " +
        line + "\n  ret;\n}\n");
  };
  // Bulk copies run (tests/engine/mbarrier_test.cpp); multicast to other CTAs of a cluster does not.
  EXPECT_EQ(load_error(kernel("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
                              "[%r1], [%rd1], 256, [%r2], 3;")),
            "unsupported PTX instruction 'cp.async.bulk.shared::cluster.global.mbarrier::"
            "complete_tx::bytes.multicast::cluster' at test.ptx:8");
  EXPECT_EQ(load_error(kernel("cp.async.cg.shared.global [%r1], [%rd1], 8;")),
            "cp-size of 'cp.async.cg.shared.global' must be 16");
  EXPECT_EQ(load_error(kernel("cp.async.ca.shared.global [%r1], [%rd1], 12;")),
            "cp-size of 'cp.async.ca.shared.global' must be 4, 8 or 16");
  EXPECT_EQ(load_error(kernel("cp.async.ca.shared.global [%r1], [%rd1];")),
            "expected 3 operands for 'cp.async.ca.shared.global', got 2");
  EXPECT_EQ(load_error(kernel("cp.async.wait_group;")),
            "expected 1 operand for 'cp.async.wait_group', got 0");
  EXPECT_EQ(load_error(kernel("membar.warp;")),
            "unsupported PTX instruction 'membar.warp' at test.ptx:8");
}

TEST(MemoryMisc, IsspacepClassifiesGenericAddresses) {
  const std::string text = module(R"(
.visible .entry spaces(.param .u64 out) {
  .reg .pred %p<24>;
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 s[16];
  .local .align 4 .b8 __local_depot0[16];
  .reg .b64 %SP, %SPL;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, s;
  cvta.shared.u64 %rd3, %rd2;
  isspacep.global %p1, %rd1;
  isspacep.shared %p2, %rd1;
  isspacep.local %p3, %rd1;
  isspacep.global %p4, %rd3;
  isspacep.shared::cta %p5, %rd3;
  isspacep.local %p6, %rd3;
  isspacep.global %p7, %SP;
  isspacep.shared %p8, %SP;
  isspacep.local %p9, %SP;
  isspacep.const %p10, %rd1;
  isspacep.param %p11, %rd1;
  selp.u32 %r1, 1, 0, %p1;
  selp.u32 %r2, 1, 0, %p2;
  selp.u32 %r3, 1, 0, %p3;
  selp.u32 %r4, 1, 0, %p4;
  selp.u32 %r5, 1, 0, %p5;
  selp.u32 %r6, 1, 0, %p6;
  selp.u32 %r7, 1, 0, %p7;
  selp.u32 %r8, 1, 0, %p8;
  selp.u32 %r9, 1, 0, %p9;
  selp.u32 %r10, 1, 0, %p10;
  selp.u32 %r11, 1, 0, %p11;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};
  st.global.v2.u32 [%rd1+32], {%r9, %r10};
  st.global.u32 [%rd1+40], %r11;
  ret;
}
)");
  Engine engine;
  ModuleId m = engine.load_ptx(text, "isspacep.ptx");
  DeviceBuffer<uint32_t> out(engine, 11);
  launch_ok(engine, m, "spaces", {1}, {3}, {out.arg()});
  EXPECT_EQ(out.download(), (std::vector<uint32_t>{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0}));
}

TEST(MemoryMisc, PrefetchesAndFencesChangeNothing) {
  const std::string text = module(R"(
.visible .entry fenced(.param .u64 buf) {
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [buf];
  prefetch.global.L2 [%rd1];
  prefetch.global.L1 [%rd1+4096];
  prefetch.L1 [%rd1];
  prefetch.global.L2::evict_last [%rd1];
  prefetchu.L1 [%rd1];
  membar.cta;
  membar.gl;
  membar.sys;
  fence.sc.gpu;
  fence.acq_rel.cta;
  fence.acq_rel.sys;
  fence.proxy.alias;
  fence.proxy.async;
  fence.proxy.async.shared::cta;
  fence.proxy.async.global;
  ld.global.u32 %r1, [%rd1];
  add.s32 %r2, %r1, 1;
  st.global.u32 [%rd1], %r2;
  ret;
}
)");
  Engine engine;
  ModuleId m = engine.load_ptx(text, "fenced.ptx");
  DeviceBuffer<uint32_t> buf(engine, std::vector<uint32_t>{41});
  launch_ok(engine, m, "fenced", {1}, {1}, {buf.arg()});
  EXPECT_EQ(buf.download(), std::vector<uint32_t>{42});
}

}  // namespace
}  // namespace lockstep::test::memory
