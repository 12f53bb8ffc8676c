// DeviceMemory::reserve and allocate_at, which graph memory nodes use: a reserved range is
// never handed out by allocate(), is unmapped until allocate_at, and can be mapped, released
// and mapped again at the same address, zero-filled each time.
#include <gtest/gtest.h>

#include <cstdint>

#include "func/device_memory.h"

namespace lockstep::func {
namespace {

TEST(DeviceMemoryReserve, ReservedRangesAreUnmappedAndNeverAllocated) {
  DeviceMemory memory;
  const uint64_t before = memory.allocate(100);
  const uint64_t reserved = memory.reserve(1000);
  const uint64_t after = memory.allocate(100);
  EXPECT_GT(reserved, before);
  EXPECT_GE(after, reserved + 1000 + 256);  // past the range and its gap
  EXPECT_EQ(memory.find(reserved), nullptr);
  EXPECT_EQ(memory.translate(reserved, 4), nullptr);
  EXPECT_EQ(memory.bytes_allocated(), 200u);
}

TEST(DeviceMemoryReserve, AllocateAtMapsZeroedMemoryAgainAndAgain) {
  DeviceMemory memory;
  const uint64_t reserved = memory.reserve(64);
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(memory.allocate_at(reserved, 64)) << round;
    uint8_t* bytes = memory.translate(reserved, 64);
    ASSERT_NE(bytes, nullptr);
    EXPECT_EQ(bytes[0], 0) << round;
    EXPECT_EQ(bytes[63], 0) << round;
    bytes[0] = 7;
    EXPECT_EQ(memory.bytes_allocated(), 64u);
    EXPECT_FALSE(memory.allocate_at(reserved, 64));       // mapped already
    EXPECT_FALSE(memory.allocate_at(reserved + 32, 64));  // overlaps it
    ASSERT_TRUE(memory.release(reserved));
    EXPECT_EQ(memory.translate(reserved, 4), nullptr);
  }
  EXPECT_FALSE(memory.allocate_at(~uint64_t{0} - 16, 64));  // wraps around
}

}  // namespace
}  // namespace lockstep::func
