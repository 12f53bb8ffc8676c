// Runtime: code a program loads while it runs (cudaLibrary*, and through them the driver API's
// modules). The code goes into the module table as an image of its own and loads at once; each
// kernel is registered under a key the library owns, so its handle (the key's address) launches
// and answers queries exactly as a host stub does.
#include <fmt/format.h>

#include "runtime/fatbin.h"
#include "runtime/runtime.h"

namespace lockstep::runtime {

cudaError_t Runtime::load_library(const void* code, cudaLibrary_t& library) {
  std::vector<FatbinEntry> entries;
  try {
    entries = read_loaded_code(code);
  } catch (const FatbinError& e) {
    print(fmt::format("cannot load the code handed to cudaLibraryLoadData: {}", e.what()));
    return record(cudaErrorInvalidKernelImage);
  }
  const bool ptx = entries.size() == 1 && entries.front().kind == FatbinEntry::Kind::Ptx;
  auto lib = std::make_unique<CodeLibrary>();
  lib->image = modules_.add_image(std::move(entries));
  const std::optional<uint32_t> index = modules_.fatbin_index(lib->image);
  const std::optional<ModuleId> module = module_of(*index);
  if (!module) return record(ptx ? cudaErrorInvalidPtx : cudaErrorNoKernelImageForDevice);
  lib->module = *module;
  for (const std::string& name : engine_.kernels(*module)) {
    lib->kernel_keys.push_back(std::make_unique<char>());
    lib->kernel_names.push_back(name);
    modules_.add_kernel(lib->image, lib->kernel_keys.back().get(), name.c_str());
  }
  library = reinterpret_cast<cudaLibrary_t>(lib.get());
  libraries_.emplace(lib.get(), std::move(lib));
  return cudaSuccess;
}

// The library's kernels stay registered (a handle the program kept is then still a kernel, as
// a stale handle may be on a GPU); the library handle itself is gone.
cudaError_t Runtime::unload_library(cudaLibrary_t library) {
  auto it = libraries_.find(library);
  if (it == libraries_.end()) return record(cudaErrorInvalidResourceHandle);
  retired_libraries_.push_back(std::move(it->second));
  libraries_.erase(it);
  return cudaSuccess;
}

cudaError_t Runtime::library_kernel(cudaLibrary_t library, const char* name, cudaKernel_t& kernel) {
  auto it = libraries_.find(library);
  if (it == libraries_.end()) return record(cudaErrorInvalidResourceHandle);
  if (name == nullptr) return record(cudaErrorInvalidValue);
  const CodeLibrary& lib = *it->second;
  for (size_t i = 0; i < lib.kernel_names.size(); ++i) {
    if (lib.kernel_names[i] != name) continue;
    kernel = reinterpret_cast<cudaKernel_t>(lib.kernel_keys[i].get());
    return cudaSuccess;
  }
  return record(cudaErrorSymbolNotFound);
}

cudaError_t Runtime::library_kernels(cudaLibrary_t library, std::vector<cudaKernel_t>& kernels) {
  auto it = libraries_.find(library);
  if (it == libraries_.end()) return record(cudaErrorInvalidResourceHandle);
  kernels.clear();
  for (const std::unique_ptr<char>& key : it->second->kernel_keys)
    kernels.push_back(reinterpret_cast<cudaKernel_t>(key.get()));
  return cudaSuccess;
}

cudaError_t Runtime::library_global(cudaLibrary_t library, const char* name, void*& address, size_t& bytes) {
  auto it = libraries_.find(library);
  if (it == libraries_.end()) return record(cudaErrorInvalidResourceHandle);
  if (name == nullptr) return record(cudaErrorInvalidValue);
  try {
    const uint64_t at = engine_.symbol_address(it->second->module, name);
    bytes = engine_.symbol_size(it->second->module, name);
    device_ranges_.emplace(at, bytes);  // device memory to cudaMemcpyDefault
    address = reinterpret_cast<void*>(at);
    return cudaSuccess;
  } catch (const std::exception&) {
    return record(cudaErrorSymbolNotFound);
  }
}

}  // namespace lockstep::runtime
