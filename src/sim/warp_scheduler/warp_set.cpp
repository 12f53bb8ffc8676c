// WarpSet, the ready/resident sets the SM hands the warp scheduler policies. The registry of
// policies is registry.cpp in this folder.
#include "sim/warp_scheduler/warp_scheduler.h"

#include <bit>

namespace lockstep::sim {

WarpSet::WarpSet(uint32_t capacity) : capacity_(capacity), words_((capacity + 63) / 64, 0) {}

void WarpSet::clear() {
  for (uint64_t& word : words_) word = 0;
}

bool WarpSet::empty() const {
  for (uint64_t word : words_)
    if (word != 0) return false;
  return true;
}

uint32_t WarpSet::count() const {
  uint32_t n = 0;
  for (uint64_t word : words_) n += static_cast<uint32_t>(std::popcount(word));
  return n;
}

}  // namespace lockstep::sim
