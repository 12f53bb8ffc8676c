// The memory microbenchmarks and the speed-benchmark kernels of bench/, run on a real GPU, so that
// the model's figures (build/bench/lockstep_memory_bench, lockstep_timing_bench) can be compared
// with what the hardware does on the same kernels with the same parameters. Needs a GPU; built
// and run by bench/hw/run_on_gpu.sh, whose output is committed in bench/hw/results/.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../chase_order.h"
#include "../kernels/bench.cu"
#include "../kernels/memory.cu"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
#define CHECK(x) check((x), #x)

unsigned long long* g_result = nullptr;  // device: cycles, then sink words

unsigned long long read_cycles() {
  unsigned long long c = 0;
  CHECK(cudaMemcpy(&c, g_result, sizeof c, cudaMemcpyDeviceToHost));
  return c;
}

// The same chain as bench/memory_bench.cpp (bench/chase_order.h); `warm_steps` untimed steps first.
unsigned long long chase(uint64_t footprint, uint64_t lines, int steps, int warm_steps, uint32_t seed) {
  char* buffer = nullptr;
  CHECK(cudaMalloc(&buffer, footprint));
  const std::vector<uint64_t> order = lockstep::bench::chase_order(footprint, lines, seed);
  std::vector<uint64_t> image(footprint / 8, 0);
  for (uint64_t i = 0; i < lines; ++i)
    image[order[i] * 16] = reinterpret_cast<uint64_t>(buffer) + order[(i + 1) % lines] * 128;
  CHECK(cudaMemcpy(buffer, image.data(), footprint, cudaMemcpyHostToDevice));
  const uint64_t* start = reinterpret_cast<const uint64_t*>(buffer + order[0] * 128);
  pointer_chase<<<1, 1>>>(start, steps, warm_steps, g_result, reinterpret_cast<uint64_t*>(g_result + 1));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(buffer));
  return read_cycles();
}

unsigned long long shared_chase_cycles(int words, int steps) {
  const std::vector<uint32_t> chain = lockstep::bench::shared_chase_chain(words);
  uint32_t* d = nullptr;
  CHECK(cudaMalloc(&d, chain.size() * 4));
  CHECK(cudaMemcpy(d, chain.data(), chain.size() * 4, cudaMemcpyHostToDevice));
  shared_chase<<<1, 128, words * 4>>>(d, words, steps, g_result, reinterpret_cast<uint32_t*>(g_result + 1));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(d));
  return read_cycles();
}

template <typename Launch>
float time_ms(Launch launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventRecord(a));
  launch();
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  CHECK(cudaGetLastError());
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

// Bytes read plus written per second (TB/s), `reps` passes in one launch after `warm` launches.
template <typename Kernel>
double copy_tbps(Kernel kernel, uint64_t bytes, int warm, int reps, int sms) {
  float4 *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&out, bytes));
  CHECK(cudaMemset(in, 1, bytes));
  const long long n = static_cast<long long>(bytes / 16);
  const unsigned blocks = static_cast<unsigned>(sms) * 8;
  for (int i = 0; i < warm; ++i) kernel<<<blocks, 256>>>(in, out, n, 1);
  CHECK(cudaDeviceSynchronize());
  float best = 1e30f;
  for (int t = 0; t < 5; ++t) best = std::min(best, time_ms([&] { kernel<<<blocks, 256>>>(in, out, n, reps); }));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 2.0 * static_cast<double>(bytes) * reps / (best * 1e-3) / 1e12;
}

