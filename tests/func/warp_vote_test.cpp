// vote, activemask, match, redux, elect and bar.warp.sync: exact results for full warps,
// partial member masks and diverged lanes, plus a 64-lane warp and the load-time errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "common/harness.h"
#include "engine/engine.h"
#include "ptx/error.h"

namespace lockstep::test {
namespace {

std::string header() { return ".version 9.0\n.target sm_80\n.address_size 64\n"; }

constexpr uint32_t kWords = 16;  // results per thread

// Lanes with tid < limit execute the warp-level instructions; the rest branch around them.
// Per thread: p = bit tid of `pattern`, x = 7 * tid + 3.
const char* kKernel = R"(
.visible .entry warp_ops(.param .u64 out, .param .u32 pattern, .param .u32 mask, .param .u32 limit) {
  .reg .b32 %r<40>;
  .reg .b64 %rd<4>;
  .reg .pred %p<12>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [pattern];
  ld.param.u32 %r2, [mask];
  ld.param.u32 %r3, [limit];
  mov.u32 %r4, %tid.x;
  shr.b32 %r5, %r1, %r4;
  and.b32 %r5, %r5, 1;
  setp.ne.u32 %p1, %r5, 0;
  mad.lo.u32 %r6, %r4, 7, 3;
  rem.u32 %r7, %r4, 3;
  sub.s32 %r8, %r4, 10;
  shl.b32 %r9, 1, %r4;
  or.b32 %r10, %r6, 256;
  mov.u32 %r11, 0xdead;
  mov.u32 %r12, 0xdead;
  mov.u32 %r13, 0xdead;
  mov.u32 %r14, 0xdead;
  mov.u32 %r15, 0xdead;
  mov.u32 %r16, 0xdead;
  mov.u32 %r17, 0xdead;
  mov.u32 %r18, 0xdead;
  mov.u32 %r19, 0xdead;
  mov.u32 %r20, 0xdead;
  mov.u32 %r21, 0xdead;
  mov.u32 %r22, 0xdead;
  mov.u32 %r23, 0xdead;
  mov.u32 %r24, 0xdead;
  mov.u32 %r25, 0xdead;
  mov.u32 %r26, 0xdead;
  setp.ge.u32 %p9, %r4, %r3;
  @%p9 bra DONE;
  vote.sync.all.pred %p2, %p1, %r2;
  vote.sync.any.pred %p3, %p1, %r2;
  vote.sync.uni.pred %p4, %p1, %r2;
  selp.u32 %r11, 1, 0, %p2;
  selp.u32 %r12, 1, 0, %p3;
  selp.u32 %r13, 1, 0, %p4;
  vote.sync.ballot.b32 %r14, %p1, %r2;
  vote.sync.ballot.b32 %r15, !%p1, %r2;
  activemask.b32 %r16;
  match.any.sync.b32 %r17, %r7, %r2;
  match.all.sync.b32 %r18|%p5, %r7, %r2;
  selp.u32 %r19, 1, 0, %p5;
  redux.sync.add.u32 %r20, %r6, %r2;
  redux.sync.min.s32 %r21, %r8, %r2;
  redux.sync.max.u32 %r22, %r6, %r2;
  redux.sync.and.b32 %r23, %r10, %r2;
  redux.sync.or.b32 %r24, %r9, %r2;
  redux.sync.xor.b32 %r25, %r6, %r2;
  elect.sync %r26|%p6, %r2;
  bar.warp.sync %r2;
DONE:
  mul.wide.u32 %rd2, %r4, 64;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r11;
  st.global.u32 [%rd3+4], %r12;
  st.global.u32 [%rd3+8], %r13;
  st.global.u32 [%rd3+12], %r14;
  st.global.u32 [%rd3+16], %r15;
  st.global.u32 [%rd3+20], %r16;
  st.global.u32 [%rd3+24], %r17;
  st.global.u32 [%rd3+28], %r18;
  st.global.u32 [%rd3+32], %r19;
  st.global.u32 [%rd3+36], %r20;
  st.global.u32 [%rd3+40], %r21;
  st.global.u32 [%rd3+44], %r22;
  st.global.u32 [%rd3+48], %r23;
  st.global.u32 [%rd3+52], %r24;
  st.global.u32 [%rd3+56], %r25;
  st.global.u32 [%rd3+60], %r26;
  ret;
}
)";

struct Case {
  uint32_t pattern, mask, limit, threads;
};

void check_case(Engine& e, ModuleId m, const Case& c) {
  DeviceBuffer<uint32_t> out(e, c.threads * kWords);
  launch_ok(e, m, "warp_ops", {1, 1, 1}, {c.threads, 1, 1},
            {out.arg(), arg(c.pattern), arg(c.mask), arg(c.limit)});
  const auto r = out.download();
  // Reference: the voters are the executing lanes (tid < limit) of the member mask.
  const uint32_t executing =
      static_cast<uint32_t>((uint64_t{1} << std::min(c.limit, c.threads)) - 1);
  const uint32_t voters = executing & c.mask;
  const uint32_t yes = c.pattern & voters;
  uint32_t sum = 0, maxv = 0, andv = ~0u, orv = 0, xorv = 0;
  int32_t minv = INT32_MAX;
  bool all_same = true;
  for (uint32_t l = 0; l < 32; ++l) {
    if (!(voters >> l & 1)) continue;
    const uint32_t x = 7 * l + 3;
    sum += x;
    maxv = std::max(maxv, x);
    andv &= x | 256;
    orv |= 1u << l;
    xorv ^= x;
    minv = std::min(minv, static_cast<int32_t>(l) - 10);
    if (l % 3 != static_cast<uint32_t>(std::countr_zero(voters)) % 3) all_same = false;
  }
  for (uint32_t lane = 0; lane < c.threads; ++lane) {
    const uint32_t* w = &r[lane * kWords];
    SCOPED_TRACE("lane " + std::to_string(lane) + " mask " + std::to_string(c.mask) +
                 " limit " + std::to_string(c.limit));
    if (lane >= c.limit) {
      for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(w[i], 0xdeadu) << i;
      continue;
    }
    EXPECT_EQ(w[0], yes == voters ? 1u : 0u);
    EXPECT_EQ(w[1], yes != 0 ? 1u : 0u);
    EXPECT_EQ(w[2], (yes == 0 || yes == voters) ? 1u : 0u);
    EXPECT_EQ(w[3], yes);
    EXPECT_EQ(w[4], ~c.pattern & voters);
    EXPECT_EQ(w[5], executing);
    uint32_t same = 0;
    for (uint32_t l = 0; l < 32; ++l)
      if ((voters >> l & 1) && l % 3 == lane % 3) same |= 1u << l;
    EXPECT_EQ(w[6], same);
    EXPECT_EQ(w[7], all_same ? voters : 0u);
    EXPECT_EQ(w[8], all_same ? 1u : 0u);
    EXPECT_EQ(w[9], sum);
    EXPECT_EQ(static_cast<int32_t>(w[10]), minv);
    EXPECT_EQ(w[11], maxv);
    EXPECT_EQ(w[12], andv);
    EXPECT_EQ(w[13], orv);
    EXPECT_EQ(w[14], xorv);
    EXPECT_EQ(w[15], static_cast<uint32_t>(std::countr_zero(voters)));
  }
}

TEST(WarpVote, FullWarpFullMask) {
  Engine e;
  const ModuleId m = e.load_ptx(header() + kKernel, "vote.ptx");
  check_case(e, m, {0x0f0f1234u, 0xffffffffu, 32, 32});
  check_case(e, m, {0xffffffffu, 0xffffffffu, 32, 32});
  check_case(e, m, {0u, 0xffffffffu, 32, 32});
}

TEST(WarpVote, PartialMemberMask) {
  Engine e;
  const ModuleId m = e.load_ptx(header() + kKernel, "vote.ptx");
  check_case(e, m, {0x0f0f1234u, 0x00ff00f0u, 32, 32});
  check_case(e, m, {0xffff0000u, 0x00030000u, 32, 32});  // uniform inside the mask
  check_case(e, m, {0x0u, 0x00000008u, 32, 32});         // a single voter: match.all holds
}

TEST(WarpVote, DivergedLanesDoNotVote) {
  Engine e;
  const ModuleId m = e.load_ptx(header() + kKernel, "vote.ptx");
  check_case(e, m, {0x0000ffffu, 0xffffffffu, 16, 32});  // lanes 16.. branched away
  check_case(e, m, {0x12345678u, 0xffffffffu, 5, 32});
  check_case(e, m, {0x12345678u, 0xffffffffu, 32, 20});  // a partial last warp
}

TEST(WarpVote, SixtyFourLaneWarpVotesPerHalf) {
  const std::string text = header() + R"(
.visible .entry ballot64(.param .u64 out) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  rem.u32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 0;
  vote.sync.ballot.b32 %r3, %p1, -1;
  activemask.b32 %r4;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  st.global.u32 [%rd3+4], %r4;
  ret;
}
)";
  Engine e(warp_options(64));
  const ModuleId m = e.load_ptx(text, "b64.ptx");
  DeviceBuffer<uint32_t> out(e, 128);
  launch_ok(e, m, "ballot64", {1, 1, 1}, {48, 1, 1}, {out.arg()});
  const auto r = out.download();
  uint32_t low = 0, high = 0;
  for (uint32_t t = 0; t < 48; ++t)
    if (t % 3 == 0) (t < 32 ? low : high) |= 1u << (t % 32);
  for (uint32_t t = 0; t < 48; ++t) {
    EXPECT_EQ(r[2 * t], t < 32 ? low : high) << t;
    EXPECT_EQ(r[2 * t + 1], t < 32 ? 0xffffffffu : 0xffffu) << t;
  }
}

