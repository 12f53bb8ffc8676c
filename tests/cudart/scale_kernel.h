#pragma once
// The scale kernel of the committed fat binary, registered as nvcc's start-up code registers
// it, for tests that launch through the C entry points: scale(float* x, float a, int n):
// x[i] = x[i] * a + c_tab[i & 3], c_tab = {1, 2, 3, 4} (tests/runtime/data/scale.cu).
#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

#include "runtime/fatbin_test_data.h"

extern "C" {
void** __cudaRegisterFatBinary(void* fatCubin);
void __cudaRegisterFatBinaryEnd(void** fatCubinHandle);
void __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun, const char* deviceName,
                            int thread_limit, uint3* tid, uint3* bid, dim3* bDim, dim3* gDim, int* wSize);
}

namespace lockstep::test {

// Stands for the kernel's host stub: only its address matters.
inline const char kScaleStub = 0;

// What scale leaves in x[i] for input x and factor a.
inline float scaled(float x, float a, int i) { return x * a + static_cast<float>(i % 4 + 1); }

// Registers the scale kernel once for the whole test program, as static constructors would.
inline void register_scale() {
  struct Wrapper {  // __fatBinC_Wrapper_t
    int magic = 0x466243b1;
    int version = 1;
    const void* data = nullptr;
    void* unused = nullptr;
  };
  static const std::vector<uint8_t> image = read_data_file("ptx80_ptx90.fatbin");
  static Wrapper wrapper;
  static const bool done = [] {
    wrapper.data = image.data();
    void** handle = __cudaRegisterFatBinary(&wrapper);
    char name[] = "_Z5scalePffi";
    __cudaRegisterFunction(handle, &kScaleStub, name, name, -1, nullptr, nullptr, nullptr, nullptr, nullptr);
    __cudaRegisterFatBinaryEnd(handle);
    return true;
  }();
  (void)done;
}

}  // namespace lockstep::test
