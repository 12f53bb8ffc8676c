// tex, tld4 and txq through texture descriptors: point sampling, linear filtering with 1.8
// fixed-point weights, normalized coordinates, address modes, read modes, and the errors.
#include <algorithm>

#include "fmt/format.h"
#include "func/texture_test_util.h"

namespace lockstep::test::texture {
namespace {

using func::AddressMode;
using func::ChannelKind;
using func::FilterMode;
using func::ReadMode;

const char* kTex1dF = "tex.1d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1}];";
const char* kTex2dF = "tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}];";

TEST(TextureSample, Fetch1dOverLinearMemoryReadsZeroOutsideTheBuffer) {
  Engine engine;
  const std::vector<float> data = {1.5f, 2.5f, 3.5f, 4.5f};
  TextureDescriptor d = array_descriptor(upload(engine, data.data(), 16), 1, 32, ChannelKind::Float, 4);
  d.kind = func::ResourceKind::Linear;
  const auto r = run_ok(engine, upload(engine, d), "tex.1d.v4.f32.s32 {%f5, %f6, %f7, %f8}, [%rd1, {%r1}];", 'f',
                        {{0, 0, 0, 0}, {3, 0, 0, 0}, {4, 0, 0, 0}, {0xffffffffu, 0, 0, 0}});
  EXPECT_EQ(r[0], (Quad{f(1.5f), 0, 0, f(1.0f)}));
  EXPECT_EQ(r[1], (Quad{f(4.5f), 0, 0, f(1.0f)}));
  EXPECT_EQ(r[2], (Quad{0, 0, 0, 0}));
  EXPECT_EQ(r[3], (Quad{0, 0, 0, 0}));
}

TEST(TextureSample, PointSamplingOfUnsignedBytesInNormalizedFloatReadMode) {
  Engine engine;
  const std::vector<uint8_t> texels = {0, 51, 102, 255, 255, 0, 17, 1, 9, 9, 9, 9, 128, 64, 32, 16};
  TextureDescriptor d = array_descriptor(upload(engine, texels.data(), 16), 4, 8, ChannelKind::Unsigned, 2, 2);
  d.read_mode = ReadMode::NormalizedFloat;
  const auto r = run_ok(engine, upload(engine, d), kTex2dF, 'f',
                        {{f(0.5f), f(0.5f), 0, 0}, {f(1.99f), f(0.0f), 0, 0}, {f(1.0f), f(1.5f), 0, 0}});
  EXPECT_EQ(r[0], (Quad{f(0.0f), f(51.0f / 255.0f), f(102.0f / 255.0f), f(1.0f)}));
  EXPECT_EQ(r[1], (Quad{f(1.0f), f(0.0f), f(17.0f / 255.0f), f(1.0f / 255.0f)}));
  EXPECT_EQ(r[2], (Quad{f(128.0f / 255.0f), f(64.0f / 255.0f), f(32.0f / 255.0f), f(16.0f / 255.0f)}));
}

TEST(TextureSample, SignedNormalizedReadClampsTheMostNegativeValueToMinusOne) {
  Engine engine;
  const std::vector<int8_t> texels = {-128, 127, -64, 0};
  TextureDescriptor d = array_descriptor(upload(engine, texels.data(), 4), 1, 8, ChannelKind::Signed, 4);
  d.read_mode = ReadMode::NormalizedFloat;
  const auto r = run_ok(engine, upload(engine, d), kTex1dF, 'f',
                        {{f(0.5f), 0, 0, 0}, {f(1.5f), 0, 0, 0}, {f(2.5f), 0, 0, 0}});
  EXPECT_EQ(r[0][0], f(-1.0f));
  EXPECT_EQ(r[1][0], f(1.0f));
  EXPECT_EQ(r[2][0], f(-64.0f / 127.0f));
}

TEST(TextureSample, LinearFilteringUsesWeightsInNinthBitFixedPoint) {
  Engine engine;
  const std::vector<float> texels = {2, 10, 20, 30};
  TextureDescriptor d = array_descriptor(upload(engine, texels.data(), 16), 1, 32, ChannelKind::Float, 4);
  d.filter = FilterMode::Linear;
  // x = 1.3: x - 0.5 = 0.8, weight round(0.8 * 256) / 256 = 205/256 -> 51/256 * 2 + 205/256 * 10.
  const auto r = run_ok(engine, upload(engine, d), kTex1dF, 'f',
                        {{f(1.3f), 0, 0, 0}, {f(2.0f), 0, 0, 0}, {f(0.25f), 0, 0, 0}, {f(9.0f), 0, 0, 0}});
  EXPECT_EQ(r[0][0], f(8.40625f));
  EXPECT_EQ(r[1][0], f(15.0f));
  EXPECT_EQ(r[2][0], f(2.0f));   // clamp: texels -1 and 0 are both texel 0
  EXPECT_EQ(r[3][0], f(30.0f));
  EXPECT_EQ(r[0][3], f(1.0f));
}

TEST(TextureSample, BilinearFilteringWithNormalizedCoordinates) {
  Engine engine;
  const std::vector<float> texels = {0, 4, 8, 12};  // row 0: 0 4, row 1: 8 12
  TextureDescriptor d = array_descriptor(upload(engine, texels.data(), 16), 1, 32, ChannelKind::Float, 2, 2);
  d.filter = FilterMode::Linear;
  d.normalized_coords = 1;
  const auto r = run_ok(engine, upload(engine, d), kTex2dF, 'f',
                        {{f(0.5f), f(0.5f), 0, 0}, {f(0.25f), f(0.25f), 0, 0}, {f(0.375f), f(0.5f), 0, 0}});
  EXPECT_EQ(r[0][0], f(6.0f));
  EXPECT_EQ(r[1][0], f(0.0f));
  EXPECT_EQ(r[2][0], f(5.0f));
}

std::vector<Quad> address_mode_run(AddressMode mode) {
  Engine engine;
  const std::vector<float> texels = {10, 20, 30, 40};
  TextureDescriptor d = array_descriptor(upload(engine, texels.data(), 16), 1, 32, ChannelKind::Float, 4);
  d.normalized_coords = 1;
  d.address_mode[0] = mode;
  d.border[0] = 7.0f;
  return run_ok(engine, upload(engine, d), kTex1dF, 'f',
                {{f(1.125f), 0, 0, 0}, {f(-0.125f), 0, 0, 0}, {f(1.375f), 0, 0, 0}, {f(0.625f), 0, 0, 0}});
}

TEST(TextureSample, AddressModesOnNormalizedCoordinates) {
  auto firsts = [](const std::vector<Quad>& r) {
    return std::vector<uint32_t>{r[0][0], r[1][0], r[2][0], r[3][0]};
  };
  EXPECT_EQ(firsts(address_mode_run(AddressMode::Wrap)), (std::vector<uint32_t>{f(10), f(40), f(20), f(30)}));
  EXPECT_EQ(firsts(address_mode_run(AddressMode::Mirror)), (std::vector<uint32_t>{f(40), f(10), f(30), f(30)}));
  EXPECT_EQ(firsts(address_mode_run(AddressMode::Clamp)), (std::vector<uint32_t>{f(40), f(10), f(40), f(30)}));
  const auto border = address_mode_run(AddressMode::Border);
  EXPECT_EQ(firsts(border), (std::vector<uint32_t>{f(7), f(7), f(7), f(30)}));
  EXPECT_EQ(border[0], (Quad{f(7), 0, 0, 0}));  // the whole border colour, alpha included
}

TEST(TextureSample, IntegerResultsFillMissingChannelsWithZeroAndAlphaOne) {
  Engine engine;
  const std::vector<uint32_t> u = {5, 6, 7};
  TextureDescriptor du = array_descriptor(upload(engine, u.data(), 12), 1, 32, ChannelKind::Unsigned, 3);
  const auto r = run_ok(engine, upload(engine, du), "tex.1d.v4.u32.s32 {%r5, %r6, %r7, %r8}, [%rd1, {%r1}];", 'r',
                        {{1, 0, 0, 0}, {9, 0, 0, 0}});
  EXPECT_EQ(r[0], (Quad{6, 0, 0, 1}));
  EXPECT_EQ(r[1], (Quad{7, 0, 0, 1}));  // clamped
  const std::vector<int16_t> s = {-3, 9, 100, -100};
  TextureDescriptor ds = array_descriptor(upload(engine, s.data(), 8), 2, 16, ChannelKind::Signed, 2);
  const auto q = run_ok(engine, upload(engine, ds), "tex.2d.v4.u32.f32 {%r5, %r6, %r7, %r8}, [%rd1, {%f1, %f2}];",
                        'r', {{f(0.5f), f(0.5f), 0, 0}, {f(1.5f), f(0.5f), 0, 0}});
  EXPECT_EQ(q[0], (Quad{0xfffffffdu, 9, 0, 1}));
  EXPECT_EQ(q[1], (Quad{100, 0xffffff9cu, 0, 1}));
}

TEST(TextureSample, ThreeDimensionalAndLayeredFetches) {
  Engine engine;
  std::vector<float> cube;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) cube.push_back(static_cast<float>(x + 10 * y + 100 * z));
  const uint64_t data = upload(engine, cube.data(), cube.size() * 4);
  const TextureDescriptor d3 = array_descriptor(data, 1, 32, ChannelKind::Float, 2, 2, 2);
  const auto r3 = run_ok(engine, upload(engine, d3),
                         "tex.3d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2, %f3, %f3}];", 'f',
                         {{f(1.5f), f(0.5f), f(1.5f), 0}, {f(0.5f), f(1.5f), f(0.2f), 0}});
  EXPECT_EQ(r3[0][0], f(101.0f));
  EXPECT_EQ(r3[1][0], f(10.0f));
  // The same bytes as 2 layers of 2x2 and as 4 layers of 2.
  TextureDescriptor a2 = array_descriptor(data, 1, 32, ChannelKind::Float, 2, 2);
  a2.layered = 1;
  a2.layers = 2;
  const auto ra2 = run_ok(engine, upload(engine, a2),
                          "tex.a2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%r1, %f2, %f3, %f3}];", 'f',
                          {{1, f(0.5f), f(1.5f), 0}, {5, f(1.5f), f(0.5f), 0}});
  EXPECT_EQ(ra2[0][0], f(110.0f));
  EXPECT_EQ(ra2[1][0], f(101.0f));  // layer index clamped to the last layer
  TextureDescriptor a1 = array_descriptor(data, 1, 32, ChannelKind::Float, 2);
  a1.layered = 1;
  a1.layers = 4;
  const auto ra1 = run_ok(engine, upload(engine, a1), "tex.a1d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%r1, %f2}];",
                          'f', {{3, f(0.5f), 0, 0}});
  EXPECT_EQ(ra1[0][0], f(110.0f));
}

TEST(TextureSample, LevelOfDetailReadsTheOnlyLevel) {
  Engine engine;
  const std::vector<float> texels = {0, 4, 8, 12};
  const TextureDescriptor d = array_descriptor(upload(engine, texels.data(), 16), 1, 32, ChannelKind::Float, 2, 2);
  const auto r = run_ok(engine, upload(engine, d),
                        "tex.level.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}], %f3;", 'f',
                        {{f(1.5f), f(1.5f), f(3.0f), 0}});
  EXPECT_EQ(r[0][0], f(12.0f));
}

TEST(TextureSample, Tld4GathersOneChannelOfTheBilinearFootprint) {
  Engine engine;
  const std::vector<float> texels = {1, -1, 2, -2, 3, -3, 4, -4};  // 2x2 of (r, g)
  const TextureDescriptor d = array_descriptor(upload(engine, texels.data(), 32), 2, 32, ChannelKind::Float, 2, 2);
  const uint64_t h = upload(engine, d);
  const std::vector<Quad> at = {{f(1.0f), f(1.0f), 0, 0}};
  EXPECT_EQ(run_ok(engine, h, "tld4.r.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}];", 'f', at)[0],
            (Quad{f(3), f(4), f(2), f(1)}));
  EXPECT_EQ(run_ok(engine, h, "tld4.g.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}];", 'f', at)[0],
            (Quad{f(-3), f(-4), f(-2), f(-1)}));
  EXPECT_EQ(run_ok(engine, h, "tld4.a.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}];", 'f', at)[0],
            (Quad{f(1), f(1), f(1), f(1)}));
}

TEST(TextureSample, TxqReportsTheDescriptor) {
  Engine engine;
  TextureDescriptor d = array_descriptor(engine.malloc(64), 4, 8, ChannelKind::Unsigned, 3, 2);
  d.read_mode = ReadMode::NormalizedFloat;
  d.normalized_coords = 1;
  d.filter = FilterMode::Linear;
  d.address_mode[0] = AddressMode::Wrap;
  d.address_mode[1] = AddressMode::Mirror;
  d.address_mode[2] = AddressMode::Border;
  const uint64_t h = upload(engine, d);
  const std::vector<Quad> one = {{0, 0, 0, 0}};
  EXPECT_EQ(run_ok(engine, h,
                   "txq.width.b32 %r5, [%rd1];\n  txq.height.b32 %r6, [%rd1];\n"
                   "  txq.channel_data_type.b32 %r7, [%rd1];\n  txq.channel_order.b32 %r8, [%rd1];",
                   'r', one)[0],
            (Quad{3, 2, 0x10D2, 0x10B5}));
  EXPECT_EQ(run_ok(engine, h,
                   "txq.normalized_coords.b32 %r5, [%rd1];\n  txq.filter_mode.b32 %r6, [%rd1];\n"
                   "  txq.addr_mode_1.b32 %r7, [%rd1];\n  txq.addr_mode_2.b32 %r8, [%rd1];",
                   'r', one)[0],
            (Quad{1, 1, 2, 3}));
  EXPECT_EQ(run_ok(engine, h, "txq.depth.b32 %r5, [%rd1];\n  txq.addr_mode_0.b32 %r6, [%rd1];", 'r', one)[0],
            (Quad{1, 0, 0, 0}));
}

TEST(TextureSample, AHandleThatIsNotATextureObjectFaults) {
  Engine engine;
  const uint64_t buffer = engine.malloc(64);
  const TextureRun r = run(engine, buffer, kTex2dF, 'f', {{0, 0, 0, 0}});
  ASSERT_TRUE(r.launch.fault.has_value());
  EXPECT_EQ(r.launch.fault->kind, "out-of-bounds access");
  EXPECT_EQ(r.launch.fault->space, "texture");
  EXPECT_EQ(r.launch.fault->address, buffer);
  EXPECT_EQ(r.launch.fault->detail, fmt::format("0x{:x} is not a texture object handle", buffer));
}

TEST(TextureSample, GradientFormIsRejectedAsUnsupported) {
  const std::string line = "tex.grad.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}], {%f3, %f4}, {%f3, %f4};";
  const std::string text = kernel(line, 'f');
  const size_t at = text.find("tex.grad");
  const auto line_number = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  EXPECT_EQ(memory::load_error(text),
            "unsupported PTX instruction 'tex.grad.2d.v4.f32.f32' at test.ptx:" + std::to_string(line_number));
}

}  // namespace
}  // namespace lockstep::test::texture
