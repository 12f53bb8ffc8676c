#pragma once
// Cubemap fetches (tex.cube, tex.acube): the direction vector (x, y, z) picks one of six faces
// and a point on it, per the CUDA programming guide's cubemap table; the face is then sampled
// as a 2D layer of the array (layer 6 * cube + face).
#include <cstdint>

#include "func/ops/texture_sampler.h"

namespace lockstep::func::texture {

// The face (0..5: +x, -x, +y, -y, +z, -z) a direction points at, and the normalized point
// (s, t) in [0, 1] on it: s = (sc / m + 1) / 2, t = (tc / m + 1) / 2, with m the magnitude of
// the major axis and (sc, tc) the guide's table entries for that face:
//   +x: (-z, -y)   -x: (z, -y)   +y: (x, z)   -y: (x, -z)   +z: (x, -y)   -z: (-x, -y)
// The guide leaves ties between axes open; here z wins over y, and y over x (as Direct3D
// specifies), so (1, 1, 1) reads face +z.
struct CubemapPoint {
  uint32_t face = 0;
  float s = 0.5f;
  float t = 0.5f;
};
CubemapPoint cubemap_point(float x, float y, float z);

// A cubemap fetch of one lane: c.f holds the direction, c.layer the cube (tex.acube; clamped
// to the last cube). The face is read with normalized coordinates and clamped at its edges
// whatever the texture's address modes (no filtering across faces).
Rgba sample_cubemap(Warp& w, const TextureDescriptor& d, ResultKind kind, uint32_t lane, const Coordinates& c);

}  // namespace lockstep::func::texture
