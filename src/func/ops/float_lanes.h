#pragma once
// Warp-level handler shapes shared by the floating-point family. Each is instantiated with
// the element function as a template argument, so the per-lane work is inlined and chosen at
// bind time; `aux` carries the packed Mode (or another per-instruction constant).
#include <cstdint>

#include "func/exec_inst.h"
#include "func/lanes.h"
#include "func/warp.h"

namespace lockstep::func::fp {

using Unary = uint64_t (*)(uint64_t a, uint64_t aux);
using Binary = uint64_t (*)(uint64_t a, uint64_t b, uint64_t aux);
using Ternary = uint64_t (*)(uint64_t a, uint64_t b, uint64_t c, uint64_t aux);

template <Unary Fn>
void unary_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  for_each_lane(w.exec, [&](uint32_t l) { d[l] = Fn(a[l], in.aux); });
}

template <Binary Fn>
void binary_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  for_each_lane(w.exec, [&](uint32_t l) { d[l] = Fn(a[l], b[l], in.aux); });
}

template <Ternary Fn>
void ternary_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  const uint64_t* b = w.r(in.s[1]);
  const uint64_t* c = w.r(in.s[2]);
  for_each_lane(w.exec, [&](uint32_t l) { d[l] = Fn(a[l], b[l], c[l], in.aux); });
}

// Applies a 16-bit element function to both halves of a packed x2 register.
template <Binary Fn>
uint64_t pairwise2(uint64_t a, uint64_t b, uint64_t aux) {
  return Fn(a & 0xffff, b & 0xffff, aux) | Fn(a >> 16 & 0xffff, b >> 16 & 0xffff, aux) << 16;
}
template <Ternary Fn>
uint64_t pairwise3(uint64_t a, uint64_t b, uint64_t c, uint64_t aux) {
  return Fn(a & 0xffff, b & 0xffff, c & 0xffff, aux) |
         Fn(a >> 16 & 0xffff, b >> 16 & 0xffff, c >> 16 & 0xffff, aux) << 16;
}
template <Unary Fn>
uint64_t pairwise1(uint64_t a, uint64_t aux) {
  return Fn(a & 0xffff, aux) | Fn(a >> 16 & 0xffff, aux) << 16;
}

}  // namespace lockstep::func::fp
