// Event times take copies and memsets into account, as on a GPU, where bandwidthTest divides
// bytes by the events' elapsed time: host<->device copies at the preset's host link bandwidth,
// device-to-device copies and memsets at its device memory peak (h100, the default preset:
// PCIe 5.0 x16 at 63015 MB/s; HBM3 at 2619 MHz x 2 x 640 bytes).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include <cuda_runtime_api.h>

namespace lockstep::test {
namespace {

// Milliseconds that `work` takes between two events.
template <class Work>
float timed(Work work) {
  cudaEvent_t start, stop;
  EXPECT_EQ(cudaEventCreate(&start), cudaSuccess);
  EXPECT_EQ(cudaEventCreate(&stop), cudaSuccess);
  EXPECT_EQ(cudaEventRecord(start, nullptr), cudaSuccess);
  work();
  EXPECT_EQ(cudaEventRecord(stop, nullptr), cudaSuccess);
  EXPECT_EQ(cudaEventSynchronize(stop), cudaSuccess);
  float ms = -1.0f;
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

TEST(CopyTime, CopiesAndMemsetsTakeTheirBandwidthsTime) {
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  ASSERT_NE(std::strstr(prop.name, "H100"), nullptr) << prop.name;
  int memory_khz = 0, bus_bits = 0;
  cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, 0);
  cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0);
  const double memory_bytes_per_ms = double(memory_khz) * 2.0 * bus_bits / 8.0;

  const size_t bytes = 6301500;  // a tenth of a millisecond of the host link
  std::vector<char> host(bytes, 7);
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(cudaMalloc(&a, bytes), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b, bytes), cudaSuccess);
  EXPECT_FLOAT_EQ(timed([&] { cudaMemcpy(a, host.data(), bytes, cudaMemcpyHostToDevice); }), 0.1f);
  EXPECT_FLOAT_EQ(timed([&] { cudaMemcpy(host.data(), a, bytes, cudaMemcpyDeviceToHost); }), 0.1f);
  EXPECT_FLOAT_EQ(timed([&] { cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, nullptr); }),
                  static_cast<float>(2.0 * bytes / memory_bytes_per_ms));
  EXPECT_FLOAT_EQ(timed([&] { cudaMemset(b, 0, bytes); }), static_cast<float>(bytes / memory_bytes_per_ms));
  EXPECT_FLOAT_EQ(timed([&] { std::memset(host.data(), 1, bytes); }), 0.0f);  // nothing on the device
  cudaFree(a);
  cudaFree(b);
}

}  // namespace
}  // namespace lockstep::test
