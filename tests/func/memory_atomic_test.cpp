// atom / red: every operation and type with exact results, contention across warps and
// blocks, lane-order determinism, half-precision rounding and the f32 flush to zero.
#include <algorithm>
#include <limits>
#include <numeric>

#include "func/memory_test_util.h"

namespace lockstep::test::memory {
namespace {

template <class T>
T field(const std::vector<uint8_t>& bytes, size_t offset) {
  T v;
  std::memcpy(&v, bytes.data() + offset, sizeof(T));
  return v;
}

template <class T>
void set_field(std::vector<uint8_t>& bytes, size_t offset, T v) {
  std::memcpy(bytes.data() + offset, &v, sizeof(T));
}

constexpr char kContend[] = R"(
.visible .entry contend(.param .u64 cells, .param .u64 olds) {
  .reg .b32 %r<32>;
  .reg .b64 %rd<32>;
  ld.param.u64 %rd1, [cells];
  ld.param.u64 %rd2, [olds];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd3, %r4, 8;
  add.s64 %rd4, %rd2, %rd3;
  mul.wide.u32 %rd5, %r4, 1;
  atom.global.add.u32 %r5, [%rd1], 1;
  st.global.u32 [%rd4], %r5;
  add.s64 %rd6, %rd5, 8589934592;
  atom.global.add.u64 %rd7, [%rd1+8], %rd6;
  atom.global.add.s32 %r6, [%rd1+16], -3;
  mul.lo.s32 %r7, %r4, 7919;
  rem.u32 %r8, %r7, 1000;
  sub.s32 %r9, %r8, 500;
  atom.global.min.s32 %r10, [%rd1+20], %r9;
  atom.global.max.s32 %r10, [%rd1+24], %r9;
  atom.global.min.u32 %r10, [%rd1+28], %r7;
  atom.global.max.u32 %r10, [%rd1+32], %r7;
  mul.wide.s32 %rd8, %r9, 1000000007;
  atom.global.min.s64 %rd9, [%rd1+40], %rd8;
  atom.global.max.u64 %rd9, [%rd1+48], %rd8;
  and.b32 %r11, %r4, 31;
  mov.u32 %r20, 1;
  shl.b32 %r12, %r20, %r11;
  not.b32 %r13, %r12;
  atom.global.and.b32 %r10, [%rd1+56], %r13;
  atom.global.or.b32 %r10, [%rd1+60], %r12;
  atom.global.xor.b32 %r10, [%rd1+64], %r4;
  and.b32 %r14, %r4, 63;
  mov.u64 %rd20, 1;
  shl.b64 %rd10, %rd20, %r14;
  not.b64 %rd11, %rd10;
  atom.global.and.b64 %rd9, [%rd1+72], %rd11;
  atom.global.or.b64 %rd9, [%rd1+80], %rd10;
  atom.global.xor.b64 %rd9, [%rd1+88], %rd8;
  atom.global.inc.u32 %r10, [%rd1+96], 100;
  atom.global.dec.u32 %r10, [%rd1+100], 100;
  add.s32 %r15, %r4, 1;
  atom.global.exch.b32 %r16, [%rd1+104], %r15;
  st.global.u32 [%rd4+4], %r16;
  red.global.add.u32 [%rd1+108], 2;
  red.global.max.s64 [%rd1+112], %rd8;
  red.relaxed.gpu.global.xor.b32 [%rd1+120], %r7;
  ret;
}
)";

TEST(MemoryAtomic, IntegerOperationsUnderContention) {
  Engine engine;
  ModuleId m = engine.load_ptx(module(kContend), "contend.ptx");
  const uint32_t blocks = 4, threads = 96, n = blocks * threads;
  std::vector<uint8_t> init(128, 0);
  set_field<uint64_t>(init, 8, 7);
  set_field<int32_t>(init, 16, 1000);
  set_field<int32_t>(init, 20, std::numeric_limits<int32_t>::max());
  set_field<int32_t>(init, 24, std::numeric_limits<int32_t>::min());
  set_field<uint32_t>(init, 28, 0xffffffffu);
  set_field<int64_t>(init, 40, std::numeric_limits<int64_t>::max());
  set_field<uint32_t>(init, 56, 0xffffffffu);
  set_field<uint64_t>(init, 72, ~uint64_t{0});
  set_field<uint64_t>(init, 88, 0x1234);
  set_field<uint32_t>(init, 100, 5);
  set_field<int64_t>(init, 112, std::numeric_limits<int64_t>::min());
  DeviceBuffer<uint8_t> cells(engine, init);
  DeviceBuffer<uint32_t> olds(engine, 2 * n);
  launch_ok(engine, m, "contend", {blocks}, {threads}, {cells.arg(), olds.arg()});
  const std::vector<uint8_t> r = cells.download();

  uint64_t sum64 = 7;
  int32_t mn = std::numeric_limits<int32_t>::max(), mx = std::numeric_limits<int32_t>::min();
  uint32_t umn = 0xffffffffu, umx = 0, band = 0xffffffffu, bor = 0, bxor = 0, rxor = 0;
  int64_t mn64 = std::numeric_limits<int64_t>::max(), smax64 = std::numeric_limits<int64_t>::min();
  uint64_t umx64 = 0, band64 = ~uint64_t{0}, bor64 = 0, bxor64 = 0x1234;
  for (uint32_t g = 0; g < n; ++g) {
    sum64 += (uint64_t{1} << 33) + g;
    const uint32_t u = g * 7919u;
    const int32_t v = static_cast<int32_t>(u % 1000) - 500;
    const int64_t v64 = int64_t{v} * 1000000007;
    mn = std::min(mn, v);
    mx = std::max(mx, v);
    umn = std::min(umn, u);
    umx = std::max(umx, u);
    mn64 = std::min(mn64, v64);
    smax64 = std::max(smax64, v64);
    umx64 = std::max(umx64, static_cast<uint64_t>(v64));
    band &= ~(1u << (g % 32));
    bor |= 1u << (g % 32);
    bxor ^= g;
    rxor ^= u;
    band64 &= ~(uint64_t{1} << (g % 64));
    bor64 |= uint64_t{1} << (g % 64);
    bxor64 ^= static_cast<uint64_t>(v64);
  }
  EXPECT_EQ(field<uint32_t>(r, 0), n);
  EXPECT_EQ(field<uint64_t>(r, 8), sum64);
  EXPECT_EQ(field<int32_t>(r, 16), 1000 - 3 * static_cast<int32_t>(n));
  EXPECT_EQ(field<int32_t>(r, 20), mn);
  EXPECT_EQ(field<int32_t>(r, 24), mx);
  EXPECT_EQ(field<uint32_t>(r, 28), umn);
  EXPECT_EQ(field<uint32_t>(r, 32), umx);
  EXPECT_EQ(field<int64_t>(r, 40), mn64);
  EXPECT_EQ(field<uint64_t>(r, 48), umx64);
  EXPECT_EQ(field<uint32_t>(r, 56), band);
  EXPECT_EQ(field<uint32_t>(r, 60), bor);
  EXPECT_EQ(field<uint32_t>(r, 64), bxor);
  EXPECT_EQ(field<uint64_t>(r, 72), band64);
  EXPECT_EQ(field<uint64_t>(r, 80), bor64);
  EXPECT_EQ(field<uint64_t>(r, 88), bxor64);
  EXPECT_EQ(field<uint32_t>(r, 96), n % 101);                   // inc wraps after 100
  EXPECT_EQ(field<uint32_t>(r, 100), (5 + 101 * 4 - n) % 101);  // dec wraps below 0 to 100
  EXPECT_EQ(field<uint32_t>(r, 108), 2 * n);
  EXPECT_EQ(field<int64_t>(r, 112), smax64);
  EXPECT_EQ(field<uint32_t>(r, 120), rxor);

  const std::vector<uint32_t> o = olds.download();
  std::vector<uint32_t> tickets, exchanged;
  for (uint32_t g = 0; g < n; ++g) {
    tickets.push_back(o[2 * g]);
    exchanged.push_back(o[2 * g + 1]);
    // Lanes of a warp apply their operations in lane order: consecutive tickets.
    const uint32_t first = g - g % 32;
    EXPECT_EQ(o[2 * g], o[2 * first] + g % 32) << g;
  }
  std::sort(tickets.begin(), tickets.end());
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(tickets[i], i);
  // exch: every value 0..n was in the cell exactly once (as an old value or the final one).
  exchanged.push_back(field<uint32_t>(r, 104));
  std::sort(exchanged.begin(), exchanged.end());
  for (uint32_t i = 0; i <= n; ++i) EXPECT_EQ(exchanged[i], i);
}

TEST(MemoryAtomic, CompareAndSwapAtEveryWidth) {
  const std::string text = module(R"(
.visible .entry cas(.param .u64 c16, .param .u64 c32, .param .u64 c64, .param .u64 olds) {
  .reg .b16 %rs<8>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .shared .align 4 .u32 s[64];
  ld.param.u64 %rd1, [c16];
  ld.param.u64 %rd2, [c32];
  ld.param.u64 %rd3, [c64];
  ld.param.u64 %rd4, [olds];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  add.s32 %r3, %r1, %r2;
  add.s32 %r4, %r1, 1000;
  mul.wide.u32 %rd5, %r1, 2;
  add.s64 %rd5, %rd1, %rd5;
  mov.b32 {%rs1, %rs2}, %r3;
  mov.b32 {%rs3, %rs4}, %r4;
  atom.global.cas.b16 %rs5, [%rd5], %rs1, %rs3;
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd2, %rd6;
  atom.global.cas.b32 %r5, [%rd7], %r3, %r4;
  mul.wide.u32 %rd8, %r1, 8;
  add.s64 %rd9, %rd3, %rd8;
  mul.wide.u32 %rd10, %r3, 1;
  mul.wide.u32 %rd15, %r4, 1;
  shl.b64 %rd11, %rd15, 32;
  atom.global.cas.b64 %rd12, [%rd9], %rd10, %rd11;
  mov.u32 %r6, s;
  shl.b32 %r7, %r1, 2;
  add.s32 %r8, %r6, %r7;
  st.shared.u32 [%r8], %r1;
  atom.shared.cas.b32 %r9, [%r8], %r3, %r4;
  ld.shared.u32 %r10, [%r8];
  mul.wide.u32 %rd13, %r1, 16;
  add.s64 %rd14, %rd4, %rd13;
  st.global.u16 [%rd14], %rs5;
  st.global.u32 [%rd14+4], %r5;
  st.global.u32 [%rd14+8], %r9;
  st.global.u32 [%rd14+12], %r10;
  ret;
}
)");
  Engine engine;
  ModuleId m = engine.load_ptx(text, "cas.ptx");
  const uint32_t n = 40;
  std::vector<uint16_t> i16(n);
  std::vector<uint32_t> i32(n);
  std::vector<uint64_t> i64(n);
  for (uint32_t t = 0; t < n; ++t) {
    i16[t] = static_cast<uint16_t>(t);
    i32[t] = t;
    i64[t] = t;
  }
  DeviceBuffer<uint16_t> c16(engine, i16);
  DeviceBuffer<uint32_t> c32(engine, i32);
  DeviceBuffer<uint64_t> c64(engine, i64);
  DeviceBuffer<uint32_t> olds(engine, 4 * n);
  launch_ok(engine, m, "cas", {1}, {n}, {c16.arg(), c32.arg(), c64.arg(), olds.arg()});
  const auto r16 = c16.download();
  const auto r32 = c32.download();
  const auto r64 = c64.download();
  const auto o = olds.download();
  for (uint32_t t = 0; t < n; ++t) {
    const bool swaps = t % 2 == 0;  // the compare value equals the cell only for even threads
    EXPECT_EQ(r16[t], swaps ? 1000 + t : t) << t;
    EXPECT_EQ(r32[t], swaps ? 1000 + t : t) << t;
    EXPECT_EQ(r64[t], swaps ? uint64_t{1000 + t} << 32 : t) << t;
    EXPECT_EQ(o[4 * t] & 0xffff, t) << t;
    EXPECT_EQ(o[4 * t + 1], t) << t;
    EXPECT_EQ(o[4 * t + 2], t) << t;
    EXPECT_EQ(o[4 * t + 3], swaps ? 1000 + t : t) << t;
  }
}

TEST(MemoryAtomic, SharedAndGenericAtomicsPerBlock) {
  const std::string text = module(R"(
.visible .entry block_sums(.param .u64 out) {
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .f32 %f<4>;
  .reg .f64 %fd<4>;
  .reg .b64 %rd<12>;
  .shared .align 16 .b8 s[48];
  mov.u32 %r1, %tid.x;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra WAIT;
  st.shared.v4.u32 [s], {0, 0, 0, 0};
  st.shared.v4.u32 [s+16], {0, 0, 0, 0};
  st.shared.u64 [s+32], 0;
WAIT:
  bar.sync 0;
  atom.shared.add.u32 %r2, [s], 1;
  atom.shared.add.f32 %f1, [s+4], 0f3F000000;
  atom.shared.add.f64 %fd1, [s+8], 0d3FD0000000000000;
  atom.shared.add.u64 %rd1, [s+16], 3;
  red.shared.add.u32 [s+24], 2;
  mov.u64 %rd2, s;
  cvta.shared.u64 %rd3, %rd2;
  atom.add.u32 %r3, [%rd3+28], 5;
  ld.param.u64 %rd4, [out];
  cvta.to.global.u64 %rd5, %rd4;
  cvta.global.u64 %rd6, %rd5;
  atom.add.u32 %r4, [%rd6+256], 1;
  red.max.u32 [%rd3+32], %r1;
  bar.sync 0;
  @%p1 bra DONE;
  mov.u32 %r5, %ctaid.x;
  mul.wide.u32 %rd7, %r5, 48;
  add.s64 %rd8, %rd5, %rd7;
  ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [s];
  st.global.v4.u32 [%rd8], {%r1, %r2, %r3, %r4};
  ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [s+16];
  st.global.v4.u32 [%rd8+16], {%r1, %r2, %r3, %r4};
  ld.shared.u64 %rd9, [s+32];
  st.global.u64 [%rd8+32], %rd9;
DONE:
  ret;
}
)");
  Engine engine;
  ModuleId m = engine.load_ptx(text, "block_sums.ptx");
  const uint32_t blocks = 3, threads = 200;
  DeviceBuffer<uint8_t> out(engine, 264);
  launch_ok(engine, m, "block_sums", {blocks}, {threads}, {out.arg()});
  const std::vector<uint8_t> r = out.download();
  for (uint32_t b = 0; b < blocks; ++b) {
    const size_t at = 48 * b;
    EXPECT_EQ(field<uint32_t>(r, at), threads);
    EXPECT_EQ(field<float>(r, at + 4), 0.5f * threads);
    EXPECT_EQ(field<double>(r, at + 8), 0.25 * threads);
    EXPECT_EQ(field<uint64_t>(r, at + 16), 3u * threads);
    EXPECT_EQ(field<uint32_t>(r, at + 24), 2u * threads);
    EXPECT_EQ(field<uint32_t>(r, at + 28), 5u * threads);
    EXPECT_EQ(field<uint32_t>(r, at + 32), threads - 1);
  }
  EXPECT_EQ(field<uint32_t>(r, 256), blocks * threads);
}

TEST(MemoryAtomic, FloatAddsRoundAsTheDeviceDoes) {
  // Many threads adding the same value: f16 is exact up to 2048, bf16 stops growing at 256
  // (256 + 1 is a tie that rounds back to 256) and at 128 for steps of 0.5.
  const std::string text = module(R"(
.visible .entry accumulate(.param .u64 cells) {
  .reg .b16 %rs<4>;
  .reg .b32 %r<4>;
  .reg .f32 %f<2>;
  .reg .f64 %fd<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [cells];
  atom.global.add.f32 %f1, [%rd1], 0f3F000000;
  atom.global.add.f64 %fd1, [%rd1+8], 0d3FD0000000000000;
  mov.b16 %rs1, 0x3C00;
  atom.add.noftz.f16 %rs2, [%rd1+16], %rs1;
  mov.b32 %r1, 0x3C003800;
  atom.add.noftz.f16x2 %r2, [%rd1+20], %r1;
  mov.b16 %rs3, 0x3F80;
  atom.global.add.noftz.bf16 %rs2, [%rd1+24], %rs3;
  mov.b32 %r3, 0x3F803F00;
  red.global.add.noftz.bf16x2 [%rd1+28], %r3;
  ret;
}
)",
                                  "sm_90");
  Engine engine;
  ModuleId m = engine.load_ptx(text, "accumulate.ptx");
  DeviceBuffer<uint8_t> cells(engine, 32);
  launch_ok(engine, m, "accumulate", {3}, {128}, {cells.arg()});
  const std::vector<uint8_t> r = cells.download();
  EXPECT_EQ(field<float>(r, 0), 192.0f);
  EXPECT_EQ(field<double>(r, 8), 96.0);
  EXPECT_EQ(field<uint16_t>(r, 16), 0x5E00);       // 384.0
  EXPECT_EQ(field<uint32_t>(r, 20), 0x5E005A00u);  // {384.0, 192.0}
  EXPECT_EQ(field<uint16_t>(r, 24), 0x4380);       // 256.0
  EXPECT_EQ(field<uint32_t>(r, 28), 0x43804300u);  // {256.0, 128.0}
}