// Bytes read per second (TB/s) by a kernel that reads and sums (hardware.md §3's L2 figures are
// measured so), `reps` passes over the buffer in one launch after `warm` launches.
template <typename Kernel>
double read_tbps(Kernel kernel, uint64_t bytes, int warm, int reps, int sms) {
  const unsigned blocks = static_cast<unsigned>(sms) * 8;
  float4* in = nullptr;
  float* out = nullptr;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&out, uint64_t{blocks} * 256 * sizeof(float)));
  CHECK(cudaMemset(in, 1, bytes));
  const long long n = static_cast<long long>(bytes / 16);
  for (int i = 0; i < warm; ++i) kernel<<<blocks, 256>>>(in, out, n, 1);
  CHECK(cudaDeviceSynchronize());
  float best = 1e30f;
  for (int t = 0; t < 5; ++t) best = std::min(best, time_ms([&] { kernel<<<blocks, 256>>>(in, out, n, reps); }));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return static_cast<double>(bytes) * reps / (best * 1e-3) / 1e12;
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0, sms = 0, l2 = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  std::printf("device: %s, %d SMs, L2 %d KiB, max SM clock %d MHz\n", prop.name, sms, l2 / 1024, clock_khz / 1000);
  CHECK(cudaMalloc(&g_result, 64));

  std::printf("\nlatencies (SM cycles per dependent step, clock64 inside the kernel; bench/memory_bench.cpp's parameters)\n");
  // Each twice: the first run also pays for the cold instruction cache and TLB.
  for (int rep = 0; rep < 2; ++rep) {
    std::printf("run %d\n", rep + 1);
    std::printf("  shared-memory chase (4 KiB)        %llu\n", shared_chase_cycles(1024, 4096));
    std::printf("  L1 chase (16 KiB)                  %llu\n", chase(16 << 10, 128, 4096, 128, 1));
    std::printf("  L2 chase (2048 KiB)                %llu\n", chase(16384 * 128, 16384, 2048, 16384, 2));
    std::printf("  L2 chase (512 KiB)                 %llu\n", chase(4096 * 128, 4096, 2048, 4096, 2));
    std::printf("  DRAM chase (128 MiB, cold lines)   %llu\n", chase(128ull << 20, 2048, 2048, 0, 3));
  }
  std::printf("\nlatency against footprint (every line of the footprint in the chain, warmed once)\n");
  for (uint64_t kib : {8ull, 32ull, 128ull, 256ull, 1024ull, 4096ull, 16384ull, 32768ull, 49152ull, 65536ull,
                       131072ull, 524288ull}) {
    const uint64_t lines = kib * 1024 / 128;
    const int warm = static_cast<int>(std::min<uint64_t>(lines, 1 << 20));
    std::printf("  %8llu KiB  %llu\n", static_cast<unsigned long long>(kib),
                chase(kib * 1024, lines, 4096, warm, 4));
  }

  std::printf("\nbandwidth (bytes read plus written, best of 5 timed launches)\n");
  const uint64_t big = std::max<uint64_t>(128ull << 20, static_cast<uint64_t>(l2) * 4);
  std::printf("  streaming copy (%llu MiB each way)    %.2f TB/s\n", static_cast<unsigned long long>(big >> 20),
              copy_tbps(copy16, big, 1, 1, sms));
  const uint64_t resident = static_cast<uint64_t>(l2) / 8;
  std::printf("  L2-resident copy, ld.cg (%llu KiB)  %.2f TB/s\n", static_cast<unsigned long long>(resident >> 10),
              copy_tbps(copy16_cg, resident, 1, 4, sms));
  std::printf("  L2-resident copy, ld.ca (%llu KiB)  %.2f TB/s\n", static_cast<unsigned long long>(resident >> 10),
              copy_tbps(copy16, resident, 1, 4, sms));
  std::printf("  L2-resident read, ld.cg (%llu KiB)  %.2f TB/s read (32 passes)\n",
              static_cast<unsigned long long>(resident >> 10), read_tbps(read16_cg, resident, 1, 32, sms));
  std::printf("  L2-resident read, ld.cg (%llu KiB)  %.2f TB/s read (32 passes)\n",
              static_cast<unsigned long long>(resident >> 11), read_tbps(read16_cg, resident / 2, 1, 32, sms));

  std::printf("\nspeed-benchmark kernels (bench/bench_launches.h; best of 5; cycles = time x max SM clock)\n");
  {
    const unsigned n = 270336;
    float* out = nullptr;
    CHECK(cudaMalloc(&out, n * 4));
    fma_loop<<<n / 256, 256>>>(out, 256);
    float best = 1e30f;
    for (int t = 0; t < 5; ++t) best = std::min(best, time_ms([&] { fma_loop<<<n / 256, 256>>>(out, 256); }));
    std::printf("  fma_loop 270336 threads x 256 iterations  %.4f ms  %.0f cycles\n", best,
                best * 1e-3 * clock_khz * 1e3);
    CHECK(cudaFree(out));
  }
  {
    const unsigned n = 4u << 20;
    float *x = nullptr, *y = nullptr;
    CHECK(cudaMalloc(&x, n * 4));
    CHECK(cudaMalloc(&y, n * 4));
    CHECK(cudaMemset(x, 0, n * 4));
    CHECK(cudaMemset(y, 0, n * 4));
    saxpy<<<n / 256, 256>>>(static_cast<int>(n), 2.0f, x, y);
    float best = 1e30f;
    for (int t = 0; t < 5; ++t)
      best = std::min(best, time_ms([&] { saxpy<<<n / 256, 256>>>(static_cast<int>(n), 2.0f, x, y); }));
    std::printf("  saxpy 4M                                  %.4f ms  %.0f cycles\n", best,
                best * 1e-3 * clock_khz * 1e3);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
  }
  return 0;
}
