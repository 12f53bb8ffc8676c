#include "func/ops/texture_cubemap.h"

#include <algorithm>
#include <cmath>

namespace lockstep::func::texture {

CubemapPoint cubemap_point(float x, float y, float z) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  CubemapPoint p;
  float m = 0, sc = 0, tc = 0;
  if (az >= ax && az >= ay) {
    p.face = z >= 0 ? 4 : 5;
    m = az;
    sc = z >= 0 ? x : -x;
    tc = -y;
  } else if (ay >= ax) {
    p.face = y >= 0 ? 2 : 3;
    m = ay;
    sc = x;
    tc = y >= 0 ? z : -z;
  } else {
    p.face = x >= 0 ? 0 : 1;
    m = ax;
    sc = x >= 0 ? -z : z;
    tc = -y;
  }
  // A zero direction has no face: its centre keeps the result defined (NaN would too, but
  // would read texel 0 only by accident of the index conversion).
  if (m == 0) return p;
  p.s = 0.5f * (sc / m + 1.0f);
  p.t = 0.5f * (tc / m + 1.0f);
  return p;
}

Rgba sample_cubemap(Warp& w, const TextureDescriptor& d, ResultKind kind, uint32_t lane, const Coordinates& c) {
  const CubemapPoint p = cubemap_point(c.f[0], c.f[1], c.f[2]);
  TextureDescriptor face = d;
  face.normalized_coords = 1;
  for (AddressMode& mode : face.address_mode) mode = AddressMode::Clamp;
  const uint32_t cubes = std::max(d.layers / 6u, 1u);
  Coordinates on_face;
  on_face.f[0] = p.s;
  on_face.f[1] = p.t;
  on_face.layer = std::min(c.layer, cubes - 1) * 6u + p.face;
  return Sampler(w, face, kind, lane).sample(on_face, 2);
}

}  // namespace lockstep::func::texture