TEST(MemoryAtomic, SingleAddsRoundToNearestEvenAndF32FlushesSubnormals) {
  // in[i] is the addend for cell i; cells start with init. Each add is one atom.
  const std::string text = module(R"(
.visible .entry rounding(.param .u64 cells, .param .u64 in, .param .u64 olds) {
  .reg .b16 %rs<16>;
  .reg .b32 %r<16>;
  .reg .f32 %f<16>;
  .reg .f64 %fd<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [cells];
  ld.param.u64 %rd2, [in];
  ld.param.u64 %rd3, [olds];
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2];
  atom.global.add.f32 %f5, [%rd1], %f1;
  atom.global.add.f32 %f6, [%rd1+4], %f2;
  atom.global.add.f32 %f7, [%rd1+8], %f3;
  atom.global.add.f32 %f8, [%rd1+12], %f4;
  ld.global.v4.b16 {%rs1, %rs2, %rs3, %rs4}, [%rd2+16];
  atom.global.add.noftz.f16 %rs5, [%rd1+16], %rs1;
  atom.global.add.noftz.f16 %rs6, [%rd1+18], %rs2;
  atom.global.add.noftz.f16 %rs7, [%rd1+20], %rs3;
  atom.global.add.noftz.f16 %rs8, [%rd1+22], %rs4;
  ld.global.v2.b16 {%rs9, %rs10}, [%rd2+24];
  atom.global.add.noftz.bf16 %rs11, [%rd1+24], %rs9;
  atom.global.add.noftz.bf16 %rs12, [%rd1+26], %rs10;
  ld.global.f64 %fd1, [%rd2+32];
  atom.global.add.f64 %fd2, [%rd1+32], %fd1;
  st.global.v4.f32 [%rd3], {%f5, %f6, %f7, %f8};
  st.global.v4.b16 [%rd3+16], {%rs5, %rs6, %rs7, %rs8};
  st.global.v2.b16 [%rd3+24], {%rs11, %rs12};
  st.global.f64 [%rd3+32], %fd2;
  ret;
}
)",
                                  "sm_90");
  Engine engine;
  ModuleId m = engine.load_ptx(text, "rounding.ptx");
  std::vector<uint8_t> init(40, 0), in(40, 0);
  set_field<uint32_t>(init, 0, 0x3f800000u);  // 1.0 + 2^-24: a tie, stays 1.0
  set_field<uint32_t>(in, 0, 0x33800000u);
  set_field<uint32_t>(init, 4, 0x3f800000u);  // 1.0 + 3 * 2^-24 -> 1 + 2^-22
  set_field<uint32_t>(in, 4, 0x34400000u);
  set_field<uint32_t>(init, 8, 0u);  // 0 + smallest subnormal -> flushed: 0
  set_field<uint32_t>(in, 8, 0x00000001u);
  set_field<uint32_t>(init, 12, 0x00c00000u);  // 1.5 * 2^-126 - 2^-126: subnormal sum -> 0
  set_field<uint32_t>(in, 12, 0x80800000u);
  set_field<uint16_t>(init, 16, 0x6800);  // 2048 + 1 -> 2048 (tie to even)
  set_field<uint16_t>(in, 16, 0x3C00);
  set_field<uint16_t>(init, 18, 0x6800);  // 2048 + 3 -> 2052
  set_field<uint16_t>(in, 18, 0x4200);
  set_field<uint16_t>(init, 20, 0x0001);  // subnormals are kept (.noftz)
  set_field<uint16_t>(in, 20, 0x0001);
  set_field<uint16_t>(init, 22, 0x7BFF);  // 65504 + 16 = 65520: rounds to infinity
  set_field<uint16_t>(in, 22, 0x4C00);
  set_field<uint16_t>(init, 24, 0x3F80);  // bf16 1 + 2^-8 -> 1 (tie to even)
  set_field<uint16_t>(in, 24, 0x3B80);
  set_field<uint16_t>(init, 26, 0x3F80);  // bf16 1 + 3 * 2^-8 -> 1 + 2^-6
  set_field<uint16_t>(in, 26, 0x3C40);
  set_field<double>(init, 32, 1.0);  // 1 + 2^-53 -> 1 (tie to even)
  set_field<double>(in, 32, 0x1p-53);
  DeviceBuffer<uint8_t> cells(engine, init), addends(engine, in), olds(engine, 40);
  launch_ok(engine, m, "rounding", {1}, {1}, {cells.arg(), addends.arg(), olds.arg()});
  const std::vector<uint8_t> r = cells.download();
  EXPECT_EQ(field<uint32_t>(r, 0), 0x3f800000u);
  EXPECT_EQ(field<uint32_t>(r, 4), 0x3f800002u);
  EXPECT_EQ(field<uint32_t>(r, 8), 0u);
  EXPECT_EQ(field<uint32_t>(r, 12), 0u);
  EXPECT_EQ(field<uint16_t>(r, 16), 0x6800);
  EXPECT_EQ(field<uint16_t>(r, 18), 0x6802);
  EXPECT_EQ(field<uint16_t>(r, 20), 0x0002);
  EXPECT_EQ(field<uint16_t>(r, 22), 0x7C00);
  EXPECT_EQ(field<uint16_t>(r, 24), 0x3F80);
  EXPECT_EQ(field<uint16_t>(r, 26), 0x3F82);
  EXPECT_EQ(field<double>(r, 32), 1.0);
  // atom returns the old values.
  EXPECT_EQ(olds.download(), init);
}

