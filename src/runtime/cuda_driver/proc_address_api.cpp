// cuGetProcAddress: how libraries built on the driver API (cuBLAS, and programs that avoid
// linking libcuda) find its functions. A name is looked up among this library's exports, newest
// ABI version first (cuMemAlloc is cuMemAlloc_v2): an entry point the stand-in lacks still
// resolves, to its stub, which says by name that it is not supported when it is called.
#include <dlfcn.h>

#include <string>

#include "cuda_driver/driver_status.h"

namespace {

// This library, as dlsym sees it.
void* self() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuInit), &info) == 0 || info.dli_fname == nullptr) return nullptr;
  return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
}

}  // namespace

extern "C" CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int /*cudaVersion*/, cuuint64_t /*flags*/,
                                        CUdriverProcAddressQueryResult* symbolStatus) {
  if (symbol == nullptr || pfn == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *pfn = nullptr;
  void* library = self();
  for (const char* suffix : {"_v4", "_v3", "_v2", ""}) {
    if (library == nullptr) break;
    *pfn = dlsym(library, (std::string(symbol) + suffix).c_str());
    if (*pfn != nullptr) break;
  }
  if (library != nullptr) dlclose(library);
  if (symbolStatus != nullptr)
    *symbolStatus = *pfn != nullptr ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return *pfn != nullptr ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

// The driver's private interface between NVIDIA's own libraries and the driver (NVRTC asks for it
// and does without; cuBLAS does not): refused, saying who needs it.
extern "C" int __lockstep_driver_unsupported(const char* function) noexcept;

extern "C" CUresult cuGetExportTable(const void** ppExportTable, const CUuuid* /*pExportTableId*/) {
  if (ppExportTable != nullptr) *ppExportTable = nullptr;
  return static_cast<CUresult>(__lockstep_driver_unsupported(
      "cuGetExportTable (the driver's private interface for NVIDIA's libraries, such as cuBLAS)"));
}
