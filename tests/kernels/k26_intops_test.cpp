// 26_intops: integer intrinsics and arithmetic, bit-exact against references written from
// the PTX ISA definitions of the instructions nvcc emits (prmt with its sign-replicate
// selector bit, shf wrap/clamp, sad, vabsdiff4, dp4a, mul.hi, div/rem truncating toward zero).
#include <bit>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class IntOps : public KernelProgramTest {};

__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

constexpr int kN = 900;
constexpr uint32_t kBlock = 128;

uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint64_t bytes = static_cast<uint64_t>(b) << 32 | a;
  uint32_t r = 0;
  for (int n = 0; n < 4; ++n) {
    uint32_t s = (sel >> (4 * n)) & 0xf;
    uint32_t byte = static_cast<uint32_t>(bytes >> (8 * (s & 7))) & 0xff;
    if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
    r |= byte << (8 * n);
  }
  return r;
}

uint32_t funnel_left(uint32_t lo, uint32_t hi, uint32_t n) {
  uint64_t v = static_cast<uint64_t>(hi) << 32 | lo;
  return static_cast<uint32_t>((v << n) >> 32);   // n <= 32
}
uint32_t funnel_right(uint32_t lo, uint32_t hi, uint32_t n) {
  uint64_t v = static_cast<uint64_t>(hi) << 32 | lo;
  return static_cast<uint32_t>(v >> n);
}

int32_t sext24(uint32_t v) { return static_cast<int32_t>(v << 8) >> 8; }

TEST_P(IntOps, ThirtyTwoBit) {
  ModuleId m = load("26_intops");
  TestRng rng(2601);
  std::vector<uint32_t> a(kN), b(kN), c(kN), expected(25 * kN);
  std::vector<int> d(kN);
  for (int i = 0; i < kN; ++i) {
    a[i] = rng.next_u32() >> (i % 3 == 0 ? rng.range(0, 31) : 0);
    b[i] = rng.next_u32();
    c[i] = (i & 1) ? rng.next_u32() : static_cast<uint32_t>(rng.range(0, 40));
    do {
      d[i] = static_cast<int>(rng.next_u32()) >> rng.range(0, 31);
    } while (d[i] == 0 || (d[i] == -1 && a[i] == 0x80000000u));
  }
  a[0] = 0;
  a[1] = 0x80000000u;
  d[1] = 3;
  for (int i = 0; i < kN; ++i) {
    uint32_t x = a[i], y = b[i], z = c[i];
    int32_t sx = static_cast<int32_t>(x), sy = static_cast<int32_t>(y), sd = d[i];
    uint32_t* o = &expected[25 * i];
    o[0] = static_cast<uint32_t>(std::popcount(x));
    o[1] = static_cast<uint32_t>(std::countl_zero(x));
    uint32_t rev = 0;
    for (int k = 0; k < 32; ++k) rev |= ((x >> k) & 1u) << (31 - k);
    o[2] = rev;
    o[3] = x == 0 ? 0 : static_cast<uint32_t>(std::countr_zero(x)) + 1;
    o[4] = prmt(x, y, z & 0x7777u);   // nvcc masks __byte_perm's selector (and.b32 30583)
    o[5] = funnel_left(x, y, z & 31);
    o[6] = funnel_right(x, y, z & 31);
    o[7] = funnel_left(x, y, std::min(z, 32u));
    o[8] = funnel_right(x, y, std::min(z, 32u));
    o[9] = (sx < sy ? static_cast<uint32_t>(sy) - x : x - static_cast<uint32_t>(sy)) + z;
    o[10] = (x < y ? y - x : x - y) + z;
    uint32_t absdiff = 0, dp_s = z, dp_u = z;
    for (int k = 0; k < 4; ++k) {
      uint32_t xb = (x >> (8 * k)) & 0xff, yb = (y >> (8 * k)) & 0xff;
      absdiff |= (xb > yb ? xb - yb : yb - xb) << (8 * k);
      dp_s += static_cast<uint32_t>(static_cast<int8_t>(xb) * static_cast<int8_t>(yb));
      dp_u += xb * yb;
    }
    o[11] = absdiff;
    o[12] = dp_s;
    o[13] = dp_u;
    o[14] = static_cast<uint32_t>(static_cast<int64_t>(sext24(x)) * sext24(y));
    o[15] = (x & 0xffffffu) * (y & 0xffffffu);
    o[16] = static_cast<uint32_t>(static_cast<uint64_t>(static_cast<int64_t>(sx) * sy) >> 32);
    o[17] = static_cast<uint32_t>((static_cast<uint64_t>(x) * y) >> 32);
    o[18] = (x >> (z & 15)) & 0x7fu;
    o[19] = (x & ~(0xffu << 8)) | ((y & 0xffu) << 8);
    o[20] = static_cast<uint32_t>(sx / sd);
    o[21] = static_cast<uint32_t>(sx % sd);
    o[22] = x / static_cast<uint32_t>(sd);
    o[23] = x % static_cast<uint32_t>(sd);
    o[24] = prmt(x, y, z);
  }
  ASSERT_EQ(prmt(0x44332211u, 0x88776655u, 0x3210u), 0x44332211u);  // identity selector
  ASSERT_EQ(prmt(0x44332211u, 0x88776655u, 0x000fu), 0x111111ffu);  // byte 7 = 0x88, sign-replicated
  DeviceBuffer<uint32_t> da(engine_, a), db(engine_, b), dc(engine_, c), dout(engine_, 25 * kN);
  DeviceBuffer<int> dd(engine_, d);
  launch_ok(engine_, m, "int_ops32", {blocks_for(kN, kBlock)}, {kBlock},
            {da.arg(), db.arg(), dc.arg(), dd.arg(), dout.arg(), arg(kN)});
  std::vector<uint32_t> got = dout.download();
  const char* names[25] = {"popc", "clz", "brev", "ffs", "byte_perm", "funnelshift_l", "funnelshift_r",
                           "funnelshift_lc", "funnelshift_rc", "sad", "usad", "vabsdiffu4", "dp4a s32",
                           "dp4a u32", "mul24", "umul24", "mulhi", "umulhi", "bfe", "bfi", "div s32",
                           "rem s32", "div u32", "rem u32", "prmt (raw asm)"};
  for (int k = 0; k < 25; ++k) {
    std::vector<uint32_t> g(kN), e(kN);
    for (int i = 0; i < kN; ++i) {
      g[i] = got[25 * i + k];
      e[i] = expected[25 * i + k];
    }
    EXPECT_TRUE(same_bits(g, e)) << names[k];
  }
}

