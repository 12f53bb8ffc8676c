#include "func/shared_layout.h"

namespace lockstep::func {

namespace {

uint32_t align_up(uint32_t value, uint32_t unit) { return (value + unit - 1) / unit * unit; }

bool reads_reserved_region(const BoundKernel& kernel) {
  using S = ir::SpecialReg;
  for (const SpecialSlot& s : kernel.specials)
    if (s.reg == S::ReservedSmemBegin || s.reg == S::ReservedSmemEnd || s.reg == S::ReservedSmemOffset)
      return true;
  return false;
}

}  // namespace

SharedLayout shared_layout(const BoundKernel& kernel, uint32_t dynamic_shared) {
  const ir::KernelProgram& k = *kernel.program;
  SharedLayout layout;
  layout.user_bytes = k.static_shared_size;
  if (k.uses_dynamic_shared || dynamic_shared != 0)
    layout.user_bytes = align_up(k.static_shared_size, k.dynamic_shared_align) + dynamic_shared;
  layout.reserved_begin = align_up(layout.user_bytes, kSharedAllocUnit);
  layout.has_reserved = reads_reserved_region(kernel);
  return layout;
}

}  // namespace lockstep::func
