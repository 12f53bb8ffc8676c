// 21_warp_ops: shuffles, votes, activemask, match, redux and __syncwarp, checked per warp
// against a reference written from the PTX ISA definitions (shfl's segment mask and clamp
// value, vote/match masks). All warps are full (blocks are multiples of 32 threads; threads past
// n hold a filler value), so every collective is well defined. Warp size 32 only.
#include <algorithm>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class WarpOps32 : public KernelProgramTest {};

constexpr int kN = 1000;
constexpr uint32_t kBlock = 128;
constexpr uint32_t kGrid = (kN + kBlock - 1) / kBlock;   // 1024 threads, 24 fillers
constexpr int kThreads = static_cast<int>(kGrid * kBlock);

enum class Shfl { kIdx, kUp, kDown, kBfly };

// PTX shfl.sync: lane j = f(lane, b) inside the segment given by c; out-of-range -> own value.
template <class T>
T shfl(const T* warp, int lane, Shfl mode, int b, int c) {
  int seg = (c >> 8) & 31, clamp = c & 31;
  int max_lane = (lane & seg) | (clamp & ~seg), min_lane = lane & seg;
  int j = lane;
  bool ok = false;
  switch (mode) {
    case Shfl::kUp: j = lane - b; ok = j >= max_lane; break;
    case Shfl::kDown: j = lane + b; ok = j <= max_lane; break;
    case Shfl::kBfly: j = lane ^ b; ok = j <= max_lane; break;
    case Shfl::kIdx: j = min_lane | (b & 31 & ~seg); ok = j <= max_lane; break;
  }
  return ok ? warp[j] : warp[lane];
}
// The c operand CUDA passes for a width: up uses clamp 0, the others clamp 31.
int c_of(int width, Shfl mode) { return ((32 - width) << 8) | (mode == Shfl::kUp ? 0 : 31); }

std::vector<int> warp_inputs(uint64_t seed, int lo, int hi, int filler) {
  TestRng rng(seed);
  std::vector<int> v(kThreads, filler);
  for (int i = 0; i < kN; ++i) v[i] = rng.range(lo, hi);
  return v;
}

