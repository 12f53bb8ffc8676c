// Modules, functions and launches through the driver API stand-in. A module is a library the
// runtime loaded at run time (cudaLibraryLoadData: fat binaries, PTX from NVRTC or a file), so
// CUmodule is its cudaLibrary_t and CUfunction its kernel's handle, which the runtime launches
// and queries as it does a host stub.
#include <cstdint>
#include <vector>

#include "cuda_driver/driver_status.h"

using lockstep::driver::status;

namespace {

cudaLibrary_t library(CUmodule m) { return reinterpret_cast<cudaLibrary_t>(m); }
const void* kernel(CUfunction f) { return reinterpret_cast<const void*>(f); }

// Runtime::packed_arguments, exported by lockstep's libcudart for this library.
extern "C" cudaError_t __lockstep_packed_arguments(const void* func, void** extra, void** args, size_t capacity,
                                                   size_t* count) noexcept;

// The argument pointers of a launch given `extra` (CU_LAUNCH_PARAM_BUFFER_POINTER and _SIZE): one
// per parameter, into the packed buffer at the parameter's offset.
cudaError_t unpack_extra(CUfunction f, void** extra, std::vector<void*>& args) {
  size_t count = 0;
  if (cudaError_t e = __lockstep_packed_arguments(kernel(f), extra, nullptr, 0, &count); e != cudaSuccess) return e;
  args.resize(count);
  return __lockstep_packed_arguments(kernel(f), extra, args.data(), args.size(), &count);
}

}  // namespace

extern "C" CUresult cuModuleLoadData(CUmodule* module, const void* image) {
  if (module == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaLibrary_t lib = nullptr;
  const cudaError_t e = cudaLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
  *module = reinterpret_cast<CUmodule>(lib);
  return status(e);
}

// JIT options have nothing to change: PTX runs as it is, nothing is compiled.
extern "C" CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int /*numOptions*/,
                                       CUjit_option* /*options*/, void** /*optionValues*/) {
  return cuModuleLoadData(module, image);
}

extern "C" CUresult cuModuleLoadFatBinary(CUmodule* module, const void* fatCubin) {
  return cuModuleLoadData(module, fatCubin);
}

extern "C" CUresult cuModuleLoad(CUmodule* module, const char* fname) {
  if (module == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaLibrary_t lib = nullptr;
  const cudaError_t e = cudaLibraryLoadFromFile(&lib, fname, nullptr, nullptr, 0, nullptr, nullptr, 0);
  *module = reinterpret_cast<CUmodule>(lib);
  return status(e);
}

extern "C" CUresult cuModuleUnload(CUmodule hmod) { return status(cudaLibraryUnload(library(hmod))); }

extern "C" CUresult cuModuleGetFunction(CUfunction* hfunc, CUmodule hmod, const char* name) {
  if (hfunc == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaKernel_t k = nullptr;
  const cudaError_t e = cudaLibraryGetKernel(&k, library(hmod), name);
  *hfunc = reinterpret_cast<CUfunction>(k);
  return status(e);
}

extern "C" CUresult cuModuleGetGlobal_v2(CUdeviceptr* dptr, size_t* bytes, CUmodule hmod, const char* name) {
  void* address = nullptr;
  const cudaError_t e = cudaLibraryGetGlobal(&address, bytes, library(hmod), name);
  if (dptr != nullptr) *dptr = reinterpret_cast<CUdeviceptr>(address);
  return status(e);
}

extern "C" CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                   unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                   unsigned int sharedMemBytes, CUstream hStream, void** kernelParams, void** extra) {
  std::vector<void*> unpacked;
  if (kernelParams == nullptr && extra != nullptr) {
    if (cudaError_t e = unpack_extra(f, extra, unpacked); e != cudaSuccess) return status(e);
    kernelParams = unpacked.data();
  }
  return status(cudaLaunchKernel(kernel(f), dim3(gridDimX, gridDimY, gridDimZ), dim3(blockDimX, blockDimY, blockDimZ),
                                 kernelParams, sharedMemBytes, hStream));
}

extern "C" CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                              unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                              unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                              void** kernelParams) {
  return status(cudaLaunchCooperativeKernel(kernel(f), dim3(gridDimX, gridDimY, gridDimZ),
                                            dim3(blockDimX, blockDimY, blockDimZ), kernelParams, sharedMemBytes,
                                            hStream));
}

extern "C" CUresult cuFuncGetAttribute(int* pi, CUfunction_attribute attrib, CUfunction hfunc) {
  if (pi == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaFuncAttributes a{};
  if (cudaError_t e = cudaFuncGetAttributes(&a, kernel(hfunc)); e != cudaSuccess) return status(e);
  switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = a.maxThreadsPerBlock; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = static_cast<int>(a.sharedSizeBytes); break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = static_cast<int>(a.constSizeBytes); break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = static_cast<int>(a.localSizeBytes); break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = a.numRegs; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = a.ptxVersion; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = a.binaryVersion; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = a.cacheModeCA; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = a.maxDynamicSharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = a.preferredShmemCarveout; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

// CUfunction_attribute and cudaFuncAttribute number the settable attributes alike.
extern "C" CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
  return status(cudaFuncSetAttribute(kernel(hfunc), static_cast<cudaFuncAttribute>(attrib), value));
}

extern "C" CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) {
  return status(cudaFuncSetCacheConfig(kernel(hfunc), static_cast<cudaFuncCache>(config)));
}

extern "C" CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, CUfunction func, int blockSize,
                                                                size_t dynamicSMemSize) {
  return status(cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, kernel(func), blockSize, dynamicSMemSize));
}
