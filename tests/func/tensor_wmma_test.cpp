// wmma.load / wmma.mma / wmma.store against a CPU matmul that accumulates each element as
// fmaf(A[i][k], B[k][j], acc) for k = 0..K-1 from acc = C[i][j] (tensor_multiply.h), with row
// and column layouts, explicit strides, f16/bf16/tf32 inputs, shared memory, and errors.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/harness.h"
#include "engine/engine.h"
#include "ptx/error.h"

namespace lockstep::test {
namespace {

std::string header() { return ".version 9.0\n.target sm_80\n.address_size 64\n"; }

std::string regs(const std::string& prefix, uint32_t first, uint32_t n) {
  std::string s = "{";
  for (uint32_t i = 0; i < n; ++i) s += (i ? ", %" : "%") + prefix + std::to_string(first + i);
  return s + "}";
}

float half_to_float(uint16_t h) { return static_cast<float>(std::bit_cast<_Float16>(h)); }
uint16_t float_to_half(float f) { return std::bit_cast<uint16_t>(static_cast<_Float16>(f)); }

// Element (r, c) of a matrix stored with `stride` elements between rows (row-major) or
// columns (col-major).
size_t at(bool col_major, uint32_t r, uint32_t c, uint32_t stride) {
  return col_major ? static_cast<size_t>(c) * stride + r : static_cast<size_t>(r) * stride + c;
}

struct Case {
  uint32_t m, n, k;
  bool a_col, b_col, c_col, d_col;
  uint32_t sa, sb, sc, sd;  // strides in elements; 0 = omit the operand (default)
  bool f16_acc;             // C and D in f16 (else f32)
};

std::string stride_arg(uint32_t s) { return s ? ", " + std::to_string(s) : ""; }

void run_case(const Case& t) {
  const std::string shape = "m" + std::to_string(t.m) + "n" + std::to_string(t.n) + "k" + std::to_string(t.k);
  const char* lay[2] = {"row", "col"};
  const std::string acc = t.f16_acc ? "f16" : "f32";
  const uint32_t acc_regs = t.f16_acc ? 4 : 8;
  const std::string text = header() + R"(
.visible .entry mm(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd) {
  .reg .b32 %r<40>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pc];
  ld.param.u64 %rd4, [pd];
  wmma.load.a.sync.aligned.)" + lay[t.a_col] + "." + shape + ".global.f16 " + regs("r", 0, 8) +
                           ", [%rd1]" + stride_arg(t.sa) + R"(;
  wmma.load.b.sync.aligned.)" + lay[t.b_col] + "." + shape + ".global.f16 " + regs("r", 8, 8) +
                           ", [%rd2]" + stride_arg(t.sb) + R"(;
  wmma.load.c.sync.aligned.)" + lay[t.c_col] + "." + shape + ".global." + acc + " " +
                           regs("r", 16, acc_regs) + ", [%rd3]" + stride_arg(t.sc) + R"(;
  wmma.mma.sync.aligned.)" + lay[t.a_col] + "." + lay[t.b_col] + "." + shape + "." + acc + "." +
                           acc + " " + regs("r", 24, acc_regs) + ", " + regs("r", 0, 8) + ", " +
                           regs("r", 8, 8) + ", " + regs("r", 16, acc_regs) + R"(;
  wmma.store.d.sync.aligned.)" + lay[t.d_col] + "." + shape + ".global." + acc + " [%rd4], " +
                           regs("r", 24, acc_regs) + stride_arg(t.sd) + R"(;
  ret;
}
)";
  const uint32_t lda = t.sa ? t.sa : (t.a_col ? t.m : t.k);
  const uint32_t ldb = t.sb ? t.sb : (t.b_col ? t.k : t.n);
  const uint32_t ldc = t.sc ? t.sc : (t.c_col ? t.m : t.n);
  const uint32_t ldd = t.sd ? t.sd : (t.d_col ? t.m : t.n);
  std::mt19937 rng(t.m * 100 + t.n + t.sa);
  std::uniform_int_distribution<int> dist(-96, 96);
  auto value = [&] { return static_cast<float>(dist(rng)) / 32.0f; };
  std::vector<uint16_t> A(64 * 64), B(64 * 64);
  std::vector<float> Af(t.m * t.k), Bf(t.k * t.n), Cf(t.m * t.n);
  for (uint32_t i = 0; i < t.m; ++i)
    for (uint32_t k = 0; k < t.k; ++k) {
      Af[i * t.k + k] = value();
      A[at(t.a_col, i, k, lda)] = float_to_half(Af[i * t.k + k]);
    }
  for (uint32_t k = 0; k < t.k; ++k)
    for (uint32_t j = 0; j < t.n; ++j) {
      Bf[k * t.n + j] = value();
      B[at(t.b_col, k, j, ldb)] = float_to_half(Bf[k * t.n + j]);
    }
  std::vector<float> C32(64 * 64, 0.0f);
  std::vector<uint16_t> C16(64 * 64, 0);
  for (uint32_t i = 0; i < t.m; ++i)
    for (uint32_t j = 0; j < t.n; ++j) {
      Cf[i * t.n + j] = value() * 5.0f;
      C32[at(t.c_col, i, j, ldc)] = Cf[i * t.n + j];
      C16[at(t.c_col, i, j, ldc)] = float_to_half(Cf[i * t.n + j]);
    }
  Engine e;
  const ModuleId mod = e.load_ptx(text, "wmma.ptx");
  DeviceBuffer<uint16_t> da(e, A), db(e, B);
  DeviceBuffer<float> dc32(e, C32), dd32(e, 64 * 64);
  DeviceBuffer<uint16_t> dc16(e, C16), dd16(e, 64 * 64);
  launch_ok(e, mod, "mm", {1, 1, 1}, {32, 1, 1},
            {da.arg(), db.arg(), t.f16_acc ? dc16.arg() : dc32.arg(),
             t.f16_acc ? dd16.arg() : dd32.arg()});
  const auto d32 = dd32.download();
  const auto d16 = dd16.download();
  for (uint32_t i = 0; i < t.m; ++i)
    for (uint32_t j = 0; j < t.n; ++j) {
      float accv = t.f16_acc ? half_to_float(float_to_half(Cf[i * t.n + j])) : Cf[i * t.n + j];
      for (uint32_t k = 0; k < t.k; ++k) accv = std::fmaf(Af[i * t.k + k], Bf[k * t.n + j], accv);
      const size_t o = at(t.d_col, i, j, ldd);
      if (t.f16_acc) {
        EXPECT_EQ(d16[o], float_to_half(accv)) << shape << " " << i << "," << j;
      } else {
        EXPECT_EQ(d32[o], accv) << shape << " " << i << "," << j;
      }
    }
}

