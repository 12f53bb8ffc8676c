#include "func/ops/memory_space.h"

namespace lockstep::func::memory {

const char* space_name(Space space) {
  switch (space) {
    case Space::Global:
      return "global";
    case Space::Shared:
      return "shared";
    case Space::Local:
      return "local";
    case Space::Generic:
      return "generic";
    case Space::Param:
      return "param";
  }
  return "unknown";
}

void fault_misaligned(Warp& w, uint32_t lane, uint64_t address, uint32_t size, Space space) {
  w.fault(FaultKind::Misaligned, lane, address, size, space_name(space),
          "address not aligned to the access size");
}

}  // namespace lockstep::func::memory
