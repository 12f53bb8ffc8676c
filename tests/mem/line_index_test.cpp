// LineIndex (mem/line_index.h), the caches' MSHR lookup: against std::unordered_map over random
// inserts, reassignments and erases that keep the table near full (long probe runs, which is
// where backward-shift deletion can lose a line), plus its errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "mem/line_index.h"

namespace lockstep::mem {
namespace {

TEST(LineIndex, AgreesWithAMapThroughRandomUse) {
  for (const uint32_t capacity : {1u, 3u, 16u, 256u}) {
    LineIndex index(capacity);
    std::unordered_map<uint64_t, uint32_t> reference;
    std::vector<uint64_t> present;
    std::mt19937_64 rng(capacity);
    // Lines from a small range, so lookups of absent lines and colliding homes are common.
    const uint64_t range = 4 * uint64_t{capacity} + 8;
    for (int step = 0; step < 10000; ++step) {
      const uint64_t line = rng() % range * 0x1000 + rng() % 3;
      const auto it = reference.find(line);
      const uint32_t op = static_cast<uint32_t>(rng() % 4);
      if (it == reference.end() && present.size() < capacity && op != 3) {
        const uint32_t value = static_cast<uint32_t>(rng() % 1000);
        index.insert(line, value);
        reference[line] = value;
        present.push_back(line);
      } else if (it != reference.end() && op == 0) {
        it->second = static_cast<uint32_t>(rng() % 1000);
        index.assign(line, it->second);
      } else if (!present.empty() && op >= 2) {
        const size_t k = rng() % present.size();
        index.erase(present[k]);
        reference.erase(present[k]);
        present[k] = present.back();
        present.pop_back();
      }
      ASSERT_EQ(index.size(), reference.size());
      for (uint64_t probe = 0; probe < range; probe += 1 + rng() % 5) {
        for (uint64_t low = 0; low < 3; ++low) {
          const uint64_t l = probe * 0x1000 + low;
          const auto r = reference.find(l);
          ASSERT_EQ(index.find(l), r == reference.end() ? LineIndex::kAbsent : r->second)
              << "capacity " << capacity << " step " << step << " line " << l;
        }
      }
    }
  }
}

TEST(LineIndex, RefusesMoreLinesThanItsCapacityAndUnknownLines) {
  LineIndex index(2);
  index.insert(10, 0);
  index.insert(11, 1);
  EXPECT_THROW(index.insert(12, 2), std::length_error);
  EXPECT_THROW(index.erase(12), std::logic_error);
  EXPECT_THROW(index.insert(UINT64_MAX, 0), std::invalid_argument);
  index.erase(10);
  EXPECT_EQ(index.find(10), LineIndex::kAbsent);
  EXPECT_EQ(index.find(11), 1u);
  index.insert(12, 2);
  EXPECT_EQ(index.find(12), 2u);
}

}  // namespace
}  // namespace lockstep::mem
