#pragma once
// The one shape every policy kind registers its implementations in (warp schedulers, scoreboards,
// CTA schedulers, divergence units, cache replacement): an immutable table of entries
// {name, description, parameters, factory}. Each implementation defines its entry in its own
// file; the kind's registry file lists the entries in one function-local constant table, so
// adding a policy is one file plus one line there, and nothing is registered by static
// initialisation. Config validation, `lockstep config`, the docs and the contract test
// (tests/sim/policy_contract_test.cpp) all read the same tables.
//
// Header only: the rooms that own the kinds (func, mem, sim) and the config room that reads them
// all include it, and none of them should link another just for a struct.
//
// Layering. A registry lives with its implementations, in a library below config: lockstep_func
// (divergence units; links ir, ptx), lockstep_mem (cache replacement; links no room) and
// lockstep_sim_policies (sim/warp_scheduler/, sim/scoreboard/, sim/cta_scheduler/; links no room).
// lockstep_config links those to read names and parameter declarations; lockstep_sim (which builds
// units from a GpuConfig) links config. Policies therefore never include a config/ header: they
// get their parameters through their kind's options struct, which the simulator fills from the
// GpuConfig (tests/config/policy_layering_test.cpp checks the includes). The alternative, a
// declaration half for config and a factory half for the simulator, would put each policy in two
// places; linking the policy libraries into config costs nothing at run time (static libraries).
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep::policy {

// A configuration key a policy reads. Integers only: every policy parameter so far is a count;
// a new type would be a new field here and a new builder in config/policy_options.cpp.
struct Param {
  std::string_view key;          // the full configuration key, e.g. "timing.fetch_group_size"
  int64_t default_value = 0;     // what the policy is built with when nothing else is said
  int64_t min = 0, max = 0;      // the legal values, inclusive
  std::string_view description;  // one line, as `lockstep config` and the docs show it
};

// What an entry says about its policy besides how to build it, for kinds whose users must know
// more than the name (divergence units: whether the block's warps issue together). Kinds that
// need nothing keep this empty struct.
struct NoTraits {};

template <class Factory, class Traits = NoTraits>
struct Entry {
  std::string_view name;         // what users select, e.g. "gto"
  std::string_view description;  // one line
  std::span<const Param> params;  // the keys only this policy (or its family) reads
  Factory make;
  // Set in the policy's own file with the rest of its entry, so that nothing else tests the name
  // to learn it.
  Traits traits = {};
};

// The entry called `name`, or nullptr.
template <class Factory, class Traits>
const Entry<Factory, Traits>* find(std::span<const Entry<Factory, Traits>> table, std::string_view name) {
  const auto it =
      std::find_if(table.begin(), table.end(), [&](const Entry<Factory, Traits>& e) { return e.name == name; });
  return it == table.end() ? nullptr : &*it;
}

// The names in table order, as error messages and the config key's accepted values list them.
template <class Factory, class Traits>
std::vector<std::string_view> names(std::span<const Entry<Factory, Traits>> table) {
  std::vector<std::string_view> out;
  for (const Entry<Factory, Traits>& e : table) out.push_back(e.name);
  return out;
}

// "a, b, c": the names for an "(accepted: ...)" message.
template <class Factory, class Traits>
std::string accepted(std::span<const Entry<Factory, Traits>> table) {
  std::string out;
  for (const Entry<Factory, Traits>& e : table) {
    if (!out.empty()) out += ", ";
    out += e.name;
  }
  return out;
}

// The parameter `key` of `entry`, or nullptr.
template <class Factory, class Traits>
const Param* find_param(const Entry<Factory, Traits>& entry, std::string_view key) {
  for (const Param& p : entry.params)
    if (p.key == key) return &p;
  return nullptr;
}

}  // namespace lockstep::policy
