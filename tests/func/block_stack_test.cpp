// tbc's block-wide stack (func/divergence/block_stack.h) through seed 001 fig 3-16: two 4-lane
// warps run A (its branch at PC 6), B (PCs 7-8, ending in bra D), C (PC 9) and D (PC 10). T0,
// T6 and T7 fall through to B, T1..T5 branch to C; the block masks are one mask per warp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "func/divergence/block_stack.h"
#include "func/warp.h"

namespace lockstep::func {
namespace {

using Lines = std::vector<std::string>;

ExecInst at(ir::Pc pc, ir::Pc reconverge = ir::kNoPc) {
  ExecInst in;
  in.pc = pc;
  in.reconverge = reconverge;
  return in;
}

TEST(BlockStack, Figure3_16) {
  std::vector<Warp> warps(2);
  for (uint32_t i = 0; i < 2; ++i) warps[i].warp_id = i;
  BlockStack s;
  s.reset({0b1111, 0b1111}, 0);
  EXPECT_EQ(s.describe(), (Lines{"pc 0 reconverge - masks [0xf 0xf]"}));

  // A's branch, run by both warps (WCnt): the block splits; the fall-through entry (B) on top.
  s.branch(0, 0b1110, 9, 7);
  s.branch(1, 0b0011, 9, 7);
  s.resolve(at(6, 10), warps);
  EXPECT_EQ(s.describe(), (Lines{"pc 7 reconverge 10 masks [0x1 0xc]", "pc 9 reconverge 10 masks [0xe 0x3]",
                                 "pc 10 reconverge - masks [0xf 0xf]"}));
  s.sync(warps);
  EXPECT_EQ(warps[0].active, 0b0001u);  // T0 ...
  EXPECT_EQ(warps[1].active, 0b1100u);  // ... with T6 and T7: one compacted warp

  // B's bra D (uniform: the handler moves the PC itself): B's entry reaches its RPC and pops.
  warps[0].pc = warps[1].pc = 10;
  s.resolve(at(8), warps);
  EXPECT_EQ(s.describe(), (Lines{"pc 9 reconverge 10 masks [0xe 0x3]", "pc 10 reconverge - masks [0xf 0xf]"}));

  // C runs and falls into D: the paths merge, both warps run D.
  warps[0].pc = warps[1].pc = 10;
  s.resolve(at(9), warps);
  EXPECT_EQ(s.describe(), (Lines{"pc 10 reconverge - masks [0xf 0xf]"}));
  const DivergenceCounters c = s.take_counters();
  EXPECT_EQ(c.divergent_branches, 1u);
  EXPECT_EQ(c.reconvergences, 1u);
}

// A branch that each warp takes uniformly, but in different directions, still splits the block.
TEST(BlockStack, UniformPerWarpDivergentPerBlock) {
  std::vector<Warp> warps(2);
  for (uint32_t i = 0; i < 2; ++i) warps[i].warp_id = i;
  BlockStack s;
  s.reset({0b1111, 0b1111}, 0);
  warps[0].pc = 9;  // W0 took the branch, W1 fell through: no warp reports a split
  warps[1].pc = 7;
  s.resolve(at(6, 10), warps);
  EXPECT_EQ(s.describe(), (Lines{"pc 7 reconverge 10 masks [0x0 0xf]", "pc 9 reconverge 10 masks [0xf 0x0]",
                                 "pc 10 reconverge - masks [0xf 0xf]"}));
  EXPECT_EQ(s.take_counters().divergent_branches, 1u);
}

// large-warp and sbi: a stack over warps [2, 4) of a block takes block warp indices, and its
// sibling_pc() is the other path of the top's divergent branch until that path reaches the
// reconvergence point (fig 3-19 d: the secondary stops at PCrec).
TEST(BlockStack, GroupOfWarpsAndTheTopsSibling) {
  std::vector<Warp> warps(4);
  for (uint32_t i = 0; i < 4; ++i) warps[i].warp_id = i;
  BlockStack s;
  s.reset({0b1111, 0b1111}, 0, 2);
  EXPECT_EQ(s.sibling_pc(), ir::kNoPc);  // no split yet
  s.branch(2, 0b0110, 9, 7);
  s.branch(3, 0b0110, 9, 7);
  s.resolve(at(6, 10), warps);
  s.sync(warps);
  EXPECT_EQ(warps[2].active, 0b1001u);
  EXPECT_EQ(warps[3].pc, 7u);
  EXPECT_EQ(warps[0].active, 0u);  // outside the group: untouched
  EXPECT_EQ(s.sibling_pc(), 9u);
  EXPECT_EQ(s.sibling_mask(3), 0b0110u);
  s.advance_sibling();  // the secondary issued PC 9; PC 10 is the reconvergence point
  EXPECT_EQ(s.sibling_pc(), ir::kNoPc);
  EXPECT_EQ(s.describe(), (Lines{"pc 7 reconverge 10 masks [0x9 0x9]", "pc 10 reconverge 10 masks [0x6 0x6]",
                                 "pc 10 reconverge - masks [0xf 0xf]"}));
  // The primary arrives: both paths pop, the group runs PC 10 reconverged.
  warps[2].pc = warps[3].pc = 10;
  s.resolve(at(8), warps);
  EXPECT_EQ(s.describe(), (Lines{"pc 10 reconverge - masks [0xf 0xf]"}));
}

}  // namespace
}  // namespace lockstep::func
