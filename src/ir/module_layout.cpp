#include "ir/module_layout.h"

#include <algorithm>

#include "ir/types.h"

namespace lockstep::ir {

uint64_t variable_size(const ptx::VariableDecl& decl) {
  uint64_t size = uint64_t{type_size(decl.type)} * decl.vector_width;
  uint64_t unsized_elements = 0;
  for (uint64_t d : decl.dims) {
    if (d == 0) {
      unsized_elements = 1;  // resolved from the initializer below
      continue;
    }
    size *= d;
  }
  if (unsized_elements != 0) {
    // An unsized array takes its length from its initializer (none: zero bytes, .extern).
    const uint64_t element = uint64_t{type_size(decl.type)} * decl.vector_width;
    return decl.has_init ? element * decl.init.size() : 0;
  }
  return size;
}

uint32_t variable_align(const ptx::VariableDecl& decl) {
  if (decl.align != 0) return decl.align;
  return std::max<uint32_t>(1, type_size(decl.type) * decl.vector_width);
}

GlobalVar make_global(const ptx::VariableDecl& decl, const std::string& file) {
  GlobalVar g;
  g.name = decl.name;
  g.space = decl.space;
  g.size = variable_size(decl);
  g.align = variable_align(decl);
  g.is_extern = decl.linkage == "extern";
  if (!decl.has_init) return g;
  const uint32_t element = type_size(decl.type);
  const uint64_t count = decl.init.size();
  if (element == 0 || count * element > g.size)
    throw ptx::Error(file, decl.loc, "initializer of '" + decl.name + "' has too many elements");
  g.init.assign(g.size, 0);
  for (uint64_t i = 0; i < count; ++i) {
    const ptx::Initializer& in = decl.init[i];
    const uint64_t at = i * element;
    if (in.kind == ptx::Initializer::Kind::SymbolAddress) {
      if (element < 4)
        throw ptx::Error(file, in.loc, "address initializer needs a 32- or 64-bit element");
      g.relocs.push_back({at, in.symbol, in.offset, in.generic});
      continue;
    }
    uint64_t bits = in.bits;
    for (uint32_t b = 0; b < element && b < 8; ++b) g.init[at + b] = static_cast<uint8_t>(bits >> (8 * b));
  }
  return g;
}

}  // namespace lockstep::ir
