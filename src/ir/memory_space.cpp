#include "ir/memory_space.h"

#include <array>
#include <utility>

namespace lockstep::ir {

std::optional<MemorySpace> space_named(std::string_view modifier) {
  static constexpr std::array<std::pair<std::string_view, MemorySpace>, 9> kSpellings{{
      {"global", MemorySpace::Global},
      {"shared", MemorySpace::Shared},
      {"shared::cta", MemorySpace::Shared},
      {"shared::cluster", MemorySpace::SharedCluster},
      {"local", MemorySpace::Local},
      {"param", MemorySpace::Param},
      {"param::entry", MemorySpace::KernelParam},
      {"param::func", MemorySpace::FuncParam},
      {"const", MemorySpace::Const},
  }};
  for (const auto& [spelling, space] : kSpellings)
    if (modifier == spelling) return space;
  // The constant banks of old PTX (ld.const[2]) are the constant space.
  if (modifier.starts_with("const[") && modifier.ends_with("]")) return MemorySpace::Const;
  return std::nullopt;
}

std::string_view space_name(MemorySpace s) {
  switch (s) {
    case MemorySpace::None: return "none";
    case MemorySpace::Generic: return "generic";
    case MemorySpace::Global: return "global";
    case MemorySpace::Shared: return "shared";
    case MemorySpace::SharedCluster: return "shared::cluster";
    case MemorySpace::Local: return "local";
    case MemorySpace::Param: return "param";
    case MemorySpace::KernelParam: return "param::entry";
    case MemorySpace::FuncParam: return "param::func";
    case MemorySpace::Const: return "const";
    case MemorySpace::Texture: return "texture";
    case MemorySpace::Surface: return "surface";
  }
  return "?";
}

}  // namespace lockstep::ir
