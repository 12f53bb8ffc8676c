// The device runtime beyond launches, as dynamic-parallelism programs use it: a parent thread
// asks for its device, allocates a buffer with device-side cudaMalloc, fills it with
// cudaMemsetAsync and cudaMemcpyAsync on a device stream, prints what device-side
// cudaGetErrorString says of an error, and launches a child grid into that
// stream which reads the buffer and frees it with device-side cudaFree. A second kernel asks the
// device runtime what a program asks it about the device (attributes, device count, version),
// and makes, records, waits for and destroys an event on a device stream; its answers are
// checked against the host runtime's. Built with -rdc=true and -lcudadevrt; results are checked
// against a CPU reference.
#include <cstdio>

#include <cuda_runtime.h>

constexpr int kN = 64;

__global__ void child(const int* buf, int* out, int n) {
  const int i = threadIdx.x;
  if (i < n) out[i] = buf[i] * 2;
  __syncthreads();
  if (i == 0) out[n] = static_cast<int>(cudaFree(const_cast<int*>(buf)));
}

__global__ void parent(const int* in, int* out, int n) {
  if (threadIdx.x != 0) return;
  int device = -1;
  const cudaError_t got = cudaGetDevice(&device);
  int* buf = nullptr;
  const cudaError_t allocated = cudaMalloc(reinterpret_cast<void**>(&buf), n * sizeof(int));
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  const cudaError_t set = cudaMemsetAsync(buf, 0xff, n * sizeof(int), s);  // -1 everywhere
  const cudaError_t copied = cudaMemcpyAsync(buf, in, (n / 2) * sizeof(int), cudaMemcpyDeviceToDevice, s);
  child<<<1, n, 0, s>>>(buf, out, n);
  out[n + 1] = device;
  out[n + 2] = static_cast<int>(got) + static_cast<int>(allocated) + static_cast<int>(set) + static_cast<int>(copied);
  out[n + 3] = buf != nullptr ? 1 : 0;
  printf("device says: %s\n", cudaGetErrorString(cudaErrorInvalidValue));
  cudaStreamDestroy(s);
}

constexpr int kAskedCount = 6;
// The attributes both sides ask for.
__host__ __device__ cudaDeviceAttr asked(int i) {
  constexpr cudaDeviceAttr attrs[kAskedCount] = {
      cudaDevAttrMultiProcessorCount, cudaDevAttrWarpSize,          cudaDevAttrMaxThreadsPerBlock,
      cudaDevAttrComputeCapabilityMajor, cudaDevAttrCooperativeLaunch, cudaDevAttrMaxSharedMemoryPerBlockOptin};
  return attrs[i];
}

// out: the attributes asked(), then the device count, the runtime version, and the errors of
// an unknown attribute, of device 1, of an event that keeps time (device code may not make
// one), and of the event calls that are allowed (their sum).
__global__ void asks(int* out) {
  for (int i = 0; i < kAskedCount; ++i) cudaDeviceGetAttribute(&out[i], asked(i), 0);
  int* more = out + kAskedCount;
  cudaGetDeviceCount(&more[0]);
  cudaRuntimeGetVersion(&more[1]);
  int ignored = 0;
  more[2] = cudaDeviceGetAttribute(&ignored, static_cast<cudaDeviceAttr>(9999), 0);
  more[3] = cudaDeviceGetAttribute(&ignored, cudaDevAttrWarpSize, 1);
  cudaEvent_t timed, untimed;
  more[4] = cudaEventCreateWithFlags(&timed, cudaEventDefault);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  more[5] = cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming) + cudaEventRecord(untimed, s) +
            cudaStreamWaitEvent(s, untimed, 0) + cudaEventDestroy(untimed) + cudaStreamDestroy(s);
  printf("device names error %d: %s\n", more[2], cudaGetErrorName(static_cast<cudaError_t>(more[2])));
}

bool check_asks() {
  int* out = nullptr;
  constexpr int kOut = kAskedCount + 6;
  cudaMalloc(&out, kOut * sizeof(int));
  asks<<<1, 1>>>(out);
  int got[kOut];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  cudaFree(out);
  int mismatched = 0;
  for (int i = 0; i < kAskedCount; ++i) {
    int host = -1;
    cudaDeviceGetAttribute(&host, asked(i), 0);
    if (got[i] != host) ++mismatched;
  }
  int count = 0, version = 0;
  cudaGetDeviceCount(&count);
  cudaRuntimeGetVersion(&version);
  const int* more = got + kAskedCount;
  std::printf("device answers: %d of %d attributes differ from the host's; %d device(s), version %s; errors: "
              "%d, %d, %d, %d\n",
              mismatched, kAskedCount, more[0], more[1] == version ? "the host's" : "another", more[2], more[3],
              more[4], more[5]);
  return mismatched == 0 && more[0] == count && more[1] == version && more[2] == cudaErrorInvalidValue &&
         more[3] == cudaErrorInvalidDevice && more[4] == cudaErrorInvalidValue && more[5] == 0;
}

int main() {
  int host_in[kN], host_out[kN + 4];
  for (int i = 0; i < kN; ++i) host_in[i] = 3 * i + 1;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, sizeof host_in);
  cudaMalloc(&out, sizeof host_out);
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  parent<<<1, 32>>>(in, out, kN);
  const cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < kN; ++i)
    if (host_out[i] != (i < kN / 2 ? host_in[i] * 2 : -2)) ++wrong;
  std::printf("sync %s: %d mismatches; device %d, errors %d, buffer %d, child's cudaFree %d\n", cudaGetErrorName(e),
              wrong, host_out[kN + 1], host_out[kN + 2], host_out[kN + 3], host_out[kN]);
  const bool answers = check_asks();
  const bool ok = wrong == 0 && host_out[kN] == 0 && host_out[kN + 2] == 0 && host_out[kN + 3] == 1 && answers;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
