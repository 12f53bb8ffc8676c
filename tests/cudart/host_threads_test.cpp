// The stand-in libcudart's C entry points called from 8 host threads at once: each creates a
// stream, allocates, copies, launches, enqueues a host function, synchronises and frees, over
// and over. Built with ThreadSanitizer in CI (scripts/test.sh), this is where a race in the
// runtime would show. The kernel comes from a committed fat binary, registered as nvcc's
// start-up code registers it: scale(float* x, float a, int n): x[i] = x[i] * a + c_tab[i & 3],
// c_tab = {1, 2, 3, 4} (tests/runtime/data/scale.cu).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
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
namespace {

struct Wrapper {  // __fatBinC_Wrapper_t
  int magic = 0x466243b1;
  int version = 1;
  const void* data = nullptr;
  void* unused = nullptr;
};

// Stands for the kernel's host stub: only its address matters.
const char kScaleStub = 0;

// Registers the scale kernel once for the whole test program, as static constructors would.
void register_scale() {
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

void CUDART_CB count_call(void* data) { static_cast<std::atomic<int>*>(data)->fetch_add(1); }

TEST(HostThreads, EightThreadsAllocateCopyLaunchAndSynchroniseAtOnce) {
  register_scale();
  constexpr int kThreads = 8, kRounds = 6, kN = 1000;
  std::atomic<int> host_calls{0};
  std::vector<int> wrong(kThreads, 0);
  std::vector<cudaError_t> last(kThreads, cudaSuccess);
  std::vector<std::thread> threads;
  for (int id = 0; id < kThreads; ++id) {
    threads.emplace_back([&, id] {
      cudaStream_t stream = nullptr;
      cudaStreamCreate(&stream);
      std::vector<float> x(kN), out(kN);
      for (int round = 0; round < kRounds; ++round) {
        for (int i = 0; i < kN; ++i) x[i] = static_cast<float>(i % 97 + id + round);
        float* d = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d), kN * sizeof(float));
        cudaMemcpyAsync(d, x.data(), kN * sizeof(float), cudaMemcpyHostToDevice, stream);
        float a = static_cast<float>(id + 1);
        int n = kN;
        void* args[] = {&d, &a, &n};
        cudaLaunchKernel(&kScaleStub, dim3((kN + 127) / 128), dim3(128), args, 0, stream);
        cudaLaunchHostFunc(stream, count_call, &host_calls);
        cudaMemcpyAsync(out.data(), d, kN * sizeof(float), cudaMemcpyDeviceToHost, stream);
        cudaStreamSynchronize(stream);
        for (int i = 0; i < kN; ++i) wrong[id] += out[i] != x[i] * a + static_cast<float>(i % 4 + 1);
        cudaFree(d);
      }
      if (id == 5) cudaMalloc(nullptr, 16);  // an error of this thread alone
      last[id] = cudaGetLastError();
      cudaStreamDestroy(stream);
    });
  }
  for (std::thread& t : threads) t.join();
  for (int id = 0; id < kThreads; ++id) {
    EXPECT_EQ(wrong[id], 0) << "thread " << id;
    EXPECT_EQ(last[id], id == 5 ? cudaErrorInvalidValue : cudaSuccess) << "thread " << id;
  }
  EXPECT_EQ(host_calls.load(), kThreads * kRounds);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

}  // namespace
}  // namespace lockstep::test
