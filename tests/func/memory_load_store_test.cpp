// ld / ldu / st: widths and sign extension, vectors, every state space, qualifiers, and the
// load-time errors for forms the family does not take.
#include "func/memory_test_util.h"

namespace lockstep::test::memory {
namespace {

TEST(MemoryLoadStore, ExtendsNarrowLoadsToTheDestinationWidth) {
  const std::string text = module(R"(
.visible .entry widen(.param .u64 in, .param .u64 out) {
  .reg .b16 %rs<4>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.global.s8 %r1, [%rd1];
  ld.global.u8 %r2, [%rd1];
  ld.global.s16 %rd3, [%rd1+2];
  ld.global.u16 %rd4, [%rd1+2];
  ld.global.s32 %rd5, [%rd1+4];
  ld.global.u32 %rd6, [%rd1+4];
  ld.global.s8 %rs1, [%rd1];
  ld.global.b8 %rs2, [%rd1+1];
  ld.global.s64 %rd7, [%rd1+8];
  st.global.u32 [%rd2], %r1;
  st.global.u32 [%rd2+4], %r2;
  st.global.u64 [%rd2+8], %rd3;
  st.global.u64 [%rd2+16], %rd4;
  st.global.u64 [%rd2+24], %rd5;
  st.global.u64 [%rd2+32], %rd6;
  st.global.u16 [%rd2+40], %rs1;
  st.global.u16 [%rd2+42], %rs2;
  st.global.u32 [%rd2+44], %r1;
  st.global.b64 [%rd2+48], %rd7;
  st.global.u8 [%rd2+56], %rd5;
  ret;
}
)");
  Engine engine;
  ModuleId m = engine.load_ptx(text, "widen.ptx");
  std::vector<uint8_t> input = {0x80, 0x7f, 0x34, 0xf2, 0x78, 0x56, 0x34, 0x92,
                                1,    2,    3,    4,    5,    6,    7,    0x88};
  DeviceBuffer<uint8_t> in(engine, input);
  DeviceBuffer<uint64_t> out(engine, 8);
  launch_ok(engine, m, "widen", {1}, {1}, {in.arg(), out.arg()});
  const std::vector<uint64_t> r = out.download();
  EXPECT_EQ(r[0], 0x00000080'ffffff80ull);  // s8 -> 32-bit register; u8 zero-extended
  EXPECT_EQ(r[1], 0xfffffffffffff234ull);
  EXPECT_EQ(r[2], 0x000000000000f234ull);
  EXPECT_EQ(r[3], 0xffffffff92345678ull);
  EXPECT_EQ(r[4], 0x0000000092345678ull);
  EXPECT_EQ(r[5], 0xffffff80'007fff80ull);  // s8 -> 16-bit 0xff80, b8 0x007f, then the s8 u32
  EXPECT_EQ(r[6], 0x8807060504030201ull);
  EXPECT_EQ(r[7] & 0xff, 0x78u);  // st.u8 stores the low byte of a wider register
}

TEST(MemoryLoadStore, VectorsCopyEveryElement) {
  const std::string text = module(R"(
.visible .entry vectors(.param .u64 in, .param .u64 out) {
  .reg .b16 %rs<8>;
  .reg .b32 %r<8>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<12>;
  .reg .f64 %fd<4>;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 96;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  add.s64 %rd1, %rd1, %rd3;
  add.s64 %rd2, %rd2, %rd3;
  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd1];
  st.global.v4.u32 [%rd2+16], {%r5, %r4, %r3, %r2};
  ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];
  st.global.v2.f32 [%rd2], {%f1, %f2};
  st.global.v2.f32 [%rd2+8], {%f3, %f4};
  ld.global.v2.f64 {%fd1, %fd2}, [%rd1+32];
  st.global.v2.f64 [%rd2+32], {%fd2, %fd1};
  ld.global.v4.u8 {%rs1, %rs2, %rs3, %rs4}, [%rd1+48];
  st.global.v4.u8 [%rd2+48], {%rs4, %rs3, %rs2, %rs1};
  ld.global.v2.s16 {%rs5, %rs6}, [%rd1+52];
  st.global.v2.u16 [%rd2+52], {%rs6, %rs5};
  ld.global.v2.u64 {_, %rd5}, [%rd1+64];
  st.global.v2.b32 [%rd2+64], {%rd5, 7};
  ret;
}
)");
  Engine engine;
  ModuleId m = engine.load_ptx(text, "vectors.ptx");
  const int threads = 5;
  std::vector<uint8_t> input(96 * threads);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(i * 7 + 3);
  DeviceBuffer<uint8_t> in(engine, input);
  DeviceBuffer<uint8_t> out(engine, input.size());
  launch_ok(engine, m, "vectors", {1}, {threads}, {in.arg(), out.arg()});
  const std::vector<uint8_t> r = out.download();
  for (int t = 0; t < threads; ++t) {
    const uint8_t* src = input.data() + 96 * t;
    const uint8_t* dst = r.data() + 96 * t;
    for (int e = 0; e < 4; ++e) {
      EXPECT_EQ(0, std::memcmp(dst + 16 + 4 * e, src + 4 * (3 - e), 4)) << t;  // u32 reversed
      EXPECT_EQ(0, std::memcmp(dst + 4 * e, src + 16 + 4 * e, 4)) << t;        // f32 in order
      EXPECT_EQ(dst[48 + e], src[48 + 3 - e]) << t;                            // u8 reversed
    }
    EXPECT_EQ(0, std::memcmp(dst + 32, src + 40, 8)) << t;
    EXPECT_EQ(0, std::memcmp(dst + 40, src + 32, 8)) << t;
    EXPECT_EQ(0, std::memcmp(dst + 52, src + 54, 2)) << t;
    EXPECT_EQ(0, std::memcmp(dst + 54, src + 52, 2)) << t;
    EXPECT_EQ(0, std::memcmp(dst + 64, src + 72, 4)) << t;  // low half of the second u64
    const uint32_t seven = 7;
    EXPECT_EQ(0, std::memcmp(dst + 68, &seven, 4)) << t;
  }
  // A sink is a valid load destination but not a store source.
  std::string bad = text;
  bad.replace(bad.find("{%rd5, 7}"), 9, "{%rd5, _}");
  EXPECT_EQ(load_error(bad),
            "elements of operand 1 of 'st.global.v2.b32' must be a register or immediate");
}

TEST(MemoryLoadStore, SharedLocalConstGlobalAndParamSpaces) {
  const std::string text = module(R"(
.const .align 4 .u32 c_table[4] = {11, 22, 33, 44};
.global .align 8 .u64 g_counter = 5;
.visible .entry spaces(.param .u64 out, .param .align 8 .b8 blob[16], .param .f32 scale) {
  .reg .b32 %r<16>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<16>;
  .shared .align 16 .b8 smem[64];
  .local .align 8 .b8 __local_depot0[16];
  .reg .b64 %SP, %SPL;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  // shared: through a register and through the symbol
  mov.u32 %r2, smem;
  shl.b32 %r3, %r1, 2;
  add.s32 %r4, %r2, %r3;
  add.s32 %r5, %r1, 100;
  st.shared.u32 [%r4], %r5;
  bar.sync 0;
  ld.shared.u32 %r6, [smem+8];
  // local: symbol, register (%SPL) and generic (%SP) views of the same bytes
  st.local.u32 [__local_depot0+4], %r1;
  ld.local.u32 %r7, [%SPL+4];
  add.s64 %rd4, %SP, 4;
  ld.u32 %r8, [%rd4];
  // const through the symbol and through a register
  ld.const.u32 %r9, [c_table+8];
  mov.u64 %rd5, c_table;
  ld.const.u32 %r10, [%rd5+12];
  // module .global variable
  ld.global.u64 %rd6, [g_counter];
  // kernel parameters: an aggregate at an offset and an f32
  ld.param.u32 %r11, [blob+12];
  ld.param.f32 %f1, [scale];
  // generic shared
  mov.u64 %rd8, smem;
  cvta.shared.u64 %rd7, %rd8;
  ld.u32 %r12, [%rd7+4];
  ldu.global.u32 %r13, [c_table];
  st.global.u32 [%rd3], %r6;
  st.global.u32 [%rd3+16], %r7;
  st.global.u32 [%rd3+32], %r8;
  st.global.u32 [%rd3+48], %r9;
  st.global.u32 [%rd3+64], %r10;
  st.global.u32 [%rd3+80], %rd6;
  st.global.u32 [%rd3+96], %r11;
  st.global.f32 [%rd3+112], %f1;
  st.global.u32 [%rd3+128], %r12;
  st.global.u32 [%rd3+144], %r13;
  ret;
}
)");
  Engine engine;
  ModuleId m = engine.load_ptx(text, "spaces.ptx");
  DeviceBuffer<uint32_t> out(engine, 40);
  struct Blob {
    uint32_t words[4];
  } blob{{1, 2, 3, 0xabcdef01u}};
  launch_ok(engine, m, "spaces", {1}, {4}, {out.arg(), arg(blob), arg(2.5f)});
  const std::vector<uint32_t> r = out.download();
  for (uint32_t t = 0; t < 4; ++t) {
    EXPECT_EQ(r[0 + t], 102u) << t;  // smem[8] was written by thread 2
    EXPECT_EQ(r[4 + t], t) << t;
    EXPECT_EQ(r[8 + t], t) << t;
    EXPECT_EQ(r[12 + t], 33u) << t;
    EXPECT_EQ(r[16 + t], 44u) << t;
    EXPECT_EQ(r[20 + t], 5u) << t;
    EXPECT_EQ(r[24 + t], 0xabcdef01u) << t;
    EXPECT_EQ(r[28 + t], f32_bits(2.5f)) << t;
    EXPECT_EQ(r[32 + t], 101u) << t;
    EXPECT_EQ(r[36 + t], 11u) << t;
  }
}

TEST(MemoryLoadStore, FunctionParametersLiveInTheFrame) {
  const std::string text = module(R"(
.func (.param .b32 result) twice(.param .b32 x, .param .b64 y) {
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.b32 %r1, [x];
  ld.param.b64 %rd1, [y];
  add.s32 %r2, %r1, %r1;
  add.s32 %r2, %r2, %rd1;
  st.param.b32 [result], %r2;
  ret;
}
.visible .entry caller(.param .u64 out) {
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  {
    .param .b32 param0;
    .param .b64 param1;
    .param .b32 retval0;
    st.param.b32 [param0+0], %r1;
    st.param.b64 [param1+0], 1000;
    call.uni (retval0), twice, (param0, param1);
    ld.param.b32 %r2, [retval0+0];
  }
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)");
  Engine engine;
  ModuleId m = engine.load_ptx(text, "frame.ptx");
  DeviceBuffer<uint32_t> out(engine, 8);
  launch_ok(engine, m, "caller", {1}, {8}, {out.arg()});
  const std::vector<uint32_t> r = out.download();
  for (uint32_t t = 0; t < 8; ++t) EXPECT_EQ(r[t], 2 * t + 1000) << t;
}

TEST(MemoryLoadStore, AcceptsCacheAndOrderingQualifiers) {
  const std::string text = module(R"(
.visible .entry qualified(.param .u64 buf) {
  .reg .b32 %r<12>;
  .reg .f32 %f<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [buf];
  mov.u64 %rd2, 0;
  ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];
  ld.global.ca.u32 %r1, [%rd1];
  ld.global.cg.u32 %r2, [%rd1+4];
  ld.global.cs.u32 %r3, [%rd1+8];
  ld.global.lu.u32 %r4, [%rd1+12];
  ld.global.cv.u32 %r5, [%rd1];
  ld.volatile.global.u32 %r6, [%rd1+4];
  ld.relaxed.gpu.global.u32 %r7, [%rd1+8];
  ld.acquire.gpu.u32 %r8, [%rd1+12];
  ld.global.L1::evict_last.L2::cache_hint.u32 %r9, [%rd1], %rd2;
  st.global.wt.f32 [%rd1+16], %f4;
  st.global.cg.v2.f32 [%rd1+24], {%f1, %f2};
  st.global.cs.u32 [%rd1+32], %r2;
  st.release.gpu.global.u32 [%rd1+36], %r3;
  st.relaxed.sys.u32 [%rd1+40], %r4;
  st.volatile.global.u32 [%rd1+44], %r6;
  st.global.wb.u32 [%rd1+48], %r7;
  st.global.L2::cache_hint.u32 [%rd1+52], %r8, %rd2;
  st.global.u32 [%rd1+56], %r9;
  st.mmio.relaxed.sys.global.u32 [%rd1+60], %r5;
  ret;
}
)");
  Engine engine;
  ModuleId m = engine.load_ptx(text, "qualified.ptx");
  std::vector<uint32_t> init(16, 0);
  init[0] = 10;
  init[1] = 11;
  init[2] = 12;
  init[3] = 13;
  DeviceBuffer<uint32_t> buf(engine, init);
  launch_ok(engine, m, "qualified", {1}, {1}, {buf.arg()});
  const std::vector<uint32_t> r = buf.download();
  const std::vector<uint32_t> expected = {10, 11, 12, 13, 13, 0,  10, 11,
                                          11, 12, 13, 11, 12, 13, 10, 10};
  EXPECT_EQ(r, expected);
}

TEST(MemoryLoadStore, RejectsUnknownFormsWithLocatedErrors) {
  auto kernel = [](const std::string& line) {
    return module(
        ".visible .entry k(.param .u64 p) {\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [p];\n  " +
        line + "\n  ret;\n}\n");
  };
  EXPECT_EQ(load_error(kernel("ld.global.bogus.u32 %r1, [%rd1];")),
            "unsupported PTX instruction 'ld.global.bogus.u32' at test.ptx:8");
  EXPECT_EQ(load_error(kernel("ld.global.u32 %r1;")),
            "expected 2 operands for 'ld.global.u32', got 1");
  EXPECT_EQ(load_error(kernel("st.global.release.u32 [%rd1], %r1, %r2;")),
            "expected 2 operands for 'st.global.release.u32', got 3");
  EXPECT_EQ(load_error(kernel("ld.global.v4.u32 %r1, [%rd1];")),
            "operand 0 of 'ld.global.v4.u32' must be a vector of 4 elements");
  EXPECT_EQ(load_error(kernel("ld.global.u32 %r1, %rd1;")),
            "operand 1 of 'ld.global.u32' must be an address");
  EXPECT_EQ(load_error(kernel("st.param.u64 [p], %rd1;")),
            "kernel parameter 'p' cannot be written");
  EXPECT_EQ(load_error(kernel("ld.global.release.u32 %r1, [%rd1];")),
            "unsupported PTX instruction 'ld.global.release.u32' at test.ptx:8");
  EXPECT_EQ(load_error(kernel("st.const.u32 [%rd1], %r1;")),
            "unsupported PTX instruction 'st.const.u32' at test.ptx:8");
  EXPECT_EQ(
      load_error(kernel("ld.global.v8.u32 {%r1, %r1, %r1, %r1, %r1, %r1, %r1, %r1}, [%rd1];")),
      "unsupported PTX instruction 'ld.global.v8.u32' at test.ptx:8");
}

}  // namespace
}  // namespace lockstep::test::memory
