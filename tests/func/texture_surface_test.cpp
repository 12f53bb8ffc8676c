// suld.b, sust.b and suq through surface descriptors: byte x coordinates, every element size
// and vector width, and the .trap/.clamp/.zero treatment of accesses outside the surface.
#include <algorithm>
#include <vector>

#include "func/texture_test_util.h"

namespace lockstep::test::texture {
namespace {

using func::ChannelKind;

// A zeroed surface of width x height x depth elements of `bytes` each; returns the handle.
struct Surface {
  uint64_t data = 0;
  uint64_t handle = 0;
  TextureDescriptor d;
};

Surface make_surface(Engine& engine, uint8_t channels, uint8_t bits, uint32_t width, uint32_t height = 1,
                     uint32_t depth = 1) {
  Surface s;
  const uint64_t bytes = uint64_t{width} * height * depth * channels * bits / 8;
  s.data = engine.malloc(bytes);
  s.d = array_descriptor(s.data, channels, bits, ChannelKind::Unsigned, width, height, depth);
  s.d.magic = func::kSurfaceMagic;
  s.handle = upload(engine, s.d);
  return s;
}

template <class T>
std::vector<T> contents(Engine& engine, const Surface& s, size_t count) {
  std::vector<T> v(count);
  engine.copy_to_host(v.data(), s.data, count * sizeof(T));
  return v;
}

TEST(TextureSurface, Store2dB32ThenLoadItBack) {
  Engine engine;
  const Surface s = make_surface(engine, 1, 32, 3, 2);
  // Thread t writes 100 + t at element (t % 3, t / 3): x is a byte coordinate.
  const std::string line =
      "rem.u32 %r9, %r0, 3;\n  shl.b32 %r9, %r9, 2;\n  div.u32 %r10, %r0, 3;\n  add.u32 %r11, %r0, 100;\n"
      "  sust.b.2d.b32.trap [%rd1, {%r9, %r10}], {%r11};\n"
      "  suld.b.2d.b32.trap {%r5}, [%rd1, {%r1, %r2}];";
  const auto r = run_ok(engine, s.handle, line, 'r', {{0, 0, 0, 0}, {8, 1, 0, 0}, {4, 0, 0, 0}, {0, 1, 0, 0},
                                                       {4, 1, 0, 0}, {8, 0, 0, 0}});
  EXPECT_EQ(contents<uint32_t>(engine, s, 6), (std::vector<uint32_t>{100, 101, 102, 103, 104, 105}));
  EXPECT_EQ(r[0][0], 100u);
  EXPECT_EQ(r[1][0], 105u);
  EXPECT_EQ(r[2][0], 101u);
}

TEST(TextureSurface, VectorOfBytesAndTheClampMode) {
  Engine engine;
  const Surface s = make_surface(engine, 4, 8, 2, 2);
  const std::string line =
      "cvt.u16.u32 %rs1, %r3;\n  add.u16 %rs2, %rs1, 1;\n  add.u16 %rs3, %rs1, 2;\n  add.u16 %rs4, %rs1, 3;\n"
      "  sust.b.2d.v4.b8.trap [%rd1, {%r1, %r2}], {%rs1, %rs2, %rs3, %rs4};\n  bar.sync 0;\n"
      "  suld.b.2d.v4.b8.clamp {%rs5, %rs6, %rs7, %rs8}, [%rd1, {%r4, %r2}];\n"
      "  cvt.u32.u16 %r5, %rs5;\n  cvt.u32.u16 %r6, %rs6;\n  cvt.u32.u16 %r7, %rs7;\n  cvt.u32.u16 %r8, %rs8;";
  // Thread t stores 4 bytes from 10t at (x, y); then loads at x = %r4 (out of range: clamped).
  const auto r = run_ok(engine, s.handle, line, 'r',
                        {{0, 0, 0, 100}, {4, 0, 10, 0xfffffff0u}, {0, 1, 20, 7}, {4, 1, 30, 4}});
  EXPECT_EQ(contents<uint8_t>(engine, s, 16),
            (std::vector<uint8_t>{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 33}));
  EXPECT_EQ(r[0], (Quad{10, 11, 12, 13}));  // x = 100 -> last element of row 0
  EXPECT_EQ(r[1], (Quad{0, 1, 2, 3}));      // x < 0 -> first element
  EXPECT_EQ(r[2], (Quad{30, 31, 32, 33}));  // x = 7: clamped to the last whole element
  EXPECT_EQ(r[3], (Quad{30, 31, 32, 33}));
}

TEST(TextureSurface, ZeroModeLoadsZerosAndDropsStores) {
  Engine engine;
  const Surface s = make_surface(engine, 2, 16, 2);
  const std::string line =
      "cvt.u16.u32 %rs1, %r3;\n  sust.b.1d.v2.b16.zero [%rd1, {%r1}], {%rs1, %rs1};\n  bar.sync 0;\n"
      "  suld.b.1d.v2.b16.zero {%rs5, %rs6}, [%rd1, {%r1}];\n  cvt.u32.u16 %r5, %rs5;\n  cvt.u32.u16 %r6, %rs6;";
  const auto r = run_ok(engine, s.handle, line, 'r', {{0, 0, 7, 0}, {4, 0, 9, 0}, {8, 0, 5, 0}});
  EXPECT_EQ(contents<uint16_t>(engine, s, 4), (std::vector<uint16_t>{7, 7, 9, 9}));
  EXPECT_EQ(r[1], (Quad{9, 9, 0, 0}));
  EXPECT_EQ(r[2], (Quad{0, 0, 0, 0}));
}

TEST(TextureSurface, ThreeDimensionalB64) {
  Engine engine;
  const Surface s = make_surface(engine, 2, 32, 2, 2, 2);
  const std::string line =
      "cvt.u64.u32 %rd7, %r4;\n  shl.b64 %rd7, %rd7, 32;\n  or.b64 %rd7, %rd7, 5;\n"
      "  sust.b.3d.b64.trap [%rd1, {%r1, %r2, %r3, %r3}], {%rd7};\n"
      "  suld.b.3d.b64.trap {%rd8}, [%rd1, {%r1, %r2, %r3, %r3}];\n  mov.b64 {%r5, %r6}, %rd8;";
  const auto r = run_ok(engine, s.handle, line, 'r', {{8, 1, 1, 42}});
  EXPECT_EQ(r[0], (Quad{5, 42, 0, 0}));
  const auto all = contents<uint64_t>(engine, s, 8);
  EXPECT_EQ(all[7], (uint64_t{42} << 32) | 5);
}

TEST(TextureSurface, TrapModeFaultsOutsideTheSurface) {
  Engine engine;
  const Surface s = make_surface(engine, 1, 32, 4, 2);
  const TextureRun r = run(engine, s.handle, "suld.b.2d.b32.trap {%r5}, [%rd1, {%r1, %r2}];", 'r',
                    {{12, 1, 0, 0}, {16, 1, 0, 0}});
  ASSERT_TRUE(r.launch.fault.has_value());
  const FaultReport& f = *r.launch.fault;
  EXPECT_EQ(f.kind, "out-of-bounds access");
  EXPECT_EQ(f.space, "surface");
  EXPECT_EQ(f.thread.x, 1u);
  EXPECT_EQ(f.size, 4u);
  EXPECT_EQ(f.detail, "x=16 bytes, y=1, z=0, layer=0 on a 4x2x1 surface of 4-byte elements");
}

TEST(TextureSurface, SuqReportsTheSurfaceExtent) {
  Engine engine;
  const Surface s = make_surface(engine, 4, 8, 5, 3);
  const auto r = run_ok(engine, s.handle,
                        "suq.width.b32 %r5, [%rd1];\n  suq.height.b32 %r6, [%rd1];\n"
                        "  suq.depth.b32 %r7, [%rd1];\n  suq.channel_order.b32 %r8, [%rd1];",
                        'r', {{0, 0, 0, 0}});
  EXPECT_EQ(r[0], (Quad{5, 3, 1, 0x10B5}));
}

TEST(TextureSurface, FormattedStoreIsRejectedAsUnsupported) {
  const std::string text = kernel("sust.p.2d.b32.trap [%rd1, {%r1, %r2}], {%r3};", 'r');
  const size_t at = text.find("sust.p");
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  EXPECT_EQ(memory::load_error(text), "unsupported PTX instruction 'sust.p.2d.b32.trap' at test.ptx:" +
                                          std::to_string(line));
}

}  // namespace
}  // namespace lockstep::test::texture
