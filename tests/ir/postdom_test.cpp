// Immediate post-dominators on hand-built CFGs (node n-1 or the given exit is the virtual exit).
#include <gtest/gtest.h>

#include "ir/postdom.h"

namespace lockstep::ir {
namespace {

TEST(PostDominators, DiamondReconvergesAtJoin) {
  // 0 -> {1, 2} -> 3 -> exit(4)
  Cfg cfg{{{1, 2}, {3}, {3}, {4}, {}}, 4};
  const auto ipdom = immediate_post_dominators(cfg);
  EXPECT_EQ(ipdom, (std::vector<uint32_t>{3, 3, 3, 4, kNoNode}));
}

TEST(PostDominators, NestedBranchesOfSeedFigure3_5) {
  // A0 -> {B1, F5}; B1 -> {C2, D3}; C2 -> E4; D3 -> E4; E4 -> G6; F5 -> G6; G6 -> {A0, exit7}
  Cfg cfg{{{1, 5}, {2, 3}, {4}, {4}, {6}, {6}, {0, 7}, {}}, 7};
  const auto ipdom = immediate_post_dominators(cfg);
  EXPECT_EQ(ipdom[0], 6u);  // the outer branch reconverges at G
  EXPECT_EQ(ipdom[1], 4u);  // the inner branch reconverges at E
  EXPECT_EQ(ipdom[6], 7u);
}

TEST(PostDominators, LoopWithEarlyExitReconvergesAtExit) {
  // 0 -> 1; 1 -> {2, exit4}; 2 -> {1, 3}; 3 -> exit4  (a break out of the loop body)
  Cfg cfg{{{1}, {2, 4}, {1, 3}, {4}, {}}, 4};
  const auto ipdom = immediate_post_dominators(cfg);
  EXPECT_EQ(ipdom, (std::vector<uint32_t>{1, 4, 4, 4, kNoNode}));
}

TEST(PostDominators, NodesThatCannotReachTheExitHaveNone) {
  // 0 -> {1, 2}; 1 -> 1 (endless loop); 2 -> exit3
  Cfg cfg{{{1, 2}, {1}, {3}, {}}, 3};
  const auto ipdom = immediate_post_dominators(cfg);
  EXPECT_EQ(ipdom[1], kNoNode);
  EXPECT_EQ(ipdom[2], 3u);
  EXPECT_EQ(ipdom[0], 2u);  // only paths that reach the exit count
}

}  // namespace
}  // namespace lockstep::ir
