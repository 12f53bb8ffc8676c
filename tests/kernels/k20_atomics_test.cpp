// 20_atomics: every atomic on global memory (all threads hit one struct) and on shared memory
// (each block its own copy). Final values are order independent and compared exactly; the
// returned old values are checked with properties that hold for every serialization order:
// add/sub olds form one chain from the initial to the final value, exchange olds plus the final
// value are a permutation of the values written, inc/dec and CAS tickets form fixed multisets.
#include <algorithm>
#include <bit>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

// Mirror of AtomicTargets in 20_atomics.cu (same member order and types, so the same layout).
struct Targets {
  uint64_t add_u64, min_u64, max_u64, and_u64, or_u64, xor_u64, exch_u64, cas_u64;
  int64_t min_s64, max_s64;
  double add_f64;
  int32_t add_s32, sub_s32, exch_s32, min_s32, max_s32;
  uint32_t add_u32, min_u32, max_u32, inc_u32, dec_u32, and_u32, or_u32, xor_u32, cas_u32;
  float add_f32, exch_f32;
  uint32_t add_h2, add_bf2;
  uint16_t cas_u16[2];
};
static_assert(sizeof(Targets) == 168);

constexpr int kOlds = 8;
constexpr uint32_t kIncWrap = 17, kDecWrap = 13;
constexpr int kN = 250;             // 3 blocks of 96, the last with 58 threads
constexpr uint32_t kBlock = 96;

Targets initial_targets() {
  Targets t{};
  t.add_u64 = 0x123456789ull;
  t.min_u64 = ~0ull >> 1;
  t.max_u64 = 77;
  t.and_u64 = 0xfff0fff0fff0fff0ull;
  t.or_u64 = 1;
  t.xor_u64 = 0x5555aaaa5555aaaaull;
  t.exch_u64 = 0;
  t.cas_u64 = 0x500000007ull;
  t.min_s64 = 1ll << 40;
  t.max_s64 = -(1ll << 40);
  t.add_f64 = -3.5;
  t.add_s32 = -1000;
  t.sub_s32 = 1000000;
  t.exch_s32 = 0;
  t.min_s32 = 12345;
  t.max_s32 = -12345;
  t.add_u32 = 0xfffffff0u;
  t.min_u32 = 0xf0000000u;
  t.max_u32 = 5;
  t.inc_u32 = 0;
  t.dec_u32 = 5;
  t.and_u32 = 0xfffff0ffu;
  t.or_u32 = 0x10u;
  t.xor_u32 = 0xdeadbeefu;
  t.cas_u32 = 100;
  t.add_f32 = 0.5f;
  t.exch_f32 = 0.0f;
  t.add_h2 = 0;
  t.add_bf2 = 0;
  t.cas_u16[0] = 0xbeef;
  t.cas_u16[1] = 11;
  return t;
}

struct Inputs {
  std::vector<int> pos, sgn;
};

Inputs make_inputs() {
  TestRng rng(2001);
  Inputs in;
  in.pos = random_ints<int>(rng, kN, 1, 1000);
  in.sgn.resize(kN);
  for (auto& s : in.sgn) s = static_cast<int>(rng.next_u32());
  return in;
}

uint64_t wide_of(int pos, int sgn) {
  return static_cast<uint64_t>(static_cast<uint32_t>(sgn)) << 32 |
         static_cast<uint32_t>(static_cast<uint32_t>(pos) * 2654435761u);
}

// f16 / bf16 bits of small non-negative integers (exact).
uint16_t half_of_int(int v) {
  if (v == 0) return 0;
  int e = std::bit_width(static_cast<unsigned>(v)) - 1;  // v < 2048
  return static_cast<uint16_t>((e + 15) << 10 | ((v << (10 - e)) & 0x3ff));
}
uint16_t bf16_of_int(int v) {
  float f = static_cast<float>(v);
  return static_cast<uint16_t>(bits_of(f) >> 16);
}

