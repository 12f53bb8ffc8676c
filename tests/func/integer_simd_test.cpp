// Packed forms: add/sub/min/max on .u16x2/.s16x2 (.relu), dp4a and dp2a in every signedness,
// and the video instructions (vabsdiff4 with merge and accumulate, the other vop4, vop2).
#include "func/integer_test_util.h"

namespace lockstep::test::integer {
namespace {

int32_t half(uint32_t x, int i, bool is_signed) {
  const uint32_t h = (x >> (16 * i)) & 0xffff;
  return is_signed ? int32_t(int16_t(h)) : int32_t(h);
}
uint64_t halves(int32_t lo, int32_t hi) {
  return (uint32_t(lo) & 0xffff) | ((uint32_t(hi) & 0xffff) << 16);
}
int32_t byte(uint32_t x, int i, bool is_signed) {
  const uint32_t b = (x >> (8 * i)) & 0xff;
  return is_signed ? int32_t(int8_t(b)) : int32_t(b);
}

TEST(IntegerSimd, HalfwordPairs) {
  const auto out = run(R"(
  add.u16x2 %r1, %ra, %rb;        st.global.u32 [%out], %r1;
  sub.s16x2 %r2, %ra, %rb;        st.global.u32 [%out+8], %r2;
  min.s16x2 %r3, %ra, %rb;        st.global.u32 [%out+16], %r3;
  max.u16x2 %r4, %ra, %rb;        st.global.u32 [%out+24], %r4;
  max.relu.s16x2 %r5, %ra, %rb;   st.global.u32 [%out+32], %r5;
  min.relu.s16x2 %r6, %ra, %rb;   st.global.u32 [%out+40], %r6;
)",
                       edge_pairs(), 6);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const auto a = as<uint32_t>(in.a[t]), b = as<uint32_t>(in.b[t]);
    const auto each = [&](auto f, bool is_signed) {
      uint32_t d = 0;
      for (int i = 0; i < 2; ++i)
        d |= (uint32_t(f(half(a, i, is_signed), half(b, i, is_signed))) & 0xffff) << (16 * i);
      return uint64_t(d);
    };
    const std::vector<uint64_t> expect = {
        each([](int32_t x, int32_t y) { return x + y; }, false),
        each([](int32_t x, int32_t y) { return x - y; }, true),
        each([](int32_t x, int32_t y) { return std::min(x, y); }, true),
        each([](int32_t x, int32_t y) { return std::max(x, y); }, false),
        each([](int32_t x, int32_t y) { return std::max(std::max(x, y), 0); }, true),
        each([](int32_t x, int32_t y) { return std::max(std::min(x, y), 0); }, true)};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " b=" << b;
  }
}

TEST(IntegerSimd, DotProducts) {
  const auto out = run(R"(
  dp4a.u32.u32 %r1, %ra, %rb, %rc;     st.global.u32 [%out], %r1;
  dp4a.s32.s32 %r2, %ra, %rb, %rc;     st.global.u32 [%out+8], %r2;
  dp4a.s32.u32 %r3, %ra, %rb, %rc;     st.global.u32 [%out+16], %r3;
  dp4a.u32.s32 %r4, %ra, %rb, 0;       st.global.u32 [%out+24], %r4;
  dp2a.lo.u32.u32 %r5, %ra, %rb, %rc;  st.global.u32 [%out+32], %r5;
  dp2a.hi.s32.s32 %r6, %ra, %rb, %rc;  st.global.u32 [%out+40], %r6;
  dp2a.lo.s32.u32 %r7, %ra, %rb, %rc;  st.global.u32 [%out+48], %r7;
  dp2a.hi.u32.s32 %r8, %ra, %rb, %rc;  st.global.u32 [%out+56], %r8;
)",
                       edge_pairs(), 8);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const auto a = as<uint32_t>(in.a[t]), b = as<uint32_t>(in.b[t]), c = as<uint32_t>(in.c[t]);
    const auto dp4 = [&](bool as, bool bs, uint32_t acc) {
      int64_t s = 0;
      for (int i = 0; i < 4; ++i) s += int64_t(byte(a, i, as)) * byte(b, i, bs);
      return uint64_t(uint32_t(acc + uint32_t(s)));
    };
    const auto dp2 = [&](bool hi, bool as, bool bs) {
      int64_t s = 0;
      for (int i = 0; i < 2; ++i) s += int64_t(half(a, i, as)) * byte(b, (hi ? 2 : 0) + i, bs);
      return uint64_t(uint32_t(c + uint32_t(s)));
    };
    const std::vector<uint64_t> expect = {dp4(false, false, c),     dp4(true, true, c),
                                          dp4(true, false, c),      dp4(false, true, 0),
                                          dp2(false, false, false), dp2(true, true, true),
                                          dp2(false, true, false),  dp2(true, false, true)};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " b=" << b << " c=" << c;
  }
}

