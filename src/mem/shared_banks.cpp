#include "mem/shared_banks.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>

namespace lockstep::mem {
namespace {

// With banks of at least 4 bytes and accesses of at most 16, a lane touches at most 4 words.
constexpr uint32_t kMaxWordsPerLane = SharedBanks::kMaxAccessBytes / 4;

}  // namespace

SharedBanks::SharedBanks(const SharedBanksOptions& options) : options_(options) {
  const auto require = [](bool ok, const char* field, const char* rule) {
    if (!ok) throw std::invalid_argument(fmt::format("shared-memory bank option {} must be {}", field, rule));
  };
  require(options.banks >= 1, "banks", "at least 1");
  require(std::has_single_bit(options.bank_bytes) && options.bank_bytes >= 4, "bank_bytes",
          "a power of two of at least 4");
  require(std::has_single_bit(options.group_lanes) && options.group_lanes <= 64, "group_lanes",
          "a power of two from 1 to 64");
}

BankResult SharedBanks::access(std::span<const uint64_t> lane_addresses, uint64_t active_mask,
                               uint32_t access_bytes) const {
  if (access_bytes == 0 || access_bytes > kMaxAccessBytes)
    throw std::invalid_argument(
        fmt::format("shared-memory access of {} bytes: must be 1 to {}", access_bytes, kMaxAccessBytes));
  if (lane_addresses.size() < 64 && (active_mask >> lane_addresses.size()) != 0)
    throw std::invalid_argument(fmt::format(
        "shared-memory active mask {:#x} names lanes beyond the {} addresses given", active_mask, lane_addresses.size()));

  const uint64_t banks = options_.banks;
  const uint32_t words_per_lane = (access_bytes + options_.bank_bytes - 1) / options_.bank_bytes;
  // Ordered by bank, then word: each bank's words form one run, its repeats (broadcasts) adjacent.
  const auto by_bank = [banks](uint64_t a, uint64_t b) {
    const uint64_t bank_a = a % banks, bank_b = b % banks;
    return bank_a != bank_b ? bank_a < bank_b : a < b;
  };

  BankResult result;
  std::array<uint64_t, 64 * kMaxWordsPerLane> words;  // one group's words; filled before read
  const uint32_t group_lanes = options_.group_lanes;
  for (uint32_t first_lane = 0; first_lane < 64; first_lane += group_lanes) {
    const uint64_t ones = group_lanes >= 64 ? ~uint64_t{0} : (uint64_t{1} << group_lanes) - 1;
    uint64_t group = active_mask & (ones << first_lane);
    if (group == 0) continue;

    std::size_t count = 0;
    for (; group != 0; group &= group - 1) {
      const uint64_t first_word = lane_addresses[std::countr_zero(group)] / options_.bank_bytes;
      for (uint32_t w = 0; w < words_per_lane; ++w) words[count++] = first_word + w;
    }
    std::sort(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(count), by_bank);

    uint32_t group_degree = 0, run = 0;
    for (std::size_t i = 0; i < count; ++i) {
      if (i == 0 || words[i] % banks != words[i - 1] % banks) run = 1;  // a new bank
      else if (words[i] != words[i - 1]) ++run;                          // another word of it
      group_degree = std::max(group_degree, run);
    }
    result.passes += group_degree;
    result.degree = std::max(result.degree, group_degree);
  }
  return result;
}

}  // namespace lockstep::mem
