// A construct lockstep cannot lower (here a vector register, `.reg .v2`) fails only the kernel
// that uses it: the module loads, the other kernel runs, and launching the bad one gives the
// lowering's located message. A strict load (lockstep check) still rejects the module with it.
#include <gtest/gtest.h>

#include <vector>

#include "common/harness.h"
#include "engine/engine.h"
#include "ptx/error.h"

namespace lockstep {
namespace {

constexpr const char* kModule = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry cannot(.param .u64 out)
{
  .reg .v2 .u32 %pair;
  ret;
}
.visible .entry runs(.param .u64 out)
{
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], 42;
  ret;
}
)";

constexpr const char* kMessage = "lowering.ptx:6:17: vector register '%pair' (.reg .v2) is not supported";

TEST(DeferredLoweringErrors, StrictLoadRejectsTheModuleWithTheLocatedMessage) {
  Engine engine;
  try {
    engine.load_ptx(kModule, "lowering.ptx");
    FAIL() << "loaded";
  } catch (const ptx::Error& e) {
    EXPECT_STREQ(e.what(), kMessage);
  }
}

TEST(DeferredLoweringErrors, OnlyTheKernelThatUsesTheConstructFails) {
  Engine engine;
  LoadOptions load;
  load.defer_kernel_errors = true;
  const ModuleId m = engine.load_ptx(kModule, "lowering.ptx", load);
  EXPECT_EQ(engine.kernel_error(m, "runs"), "");
  EXPECT_EQ(engine.kernel_error(m, "cannot"), kMessage);
  // Its parameters are still known: the runtime registers and sizes every kernel's arguments.
  ASSERT_EQ(engine.kernel_info(m, "cannot").params.size(), 1u);
  EXPECT_EQ(engine.kernel_info(m, "cannot").params[0].size, 8u);

  test::DeviceBuffer<uint32_t> out(engine, 1);
  test::launch_ok(engine, m, "runs", {1, 1, 1}, {1, 1, 1}, {out.arg()});
  EXPECT_EQ(out.download(), std::vector<uint32_t>{42});
  try {
    engine.launch(m, "cannot", {1, 1, 1}, {32, 1, 1}, 0, {out.arg()});
    FAIL() << "launched";
  } catch (const KernelUnavailable& e) {
    EXPECT_EQ(std::string(e.what()), std::string("kernel 'cannot' cannot run: ") + kMessage);
  }
}

}  // namespace
}  // namespace lockstep
