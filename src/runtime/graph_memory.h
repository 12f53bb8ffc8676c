#pragma once
// Graph allocations: the memory of memory-allocation nodes. Each node reserves its address when
// it is made (the address stays the node's for the graph's lifetime, as CUDA guarantees); the
// memory is live from the moment the node runs until a free node, cudaFree or cudaFreeAsync
// releases it. GraphMemory knows every reserved address, which are live, and the device's
// graph memory figures (cudaDeviceGetGraphMemAttribute).
//
// lockstep keeps no physical memory back for graphs: what is reserved is what is live, so
// cudaDeviceGraphMemTrim has nothing to release.
#include <cstdint>
#include <map>

#include <driver_types.h>

namespace lockstep::runtime {

class GraphMemory {
 public:
  // An allocation node reserved [address, address + bytes).
  void reserved(uint64_t address, uint64_t bytes);
  // Whether `address` is the start of memory an allocation node reserved.
  bool is_graph_allocation(uint64_t address) const { return allocations_.contains(address); }
  // Whether that memory is allocated now (its node ran and nothing freed it since).
  bool live(uint64_t address) const;
  // Its allocation node ran / it was freed; no-ops for addresses that are no graph allocation.
  void mapped(uint64_t address);
  void unmapped(uint64_t address);

  // cudaDeviceGetGraphMemAttribute / cudaDeviceSetGraphMemAttribute (uint64_t values). Only
  // the high-water marks may be set, and only to 0 (a reset to the current figure).
  cudaError_t get_attribute(cudaGraphMemAttributeType attribute, void* value) const;
  cudaError_t set_attribute(cudaGraphMemAttributeType attribute, const void* value);

 private:
  struct Allocation {
    uint64_t bytes = 0;
    bool live = false;
  };
  std::map<uint64_t, Allocation> allocations_;  // by address
  uint64_t used_ = 0;                           // bytes live
  uint64_t used_high_ = 0, reserved_high_ = 0;  // high-water marks since the last reset
};

}  // namespace lockstep::runtime
