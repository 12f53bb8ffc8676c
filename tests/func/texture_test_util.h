#pragma once
// Helpers for the texture and surface tests: write a descriptor into device memory (what the
// runtime does for cudaCreateTextureObject), and run one texture instruction per thread with
// its coordinates taken from a buffer and its four results written back.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/harness.h"
#include "engine/engine.h"
#include "func/memory_test_util.h"
#include "func/texture_descriptor.h"

namespace lockstep::test::texture {

using Quad = std::array<uint32_t, 4>;
using func::TextureDescriptor;

inline uint32_t f(float v) { return memory::f32_bits(v); }

inline uint64_t upload(Engine& engine, const void* data, uint64_t bytes) {
  const uint64_t at = engine.malloc(bytes);
  engine.copy_to_device(at, data, bytes);
  return at;
}

// A descriptor for a CUDA array of width x height x depth (x layers) elements stored
// row-major at `base`; callers adjust modes afterwards.
inline TextureDescriptor array_descriptor(uint64_t base, uint8_t channels, uint8_t bits,
                                          func::ChannelKind kind, uint32_t width,
                                          uint32_t height = 1, uint32_t depth = 1) {
  TextureDescriptor d;
  d.magic = func::kTextureMagic;
  d.kind = func::ResourceKind::Array;
  d.channel_kind = kind;
  d.channels = channels;
  d.channel_bits = bits;
  d.width = width;
  d.height = height;
  d.depth = depth;
  d.base = base;
  d.pitch = uint64_t{width} * channels * bits / 8;
  return d;
}

inline uint64_t upload(Engine& engine, const TextureDescriptor& d) { return upload(engine, &d, sizeof d); }

// `line` runs in every thread with %rd1 = handle, coordinates in %r1..%r4 (bits) and
// %f1..%f4 (same bits as f32); results are read from %r5..%r8 (`result` = 'r') or %f5..%f8
// ('f') and stored to out[tid].
inline std::string kernel(const std::string& line, char result) {
  const std::string rs = std::string("%") + result;
  return memory::module(R"(
.visible .entry k(.param .u64 h, .param .u64 coords, .param .u64 out) {
  .reg .pred %p<4>;
  .reg .b16 %rs<16>;
  .reg .b32 %r<16>;
  .reg .f32 %f<16>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [h];
  ld.param.u64 %rd2, [coords];
  ld.param.u64 %rd3, [out];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd4, %r0, 16;
  add.s64 %rd5, %rd2, %rd4;
  add.s64 %rd6, %rd3, %rd4;
  ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd5];
  mov.b32 %f1, %r1;
  mov.b32 %f2, %r2;
  mov.b32 %f3, %r3;
  mov.b32 %f4, %r4;
  mov.b32 %r5, 0;
  mov.b32 %r6, 0;
  mov.b32 %r7, 0;
  mov.b32 %r8, 0;
  )" + line + "\n  st.global.v4.b32 [%rd6], {" +
                        rs + "5, " + rs + "6, " + rs + "7, " + rs + "8};\n  ret;\n}\n");
}

struct TextureRun {
  std::vector<Quad> results;
  LaunchResult launch;
};

// One thread per coordinate quad.
inline TextureRun run(Engine& engine, uint64_t handle, const std::string& line, char result,
               const std::vector<Quad>& coords) {
  ModuleId m = engine.load_ptx(kernel(line, result), "texture.ptx");
  const uint64_t in = upload(engine, coords.data(), coords.size() * sizeof(Quad));
  const uint64_t out = engine.malloc(coords.size() * sizeof(Quad));
  TextureRun r;
  r.launch = engine.launch(m, "k", {1}, {static_cast<uint32_t>(coords.size())}, 0,
                           {arg(handle), arg(in), arg(out)});
  r.results.resize(coords.size());
  engine.copy_to_host(r.results.data(), out, coords.size() * sizeof(Quad));
  return r;
}

inline std::vector<Quad> run_ok(Engine& engine, uint64_t handle, const std::string& line, char result,
                                const std::vector<Quad>& coords) {
  TextureRun r = run(engine, handle, line, result, coords);
  EXPECT_FALSE(r.launch.fault.has_value()) << (r.launch.fault ? r.launch.fault->message : "");
  return r.results;
}

}  // namespace lockstep::test::texture
