// The CTA scheduler: seed 001 fig 3-33 exactly, the registry's names and errors, and the edges
// (a kernel that cannot run, fewer blocks than SMs, reports out of order).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "sim/cta_scheduler/cta_scheduler.h"

namespace lockstep::sim {
namespace {

std::unique_ptr<CtaScheduler> round_robin(uint32_t sms) { return make_cta_scheduler("round-robin", {sms}); }

// Fig 3-33: 3 SMs, 2 blocks each, TB0..TB11. The first two rounds place TB0..TB5 on
// SM0, SM1, SM2, SM0, SM1, SM2; then "TB5 on SM2 finishes first, TB6 goes to SM2; then TB3 on
// SM0 finishes, TB7 goes to SM0". The text gives only those two completions; the rest of the
// order below (SM1, SM1, SM2, SM0, ...) is ours, chosen to show that placement follows
// completions, not a fixed rotation.
TEST(CtaScheduler, RoundRobinFigure3_33) {
  auto scheduler = round_robin(3);
  const std::vector<CtaPlacement> initial = scheduler->start_launch(12, 2);
  const std::vector<CtaPlacement> expected_initial{{0, 0}, {1, 1}, {2, 2}, {3, 0}, {4, 1}, {5, 2}};
  EXPECT_EQ(initial, expected_initial);
  EXPECT_FALSE(scheduler->all_placed());
  for (uint32_t sm = 0; sm < 3; ++sm) EXPECT_EQ(scheduler->resident(sm), 2u);

  EXPECT_EQ(scheduler->on_block_done(2, 100), (CtaPlacement{6, 2}));  // TB5 done on SM2 -> TB6
  EXPECT_EQ(scheduler->on_block_done(0, 130), (CtaPlacement{7, 0}));  // TB3 done on SM0 -> TB7
  EXPECT_EQ(scheduler->on_block_done(1, 150), (CtaPlacement{8, 1}));
  EXPECT_EQ(scheduler->on_block_done(1, 160), (CtaPlacement{9, 1}));  // one SM can take two in a row
  EXPECT_EQ(scheduler->on_block_done(2, 170), (CtaPlacement{10, 2}));
  EXPECT_EQ(scheduler->on_block_done(0, 180), (CtaPlacement{11, 0}));
  EXPECT_TRUE(scheduler->all_placed());
  EXPECT_FALSE(scheduler->done());
  // Six blocks still resident: their completions place nothing.
  const uint32_t last_sms[] = {0, 0, 1, 1, 2, 2};
  for (uint32_t sm : last_sms) EXPECT_EQ(scheduler->on_block_done(sm, 300), std::nullopt);
  EXPECT_TRUE(scheduler->done());
  for (uint32_t sm = 0; sm < 3; ++sm) EXPECT_EQ(scheduler->resident(sm), 0u);
}

// A child grid starts beside its parent on the SMs the parent does not hold (usable), and takes
// a held SM once the parent lets it go (add_sm): as many blocks as fit, in block order.
TEST(CtaScheduler, RoundRobinPlacesOnlyOnUsableSmsUntilOneIsAdded) {
  auto scheduler = round_robin(4);
  const std::vector<uint8_t> usable{0, 1, 0, 1};
  const std::vector<CtaPlacement> initial = scheduler->start_launch(9, 2, usable);
  const std::vector<CtaPlacement> expected_initial{{0, 1}, {1, 3}, {2, 1}, {3, 3}};
  EXPECT_EQ(initial, expected_initial);
  EXPECT_EQ(scheduler->resident(0), 0u);
  const std::vector<CtaPlacement> added = scheduler->add_sm(2);
  const std::vector<CtaPlacement> expected_added{{4, 2}, {5, 2}};
  EXPECT_EQ(added, expected_added);
  EXPECT_EQ(scheduler->on_block_done(1, 5), (CtaPlacement{6, 1}));
  EXPECT_EQ(scheduler->add_sm(0), (std::vector<CtaPlacement>{{7, 0}, {8, 0}}));
  EXPECT_TRUE(scheduler->all_placed());
  EXPECT_TRUE(scheduler->add_sm(0).empty());  // full, and nothing left to place
  EXPECT_THROW(scheduler->add_sm(4), std::logic_error);
}

TEST(CtaScheduler, UsableSmsMustMatchTheSmCount) {
  auto scheduler = round_robin(3);
  const std::vector<uint8_t> usable{1, 1};
  EXPECT_THROW(scheduler->start_launch(4, 1, usable), std::logic_error);
}

TEST(CtaScheduler, CompletionsInOneCycleGoBySmIndex) {
  auto scheduler = round_robin(3);
  scheduler->start_launch(5, 1);  // TB0..TB2 on SM0..SM2
  EXPECT_EQ(scheduler->on_block_done(0, 10), (CtaPlacement{3, 0}));
  EXPECT_EQ(scheduler->on_block_done(2, 10), (CtaPlacement{4, 2}));
  // SM1 finishing in the same cycle must have been reported before SM2.
  EXPECT_THROW(scheduler->on_block_done(1, 10), std::logic_error);
  // An earlier cycle after a later one is also out of order.
  EXPECT_THROW(scheduler->on_block_done(1, 9), std::logic_error);
  EXPECT_EQ(scheduler->on_block_done(1, 11), std::nullopt);
}

TEST(CtaScheduler, KernelThatCannotRunFailsLoudly) {
  auto scheduler = round_robin(3);
  try {
    scheduler->start_launch(12, 0);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "the kernel cannot run: no block fits an SM (occupancy gives 0 blocks per SM)");
  }
}

TEST(CtaScheduler, FewerBlocksThanSms) {
  auto scheduler = round_robin(4);
  const std::vector<CtaPlacement> expected{{0, 0}, {1, 1}};
  EXPECT_EQ(scheduler->start_launch(2, 8), expected);
  EXPECT_TRUE(scheduler->all_placed());
  EXPECT_EQ(scheduler->resident(2), 0u);
  EXPECT_EQ(scheduler->resident(3), 0u);
  EXPECT_THROW(scheduler->on_block_done(3, 5), std::logic_error);  // SM3 runs nothing
  EXPECT_EQ(scheduler->on_block_done(1, 5), std::nullopt);
  EXPECT_FALSE(scheduler->done());
  EXPECT_EQ(scheduler->on_block_done(0, 7), std::nullopt);
  EXPECT_TRUE(scheduler->done());
}

TEST(CtaScheduler, LaunchesFollowOneAnother) {
  auto scheduler = round_robin(2);
  EXPECT_TRUE(scheduler->done());  // nothing launched yet
  EXPECT_TRUE(scheduler->start_launch(0, 4).empty());
  EXPECT_TRUE(scheduler->done());
  EXPECT_EQ(scheduler->start_launch(3, 1).size(), 2u);
  EXPECT_THROW(scheduler->start_launch(1, 1), std::logic_error);  // TB0..TB2 not done
  EXPECT_EQ(scheduler->on_block_done(1, 50), (CtaPlacement{2, 1}));
  EXPECT_EQ(scheduler->on_block_done(0, 60), std::nullopt);
  EXPECT_EQ(scheduler->on_block_done(1, 70), std::nullopt);
  // A new launch starts its own order of reports: cycle numbers may begin anywhere.
  const std::vector<CtaPlacement> expected{{0, 0}, {1, 1}};
  EXPECT_EQ(scheduler->start_launch(2, 1), expected);
  EXPECT_EQ(scheduler->on_block_done(0, 1), std::nullopt);
}

TEST(CtaScheduler, RegistryNamesAndErrors) {
  EXPECT_EQ(cta_scheduler_names(), std::vector<std::string_view>{"round-robin"});
  try {
    make_cta_scheduler("fifo", {2});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "unknown CTA scheduler 'fifo' (accepted: round-robin)");
  }
  EXPECT_THROW(make_cta_scheduler("round-robin", {0}), std::invalid_argument);
}

}  // namespace
}  // namespace lockstep::sim
