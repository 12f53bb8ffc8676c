// sm.divergence, sm.yield_after and sm.large_warp_size: branch barriers (independent thread
// scheduling) on the presets of compute capability 7.0 and later, the SIMT stack on Fermi, large
// warps of 4 warps; bad values name the key and the accepted ones (tests/engine/divergence_config_test.cpp checks them against the engine's units).
#include <gtest/gtest.h>

#include "config/config_error.h"
#include "config/gpu_config.h"
#include "config/presets.h"
#include "config_test_util.h"

namespace lockstep::config {
namespace {

using test::override_error;

TEST(DivergenceKeys, Cc70AndLaterUseBranchBarriers) {
  for (const std::string& name : preset_names()) {
    SCOPED_TRACE(name);
    const GpuConfig g = load_gpu_config(name);
    EXPECT_EQ(g.sm.divergence, g.gpu.compute_capability >= 70 ? "branch-barrier" : "ipdom-stack");
    EXPECT_EQ(g.sm.yield_after, 64u);
    EXPECT_EQ(g.sm.large_warp_size, 4u);
  }
  EXPECT_EQ(load_gpu_config("fermi").sm.divergence, "ipdom-stack");
}

TEST(DivergenceKeys, OverridesAreChecked) {
  EXPECT_EQ(load_gpu_config("h100", {"sm.divergence=ipdom-stack"}).sm.divergence, "ipdom-stack");
  EXPECT_EQ(load_gpu_config("h100", {"sm.yield_after=8"}).sm.yield_after, 8u);
  EXPECT_EQ(override_error({"sm.divergence=stack"}),
            "bad value 'stack' for sm.divergence: expected one of ipdom-stack, branch-barrier, "
            "thread-frontier, dwf, tbc, large-warp, sbi, swi");
  EXPECT_NE(override_error({"sm.yield_after=0"}).find("sm.yield_after"), std::string::npos);
  EXPECT_EQ(load_gpu_config("h100", {"sm.divergence=large-warp", "sm.large_warp_size=2"}).sm.large_warp_size, 2u);
  EXPECT_EQ(override_error({"sm.large_warp_size=0"}), "bad value '0' for sm.large_warp_size: expected an integer from 1 to 64");
  EXPECT_EQ(override_error({"sm.large_warp_size=65"}), "bad value '65' for sm.large_warp_size: expected an integer from 1 to 64");
}

}  // namespace
}  // namespace lockstep::config