TEST(WarpVote, LegacyVoteWithoutSync) {
  const std::string text = header() + R"(
.visible .entry legacy(.param .u64 out) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 4;
  vote.ballot.b32 %r2, %p1;
  vote.any.pred %p2, %p1;
  selp.u32 %r3, 1, 0, %p2;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  st.global.u32 [%rd3+4], %r3;
  ret;
}
)";
  Engine e;
  const ModuleId m = e.load_ptx(text, "legacy.ptx");
  DeviceBuffer<uint32_t> out(e, 64);
  launch_ok(e, m, "legacy", {1, 1, 1}, {32, 1, 1}, {out.arg()});
  const auto r = out.download();
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(r[2 * t], 0xfu);
    EXPECT_EQ(r[2 * t + 1], 1u);
  }
}

TEST(WarpVote, MatchB64AndReduxF32) {
  const std::string text = header() + R"(
.visible .entry m64(.param .u64 out) {
  .reg .b32 %r<8>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<6>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  cvt.u64.u32 %rd4, %r2;
  shl.b64 %rd5, %rd4, 40;
  match.any.sync.b64 %r3, %rd5, -1;
  cvt.rn.f32.u32 %f1, %r1;
  sub.f32 %f2, 0f41200000, %f1;
  redux.sync.max.abs.f32 %f3, %f2, -1;
  mov.b32 %r4, %f3;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  st.global.u32 [%rd3+4], %r4;
  ret;
}
)";
  Engine e;
  const ModuleId m = e.load_ptx(text, "m64.ptx");
  DeviceBuffer<uint32_t> out(e, 64);
  launch_ok(e, m, "m64", {1, 1, 1}, {32, 1, 1}, {out.arg()});
  const auto r = out.download();
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(r[2 * t], t % 2 ? 0xaaaaaaaau : 0x55555555u);
    EXPECT_EQ(r[2 * t + 1], 0x41a80000u);  // max |10 - t| = 21.0
  }
}

std::string load_error(const std::string& body) {
  Engine e;
  try {
    e.load_ptx(header() + ".visible .entry k() {\n  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n  " +
                   body + "\n  ret;\n}\n",
               "bad.ptx");
  } catch (const ptx::Error& err) {
    return err.message();
  }
  return "";
}

TEST(WarpVote, LoadTimeErrors) {
  EXPECT_EQ(load_error("redux.sync.add.b64 %r1, %r2, -1;"),
            "unsupported PTX instruction 'redux.sync.add.b64' at bad.ptx:7");
  EXPECT_EQ(load_error("vote.sync.ballot.b32 %r1, %p1;"),
            "expected 3 operands for 'vote.sync.ballot.b32', got 2");
  EXPECT_EQ(load_error("match.any.sync.b32 %r1|%p1, %r2, -1;"),
            "'match.any.sync.b32' has no predicate destination");
}

}  // namespace
}  // namespace lockstep::test
