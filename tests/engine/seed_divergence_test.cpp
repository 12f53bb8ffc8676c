// Seed 001, code 3-1 / fig 3-5: nested divergence under the IPDOM SIMT stack, on a 4-lane
// warp. Thread 3 takes the outer branch (to F); threads 1 and 2 take the inner one (to D).
// The figure's execution order is A/1111 -> B/1110 -> C/1000 -> D/0110 -> E/1110 -> F/0001
// -> G/1111, where the mask is written thread 0 first.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr const char* kNestedDivergence = R"(
.version 9.0
.target sm_75
.address_size 64

.visible .entry nested(.param .u64 data1, .param .u64 data2, .param .u64 out, .param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [data1];
  ld.param.u64 %rd2, [data2];
  ld.param.u64 %rd3, [out];
  ld.param.u32 %r9, [n];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;               // i
  mov.u32 %r10, 0;              // result
A:
  mad.lo.s32 %r3, %r1, %r9, %r2;   // t2 = tid*N + i
  mul.wide.s32 %rd4, %r3, 4;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.u32 %r4, [%rd5];       // t3 = data1[t2]
  mov.u32 %r5, 0;                  // t4 = 0
  setp.eq.s32 %p1, %r4, %r5;
  @%p1 bra F;
B:
  add.s64 %rd6, %rd2, %rd4;
  ld.global.u32 %r6, [%rd6];       // t5 = data2[t2]
  setp.eq.s32 %p2, %r6, %r5;
  @%p2 bra D;
C:
  add.s32 %r10, %r10, 1;
  bra E;
D:
  add.s32 %r10, %r10, 10;
E:
  add.s32 %r10, %r10, 100;
  bra G;
F:
  add.s32 %r10, %r10, 1000;
G:
  add.s32 %r2, %r2, 1;
  setp.lt.s32 %p3, %r2, %r9;
  @%p3 bra A;
  mul.wide.u32 %rd7, %r1, 4;
  add.s64 %rd7, %rd3, %rd7;
  st.global.u32 [%rd7], %r10;
  ret;
}
)";

std::string mask_string(uint64_t mask, uint32_t lanes) {
  std::string s;
  for (uint32_t l = 0; l < lanes; ++l) s.push_back(mask >> l & 1 ? '1' : '0');
  return s;
}

// The block/mask sequence a 4-lane warp runs the figure's code in, under `divergence`.
std::vector<std::string> nested_trace(const std::string& divergence) {
  EngineOptions options;
  options.warp_size = 4;
  options.divergence = divergence;
  Engine engine(options);
  const ModuleId m = engine.load_ptx(kNestedDivergence, "nested.ptx");
  const KernelInfo info = engine.kernel_info(m, "nested");
  std::map<uint32_t, std::string> block_at;
  for (const auto& [label, pc] : info.labels) block_at[pc] = label;

  std::vector<std::string> trace;
  std::string current;
  engine.set_trace([&](const TraceEvent& e) {
    if (auto it = block_at.find(e.pc); it != block_at.end()) current = it->second;
    if (current.empty()) return;  // the parameter loads before A
    const std::string step = current + "/" + mask_string(e.path_mask, 4);
    if (trace.empty() || trace.back() != step) trace.push_back(step);
  });

  // N = 1: one iteration. data1[3] == 0 sends thread 3 to F; data2[1], data2[2] == 0 send
  // threads 1 and 2 to D.
  test::DeviceBuffer<uint32_t> data1(engine, std::vector<uint32_t>{5, 6, 7, 0});
  test::DeviceBuffer<uint32_t> data2(engine, std::vector<uint32_t>{9, 0, 0, 9});
  test::DeviceBuffer<uint32_t> out(engine, 4);
  test::launch_ok(engine, m, "nested", {1, 1, 1}, {4, 1, 1},
                  {data1.arg(), data2.arg(), out.arg(), test::arg<uint32_t>(1)});
  EXPECT_EQ(out.download(), (std::vector<uint32_t>{101, 110, 110, 1000}));
  return trace;
}

TEST(SeedDivergence, NestedBranchesFollowFigure3_5) {
  const std::vector<std::string> expected = {"A/1111", "B/1110", "C/1000", "D/0110",
                                             "E/1110", "F/0001", "G/1111"};
  EXPECT_EQ(nested_trace("ipdom-stack"), expected);
}

// Seed 001 fig 3-9: the same code under branch barriers. A's branch adds barrier B0 (waited on
// at G), B's adds B1 (waited on at E). The fall-through side runs first, then the lowest PC:
// C arrives at B1 and blocks, D (below F) completes B1, E (below F) runs for threads 0-2 and
// blocks at B0, F completes it. The order matches the stack's for this structured code.
TEST(SeedDivergence, NestedBranchesUnderBranchBarriersFollowFigure3_9) {
  const std::vector<std::string> expected = {"A/1111", "B/1110", "C/1000", "D/0110",
                                             "E/1110", "F/0001", "G/1111"};
  EXPECT_EQ(nested_trace("branch-barrier"), expected);
}

}  // namespace
}  // namespace lockstep
