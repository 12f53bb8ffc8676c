// Warp formation (func/divergence/warp_formation.h): how threads of several warps waiting at
// one PC are grouped under dwf (fig 3-15's PC-warp LUT) and tbc (fig 3-16's compaction), and
// which PC a block issues next.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "func/divergence/divergence_unit.h"
#include "func/divergence/warp_formation.h"

namespace lockstep::func {
namespace {

// "W1:0110" per part, lanes written lane 0 first (4 lanes), parts of a formed warp joined by ' '.
std::vector<std::string> describe(const std::vector<FormedWarp>& formed) {
  std::vector<std::string> out;
  for (const FormedWarp& f : formed) {
    std::string s;
    LaneMask all = 0;
    for (const FormationMember& p : f.parts) {
      EXPECT_EQ(all & p.lanes, 0u) << "two threads on one lane";
      all |= p.lanes;
      s += (s.empty() ? "" : " ") + ("W" + std::to_string(p.warp) + ":");
      for (uint32_t l = 0; l < 4; ++l) s.push_back((p.lanes >> l & 1) != 0 ? '1' : '0');
    }
    EXPECT_EQ(all, f.lanes);
    out.push_back(s);
  }
  return out;
}

// Fig 3-14's C block: W0's T1..T3 and W1's T4/T5. Both rules give [T4 T1 T2 T3] and [- T5 - -].
TEST(WarpFormation, Figure3_14BlockC) {
  const std::vector<FormationMember> c = {{0, 0b1110}, {1, 0b0011}};
  const std::vector<std::string> expected = {"W0:0111 W1:1000", "W1:0100"};
  EXPECT_EQ(describe(form_warps(FormationRule::InPlaceLut, c)), expected);
  EXPECT_EQ(describe(form_warps(FormationRule::Compaction, c)), expected);
}

// The LUT only fills the newest formed warp: W1's lane 0 collides in the first, so W1 opens a
// second one, and W2's lane 1 collides there with W1's and opens a third. Compaction puts each
// column's k-th thread into warp k: two warps, as many as the fullest column has threads.
TEST(WarpFormation, LutFillsOnlyTheNewestWarpCompactionFillsEveryColumn) {
  const std::vector<FormationMember> m = {{0, 0b0001}, {1, 0b0011}, {2, 0b0010}};
  EXPECT_EQ(describe(form_warps(FormationRule::InPlaceLut, m)),
            (std::vector<std::string>{"W0:1000", "W1:1100", "W2:0100"}));
  EXPECT_EQ(describe(form_warps(FormationRule::Compaction, m)),
            (std::vector<std::string>{"W0:1000 W1:0100", "W1:1000 W2:0100"}));
}

TEST(WarpFormation, FullWarpsStayApartAndNothingFormsNothing) {
  const std::vector<FormationMember> full = {{0, 0b1111}, {1, 0b1111}};
  const std::vector<std::string> expected = {"W0:1111", "W1:1111"};
  EXPECT_EQ(describe(form_warps(FormationRule::InPlaceLut, full)), expected);
  EXPECT_EQ(describe(form_warps(FormationRule::Compaction, full)), expected);
  EXPECT_TRUE(form_warps(FormationRule::Compaction, {}).empty());
}

// Lowest PC first; a warp passed over `patience` issues in a row gets its PC chosen.
TEST(WarpFormation, SchedulerPicksTheLowestPcUntilAWarpRunsOutOfPatience) {
  FormationScheduler s(2);
  s.reset(3);
  constexpr ir::Pc kNone = ir::kNoPc;
  EXPECT_EQ(s.pick({5, 3, kNone}), 3u);  // warp 0 passed over once
  EXPECT_EQ(s.pick({5, 4, kNone}), 4u);  // twice
  EXPECT_EQ(s.pick({5, 4, kNone}), 5u);  // out of patience: its PC, though 4 is lower
  EXPECT_EQ(s.pick({6, 4, 4}), 4u);      // warp 1 passed over once only
  EXPECT_EQ(s.pick({kNone, kNone, kNone}), kNone);
}

// The registry's entries say which units are block-level and how they form warps (each unit's
// own file sets it); the names here are the seed's.
TEST(WarpFormation, BlockLevelUnitsComeFromTheRegistry) {
  EXPECT_TRUE(divergence_unit("dwf").traits.block_level);
  EXPECT_EQ(divergence_unit("dwf").traits.formation, FormationRule::InPlaceLut);
  for (const char* name : {"tbc", "large-warp", "sbi", "swi"}) {
    EXPECT_TRUE(divergence_unit(name).traits.block_level) << name;
    EXPECT_EQ(divergence_unit(name).traits.formation, FormationRule::Compaction) << name;
  }
  for (const char* name : {"ipdom-stack", "branch-barrier", "thread-frontier"})
    EXPECT_FALSE(divergence_unit(name).traits.block_level) << name;
  EXPECT_THROW(divergence_unit("simt-magic"), std::invalid_argument);
}

// How many warps share a stack and what is co-issued beside the top path are traits too, so a
// new unit states them in its own file rather than in the CtaRunner.
TEST(WarpFormation, StackSharingAndCoIssueComeFromTheRegistry) {
  using Sharing = DivergenceTraits::StackSharing;
  using CoIssue = DivergenceTraits::CoIssue;
  EXPECT_EQ(divergence_unit("tbc").traits.stack_sharing, Sharing::Block);
  EXPECT_EQ(divergence_unit("large-warp").traits.stack_sharing, Sharing::LargeWarp);
  EXPECT_EQ(divergence_unit("sbi").traits.co_issue, CoIssue::SiblingPath);
  EXPECT_EQ(divergence_unit("swi").traits.co_issue, CoIssue::SiblingOrOtherWarp);
  // Co-issue plans a warp's sibling path on that warp's own stack.
  for (const DivergenceUnitInfo& unit : divergence_units()) {
    if (unit.traits.co_issue == CoIssue::None) continue;
    EXPECT_TRUE(unit.traits.block_level) << unit.name;
    EXPECT_EQ(unit.traits.formation, FormationRule::Compaction) << unit.name;
    EXPECT_EQ(unit.traits.stack_sharing, Sharing::Warp) << unit.name;
  }
  for (const char* name : {"ipdom-stack", "branch-barrier", "thread-frontier", "dwf", "tbc", "large-warp"})
    EXPECT_EQ(divergence_unit(name).traits.co_issue, CoIssue::None) << name;
}

}  // namespace
}  // namespace lockstep::func
