// The policy kinds' keys come from their registries (config/policy_options.h): each kind's key
// accepts the registered names, in registry order, and each declared parameter is a key right after
// it, where `lockstep config` has always printed it. The contract over the entries themselves is
// tests/sim/policy_contract_test.cpp.
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "config/option.h"
#include "config_test_util.h"

namespace lockstep::config {
namespace {

// The key printed after `key`.
std::string_view key_after(std::string_view key) {
  const std::vector<OptionSpec>& specs = option_specs();
  for (size_t i = 0; i + 1 < specs.size(); ++i)
    if (specs[i].key == key) return specs[i + 1].key;
  return {};
}

TEST(PolicyKeys, ParametersFollowTheirKindsKey) {
  EXPECT_EQ(key_after("sm.divergence"), "sm.yield_after");
  EXPECT_EQ(key_after("sm.yield_after"), "sm.large_warp_size");
  EXPECT_EQ(key_after("sm.large_warp_size"), "pipeline.int.latency");
  EXPECT_EQ(key_after("timing.warp_scheduler"), "timing.fetch_group_size");
  EXPECT_EQ(key_after("timing.fetch_group_size"), "timing.scoreboard");
  EXPECT_EQ(key_after("timing.scoreboard"), "timing.rid_entries");
  EXPECT_EQ(key_after("timing.rid_entries"), "timing.ibuffer_entries");
  EXPECT_EQ(key_after("timing.cta_scheduler"), "timing.block_launch_cycles");
}

TEST(PolicyKeys, SharedParameterIsOneKey) {
  int yield_after = 0;
  for (const OptionSpec& spec : option_specs()) yield_after += spec.key == "sm.yield_after";
  EXPECT_EQ(yield_after, 1);
  const OptionSpec& spec = find_option("sm.yield_after");
  EXPECT_EQ(spec.min, 1);
  EXPECT_EQ(spec.max, 1 << 20);
}

TEST(PolicyKeys, CacheReplacementAcceptsTheRegisteredPolicies) {
  EXPECT_EQ(find_option("l1.replacement").choices, (std::vector<std::string_view>{"fifo", "lru"}));
  EXPECT_EQ(test::override_error({"l2.replacement=plru"}), "bad value 'plru' for l2.replacement: expected one of fifo, lru");
}

}  // namespace
}  // namespace lockstep::config
