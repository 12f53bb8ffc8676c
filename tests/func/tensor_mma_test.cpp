// mma.sync with fragments built by hand in the PTX ISA's documented layouts, the
// ldmatrix + mma.m16n8k16 pattern of CUTLASS-style code, ldmatrix/stmatrix layouts, and the
// load-time and run-time errors. References compute each D element as
// fmaf(A[i][k], B[k][j], acc) for k = 0..K-1 from acc = C[i][j] (tensor_multiply.h).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "common/harness.h"
#include "engine/engine.h"
#include "ptx/error.h"

namespace lockstep::test {
namespace {

std::string header() { return ".version 9.0\n.target sm_90\n.address_size 64\n"; }

std::string reg_list(const std::string& prefix, uint32_t n) {
  std::string s = "{";
  for (uint32_t i = 0; i < n; ++i) s += (i ? ", %" : "%") + prefix + std::to_string(i);
  return s + "}";
}

float half_to_float(uint16_t h) { return static_cast<float>(std::bit_cast<_Float16>(h)); }
uint16_t float_to_half(float f) { return std::bit_cast<uint16_t>(static_cast<_Float16>(f)); }

enum class T { F16, BF16, TF32, F32, S8, U8, S32 };
uint32_t bits_of(T t) { return t == T::F16 || t == T::BF16 ? 16 : (t == T::S8 || t == T::U8) ? 8 : 32; }

// A random element of type t as raw bits, chosen so that values stay moderate.
uint32_t random_element(T t, std::mt19937& rng) {
  std::uniform_int_distribution<int> small(-64, 64);
  const float f = static_cast<float>(small(rng)) / 16.0f;
  switch (t) {
    case T::F16: return float_to_half(f);
    case T::BF16: return std::bit_cast<uint32_t>(f) >> 16;
    case T::TF32: return std::bit_cast<uint32_t>(f) | (rng() & 0x1fffu);  // low bits ignored
    case T::F32: return std::bit_cast<uint32_t>(f * 3.0f);
    case T::S8: return static_cast<uint8_t>(static_cast<int8_t>(rng() % 256 - 128));
    case T::U8: return rng() % 256;
    case T::S32: return static_cast<uint32_t>(static_cast<int32_t>(rng() % 20001) - 10000);
  }
  return 0;
}

float as_float(T t, uint32_t b) {
  switch (t) {
    case T::F16: return half_to_float(static_cast<uint16_t>(b));
    case T::BF16: return std::bit_cast<float>(b << 16);
    case T::TF32: return std::bit_cast<float>(b & 0xffffe000u);
    default: return std::bit_cast<float>(b);
  }
}
int64_t as_int(T t, uint32_t b) {
  if (t == T::S8) return static_cast<int8_t>(b);
  if (t == T::U8) return static_cast<uint8_t>(b);
  return static_cast<int32_t>(b);
}

// The documented (row, col) of element i of lane l. kind: 'A', 'B' or 'C'.
using Layout = std::function<std::pair<uint32_t, uint32_t>(char kind, uint32_t l, uint32_t i)>;

struct Form {
  std::string name;  // mma form after "mma.sync.aligned."
  uint32_t m, n, k;
  T d, a, b, c;
  Layout layout;
  bool satfinite = false;
};

std::pair<uint32_t, uint32_t> c_layout(uint32_t l, uint32_t i) {
  return {(l >> 2) + 8 * (i >= 2), 2 * (l % 4) + (i & 1)};
}

// The ISA's formulas, section "Matrix Fragments for mma.m16n8k16 with floating point type" etc.
std::pair<uint32_t, uint32_t> layout_16816_f16(char kind, uint32_t l, uint32_t i) {
  const uint32_t g = l >> 2, t = l % 4;
  if (kind == 'A') return {(i < 2 || (i >= 4 && i < 6)) ? g : g + 8, t * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
  if (kind == 'B') return {t * 2 + (i & 1) + (i >= 2 ? 8 : 0), g};
  return c_layout(l, i);
}
std::pair<uint32_t, uint32_t> layout_1688_f16(char kind, uint32_t l, uint32_t i) {
  const uint32_t g = l >> 2, t = l % 4;
  if (kind == 'A') return {i < 2 ? g : g + 8, t * 2 + (i & 1)};
  if (kind == 'B') return {t * 2 + i, g};
  return c_layout(l, i);
}
std::pair<uint32_t, uint32_t> layout_1688_tf32(char kind, uint32_t l, uint32_t i) {
  const uint32_t g = l >> 2, t = l % 4;
  if (kind == 'A') return {(i == 0 || i == 2) ? g : g + 8, i < 2 ? t : t + 4};
  if (kind == 'B') return {i == 0 ? t : t + 4, g};
  return c_layout(l, i);
}
std::pair<uint32_t, uint32_t> layout_16832_s8(char kind, uint32_t l, uint32_t i) {
  const uint32_t g = l >> 2, t = l % 4;
  if (kind == 'A') return {(i < 4 || (i >= 8 && i < 12)) ? g : g + 8, t * 4 + (i & 3) + (i >= 8 ? 16 : 0)};
  if (kind == 'B') return {t * 4 + (i & 3) + (i >= 4 ? 16 : 0), g};
  return c_layout(l, i);
}
std::pair<uint32_t, uint32_t> layout_16816_s8(char kind, uint32_t l, uint32_t i) {
  const uint32_t g = l >> 2, t = l % 4;
  if (kind == 'A') return {i < 4 ? g : g + 8, t * 4 + (i & 3)};
  if (kind == 'B') return {t * 4 + i, g};
  return c_layout(l, i);
}

// Packs matrix `m` (rows x cols raw elements) into per-lane registers of `nregs` each.
std::vector<uint32_t> pack(const std::vector<uint32_t>& m, uint32_t cols, T t, char kind,
                           uint32_t nregs, const Layout& layout) {
  const uint32_t bits = bits_of(t), per = 32 / bits;
  std::vector<uint32_t> regs(32 * nregs, 0);
  for (uint32_t l = 0; l < 32; ++l)
    for (uint32_t i = 0; i < nregs * per; ++i) {
      const auto [r, c] = layout(kind, l, i);
      const uint64_t mask = (uint64_t{1} << bits) - 1;
      regs[l * nregs + i / per] |= static_cast<uint32_t>((m[r * cols + c] & mask) << ((i % per) * bits));
    }
  return regs;
}

void run_form(const Form& f) {
  SCOPED_TRACE(f.name);
  const uint32_t na = f.m * f.k / 32 / (32 / bits_of(f.a));
  const uint32_t nb = f.k * f.n / 32 / (32 / bits_of(f.b));
  const uint32_t nc = f.m * f.n / 32 / (32 / bits_of(f.c));
  const uint32_t nd = f.m * f.n / 32 / (32 / bits_of(f.d));
  std::string body;
  auto load = [&](const std::string& p, const std::string& ptr, uint32_t n) {
    std::string s;
    for (uint32_t i = 0; i < n; ++i)
      s += "  ld.global.u32 %" + p + std::to_string(i) + ", [" + ptr + "+" + std::to_string(4 * i) + "];\n";
    return s;
  };
  const std::string text = header() + R"(
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd) {
  .reg .b32 %a<16>, %b<16>, %c<16>, %d<16>, %r<4>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pc];
  ld.param.u64 %rd4, [pd];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, )" + std::to_string(4 * na) + R"(;
  add.s64 %rd6, %rd1, %rd5;
  mul.wide.u32 %rd5, %r1, )" + std::to_string(4 * nb) + R"(;
  add.s64 %rd7, %rd2, %rd5;
  mul.wide.u32 %rd5, %r1, )" + std::to_string(4 * nc) + R"(;
  add.s64 %rd8, %rd3, %rd5;
  mul.wide.u32 %rd5, %r1, )" + std::to_string(4 * nd) + R"(;
  add.s64 %rd9, %rd4, %rd5;
)" + load("a", "%rd6", na) + load("b", "%rd7", nb) + load("c", "%rd8", nc) +
                           "  mma.sync.aligned." + f.name + " " + reg_list("d", nd) + ", " +
                           reg_list("a", na) + ", " + reg_list("b", nb) + ", " + reg_list("c", nc) + ";\n";
  std::string stores;
  for (uint32_t i = 0; i < nd; ++i)
    stores += "  st.global.u32 [%rd9+" + std::to_string(4 * i) + "], %d" + std::to_string(i) + ";\n";
  const std::string full = text + stores + "  ret;\n}\n";

