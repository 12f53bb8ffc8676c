// The stand-in libcudart's C entry points called from 8 host threads at once: each creates a
// stream, allocates, copies, launches, enqueues a host function, synchronises and frees, over
// and over. Built with ThreadSanitizer in CI (scripts/test.sh), this is where a race in the
// runtime would show. The kernel is scale (cudart/scale_kernel.h).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "cudart/scale_kernel.h"

namespace lockstep::test {
namespace {

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
        for (int i = 0; i < kN; ++i) wrong[id] += out[i] != scaled(x[i], a, i);
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
