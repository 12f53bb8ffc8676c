#include "runtime/graph_memory.h"

#include <algorithm>
#include <cstring>

namespace lockstep::runtime {

void GraphMemory::reserved(uint64_t address, uint64_t bytes) { allocations_[address] = Allocation{bytes, false}; }

bool GraphMemory::live(uint64_t address) const {
  auto it = allocations_.find(address);
  return it != allocations_.end() && it->second.live;
}

void GraphMemory::mapped(uint64_t address) {
  auto it = allocations_.find(address);
  if (it == allocations_.end() || it->second.live) return;
  it->second.live = true;
  used_ += it->second.bytes;
  used_high_ = std::max(used_high_, used_);
  reserved_high_ = std::max(reserved_high_, used_);
}

void GraphMemory::unmapped(uint64_t address) {
  auto it = allocations_.find(address);
  if (it == allocations_.end() || !it->second.live) return;
  it->second.live = false;
  used_ -= it->second.bytes;
}

cudaError_t GraphMemory::get_attribute(cudaGraphMemAttributeType attribute, void* value) const {
  if (value == nullptr) return cudaErrorInvalidValue;
  uint64_t figure = 0;
  switch (attribute) {
    // Nothing is kept back: the reserved figure is the one in use (graph_memory.h).
    case cudaGraphMemAttrUsedMemCurrent:
    case cudaGraphMemAttrReservedMemCurrent: figure = used_; break;
    case cudaGraphMemAttrUsedMemHigh: figure = used_high_; break;
    case cudaGraphMemAttrReservedMemHigh: figure = reserved_high_; break;
    default: return cudaErrorInvalidValue;
  }
  std::memcpy(value, &figure, sizeof figure);
  return cudaSuccess;
}

cudaError_t GraphMemory::set_attribute(cudaGraphMemAttributeType attribute, const void* value) {
  if (value == nullptr) return cudaErrorInvalidValue;
  uint64_t figure = 0;
  std::memcpy(&figure, value, sizeof figure);
  if (figure != 0) return cudaErrorInvalidValue;
  switch (attribute) {
    case cudaGraphMemAttrUsedMemHigh: used_high_ = used_; return cudaSuccess;
    case cudaGraphMemAttrReservedMemHigh: reserved_high_ = used_; return cudaSuccess;
    default: return cudaErrorInvalidValue;  // the current figures are read-only
  }
}

}  // namespace lockstep::runtime