  std::mt19937 rng(42);
  std::vector<uint32_t> A(f.m * f.k), B(f.k * f.n), C(f.m * f.n);
  for (auto& x : A) x = random_element(f.a, rng);
  for (auto& x : B) x = random_element(f.b, rng);
  for (auto& x : C) x = random_element(f.c, rng);
  if (f.satfinite) {  // push one dot product past INT32_MAX
    C[0] = 0x7ffffff0u;
    for (uint32_t k = 0; k < f.k; ++k) A[k] = 100, B[k * f.n] = 100;
  }
  Engine e;
  const ModuleId mod = e.load_ptx(full, "mma.ptx");
  DeviceBuffer<uint32_t> da(e, pack(A, f.k, f.a, 'A', na, f.layout));
  DeviceBuffer<uint32_t> db(e, pack(B, f.n, f.b, 'B', nb, f.layout));
  DeviceBuffer<uint32_t> dc(e, pack(C, f.n, f.c, 'C', nc, f.layout));
  DeviceBuffer<uint32_t> dd(e, 32 * nd);
  launch_ok(e, mod, "k", {1, 1, 1}, {32, 1, 1}, {da.arg(), db.arg(), dc.arg(), dd.arg()});
  const std::vector<uint32_t> out = dd.download();
  const uint32_t per_d = 32 / bits_of(f.d);
  for (uint32_t l = 0; l < 32; ++l) {
    for (uint32_t i = 0; i < nd * per_d; ++i) {
      const auto [r, col] = f.layout('C', l, i);
      const uint32_t got_bits = (out[l * nd + i / per_d] >> ((i % per_d) * bits_of(f.d))) &
                                static_cast<uint32_t>((uint64_t{1} << bits_of(f.d)) - 1);
      uint32_t want = 0;
      if (f.a == T::S8 || f.a == T::U8) {
        int64_t acc = as_int(f.c, C[r * f.n + col]);
        for (uint32_t k = 0; k < f.k; ++k) acc += as_int(f.a, A[r * f.k + k]) * as_int(f.b, B[k * f.n + col]);
        if (f.satfinite) acc = std::min<int64_t>(std::max<int64_t>(acc, INT32_MIN), INT32_MAX);
        want = static_cast<uint32_t>(acc);
      } else {
        float acc = as_float(f.c, C[r * f.n + col]);
        for (uint32_t k = 0; k < f.k; ++k)
          acc = std::fmaf(as_float(f.a, A[r * f.k + k]), as_float(f.b, B[k * f.n + col]), acc);
        want = f.d == T::F16 ? float_to_half(acc) : std::bit_cast<uint32_t>(acc);
      }
      EXPECT_EQ(got_bits, want) << "lane " << l << " element " << i << " (" << r << "," << col << ")";
    }
  }
}

TEST(TensorMma, HandBuiltFragmentsInTheDocumentedLayouts) {
  run_form({"m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, T::F32, T::F16, T::F16, T::F32, layout_16816_f16});
  run_form({"m16n8k16.row.col.f16.f16.f16.f16", 16, 8, 16, T::F16, T::F16, T::F16, T::F16, layout_16816_f16});
  run_form({"m16n8k16.row.col.f32.f16.f16.f16", 16, 8, 16, T::F32, T::F16, T::F16, T::F16, layout_16816_f16});
  run_form({"m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, 16, T::F32, T::BF16, T::BF16, T::F32, layout_16816_f16});
  run_form({"m16n8k8.row.col.f32.f16.f16.f32", 16, 8, 8, T::F32, T::F16, T::F16, T::F32, layout_1688_f16});
  run_form({"m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, T::F32, T::TF32, T::TF32, T::F32, layout_1688_tf32});
  run_form({"m16n8k32.row.col.s32.s8.s8.s32", 16, 8, 32, T::S32, T::S8, T::S8, T::S32, layout_16832_s8});
  run_form({"m16n8k16.row.col.s32.u8.s8.s32", 16, 8, 16, T::S32, T::U8, T::S8, T::S32, layout_16816_s8});
  Form sat{"m16n8k32.row.col.satfinite.s32.u8.u8.s32", 16, 8, 32, T::S32, T::U8, T::U8, T::S32, layout_16832_s8};
  sat.satfinite = true;
  run_form(sat);
}

// The CUTLASS pattern of tests/kernels 30_mma_inline_ptx: A (16x16, row-major) and B (16x8,
// row-major) in shared memory, ldmatrix.x4 for A and ldmatrix.x2.trans for B, then one mma.
TEST(TensorMma, LdmatrixFeedsMmaAsOnHardware) {
  const std::string text = header() + R"(
.visible .entry tile(.param .u64 pa, .param .u64 pb, .param .u64 pc) {
  .reg .b32 %r<40>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<12>;
  .shared .align 16 .b8 sA[512];
  .shared .align 16 .b8 sB[256];
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pc];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 4;
  cvt.u64.u32 %rd4, %r2;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd5];
  mov.u32 %r7, sA;
  add.u32 %r8, %r7, %r2;
  st.shared.v4.u32 [%r8], {%r3, %r4, %r5, %r6};
  shl.b32 %r9, %r1, 3;
  cvt.u64.u32 %rd6, %r9;
  add.s64 %rd7, %rd2, %rd6;
  ld.global.v2.u32 {%r10, %r11}, [%rd7];
  mov.u32 %r12, sB;
  add.u32 %r13, %r12, %r9;
  st.shared.v2.u32 [%r13], {%r10, %r11};
  bar.warp.sync -1;
  and.b32 %r14, %r1, 15;
  shl.b32 %r15, %r14, 5;
  shr.u32 %r16, %r1, 4;
  shl.b32 %r17, %r16, 4;
  add.u32 %r18, %r15, %r17;
  add.u32 %r19, %r7, %r18;
  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r20, %r21, %r22, %r23}, [%r19];
  shl.b32 %r24, %r14, 4;
  add.u32 %r25, %r12, %r24;
  ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r26, %r27}, [%r25];
  mov.f32 %f0, 0f00000000;
  mov.f32 %f1, 0f00000000;
  mov.f32 %f2, 0f00000000;
  mov.f32 %f3, 0f00000000;
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f4, %f5, %f6, %f7}, {%r20, %r21, %r22, %r23}, {%r26, %r27}, {%f0, %f1, %f2, %f3};
  shl.b32 %r28, %r1, 3;
  cvt.u64.u32 %rd8, %r28;
  add.s64 %rd9, %rd3, %rd8;
  st.global.v2.f32 [%rd9], {%f4, %f5};
  st.global.v2.f32 [%rd9+256], {%f6, %f7};
  ret;
}
)";
  std::mt19937 rng(7);
  std::vector<uint16_t> A(256), B(128);
  for (auto& x : A) x = static_cast<uint16_t>(random_element(T::F16, rng));
  for (auto& x : B) x = static_cast<uint16_t>(random_element(T::F16, rng));
  Engine e;
  const ModuleId m = e.load_ptx(text, "tile.ptx");
  DeviceBuffer<uint16_t> da(e, A), db(e, B);
  DeviceBuffer<float> dc(e, 128);
  launch_ok(e, m, "tile", {1, 1, 1}, {32, 1, 1}, {da.arg(), db.arg(), dc.arg()});
  const auto c = dc.download();
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t j = 0; j < 8; ++j) {
      float acc = 0.0f;
      for (uint32_t k = 0; k < 16; ++k) acc = std::fmaf(half_to_float(A[i * 16 + k]), half_to_float(B[k * 8 + j]), acc);
      EXPECT_EQ(c[i * 8 + j], acc) << i << "," << j;
    }
}

