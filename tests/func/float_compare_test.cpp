// setp / set with float operands: all fourteen comparisons, ordered vs unordered with NaN,
// .ftz, the .and/.or/.xor combination, the p|q pair, and set's result encodings.
#include <cmath>

#include "func/float_test_util.h"

namespace lockstep::test::floatops {
namespace {

bool reference(const std::string& op, double x, double y) {
  const bool u = std::isnan(x) || std::isnan(y);
  if (op == "eq") return !u && x == y;
  if (op == "ne") return !u && x != y;
  if (op == "lt") return !u && x < y;
  if (op == "le") return !u && x <= y;
  if (op == "gt") return !u && x > y;
  if (op == "ge") return !u && x >= y;
  if (op == "equ") return u || x == y;
  if (op == "neu") return u || x != y;
  if (op == "ltu") return u || x < y;
  if (op == "leu") return u || x <= y;
  if (op == "gtu") return u || x > y;
  if (op == "geu") return u || x >= y;
  if (op == "num") return !u;
  return u;  // nan
}

const std::vector<std::string> kOps = {"eq", "ne", "lt", "le", "gt", "ge", "equ",
                                       "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

TEST(FloatCompare, SetpF32AndF64AllOperators) {
  std::vector<uint64_t> a, b, da, db;
  const std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, NAN, INFINITY, -INFINITY, 0x1p-149f};
  for (float x : v) {
    for (float y : v) {
      a.push_back(f32(x));
      b.push_back(f32(y));
      da.push_back(f64(x));
      db.push_back(f64(y));
    }
  }
  for (const std::string& op : kOps) {
    const auto r32 = run("setp." + op + ".f32 %po, %fa, %fb;", Out::Pred, a, b);
    const auto r64 = run("setp." + op + ".f64 %po, %da, %db;", Out::Pred, da, db);
    for (size_t i = 0; i < a.size(); ++i) {
      const bool want = reference(op, as_f32(a[i]), as_f32(b[i]));
      ASSERT_EQ(r32[i], want ? 1u : 0u) << op << " " << as_f32(a[i]) << " " << as_f32(b[i]);
      ASSERT_EQ(r64[i], want ? 1u : 0u) << op << " " << as_f64(da[i]) << " " << as_f64(db[i]);
    }
  }
}

TEST(FloatCompare, FtzCombineAndPair) {
  // Subnormal vs zero: equal under .ftz only.
  EXPECT_EQ(run("setp.eq.f32 %po, %fa, %fb;", Out::Pred, {f32(0x1p-149f)}, {f32(0.0f)})[0], 0u);
  EXPECT_EQ(run("setp.eq.ftz.f32 %po, %fa, %fb;", Out::Pred, {f32(0x1p-149f)}, {f32(0.0f)})[0], 1u);
  // p = (a < b) and !c, q = !(a < b) and !c, with c = (a32 != 0) reused: c is true for these.
  const std::vector<uint64_t> a = {f32(1.0f), f32(2.0f), f32(NAN)};
  const std::vector<uint64_t> b = {f32(2.0f), f32(1.0f), f32(1.0f)};
  EXPECT_EQ(run("setp.lt.and.f32 %po|%qo, %fa, %fb, %pa;", Out::PredPair, a, b),
            (std::vector<uint64_t>{1, 2, 2}));
  EXPECT_EQ(run("setp.lt.and.f32 %po|%qo, %fa, %fb, !%pa;", Out::PredPair, a, b),
            (std::vector<uint64_t>{0, 0, 0}));
  EXPECT_EQ(run("setp.ltu.or.f32 %po, %fa, %fb, !%pa;", Out::Pred, a, b),
            (std::vector<uint64_t>{1, 0, 1}));
  EXPECT_EQ(run("setp.gt.xor.f32 %po, %fa, %fb, %pa;", Out::Pred, a, b),
            (std::vector<uint64_t>{1, 0, 1}));
}

TEST(FloatCompare, HalfFormsAndSet) {
  // f16x2: p from the lower halves, q from the upper halves.
  EXPECT_EQ(run("setp.lt.f16x2 %po|%qo, %a32, %b32;", Out::PredPair, {0x3c00bc00, 0x7e004000},
                {0x40003c00, 0x3c003c00}),
            (std::vector<uint64_t>{3, 0}));
  EXPECT_EQ(run("setp.gt.f16 %po, %a16, %b16;", Out::Pred, {0x3c00, 0x8001, 0x7e00}, {0x0000, 0x8000, 0x0000}),
            (std::vector<uint64_t>{1, 0, 0}));
  EXPECT_EQ(run("setp.le.bf16 %po, %a16, %b16;", Out::Pred, {0x3f80, 0xbf80}, {0x3f80, 0xc000}),
            (std::vector<uint64_t>{1, 0}));
  EXPECT_EQ(run("setp.geu.bf16x2 %po|%qo, %a32, %b32;", Out::PredPair, {0x7fc03f80}, {0x40003f80}),
            (std::vector<uint64_t>{3}));
  EXPECT_EQ(run("set.lt.u32.f32 %o32, %fa, %fb;", Out::B32, {f32(1.0f), f32(NAN)}, {f32(2.0f), f32(2.0f)}),
            (std::vector<uint64_t>{0xffffffff, 0}));
  EXPECT_EQ(run("set.ltu.f32.f32 %o32, %fa, %fb;", Out::B32, {f32(3.0f), f32(NAN)}, {f32(2.0f), f32(2.0f)}),
            (std::vector<uint64_t>{0, 0x3f800000}));
  EXPECT_EQ(run("set.eq.s32.f64 %o32, %da, %db;", Out::B32, {f64(-0.0)}, {f64(0.0)}),
            (std::vector<uint64_t>{0xffffffff}));
  EXPECT_EQ(run("set.eq.f16.f16 %o16, %a16, %b16;", Out::B16, {0x3c00, 0x3c00}, {0x3c00, 0x4000}),
            (std::vector<uint64_t>{0x3c00, 0}));
  EXPECT_EQ(run("set.gt.f16x2.f16x2 %o32, %a32, %b32;", Out::B32, {0x40003c00}, {0x3c004000}),
            (std::vector<uint64_t>{0x3c000000}));
  EXPECT_EQ(run("set.gt.u32.f16x2 %o32, %a32, %b32;", Out::B32, {0x40003c00}, {0x3c004000}),
            (std::vector<uint64_t>{0xffff0000}));
  EXPECT_EQ(run("set.ne.and.bf16.bf16 %o16, %a16, %b16, %pb;", Out::B16, {0x3f80, 0x3f80}, {0x4000, 0}),
            (std::vector<uint64_t>{0x3f80, 0}));
}

TEST(FloatCompare, Errors) {
  EXPECT_EQ(load_error("setp.lt.f16x2 %po, %a32, %b32;"),
            "operand 0 of 'setp.lt.f16x2' must be a predicate pair p|q");
  EXPECT_EQ(load_error("setp.lt.rn.f32 %po, %fa, %fb;"),
            "unsupported PTX instruction 'setp.lt.rn.f32' at float_test.ptx:44");
  EXPECT_EQ(load_error("setp.lt.and.f32 %po, %fa, %fb;"), "expected 4 operands for 'setp.lt.and.f32', got 3");
}

}  // namespace
}  // namespace lockstep::test::floatops
