// Deferred kernel errors (LoadOptions::defer_kernel_errors): a kernel that uses an instruction
// lockstep cannot run makes only that kernel unavailable; its module's other kernels still run.
// Also the progress hook, which reports every finished thread block.
#include <gtest/gtest.h>

#include <vector>

#include "common/harness.h"
#include "engine/engine.h"
#include "ptx/error.h"

namespace lockstep {
namespace {

constexpr const char* kMixedModule = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry runs(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %ctaid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], 7;
  ret;
}
.visible .entry cannot()
{
  .reg .b64 %rd<3>;
  redux.sync.add.b64 %rd1, %rd2, 0xffffffff;
  ret;
}
)";

LoadOptions deferred() {
  LoadOptions load;
  load.defer_kernel_errors = true;
  return load;
}

TEST(DeferredKernelErrors, StrictLoadRejectsTheWholeModule) {
  Engine engine;
  try {
    engine.load_ptx(kMixedModule, "mixed.ptx");
    FAIL() << "loaded";
  } catch (const ptx::Error& e) {
    EXPECT_STREQ(e.what(), "mixed.ptx:18:3: unsupported PTX instruction 'redux.sync.add.b64' at mixed.ptx:18");
  }
}

TEST(DeferredKernelErrors, OnlyTheKernelThatNeedsTheInstructionIsUnavailable) {
  Engine engine;
  const ModuleId m = engine.load_ptx(kMixedModule, "mixed.ptx", deferred());
  EXPECT_EQ(engine.kernel_error(m, "runs"), "");
  EXPECT_EQ(engine.kernel_error(m, "cannot"),
            "mixed.ptx:18:3: unsupported PTX instruction 'redux.sync.add.b64' at mixed.ptx:18");
  // Its interface is still known (a runtime answers cudaFuncGetAttributes for it).
  EXPECT_EQ(engine.kernel_info(m, "cannot").name, "cannot");

  test::DeviceBuffer<uint32_t> out(engine, 3);
  test::launch_ok(engine, m, "runs", {3, 1, 1}, {1, 1, 1}, {KernelArg::of(out.address())});
  EXPECT_EQ(out.download(), (std::vector<uint32_t>{7, 7, 7}));

  try {
    engine.launch(m, "cannot", {1, 1, 1}, {32, 1, 1}, 0, {});
    FAIL() << "launched";
  } catch (const KernelUnavailable& e) {
    EXPECT_STREQ(e.what(),
                 "kernel 'cannot' cannot run: mixed.ptx:18:3: unsupported PTX instruction 'redux.sync.add.b64' at "
                 "mixed.ptx:18");
  }
}

TEST(LaunchProgress, ReportsEveryFinishedBlockInOrder) {
  Engine engine;
  const ModuleId m = engine.load_ptx(kMixedModule, "mixed.ptx", deferred());
  std::vector<std::pair<uint64_t, uint64_t>> seen;  // blocks done, thread instructions
  engine.set_progress([&](const LaunchProgress& p) {
    EXPECT_EQ(p.kernel, "runs");
    EXPECT_EQ(p.blocks_total, 4u);
    seen.emplace_back(p.blocks_done, p.thread_instructions);
  });
  test::DeviceBuffer<uint32_t> out(engine, 4);
  test::launch_ok(engine, m, "runs", {2, 2, 1}, {1, 1, 1}, {KernelArg::of(out.address())});
  // Seven instructions per single-thread block.
  EXPECT_EQ(seen, (std::vector<std::pair<uint64_t, uint64_t>>{{1, 7}, {2, 14}, {3, 21}, {4, 28}}));
}

}  // namespace
}  // namespace lockstep
