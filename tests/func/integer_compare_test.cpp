// Comparisons and selection: setp with every integer operator and type (eq ne lt le gt ge lo ls
// hi hs on .s/.u/.b), the .and/.or/.xor combine with !c, the p|q pair (q = complement), set with
// u32/s32/f32 results, selp on every width including float types, and slct.
#include "func/integer_test_util.h"

namespace lockstep::test::integer {
namespace {

// One setp per operator and type; the kernel ORs bit i of the result word per predicate.
const char* kOps[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};

template <class T>
bool ref_cmp(const std::string& op, T a, T b) {
  using U = std::make_unsigned_t<T>;
  const U ua = static_cast<U>(a), ub = static_cast<U>(b);
  if (op == "eq") return a == b;
  if (op == "ne") return a != b;
  if (op == "lt") return a < b;
  if (op == "le") return a <= b;
  if (op == "gt") return a > b;
  if (op == "ge") return a >= b;
  if (op == "lo") return ua < ub;
  if (op == "ls") return ua <= ub;
  if (op == "hi") return ua > ub;
  return ua >= ub;
}

TEST(IntegerCompare, SetpEveryOperatorAndType) {
  struct Type {
    const char* name;
    const char* a;
    const char* b;
  };
  const Type types[] = {{"s32", "%ra", "%rb"}, {"u32", "%ra", "%rb"}, {"b32", "%ra", "%rb"},
                        {"s64", "%a", "%b"},   {"u64", "%a", "%b"},   {"s16", "%ha", "%hb"},
                        {"u16", "%ha", "%hb"}, {"b64", "%a", "%b"}};
  std::string body;
  int slot = 0;
  for (const Type& ty : types) {
    for (const char* op : kOps) {
      const std::string t(ty.name);
      if (t[0] == 'b' && std::string(op) != "eq" && std::string(op) != "ne") continue;
      body += "setp." + std::string(op) + "." + t + " %p1, " + ty.a + ", " + ty.b + ";\n";
      body += "selp.u32 %r1, 1, 0, %p1; st.global.u8 [%out+" + std::to_string(slot) + "], %r1;\n";
      ++slot;
    }
  }
  const Inputs in = edge_pairs();
  const auto out = run(body, in, (slot + 7) / 8);
  for (size_t t = 0; t < in.size(); ++t) {
    int s = 0;
    for (const Type& ty : types) {
      for (const char* op : kOps) {
        const std::string name(ty.name);
        if (name[0] == 'b' && std::string(op) != "eq" && std::string(op) != "ne") continue;
        bool expect;
        if (name == "s32")
          expect = ref_cmp(op, as<int32_t>(in.a[t]), as<int32_t>(in.b[t]));
        else if (name == "u32" || name == "b32")
          expect = ref_cmp(op, as<uint32_t>(in.a[t]), as<uint32_t>(in.b[t]));
        else if (name == "s64")
          expect = ref_cmp(op, as<int64_t>(in.a[t]), as<int64_t>(in.b[t]));
        else if (name == "s16")
          expect = ref_cmp(op, as<int16_t>(in.a[t]), as<int16_t>(in.b[t]));
        else if (name == "u16")
          expect = ref_cmp(op, as<uint16_t>(in.a[t]), as<uint16_t>(in.b[t]));
        else
          expect = ref_cmp(op, in.a[t], in.b[t]);
        const uint64_t got = (out[t][s / 8] >> (8 * (s % 8))) & 0xff;
        ASSERT_EQ(got, expect ? 1u : 0u)
            << "setp." << op << "." << name << " a=" << std::hex << in.a[t] << " b=" << in.b[t];
        ++s;
      }
    }
  }
}

TEST(IntegerCompare, SetpCombineAndPairDestination) {
  Inputs in;
  for (uint64_t x : {0ull, 5ull, 0xffffffffull})
    for (uint64_t y : {0ull, 5ull, 7ull})
      for (uint64_t z : {0ull, 1ull}) in.add(x, y, z);
  const auto out = run(R"(
  setp.ne.u32 %p9, %rc, 0;
  setp.lt.s32 %p1|%p2, %ra, %rb;
  setp.lt.and.s32 %p3|%p4, %ra, %rb, %p9;
  setp.ge.or.u32 %p5|%p6, %ra, %rb, !%p9;
  setp.eq.xor.b32 %p7, %ra, %rb, %p9;
  setp.hi.and.s32 _|%p8, %ra, %rb, %p9;
  selp.u32 %r1, 1, 0, %p1;  st.global.u8 [%out], %r1;
  selp.u32 %r2, 1, 0, %p2;  st.global.u8 [%out+1], %r2;
  selp.u32 %r3, 1, 0, %p3;  st.global.u8 [%out+2], %r3;
  selp.u32 %r4, 1, 0, %p4;  st.global.u8 [%out+3], %r4;
  selp.u32 %r5, 1, 0, %p5;  st.global.u8 [%out+4], %r5;
  selp.u32 %r6, 1, 0, %p6;  st.global.u8 [%out+5], %r6;
  selp.u32 %r7, 1, 0, %p7;  st.global.u8 [%out+6], %r7;
  selp.u32 %r8, 1, 0, %p8;  st.global.u8 [%out+7], %r8;
)",
                       in, 1);
  for (size_t t = 0; t < in.size(); ++t) {
    const auto sa = as<int32_t>(in.a[t]), sb = as<int32_t>(in.b[t]);
    const auto ua = as<uint32_t>(in.a[t]), ub = as<uint32_t>(in.b[t]);
    const bool c = in.c[t] != 0, lt = sa<sb, ge = ua >= ub, eq = ua == ub, hi = ua> ub;
    const bool bits[8] = {lt, !lt, lt && c, !lt && c, ge || !c, !ge || !c, eq != c, !hi && c};
    uint64_t expect = 0;
    for (int i = 0; i < 8; ++i) expect |= uint64_t(bits[i]) << (8 * i);
    ASSERT_EQ(out[t][0], expect) << "a=" << std::hex << in.a[t] << " b=" << in.b[t] << " c=" << c;
  }
}

TEST(IntegerCompare, SetSelpSlct) {
  const auto out = run(R"(
  set.lt.u32.s32 %r1, %ra, %rb;            st.global.u32 [%out], %r1;
  set.hs.s32.u64 %r2, %a, %b;              st.global.u32 [%out+8], %r2;
  set.eq.f32.u16 %f1, %ha, %hb;            st.global.f32 [%out+16], %f1;
  setp.ne.u32 %p9, %rc, 0;
  set.gt.and.u32.s64 %r3, %a, %b, %p9;     st.global.u32 [%out+24], %r3;
  setp.lt.s32 %p1, %ra, %rb;
  selp.b32 %r4, %ra, %rb, %p1;             st.global.u32 [%out+32], %r4;
  selp.b64 %rd1, %a, %b, %p1;              st.global.u64 [%out+40], %rd1;
  selp.u16 %rs1, %ha, 32767, %p1;          st.global.u16 [%out+48], %rs1;
  selp.f32 %f2, 0f3F800000, 0f40000000, %p1;  st.global.f32 [%out+56], %f2;
  mov.b64 %rd8, %a;
  selp.f64 %rd2, 0d4000000000000000, %rd8, %p1;  st.global.u64 [%out+64], %rd2;
  slct.u32.s32 %r5, %ra, %rb, %rc;         st.global.u32 [%out+72], %r5;
  slct.b64.s32 %rd3, %a, %b, %rc;          st.global.u64 [%out+80], %rd3;
  mov.b32 %f3, %rc;
  slct.u32.f32 %r6, %ra, %rb, %f3;         st.global.u32 [%out+88], %r6;
  slct.ftz.u32.f32 %r7, %ra, %rb, %f3;     st.global.u32 [%out+96], %r7;
)",
                       edge_pairs(), 13);
  const Inputs in = edge_pairs();
  for (size_t t = 0; t < in.size(); ++t) {
    const uint64_t a = in.a[t], b = in.b[t], c = in.c[t];
    const bool lt = as<int32_t>(a) < as<int32_t>(b);
    const bool p9 = as<uint32_t>(c) != 0;
    const auto cf = as<uint32_t>(c);
    float fc;
    std::memcpy(&fc, &cf, 4);
    const bool is_denormal = (cf & 0x7f800000u) == 0;
    const bool f_ge = fc >= 0.0f;
    const bool f_ge_ftz = is_denormal ? true : fc >= 0.0f;
    const std::vector<uint64_t> expect = {
        lt ? 0xffffffffu : 0u,
        a >= b ? 0xffffffffu : 0u,
        as<uint16_t>(a) == as<uint16_t>(b) ? 0x3f800000u : 0u,
        (as<int64_t>(a) > as<int64_t>(b) && p9) ? 0xffffffffu : 0u,
        lt ? as<uint32_t>(a) : as<uint32_t>(b),
        lt ? a : b,
        lt ? as<uint16_t>(a) : 32767u,
        lt ? 0x3f800000u : 0x40000000u,
        lt ? 0x4000000000000000ull : a,
        as<int32_t>(c) >= 0 ? as<uint32_t>(a) : as<uint32_t>(b),
        as<int32_t>(c) >= 0 ? a : b,
        f_ge ? as<uint32_t>(a) : as<uint32_t>(b),
        f_ge_ftz ? as<uint32_t>(a) : as<uint32_t>(b)};
    ASSERT_EQ(out[t], expect) << "a=" << std::hex << a << " b=" << b << " c=" << c;
  }
}

TEST(IntegerCompare, BadFormsAreLoadErrors) {
  EXPECT_NE(
      load_error("setp.equ.s32 %p1, %ra, %rb;").find("unsupported PTX instruction 'setp.equ.s32'"),
      std::string::npos);
  EXPECT_NE(load_error("set.lt.u16.s32 %rs1, %ra, %rb;")
                .find("unsupported PTX instruction 'set.lt.u16.s32'"),
            std::string::npos);
  EXPECT_EQ(load_error("setp.lt.and.s32 %p1, %ra, %rb;"),
            "expected 4 operands for 'setp.lt.and.s32', got 3");
  EXPECT_EQ(load_error("selp.b32 %r1, %ra, %rb, %rc;"),
            "operand 3 of 'selp.b32' must be a predicate");
}

}  // namespace
}  // namespace lockstep::test::integer
