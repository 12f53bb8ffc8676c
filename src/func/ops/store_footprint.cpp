#include "func/ops/store_footprint.h"

#include <algorithm>

#include "func/device_memory.h"
#include "func/ops/memory_space.h"
#include "func/warp.h"

namespace lockstep::func::memory {

namespace {

bool in_window(uint64_t address, uint64_t window) { return address - window < kWindowSize; }

}  // namespace

ParkedFootprint plain_store_footprint(const ExecInst& in, Warp& w, LaneMask lanes, uint32_t bytes) {
  if (bytes == 0 || lanes == 0) return {};
  // As st_h computes a lane's address: base register plus offset (and frame, when relative).
  const uint64_t bias = frame_bias(in, w);
  const uint64_t* base = w.r(in.s[0]);
  MemoryView& view = *w.launch->memory;
  ParkedFootprint f{true, ~uint64_t{0}, 0};
  for_each_lane(lanes, [&](uint32_t lane) {
    const uint64_t address = base[lane] + bias;
    // What st_h would reach any other way than through the view's fast path (a window, a
    // misaligned or unmapped address, a range that wraps) is left to the serial commit.
    if (misaligned(address, bytes) || address + bytes < address || in_window(address, kSharedWindow) ||
        in_window(address, kLocalWindow) || in_window(address, kParamWindow) ||
        view.translate(address, bytes) == nullptr) {
      f.known = false;
      return;
    }
    f.lo = std::min(f.lo, address);
    f.hi = std::max(f.hi, address + bytes);
  });
  return f.known ? f : ParkedFootprint{};
}

}  // namespace lockstep::func::memory
