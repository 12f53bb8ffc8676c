#pragma once
// Host memory for managed (unified) allocations: anonymous mappings placed in the managed
// window (func::kManagedWindow), so a managed pointer is both a host pointer and a device
// address that no other device window can hold. The Runtime registers each mapping with the
// Engine (Engine::map_host_memory); this class only owns the mappings.
#include <cstddef>
#include <cstdint>
#include <map>

namespace lockstep::runtime {

class ManagedMappings {
 public:
  ManagedMappings();
  ~ManagedMappings();
  ManagedMappings(const ManagedMappings&) = delete;
  ManagedMappings& operator=(const ManagedMappings&) = delete;

  // Zero-filled, page-aligned host memory of at least `bytes` bytes (one page for 0); nullptr
  // when no address outside the other device windows can be had.
  void* map(size_t bytes);
  // Unmaps a mapping made by map(); false for any other pointer.
  bool unmap(void* base);

  struct Range {
    uint64_t base = 0;
    uint64_t bytes = 0;  // as asked for, not rounded to pages
  };
  // The mapping containing `address` (within the bytes asked for), if any.
  const Range* find(uint64_t address) const;

 private:
  void* map_in_window(size_t length);

  size_t page_;
  uint64_t next_;                        // where the next mapping is tried first
  std::map<uint64_t, Range> mappings_;   // by base
};

}  // namespace lockstep::runtime
