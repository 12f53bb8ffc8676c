// Every integer-family instruction form in the PTX census of nvcc 13 output
// (shared/reference/ptx-census.md), written as the census example shows it, binds at load
// time and runs without a fault (their values are checked in the other integer_* tests).
#include "func/integer_test_util.h"

namespace lockstep::test::integer {
namespace {

// The census examples; `__$temp3` is renamed %p1 and `%SP` %rd1 (declared registers here).
const char* const kCensusForms =
    "add.s32 %r10, %r10, %r3;\n"
    "add.s64 %rd6, %rd4, %rd5;\n"
    "mul.wide.s32 %rd5, %r1, 4;\n"
    "shl.b32 %r10, %r3, 2;\n"
    "and.b32 %r31, %r13, 3;\n"
    "mad.lo.s32 %r1, %r3, %r4, %r5;\n"
    "selp.f32 %f25, 0f00000000, 0f3F800000, %p4;\n"
    "shr.u32 %r14, %r1, 1;\n"
    "setp.ge.s32 %p1, %r1, %r2;\n"
    "setp.eq.s32 %p2, %r14, 0;\n"
    "setp.ne.s32 %p4, %r14, 0;\n"
    "sub.s32 %r40, %r17, %r38;\n"
    "setp.lt.s32 %p2, %r10, %r6;\n"
    "cvt.u64.u32 %rd7, %r3;\n"
    "shl.b64 %rd9, %rd1, 2;\n"
    "cvt.s64.s32 %rd1, %r25;\n"
    "mul.lo.s32 %r3, %r1, %r9;\n"
    "mul.wide.u32 %rd6, %r1, %r2;\n"
    "xor.b32 %r5, %r40, %r25;\n"
    "setp.lt.u32 %p3, %r43, %r18;\n"
    "selp.b32 %r11, %r10, %r9, %p2;\n"
    "shr.s32 %r10, %r18, 1;\n"
    "setp.eq.s16 %p2, %rs1, 0;\n"
    "or.b32 %r5, %r33, 1;\n"
    "max.s32 %r12, %r11, 0;\n"
    "cvt.u32.u64 %r20, %rd1;\n"
    "mul.lo.s64 %rd16, %rd2, 24;\n"
    "min.s32 %r15, %r14, %r13;\n"
    "setp.gt.s32 %p5, %r37, 3;\n"
    "setp.gt.u32 %p4, %r2, 127;\n"
    "and.b16 %rs15, %rs21, 1;\n"
    "shr.u64 %rd79, %rd36, 32;\n"
    "or.pred %p10, %p8, %p3;\n"
    "neg.s32 %r26, %r6;\n"
    "not.b32 %r37, %r110;\n"
    "setp.gt.s16 %p4, %rs28, 3;\n"
    "add.u64 %rd5, %rd1, 0;\n"
    "bfi.b64 %rd2, %rd15, %rd14, 32, 32;\n"
    "setp.ge.u32 %p3, %r3, %r14;\n"
    "and.b64 %rd33, %rd32, 31;\n"
    "mad.wide.u32 %rd36, %r89, %r5, %rd79;\n"
    "selp.u32 %r40, 1, 0, %p3;\n"
    "add.s16 %rs21, %rs21, 1;\n"
    "rem.s32 %r8, %r7, %r2;\n"
    "div.u32 %r22, %r2, %r38;\n"
    "cvt.u16.u32 %rs14, %r20;\n"
    "mul.hi.s32 %r41, %r40, 1717986919;\n"
    "mul.wide.u16 %r16, %rs1, 4;\n"
    "popc.b32 %r14, %r10;\n"
    "min.u32 %r21, %r83, %r20;\n"
    "not.pred %p6, %p5;\n"
    "setp.ne.s16 %p4, %rs3, 0;\n"
    "setp.eq.b32 %p5, %r12, 1;\n"
    "shr.s64 %rd28, %rd26, 30;\n"
    "sub.s16 %rs29, %rs52, %rs48;\n"
    "abs.s32 %r47, %r46;\n"
    "and.pred %p3, %p1, %p2;\n"
    "bfind.shiftamt.u32 %r17, %r16;\n"
    "brev.b32 %r16, %r10;\n"
    "cvt.s32.s16 %r10, %rs1;\n"
    "not.b16 %rs2, %rs1;\n"
    "or.b64 %rd3, %rd37, 1;\n"
    "selp.u16 %rs18, 1, 0, %p1;\n"
    "sub.s64 %rd65, %rd2, %rd46;\n"
    "clz.b32 %r35, %r5;\n"
    "clz.b64 %r43, %rd12;\n"
    "cvt.s32.s8 %r13, %r12;\n"
    "cvt.u32.u16 %r12, %rs5;\n"
    "mul.hi.u64 %rd53, %rd52, 2361183241434822607;\n"
    "neg.s64 %rd7, %rd6;\n"
    "prmt.b32 %r39, %r7, %r8, %r38;\n"
    "rem.u32 %r8, %r2, %r38;\n"
    "selp.f64 %fd117, 0d0000000000000000, %fd50, %p3;\n"
    "setp.eq.s64 %p2, %rd45, 0;\n"
    "setp.le.s32 %p4, %r43, %r2;\n"
    "setp.le.u32 %p8, %r38, %r2;\n"
    "setp.lt.u64 %p4, %rd13, %rd9;\n"
    "setp.ne.s64 %p3, %rd2, 0;\n"
    "shf.l.wrap.b32 %r6, %r7, %r8, %r9;\n"
    "div.s32 %r11, %r10, %r7;\n"
    "brev.b64 %rd17, %rd12;\n"
    "div.s64 %rd64, %rd2, %rd3;\n"
    "div.u64 %rd66, %rd4, %rd3;\n"
    "dp4a.s32.s32 %r26, %r7, %r8, %r29;\n"
    "mul.hi.s64 %rd49, %rd2, 6148914691236517206;\n"
    "mul.hi.u32 %r53, %r7, %r8;\n"
    "popc.b64 %r42, %rd12;\n"
    "sad.s32 %r57, %r7, %r8, %r56;\n"
    "sad.u32 %r58, %r7, %r8, %r31;\n"
    "setp.ge.s64 %p1, %rd1, %rd5;\n"
    "setp.ge.u64 %p3, %rd13, %rd9;\n"
    "shf.l.clamp.b32 %r14, %r7, %r8, %r1;\n"
    "shf.r.clamp.b32 %r18, %r7, %r8, %r21;\n"
    "shf.r.wrap.b32 %r10, %r7, %r8, %r13;\n"
    "vabsdiff4.u32.u32.u32 %r22,%r7,%r8,%r22;\n"
    "selp.b16 %rs21, 32767, %rs14, %p2;\n"
    "setp.eq.b16 %p5, %rs15, 1;\n"
    "add.u16x2 %r22, %r7, %r8;\n";

std::string census_module() {
  return std::string(R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry census(.param .u64 out) {
  .reg .b32 %r<200>;
  .reg .b64 %rd<100>;
  .reg .b16 %rs<60>;
  .reg .pred %p<20>;
  .reg .f32 %f<30>;
  .reg .f64 %fd<120>;
  .reg .b64 %o;
  ld.param.u64 %o, [out];
)") + kCensusForms +
         R"(
  st.global.u32 [%o], %r22;
  st.global.u64 [%o+8], %rd36;
  st.global.u32 [%o+16], %r39;
  ret;
}
)";
}

TEST(IntegerCensus, EveryIntegerFormNvccEmitsLoadsAndRuns) {
  Engine engine;
  ModuleId m{};
  ASSERT_NO_THROW(m = engine.load_ptx(census_module(), "census.ptx"));
  DeviceBuffer<uint64_t> out(engine, 3);
  engine.memset(out.address(), 0xab, 24);
  launch_ok(engine, m, "census", {1}, {32}, {out.arg()});
  // The kernel ran to its final stores: a 4-byte store replaced only the low half.
  const std::vector<uint64_t> r = out.download();
  EXPECT_EQ(r[0] >> 32, 0xababababu);
  EXPECT_NE(r[0], 0xababababababababull);
}

}  // namespace
}  // namespace lockstep::test::integer
