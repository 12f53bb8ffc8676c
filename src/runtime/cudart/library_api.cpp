// Code loaded at run time (runtime_libraries.cpp): cubins are refused as SASS-only images, fat
// binaries and PTX (what NVRTC and nvJitLink produce) load at once. JIT and library options are
// accepted and have nothing to change: PTX is not compiled here, it runs as it is.
#include <fstream>
#include <iterator>
#include <string>

#include "cudart/process_runtime.h"

using lockstep::runtime::guarded;
using lockstep::runtime::process_runtime;

extern "C" cudaError_t cudaLibraryLoadData(cudaLibrary_t* library, const void* code, cudaJitOption* /*jitOptions*/,
                                           void** /*jitOptionsValues*/, unsigned int /*numJitOptions*/,
                                           cudaLibraryOption* /*libraryOptions*/, void** /*libraryOptionValues*/,
                                           unsigned int /*numLibraryOptions*/) {
  if (library == nullptr || code == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return guarded([&] { return process_runtime()->load_library(code, *library); });
}

extern "C" cudaError_t cudaLibraryLoadFromFile(cudaLibrary_t* library, const char* fileName,
                                               cudaJitOption* jitOptions, void** jitOptionsValues,
                                               unsigned int numJitOptions, cudaLibraryOption* libraryOptions,
                                               void** libraryOptionValues, unsigned int numLibraryOptions) {
  if (library == nullptr || fileName == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  std::ifstream in(fileName, std::ios::binary);
  if (!in) return process_runtime()->record(cudaErrorFileNotFound);
  std::string code((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  code.push_back('\0');  // PTX text must end; a binary image carries its own size
  return cudaLibraryLoadData(library, code.data(), jitOptions, jitOptionsValues, numJitOptions, libraryOptions,
                             libraryOptionValues, numLibraryOptions);
}

extern "C" cudaError_t cudaLibraryUnload(cudaLibrary_t library) {
  return guarded([&] { return process_runtime()->unload_library(library); });
}

extern "C" cudaError_t cudaLibraryGetKernel(cudaKernel_t* pKernel, cudaLibrary_t library, const char* name) {
  if (pKernel == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return guarded([&] { return process_runtime()->library_kernel(library, name, *pKernel); });
}

extern "C" cudaError_t cudaLibraryGetKernelCount(unsigned int* count, cudaLibrary_t lib) {
  if (count == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return guarded([&] {
    std::vector<cudaKernel_t> kernels;
    const cudaError_t e = process_runtime()->library_kernels(lib, kernels);
    if (e == cudaSuccess) *count = static_cast<unsigned>(kernels.size());
    return e;
  });
}

extern "C" cudaError_t cudaLibraryEnumerateKernels(cudaKernel_t* kernels, unsigned int numKernels, cudaLibrary_t lib) {
  if (kernels == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return guarded([&] {
    std::vector<cudaKernel_t> all;
    const cudaError_t e = process_runtime()->library_kernels(lib, all);
    for (size_t i = 0; e == cudaSuccess && i < all.size() && i < numKernels; ++i) kernels[i] = all[i];
    return e;
  });
}

extern "C" cudaError_t cudaLibraryGetGlobal(void** dptr, size_t* bytes, cudaLibrary_t library, const char* name) {
  if (dptr == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return guarded([&] {
    size_t size = 0;
    const cudaError_t e = process_runtime()->library_global(library, name, *dptr, size);
    if (e == cudaSuccess && bytes != nullptr) *bytes = size;
    return e;
  });
}
