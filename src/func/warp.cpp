#include "func/warp.h"

namespace lockstep::func {

const char* to_string(FaultKind kind) {
  switch (kind) {
    case FaultKind::OutOfBounds: return "out-of-bounds access";
    case FaultKind::Misaligned: return "misaligned access";
    case FaultKind::Trap: return "trap";
    case FaultKind::AssertFailed: return "assertion failed";
    case FaultKind::StackOverflow: return "stack overflow";
    case FaultKind::InvalidFree: return "invalid free";
    case FaultKind::Deadlock: return "deadlock";
    case FaultKind::Unsupported: return "unsupported operation";
    case FaultKind::MbarrierMisuse: return "invalid mbarrier operation";
    case FaultKind::Interrupted: return "interrupted";
  }
  return "fault";
}

void Warp::fault(FaultKind kind, uint32_t lane, uint64_t address, uint32_t size, const char* space,
                 std::string detail) {
  throw FaultException{DeviceFault{kind, lane, address, size, space, std::move(detail)}};
}

uint8_t* Warp::global(uint64_t addr, uint32_t size, uint32_t align, uint32_t lane) {
  if (addr & (align - 1)) fault(FaultKind::Misaligned, lane, addr, size, "global");
  uint8_t* p = launch->memory->translate(addr, size);
  if (p == nullptr) fault(FaultKind::OutOfBounds, lane, addr, size, "global");
  return p;
}

uint8_t* Warp::shared(uint64_t offset, uint32_t size, uint32_t align, uint32_t lane) {
  if (offset & (align - 1)) fault(FaultKind::Misaligned, lane, offset, size, "shared");
  if (offset > cta->shared_size || size > cta->shared_size - offset)
    fault(FaultKind::OutOfBounds, lane, offset, size, "shared");
  return cta->shared.data() + offset;
}

uint8_t* Warp::local(uint64_t offset, uint32_t size, uint32_t align, uint32_t lane) {
  if (offset & (align - 1)) fault(FaultKind::Misaligned, lane, offset, size, "local");
  const uint32_t stack = launch->stack_size;
  if (offset > stack || size > stack - offset) fault(FaultKind::OutOfBounds, lane, offset, size, "local");
  return local_memory.data() + static_cast<size_t>(lane) * stack + offset;
}

const uint8_t* Warp::param(uint64_t offset, uint32_t size, uint32_t align, uint32_t lane) {
  if (offset & (align - 1)) fault(FaultKind::Misaligned, lane, offset, size, "param");
  const uint32_t bytes = launch->param_size;
  if (offset > bytes || size > bytes - offset) fault(FaultKind::OutOfBounds, lane, offset, size, "param");
  return launch->params + offset;
}

uint8_t* Warp::generic(uint64_t addr, uint32_t size, uint32_t align, uint32_t lane, bool write) {
  if (addr - kSharedWindow < kWindowSize) return shared(addr - kSharedWindow, size, align, lane);
  if (addr - kLocalWindow < kWindowSize) return local(addr - kLocalWindow, size, align, lane);
  if (addr - kParamWindow < kWindowSize) {
    if (write)
      fault(FaultKind::OutOfBounds, lane, addr - kParamWindow, size, "param",
            "kernel parameters are read only");
    // Readers (ld, wmma.load, printf's arguments) get the buffer; every store passes write.
    return const_cast<uint8_t*>(param(addr - kParamWindow, size, align, lane));
  }
  return global(addr, size, align, lane);
}

}  // namespace lockstep::func
