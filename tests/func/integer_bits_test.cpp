// Bit manipulation: popc, clz, brev, bfind (.shiftamt), bfe (pos+len past the msb, signed
// fill), bfi, szext, bmsk.
#include <bit>

#include "func/integer_test_util.h"

namespace lockstep::test::integer {
namespace {

template <class U>
U ref_brev(U v) {
  U r = 0;
  for (unsigned i = 0; i < 8 * sizeof(U); ++i)
    if ((v >> i) & 1) r = static_cast<U>(r | (U(1) << (8 * sizeof(U) - 1 - i)));
  return r;
}

// bfind by scanning from the msb, as the ISA's pseudocode does.
template <class T>
uint32_t ref_bfind(T v, bool shiftamt) {
  constexpr int kMsb = 8 * sizeof(T) - 1;
  using U = std::make_unsigned_t<T>;
  U u = static_cast<U>(v);
  if (std::is_signed_v<T> && ((u >> kMsb) & 1)) u = static_cast<U>(~u);
  for (int i = kMsb; i >= 0; --i)
    if ((u >> i) & 1) return shiftamt ? uint32_t(kMsb - i) : uint32_t(i);
  return 0xffffffffu;
}

TEST(IntegerBits, PopcClzBrevBfind) {
  const auto out = run(R"(
  popc.b32 %r1, %ra;             st.global.u32 [%out], %r1;
  popc.b64 %r2, %a;              st.global.u32 [%out+8], %r2;
  clz.b32 %r3, %ra;              st.global.u32 [%out+16], %r3;
  clz.b64 %r4, %a;               st.global.u32 [%out+24], %r4;
  brev.b32 %r5, %ra;             st.global.u32 [%out+32], %r5;
  brev.b64 %rd1, %a;             st.global.u64 [%out+40], %rd1;
  bfind.u32 %r6, %ra;            st.global.u32 [%out+48], %r6;
  bfind.s32 %r7, %ra;            st.global.u32 [%out+56], %r7;
  bfind.shiftamt.u32 %r8, %ra;   st.global.u32 [%out+64], %r8;
  bfind.u64 %r9, %a;             st.global.u32 [%out+72], %r9;
  bfind.shiftamt.s64 %r10, %a;   st.global.u32 [%out+80], %r10;
)",
                       edge_pairs(), 11);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const uint64_t a = in.a[t];
    const auto a32 = as<uint32_t>(a);
    const std::vector<uint64_t> expect = {uint64_t(std::popcount(a32)),
                                          uint64_t(std::popcount(a)),
                                          uint64_t(std::countl_zero(a32)),
                                          uint64_t(std::countl_zero(a)),
                                          ref_brev(a32),
                                          ref_brev(a),
                                          ref_bfind(a32, false),
                                          ref_bfind(as<int32_t>(a), false),
                                          ref_bfind(a32, true),
                                          ref_bfind(a, false),
                                          ref_bfind(as<int64_t>(a), true)};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a;
  }
}

// bfe by the ISA's bit-by-bit definition.
template <class T>
uint64_t ref_bfe(T a, uint32_t b, uint32_t c) {
  using U = std::make_unsigned_t<T>;
  const uint32_t msb = 8 * sizeof(T) - 1, pos = b & 0xff, len = c & 0xff;
  const U u = static_cast<U>(a);
  const uint32_t sbit_index = std::min(pos + len - 1, msb);
  const bool sbit = std::is_signed_v<T> && len != 0 && ((u >> sbit_index) & 1);
  U d = 0;
  for (uint32_t i = 0; i <= msb; ++i) {
    const bool bit = (i < len && pos + i <= msb) ? ((u >> (pos + i)) & 1) : sbit;
    if (bit) d = static_cast<U>(d | (U(1) << i));
  }
  return d;
}

template <class U>
uint64_t ref_bfi(U a, U b, uint32_t c, uint32_t d) {
  const uint32_t msb = 8 * sizeof(U) - 1, pos = c & 0xff, len = d & 0xff;
  U f = b;
  for (uint32_t i = 0; i < len && pos + i <= msb; ++i) {
    const U bit = U(1) << (pos + i);
    f = ((a >> i) & 1) ? static_cast<U>(f | bit) : static_cast<U>(f & ~bit);
  }
  return f;
}

Inputs field_inputs() {
  Inputs in;
  const std::vector<uint64_t> values = {0xf0f0f0f08badf00dull, 0x80000000ull, 0xffffffffffffffffull,
                                        0x7fffffff12345678ull, 0};
  const std::vector<uint64_t> positions = {0, 1, 8, 16, 31, 32, 40, 63, 64, 255, 0x1234};
  const std::vector<uint64_t> lengths = {0, 1, 4, 8, 17, 31, 32, 33, 64, 200, 0x120};
  for (uint64_t v : values)
    for (uint64_t p : positions)
      for (uint64_t l : lengths) in.add(v, p, l);
  return in;  // 605 threads
}

