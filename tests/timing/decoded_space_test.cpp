// The timing model and the functional model read an instruction's space and effects from the
// one decode made when the kernel is lowered (ir/decoded_form.h), so every spelling of a space
// is timed as that space, and the two models agree on what an instruction may change.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "func/instruction_effects.h"
#include "ir/decoded_form.h"
#include "sim/instruction_timing.h"
#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

// Issue cycle by PTX line, from issue_trace's "cycle:line " list (the last issue of a line).
std::map<uint32_t, uint64_t> issue_cycles(const std::string& trace) {
  std::map<uint32_t, uint64_t> cycles;
  std::istringstream in(trace);
  std::string entry;
  while (in >> entry) {
    const size_t colon = entry.find(':');
    cycles[static_cast<uint32_t>(std::stoul(entry.substr(colon + 1)))] = std::stoull(entry.substr(0, colon));
  }
  return cycles;
}

// A load from a 32-float shared array in `space` (line 10) and an add that waits for it (line 11).
std::string shared_load_kernel(const std::string& space) {
  return micro_kernel("  ld." + space + ".f32 %f1, [buf+4];\n  add.f32 %f1, %f1, 0f3F800000;\n",
                      ".shared .align 4 .f32 buf[32];");
}

// The teaching preset's fixed latencies (shared 20 cycles, global 400), fetch misses of 1 cycle.
std::shared_ptr<const config::GpuConfig> teaching() { return timing_gpu("teaching", {"icache.miss_latency=1"}); }

TEST(DecodedSpaceTiming, SharedCtaLoadIsTimedAsASharedLoad) {
  const auto gpu = teaching();
  ASSERT_EQ(gpu->memory.shared_latency, 20u);
  auto engine = timing_engine(gpu);
  const std::string plain = issue_trace(*engine, shared_load_kernel("shared"), 1, 32);
  const std::string cta = issue_trace(*engine, shared_load_kernel("shared::cta"), 1, 32);
  EXPECT_EQ(cta, plain);  // cycle for cycle, every instruction of the kernel
  // By hand: the load issues at 4 (first fetch miss, decode), the add waits for it until 24,
  // the index arithmetic and the store follow as in DependentChain, the store's 400 cycles end
  // the block at 445.
  EXPECT_EQ(cta, "4:10 24:11 26:13 28:14 29:15 33:16 34:17 37:18 41:19 45:20 47:21 48:21 ");
  // The engine's clusters hold one CTA: shared::cluster memory of the CTA's own window, timed alike.
  EXPECT_EQ(issue_trace(*engine, shared_load_kernel("shared::cluster"), 1, 32), plain);
  const std::map<uint32_t, uint64_t> at = issue_cycles(cta);
  ASSERT_TRUE(at.contains(10) && at.contains(11)) << cta;
  // The add waits exactly the shared latency for the load's result.
  EXPECT_EQ(at.at(11) - at.at(10), 20u) << cta;
  const uint64_t plain_cycles = run_timed(*engine, shared_load_kernel("shared"), 1, 32).cycles;
  EXPECT_EQ(plain_cycles, 446u);
  std::vector<float> out;
  EXPECT_EQ(run_timed(*engine, shared_load_kernel("shared::cta"), 1, 32, &out).cycles, plain_cycles);
  EXPECT_EQ(out[0], 1.0f);  // shared memory starts zeroed: 0 + 1
}

// A hand-built instruction, decoded as the lowering decodes it.
ir::Instruction inst(std::string opcode, std::vector<std::string> modifiers) {
  ir::Instruction i;
  i.opcode = std::move(opcode);
  i.modifiers = std::move(modifiers);
  i.decoded = ir::decode_form(i.opcode, i.modifiers);
  return i;
}

// Forms the models once read differently: param::entry/param::func were private to the timing
// model but shared memory (param::entry) and a global write (st.param::func) to the functional
// one; a constant bank was global memory to the timing model and const to the functional one.
TEST(DecodedSpaceTiming, QualifiedPrivateSpacesAgreeInBothModels) {
  const config::GpuConfig gpu = config::load_gpu_config("teaching");
  ir::KernelProgram k;
  k.code.push_back(inst("ld", {"param::entry", "u64"}));
  k.code.push_back(inst("st", {"param::func", "b32"}));
  k.code.push_back(inst("ld", {"const[2]", "u32"}));
  k.code.push_back(inst("st", {"shared::cluster", "u32"}));
  k.code.push_back(inst("st", {"global", "u32"}));
  const std::vector<sim::InstTiming> t = sim::instruction_timing(k, gpu, {4, 0});
  EXPECT_EQ(t[0].space, sim::MemorySpace::kConstant);
  EXPECT_EQ(t[1].space, sim::MemorySpace::kConstant);
  EXPECT_EQ(t[2].space, sim::MemorySpace::kConstant);
  EXPECT_EQ(t[2].memory_latency, gpu.memory.constant_latency);
  EXPECT_EQ(t[3].space, sim::MemorySpace::kShared);
  EXPECT_EQ(t[4].space, sim::MemorySpace::kGlobal);
  const bool shares[] = {false, false, false, true, true};
  const bool writes_global[] = {false, false, false, false, true};
  for (size_t pc = 0; pc < k.code.size(); ++pc) {
    SCOPED_TRACE(k.code[pc].form());
    EXPECT_EQ(func::shares_memory(k.code[pc]), shares[pc]);
    EXPECT_EQ(func::may_write_global(k.code[pc]), writes_global[pc]);
    EXPECT_EQ(t[pc].deferred, writes_global[pc]);  // only the global store runs at the cycle's end
  }
}

}  // namespace
}  // namespace lockstep::test
