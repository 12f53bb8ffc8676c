// A thread-safe runtime: 8 host threads at once each create a stream, allocate, copy, launch,
// enqueue a host function, synchronise, check and free, 12 times over; <<<>>> configurations
// and cudaGetLastError are per thread, as in CUDA. Checked against a CPU reference.
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

__global__ void affine(const int* in, int* out, int n, int a, int b) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * in[i] + b;
}

struct Counter {
  std::atomic<int> calls{0};
};

void CUDART_CB count_call(void* data) { static_cast<Counter*>(data)->calls.fetch_add(1); }

constexpr int kThreads = 8, kRounds = 12, kN = 4096;

// Returns the number of wrong elements this thread saw.
int work(int id, Counter& counter, cudaError_t& own_error) {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  std::vector<int> in(kN), out(kN);
  int wrong = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kN; ++i) in[i] = i * (id + 1) + round;
    int *d_in = nullptr, *d_out = nullptr;
    cudaMalloc(&d_in, kN * sizeof(int));
    cudaMalloc(&d_out, kN * sizeof(int));
    cudaMemcpyAsync(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice, stream);
    affine<<<(kN + 255) / 256, 256, 0, stream>>>(d_in, d_out, kN, id + 2, round);
    cudaLaunchHostFunc(stream, count_call, &counter);
    cudaMemcpyAsync(out.data(), d_out, kN * sizeof(int), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    for (int i = 0; i < kN; ++i) wrong += out[i] != (id + 2) * in[i] + round;
    cudaFree(d_in);
    cudaFree(d_out);
  }
  // Thread 3 alone makes a call fail; only its own last error shows it.
  if (id == 3) {
    void* p = nullptr;
    cudaMalloc(&p, size_t{1} << 50);
  }
  own_error = cudaGetLastError();
  cudaStreamDestroy(stream);
  return wrong;
}

int main() {
  Counter counter;
  std::vector<int> wrong(kThreads, 0);
  std::vector<cudaError_t> errors(kThreads, cudaSuccess);
  std::vector<std::thread> threads;
  for (int id = 0; id < kThreads; ++id)
    threads.emplace_back([&, id] { wrong[id] = work(id, counter, errors[id]); });
  for (std::thread& t : threads) t.join();
  int total_wrong = 0;
  for (int id = 0; id < kThreads; ++id) {
    total_wrong += wrong[id];
    std::printf("thread %d: wrong %d, last error %s\n", id, wrong[id], cudaGetErrorName(errors[id]));
  }
  std::printf("host functions called %d of %d, main thread's last error %s\n", counter.calls.load(),
              kThreads * kRounds, cudaGetErrorName(cudaGetLastError()));
  const bool ok = total_wrong == 0 && counter.calls.load() == kThreads * kRounds &&
                  errors[3] == cudaErrorMemoryAllocation;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