TEST(IntegerBits, BfeAndBfiWithFieldsPastTheMsb) {
  const Inputs in = field_inputs();
  const auto out = run(R"(
  bfe.u32 %r1, %ra, %rb, %rc;        st.global.u32 [%out], %r1;
  bfe.s32 %r2, %ra, %rb, %rc;        st.global.u32 [%out+8], %r2;
  bfe.u64 %rd1, %a, %rb, %rc;        st.global.u64 [%out+16], %rd1;
  bfe.s64 %rd2, %a, %rb, %rc;        st.global.u64 [%out+24], %rd2;
  not.b32 %r9, %ra;
  bfi.b32 %r3, %r9, %ra, %rb, %rc;   st.global.u32 [%out+32], %r3;
  not.b64 %rd9, %a;
  bfi.b64 %rd3, %rd9, %a, %rb, %rc;  st.global.u64 [%out+40], %rd3;
  bfi.b64 %rd4, %b, %c, 32, 32;      st.global.u64 [%out+48], %rd4;
)",
                       in, 7);
  for (size_t t = 0; t < in.size(); ++t) {
    const uint64_t a = in.a[t];
    const auto b = as<uint32_t>(in.b[t]), c = as<uint32_t>(in.c[t]);
    const std::vector<uint64_t> expect = {ref_bfe(as<uint32_t>(a), b, c),
                                          ref_bfe(as<int32_t>(a), b, c) & 0xffffffffu,
                                          ref_bfe(a, b, c),
                                          ref_bfe(as<int64_t>(a), b, c),
                                          ref_bfi(~as<uint32_t>(a), as<uint32_t>(a), b, c),
                                          ref_bfi(~a, a, b, c),
                                          (in.c[t] & 0xffffffffull) | (in.b[t] << 32)};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " pos=" << b << " len=" << c;
  }
  // bfe.s32 of 0x80000000 at pos 31, len 8: the field is the sign bit alone, so every bit of
  // the result is 1; bfe.u32 gives just that bit.
  bool seen = false;
  for (size_t t = 0; t < in.size(); ++t) {
    if (in.a[t] != 0x80000000u || in.b[t] != 31 || in.c[t] != 8) continue;
    EXPECT_EQ(out[t][0], 1u);
    EXPECT_EQ(out[t][1], 0xffffffffu);
    seen = true;
  }
  EXPECT_TRUE(seen);
}

TEST(IntegerBits, SzextAndBmsk) {
  Inputs in;
  for (uint64_t v : {0x000000ffull, 0x00000080ull, 0xfffffff0ull, 0x12345678ull})
    for (uint64_t n : {0ull, 1ull, 7ull, 8ull, 16ull, 31ull, 32ull, 33ull, 40ull})
      in.add(v, n, (n * 7) & 0x3f);
  const auto out = run(R"(
  szext.clamp.s32 %r1, %ra, %rb;  st.global.u32 [%out], %r1;
  szext.wrap.s32 %r2, %ra, %rb;   st.global.u32 [%out+8], %r2;
  szext.clamp.u32 %r3, %ra, %rb;  st.global.u32 [%out+16], %r3;
  bmsk.clamp.b32 %r4, %rb, %rc;   st.global.u32 [%out+24], %r4;
  bmsk.wrap.b32 %r5, %rb, %rc;    st.global.u32 [%out+32], %r5;
)",
                       in, 5);
  const auto szext = [](uint32_t a, uint32_t n, bool is_signed, bool clamp) -> uint32_t {
    if (n == 0 || (clamp && n >= 32)) return n == 0 ? 0 : a;
    const uint32_t bits = n & 31;
    if (bits == 0) return 0;  // wrap mode, n a multiple of 32
    const uint32_t low = a & ((1u << bits) - 1);
    return (is_signed && ((a >> (bits - 1)) & 1)) ? (low | ~((1u << bits) - 1)) : low;
  };
  const auto bmsk = [](uint32_t pos, uint32_t width, bool clamp) -> uint32_t {
    if (clamp) {
      if (pos >= 32) return 0;
      width = std::min(width, 32u);
    } else {
      pos &= 31;
      width &= 31;
    }
    uint32_t r = 0;
    for (uint32_t i = pos; i < pos + width && i < 32; ++i) r |= 1u << i;
    return r;
  };
  for (size_t t = 0; t < in.size(); ++t) {
    const auto a = as<uint32_t>(in.a[t]), n = as<uint32_t>(in.b[t]), w = as<uint32_t>(in.c[t]);
    const std::vector<uint64_t> expect = {szext(a, n, true, true), szext(a, n, true, false),
                                          szext(a, n, false, true), bmsk(n, w, true),
                                          bmsk(n, w, false)};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " n=" << n << " w=" << w;
  }
}

TEST(IntegerBits, BadFormsAreLoadErrors) {
  EXPECT_NE(load_error("popc.b16 %rs1, %ha;").find("unsupported PTX instruction 'popc.b16'"),
            std::string::npos);
  EXPECT_NE(load_error("bfe.b32 %r1, %ra, 1, 2;").find("unsupported PTX instruction 'bfe.b32'"),
            std::string::npos);
  EXPECT_EQ(load_error("bfi.b32 %r1, %ra, %rb, 3;"), "expected 5 operands for 'bfi.b32', got 4");
}

}  // namespace
}  // namespace lockstep::test::integer
