// Code compiled while the program runs, as NVRTC users do: a kernel and a __device__ variable
// compiled to PTX by NVRTC, loaded with cudaLibraryLoadData, the kernel found by name and
// launched through its handle, the variable read through cudaLibraryGetGlobal; the kernels
// counted and enumerated; a name the library lacks, PTX that does not parse and an unloaded
// library refused with CUDA's errors. Results are checked against a CPU reference.
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>
#include <nvrtc.h>

const char* kSource = R"(
__device__ int calls;
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
  if (i == 0) atomicAdd(&calls, 1);
}
extern "C" __global__ void unused() {}
)";

const char* name(cudaError_t e) { return cudaGetErrorName(e); }

int main() {
  nvrtcProgram program;
  nvrtcCreateProgram(&program, kSource, "saxpy.cu", 0, nullptr, nullptr);
  const char* options[] = {"--gpu-architecture=compute_80"};
  const nvrtcResult compiled = nvrtcCompileProgram(program, 1, options);
  size_t ptx_size = 0;
  nvrtcGetPTXSize(program, &ptx_size);
  std::vector<char> ptx(ptx_size);
  nvrtcGetPTX(program, ptx.data());
  nvrtcDestroyProgram(&program);
  std::printf("nvrtc: %s\n", nvrtcGetErrorString(compiled));

  cudaLibrary_t library;
  const cudaError_t loaded = cudaLibraryLoadData(&library, ptx.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
  unsigned count = 0;
  cudaLibraryGetKernelCount(&count, library);
  cudaKernel_t kernels[2] = {};
  cudaLibraryEnumerateKernels(kernels, 2, library);
  cudaKernel_t saxpy = nullptr, missing = nullptr;
  const cudaError_t found = cudaLibraryGetKernel(&saxpy, library, "saxpy");
  const cudaError_t not_found = cudaLibraryGetKernel(&missing, library, "axpy");
  const char* kernel_name = nullptr;
  cudaFuncGetName(&kernel_name, reinterpret_cast<const void*>(saxpy));
  std::printf("load: %s, %u kernels, saxpy %s (%s, among them: %s), axpy %s\n", name(loaded), count, name(found),
              kernel_name, saxpy == kernels[0] || saxpy == kernels[1] ? "yes" : "no", name(not_found));

  constexpr int kN = 1000;
  float hx[kN], hy[kN];
  for (int i = 0; i < kN; ++i) {
    hx[i] = static_cast<float>(i);
    hy[i] = 1.0f;
  }
  float *x = nullptr, *y = nullptr;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hy);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
  float a = 3.0f;
  int n = kN;
  void* args[] = {&a, &x, &y, &n};
  const cudaError_t launched =
      cudaLaunchKernel(reinterpret_cast<const void*>(saxpy), dim3((kN + 127) / 128), dim3(128), args, 0, 0);
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < kN; ++i)
    if (hy[i] != 3.0f * static_cast<float>(i) + 1.0f) ++wrong;
  int* calls = nullptr;
  size_t bytes = 0;
  const cudaError_t global = cudaLibraryGetGlobal(reinterpret_cast<void**>(&calls), &bytes, library, "calls");
  int host_calls = 0;
  cudaMemcpy(&host_calls, calls, sizeof host_calls, cudaMemcpyDefault);
  std::printf("launch: %s, %d mismatches; global %s, %zu bytes, calls %d\n", name(launched), wrong, name(global), bytes,
              host_calls);

  cudaLibrary_t bad;
  const char* garbage = ".version 8.0\n.target sm_80\n.address_size 64\n.entry broken( {\n";
  const cudaError_t bad_ptx = cudaLibraryLoadData(&bad, garbage, nullptr, nullptr, 0, nullptr, nullptr, 0);
  const cudaError_t unloaded = cudaLibraryUnload(library);
  const cudaError_t after = cudaLibraryGetKernel(&missing, library, "saxpy");
  std::printf("bad PTX: %s; unload %s, then %s\n", name(bad_ptx), name(unloaded), name(after));
  cudaGetLastError();
  const bool ok = wrong == 0 && host_calls == 1;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