TEST(TensorWmma, M16N16K16F16ToF32AgainstCpuMatmul) {
  run_case({16, 16, 16, false, true, false, false, 0, 0, 0, 0, false});
  run_case({16, 16, 16, true, false, true, true, 0, 0, 0, 0, false});
}

TEST(TensorWmma, ExplicitStrides) {
  run_case({16, 16, 16, false, true, false, true, 24, 40, 20, 17, false});
  run_case({16, 16, 16, true, true, true, false, 32, 16, 24, 48, false});
}

TEST(TensorWmma, F16AccumulatorAndOtherShapes) {
  run_case({16, 16, 16, true, false, false, true, 0, 0, 0, 0, true});
  run_case({32, 8, 16, false, false, false, false, 0, 0, 0, 0, false});
  run_case({8, 32, 16, false, true, true, false, 0, 0, 0, 0, true});
}

// bf16 (m16n16k16) and tf32 (m16n16k8) with the register counts of the ISA examples, loaded
// from shared memory through a symbol address.
TEST(TensorWmma, Bf16AndTf32) {
  const std::string text = header() + R"(
.visible .entry alt(.param .u64 pa, .param .u64 pb, .param .u64 pt, .param .u64 pu, .param .u64 pd) {
  .reg .b32 %r<64>;
  .reg .b64 %rd<8>;
  .shared .align 32 .b8 sa[512];
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pt];
  ld.param.u64 %rd4, [pu];
  ld.param.u64 %rd5, [pd];
  mov.u32 %r60, %tid.x;
  shl.b32 %r61, %r60, 4;
  cvt.u64.u32 %rd6, %r61;
  add.s64 %rd7, %rd1, %rd6;
  ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%rd7];
  mov.u32 %r62, sa;
  add.u32 %r63, %r62, %r61;
  st.shared.v4.u32 [%r63], {%r0, %r1, %r2, %r3};
  bar.warp.sync -1;
  wmma.load.a.sync.aligned.row.m16n16k16.shared.bf16 {%r0, %r1, %r2, %r3}, [sa];
  wmma.load.b.sync.aligned.col.m16n16k16.global.bf16 {%r4, %r5, %r6, %r7}, [%rd2], 16;
  mov.b32 %r8, 0;
  mov.b32 %r9, 0;
  mov.b32 %r10, 0;
  mov.b32 %r11, 0;
  mov.b32 %r12, 0;
  mov.b32 %r13, 0;
  mov.b32 %r14, 0;
  mov.b32 %r15, 0;
  wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32 {%r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23}, {%r0, %r1, %r2, %r3}, {%r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15};
  wmma.load.a.sync.aligned.row.m16n16k8.global.tf32 {%r24, %r25, %r26, %r27}, [%rd3];
  wmma.load.b.sync.aligned.row.m16n16k8.global.tf32 {%r28, %r29, %r30, %r31}, [%rd4];
  wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32 {%r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39}, {%r24, %r25, %r26, %r27}, {%r28, %r29, %r30, %r31}, {%r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23};
  wmma.store.d.sync.aligned.row.m16n16k8.global.f32 [%rd5], {%r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39};
  ret;
}
)";
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> dist(-100, 100);
  std::vector<float> A(256), B(256), T(128), U(128);
  std::vector<uint16_t> Ab(256), Bb(256);
  std::vector<uint32_t> Tb(128), Ub(128);
  for (uint32_t i = 0; i < 256; ++i) {
    A[i] = static_cast<float>(dist(rng)) / 16.0f;
    Ab[i] = static_cast<uint16_t>(std::bit_cast<uint32_t>(A[i]) >> 16);
    B[i] = static_cast<float>(dist(rng)) / 8.0f;
    Bb[i] = static_cast<uint16_t>(std::bit_cast<uint32_t>(B[i]) >> 16);  // B is col-major
  }
  for (uint32_t i = 0; i < 128; ++i) {
    // Low 13 bits set on purpose: tf32 ignores them.
    Tb[i] = std::bit_cast<uint32_t>(static_cast<float>(dist(rng)) / 4.0f) | 0x1fffu;
    T[i] = std::bit_cast<float>(Tb[i] & 0xffffe000u);
    Ub[i] = std::bit_cast<uint32_t>(static_cast<float>(dist(rng)) / 2.0f) | 0x1555u;
    U[i] = std::bit_cast<float>(Ub[i] & 0xffffe000u);
  }
  Engine e;
  const ModuleId m = e.load_ptx(text, "alt.ptx");
  DeviceBuffer<uint16_t> da(e, Ab), db(e, Bb);
  DeviceBuffer<uint32_t> dt(e, Tb), du(e, Ub);
  DeviceBuffer<float> dd(e, 256);
  launch_ok(e, m, "alt", {1, 1, 1}, {32, 1, 1}, {da.arg(), db.arg(), dt.arg(), du.arg(), dd.arg()});
  const auto d = dd.download();
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t j = 0; j < 16; ++j) {
      float acc = 0.0f;
      for (uint32_t k = 0; k < 16; ++k) acc = std::fmaf(A[i * 16 + k], B[j * 16 + k], acc);
      for (uint32_t k = 0; k < 8; ++k) acc = std::fmaf(T[i * 8 + k], U[k * 16 + j], acc);
      EXPECT_EQ(d[i * 16 + j], acc) << i << "," << j;
    }
}

