// The embedded presets: every one loads, holds the published figures its file cites, and an
// unknown name lists the accepted ones.
#include <gtest/gtest.h>

#include <algorithm>

#include "config/config_error.h"
#include "config/gpu_config.h"
#include "config/presets.h"

namespace lockstep::config {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Presets, NamesAreSorted) {
  EXPECT_EQ(preset_names(), (std::vector<std::string>{"a100", "fermi", "h100", "h200", "teaching", "v100"}));
}

TEST(Presets, EveryPresetLoadsAndIsConsistent) {
  for (const std::string& name : preset_names()) {
    SCOPED_TRACE(name);
    const GpuConfig g = load_gpu_config(name);
    EXPECT_EQ(g.preset, name);
    EXPECT_FALSE(g.gpu.name.empty());
    EXPECT_GT(g.pipeline.fp32.lanes, 0u);
    EXPECT_GT(g.icache.sets, 0u);
  }
}

// What an H200 itself reports (bench/hw/run_on_gpu.sh on one, bench/hw/results/): 132 SMs, a
// 60 MB L2 (not the H100's 50), 1980 MHz; the L2 splits into the H100's 640 KB slices.
TEST(Presets, H200HoldsTheMeasuredFigures) {
  const GpuConfig g = load_gpu_config("h200");
  EXPECT_EQ(g.gpu.sm_count, 132u);
  EXPECT_EQ(g.gpu.core_clock_mhz, 1980u);
  EXPECT_EQ(uint64_t{g.gpu.l2_kib} * 1024, 62914560u);
  EXPECT_EQ(g.gpu.l2_kib / g.l2.slices, 640u);
  EXPECT_EQ(g.l2.slices, g.dram.channels);  // one memory partition per slice and channel
}

TEST(Presets, H100HoldsTheProgrammingGuideFigures) {
  const GpuConfig g = load_gpu_config("h100");
  EXPECT_EQ(g.gpu.name, "H100 SXM5");
  EXPECT_EQ(g.gpu.compute_capability, 90u);
  EXPECT_EQ(g.gpu.sm_count, 132u);
  EXPECT_EQ(g.gpu.core_clock_mhz, 1980u);
  EXPECT_EQ(g.gpu.global_memory_bytes(), 80ull << 30);
  EXPECT_EQ(g.gpu.l2_kib, 51200u);
  EXPECT_EQ(g.sm.warp_size, 32u);
  EXPECT_EQ(g.sm.max_threads, 2048u);
  EXPECT_EQ(g.sm.max_warps, 64u);
  EXPECT_EQ(g.sm.max_blocks, 32u);
  EXPECT_EQ(g.sm.registers, 65536u);
  EXPECT_EQ(g.sm.shared_bytes(), 233472u);
  EXPECT_EQ(g.sm.shared_per_block_optin_bytes(), 232448u);
  EXPECT_EQ(g.sm.shared_reserved_per_block, 1024u);
  EXPECT_EQ(g.sm.shared_carveouts_kib, (std::vector<uint32_t>{0, 8, 16, 32, 64, 100, 132, 164, 196, 228}));
  EXPECT_EQ(g.sm.schedulers, 4u);
  EXPECT_EQ(g.pipeline.sfu.latency, 23u);
  // The shared pipeline's own latency: a shared-memory chase (its PTX adds a shl and an add per
  // step) then takes the published 29 cycles (bench/memory_bench.cpp).
  EXPECT_EQ(g.memory.shared_latency, 18u);
  EXPECT_TRUE(g.memory.hierarchy);
  EXPECT_EQ(g.l2.slices, 80u);
  EXPECT_EQ(g.dram.channels * g.dram.bus_bytes * 2 * g.gpu.memory_clock_mhz, 3352320u);  // 3.35 TB/s in MB/s
}

TEST(Presets, A100AndV100DifferWhereTheGuideSays) {
  const GpuConfig a = load_gpu_config("a100");
  EXPECT_EQ(a.gpu.compute_capability, 80u);
  EXPECT_EQ(a.gpu.sm_count, 108u);
  EXPECT_EQ(a.sm.shared_bytes(), 167936u);
  EXPECT_EQ(a.sm.shared_per_block_optin_bytes(), 166912u);
  const GpuConfig v = load_gpu_config("v100");
  EXPECT_EQ(v.gpu.compute_capability, 70u);
  EXPECT_EQ(v.gpu.sm_count, 80u);
  EXPECT_EQ(v.sm.shared_bytes(), 98304u);
  EXPECT_EQ(v.sm.shared_alloc_unit, 256u);
  EXPECT_EQ(v.sm.shared_reserved_per_block, 0u);
  EXPECT_EQ(v.pipeline.fp64.latency, 8u);
}

