// Calls in the engine core: guarded calls, by-value struct parameters, exit inside a callee,
// nested calls, calls under divergence and per-thread stack overflow in recursion.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr const char* kHeader = ".version 9.0\n.target sm_80\n.address_size 64\n";

// Odd lanes call twice(tid) = 2*tid + 3 (which also counts its callers with an atomic);
// even lanes keep 1000. Afterwards every lane adds 1, so all lanes are active again.
constexpr const char* kGuardedCall = R"(
.func (.param .b32 ret) twice(.param .b32 x, .param .b64 counter)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.b32 %r1, [x];
  ld.param.b64 %rd1, [counter];
  atom.global.add.u32 %r3, [%rd1], 1;
  mad.lo.u32 %r2, %r1, 2, 3;
  st.param.b32 [ret], %r2;
  ret;
}

.visible .entry guarded(.param .u64 out, .param .u64 counter)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd4, [counter];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 1;
  mov.u32 %r5, 1000;
  {
    .param .b32 a;
    .param .b64 c;
    .param .b32 r;
    st.param.b32 [a], %r1;
    st.param.b64 [c], %rd4;
    @%p1 call (r), twice, (a, c);
    @%p1 ld.param.b32 %r5, [r];
  }
  add.u32 %r5, %r5, 1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

TEST(CoreCall, GuardedCallRunsOnlyTheGuardedLanes) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kGuardedCall, "guarded.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 40);
  test::DeviceBuffer<uint32_t> counter(engine, std::vector<uint32_t>{0});
  test::launch_ok(engine, m, "guarded", {1, 1, 1}, {40, 1, 1}, {out.arg(), counter.arg()});
  std::vector<uint32_t> expected(40);
  for (uint32_t t = 0; t < 40; ++t) expected[t] = (t & 1) ? 2 * t + 3 + 1 : 1001;
  EXPECT_EQ(out.download(), expected);
  EXPECT_EQ(counter.download(), std::vector<uint32_t>{20});
}

// combine(a, s{u64 x; u32 y; u32 z} by value, u64 c, u32 d) =
//   a | x << 8 | y << 16 | z << 24 | c << 32 | d << 40, with a=t, x=t+1, y=t+2, z=t+3, c=t+4, d=t+5.
constexpr const char* kStructParam = R"(
.func (.param .b64 res) combine(.param .b32 a, .param .align 8 .b8 s[16], .param .b64 c, .param .b32 d)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<12>;
  ld.param.b32 %r1, [a];
  ld.param.b64 %rd1, [s];
  ld.param.b32 %r2, [s+8];
  ld.param.b32 %r3, [s+12];
  ld.param.b64 %rd2, [c];
  ld.param.b32 %r4, [d];
  cvt.u64.u32 %rd3, %r1;
  shl.b64 %rd4, %rd1, 8;
  or.b64 %rd3, %rd3, %rd4;
  cvt.u64.u32 %rd5, %r2;
  shl.b64 %rd5, %rd5, 16;
  or.b64 %rd3, %rd3, %rd5;
  cvt.u64.u32 %rd6, %r3;
  shl.b64 %rd6, %rd6, 24;
  or.b64 %rd3, %rd3, %rd6;
  shl.b64 %rd7, %rd2, 32;
  or.b64 %rd3, %rd3, %rd7;
  cvt.u64.u32 %rd8, %r4;
  shl.b64 %rd8, %rd8, 40;
  or.b64 %rd3, %rd3, %rd8;
  st.param.b64 [res], %rd3;
  ret;
}

.visible .entry structs(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 2;
  add.u32 %r3, %r1, 3;
  add.u32 %r4, %r1, 5;
  cvt.u64.u32 %rd2, %r1;
  add.u64 %rd3, %rd2, 1;
  add.u64 %rd4, %rd2, 4;
  {
    .param .b32 pa;
    .param .align 8 .b8 ps[16];
    .param .b64 pc;
    .param .b32 pd;
    .param .b64 pr;
    st.param.b32 [pa], %r1;
    st.param.b64 [ps], %rd3;
    st.param.b32 [ps+8], %r2;
    st.param.b32 [ps+12], %r3;
    st.param.b64 [pc], %rd4;
    st.param.b32 [pd], %r4;
    call.uni (pr), combine, (pa, ps, pc, pd);
    ld.param.b64 %rd5, [pr];
  }
  mul.wide.u32 %rd6, %r1, 8;
  add.s64 %rd6, %rd1, %rd6;
  st.global.u64 [%rd6], %rd5;
  ret;
}
)";

