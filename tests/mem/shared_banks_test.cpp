// The shared-memory banks: seed 004 §2.6's examples exactly (4 banks, 4 lanes, word addressing),
// then 32 banks with strides, wide accesses, half-warp groups on 16 banks and the option checks.
#include <gtest/gtest.h>

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "mem/shared_banks.h"

namespace lockstep::mem {
namespace {

constexpr uint64_t kWord = 4;

BankResult seed_access(std::initializer_list<uint64_t> word_addresses) {
  std::vector<uint64_t> bytes;
  for (uint64_t w : word_addresses) bytes.push_back(w * kWord);
  const SharedBanks banks({.banks = 4, .bank_bytes = 4, .group_lanes = 4});
  return banks.access(bytes, 0b1111, 4);
}

constexpr BankResult kOnePass{1, 1};

TEST(SharedBanksSeed, StrideOneNeedsNoAlignment) {
  EXPECT_EQ(seed_access({0, 1, 2, 3}), kOnePass);
  EXPECT_EQ(seed_access({1, 2, 3, 4}), kOnePass);
}

TEST(SharedBanksSeed, EvenStridesConflictOddOnesDoNot) {
  EXPECT_EQ(seed_access({0, 2, 4, 6}), (BankResult{2, 2}));
  EXPECT_EQ(seed_access({0, 3, 6, 9}), kOnePass);
  EXPECT_EQ(seed_access({0, 4, 8, 12}), (BankResult{4, 4}));
}

TEST(SharedBanksSeed, SameWordIsBroadcast) {
  EXPECT_EQ(seed_access({1, 1, 1, 1}), kOnePass);
  EXPECT_EQ(seed_access({1, 1, 1, 2}), kOnePass);
}

// (1,3,5,8): bank 1 serves words 1 and 5, banks 3 and 0 one word each: the worst bank decides.
TEST(SharedBanksSeed, WorstBankDecides) { EXPECT_EQ(seed_access({1, 3, 5, 8}), (BankResult{2, 2})); }

std::vector<uint64_t> strided(uint64_t stride_bytes, uint32_t lanes = 32) {
  std::vector<uint64_t> addresses(lanes);
  for (uint32_t i = 0; i < lanes; ++i) addresses[i] = 0x400 + i * stride_bytes;
  return addresses;
}

constexpr uint64_t kWarp = 0xFFFF'FFFF;

TEST(SharedBanks, StridesOnThirtyTwoBanks) {
  const SharedBanks banks({});
  const std::vector<std::pair<uint64_t, uint32_t>> stride_words_to_degree{
      {0, 1}, {1, 1}, {2, 2}, {3, 1}, {4, 4}, {8, 8}, {16, 16}, {32, 32}, {33, 1}};
  for (auto [stride, degree] : stride_words_to_degree)
    EXPECT_EQ(banks.access(strided(stride * 4), kWarp, 4), (BankResult{degree, degree})) << "stride " << stride;
}

// A 64-bit lane covers two banks, a 128-bit one four: 64 or 128 words over 32 banks.
TEST(SharedBanks, WideAccessesTakeMorePasses) {
  const SharedBanks banks({});
  EXPECT_EQ(banks.access(strided(8), kWarp, 8), (BankResult{2, 2}));
  EXPECT_EQ(banks.access(strided(16), kWarp, 16), (BankResult{4, 4}));
  // Bytes of one word: one pass however many lanes read it.
  EXPECT_EQ(banks.access(strided(1), kWarp, 1), kOnePass);
}

// G80/GT200: 16 banks, a half-warp at a time. Stride 1 is conflict-free in each half (2 passes,
// degree 1); stride 2 is 2-way in each half. The whole warp at once on 16 banks is 2-way.
TEST(SharedBanks, HalfWarpGroupsOnSixteenBanks) {
  const SharedBanks half_warps({.banks = 16, .bank_bytes = 4, .group_lanes = 16});
  EXPECT_EQ(half_warps.access(strided(4), kWarp, 4), (BankResult{2, 1}));
  EXPECT_EQ(half_warps.access(strided(8), kWarp, 4), (BankResult{4, 2}));
  EXPECT_EQ(half_warps.access(strided(4), 0x0000'FFFF, 4), kOnePass);  // one half idle: no pass
  const SharedBanks whole_warp({.banks = 16, .bank_bytes = 4, .group_lanes = 32});
  EXPECT_EQ(whole_warp.access(strided(4), kWarp, 4), (BankResult{2, 2}));
}

// Kepler's 8-byte banks: two neighbouring 4-byte lanes share a word, so stride 1 is one pass.
TEST(SharedBanks, EightByteBanks) {
  const SharedBanks kepler({.banks = 32, .bank_bytes = 8, .group_lanes = 32});
  EXPECT_EQ(kepler.access(strided(4), kWarp, 4), kOnePass);
  EXPECT_EQ(kepler.access(strided(8), kWarp, 8), kOnePass);
  EXPECT_EQ(kepler.access(strided(16), kWarp, 8), (BankResult{2, 2}));
}

TEST(SharedBanks, InactiveLanesAreIgnored) {
  const SharedBanks banks({});
  EXPECT_EQ(banks.access(strided(128), 0b11, 4), (BankResult{2, 2}));
  EXPECT_EQ(banks.access(strided(128), 0b1, 4), kOnePass);
  EXPECT_EQ(banks.access(strided(128), 0, 4), (BankResult{0, 0}));
}

TEST(SharedBanks, SixtyFourLanes) {
  const SharedBanks banks({.banks = 32, .bank_bytes = 4, .group_lanes = 64});
  EXPECT_EQ(banks.access(strided(4, 64), ~uint64_t{0}, 4), (BankResult{2, 2}));
  EXPECT_EQ(banks.access(strided(16, 64), ~uint64_t{0}, 16), (BankResult{8, 8}));
  const SharedBanks warps_of_32({});
  EXPECT_EQ(warps_of_32.access(strided(4, 64), ~uint64_t{0}, 4), (BankResult{2, 1}));
}

TEST(SharedBanks, RejectsBadOptionsAndAccesses) {
  for (auto [options, field] : {std::pair{SharedBanksOptions{.banks = 0}, "banks"},
                                std::pair{SharedBanksOptions{.bank_bytes = 2}, "bank_bytes"},
                                std::pair{SharedBanksOptions{.bank_bytes = 12}, "bank_bytes"},
                                std::pair{SharedBanksOptions{.group_lanes = 24}, "group_lanes"},
                                std::pair{SharedBanksOptions{.group_lanes = 128}, "group_lanes"}}) {
    try {
      SharedBanks banks(options);
      ADD_FAILURE() << "accepted bad " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  }
  const SharedBanks banks({});
  EXPECT_THROW(banks.access(strided(4), kWarp, 0), std::invalid_argument);
  EXPECT_THROW(banks.access(strided(4), kWarp, 32), std::invalid_argument);
  EXPECT_THROW(banks.access(strided(4, 4), 0b10000, 4), std::invalid_argument);
}

}  // namespace
}  // namespace lockstep::mem
