#pragma once
// The if/else of seed 001 figs 3-14 to 3-17 for any block of 4-lane warps, shared by the
// warp-formation figure tests: the threads whose bit is set in `b_threads` fall through to B,
// the others branch to C. out[tid] = 101 (B) or 110 (C). A: 8 instructions, B: 2 (add, bra),
// C: 1, D: 6 (add, mul, add, st, ret and the function's synthetic exit).

namespace lockstep::test {

inline constexpr const char* kMaskedIfElse = R"(
.version 9.0
.target sm_75
.address_size 64

.visible .entry ifelse(.param .u64 out, .param .u32 b_threads)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
A:
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r4, [b_threads];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  shr.u32 %r3, %r4, %r1;
  and.b32 %r3, %r3, 1;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 bra C;
B:
  add.u32 %r2, %r2, 1;
  bra D;
C:
  add.u32 %r2, %r2, 10;
D:
  add.u32 %r2, %r2, 100;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

}  // namespace lockstep::test