TEST_P(IntOps, SixtyFourBit) {
  ModuleId m = load("26_intops");
  TestRng rng(2602);
  std::vector<uint64_t> a(kN), b(kN), expected(10 * kN);
  std::vector<int64_t> d(kN);
  for (int i = 0; i < kN; ++i) {
    a[i] = rng.next_u64() >> rng.range(0, 63);
    b[i] = rng.next_u64();
    do {
      d[i] = static_cast<int64_t>(rng.next_u64()) >> rng.range(0, 63);
    } while (d[i] == 0 || (d[i] == -1 && a[i] == 0x8000000000000000ull));
  }
  a[0] = 0;
  for (int i = 0; i < kN; ++i) {
    uint64_t x = a[i], y = b[i];
    int64_t sx = static_cast<int64_t>(x), sd = d[i];
    uint64_t* o = &expected[10 * i];
    o[0] = static_cast<uint64_t>(sx / sd);
    o[1] = static_cast<uint64_t>(sx % sd);
    o[2] = x / static_cast<uint64_t>(sd);
    o[3] = x % static_cast<uint64_t>(sd);
    o[4] = static_cast<uint64_t>(static_cast<U128>(static_cast<I128>(sx) * static_cast<int64_t>(y)) >> 64);
    o[5] = static_cast<uint64_t>((static_cast<U128>(x) * y) >> 64);
    o[6] = static_cast<uint64_t>(std::popcount(x));
    o[7] = static_cast<uint64_t>(std::countl_zero(x));
    uint64_t rev = 0;
    for (int k = 0; k < 64; ++k) rev |= ((x >> k) & 1ull) << (63 - k);
    o[8] = rev;
    o[9] = x == 0 ? 0 : static_cast<uint64_t>(std::countr_zero(x)) + 1;
  }
  DeviceBuffer<uint64_t> da(engine_, a), db(engine_, b), dout(engine_, 10 * kN);
  DeviceBuffer<int64_t> dd(engine_, d);
  launch_ok(engine_, m, "int_ops64", {blocks_for(kN, kBlock)}, {kBlock},
            {da.arg(), db.arg(), dd.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, IntOps, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