// The final struct the threads `who` produce from `init`, and checks of their old values.
void check_group(const Targets& got, const Targets& init, const std::vector<int>& who,
                 const Inputs& in, const std::vector<uint32_t>& olds, const std::string& where) {
  SCOPED_TRACE(where);
  Targets e = init;
  int h_lo = 0, h_hi = 0, b_lo = 0, b_hi = 0;
  for (int i : who) {
    int p = in.pos[i], s = in.sgn[i];
    uint64_t w = wide_of(p, s);
    e.add_s32 += p;
    e.add_u32 += static_cast<uint32_t>(s);
    e.add_u64 += w;
    e.add_f32 += static_cast<float>(p);
    e.add_f64 += static_cast<double>(p) * 0.25;
    h_lo += 1;
    h_hi += p & 3;
    b_lo += (i & 1) ? 1 : 0;
    b_hi += (i % 3 == 0) ? 2 : 0;
    e.sub_s32 -= p;
    e.min_s32 = std::min(e.min_s32, s);
    e.max_s32 = std::max(e.max_s32, s);
    e.min_u32 = std::min(e.min_u32, static_cast<uint32_t>(s));
    e.max_u32 = std::max(e.max_u32, static_cast<uint32_t>(s));
    e.min_s64 = std::min(e.min_s64, static_cast<int64_t>(w));
    e.max_s64 = std::max(e.max_s64, static_cast<int64_t>(w));
    e.min_u64 = std::min(e.min_u64, w);
    e.max_u64 = std::max(e.max_u64, w);
    e.and_u32 &= static_cast<uint32_t>(s) | (1u << (i & 31));
    e.or_u32 |= 1u << (p & 31);
    e.xor_u32 ^= static_cast<uint32_t>(s);
    e.and_u64 &= w | (1ull << (i & 63));
    e.or_u64 |= 1ull << (s & 63);
    e.xor_u64 ^= w;
  }
  const uint32_t count = static_cast<uint32_t>(who.size());
  e.add_h2 = half_of_int(h_lo) | static_cast<uint32_t>(half_of_int(h_hi)) << 16;
  e.add_bf2 = bf16_of_int(b_lo) | static_cast<uint32_t>(bf16_of_int(b_hi)) << 16;
  e.inc_u32 = count % (kIncWrap + 1);
  std::vector<uint32_t> dec_seq{init.dec_u32};
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t v = dec_seq.back();
    dec_seq.push_back((v == 0 || v > kDecWrap) ? kDecWrap : v - 1);
  }
  e.dec_u32 = dec_seq.back();
  e.cas_u32 = init.cas_u32 + count;
  e.cas_u64 = init.cas_u64 + count * 0x100000001ull;
  e.cas_u16[1] = static_cast<uint16_t>(init.cas_u16[1] + 3 * count);

#define LOCKSTEP_CHECK_FIELD(f) EXPECT_EQ(got.f, e.f) << #f
  LOCKSTEP_CHECK_FIELD(add_u64); LOCKSTEP_CHECK_FIELD(min_u64); LOCKSTEP_CHECK_FIELD(max_u64);
  LOCKSTEP_CHECK_FIELD(and_u64); LOCKSTEP_CHECK_FIELD(or_u64); LOCKSTEP_CHECK_FIELD(xor_u64);
  LOCKSTEP_CHECK_FIELD(cas_u64); LOCKSTEP_CHECK_FIELD(min_s64); LOCKSTEP_CHECK_FIELD(max_s64);
  LOCKSTEP_CHECK_FIELD(add_f64); LOCKSTEP_CHECK_FIELD(add_s32); LOCKSTEP_CHECK_FIELD(sub_s32);
  LOCKSTEP_CHECK_FIELD(min_s32); LOCKSTEP_CHECK_FIELD(max_s32); LOCKSTEP_CHECK_FIELD(add_u32);
  LOCKSTEP_CHECK_FIELD(min_u32); LOCKSTEP_CHECK_FIELD(max_u32); LOCKSTEP_CHECK_FIELD(inc_u32);
  LOCKSTEP_CHECK_FIELD(dec_u32); LOCKSTEP_CHECK_FIELD(and_u32); LOCKSTEP_CHECK_FIELD(or_u32);
  LOCKSTEP_CHECK_FIELD(xor_u32); LOCKSTEP_CHECK_FIELD(cas_u32); LOCKSTEP_CHECK_FIELD(add_f32);
  LOCKSTEP_CHECK_FIELD(add_h2); LOCKSTEP_CHECK_FIELD(add_bf2);
  LOCKSTEP_CHECK_FIELD(cas_u16[0]); LOCKSTEP_CHECK_FIELD(cas_u16[1]);
