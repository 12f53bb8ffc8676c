// Shared and local addresses are 32 bits wide: [reg+imm] wraps modulo 2^32, as on the GPU. A
// classic dynamic-programming benchmark indexes shared memory with a 32-bit register holding -1
// and an offset of +8; without the wrap it faulted at shared address 0x100000004.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"

namespace lockstep {
namespace {

// Thread t stores t+1 to words[t] of shared and of its local array, then reads word 1 of each
// through a 32-bit base register of 0xfffffffc (that is, -4) plus 8.
constexpr const char* kWrap = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry wrap(.param .u64 out)
{
  .shared .align 4 .b32 words[32];
  .local .align 4 .b32 mine[4];
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 1;
  mov.u32 %r3, words;
  shl.b32 %r4, %r1, 2;
  add.u32 %r5, %r3, %r4;
  st.shared.u32 [%r5], %r2;
  mov.u32 %r6, mine;
  st.local.u32 [%r6+4], %r2;
  bar.sync 0;
  add.u32 %r7, %r3, -4;
  ld.shared.u32 %r8, [%r7+8];
  add.u32 %r9, %r6, -4;
  ld.local.u32 %r10, [%r9+8];
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r8, %r10};
  ret;
}
)";

void check(Engine& engine) {
  const ModuleId m = engine.load_ptx(kWrap, "wrap.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 2 * 32);
  test::launch_ok(engine, m, "wrap", {1, 1, 1}, {32, 1, 1}, {out.arg()});
  std::vector<uint32_t> expected;
  for (uint32_t t = 0; t < 32; ++t) expected.insert(expected.end(), {2u, t + 1});
  EXPECT_EQ(out.download(), expected);
}

TEST(AddressWrap, SharedAndLocalAddressesWrapModulo2To32InFunctionalMode) {
  Engine engine;
  check(engine);
}

TEST(AddressWrap, SharedAndLocalAddressesWrapModulo2To32InTimingMode) {
  EngineOptions options;
  options.timing = std::make_shared<const config::GpuConfig>(config::load_gpu_config("h100"));
  Engine engine(options);
  check(engine);
}

}  // namespace
}  // namespace lockstep
