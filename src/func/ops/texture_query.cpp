// txq and suq: attributes of a texture or surface object.
//   txq.attr.b32 d, [handle]     suq.attr.b32 d, [handle]
// channel_data_type and channel_order are the OpenCL enumeration values the PTX ISA names
// (CL_UNORM_INT8, CL_R, ...); filter_mode and addr_mode_N use cudaTextureFilterMode and
// cudaTextureAddressMode numbering. Widths are in elements.
#include <string>

#include "fmt/format.h"
#include "func/ops/texture_binders.h"
#include "func/ops/texture_common.h"

namespace lockstep::func::texture {
namespace {

enum class Attribute : uint8_t {
  Width, Height, Depth, ChannelDataType, ChannelOrder, NormalizedCoords, FilterMode,
  AddrMode0, AddrMode1, AddrMode2, ArraySize, MemoryLayout,
};

std::optional<Attribute> parse_attribute(std::string_view m, bool surface) {
  if (m == "width") return Attribute::Width;
  if (m == "height") return Attribute::Height;
  if (m == "depth") return Attribute::Depth;
  if (m == "channel_data_type") return Attribute::ChannelDataType;
  if (m == "channel_order") return Attribute::ChannelOrder;
  if (m == "array_size") return Attribute::ArraySize;
  if (surface) {
    if (m == "memory_layout") return Attribute::MemoryLayout;
    return std::nullopt;
  }
  if (m == "normalized_coords") return Attribute::NormalizedCoords;
  if (m == "filter_mode") return Attribute::FilterMode;
  if (m == "addr_mode_0") return Attribute::AddrMode0;
  if (m == "addr_mode_1") return Attribute::AddrMode1;
  if (m == "addr_mode_2") return Attribute::AddrMode2;
  return std::nullopt;
}

uint32_t channel_data_type(const TextureDescriptor& d) {
  const uint32_t size_step = d.channel_bits == 8 ? 0 : d.channel_bits == 16 ? 1 : 2;
  if (d.channel_kind == ChannelKind::Float) return d.channel_bits == 16 ? 0x10DDu : 0x10DEu;
  if (d.read_mode == ReadMode::NormalizedFloat && d.channel_bits < 32)  // CL_[SU]NORM_INT{8,16}
    return (d.channel_kind == ChannelKind::Signed ? 0x10D0u : 0x10D2u) + size_step;
  return (d.channel_kind == ChannelKind::Signed ? 0x10D7u : 0x10DAu) + size_step;  // CL_[UN]SIGNED_INT*
}

uint32_t channel_order(const TextureDescriptor& d) {
  return d.channels == 1 ? 0x10B0u : d.channels == 2 ? 0x10B2u : 0x10B5u;  // CL_R, CL_RG, CL_RGBA
}

uint32_t attribute_value(const TextureDescriptor& d, Attribute a) {
  switch (a) {
    case Attribute::Width: return d.width;
    case Attribute::Height: return d.height;
    case Attribute::Depth: return d.depth;
    case Attribute::ChannelDataType: return channel_data_type(d);
    case Attribute::ChannelOrder: return channel_order(d);
    case Attribute::NormalizedCoords: return d.normalized_coords;
    case Attribute::FilterMode: return static_cast<uint32_t>(d.filter);
    case Attribute::AddrMode0: return static_cast<uint32_t>(d.address_mode[0]);
    case Attribute::AddrMode1: return static_cast<uint32_t>(d.address_mode[1]);
    case Attribute::AddrMode2: return static_cast<uint32_t>(d.address_mode[2]);
    // A layered cubemap counts cubes, six faces each.
    case Attribute::ArraySize: return d.layered ? (d.cubemap ? d.layers / 6 : d.layers) : 0;
    case Attribute::MemoryLayout: return 0;  // CUDA arrays are block linear (opaque) layouts
  }
  return 0;
}

// d[0] result, s[0] handle, aux attribute, aux2 1 for a surface.
void query_h(const ExecInst& in, Warp& w) {
  const uint64_t* handle = w.r(in.s[0]);
  uint64_t* dst = w.r(in.d[0]);
  for_each_lane(w.exec, [&](uint32_t lane) {
    const TextureDescriptor d = read_descriptor(w, handle[lane], lane, in.aux2 != 0);
    dst[lane] = attribute_value(d, static_cast<Attribute>(in.aux));
  });
}

std::optional<ExecInst> bind_query(const ir::Instruction& inst, BindContext& ctx, bool surface) {
  const auto& m = inst.modifiers;
  if (m.size() != 2 || (m[1] != "b32" && m[1] != "u32" && m[1] != "s32")) return std::nullopt;
  const auto attribute = parse_attribute(m[0], surface);
  if (!attribute) return std::nullopt;
  ctx.expect_operands(inst, 2);
  const ir::Operand& addr = inst.operands[1];
  if (addr.kind != ir::Operand::Kind::Address || !addr.base_is_reg || addr.offset != 0)
    ctx.error(addr, fmt::format("'{}' expects [handle] with the handle in a register", inst.form()));
  ExecInst e = make_exec(inst, &query_h);
  bind_register_list(inst, 0, 1, true, ctx, e.d);
  e.nd = 1;
  e.s[0] = addr.index;
  e.ns = 1;
  e.aux = static_cast<uint64_t>(*attribute);
  e.aux2 = surface ? 1 : 0;
  return e;
}

}  // namespace

std::optional<ExecInst> bind_txq(const ir::Instruction& inst, BindContext& ctx) {
  return bind_query(inst, ctx, false);
}

std::optional<ExecInst> bind_suq(const ir::Instruction& inst, BindContext& ctx) {
  return bind_query(inst, ctx, true);
}

}  // namespace lockstep::func::texture
