#pragma once
// Per-space access to memory for the memory family's handlers (ld/st/atom/cp.async).
//
// An Access<S> is built once per instruction and turns a lane's address into a host pointer.
// The common cases are resolved inline (global memory through DeviceMemory's one-entry
// translation cache, shared memory straight from the CTA's buffer); everything else, and every
// failing access, goes through the Warp accessors, which raise the out-of-bounds fault. The
// alignment check is done here so that a misaligned access always reports FaultKind::Misaligned
// with the space it was made in.
#include <algorithm>
#include <cstdint>

#include "func/device_memory.h"
#include "func/exec_inst.h"
#include "func/warp.h"

namespace lockstep::func::memory {

// Where a handler's addresses point. Const data lives in device memory, so .const accesses use
// Global; .param accesses of call frames use Local with the frame base added (see frame_bias).
enum class Space : uint8_t { Global, Shared, Local, Generic, Param };

const char* space_name(Space space);

// Raises FaultKind::Misaligned (kept out of line: it is the cold path of every access).
[[noreturn]] void fault_misaligned(Warp& w, uint32_t lane, uint64_t address, uint32_t size,
                                   Space space);

inline bool misaligned(uint64_t address, uint32_t align) {
  return (address & (align - 1)) != 0;
}

// The constant added to a lane's base register: the instruction's offset plus, for frame
// relative accesses (ExecInst::aux2 bit 0: .local variables and .param of .func/call
// sequences), the current call frame's base.
inline uint64_t frame_bias(const ExecInst& in, const Warp& w) {
  const uint64_t frame = (in.aux2 & 1) ? w.frame_base() : 0;
  return static_cast<uint64_t>(in.offset) + frame;
}

// Shared and local addresses are 32 bits wide on the GPU: [reg+imm] wraps modulo 2^32 (a
// 32-bit register near 2^32 plus an offset lands near 0, as real programs rely on).
inline uint64_t wrap32(uint64_t offset) { return offset & 0xffff'ffffull; }

template <Space S>
class Access;

template <>
class Access<Space::Global> {
 public:
  explicit Access(Warp& w) : w_(w), memory_(*w.launch->memory), log_(w.launch->access_log) {}
  uint8_t* at(uint64_t addr, uint32_t size, uint32_t align, uint32_t lane) {
    if (misaligned(addr, align)) [[unlikely]]
      fault_misaligned(w_, lane, addr, size, Space::Global);
    if (log_ != nullptr) [[unlikely]]
      log_->add(lane, addr, size, AccessSpace::kGlobal);
    if (uint8_t* p = memory_.translate(addr, size)) [[likely]]
      return p;
    return w_.global(addr, size, align, lane);
  }

 private:
  Warp& w_;
  MemoryView& memory_;
  AccessLog* log_;
};

template <>
class Access<Space::Shared> {
 public:
  explicit Access(Warp& w)
      : w_(w),
        bytes_(w.cta->shared.data()),
        limit_(std::min<uint64_t>(w.cta->shared_size, w.cta->shared.size())),
        log_(w.launch->access_log) {}
  uint8_t* at(uint64_t offset, uint32_t size, uint32_t align, uint32_t lane) {
    offset = wrap32(offset);
    if (misaligned(offset, align)) [[unlikely]] {
      fault_misaligned(w_, lane, offset, size, Space::Shared);
    }
    if (log_ != nullptr) [[unlikely]]
      log_->add(lane, offset, size, AccessSpace::kShared);
    if (offset < limit_ && size <= limit_ - offset) [[likely]]
      return bytes_ + offset;
    return w_.shared(offset, size, align, lane);
  }

 private:
  Warp& w_;
  uint8_t* bytes_;
  uint64_t limit_;
  AccessLog* log_;
};

template <>
class Access<Space::Local> {
 public:
  explicit Access(Warp& w) : w_(w), log_(w.launch->access_log) {}
  uint8_t* at(uint64_t offset, uint32_t size, uint32_t align, uint32_t lane) {
    offset = wrap32(offset);
    if (misaligned(offset, align)) [[unlikely]]
      fault_misaligned(w_, lane, offset, size, Space::Local);
    if (log_ != nullptr) [[unlikely]]
      log_->add(lane, offset, size, AccessSpace::kLocal);
    return w_.local(offset, size, align, lane);
  }

 private:
  Warp& w_;
  AccessLog* log_;
};

// Generic addresses: the shared and local windows of device_memory.h, global elsewhere.
template <>
class Access<Space::Generic> {
 public:
  explicit Access(Warp& w)
      : w_(w),
        memory_(*w.launch->memory),
        shared_(w.cta->shared.data()),
        shared_limit_(std::min<uint64_t>(w.cta->shared_size, w.cta->shared.size())),
        log_(w.launch->access_log) {}
  uint8_t* at(uint64_t addr, uint32_t size, uint32_t align, uint32_t lane) {
    if (misaligned(addr, align)) [[unlikely]] {
      fault_misaligned(w_, lane, addr, size, Space::Generic);
    }
    if (log_ != nullptr) [[unlikely]]
      record(addr, size, lane);
    const uint64_t shared_offset = addr - kSharedWindow;
    if (shared_offset < kWindowSize) {
      if (shared_offset < shared_limit_ && size <= shared_limit_ - shared_offset) {
        return shared_ + shared_offset;
      }
    } else if (addr - kLocalWindow >= kWindowSize) {
      if (uint8_t* p = memory_.translate(addr, size)) [[likely]]
        return p;
    }
    return w_.generic(addr, size, align, lane);
  }
  // Stores and atomics: as at(), but the parameter window is read only.
  uint8_t* write_at(uint64_t addr, uint32_t size, uint32_t align, uint32_t lane) {
    if (addr - kParamWindow < kWindowSize) [[unlikely]]
      return w_.generic(addr, size, align, lane, true);
    return at(addr, size, align, lane);
  }

 private:
  // The window an address falls in decides the space the hierarchy sees. Kernel parameters
  // are not logged, as ld.param is not: the instruction's own latency covers them.
  void record(uint64_t addr, uint32_t size, uint32_t lane) {
    if (addr - kParamWindow < kWindowSize) return;
    if (addr - kSharedWindow < kWindowSize) {
      log_->add(lane, addr - kSharedWindow, size, AccessSpace::kShared);
    } else if (addr - kLocalWindow < kWindowSize) {
      log_->add(lane, addr - kLocalWindow, size, AccessSpace::kLocal);
    } else {
      log_->add(lane, addr, size, AccessSpace::kGlobal);
    }
  }

  Warp& w_;
  MemoryView& memory_;
  uint8_t* shared_;
  uint64_t shared_limit_;
  AccessLog* log_;
};

// Stores and atomics ask for a writable pointer: through a generic address that is write_at,
// which refuses the parameter window.
template <Space S, class A>
uint8_t* writable(A& access, uint64_t addr, uint32_t size, uint32_t align, uint32_t lane) {
  if constexpr (S == Space::Generic) {
    return access.write_at(addr, size, align, lane);
  } else {
    return access.at(addr, size, align, lane);
  }
}

// The kernel parameter buffer: read only, the same bytes for every lane.
template <>
class Access<Space::Param> {
 public:
  explicit Access(Warp& w) : w_(w), bytes_(w.params()), size_(w.launch->param_size) {}
  const uint8_t* at(uint64_t offset, uint32_t size, uint32_t align, uint32_t lane) {
    if (misaligned(offset, align)) [[unlikely]]
      fault_misaligned(w_, lane, offset, size, Space::Param);
    if (offset < size_ && size <= size_ - offset) [[likely]]
      return bytes_ + offset;
    w_.fault(FaultKind::OutOfBounds, lane, offset, size, "param");
  }

 private:
  Warp& w_;
  const uint8_t* bytes_;
  uint64_t size_;
};

}  // namespace lockstep::func::memory
