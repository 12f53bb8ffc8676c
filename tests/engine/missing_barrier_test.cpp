// A program whose two phases lack the __syncthreads() between them, common in real benchmarks
// and harmless on a GPU in practice: each thread writes its shared word, then reads the word
// of the thread 32 places on, in another warp. Warps reach memory in round-robin order in the
// functional model as in the timing model (and on the GPU), so both read what the other warp
// wrote; a warp that ran ahead to the read would see 0.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"

namespace lockstep {
namespace {

constexpr const char* kMissingBarrier = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry phases(.param .u64 out)
{
  .shared .align 4 .b32 words[128];
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, words;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  mul.lo.u32 %r5, %r1, 3;
  add.u32 %r5, %r5, 7;
  st.shared.u32 [%r4], %r5;
  add.u32 %r6, %r1, 32;
  and.b32 %r6, %r6, 127;
  shl.b32 %r7, %r6, 2;
  add.u32 %r8, %r2, %r7;
  ld.shared.u32 %r9, [%r8];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
  ret;
}
)";

void check(Engine& engine) {
  const ModuleId m = engine.load_ptx(kMissingBarrier, "phases.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 128);
  test::launch_ok(engine, m, "phases", {1, 1, 1}, {128, 1, 1}, {out.arg()});
  std::vector<uint32_t> expected;
  for (uint32_t t = 0; t < 128; ++t) expected.push_back(3 * ((t + 32) % 128) + 7);
  EXPECT_EQ(out.download(), expected);
}

TEST(MissingBarrier, WarpsSeeEachOthersFirstPhaseInFunctionalMode) {
  Engine engine;
  check(engine);
}

TEST(MissingBarrier, WarpsSeeEachOthersFirstPhaseInTimingMode) {
  EngineOptions options;
  options.timing = std::make_shared<const config::GpuConfig>(config::load_gpu_config("h100"));
  Engine engine(options);
  check(engine);
}

}  // namespace
}  // namespace lockstep
