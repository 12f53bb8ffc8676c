// The registry of divergence units (sm.divergence): one entry per unit, each defined in its own
// file of this folder (<name>.cpp). Adding a unit is that file plus its line below. Same shape as
// the other policy kinds (policy/policy_registry.h).
#include <array>
#include <stdexcept>
#include <string>

#include "func/divergence/divergence_unit.h"

namespace lockstep::func {

// Defined in the unit files; constant-initialised, so reading them here needs no ordering.
extern const DivergenceUnitInfo kIpdomStackDivergence;
extern const DivergenceUnitInfo kBranchBarrierDivergence;
extern const DivergenceUnitInfo kThreadFrontierDivergence;
extern const DivergenceUnitInfo kDwfDivergence;
extern const DivergenceUnitInfo kTbcDivergence;
extern const DivergenceUnitInfo kLargeWarpDivergence;
extern const DivergenceUnitInfo kSbiDivergence;
extern const DivergenceUnitInfo kSwiDivergence;

std::span<const DivergenceUnitInfo> divergence_units() {
  // Per-warp units first, then the block-level ones (func/divergence/warp_formation.h, CtaRunner),
  // which run on the per-warp units' constructors. Built once from the constant entries, never
  // changed (the order error messages and `lockstep config` list them in).
  static const std::array kTable{
      kIpdomStackDivergence, kBranchBarrierDivergence, kThreadFrontierDivergence, kDwfDivergence,
      kTbcDivergence,        kLargeWarpDivergence,     kSbiDivergence,            kSwiDivergence,
  };
  return kTable;
}

const std::vector<std::string>& divergence_unit_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const DivergenceUnitInfo& unit : divergence_units()) out.emplace_back(unit.name);
    return out;
  }();
  return names;
}

const DivergenceUnitInfo& divergence_unit(std::string_view name) {
  if (const DivergenceUnitInfo* unit = policy::find(divergence_units(), name)) return *unit;
  throw std::invalid_argument("unknown divergence unit '" + std::string(name) + "'; known: " +
                              policy::accepted(divergence_units()));
}

std::unique_ptr<DivergenceUnit> make_divergence_unit(const DivergenceOptions& options) {
  return divergence_unit(options.name).make(options);
}

}  // namespace lockstep::func
