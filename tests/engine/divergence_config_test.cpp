// sm.divergence's accepted values are the engine's divergence units (func::divergence_unit_names),
// and the engine runs the unit the timing preset names.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "config/gpu_config.h"
#include "engine/engine.h"
#include "func/divergence/divergence_unit.h"

namespace lockstep {
namespace {

TEST(DivergenceConfig, ChoicesAreTheEnginesUnits) {
  for (const std::string& unit : func::divergence_unit_names()) {
    SCOPED_TRACE(unit);
    const auto gpu = std::make_shared<const config::GpuConfig>(
        config::load_gpu_config("h100", {"sm.divergence=" + unit, "sm.yield_after=3"}));
    EXPECT_EQ(gpu->sm.divergence, unit);
    EngineOptions options;
    options.divergence = "branch-barrier";
    options.timing = gpu;
    Engine engine(options);
    EXPECT_EQ(engine.options().divergence, unit);
    EXPECT_EQ(engine.options().yield_after, 3u);
  }
}

}  // namespace
}  // namespace lockstep
