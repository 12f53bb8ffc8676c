// cvt between every pair of integer types, with and without .sat, into registers of the
// destination's own width and into wider ones (sign- or zero-extended); cvt.pack.
#include "func/integer_test_util.h"

namespace lockstep::test::integer {
namespace {

__extension__ typedef __int128 I128;

struct IntDesc {
  const char* name;
  int bits;
  bool is_signed;
};
const IntDesc kTypes[] = {{"u8", 8, false},   {"s8", 8, true},    {"u16", 16, false},
                          {"s16", 16, true},  {"u32", 32, false}, {"s32", 32, true},
                          {"u64", 64, false}, {"s64", 64, true}};

// The source value as atype, as a mathematical integer.
I128 read_as(uint64_t bits, const IntDesc& t) {
  const uint64_t low = t.bits == 64 ? bits : bits & ((uint64_t{1} << t.bits) - 1);
  if (t.is_signed && t.bits < 64 && ((low >> (t.bits - 1)) & 1))
    return I128(low) - (I128(1) << t.bits);
  if (t.is_signed && t.bits == 64) return I128(int64_t(low));
  return I128(low);
}

// Converts to dtype (modulo 2^bits, or clamped), then extends to `reg_bits` by dtype's sign.
uint64_t ref_cvt(uint64_t src, const IntDesc& d, const IntDesc& s, bool sat, int reg_bits) {
  I128 v = read_as(src, s);
  if (sat) {
    const I128 lo = d.is_signed ? -(I128(1) << (d.bits - 1)) : 0;
    const I128 hi = d.is_signed ? (I128(1) << (d.bits - 1)) - 1 : (I128(1) << d.bits) - 1;
    v = v < lo ? lo : (v > hi ? hi : v);
  }
  const auto modular = static_cast<uint64_t>(v);
  const I128 as_d = read_as(modular, d);  // the dtype value, sign-aware
  const auto wide = static_cast<uint64_t>(as_d);
  return reg_bits == 64 ? wide : wide & ((uint64_t{1} << reg_bits) - 1);
}

const char* source_reg(const IntDesc& t) {
  return t.bits <= 16 ? "%ha" : t.bits == 32 ? "%ra" : "%a";
}
int reg_bits_for(const IntDesc& t) {
  return t.bits <= 16 ? 16 : t.bits;
}

TEST(IntegerCvt, EveryIntegerPairWithAndWithoutSat) {
  std::string body;
  int slot = 0;
  for (bool sat : {false, true}) {
    for (const IntDesc& d : kTypes) {
      for (const IntDesc& s : kTypes) {
        const int rb = reg_bits_for(d);
        const std::string dst = rb == 16 ? "%rs1" : rb == 32 ? "%r1" : "%rd1";
        const std::string st = rb == 16 ? "u16" : rb == 32 ? "u32" : "u64";
        body += std::string("cvt") + (sat ? ".sat" : "") + "." + d.name + "." + s.name + " " + dst +
                ", " + source_reg(s) + ";\n";
        body += "st.global." + st + " [%out+" + std::to_string(8 * slot) + "], " + dst + ";\n";
        ++slot;
      }
    }
  }
  const Inputs in = edge_pairs();
  const auto out = run(body, in, static_cast<uint32_t>(slot));
  for (size_t t = 0; t < in.size(); ++t) {
    int k = 0;
    for (bool sat : {false, true}) {
      for (const IntDesc& d : kTypes) {
        for (const IntDesc& s : kTypes) {
          ASSERT_EQ(out[t][k], ref_cvt(in.a[t], d, s, sat, reg_bits_for(d)))
              << "cvt" << (sat ? ".sat." : ".") << d.name << "." << s.name << " of " << std::hex
              << in.a[t];
          ++k;
        }
      }
    }
  }
}

TEST(IntegerCvt, WiderRegistersAndCommonForms) {
  const auto out = run(R"(
  cvt.s8.s32 %r1, %ra;       st.global.u32 [%out], %r1;
  cvt.u8.u32 %r2, %ra;       st.global.u32 [%out+8], %r2;
  cvt.s32.s8 %r3, %ra;       st.global.u32 [%out+16], %r3;
  cvt.u32.u64 %r4, %a;       st.global.u32 [%out+24], %r4;
  cvt.s64.s32 %rd1, %ra;     st.global.u64 [%out+32], %rd1;
  cvt.u64.u32 %rd2, %ra;     st.global.u64 [%out+40], %rd2;
  cvt.s16.s8 %rd3, %ha;      st.global.u64 [%out+48], %rd3;
  cvt.sat.u8.s32 %r5, %ra;   st.global.u32 [%out+56], %r5;
  cvt.u16.u32 %rs1, %ra;     st.global.u16 [%out+64], %rs1;
)",
                       edge_pairs(), 9);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const uint64_t a = in.a[t];
    const int32_t s32 = as<int32_t>(a);
    const std::vector<uint64_t> expect = {uint32_t(int32_t(as<int8_t>(a))),
                                          uint32_t(as<uint8_t>(a)),
                                          uint32_t(int32_t(as<int8_t>(a))),
                                          as<uint32_t>(a),
                                          uint64_t(int64_t(s32)),
                                          as<uint32_t>(a),
                                          uint64_t(int64_t(as<int8_t>(a))),
                                          uint32_t(std::clamp(s32, 0, 255)),
                                          as<uint16_t>(a)};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a;
  }
}