#undef LOCKSTEP_CHECK_FIELD

  // Exchange: the final value is one of the written values.
  bool exch64_written = false;
  for (int i : who) exch64_written |= got.exch_u64 == wide_of(in.pos[i], in.sgn[i]);
  EXPECT_TRUE(exch64_written) << "exch_u64 final " << got.exch_u64;

  // add / sub olds: sorted by old value they must chain init -> ... -> final.
  auto check_chain = [&](int slot, int32_t start, int32_t final_value, int sign, const char* what) {
    std::vector<std::pair<int32_t, int>> steps;
    for (int i : who) steps.push_back({static_cast<int32_t>(olds[kOlds * i + slot]), in.pos[i]});
    std::sort(steps.begin(), steps.end());
    if (sign < 0) std::reverse(steps.begin(), steps.end());
    int32_t cur = start;
    for (auto& [old, p] : steps) {
      ASSERT_EQ(old, cur) << what << " olds do not chain";
      cur += sign * p;
    }
    EXPECT_EQ(cur, final_value) << what;
  };
  check_chain(0, init.add_s32, got.add_s32, +1, "atomicAdd(int)");
  check_chain(1, init.sub_s32, got.sub_s32, -1, "atomicSub(int)");

  // Multiset comparisons of returned values.
  auto multiset_of = [&](int slot) {
    std::vector<uint32_t> v;
    for (int i : who) v.push_back(olds[kOlds * i + slot]);
    std::sort(v.begin(), v.end());
    return v;
  };
  auto sorted = [](std::vector<uint32_t> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  std::vector<uint32_t> exch_expected{static_cast<uint32_t>(init.exch_s32)}, exchf_expected{static_cast<uint32_t>(bits_of(init.exch_f32))};
  for (int i : who) {
    exch_expected.push_back(static_cast<uint32_t>(i + 1));
    exchf_expected.push_back(static_cast<uint32_t>(bits_of(static_cast<float>(i + 1))));
  }
  std::vector<uint32_t> exch_seen = multiset_of(2), exchf_seen = multiset_of(3);
  exch_seen.push_back(static_cast<uint32_t>(got.exch_s32));
  exchf_seen.push_back(static_cast<uint32_t>(bits_of(got.exch_f32)));
  EXPECT_EQ(sorted(exch_seen), sorted(exch_expected)) << "atomicExch(int) olds + final";
  EXPECT_EQ(sorted(exchf_seen), sorted(exchf_expected)) << "atomicExch(float) olds + final";

  std::vector<uint32_t> inc_expected, dec_expected(dec_seq.begin(), dec_seq.end() - 1), tickets, tickets64;
  for (uint32_t k = 0; k < count; ++k) {
    inc_expected.push_back(k % (kIncWrap + 1));
    tickets.push_back(init.cas_u32 + k);
    tickets64.push_back(static_cast<uint32_t>(init.cas_u64) + k);
  }
  EXPECT_EQ(multiset_of(4), sorted(inc_expected)) << "atomicInc olds";
  EXPECT_EQ(multiset_of(5), sorted(dec_expected)) << "atomicDec olds";
  EXPECT_EQ(multiset_of(6), tickets) << "32-bit CAS tickets";
  EXPECT_EQ(multiset_of(7), tickets64) << "64-bit CAS tickets";
}

class Atomics : public KernelProgramTest {};

TEST_P(Atomics, GlobalMemory) {
  ModuleId m = load("20_atomics");
  Inputs in = make_inputs();
  Targets init = initial_targets();
  std::vector<Targets> host{init};
  DeviceBuffer<Targets> dt(engine_, host);
  DeviceBuffer<uint32_t> dolds(engine_, kOlds * kN);
  DeviceBuffer<int> dpos(engine_, in.pos), dsgn(engine_, in.sgn);
  launch_ok(engine_, m, "atomics_global", {blocks_for(kN, kBlock)}, {kBlock},
            {dt.arg(), dolds.arg(), dpos.arg(), dsgn.arg(), arg(kN)});
  std::vector<int> all(kN);
  for (int i = 0; i < kN; ++i) all[i] = i;
  check_group(dt.download()[0], init, all, in, dolds.download(), "global");
}

TEST_P(Atomics, SharedMemoryPerBlock) {
  ModuleId m = load("20_atomics");
  Inputs in = make_inputs();
  Targets init = initial_targets();
  const uint32_t blocks = blocks_for(kN, kBlock);
  DeviceBuffer<Targets> dinit(engine_, std::vector<Targets>{init}), dper(engine_, blocks);
  DeviceBuffer<uint32_t> dolds(engine_, kOlds * kN);
  DeviceBuffer<int> dpos(engine_, in.pos), dsgn(engine_, in.sgn);
  launch_ok(engine_, m, "atomics_shared", {blocks}, {kBlock},
            {dinit.arg(), dper.arg(), dolds.arg(), dpos.arg(), dsgn.arg(), arg(kN)});
  std::vector<Targets> per = dper.download();
  std::vector<uint32_t> olds = dolds.download();
  for (uint32_t b = 0; b < blocks; ++b) {
    std::vector<int> who;
    for (int i = static_cast<int>(b * kBlock); i < std::min<int>(kN, static_cast<int>((b + 1) * kBlock)); ++i) who.push_back(i);
    check_group(per[b], init, who, in, olds, "shared block " + std::to_string(b));
  }
}

INSTANTIATE_TEST_SUITE_P(Arch, Atomics, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