TEST(CoreCall, StructByValueAndSeveralParametersReachTheCallee) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kStructParam, "structs.ptx");
  test::DeviceBuffer<uint64_t> out(engine, 32);
  test::launch_ok(engine, m, "structs", {1, 1, 1}, {32, 1, 1}, {out.arg()});
  std::vector<uint64_t> expected(32);
  for (uint64_t t = 0; t < 32; ++t)
    expected[t] = t | (t + 1) << 8 | (t + 2) << 16 | (t + 3) << 24 | (t + 4) << 32 | (t + 5) << 40;
  EXPECT_EQ(out.download(), expected);
}

// Threads with tid % 4 == 0, and all of warp 3 (tid >= 96), exit inside the callee; the others
// return, pass a block barrier (exited threads count as arrived) and write 2.
constexpr const char* kExitInCallee = R"(
.func mayexit(.param .b32 x)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [x];
  and.b32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 0;
  setp.ge.u32 %p2, %r1, 96;
  or.pred %p1, %p1, %p2;
  @%p1 bra GONE;
  ret;
GONE:
  exit;
}

.visible .entry exits(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], 1;
  {
    .param .b32 a;
    st.param.b32 [a], %r1;
    call.uni mayexit, (a);
  }
  bar.sync 0;
  st.global.u32 [%rd3], 2;
  ret;
}
)";

TEST(CoreCall, ExitInsideACalleeEndsOnlyThoseThreads) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kExitInCallee, "exits.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 128);
  test::launch_ok(engine, m, "exits", {1, 1, 1}, {128, 1, 1}, {out.arg()});
  std::vector<uint32_t> expected(128);
  for (uint32_t t = 0; t < 128; ++t) expected[t] = (t % 4 == 0 || t >= 96) ? 1 : 2;
  EXPECT_EQ(out.download(), expected);
}

// kernel -> f1 -> f2 -> f3, with a .local variable in f2 and caller registers live across
// every call. f3(x) = 3x+1; f2(x) = 5*f3(x+2) + x (x kept in f2's local); f1(x) = f2(x+1) - f2(x) + 100x.
constexpr const char* kNested = R"(
.func (.param .b32 r3) f3(.param .b32 x3)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x3];
  mad.lo.u32 %r2, %r1, 3, 1;
  st.param.b32 [r3], %r2;
  ret;
}

.func (.param .b32 r2) f2(.param .b32 x2)
{
  .local .align 4 .b8 keep[4];
  .reg .b32 %r<6>;
  ld.param.b32 %r1, [x2];
  st.local.u32 [keep], %r1;
  add.u32 %r2, %r1, 2;
  mov.u32 %r1, 0;
  {
    .param .b32 a;
    .param .b32 r;
    st.param.b32 [a], %r2;
    call.uni (r), f3, (a);
    ld.param.b32 %r3, [r];
  }
  ld.local.u32 %r4, [keep];
  mad.lo.u32 %r5, %r3, 5, %r4;
  st.param.b32 [r2], %r5;
  ret;
}

.func (.param .b32 r1) f1(.param .b32 x1)
{
  .reg .b32 %r<8>;
  ld.param.b32 %r1, [x1];
  {
    .param .b32 a;
    .param .b32 r;
    st.param.b32 [a], %r1;
    call.uni (r), f2, (a);
    ld.param.b32 %r2, [r];
  }
  add.u32 %r3, %r1, 1;
  {
    .param .b32 a;
    .param .b32 r;
    st.param.b32 [a], %r3;
    call.uni (r), f2, (a);
    ld.param.b32 %r4, [r];
  }
  sub.u32 %r5, %r4, %r2;
  mad.lo.u32 %r6, %r1, 100, %r5;
  st.param.b32 [r1], %r6;
  ret;
}

.visible .entry nested(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.lo.u32 %r3, %r1, 7;
  {
    .param .b32 a;
    .param .b32 r;
    st.param.b32 [a], %r1;
    call.uni (r), f1, (a);
    ld.param.b32 %r2, [r];
  }
  add.u32 %r2, %r2, %r3;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

TEST(CoreCall, ThreeNestedCallsKeepEveryFrame) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kNested, "nested.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 48);
  test::launch_ok(engine, m, "nested", {1, 1, 1}, {48, 1, 1}, {out.arg()});
  auto f3 = [](uint32_t x) { return 3 * x + 1; };
  auto f2 = [&](uint32_t x) { return 5 * f3(x + 2) + x; };
  auto f1 = [&](uint32_t x) { return f2(x + 1) - f2(x) + 100 * x; };
  std::vector<uint32_t> expected(48);
  for (uint32_t t = 0; t < 48; ++t) expected[t] = f1(t) + 7 * t;
  EXPECT_EQ(out.download(), expected);
}

