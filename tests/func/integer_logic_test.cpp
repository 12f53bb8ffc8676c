// Logic: and/or/xor/not/cnot on .b16/.b32/.b64, predicate logic (and/or/xor/not .pred, with a
// guard so that only some lanes write), and lop3 with several lookup tables.
#include "func/integer_test_util.h"

namespace lockstep::test::integer {
namespace {

TEST(IntegerLogic, BitwiseOpsAtEveryWidth) {
  const auto out = run(R"(
  and.b32 %r1, %ra, %rb;   st.global.u32 [%out], %r1;
  or.b32 %r2, %ra, %rb;    st.global.u32 [%out+8], %r2;
  xor.b32 %r3, %ra, %rb;   st.global.u32 [%out+16], %r3;
  not.b32 %r4, %ra;        st.global.u32 [%out+24], %r4;
  cnot.b32 %r5, %ra;       st.global.u32 [%out+32], %r5;
  and.b64 %rd1, %a, %b;    st.global.u64 [%out+40], %rd1;
  xor.b64 %rd2, %a, -1;    st.global.u64 [%out+48], %rd2;
  or.b16 %rs1, %ha, %hb;   st.global.u16 [%out+56], %rs1;
  not.b16 %rs2, %ha;       st.global.u16 [%out+64], %rs2;
  cnot.b64 %rd3, %a;       st.global.u64 [%out+72], %rd3;
  and.b16 %rs3, %ha, 1;    st.global.u16 [%out+80], %rs3;
)",
                       edge_pairs(), 11);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const uint64_t a = in.a[t], b = in.b[t];
    const auto a32 = as<uint32_t>(a), b32 = as<uint32_t>(b);
    const auto a16 = as<uint16_t>(a), b16 = as<uint16_t>(b);
    const std::vector<uint64_t> expect = {
        a32 & b32, a32 | b32, a32 ^ b32,           uint32_t(~a32), a32 == 0 ? 1u : 0u,
        a & b,     ~a,        uint16_t(a16 | b16), uint16_t(~a16), a == 0 ? 1u : 0u,
        a16 & 1u};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " b=" << b;
  }
}

TEST(IntegerLogic, PredicateMasksAndGuards) {
  // p1 = a odd, p2 = b odd; every combination, plus a guarded write that only odd-a lanes do.
  Inputs in;
  for (uint64_t x : {0, 1, 2, 3})
    for (uint64_t y : {0, 1, 2, 3}) in.add(x, y);
  const auto out = run(R"(
  and.b32 %r1, %ra, 1;  setp.ne.u32 %p1, %r1, 0;
  and.b32 %r2, %rb, 1;  setp.ne.u32 %p2, %r2, 0;
  and.pred %p3, %p1, %p2;
  or.pred %p4, %p1, %p2;
  xor.pred %p5, %p1, %p2;
  not.pred %p6, %p1;
  setp.eq.u32 %p7, %ra, %ra;
  @%p1 not.pred %p7, %p2;
  selp.u32 %r10, 1, 0, %p3;  st.global.u32 [%out], %r10;
  selp.u32 %r11, 1, 0, %p4;  st.global.u32 [%out+8], %r11;
  selp.u32 %r12, 1, 0, %p5;  st.global.u32 [%out+16], %r12;
  selp.u32 %r13, 1, 0, %p6;  st.global.u32 [%out+24], %r13;
  selp.u32 %r14, 1, 0, %p7;  st.global.u32 [%out+32], %r14;
)",
                       in, 5);
  for (size_t t = 0; t < in.size(); ++t) {
    const bool p1 = in.a[t] & 1, p2 = in.b[t] & 1;
    const bool p7 = p1 ? !p2 : true;
    const std::vector<uint64_t> expect = {p1 && p2, p1 || p2, p1 != p2, !p1, p7};
    ASSERT_EQ(out[t], expect) << "a=" << in.a[t] << " b=" << in.b[t];
  }
}

