// The per-warp I-buffer (seed 001 fig 3-23): program order, valid/ready bits, issue of a ready
// head only, flush on a taken branch and refill.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sim/instruction_buffer.h"

namespace lockstep::sim {
namespace {

InstructionBuffer make(uint32_t warps, uint32_t entries) {
  return InstructionBuffer({.warps = warps, .entries_per_warp = entries});
}

TEST(InstructionBuffer, DecodeSetsValidNotReadyInProgramOrder) {
  InstructionBuffer ib = make(2, 2);
  EXPECT_TRUE(ib.empty(0));
  EXPECT_FALSE(ib.head(0).valid);
  ib.push(0, 10, 7);
  ib.push(0, 11, 8);
  EXPECT_TRUE(ib.full(0));
  EXPECT_EQ(ib.size(0), 2u);
  EXPECT_TRUE(ib.empty(1));  // warps have their own entries
  EXPECT_TRUE(ib.entry(0, 0).valid);
  EXPECT_FALSE(ib.entry(0, 0).ready);
  EXPECT_EQ(ib.entry(0, 0).pc, 10u);
  EXPECT_EQ(ib.entry(0, 1).pc, 11u);
  EXPECT_EQ(ib.entry(0, 1).token, 8u);
  EXPECT_THROW(ib.push(0, 12, 0), std::logic_error);  // full: fetch must wait
  EXPECT_THROW(ib.entry(0, 2), std::out_of_range);
  EXPECT_THROW(ib.size(2), std::out_of_range);
}

TEST(InstructionBuffer, OnlyAValidReadyHeadIssues) {
  InstructionBuffer ib = make(1, 3);
  EXPECT_THROW(ib.pop(0), std::logic_error);  // invalid
  ib.push(0, 4, 0);
  ib.push(0, 5, 1);
  EXPECT_THROW(ib.pop(0), std::logic_error);  // valid, not ready
  ib.set_ready(0, 1, true);                    // a younger ready entry does not issue first
  EXPECT_THROW(ib.pop(0), std::logic_error);
  ib.set_ready(0, 0, true);
  const IBufferEntry issued = ib.pop(0);
  EXPECT_EQ(issued.pc, 4u);
  EXPECT_TRUE(issued.valid && issued.ready);
  EXPECT_EQ(ib.head(0).pc, 5u);  // the younger entry moved up with its ready bit
  EXPECT_TRUE(ib.head(0).ready);
  ib.set_ready(0, 0, false);
  EXPECT_FALSE(ib.head(0).ready);
  EXPECT_FALSE(ib.entry(0, 1).valid);
  EXPECT_THROW(ib.set_ready(0, 1, true), std::logic_error);  // invalid entry
}

TEST(InstructionBuffer, RingKeepsProgramOrderAcrossManyIssues) {
  InstructionBuffer ib = make(1, 2);
  std::vector<uint32_t> issued;
  uint32_t pc = 0;
  for (int cycle = 0; cycle < 7; ++cycle) {
    if (!ib.empty(0)) {
      ib.set_ready(0, 0, true);
      issued.push_back(ib.pop(0).pc);
    }
    while (!ib.full(0)) ib.push(0, pc++, 0);
  }
  EXPECT_EQ(issued, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(ib.head(0).pc, 6u);
  EXPECT_EQ(ib.entry(0, 1).pc, 7u);
}

TEST(InstructionBuffer, FlushDiscardsOldestFirstThenRefillsFromTheNewPc) {
  InstructionBuffer ib = make(2, 3);
  ib.push(1, 20, 0);
  ib.set_ready(1, 0, true);
  EXPECT_EQ(ib.pop(1).pc, 20u);  // head index is now 1: the flush must still go oldest first
  ib.push(1, 21, 1);
  ib.push(1, 22, 2);
  ib.push(1, 23, 0);
  ib.set_ready(1, 1, true);
  ib.push(0, 99, 0);
  std::vector<uint32_t> discarded_tokens, discarded_pcs;
  ib.flush(1, [&](const IBufferEntry& e) {
    discarded_tokens.push_back(e.token);
    discarded_pcs.push_back(e.pc);
  });
  EXPECT_EQ(discarded_pcs, (std::vector<uint32_t>{21, 22, 23}));
  EXPECT_EQ(discarded_tokens, (std::vector<uint32_t>{1, 2, 0}));
  EXPECT_TRUE(ib.empty(1));
  for (uint32_t p = 0; p < 3; ++p) EXPECT_FALSE(ib.entry(1, p).valid || ib.entry(1, p).ready);
  EXPECT_EQ(ib.size(0), 1u);  // the other warp is untouched
  ib.push(1, 40, 5);  // refill at the branch target
  EXPECT_EQ(ib.head(1).pc, 40u);
  EXPECT_FALSE(ib.head(1).ready);
  ib.flush(1);
  ib.flush(1);  // flushing an empty buffer is harmless
  EXPECT_TRUE(ib.empty(1));
}

TEST(InstructionBuffer, RejectsEmptyGeometry) {
  EXPECT_THROW(make(0, 2), std::invalid_argument);
  EXPECT_THROW(make(4, 0), std::invalid_argument);
}

}  // namespace
}  // namespace lockstep::sim
