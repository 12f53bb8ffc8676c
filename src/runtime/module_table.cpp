#include "runtime/module_table.h"

#include <algorithm>
#include <exception>
#include <set>

#include "fmt/format.h"
#include "runtime/fatbin.h"

namespace lockstep::runtime {

void** ModuleTable::add_fatbin(const void* wrapper) {
  auto f = std::make_unique<Fatbin>();
  f->handle_slot = const_cast<void*>(wrapper);
  void** handle = &f->handle_slot;
  fatbins_.push_back(std::move(f));
  return handle;
}

void** ModuleTable::add_image(std::vector<FatbinEntry> entries) {
  auto f = std::make_unique<Fatbin>();
  f->image = std::move(entries);
  void** handle = &f->handle_slot;
  fatbins_.push_back(std::move(f));
  return handle;
}

std::optional<uint32_t> ModuleTable::fatbin_index(void** handle) const {
  for (size_t i = 0; i < fatbins_.size(); ++i)
    if (&fatbins_[i]->handle_slot == handle) return static_cast<uint32_t>(i);
  return std::nullopt;
}

void ModuleTable::add_kernel(void** handle, const void* host_fun, const char* name) {
  std::optional<uint32_t> index = fatbin_index(handle);
  if (!index || name == nullptr) return;
  kernels_[host_fun] = KernelRecord{*index, name};
}

void ModuleTable::add_variable(void** handle, const void* host_var, const char* name, uint64_t size,
                               bool constant) {
  std::optional<uint32_t> index = fatbin_index(handle);
  if (!index || name == nullptr) return;
  variables_[host_var] = VariableRecord{*index, name, size, constant};
}

bool ModuleTable::add_managed_variable(void** handle, void** host_pointer, const char* name, uint64_t size,
                                       uint64_t address) {
  std::optional<uint32_t> index = fatbin_index(handle);
  if (!index || name == nullptr) return false;
  const VariableRecord record{*index, name, size, false, address};
  variables_[host_pointer] = record;
  variables_[reinterpret_cast<const void*>(address)] = record;
  return true;
}

const KernelRecord* ModuleTable::kernel(const void* host_fun) const {
  auto it = kernels_.find(host_fun);
  return it == kernels_.end() ? nullptr : &it->second;
}

const VariableRecord* ModuleTable::variable(const void* host_var) const {
  auto it = variables_.find(host_var);
  return it == variables_.end() ? nullptr : &it->second;
}

namespace {

std::string sass_targets(const std::vector<FatbinEntry>& entries) {
  std::set<uint32_t> sms;
  for (const FatbinEntry& e : entries)
    if (e.kind == FatbinEntry::Kind::Elf) sms.insert(e.sm);
  std::string list;
  for (uint32_t sm : sms) list += (list.empty() ? "sm_" : ", sm_") + std::to_string(sm);
  return list.empty() ? "no code" : "only SASS for " + list;
}

}  // namespace

namespace {

// The newest PTX target the modelled GPU could JIT among `targets` (ascending); failing that
// (nvcc 13 cannot target anything older than sm_75, so a v100 or fermi preset meets only newer
// PTX), the oldest there is, with a note: a simulator user asking for an older GPU wants the
// program to run on it. 0 when there is no PTX.
uint32_t choose_ptx_target(const std::vector<uint32_t>& targets, uint32_t sm, std::string& note) {
  uint32_t chosen = 0;
  for (uint32_t target : targets)
    if (target <= sm) chosen = target;  // ascending: ends at the newest that fits
  if (chosen == 0 && !targets.empty()) {
    chosen = targets.front();
    note = fmt::format(
        "the program's PTX targets compute_{} and newer, beyond the simulated GPU's compute capability "
        "{}.{}; running the compute_{} PTX on it anyway (a real GPU of this kind would refuse it)",
        chosen, sm / 10, sm % 10, chosen);
  }
  return chosen;
}

std::string no_ptx_message(const std::vector<FatbinEntry>& entries) {
  return fmt::format(
      "the program's device code has no PTX ({}); lockstep simulates PTX, so rebuild the program "
      "with -arch=sm_XX or add -gencode arch=compute_XX,code=compute_XX (for example -arch=sm_80)",
      sass_targets(entries));
}

}  // namespace

ModuleLookup ModuleTable::load(uint32_t fatbin, Engine& engine, bool& first_failure) {
  first_failure = false;
  Fatbin& f = *fatbins_.at(fatbin);
  if (f.module) return ModuleLookup{f.module, "", false, ""};
  if (f.failure) return *f.failure;
  ModuleLookup result;
  try {
    const std::vector<FatbinEntry> entries = f.image ? *f.image : read_fatbin_wrapper(f.handle_slot);
    // A program built with -rdc=true registers the device-link object, whose fat binary has only
    // the linked SASS; the PTX is in the fat binaries of the units it was linked from.
    const std::vector<std::vector<FatbinEntry>> units =
        f.image ? std::vector<std::vector<FatbinEntry>>{} : read_prelinked_fatbins(f.handle_slot);
    std::vector<uint32_t> targets;
    for (const std::vector<FatbinEntry>& unit : units)
      for (uint32_t t : ptx_targets(unit)) targets.push_back(t);
    if (units.empty()) targets = ptx_targets(entries);
    std::sort(targets.begin(), targets.end());
    const uint32_t chosen = choose_ptx_target(targets, sm_, result.note);

    std::vector<PtxSource> sources;
    if (units.empty()) {
      if (std::optional<std::string> ptx = select_ptx(entries, chosen))
        sources.push_back({std::move(*ptx), fmt::format("{}{}.ptx", f.image ? "loaded" : "fatbin", fatbin)});
    } else {
      // A unit without PTX (a device library shipped as SASS only) adds nothing; a kernel that
      // calls into it fails, naming the function, when it is launched.
      for (size_t u = 0; u < units.size(); ++u)
        if (std::optional<std::string> ptx = select_ptx(units[u], chosen))
          sources.push_back({std::move(*ptx), fmt::format("fatbin{}.unit{}.ptx", fatbin, u + 1)});
    }
    if (sources.empty()) {
      result.no_ptx = true;
      std::vector<FatbinEntry> all = entries;
      for (const std::vector<FatbinEntry>& unit : units) all.insert(all.end(), unit.begin(), unit.end());
      result.error = no_ptx_message(all);
    } else {
      // A kernel using an instruction lockstep cannot run yet must not keep the program's other
      // kernels from running: it fails when it is launched.
      LoadOptions options;
      options.defer_kernel_errors = true;
      for (const auto& [host, v] : variables_)
        if (v.fatbin == fatbin && v.managed_address != 0) options.placed_variables[v.name] = v.managed_address;
      result.module = units.empty() ? engine.load_ptx(sources.front().text, sources.front().filename, options)
                                    : engine.load_linked_ptx(sources, fmt::format("fatbin{}.ptx", fatbin), options);
      f.module = result.module;
      f.ptx_arch = chosen;
      f.resources = find_resources(entries, sources, chosen, !units.empty());
      return result;
    }
  } catch (const std::exception& e) {
    result.error = fmt::format("cannot load the program's device code: {}", e.what());
  }
  f.failure = result;
  first_failure = true;
  return result;
}

std::map<std::string, KernelResources> ModuleTable::find_resources(const std::vector<FatbinEntry>& entries,
                                                                   const std::vector<PtxSource>& ptx,
                                                                   uint32_t ptx_sm, bool relocatable) const {
  // SASS for another sm has other register counts (sm_80 and sm_90 differ), so only an exact
  // match will do. A damaged cubin is no reason to refuse a program that runs from PTX.
  for (const FatbinEntry& e : entries) {
    if (e.kind != FatbinEntry::Kind::Elf || e.sm != sm_) continue;
    try {
      return read_cubin_resources(e.payload);
    } catch (const std::runtime_error&) {
      break;
    }
  }
  // ptxas refuses PTX for a newer target than the one it compiles for: no use trying.
  std::map<std::string, KernelResources> resources;
  if (ptx_sm > sm_) return resources;
  for (const PtxSource& unit : ptx)
    if (std::optional<std::map<std::string, KernelResources>> from_ptxas = ptxas_resources(unit.text, sm_, relocatable))
      resources.merge(*from_ptxas);
  return resources;
}

std::optional<KernelResources> ModuleTable::kernel_resources(uint32_t fatbin, const std::string& kernel) const {
  if (fatbin >= fatbins_.size()) return std::nullopt;
  const std::map<std::string, KernelResources>& resources = fatbins_[fatbin]->resources;
  auto it = resources.find(kernel);
  if (it == resources.end()) return std::nullopt;
  return it->second;
}

}  // namespace lockstep::runtime