TEST(IntegerCvt, PackSaturates) {
  const auto out = run(R"(
  cvt.pack.sat.u16.s32 %r1, %ra, %rb;          st.global.u32 [%out], %r1;
  cvt.pack.sat.s16.s32 %r2, %ra, %rb;          st.global.u32 [%out+8], %r2;
  cvt.pack.sat.u8.s32.b32 %r3, %ra, %rb, %rc;  st.global.u32 [%out+16], %r3;
  cvt.pack.sat.s4.s32.b32 %r4, %ra, %rb, %rc;  st.global.u32 [%out+24], %r4;
  cvt.pack.sat.u2.s32.b32 %r5, %ra, %rb, 0;    st.global.u32 [%out+32], %r5;
)",
                       edge_pairs(), 5);
  const Inputs in = edge_pairs();
  const auto pack = [](int32_t a, int32_t b, uint32_t c, int bits, bool is_signed) -> uint32_t {
    const int64_t lo = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
    const int64_t hi = is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
    const auto m = static_cast<uint32_t>((uint64_t{1} << bits) - 1);
    const auto sa = static_cast<uint32_t>(std::clamp<int64_t>(a, lo, hi)) & m;
    const auto sb = static_cast<uint32_t>(std::clamp<int64_t>(b, lo, hi)) & m;
    const uint32_t upper = 2 * bits >= 32 ? 0u : c << (2 * bits);
    return sb | (sa << bits) | upper;
  };
  for (size_t t = 0; t < in.size(); ++t) {
    const auto a = as<int32_t>(in.a[t]), b = as<int32_t>(in.b[t]);
    const auto c = as<uint32_t>(in.c[t]);
    const std::vector<uint64_t> expect = {pack(a, b, 0, 16, false), pack(a, b, 0, 16, true),
                                          pack(a, b, c, 8, false), pack(a, b, c, 4, true),
                                          pack(a, b, 0, 2, false)};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " b=" << b;
  }
}

TEST(IntegerCvt, BadFormsAreLoadErrors) {
  EXPECT_NE(
      load_error("cvt.rni.s32.s64 %r1, %a;").find("unsupported PTX instruction 'cvt.rni.s32.s64'"),
      std::string::npos);
  EXPECT_NE(load_error("cvt.pack.sat.u8.s32 %r1, %ra, %rb;").find("unsupported PTX instruction"),
            std::string::npos);
  EXPECT_EQ(load_error("cvt.s64.s32 %rd1;"), "expected 2 operands for 'cvt.s64.s32', got 1");
}

}  // namespace
}  // namespace lockstep::test::integer
