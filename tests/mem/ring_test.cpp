// The fixed ring: FIFO order across the wrap point, full/empty at the exact counts, at(i) from
// the front, and a zero capacity refused.
#include <gtest/gtest.h>

#include <stdexcept>

#include "mem/ring.h"

namespace lockstep::mem {
namespace {

TEST(RingBuffer, FillsToCapacityThenReportsFull) {
  RingBuffer<int> ring(3);
  EXPECT_TRUE(ring.empty());
  EXPECT_EQ(ring.capacity(), 3u);
  ring.push(1);
  ring.push(2);
  EXPECT_FALSE(ring.full());
  ring.push(3);
  EXPECT_TRUE(ring.full());
  EXPECT_EQ(ring.size(), 3u);
  EXPECT_EQ(ring.front(), 1);
  EXPECT_EQ(ring.back(), 3);
}

// Many laps around three slots: order is kept across the wrap, at(i) counts from the front.
TEST(RingBuffer, KeepsFifoOrderAcrossTheWrap) {
  RingBuffer<int> ring(3);
  int next_in = 0, next_out = 0;
  for (int lap = 0; lap < 10; ++lap) {
    while (!ring.full()) ring.push(next_in++);
    for (std::size_t i = 0; i < ring.size(); ++i) EXPECT_EQ(ring.at(i), next_out + static_cast<int>(i));
    ring.pop();
    ++next_out;
    ring.pop();
    ++next_out;
    EXPECT_EQ(ring.front(), next_out);
    EXPECT_EQ(ring.size(), 1u);
  }
  EXPECT_EQ(ring.capacity(), 3u);
}

TEST(RingBuffer, FrontIsWritableAndClearEmpties) {
  RingBuffer<int> ring(2);
  ring.push(5);
  ring.front() = 7;
  EXPECT_EQ(ring.at(0), 7);
  ring.clear();
  EXPECT_TRUE(ring.empty());
  ring.push(9);
  EXPECT_EQ(ring.front(), 9);
}

TEST(RingBuffer, RefusesZeroCapacity) { EXPECT_THROW(RingBuffer<int>(0), std::invalid_argument); }

}  // namespace
}  // namespace lockstep::mem
