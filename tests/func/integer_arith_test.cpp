// Integer arithmetic: add/sub (every width, .sat.s32), min/max (.relu), abs/neg, div/rem (with
// division by zero and INT_MIN / -1), sad; and the load-time errors of bad forms.
#include "func/integer_test_util.h"

namespace lockstep::test::integer {
namespace {

template <class T>
uint64_t zx(T v) {  // the value as stored in an output slot: zero-extended from its width
  return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
}

TEST(IntegerArith, AddSubWrapAtEveryWidth) {
  const auto out = run(R"(
  add.s32 %r1, %ra, %rb;      st.global.u32 [%out], %r1;
  add.u32 %r2, %ra, 7;        st.global.u32 [%out+8], %r2;
  sub.s32 %r3, %ra, %rb;      st.global.u32 [%out+16], %r3;
  add.s64 %rd1, %a, %b;       st.global.u64 [%out+24], %rd1;
  sub.u64 %rd2, %a, %b;       st.global.u64 [%out+32], %rd2;
  add.s16 %rs1, %ha, %hb;     st.global.u16 [%out+40], %rs1;
  sub.u16 %rs2, %ha, %hb;     st.global.u16 [%out+48], %rs2;
  add.sat.s32 %r4, %ra, %rb;  st.global.u32 [%out+56], %r4;
  sub.sat.s32 %r5, %ra, %rb;  st.global.u32 [%out+64], %r5;
  add.b32 %r6, %ra, -1;       st.global.u32 [%out+72], %r6;
)",
                       edge_pairs(), 10);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const auto a32 = as<uint32_t>(in.a[t]), b32 = as<uint32_t>(in.b[t]);
    const auto a16 = as<uint16_t>(in.a[t]), b16 = as<uint16_t>(in.b[t]);
    const int64_t sa = as<int32_t>(in.a[t]), sb = as<int32_t>(in.b[t]);
    const auto sat = [](int64_t v) {
      return zx(static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)));
    };
    const std::vector<uint64_t> expect = {
        uint32_t(a32 + b32), uint32_t(a32 + 7),   uint32_t(a32 - b32), in.a[t] + in.b[t],
        in.a[t] - in.b[t],   uint16_t(a16 + b16), uint16_t(a16 - b16), sat(sa + sb),
        sat(sa - sb),        uint32_t(a32 - 1)};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << in.a[t] << " b=" << in.b[t];
  }
}

TEST(IntegerArith, MinMaxAbsNeg) {
  const auto out = run(R"(
  min.s32 %r1, %ra, %rb;       st.global.u32 [%out], %r1;
  max.u32 %r2, %ra, %rb;       st.global.u32 [%out+8], %r2;
  min.u64 %rd1, %a, %b;        st.global.u64 [%out+16], %rd1;
  max.s64 %rd2, %a, %b;        st.global.u64 [%out+24], %rd2;
  max.s16 %rs1, %ha, %hb;      st.global.u16 [%out+32], %rs1;
  max.relu.s32 %r3, %ra, %rb;  st.global.u32 [%out+40], %r3;
  min.relu.s32 %r4, %ra, %rb;  st.global.u32 [%out+48], %r4;
  abs.s32 %r5, %ra;            st.global.u32 [%out+56], %r5;
  neg.s32 %r6, %ra;            st.global.u32 [%out+64], %r6;
  abs.s64 %rd3, %a;            st.global.u64 [%out+72], %rd3;
  neg.s16 %rs2, %ha;           st.global.u16 [%out+80], %rs2;
  min.u16 %rs3, %ha, %hb;      st.global.u16 [%out+88], %rs3;
)",
                       edge_pairs(), 12);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const auto sa = as<int32_t>(in.a[t]), sb = as<int32_t>(in.b[t]);
    const auto ua = as<uint32_t>(in.a[t]), ub = as<uint32_t>(in.b[t]);
    const auto la = static_cast<int64_t>(in.a[t]), lb = static_cast<int64_t>(in.b[t]);
    const auto ha = as<int16_t>(in.a[t]), hb = as<int16_t>(in.b[t]);
    const uint32_t abs32 = sa < 0 ? 0u - ua : ua;
    const uint64_t abs64 = la < 0 ? 0 - in.a[t] : in.a[t];
    const std::vector<uint64_t> expect = {zx(std::min(sa, sb)),
                                          std::max(ua, ub),
                                          std::min(in.a[t], in.b[t]),
                                          zx(std::max(la, lb)),
                                          zx(std::max(ha, hb)),
                                          zx(std::max(std::max(sa, sb), 0)),
                                          zx(std::max(std::min(sa, sb), 0)),
                                          abs32,
                                          uint32_t(0u - ua),
                                          abs64,
                                          uint16_t(0u - uint16_t(ha)),
                                          std::min(as<uint16_t>(in.a[t]), as<uint16_t>(in.b[t]))};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << in.a[t] << " b=" << in.b[t];
  }
}