// Lanes below 10 call pick(tid + 100), the others pick(tid) + 1000, on the two sides of a
// divergent branch; pick itself diverges: odd x -> 2x, even x -> 3x.
constexpr const char* kCallInBranch = R"(
.func (.param .b32 ret) pick(.param .b32 x)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [x];
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 1;
  @%p1 bra ODD;
  mul.lo.u32 %r3, %r1, 3;
  bra OUT;
ODD:
  shl.b32 %r3, %r1, 1;
OUT:
  st.param.b32 [ret], %r3;
  ret;
}

.visible .entry branchy(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 10;
  @%p1 bra SMALL;
  {
    .param .b32 a;
    .param .b32 r;
    st.param.b32 [a], %r1;
    call (r), pick, (a);
    ld.param.b32 %r5, [r];
  }
  add.u32 %r5, %r5, 1000;
  bra JOIN;
SMALL:
  add.u32 %r2, %r1, 100;
  {
    .param .b32 a;
    .param .b32 r;
    st.param.b32 [a], %r2;
    call (r), pick, (a);
    ld.param.b32 %r5, [r];
  }
JOIN:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

TEST(CoreCall, CallsOnBothSidesOfADivergentBranch) {
  for (uint32_t width : {8u, 32u}) {
    EngineOptions options;
    options.warp_size = width;
    Engine engine(options);
    const ModuleId m = engine.load_ptx(std::string(kHeader) + kCallInBranch, "branchy.ptx");
    test::DeviceBuffer<uint32_t> out(engine, 32);
    test::launch_ok(engine, m, "branchy", {1, 1, 1}, {32, 1, 1}, {out.arg()});
    auto pick = [](uint32_t x) { return (x & 1) ? 2 * x : 3 * x; };
    std::vector<uint32_t> expected(32);
    for (uint32_t t = 0; t < 32; ++t) expected[t] = t < 10 ? pick(t + 100) : pick(t) + 1000;
    EXPECT_EQ(out.download(), expected) << "warp size " << width;
  }
}

// depth(n) = n == 0 ? 0 : depth(n - 1) + 1, with a 64-byte local array per frame. Lane 0 asks
// for depth 1, the other lanes for depth n (a parameter).
constexpr const char* kDeepRecursion = R"(
.func (.param .b32 ret) depth(.param .b32 n)
{
  .local .align 4 .b8 pad[64];
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  ld.param.b32 %r1, [n];
  st.local.u32 [pad], %r1;
  mov.u32 %r3, 0;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  add.u32 %r2, %r1, -1;
  {
    .param .b32 a;
    .param .b32 r;
    st.param.b32 [a], %r2;
    call (r), depth, (a);
    ld.param.b32 %r3, [r];
  }
  add.u32 %r3, %r3, 1;
DONE:
  st.param.b32 [ret], %r3;
  ret;
}

.visible .entry recurse(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r2, [n];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  selp.u32 %r2, 1, %r2, %p1;
  {
    .param .b32 a;
    .param .b32 r;
    st.param.b32 [a], %r2;
    call (r), depth, (a);
    ld.param.b32 %r3, [r];
  }
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

TEST(CoreCall, ShallowRecursionFitsASmallStack) {
  EngineOptions options;
  options.recursion_stack_size = 1024;
  Engine engine(options);
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kDeepRecursion, "recurse.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 4);
  test::launch_ok(engine, m, "recurse", {1, 1, 1}, {4, 1, 1}, {out.arg(), test::arg<uint32_t>(5)});
  EXPECT_EQ(out.download(), (std::vector<uint32_t>{1, 5, 5, 5}));
}

TEST(CoreCall, DeepRecursionOverflowsTheStack) {
  EngineOptions options;
  options.recursion_stack_size = 1024;
  Engine engine(options);
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kDeepRecursion, "recurse.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 4);
  const LaunchResult r =
      engine.launch(m, "recurse", {1, 1, 1}, {4, 1, 1}, 0, {out.arg(), test::arg<uint32_t>(1000)});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "stack overflow");
  EXPECT_EQ(r.fault->space, "local");
  EXPECT_EQ(r.fault->detail, "call to depth needs more stack");
  // Lane 0 stopped at depth 1 and waits; the deepest lanes overflow, reported at the lowest.
  EXPECT_EQ(r.fault->thread.x, 1u);
}

// A stack overflow is reported at the call that overflows, not at the next instruction.
TEST(CoreCall, StackOverflowIsReportedAtTheCall) {
  EngineOptions options;
  options.recursion_stack_size = 1024;
  Engine engine(options);
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kDeepRecursion, "recurse.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 4);
  const LaunchResult r =
      engine.launch(m, "recurse", {1, 1, 1}, {4, 1, 1}, 0, {out.arg(), test::arg<uint32_t>(1000)});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->ptx_location, "recurse.ptx:20");
}

}  // namespace
}  // namespace lockstep
