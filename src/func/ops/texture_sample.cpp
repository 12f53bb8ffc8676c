// tex and tld4: texture fetches through a texture object handle.
//   tex{.level}.geom.v4.dtype.ctype  d, [handle, {coords}]{, lod}
//   tld4.comp.2d.v4.dtype.f32       d, [handle, {x, y}]
// geom is 1d/2d/3d/a1d/a2d/cube/acube; dtype f32/s32/u32; ctype s32/f32 (cube, acube and tld4: f32). Textures here have a
// single mip level, so tex.level reads level 0 whatever the level of detail.
#include <string>

#include "fmt/format.h"
#include "func/ops/float_bits.h"
#include "func/ops/texture_binders.h"
#include "func/ops/texture_common.h"
#include "func/ops/texture_cubemap.h"
#include "func/ops/texture_sampler.h"

namespace lockstep::func::texture {
namespace {

// ExecInst layout: d[0..3] results, s[0] handle, s[1..] coordinates; aux bits 0-7 geometry,
// bit 8 float coordinates, bit 9 integer results; aux2 the gathered channel (tld4).
constexpr uint64_t kFloatCoords = 1u << 8;
constexpr uint64_t kIntegerResult = 1u << 9;

Coordinates lane_coordinates(const ExecInst& in, Warp& w, Geometry g, uint32_t lane) {
  Coordinates c;
  c.integer = (in.aux & kFloatCoords) == 0;
  uint32_t next = 1;
  if (is_layered(g)) c.layer = static_cast<uint32_t>(w.r(in.s[next++])[lane]);
  for (uint32_t dim = 0; dim < spatial_dims(g); ++dim) {
    const uint64_t v = w.r(in.s[next++])[lane];
    c.i[dim] = static_cast<int32_t>(static_cast<uint32_t>(v));
    c.f[dim] = fp::f32_of(static_cast<uint32_t>(v));
  }
  return c;
}

template <bool Gather>
void sample_h(const ExecInst& in, Warp& w) {
  const auto g = static_cast<Geometry>(in.aux & 0xff);
  const ResultKind kind = (in.aux & kIntegerResult) ? ResultKind::Integer : ResultKind::Float;
  const uint64_t* handle = w.r(in.s[0]);
  for_each_lane(w.exec, [&](uint32_t lane) {
    const TextureDescriptor d = read_descriptor(w, handle[lane], lane, false);
    Sampler sampler(w, d, kind, lane);
    const Coordinates c = lane_coordinates(in, w, g, lane);
    const Rgba r = Gather            ? sampler.gather(c, static_cast<uint32_t>(in.aux2))
                   : is_cubemap(g) ? sample_cubemap(w, d, kind, lane, c)
                                   : sampler.sample(c, spatial_dims(g));
    for (uint32_t i = 0; i < 4; ++i) w.r(in.d[i])[lane] = r.bits[i];
  });
}

struct SampleForm {
  Geometry geometry = Geometry::D1;
  bool level = false;
  uint64_t aux = 0;
  uint32_t channel = 0;
};

// Parses [comp.]geom.v4.dtype.ctype starting at modifiers[first]; nullopt when not a supported form.
std::optional<SampleForm> parse_form(const ir::Instruction& inst, size_t first) {
  const auto& m = inst.modifiers;
  if (m.size() != first + 4 || m[first + 1] != "v4") return std::nullopt;
  SampleForm f;
  const auto g = parse_geometry(m[first]);
  if (!g) return std::nullopt;
  f.geometry = *g;
  const std::string& dtype = m[first + 2];
  const std::string& ctype = m[first + 3];
  if (dtype != "f32" && dtype != "s32" && dtype != "u32") return std::nullopt;
  if (ctype != "f32" && ctype != "s32") return std::nullopt;
  if (is_cubemap(*g) && ctype != "f32") return std::nullopt;  // a direction has no texel indices
  f.aux = static_cast<uint64_t>(*g) | (ctype == "f32" ? kFloatCoords : 0) |
          (dtype == "f32" ? 0 : kIntegerResult);
  return f;
}

ExecInst bind_common(const ir::Instruction& inst, BindContext& ctx, const SampleForm& f, Handler h,
                     size_t operands) {
  ctx.expect_operands(inst, operands);
  ExecInst e = make_exec(inst, h);
  bind_register_list(inst, 0, 4, true, ctx, e.d);
  e.nd = 4;
  bind_handle_and_coordinates(inst, 1, f.geometry, ctx, e);
  e.aux = f.aux;
  e.aux2 = f.channel;
  return e;
}

}  // namespace

std::optional<ExecInst> bind_tex(const ir::Instruction& inst, BindContext& ctx) {
  const bool level = !inst.modifiers.empty() && inst.modifiers[0] == "level";
  const auto f = parse_form(inst, level ? 1 : 0);
  if (!f) return std::nullopt;
  ExecInst e = bind_common(inst, ctx, *f, &sample_h<false>, level ? 3 : 2);
  if (level) e.s[5] = ctx.slot(inst.operands[2]);  // the level of detail: read, then unused
  return e;
}

std::optional<ExecInst> bind_tld4(const ir::Instruction& inst, BindContext& ctx) {
  const auto& m = inst.modifiers;
  if (m.empty()) return std::nullopt;
  static constexpr std::string_view kChannels[] = {"r", "g", "b", "a"};
  uint32_t channel = 4;
  for (uint32_t c = 0; c < 4; ++c)
    if (m[0] == kChannels[c]) channel = c;
  auto f = parse_form(inst, 1);
  if (channel == 4 || !f || f->geometry != Geometry::D2 || !(f->aux & kFloatCoords)) return std::nullopt;
  f->channel = channel;
  return bind_common(inst, ctx, *f, &sample_h<true>, 2);
}

}  // namespace lockstep::func::texture
