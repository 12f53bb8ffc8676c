// The coalescer: seed 004 §2.5's examples exactly, scaled as the seed draws them (4 lanes, 4-byte
// words, 4-word transactions, word addressing), under all three rule sets; then real sizes (32
// lanes, 128-byte lines of 32-byte sectors), the option checks, and no allocation.
#include <gtest/gtest.h>

#include <initializer_list>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mem/coalescer.h"

namespace lockstep::mem {
namespace {

constexpr uint64_t kWord = 4;

// A transaction in the seed's terms: its first word, its length in words, the lanes it serves.
struct Words {
  uint64_t first;
  uint64_t count;
  uint64_t lanes;
  bool operator==(const Words&) const = default;
};
void PrintTo(const Words& w, std::ostream* os) {
  *os << "(words " << w.first << ".." << w.first + w.count - 1 << ", lanes 0x" << std::hex << w.lanes << std::dec
      << ")";
}

// Coalesces a warp access given as word addresses (all lanes active).
std::vector<Words> words(const CoalescerOptions& options, std::initializer_list<uint64_t> word_addresses) {
  std::vector<uint64_t> bytes;
  for (uint64_t w : word_addresses) bytes.push_back(w * kWord);
  std::vector<Transaction> out;
  Coalescer(options).coalesce(bytes, (uint64_t{1} << bytes.size()) - 1, kWord, out);
  std::vector<Words> result;
  for (const Transaction& t : out) result.push_back({t.address / kWord, t.bytes / kWord, t.lanes});
  return result;
}

// The seed's machine: a transaction is 4 words (16 bytes); the warp is 4 lanes.
constexpr CoalescerOptions kSeedSectored{
    .rules = CoalescingRules::kSectored, .line_bytes = 16, .sector_bytes = 16, .group_lanes = 4, .min_segment_bytes = 16};
constexpr CoalescerOptions kSeedG80{
    .rules = CoalescingRules::kG80, .line_bytes = 16, .sector_bytes = 16, .group_lanes = 4, .min_segment_bytes = 16};
// GT200 with 4-word and 2-word transactions, the whole (4-lane) warp at once.
constexpr CoalescerOptions kSeedGt200{
    .rules = CoalescingRules::kGt200, .line_bytes = 16, .sector_bytes = 16, .group_lanes = 4, .min_segment_bytes = 8};

TEST(CoalescerSeed, AlignedAccessIsOneTransaction) {
  EXPECT_EQ(words(kSeedSectored, {0, 1, 2, 3}), (std::vector<Words>{{0, 4, 0b1111}}));
  EXPECT_EQ(words(kSeedSectored, {4, 5, 6, 7}), (std::vector<Words>{{4, 4, 0b1111}}));
}

TEST(CoalescerSeed, MisalignedAccessNeedsTwo) {
  EXPECT_EQ(words(kSeedSectored, {1, 2, 3, 4}), (std::vector<Words>{{0, 4, 0b0111}, {4, 4, 0b1000}}));
}

TEST(CoalescerSeed, StridesNeedProportionallyMore) {
  EXPECT_EQ(words(kSeedSectored, {0, 2, 4, 6}), (std::vector<Words>{{0, 4, 0b0011}, {4, 4, 0b1100}}));
  EXPECT_EQ(words(kSeedSectored, {0, 3, 6, 9}),
            (std::vector<Words>{{0, 4, 0b0011}, {4, 4, 0b0100}, {8, 4, 0b1000}}));
}

// (2,4,13,11): no two lanes share a block; the order is that of the lanes, not of addresses.
TEST(CoalescerSeed, ScatteredAccessIsOnePerLane) {
  EXPECT_EQ(words(kSeedSectored, {2, 4, 13, 11}),
            (std::vector<Words>{{0, 4, 0b0001}, {4, 4, 0b0010}, {12, 4, 0b0100}, {8, 4, 0b1000}}));
}

// GT200 and newer coalesce out-of-order and repeated words; G80 does not.
TEST(CoalescerSeed, NewerRulesCoalesceOutOfOrderAndRepeats) {
  for (const CoalescerOptions& options : {kSeedSectored, kSeedGt200}) {
    EXPECT_EQ(words(options, {3, 2, 1, 0}), (std::vector<Words>{{0, 4, 0b1111}}));
    EXPECT_EQ(words(options, {1, 1, 1, 1}).size(), 1u);
  }
}

TEST(CoalescerSeed, G80GivesFourIdenticalTransactionsOutOfOrder) {
  const std::vector<Words> four{{0, 4, 0b0001}, {0, 4, 0b0010}, {0, 4, 0b0100}, {0, 4, 0b1000}};
  EXPECT_EQ(words(kSeedG80, {3, 2, 1, 0}), four);
  EXPECT_EQ(words(kSeedG80, {1, 1, 1, 1}), four);
}

TEST(CoalescerSeed, G80CoalescesOnlyTheExactAlignedBlock) {
  EXPECT_EQ(words(kSeedG80, {0, 1, 2, 3}), (std::vector<Words>{{0, 4, 0b1111}}));
  EXPECT_EQ(words(kSeedG80, {4, 5, 6, 7}), (std::vector<Words>{{4, 4, 0b1111}}));
  EXPECT_EQ(words(kSeedG80, {1, 2, 3, 4}),
            (std::vector<Words>{{0, 4, 0b0001}, {0, 4, 0b0010}, {0, 4, 0b0100}, {4, 4, 0b1000}}));
}

// "warp access (1,2,3,4) translates into transactions (0,1,2,3) and (4,5)".
TEST(CoalescerSeed, Gt200ShrinksToTheSmallerTransaction) {
  EXPECT_EQ(words(kSeedGt200, {1, 2, 3, 4}), (std::vector<Words>{{0, 4, 0b0111}, {4, 2, 0b1000}}));
  CoalescerOptions four_words_only = kSeedGt200;
  four_words_only.min_segment_bytes = 16;
  EXPECT_EQ(words(four_words_only, {1, 2, 3, 4}), (std::vector<Words>{{0, 4, 0b0111}, {4, 4, 0b1000}}));
}

// Half-warps (1,2) and (3,4): "(0,1,2,3) in the first case and (2,3) and (4,5) in the second".
TEST(CoalescerSeed, Gt200HalfWarpsAreSeparate) {
  CoalescerOptions half_warps = kSeedGt200;
  half_warps.group_lanes = 2;
  EXPECT_EQ(words(half_warps, {1, 2, 3, 4}), (std::vector<Words>{{0, 4, 0b0011}, {2, 2, 0b0100}, {4, 2, 0b1000}}));
}

// --- Real sizes: 128-byte lines of four 32-byte sectors, 4-byte words unless said.

std::vector<uint64_t> strided(uint64_t base, uint64_t stride, uint32_t lanes = 32) {
  std::vector<uint64_t> addresses(lanes);
  for (uint32_t i = 0; i < lanes; ++i) addresses[i] = base + i * stride;
  return addresses;
}

std::vector<Transaction> coalesce(const CoalescerOptions& options, const std::vector<uint64_t>& addresses,
                                  uint32_t access_bytes, uint64_t mask = 0xFFFF'FFFF) {
  std::vector<Transaction> out;
  Coalescer(options).coalesce(addresses, mask, access_bytes, out);
  return out;
}

TEST(CoalescerSectored, AlignedWarpIsOneLineOfFourSectors) {
  EXPECT_EQ(coalesce({}, strided(0x1000, 4), 4), (std::vector<Transaction>{{0x1000, 128, 0b1111, 0xFFFF'FFFF}}));
}

TEST(CoalescerSectored, OffsetByOneWordTouchesOneSectorOfTheNextLine) {
  EXPECT_EQ(coalesce({}, strided(0x1004, 4), 4),
            (std::vector<Transaction>{{0x1000, 128, 0b1111, 0x7FFF'FFFF}, {0x1080, 128, 0b0001, 0x8000'0000}}));
}

TEST(CoalescerSectored, WideAccessesSpanMoreLines) {
  EXPECT_EQ(coalesce({}, strided(0, 8), 8),
            (std::vector<Transaction>{{0, 128, 0b1111, 0x0000'FFFF}, {128, 128, 0b1111, 0xFFFF'0000}}));
  EXPECT_EQ(coalesce({}, strided(0, 16), 16),
            (std::vector<Transaction>{{0, 128, 0b1111, 0x0000'00FF},
                                      {128, 128, 0b1111, 0x0000'FF00},
                                      {256, 128, 0b1111, 0x00FF'0000},
                                      {384, 128, 0b1111, 0xFF00'0000}}));
}

// Lanes 8..15 read bytes 32..63 (sector 1); the other lanes' addresses are garbage, unread.
TEST(CoalescerSectored, InactiveLanesAreIgnored) {
  std::vector<uint64_t> addresses = strided(0, 4);
  for (uint32_t i = 0; i < 32; ++i)
    if (i < 8 || i >= 16) addresses[i] = 0xDEAD'0000 + i * 4096;
  EXPECT_EQ(coalesce({}, addresses, 4, 0x0000'FF00), (std::vector<Transaction>{{0, 128, 0b0010, 0x0000'FF00}}));
  EXPECT_TRUE(coalesce({}, addresses, 4, 0).empty());
}

TEST(CoalescerSectored, SameAddressEverywhereIsOneSector) {
  EXPECT_EQ(coalesce({}, strided(0x2468, 0), 4), (std::vector<Transaction>{{0x2400, 128, 0b1000, 0xFFFF'FFFF}}));
}

// An 8-byte access at 0x7C straddles lines 0 and 1: sector 3 of the first, sector 0 of the next.
TEST(CoalescerSectored, StraddlingAccessTouchesBothLines) {
  EXPECT_EQ(coalesce({}, {0x7C}, 8, 1), (std::vector<Transaction>{{0, 128, 0b1000, 1}, {128, 128, 0b0001, 1}}));
}

TEST(CoalescerSectored, OrderIsFirstAppearanceByLane) {
  // Lanes 0 and 2 read line 3 (sectors 0 and 1), lanes 1 and 3 line 1: line 3 comes first.
  EXPECT_EQ(coalesce({}, {0x180, 0x80, 0x1A0, 0x84}, 4, 0b1111),
            (std::vector<Transaction>{{0x180, 128, 0b0011, 0b0101}, {0x80, 128, 0b0001, 0b1010}}));
}

TEST(CoalescerSectored, SixtyFourLaneWarp) {
  EXPECT_EQ(coalesce({}, strided(0, 4, 64), 4, ~uint64_t{0}),
            (std::vector<Transaction>{{0, 128, 0b1111, 0xFFFF'FFFF}, {128, 128, 0b1111, 0xFFFF'FFFF'0000'0000}}));
}

TEST(CoalescerSectored, SmallerSectorsGiveWiderMasks) {
  const CoalescerOptions eight_sectors{.line_bytes = 128, .sector_bytes = 16};
  EXPECT_EQ(coalesce(eight_sectors, strided(0, 8, 4), 4, 0b1111),
            (std::vector<Transaction>{{0, 128, 0b0011, 0b1111}}));
  const CoalescerOptions thirty_two_sectors{.line_bytes = 128, .sector_bytes = 4};
  EXPECT_EQ(coalesce(thirty_two_sectors, strided(0, 4), 4), (std::vector<Transaction>{{0, 128, 0xFFFF'FFFF, 0xFFFF'FFFF}}));
}

// GT200 (cc 1.3) with its real sizes: each half-warp's 64 bytes shrink from 128 to 64; bytes read
// by 16 lanes fit 32 (a 1-byte word's segment is 32 bytes).
TEST(CoalescerGt200, HalfWarpsOfRealSize) {
  const CoalescerOptions gt200{.rules = CoalescingRules::kGt200};
  EXPECT_EQ(coalesce(gt200, strided(0, 4), 4),
            (std::vector<Transaction>{{0, 64, 0b0011, 0x0000'FFFF}, {64, 64, 0b1100, 0xFFFF'0000}}));
  EXPECT_EQ(coalesce(gt200, strided(0x100, 1), 1),
            (std::vector<Transaction>{{0x100, 32, 0b0001, 0x0000'FFFF}, {0x100, 32, 0b0001, 0xFFFF'0000}}));
  // Stride 2 spreads each half-warp over 128 bytes: no shrinking.
  EXPECT_EQ(coalesce(gt200, strided(0, 8), 4),
            (std::vector<Transaction>{{0, 128, 0b1111, 0x0000'FFFF}, {128, 128, 0b1111, 0xFFFF'0000}}));
}

// G80 (cc 1.0): a half-warp of 4-byte words is one 64-byte block; of 16-byte words, two lines.
TEST(CoalescerG80, HalfWarpsOfRealSize) {
  const CoalescerOptions g80{.rules = CoalescingRules::kG80};
  EXPECT_EQ(coalesce(g80, strided(0, 4), 4),
            (std::vector<Transaction>{{0, 64, 0b0011, 0x0000'FFFF}, {64, 64, 0b1100, 0xFFFF'0000}}));
  EXPECT_EQ(coalesce(g80, strided(0, 16), 16, 0xFFFF).size(), 2u);
  // An inactive lane does not break the sequence.
  EXPECT_EQ(coalesce(g80, strided(0, 4), 4, 0xFFFF & ~0b100u),
            (std::vector<Transaction>{{0, 64, 0b0011, 0xFFFF & ~0b100u}}));
  // Two lanes swapped: sixteen 32-byte transactions.
  std::vector<uint64_t> swapped = strided(0, 4, 16);
  std::swap(swapped[0], swapped[1]);
  EXPECT_EQ(coalesce(g80, swapped, 4, 0xFFFF).size(), 16u);
}

TEST(Coalescer, NeverAllocatesOnceReserved) {
  const Coalescer coalescer(CoalescerOptions{});
  std::vector<Transaction> out;
  out.reserve(Coalescer::kMaxTransactions);
  const Transaction* storage = out.data();
  std::vector<uint64_t> worst(64);
  for (uint32_t i = 0; i < 64; ++i) worst[i] = i * 4096 + 124;  // every lane straddles two lines
  coalescer.coalesce(worst, ~uint64_t{0}, 8, out);
  EXPECT_EQ(out.size(), Coalescer::kMaxTransactions);
  EXPECT_EQ(out.data(), storage);
}

void expect_rejected(const CoalescerOptions& options, const std::string& field) {
  try {
    Coalescer coalescer(options);
    ADD_FAILURE() << "accepted bad " << field;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
  }
}

TEST(Coalescer, RejectsBadOptionsByName) {
  expect_rejected({.line_bytes = 100}, "line_bytes");
  expect_rejected({.line_bytes = 128, .sector_bytes = 256}, "sector_bytes");
  expect_rejected({.line_bytes = 128, .sector_bytes = 2}, "sector_bytes");  // 64 sectors
  expect_rejected({.line_bytes = 128, .sector_bytes = 24}, "sector_bytes");
  expect_rejected({.group_lanes = 128}, "group_lanes");
  expect_rejected({.group_lanes = 0}, "group_lanes");
  expect_rejected({.min_segment_bytes = 0}, "min_segment_bytes");
  expect_rejected({.min_segment_bytes = 256}, "min_segment_bytes");
}

TEST(Coalescer, RejectsBadAccesses) {
  const Coalescer coalescer(CoalescerOptions{});
  std::vector<Transaction> out;
  const std::vector<uint64_t> four(4, 0);
  EXPECT_THROW(coalescer.coalesce(four, 0b1111, 3, out), std::invalid_argument);
  EXPECT_THROW(coalescer.coalesce(four, 0b1111, 256, out), std::invalid_argument);
  EXPECT_THROW(coalescer.coalesce(four, 0b10000, 4, out), std::invalid_argument);
}

}  // namespace
}  // namespace lockstep::mem
