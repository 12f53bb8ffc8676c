// Managed memory in the Runtime: cudaMallocManaged gives host memory in the managed window that
// the device reaches at the same address; cudaFree unmaps it; pointer attributes, prefetches,
// advice and range attributes behave as CUDA documents them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "func/device_memory.h"
#include "runtime/runtime.h"

namespace lockstep::runtime {
namespace {

class ManagedMemory : public ::testing::Test {
 protected:
  ManagedMemory() : err_(std::tmpfile()), runtime_(RuntimeOptions{}, stdout, err_) {}
  ~ManagedMemory() override { std::fclose(err_); }

  std::string messages() {
    std::fflush(err_);
    std::rewind(err_);
    std::string text;
    for (int c = std::fgetc(err_); c != EOF; c = std::fgetc(err_)) text += static_cast<char>(c);
    return text;
  }
  int range_int(cudaMemRangeAttribute attribute, const void* p, size_t bytes) {
    int value = 12345;
    EXPECT_EQ(runtime_.range_attribute(&value, sizeof value, attribute, p, bytes), cudaSuccess);
    return value;
  }

  std::FILE* err_;
  Runtime runtime_;
};

constexpr cudaMemLocation kDevice{cudaMemLocationTypeDevice, 0};
constexpr cudaMemLocation kHost{cudaMemLocationTypeHost, 0};

TEST_F(ManagedMemory, HostAndDeviceShareTheBytesAtOneAddress) {
  int* p = nullptr;
  ASSERT_EQ(runtime_.malloc_managed(reinterpret_cast<void**>(&p), 1000 * sizeof(int), cudaMemAttachGlobal),
            cudaSuccess);
  const auto address = reinterpret_cast<uint64_t>(p);
  EXPECT_EQ(address, func::kManagedWindow);  // the first mapping takes the window's start
  EXPECT_TRUE(runtime_.is_device_address(address, 1000 * sizeof(int)));
  EXPECT_TRUE(runtime_.is_managed(p + 999));
  EXPECT_EQ(p[0], 0);  // fresh mappings are zero-filled
  for (int i = 0; i < 1000; ++i) p[i] = i * i;
  int back[3] = {};
  ASSERT_EQ(runtime_.memcpy(back, p + 10, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back[0], 100);
  EXPECT_EQ(back[2], 144);
  ASSERT_EQ(runtime_.memset(p + 500, 0xff, 2 * sizeof(int)), cudaSuccess);  // a device memset
  EXPECT_EQ(p[500], -1);
  EXPECT_EQ(p[502], 502 * 502);

  int* q = nullptr;
  ASSERT_EQ(runtime_.malloc_managed(reinterpret_cast<void**>(&q), 10, cudaMemAttachHost), cudaSuccess);
  EXPECT_GT(reinterpret_cast<uint64_t>(q), address + 4000);  // after the first, past a guard page
  EXPECT_LT(reinterpret_cast<uint64_t>(q), func::kFunctionWindow);
  ASSERT_EQ(runtime_.memcpy(q, p + 3, sizeof(int), cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(q[0], 9);
}

TEST_F(ManagedMemory, FreeUnmapsAndForgets) {
  void* p = nullptr;
  ASSERT_EQ(runtime_.malloc_managed(&p, 64, cudaMemAttachGlobal), cudaSuccess);
  size_t free_before = 0, total = 0;
  runtime_.memory_info(free_before, total);
  ASSERT_EQ(runtime_.free(p), cudaSuccess);
  size_t free_after = 0;
  runtime_.memory_info(free_after, total);
  EXPECT_EQ(free_after - free_before, 64u);
  EXPECT_FALSE(runtime_.is_managed(p));
  EXPECT_FALSE(runtime_.is_device_address(reinterpret_cast<uint64_t>(p)));
  cudaPointerAttributes a{};
  ASSERT_EQ(runtime_.pointer_attributes(p, a), cudaSuccess);
  EXPECT_EQ(a.type, cudaMemoryTypeUnregistered);
  EXPECT_EQ(runtime_.free(p), cudaErrorInvalidValue);
}

TEST_F(ManagedMemory, BadRequestsAreRefused) {
  void* p = nullptr;
  EXPECT_EQ(runtime_.malloc_managed(&p, 0, cudaMemAttachGlobal), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.malloc_managed(&p, 16, 4), cudaErrorInvalidValue);  // cudaMemAttachSingle is not for allocations
  EXPECT_EQ(runtime_.malloc_managed(nullptr, 16, cudaMemAttachGlobal), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.malloc_managed(&p, size_t{1} << 62, cudaMemAttachGlobal), cudaErrorMemoryAllocation);
  EXPECT_EQ(p, nullptr);
}

TEST_F(ManagedMemory, PointerAttributesSayManaged) {
  char* p = nullptr;
  ASSERT_EQ(runtime_.malloc_managed(reinterpret_cast<void**>(&p), 256, cudaMemAttachGlobal), cudaSuccess);
  cudaPointerAttributes a{};
  ASSERT_EQ(runtime_.pointer_attributes(p + 17, a), cudaSuccess);
  EXPECT_EQ(a.type, cudaMemoryTypeManaged);
  EXPECT_EQ(a.device, 0);
  EXPECT_EQ(a.devicePointer, p + 17);
  EXPECT_EQ(a.hostPointer, p + 17);
}

TEST_F(ManagedMemory, PrefetchAndAdviceAreRecordedPerPage) {
  char* p = nullptr;
  const size_t bytes = 4 * 4096;
  ASSERT_EQ(runtime_.malloc_managed(reinterpret_cast<void**>(&p), bytes, cudaMemAttachGlobal), cudaSuccess);
  EXPECT_EQ(range_int(cudaMemRangeAttributeLastPrefetchLocation, p, bytes), cudaInvalidDeviceId);
  ASSERT_EQ(runtime_.prefetch(p, bytes, kDevice, 0, nullptr), cudaSuccess);
  EXPECT_EQ(range_int(cudaMemRangeAttributeLastPrefetchLocation, p, bytes), 0);
  ASSERT_EQ(runtime_.prefetch(p + 2 * 4096, 4096, kHost, 0, nullptr), cudaSuccess);
  EXPECT_EQ(range_int(cudaMemRangeAttributeLastPrefetchLocation, p + 2 * 4096, 100), cudaCpuDeviceId);
  EXPECT_EQ(range_int(cudaMemRangeAttributeLastPrefetchLocation, p, bytes), cudaInvalidDeviceId);  // mixed
  EXPECT_EQ(range_int(cudaMemRangeAttributeLastPrefetchLocationType, p + 2 * 4096, 1), cudaMemLocationTypeHost);

  ASSERT_EQ(runtime_.advise(p, 2 * 4096, cudaMemAdviseSetReadMostly, kDevice), cudaSuccess);
  EXPECT_EQ(range_int(cudaMemRangeAttributeReadMostly, p + 10, 5000), 1);
  EXPECT_EQ(range_int(cudaMemRangeAttributeReadMostly, p, bytes), 0);
  ASSERT_EQ(runtime_.advise(p, bytes, cudaMemAdviseSetPreferredLocation, kDevice), cudaSuccess);
  EXPECT_EQ(range_int(cudaMemRangeAttributePreferredLocation, p, bytes), 0);
  ASSERT_EQ(runtime_.advise(p, 4096, cudaMemAdviseUnsetPreferredLocation, kDevice), cudaSuccess);
  EXPECT_EQ(range_int(cudaMemRangeAttributePreferredLocation, p, bytes), cudaInvalidDeviceId);
  EXPECT_EQ(range_int(cudaMemRangeAttributePreferredLocationId, p + 4096, 4096), 0);
  ASSERT_EQ(runtime_.advise(p, bytes, cudaMemAdviseSetAccessedBy, kDevice), cudaSuccess);
  int devices[3] = {7, 7, 7};
  ASSERT_EQ(runtime_.range_attribute(devices, sizeof devices, cudaMemRangeAttributeAccessedBy, p, bytes), cudaSuccess);
  EXPECT_EQ(devices[0], 0);
  EXPECT_EQ(devices[1], cudaInvalidDeviceId);
  EXPECT_EQ(devices[2], cudaInvalidDeviceId);
}

TEST_F(ManagedMemory, PrefetchAndAdviceValidateLikeCuda) {
  char* p = nullptr;
  ASSERT_EQ(runtime_.malloc_managed(reinterpret_cast<void**>(&p), 4096, cudaMemAttachGlobal), cudaSuccess);
  void* device = nullptr;
  ASSERT_EQ(runtime_.malloc(&device, 4096), cudaSuccess);
  EXPECT_EQ(runtime_.prefetch(p, 4096, cudaMemLocation{cudaMemLocationTypeDevice, 1}, 0, nullptr),
            cudaErrorInvalidDevice);
  EXPECT_EQ(runtime_.prefetch(p, 4096, kDevice, 1, nullptr), cudaErrorInvalidValue);   // flags must be 0
  EXPECT_EQ(runtime_.prefetch(p, 4097, kDevice, 0, nullptr), cudaErrorInvalidValue);   // past the end
  EXPECT_EQ(runtime_.prefetch(device, 16, kDevice, 0, nullptr), cudaErrorInvalidValue);  // not managed
  EXPECT_EQ(runtime_.prefetch(p, 16, kDevice, 0, reinterpret_cast<void*>(0x1234)), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(runtime_.advise(p, 16, static_cast<cudaMemoryAdvise>(9), kDevice), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.advise(p, 16, cudaMemAdviseSetAccessedBy, cudaMemLocation{cudaMemLocationTypeDevice, 3}),
            cudaErrorInvalidDevice);
  int value = 0;
  EXPECT_EQ(runtime_.range_attribute(&value, 2, cudaMemRangeAttributeReadMostly, p, 16), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.range_attribute(&value, 4, cudaMemRangeAttributeReadMostly, device, 16), cudaErrorInvalidValue);
  EXPECT_EQ(runtime_.take_last_error(), cudaErrorInvalidValue);
}

}  // namespace
}  // namespace lockstep::runtime