TEST(Presets, FermiAndTeachingAreSmall) {
  const GpuConfig f = load_gpu_config("fermi");
  EXPECT_EQ(f.gpu.compute_capability, 20u);
  EXPECT_EQ(f.gpu.sm_count, 15u);
  EXPECT_EQ(f.sm.max_threads, 1536u);
  EXPECT_EQ(f.sm.max_blocks, 8u);
  EXPECT_EQ(f.sm.registers, 32768u);
  EXPECT_EQ(f.sm.shared_kib, 48u);
  EXPECT_EQ(f.sm.schedulers, 2u);
  EXPECT_EQ(f.gpu.global_memory_bytes(), 1536ull << 20);
  const GpuConfig t = load_gpu_config("teaching");
  EXPECT_EQ(t.gpu.sm_count, 2u);
  EXPECT_EQ(t.sm.warp_size, 8u);
  EXPECT_EQ(t.sm.max_threads, 256u);
  EXPECT_EQ(t.sm.max_blocks, 8u);
  EXPECT_EQ(t.sm.schedulers, 2u);
}

TEST(Presets, UnknownGpuListsTheAcceptedNames) {
  EXPECT_EQ(error_of([] { load_preset("h300"); }),
            "unknown GPU 'h300' (accepted: a100, fermi, h100, h200, teaching, v100)");
}

TEST(Presets, TextMissingAKeyIsRefusedWithTheKey) {
  EXPECT_EQ(error_of([] { parse_config_text("[gpu]\nname = \"x\"\n", "mine.toml"); }),
            "mine.toml: missing key gpu.compute_capability");
}

TEST(Presets, TextWithAnUnknownKeyOrBadValueNamesTheFile) {
  std::string text(preset_text("teaching"));
  EXPECT_EQ(error_of([&] { parse_config_text(text + "[sm2]\nx = 1\n", "mine.toml"); }),
            "mine.toml: unknown configuration key 'sm2.x' (tables: gpu, sm, pipeline.int, pipeline.fp32, "
            "pipeline.fp64, pipeline.sfu, pipeline.tensor, pipeline.ldst, memory, l1, l2, interconnect, dram, icache, "
            "opcodes, timing, run)");
  const size_t at = text.find("sm_count = 2");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 12, "sm_count = 0");
  EXPECT_EQ(error_of([&] { parse_config_text(text, "mine.toml"); }),
            "mine.toml: bad value '0' for gpu.sm_count: expected an integer from 1 to 1024");
}

TEST(Presets, MalformedTomlGivesLineAndColumn) {
  EXPECT_EQ(error_of([] { parse_config_text("[gpu\n", "bad.toml"); }).substr(0, 10), "bad.toml:1");
}

// What parse_config_text says of `text` (error_of above).
std::string inherit_error(std::string_view text) {
  return error_of([&] { parse_config_text(text, "mine.toml"); });
}

// configs/h200.toml names only what differs from the H100: every other key is the H100's.
TEST(PresetInheritance, H200IsTheH100ButForItsMemory) {
  const ConfigValues h100 = load_preset("h100"), h200 = load_preset("h200");
  const std::vector<std::string> differ = {"gpu.name",     "gpu.memory_clock_mhz", "gpu.memory_bus_bits",
                                           "gpu.global_memory_gib", "gpu.l2_kib", "gpu.pci_device_id",
                                           "l2.slices",    "dram.channels",        "dram.t_rcd",
                                           "dram.t_rp",    "dram.t_ras",           "dram.t_cl",
                                           "dram.t_wl"};
  size_t differing = 0;
  for (const OptionSpec& spec : option_specs()) {
    const bool listed = std::find(differ.begin(), differ.end(), spec.key) != differ.end();
    EXPECT_EQ(h100.get(spec.key) != h200.get(spec.key), listed) << spec.key;
    differing += listed;
  }
  EXPECT_EQ(differing, differ.size());
  EXPECT_EQ(h200.get_int("dram.channels"), 96);
  EXPECT_EQ(h200.get_string("timing.warp_scheduler"), "gto");
}

TEST(PresetInheritance, AUserTextMayInheritAndOverride) {
  const ConfigValues mine = parse_config_text("inherits = \"h200\"\n[sm]\nmax_blocks = 16\n", "mine.toml");
  EXPECT_EQ(mine.get_int("sm.max_blocks"), 16);
  EXPECT_EQ(mine.get_int("dram.channels"), 96);          // from h200
  EXPECT_EQ(mine.get_int("gpu.sm_count"), 132);          // from h100, through h200
  EXPECT_EQ(make_gpu_config(mine, "mine").sm.max_blocks, 16u);
}

TEST(PresetInheritance, BadBasesAreNamed) {
  EXPECT_EQ(inherit_error("inherits = \"h300\"\n"),
            "mine.toml: inherits: unknown GPU 'h300' (accepted: a100, fermi, h100, h200, teaching, v100)");
  EXPECT_EQ(inherit_error("inherits = 100\n"), "mine.toml: inherits: expected the name of a preset, in quotes");
  EXPECT_EQ(inherit_error("inherits = \"h100\"\n[sm]\nwarps = 1\n"),
            "mine.toml: unknown configuration key 'sm.warps' (keys in [sm]: warp_size, max_threads, max_warps, "
            "max_blocks, registers, register_alloc_unit, register_alloc_granularity, max_registers_per_thread, "
            "max_registers_per_block, shared_kib, shared_per_block_kib, shared_per_block_optin_kib, "
            "shared_alloc_unit, shared_reserved_per_block, shared_carveouts_kib, max_threads_per_block, schedulers, "
            "issue_width, divergence, yield_after, large_warp_size)");
}

}  // namespace
}  // namespace lockstep::config
