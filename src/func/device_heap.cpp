#include "func/device_heap.h"

#include <iterator>

namespace lockstep::func {

bool DeviceHeap::set_size(uint64_t bytes) {
  if (base_ != 0) return false;
  size_ = bytes;
  return true;
}

uint64_t DeviceHeap::allocate(uint64_t bytes) {
  if (base_ == 0) {
    if (size_ == 0) return 0;
    base_ = memory_.allocate(size_, kAlignment);
    free_.emplace(base_, size_);
  }
  const uint64_t need = bytes == 0 ? kAlignment : (bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (need < bytes) return 0;  // wrapped: far larger than any heap
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < need) continue;
    const uint64_t start = it->first;
    const uint64_t left = it->second - need;
    free_.erase(it);
    if (left != 0) free_.emplace(start + need, left);
    live_.emplace(start, need);
    return start;
  }
  return 0;
}

bool DeviceHeap::release(uint64_t address) {
  if (address == 0) return true;
  auto live = live_.find(address);
  if (live == live_.end()) return false;
  uint64_t start = live->first, bytes = live->second;
  live_.erase(live);
  // Coalesce with the free neighbours on both sides.
  auto next = free_.lower_bound(start);
  if (next != free_.end() && start + bytes == next->first) {
    bytes += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      bytes += prev->second;
      free_.erase(prev);
    }
  }
  free_.emplace(start, bytes);
  return true;
}

}  // namespace lockstep::func