TEST(MemoryAtomic, VectorF32AddsOnSm90) {
  const std::string text = module(R"(
.visible .entry vec(.param .u64 cells) {
  .reg .f32 %f<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [cells];
  atom.global.add.v2.f32 {%f1, %f2}, [%rd1], {0f3F800000, 0f40000000};
  red.global.add.v4.f32 [%rd1+16], {0f3F800000, 0f40000000, 0f40400000, 0f40800000};
  st.global.v2.f32 [%rd1+8], {%f1, %f2};
  ret;
}
)",
                                  "sm_90");
  Engine engine;
  ModuleId m = engine.load_ptx(text, "vec.ptx");
  DeviceBuffer<float> cells(engine, std::vector<float>{10, 20, 0, 0, 0, 0, 0, 0});
  launch_ok(engine, m, "vec", {1}, {1}, {cells.arg()});
  EXPECT_EQ(cells.download(), (std::vector<float>{11, 22, 10, 20, 1, 2, 3, 4}));
}

TEST(MemoryAtomic, RejectsFormsTheIsaDoesNotHave) {
  auto kernel = [](const std::string& line) {
    return module(
        ".visible .entry k(.param .u64 p) {\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [p];\n  " +
        line + "\n  ret;\n}\n");
  };
  EXPECT_EQ(load_error(kernel("atom.global.add.u32 %r1, [%rd1];")),
            "expected 3 operands for 'atom.global.add.u32', got 2");
  EXPECT_EQ(load_error(kernel("atom.global.cas.b32 %r1, [%rd1], %r2;")),
            "expected 4 operands for 'atom.global.cas.b32', got 3");
  EXPECT_EQ(load_error(kernel("red.global.cas.b32 [%rd1], %r2, %r3;")),
            "unsupported PTX instruction 'red.global.cas.b32' at test.ptx:8");
  EXPECT_EQ(load_error(kernel("atom.global.inc.s32 %r1, [%rd1], %r2;")),
            "unsupported PTX instruction 'atom.global.inc.s32' at test.ptx:8");
  EXPECT_EQ(load_error(kernel("atom.local.add.u32 %r1, [%rd1], %r2;")),
            "unsupported PTX instruction 'atom.local.add.u32' at test.ptx:8");
  EXPECT_EQ(load_error(kernel("atom.global.add.noftz.f32 %r1, [%rd1], %r2;")),
            "unsupported PTX instruction 'atom.global.add.noftz.f32' at test.ptx:8");
  EXPECT_EQ(load_error(kernel("atom.global.sub.u32 %r1, [%rd1], %r2;")),
            "unsupported PTX instruction 'atom.global.sub.u32' at test.ptx:8");
}

}  // namespace
}  // namespace lockstep::test::memory
