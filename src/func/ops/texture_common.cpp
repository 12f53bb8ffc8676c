#include "func/ops/texture_common.h"

#include <cstring>

#include "fmt/format.h"
#include "func/ops/float_bits.h"

namespace lockstep::func::texture {

std::optional<Geometry> parse_geometry(std::string_view m) {
  if (m == "1d") return Geometry::D1;
  if (m == "2d") return Geometry::D2;
  if (m == "3d") return Geometry::D3;
  if (m == "a1d") return Geometry::A1D;
  if (m == "a2d") return Geometry::A2D;
  if (m == "cube") return Geometry::Cube;
  if (m == "acube") return Geometry::ACube;
  return std::nullopt;
}

uint32_t spatial_dims(Geometry g) {
  switch (g) {
    case Geometry::D1:
    case Geometry::A1D:
      return 1;
    case Geometry::D2:
    case Geometry::A2D:
      return 2;
    case Geometry::D3:
    case Geometry::Cube:
    case Geometry::ACube:
      return 3;
  }
  return 1;
}

bool is_layered(Geometry g) { return g == Geometry::A1D || g == Geometry::A2D || g == Geometry::ACube; }

bool is_cubemap(Geometry g) { return g == Geometry::Cube || g == Geometry::ACube; }

uint32_t coordinate_count(Geometry g) {
  switch (g) {
    case Geometry::D1:
      return 1;
    case Geometry::D2:
    case Geometry::A1D:
      return 2;
    case Geometry::D3:
    case Geometry::A2D:
    case Geometry::Cube:
    case Geometry::ACube:
      return 4;
  }
  return 1;
}

TextureDescriptor read_descriptor(Warp& w, uint64_t handle, uint32_t lane, bool surface) {
  const char* space = surface ? "surface" : "texture";
  const uint8_t* p = w.launch->memory->translate(handle, sizeof(TextureDescriptor));
  TextureDescriptor d;
  if (p != nullptr) std::memcpy(&d, p, sizeof d);
  if (p == nullptr || d.magic != (surface ? kSurfaceMagic : kTextureMagic)) {
    w.fault(FaultKind::OutOfBounds, lane, handle, 0, space,
            fmt::format("0x{:x} is not a {} object handle", handle, space));
  }
  return d;
}

namespace {

uint32_t channel_bits_at(const TextureDescriptor& d, const uint8_t* p) {
  switch (d.channel_bits) {
    case 8: {
      const uint8_t v = *p;
      if (d.channel_kind == ChannelKind::Signed)
        return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(v)));
      return v;
    }
    case 16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      if (d.channel_kind == ChannelKind::Float) return fp::bits_of(fp::half_to_f32(v));
      if (d.channel_kind == ChannelKind::Signed)
        return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(v)));
      return v;
    }
    default: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

}  // namespace

Texel decode_texel(const TextureDescriptor& d, const uint8_t* p) {
  Texel t;
  t.count = d.channels;
  const uint32_t step = d.channel_bits / 8u;
  for (uint32_t c = 0; c < d.channels && c < 4; ++c) t.bits[c] = channel_bits_at(d, p + c * step);
  return t;
}

const uint8_t* element_pointer(Warp& w, const TextureDescriptor& d, uint32_t x, uint32_t y,
                               uint32_t z, uint32_t layer, uint32_t size, uint32_t lane) {
  const uint64_t slice = uint64_t{layer} * d.depth + z;
  const uint64_t addr = d.base + slice * d.slice_pitch() + uint64_t{y} * d.pitch +
                        uint64_t{x} * d.element_bytes();
  // The timing model's texture path fetches exactly these elements (func/access_log.h).
  if (AccessLog* log = w.launch->access_log) log->add(lane, addr, size, AccessSpace::kGlobal);
  return w.global(addr, size, 1, lane);
}

void bind_handle_and_coordinates(const ir::Instruction& inst, size_t index, Geometry g,
                                 BindContext& ctx, ExecInst& e) {
  using K = ir::Operand::Kind;
  const ir::Operand& addr = inst.operands.at(index);
  const uint32_t n = coordinate_count(g);
  if (addr.kind != K::Address || addr.elements.size() != 2 || addr.elements[1].kind != K::Vector ||
      addr.elements[1].elements.size() != n) {
    ctx.error(addr, fmt::format("'{}' expects [handle, {{{} coordinate{}}}]", inst.form(), n,
                                n == 1 ? "" : "s"));
  }
  const ir::Operand& handle = addr.elements[0];
  if (handle.kind != K::Reg && handle.kind != K::Imm)
    ctx.error(handle, fmt::format("'{}' needs the object handle in a 64-bit register", inst.form()));
  e.s[0] = ctx.slot(handle);
  for (uint32_t i = 0; i < n; ++i) e.s[1 + i] = ctx.slot(addr.elements[1].elements[i]);
  e.ns = static_cast<uint8_t>(1 + n);
}

void bind_register_list(const ir::Instruction& inst, size_t index, uint32_t n, bool sink_ok,
                        BindContext& ctx, uint32_t* out) {
  using K = ir::Operand::Kind;
  const ir::Operand& op = inst.operands.at(index);
  auto one = [&](const ir::Operand& r, uint32_t i) {
    const bool ok = r.kind == K::Reg || (sink_ok && r.kind == K::Sink) || (!sink_ok && r.kind == K::Imm);
    if (!ok) ctx.error(r, fmt::format("'{}' expects a register here", inst.form()));
    out[i] = ctx.slot(r);
  };
  if (op.kind == K::Vector) {
    if (op.elements.size() != n)
      ctx.error(op, fmt::format("'{}' expects {} register{} in braces, got {}", inst.form(), n,
                                n == 1 ? "" : "s", op.elements.size()));
    for (uint32_t i = 0; i < n; ++i) one(op.elements[i], i);
    return;
  }
  if (n != 1) ctx.error(op, fmt::format("'{}' expects {} registers in braces", inst.form(), n));
  one(op, 0);
}

}  // namespace lockstep::func::texture
