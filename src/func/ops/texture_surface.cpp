// suld.b and sust.b: unformatted surface loads and stores through a surface object handle.
//   suld.b.geom{.cop}{.v2,.v4}.btype{.mode}  d, [handle, {coords}]
//   sust.b.geom{.cop}{.v2,.v4}.btype{.mode}  [handle, {coords}], a
// btype b8/b16/b32/b64; the x coordinate is in bytes (PTX rule), y/z/layer in elements. An
// access outside the surface: .trap (the default) faults, .clamp moves it to the nearest
// element, .zero loads zeros and drops stores. Cache operators change nothing here.
#include <algorithm>
#include <cstring>
#include <string>

#include "fmt/format.h"
#include "func/ops/texture_binders.h"
#include "func/ops/texture_common.h"

namespace lockstep::func::texture {
namespace {

enum class OutOfRange : uint8_t { Trap, Clamp, Zero };

// ExecInst layout: s[0] handle, s[1..] coordinates, d[0..] (suld) or table (sust) values;
// width elements of aux2 bytes each; aux bits 0-7 geometry, 8-15 OutOfRange.
struct SurfaceAccess {
  Geometry geometry;
  OutOfRange mode;
  uint32_t bytes;  // whole access
};

SurfaceAccess access_of(const ExecInst& in) {
  return {static_cast<Geometry>(in.aux & 0xff), static_cast<OutOfRange>((in.aux >> 8) & 0xff),
          static_cast<uint32_t>(in.aux2) * in.width};
}

// Host pointer of a lane's access, or nullptr when a .zero access falls outside.
uint8_t* surface_pointer(const ExecInst& in, Warp& w, uint32_t lane) {
  const SurfaceAccess a = access_of(in);
  const uint64_t handle = w.r(in.s[0])[lane];
  const TextureDescriptor d = read_descriptor(w, handle, lane, true);
  uint32_t next = 1;
  int64_t layer = 0;
  if (is_layered(a.geometry)) layer = static_cast<uint32_t>(w.r(in.s[next++])[lane]);
  int64_t at[3] = {0, 0, 0};
  for (uint32_t dim = 0; dim < spatial_dims(a.geometry); ++dim)
    at[dim] = static_cast<int32_t>(static_cast<uint32_t>(w.r(in.s[next++])[lane]));
  const int64_t row_bytes = int64_t{d.width} * d.element_bytes();
  const int64_t limit[3] = {row_bytes - a.bytes, int64_t{d.height} - 1, int64_t{d.depth} - 1};
  bool inside = at[0] % a.bytes == 0 && layer < d.layers;
  for (uint32_t dim = 0; dim < 3; ++dim) inside = inside && at[dim] >= 0 && at[dim] <= limit[dim];
  if (!inside) {
    if (a.mode == OutOfRange::Zero) return nullptr;
    if (a.mode == OutOfRange::Trap) {
      const bool misaligned = at[0] % a.bytes != 0;
      w.fault(misaligned ? FaultKind::Misaligned : FaultKind::OutOfBounds, lane, handle, a.bytes,
              "surface",
              fmt::format("x={} bytes, y={}, z={}, layer={} on a {}x{}x{} surface of {}-byte elements"
                          "{}",
                          at[0], at[1], at[2], layer, d.width, d.height, d.depth, d.element_bytes(),
                          d.layered ? fmt::format(" with {} layers", d.layers) : std::string()));
    }
    at[0] = std::clamp<int64_t>(at[0], 0, std::max<int64_t>(limit[0], 0)) / a.bytes * a.bytes;
    for (uint32_t dim = 1; dim < 3; ++dim) at[dim] = std::clamp<int64_t>(at[dim], 0, limit[dim]);
    layer = std::min<int64_t>(layer, d.layers - 1);
  }
  const uint64_t slice = static_cast<uint64_t>(layer) * d.depth + static_cast<uint64_t>(at[2]);
  const uint64_t addr = d.base + slice * d.slice_pitch() + static_cast<uint64_t>(at[1]) * d.pitch +
                        static_cast<uint64_t>(at[0]);
  return w.global(addr, a.bytes, 1, lane);
}

void suld_h(const ExecInst& in, Warp& w) {
  const uint32_t element = static_cast<uint32_t>(in.aux2);
  for_each_lane(w.exec, [&](uint32_t lane) {
    const uint8_t* p = surface_pointer(in, w, lane);
    for (uint32_t i = 0; i < in.width; ++i) {
      uint64_t v = 0;
      if (p != nullptr) std::memcpy(&v, p + i * element, element);  // little-endian host
      w.r(in.d[i])[lane] = v;
    }
  });
}

void sust_h(const ExecInst& in, Warp& w) {
  const uint32_t element = static_cast<uint32_t>(in.aux2);
  const std::vector<uint32_t>& values = w.launch->kernel->tables[in.table];
  for_each_lane(w.exec, [&](uint32_t lane) {
    uint8_t* p = surface_pointer(in, w, lane);
    if (p == nullptr) return;
    for (uint32_t i = 0; i < in.width; ++i) {
      const uint64_t v = w.r(values[i])[lane];
      std::memcpy(p + i * element, &v, element);
    }
  });
}

struct SurfaceForm {
  Geometry geometry = Geometry::D1;
  uint32_t vector = 1;
  uint32_t element = 4;
  OutOfRange mode = OutOfRange::Trap;
};

bool is_cache_operator(std::string_view m) {
  return m == "ca" || m == "cg" || m == "cs" || m == "cv" || m == "wb" || m == "wt";
}

// b.geom{.cop}{.vN}.btype{.mode}; nullopt for other forms (sust.p, sured, ...).
std::optional<SurfaceForm> parse_form(const ir::Instruction& inst) {
  const auto& m = inst.modifiers;
  if (m.size() < 3 || m[0] != "b") return std::nullopt;
  SurfaceForm f;
  const auto g = parse_geometry(m[1]);
  if (!g || is_cubemap(*g)) return std::nullopt;  // surfaces have no cubemap geometries
  f.geometry = *g;
  size_t i = 2;
  if (i < m.size() && is_cache_operator(m[i])) ++i;
  if (i < m.size() && (m[i] == "v2" || m[i] == "v4")) f.vector = m[i++] == "v2" ? 2 : 4;
  if (i >= m.size()) return std::nullopt;
  const std::string& type = m[i++];
  if (type == "b8") f.element = 1;
  else if (type == "b16") f.element = 2;
  else if (type == "b32") f.element = 4;
  else if (type == "b64") f.element = 8;
  else return std::nullopt;
  if (f.vector == 4 && f.element == 8) return std::nullopt;  // no .v4.b64 in the ISA
  if (i < m.size()) {
    const std::string& mode = m[i++];
    if (mode == "trap") f.mode = OutOfRange::Trap;
    else if (mode == "clamp") f.mode = OutOfRange::Clamp;
    else if (mode == "zero") f.mode = OutOfRange::Zero;
    else return std::nullopt;
  }
  if (i != m.size()) return std::nullopt;
  return f;
}

ExecInst make_surface_exec(const ir::Instruction& inst, BindContext& ctx, const SurfaceForm& f,
                           Handler h, size_t address_index) {
  ctx.expect_operands(inst, 2);
  ExecInst e = make_exec(inst, h);
  bind_handle_and_coordinates(inst, address_index, f.geometry, ctx, e);
  e.width = static_cast<uint8_t>(f.vector);
  e.aux = static_cast<uint64_t>(f.geometry) | (static_cast<uint64_t>(f.mode) << 8);
  e.aux2 = f.element;
  return e;
}

}  // namespace

std::optional<ExecInst> bind_suld(const ir::Instruction& inst, BindContext& ctx) {
  const auto f = parse_form(inst);
  if (!f) return std::nullopt;
  ExecInst e = make_surface_exec(inst, ctx, *f, &suld_h, 1);
  bind_register_list(inst, 0, f->vector, true, ctx, e.d);
  e.nd = static_cast<uint8_t>(f->vector);
  return e;
}

std::optional<ExecInst> bind_sust(const ir::Instruction& inst, BindContext& ctx) {
  const auto f = parse_form(inst);
  if (!f) return std::nullopt;
  ExecInst e = make_surface_exec(inst, ctx, *f, &sust_h, 0);
  uint32_t values[4] = {};
  bind_register_list(inst, 1, f->vector, false, ctx, values);
  e.table = ctx.table(std::vector<uint32_t>(values, values + f->vector));
  return e;
}

}  // namespace lockstep::func::texture
