// A program on the CUDA driver API, as vectorAddDrv and NVRTC's samples are written: device and
// context set-up, a kernel compiled to PTX by NVRTC and loaded with cuModuleLoadDataEx, launched
// with cuLaunchKernel both through kernelParams and through a packed `extra` buffer, a module
// variable found by cuModuleGetGlobal, cuMemsetD32, events, error names, and an entry point found
// through cuGetProcAddress; an entry point the stand-in lacks. Results are checked against a CPU
// reference.
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda.h>
#include <nvrtc.h>

const char* kSource = R"(
__device__ unsigned launches;
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
  if (i == 0) atomicAdd(&launches, 1u);
}
)";

const char* name(CUresult r) {
  const char* s = nullptr;
  cuGetErrorName(r, &s);
  return s != nullptr ? s : "?";
}

int main() {
  const CUresult init = cuInit(0);
  int count = 0, version = 0, major = 0, minor = 0, sms = 0;
  cuDeviceGetCount(&count);
  cuDriverGetVersion(&version);
  CUdevice device;
  cuDeviceGet(&device, 0);
  const CUresult no_device = cuDeviceGet(&device, 1);
  cuDeviceGet(&device, 0);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  cuDeviceComputeCapability(&major, &minor, device);  // deprecated, still in use
#pragma GCC diagnostic pop
  cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
  char device_name[256];
  cuDeviceGetName(device_name, sizeof device_name, device);
  size_t memory = 0;
  cuDeviceTotalMem(&memory, device);
  std::printf("init %s, %d device, driver %d, sm_%d%d, %d SMs, named: %s, memory: %s; device 1: %s\n", name(init),
              count, version >= 13000 ? 13000 : version, major, minor, sms, device_name[0] != 0 ? "yes" : "no",
              memory > 0 ? "yes" : "no", name(no_device));

  CUcontext context = nullptr, current = nullptr;
  const CUresult created = cuCtxCreate(&context, nullptr, 0, device);
  cuCtxGetCurrent(&current);
  std::printf("context %s, current is it: %s\n", name(created), current == context ? "yes" : "no");

  nvrtcProgram program;
  nvrtcCreateProgram(&program, kSource, "axpy.cu", 0, nullptr, nullptr);
  const char* options[] = {"--gpu-architecture=compute_80"};
  nvrtcCompileProgram(program, 1, options);
  size_t ptx_size = 0;
  nvrtcGetPTXSize(program, &ptx_size);
  std::vector<char> ptx(ptx_size);
  nvrtcGetPTX(program, ptx.data());
  nvrtcDestroyProgram(&program);

  CUmodule module;
  const CUresult loaded = cuModuleLoadDataEx(&module, ptx.data(), 0, nullptr, nullptr);
  CUfunction axpy, missing;
  const CUresult found = cuModuleGetFunction(&axpy, module, "axpy");
  const CUresult not_found = cuModuleGetFunction(&missing, module, "saxpy");
  int threads = 0;
  cuFuncGetAttribute(&threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, axpy);
  std::printf("module %s, axpy %s (max threads %d), saxpy %s\n", name(loaded), name(found), threads, name(not_found));

  constexpr int kN = 1000;
  std::vector<float> hx(kN), hy(kN);
  for (int i = 0; i < kN; ++i) hx[i] = static_cast<float>(i);
  CUdeviceptr x, y;
  cuMemAlloc(&x, kN * sizeof(float));
  cuMemAlloc(&y, kN * sizeof(float));
  cuMemcpyHtoD(x, hx.data(), kN * sizeof(float));
  const float one = 1.0f;
  unsigned one_bits;
  std::memcpy(&one_bits, &one, sizeof one);
  cuMemsetD32(y, one_bits, kN);

  CUevent start, stop;
  cuEventCreate(&start, CU_EVENT_DEFAULT);
  cuEventCreate(&stop, CU_EVENT_DEFAULT);
  cuEventRecord(start, nullptr);
  float a = 2.0f;
  int n = kN;
  void* params[] = {&a, &x, &y, &n};
  const CUresult first = cuLaunchKernel(axpy, (kN + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr);
  // The same launch with its arguments packed as the kernel lays them out: a at 0, x at 8, y at 16, n at 24.
  alignas(8) char packed[28] = {};
  std::memcpy(packed, &a, sizeof a);
  std::memcpy(packed + 8, &x, sizeof x);
  std::memcpy(packed + 16, &y, sizeof y);
  std::memcpy(packed + 24, &n, sizeof n);
  size_t packed_size = sizeof packed;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                   CU_LAUNCH_PARAM_END};
  const CUresult second = cuLaunchKernel(axpy, (kN + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, nullptr, extra);
  cuEventRecord(stop, nullptr);
  cuEventSynchronize(stop);
  float ms = -1.0f;
  const CUresult timed = cuEventElapsedTime(&ms, start, stop);
  cuCtxSynchronize();
  cuMemcpyDtoH(hy.data(), y, kN * sizeof(float));
  int wrong = 0;
  for (int i = 0; i < kN; ++i)
    if (hy[i] != 4.0f * static_cast<float>(i) + 1.0f) ++wrong;
  CUdeviceptr launches_at;
  size_t launches_bytes = 0;
  const CUresult global = cuModuleGetGlobal(&launches_at, &launches_bytes, module, "launches");
  unsigned launches = 0;
  cuMemcpyDtoH(&launches, launches_at, sizeof launches);
  std::printf("launches %s %s, %d mismatches; global %s (%zu bytes): %u launches; events %s, %s\n", name(first),
              name(second), wrong, name(global), launches_bytes, launches, name(timed),
              ms > 0.0f ? "time passed" : "no time");

  void* entry = nullptr;
  CUdriverProcAddressQueryResult query;
  const CUresult proc = cuGetProcAddress("cuMemAlloc", &entry, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &query);
  void* nothing = nullptr;
  const CUresult no_proc = cuGetProcAddress("cuNoSuchThing", &nothing, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &query);
  std::printf("cuGetProcAddress: cuMemAlloc %s (%s), cuNoSuchThing %s (status %d)\n", name(proc),
              entry == reinterpret_cast<void*>(&cuMemAlloc) ? "cuMemAlloc_v2" : "other", name(no_proc),
              static_cast<int>(query));
  const char* text = nullptr;
  cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &text);
  CUipcMemHandle handle;
  const CUresult ipc = cuIpcGetMemHandle(&handle, x);  // not in the stand-in: it says so by name
  std::printf("CUDA_ERROR_INVALID_VALUE: %s; cuIpcGetMemHandle: %s\n", text, name(ipc));

  cuEventDestroy(start);
  cuEventDestroy(stop);
  cuMemFree(x);
  cuMemFree(y);
  cuModuleUnload(module);
  cuCtxDestroy(context);
  const bool ok = wrong == 0 && launches == 2;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
