// The keys of the cycle-level model: icache.replacement, the [opcodes] unit lists and the
// [timing] policies and sizes. Every preset gives them; overrides are checked like any key;
// opcode forms are split, spelled correctly and listed for one unit only.
#include <gtest/gtest.h>

#include "config/config_error.h"
#include "config/gpu_config.h"
#include "config/presets.h"

namespace lockstep::config {
namespace {

using Forms = std::vector<std::string>;

std::string error_of(const std::vector<std::string>& overrides, const std::string& preset = "teaching") {
  try {
    load_gpu_config(preset, overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(TimingKeys, EveryPresetGivesTheSharedValues) {
  for (const std::string& name : preset_names()) {
    SCOPED_TRACE(name);
    const GpuConfig g = load_gpu_config(name);
    EXPECT_EQ(g.icache.replacement, "lru");
    EXPECT_EQ(g.opcodes.sfu, (Forms{"sin", "cos", "ex2", "lg2", "rsqrt", "sqrt.approx", "rcp.approx", "tanh"}));
    EXPECT_EQ(g.opcodes.tensor, (Forms{"mma", "wmma"}));
    EXPECT_EQ(g.opcodes.ldst, (Forms{"ld", "st", "ldu", "atom", "red", "cp", "mbarrier", "tex", "tld4", "txq", "suld",
                                     "sust", "suq", "prefetch", "prefetchu", "ldmatrix", "stmatrix", "cvta", "isspacep"}));
    EXPECT_EQ(g.opcodes.fp64, Forms{});
    EXPECT_EQ(g.opcodes.fp32, Forms{});
    EXPECT_EQ(g.opcodes.integer, Forms{});
    EXPECT_EQ(g.timing.fetch_group_size, 8u);
    EXPECT_EQ(g.timing.scoreboard, "bitmap");
    EXPECT_EQ(g.timing.rid_entries, 6u);
    EXPECT_EQ(g.timing.ibuffer_entries, 2u);
    EXPECT_EQ(g.timing.fetch_width, 2u);
    EXPECT_EQ(g.timing.collector_units, 2u);
    EXPECT_TRUE(g.timing.bank_by_warp);
    EXPECT_EQ(g.timing.writeback_ports, 1u);
    EXPECT_EQ(g.timing.simt_push_cycles, 0u);
    EXPECT_EQ(g.timing.simt_pop_cycles, 0u);
    EXPECT_EQ(g.timing.cta_scheduler, "round-robin");
    EXPECT_EQ(g.timing.block_launch_cycles, 0u);
    EXPECT_FALSE(g.timing.kernel_overlap);
  }
}

TEST(TimingKeys, PresetsDifferInSchedulerAndBanks) {
  for (const std::string name : {"v100", "a100", "h100", "h200"}) {
    SCOPED_TRACE(name);
    const GpuConfig g = load_gpu_config(name);
    EXPECT_EQ(g.timing.warp_scheduler, "gto");
    EXPECT_EQ(g.timing.register_banks, 2u);
  }
  const GpuConfig fermi = load_gpu_config("fermi");
  EXPECT_EQ(fermi.timing.warp_scheduler, "lrr");
  EXPECT_EQ(fermi.timing.register_banks, 4u);
  const GpuConfig teaching = load_gpu_config("teaching");
  EXPECT_EQ(teaching.timing.warp_scheduler, "lrr");
  EXPECT_EQ(teaching.timing.register_banks, 4u);
}

TEST(TimingKeys, RealGpuPresetsFoldImmediateMovesAndTeachingModelsIssueThem) {
  for (const char* name : {"h100", "h200", "a100", "v100"}) EXPECT_TRUE(load_gpu_config(name).timing.fold_immediate_moves) << name;
  for (const char* name : {"teaching", "fermi"}) EXPECT_FALSE(load_gpu_config(name).timing.fold_immediate_moves) << name;
  EXPECT_FALSE(load_gpu_config("h100", {"timing.immediate_moves=issue"}).timing.fold_immediate_moves);
  EXPECT_EQ(error_of({"timing.immediate_moves=yes"}),
            "bad value 'yes' for timing.immediate_moves: expected one of fold, issue");
}

TEST(TimingKeys, OverridesApply) {
  const GpuConfig g = load_gpu_config("h100", {"timing.scoreboard=rid-table", "timing.rid_entries=1",
                                               "timing.warp_scheduler=two-level", "timing.fetch_group_size=4",
                                               "icache.replacement=fifo", "timing.simt_push_cycles=3",
                                               "timing.block_launch_cycles=100000"});
  EXPECT_EQ(g.timing.scoreboard, "rid-table");
  EXPECT_EQ(g.timing.rid_entries, 1u);
  EXPECT_EQ(g.timing.warp_scheduler, "two-level");
  EXPECT_EQ(g.timing.fetch_group_size, 4u);
  EXPECT_EQ(g.icache.replacement, "fifo");
  EXPECT_EQ(g.timing.simt_push_cycles, 3u);
  EXPECT_EQ(g.timing.simt_pop_cycles, 0u);
  EXPECT_EQ(g.timing.block_launch_cycles, 100000u);
}

TEST(TimingKeys, BadValuesNameTheAcceptedValues) {
  EXPECT_EQ(error_of({"timing.scoreboard=cam"}), "bad value 'cam' for timing.scoreboard: expected one of bitmap, rid-table");
  EXPECT_EQ(error_of({"timing.warp_scheduler=two_level"}),
            "bad value 'two_level' for timing.warp_scheduler: expected one of lrr, gto, two-level");
  EXPECT_EQ(error_of({"timing.bank_mapping=xor"}),
            "bad value 'xor' for timing.bank_mapping: expected one of warp-offset, register");
  EXPECT_FALSE(load_gpu_config("h100", {"timing.bank_mapping=register"}).timing.bank_by_warp);
  EXPECT_EQ(error_of({"icache.replacement=random"}),
            "bad value 'random' for icache.replacement: expected one of fifo, lru");
  EXPECT_EQ(error_of({"timing.cta_scheduler=bcs"}),
            "bad value 'bcs' for timing.cta_scheduler: expected one of round-robin");
  EXPECT_EQ(error_of({"timing.rid_entries=0"}), "bad value '0' for timing.rid_entries: expected an integer from 1 to 32");
  EXPECT_EQ(error_of({"timing.rid_entries=33"}),
            "bad value '33' for timing.rid_entries: expected an integer from 1 to 32");
  EXPECT_EQ(error_of({"timing.simt_pop_cycles=-1"}),
            "bad value '-1' for timing.simt_pop_cycles: expected an integer from 0 to 1000");
  EXPECT_EQ(error_of({"timing.fetch_width=17"}),
            "bad value '17' for timing.fetch_width: expected an integer from 1 to 16");
  EXPECT_EQ(error_of({"timing.fetch_group_size=1025"}),
            "bad value '1025' for timing.fetch_group_size: expected an integer from 1 to 1024");
}

TEST(TimingKeys, UnknownTimingKeyListsTheTimingKeys) {
  EXPECT_EQ(error_of({"timing.scheduler=gto"}),
            "unknown configuration key 'timing.scheduler' (keys in [timing]: warp_scheduler, fetch_group_size, "
            "scoreboard, rid_entries, ibuffer_entries, fetch_width, collector_units, register_banks, "
            "bank_reads_per_cycle, bank_mapping, writeback_ports, immediate_moves, simt_push_cycles, simt_pop_cycles, cta_scheduler, block_launch_cycles, "
            "kernel_overlap)");
  EXPECT_EQ(error_of({"opcodes.integer=mov"}),
            "unknown configuration key 'opcodes.integer' (keys in [opcodes]: sfu, tensor, ldst, fp64, fp32, int)");
}

TEST(TimingKeys, OpcodeListsSplitOnAnyWhitespace) {
  const GpuConfig g = load_gpu_config("teaching", {"opcodes.int=  mov   add.cc\tsub_2 \t", "opcodes.fp64=dfma"});
  EXPECT_EQ(g.opcodes.integer, (Forms{"mov", "add.cc", "sub_2"}));
  EXPECT_EQ(g.opcodes.fp64, (Forms{"dfma"}));
  EXPECT_EQ(load_gpu_config("teaching", {"opcodes.fp32=\"fma.rn\""}).opcodes.fp32, (Forms{"fma.rn"}));
}

TEST(TimingKeys, AnEmptyOpcodeListIsAllowed) {
  EXPECT_EQ(load_gpu_config("teaching", {"opcodes.sfu="}).opcodes.sfu, Forms{});
  EXPECT_EQ(load_gpu_config("teaching", {"opcodes.sfu=\"\""}).opcodes.sfu, Forms{});
  EXPECT_EQ(load_gpu_config("teaching", {"opcodes.sfu= \t "}).opcodes.sfu, Forms{});
}

TEST(TimingKeys, BadOpcodeFormNamesKeyAndForm) {
  const std::string expected_tail =
      ": expected an opcode or opcode.modifier of lowercase letters, digits and underscores, like sin or rcp.approx";
  EXPECT_EQ(error_of({"opcodes.sfu=sin Cos"}), "bad opcode 'Cos' in opcodes.sfu" + expected_tail);
  EXPECT_EQ(error_of({"opcodes.int=mov rcp.approx.f32"}), "bad opcode 'rcp.approx.f32' in opcodes.int" + expected_tail);
  EXPECT_EQ(error_of({"opcodes.fp32=.approx"}), "bad opcode '.approx' in opcodes.fp32" + expected_tail);
  EXPECT_EQ(error_of({"opcodes.fp64=dfma."}), "bad opcode 'dfma.' in opcodes.fp64" + expected_tail);
  EXPECT_EQ(error_of({"opcodes.tensor=mma,wmma"}), "bad opcode 'mma,wmma' in opcodes.tensor" + expected_tail);
}

TEST(TimingKeys, AFormListedTwiceIsRefused) {
  EXPECT_EQ(error_of({"opcodes.int=mov sin"}), "opcode 'sin' is listed in both opcodes.sfu and opcodes.int");
  EXPECT_EQ(error_of({"opcodes.fp32=ld.global"}), "no error");  // "ld" and "ld.global" are different forms
  EXPECT_EQ(error_of({"opcodes.fp32=mov", "opcodes.fp64=mov"}),
            "opcode 'mov' is listed in both opcodes.fp64 and opcodes.fp32");
  EXPECT_EQ(error_of({"opcodes.tensor=mma wmma mma"}), "opcode 'mma' is listed twice in opcodes.tensor");
}

TEST(TimingKeys, PresetTextWithAWrongTypeNamesTheFile) {
  std::string text(preset_text("teaching"));
  const std::string line = "tensor = \"mma wmma\"";
  const size_t at = text.find(line);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, line.size(), "tensor = 3");
  try {
    parse_config_text(text, "mine.toml");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "mine.toml: bad value '3' for opcodes.tensor: expected a string");
  }
}

}  // namespace
}  // namespace lockstep::config
