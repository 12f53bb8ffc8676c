#include "func/device_memory.h"

#include <algorithm>
#include <iterator>

namespace lockstep::func {

namespace {

// The lowest base at or above `next` (aligned to `align`) where `bytes` and the 256-byte gap
// after them touch no allocation. Adopted host mappings may sit anywhere; earlier allocate()
// results always end more than 256 bytes before `next`.
uint64_t free_base(const std::map<uint64_t, DeviceMemory::Allocation>& allocations, uint64_t next, uint64_t bytes,
                   uint64_t align) {
  uint64_t base = (next + align - 1) / align * align;
  for (auto it = allocations.upper_bound(base + bytes + 255); it != allocations.begin();
       it = allocations.upper_bound(base + bytes + 255)) {
    const DeviceMemory::Allocation& last = std::prev(it)->second;
    const uint64_t end = last.base + std::max<uint64_t>(last.size, 1);
    if (end + 256 <= base) break;
    base = (end + 256 + align - 1) / align * align;
  }
  return base;
}

// A gap follows every allocation, so that small overruns land in memory of their own: the
// allocation's slack when bounds are not strict, a fault (as a memory checker reports it) when they are.
uint64_t mapped_bytes(uint64_t bytes) { return (bytes + 255) / 256 * 256 + 256; }

}  // namespace

uint64_t DeviceMemory::allocate(uint64_t size, uint64_t align) {
  align = std::max<uint64_t>(align, 256);
  const uint64_t bytes = std::max<uint64_t>(size, 1);
  const uint64_t base = free_base(allocations_, next_, bytes, align);
  const uint64_t mapped = mapped_bytes(bytes);
  map_zeroed(base, size, mapped);
  next_ = base + mapped;
  return base;
}

uint64_t DeviceMemory::reserve(uint64_t size, uint64_t align) {
  // next_ moves past the range for good, so allocate() never hands it out.
  align = std::max<uint64_t>(align, 256);
  const uint64_t bytes = std::max<uint64_t>(size, 1);
  const uint64_t base = free_base(allocations_, next_, bytes, align);
  next_ = base + mapped_bytes(bytes);
  return base;
}

bool DeviceMemory::allocate_at(uint64_t base, uint64_t size) {
  const uint64_t mapped = mapped_bytes(std::max<uint64_t>(size, 1));
  if (base + mapped < base) return false;
  auto next = allocations_.lower_bound(base);
  if (next != allocations_.end() && next->first < base + mapped) return false;
  if (next != allocations_.begin()) {
    const Allocation& before = std::prev(next)->second;
    if (base - before.base < std::max<uint64_t>(before.mapped, std::max<uint64_t>(before.size, 1))) return false;
  }
  map_zeroed(base, size, mapped);
  return true;
}

void DeviceMemory::map_zeroed(uint64_t base, uint64_t size, uint64_t mapped) {
  Allocation a;
  a.base = base;
  a.size = size;
  a.mapped = mapped;
  a.bytes = std::make_unique<uint8_t[]>(mapped);  // value-initialised: zero
  allocations_.emplace(base, std::move(a));
  bytes_allocated_ += size;
}

bool DeviceMemory::adopt(uint64_t base, uint64_t size, uint8_t* host_bytes) {
  const uint64_t bytes = std::max<uint64_t>(size, 1);
  if (host_bytes == nullptr || base + bytes < base) return false;
  auto next = allocations_.lower_bound(base);
  if (next != allocations_.end() && next->first < base + bytes) return false;
  if (next != allocations_.begin()) {
    const Allocation& before = std::prev(next)->second;
    if (base - before.base < std::max<uint64_t>(before.size, 1)) return false;
  }
  Allocation a;
  a.base = base;
  a.size = size;
  a.mapped = size;
  a.adopted = host_bytes;
  allocations_.emplace(base, std::move(a));
  bytes_allocated_ += size;
  if (base < kManagedWindow || base >= kFunctionWindow) {  // not placed by lockstep: see stable_address
    // Where in a page (or a cache line) the OS and the allocator put the block is not the
    // program's doing either: only its offset within the 16 bytes every allocator aligns to is.
    constexpr uint64_t kPage = 4096, kAllocatorAlignment = 16;
    const uint64_t alias = next_alias_ + base % kAllocatorAlignment;
    foreign_.emplace(base, Foreign{bytes, alias});
    next_alias_ += (kAllocatorAlignment + bytes + 2 * kPage - 1) / kPage * kPage;  // and a page between
    if (next_alias_ >= kManagedWindow) next_alias_ = kForeignAliasWindow;  // 16 TiB later: start over
  }
  return true;
}

uint64_t DeviceMemory::foreign_address(uint64_t addr) const {
  auto it = foreign_.upper_bound(addr);
  if (it == foreign_.begin()) return addr;
  --it;
  const uint64_t offset = addr - it->first;
  return offset < it->second.size ? it->second.alias + offset : addr;
}

bool DeviceMemory::release(uint64_t addr) {
  auto it = allocations_.find(addr);
  if (it == allocations_.end()) return false;
  bytes_allocated_ -= it->second.size;
  allocations_.erase(it);
  foreign_.erase(addr);
  return true;
}

const DeviceMemory::Allocation* DeviceMemory::find(uint64_t addr) const {
  auto it = allocations_.upper_bound(addr);
  if (it == allocations_.begin()) return nullptr;
  --it;
  const Allocation& a = it->second;
  if (addr - a.base < a.size) return &a;
  return nullptr;
}

const DeviceMemory::Allocation* DeviceMemory::at_or_below(uint64_t addr) const {
  auto it = allocations_.upper_bound(addr);
  if (it == allocations_.begin()) return nullptr;
  return &std::prev(it)->second;
}

uint8_t* DeviceMemory::translate(uint64_t addr, uint64_t size) const {
  const Allocation* a = find(addr);
  if (a == nullptr) return nullptr;
  const uint64_t rel = addr - a->base;
  if (size > a->size - rel) return nullptr;
  return a->data() + rel;
}

uint8_t* MemoryView::translate_slow(uint64_t addr, uint64_t size) {
  // The allocation at or below addr; how far it reaches depends on the checking mode.
  const DeviceMemory::Allocation* a = memory_->at_or_below(addr);
  if (a == nullptr) return nullptr;
  const uint64_t extent = memory_->strict_bounds() ? a->size : a->mapped;
  const uint64_t rel = addr - a->base;
  if (rel >= extent || size > extent - rel) return nullptr;
  cache_base_ = a->base;
  cache_size_ = extent;
  cache_bytes_ = a->data();
  return cache_bytes_ + rel;
}

}  // namespace lockstep::func