// Reference division with the defined corner cases (see integer_arith.cpp).
template <class T>
T ref_div(T a, T b) {
  if (b == 0) return static_cast<T>(~std::make_unsigned_t<T>(0));
  if (std::is_signed_v<T> && a == std::numeric_limits<T>::min() && b == T(-1)) return a;
  return static_cast<T>(a / b);
}
template <class T>
T ref_rem(T a, T b) {
  if (b == 0) return a;
  if (std::is_signed_v<T> && b == T(-1)) return 0;
  return static_cast<T>(a % b);
}

TEST(IntegerArith, DivRemIncludingZeroAndOverflow) {
  Inputs in = edge_pairs();
  in.add(0x80000000u, 0xffffffffu);                      // INT_MIN / -1 (32-bit)
  in.add(0x8000000000000000ull, 0xffffffffffffffffull);  // INT64_MIN / -1
  in.add(7, 0);
  in.add(0xfffffff9u, 2);  // -7 / 2 truncates toward zero
  const auto out = run(R"(
  div.s32 %r1, %ra, %rb;    st.global.u32 [%out], %r1;
  div.u32 %r2, %ra, %rb;    st.global.u32 [%out+8], %r2;
  rem.s32 %r3, %ra, %rb;    st.global.u32 [%out+16], %r3;
  rem.u32 %r4, %ra, %rb;    st.global.u32 [%out+24], %r4;
  div.s64 %rd1, %a, %b;     st.global.u64 [%out+32], %rd1;
  div.u64 %rd2, %a, %b;     st.global.u64 [%out+40], %rd2;
  rem.s64 %rd3, %a, %b;     st.global.u64 [%out+48], %rd3;
  rem.u64 %rd4, %a, %b;     st.global.u64 [%out+56], %rd4;
  div.s16 %rs1, %ha, %hb;   st.global.u16 [%out+64], %rs1;
  rem.u16 %rs2, %ha, %hb;   st.global.u16 [%out+72], %rs2;
)",
                       in, 10);
  for (size_t t = 0; t < in.size(); ++t) {
    const uint64_t a = in.a[t], b = in.b[t];
    const std::vector<uint64_t> expect = {
        zx(ref_div(as<int32_t>(a), as<int32_t>(b))), ref_div(as<uint32_t>(a), as<uint32_t>(b)),
        zx(ref_rem(as<int32_t>(a), as<int32_t>(b))), ref_rem(as<uint32_t>(a), as<uint32_t>(b)),
        zx(ref_div(as<int64_t>(a), as<int64_t>(b))), ref_div(a, b),
        zx(ref_rem(as<int64_t>(a), as<int64_t>(b))), ref_rem(a, b),
        zx(ref_div(as<int16_t>(a), as<int16_t>(b))), ref_rem(as<uint16_t>(a), as<uint16_t>(b))};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " b=" << b;
  }
  // Spot values the corner-case rules pin down.
  const size_t n = in.size();
  EXPECT_EQ(out[n - 4][0], 0x80000000u);  // INT_MIN / -1 = INT_MIN
  EXPECT_EQ(out[n - 4][2], 0u);           // INT_MIN % -1 = 0
  EXPECT_EQ(out[n - 3][4], 0x8000000000000000u);
  EXPECT_EQ(out[n - 2][0], 0xffffffffu);  // 7 / 0 = all ones
  EXPECT_EQ(out[n - 2][3], 7u);           // 7 % 0 = 7
  EXPECT_EQ(out[n - 1][0], 0xfffffffdu);  // -7 / 2 = -3
  EXPECT_EQ(out[n - 1][2], 0xffffffffu);  // -7 % 2 = -1
}

