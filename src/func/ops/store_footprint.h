#pragma once
// The bytes a parked st writes, worked out before it runs, so that the functional wave runner
// can commit stores that touch nothing else on several threads (func/commit_plan.h). Lives with
// the memory family because it reads st's operands as st_h does (memory_load_store.cpp).
#include <cstdint>

#include "func/commit_plan.h"
#include "func/exec_inst.h"
#include "func/lanes.h"

namespace lockstep::func {
class Warp;
}

namespace lockstep::func::memory {

// Bytes one lane writes when `fn` is the handler of a plain st of global or generic memory
// (element size times vector width); 0 for every other handler.
uint32_t plain_store_bytes(Handler fn);

// The footprint of the st `in` (whose handler writes `bytes` per lane, plain_store_bytes) for
// `lanes` of `w`: known when every lane's address is aligned, outside the shared, local and
// parameter windows and inside device memory as the warp's view maps it, so the store cannot
// fault and writes global memory only. Reads registers and translates addresses; changes nothing
// but the view's translation cache.
ParkedFootprint plain_store_footprint(const ExecInst& in, Warp& w, LaneMask lanes, uint32_t bytes);

}  // namespace lockstep::func::memory