std::string load_error(const std::string& body) {
  Engine e;
  try {
    e.load_ptx(header() + ".visible .entry k() {\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<2>;\n  " +
                   body + "\n  ret;\n}\n",
               "bad.ptx");
  } catch (const ptx::Error& err) {
    return err.message();
  }
  return "";
}

// Loads read a lane's row segment at once; a segment that runs past the allocation still faults
// at its first inaccessible element, in the lane that holds it (lane 31: row 15, columns 8-15).
TEST(TensorWmma, LoadPastTheEndFaultsAtTheExactElement) {
  const std::string text = header() + R"(
.visible .entry past(.param .u64 pc) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [pc];
  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 )" + regs("r", 0, 8) + R"(, [%rd1];
  ret;
}
)";
  EngineOptions options;
  options.memcheck = true;  // the first byte past the end faults
  Engine e(options);
  const ModuleId mod = e.load_ptx(text, "past.ptx");
  DeviceBuffer<float> c(e, 16 * 16 - 3);  // the last three elements are missing
  const LaunchResult r = e.launch(mod, "past", {1, 1, 1}, {32, 1, 1}, 0, {c.arg()});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "out-of-bounds access");
  EXPECT_EQ(r.fault->thread.x, 31u);
  EXPECT_EQ(r.fault->address, c.address() + (16 * 16 - 3) * 4);
  EXPECT_EQ(r.fault->size, 4u);
}

TEST(TensorWmma, LoadTimeErrors) {
  EXPECT_EQ(load_error("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3}, [%rd1];"),
            "operand 0 of 'wmma.load.a.sync.aligned.row.m16n16k16.global.f16' must have 8 registers "
            "(the fragment), got 4");
  EXPECT_EQ(load_error("wmma.load.a.sync.aligned.row.m16n16k8.global.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1];"),
            "unsupported PTX instruction 'wmma.load.a.sync.aligned.row.m16n16k8.global.f16' at bad.ptx:7");
  EXPECT_EQ(load_error("wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1];"),
            "expected 3 operands for 'wmma.store.d.sync.aligned.row.m16n16k16.global.f32', got 1");
}

TEST(TensorWmma, PartialWarpFaultsAsUnsupported) {
  const std::string text = header() + R"(
.visible .entry k(.param .u64 p) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  wmma.load.c.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3}, [%rd1];
  ret;
}
)";
  Engine e;
  const ModuleId m = e.load_ptx(text, "partial.ptx");
  DeviceBuffer<uint16_t> buf(e, 256);
  const LaunchResult r = e.launch(m, "k", {1, 1, 1}, {20, 1, 1}, 0, {buf.arg()});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "unsupported operation");
  EXPECT_NE(r.fault->detail.find("lane 20 is not executing it"), std::string::npos) << r.fault->detail;
}

}  // namespace
}  // namespace lockstep::test
