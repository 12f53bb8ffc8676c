// dwf picks the lowest PC each issue; a warp that waits ahead of a sibling spinning on a flag it
// has yet to set would starve under that rule alone. The scheduler's patience
// (CtaRunner::kFormationPatience = 1024 issues) lets it through. tbc has no such way out.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

// Two 4-lane warps: W0 (tid < 4) branches ahead to SET and stores the flag; W1 falls through
// into WAIT (below SET) and spins until it reads the flag. out[tid] = 1 for W0, 7 for W1.
constexpr const char* kSpin = R"(
.version 9.0
.target sm_75
.address_size 64

.shared .align 4 .u32 flag;

.visible .entry spin(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 4;
  @%p1 bra SET;
WAIT:
  ld.volatile.shared.u32 %r2, [flag];
  setp.eq.u32 %p2, %r2, 0;
  @%p2 bra WAIT;
  bra DONE;
SET:
  mov.u32 %r3, 7;
  st.volatile.shared.u32 [flag], %r3;
  mov.u32 %r2, 1;
DONE:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

// Issues, one formed warp each unless said: the 4 instructions before the branch (both warps:
// 2 formed warps each, their lanes collide); W1's spin (ld, setp, bra) 1024 times in a row
// while W0 waits, then W0's mov; 1024 more spin issues (W1 is then at the bra of its 683rd
// round, 2048 = 3 * 682 + 2), then W0's store; W1's bra, a last round that reads the flag (ld,
// setp, bra) and its bra to DONE; W0's mov (below DONE); DONE's 5 instructions (with the
// synthetic exit) for both warps.
constexpr uint64_t kWarpInstructions = 4 * 2 + 1024 + 1 + 1024 + 1 + 1 + 3 + 1 + 1 + 5 * 2;

LaunchResult spin(const std::string& divergence, std::vector<uint32_t>* result) {
  EngineOptions options;
  options.warp_size = 4;
  options.divergence = divergence;
  Engine engine(options);
  const ModuleId m = engine.load_ptx(kSpin, "spin.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 8);
  const LaunchResult r = engine.launch(m, "spin", {1, 1, 1}, {8, 1, 1}, 0, {out.arg()});
  *result = out.download();
  return r;
}

TEST(WarpFormationProgress, DwfLetsTheWarpAheadSetItsFlag) {
  std::vector<uint32_t> out;
  const LaunchResult r = spin("dwf", &out);
  EXPECT_FALSE(r.fault.has_value()) << r.fault->message;
  EXPECT_EQ(out, (std::vector<uint32_t>{1, 1, 1, 1, 7, 7, 7, 7}));
  EXPECT_EQ(r.warp_instructions, kWarpInstructions);
}

// tbc's block stack splits the block at the branch and runs the fall-through entry (W1's spin)
// first; W0's entry, below it, never runs: the SIMT stack's intra-warp lock (seed 001 code 3-2),
// across the warps of a block. Reported as a deadlock, as under ipdom-stack.
TEST(WarpFormationProgress, TbcSpinsAboveTheWarpThatWouldSetTheFlag) {
  std::vector<uint32_t> out;
  const LaunchResult r = spin("tbc", &out);
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "deadlock");
  EXPECT_NE(r.fault->message.find("no thread block of the launch can make progress"), std::string::npos)
      << r.fault->message;
  EXPECT_EQ(out, (std::vector<uint32_t>(8, 0)));
}

}  // namespace
}  // namespace lockstep
