#include "mem/dram/dram_clock.h"

#include <fmt/format.h>

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace lockstep::mem {
namespace {

constexpr uint64_t kMaxTerm = uint64_t{1} << 20;

uint64_t to_khz(double mhz, const char* name) {
  // Above 1 THz the kHz count would not fit the ratio's limit anyway.
  if (!std::isfinite(mhz) || mhz <= 0 || mhz > 1e6)
    throw std::invalid_argument(fmt::format("dram option {} must be a positive clock in MHz (got {})", name, mhz));
  const auto khz = static_cast<uint64_t>(std::llround(mhz * 1000.0));
  if (khz == 0) throw std::invalid_argument(fmt::format("dram option {} is below 1 kHz", name));
  return khz;
}

}  // namespace

DramClock::DramClock(double core_clock_mhz, double dram_clock_mhz, uint32_t transfers_per_clock) {
  if (transfers_per_clock == 0) throw std::invalid_argument("dram option transfers_per_clock must be at least 1");
  const uint64_t core = to_khz(core_clock_mhz, "core_clock_mhz");
  const uint64_t beat_rate = to_khz(dram_clock_mhz, "dram_clock_mhz") * transfers_per_clock;
  // A core cycle lasts beat_rate / core beats: in lowest terms p / q, a unit is 1/p of a core
  // cycle and 1/q of a beat.
  const uint64_t g = std::gcd(core, beat_rate);
  per_cycle_ = beat_rate / g;
  per_beat_ = core / g;
  if (per_cycle_ > kMaxTerm || per_beat_ > kMaxTerm)
    throw std::invalid_argument(fmt::format(
        "dram clocks {} MHz (core) and {} MHz x {} transfers have a ratio too fine to model exactly "
        "({} : {} in lowest terms; each term must be at most 2^20)",
        core_clock_mhz, dram_clock_mhz, transfers_per_clock, per_cycle_, per_beat_));
  per_clock_ = per_beat_ * transfers_per_clock;
}

}  // namespace lockstep::mem
