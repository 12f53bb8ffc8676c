// Cross-field checks: values that are each legal but do not make one SM.
#include <gtest/gtest.h>

#include "config/config_error.h"
#include "config/gpu_config.h"

namespace lockstep::config {
namespace {

std::string error_of(const std::vector<std::string>& overrides, const std::string& preset = "h100") {
  try {
    load_gpu_config(preset, overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Consistency, BlockMustFitTheSm) {
  EXPECT_EQ(error_of({"sm.max_threads=512"}), "sm.max_threads_per_block (1024) exceeds sm.max_threads (512)");
  EXPECT_EQ(error_of({"sm.registers=32768"}), "sm.max_registers_per_block (65536) exceeds sm.registers (32768)");
}

TEST(Consistency, RegistersSplitAmongSchedulers) {
  EXPECT_EQ(error_of({"sm.schedulers=3"}), "sm.registers (65536) must split evenly among sm.schedulers (3)");
  EXPECT_EQ(error_of({"sm.register_alloc_unit=4096"}, "teaching"), "no error");  // exactly one partition
  EXPECT_EQ(error_of({"sm.register_alloc_unit=8192"}, "teaching"),
            "sm.register_alloc_unit (8192) exceeds one scheduler's registers (sm.registers / sm.schedulers = 4096)");
}

TEST(Consistency, SharedMemoryLimitsNest) {
  EXPECT_EQ(error_of({"sm.shared_per_block_kib=230"}),
            "sm.shared_per_block_kib (230) exceeds sm.shared_per_block_optin_kib (227)");
  EXPECT_EQ(error_of({"sm.shared_per_block_optin_kib=228"}),
            "sm.shared_per_block_optin_kib (228) plus sm.shared_reserved_per_block (1024 bytes) exceeds sm.shared_kib (228)");
  EXPECT_EQ(error_of({"sm.shared_carveouts_kib=[0, 64, 32, 228]"}),
            "sm.shared_carveouts_kib must rise: [0, 64, 32, 228]");
  EXPECT_EQ(error_of({"sm.shared_carveouts_kib=[0, 64, 164]"}),
            "sm.shared_carveouts_kib must end at sm.shared_kib (228); it ends at 164");
}

}  // namespace
}  // namespace lockstep::config
