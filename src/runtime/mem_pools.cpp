#include "runtime/mem_pools.h"

#include <algorithm>
#include <cstring>

namespace lockstep::runtime {

namespace {

template <class T>
T read(const void* value) {
  T v;
  std::memcpy(&v, value, sizeof v);
  return v;
}

template <class T>
void write(void* value, T v) {
  std::memcpy(value, &v, sizeof v);
}

}  // namespace

MemPools::MemPools() {
  auto pool = std::make_unique<MemPool>();
  pool->props.allocType = cudaMemAllocationTypePinned;
  pool->props.location = {cudaMemLocationTypeDevice, 0};
  pool->access[0] = cudaMemAccessFlagsProtReadWrite;
  current_ = handle(*pool);
  pools_.push_back(std::move(pool));
}

cudaMemPool_t MemPools::create(const cudaMemPoolProps& props) {
  auto pool = std::make_unique<MemPool>();
  pool->props = props;
  pool->access[0] = cudaMemAccessFlagsProtReadWrite;  // the device it lives on
  const cudaMemPool_t h = handle(*pool);
  pools_.push_back(std::move(pool));
  return h;
}

MemPool* MemPools::find(cudaMemPool_t pool) {
  for (const std::unique_ptr<MemPool>& p : pools_)
    if (handle(*p) == pool) return p.get();
  return nullptr;
}

cudaError_t MemPools::destroy(cudaMemPool_t pool) {
  MemPool* p = find(pool);
  if (p == nullptr || p == pools_.front().get()) return cudaErrorInvalidValue;
  // Blocks still allocated from it stay valid device memory (CUDA frees them with the pool
  // only once they are freed); they simply stop counting against a pool.
  for (auto& [address, block] : blocks_)
    if (block.first == p) block.first = nullptr;
  if (current_ == pool) current_ = default_pool();
  pools_.erase(std::find_if(pools_.begin(), pools_.end(), [&](const auto& q) { return q.get() == p; }));
  return cudaSuccess;
}

cudaError_t MemPools::set_attribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, const void* value) {
  MemPool* p = find(pool);
  if (p == nullptr || value == nullptr) return cudaErrorInvalidValue;
  switch (attribute) {
    case cudaMemPoolReuseFollowEventDependencies:
      p->reuse_follow_event_dependencies = read<int>(value) != 0;
      return cudaSuccess;
    case cudaMemPoolReuseAllowOpportunistic:
      p->reuse_allow_opportunistic = read<int>(value) != 0;
      return cudaSuccess;
    case cudaMemPoolReuseAllowInternalDependencies:
      p->reuse_allow_internal_dependencies = read<int>(value) != 0;
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
      p->release_threshold = read<uint64_t>(value);
      return cudaSuccess;
    // The high-water marks may only be reset, to the current figure.
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:
      if (read<uint64_t>(value) != 0) return cudaErrorInvalidValue;
      p->used_high = p->used;
      return cudaSuccess;
    default:  // the current figures are read-only
      return cudaErrorInvalidValue;
  }
}

cudaError_t MemPools::get_attribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) {
  MemPool* p = find(pool);
  if (p == nullptr || value == nullptr) return cudaErrorInvalidValue;
  switch (attribute) {
    case cudaMemPoolReuseFollowEventDependencies: write<int>(value, p->reuse_follow_event_dependencies); break;
    case cudaMemPoolReuseAllowOpportunistic: write<int>(value, p->reuse_allow_opportunistic); break;
    case cudaMemPoolReuseAllowInternalDependencies: write<int>(value, p->reuse_allow_internal_dependencies); break;
    case cudaMemPoolAttrReleaseThreshold: write<uint64_t>(value, p->release_threshold); break;
    // A pool reserves exactly what is allocated from it (mem_pools.h).
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent: write<uint64_t>(value, p->used); break;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh: write<uint64_t>(value, p->used_high); break;
    default: return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

void MemPools::allocated(cudaMemPool_t pool, uint64_t address, uint64_t bytes) {
  MemPool* p = find(pool);
  if (p == nullptr) return;
  blocks_[address] = {p, bytes};
  p->used += bytes;
  p->used_high = std::max(p->used_high, p->used);
}

void MemPools::freed(uint64_t address) {
  auto it = blocks_.find(address);
  if (it == blocks_.end()) return;
  if (MemPool* p = it->second.first) p->used -= it->second.second;
  blocks_.erase(it);
}

}  // namespace lockstep::runtime