TEST(TensorMma, LdmatrixAndStmatrixLayouts) {
  // Lane L copies 16 bytes (row L%8 of matrix L/8) to shared memory and supplies that row's
  // address; ldmatrix results are checked against the ISA layout, and stmatrix with the same
  // modifiers must write the matrices back unchanged.
  for (uint32_t n : {1u, 2u, 4u}) {
    for (bool trans : {false, true}) {
      std::string mods = "x" + std::to_string(n) + (trans ? ".trans" : "");
      std::string text = header() + R"(
.visible .entry k(.param .u64 in, .param .u64 out, .param .u64 back) {
  .reg .b32 %r<12>, %d<4>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 s[512];
  .shared .align 16 .b8 t[512];
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u64 %rd7, [back];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 4;
  cvt.u64.u32 %rd3, %r2;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd4];
  mov.u32 %r7, s;
  add.u32 %r8, %r7, %r2;
  st.shared.v4.u32 [%r8], {%r3, %r4, %r5, %r6};
  bar.warp.sync -1;
  ldmatrix.sync.aligned.m8n8.)" + mods + ".shared.b16 " + reg_list("d", n) + R"(, [%r8];
  mov.u32 %r9, t;
  add.u32 %r10, %r9, %r2;
  stmatrix.sync.aligned.m8n8.)" + mods + ".shared.b16 [%r10], " + reg_list("d", n) + R"(;
  ld.shared.v4.u32 {%r3, %r4, %r5, %r6}, [%r10];
  add.s64 %rd6, %rd7, %rd3;
  st.global.v4.u32 [%rd6], {%r3, %r4, %r5, %r6};
  add.s64 %rd5, %rd2, %rd3;
)";
      for (uint32_t i = 0; i < n; ++i)
        text += "  st.global.u32 [%rd5+" + std::to_string(4 * i) + "], %d" + std::to_string(i) + ";\n";
      text += "  ret;\n}\n";
      SCOPED_TRACE(mods);
      std::vector<uint16_t> in(256);
      for (uint32_t i = 0; i < 256; ++i) in[i] = static_cast<uint16_t>(i + 1000);
      Engine e;
      const ModuleId m = e.load_ptx(text, "ldm.ptx");
      DeviceBuffer<uint16_t> din(e, in);
      DeviceBuffer<uint32_t> dout(e, 128);
      DeviceBuffer<uint16_t> dback(e, 256);
      launch_ok(e, m, "k", {1, 1, 1}, {32, 1, 1}, {din.arg(), dout.arg(), dback.arg()});
      const auto out = dout.download();
      const auto back = dback.download();
      // Row r of matrix mi is the 16 bytes at lane (8 mi + r)'s address: in[(8 mi + r) * 8 ...].
      auto elem = [&](uint32_t mi, uint32_t r, uint32_t c) { return in[(8 * mi + r) * 8 + c]; };
      for (uint32_t l = 0; l < 32; ++l)
        for (uint32_t mi = 0; mi < n; ++mi) {
          const uint32_t a = l / 4, b = 2 * (l % 4);
          const uint32_t lo = trans ? elem(mi, b, a) : elem(mi, a, b);
          const uint32_t hi = trans ? elem(mi, b + 1, a) : elem(mi, a, b + 1);
          EXPECT_EQ(out[l * 4 + mi], lo | (hi << 16)) << "lane " << l << " matrix " << mi;
        }
      // stmatrix with the same modifiers writes the matrices back where they came from.
      for (uint32_t i = 0; i < 64 * n; ++i) EXPECT_EQ(back[i], in[i]) << i;
    }
  }
}

