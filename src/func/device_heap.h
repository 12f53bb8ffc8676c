#pragma once
// The device-side heap behind malloc/free (and new/delete) in kernels: one region of device
// memory, reserved at the first allocation, of the size cudaLimitMallocHeapSize sets (8 MiB by
// default, as in CUDA). First fit over an address-ordered free list, so the same sequence of
// calls always returns the same addresses. Blocks outlive the launch that allocated them.
#include <cstdint>
#include <map>

#include "func/device_memory.h"

namespace lockstep::func {

class DeviceHeap {
 public:
  static constexpr uint64_t kDefaultSize = 8ull << 20;
  static constexpr uint64_t kAlignment = 16;  // what CUDA's device malloc guarantees

  explicit DeviceHeap(DeviceMemory& memory) : memory_(memory) {}

  // Only before the first allocation (CUDA: cudaErrorInvalidValue afterwards); false then.
  bool set_size(uint64_t bytes);
  uint64_t size() const { return size_; }

  // The address of a new block, or 0 when the heap cannot satisfy the request (as malloc).
  uint64_t allocate(uint64_t bytes);
  // Frees a block returned by allocate; false when `address` is not one (0 is a no-op: true).
  bool release(uint64_t address);

 private:
  DeviceMemory& memory_;
  uint64_t size_ = kDefaultSize;
  uint64_t base_ = 0;                       // 0 until the first allocation reserves the region
  std::map<uint64_t, uint64_t> free_;       // start -> bytes, address-ordered, coalesced
  std::map<uint64_t, uint64_t> live_;       // start -> bytes
};

}  // namespace lockstep::func
