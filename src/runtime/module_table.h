#pragma once
// The registration tables of the drop-in runtime: fat binaries registered by a program's
// static constructors, the kernels (host stub -> name) and variables (host shadow -> name)
// inside them. Device code is parsed lazily, at the first use of a fat binary, because
// registration runs before main and most programs use only part of what they carry.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/engine.h"
#include "runtime/fatbin.h"
#include "runtime/kernel_resources.h"

namespace lockstep::runtime {

struct KernelRecord {
  uint32_t fatbin = 0;   // index into the fat binary list
  std::string name;      // mangled kernel name
};

struct VariableRecord {
  uint32_t fatbin = 0;
  std::string name;      // PTX-level name
  uint64_t size = 0;
  bool constant = false;
  uint64_t managed_address = 0;  // a __managed__ variable: where the runtime placed it, else 0
};

// A module ready for use, or why it could not be loaded.
struct ModuleLookup {
  std::optional<ModuleId> module;
  std::string error;     // set when module is empty; printed once by the caller
  bool no_ptx = false;   // the fat binary carries only SASS
  std::string note;      // set by the call that loaded the module when the caller should say something
};

class ModuleTable {
 public:
  // `sm` selects the PTX entry (highest PTX target <= sm).
  explicit ModuleTable(uint32_t sm) : sm_(sm) {}

  // Returns the handle handed back to the program (stable until the table dies).
  void** add_fatbin(const void* wrapper);
  // A module the program hands over at run time (cudaLibraryLoadData, the driver API's
  // cuModuleLoadData): the entries of a fat binary image, or one PTX entry. It loads as a
  // registered fat binary does, at its first use. Returns its handle, as add_fatbin does.
  void** add_image(std::vector<FatbinEntry> entries);
  // The fat binary index of a handle, or nullopt for an unknown one.
  std::optional<uint32_t> fatbin_index(void** handle) const;
  void add_kernel(void** handle, const void* host_fun, const char* name);
  void add_variable(void** handle, const void* host_var, const char* name, uint64_t size, bool constant);
  // A __managed__ variable already placed at `address` (managed memory): known by the program's
  // pointer to it and by the address itself (the symbol a host program passes), and placed
  // there when its module loads. False for an unknown handle.
  bool add_managed_variable(void** handle, void** host_pointer, const char* name, uint64_t size, uint64_t address);

  const KernelRecord* kernel(const void* host_fun) const;
  const VariableRecord* variable(const void* host_var) const;
  const std::unordered_map<const void*, VariableRecord>& variables() const { return variables_; }

  // Loads the fat binary's PTX into `engine` at its first use; later calls return the
  // same module or the same error (with `first_failure` true only the first time).
  ModuleLookup load(uint32_t fatbin, Engine& engine, bool& first_failure);
  // The sm target of the PTX entry a loaded fat binary was built from (80 for compute_80);
  // 0 before a successful load. cudaFuncGetAttributes reports it as ptxVersion, which CUB
  // matches against the architectures it was compiled for.
  uint32_t ptx_arch(uint32_t fatbin) const { return fatbins_.at(fatbin)->ptx_arch; }
  // A kernel's real registers per thread and static shared memory, worked out when its fat
  // binary loaded: from the cubin for exactly the modelled GPU's sm when the fat binary has
  // one, else from ptxas run once on the selected PTX (sm >= 75 only). nullopt before the fat
  // binary loads, for an unknown fat binary or kernel, or when neither source was available:
  // the caller then estimates.
  std::optional<KernelResources> kernel_resources(uint32_t fatbin, const std::string& kernel) const;

 private:
  struct Fatbin {
    void* handle_slot = nullptr;  // its address is the handle; holds the wrapper pointer
    std::optional<std::vector<FatbinEntry>> image;  // add_image's entries (no wrapper)
    std::optional<ModuleId> module;
    uint32_t ptx_arch = 0;
    std::optional<ModuleLookup> failure;
    std::map<std::string, KernelResources> resources;  // by mangled kernel name; set at load
  };
  // What load() stores in Fatbin::resources (an empty map when there is no exact source).
  // `ptx` is the selected PTX of each unit, built for `ptx_sm`; `relocatable` when the units
  // were compiled separately (-rdc=true).
  std::map<std::string, KernelResources> find_resources(const std::vector<FatbinEntry>& entries,
                                                        const std::vector<PtxSource>& ptx, uint32_t ptx_sm,
                                                        bool relocatable) const;
  uint32_t sm_;
  std::vector<std::unique_ptr<Fatbin>> fatbins_;
  std::unordered_map<const void*, KernelRecord> kernels_;
  std::unordered_map<const void*, VariableRecord> variables_;
};

}  // namespace lockstep::runtime
