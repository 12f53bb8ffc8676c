#pragma once
// The state space an instruction's modifiers name, normalised: each spelling of a space
// (shared, shared::cta, param::entry, const[2], ...) decodes to one enumerator, so every part of
// the simulator that asks "which memory" gets the same answer from one parser.
#include <cstdint>
#include <optional>
#include <string_view>

namespace lockstep::ir {

enum class MemorySpace : uint8_t {
  None,           // the instruction reaches no memory (add, cvta, bar, ...)
  Generic,        // an address in the generic window: global, or a shared/local window
  Global,         // .global
  Shared,         // .shared and .shared::cta: the executing CTA's shared memory
  SharedCluster,  // .shared::cluster: shared memory of any CTA of the cluster
  Local,          // .local
  Param,          // .param with no sub-qualifier (kernel or call-frame parameter, by symbol)
  KernelParam,    // .param::entry
  FuncParam,      // .param::func
  Const,          // .const and the constant banks .const[N]
  Texture,        // tex, tld4, txq: a texture through its sampler
  Surface,        // suld, sust, suq, sured: a surface
};

// The space a single modifier names ("shared::cta" -> Shared, "const[3]" -> Const); nullopt
// when the modifier is not a state space ("u32", "cta", "L2::cache_hint").
std::optional<MemorySpace> space_named(std::string_view modifier);

inline bool is_shared(MemorySpace s) { return s == MemorySpace::Shared || s == MemorySpace::SharedCluster; }
inline bool is_param(MemorySpace s) {
  return s == MemorySpace::Param || s == MemorySpace::KernelParam || s == MemorySpace::FuncParam;
}

// Spaces private to a thread or read-only for the launch (local, param, const): an access to
// one can neither see nor change what another warp does.
inline bool is_private(MemorySpace s) { return s == MemorySpace::Local || s == MemorySpace::Const || is_param(s); }

std::string_view space_name(MemorySpace s);

}  // namespace lockstep::ir
