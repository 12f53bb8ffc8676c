// Shifts (amounts of 0, 31, 32, 40, 63, 64 and huge: clamped to the width), funnel shifts
// shf.l/.r with .clamp/.wrap, and prmt in every mode.
#include "func/integer_test_util.h"

namespace lockstep::test::integer {
namespace {

Inputs shift_inputs() {
  Inputs in;
  for (uint64_t v :
       {0x80000001f0000001ull, 0xffffffffffffffffull, 0x123456789abcdef0ull, 1ull, 0x8000ull})
    for (uint64_t n : {0ull, 1ull, 4ull, 15ull, 16ull, 17ull, 31ull, 32ull, 40ull, 63ull, 64ull,
                       65ull, 0xffffffffull, 0x100000001ull})
      in.add(v, n, ~v * 3);
  return in;
}

template <class U>
U ref_shl(U v, uint32_t n) {
  return n >= 8 * sizeof(U) ? U(0) : static_cast<U>(v << n);
}
template <class U>
U ref_shr(U v, uint32_t n) {
  return n >= 8 * sizeof(U) ? U(0) : static_cast<U>(v >> n);
}
template <class S>
uint64_t ref_sar(S v, uint32_t n) {
  using U = std::make_unsigned_t<S>;
  const uint32_t bits = 8 * sizeof(S);
  const S r = n >= bits ? S(v < 0 ? -1 : 0) : S(v >> n);
  return static_cast<U>(r);
}

TEST(IntegerShift, ShiftAmountsAtAndPastTheWidthClamp) {
  const Inputs in = shift_inputs();
  const auto out = run(R"(
  shl.b32 %r1, %ra, %rb;    st.global.u32 [%out], %r1;
  shr.u32 %r2, %ra, %rb;    st.global.u32 [%out+8], %r2;
  shr.s32 %r3, %ra, %rb;    st.global.u32 [%out+16], %r3;
  shl.b64 %rd1, %a, %rb;    st.global.u64 [%out+24], %rd1;
  shr.b64 %rd2, %a, %rb;    st.global.u64 [%out+32], %rd2;
  shr.s64 %rd3, %a, %rb;    st.global.u64 [%out+40], %rd3;
  shl.b16 %rs1, %ha, %rb;   st.global.u16 [%out+48], %rs1;
  shr.s16 %rs2, %ha, %rb;   st.global.u16 [%out+56], %rs2;
  shr.u16 %rs3, %ha, %rb;   st.global.u16 [%out+64], %rs3;
  shl.b32 %r4, %ra, 40;     st.global.u32 [%out+72], %r4;
)",
                       in, 10);
  for (size_t t = 0; t < in.size(); ++t) {
    const uint64_t a = in.a[t];
    const auto n = as<uint32_t>(in.b[t]);
    const std::vector<uint64_t> expect = {ref_shl(as<uint32_t>(a), n),
                                          ref_shr(as<uint32_t>(a), n),
                                          ref_sar(as<int32_t>(a), n),
                                          ref_shl(a, n),
                                          ref_shr(a, n),
                                          ref_sar(as<int64_t>(a), n),
                                          ref_shl(as<uint16_t>(a), n),
                                          ref_sar(as<int16_t>(a), n),
                                          ref_shr(as<uint16_t>(a), n),
                                          0};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " n=" << n;
  }
}

TEST(IntegerShift, FunnelShiftClampAndWrap) {
  const Inputs in = shift_inputs();
  const auto out = run(R"(
  shf.l.clamp.b32 %r1, %ra, %rc, %rb;  st.global.u32 [%out], %r1;
  shf.l.wrap.b32 %r2, %ra, %rc, %rb;   st.global.u32 [%out+8], %r2;
  shf.r.clamp.b32 %r3, %ra, %rc, %rb;  st.global.u32 [%out+16], %r3;
  shf.r.wrap.b32 %r4, %ra, %rc, %rb;   st.global.u32 [%out+24], %r4;
)",
                       in, 4);
  for (size_t t = 0; t < in.size(); ++t) {
    const auto lo = as<uint32_t>(in.a[t]), hi = as<uint32_t>(in.c[t]), c = as<uint32_t>(in.b[t]);
    const uint64_t both = (uint64_t{hi} << 32) | lo;
    const uint32_t nc = std::min(c, 32u), nw = c & 31;
    const std::vector<uint64_t> expect = {uint32_t((both << nc) >> 32),
                                          uint32_t((both << nw) >> 32), uint32_t(both >> nc),
                                          uint32_t(both >> nw)};
    ASSERT_EQ(out[t], expect) << "lo=" << std::hex << lo << " hi=" << hi << " n=" << c;
  }
}

