#pragma once
// What a program told the runtime about its managed memory (cudaMemAdvise) and where it last
// asked to prefetch it (cudaMemPrefetchAsync), page by page, so that cudaMemRangeGetAttribute
// answers as CUDA does. Nothing here changes where data lives: lockstep's managed memory is
// one host mapping that the host and the simulated device both reach.
#include <cstdint>
#include <map>
#include <vector>

#include <driver_types.h>

namespace lockstep::runtime {

class ManagedAdvice {
 public:
  static constexpr uint64_t kPageBytes = 4096;

  // An allocation [base, base + bytes) the program may advise (forgotten by remove()).
  void add(uint64_t base, uint64_t bytes);
  void remove(uint64_t base);

  // Callers validate first: the range lies inside one added allocation, the advice and the
  // location are valid (device locations name device 0).
  void advise(uint64_t address, uint64_t bytes, cudaMemoryAdvise advice, cudaMemLocation location);
  void prefetched(uint64_t address, uint64_t bytes, cudaMemLocation location);

  // cudaMemRangeGetAttribute over [address, address + bytes): writes `data_size` bytes to data.
  // False when data_size does not suit the attribute or the attribute is unknown.
  bool query(cudaMemRangeAttribute attribute, uint64_t address, uint64_t bytes, void* data,
             size_t data_size) const;

 private:
  struct Page {
    bool read_mostly = false;
    bool accessed_by = false;  // by device 0
    cudaMemLocation preferred{cudaMemLocationTypeInvalid, 0};
    cudaMemLocation last_prefetch{cudaMemLocationTypeInvalid, 0};
  };
  struct Allocation {
    uint64_t bytes = 0;
    std::vector<Page> pages;
  };
  // The pages of the allocation holding [address, address + bytes), as an index range.
  Allocation* pages_of(uint64_t address, uint64_t bytes, size_t& first, size_t& end);
  const Allocation* pages_of(uint64_t address, uint64_t bytes, size_t& first, size_t& end) const;
  std::map<uint64_t, Allocation> allocations_;  // by base
};

}  // namespace lockstep::runtime
