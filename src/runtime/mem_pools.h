#pragma once
// Stream-ordered memory pools (cudaMemPool*, cudaMallocAsync, cudaMallocFromPoolAsync,
// cudaFreeAsync): the device's default pool, pools the program creates, which pool is the
// device's current one, each pool's attributes and its usage figures.
//
// Streams run in order in lockstep, so a block freed with cudaFreeAsync is free at once and
// nothing needs to wait for an event before reuse. A pool keeps no memory back: what it has
// reserved is what is allocated from it (trimming therefore has nothing to release), and the
// release threshold and reuse policies are kept and read back as the program set them.
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include <driver_types.h>

namespace lockstep::runtime {

struct MemPool {
  cudaMemPoolProps props{};
  uint64_t release_threshold = 0;
  bool reuse_follow_event_dependencies = true;
  bool reuse_allow_opportunistic = true;
  bool reuse_allow_internal_dependencies = true;
  uint64_t used = 0, used_high = 0;       // bytes allocated from the pool and not freed
  std::map<int, cudaMemAccessFlags> access;  // device -> access set by cudaMemPoolSetAccess
};

class MemPools {
 public:
  MemPools();

  cudaMemPool_t default_pool() const { return handle(*pools_.front()); }
  cudaMemPool_t current_pool() const { return current_; }
  void set_current(cudaMemPool_t pool) { current_ = pool; }

  cudaMemPool_t create(const cudaMemPoolProps& props);
  // cudaErrorInvalidValue for the default pool (CUDA refuses to destroy it) or an unknown one.
  cudaError_t destroy(cudaMemPool_t pool);
  MemPool* find(cudaMemPool_t pool);

  cudaError_t set_attribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, const void* value);
  cudaError_t get_attribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value);

  // An allocation of `bytes` at `address` came from `pool` / was freed (any allocation: those
  // not from a pool are ignored).
  void allocated(cudaMemPool_t pool, uint64_t address, uint64_t bytes);
  void freed(uint64_t address);

 private:
  static cudaMemPool_t handle(MemPool& pool) { return reinterpret_cast<cudaMemPool_t>(&pool); }
  std::vector<std::unique_ptr<MemPool>> pools_;  // [0]: the device's default pool
  cudaMemPool_t current_ = nullptr;
  std::map<uint64_t, std::pair<MemPool*, uint64_t>> blocks_;  // address -> pool, bytes
};

}  // namespace lockstep::runtime
