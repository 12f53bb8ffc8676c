#pragma once
// Device global memory: a set of allocations in a 64-bit device address space. Module
// variables (.global, .const) live here too, so their addresses are ordinary device addresses.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>

namespace lockstep::func {

// Generic-address windows (cvta): shared and local addresses map into these ranges; anything
// else is a global address.
inline constexpr uint64_t kSharedWindow = 0x0000'5000'0000'0000ull;
inline constexpr uint64_t kLocalWindow = 0x0000'6000'0000'0000ull;
inline constexpr uint64_t kWindowSize = 0x0000'0001'0000'0000ull;  // 4 GiB each
// Kernel parameters seen through generic addresses (cvta.param, __grid_constant__): offset o of
// the launch's parameter buffer is kParamWindow + o. Read only: stores there fault.
inline constexpr uint64_t kParamWindow = 0x0000'5800'0000'0000ull;
inline constexpr uint64_t kGlobalBase = 0x0000'7000'0000'0000ull;
// Function addresses (function pointers, virtual tables): module m's functions start at
// kFunctionWindow + (m << 32), 16 bytes apart. Nothing can be loaded from them.
inline constexpr uint64_t kFunctionWindow = 0x0000'4000'0000'0000ull;
// Managed (unified) memory: host mappings that kernels reach at the same numeric address. The
// runtime places them from here upwards; no other window starts below kFunctionWindow.
inline constexpr uint64_t kManagedWindow = 0x0000'3000'0000'0000ull;
// Where the timing model sees host memory that the OS placed (cudaHostRegister of the program's
// own memory): stand-in addresses, handed out in registration order (stable_address).
inline constexpr uint64_t kForeignAliasWindow = 0x0000'2000'0000'0000ull;

class DeviceMemory {
 public:
  struct Allocation {
    uint64_t base = 0;
    uint64_t size = 0;
    // Bytes behind base that kernels may touch without a fault when bounds are not strict: the
    // allocation rounded up to 256 bytes plus the 256-byte gap after it (zero-filled, owned by
    // this allocation alone). Adopted host memory has no more than its size.
    uint64_t mapped = 0;
    std::unique_ptr<uint8_t[]> bytes;
    uint8_t* adopted = nullptr;  // bytes owned by someone else (host-mapped memory), or null
    uint8_t* data() const { return adopted != nullptr ? adopted : bytes.get(); }
  };

  // Zero-filled allocation; returns its device address (aligned to `align`, at least 256).
  uint64_t allocate(uint64_t size, uint64_t align = 256);
  // An address range of `size` bytes (and its gap) that allocate() will never hand out, with
  // nothing mapped there yet: graph memory nodes fix their address when made and map it only
  // while the graph's allocation is live (allocate_at).
  uint64_t reserve(uint64_t size, uint64_t align = 256);
  // Zero-filled allocation at `base` (a reserve() result); false, with nothing allocated, when
  // the range overlaps an allocation.
  bool allocate_at(uint64_t base, uint64_t size);
  // Registers [base, base + size) as an allocation whose bytes are `host_bytes`, which the
  // caller owns and keeps alive until release(base) (managed memory: base == host_bytes).
  // False, and nothing registered, when the range overlaps an allocation or wraps around.
  bool adopt(uint64_t base, uint64_t size, uint8_t* host_bytes);
  // Frees the allocation starting at addr; false if addr is not the start of one.
  bool release(uint64_t addr);

  // The address the timing model's caches and DRAM see for global address `addr`: `addr`
  // itself, except in adopted memory outside lockstep's own windows, whose address the OS chose
  // and which differs from run to run (address-space randomisation, and the allocator's layout
  // with it). There it is a page-aligned stand-in handed out in adoption order, plus the
  // address's offset within 16 bytes, so that the same program gives the same cycles on every run.
  uint64_t stable_address(uint64_t addr) const { return foreign_.empty() ? addr : foreign_address(addr); }

  // Host pointer to [addr, addr + size) when it lies inside one allocation, else nullptr.
  // Host-side copies use this; kernels go through a MemoryView.
  uint8_t* translate(uint64_t addr, uint64_t size) const;

  // The allocation containing addr, if any (for fault reports and cudaPointerGetAttributes).
  const Allocation* find(uint64_t addr) const;
  // The allocation with the greatest base <= addr, whether or not it contains addr.
  const Allocation* at_or_below(uint64_t addr) const;

  // How kernels' accesses are checked. Not strict (the default): an access a little past the
  // end of an allocation, into memory a GPU maps there too, reads and writes that allocation's
  // slack (Allocation::mapped) instead of faulting, as real programs rely on. Strict
  // (--memcheck): every byte outside an allocation faults. Host copies are always strict.
  void set_strict_bounds(bool strict) { strict_bounds_ = strict; }
  bool strict_bounds() const { return strict_bounds_; }
  uint64_t bytes_allocated() const { return bytes_allocated_; }
  // Every allocation by base (the deadlock detectors hash their bytes).
  const std::map<uint64_t, Allocation>& allocations() const { return allocations_; }

 private:
  // A new allocation of `size` bytes at `base`, `mapped` bytes of zeros behind it.
  void map_zeroed(uint64_t base, uint64_t size, uint64_t mapped);
  uint64_t foreign_address(uint64_t addr) const;
  std::map<uint64_t, Allocation> allocations_;  // by base
  struct Foreign {
    uint64_t size = 0;
    uint64_t alias = 0;  // the stand-in for the base
  };
  std::map<uint64_t, Foreign> foreign_;  // adopted allocations at addresses the OS chose, by base
  uint64_t next_alias_ = kForeignAliasWindow;
  bool strict_bounds_ = false;
  uint64_t next_ = kGlobalBase;
  uint64_t bytes_allocated_ = 0;
};

// One reader's window onto device memory for the length of a launch: translation with a
// one-entry cache, since most accesses of a warp hit the allocation the last one did. Each
// reader that may run beside others (each SM of the timing model) has its own view, so that
// reading memory changes nothing they share. Allocations made during the view's life are seen;
// a release() must not happen during it (the cache could point at freed bytes), and none
// does: the engine frees nothing while a kernel runs.
class MemoryView {
 public:
  explicit MemoryView(const DeviceMemory& memory) : memory_(&memory) {}

  uint8_t* translate(uint64_t addr, uint64_t size) {
    const uint64_t rel = addr - cache_base_;
    if (rel < cache_size_ && size <= cache_size_ - rel) return cache_bytes_ + rel;
    return translate_slow(addr, size);
  }
  const DeviceMemory& memory() const { return *memory_; }

 private:
  uint8_t* translate_slow(uint64_t addr, uint64_t size);

  const DeviceMemory* memory_;
  uint64_t cache_base_ = 0;
  uint64_t cache_size_ = 0;
  uint8_t* cache_bytes_ = nullptr;
};

}  // namespace lockstep::func
