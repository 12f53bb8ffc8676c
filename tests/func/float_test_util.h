#pragma once
// Helpers for the float family's tests: run one PTX instruction sequence per thread over
// arrays of operand bit patterns and read the result bits back, plus reference conversions.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/harness.h"
#include "engine/engine.h"
#include "ptx/error.h"

namespace lockstep::test::floatops {

// Which register the body leaves its result in (the kernel stores it zero-extended as u64).
enum class Out { F32, F64, B16, B32, B64, Pred, PredPair };

// Registers available to a body: inputs %a64 %b64 %c64 (b64), %a32 %b32 %c32 (b32), %a16 %b16
// %c16 (b16), %fa %fb %fc (f32), %da %db %dc (f64), predicates %pa %pb (a32 != 0, b32 != 0);
// outputs %fo (f32), %do (f64), %o16, %o32, %o64, %po, %qo.
inline std::string kernel_text(const std::string& body, Out out) {
  std::string store;
  switch (out) {
    case Out::F32: store = "mov.b32 %o32, %fo;\ncvt.u64.u32 %o64, %o32;\n"; break;
    case Out::F64: store = "mov.b64 %o64, %do;\n"; break;
    case Out::B16: store = "cvt.u64.u16 %o64, %o16;\n"; break;
    case Out::B32: store = "cvt.u64.u32 %o64, %o32;\n"; break;
    case Out::B64: break;
    case Out::Pred: store = "selp.u64 %o64, 1, 0, %po;\n"; break;
    case Out::PredPair:
      store = "selp.u64 %o64, 1, 0, %po;\nselp.u64 %q64, 2, 0, %qo;\nor.b64 %o64, %o64, %q64;\n";
      break;
  }
  return R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u32 n)
{
  .reg .b64 %a64, %b64, %c64, %o64, %q64, %t64, %addr, %base;
  .reg .b32 %a32, %b32, %c32, %o32, %i, %j, %n;
  .reg .b16 %a16, %b16, %c16, %o16;
  .reg .f32 %fa, %fb, %fc, %fo;
  .reg .f64 %da, %db, %dc, %do;
  .reg .pred %pa, %pb, %po, %qo, %done;
  mov.u32 %i, %tid.x;
  mov.u32 %j, %ctaid.x;
  mov.u32 %n, %ntid.x;
  mad.lo.u32 %i, %j, %n, %i;
  ld.param.u32 %n, [n];
  setp.ge.u32 %done, %i, %n;
  @%done bra DONE;
  mul.wide.u32 %t64, %i, 8;
  ld.param.u64 %base, [pa];
  add.s64 %addr, %base, %t64;
  ld.global.u64 %a64, [%addr];
  ld.param.u64 %base, [pb];
  add.s64 %addr, %base, %t64;
  ld.global.u64 %b64, [%addr];
  ld.param.u64 %base, [pc];
  add.s64 %addr, %base, %t64;
  ld.global.u64 %c64, [%addr];
  cvt.u32.u64 %a32, %a64;
  cvt.u32.u64 %b32, %b64;
  cvt.u32.u64 %c32, %c64;
  cvt.u16.u64 %a16, %a64;
  cvt.u16.u64 %b16, %b64;
  cvt.u16.u64 %c16, %c64;
  mov.b32 %fa, %a32;
  mov.b32 %fb, %b32;
  mov.b32 %fc, %c32;
  mov.b64 %da, %a64;
  mov.b64 %db, %b64;
  mov.b64 %dc, %c64;
  setp.ne.u32 %pa, %a32, 0;
  setp.ne.u32 %pb, %b32, 0;
  mov.u64 %o64, 0;
)" + body + "\n" + store + R"(
  ld.param.u64 %base, [pd];
  add.s64 %addr, %base, %t64;
  st.global.u64 [%addr], %o64;
DONE:
  ret;
}
)";
}

// Runs `body` once per element; a, b, c are the operand bits (missing ones are zero).
inline std::vector<uint64_t> run(const std::string& body, Out out, const std::vector<uint64_t>& a,
                                 std::vector<uint64_t> b = {}, std::vector<uint64_t> c = {}) {
  const size_t n = a.size();
  b.resize(n);
  c.resize(n);
  Engine engine;
  const ModuleId m = engine.load_ptx(kernel_text(body, out), "float_test.ptx");
  DeviceBuffer<uint64_t> da(engine, a), db(engine, b), dc(engine, c), dd(engine, n);
  const uint32_t threads = 32, blocks = static_cast<uint32_t>((n + threads - 1) / threads);
  launch_ok(engine, m, "k", {blocks, 1, 1}, {threads, 1, 1},
            {da.arg(), db.arg(), dc.arg(), dd.arg(), arg(static_cast<uint32_t>(n))});
  return dd.download();
}

// The message (without location) of the error loading `body` raises, or "" if it loads.
inline std::string load_error(const std::string& body) {
  Engine engine;
  try {
    engine.load_ptx(kernel_text(body, Out::B64), "float_test.ptx");
  } catch (const ptx::Error& e) {
    return e.message();
  }
  return "";
}

inline uint64_t f32(float v) { return std::bit_cast<uint32_t>(v); }
inline uint64_t f64(double v) { return std::bit_cast<uint64_t>(v); }
inline float as_f32(uint64_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits)); }
inline double as_f64(uint64_t bits) { return std::bit_cast<double>(bits); }

inline constexpr uint64_t kNaN32 = 0x7fffffff;
inline constexpr uint64_t kNaN16 = 0x7fff;

// Tricky f32 inputs: zeros, subnormals, normals near boundaries, infinities, NaNs.
inline std::vector<float> tricky_f32() {
  return {0.0f, -0.0f, 1.0f, -1.0f, 0x1p-149f, -0x1p-149f, 0x1.fffffcp-127f, 0x1p-126f,
          0x1.fffffep127f, -0x1.fffffep127f, INFINITY, -INFINITY, NAN, 3.0f, 0.1f, -7.5f,
          0x1.000002p0f, 0x1.fffffep-1f, 1e-30f, 1e30f, 0.5f, 2.0f, -0.75f, 65504.0f};
}

}  // namespace lockstep::test::floatops
