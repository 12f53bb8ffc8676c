// DeviceMemory::adopt: host bytes registered as an allocation are translated in place, are not
// freed by release, refuse overlaps, and the bump allocator steps over them; the timing model
// sees those the OS placed at stable stand-in addresses.
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

// Memory the OS placed gets page-aligned stand-ins in adoption order, keeping the offset within
// 16 bytes; lockstep's own windows (device memory, managed and pinned memory) keep their
// addresses; a released block's addresses are its own again.
TEST(DeviceMemoryAdopt, TheTimingModelSeesHostMemoryTheOsPlacedAtStableAddresses) {
  DeviceMemory memory;
  std::vector<uint8_t> a(5000), b(10);
  const uint64_t first = 0x5591'a1a0'c958, second = 0x7f00'0000'1004;
  EXPECT_EQ(memory.stable_address(first), first);  // nothing adopted yet
  ASSERT_TRUE(memory.adopt(first, a.size(), a.data()));
  ASSERT_TRUE(memory.adopt(second, b.size(), b.data()));
  ASSERT_TRUE(memory.adopt(kManagedWindow, 64, b.data()));
  EXPECT_EQ(memory.stable_address(first), kForeignAliasWindow + 8);
  EXPECT_EQ(memory.stable_address(first + 4999), kForeignAliasWindow + 8 + 4999);
  EXPECT_EQ(memory.stable_address(first + 5000), first + 5000);  // past its end
  // 16 + 5000 bytes round up to two pages, and a page between: the next starts 3 pages on.
  EXPECT_EQ(memory.stable_address(second + 9), kForeignAliasWindow + 3 * 4096 + 4 + 9);
  EXPECT_EQ(memory.stable_address(kManagedWindow + 8), kManagedWindow + 8);
  const uint64_t device = memory.allocate(64);
  EXPECT_EQ(memory.stable_address(device), device);
  EXPECT_TRUE(memory.release(first));
  EXPECT_EQ(memory.stable_address(first), first);
  EXPECT_EQ(memory.stable_address(second), kForeignAliasWindow + 3 * 4096 + 4);
}

}  // namespace
}  // namespace lockstep::func
