// Integer multiplication: mul/mad .lo .hi .wide at 16/32/64 bits signed and unsigned,
// mad.hi.sat.s32, and the 24-bit mul24/mad24 forms.
#include "func/integer_test_util.h"

namespace lockstep::test::integer {
namespace {

__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

template <class T>
uint64_t zx(T v) {
  return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
}

TEST(IntegerMul, LoHiWideAtEveryWidth) {
  const auto out = run(R"(
  mul.lo.s32 %r1, %ra, %rb;     st.global.u32 [%out], %r1;
  mul.hi.s32 %r2, %ra, %rb;     st.global.u32 [%out+8], %r2;
  mul.hi.u32 %r3, %ra, %rb;     st.global.u32 [%out+16], %r3;
  mul.wide.s32 %rd1, %ra, %rb;  st.global.u64 [%out+24], %rd1;
  mul.wide.u32 %rd2, %ra, %rb;  st.global.u64 [%out+32], %rd2;
  mul.lo.u64 %rd3, %a, %b;      st.global.u64 [%out+40], %rd3;
  mul.hi.s64 %rd4, %a, %b;      st.global.u64 [%out+48], %rd4;
  mul.hi.u64 %rd5, %a, %b;      st.global.u64 [%out+56], %rd5;
  mul.lo.u16 %rs1, %ha, %hb;    st.global.u16 [%out+64], %rs1;
  mul.hi.s16 %rs2, %ha, %hb;    st.global.u16 [%out+72], %rs2;
  mul.wide.u16 %r4, %ha, %hb;   st.global.u32 [%out+80], %r4;
  mul.wide.s16 %r5, %ha, %hb;   st.global.u32 [%out+88], %r5;
  mul.hi.u64 %rd6, %a, 2361183241434822607;  st.global.u64 [%out+96], %rd6;
)",
                       edge_pairs(), 13);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const uint64_t a = in.a[t], b = in.b[t];
    const int64_t sa = as<int32_t>(a), sb = as<int32_t>(b);
    const uint64_t ua = as<uint32_t>(a), ub = as<uint32_t>(b);
    const int32_t ha = as<int16_t>(a), hb = as<int16_t>(b);
    const uint32_t uha = as<uint16_t>(a), uhb = as<uint16_t>(b);
    const std::vector<uint64_t> expect = {
        uint32_t(ua * ub),
        uint32_t(uint64_t(sa * sb) >> 32),
        uint32_t((ua * ub) >> 32),
        uint64_t(sa * sb),
        ua * ub,
        a * b,
        uint64_t(static_cast<U128>(I128(int64_t(a)) * I128(int64_t(b))) >> 64),
        uint64_t((U128(a) * U128(b)) >> 64),
        uint16_t(uha * uhb),
        uint16_t(uint32_t(ha * hb) >> 16),
        uha * uhb,
        uint32_t(ha * hb),
        uint64_t((U128(a) * U128(2361183241434822607ull)) >> 64)};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " b=" << b;
  }
}