TEST(IntegerArith, SadAddsTheAbsoluteDifference) {
  const auto out = run(R"(
  sad.u32 %r1, %ra, %rb, %rc;   st.global.u32 [%out], %r1;
  sad.s32 %r2, %ra, %rb, %rc;   st.global.u32 [%out+8], %r2;
  sad.u64 %rd1, %a, %b, %c;     st.global.u64 [%out+16], %rd1;
  sad.s16 %rs1, %ha, %hb, %hc;  st.global.u16 [%out+24], %rs1;
)",
                       edge_pairs(), 4);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const auto ua = as<uint32_t>(in.a[t]), ub = as<uint32_t>(in.b[t]), uc = as<uint32_t>(in.c[t]);
    const auto sa = as<int32_t>(in.a[t]), sb = as<int32_t>(in.b[t]);
    const auto ha = as<int16_t>(in.a[t]), hb = as<int16_t>(in.b[t]);
    const uint32_t du = ua > ub ? ua - ub : ub - ua;
    const auto ds = static_cast<uint32_t>(std::llabs(int64_t{sa} - int64_t{sb}));
    const uint64_t d64 = in.a[t] > in.b[t] ? in.a[t] - in.b[t] : in.b[t] - in.a[t];
    const auto d16 = static_cast<uint16_t>(std::abs(int32_t{ha} - int32_t{hb}));
    const std::vector<uint64_t> expect = {uint32_t(uc + du), uint32_t(uc + ds), in.c[t] + d64,
                                          uint16_t(as<uint16_t>(in.c[t]) + d16)};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << in.a[t] << " b=" << in.b[t];
  }
}

// The lane loops cover partial warps and every supported warp width: same results as width 32.
TEST(IntegerArith, ResultsDoNotDependOnWarpWidth) {
  const std::string body = R"(
  add.s32 %r1, %ra, %rb;        st.global.u32 [%out], %r1;
  setp.lt.s32 %p1, %ra, %rb;
  selp.b64 %rd1, %a, %b, %p1;   st.global.u64 [%out+8], %rd1;
  @%p1 sub.s64 %rd2, %a, %c;    st.global.u64 [%out+16], %rd2;
  mul.wide.u32 %rd3, %ra, %rc;  st.global.u64 [%out+24], %rd3;
)";
  const Inputs in = edge_pairs();
  const auto reference = run(body, in, 4, 32);
  for (uint32_t width : {4u, 8u, 16u, 64u}) EXPECT_EQ(run(body, in, 4, width), reference) << width;
  for (size_t t = 0; t < in.size(); ++t) {
    const bool lt = as<int32_t>(in.a[t]) < as<int32_t>(in.b[t]);
    ASSERT_EQ(reference[t][2], lt ? in.a[t] - in.c[t] : 0u);  // guarded: only lt lanes write
  }
}

TEST(IntegerArith, BadFormsAreLoadErrors) {
  EXPECT_NE(load_error("add.sat.u32 %r1, %ra, %rb;")
                .find("unsupported PTX instruction 'add.sat.u32' at integer_test.ptx:"),
            std::string::npos);
  EXPECT_NE(load_error("abs.u32 %r1, %ra;").find("unsupported PTX instruction 'abs.u32'"),
            std::string::npos);
  EXPECT_NE(
      load_error("div.full.s32 %r1, %ra, %rb;").find("unsupported PTX instruction 'div.full.s32'"),
      std::string::npos);
  EXPECT_EQ(load_error("add.s32 %r1, %ra;"), "expected 3 operands for 'add.s32', got 2");
  EXPECT_EQ(load_error("sub.s32 %r1, %ra, [%a];"),
            "operand 2 of 'sub.s32' must be a register or immediate");
  EXPECT_EQ(load_error("add.s32 %r1, %ra, %rb;"), "");
}

}  // namespace
}  // namespace lockstep::test::integer
