#include "runtime/managed_advice.h"

#include <cstring>
#include <optional>
#include <utility>

#include <cuda_runtime_api.h>

namespace lockstep::runtime {

namespace {

bool same(cudaMemLocation a, cudaMemLocation b) { return a.type == b.type && a.id == b.id; }

// The legacy device number of a location: a device ordinal, cudaCpuDeviceId for the host,
// cudaInvalidDeviceId for none.
int device_number(cudaMemLocation l) {
  switch (l.type) {
    case cudaMemLocationTypeDevice: return l.id;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma:
    case cudaMemLocationTypeHostNumaCurrent: return cudaCpuDeviceId;
    default: return cudaInvalidDeviceId;
  }
}

bool write_int(void* data, size_t data_size, int value) {
  if (data_size != sizeof(int)) return false;
  std::memcpy(data, &value, sizeof value);
  return true;
}

}  // namespace

void ManagedAdvice::add(uint64_t base, uint64_t bytes) {
  Allocation a;
  a.bytes = bytes;
  a.pages.resize((bytes + kPageBytes - 1) / kPageBytes);
  allocations_[base] = std::move(a);
}

void ManagedAdvice::remove(uint64_t base) { allocations_.erase(base); }

const ManagedAdvice::Allocation* ManagedAdvice::pages_of(uint64_t address, uint64_t bytes, size_t& first,
                                                         size_t& end) const {
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return nullptr;
  --it;
  const uint64_t offset = address - it->first;
  if (offset >= it->second.bytes || bytes > it->second.bytes - offset) return nullptr;
  first = offset / kPageBytes;
  end = (offset + bytes + kPageBytes - 1) / kPageBytes;
  return &it->second;
}

ManagedAdvice::Allocation* ManagedAdvice::pages_of(uint64_t address, uint64_t bytes, size_t& first, size_t& end) {
  return const_cast<Allocation*>(std::as_const(*this).pages_of(address, bytes, first, end));
}

void ManagedAdvice::advise(uint64_t address, uint64_t bytes, cudaMemoryAdvise advice, cudaMemLocation location) {
  size_t first = 0, end = 0;
  Allocation* a = pages_of(address, bytes, first, end);
  if (a == nullptr) return;
  for (size_t i = first; i < end; ++i) {
    Page& p = a->pages[i];
    switch (advice) {
      case cudaMemAdviseSetReadMostly: p.read_mostly = true; break;
      case cudaMemAdviseUnsetReadMostly: p.read_mostly = false; break;
      case cudaMemAdviseSetPreferredLocation: p.preferred = location; break;
      case cudaMemAdviseUnsetPreferredLocation: p.preferred = {cudaMemLocationTypeInvalid, 0}; break;
      // Only device 0 exists; the host is always allowed to access managed memory.
      case cudaMemAdviseSetAccessedBy: p.accessed_by |= location.type == cudaMemLocationTypeDevice; break;
      case cudaMemAdviseUnsetAccessedBy: p.accessed_by &= location.type != cudaMemLocationTypeDevice; break;
    }
  }
}

void ManagedAdvice::prefetched(uint64_t address, uint64_t bytes, cudaMemLocation location) {
  size_t first = 0, end = 0;
  Allocation* a = pages_of(address, bytes, first, end);
  if (a == nullptr) return;
  for (size_t i = first; i < end; ++i) a->pages[i].last_prefetch = location;
}

bool ManagedAdvice::query(cudaMemRangeAttribute attribute, uint64_t address, uint64_t bytes, void* data,
                          size_t data_size) const {
  size_t first = 0, end = 0;
  const Allocation* a = pages_of(address, bytes, first, end);
  if (a == nullptr || data == nullptr) return false;
  bool all_read_mostly = true, all_accessed = true;
  std::optional<cudaMemLocation> preferred, prefetch;  // nullopt until the first page
  bool preferred_uniform = true, prefetch_uniform = true;
  for (size_t i = first; i < end; ++i) {
    const Page& p = a->pages[i];
    all_read_mostly &= p.read_mostly;
    all_accessed &= p.accessed_by;
    if (preferred && !same(*preferred, p.preferred)) preferred_uniform = false;
    if (prefetch && !same(*prefetch, p.last_prefetch)) prefetch_uniform = false;
    preferred = p.preferred;
    prefetch = p.last_prefetch;
  }
  // A location that differs between pages reads as no location.
  const cudaMemLocation none{cudaMemLocationTypeInvalid, 0};
  const cudaMemLocation pref = preferred && preferred_uniform ? *preferred : none;
  const cudaMemLocation last = prefetch && prefetch_uniform ? *prefetch : none;
  switch (attribute) {
    case cudaMemRangeAttributeReadMostly: return write_int(data, data_size, all_read_mostly ? 1 : 0);
    case cudaMemRangeAttributePreferredLocation: return write_int(data, data_size, device_number(pref));
    case cudaMemRangeAttributeLastPrefetchLocation: return write_int(data, data_size, device_number(last));
    case cudaMemRangeAttributePreferredLocationType: return write_int(data, data_size, pref.type);
    case cudaMemRangeAttributePreferredLocationId: return write_int(data, data_size, pref.id);
    case cudaMemRangeAttributeLastPrefetchLocationType: return write_int(data, data_size, last.type);
    case cudaMemRangeAttributeLastPrefetchLocationId: return write_int(data, data_size, last.id);
    case cudaMemRangeAttributeAccessedBy: {
      // One int per slot: the devices with SetAccessedBy on the whole range, then
      // cudaInvalidDeviceId in every remaining slot.
      if (data_size == 0 || data_size % sizeof(int) != 0) return false;
      int* slots = static_cast<int*>(data);
      for (size_t i = 0; i < data_size / sizeof(int); ++i) slots[i] = cudaInvalidDeviceId;
      if (all_accessed) slots[0] = 0;
      return true;
    }
  }
  return false;
}

}  // namespace lockstep::runtime
