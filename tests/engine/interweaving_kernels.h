#pragma once
// The kernels of seed 001 figs 3-19 (sbi) and 3-21 (swi), shared by their functional tests
// (seed_sbi_test.cpp, seed_swi_test.cpp) and the timing model's (tests/timing/co_issue_test.cpp).
// Both run as one block of two 4-lane warps; a .u32 parameter's bit t sends thread t down the
// if path.

namespace lockstep::test {

// Fig 3-19: a branch at I1 (PCdiv) to the if path I2..I4 or the else path I5, meeting at I6 (PCrec).
// out[tid] = 107 on the I2 path (1 + 2 + 4 + 100), 148 on the I5 path (16 + 32 + 100).
// I1: 8 instructions; I2, I3: 1 each; I4: 2 (add, bra); I5: 2; I6: 6 (add, mul, add, st, ret and
// the function's synthetic exit).
inline constexpr const char* kFigure3_19 = R"(
.version 9.0
.target sm_75
.address_size 64

.visible .entry sbi(.param .u64 out, .param .u32 i2_threads)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
I1:
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r4, [i2_threads];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  shr.u32 %r3, %r4, %r1;
  and.b32 %r3, %r3, 1;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 bra I5;
I2:
  add.u32 %r2, %r2, 1;
I3:
  add.u32 %r2, %r2, 2;
I4:
  add.u32 %r2, %r2, 4;
  bra I6;
I5:
  add.u32 %r2, %r2, 16;
  add.u32 %r2, %r2, 32;
I6:
  add.u32 %r2, %r2, 100;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

// Fig 3-21: an if without an else: a branch at I1 to I2..I4 or straight to I5.
// out[tid] = 107 on the if path (1 + 2 + 4 + 100), 100 for the others. I1: 8 instructions;
// I2, I3, I4: 1 each; I5: 6 (add, mul, add, st, ret and the function's synthetic exit).
inline constexpr const char* kIfWithoutElse = R"(
.version 9.0
.target sm_75
.address_size 64

.visible .entry swi(.param .u64 out, .param .u32 if_threads)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
I1:
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r4, [if_threads];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  shr.u32 %r3, %r4, %r1;
  and.b32 %r3, %r3, 1;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 bra I5;
I2:
  add.u32 %r2, %r2, 1;
I3:
  add.u32 %r2, %r2, 2;
I4:
  add.u32 %r2, %r2, 4;
I5:
  add.u32 %r2, %r2, 100;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

}  // namespace lockstep::test