TEST(IntegerMul, MadLoHiWideAndSaturation) {
  const auto out = run(R"(
  mad.lo.s32 %r1, %ra, %rb, %rc;      st.global.u32 [%out], %r1;
  mad.hi.u32 %r2, %ra, %rb, %rc;      st.global.u32 [%out+8], %r2;
  mad.hi.sat.s32 %r3, %ra, %rb, %rc;  st.global.u32 [%out+16], %r3;
  mad.wide.u32 %rd1, %ra, %rb, %c;    st.global.u64 [%out+24], %rd1;
  mad.wide.s32 %rd2, %ra, %rb, %c;    st.global.u64 [%out+32], %rd2;
  mad.lo.s64 %rd3, %a, %b, %c;        st.global.u64 [%out+40], %rd3;
  mad.hi.s64 %rd4, %a, %b, %c;        st.global.u64 [%out+48], %rd4;
  mad.lo.u16 %rs1, %ha, %hb, %hc;     st.global.u16 [%out+56], %rs1;
  mad.hi.s32 %r4, %ra, %rb, %rc;      st.global.u32 [%out+64], %r4;
)",
                       edge_pairs(), 9);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const uint64_t a = in.a[t], b = in.b[t], c = in.c[t];
    const int64_t sa = as<int32_t>(a), sb = as<int32_t>(b), sc = as<int32_t>(c);
    const uint64_t ua = as<uint32_t>(a), ub = as<uint32_t>(b), uc = as<uint32_t>(c);
    const int64_t hi_s = (sa * sb) >> 32;
    const int64_t sat = std::clamp<int64_t>(hi_s + sc, INT32_MIN, INT32_MAX);
    const auto hi64 =
        static_cast<uint64_t>(static_cast<U128>(I128(int64_t(a)) * I128(int64_t(b))) >> 64);
    const std::vector<uint64_t> expect = {
        uint32_t(ua * ub + uc),
        uint32_t(((ua * ub) >> 32) + uc),
        zx(static_cast<int32_t>(sat)),
        ua * ub + c,
        uint64_t(sa * sb) + c,
        a * b + c,
        hi64 + c,
        uint16_t(as<uint16_t>(a) * as<uint16_t>(b) + as<uint16_t>(c)),
        uint32_t(uint64_t(hi_s) + uc)};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " b=" << b << " c=" << c;
  }
}

TEST(IntegerMul, Mul24UsesTheLow24Bits) {
  const auto out = run(R"(
  mul24.lo.u32 %r1, %ra, %rb;         st.global.u32 [%out], %r1;
  mul24.hi.u32 %r2, %ra, %rb;         st.global.u32 [%out+8], %r2;
  mul24.lo.s32 %r3, %ra, %rb;         st.global.u32 [%out+16], %r3;
  mul24.hi.s32 %r4, %ra, %rb;         st.global.u32 [%out+24], %r4;
  mad24.lo.u32 %r5, %ra, %rb, %rc;    st.global.u32 [%out+32], %r5;
  mad24.hi.s32 %r6, %ra, %rb, %rc;    st.global.u32 [%out+40], %r6;
  mad24.hi.sat.s32 %r7, %ra, %rb, %rc; st.global.u32 [%out+48], %r7;
)",
                       edge_pairs(), 7);
  const Inputs in = edge_pairs();
  const auto s24 = [](uint64_t v) { return int64_t(int32_t(uint32_t(v) << 8) >> 8); };
  for (size_t t = 0; t < in.size(); ++t) {
    const uint64_t u = (in.a[t] & 0xffffff) * (in.b[t] & 0xffffff);
    const auto s = static_cast<uint64_t>(s24(in.a[t]) * s24(in.b[t]));
    const uint32_t uc = as<uint32_t>(in.c[t]);
    const int64_t sat = std::clamp<int64_t>(
        int64_t(int32_t(uint32_t(s >> 16))) + int64_t(int32_t(uc)), INT32_MIN, INT32_MAX);
    const std::vector<uint64_t> expect = {
        uint32_t(u),           uint32_t(u >> 16),          uint32_t(s),
        uint32_t(s >> 16),     uint32_t(uint32_t(u) + uc), uint32_t(uint32_t(s >> 16) + uc),
        uint32_t(int32_t(sat))};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << in.a[t] << " b=" << in.b[t];
  }
}

TEST(IntegerMul, BadFormsAreLoadErrors) {
  EXPECT_NE(
      load_error("mul.wide.u64 %rd1, %a, %b;").find("unsupported PTX instruction 'mul.wide.u64'"),
      std::string::npos);
  EXPECT_NE(load_error("mul.u32 %r1, %ra, %rb;").find("unsupported PTX instruction 'mul.u32'"),
            std::string::npos);
  EXPECT_NE(load_error("mad.lo.sat.s32 %r1, %ra, %rb, %rc;").find("unsupported PTX instruction"),
            std::string::npos);
  EXPECT_EQ(load_error("mad.lo.s32 %r1, %ra, %rb;"), "expected 4 operands for 'mad.lo.s32', got 3");
}

}  // namespace
}  // namespace lockstep::test::integer