TEST(IntegerSimd, VideoFourAndTwoWay) {
  const auto out = run(R"(
  vabsdiff4.u32.u32.u32 %r1, %ra, %rb, %rc;       st.global.u32 [%out], %r1;
  vabsdiff4.u32.u32.u32.add %r2, %ra, %rb, %rc;   st.global.u32 [%out+8], %r2;
  vabsdiff4.s32.s32.s32.add %r3, %ra, %rb, %rc;   st.global.u32 [%out+16], %r3;
  vadd4.u32.u32.u32.sat %r4, %ra, %rb, %rc;       st.global.u32 [%out+24], %r4;
  vsub4.s32.s32.s32.sat %r5, %ra, %rb, %rc;       st.global.u32 [%out+32], %r5;
  vavrg4.u32.u32.u32 %r6, %ra, %rb, %rc;          st.global.u32 [%out+40], %r6;
  vmin4.s32.s32.s32 %r7, %ra, %rb, %rc;           st.global.u32 [%out+48], %r7;
  vmax4.u32.u32.u32.add %r8, %ra, %rb, %rc;       st.global.u32 [%out+56], %r8;
  vabsdiff2.s32.s32.s32.add %r9, %ra, %rb, %rc;   st.global.u32 [%out+64], %r9;
  vadd2.s32.s32.s32.sat %r10, %ra, %rb, %rc;      st.global.u32 [%out+72], %r10;
  vsub2.u32.u32.u32 %r11, %ra, %rb, %rc;          st.global.u32 [%out+80], %r11;
)",
                       edge_pairs(), 11);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const auto a = as<uint32_t>(in.a[t]), b = as<uint32_t>(in.b[t]), c = as<uint32_t>(in.c[t]);
    // merge: every byte is the result's low byte; accumulate: c + the sum of the results.
    const auto merge = [&](auto f, bool is_signed, bool sat) {
      uint32_t d = 0;
      for (int i = 0; i < 4; ++i) {
        int32_t r = f(byte(a, i, is_signed), byte(b, i, is_signed));
        if (sat) r = is_signed ? std::clamp(r, -128, 127) : std::clamp(r, 0, 255);
        d |= (uint32_t(r) & 0xff) << (8 * i);
      }
      return uint64_t(d);
    };
    const auto accumulate = [&](auto f, bool is_signed) {
      uint32_t d = c;
      for (int i = 0; i < 4; ++i) d += uint32_t(f(byte(a, i, is_signed), byte(b, i, is_signed)));
      return uint64_t(d);
    };
    const auto absdiff = [](int32_t x, int32_t y) { return std::abs(x - y); };
    const auto avrg = [](int32_t x, int32_t y) { return (x + y + 1) >> 1; };  // x + y >= 0 here
    const std::vector<uint64_t> expect = {
        merge(absdiff, false, false),
        accumulate(absdiff, false),
        accumulate(absdiff, true),
        merge([](int32_t x, int32_t y) { return x + y; }, false, true),
        merge([](int32_t x, int32_t y) { return x - y; }, true, true),
        merge(avrg, false, false),
        merge([](int32_t x, int32_t y) { return std::min(x, y); }, true, false),
        accumulate([](int32_t x, int32_t y) { return std::max(x, y); }, false),
        uint32_t(c + uint32_t(std::abs(half(a, 0, true) - half(b, 0, true))) +
                 uint32_t(std::abs(half(a, 1, true) - half(b, 1, true)))),
        halves(std::clamp(half(a, 0, true) + half(b, 0, true), -32768, 32767),
               std::clamp(half(a, 1, true) + half(b, 1, true), -32768, 32767)),
        halves(half(a, 0, false) - half(b, 0, false), half(a, 1, false) - half(b, 1, false))};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " b=" << b << " c=" << c;
  }
}

TEST(IntegerSimd, BadFormsAreLoadErrors) {
  EXPECT_NE(load_error("vabsdiff4.u32.u32.u32.sat.add %r1, %ra, %rb, %rc;")
                .find("unsupported PTX instruction"),
            std::string::npos);
  EXPECT_NE(load_error("vabsdiff.u32.u32.u32 %r1, %ra, %rb, %rc;")
                .find("unsupported PTX instruction 'vabsdiff.u32.u32.u32'"),
            std::string::npos);
  EXPECT_NE(load_error("dp4a.u16.u32 %r1, %ra, %rb, %rc;")
                .find("unsupported PTX instruction 'dp4a.u16.u32'"),
            std::string::npos);
  EXPECT_NE(load_error("add.sat.u16x2 %r1, %ra, %rb;")
                .find("unsupported PTX instruction 'add.sat.u16x2'"),
            std::string::npos);
}

}  // namespace
}  // namespace lockstep::test::integer
