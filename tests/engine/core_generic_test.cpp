// Generic addressing in the engine core: cvta into and out of the local, shared and global
// windows, generic loads, stores and atomics through them, and a generic access outside every
// window reported as a global out-of-bounds fault.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr const char* kHeader = ".version 9.0\n.target sm_80\n.address_size 64\n";

// Each thread fills its private 16-word .local array through a generic pointer (arr[i] = tid*i),
// then reads it back three ways: the generic sum, ld.local of arr[3], and cvta.to.local of the
// generic pointer compared with the .local address.
constexpr const char* kLocalArray = R"(
.visible .entry locals(.param .u64 out)
{
  .local .align 4 .b8 arr[64];
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd2, arr;
  cvta.local.u64 %rd3, %rd2;
  mov.u32 %r2, 0;
FILL:
  mul.lo.u32 %r3, %r1, %r2;
  mul.wide.u32 %rd4, %r2, 4;
  add.s64 %rd5, %rd3, %rd4;
  st.u32 [%rd5], %r3;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 16;
  @%p1 bra FILL;
  mov.u32 %r2, 0;
  mov.u32 %r4, 0;
SUM:
  mul.wide.u32 %rd4, %r2, 4;
  add.s64 %rd5, %rd3, %rd4;
  ld.u32 %r5, [%rd5];
  add.u32 %r4, %r4, %r5;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 16;
  @%p1 bra SUM;
  ld.local.u32 %r6, [arr+12];
  cvta.to.local.u64 %rd6, %rd3;
  setp.eq.u64 %p2, %rd6, %rd2;
  selp.u32 %r7, 1, 0, %p2;
  mul.wide.u32 %rd7, %r1, 12;
  add.s64 %rd8, %rd1, %rd7;
  st.global.u32 [%rd8], %r4;
  st.global.u32 [%rd8+4], %r6;
  st.global.u32 [%rd8+8], %r7;
  ret;
}
)";

TEST(CoreGeneric, LocalArrayThroughGenericPointer) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kLocalArray, "locals.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 3 * 40);
  test::launch_ok(engine, m, "locals", {1, 1, 1}, {40, 1, 1}, {out.arg()});
  std::vector<uint32_t> expected;
  for (uint32_t t = 0; t < 40; ++t) expected.insert(expected.end(), {120 * t, 3 * t, 1});
  EXPECT_EQ(out.download(), expected);
}

// Every thread increments a shared counter with a generic atom through cvta.shared; after a
// barrier all read the total. The old values form a permutation of 0..n-1.
constexpr const char* kSharedAtom = R"(
.visible .entry satom(.param .u64 out)
{
  .shared .align 4 .b8 counter[4];
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd2, counter;
  cvta.shared.u64 %rd3, %rd2;
  atom.add.u32 %r2, [%rd3], 1;
  bar.sync 0;
  ld.shared.u32 %r3, [counter];
  cvta.to.shared.u64 %rd4, %rd3;
  setp.eq.u64 %p1, %rd4, %rd2;
  selp.u32 %r4, 1, 0, %p1;
  mul.wide.u32 %rd5, %r1, 12;
  add.s64 %rd6, %rd1, %rd5;
  st.global.u32 [%rd6], %r2;
  st.global.u32 [%rd6+4], %r3;
  st.global.u32 [%rd6+8], %r4;
  ret;
}
)";

TEST(CoreGeneric, GenericAtomicOnSharedMemory) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kSharedAtom, "satom.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 3 * 96);
  test::launch_ok(engine, m, "satom", {1, 1, 1}, {96, 1, 1}, {out.arg()});
  const std::vector<uint32_t> got = out.download();
  std::vector<uint32_t> olds;
  for (uint32_t t = 0; t < 96; ++t) {
    olds.push_back(got[3 * t]);
    EXPECT_EQ(got[3 * t + 1], 96u) << "thread " << t;
    EXPECT_EQ(got[3 * t + 2], 1u) << "thread " << t;
  }
  std::sort(olds.begin(), olds.end());
  std::vector<uint32_t> all(96);
  for (uint32_t i = 0; i < 96; ++i) all[i] = i;
  EXPECT_EQ(olds, all);
}

// cvta.to.global and back is the identity; stores through either form land in one buffer.
constexpr const char* kGlobalRoundTrip = R"(
.visible .entry gtrip(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  cvta.global.u64 %rd3, %rd2;
  st.global.u64 [%rd2], %rd3;
  st.u32 [%rd3+8], 77;
  ld.global.u32 %r1, [%rd2+8];
  add.u32 %r1, %r1, 1;
  st.u32 [%rd1+12], %r1;
  ret;
}
)";

TEST(CoreGeneric, GlobalCvtaRoundTrip) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kGlobalRoundTrip, "gtrip.ptx");
  test::DeviceBuffer<uint64_t> out(engine, 2);
  test::launch_ok(engine, m, "gtrip", {1, 1, 1}, {1, 1, 1}, {out.arg()});
  const std::vector<uint64_t> got = out.download();
  EXPECT_EQ(got[0], out.address());
  EXPECT_EQ(got[1], uint64_t{78} << 32 | 77u);
}

// A generic load from an address outside the shared and local windows and every allocation.
constexpr const char* kWild = R"(
.visible .entry wild(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.u32 %r1, [%rd1];
  ret;
}
)";

TEST(CoreGeneric, WildGenericAddressIsAGlobalOutOfBoundsFault) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kWild, "wild.ptx");
  const uint64_t address = 0x1234'5678'9ab0ull;
  const LaunchResult r = engine.launch(m, "wild", {1, 1, 1}, {1, 1, 1}, 0, {test::arg(address)});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "out-of-bounds access");
  EXPECT_EQ(r.fault->space, "global");
  EXPECT_EQ(r.fault->address, address);
  EXPECT_EQ(r.fault->size, 4u);
  EXPECT_EQ(r.fault->ptx_location, "wild.ptx:10");
}

// A generic address inside the shared window but past the block's shared memory.
constexpr const char* kSharedPastEnd = R"(
.visible .entry spast()
{
  .shared .align 4 .b8 small[16];
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  mov.u64 %rd1, small;
  cvta.shared.u64 %rd2, %rd1;
  ld.u32 %r1, [%rd2+64];
  ret;
}
)";

TEST(CoreGeneric, GenericSharedAddressPastTheEndIsASharedFault) {
  Engine engine;
  const ModuleId m = engine.load_ptx(std::string(kHeader) + kSharedPastEnd, "spast.ptx");
  const LaunchResult r = engine.launch(m, "spast", {1, 1, 1}, {1, 1, 1}, 0, {});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "out-of-bounds access");
  EXPECT_EQ(r.fault->space, "shared");
  EXPECT_EQ(r.fault->size, 4u);
}

}  // namespace
}  // namespace lockstep
