// The deadlock watchdog's keys (the [run] table): every preset gives the same defaults, which
// reach GpuConfig::run; overrides are checked like any key, and a bad value names the key and
// what it accepts.
#include <gtest/gtest.h>

#include "config/config_error.h"
#include "config/config_printer.h"
#include "config/gpu_config.h"
#include "config/presets.h"
#include "config_test_util.h"

namespace lockstep::config {
namespace {

using test::override_error;

TEST(WatchdogKeys, EveryPresetGivesTheDefaults) {
  const GpuConfig::Run defaults;  // the initialisers callers without a preset get
  for (const std::string& name : preset_names()) {
    SCOPED_TRACE(name);
    const GpuConfig g = load_gpu_config(name);
    EXPECT_EQ(g.run.watchdog_interval_cycles, uint64_t{1} << 16);
    EXPECT_EQ(g.run.watchdog_limit_cycles, uint64_t{1} << 32);
    EXPECT_EQ(g.run.watchdog_interval_instructions, uint64_t{1} << 20);
    EXPECT_EQ(g.run.watchdog_limit_instructions, uint64_t{1} << 38);
    EXPECT_EQ(g.run.watchdog_interval_cycles, defaults.watchdog_interval_cycles);
    EXPECT_EQ(g.run.watchdog_limit_cycles, defaults.watchdog_limit_cycles);
    EXPECT_EQ(g.run.watchdog_interval_instructions, defaults.watchdog_interval_instructions);
    EXPECT_EQ(g.run.watchdog_limit_instructions, defaults.watchdog_limit_instructions);
  }
}

TEST(WatchdogKeys, OverridesReachTheConfig) {
  const GpuConfig g = load_gpu_config("h100", {"run.watchdog_interval_cycles=128", "run.watchdog_limit_cycles=0",
                                               "run.watchdog_interval_instructions=4096",
                                               "run.watchdog_limit_instructions=1000000"});
  EXPECT_EQ(g.run.watchdog_interval_cycles, 128u);
  EXPECT_EQ(g.run.watchdog_limit_cycles, 0u);
  EXPECT_EQ(g.run.watchdog_interval_instructions, 4096u);
  EXPECT_EQ(g.run.watchdog_limit_instructions, 1000000u);
}

TEST(WatchdogKeys, ConfigPrintsTheRunTable) {
  const std::vector<std::string> sets{"run.watchdog_limit_cycles=0"};
  const std::string text = format_config(effective_values("h100", sets), "h100", sets);
  EXPECT_NE(text.find("\n[run]\n"
                      "watchdog_interval_cycles = 65536\n"
                      "watchdog_limit_cycles = 0\n"
                      "watchdog_interval_instructions = 1048576\n"
                      "watchdog_limit_instructions = 274877906944\n"),
            std::string::npos)
      << text;
}

TEST(WatchdogKeys, BadValuesNameTheKeyAndTheAcceptedValues) {
  EXPECT_EQ(override_error({"run.watchdog_limit_cycles=-1"}),
            "bad value '-1' for run.watchdog_limit_cycles: expected an integer from 0 to 4611686018427387904");
  EXPECT_EQ(override_error({"run.watchdog_limit_instructions=lots"}),
            "bad value 'lots' for run.watchdog_limit_instructions: expected an integer from 0 to "
            "4611686018427387904");
  EXPECT_EQ(override_error({"run.watchdog_interval_cycles=0"}),
            "bad value '0' for run.watchdog_interval_cycles: expected an integer from 1 to 1099511627776");
  EXPECT_EQ(override_error({"run.watchdog_interval_instructions=0"}),
            "bad value '0' for run.watchdog_interval_instructions: expected an integer from 1 to 1099511627776");
}

}  // namespace
}  // namespace lockstep::config