// nvcc writes a negated predicate as `xor.pred %p, %q, -1` (cooperative groups' ballot(!x)), and
// ptxas takes immediates in any source of the predicate logic ops: nonzero is true.
TEST(IntegerLogic, PredicateLogicTakesImmediates) {
  Inputs in;
  for (uint64_t x : {0, 1, 2, 3}) in.add(x, 0);
  const auto out = run(R"(
  and.b32 %r1, %ra, 1;  setp.ne.u32 %p1, %r1, 0;
  xor.pred %p2, %p1, -1;
  and.pred %p3, %p1, 1;
  or.pred %p4, %p1, 0;
  and.pred %p5, 0, %p1;
  xor.pred %p6, !%p1, 1;
  selp.u32 %r10, 1, 0, %p2;  st.global.u32 [%out], %r10;
  selp.u32 %r11, 1, 0, %p3;  st.global.u32 [%out+8], %r11;
  selp.u32 %r12, 1, 0, %p4;  st.global.u32 [%out+16], %r12;
  selp.u32 %r13, 1, 0, %p5;  st.global.u32 [%out+24], %r13;
  selp.u32 %r14, 1, 0, %p6;  st.global.u32 [%out+32], %r14;
)",
                       in, 5);
  for (size_t t = 0; t < in.size(); ++t) {
    const bool p1 = in.a[t] & 1;
    const std::vector<uint64_t> expect = {!p1, p1, p1, false, p1};
    ASSERT_EQ(out[t], expect) << "a=" << in.a[t];
  }
}

uint32_t ref_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t d = 0;
  for (int i = 0; i < 32; ++i) {
    const uint32_t index = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
    d |= ((lut >> index) & 1) << i;
  }
  return d;
}

TEST(IntegerLogic, Lop3LookupTables) {
  const auto out = run(R"(
  lop3.b32 %r1, %ra, %rb, %rc, 0x80;   st.global.u32 [%out], %r1;
  lop3.b32 %r2, %ra, %rb, %rc, 0xfe;   st.global.u32 [%out+8], %r2;
  lop3.b32 %r3, %ra, %rb, %rc, 0x1a;   st.global.u32 [%out+16], %r3;
  lop3.b32 %r4, %ra, %rb, %rc, 0x96;   st.global.u32 [%out+24], %r4;
  lop3.b32 %r5, %ra, %rb, %rc, 0;      st.global.u32 [%out+32], %r5;
  lop3.b32 %r6, %ra, %rb, %rc, 0xe8;   st.global.u32 [%out+40], %r6;
  setp.ne.u32 %p0, %ra, 0;
  lop3.and.b32 _|%p2, %ra, %rb, %rc, 0x80, %p0;
  lop3.or.b32 %r8|%p3, %ra, %rb, %rc, 0x40, %p0;
  st.global.u32 [%out+48], %r8;
  selp.u32 %r9, 1, 0, %p2;  st.global.u32 [%out+56], %r9;
  selp.u32 %r10, 1, 0, %p3; st.global.u32 [%out+64], %r10;
)",
                       edge_pairs(), 9);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const auto a = as<uint32_t>(in.a[t]), b = as<uint32_t>(in.b[t]), c = as<uint32_t>(in.c[t]);
    const uint32_t and3 = a & b & c, andnot = a & b & ~c;
    const std::vector<uint64_t> expect = {and3,
                                          a | b | c,
                                          ((a & b) | c) ^ a,
                                          a ^ b ^ c,
                                          0,
                                          (a & b) | (a & c) | (b & c),
                                          andnot,
                                          uint64_t(and3 != 0 && a != 0),
                                          uint64_t(andnot != 0 || a != 0)};
    ASSERT_EQ(ref_lop3(a, b, c, 0xe8), expect[5]);
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " b=" << b << " c=" << c;
  }
}

TEST(IntegerLogic, BadFormsAreLoadErrors) {
  EXPECT_NE(load_error("and.b8 %rs1, %ha, %hb;").find("unsupported PTX instruction 'and.b8'"),
            std::string::npos);
  EXPECT_EQ(load_error("lop3.b32 %r1, %ra, %rb, %rc, %rc;"),
            "operand 4 of 'lop3.b32' must be an immediate from 0 to 255");
  EXPECT_EQ(load_error("and.pred %p1, %p2;"), "expected 3 operands for 'and.pred', got 2");
}

}  // namespace
}  // namespace lockstep::test::integer
