#include "func/ops/texture_sampler.h"

#include <algorithm>
#include <cmath>

#include "func/ops/float_bits.h"

namespace lockstep::func::texture {
namespace {

// A channel of a decoded texel as a float result: float channels as stored; 8/16-bit integer
// channels divided by their largest value in normalized-float read mode (signed ones clamped
// at -1.0, as the guide specifies), else converted. Missing channels read 0, alpha 1.
float channel_as_float(const TextureDescriptor& d, const Texel& t, uint32_t c) {
  if (c >= t.count) return c == 3 ? 1.0f : 0.0f;
  const uint32_t v = t.bits[c];
  if (d.channel_kind == ChannelKind::Float) return fp::f32_of(v);
  const bool normalized = d.read_mode == ReadMode::NormalizedFloat;
  if (d.channel_kind == ChannelKind::Signed) {
    const auto s = static_cast<int32_t>(v);
    if (!normalized) return static_cast<float>(s);
    const float top = static_cast<float>((int64_t{1} << (d.channel_bits - 1)) - 1);
    return std::max(static_cast<float>(s) / top, -1.0f);
  }
  if (!normalized) return static_cast<float>(v);
  const float top = static_cast<float>((uint64_t{1} << d.channel_bits) - 1);
  return static_cast<float>(v) / top;
}

uint32_t channel_as_integer(const Texel& t, uint32_t c) {
  if (c >= t.count) return c == 3 ? 1u : 0u;
  return t.bits[c];
}

// The guide's rule for linear filtering: the fractional part of the texel coordinate is kept
// in 9-bit fixed point with 8 fractional bits, so weights are multiples of 1/256.
float fixed_point_weight(float frac) { return std::nearbyint(frac * 256.0f) / 256.0f; }

float lerp(float a, float b, float t) { return (1.0f - t) * a + t * b; }

// floor() of a texel coordinate as an index, saturated far outside any extent (and NaN -> 0).
int64_t floor_index(float u) {
  if (!(u == u)) return 0;
  const float clamped = std::clamp(u, -1.0e9f, 1.0e9f);
  return static_cast<int64_t>(std::floor(clamped));
}

}  // namespace

uint32_t Sampler::extent(uint32_t dim) const {
  return dim == 0 ? d_.width : dim == 1 ? d_.height : d_.depth;
}

bool Sampler::resolve(int64_t index, uint32_t dim, uint32_t& out) const {
  const int64_t n = extent(dim);
  // Linear memory (tex1Dfetch) reads zero outside; wrap and mirror exist only for normalized
  // coordinates and act as clamp otherwise.
  AddressMode mode = d_.kind == ResourceKind::Linear ? AddressMode::Border : d_.address_mode[dim];
  if (!d_.normalized_coords && (mode == AddressMode::Wrap || mode == AddressMode::Mirror))
    mode = AddressMode::Clamp;
  switch (mode) {
    case AddressMode::Wrap:
      index = ((index % n) + n) % n;
      break;
    case AddressMode::Mirror: {
      const int64_t m = ((index % (2 * n)) + 2 * n) % (2 * n);
      index = m < n ? m : 2 * n - 1 - m;
      break;
    }
    case AddressMode::Clamp:
      index = std::clamp<int64_t>(index, 0, n - 1);
      break;
    case AddressMode::Border:
      if (index < 0 || index >= n) return false;
      break;
  }
  out = static_cast<uint32_t>(index);
  return true;
}

Rgba Sampler::texel(const int64_t index[3], uint32_t layer) {
  Rgba r;
  uint32_t at[3] = {0, 0, 0};
  bool inside = true;
  for (uint32_t dim = 0; dim < 3; ++dim) inside = inside && resolve(index[dim], dim, at[dim]);
  if (!inside) {
    for (uint32_t c = 0; c < 4; ++c) {
      const float b = d_.kind == ResourceKind::Linear ? 0.0f : d_.border[c];
      r.bits[c] = kind_ == ResultKind::Float ? fp::bits_of(b) : static_cast<uint32_t>(static_cast<int32_t>(b));
    }
    return r;
  }
  const uint32_t size = d_.element_bytes();
  const Texel t = decode_texel(d_, element_pointer(w_, d_, at[0], at[1], at[2], layer, size, lane_));
  for (uint32_t c = 0; c < 4; ++c)
    r.bits[c] = kind_ == ResultKind::Float ? fp::bits_of(channel_as_float(d_, t, c)) : channel_as_integer(t, c);
  return r;
}

float Sampler::texel_coordinate(const Coordinates& c, uint32_t dim) const {
  return d_.normalized_coords ? c.f[dim] * static_cast<float>(extent(dim)) : c.f[dim];
}

Rgba Sampler::sample(const Coordinates& c, uint32_t dims) {
  const uint32_t layer = std::min(c.layer, d_.layers - 1);
  int64_t index[3] = {0, 0, 0};
  if (c.integer) {
    for (uint32_t dim = 0; dim < dims; ++dim) index[dim] = c.i[dim];
    return texel(index, layer);
  }
  const bool filtered = d_.filter == FilterMode::Linear && kind_ == ResultKind::Float;
  if (!filtered) {
    for (uint32_t dim = 0; dim < dims; ++dim) index[dim] = floor_index(texel_coordinate(c, dim));
    return texel(index, layer);
  }
  // Linear filtering: T at floor(u - 0.5) and its successor in each dimension, blended with
  // 1.8 fixed-point weights; blended in x first, then y, then z.
  int64_t low[3] = {0, 0, 0};
  float weight[3] = {0, 0, 0};
  for (uint32_t dim = 0; dim < dims; ++dim) {
    const float u = texel_coordinate(c, dim) - 0.5f;
    low[dim] = floor_index(u);
    weight[dim] = fixed_point_weight(u - std::floor(u));
  }
  float corner[8][4];
  const uint32_t corners = 1u << dims;
  for (uint32_t k = 0; k < corners; ++k) {
    for (uint32_t dim = 0; dim < 3; ++dim) index[dim] = low[dim] + ((k >> dim) & 1u);
    const Rgba t = texel(index, layer);
    for (uint32_t ch = 0; ch < 4; ++ch) corner[k][ch] = fp::f32_of(t.bits[ch]);
  }
  // Fold the corners one dimension at a time: pairs differing in bit `dim`.
  for (uint32_t dim = 0, n = corners; dim < dims; ++dim, n /= 2) {
    for (uint32_t k = 0; k < n / 2; ++k)
      for (uint32_t ch = 0; ch < 4; ++ch)
        corner[k][ch] = lerp(corner[2 * k][ch], corner[2 * k + 1][ch], weight[dim]);
  }
  Rgba r;
  for (uint32_t ch = 0; ch < 4; ++ch) r.bits[ch] = fp::bits_of(corner[0][ch]);
  return r;
}

Rgba Sampler::gather(const Coordinates& c, uint32_t channel) {
  const uint32_t layer = std::min(c.layer, d_.layers - 1);
  const int64_t i = floor_index(texel_coordinate(c, 0) - 0.5f);
  const int64_t j = floor_index(texel_coordinate(c, 1) - 0.5f);
  const int64_t order[4][2] = {{i, j + 1}, {i + 1, j + 1}, {i + 1, j}, {i, j}};
  Rgba r;
  for (uint32_t k = 0; k < 4; ++k) {
    const int64_t index[3] = {order[k][0], order[k][1], 0};
    r.bits[k] = texel(index, layer).bits[channel];
  }
  return r;
}

}  // namespace lockstep::func::texture
