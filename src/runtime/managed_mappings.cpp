#include "runtime/managed_mappings.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "func/device_memory.h"

namespace lockstep::runtime {

namespace {

// Where the window is taken (by another mapping of the process), the next try starts this far
// above; after this many tries the kernel picks the address.
constexpr uint64_t kRetryStep = 4ull << 30;
constexpr int kWindowTries = 64;

size_t round_up(size_t value, size_t unit) { return (value + unit - 1) / unit * unit; }

// Addresses a kernel would read as shared, local or function addresses, or the managed
// window's upper end: a mapping there would be misread.
bool overlaps_device_windows(uint64_t base, uint64_t length) {
  const uint64_t lo = func::kFunctionWindow, hi = func::kLocalWindow + func::kWindowSize;
  return base < hi && base + length > lo;
}

}  // namespace

ManagedMappings::ManagedMappings()
    : page_(static_cast<size_t>(sysconf(_SC_PAGESIZE))), next_(func::kManagedWindow) {}

ManagedMappings::~ManagedMappings() {
  for (const auto& [base, range] : mappings_)
    munmap(reinterpret_cast<void*>(base), round_up(std::max<uint64_t>(range.bytes, 1), page_));
}

void* ManagedMappings::map_in_window(size_t length) {
  for (int attempt = 0; attempt < kWindowTries && next_ + length <= func::kFunctionWindow; ++attempt) {
    void* want = reinterpret_cast<void*>(next_);
    void* got = mmap(want, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (got == want) {
      next_ += length + page_;  // an unmapped page between mappings: overruns fault on both sides
      return got;
    }
    // A kernel without MAP_FIXED_NOREPLACE treats the address as a hint and maps elsewhere.
    if (got != MAP_FAILED) munmap(got, length);
    else if (errno != EEXIST) return nullptr;
    next_ += kRetryStep;
  }
  return nullptr;
}

void* ManagedMappings::map(size_t bytes) {
  const size_t length = round_up(std::max<size_t>(bytes, 1), page_);
  void* p = map_in_window(length);
  if (p == nullptr) {
    p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    if (overlaps_device_windows(reinterpret_cast<uint64_t>(p), length)) {
      munmap(p, length);
      return nullptr;
    }
  }
  const uint64_t base = reinterpret_cast<uint64_t>(p);
  mappings_[base] = Range{base, bytes};
  return p;
}

bool ManagedMappings::unmap(void* base) {
  auto it = mappings_.find(reinterpret_cast<uint64_t>(base));
  if (it == mappings_.end()) return false;
  munmap(base, round_up(std::max<uint64_t>(it->second.bytes, 1), page_));
  mappings_.erase(it);
  return true;
}

const ManagedMappings::Range* ManagedMappings::find(uint64_t address) const {
  auto it = mappings_.upper_bound(address);
  if (it == mappings_.begin()) return nullptr;
  --it;
  return address - it->first < std::max<uint64_t>(it->second.bytes, 1) ? &it->second : nullptr;
}

}  // namespace lockstep::runtime
