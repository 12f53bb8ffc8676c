// Carry chains: add.cc/addc, sub.cc/subc and mad.cc/madc build 128-bit arithmetic from 32-bit
// limbs; results are compared with unsigned __int128 arithmetic.
#include "func/integer_test_util.h"

namespace lockstep::test::integer {
namespace {

__extension__ typedef unsigned __int128 U128;

// 128-bit x = {b:a}, y = {c:a^b}: limbs x0..x3 and y0..y3 as 32-bit registers.
const char* kLimbs = R"(
  mov.b64 {%r1, %r2}, %a;
  mov.b64 {%r3, %r4}, %b;
  mov.b64 {%r5, %r6}, %c;
  xor.b64 %rd10, %a, %b;
  mov.b64 {%r7, %r8}, %rd10;
)";

U128 x_of(const Inputs& in, size_t t) {
  return (U128(in.b[t]) << 64) | in.a[t];
}
U128 y_of(const Inputs& in, size_t t) {
  return (U128(in.a[t] ^ in.b[t]) << 64) | in.c[t];
}

TEST(IntegerCarry, AddAndSubChainsOver128Bits) {
  const std::string body = std::string(kLimbs) + R"(
  add.cc.u32   %r10, %r1, %r5;
  addc.cc.u32  %r11, %r2, %r6;
  addc.cc.u32  %r12, %r3, %r7;
  addc.u32     %r13, %r4, %r8;
  st.global.u32 [%out], %r10;  st.global.u32 [%out+4], %r11;
  st.global.u32 [%out+8], %r12; st.global.u32 [%out+12], %r13;
  sub.cc.u32   %r20, %r1, %r5;
  subc.cc.u32  %r21, %r2, %r6;
  subc.cc.u32  %r22, %r3, %r7;
  subc.u32     %r23, %r4, %r8;
  st.global.u32 [%out+16], %r20; st.global.u32 [%out+20], %r21;
  st.global.u32 [%out+24], %r22; st.global.u32 [%out+28], %r23;
  add.cc.u64   %rd20, %a, %c;
  addc.cc.u64  %rd21, %b, %rd10;
  addc.u32     %r30, 0, 0;
  st.global.u64 [%out+32], %rd20; st.global.u64 [%out+40], %rd21; st.global.u32 [%out+48], %r30;
  sub.cc.s64   %rd22, %a, %c;
  subc.cc.s64  %rd23, %b, %rd10;
  subc.u32     %r31, 0, 0;
  st.global.u64 [%out+56], %rd22; st.global.u64 [%out+64], %rd23; st.global.u32 [%out+72], %r31;
)";
  const Inputs in = edge_pairs();
  const auto out = run(body, in, 10);
  for (size_t t = 0; t < in.size(); ++t) {
    const U128 x = x_of(in, t), y = y_of(in, t);
    const U128 sum = x + y, diff = x - y;
    const uint64_t carry = sum < x ? 1 : 0;  // carry out of the 128-bit add
    const uint64_t borrow = x < y ? 1 : 0;   // borrow out of the 128-bit subtract
    const std::vector<uint64_t> expect = {uint64_t(sum),
                                          uint64_t(sum >> 64),
                                          uint64_t(diff),
                                          uint64_t(diff >> 64),
                                          uint64_t(sum),
                                          uint64_t(sum >> 64),
                                          carry,
                                          uint64_t(diff),
                                          uint64_t(diff >> 64),
                                          uint32_t(0u - uint32_t(borrow))};
    ASSERT_EQ(out[t], expect) << "t=" << t;
  }
}

// [r3,r2,r1,r0] = [r5,r4] * [r7,r6], the ISA's own madc example, on 64-bit a * b.
TEST(IntegerCarry, MadChainsMultiply64By64) {
  const std::string body = std::string(kLimbs) + R"(
  mul.lo.u32     %r40, %r1, %r3;
  mul.hi.u32     %r41, %r1, %r3;
  mad.lo.cc.u32  %r41, %r2, %r3, %r41;
  madc.hi.u32    %r42, %r2, %r3, 0;
  mad.lo.cc.u32  %r41, %r1, %r4, %r41;
  madc.hi.cc.u32 %r42, %r1, %r4, %r42;
  addc.u32       %r43, 0, 0;
  mad.lo.cc.u32  %r42, %r2, %r4, %r42;
  madc.hi.u32    %r43, %r2, %r4, %r43;
  st.global.u32 [%out], %r40;   st.global.u32 [%out+4], %r41;
  st.global.u32 [%out+8], %r42; st.global.u32 [%out+12], %r43;
  mad.lo.cc.u64  %rd30, %a, %b, %c;
  madc.hi.u64    %rd31, %a, %b, 0;
  st.global.u64 [%out+16], %rd30; st.global.u64 [%out+24], %rd31;
  mad.hi.cc.s32  %r50, %r1, %r3, %r5;
  addc.u32       %r51, 0, 0;
  st.global.u32 [%out+32], %r50; st.global.u32 [%out+40], %r51;
)";
  const Inputs in = edge_pairs();
  const auto out = run(body, in, 6);
  for (size_t t = 0; t < in.size(); ++t) {
    const U128 p = U128(in.a[t]) * U128(in.b[t]);
    const U128 q = p + in.c[t];  // low half + c, the carry goes into the high half
    const int64_t shi = (int64_t(as<int32_t>(in.a[t])) * int64_t(as<int32_t>(in.b[t]))) >> 32;
    const uint64_t hi_plus_c = uint64_t(uint32_t(shi)) + as<uint32_t>(in.c[t]);
    const std::vector<uint64_t> expect = {uint64_t(p),       uint64_t(p >> 64),   uint64_t(q),
                                          uint64_t(q >> 64), uint32_t(hi_plus_c), hi_plus_c >> 32};
    ASSERT_EQ(out[t], expect) << "t=" << t;
  }
}

TEST(IntegerCarry, BadFormsAreLoadErrors) {
  EXPECT_NE(
      load_error("add.cc.u16 %rs1, %ha, %hb;").find("unsupported PTX instruction 'add.cc.u16'"),
      std::string::npos);
  EXPECT_NE(
      load_error("addc.sat.u32 %r1, %ra, %rb;").find("unsupported PTX instruction 'addc.sat.u32'"),
      std::string::npos);
  EXPECT_EQ(load_error("madc.lo.u32 %r1, %ra, %rb;"),
            "expected 4 operands for 'madc.lo.u32', got 3");
}

}  // namespace
}  // namespace lockstep::test::integer
