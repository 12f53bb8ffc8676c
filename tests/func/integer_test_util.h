#pragma once
// Helpers for the integer family's tests: run a kernel body once per input triple (one thread
// each) and read back the 64-bit output slots it stored; catch load-time errors.
//
// The body sees, per thread:
//   %a %b %c   .b64  the thread's three input words
//   %ra %rb %rc .b32 their low 32 bits     %ha %hb %hc .b16 their low 16 bits
//   %out       .b64  address of the thread's output slots (8 bytes each, zeroed)
// and may use %r<64> (.b32), %rd<64> (.b64), %rs<32> (.b16), %p<16> (.pred), %f<8> (.f32).
// A narrower store into a slot leaves its upper bytes zero.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/harness.h"
#include "engine/engine.h"
#include "ptx/error.h"

namespace lockstep::test::integer {

struct Inputs {
  std::vector<uint64_t> a, b, c;
  size_t size() const { return a.size(); }
  void add(uint64_t x, uint64_t y, uint64_t z = 0) {
    a.push_back(x);
    b.push_back(y);
    c.push_back(z);
  }
};

inline std::string kernel_text(const std::string& body) {
  return R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 slots) {
  .reg .b32 %r<64>;
  .reg .b64 %rd<64>;
  .reg .b16 %rs<32>;
  .reg .pred %p<16>;
  .reg .f32 %f<8>;
  .reg .b64 %a, %b, %c, %out, %in;
  .reg .b32 %ra, %rb, %rc, %mytid, %nslots;
  .reg .b16 %ha, %hb, %hc;
  mov.u32 %mytid, %tid.x;
  ld.param.u32 %nslots, [slots];
  ld.param.u64 %in, [pin];
  ld.param.u64 %out, [pout];
  mul.wide.u32 %rd60, %mytid, 24;
  add.s64 %in, %in, %rd60;
  mul.lo.s32 %r63, %nslots, 8;
  mul.wide.u32 %rd61, %mytid, %r63;
  add.s64 %out, %out, %rd61;
  ld.global.u64 %a, [%in];
  ld.global.u64 %b, [%in+8];
  ld.global.u64 %c, [%in+16];
  ld.global.u32 %ra, [%in];
  ld.global.u32 %rb, [%in+8];
  ld.global.u32 %rc, [%in+16];
  ld.global.u16 %ha, [%in];
  ld.global.u16 %hb, [%in+8];
  ld.global.u16 %hc, [%in+16];
)" + body +
         R"(
  ret;
}
)";
}

// Runs `body` with one thread per input triple (one block, warps of `warp_size` lanes);
// returns out[thread][slot].
inline std::vector<std::vector<uint64_t>> run(const std::string& body, const Inputs& in,
                                              uint32_t slots, uint32_t warp_size = 32) {
  EngineOptions options;
  options.warp_size = warp_size;
  Engine engine(options);
  const ModuleId m = engine.load_ptx(kernel_text(body), "integer_test.ptx");
  std::vector<uint64_t> packed;
  for (size_t i = 0; i < in.size(); ++i) {
    packed.push_back(in.a[i]);
    packed.push_back(in.b[i]);
    packed.push_back(in.c[i]);
  }
  DeviceBuffer<uint64_t> input(engine, packed);
  DeviceBuffer<uint64_t> output(engine, in.size() * slots);
  engine.memset(output.address(), 0, in.size() * slots * 8);
  const auto threads = static_cast<uint32_t>(in.size());
  launch_ok(engine, m, "k", {1}, {threads}, {input.arg(), output.arg(), arg(slots)});
  const std::vector<uint64_t> flat = output.download();
  std::vector<std::vector<uint64_t>> out(in.size());
  for (size_t t = 0; t < in.size(); ++t)
    out[t].assign(flat.begin() + static_cast<ptrdiff_t>(t * slots),
                  flat.begin() + static_cast<ptrdiff_t>((t + 1) * slots));
  return out;
}

// The message of the ptx::Error thrown while loading `body`, or "" if it loads.
inline std::string load_error(const std::string& body) {
  Engine engine;
  try {
    engine.load_ptx(kernel_text(body), "integer_test.ptx");
  } catch (const ptx::Error& e) {
    return e.message();
  }
  return "";
}

// Interesting 64-bit words: zero, one, all ones, the signed extremes of every width, and a few
// mixed patterns (their low 16/32 bits are interesting too).
inline std::vector<uint64_t> edge_values() {
  return {0,
          1,
          2,
          0xffffffffffffffffull,
          0x7fffffffull,
          0x80000000ull,
          0xffffffff80000000ull,
          0x7fffull,
          0x8000ull,
          0xffffull,
          0x7fffffffffffffffull,
          0x8000000000000000ull,
          0x00000000ffffffffull,
          0x123456789abcdef0ull,
          0xfedcba9876543210ull,
          0x00000001fffffffeull,
          0xfffffffe00000003ull,
          0x5a5a5a5aa5a5a5a5ull};
}

// Every ordered pair of edge values (c = a ^ b rotated, so that c varies too).
inline Inputs edge_pairs() {
  Inputs in;
  const auto v = edge_values();
  for (uint64_t x : v)
    for (uint64_t y : v) in.add(x, y, (x ^ y) * 0x9e3779b97f4a7c15ull + 7);
  return in;
}

template <class T>
T as(uint64_t bits) {
  return static_cast<T>(bits);
}

}  // namespace lockstep::test::integer
