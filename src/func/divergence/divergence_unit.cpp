#include "func/divergence/divergence_unit.h"

#include "func/warp.h"

namespace lockstep::func {

void DivergenceUnit::set_aside(Warp& warp, LaneMask lanes, ir::Pc at) {
  branch(warp, lanes, at, warp.pc, warp.pc);
}

}  // namespace lockstep::func