TEST_P(WarpOps32, Shuffles) {
  ModuleId m = load("21_warp_ops");
  std::vector<int> v = warp_inputs(2101, -100000, 100000, -7);
  std::vector<int> in(v.begin(), v.begin() + kN), expected(11 * kN);
  for (int i = 0; i < kN; ++i) {
    const int* w = &v[i & ~31];
    int lane = i & 31;
    int* r = &expected[11 * i];
    r[0] = shfl(w, lane, Shfl::kIdx, (lane * 7 + 3) & 31, c_of(32, Shfl::kIdx));
    r[1] = shfl(w, lane, Shfl::kIdx, 5, c_of(16, Shfl::kIdx));
    r[2] = shfl(w, lane, Shfl::kIdx, lane + 3, c_of(8, Shfl::kIdx));
    r[3] = shfl(w, lane, Shfl::kUp, 3, c_of(32, Shfl::kUp));
    r[4] = shfl(w, lane, Shfl::kUp, 2, c_of(8, Shfl::kUp));
    r[5] = shfl(w, lane, Shfl::kDown, 5, c_of(32, Shfl::kDown));
    r[6] = shfl(w, lane, Shfl::kDown, 3, c_of(16, Shfl::kDown));
    r[7] = shfl(w, lane, Shfl::kBfly, 1, c_of(32, Shfl::kBfly));
    r[8] = shfl(w, lane, Shfl::kBfly, 6, c_of(8, Shfl::kBfly));
    r[9] = shfl(w, lane, Shfl::kBfly, 16, c_of(32, Shfl::kBfly));
    r[10] = lane < 20 ? w[(lane + 1) % 20] : w[lane];
  }
  // Spot-check the reference itself on cases worked out by hand from the CUDA documentation.
  ASSERT_EQ(expected[11 * 0 + 3], v[0]);          // shfl_up: lane 0 keeps its own value
  ASSERT_EQ(expected[11 * 17 + 1], v[16 + 5]);    // width 16: upper half reads its lane 5
  ASSERT_EQ(expected[11 * 14 + 6], v[14]);        // down 3 in width 16 leaves lane 14 alone
  DeviceBuffer<int> din(engine_, in), dout(engine_, 11 * kN);
  launch_ok(engine_, m, "warp_shuffles", {kGrid}, {kBlock}, {din.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(WarpOps32, DoubleShuffle) {
  ModuleId m = load("21_warp_ops");
  TestRng rng(2102);
  std::vector<double> v(kThreads, 0.0);
  for (int i = 0; i < kN; ++i) v[i] = static_cast<double>(static_cast<int64_t>(rng.next_u64())) * 1e-7;
  std::vector<double> in(v.begin(), v.begin() + kN), expected(kN);
  for (int i = 0; i < kN; ++i) expected[i] = v[i ^ 9];
  DeviceBuffer<double> din(engine_, in), dout(engine_, kN);
  launch_ok(engine_, m, "warp_shuffle_double", {kGrid}, {kBlock}, {din.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(WarpOps32, VotesAndActivemask) {
  ModuleId m = load("21_warp_ops");
  TestRng rng(2103);
  std::vector<int> v(kThreads, 0);
  for (int i = 0; i < kN; ++i) {
    int warp = i / 32;
    if (warp % 4 == 0) v[i] = rng.range(1, 50);          // all positive: __all_sync true
    else if (warp % 4 == 1) v[i] = rng.range(-50, 0);    // none positive
    else v[i] = rng.range(-50, 50);
    if (i == 77 || i == 300) v[i] = 12345;
  }
  std::vector<int> in(v.begin(), v.begin() + kN);
  std::vector<uint32_t> expected(6 * kN);
  for (int i = 0; i < kN; ++i) {
    int base = i & ~31, lane = i & 31;
    uint32_t ballot = 0, odd = 0;
    bool any12345 = false, all_big = true;
    for (int l = 0; l < 32; ++l) {
      int x = v[base + l];
      if (x > 0) ballot |= 1u << l;
      if (x & 1) odd |= 1u << l;
      any12345 |= x == 12345;
      all_big &= x > -1000000000;
    }
    uint32_t* r = &expected[6 * i];
    r[0] = ballot;
    r[1] = ballot == 0xffffffffu ? 1 : 0;
    r[2] = ballot != 0 ? 1 : 0;
    r[3] = lane < 16 ? (ballot & 0xffffu) : 0xdeadbeefu;
    r[4] = (v[i] & 1) ? odd : (~odd ^ 0x80000000u);
    r[5] = (all_big ? 2u : 0u) | (any12345 ? 1u : 0u);
  }
  DeviceBuffer<int> din(engine_, in);
  DeviceBuffer<uint32_t> dout(engine_, 6 * kN);
  launch_ok(engine_, m, "warp_votes", {kGrid}, {kBlock}, {din.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(WarpOps32, Match) {
  ModuleId m = load("21_warp_ops");
  TestRng rng(2104);
  std::vector<int> v(kThreads, 99);
  for (int i = 0; i < kN; ++i) v[i] = (i / 32) % 3 == 0 ? rng.range(0, 1000) : rng.range(0, 7);
  for (int i = 64; i < 96; ++i) v[i] = 6;   // one warp with a single value everywhere
  std::vector<int> in(v.begin(), v.begin() + kN);
  std::vector<uint32_t> expected(6 * kN);
  auto wide = [](int x) { return (static_cast<uint64_t>(x & 3) << 40) | static_cast<uint32_t>(x % 5); };
  for (int i = 0; i < kN; ++i) {
    int base = i & ~31, lane = i & 31;
    uint32_t any32 = 0, any64 = 0, low = 0;
    bool all_hi = true, all_bit = true;
    for (int l = 0; l < 32; ++l) {
      int x = v[base + l];
      if (x == v[i]) any32 |= 1u << l;
      if (wide(x) == wide(v[i])) any64 |= 1u << l;
      all_hi &= (x >> 8) == (v[base] >> 8);
      all_bit &= (x & 1) == (v[base] & 1);
      if (l >= 8 && (x & 1) == (v[i] & 1)) low |= 1u << l;
    }
    uint32_t* r = &expected[6 * i];
    r[0] = any32;
    r[1] = any64;
    r[2] = all_hi ? 0xffffffffu : 0;
    r[3] = all_bit ? 0xffffffffu : 0;
    r[4] = (all_hi ? 1u : 0u) | (all_bit ? 2u : 0u);
    r[5] = lane >= 8 ? low : 0;
  }
  DeviceBuffer<int> din(engine_, in);
  DeviceBuffer<uint32_t> dout(engine_, 6 * kN);
  launch_ok(engine_, m, "warp_matches", {kGrid}, {kBlock}, {din.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(WarpOps32, Reductions) {
  ModuleId m = load("21_warp_ops");
  TestRng rng(2105);
  std::vector<int> v(kThreads, 0);
  for (int i = 0; i < kN; ++i) v[i] = static_cast<int>(rng.next_u32() >> (i % 7));
  std::vector<int> in(v.begin(), v.begin() + kN);
  std::vector<uint32_t> expected(8 * kN);
  for (int i = 0; i < kN; ++i) {
    int base = i & ~31;
    uint32_t add = 0, umin = ~0u, umax = 0, aand = ~0u, oor = 0, xxor = 0;
    int smin = INT32_MAX, smax = INT32_MIN;
    for (int l = 0; l < 32; ++l) {
      uint32_t u = static_cast<uint32_t>(v[base + l]);
      add += u;
      umin = std::min(umin, u);
      umax = std::max(umax, u);
      smin = std::min(smin, v[base + l]);
      smax = std::max(smax, v[base + l]);
      aand &= u;
      oor |= u;
      xxor ^= u;
    }
    uint32_t* r = &expected[8 * i];
    r[0] = add; r[1] = umin; r[2] = umax;
    r[3] = static_cast<uint32_t>(smin); r[4] = static_cast<uint32_t>(smax);
    r[5] = aand; r[6] = oor; r[7] = xxor;
  }
  DeviceBuffer<int> din(engine_, in);
  DeviceBuffer<uint32_t> dout(engine_, 8 * kN);
  launch_ok(engine_, m, "warp_reduces", {kGrid}, {kBlock}, {din.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(WarpOps32, SyncwarpExchange) {
  ModuleId m = load("21_warp_ops");
  std::vector<int> v = warp_inputs(2106, -1000, 1000, 0);
  std::vector<int> in(v.begin(), v.begin() + kN), expected(kN);
  auto mixed = [&](int g) {
    int base = g & ~31, lane = g & 31;
    return v[g ^ 1] * 3 + v[base + ((lane + 5) & 31)];
  };
  for (int i = 0; i < kN; ++i) expected[i] = mixed((i & ~31) + (((i & 31) + 17) & 31));
  DeviceBuffer<int> din(engine_, in), dout(engine_, kN);
  launch_ok(engine_, m, "warp_syncwarp_exchange", {kGrid}, {kBlock}, {din.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, WarpOps32, ::testing::ValuesIn(kernel_cases(WarpOps::kUsed)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
