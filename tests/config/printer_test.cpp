// `lockstep config` text: every key, and it parses back into the same configuration.
#include <gtest/gtest.h>

#include "config/config_printer.h"
#include "config/gpu_config.h"
#include "config/presets.h"

namespace lockstep::config {
namespace {

TEST(ConfigPrinter, PrintsEveryKeyGroupedByTable) {
  const std::string text = format_config(effective_values("teaching"), "teaching", {});
  EXPECT_EQ(text.substr(0, text.find("\n[sm]")),
            "# lockstep configuration: preset teaching\n"
            "\n[gpu]\n"
            "name = \"lockstep teaching GPU\"\n"
            "compute_capability = 90\n"
            "sm_count = 2\n"
            "core_clock_mhz = 1000\n"
            "memory_clock_mhz = 1000\n"
            "memory_bus_bits = 256\n"
            "global_memory_gib = 1.0\n"
            "l2_kib = 256\n"
            "pci_device_id = 0\n"
            "async_engines = 2\n"
            "host_link_mb_s = 8000\n"
            "ecc_enabled = 0\n"
            "fp32_to_fp64_ratio = 2\n");
  EXPECT_NE(text.find("\n[sm]\nwarp_size = 8\n"), std::string::npos);
  EXPECT_NE(text.find("shared_carveouts_kib = [0, 8, 16]\n"), std::string::npos);
  EXPECT_NE(text.find("register_alloc_granularity = \"warp\"\n"), std::string::npos);
  EXPECT_NE(text.find("\n[pipeline.ldst]\nlatency = 4\ninitiation_interval = 2\nlanes = 4\n"), std::string::npos);
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  EXPECT_EQ(lines, 1 + option_specs().size() + 2 * option_tables().size());
}

TEST(ConfigPrinter, NamesTheOverridesAndShowsTheirEffect) {
  const std::vector<std::string> sets{"sm.warp_size=16", "gpu.name=My \"GPU\""};
  const std::string text = format_config(effective_values("h100", sets), "h100", sets);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "# lockstep configuration: preset h100, overrides sm.warp_size=16 gpu.name=My \"GPU\"");
  EXPECT_NE(text.find("name = \"My \\\"GPU\\\"\"\n"), std::string::npos);
  EXPECT_NE(text.find("warp_size = 16\nmax_threads = 2048\nmax_warps = 128\n"), std::string::npos);
}

// A policy kind's key lists its registry's names, in registry order (policy/policy_registry.h).
TEST(ConfigPrinter, PolicyKeysListTheRegisteredNames) {
  const std::string text = format_config(effective_values("h100"), "h100", {});
  EXPECT_NE(text.find("  # one of ipdom-stack, branch-barrier, thread-frontier, dwf, tbc, large-warp, sbi, swi\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nwarp_scheduler = \"gto\"  # one of lrr, gto, two-level\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nscoreboard = "), std::string::npos);
  EXPECT_NE(text.find("  # one of bitmap, rid-table\n"), std::string::npos);
  EXPECT_NE(text.find("\ncta_scheduler = \"round-robin\"\n"), std::string::npos) << "one name: nothing to list";
  EXPECT_NE(text.find("\nreplacement = \"lru\"  # one of fifo, lru\n"), std::string::npos);
  // The instruction cache reads the caches' replacement registry too (mem/replacement/).
  const size_t icache = text.find("\n[icache]\n");
  ASSERT_NE(icache, std::string::npos) << text;
  EXPECT_NE(text.find("\nreplacement = \"lru\"  # one of fifo, lru\n", icache), std::string::npos) << text;
}

TEST(ConfigPrinter, OutputParsesBackToTheSameConfiguration) {
  for (const std::string& name : preset_names()) {
    SCOPED_TRACE(name);
    const ConfigValues values = effective_values(name, {"sm.max_blocks=5"});
    const ConfigValues again = parse_config_text(format_config(values, name, {}), "printed");
    for (const OptionSpec& spec : option_specs()) EXPECT_EQ(values.get(spec.key), again.get(spec.key)) << spec.key;
  }
}

}  // namespace
}  // namespace lockstep::config
