#pragma once
// What a warp-synchronizing instruction asks of its warp's divergence unit
// (DivergenceUnit::sync_warp); the binder records it in ExecInst::warp_sync.
#include <cstdint>

namespace lockstep::func {

enum class WarpSyncKind : uint8_t {
  // An ordinary instruction.
  None,
  // bar.warp.sync (__syncwarp): every arrived thread goes on past its own instance, which may be
  // another instruction at another PC (sm_70+).
  Barrier,
  // shfl/vote/match/redux/elect .sync: the threads of membermask run this one instruction together.
  Collective,
};

}  // namespace lockstep::func
