// Cubemap fetches: the face and face point a direction selects (the CUDA programming guide's
// table), and tex.cube / tex.acube through descriptors of cubemap and layered cubemap arrays
// with point sampling, linear filtering clamped at a face's edge, and integer results.
#include <algorithm>

#include "func/ops/texture_cubemap.h"
#include "func/texture_test_util.h"

namespace lockstep::test::texture {
namespace {

using func::ChannelKind;
using func::texture::cubemap_point;
using func::texture::CubemapPoint;

void expect_point(const CubemapPoint& p, uint32_t face, float s, float t) {
  EXPECT_EQ(p.face, face);
  EXPECT_EQ(p.s, s);
  EXPECT_EQ(p.t, t);
}

TEST(CubemapFace, EachMajorAxisPicksItsFaceAndTheGuidesCoordinates) {
  expect_point(cubemap_point(1.0f, 0.5f, -0.25f), 0, 0.625f, 0.25f);    // +x: s = -z, t = -y
  expect_point(cubemap_point(-2.0f, 1.0f, 1.0f), 1, 0.75f, 0.25f);      // -x: s = z, t = -y
  expect_point(cubemap_point(0.5f, 1.0f, -0.25f), 2, 0.75f, 0.375f);    // +y: s = x, t = z
  expect_point(cubemap_point(0.5f, -4.0f, 1.0f), 3, 0.5625f, 0.375f);   // -y: s = x, t = -z
  expect_point(cubemap_point(-0.5f, 0.25f, 1.0f), 4, 0.25f, 0.375f);    // +z: s = x, t = -y
  expect_point(cubemap_point(-0.5f, 0.25f, -2.0f), 5, 0.625f, 0.4375f); // -z: s = -x, t = -y
}

TEST(CubemapFace, TiesGoToZThenYAndTheZeroDirectionReadsAFaceCentre) {
  expect_point(cubemap_point(1.0f, 1.0f, 1.0f), 4, 1.0f, 0.0f);
  expect_point(cubemap_point(-2.0f, 1.0f, -2.0f), 5, 1.0f, 0.25f);
  expect_point(cubemap_point(1.0f, -1.0f, 0.5f), 3, 1.0f, 0.25f);
  expect_point(cubemap_point(0.0f, 0.0f, 0.0f), 4, 0.5f, 0.5f);
}

// `cubes` cubes of six 4x4 faces of 32-bit texels: 1000 * cube + 100 * face + 10 * y + x.
std::vector<uint32_t> cube_texels(uint32_t cubes, bool as_float) {
  std::vector<uint32_t> v;
  for (uint32_t c = 0; c < cubes; ++c)
    for (uint32_t face = 0; face < 6; ++face)
      for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 4; ++x) {
          const uint32_t value = 1000 * c + 100 * face + 10 * y + x;
          v.push_back(as_float ? f(static_cast<float>(value)) : value);
        }
  return v;
}

TextureDescriptor cube_descriptor(Engine& engine, uint32_t cubes, ChannelKind kind) {
  const std::vector<uint32_t> texels = cube_texels(cubes, kind == ChannelKind::Float);
  TextureDescriptor d = array_descriptor(upload(engine, texels.data(), texels.size() * 4), 1, 32, kind, 4, 4);
  d.layers = 6 * cubes;
  d.cubemap = 1;
  d.layered = cubes > 1;
  return d;
}

const char* kCube = "tex.cube.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2, %f3, %f3}];";

TEST(CubemapFetch, PointSamplingReadsTheSelectedFace) {
  Engine engine;
  const TextureDescriptor d = cube_descriptor(engine, 1, ChannelKind::Float);
  const auto r = run_ok(engine, upload(engine, d), kCube, 'f',
                        {{f(1.0f), f(0.5f), f(-0.25f), 0},
                         {f(-2.0f), f(1.0f), f(1.0f), 0},
                         {f(0.5f), f(1.0f), f(-0.25f), 0},
                         {f(0.5f), f(-4.0f), f(1.0f), 0},
                         {f(-0.5f), f(0.25f), f(1.0f), 0},
                         {f(-0.5f), f(0.25f), f(-2.0f), 0}});
  EXPECT_EQ(r[0], (Quad{f(12.0f), 0, 0, f(1.0f)}));  // face 0, s 0.625 -> x 2, t 0.25 -> y 1
  EXPECT_EQ(r[1], (Quad{f(113.0f), 0, 0, f(1.0f)}));
  EXPECT_EQ(r[2], (Quad{f(213.0f), 0, 0, f(1.0f)}));
  EXPECT_EQ(r[3], (Quad{f(312.0f), 0, 0, f(1.0f)}));
  EXPECT_EQ(r[4], (Quad{f(411.0f), 0, 0, f(1.0f)}));
  EXPECT_EQ(r[5], (Quad{f(512.0f), 0, 0, f(1.0f)}));
}

TEST(CubemapFetch, LinearFilteringBlendsWithinAFaceAndClampsAtItsEdge) {
  Engine engine;
  TextureDescriptor d = cube_descriptor(engine, 1, ChannelKind::Float);
  d.filter = func::FilterMode::Linear;
  d.address_mode[0] = d.address_mode[1] = func::AddressMode::Wrap;  // ignored: faces clamp
  const auto r = run_ok(engine, upload(engine, d), kCube, 'f',
                        {{0, 0, f(1.0f), 0}, {f(1.0f), 0, f(-0.99f), 0}});
  EXPECT_EQ(r[0][0], f(416.5f));  // texels (1..2, 1..2) of face +z, half each
  EXPECT_EQ(r[1][0], f(18.0f));  // face +x: x clamps at 3, y 1..2 half each: (13 + 23) / 2
}

TEST(CubemapFetch, LayeredCubemapPicksTheCubeAndClampsItsIndex) {
  Engine engine;
  const TextureDescriptor d = cube_descriptor(engine, 2, ChannelKind::Float);
  const auto r = run_ok(engine, upload(engine, d),
                        "tex.acube.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%r1, %f2, %f3, %f4}];", 'f',
                        {{1, f(-0.5f), f(0.25f), f(-2.0f)}, {0, f(1.0f), f(0.5f), f(-0.25f)}, {7, f(0.5f), f(1.0f), f(-0.25f)}});
  EXPECT_EQ(r[0][0], f(1512.0f));
  EXPECT_EQ(r[1][0], f(12.0f));
  EXPECT_EQ(r[2][0], f(1213.0f));  // cube 7 of 2: the last
}

TEST(CubemapFetch, IntegerTexelsComeBackAsIntegers) {
  Engine engine;
  const TextureDescriptor d = cube_descriptor(engine, 1, ChannelKind::Unsigned);
  const auto r = run_ok(engine, upload(engine, d),
                        "tex.cube.v4.u32.f32 {%r5, %r6, %r7, %r8}, [%rd1, {%f1, %f2, %f3, %f3}];", 'r',
                        {{f(0.5f), f(-4.0f), f(1.0f), 0}});
  EXPECT_EQ(r[0], (Quad{312, 0, 0, 1}));
}

TEST(CubemapFetch, IntegerCoordinatesAreNotACubemapForm) {
  const std::string line = "tex.cube.v4.f32.s32 {%f5, %f6, %f7, %f8}, [%rd1, {%r1, %r2, %r3, %r3}];";
  const std::string text = kernel(line, 'f');
  const size_t at = text.find("tex.cube");
  const auto line_number = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  EXPECT_EQ(memory::load_error(text),
            "unsupported PTX instruction 'tex.cube.v4.f32.s32' at test.ptx:" + std::to_string(line_number));
}

}  // namespace
}  // namespace lockstep::test::texture
