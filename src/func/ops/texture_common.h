#pragma once
// Shared parts of the texture and surface family: the geometries, reading an object's
// descriptor through the warp's memory, and decoding one texel's channels.
#include <cstdint>
#include <optional>
#include <string_view>

#include "func/bind.h"
#include "func/texture_descriptor.h"
#include "func/warp.h"

namespace lockstep::func::texture {

// .1d .2d .3d .a1d .a2d .cube .acube
enum class Geometry : uint8_t { D1, D2, D3, A1D, A2D, Cube, ACube };

std::optional<Geometry> parse_geometry(std::string_view m);
// Spatial coordinates (1, 2 or 3; a cubemap's direction vector has 3), and whether the first
// coordinate is a layer index.
uint32_t spatial_dims(Geometry g);
bool is_layered(Geometry g);
// .cube and .acube: the coordinates are a direction that picks a face (texture_cubemap.h).
bool is_cubemap(Geometry g);
// Elements of the coordinate vector as PTX writes it: 1d {x}, 2d {x, y}, 3d {x, y, z, _},
// a1d {layer, x}, a2d {layer, x, y, _}, cube {x, y, z, _}, acube {layer, x, y, z}.
uint32_t coordinate_count(Geometry g);

// The descriptor a texture (surface == false) or surface handle points at. A handle that is
// not the address of one faults: "out-of-bounds access" in space "texture" / "surface".
TextureDescriptor read_descriptor(Warp& w, uint64_t handle, uint32_t lane, bool surface);

// A texel's channels: integers sign- or zero-extended per the channel kind, floats (f16
// widened) as f32 bits. Channels past the texture's count are absent (count says how many).
struct Texel {
  uint32_t bits[4] = {0, 0, 0, 0};
  uint32_t count = 0;
};
Texel decode_texel(const TextureDescriptor& d, const uint8_t* p);

// Host pointer of element (x, y, z) of `layer`, all in range, read through w.global.
const uint8_t* element_pointer(Warp& w, const TextureDescriptor& d, uint32_t x, uint32_t y,
                               uint32_t z, uint32_t layer, uint32_t size, uint32_t lane);

// The coordinate slots of operand `index` (an Address [handle, {coords}]): handle slot first,
// then coordinate_count(g) coordinate slots into e.s[1..]. Errors name the form.
void bind_handle_and_coordinates(const ir::Instruction& inst, size_t index, Geometry g,
                                 BindContext& ctx, ExecInst& e);

// The destination or source register list at operand `index`: one register (with or without
// braces) when n == 1, else a vector of exactly n; slots go to out[0..n-1].
void bind_register_list(const ir::Instruction& inst, size_t index, uint32_t n, bool sink_ok,
                        BindContext& ctx, uint32_t* out);

}  // namespace lockstep::func::texture