std::string load_error(const std::string& body) {
  Engine e;
  try {
    e.load_ptx(header() + ".visible .entry k() {\n  .reg .b32 %r<8>;\n  .reg .f32 %f<8>;\n  " +
                   body + "\n  ret;\n}\n",
               "bad.ptx");
  } catch (const ptx::Error& err) {
    return err.message();
  }
  return "";
}

TEST(TensorMma, LoadTimeErrors) {
  EXPECT_EQ(load_error("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, "
                       "{%r0, %r1}, {%r2, %r3}, {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};"),
            "unsupported PTX instruction 'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32' at bad.ptx:7");
  EXPECT_EQ(load_error("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, "
                       "{%r0, %r1, %r2}, {%r4, %r5}, {%f0, %f1, %f2, %f3};"),
            "operand 1 of 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' must have 4 registers "
            "(fragment a), got 3");
  EXPECT_EQ(load_error("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r0, %r1};"),
            "expected 2 operands for 'ldmatrix.sync.aligned.m8n8.x2.shared.b16', got 1");
}

TEST(TensorMma, NarrowWarpFaultsAsUnsupported) {
  const std::string text = header() + R"(
.visible .entry k() {
  .reg .b32 %r<8>;
  .reg .f32 %f<8>;
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, {%r4, %r5}, {%f4, %f5, %f6, %f7};
  ret;
}
)";
  Engine e(warp_options(16));
  const ModuleId m = e.load_ptx(text, "narrow.ptx");
  const LaunchResult r = e.launch(m, "k", {1, 1, 1}, {16, 1, 1}, 0, {});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "unsupported operation");
  EXPECT_NE(r.fault->detail.find("needs a 32-lane warp"), std::string::npos) << r.fault->detail;
}

}  // namespace
}  // namespace lockstep::test
