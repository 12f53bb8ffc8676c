// abs, neg, min, max (minNum semantics, .NaN, .xorsign.abs), copysign and testp.
#include <cmath>

#include "func/float_test_util.h"

namespace lockstep::test::floatops {
namespace {

TEST(FloatSign, AbsNeg) {
  const std::vector<uint64_t> a = {f32(-1.5f), f32(0.0f), f32(-0x1p-149f), 0xffc00001, f32(-INFINITY)};
  EXPECT_EQ(run("abs.f32 %fo, %fa;", Out::F32, a),
            (std::vector<uint64_t>{f32(1.5f), f32(0.0f), f32(0x1p-149f), kNaN32, f32(INFINITY)}));
  EXPECT_EQ(run("abs.ftz.f32 %fo, %fa;", Out::F32, a)[2], f32(0.0f));
  EXPECT_EQ(run("neg.f32 %fo, %fa;", Out::F32, a),
            (std::vector<uint64_t>{f32(1.5f), f32(-0.0f), f32(0x1p-149f), kNaN32, f32(INFINITY)}));
  EXPECT_EQ(run("neg.ftz.f32 %fo, %fa;", Out::F32, a)[2], f32(0.0f));
  EXPECT_EQ(run("neg.f64 %do, %da;", Out::F64, {f64(2.0), f64(-0.0)}),
            (std::vector<uint64_t>{f64(-2.0), f64(0.0)}));
  EXPECT_EQ(run("abs.f64 %do, %da;", Out::F64, {f64(-2.0)}), (std::vector<uint64_t>{f64(2.0)}));
  EXPECT_EQ(run("abs.f16 %o16, %a16;", Out::B16, {0xbc00, 0xfe00}), (std::vector<uint64_t>{0x3c00, kNaN16}));
  EXPECT_EQ(run("neg.f16x2 %o32, %a32;", Out::B32, {0x3c00bc00}), (std::vector<uint64_t>{0xbc003c00}));
  EXPECT_EQ(run("neg.bf16 %o16, %a16;", Out::B16, {0x3f80}), (std::vector<uint64_t>{0xbf80}));
  EXPECT_EQ(run("abs.bf16x2 %o32, %a32;", Out::B32, {0xbf80c000}), (std::vector<uint64_t>{0x3f804000}));
}

TEST(FloatSign, MinMaxF32) {
  const std::vector<uint64_t> a = {f32(1.0f), f32(NAN), f32(NAN), f32(-0.0f), f32(0.0f), f32(-3.0f),
                                   f32(0x1p-149f)};
  const std::vector<uint64_t> b = {f32(2.0f), f32(5.0f), 0xffc00000, f32(0.0f), f32(-0.0f), f32(2.0f),
                                   f32(-0.0f)};
  EXPECT_EQ(run("min.f32 %fo, %fa, %fb;", Out::F32, a, b),
            (std::vector<uint64_t>{f32(1.0f), f32(5.0f), kNaN32, f32(-0.0f), f32(-0.0f), f32(-3.0f),
                                   f32(-0.0f)}));
  EXPECT_EQ(run("max.f32 %fo, %fa, %fb;", Out::F32, a, b),
            (std::vector<uint64_t>{f32(2.0f), f32(5.0f), kNaN32, f32(0.0f), f32(0.0f), f32(2.0f),
                                   f32(0x1p-149f)}));
  EXPECT_EQ(run("max.ftz.f32 %fo, %fa, %fb;", Out::F32, a, b)[6], f32(0.0f));
  EXPECT_EQ(run("min.NaN.f32 %fo, %fa, %fb;", Out::F32, a, b)[1], kNaN32);
  // xorsign.abs: min(|a|,|b|) with the XOR of the signs.
  EXPECT_EQ(run("min.xorsign.abs.f32 %fo, %fa, %fb;", Out::F32, a, b)[5], f32(-2.0f));
  EXPECT_EQ(run("max.xorsign.abs.f32 %fo, %fa, %fb;", Out::F32, a, b)[5], f32(-3.0f));
}

TEST(FloatSign, MinMaxThreeInputs) {
  const std::vector<uint64_t> a = {f32(1.0f), f32(NAN), f32(NAN), f32(-5.0f)};
  const std::vector<uint64_t> b = {f32(-2.0f), f32(NAN), f32(3.0f), f32(4.0f)};
  const std::vector<uint64_t> c = {f32(0.5f), f32(7.0f), f32(NAN), f32(-1.0f)};
  EXPECT_EQ(run("min.f32 %fo, %fa, %fb, %fc;", Out::F32, a, b, c),
            (std::vector<uint64_t>{f32(-2.0f), f32(7.0f), f32(3.0f), f32(-5.0f)}));
  EXPECT_EQ(run("max.abs.f32 %fo, %fa, %fb, %fc;", Out::F32, a, b, c),
            (std::vector<uint64_t>{f32(2.0f), f32(7.0f), f32(3.0f), f32(5.0f)}));
  EXPECT_EQ(run("min.NaN.f32 %fo, %fa, %fb, %fc;", Out::F32, a, b, c),
            (std::vector<uint64_t>{f32(-2.0f), kNaN32, kNaN32, f32(-5.0f)}));
  EXPECT_EQ(load_error("min.xorsign.abs.f32 %fo, %fa, %fb, %fc;"),
            "unsupported PTX instruction 'min.xorsign.abs.f32' at float_test.ptx:44");
}

TEST(FloatSign, MinMaxOtherTypes) {
  EXPECT_EQ(run("min.f64 %do, %da, %db;", Out::F64, {f64(1.0), f64(NAN)}, {f64(-1.0), f64(4.0)}),
            (std::vector<uint64_t>{f64(-1.0), f64(4.0)}));
  EXPECT_EQ(run("max.f64 %do, %da, %db;", Out::F64, {f64(-0.0)}, {f64(0.0)}),
            (std::vector<uint64_t>{f64(0.0)}));
  EXPECT_EQ(run("max.f16 %o16, %a16, %b16;", Out::B16, {0x3c00, 0x7e00}, {0x4000, 0xbc00}),
            (std::vector<uint64_t>{0x4000, 0xbc00}));
  EXPECT_EQ(run("max.NaN.f16x2 %o32, %a32, %b32;", Out::B32, {0x7e003c00}, {0xbc004000}),
            (std::vector<uint64_t>{0x7fff4000}));
  EXPECT_EQ(run("min.bf16 %o16, %a16, %b16;", Out::B16, {0x3f80}, {0xbf80}), (std::vector<uint64_t>{0xbf80}));
  EXPECT_EQ(run("max.xorsign.abs.bf16x2 %o32, %a32, %b32;", Out::B32, {0xc0003f80}, {0x3f804040}),
            (std::vector<uint64_t>{0xc0004040}));
}

TEST(FloatSign, CopysignAndTestp) {
  EXPECT_EQ(run("copysign.f32 %fo, %fa, %fb;", Out::F32, {f32(-1.0f), f32(1.0f)}, {f32(3.0f), f32(-3.0f)}),
            (std::vector<uint64_t>{f32(-3.0f), f32(3.0f)}));
  EXPECT_EQ(run("copysign.f64 %do, %da, %db;", Out::F64, {f64(-0.0)}, {f64(2.5)}),
            (std::vector<uint64_t>{f64(-2.5)}));
  const std::vector<uint64_t> v = {f32(1.0f), f32(0.0f), f32(0x1p-149f), f32(INFINITY), f32(NAN)};
  EXPECT_EQ(run("testp.finite.f32 %po, %fa;", Out::Pred, v), (std::vector<uint64_t>{1, 1, 1, 0, 0}));
  EXPECT_EQ(run("testp.infinite.f32 %po, %fa;", Out::Pred, v), (std::vector<uint64_t>{0, 0, 0, 1, 0}));
  EXPECT_EQ(run("testp.number.f32 %po, %fa;", Out::Pred, v), (std::vector<uint64_t>{1, 1, 1, 1, 0}));
  EXPECT_EQ(run("testp.notanumber.f32 %po, %fa;", Out::Pred, v), (std::vector<uint64_t>{0, 0, 0, 0, 1}));
  EXPECT_EQ(run("testp.normal.f32 %po, %fa;", Out::Pred, v), (std::vector<uint64_t>{1, 0, 0, 0, 0}));
  EXPECT_EQ(run("testp.subnormal.f32 %po, %fa;", Out::Pred, v), (std::vector<uint64_t>{0, 0, 1, 0, 0}));
  EXPECT_EQ(run("testp.subnormal.f64 %po, %da;", Out::Pred, {f64(0x1p-1074), f64(0x1p-149)}),
            (std::vector<uint64_t>{1, 0}));
}

TEST(FloatSign, Errors) {
  EXPECT_EQ(load_error("min.NaN.f64 %do, %da, %db;"),
            "unsupported PTX instruction 'min.NaN.f64' at float_test.ptx:44");
  EXPECT_EQ(load_error("testp.finite.f32 %po;"), "expected 2 operands for 'testp.finite.f32', got 1");
}

}  // namespace
}  // namespace lockstep::test::floatops
