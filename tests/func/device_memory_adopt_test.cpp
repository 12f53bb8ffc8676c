// DeviceMemory::adopt: host bytes registered as an allocation are translated in place, are not
// freed by release, refuse overlaps, and the bump allocator steps over them.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "func/device_memory.h"

namespace lockstep::func {
namespace {

TEST(DeviceMemoryAdopt, TranslatesToTheHostBytes) {
  DeviceMemory memory;
  std::vector<uint8_t> host(100, 9);
  const uint64_t base = kManagedWindow + 0x1000;
  ASSERT_TRUE(memory.adopt(base, host.size(), host.data()));
  EXPECT_EQ(memory.translate(base + 10, 4), host.data() + 10);
  EXPECT_EQ(memory.translate(base + 98, 4), nullptr);  // runs past the end
  EXPECT_EQ(memory.bytes_allocated(), 100u);
  ASSERT_NE(memory.find(base + 99), nullptr);
  EXPECT_EQ(memory.find(base + 99)->data(), host.data());
  EXPECT_TRUE(memory.release(base));
  EXPECT_EQ(memory.translate(base + 10, 4), nullptr);
  EXPECT_EQ(host[10], 9);  // the bytes were the caller's and stay alive
  EXPECT_EQ(memory.bytes_allocated(), 0u);
}

TEST(DeviceMemoryAdopt, RefusesOverlapsAndWrapAround) {
  DeviceMemory memory;
  std::vector<uint8_t> host(64);
  ASSERT_TRUE(memory.adopt(kManagedWindow, 64, host.data()));
  EXPECT_FALSE(memory.adopt(kManagedWindow + 63, 8, host.data()));   // starts inside
  EXPECT_FALSE(memory.adopt(kManagedWindow - 8, 9, host.data()));    // ends inside
  EXPECT_TRUE(memory.adopt(kManagedWindow + 64, 8, host.data()));    // adjacent is fine
  EXPECT_FALSE(memory.adopt(~uint64_t{0} - 4, 8, host.data()));
  EXPECT_FALSE(memory.adopt(kManagedWindow + 4096, 8, nullptr));
  const uint64_t device = memory.allocate(16);
  EXPECT_FALSE(memory.adopt(device + 8, 4, host.data()));
}

TEST(DeviceMemoryAdopt, AllocationsStepOverAdoptedRanges) {
  DeviceMemory memory;
  std::vector<uint8_t> host(1000);
  // Where the next two allocations would go: kGlobalBase and kGlobalBase + 512.
  ASSERT_TRUE(memory.adopt(kGlobalBase + 600, host.size(), host.data()));
  const uint64_t first = memory.allocate(100);
  EXPECT_EQ(first, kGlobalBase);
  const uint64_t second = memory.allocate(100);
  // Past the adopted range's end (kGlobalBase + 1600) and a 256-byte gap, aligned to 256.
  EXPECT_EQ(second, kGlobalBase + 2048);
  EXPECT_NE(memory.translate(second, 100), nullptr);
  EXPECT_EQ(memory.find(kGlobalBase + 700)->data(), host.data());
}

}  // namespace
}  // namespace lockstep::func