// Expected destination bytes (b0 first) of each mode per selector, from the ISA's mode table.
uint32_t from_table(uint64_t src, const char* digits_b3_to_b0) {
  uint32_t d = 0;
  for (int i = 0; i < 4; ++i) {
    const int index = digits_b3_to_b0[3 - i] - '0';
    d |= static_cast<uint32_t>((src >> (8 * index)) & 0xff) << (8 * i);
  }
  return d;
}

TEST(IntegerShift, PrmtEveryMode) {
  Inputs in;
  for (uint64_t sel : {0x3210ull, 0x5140ull, 0x7531ull, 0x0000ull, 0x8888ull, 0xf7e6ull, 0x1ull,
                       0x2ull, 0x3ull, 0x4ull, 0xffff0006ull})
    in.add(0x8877f6554433a211ull, sel);
  const auto out = run(R"(
  mov.b64 {%r10, %r11}, %a;
  prmt.b32 %r1, %r10, %r11, %rb;        st.global.u32 [%out], %r1;
  prmt.b32.f4e %r2, %r10, %r11, %rb;    st.global.u32 [%out+8], %r2;
  prmt.b32.b4e %r3, %r10, %r11, %rb;    st.global.u32 [%out+16], %r3;
  prmt.b32.rc8 %r4, %r10, %r11, %rb;    st.global.u32 [%out+24], %r4;
  prmt.b32.ecl %r5, %r10, %r11, %rb;    st.global.u32 [%out+32], %r5;
  prmt.b32.ecr %r6, %r10, %r11, %rb;    st.global.u32 [%out+40], %r6;
  prmt.b32.rc16 %r7, %r10, %r11, %rb;   st.global.u32 [%out+48], %r7;
)",
                       in, 7);
  static const char* kF4e[] = {"3210", "4321", "5432", "6543"};
  static const char* kB4e[] = {"5670", "6701", "7012", "0123"};
  static const char* kRc8[] = {"0000", "1111", "2222", "3333"};
  static const char* kEcl[] = {"3210", "3211", "3222", "3333"};
  static const char* kEcr[] = {"0000", "1110", "2210", "3210"};
  static const char* kRc16[] = {"1010", "3232", "1010", "3232"};
  for (size_t t = 0; t < in.size(); ++t) {
    const uint64_t src = in.a[t];
    const auto c = as<uint32_t>(in.b[t]);
    uint32_t generic = 0;
    for (int i = 0; i < 4; ++i) {
      const uint32_t s = (c >> (4 * i)) & 0xf;
      uint32_t byte = (src >> (8 * (s & 7))) & 0xff;
      if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
      generic |= byte << (8 * i);
    }
    const uint32_t s = c & 3;
    const std::vector<uint64_t> expect = {generic,
                                          from_table(src, kF4e[s]),
                                          from_table(src, kB4e[s]),
                                          from_table(src, kRc8[s]),
                                          from_table(src, kEcl[s]),
                                          from_table(src, kEcr[s]),
                                          from_table(src, kRc16[s])};
    ASSERT_EQ(out[t], expect) << "c=" << std::hex << c;
  }
  EXPECT_EQ(out[0][0], 0x4433a211u);  // identity selector 0x3210
  EXPECT_EQ(out[4][0], 0u);           // 0x8888: the sign of byte 0 (0x11) in every byte
  EXPECT_EQ(out[5][0], 0xff880077u);  // 0xf7e6: sign(b7), b7, sign(b6), b6
}

TEST(IntegerShift, BadFormsAreLoadErrors) {
  EXPECT_NE(
      load_error("shf.l.b32 %r1, %ra, %rb, %rc;").find("unsupported PTX instruction 'shf.l.b32'"),
      std::string::npos);
  EXPECT_NE(load_error("prmt.b32.xyz %r1, %ra, %rb, %rc;")
                .find("unsupported PTX instruction 'prmt.b32.xyz'"),
            std::string::npos);
  EXPECT_EQ(load_error("shl.b32 %r1, %ra;"), "expected 3 operands for 'shl.b32', got 2");
}

}  // namespace
}  // namespace lockstep::test::integer
